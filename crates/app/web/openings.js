// The opening rules on the page, in the panel beside the board (so that the board keeps its
// place and size while an opening goes on). Swap2: whose choice it is, with the choices. The
// renju rules (Soosõrv-8, Taraguchi-10): what the rule asks of whom, the buttons for the steps
// that are not a point (swap, keep, the number of offers, ten offers), the offered fifth moves
// and the allowed square drawn on the board, and the name of the opening the first three
// stones form. Both keep a log in the players' words. Clicks on the board go to the server as
// moves, and the server reads them as the step under way asks (a stone, an offer, the offer
// chosen).

import { CELL, px, parsePoint, centralSquare } from './coords.js';
import { scaleOf } from './evaluation.js';
import { logLines } from './opening-log.js';
import { $, html, svg as el } from './dom.js';

/** The renju rules, by the value of their opening. */
export const RENJU_RULES = ['soosorv8', 'taraguchi10'];

/** Who a seat of the renju opening is: you, the engine, or the first or second player when
 * two people share the board. */
function who(t, r, seat) {
  if (r.first === r.second) return t('renju.' + seat);
  const p = seat === 'first' ? r.first : r.second;
  return t(p === 'person' ? 'renju.you' : 'renju.engine');
}

/** Where a stone goes: the centre, anywhere, or the central square of side `side`. */
function areaText(t, side) {
  if (side === 1) return t('renju.centre');
  if (!side) return t('renju.anywhere');
  return t('renju.square', { n: side });
}

/** What the renju rule asks now, of whom. */
export function renjuStepText(t, r) {
  const s = r.step;
  const w = who(t, r, r.actor_seat);
  if (r.over || !s) return t('renju.over', { black: who(t, r, r.black_seat) });
  if (r.actor === 'engine') return t('renju.deciding');
  switch (s.kind) {
    case 'stone': {
      const color = t(s.number % 2 ? 'renju.black' : 'renju.white');
      const key = r.rule === 'soosorv8' && s.number <= 3 ? 'renju.stone3' : 'renju.stone';
      return t(key, { who: w, n: s.number, color, area: areaText(t, s.area) });
    }
    case 'swap': {
      const held = t('renju.' + r.actor_color);
      const other = t(r.actor_color === 'black' ? 'renju.white' : 'renju.black');
      return t('renju.swap', { who: w, held, other });
    }
    case 'declare': return t('renju.declare', { who: w, max: s.max });
    case 'fifth': return t('renju.fifth', { who: w, area: areaText(t, s.area), max: s.max });
    case 'offer': return t('renju.offer', { who: w, k: s.made + 1, n: s.count });
    case 'choose': return t('renju.choose', { who: w });
    default: return t('renju.waiting', { who: w });
  }
}

/** The renju rule's marks on the board: the square a stone must go in, and the offers as
 * numbered see-through black stones. */
export function renjuMarks(game) {
  const r = game.renju;
  const layer = el('g', { class: 'renju-marks', 'data-testid': 'renju-marks' });
  const s = r.step;
  if (s && !r.over && s.area > 1 && (s.kind === 'stone' || s.kind === 'fifth')) {
    const { x, w } = centralSquare(game.size, s.area);
    layer.appendChild(el('rect', { x, y: x, width: w, height: w, class: 'renju-area', 'data-area': s.area }));
  }
  if (!r.over) {
    r.offers.forEach((pt, i) => {
      const p = parsePoint(pt, game.size);
      if (!p) return;
      const g = el('g', { class: 'renju-offer', 'data-offer': pt });
      g.appendChild(el('circle', { cx: px(p.x), cy: px(p.y), r: CELL * 0.4 }));
      g.appendChild(el('text', { x: px(p.x), y: px(p.y) + 5, 'text-anchor': 'middle' }, String(i + 1)));
      layer.appendChild(g);
    });
  }
  return layer;
}

/** The swap2 banner of `game`. */
function renderSwap2(t, game) {
  const box = $('opening');
  const o = game && game.opening;
  box.hidden = !o;
  if (o) {
    box.dataset.stage = o.stage;
    box.dataset.actor = o.actor;
    $('opening-text').textContent = t('op.' + o.stage + '.' + o.actor);
    for (const b of box.querySelectorAll('[data-choice]')) b.hidden = !o.choices.includes(b.dataset.choice);
  }
}

/** The buttons of the renju panel for step `kind` of the person's (none for another's). */
function renderRenjuButtons(t, box, r, kind) {
  for (const b of box.querySelectorAll('[data-renju]')) {
    const what = b.dataset.renju;
    b.hidden = !((kind === 'swap' && (what === 'swap' || what === 'keep'))
      || (kind === 'declare' && what === 'declare')
      || (kind === 'fifth' && what === 'ten'));
    b.textContent = t('renju.btn.' + what, { n: r.step && r.step.max });
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
}

/** The renju panel and the opening's name of `game`. */
function renderRenju(t, game) {
  const name = $('opening-name');
  const on = game && game.opening_name;
  name.textContent = on ? t('renju.name', { name: `${on.name} ${on.chinese} (${on.code})` }) : '';
  name.dataset.code = on ? on.code : '';
  const r = game && game.renju;
  const box = $('renju');
  box.hidden = !r || r.over;
  if (!r) return;
  const mine = !r.over && r.actor === 'person';
  box.dataset.step = r.step ? r.step.kind : 'over';
  box.dataset.actor = r.actor;
  box.dataset.rule = r.rule;
  $('renju-text').textContent = renjuStepText(t, r);
  renderRenjuButtons(t, box, r, mine && r.step ? r.step.kind : '');
}

/** The title of the panel beside the board: what goes on (nothing: the panel is a log). */
function turnTitle(t, s) {
  const game = s.game;
  if (s.setup) return t('status.setup');
  if (game && game.renju) return t('renju.status', { rule: game.renju.title });
  if (game && (game.opening || (game.swap2_events || []).length)) return t('status.opening');
  return '';
}

/** The panel beside the board while an opening rule goes on or a position is set up (the
 * set-up bar is setup.js's), with the log of the opening, open while it lasts. */
export function renderTurn(t, s) {
  const game = s.game;
  const shown = s.setup ? null : game;
  renderSwap2(t, shown);
  renderRenju(t, shown);
  const renju = shown && shown.renju;
  const events = shown ? (renju ? renju.events : shown.swap2_events) || [] : [];
  const active = !!(s.setup || (shown && (shown.opening || (renju && !renju.over))));
  const panel = $('turn');
  panel.hidden = !active && events.length === 0;
  panel.dataset.active = active ? 'yes' : 'no';
  $('turn-title').textContent = turnTitle(t, s);
  const box = $('opening-log');
  box.hidden = events.length === 0;
  // open while the opening lasts, closed once it is over (a click opens it again)
  if (box.dataset.active !== String(active)) box.open = active;
  box.dataset.active = String(active);
  const twoPeople = renju ? renju.first === renju.second
    : !!(shown && shown.players.black === shown.players.white);
  const log = $('log');
  log.textContent = '';
  for (const line of logLines(t, events, twoPeople, scaleOf(game))) log.appendChild(html('li', null, line));
  log.scrollTop = log.scrollHeight;
}

/** The renju panel's request for a click on one of its buttons `b` (null for none). */
export function renjuRequest(b) {
  const what = b.dataset.renju;
  if (what === 'swap' || what === 'keep') return { action: what };
  if (what === 'declare') return { action: 'declare', count: Number($('renju-count').value) };
  if (what === 'ten') return { action: 'declare', count: Number(b.dataset.count) };
  return null;
}
