// The board: an SVG drawn afresh from the session's state whenever the game changes (wood,
// grid, coordinates, stones and every mark), with one click target per point on top. The
// layers that follow a running analysis (overlays.js) are redrawn on their own.

import { CELL, px, boardUnits, parsePoint, pointName, starPoints, cellPixels, lineEnds } from './coords.js';
import { other } from './evaluation.js';
import { reviewByNumber, personToMove } from './game-state.js';
import { startPlies } from './tree.js';
import { setupMoves } from './setup.js';
import { renjuMarks } from './openings.js';
import { $, svg as el } from './dom.js';
import { renderCandidateMarks, renderLineMarks } from './overlays.js';
import { renderExplorerMarks } from './explorer.js';
import { drawLabels, nodeHere } from './notes.js';

/** A cell smaller than this (in CSS pixels) takes a tap to preview and a second to play. */
export const CONFIRM_CELL_PX = 28;

const STONE_GRADIENTS = '<radialGradient id="g-black" cx="35%" cy="30%" r="70%"><stop offset="0" stop-color="#777"/><stop offset="0.45" stop-color="#222"/><stop offset="1" stop-color="#000"/></radialGradient>'
  + '<radialGradient id="g-white" cx="35%" cy="30%" r="75%"><stop offset="0" stop-color="#fff"/><stop offset="0.7" stop-color="#eeeeea"/><stop offset="1" stop-color="#b8b8b0"/></radialGradient>';

/** The number of lines of the board shown. */
export function boardSize(s) {
  return s.setup ? s.setup.size : (s.game ? s.game.size : 15);
}

/** The width of a cell on the screen, in CSS pixels. */
export function cellPx(s) {
  return cellPixels($('board').getBoundingClientRect().width, boardSize(s));
}

/** Whether a tap only previews a move (small cells): a second tap on the point plays it. */
export function needsConfirm(s) {
  return cellPx(s) < CONFIRM_CELL_PX;
}

/** Draws the board of the session's state `s`. */
export function renderBoard(s, t) {
  const board = $('board');
  board.textContent = '';
  const { game, setup } = s;
  if (!game && !setup) return;
  const n = boardSize(s);
  const w = boardUnits(n);
  board.setAttribute('viewBox', `0 0 ${w} ${w}`);
  board.dataset.size = n;
  const placing = setup ? setup.tool : game.to_move;
  board.classList.toggle('can-play', !!setup || personToMove(game));
  board.classList.toggle('setting-up', !!setup);
  board.classList.toggle('turn-black', placing === 'black');
  board.classList.toggle('turn-white', placing === 'white');
  board.dataset.confirm = needsConfirm(s) ? 'yes' : 'no';
  drawWood(board, n);
  // the heat map of an analysis, under the stones and marks
  board.appendChild(el('g', { class: 'heat', id: 'heat-map', 'data-testid': 'heat-map' }));
  const forbidden = drawForbidden(board, setup ? [] : game.forbidden, n, t);
  const moves = setup ? setupMoves(setup) : game.moves;
  const occupied = drawStones(board, s, moves, n);
  drawReviewBadges(board, game && !setup ? reviewByNumber(game) : new Map(), moves);
  if (!setup) drawGameMarks(board, s, n);
  // the renju opening rules: the square a stone goes in, the offers (under the click targets)
  if (!setup && game.renju) board.appendChild(renjuMarks(game));
  // the explorer's moves, and the labels of the move on the board
  board.appendChild(el('g', { class: 'explorer-marks', id: 'explorer-marks', 'data-testid': 'explorer-marks' }));
  if (!setup) drawLabels(board, nodeHere(s), new Map(moves.map((m) => [m.move, m.color])), n);
  drawHits(board, n, setup ? null : forbidden, occupied, !!setup);
  // the number of the point under the pointer (or tapped), above everything, never in the way
  board.appendChild(el('g', { class: 'heat-label', id: 'heat-label', 'data-testid': 'heat-label' }));
  renderCandidateMarks(s, t);
  renderLineMarks(s);
  renderExplorerMarks(s);
}

