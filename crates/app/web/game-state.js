// What the page reads from the game the server keeps (`game`: the latest state) and from the
// search under way (`live`: its latest progress): who may click, which search the panels
// show, the line to draw. Functions of their arguments only; nothing here touches the page.

import { mateOf } from './evaluation.js';
import { parsePoint } from './coords.js';

/** Whether the engine is analysing the position. */
export function analysing(game) {
  return !!(game && game.thinking && game.thinking.purpose === 'analysis');
}

/** Whether the engine is reviewing the game. */
export function reviewing(game) {
  return !!(game && game.thinking && game.thinking.purpose === 'review');
}

/** Whether the engine is looking for a forced win. */
export function solving(game) {
  return !!(game && game.thinking && game.thinking.purpose === 'solve');
}

/** Whether an opening rule (swap2, or a renju rule not yet over) is under way. */
export function inOpening(game) {
  return !!(game && (game.opening || (game.renju && !game.renju.over)));
}

/** Whether a click on the board is the person's move (or step of an opening). */
export function personToMove(game) {
  if (!game || game.result) return false;
  if (game.renju && !game.renju.over) return !game.thinking && game.renju.actor === 'person' && game.renju.wants_point;
  if (game.opening) return !game.thinking && game.opening.actor === 'person' && ['three', 'five'].includes(game.opening.stage);
  return (!game.thinking || analysing(game)) && game.players[game.to_move] === 'person';
}

/** The analysis of the position on the board: live while it runs, then the finished one,
 * else the library's stored analysis of the position (`stored`, in the engine's form), while
 * the game goes on. */
export function analysisInfo(game, live, stored = null) {
  if (!game) return null;
  if (analysing(game)) return live;
  return game.analysis || (game.result ? null : stored) || null;
}

/** The search the panel shows, and the number of moves of the position it searched:
 * `{info, at}`, or null. A search of the game's own comes first, then the library's stored
 * analysis of the position (`stored`), then the last move's figures. */
export function shownSource(game, live, stored = null) {
  if (!game) return null;
  const n = game.moves.length;
  if (game.thinking && !reviewing(game)) return { info: live, at: n };
  if (game.analysis) return { info: game.analysis, at: n };
  if (game.hint) return { info: game.hint, at: n };
  if (stored && !game.result) return { info: stored, at: n };
  for (let i = n - 1; i >= 0; i--) if (game.moves[i].engine) return { info: game.moves[i].engine, at: i };
  return null;
}

/** The finished (or running) review's verdicts by move number. */
export function reviewByNumber(game) {
  const map = new Map();
  for (const m of (game && game.review && game.review.moves) || []) map.set(m.number, m);
  return map;
}

/** Without a search of its own, the review's value of the position on the board: the last
 * move's value for its player, or the value before the next move of the line. */
export function reviewInfo(game) {
  if (!game || !game.review) return null;
  const verdicts = reviewByNumber(game);
  const last = game.moves[game.moves.length - 1];
  const v = last && verdicts.get(last.number);
  if (v) return { score: v.score, color: v.color, mate: mateOf(v.score), move: null, depth: 0 };
  const next = (game.continuation || [])[0];
  const w = next && verdicts.get(next.number);
  if (w) return { score: w.best_score, color: w.color, mate: mateOf(w.best_score), move: w.best, depth: 0 };
  return null;
}

/** The engine's line from the position on the board: the PV of the search shown, past the
 * moves played since it was searched (null when they left it). */
export function engineLine(game, live, stored = null) {
  if (!game || reviewing(game) || solving(game)) return null;
  const src = shownSource(game, live, stored);
  const info = src && src.info;
  if (!info || !info.pv || !info.pv.length) return null;
  const played = game.moves.slice(src.at).map((m) => m.move);
  if (played.length > info.pv.length || played.some((m, k) => info.pv[k] !== m)) return null;
  return info.pv.slice(played.length);
}

/** The line drawn on the board: a candidate's under the pointer (`hover.move`), the engine's
 * under the pointer (`hover.best`) or with "Best line on board" (`showLine`), but not over the
 * values of an analysis (or of `stored`, the library's) or a proven win. */
export function boardLine(game, live, hover, showLine, stored = null) {
  if (!game) return null;
  const analysis = analysisInfo(game, live, stored);
  const cands = (analysis && analysis.candidates) || [];
  if (hover && hover.move) {
    const c = cands.find((x) => x.move === hover.move);
    return c ? c.pv : null;
  }
  if (hover && hover.best) return engineLine(game, live, stored);
  if (!showLine || cands.length || (game.solution && game.solution.solved)) return null;
  return engineLine(game, live, stored);
}

/** Whether `point` is in the central square of side `side` (1: the centre; 0: anywhere) of a
 * board of `size`. */
export function inArea(point, side, size) {
  const p = parsePoint(point, size);
  if (!p) return false;
  if (!side) return true;
  const c = (size - 1) / 2, k = (side - 1) / 2;
  return Math.abs(p.x - c) <= k && Math.abs(p.y - c) <= k;
}

/** Why a click on `point` is no move the server would take, when the page can tell (so that
 * it is said at once, and no refused request goes out): `{code}` (or `{code, key, params}`,
 * an error of the page's own words), or null to ask the server. */
export function refusal(game, point) {
  if (!game) return null;
  if (game.result) return { code: 'game_over' };
  const purpose = game.thinking && game.thinking.purpose;
  if (purpose === 'move') return { code: 'engine_thinking' };
  const taken = game.moves.some((m) => m.move === point);
  const forbidden = (game.forbidden || []).some((f) => f.point === point);
  const r = game.renju;
  if (r && !r.over) {
    if (r.actor !== 'person' || purpose === 'opening') return { code: 'not_your_turn' };
    if (!r.wants_point) return { code: 'choose_first' };
    if (taken) return { code: 'occupied' };
    const s = r.step;
    if (s.kind === 'choose') return r.offers.includes(point) ? null : { code: 'not_offered' };
    if ((s.kind === 'stone' || s.kind === 'fifth') && !inArea(point, s.area, game.size)) {
      const where = s.area === 1 ? 'centre' : 'square';
      return { code: 'outside_area', key: 'err.outside_area.' + where, params: { rule: r.title, n: s.number || 5, side: s.area } };
    }
    return forbidden ? { code: 'forbidden' } : null;
  }
  const o = game.opening;
  if (o) {
    if (o.actor !== 'person' || purpose === 'swap2') return { code: 'not_your_turn' };
    if (!['three', 'five'].includes(o.stage)) return { code: 'choose_first' };
  } else if (game.players[game.to_move] !== 'person') {
    return { code: 'not_your_turn' };
  }
  if (taken) return { code: 'occupied' };
  return forbidden ? { code: 'forbidden' } : null;
}
