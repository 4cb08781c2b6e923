// The line above the board (who is to move, what the engine does, a point tapped once, or the
// result in the status's place: nothing below it moves), the game clocks, and the messages
// of refused actions, over that line (never over the buttons).

import { analysing, reviewing, solving, analysisInfo } from './game-state.js';
import { scaleOf } from './evaluation.js';
import { currentNode, startPlies, lineMoves } from './tree.js';
import { known } from './i18n.js';
import { storedHere } from './explorer.js';
import { resultText, clockText, evalText } from './words.js';
import { $ } from './dom.js';

/** What the status says for a game under way. */
function statusText(t, game) {
  if (game.opening) return t('status.opening');
  if (game.renju && !game.renju.over) return t('renju.status', { rule: game.renju.title });
  if (solving(game)) return t('status.solving', { color: t(game.thinking.color) });
  if (game.thinking && !analysing(game)) {
    return game.thinking.purpose === 'hint' ? t('status.hint') : t('status.thinking', { color: t(game.thinking.color) });
  }
  if (game.engine_waits) return t('status.waits', { color: t(game.to_move) });
  const who = game.players[game.to_move] === 'person' ? t('you') : t('theEngine');
  return t('status.toMove', { color: t(game.to_move), who }) + (analysing(game) ? ' · ' + t('status.analyzing') + '…' : '');
}

/** A point tapped once on small cells: the candidate's value there, and the second tap. */
function pendingText(t, s) {
  const analysis = analysisInfo(s.game, s.live, storedHere(s));
  const c = s.options.heat && analysis && (analysis.candidates || []).find((x) => x.move === s.pending);
  const value = c ? s.pending + ': ' + evalText(t, { score: c.score, color: analysis.color, mate: c.mate }, scaleOf(s.game)) + ' · ' : '';
  return value + t('confirm.tap', { point: s.pending });
}

/** The status line while a position is set up: nothing of the game before it. */
function renderSetupStatus(s, t, status, result) {
  status.textContent = t('status.setup');
  status.classList.remove('quiet');
  result.hidden = true;
  $('game-rule').textContent = t('rules', { rule: t('rule.' + s.setup.rule), size: s.setup.size });
}

/** The status line of the session's state `s`. */
export function renderStatus(s, t) {
  const status = $('status');
  const result = $('result');
  const game = s.game;
  status.dataset.setup = s.setup ? 'yes' : 'no';
  delete status.dataset.pending;
  if (s.setup) renderSetupStatus(s, t, status, result);
  else if (!game) { status.textContent = t('status.loading'); result.hidden = true; return; }
  else renderGameStatus(s, t, status, result);
  if (s.pending && !s.setup) {
    status.textContent = pendingText(t, s);
    status.dataset.pending = s.pending;
  }
  status.title = status.textContent;
  if (!game) return;
  status.dataset.toMove = game.to_move;
  // the moves on the board (not the set-up stones), and the node of the tree shown
  status.dataset.moves = String(game.moves.length - startPlies(game));
  status.dataset.node = String(currentNode(game));
  status.dataset.waits = game.engine_waits ? 'yes' : 'no';
  status.dataset.thinking = game.thinking ? 'yes' : 'no';
  status.dataset.version = String(game.version);
}

/** The status line of a game: the result in the status's place, or what goes on. */
function renderGameStatus(s, t, status, result) {
  const game = s.game;
  $('game-rule').textContent = t('rules', { rule: t('rule.' + game.rule), size: game.size });
  const r = game.result;
  const review = reviewing(game);
  status.classList.toggle('quiet', !!r && !review && !s.pending);
  if (review) status.textContent = t('status.reviewing', { done: game.review.done, total: game.review.total });
  if (r) {
    if (!review) status.textContent = t('status.over');
    result.textContent = resultText(t, r);
    result.dataset.winner = r.winner || 'none';
    result.hidden = !!s.pending;
  } else {
    result.hidden = true;
    result.textContent = '';
    delete result.dataset.winner;
    if (!review) status.textContent = statusText(t, game);
  }
  if ((game.continuation || []).length && !r) {
    status.textContent += ' · ' + t('status.inLine', { k: game.moves.length, n: lineMoves(game).length });
  }
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

/** Shows why an action was refused, for a few seconds, over the status line (above an open
 * dialog too: the message is a popover, in the page's top layer): the page's words for a code
 * it knows (`err.key` for words of their own, with `err.params`), the server's otherwise. A
 * click on it hides it. */
export class Messages {
  constructor() {
    this.timer = 0;
    $('error').addEventListener('click', () => this.clear());
  }

  show(t, err) {
    const box = $('error');
    const key = err.key || 'err.' + (err.code || '');
    box.textContent = known(key) ? t(key, err.params) : (err.message || String(err));
    box.dataset.code = err.code || '';
    // (how many so far: a test tells a new message from one still shown)
    box.dataset.count = String(Number(box.dataset.count || 0) + 1);
    box.hidden = false;
    const line = $('status-line').getBoundingClientRect();
    box.style.left = Math.max(4, line.left) + 'px';
    box.style.top = Math.max(4, line.top) + 'px';
    box.style.width = Math.min(line.width, window.innerWidth - 8) + 'px';
    if (box.showPopover && !box.matches(':popover-open')) box.showPopover();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.clear(), 6000);
  }

  clear() {
    const box = $('error');
    if (box.hidePopover && box.matches(':popover-open')) box.hidePopover();
    box.hidden = true;
  }
}
