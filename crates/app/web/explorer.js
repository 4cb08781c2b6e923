// The opening explorer beside the board: for the position on the board, the moves the
// library's games played there (how often, how those games ended, the stored engine value of
// each) and the games that went through it, in any orientation and by any move order (the
// server finds them and names the moves as the board has them). It follows the board: each
// new position is asked for once, and an answer that comes after the board moved on is left.
// The library's stored analysis of the position comes with it (or alone, when the explorer is
// folded), to be shown at once without running the engine.

import * as library from './library-api.js';
import { gameTitle } from './library.js';
import { CELL, px, parsePoint } from './coords.js';
import { mateOf, scaleOf } from './evaluation.js';
import { evalText, num } from './words.js';
import { $, html, svg as el } from './dom.js';

/** The games the explorer lists at first, and how many more a click on More adds. */
export const LIST_STEP = 20;

/** The moves from the empty board to the position of `game`, as the explorer reads them
 * (`h8`, `--` for a pass; a set-up position's stones are among them). */
export function positionMoves(game) {
  return game ? game.moves.map((m) => (m.x === null || m.x === undefined ? '--' : m.move)) : [];
}

/** The position of `game` as a query: `rule=..&size=..&moves=h8,i9`. */
export function positionQuery(game) {
  return new URLSearchParams({ rule: game.rule, size: String(game.size), moves: positionMoves(game).join(',') }).toString();
}

/** A key that tells one position of a game from another (null without a game). */
export function positionKey(game) {
  return game ? positionQuery(game) : null;
}

/** The explorer's moves as the board shows them: each with its point (`{x, y}`, null for a
 * pass), games, results, share of the position's games and stored value. A move that does not
 * fit the board (off it, or on a stone) is left out. */
export function explorerRows(answer, game) {
  if (!answer || !game) return [];
  const taken = new Set(game.moves.filter((m) => m.x !== null && m.x !== undefined).map((m) => m.move));
  const total = answer.games || 0;
  const rows = [];
  for (const m of answer.moves || []) {
    const pass = m.move === '--';
    const point = pass ? null : parsePoint(m.move, game.size);
    if (!pass && (!point || taken.has(m.move))) continue;
    rows.push({
      move: m.move, point, games: m.games, results: m.results, value: m.value,
      share: total ? m.games / total : 0,
    });
  }
  return rows;
}

/** A stored analysis (`GET /api/library/analysis`) in the form of the engine's figures, for
 * the side to move of `game`: the engine panel, the evaluation and the heat map show it as
 * they show an analysis of the engine's. */
export function storedInfo(analysis, game) {
  if (!analysis || !game) return null;
  const best = analysis.best || [];
  return {
    purpose: 'stored', color: game.to_move, engine: analysis.engine, created: analysis.created,
    move: best.length ? best[0].move : null, score: analysis.score, mate: mateOf(analysis.score),
    depth: analysis.depth, seldepth: analysis.depth, nodes: analysis.nodes, nps: null, tt_hits: null,
    time_ms: analysis.time_ms, pv: best.length ? best[0].pv : [],
    candidates: best.map((c) => ({ move: c.move, score: c.score, mate: mateOf(c.score), depth: c.depth, pv: c.pv })),
  };
}

/** The stored analysis of the position on the board, when the library has one for it. */
export function storedHere(s) {
  const st = s.stored;
  return st && s.game && !s.setup && st.key === positionKey(s.game) ? st.info : null;
}

/** The explorer's answer for the position on the board, when it came. */
export function explorerHere(s) {
  const ex = s.explorer;
  return ex && s.game && !s.setup && ex.key === positionKey(s.game) ? ex.answer : null;
}

/** Asks the library about each position the board reaches, and keeps the answers in the
 * session's state: `state.explorer` (`{key, answer}`) and `state.stored` (`{key, info}`).
 * `changed()` is called when an answer comes. */
export class Explorer {
  constructor(state, changed, api = library) {
    this.state = state;
    this.changed = changed;
    this.api = api;
    this.asked = null;   // what was last asked about: the position's key, and whether the game had analysed it
    this.key = null;     // the key of that position
    this.timer = 0;
    this.limit = LIST_STEP;
  }

  /** Whether the explorer is open (folded, only the stored analysis is asked for). */
  open() {
    const box = typeof document === 'undefined' ? null : $('explorer');
    return !box || box.open;
  }

  /** Follows the board: asks about its position when it changed (soon, once it settles), and
   * again when the game's own analysis of it comes or goes (the library keeps a finished one:
   * it is shown once the analysis is off). */
  follow() {
    const s = this.state;
    if (!s.library || !s.library.enabled || !s.game || s.setup) return;
    const key = positionKey(s.game);
    const asked = key + (s.game.analysis ? '|analysed' : '');
    if (asked === this.asked) return;
    if (key !== this.key) this.limit = LIST_STEP;
    this.asked = asked;
    this.key = key;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.ask(key, asked), 60);
  }

  /** Asks again about the position on the board (the explorer unfolded, More games). */
  refresh() {
    this.asked = null;
    this.follow();
  }

  /** Lists `LIST_STEP` more games of the position. */
  more() {
    this.limit += LIST_STEP;
    if (this.asked) this.ask(this.key, this.asked);
  }

  /** Asks about the position `key` (`asked`: what was asked, to leave a late answer). */
  async ask(key, asked) {
    const s = this.state;
    try {
      if (this.open()) {
        const answer = await this.api.explore(key + '&limit=' + this.limit);
        if (asked !== this.asked) return;
        s.explorer = { key, answer };
        s.stored = { key, info: storedInfo(answer.analysis, s.game) };
      } else {
        const a = await this.api.analysis(key);
        if (asked !== this.asked) return;
        s.stored = { key, info: storedInfo(a.analysis, s.game) };
      }
      this.changed();
    } catch (e) {
      // (a library that cannot answer leaves the explorer empty; the board goes on)
      if (asked === this.asked) this.asked = null;
    }
  }
}

