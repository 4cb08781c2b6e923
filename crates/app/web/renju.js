// The renju opening rules on the board page (Soosõrv-8, Taraguchi-10): the panel that says
// what the rule asks of whom, the buttons for the steps that are not a point (swap, keep, the
// number of offers, ten offers), the offered fifth moves and the allowed square drawn on the
// board, the log, and the name of the opening the first three stones form. app.js calls
// `RenjuUi.render(game, page)` after drawing; clicks on the board go to the server as moves,
// and the server reads them as the step under way asks (a stone, an offer, the offer chosen).
'use strict';
window.RenjuUi = (function () {
  const $ = (id) => document.getElementById(id);

  const TEXT = {
    en: {
      'opt.soosorv8': 'Soosõrv-8 (renju)', 'opt.taraguchi10': 'Taraguchi-10 (renju)',
      status: '{rule} opening', name: 'Opening: {name}',
      black: 'Black', white: 'White',
      you: 'You', engine: 'The engine', first: 'First player', second: 'Second player',
      centre: 'on the centre', anywhere: 'anywhere', square: 'in the central {n}×{n} square',
      stone: '{who}: put down stone {n} ({color}) {area}.',
      stone3: '{who}: put down stone {n} ({color}) {area}; the first three stones form one of the 26 openings.',
      swap: '{who} ({held}): swap and take {other}, or keep {held}?',
      declare: '{who} (White): how many fifth moves will Black offer? (1 to {max})',
      fifth: '{who} (Black): put down the 5th stone {area}, or offer {max} fifth moves anywhere.',
      offer: '{who} (Black): offer fifth move {k} of {n}: click a point (no two symmetrical).',
      choose: '{who} (White): choose one of the offered fifth moves.',
      deciding: 'The engine is deciding…',
      waiting: '{who} to act.',
      over: 'The opening is over: {black} plays Black.',
      'btn.swap': 'Swap', 'btn.keep': 'Keep', 'btn.declare': 'Declare', 'btn.ten': 'Offer {n}',
    },
    zh: {
      'opt.soosorv8': 'Soosõrv-8（连珠）', 'opt.taraguchi10': 'Taraguchi-10（连珠）',
      status: '{rule} 开局', name: '开局：{name}',
      black: '黑', white: '白',
      you: '你', engine: '引擎', first: '先行方', second: '后行方',
      centre: '天元', anywhere: '任意位置', square: '中央{n}×{n}范围内',
      stone: '{who}：在{area}落第{n}手（{color}）。',
      stone3: '{who}：在{area}落第{n}手（{color}）；前三手构成26种开局之一。',
      swap: '{who}（执{held}）：交换（改执{other}）还是不交换（执{held}）？',
      declare: '{who}（执白）：黑方将提供几个第5手打点？（1–{max}）',
      fifth: '{who}（执黑）：在{area}落第5手，或在任意位置提供{max}个第5手打点。',
      offer: '{who}（执黑）：提供第{k}个第5手打点（共{n}个）：点击棋盘（不得对称）。',
      choose: '{who}（执白）：从提供的第5手打点中选择一个。',
      deciding: '引擎正在决定…',
      waiting: '轮到{who}。',
      over: '开局结束：{black}执黑。',
      'btn.swap': '交换', 'btn.keep': '不交换', 'btn.declare': '确定', 'btn.ten': '提供{n}个打点',
    },
  };

  let page = null; // what app.js hands over: act, lang, board helpers

  function t(key, params) {
    const dict = TEXT[page.lang()] || TEXT.en;
    let s = dict[key] !== undefined ? dict[key] : TEXT.en[key];
    for (const [k, v] of Object.entries(params || {})) s = s.split('{' + k + '}').join(String(v));
    return s;
  }

  // The panel, the log and the name are made once, beside the page's own swap2 banner.
  function ensureDom() {
    if ($('renju')) return;
    const box = document.createElement('div');
    box.id = 'renju';
    box.className = 'opening renju';
    box.dataset.testid = 'renju';
    box.hidden = true;
    box.innerHTML = '<span id="renju-text" data-testid="renju-text"></span>'
      + '<span class="choices">'
      + '<button type="button" data-testid="renju-swap" data-renju="swap"></button>'
      + '<button type="button" data-testid="renju-keep" data-renju="keep"></button>'
      + '<select data-testid="renju-count" id="renju-count"></select>'
      + '<button type="button" data-testid="renju-declare" data-renju="declare"></button>'
      + '<button type="button" data-testid="renju-ten" data-renju="ten"></button>'
      + '</span>';
    const anchor = $('opening');
    anchor.parentNode.insertBefore(box, anchor.nextSibling);
    const log = document.createElement('ol');
    log.id = 'renju-log';
    log.className = 'swap2-log muted';
    log.dataset.testid = 'renju-log';
    log.hidden = true;
    box.parentNode.insertBefore(log, box.nextSibling);
    const name = document.createElement('span');
    name.id = 'opening-name';
    name.className = 'muted opening-name';
    name.dataset.testid = 'opening-name';
    $('game-rule').parentNode.appendChild(name);
    box.addEventListener('click', (e) => {
      const b = e.target.closest('[data-renju]');
      if (!b || !page) return;
      const what = b.dataset.renju;
      if (what === 'swap' || what === 'keep') page.act('/renju', { action: what });
      else if (what === 'declare') page.act('/renju', { action: 'declare', count: Number($('renju-count').value) });
      else if (what === 'ten') page.act('/renju', { action: 'declare', count: Number(b.dataset.count) });
    });
    // the renju rules are renju openings: choosing one chooses the rule
    const sel = $('ng-opening');
    for (const v of ['soosorv8', 'taraguchi10']) {
      if (![...sel.options].some((o) => o.value === v)) {
        const o = document.createElement('option');
        o.value = v;
        o.dataset.renju = v;
        o.textContent = TEXT.en['opt.' + v];
        sel.appendChild(o);
      }
    }
    sel.addEventListener('change', () => {
      if (['soosorv8', 'taraguchi10'].includes(sel.value) && $('ng-rule').value !== 'renju') {
        $('ng-rule').value = 'renju';
        $('ng-rule').dispatchEvent(new Event('change'));
      }
    });
  }

  function who(r, seat) {
    const p = seat === 'first' ? r.first : r.second;
    if (r.first === r.second) return t(seat);
    return t(p === 'person' ? 'you' : 'engine');
  }

  function areaText(side) {
    if (side === 1) return t('centre');
    if (!side) return t('anywhere');
    return t('square', { n: side });
  }

  function stepText(r) {
    const s = r.step;
    const w = who(r, r.actor_seat);
    if (r.over || !s) {
      const black = who(r, r.black_seat);
      return t('over', { black });
    }
    if (r.actor === 'engine') return t('deciding');
    switch (s.kind) {
      case 'stone': {
        const color = t(s.number % 2 ? 'black' : 'white');
        const key = r.rule === 'soosorv8' && s.number <= 3 ? 'stone3' : 'stone';
        return t(key, { who: w, n: s.number, color, area: areaText(s.area) });
      }
      case 'swap': {
        const held = t(r.actor_color);
        const other = t(r.actor_color === 'black' ? 'white' : 'black');
        return t('swap', { who: w, held, other });
      }
      case 'declare': return t('declare', { who: w, max: s.max });
      case 'fifth': return t('fifth', { who: w, area: areaText(s.area), max: s.max });
      case 'offer': return t('offer', { who: w, k: s.made + 1, n: s.count });
      case 'choose': return t('choose', { who: w });
      default: return t('waiting', { who: w });
    }
  }

  // Offers as numbered see-through black stones, and the square a stone must go in; under
  // the click targets, so that a click on an offer still reaches its point.
  function drawBoard(game, r) {
    const svg = $('board');
    const hits = svg && svg.querySelector('g.hits');
    if (!hits) return;
    const layer = page.el('g', { class: 'renju-marks', 'data-testid': 'renju-marks' });
    const n = game.size;
    const c = (n - 1) / 2;
    const s = r.step;
    if (s && !r.over && s.area > 1 && (s.kind === 'stone' || s.kind === 'fifth')) {
      const k = (s.area - 1) / 2;
      const a = page.px(c - k) - page.CELL / 2, w = page.px(c + k) - page.px(c - k) + page.CELL;
      layer.appendChild(page.el('rect', { x: a, y: a, width: w, height: w, class: 'renju-area', 'data-area': s.area }));
    }
    if (!r.over) {
      r.offers.forEach((pt, i) => {
        const p = page.parsePoint(pt, n);
        if (!p) return;
        const g = page.el('g', { class: 'renju-offer', 'data-offer': pt });
        g.appendChild(page.el('circle', { cx: page.px(p.x), cy: page.px(p.y), r: page.CELL * 0.4 }));
        g.appendChild(page.el('text', { x: page.px(p.x), y: page.px(p.y) + 5, 'text-anchor': 'middle' }, String(i + 1)));
        layer.appendChild(g);
      });
    }
    svg.insertBefore(layer, hits);
  }

  function render(game, p) {
    page = p;
    ensureDom();
    for (const o of $('ng-opening').options) if (o.dataset.renju) o.textContent = t('opt.' + o.dataset.renju);
    const name = $('opening-name');
    const on = game && game.opening_name;
    name.textContent = on ? t('name', { name: `${on.name} ${on.chinese} (${on.code})` }) : '';
    name.dataset.code = on ? on.code : '';
    const r = game && game.renju;
    const box = $('renju');
    const log = $('renju-log');
    box.hidden = !r || r.over;
    log.hidden = !r || r.log.length === 0;
    if (!r) return;
    const active = !r.over;
    const mine = active && r.actor === 'person';
    box.dataset.step = r.step ? r.step.kind : 'over';
    box.dataset.actor = r.actor;
    box.dataset.rule = r.rule;
    $('renju-text').textContent = stepText(r);
    const kind = mine && r.step ? r.step.kind : '';
    for (const b of box.querySelectorAll('[data-renju]')) {
      const what = b.dataset.renju;
      b.hidden = !((kind === 'swap' && (what === 'swap' || what === 'keep'))
        || (kind === 'declare' && what === 'declare')
        || (kind === 'fifth' && what === 'ten'));
      b.textContent = t('btn.' + what, { n: r.step && r.step.max });
      if (what === 'ten' && r.step) b.dataset.count = r.step.max;
    }
    const count = $('renju-count');
    count.hidden = kind !== 'declare';
    if (kind === 'declare' && count.options.length !== r.step.max) {
      count.textContent = '';
      for (let i = 1; i <= r.step.max; i++) {
        const o = document.createElement('option');
        o.value = String(i);
        o.textContent = String(i);
        count.appendChild(o);
      }
      count.value = '3';
    }
    if (active && !game.result) $('status').textContent = t('status', { rule: r.title });
    log.textContent = '';
    for (const line of r.log) {
      const li = document.createElement('li');
      li.textContent = line.replace(/^(soosorv8|taraguchi10): /, '');
      log.appendChild(li);
    }
    log.scrollTop = log.scrollHeight;
    drawBoard(game, r);
  }

  // the options of the new-game form are there before app.js restores the saved settings
  ensureDom();

  return { render };
})();
