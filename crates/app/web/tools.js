// The board's tools: the evaluation under the board (the position's value for the side
// ahead, and a bar of Black's chance), the buttons and when each may be pressed, and the
// answer of "Find a win".

import { blackChance, judge, scaleOf } from './evaluation.js';
import { analysing, reviewing, solving, inOpening, reviewInfo, shownSource } from './game-state.js';
import { startPlies } from './tree.js';
import { exportUrl } from './api.js';
import { storedHere } from './explorer.js';
import { judgeText, resultText } from './words.js';
import { $ } from './dom.js';

/** The evaluation under the board, in view on every screen: once the game is over, its
 * result (a value searched before it would be out of date). */
export function renderEvalBar(s, t) {
  const bar = $('eval-bar');
  const game = s.game;
  const src = s.setup ? null : shownSource(game, s.live, storedHere(s));
  const info = s.setup ? null : ((src && src.info) || reviewInfo(game));
  const text = $('eval-text');
  const fill = $('eval-fill');
  const r = !s.setup && game && game.result;
  if (r) {
    const words = resultText(t, r);
    text.textContent = words;
    fill.style.width = r.winner === 'black' ? '100%' : r.winner === 'white' ? '0%' : '50%';
    bar.dataset.side = r.winner || '';
    bar.dataset.label = words;
    bar.dataset.over = 'yes';
    return;
  }
  bar.dataset.over = 'no';
  if (!info) {
    text.textContent = t('eval.none');
    fill.style.width = '50%';
    bar.dataset.side = '';
    bar.dataset.label = '';
    return;
  }
  const scale = scaleOf(game);
  const j = judge(info.score, info.color, info.mate, scale);
  let words = judgeText(t, j);
  if (info.proven_earlier) words += ' ✓';
  const searching = game && game.thinking && !reviewing(game) && !solving(game);
  text.textContent = words + (info.move ? ' · ' + t('eval.best', { move: info.move }) : '')
    + (searching ? ' · ' + t('eval.depth', { depth: info.depth }) : '');
  bar.dataset.side = j.side;
  bar.dataset.label = words;
  bar.title = t('eval.tip', { k: scale });
  fill.style.width = (100 * blackChance(info.score, info.color, scale)).toFixed(1) + '%';
}

/** Which buttons may be pressed, by id. */
export function buttonStates(game) {
  const g = game;
  const over = !g || !!g.result;
  const thinking = !!(g && g.thinking);
  const opening = inOpening(g);
  const busy = thinking && !['analysis', 'hint'].includes(g.thinking.purpose);
  return {
    'btn-undo': !!g && !(g.moves.length <= startPlies(g) && !(g.result && g.result.resigned)) && !(g.result && g.result.timeout),
    'btn-redo': !!g && !over && g.redo.length > 0 && !opening,
    'btn-hint': !over && !thinking && !opening,
    'btn-go': !over && !thinking && !opening,
    'btn-swap': !!g && !opening,
    'btn-resign': !over && !opening,
    'btn-analyze': !!g && (!over || g.analyze),
    'btn-review': !!g && g.moves.some((m) => m.x !== null && m.x !== undefined) && !opening && !busy,
    // a stopped solve may be asked again
    'btn-solve': !over && !opening && !busy && !(g && g.solution && !g.solution.stopped),
    'btn-stop': thinking,
  };
}

/** The buttons of the session's state `s`. */
export function renderButtons(s, t) {
  const g = s.game;
  for (const [id, on] of Object.entries(buttonStates(g))) $(id).disabled = !on;
  $('btn-analyze').setAttribute('aria-pressed', g && g.analyze ? 'true' : 'false');
  $('btn-stop').textContent = t(analysing(g) || reviewing(g) || solving(g) ? 'stopAnalysis' : 'stop');
  $('io-download').href = g ? exportUrl(g.id, 'psq', true) : '#';
  $('io-download-sgf').href = g ? exportUrl(g.id, 'sgf', true) : '#';
  if (s.setup) {
    // the board is not the game's while a position is set up
    for (const b of document.querySelectorAll('[data-testid=controls] button, [data-testid=nav] button')) b.disabled = true;
  }
}

/** The answer of "Find a win", under the board. */
export function renderSolution(t, game) {
  const box = $('solution');
  const sol = game && game.solution;
  box.hidden = !sol;
  if (!sol) return;
  box.dataset.solved = sol.solved ? 'yes' : 'no';
  box.dataset.stopped = sol.stopped ? 'yes' : 'no';
  const secs = ((sol.stopped ? sol.time_ms : sol.limit_ms) / 1000).toFixed(1);
  const none = sol.stopped ? 'solution.stopped' : 'solution.none';
  // the winner's moves of the line, which goes on to the five
  box.textContent = sol.solved
    ? t('solution.found', { color: t(sol.color), method: sol.method.toUpperCase(), n: Math.ceil(sol.line.length / 2), line: sol.line.join(' ') })
    : t(none, { color: t(sol.color), task: sol.task.toUpperCase(), secs });
}
