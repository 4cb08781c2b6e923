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
  let browse = null;        // while looking back: the number of moves shown (null: the game now)
  let clockAt = 0;          // when the state's clock was read (local clock)
  let hoverLine = null;     // the pointer on a candidate ({move}) or on the best line ({best: true})
  let setup = null;         // setting up a position: { size, stones: Map point -> colour, tool }

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

  function evalText(info) {
    if (!info) return '–';
    if (info.mate !== null && info.mate !== undefined) {
      return info.mate > 0 ? t('eval.win', { n: info.mate }) : t('eval.loss', { n: -info.mate });
    }
    return info.eval;
  }

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
    if (!game || game.id !== state.id) { syncPanel(state); browse = null; }
    game = state;
    remember(state);
    clockAt = performance.now();
    if (browse !== null && browse >= game.moves.length) browse = null;
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
    if (body.opening === 'swap2' && (body.psq || body.position || body.setup || body.diagram || body.record || body.black === body.white)) {
      body.opening = 'free'; // swap2 is for one person against the engine, from an empty board
    }
    if (body.opening !== 'swap2' && (body.psq || body.position || body.setup || body.diagram || body.record)) {
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

  // Looking back at an earlier position: the board shows the first `browse` moves only.
  function browsing() { return !!game && browse !== null && browse < game.moves.length; }
  function shownMoves() { return browsing() ? game.moves.slice(0, browse) : (game ? game.moves : []); }
  // The moves of a set-up start position: its stones, not moves of the game.
  function startPlies() { return (game && game.setup_plies) || 0; }
  function browseTo(k) {
    if (!game || setup) return;
    const n = game.moves.length;
    browse = k === null || k >= n ? null : Math.max(startPlies(), k);
    render();
  }

  // ------------------------------------------------------------------------------------------
  // Setting up a position: stones put down and taken away on the page, then a new game from them

  function setupOpen() {
    const size = Number($('ng-size').value);
    const stones = new Map();
    // from the position shown, when it is on a board of that size
    if (game && game.size === size) {
      for (const m of shownMoves()) if (m.x !== null && m.x !== undefined) stones.set(m.move, m.color);
    }
    browse = null;
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

  // A review value as text, as the engine panel shows values.
  function reviewValue(score, text) {
    if (Math.abs(score) >= 29000) {
      const n = Number((text.match(/\d+/) || ['0'])[0]);
      return score > 0 ? t('eval.win', { n }) : t('eval.loss', { n });
    }
    return text;
  }

  function personToMove() {
    if (!game || game.result || browsing()) return false;
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

  // A candidate's value in a few characters: +35, W3 (wins in 3 moves), L2 (loses in 2).
  function shortEval(c) {
    if (c.mate !== null && c.mate !== undefined) return (c.mate > 0 ? 'W' : 'L') + Math.abs(c.mate);
    return c.score > 0 ? '+' + c.score : String(c.score);
  }

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
      // (two digits clear of a stone on the edge, and of a review ring round it)
      labels.appendChild(el('text', { x: 17, y: px(i) + 6, 'text-anchor': 'middle' }, String(n - i)));
      labels.appendChild(el('text', { x: w - 17, y: px(i) + 6, 'text-anchor': 'middle' }, String(n - i)));
    }
    svg.appendChild(labels);

    // renju: Black's forbidden points, shown while Black is to move
    const forbidden = new Set();
    for (const f of (browsing() || setup ? [] : game.forbidden) || []) {
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

    const winning = new Set((!browsing() && !setup && game.result && game.result.line) || []);
    const showNumbers = $('chk-numbers').checked;
    const stones = el('g', { class: 'stones' });
    const occupied = new Set();
    const moves = setup ? setupMoves() : shownMoves();
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

    // the review's inaccuracies, mistakes and blunders: a coloured ring on the stone
    const verdicts = reviewByNumber();
    for (const m of moves) {
      const v = verdicts.get(m.number);
      if (!v || !v.mark || m.x === null || m.x === undefined) continue;
      svg.appendChild(el('circle', {
        cx: px(m.x), cy: px(m.y), r: CELL * 0.5, class: 'review-mark ' + v.verdict,
        'data-review': m.move, 'data-verdict': v.verdict,
      }));
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
    if (!browsing() && !setup && game.analyze) {
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
    const marks = el('g', { class: 'candidates', id: 'candidate-marks', 'data-testid': 'candidate-marks' });
    svg.appendChild(marks);
    renderCandidateMarks(occupied);
    svg.appendChild(el('g', { class: 'pv-line', id: 'pv-marks', 'data-testid': 'pv-line' }));
    renderLineMarks();
    // looking back at a reviewed move: the engine's choice there, and the move played
    const next = browsing() ? verdicts.get(browse + 1) : null;
    if (next && next.best !== next.move) {
      const p = parsePoint(next.best, n);
      if (p) svg.appendChild(el('circle', { cx: px(p.x), cy: px(p.y), r: CELL * 0.38, class: 'hint-mark', 'data-testid': 'review-best', 'data-best': next.best }));
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
    if (sol && sol.solved && !browsing()) {
      const layer = el('g', { class: 'solution', 'data-testid': 'solution-line' });
      const other = sol.color === 'black' ? 'white' : 'black';
      sol.line.forEach((pt, i) => {
        const p = parsePoint(pt, n);
        if (!p) return;
        const g = el('g', { class: 'sol ' + (i % 2 === 0 ? sol.color : other), 'data-solution': pt, 'data-step': i + 1 });
        g.appendChild(el('circle', { cx: px(p.x), cy: px(p.y), r: CELL * 0.36 }));
        g.appendChild(el('text', { x: px(p.x), y: px(p.y) + 5, 'text-anchor': 'middle' }, String(i + 1)));
        layer.appendChild(g);
      });
      svg.appendChild(layer);
    }
    if (!setup && game.hint && game.hint.move && !game.thinking && !browsing()) {
      const p = parsePoint(game.hint.move, n);
      if (p) svg.appendChild(el('circle', { cx: px(p.x), cy: px(p.y), r: CELL * 0.38, class: 'hint-mark', 'data-testid': 'hint-mark', 'data-hint': game.hint.move }));
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
    set('info-eval', evalText(info));
    set('info-time', (info.time_ms / 1000).toFixed(2) + ' s');
    set('info-depth', info.seldepth > info.depth ? `${info.depth} / ${info.seldepth}` : String(info.depth));
    set('info-nodes', num(info.nodes));
    set('info-nps', num(info.nps));
    set('info-tt', num(info.tt_hits));
    set('info-pv', info.pv.length ? info.pv.join(' ') : '–');
  }

  let shownCandidates = null; // what the candidate list shows (redrawn only when it changes)

  // The analysis's values on the board. Only this layer is redrawn while an analysis runs: the
  // click targets stay, so that a click is never lost between mouse down and up.
  function renderCandidateMarks(occupied) {
    const marks = $('candidate-marks');
    if (!marks || !game) return;
    marks.textContent = '';
    const n = game.size;
    if (!occupied) occupied = new Set(game.moves.map((m) => m.move));
    const analysis = analysisInfo();
    // a candidate's line shown on the board hides the values
    if (!analysis || !analysis.candidates || browsing() || setup || boardLine()) return;
    analysis.candidates.forEach((c, rank) => {
      const p = parsePoint(c.move, n);
      if (!p || occupied.has(c.move)) return;
      const cls = 'cand' + (rank === 0 ? ' best' : '') + (c.mate > 0 ? ' win' : '');
      const g = el('g', { class: cls, 'data-candidate': c.move, 'data-rank': rank, 'data-score': c.score });
      g.appendChild(el('title', {}, `${c.move}: ${evalText(c)} (${c.pv.join(' ')})`));
      g.appendChild(el('circle', { cx: px(p.x), cy: px(p.y), r: CELL * 0.42 }));
      g.appendChild(el('text', { x: px(p.x), y: px(p.y) + 4, 'text-anchor': 'middle' }, shortEval(c)));
      marks.appendChild(g);
    });
  }

  // The engine's line from the position on the board: the PV of the search shown, past the
  // moves played since it was searched (none when they left it).
  function engineLine() {
    if (!game || browsing() || reviewing() || solving()) return null;
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
    if (!game || browsing() || setup) return null;
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
      ev.textContent = evalText(c);
      const line = document.createElement('span');
      line.className = 'line';
      line.textContent = c.pv.slice(1, 8).join(' ') + ' (d' + c.depth + ')';
      const x = document.createElement('button');
      x.type = 'button';
      x.className = 'cand-x';
      x.dataset.exclude = c.move;
      x.title = t('exclude.one', { move: c.move });
      x.textContent = '×';
      li.append(pt, ev, line, x);
      list.appendChild(li);
    }
  }

  // The points left out of the analysis, under the candidates.
  function renderExcluded() {
    const list = (game && game.analyze && !browsing() && game.excluded) || [];
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
    const moves = state.moves.length - (state.setup_plies || 0);
    const key = moves + ':' + JSON.stringify(state.result);
    if (moves < 1 || remembered.get(state.id) === key) return;
    remembered.set(state.id, key);
    try {
      const resp = await fetch('/api/games/' + state.id + '/export?format=record');
      if (!resp.ok) return;
      const line = (await resp.text()).trim();
      const entry = { id: state.id, line, rule: state.rule, size: state.size, moves, result: state.result || null, at: Date.now() };
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
      } else {
        const who = game.players[game.to_move] === 'person' ? t('you') : t('theEngine');
        status.textContent = t('status.toMove', { color: colorName(game.to_move), who })
          + (analysing() ? ' · ' + t('status.analyzing') + '…' : '');
      }
    }
    if (browsing()) {
      status.textContent = t('status.browsing', { k: browse, n: game.moves.length });
    }
    if (setup) status.textContent = t('status.setup');
    status.dataset.toMove = game.to_move;
    status.dataset.browsing = browsing() ? String(browse) : 'no';
    status.dataset.thinking = game.thinking ? 'yes' : 'no';
    if (game.engine_error) showError({ message: game.engine_error });
  }

  function renderMoves() {
    const list = $('moves');
    list.textContent = '';
    if (!game) return;
    const verdicts = reviewByNumber();
    const start = startPlies();
    if (start > 0) {
      // the set-up position's stones: one entry, which shows the board before the first move
      const stones = game.moves.slice(0, start).filter((m) => m.x !== null && m.x !== undefined);
      const li = document.createElement('li');
      li.className = 'setup';
      li.dataset.testid = 'setup-entry';
      li.dataset.number = start;
      if (browsing() ? browse === start : game.moves.length === start) li.classList.add('current');
      li.textContent = t('setup.entry', {
        black: stones.filter((m) => m.color === 'black').length,
        white: stones.filter((m) => m.color === 'white').length,
      });
      li.addEventListener('click', () => browseTo(start));
      list.appendChild(li);
    }
    for (const m of game.moves) {
      if (m.number <= start) continue;
      const li = document.createElement('li');
      li.className = m.color;
      li.dataset.testid = 'move';
      li.dataset.move = m.move;
      li.dataset.number = m.number;
      if (browsing() ? m.number === browse : m.number === game.moves.length) li.classList.add('current');
      li.addEventListener('click', () => browseTo(m.number));
      const numEl = document.createElement('span');
      numEl.className = 'n';
      numEl.textContent = m.number + '.';
      const pt = document.createElement('span');
      pt.className = 'pt';
      pt.textContent = m.move;
      li.append(numEl, pt);
      const v = verdicts.get(m.number);
      if (v) {
        li.dataset.verdict = v.verdict;
        li.title = t('review.tip', {
          verdict: t('verdict.' + v.verdict), value: reviewValue(v.score, v.score_text),
          best: v.best, bestValue: reviewValue(v.best_score, v.best_score_text), loss: Math.round(v.loss * 100),
        });
        if (v.mark) {
          const mark = document.createElement('span');
          mark.className = 'mark';
          mark.textContent = v.mark;
          li.append(mark);
        }
      }
      if (m.engine) {
        const ev = document.createElement('span');
        ev.className = 'ev';
        ev.textContent = evalText(m.engine);
        li.append(ev);
      }
      list.appendChild(li);
    }
    const current = list.querySelector('li.current');
    if (browsing() && current) current.scrollIntoView({ block: 'nearest' });
    else list.scrollTop = list.scrollHeight;
    const nav = (id, off) => { $(id).disabled = off; };
    const n = game.moves.length, k = browsing() ? browse : n;
    nav('nav-first', k <= start);
    nav('nav-prev', k <= start);
    nav('nav-next', k === n);
    nav('nav-last', k === n);
  }

  function renderGraph() {
    const svg = $('graph');
    svg.textContent = '';
    const W = 340, H = 120, L = 8, R = 8, mid = H / 2, amp = H / 2 - 10;
    svg.appendChild(el('rect', { x: 0, y: 0, width: W, height: H, class: 'graph-bg' }));
    svg.appendChild(el('rect', { x: 0, y: 0, width: W, height: mid, class: 'graph-black' }));
    svg.appendChild(el('line', { x1: 0, y1: mid, x2: W, y2: mid, class: 'graph-axis' }));
    // labels first, so that the curve is drawn over them
    svg.appendChild(el('text', { x: 6, y: 12, class: 'graph-label' }, '▲ ' + t('graph.black')));
    svg.appendChild(el('text', { x: 6, y: H - 4, class: 'graph-label' }, '▼ ' + t('graph.white')));
    if (!game) return;
    const total = Math.max(game.moves.length, 10);
    const xOf = (k) => L + (W - L - R) * (k - 1) / Math.max(total - 1, 1);
    const yOf = (info) => {
      // proven results sit at the edges; ordinary scores are squashed smoothly towards them
      const v = info.mate !== null && info.mate !== undefined
        ? (info.black_score > 0 ? 1 : -1)
        : Math.tanh(info.black_score / 600);
      return mid - amp * v;
    };
    // a review's values cover every move; otherwise the engine's own moves
    const verdicts = reviewByNumber();
    const pts = [];
    for (const m of game.moves) {
      const v = verdicts.get(m.number);
      if (v) {
        const black = m.color === 'black' ? v.score : -v.score;
        const info = { black_score: black, mate: Math.abs(black) >= 29000 ? 1 : null };
        pts.push([xOf(m.number), yOf(info), m, reviewValue(v.score, v.score_text)]);
      } else if (m.engine) {
        pts.push([xOf(m.number), yOf(m.engine), m, evalText(m.engine)]);
      }
    }
    if (browsing()) {
      const x = xOf(Math.max(browse, 1));
      svg.appendChild(el('line', { x1: x, y1: 0, x2: x, y2: H, class: 'graph-cursor', 'data-testid': 'graph-cursor' }));
    }
    if (pts.length > 1) {
      svg.appendChild(el('polyline', { points: pts.map((p) => p[0].toFixed(1) + ',' + p[1].toFixed(1)).join(' '), class: 'graph-line' }));
    }
    for (const [x, y, m, text] of pts) {
      const c = el('circle', { cx: x, cy: y, r: 3, class: 'graph-dot ' + m.color, 'data-number': m.number });
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
      ev.textContent = reviewValue(m.score, m.score_text);
      const better = document.createElement('span');
      better.className = 'better';
      better.textContent = t('review.better', { best: m.best_pv.slice(0, 5).join(' ') || m.best, value: reviewValue(m.best_score, m.best_score_text) });
      li.append(n, pt, mark, ev, better);
      li.title = t('review.show');
      li.addEventListener('click', () => browseTo(m.number - 1));
      list.appendChild(li);
    }
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
    if (setup) {
      // the board is not the game's while a position is set up
      for (const b of document.querySelectorAll('[data-testid=controls] button, [data-testid=nav] button')) b.disabled = true;
    }
  }

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
    // the renju opening rules (renju.js): their panel, log, marks and the opening's name
    if (window.RenjuUi && !setup) {
      window.RenjuUi.render(game, { act, lang: () => lang, browsing, el, px, parsePoint, CELL });
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
    // a click while the game is reviewed would cancel the review: Stop first; looking back,
    // the board is not the game's
    if (!target || !target.dataset.point || !game || reviewing() || browsing()) return;
    act('/move', { move: target.dataset.point });
  });
  // a right-click on an empty point leaves it out of the analysis, or takes it back in
  $('board').addEventListener('contextmenu', (e) => {
    const target = e.target.closest('[data-point]');
    if (!game || !game.analyze || setup || browsing() || !target || !target.dataset.point) return;
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
    if (entry) newGame({ record: entry.line });
  });
  $('btn-history-clear').addEventListener('click', () => { storeHistory([]); renderHistory(); });
  $('nav-first').addEventListener('click', () => browseTo(startPlies()));
  $('nav-prev').addEventListener('click', () => browseTo((browsing() ? browse : game.moves.length) - 1));
  $('nav-next').addEventListener('click', () => browseTo((browsing() ? browse : game.moves.length) + 1));
  $('nav-last').addEventListener('click', () => browseTo(null));
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
    const k = browsing() ? browse : game.moves.length;
    if (e.key === 'ArrowLeft') browseTo(k - 1);
    else if (e.key === 'ArrowRight') browseTo(k + 1);
    else if (e.key === 'Home') browseTo(startPlies());
    else if (e.key === 'End' || e.key === 'Escape') browseTo(null);
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
  $('board').addEventListener('mouseover', (e) => {
    const target = e.target.closest('[data-point]');
    const analysis = analysisInfo();
    const onCandidate = target && analysis && (analysis.candidates || []).some((c) => c.move === target.dataset.point);
    if (onCandidate) setHoverLine({ move: target.dataset.point });
    else if (hoverLine && hoverLine.move) setHoverLine(null);
  });
  $('board').addEventListener('mouseleave', () => { if (hoverLine && hoverLine.move) setHoverLine(null); });
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
  $('io-import').addEventListener('click', () => {
    const text = $('io-text').value.trim();
    if (!text) { showError({ code: 'empty' }); return; }
    // a diagram: at least five rows of points (X, O, . and the like, row numbers, brackets)
    const rows = text.split('\n').filter((l) => /^[\sXxOo.+\-_·●○#\[\]\d]*[XxOo.+\-_·●○#][\sXxOo.+\-_·●○#\[\]\d]*$/.test(l.trim()));
    if (/^piskvorky/i.test(text)) newGame({ psq: text });
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