function drawWood(board, n) {
  const w = boardUnits(n);
  const defs = el('defs', {});
  defs.innerHTML = STONE_GRADIENTS;
  board.appendChild(defs);
  board.appendChild(el('rect', { x: 0, y: 0, width: w, height: w, class: 'wood', rx: 6 }));
  const grid = el('g', { class: 'grid' });
  for (let i = 0; i < n; i++) {
    grid.appendChild(el('line', { x1: px(0), y1: px(i), x2: px(n - 1), y2: px(i) }));
    grid.appendChild(el('line', { x1: px(i), y1: px(0), x2: px(i), y2: px(n - 1) }));
  }
  grid.appendChild(el('rect', { x: px(0), y: px(0), width: CELL * (n - 1), height: CELL * (n - 1), class: 'edge' }));
  board.appendChild(grid);
  for (const [x, y] of starPoints(n)) board.appendChild(el('circle', { cx: px(x), cy: px(y), r: 4.5, class: 'star' }));
  const labels = el('g', { class: 'labels' });
  for (let i = 0; i < n; i++) {
    const letter = String.fromCharCode(97 + i);
    labels.appendChild(el('text', { x: px(i), y: w - 14, 'text-anchor': 'middle' }, letter));
    labels.appendChild(el('text', { x: px(i), y: 24, 'text-anchor': 'middle' }, letter));
    // (two digits clear of a stone on the edge, and of a review badge on it)
    labels.appendChild(el('text', { x: 17, y: px(i) + 6, 'text-anchor': 'middle' }, String(n - i)));
    labels.appendChild(el('text', { x: w - 17, y: px(i) + 6, 'text-anchor': 'middle' }, String(n - i)));
  }
  board.appendChild(labels);
}

/** Renju: Black's forbidden points, shown while Black is to move. Returns their names. */
function drawForbidden(board, list, n, t) {
  const forbidden = new Set();
  const r = CELL * 0.2;
  for (const f of list || []) {
    const p = parsePoint(f.point, n);
    if (!p) continue;
    forbidden.add(f.point);
    const g = el('g', { class: 'forbidden', 'data-forbidden': f.point, 'data-kind': f.kind });
    g.appendChild(el('title', {}, t('foul.' + f.kind)));
    g.appendChild(el('line', { x1: px(p.x) - r, y1: px(p.y) - r, x2: px(p.x) + r, y2: px(p.y) + r }));
    g.appendChild(el('line', { x1: px(p.x) - r, y1: px(p.y) + r, x2: px(p.x) + r, y2: px(p.y) - r }));
    board.appendChild(g);
  }
  return forbidden;
}

/** The stones, numbered when asked (not a set-up position's), the winning five ringed.
 * Returns the points taken. */
function drawStones(board, s, moves, n) {
  const { game, setup } = s;
  const winning = new Set((!setup && game.result && game.result.line) || []);
  const showNumbers = s.options.numbers;
  const stones = el('g', { class: 'stones' });
  const occupied = new Set();
  // the set-up stones are not numbered, nor marked as the last move
  const start = setup ? Infinity : startPlies(game);
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
  board.appendChild(stones);
  const ends = winning.size > 1 ? lineEnds([...winning], n) : null;
  if (ends) {
    const [a, b] = ends;
    board.appendChild(el('line', { x1: px(a.x), y1: px(a.y), x2: px(b.x), y2: px(b.y), class: 'win-line', 'data-testid': 'win-line' }));
  }
  if (last && last.x !== null && !showNumbers) {
    board.appendChild(el('circle', { cx: px(last.x), cy: px(last.y), r: 5.5, class: 'last-mark', 'data-testid': 'last-move' }));
  }
  return occupied;
}

/** The review's inaccuracies, mistakes and blunders: a badge with the mark at the stone's
 * upper right (a ring would look like the winning five's). */
function drawReviewBadges(board, verdicts, moves) {
  for (const m of moves) {
    const v = verdicts.get(m.number);
    if (!v || !v.mark || m.x === null || m.x === undefined) continue;
    const g = el('g', { class: 'review-mark ' + v.verdict, 'data-review': m.move, 'data-verdict': v.verdict });
    const bx = px(m.x) + CELL * 0.3, by = px(m.y) - CELL * 0.3;
    g.appendChild(el('rect', { x: bx - 11, y: by - 9, width: 22, height: 17, rx: 5 }));
    g.appendChild(el('text', { x: bx, y: by + 4.5, 'text-anchor': 'middle' }, v.mark));
    board.appendChild(g);
  }
}

/** The marks of a game (not of a set-up): points left out of the analysis, the layer of the
 * best line, the review's view of the next move, a proven win, a hint, a point tapped once. */
