// Setting up a position: stones put down and taken away on the page, then a new game from
// them. The set-up (`{size, stones: Map point -> colour, tool}`) is part of the session's
// state; these functions read and change the one they are given.

import { parsePoint } from './coords.js';
import { $ } from './dom.js';

/** A set-up under `rule` on a board of `size`, from the stones of `game` when it is on a
 * board of that size. */
export function openSetup(size, rule, game) {
  const stones = new Map();
  if (game && game.size === size) {
    for (const m of game.moves) if (m.x !== null && m.x !== undefined) stones.set(m.move, m.color);
  }
  return { size, rule, stones, tool: 'black' };
}

/** The stones of each colour. */
export function setupCounts(setup) {
  let black = 0, white = 0;
  for (const c of setup.stones.values()) { if (c === 'black') black++; else white++; }
  return { black, white };
}

/** The side to move: `chosen`, or as the stones say (White after more black stones). */
export function setupToMove(setup, chosen) {
  if (chosen) return chosen;
  const c = setupCounts(setup);
  return c.black > c.white ? 'white' : 'black';
}

/** The set-up's stones as moves for drawing: no numbers, no last move. */
export function setupMoves(setup) {
  return [...setup.stones].map(([move, color]) => {
    const p = parsePoint(move, setup.size);
    return { move, color, x: p.x, y: p.y, number: 0 };
  });
}

/** A click on `point`: its stone goes, or one of the tool's colour goes there. */
export function setupClick(setup, point) {
  if (setup.stones.has(point)) setup.stones.delete(point);
  else setup.stones.set(point, setup.tool);
}

/** The new game's request for the set-up position. */
export function setupRequest(setup, toMove) {
  const black = [], white = [];
  for (const [p, c] of setup.stones) (c === 'black' ? black : white).push(p);
  const body = { size: setup.size, setup: { black, white } };
  if (toMove) body.setup.to_move = toMove;
  return body;
}

/** Draws the set-up bar (hidden when not setting up). */
export function renderSetup(t, setup) {
  const bar = $('setup-bar');
  bar.hidden = !setup;
  $('ng-setup').disabled = !!setup;
  if (!setup) return;
  for (const b of bar.querySelectorAll('[data-tool]')) b.setAttribute('aria-pressed', b.dataset.tool === setup.tool ? 'true' : 'false');
  const c = setupCounts(setup);
  const toMove = setupToMove(setup, $('setup-to-move').value);
  const count = $('setup-count');
  count.textContent = t('setup.count', { black: c.black, white: c.white, color: t(toMove) });
  count.dataset.toMove = toMove;
}
