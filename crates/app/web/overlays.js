// The board's layers that follow a running analysis, redrawn on their own while it runs
// (the click targets stay, so that a click is never lost between mouse down and up): the
// heat map (each candidate's cell coloured by how much of the best candidate's chance it
// keeps, the best one outlined), the value of the point under the pointer, and a line as
// numbered stones.

import { CELL, MARGIN, px, parsePoint, cellPixels } from './coords.js';
import { chanceOf, heatColor, other, scaleOf } from './evaluation.js';
import { analysisInfo, boardLine } from './game-state.js';
import { storedHere } from './explorer.js';
import { evalText } from './words.js';
import { $, svg as el } from './dom.js';

/** The best chance of the side to move among the candidates of `analysis`. */
export function bestChance(analysis, scale) {
  return Math.max(0, ...((analysis && analysis.candidates) || []).map((c) => chanceOf(c.score, analysis.color, scale)));
}

/** The line drawn on the board for the session's state `s` (none while setting up). */
export function shownLine(s) {
  return s.setup ? null : boardLine(s.game, s.live, s.hoverLine, s.options.showLine, storedHere(s));
}

/** The heat map of the analysis, then the label of the point under the pointer. */
export function renderCandidateMarks(s, t) {
  const heat = $('heat-map');
  const game = s.game;
  if (!heat || !game) return;
  heat.textContent = '';
  const occupied = new Set(game.moves.map((m) => m.move));
  const analysis = analysisInfo(game, s.live, storedHere(s));
  const cands = (analysis && analysis.candidates) || [];
  const on = s.options.heat;
  heat.dataset.on = on ? 'yes' : 'no';
  // a candidate's line on the board hides the map
  if (on && cands.length && !s.setup && !shownLine(s)) {
    const half = CELL * 0.47;
    const best = bestChance(analysis, scaleOf(game));
    cands.forEach((c, rank) => {
      const p = parsePoint(c.move, game.size);
      if (!p || occupied.has(c.move)) return;
      const chance = chanceOf(c.score, analysis.color, scaleOf(game));
      const g = el('g', {
        class: 'cand' + (rank === 0 ? ' best' : ''), 'data-candidate': c.move, 'data-rank': rank,
        'data-score': c.score, 'data-chance': chance.toFixed(3),
      });
      g.appendChild(el('rect', {
        x: px(p.x) - half, y: px(p.y) - half, width: 2 * half, height: 2 * half, rx: 7, fill: heatColor(chance, best),
      }));
      heat.appendChild(g);
    });
  }
  renderHeatLabel(s, t);
}

/** The value of the candidate under the mouse, as a label beside it (`s.hoverPoint`, which
 * only a mouse sets: a tap says its point's value in the status line, so that no label hides
 * the stones around a finger). */
export function renderHeatLabel(s, t) {
  const layer = $('heat-label');
  const game = s.game;
  if (!layer || !game) return;
  layer.textContent = '';
  delete layer.dataset.point;
  const point = s.hoverPoint;
  if (!point || s.setup) return;
  const analysis = analysisInfo(game, s.live, storedHere(s));
  const heatOn = s.options.heat && !shownLine(s);
  const c = heatOn ? ((analysis && analysis.candidates) || []).find((x) => x.move === point) : null;
  const p = parsePoint(point, game.size);
  if (!p || !c) return;
  const text = point + ': ' + evalText(t, { score: c.score, color: analysis.color, mate: c.mate }, scaleOf(game));
  // at least 14 pixels high on the screen, however small the board is drawn
  const cell = cellPixels($('board').getBoundingClientRect().width, game.size);
  const unit = Math.max(1, 14 / (cell / CELL) / 15);
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

/** The line as numbered see-through stones, from the side to move, up to the first point
 * taken. */
export function renderLineMarks(s) {
  const layer = $('pv-marks');
  const game = s.game;
  if (!layer || !game) return;
  layer.textContent = '';
  const line = shownLine(s);
  if (!line) return;
  const taken = new Set(game.moves.map((m) => m.move));
  let color = game.to_move;
  for (let i = 0; i < line.length; i++) {
    const p = parsePoint(line[i], game.size);
    if (!p || taken.has(line[i])) break;
    taken.add(line[i]);
    const g = el('g', { class: 'pvs ' + color, 'data-pv': line[i], 'data-step': i + 1, 'data-color': color });
    g.appendChild(el('circle', { cx: px(p.x), cy: px(p.y), r: CELL * 0.4 }));
    g.appendChild(el('text', { x: px(p.x), y: px(p.y) + 5, 'text-anchor': 'middle' }, String(i + 1)));
    layer.appendChild(g);
    color = other(color);
  }
}
