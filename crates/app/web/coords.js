// The board's geometry: points named `h8` style (column letter from the left, row number from
// the bottom) and where they are drawn. The board is an SVG of CELL units per cell with a
// MARGIN of units around the grid for the coordinates. Nothing here touches the page.

/** Units between two lines of the grid. */
export const CELL = 40;
/** Units from the board's edge to its outer lines. */
export const MARGIN = 46;

/** The drawing position of line `i` (0 at the left or top). */
export const px = (i) => MARGIN + i * CELL;

/** The width (and height) of a board of `n` lines, in units. */
export function boardUnits(n) {
  return MARGIN * 2 + CELL * (n - 1);
}

/** `{x, y}` of a point name on a board of `size` (y counted from the top), or null. */
export function parsePoint(s, size) {
  const m = /^([a-z])(\d+)$/.exec(String(s).toLowerCase());
  if (!m) return null;
  const p = { x: m[1].charCodeAt(0) - 97, y: size - Number(m[2]) };
  return p.x >= 0 && p.x < size && p.y >= 0 && p.y < size ? p : null;
}

/** The name of column `x`, row `y` (from the top) on a board of `size`. */
export function pointName(x, y, size) {
  return String.fromCharCode(97 + x) + (size - y);
}

/** The star points of a board of `n` lines, as `[x, y]`. */
export function starPoints(n) {
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

/** The width of a cell in CSS pixels when a board of `n` lines is drawn `width` pixels wide. */
export function cellPixels(width, n) {
  return (width * CELL) / boardUnits(n);
}

/** The five points of a winning line, ends first: the two points to draw a line between. */
export function lineEnds(points, size) {
  const pts = points.map((s) => parsePoint(s, size)).filter(Boolean);
  if (pts.length < 2) return null;
  pts.sort((a, b) => (a.x - b.x) || (a.y - b.y));
  return [pts[0], pts[pts.length - 1]];
}

/** The central square of side `side` (odd) on a board of `n` lines, in units: `{x, w}`
 * (the same along both axes), half a cell beyond its outer points. */
export function centralSquare(n, side) {
  const c = (n - 1) / 2;
  const k = (side - 1) / 2;
  return { x: px(c - k) - CELL / 2, w: px(c + k) - px(c - k) + CELL };
}
