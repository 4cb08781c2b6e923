// The board page: draws the game the server keeps, sends the person's actions to the JSON API
// and follows the game's server-sent events (state changes and live engine output).
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const CELL = 40;
  const MARGIN = 46;
  const GAME_KEY = 'gomoku.game';      // per tab: sessionStorage
  const SETTINGS_KEY = 'gomoku.settings';
  const LANG_KEY = 'gomoku.lang';
  const PV_KEY = 'gomoku.showLine';
  const HEAT_KEY = 'gomoku.heatMap';
  // a cell smaller than this (in CSS pixels) takes a tap to preview and a second to play
  const CONFIRM_CELL_PX = 28;
  const HISTORY_KEY = 'gomoku.history'; // the recent games of this browser
  const HISTORY_MAX = 20;

  let lang = localStorage.getItem(LANG_KEY)
    || ((navigator.language || '').toLowerCase().startsWith('zh') ? 'zh' : 'en');
  let game = null;          // the latest state from the server
  let live = null;          // the latest search progress while the engine thinks
  let events = null;        // the EventSource of the current game
  let thinkSince = 0;       // when the current search started (local clock)
  let errorTimer = 0;
  let owned = false;        // whether this tab created the current game (and may delete it)
  let liveUpdates = 0;      // search progress events received (shown as data-live-updates)
  let clockAt = 0;          // when the state's clock was read (local clock)
  let hoverLine = null;     // the pointer on a candidate ({move}) or on the best line ({best: true})
  let setup = null;         // setting up a position: { size, stones: Map point -> colour, tool }
  let pending = null;       // small cells: the point tapped once, waiting for the second tap
  let hoverPoint = null;    // the point under the pointer (for the heat map's number)
  let treeIndex = new Map(); // the game's tree: node id -> node

  // ------------------------------------------------------------------------------------------
  // Text

  function t(key, params) {
    const dict = window.I18N[lang] || window.I18N.en;
    let s = dict[key] !== undefined ? dict[key] : (window.I18N.en[key] !== undefined ? window.I18N.en[key] : key);
    if (params) {
      for (const [k, v] of Object.entries(params)) s = s.split('{' + k + '}').join(String(v));
    }
    return s;
  }

  function colorName(c) { return t(c); }

  function applyLang() {
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    document.title = t('title');
    for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
    for (const el of document.querySelectorAll('[data-i18n-title]')) el.title = t(el.dataset.i18nTitle);
    for (const b of document.querySelectorAll('[data-lang]')) b.classList.toggle('active', b.dataset.lang === lang);
    render();
  }

  // ------------------------------------------------------------------------------------------
  // Evaluations: every value names its side. An ordinary value v (for the side it is of)
  // becomes that side's expected score 1 / (1 + exp(-v / K)), K from the server (the curve
  // `gomoku train` fits to game results); a proven one says who wins in how many moves.

  const WIN = 30000, WIN_MIN = 29000;
  function other(c) { return c === 'black' ? 'white' : 'black'; }
  function winScale() { return (game && game.win_scale) || 180; }
  // Black's expected score (0 to 1) for a value `score` of `color`.
  function blackChance(score, color) {
    const v = color === 'black' ? score : -score;
    if (v >= WIN_MIN) return 1;
    if (v <= -WIN_MIN) return 0;
    return 1 / (1 + Math.exp(-v / winScale()));
  }
  // Own moves to a proven result, as the server's `mate`: positive wins, negative loses.
  function mateOf(score) {
    if (score >= WIN_MIN) return Math.floor((WIN - score + 1) / 2);
    if (score <= -WIN_MIN) return -Math.floor((WIN + score) / 2);
    return null;
  }
  // {side, pct} or {side, mate}: the side ahead and its chance, or the winner and its moves.
  function judge(score, color, mate) {
    if (mate === undefined) mate = mateOf(score);
    if (mate !== null && mate !== undefined) return { side: mate > 0 ? color : other(color), mate: Math.abs(mate) };
    const b = blackChance(score, color);
    const side = b >= 0.5 ? 'black' : 'white';
    return { side, pct: Math.round(100 * (side === 'black' ? b : 1 - b)) };
  }
  function judgeText(j) {
    return j.mate !== undefined
      ? t('eval.wins', { side: colorName(j.side), n: j.mate })
      : t('eval.side', { side: colorName(j.side), pct: j.pct });
  }
  // "Black 64%" / "White wins in 5" for a search's figures (`info`: score, color, mate).
  function evalText(info) {
    if (!info) return '–';
    return judgeText(judge(info.score, info.color, info.mate));
  }
  // The value in the engine's own units, from Black's side: "Black +118".
  function rawText(info) {
    const v = info.color === 'black' ? info.score : -info.score;
    if (mateOf(v) !== null) return '';
    return t('eval.raw', { side: colorName(v >= 0 ? 'black' : 'white'), value: Math.abs(v) });
  }
  // A value of `color` in a review.
  function reviewValue(score, color) { return judgeText(judge(score, color)); }

  function num(n) { return Number(n).toLocaleString('en-US'); }

  // ------------------------------------------------------------------------------------------
  // Server

  async function api(method, path, body) {
    let resp;
    try {
      resp = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      throw { code: 'network', message: String(e) };
    }
    const text = await resp.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch (e) { data = text; }
    if (!resp.ok) {
      const err = (data && data.error) || { code: 'http', message: resp.status + ' ' + text };
      err.status = resp.status;
      throw err;
    }
    return data;
  }

  function showError(err) {
    const box = $('error');
    const key = 'err.' + (err.code || '');
    const known = window.I18N.en[key] !== undefined;
    box.textContent = known ? t(key) : (err.message || String(err));
    box.dataset.code = err.code || '';
    box.hidden = false;
    clearTimeout(errorTimer);
    errorTimer = setTimeout(() => { box.hidden = true; }, 6000);
  }

  function clearError() { $('error').hidden = true; }

  function setGame(state) {
    if (!state || typeof state !== 'object') return;
    if (game && state.id === game.id && state.version < game.version) return; // stale
    const wasThinking = game && game.id === state.id && game.thinking;
    if (!game || game.id !== state.id) syncPanel(state);
    if (!game || game.id !== state.id || game.version !== state.version) pending = null;
    game = state;
    treeIndex = new Map(((state.tree && state.tree.nodes) || []).map((n) => [n.id, n]));
    remember(state);
    clockAt = performance.now();
    if (state.thinking) {
      if (!wasThinking) thinkSince = performance.now() - (state.thinking.elapsed_ms || 0);
      if (state.live) live = state.live;
    } else {
      live = null;
    }
    render();
  }

  async function act(path, body) {
    if (!game) return;
    try {
      setGame(await api('POST', '/api/games/' + game.id + path, body));
      clearError();
    } catch (e) {
      showError(e);
      if (e.code === 'unknown_game') game = null;
    }
  }

  function follow(id) {
    if (events) events.close();
    events = new EventSource('/api/games/' + id + '/events');
    events.addEventListener('state', (e) => setGame(JSON.parse(e.data)));
    events.addEventListener('info', (e) => {
      const info = JSON.parse(e.data);
      if (game && game.thinking) {
        live = info;
        liveUpdates += 1;
        $('engine-info').dataset.liveUpdates = String(liveUpdates);
        renderInfo();
        if (analysing()) renderCandidateMarks();
        renderLineMarks();
      }
    });
    events.addEventListener('closed', () => {
      events.close();
      showError({ code: 'closed' });
    });
    events.onerror = async () => {
      if (events.readyState !== EventSource.CLOSED || !game) return;
      try { await api('GET', '/api/games/' + game.id); follow(game.id); } catch (e) { showError(e); }
    };
  }

  function settingsFromPanel() {
    const [black, white] = $('ng-mode').value.split('-');
    return {
      rule: $('ng-rule').value,
      size: Number($('ng-size').value),
      black, white,
      level: $('ng-level').value,
      time_ms: Number($('ng-time').value),
      opening: $('ng-opening').value,
      ...clockSetting($('ng-clock').value),
    };
  }

  // "300000+3000": 5 minutes a side and 3 s after each move; "": no clock.
  function clockSetting(value) {
    const [total, inc] = String(value || '').split('+').map(Number);
    return total > 0 ? { clock_ms: total, increment_ms: inc || 0 } : {};
  }

  // Shows a game's own settings in the new-game panel (so "Start" repeats them by default).
  function syncPanel(state) {
    const put = (id, v) => {
      const sel = $(id);
      v = String(v);
      if (![...sel.options].some((o) => o.value === v)) {
        const o = document.createElement('option');
        o.value = v;
        o.textContent = id === 'ng-time' ? (Number(v) / 1000) + ' s' : v + ' × ' + v;
        sel.appendChild(o);
      }
      sel.value = v;
    };
    put('ng-rule', state.rule);
    put('ng-size', state.size);
    put('ng-mode', state.players.black + '-' + state.players.white);
    put('ng-level', state.level);
    put('ng-time', state.time_ms);
  }

  function saveSettings() {
    const s = settingsFromPanel();
    s.mode = $('ng-mode').value;
    s.clock = $('ng-clock').value;
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(s));
  }

  function loadSettings() {
    try {
      const s = JSON.parse(localStorage.getItem(SETTINGS_KEY) || 'null');
      if (!s) return;
      for (const [id, v] of [['ng-rule', s.rule], ['ng-size', s.size], ['ng-mode', s.mode], ['ng-level', s.level], ['ng-time', s.time_ms], ['ng-opening', s.opening], ['ng-clock', s.clock]]) {
        const el = $(id);
        if (v !== undefined && [...el.options].some((o) => o.value === String(v))) el.value = String(v);
      }
    } catch (e) { /* ignore a bad saved value */ }
  }

  async function newGame(extra) {
    const body = Object.assign(settingsFromPanel(), extra || {});
    if (body.psq) delete body.size; // the record says the size
    if (body.record) { delete body.size; delete body.rule; } // the line says size and rule
    if (body.sgf) {
      // the record says the size, and the rule when it has RU[...]
      delete body.size;
      if (/\bRU\s*\[/.test(body.sgf)) delete body.rule;
    }
    if (body.opening === 'swap2' && (body.psq || body.sgf || body.position || body.setup || body.diagram || body.record || body.black === body.white)) {
      body.opening = 'free'; // swap2 is for one person against the engine, from an empty board
    }
    if (body.opening !== 'swap2' && (body.psq || body.sgf || body.position || body.setup || body.diagram || body.record)) {
      body.opening = 'free'; // the renju opening rules start from an empty board
    }
    try {
      const state = await api('POST', '/api/games', body);
      const old = owned ? game : null;
      owned = true;
      game = null;
      live = null;
      setup = null;
      setGame(state);
      sessionStorage.setItem(GAME_KEY, state.id);
      if (location.hash) history.replaceState(null, '', location.pathname);
      follow(state.id);
      clearError();
      if (old && old.id !== state.id) {
        // the old game of this tab is not needed any more
        fetch('/api/games/' + old.id, { method: 'DELETE' }).catch(() => {});
      }
      return true;
    } catch (e) {
      showError(e);
      return false;
    }
  }

  async function start() {
    // `#game=ID` opens a game from another tab (to watch or take over); otherwise this tab's own
    const shared = /[#&]game=([\w-]+)/.exec(location.hash);
    const id = shared ? shared[1] : sessionStorage.getItem(GAME_KEY);
    if (id) {
      try {
        setGame(await api('GET', '/api/games/' + id));
        owned = !shared;
        follow(id);
        return;
      } catch (e) { /* gone: start a new one */ }
    }
    await newGame();
  }

  // ------------------------------------------------------------------------------------------
  // Board

  function parsePoint(s, size) {
    const m = /^([a-z])(\d+)$/.exec(String(s).toLowerCase());
    if (!m) return null;
    return { x: m[1].charCodeAt(0) - 97, y: size - Number(m[2]) };
  }

  function pointName(x, y, size) { return String.fromCharCode(97 + x) + (size - y); }

  const px = (i) => MARGIN + i * CELL;

  function el(tag, attrs, text) {
    const e = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function starPoints(n) {
    if (n < 9) return [];
    const d = n >= 13 ? 3 : 2;
    const edges = [d, n - 1 - d];
    const pts = [];
    for (const x of edges) for (const y of edges) pts.push([x, y]);
    if (n % 2 === 1) {
      const c = (n - 1) / 2;
      pts.push([c, c]);
      if (n >= 19) for (const e of edges) pts.push([c, e], [e, c]);
    }
    return pts;
  }

  function analysing() { return !!(game && game.thinking && game.thinking.purpose === 'analysis'); }
  function reviewing() { return !!(game && game.thinking && game.thinking.purpose === 'review'); }
  function solving() { return !!(game && game.thinking && game.thinking.purpose === 'solve'); }

  // The moves of a set-up start position: its stones, not moves of the game.
  function startPlies() { return (game && game.setup_plies) || 0; }
  // The line shown: the moves on the board, then those after them (what redo replays).
  function lineMoves() { return game ? game.moves.concat(game.continuation || []) : []; }
  function currentNode() { return game && game.tree ? game.tree.current : 0; }
  function firstNode() { return game && game.tree ? game.tree.first : 0; }
  // Shows node `id` of the tree: the server puts the board there (and the analysis follows).
  function goTo(id) {
    if (!game || setup || id === null || id === undefined || id === currentNode() || !treeIndex.has(id)) return;
    act('/goto', { node: id });
  }
  // One move back or forward along the line shown, or to its ends.
  function step(where) {
    if (!game) return;
    const here = currentNode();
    const ahead = game.continuation || [];
    if (where === 'first') goTo(firstNode());
    else if (where === 'prev') { if (here !== firstNode()) goTo(treeIndex.get(here).parent); }
    else if (where === 'next') { if (ahead.length) goTo(ahead[0].node); }
    else if (where === 'last') { if (ahead.length) goTo(ahead[ahead.length - 1].node); }
  }

  // ------------------------------------------------------------------------------------------
  // Setting up a position: stones put down and taken away on the page, then a new game from them

  function setupOpen() {
    const size = Number($('ng-size').value);
    const stones = new Map();
    // from the position shown, when it is on a board of that size
    if (game && game.size === size) {
      for (const m of game.moves) if (m.x !== null && m.x !== undefined) stones.set(m.move, m.color);
    }
    hoverLine = null;
    setup = { size, stones, tool: 'black' };
    $('setup-to-move').value = '';
    render();
  }

  function setupCounts() {
    let black = 0, white = 0;
    for (const c of setup.stones.values()) { if (c === 'black') black++; else white++; }
    return { black, white };
  }

  function setupToMove() {
    const chosen = $('setup-to-move').value;
    if (chosen) return chosen;
    const c = setupCounts();
    return c.black > c.white ? 'white' : 'black';
  }

  // The setting-up board as moves for drawing: no numbers, no last move.
  function setupMoves() {
    return [...setup.stones].map(([move, color]) => {
      const p = parsePoint(move, setup.size);
      return { move, color, x: p.x, y: p.y, number: 0 };
    });
  }

  function setupClick(point) {
    if (setup.stones.has(point)) setup.stones.delete(point);
    else setup.stones.set(point, setup.tool);
    render();
  }

  async function setupDone() {
    const black = [], white = [];
    for (const [p, c] of setup.stones) (c === 'black' ? black : white).push(p);
    const body = { size: setup.size, setup: { black, white } };
    if ($('setup-to-move').value) body.setup.to_move = $('setup-to-move').value;
    saveSettings();
    // a refused position (a five already on the board, say) stays on the page to be mended
    await newGame(body);
  }

  function renderSetup() {
    const bar = $('setup-bar');
    bar.hidden = !setup;
    $('ng-setup').disabled = !!setup;
    if (!setup) return;
    for (const b of bar.querySelectorAll('[data-tool]')) b.setAttribute('aria-pressed', b.dataset.tool === setup.tool ? 'true' : 'false');
    const c = setupCounts();
    const toMove = setupToMove();
    const count = $('setup-count');
    count.textContent = t('setup.count', { black: c.black, white: c.white, color: colorName(toMove) });
    count.dataset.toMove = toMove;
  }

  // The finished (or running) review's verdicts by move number.
  function reviewByNumber() {
    const map = new Map();
    for (const m of (game && game.review && game.review.moves) || []) map.set(m.number, m);
    return map;
  }


  function personToMove() {
    if (!game || game.result) return false;
    if (game.renju && !game.renju.over) return !game.thinking && game.renju.actor === 'person' && game.renju.wants_point;
    if (game.opening) return !game.thinking && game.opening.actor === 'person' && ['three', 'five'].includes(game.opening.stage);
    return (!game.thinking || analysing()) && game.players[game.to_move] === 'person';
  }

  function renderOpening() {
    const box = $('opening');
    const o = game && game.opening;
    box.hidden = !o;
    if (o) {
      box.dataset.stage = o.stage;
      box.dataset.actor = o.actor;
      $('opening-text').textContent = t('op.' + o.stage + '.' + o.actor);
      for (const b of box.querySelectorAll('[data-choice]')) b.hidden = !o.choices.includes(b.dataset.choice);
    }
    const log = $('swap2-log');
    const lines = (game && game.swap2_log) || [];
    log.hidden = lines.length === 0;
    log.textContent = '';
    for (const line of lines) {
      const li = document.createElement('li');
      li.textContent = line.replace(/^swap2: /, '');
      log.appendChild(li);
    }
    log.scrollTop = log.scrollHeight;
  }

  // The analysis of the position on the board: live while it runs, then the finished one.
  function analysisInfo() {
    if (!game) return null;
    if (analysing()) return live;
    return game.analysis || null;
  }

  // The side to move's chance of a candidate (0 to 1).
  function candidateChance(c, color) {
    const b = blackChance(c.score, color);
    return color === 'black' ? b : 1 - b;
  }

  // The colour of a chance of the side to move on the heat map: red (lost) through yellow
  // (even) to green (won), steeper near even, where the candidates of a game mostly are.
  function heatColor(chance) {
    const c = Math.max(0, Math.min(1, chance));
    const steep = Math.tanh(5 * (c - 0.5)) / Math.tanh(2.5);
    const hue = Math.round(60 + 60 * steep);
    return `hsl(${hue}, 80%, 45%)`;
  }

  // The width of a cell on the screen, in CSS pixels.
  function cellPx() {
    const svg = $('board');
    const n = setup ? setup.size : (game ? game.size : 15);
    const w = svg.getBoundingClientRect().width;
    return w * CELL / (MARGIN * 2 + CELL * (n - 1));
  }
  // Whether a tap only previews a move (small cells): a second tap on the point plays it.
  function needsConfirm() { return cellPx() < CONFIRM_CELL_PX; }

  function renderBoard() {
    const svg = $('board');
    svg.textContent = '';
    if (!game && !setup) return;
    const n = setup ? setup.size : game.size;
    const w = MARGIN * 2 + CELL * (n - 1);
    svg.setAttribute('viewBox', `0 0 ${w} ${w}`);
    svg.dataset.size = n;
    const placing = setup ? setup.tool : game.to_move;
    svg.classList.toggle('can-play', !!setup || !!personToMove());
    svg.classList.toggle('setting-up', !!setup);
    svg.classList.toggle('turn-black', placing === 'black');
    svg.classList.toggle('turn-white', placing === 'white');
    svg.dataset.confirm = needsConfirm() ? 'yes' : 'no';

    const defs = el('defs', {});
    defs.innerHTML = '<radialGradient id="g-black" cx="35%" cy="30%" r="70%"><stop offset="0" stop-color="#777"/><stop offset="0.45" stop-color="#222"/><stop offset="1" stop-color="#000"/></radialGradient>'
      + '<radialGradient id="g-white" cx="35%" cy="30%" r="75%"><stop offset="0" stop-color="#fff"/><stop offset="0.7" stop-color="#eeeeea"/><stop offset="1" stop-color="#b8b8b0"/></radialGradient>';
    svg.appendChild(defs);
    svg.appendChild(el('rect', { x: 0, y: 0, width: w, height: w, class: 'wood', rx: 6 }));

    const grid = el('g', { class: 'grid' });
    for (let i = 0; i < n; i++) {
      grid.appendChild(el('line', { x1: px(0), y1: px(i), x2: px(n - 1), y2: px(i) }));
      grid.appendChild(el('line', { x1: px(i), y1: px(0), x2: px(i), y2: px(n - 1) }));
    }
    grid.appendChild(el('rect', { x: px(0), y: px(0), width: CELL * (n - 1), height: CELL * (n - 1), class: 'edge' }));
    svg.appendChild(grid);
    for (const [x, y] of starPoints(n)) svg.appendChild(el('circle', { cx: px(x), cy: px(y), r: 4.5, class: 'star' }));

    const labels = el('g', { class: 'labels' });
    for (let i = 0; i < n; i++) {
      const letter = String.fromCharCode(97 + i);
      labels.appendChild(el('text', { x: px(i), y: w - 14, 'text-anchor': 'middle' }, letter));
      labels.appendChild(el('text', { x: px(i), y: 24, 'text-anchor': 'middle' }, letter));
      // (two digits clear of a stone on the edge, and of a review badge on it)
      labels.appendChild(el('text', { x: 17, y: px(i) + 6, 'text-anchor': 'middle' }, String(n - i)));
      labels.appendChild(el('text', { x: w - 17, y: px(i) + 6, 'text-anchor': 'middle' }, String(n - i)));
    }
    svg.appendChild(labels);

    // the heat map of an analysis, under the stones and marks
    svg.appendChild(el('g', { class: 'heat', id: 'heat-map', 'data-testid': 'heat-map' }));

    // renju: Black's forbidden points, shown while Black is to move
    const forbidden = new Set();
    for (const f of (setup ? [] : game.forbidden) || []) {
      const p = parsePoint(f.point, n);
      if (!p) continue;
      forbidden.add(f.point);
      const g = el('g', { class: 'forbidden', 'data-forbidden': f.point, 'data-kind': f.kind });
      const r = CELL * 0.2;
      g.appendChild(el('title', {}, t('foul.' + f.kind)));
      g.appendChild(el('line', { x1: px(p.x) - r, y1: px(p.y) - r, x2: px(p.x) + r, y2: px(p.y) + r }));
      g.appendChild(el('line', { x1: px(p.x) - r, y1: px(p.y) + r, x2: px(p.x) + r, y2: px(p.y) - r }));
      svg.appendChild(g);
    }

    const winning = new Set((!setup && game.result && game.result.line) || []);
    const showNumbers = $('chk-numbers').checked;
    const stones = el('g', { class: 'stones' });
    const occupied = new Set();
    const moves = setup ? setupMoves() : game.moves;
    // the set-up stones are not numbered, nor marked as the last move
    const start = setup ? Infinity : startPlies();
    const last = moves.length && moves[moves.length - 1].number > start ? moves[moves.length - 1] : null;
    for (const m of moves) {
      if (m.x === null || m.x === undefined) continue; // a pass
      occupied.add(m.move);
      const cls = 'stone ' + m.color + (winning.has(m.move) ? ' win' : '') + (m === last ? ' last' : '');
      stones.appendChild(el('circle', {
        cx: px(m.x), cy: px(m.y), r: CELL * 0.46, class: cls,
        fill: `url(#g-${m.color})`, 'data-stone': m.move, 'data-color': m.color, 'data-number': m.number,
      }));
      if (showNumbers && m.number > start) {
        stones.appendChild(el('text', {
          x: px(m.x), y: px(m.y) + 5, class: 'num ' + m.color + (m === last ? ' last' : ''), 'text-anchor': 'middle',
        }, String(m.number)));
      }
    }
    svg.appendChild(stones);

    // the review's inaccuracies, mistakes and blunders: a badge with the mark at the stone's
    // upper right (a ring would look like the winning five's)
    const verdicts = reviewByNumber();
    for (const m of moves) {
      const v = verdicts.get(m.number);
      if (!v || !v.mark || m.x === null || m.x === undefined) continue;
      const g = el('g', { class: 'review-mark ' + v.verdict, 'data-review': m.move, 'data-verdict': v.verdict });
      const bx = px(m.x) + CELL * 0.3, by = px(m.y) - CELL * 0.3;
      g.appendChild(el('rect', { x: bx - 11, y: by - 9, width: 22, height: 17, rx: 5 }));
      g.appendChild(el('text', { x: bx, y: by + 4.5, 'text-anchor': 'middle' }, v.mark));
      svg.appendChild(g);
    }

    if (winning.size > 1) {
      const pts = [...winning].map((s) => parsePoint(s, n)).filter(Boolean);
      pts.sort((a, b) => (a.x - b.x) || (a.y - b.y));
      const a = pts[0], b = pts[pts.length - 1];
      svg.appendChild(el('line', { x1: px(a.x), y1: px(a.y), x2: px(b.x), y2: px(b.y), class: 'win-line', 'data-testid': 'win-line' }));
    }
    if (last && last.x !== null && !showNumbers) {
      svg.appendChild(el('circle', { cx: px(last.x), cy: px(last.y), r: 5.5, class: 'last-mark', 'data-testid': 'last-move' }));
    }
    // the points the analysis leaves out: a dashed ring, crossed
    if (!setup && game.analyze) {
      for (const pt of game.excluded || []) {
        const p = parsePoint(pt, n);
        if (!p) continue;
        const g = el('g', { class: 'excluded', 'data-excluded': pt });
        const r = CELL * 0.3;
        g.appendChild(el('circle', { cx: px(p.x), cy: px(p.y), r }));
        g.appendChild(el('line', { x1: px(p.x) - r * 0.7, y1: px(p.y) + r * 0.7, x2: px(p.x) + r * 0.7, y2: px(p.y) - r * 0.7 }));
        svg.appendChild(g);
      }
    }
    svg.appendChild(el('g', { class: 'pv-line', id: 'pv-marks', 'data-testid': 'pv-line' }));
    // the next move of the line shown, when a review judged it: the engine's choice there (a
    // blue dashed square) and the move played (a dashed ring with its number)
    const ahead = setup ? [] : (game.continuation || []);
    const next = ahead.length ? verdicts.get(ahead[0].number) : null;
    if (next && next.best !== next.move) {
      const p = parsePoint(next.best, n);
      const r = CELL * 0.36;
      if (p) svg.appendChild(el('rect', { x: px(p.x) - r, y: px(p.y) - r, width: 2 * r, height: 2 * r, rx: 4, class: 'review-best', 'data-testid': 'review-best', 'data-best': next.best }));
    }
    if (next) {
      const p = parsePoint(next.move, n);
      if (p) {
        const g = el('g', { class: 'review-next ' + next.verdict, 'data-testid': 'review-next', 'data-next': next.move });
        g.appendChild(el('circle', { cx: px(p.x), cy: px(p.y), r: CELL * 0.3 }));
        g.appendChild(el('text', { x: px(p.x), y: px(p.y) + 5, 'text-anchor': 'middle' }, String(next.number)));
        svg.appendChild(g);
      }
    }
    // a proven win: its line, numbered, the attacker's stones filled and the defender's hollow
    const sol = setup ? null : game.solution;
    if (sol && sol.solved) {
      const layer = el('g', { class: 'solution', 'data-testid': 'solution-line' });
      sol.line.forEach((pt, i) => {
        const p = parsePoint(pt, n);
        if (!p) return;
        const g = el('g', { class: 'sol ' + (i % 2 === 0 ? sol.color : other(sol.color)), 'data-solution': pt, 'data-step': i + 1 });
        g.appendChild(el('circle', { cx: px(p.x), cy: px(p.y), r: CELL * 0.36 }));
        g.appendChild(el('text', { x: px(p.x), y: px(p.y) + 5, 'text-anchor': 'middle' }, String(i + 1)));
        layer.appendChild(g);
      });
      svg.appendChild(layer);
    }
    if (!setup && game.hint && game.hint.move && !game.thinking) {
      const p = parsePoint(game.hint.move, n);
      if (p) svg.appendChild(el('circle', { cx: px(p.x), cy: px(p.y), r: CELL * 0.38, class: 'hint-mark', 'data-testid': 'hint-mark', 'data-hint': game.hint.move }));
    }
    // a point tapped once on small cells: the stone to come, waiting for the second tap
    if (pending && !setup && !occupied.has(pending)) {
      const p = parsePoint(pending, n);
      if (p) {
        const g = el('g', { class: 'pending ' + game.to_move, 'data-testid': 'pending', 'data-pending': pending });
        g.appendChild(el('circle', { cx: px(p.x), cy: px(p.y), r: CELL * 0.46 }));
        g.appendChild(el('circle', { cx: px(p.x), cy: px(p.y), r: CELL * 0.66, class: 'pending-ring' }));
        svg.appendChild(g);
      }
    }

    // the click targets, one per point, on top of everything
    const hits = el('g', { class: 'hits' });
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        const name = pointName(x, y, n);
        // setting up, a stone is clicked to take it away
        const blocked = !setup && (occupied.has(name) || forbidden.has(name));
        const cls = 'hit' + (blocked ? ' blocked' : '') + (setup && occupied.has(name) ? ' taken' : '');
        hits.appendChild(el('circle', { cx: px(x), cy: px(y), r: CELL * 0.48, class: cls, 'data-point': name }));
      }
    }
    svg.appendChild(hits);
    // the number of the point under the pointer (or tapped), above everything, never in the way
    svg.appendChild(el('g', { class: 'heat-label', id: 'heat-label', 'data-testid': 'heat-label' }));
    renderCandidateMarks(occupied);
    renderLineMarks();
  }

  // ------------------------------------------------------------------------------------------
  // Panels

  // The search the panel shows, and the number of moves of the position it searched.
  function shownSource() {
    if (!game) return null;
    const n = game.moves.length;
    if (game.thinking && !reviewing()) return { info: live, at: n };
    if (game.analysis) return { info: game.analysis, at: n };
    if (game.hint) return { info: game.hint, at: n };
    for (let i = n - 1; i >= 0; i--) if (game.moves[i].engine) return { info: game.moves[i].engine, at: i };
    return null;
  }

  function shownInfo() {
    const src = shownSource();
    return src ? src.info : null;
  }

  function renderInfo() {
    renderEvalBar();
    const info = shownInfo();
    const set = (id, v) => { $(id).textContent = v; };
    if (reviewing()) {
      set('info-status', t('status.reviewing', { done: game.review.done, total: game.review.total }));
    } else if (game && game.thinking) {
      const secs = ((performance.now() - thinkSince) / 1000).toFixed(1);
      set('info-status', t(analysing() ? 'info.analyzing' : 'info.thinking', { secs }));
    } else if (info) {
      const key = { hint: 'info.hint', analysis: 'info.analysis' }[info.purpose] || 'info.last';
      set('info-status', t(key, { color: colorName(info.color) }));
    } else {
      set('info-status', t('info.none'));
    }
    $('engine-info').classList.toggle('thinking', !!(game && game.thinking));
    renderCandidates();
    if (!info) {
      for (const id of ['info-move', 'info-eval', 'info-time', 'info-depth', 'info-nodes', 'info-nps', 'info-tt', 'info-pv']) set(id, '–');
      return;
    }
    set('info-move', info.move || '–');
    const ev = $('info-eval');
    ev.textContent = evalText(info);
    const raw = rawText(info);
    if (raw) {
      const small = document.createElement('small');
      small.className = 'raw';
      small.textContent = ' (' + raw + ')';
      ev.appendChild(small);
    }
    ev.classList.toggle('proven-earlier', !!info.proven_earlier);
    ev.title = info.proven_earlier ? t('eval.provenEarlier') : t('eval.tip', { k: winScale() });
    set('info-time', (info.time_ms / 1000).toFixed(2) + ' s');
    set('info-depth', info.seldepth > info.depth ? `${info.depth} / ${info.seldepth}` : String(info.depth));
    set('info-nodes', num(info.nodes));
    // a speed only where the search ran long enough to measure one
    set('info-nps', info.nps === null || info.nps === undefined ? '–' : num(info.nps));
    set('info-tt', num(info.tt_hits));
    set('info-pv', info.pv.length ? info.pv.join(' ') : '–');
  }

  // Without a search of its own, the review's value of the position on the board: the last
  // move's value for its player, or the value before the next move of the line.
  function reviewInfo() {
    if (!game || !game.review) return null;
    const verdicts = reviewByNumber();
    const last = game.moves[game.moves.length - 1];
    const v = last && verdicts.get(last.number);
    if (v) return { score: v.score, color: v.color, mate: mateOf(v.score), move: null, depth: 0 };
    const next = (game.continuation || [])[0];
    const w = next && verdicts.get(next.number);
    if (w) return { score: w.best_score, color: w.color, mate: mateOf(w.best_score), move: w.best, depth: 0 };
    return null;
  }

  // The evaluation under the board, in view on every screen: the position's value for the side
  // ahead, and a bar of Black's chance.
  function renderEvalBar() {
    const bar = $('eval-bar');
    const info = setup ? null : (shownInfo() || reviewInfo());
    const text = $('eval-text');
    const fill = $('eval-fill');
    if (!info) {
      text.textContent = t('eval.none');
      fill.style.width = '50%';
      bar.dataset.side = '';
      bar.dataset.label = '';
      return;
    }
    const j = judge(info.score, info.color, info.mate);
    let words = judgeText(j);
    if (info.proven_earlier) words += ' ✓';
    const searching = game && game.thinking && !reviewing() && !solving();
    text.textContent = words + (info.move ? ' · ' + t('eval.best', { move: info.move }) : '')
      + (searching ? ' · ' + t('eval.depth', { depth: info.depth }) : '');
    bar.dataset.side = j.side;
    bar.dataset.label = words;
    bar.title = t('eval.tip', { k: winScale() });
    fill.style.width = (100 * blackChance(info.score, info.color)).toFixed(1) + '%';
  }

  let shownCandidates = null; // what the candidate list shows (redrawn only when it changes)

  // The analysis on the board: the heat map (each candidate's cell in the colour of the side
  // to move's chance, the best one outlined) and the number of the point under the pointer.
  // Only these layers are redrawn while an analysis runs: the click targets stay, so that a
  // click is never lost between mouse down and up.
  function renderCandidateMarks(occupied) {
    const heat = $('heat-map');
    if (!heat || !game) return;
    heat.textContent = '';
    const n = game.size;
    if (!occupied) occupied = new Set(game.moves.map((m) => m.move));
    const analysis = analysisInfo();
    const cands = (analysis && analysis.candidates) || [];
    const on = $('chk-heat').checked;
    heat.dataset.on = on ? 'yes' : 'no';
    // a candidate's line on the board hides the map
    if (on && cands.length && !setup && !boardLine()) {
      const half = CELL * 0.47;
      cands.forEach((c, rank) => {
        const p = parsePoint(c.move, n);
        if (!p || occupied.has(c.move)) return;
        const chance = candidateChance(c, analysis.color);
        const g = el('g', {
          class: 'cand' + (rank === 0 ? ' best' : ''), 'data-candidate': c.move, 'data-rank': rank,
          'data-score': c.score, 'data-chance': chance.toFixed(3),
        });
        g.appendChild(el('rect', {
          x: px(p.x) - half, y: px(p.y) - half, width: 2 * half, height: 2 * half, rx: 7, fill: heatColor(chance),
        }));
        heat.appendChild(g);
      });
    }
    renderHeatLabel();
  }

  // The label of the point under the pointer or tapped once: a candidate's value, or the point
  // waiting for its second tap.
  function renderHeatLabel() {
    const layer = $('heat-label');
    if (!layer || !game) return;
    layer.textContent = '';
    delete layer.dataset.point;
    const point = pending || hoverPoint;
    if (!point || setup) return;
    const analysis = analysisInfo();
    const heatOn = $('chk-heat').checked && !boardLine();
    const c = heatOn ? ((analysis && analysis.candidates) || []).find((x) => x.move === point) : null;
    const p = parsePoint(point, game.size);
    if (!p) return;
    const parts = [];
    if (c) parts.push(point + ': ' + evalText({ score: c.score, color: analysis.color, mate: c.mate }));
    if (pending === point) parts.push(c ? t('confirm.again') : t('confirm.tap', { point }));
    if (!parts.length) return;
    const text = parts.join(' · ');
    // at least 14 pixels high on the screen, however small the board is drawn
    const unit = Math.max(1, 14 / (cellPx() / CELL) / 15);
    const font = 15 * unit;
    // above the point, or below it on the top rows; inside the board
    const y = p.y < 2 ? px(p.y) + CELL * 0.6 + font : px(p.y) - CELL * 0.5 - font * 0.4;
    const width = [...text].reduce((w, ch) => w + (ch.charCodeAt(0) > 255 ? 15 : 8.4) * unit, 16 * unit);
    const right = MARGIN * 2 + CELL * (game.size - 1);
    const x = Math.max(width / 2 + 2, Math.min(right - width / 2 - 2, px(p.x)));
    layer.dataset.point = point;
    layer.dataset.text = text;
    layer.appendChild(el('rect', { x: x - width / 2, y: y - font, width, height: font * 1.65, rx: 6 * unit }));
    layer.appendChild(el('text', { x, y: y + font * 0.2, 'text-anchor': 'middle', 'font-size': font }, text));
  }

  // The engine's line from the position on the board: the PV of the search shown, past the
  // moves played since it was searched (none when they left it).
  function engineLine() {
    if (!game || reviewing() || solving()) return null;
    const src = shownSource();
    const info = src && src.info;
    if (!info || !info.pv || !info.pv.length) return null;
    const at = src.at;
    const played = game.moves.slice(at).map((m) => m.move);
    if (played.length > info.pv.length || played.some((m, k) => info.pv[k] !== m)) return null;
    return info.pv.slice(played.length);
  }

  // The line drawn on the board: a candidate's under the pointer, the engine's under the pointer
  // or with "Best line on board" (but not over the values of an analysis or a proven win).
  function boardLine() {
    if (!game || setup) return null;
    const analysis = analysisInfo();
    const cands = (analysis && analysis.candidates) || [];
    if (hoverLine && hoverLine.move) {
      const c = cands.find((x) => x.move === hoverLine.move);
      return c ? c.pv : null;
    }
    if (hoverLine && hoverLine.best) return engineLine();
    if (!$('chk-pv').checked || cands.length || (game.solution && game.solution.solved)) return null;
    return engineLine();
  }

  // The line as numbered see-through stones, from the side to move, up to the first point taken.
  function renderLineMarks() {
    const layer = $('pv-marks');
    if (!layer || !game) return;
    layer.textContent = '';
    const line = boardLine();
    if (!line) return;
    const n = game.size;
    const taken = new Set(game.moves.map((m) => m.move));
    let color = game.to_move;
    for (let i = 0; i < line.length; i++) {
      const p = parsePoint(line[i], n);
      if (!p || taken.has(line[i])) break;
      taken.add(line[i]);
      const g = el('g', { class: 'pvs ' + color, 'data-pv': line[i], 'data-step': i + 1, 'data-color': color });
      g.appendChild(el('circle', { cx: px(p.x), cy: px(p.y), r: CELL * 0.4 }));
      g.appendChild(el('text', { x: px(p.x), y: px(p.y) + 5, 'text-anchor': 'middle' }, String(i + 1)));
      layer.appendChild(g);
      color = color === 'black' ? 'white' : 'black';
    }
  }

  function setHoverLine(h) {
    const same = (a, b) => (!a && !b) || (a && b && a.move === b.move && a.best === b.best);
    if (same(h, hoverLine)) return;
    hoverLine = h;
    renderCandidateMarks();
    renderLineMarks();
  }

  function renderCandidates() {
    const info = analysisInfo();
    const key = [info, lang];
    if (shownCandidates && shownCandidates[0] === key[0] && shownCandidates[1] === key[1]) return;
    shownCandidates = key;
    const list = $('candidates');
    list.textContent = '';
    const cands = (info && info.candidates) || [];
    $('candidates-box').hidden = cands.length === 0;
    for (const c of cands) {
      const li = document.createElement('li');
      li.dataset.move = c.move;
      li.dataset.line = c.pv.join(' ');
      const pt = document.createElement('span');
      pt.className = 'pt';
      pt.textContent = c.move;
      const ev = document.createElement('span');
      ev.className = 'ev';
      ev.textContent = evalText({ score: c.score, color: info.color, mate: c.mate });
      const chip = document.createElement('span');
      chip.className = 'chip';
      chip.style.background = heatColor(candidateChance(c, info.color));
      const line = document.createElement('span');
      line.className = 'line';
      // the whole line, cut to the width of the panel (its title has it all)
      line.textContent = c.pv.slice(1).join(' ') + ' (d' + c.depth + ')';
      line.title = c.pv.join(' ');
      const x = document.createElement('button');
      x.type = 'button';
      x.className = 'cand-x';
      x.dataset.exclude = c.move;
      x.title = t('exclude.one', { move: c.move });
      x.textContent = '×';
      li.append(chip, pt, ev, line, x);
      list.appendChild(li);
    }
  }

  // The points left out of the analysis, under the candidates.
  function renderExcluded() {
    const list = (game && game.analyze && game.excluded) || [];
    $('excluded-box').hidden = list.length === 0;
    $('excluded-list').textContent = list.join(' ');
  }

  // Leaves `point` out of the analysis (or takes it back in with `back`).
  function exclude(point, back) {
    if (!game || !game.analyze) return;
    const now = game.excluded || [];
    const next = back ? now.filter((p) => p !== point) : now.concat(now.includes(point) ? [] : [point]);
    act('/analyze', { on: true, exclude: next });
  }

  // A game's result in words.
  function resultText(r) {
    const loser = colorName(r.winner === 'black' ? 'white' : 'black');
    if (r.kind === 'draw') return t('result.draw');
    if (r.resigned) return t('result.resign', { winner: colorName(r.winner), loser });
    if (r.timeout) return t('result.timeout', { winner: colorName(r.winner), loser });
    if (r.foul) return t('result.foul', { winner: colorName(r.winner), kind: t('foul.' + r.foul) });
    return t('result.win', { winner: colorName(r.winner) });
  }

  // ------------------------------------------------------------------------------------------
  // Recent games: every game with a move is kept in this browser (its position line, result
  // and date), newest first, and can be opened again.

  function loadHistory() {
    try {
      const h = JSON.parse(localStorage.getItem(HISTORY_KEY) || '[]');
      return Array.isArray(h) ? h.filter((e) => e && typeof e.line === 'string' && typeof e.id === 'string') : [];
    } catch (e) { return []; }
  }

  function storeHistory(h) {
    try { localStorage.setItem(HISTORY_KEY, JSON.stringify(h.slice(0, HISTORY_MAX))); } catch (e) { /* full or off */ }
  }

  const remembered = new Map(); // game id -> what was saved of it (moves and result)
  async function remember(state) {
    // the moves of the line shown, and every line of the tree (saved as SGF)
    const moves = state.moves.length + (state.continuation || []).length - (state.setup_plies || 0);
    const nodes = state.tree ? state.tree.nodes.length : 0;
    const key = moves + ':' + nodes + ':' + JSON.stringify(state.result);
    if (moves < 1 || remembered.get(state.id) === key) return;
    remembered.set(state.id, key);
    try {
      const [resp, sgfResp] = await Promise.all([
        fetch('/api/games/' + state.id + '/export?format=record'),
        fetch('/api/games/' + state.id + '/export?format=sgf'),
      ]);
      if (!resp.ok) return;
      const line = (await resp.text()).trim();
      const sgf = sgfResp.ok ? await sgfResp.text() : null;
      const entry = { id: state.id, line, sgf, rule: state.rule, size: state.size, moves, result: state.result || null, at: Date.now() };
      // the same game, or the same moves opened again, once
      const h = loadHistory().filter((e) => e.id !== state.id && e.line !== line);
      h.unshift(entry);
      storeHistory(h);
      renderHistory();
    } catch (e) { remembered.delete(state.id); }
  }

  function renderHistory() {
    const list = $('history-list');
    list.textContent = '';
    const h = loadHistory();
    $('history-empty').hidden = h.length > 0;
    $('btn-history-clear').disabled = h.length === 0;
    h.forEach((e, i) => {
      const li = document.createElement('li');
      li.dataset.index = i;
      li.dataset.line = e.line;
      if (game && e.id === game.id) li.classList.add('current');
      const open = document.createElement('button');
      open.type = 'button';
      open.dataset.open = i;
      open.textContent = t('history.open');
      const when = new Date(e.at);
      const what = document.createElement('span');
      what.textContent = [
        t('rules', { rule: t('rule.' + e.rule), size: e.size }),
        e.moves === 1 ? t('history.move') : t('history.moves', { n: e.moves }),
        e.result ? resultText(e.result) : t('history.unfinished'),
        when.toLocaleDateString(lang === 'zh' ? 'zh-CN' : 'en-GB') + ' ' + when.toLocaleTimeString(lang === 'zh' ? 'zh-CN' : 'en-GB', { hour: '2-digit', minute: '2-digit' }),
      ].join(' · ');
      li.append(open, ' ', what);
      list.appendChild(li);
    });
  }

  function renderStatus() {
    const status = $('status');
    const result = $('result');
    status.dataset.setup = setup ? 'yes' : 'no';
    if (!game) { status.textContent = t('status.loading'); result.hidden = true; return; }
    $('game-rule').textContent = t('rules', { rule: t('rule.' + game.rule), size: game.size });
    const r = game.result;
    if (reviewing()) {
      status.textContent = t('status.reviewing', { done: game.review.done, total: game.review.total });
    }
    // the result takes the status's place in the same line: nothing below it moves
    status.classList.toggle('quiet', !!r && !reviewing());
    if (r) {
      if (!reviewing()) status.textContent = t('status.over');
      result.textContent = resultText(r);
      result.dataset.winner = r.winner || 'none';
      result.hidden = false;
    } else {
      result.hidden = true;
      result.textContent = '';
      delete result.dataset.winner;
      if (game.opening) {
        status.textContent = t('status.opening');
      } else if (reviewing()) {
        // said above
      } else if (solving()) {
        status.textContent = t('status.solving', { color: colorName(game.thinking.color) });
      } else if (game.thinking && !analysing()) {
        status.textContent = game.thinking.purpose === 'hint'
          ? t('status.hint') : t('status.thinking', { color: colorName(game.thinking.color) });
      } else if (game.engine_waits) {
        status.textContent = t('status.waits', { color: colorName(game.to_move) });
      } else {
        const who = game.players[game.to_move] === 'person' ? t('you') : t('theEngine');
        status.textContent = t('status.toMove', { color: colorName(game.to_move), who })
          + (analysing() ? ' · ' + t('status.analyzing') + '…' : '');
      }
    }
    if ((game.continuation || []).length && !setup && !r) {
      status.textContent += ' · ' + t('status.inLine', { k: game.moves.length, n: lineMoves().length });
    }
    if (setup) status.textContent = t('status.setup');
    status.title = status.textContent;
    status.dataset.toMove = game.to_move;
    // the moves on the board (not the set-up stones), and the node of the tree shown
    status.dataset.moves = String(game.moves.length - startPlies());
    status.dataset.node = String(currentNode());
    status.dataset.waits = game.engine_waits ? 'yes' : 'no';
    status.dataset.thinking = game.thinking ? 'yes' : 'no';
    if (game.engine_error) showError({ message: game.engine_error });
  }

  // The tree of moves, as a move list with its lines: the main line from the start, and after
  // each move that has others tried in its place, those lines in boxes of their own. The line
  // shown (the board's moves and the moves after them) stands out, the move on the board is
  // marked, and a click on any move shows the board after it.
  function renderMoves() {
    const list = $('moves');
    list.textContent = '';
    if (!game || !game.tree) return;
    const verdicts = reviewByNumber();
    const start = startPlies();
    const here = currentNode();
    const first = firstNode();
    const played = new Set(game.moves.map((m) => m.node));
    const ahead = new Set((game.continuation || []).map((m) => m.node));
    const byNode = new Map(lineMoves().filter((m) => m.node !== null).map((m) => [m.node, m]));
    if (start > 0) {
      // the set-up position's stones: one entry, which shows the board before the first move
      const stones = game.moves.slice(0, start).filter((m) => m.x !== null && m.x !== undefined);
      const entry = document.createElement('span');
      entry.className = 'setup' + (here === 0 ? ' current' : '');
      entry.dataset.testid = 'setup-entry';
      entry.dataset.node = '0';
      entry.textContent = t('setup.entry', {
        black: stones.filter((m) => m.color === 'black').length,
        white: stones.filter((m) => m.color === 'white').length,
      });
      list.appendChild(entry);
    }
    const moveEl = (id) => {
      const node = treeIndex.get(id);
      const m = byNode.get(id);
      const span = document.createElement('span');
      span.className = 'mv ' + node.color + (played.has(id) ? ' played' : '') + (ahead.has(id) ? ' ahead' : '')
        + (id === here ? ' current' : '') + (byNode.has(id) ? '' : ' off-line');
      span.dataset.testid = 'move';
      span.dataset.node = String(id);
      span.dataset.move = node.move;
      span.dataset.number = String(node.number);
      if (played.has(id)) span.dataset.played = 'yes';
      const n = document.createElement('span');
      n.className = 'n';
      n.textContent = node.number + '.';
      const pt = document.createElement('span');
      pt.className = 'pt';
      pt.textContent = node.move;
      span.append(n, pt);
      const v = m && verdicts.get(m.number);
      if (v) {
        span.dataset.verdict = v.verdict;
        span.title = t('review.tip', {
          verdict: t('verdict.' + v.verdict), value: reviewValue(v.score, v.color),
          best: v.best, bestValue: reviewValue(v.best_score, v.color), loss: Math.round(v.loss * 100),
        });
        if (v.mark) {
          const mark = document.createElement('span');
          mark.className = 'mark';
          mark.textContent = v.mark;
          span.append(mark);
        }
      } else if (m && m.engine) {
        span.title = evalText(m.engine);
      }
      return span;
    };
    // each move of a line, then the boxes of the moves tried in its place (a fork's first
    // child is its main line)
    const line = (from, box) => {
      let at = from;
      for (;;) {
        const kids = treeIndex.get(at).children;
        if (!kids.length) return;
        const [main, ...others] = kids;
        box.appendChild(moveEl(main));
        for (const o of others) {
          const sub = document.createElement('div');
          sub.className = 'variation' + (byNode.has(o) ? ' on-line' : '');
          sub.dataset.testid = 'variation';
          sub.dataset.node = String(o);
          sub.appendChild(moveEl(o));
          line(o, sub);
          box.appendChild(sub);
        }
        at = main;
      }
    };
    line(0, list);
    // the move on the board in view, inside the list only (never the page)
    const cur = list.querySelector('.current');
    if (cur) {
      const top = cur.offsetTop - list.offsetTop;
      if (top < list.scrollTop) list.scrollTop = top - 4;
      else if (top + cur.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + cur.offsetHeight - list.clientHeight + 4;
    }
    const nav = (id, off) => { $(id).disabled = off || !!setup; };
    const atEnd = !(game.continuation || []).length;
    nav('nav-first', here === first);
    nav('nav-prev', here === first);
    nav('nav-next', atEnd);
    nav('nav-last', atEnd);
    // a line can be promoted when it is not the main line, deleted from any move after the start
    let main = true;
    for (let id = here; id !== 0 && treeIndex.has(id); id = treeIndex.get(id).parent) {
      const parent = treeIndex.get(treeIndex.get(id).parent);
      if (parent && parent.children[0] !== id) main = false;
    }
    const busy = !!(game.opening || (game.renju && !game.renju.over) || setup);
    nav('btn-promote', busy || main);
    nav('btn-delete', busy || here === 0 || here === first);
  }

  function renderGraph() {
    const svg = $('graph');
    svg.textContent = '';
    const W = 340, H = 120, L = 8, R = 8, mid = H / 2, amp = H / 2 - 8;
    svg.appendChild(el('rect', { x: 0, y: 0, width: W, height: H, class: 'graph-bg' }));
    svg.appendChild(el('rect', { x: 0, y: 0, width: W, height: mid, class: 'graph-black' }));
    for (const q of [0.25, 0.75]) {
      const y = mid - amp * (2 * q - 1);
      svg.appendChild(el('line', { x1: 0, y1: y, x2: W, y2: y, class: 'graph-grid' }));
    }
    svg.appendChild(el('line', { x1: 0, y1: mid, x2: W, y2: mid, class: 'graph-axis' }));
    // labels first, so that the curve is drawn over them
    svg.appendChild(el('text', { x: 6, y: 12, class: 'graph-label' }, '▲ ' + t('graph.black')));
    svg.appendChild(el('text', { x: 6, y: H - 4, class: 'graph-label' }, '▼ ' + t('graph.white')));
    svg.appendChild(el('text', { x: W - 6, y: mid - 3, class: 'graph-label', 'text-anchor': 'end' }, '50%'));
    if (!game) return;
    const line = lineMoves();
    const total = Math.max(line.length, 10);
    const xOf = (k) => L + (W - L - R) * (k - 1) / Math.max(total - 1, 1);
    // Black's chance on the curve of every value of the page: 100% at the top
    const yOf = (score, color) => mid - amp * (2 * blackChance(score, color) - 1);
    // a review's values cover every move; otherwise the engine's own moves
    const verdicts = reviewByNumber();
    const pts = [];
    for (const m of line) {
      const v = verdicts.get(m.number);
      if (v) {
        pts.push([xOf(m.number), yOf(v.score, m.color), m, reviewValue(v.score, m.color)]);
      } else if (m.engine) {
        pts.push([xOf(m.number), yOf(m.engine.score, m.engine.color), m, evalText(m.engine)]);
      }
    }
    if ((game.continuation || []).length) {
      const x = xOf(Math.max(game.moves.length, 1));
      svg.appendChild(el('line', { x1: x, y1: 0, x2: x, y2: H, class: 'graph-cursor', 'data-testid': 'graph-cursor' }));
    }
    if (pts.length > 1) {
      svg.appendChild(el('polyline', { points: pts.map((p) => p[0].toFixed(1) + ',' + p[1].toFixed(1)).join(' '), class: 'graph-line' }));
    }
    for (const [x, y, m, text] of pts) {
      const c = el('circle', { cx: x, cy: y, r: 3, class: 'graph-dot ' + m.color, 'data-number': m.number, 'data-node': m.node });
      c.appendChild(el('title', {}, `${m.number}. ${m.move}: ${text}`));
      svg.appendChild(c);
    }
  }

  function renderReview() {
    const box = $('review-box');
    const r = game && game.review;
    box.hidden = !r;
    if (!r) return;
    box.dataset.running = r.running ? 'yes' : 'no';
    box.dataset.complete = r.complete ? 'yes' : 'no';
    const secs = (r.time_ms / 1000).toFixed(1);
    let status;
    if (r.running) status = t('review.running', { secs, done: r.done, total: r.total });
    else if (!r.complete) status = t('review.stopped', { n: r.moves.length });
    else status = t('review.done', { secs });
    $('review-status').textContent = status;
    const counts = $('review-counts');
    counts.textContent = '';
    for (const color of ['black', 'white']) {
      const tr = document.createElement('tr');
      tr.dataset.color = color;
      const name = document.createElement('td');
      name.textContent = colorName(color);
      tr.appendChild(name);
      for (const v of ['best', 'good', 'inaccuracy', 'mistake', 'blunder']) {
        const td = document.createElement('td');
        td.dataset.verdict = v;
        td.textContent = String(r[color][v]);
        tr.appendChild(td);
      }
      counts.appendChild(tr);
    }
    const list = $('review-list');
    list.textContent = '';
    const bad = r.moves.filter((m) => m.mark);
    if (!r.running && bad.length === 0 && r.moves.length) {
      const li = document.createElement('li');
      li.className = 'muted';
      li.textContent = t('review.clean');
      list.appendChild(li);
    }
    for (const m of bad) {
      const li = document.createElement('li');
      li.dataset.verdict = m.verdict;
      li.dataset.number = m.number;
      const n = document.createElement('span');
      n.className = 'n';
      n.textContent = m.number + '.';
      const pt = document.createElement('span');
      pt.className = 'pt';
      pt.textContent = (m.color === 'black' ? '● ' : '○ ') + m.move;
      const mark = document.createElement('span');
      mark.className = 'mark';
      mark.textContent = m.mark;
      const ev = document.createElement('span');
      ev.className = 'ev';
      ev.textContent = reviewValue(m.score, m.color);
      const better = document.createElement('span');
      better.className = 'better';
      better.textContent = t('review.better', { best: m.best_pv.slice(0, 5).join(' ') || m.best, value: reviewValue(m.best_score, m.color) });
      li.append(n, pt, mark, ev, better);
      li.title = t('review.show');
      li.addEventListener('click', () => goTo(nodeBefore(m.number)));
      list.appendChild(li);
    }
  }

  // The node of the position before move `number` of the line shown.
  function nodeBefore(number) {
    const line = lineMoves();
    const k = number - 1;
    return k <= startPlies() ? 0 : (line[k - 1] ? line[k - 1].node : null);
  }

  function renderSolution() {
    const box = $('solution');
    const sol = game && game.solution;
    box.hidden = !sol;
    if (!sol) return;
    box.dataset.solved = sol.solved ? 'yes' : 'no';
    box.dataset.stopped = sol.stopped ? 'yes' : 'no';
    const secs = ((sol.stopped ? sol.time_ms : sol.limit_ms) / 1000).toFixed(1);
    const none = sol.stopped ? 'solution.stopped' : 'solution.none';
    box.textContent = sol.solved
      ? t('solution.found', { color: colorName(sol.color), method: sol.method.toUpperCase(), n: Math.ceil(sol.line.length / 2), line: sol.line.join(' ') })
      : t(none, { color: colorName(sol.color), task: sol.task.toUpperCase(), secs });
  }

  // m:ss, and tenths under 10 s (the running side's counted down here between states)
  function clockText(ms) {
    const t10 = Math.max(0, Math.floor(ms / 100));
    const secs = Math.floor(t10 / 10);
    if (secs < 10) return '0:0' + secs + '.' + (t10 % 10);
    return Math.floor(secs / 60) + ':' + String(secs % 60).padStart(2, '0');
  }

  function renderClocks() {
    const c = game && game.clock;
    $('clocks').hidden = !c;
    if (!c) return;
    for (const color of ['black', 'white']) {
      const box = $('clock-' + color);
      let ms = c[color + '_ms'];
      if (c.running === color) ms = Math.max(0, ms - (performance.now() - clockAt));
      box.querySelector('.time').textContent = clockText(ms);
      box.dataset.ms = String(Math.round(ms));
      box.classList.toggle('running', c.running === color);
      box.classList.toggle('low', ms < 10000);
      box.classList.toggle('out', ms <= 0);
      box.title = colorName(color);
    }
    $('clock-inc').textContent = c.increment_ms ? t('clock.inc', { secs: c.increment_ms / 1000 }) : '';
  }

  function renderButtons() {
    const g = game;
    const over = !g || !!g.result;
    const thinking = !!(g && g.thinking);
    $('btn-undo').disabled = !g || (g.moves.length <= startPlies() && !(g.result && g.result.resigned))
      || !!(g.result && g.result.timeout);
    $('btn-redo').disabled = !g || over || g.redo.length === 0;
    const opening = !!(g && (g.opening || (g.renju && !g.renju.over)));
    $('btn-hint').disabled = over || thinking || opening;
    $('btn-redo').disabled = $('btn-redo').disabled || opening;
    $('btn-go').disabled = over || thinking || opening;
    $('btn-swap').disabled = !g || opening;
    $('btn-resign').disabled = over || opening;
    $('btn-analyze').disabled = !g || (over && !g.analyze);
    $('btn-analyze').setAttribute('aria-pressed', g && g.analyze ? 'true' : 'false');
    const busy = thinking && !['analysis', 'hint'].includes(g.thinking.purpose);
    $('btn-review').disabled = !g || !g.moves.some((m) => m.x !== null && m.x !== undefined) || opening || busy;
    // a stopped solve may be asked again
    $('btn-solve').disabled = over || opening || (thinking && !['analysis', 'hint'].includes(g.thinking.purpose))
      || (g && !!g.solution && !g.solution.stopped);
    $('btn-stop').disabled = !thinking;
    $('btn-stop').textContent = t(analysing() || reviewing() || solving() ? 'stopAnalysis' : 'stop');
    $('io-download').href = g ? '/api/games/' + g.id + '/export?format=psq&download=true' : '#';
    $('io-download-sgf').href = g ? '/api/games/' + g.id + '/export?format=sgf&download=true' : '#';
    if (setup) {
      // the board is not the game's while a position is set up
      for (const b of document.querySelectorAll('[data-testid=controls] button, [data-testid=nav] button')) b.disabled = true;
    }
  }

  // Fits the board to the window. Wide: the board fits the window's height, its tools in a
  // column beside it. Narrow: the board takes the width, the evaluation follows right under it.
  const WIDE = 900;
  const TOOLS = 230 + 14;
  function fitBoard() {
    const play = $('play');
    if (window.innerWidth < WIDE) {
      play.style.removeProperty('--board');
      return;
    }
    const top = play.querySelector('.board-wrap').getBoundingClientRect().top + window.scrollY;
    const byWidth = window.innerWidth - TOOLS - 340 - 18 * 3;
    const size = Math.max(300, Math.min(900, byWidth, window.innerHeight - top - 10));
    play.style.setProperty('--board', Math.floor(size) + 'px');
  }
  window.addEventListener('resize', () => { fitBoard(); renderBoard(); });

  function render() {
    renderOpening();
    renderSetup();
    renderBoard();
    renderStatus();
    renderInfo();
    renderMoves();
    renderGraph();
    renderReview();
    renderSolution();
    renderExcluded();
    renderHistory();
    renderClocks();
    renderButtons();
    fitBoard();
    // (the cells' size on the screen decides whether a tap asks for a second one)
    $('board').dataset.confirm = needsConfirm() ? 'yes' : 'no';
    // the renju opening rules (renju.js): their panel, log, marks and the opening's name
    if (window.RenjuUi && !setup) {
      window.RenjuUi.render(game, { act, lang: () => lang, el, px, parsePoint, CELL });
    }
  }

  // ------------------------------------------------------------------------------------------
  // Wiring

  $('board').addEventListener('click', (e) => {
    const target = e.target.closest('[data-point]');
    if (setup) {
      if (target && target.dataset.point) setupClick(target.dataset.point);
      return;
    }
    // a click while the game is reviewed would cancel the review: Stop first
    if (!target || !target.dataset.point || !game || reviewing()) return;
    const point = target.dataset.point;
    // small cells: the first tap shows the stone to come (and a candidate's value), the
    // second on the same point plays it
    if (needsConfirm() && pending !== point) {
      if (!personToMove() || game.moves.some((m) => m.move === point)) return;
      pending = point;
      renderBoard();
      return;
    }
    pending = null;
    act('/move', { move: point });
  });
  // a right-click on an empty point leaves it out of the analysis, or takes it back in
  $('board').addEventListener('contextmenu', (e) => {
    const target = e.target.closest('[data-point]');
    if (!game || !game.analyze || setup || !target || !target.dataset.point) return;
    const point = target.dataset.point;
    if (game.moves.some((m) => m.move === point)) return;
    e.preventDefault();
    exclude(point, (game.excluded || []).includes(point));
  });
  $('candidates').addEventListener('click', (e) => {
    const b = e.target.closest('[data-exclude]');
    if (b) exclude(b.dataset.exclude, false);
  });
  $('btn-include-all').addEventListener('click', () => act('/analyze', { on: true, exclude: [] }));
  $('history-list').addEventListener('click', (e) => {
    const b = e.target.closest('[data-open]');
    const entry = b && loadHistory()[Number(b.dataset.open)];
    if (entry && entry.sgf) newGame({ sgf: entry.sgf, size: undefined, rule: undefined });
    else if (entry) newGame({ record: entry.line });
  });
  $('btn-history-clear').addEventListener('click', () => { storeHistory([]); renderHistory(); });
  $('nav-first').addEventListener('click', () => step('first'));
  $('nav-prev').addEventListener('click', () => step('prev'));
  $('nav-next').addEventListener('click', () => step('next'));
  $('nav-last').addEventListener('click', () => step('last'));
  $('moves').addEventListener('click', (e) => {
    const m = e.target.closest('[data-node]');
    if (m) goTo(Number(m.dataset.node));
  });
  $('btn-promote').addEventListener('click', () => act('/branch', { node: currentNode(), action: 'promote' }));
  $('btn-delete').addEventListener('click', () => act('/branch', { node: currentNode(), action: 'delete' }));
  document.addEventListener('keydown', (e) => {
    const typing = e.target instanceof Element && e.target.closest('input, textarea, select');
    if (!game || typing || e.altKey) return;
    if (e.ctrlKey || e.metaKey) {
      // Ctrl+Z undoes, Ctrl+Y (or Ctrl+Shift+Z) redoes, as the buttons do when they may
      const key = e.key.toLowerCase();
      const button = key === 'z' && !e.shiftKey ? 'btn-undo'
        : (key === 'y' || (key === 'z' && e.shiftKey)) ? 'btn-redo' : null;
      if (!button || setup) return;
      e.preventDefault();
      if (!$(button).disabled) $(button).click();
      return;
    }
    if (setup) {
      if (e.key === 'Escape') { setup = null; render(); e.preventDefault(); }
      return;
    }
    if (e.key === 'ArrowLeft') step('prev');
    else if (e.key === 'ArrowRight') step('next');
    else if (e.key === 'Home') step('first');
    else if (e.key === 'End') step('last');
    else if (e.key === 'Escape' && pending) { pending = null; renderBoard(); }
    else return;
    e.preventDefault();
  });
  $('btn-undo').addEventListener('click', () => act('/undo'));
  $('btn-redo').addEventListener('click', () => act('/redo'));
  $('btn-hint').addEventListener('click', () => act('/hint'));
  $('btn-analyze').addEventListener('click', () => act('/analyze', { on: !(game && game.analyze) }));
  $('btn-go').addEventListener('click', () => act('/go'));
  $('btn-solve').addEventListener('click', () => {
    if (game) act('/solve', { task: 'vct', time_ms: Math.max(1000, Math.min(game.time_ms * 2, 10000)) });
  });
  $('btn-review').addEventListener('click', () => {
    if (game) act('/review', { time_ms: Math.max(100, Math.min(game.time_ms, 1000)) });
  });
  for (const b of document.querySelectorAll('#opening [data-choice]')) {
    b.addEventListener('click', () => act('/swap2', { choice: b.dataset.choice }));
  }
  $('btn-stop').addEventListener('click', () => act('/stop'));
  $('btn-swap').addEventListener('click', () => act('/swap'));
  $('btn-resign').addEventListener('click', () => act('/resign'));
  $('chk-numbers').addEventListener('change', renderBoard);
  $('chk-heat').checked = localStorage.getItem(HEAT_KEY) !== '0';
  $('chk-heat').addEventListener('change', () => {
    localStorage.setItem(HEAT_KEY, $('chk-heat').checked ? '1' : '0');
    renderCandidateMarks();
  });
  $('chk-pv').checked = localStorage.getItem(PV_KEY) === '1';
  $('chk-pv').addEventListener('change', () => {
    localStorage.setItem(PV_KEY, $('chk-pv').checked ? '1' : '0');
    renderCandidateMarks();
    renderLineMarks();
  });
  // the pointer on a candidate (in the list or on the board) or on the best line shows that line
  $('candidates').addEventListener('mouseover', (e) => {
    const li = e.target.closest('li[data-move]');
    if (li) setHoverLine({ move: li.dataset.move });
  });
  $('candidates').addEventListener('mouseleave', () => setHoverLine(null));
  $('info-pv').addEventListener('mouseenter', () => setHoverLine({ best: true }));
  $('info-pv').addEventListener('mouseleave', () => setHoverLine(null));
  // the pointer on a candidate on the board: its value with the heat map on, its line without
  $('board').addEventListener('mouseover', (e) => {
    const target = e.target.closest('[data-point]');
    const point = target ? target.dataset.point : null;
    const analysis = analysisInfo();
    const onCandidate = point && analysis && (analysis.candidates || []).some((c) => c.move === point);
    if (point !== hoverPoint) {
      hoverPoint = point;
      renderHeatLabel();
    }
    if (onCandidate && !$('chk-heat').checked) setHoverLine({ move: point });
    else if (hoverLine && hoverLine.move) setHoverLine(null);
  });
  $('board').addEventListener('mouseleave', () => {
    hoverPoint = null;
    renderHeatLabel();
    if (hoverLine && hoverLine.move) setHoverLine(null);
  });
  $('ng-start').addEventListener('click', () => { saveSettings(); newGame(); });
  $('ng-setup').addEventListener('click', setupOpen);
  for (const b of document.querySelectorAll('#setup-bar [data-tool]')) {
    b.addEventListener('click', () => { if (setup) { setup.tool = b.dataset.tool; render(); } });
  }
  $('setup-to-move').addEventListener('change', renderSetup);
  $('setup-clear').addEventListener('click', () => { if (setup) { setup.stones.clear(); render(); } });
  $('setup-done').addEventListener('click', () => { if (setup) setupDone(); });
  $('setup-cancel').addEventListener('click', () => { setup = null; render(); });
  // another board size while setting up: an empty board of that size
  $('ng-size').addEventListener('change', () => {
    const size = Number($('ng-size').value);
    if (setup && setup.size !== size) { setup = { size, stones: new Map(), tool: setup.tool }; render(); }
  });
  for (const id of ['ng-level', 'ng-time']) {
    $(id).addEventListener('change', () => {
      saveSettings();
      act('/settings', { level: $('ng-level').value, time_ms: Number($('ng-time').value) });
    });
  }
  for (const id of ['ng-rule', 'ng-size', 'ng-mode', 'ng-opening', 'ng-clock']) $(id).addEventListener('change', saveSettings);
  for (const b of document.querySelectorAll('[data-lang]')) {
    b.addEventListener('click', () => {
      lang = b.dataset.lang;
      localStorage.setItem(LANG_KEY, lang);
      applyLang();
    });
  }

  $('io-export-pos').addEventListener('click', () => { if (game) $('io-text').value = game.position; });
  async function exportAs(format) {
    if (!game) return;
    try {
      const resp = await fetch('/api/games/' + game.id + '/export?format=' + format);
      const text = await resp.text();
      if (!resp.ok) throw JSON.parse(text).error;
      $('io-text').value = text;
    } catch (e) { showError(e); }
  }
  $('io-export-psq').addEventListener('click', () => exportAs('psq'));
  $('io-export-diagram').addEventListener('click', () => exportAs('diagram'));
  $('io-export-record').addEventListener('click', () => exportAs('record'));
  $('io-export-sgf').addEventListener('click', () => exportAs('sgf'));
  $('io-import').addEventListener('click', () => {
    const text = $('io-text').value.trim();
    if (!text) { showError({ code: 'empty' }); return; }
    // a diagram: at least five rows of points (X, O, . and the like, row numbers, brackets)
    const rows = text.split('\n').filter((l) => /^[\sXxOo.+\-_·●○#\[\]\d]*[XxOo.+\-_·●○#][\sXxOo.+\-_·●○#\[\]\d]*$/.test(l.trim()));
    if (/^piskvorky/i.test(text)) newGame({ psq: text });
    // an SGF record, with its lines
    else if (/^\(\s*;/.test(text)) newGame({ sgf: text });
    // a line of the datasets' format: size, rule, moves, then `| key=value` (the first line)
    else if (/^\d+\s+(freestyle|standard|renju|caro5|caro6)\b/i.test(text)) newGame({ record: text.split('\n')[0] });
    else if (rows.length >= 5) newGame({ diagram: text, size: undefined });
    else newGame({ position: text });
  });

  setInterval(() => {
    if (game && game.thinking) renderInfo();
    if (game && game.clock && game.clock.running) renderClocks();
  }, 100);

  loadSettings();
  applyLang();
  start();
})();
