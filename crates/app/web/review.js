// The review panel: the engine's verdict on every move (counts by side, and the inaccuracies,
// mistakes and blunders with the better move); a click on one shows the position before it.

import { scaleOf } from './evaluation.js';
import { evalText } from './words.js';
import { $, html } from './dom.js';

const VERDICTS = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];

/** What the panel's first line says about review `r`. */
function reviewStatus(t, r) {
  const secs = (r.time_ms / 1000).toFixed(1);
  if (r.running) return t('review.running', { secs, done: r.done, total: r.total });
  if (!r.complete) return t('review.stopped', { n: r.moves.length });
  return t('review.done', { secs });
}

/** The counts of each verdict, a row per side. */
function countRows(t, r) {
  return ['black', 'white'].map((color) => {
    const tr = html('tr', null, null, { color });
    tr.appendChild(html('td', null, t(color)));
    for (const v of VERDICTS) tr.appendChild(html('td', null, String(r[color][v]), { verdict: v }));
    return tr;
  });
}

/** Draws the review of `game` (hidden without one). */
export function renderReview(t, game) {
  const box = $('review-box');
  const r = game && game.review;
  box.hidden = !r;
  if (!r) return;
  box.dataset.running = r.running ? 'yes' : 'no';
  box.dataset.complete = r.complete ? 'yes' : 'no';
  $('review-status').textContent = reviewStatus(t, r);
  const counts = $('review-counts');
  counts.textContent = '';
  counts.append(...countRows(t, r));
  const list = $('review-list');
  list.textContent = '';
  const bad = r.moves.filter((m) => m.mark);
  if (!r.running && bad.length === 0 && r.moves.length) list.appendChild(html('li', 'muted', t('review.clean')));
  const value = (score, color) => evalText(t, { score, color }, scaleOf(game));
  for (const m of bad) {
    const li = html('li', null, null, { verdict: m.verdict, number: m.number });
    li.append(
      html('span', 'n', m.number + '.'),
      html('span', 'pt', (m.color === 'black' ? '● ' : '○ ') + m.move),
      html('span', 'mark', m.mark),
      html('span', 'ev', value(m.score, m.color)),
      html('span', 'better', t('review.better', { best: m.best_pv.slice(0, 5).join(' ') || m.best, value: value(m.best_score, m.color) })),
    );
    li.title = t('review.show');
    list.appendChild(li);
  }
}