function drawGameMarks(board, s, n) {
  const game = s.game;
  if (game.analyze) {
    // a dashed ring, crossed
    const r = CELL * 0.3;
    for (const pt of game.excluded || []) {
      const p = parsePoint(pt, n);
      if (!p) continue;
      const g = el('g', { class: 'excluded', 'data-excluded': pt });
      g.appendChild(el('circle', { cx: px(p.x), cy: px(p.y), r }));
      g.appendChild(el('line', { x1: px(p.x) - r * 0.7, y1: px(p.y) + r * 0.7, x2: px(p.x) + r * 0.7, y2: px(p.y) - r * 0.7 }));
      board.appendChild(g);
    }
  }
  board.appendChild(el('g', { class: 'pv-line', id: 'pv-marks', 'data-testid': 'pv-line' }));
  drawReviewNext(board, game, n);
  drawSolution(board, game.solution, n);
  if (game.hint && game.hint.move && !game.thinking) {
    const p = parsePoint(game.hint.move, n);
    if (p) board.appendChild(el('circle', { cx: px(p.x), cy: px(p.y), r: CELL * 0.38, class: 'hint-mark', 'data-testid': 'hint-mark', 'data-hint': game.hint.move }));
  }
  // a point tapped once on small cells: the stone to come, waiting for the second tap
  const p = s.pending && !game.moves.some((m) => m.move === s.pending) ? parsePoint(s.pending, n) : null;
  if (p) {
    const g = el('g', { class: 'pending ' + game.to_move, 'data-testid': 'pending', 'data-pending': s.pending });
    g.appendChild(el('circle', { cx: px(p.x), cy: px(p.y), r: CELL * 0.46 }));
    g.appendChild(el('circle', { cx: px(p.x), cy: px(p.y), r: CELL * 0.66, class: 'pending-ring' }));
    board.appendChild(g);
  }
}

/** The next move of the line shown, when a review judged it: the engine's choice there (a
 * blue dashed square) and the move played (a dashed ring with its number). */
function drawReviewNext(board, game, n) {
  const ahead = game.continuation || [];
  const next = ahead.length ? reviewByNumber(game).get(ahead[0].number) : null;
  if (!next) return;
  const best = next.best !== next.move ? parsePoint(next.best, n) : null;
  if (best) {
    const r = CELL * 0.36;
    board.appendChild(el('rect', { x: px(best.x) - r, y: px(best.y) - r, width: 2 * r, height: 2 * r, rx: 4, class: 'review-best', 'data-testid': 'review-best', 'data-best': next.best }));
  }
  const p = parsePoint(next.move, n);
  if (p) {
    const g = el('g', { class: 'review-next ' + next.verdict, 'data-testid': 'review-next', 'data-next': next.move });
    g.appendChild(el('circle', { cx: px(p.x), cy: px(p.y), r: CELL * 0.3 }));
    g.appendChild(el('text', { x: px(p.x), y: px(p.y) + 5, 'text-anchor': 'middle' }, String(next.number)));
    board.appendChild(g);
  }
}

/** A proven win: its line, numbered, the attacker's stones filled and the defender's hollow. */
function drawSolution(board, sol, n) {
  if (!sol || !sol.solved) return;
  const layer = el('g', { class: 'solution', 'data-testid': 'solution-line' });
  sol.line.forEach((pt, i) => {
    const p = parsePoint(pt, n);
    if (!p) return;
    const g = el('g', { class: 'sol ' + (i % 2 === 0 ? sol.color : other(sol.color)), 'data-solution': pt, 'data-step': i + 1 });
    g.appendChild(el('circle', { cx: px(p.x), cy: px(p.y), r: CELL * 0.36 }));
    g.appendChild(el('text', { x: px(p.x), y: px(p.y) + 5, 'text-anchor': 'middle' }, String(i + 1)));
    layer.appendChild(g);
  });
  board.appendChild(layer);
}

/** The click targets, one per point, on top of everything. Setting up, a stone is clicked
 * to take it away; in a game, a stone or a forbidden point is blocked. */
function drawHits(board, n, forbidden, occupied, settingUp) {
  const hits = el('g', { class: 'hits' });
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const name = pointName(x, y, n);
      const blocked = !settingUp && (occupied.has(name) || forbidden.has(name));
      const cls = 'hit' + (blocked ? ' blocked' : '') + (settingUp && occupied.has(name) ? ' taken' : '');
      hits.appendChild(el('circle', { cx: px(x), cy: px(y), r: CELL * 0.48, class: cls, 'data-point': name }));
    }
  }
  board.appendChild(hits);
}
