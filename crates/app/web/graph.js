// The evaluation graph: Black's chance after each move of the line shown (the review's values
// where it judged the moves, the engine's own moves' values otherwise), 100% at the top.

import { blackChance, scaleOf } from './evaluation.js';
import { reviewByNumber } from './game-state.js';
import { lineMoves } from './tree.js';
import { evalText } from './words.js';
import { $, svg as el } from './dom.js';

const W = 340, H = 120, L = 8, R = 8, MID = H / 2, AMP = H / 2 - 8;

/** The graph's points: `[x, y, move, words]` for each move with a value. */
export function graphPoints(game) {
  const line = lineMoves(game);
  const total = Math.max(line.length, 10);
  const scale = scaleOf(game);
  const xOf = (k) => L + (W - L - R) * (k - 1) / Math.max(total - 1, 1);
  const yOf = (score, color) => MID - AMP * (2 * blackChance(score, color, scale) - 1);
  const verdicts = reviewByNumber(game);
  const pts = [];
  for (const m of line) {
    const v = verdicts.get(m.number);
    if (v) pts.push([xOf(m.number), yOf(v.score, m.color), m, { score: v.score, color: m.color }]);
    else if (m.engine) pts.push([xOf(m.number), yOf(m.engine.score, m.engine.color), m, m.engine]);
  }
  return { pts, cursor: (game.continuation || []).length ? xOf(Math.max(game.moves.length, 1)) : null };
}

/** Draws the graph of `game`. */
export function renderGraph(t, game) {
  const svg = $('graph');
  svg.textContent = '';
  svg.appendChild(el('rect', { x: 0, y: 0, width: W, height: H, class: 'graph-bg' }));
  svg.appendChild(el('rect', { x: 0, y: 0, width: W, height: MID, class: 'graph-black' }));
  for (const q of [0.25, 0.75]) {
    const y = MID - AMP * (2 * q - 1);
    svg.appendChild(el('line', { x1: 0, y1: y, x2: W, y2: y, class: 'graph-grid' }));
  }
  svg.appendChild(el('line', { x1: 0, y1: MID, x2: W, y2: MID, class: 'graph-axis' }));
  // labels first, so that the curve is drawn over them
  svg.appendChild(el('text', { x: 6, y: 12, class: 'graph-label' }, '▲ ' + t('graph.black')));
  svg.appendChild(el('text', { x: 6, y: H - 4, class: 'graph-label' }, '▼ ' + t('graph.white')));
  svg.appendChild(el('text', { x: W - 6, y: MID - 3, class: 'graph-label', 'text-anchor': 'end' }, '50%'));
  if (!game) return;
  const { pts, cursor } = graphPoints(game);
  if (cursor !== null) {
    svg.appendChild(el('line', { x1: cursor, y1: 0, x2: cursor, y2: H, class: 'graph-cursor', 'data-testid': 'graph-cursor' }));
  }
  if (pts.length > 1) {
    svg.appendChild(el('polyline', { points: pts.map((p) => p[0].toFixed(1) + ',' + p[1].toFixed(1)).join(' '), class: 'graph-line' }));
  }
  const scale = scaleOf(game);
  for (const [x, y, m, value] of pts) {
    const c = el('circle', { cx: x, cy: y, r: 3, class: 'graph-dot ' + m.color, 'data-number': m.number, 'data-node': m.node });
    c.appendChild(el('title', {}, `${m.number}. ${m.move}: ${evalText(t, value, scale)}`));
    svg.appendChild(c);
  }
}
