// Values as the page shows them: every value names its side. An ordinary value v (for the side
// it is of) becomes that side's expected score 1 / (1 + exp(-v / K)), K from the server (the
// curve `gomoku train` fits to game results); a proven one says who wins in how many moves.
// The heat map colours a candidate by how much of the best move's chance it keeps. Nothing
// here touches the page.

/** A proven win's value at once (the engine's `WIN`), and the least proven one. */
export const WIN = 30000;
export const WIN_MIN = 29000;
/** K when the server gives none. */
export const DEFAULT_SCALE = 180;

/** The K of game `game`'s values. */
export function scaleOf(game) {
  return (game && game.win_scale) || DEFAULT_SCALE;
}

/** The other colour. */
export function other(c) {
  return c === 'black' ? 'white' : 'black';
}

/** Black's expected score (0 to 1) for a value `score` of `color`. */
export function blackChance(score, color, scale = DEFAULT_SCALE) {
  const v = color === 'black' ? score : -score;
  if (v >= WIN_MIN) return 1;
  if (v <= -WIN_MIN) return 0;
  return 1 / (1 + Math.exp(-v / scale));
}

/** The expected score of `color` itself for its value `score`. */
export function chanceOf(score, color, scale = DEFAULT_SCALE) {
  const b = blackChance(score, color, scale);
  return color === 'black' ? b : 1 - b;
}

/** Own moves to a proven result, as the server's `mate`: positive wins, negative loses;
 * null for a value not proven. */
export function mateOf(score) {
  if (score >= WIN_MIN) return Math.floor((WIN - score + 1) / 2);
  if (score <= -WIN_MIN) return -Math.floor((WIN + score) / 2);
  return null;
}

/** `{side, pct}` or `{side, mate}`: the side ahead and its chance, or the winner and its moves. */
export function judge(score, color, mate, scale = DEFAULT_SCALE) {
  if (mate === undefined) mate = mateOf(score);
  if (mate !== null && mate !== undefined) return { side: mate > 0 ? color : other(color), mate: Math.abs(mate) };
  const b = blackChance(score, color, scale);
  const side = b >= 0.5 ? 'black' : 'white';
  return { side, pct: Math.round(100 * (side === 'black' ? b : 1 - b)) };
}

/** The loss of chance against the best candidate that the heat map shows as red. */
export const HEAT_SPAN = 0.25;

/** The colour of a candidate on the heat map, from its chance and the best candidate's (both
 * the side to move's, 0 to 1): green for the best and those as good, through yellow, to red
 * for one that gives up HEAT_SPAN of the chance or more. Relative to the best, so that where
 * every move keeps 65-80% the better ones still stand out; steeper near the best, where the
 * choices that matter are. */
export function heatColor(chance, best) {
  const loss = Math.max(0, best - chance);
  const k = Math.min(1, loss / HEAT_SPAN);
  const hue = Math.round(120 * (1 - Math.sqrt(k)));
  return `hsl(${hue}, 80%, 45%)`;
}
