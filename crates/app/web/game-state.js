// What the page reads from the game the server keeps (`game`: the latest state) and from the
// search under way (`live`: its latest progress): who may click, which search the panels
// show, the line to draw. Functions of their arguments only; nothing here touches the page.

import { mateOf } from './evaluation.js';

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

/** The analysis of the position on the board: live while it runs, then the finished one. */
export function analysisInfo(game, live) {
  if (!game) return null;
  if (analysing(game)) return live;
  return game.analysis || null;
}

/** The search the panel shows, and the number of moves of the position it searched:
 * `{info, at}`, or null. */
export function shownSource(game, live) {
  if (!game) return null;
  const n = game.moves.length;
  if (game.thinking && !reviewing(game)) return { info: live, at: n };
  if (game.analysis) return { info: game.analysis, at: n };
  if (game.hint) return { info: game.hint, at: n };
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
export function engineLine(game, live) {
  if (!game || reviewing(game) || solving(game)) return null;
  const src = shownSource(game, live);
  const info = src && src.info;
  if (!info || !info.pv || !info.pv.length) return null;
  const played = game.moves.slice(src.at).map((m) => m.move);
  if (played.length > info.pv.length || played.some((m, k) => info.pv[k] !== m)) return null;
  return info.pv.slice(played.length);
}

/** The line drawn on the board: a candidate's under the pointer (`hover.move`), the engine's
 * under the pointer (`hover.best`) or with "Best line on board" (`showLine`), but not over the
 * values of an analysis or a proven win. */
export function boardLine(game, live, hover, showLine) {
  if (!game) return null;
  const analysis = analysisInfo(game, live);
  const cands = (analysis && analysis.candidates) || [];
  if (hover && hover.move) {
    const c = cands.find((x) => x.move === hover.move);
    return c ? c.pv : null;
  }
  if (hover && hover.best) return engineLine(game, live);
  if (!showLine || cands.length || (game.solution && game.solution.solved)) return null;
  return engineLine(game, live);
}
