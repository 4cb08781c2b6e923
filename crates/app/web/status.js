// The line above the board (who is to move, what the engine does, or the result in the
// status's place: nothing below it moves), the game clocks, and the messages of refused
// actions.

import { analysing, reviewing, solving } from './game-state.js';
import { currentNode, startPlies, lineMoves } from './tree.js';
import { known } from './i18n.js';
import { resultText, clockText } from './words.js';
import { $ } from './dom.js';

/** What the status says for a game under way. */
function statusText(t, game) {
  if (game.opening) return t('status.opening');
  if (solving(game)) return t('status.solving', { color: t(game.thinking.color) });
  if (game.thinking && !analysing(game)) {
    return game.thinking.purpose === 'hint' ? t('status.hint') : t('status.thinking', { color: t(game.thinking.color) });
  }
  if (game.engine_waits) return t('status.waits', { color: t(game.to_move) });
  const who = game.players[game.to_move] === 'person' ? t('you') : t('theEngine');
  return t('status.toMove', { color: t(game.to_move), who }) + (analysing(game) ? ' · ' + t('status.analyzing') + '…' : '');
}

/** The status line of the session's state `s`. */
export function renderStatus(s, t) {
  const status = $('status');
  const result = $('result');
  const game = s.game;
  status.dataset.setup = s.setup ? 'yes' : 'no';
  if (!game) { status.textContent = t('status.loading'); result.hidden = true; return; }
  $('game-rule').textContent = t('rules', { rule: t('rule.' + game.rule), size: game.size });
  const r = game.result;
  const review = reviewing(game);
  status.classList.toggle('quiet', !!r && !review);
  if (review) status.textContent = t('status.reviewing', { done: game.review.done, total: game.review.total });
  if (r) {
    if (!review) status.textContent = t('status.over');
    result.textContent = resultText(t, r);
    result.dataset.winner = r.winner || 'none';
    result.hidden = false;
  } else {
    result.hidden = true;
    result.textContent = '';
    delete result.dataset.winner;
    if (!review) status.textContent = statusText(t, game);
  }
  if ((game.continuation || []).length && !s.setup && !r) {
    status.textContent += ' · ' + t('status.inLine', { k: game.moves.length, n: lineMoves(game).length });
  }
  if (s.setup) status.textContent = t('status.setup');
  status.title = status.textContent;
  status.dataset.toMove = game.to_move;
  // the moves on the board (not the set-up stones), and the node of the tree shown
  status.dataset.moves = String(game.moves.length - startPlies(game));
  status.dataset.node = String(currentNode(game));
  status.dataset.waits = game.engine_waits ? 'yes' : 'no';
  status.dataset.thinking = game.thinking ? 'yes' : 'no';
}

/** The clocks: both sides' times, the running side's counted down here between states
 * (`now - s.clockAt` since the state's times were read). */
export function renderClocks(s, t, now) {
  const c = s.game && s.game.clock;
  $('clocks').hidden = !c;
  if (!c) return;
  for (const color of ['black', 'white']) {
    const box = $('clock-' + color);
    let ms = c[color + '_ms'];
    if (c.running === color) ms = Math.max(0, ms - (now - s.clockAt));
    box.querySelector('.time').textContent = clockText(ms);
    box.dataset.ms = String(Math.round(ms));
    box.classList.toggle('running', c.running === color);
    box.classList.toggle('low', ms < 10000);
    box.classList.toggle('out', ms <= 0);
    box.title = t(color);
  }
  $('clock-inc').textContent = c.increment_ms ? t('clock.inc', { secs: c.increment_ms / 1000 }) : '';
}

/** Shows why an action was refused, for a few seconds: the page's words for a code it
 * knows, the server's otherwise. */
export class Messages {
  constructor() {
    this.timer = 0;
  }

  show(t, err) {
    const box = $('error');
    const key = 'err.' + (err.code || '');
    box.textContent = known(key) ? t(key) : (err.message || String(err));
    box.dataset.code = err.code || '';
    box.hidden = false;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { box.hidden = true; }, 6000);
  }

  clear() {
    $('error').hidden = true;
  }
}