/** "Black 2 · White 1 · draw 0" of a result count. */
function resultsText(t, r) {
  return t('ex.results', { black: r.black, white: r.white, draw: r.draw });
}

/** A bar of how the games ended: Black's wins, draws and unknown, White's wins. */
function resultBar(r) {
  const bar = html('span', 'ex-bar');
  const total = r.black + r.white + r.draw + r.unknown || 1;
  for (const [cls, n] of [['b', r.black], ['d', r.draw + r.unknown], ['w', r.white]]) {
    const part = html('span', cls);
    part.style.width = (100 * n / total).toFixed(1) + '%';
    bar.appendChild(part);
  }
  return bar;
}

/** A game of the explorer's list: its name or players, its result, the move it played
 * (`here`: the library's number of the game on the board, which is marked). */
function gameEntry(t, g, here) {
  const title = gameTitle(t, g);
  const li = html('li', g.id === here ? 'current' : null, null, { game: String(g.id), node: String(g.node), testid: 'ex-game' });
  li.title = g.id === here ? t('ex.thisGame') : t('ex.openTip');
  li.append(html('span', 'ex-title', title), ' ',
    html('span', 'muted', [g.result || '', g.next ? t('ex.next', { move: g.next }) : t('ex.ends')].filter(Boolean).join(' · ')));
  return li;
}

/** Draws the explorer for the session's state `s` (hidden without a library). */
export function renderExplorer(s, t) {
  const box = $('explorer');
  const enabled = !!(s.library && s.library.enabled);
  box.hidden = !enabled;
  if (!enabled) return;
  const here = explorerHere(s);
  box.dataset.key = here ? s.explorer.key : '';
  box.dataset.games = here ? String(here.games) : '';
  $('ex-count').textContent = here ? (here.games === 1 ? t('ex.count1') : t('ex.count', { n: num(here.games) })) : '';
  const moves = $('ex-moves');
  const games = $('ex-games');
  moves.textContent = '';
  games.textContent = '';
  const rows = explorerRows(here, s.game);
  const scale = scaleOf(s.game);
  for (const r of rows) {
    const li = html('li', null, null, { move: r.move, games: String(r.games), testid: 'ex-move' });
    li.title = resultsText(t, r.results) + (r.value ? ' · ' + t('ex.depth', { depth: r.value.depth }) : '');
    const value = r.value ? evalText(t, { score: r.value.score, color: s.game.to_move }, scale) : '';
    li.append(html('span', 'pt', r.move === '--' ? t('ex.pass') : r.move), html('span', 'n', num(r.games)),
      resultBar(r.results), html('span', 'ev', value));
    moves.appendChild(li);
  }
  for (const g of (here && here.list) || []) games.appendChild(gameEntry(t, g, s.game.library_id));
  $('ex-none').hidden = !here || rows.length > 0;
  $('ex-none').textContent = here && here.games ? t('ex.ended') : t('ex.none');
  $('ex-games-box').hidden = !here || !here.list || here.list.length === 0;
  $('ex-more').hidden = !here || !here.list || here.list.length >= here.games;
}

/** The explorer's moves on the board, as rings with their number of games (the point under
 * the pointer in the explorer's list stands out). */
export function renderExplorerMarks(s) {
  const layer = $('explorer-marks');
  if (!layer) return;
  layer.textContent = '';
  const box = $('explorer');
  const here = explorerHere(s);
  if (!here || !s.options.explorerMarks || box.hidden || !box.open) return;
  for (const r of explorerRows(here, s.game)) {
    if (!r.point) continue;
    const { x, y } = r.point;
    const g = el('g', { class: 'ex-mark' + (s.hoverExplorer === r.move ? ' hover' : ''), 'data-explorer': r.move, 'data-games': r.games });
    g.appendChild(el('circle', { cx: px(x), cy: px(y), r: CELL * 0.3 }));
    g.appendChild(el('text', { x: px(x), y: px(y) + 5, 'text-anchor': 'middle' }, String(r.games)));
    layer.appendChild(g);
  }
}

/** Wires the explorer's controls: a move of its list is played on the board as a click on
 * its point (`play(point)`; the pointer on one shows it there), a game is opened at the position (`openGame(id, node)`), More lists
 * more games, and unfolding it asks about the position on the board. */
export function wireExplorer(explorer, session, deps) {
  const s = session.state;
  const moves = $('ex-moves');
  moves.addEventListener('click', (e) => {
    const li = e.target.closest('li[data-move]');
    if (li && li.dataset.move !== '--') deps.play(li.dataset.move);
  });
  moves.addEventListener('mouseover', (e) => {
    const li = e.target.closest('li[data-move]');
    const move = li ? li.dataset.move : null;
    if (move !== s.hoverExplorer) { s.hoverExplorer = move; renderExplorerMarks(s); }
  });
  moves.addEventListener('mouseleave', () => { s.hoverExplorer = null; renderExplorerMarks(s); });
  $('ex-games').addEventListener('click', (e) => {
    const li = e.target.closest('li[data-game]');
    if (li) deps.openGame(Number(li.dataset.game), Number(li.dataset.node));
  });
  $('ex-more').addEventListener('click', () => explorer.more());
  $('explorer').addEventListener('toggle', () => { explorer.refresh(); deps.render(); });
  const marks = $('chk-explorer-marks');
  marks.checked = s.options.explorerMarks;
  marks.addEventListener('change', () => {
    s.options.explorerMarks = marks.checked;
    deps.saveOption(marks.checked);
    renderExplorerMarks(s);
  });
}
