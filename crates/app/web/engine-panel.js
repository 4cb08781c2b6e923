// The engine panel: what the search shown says (move, value, time, depth, nodes, speed, hash
// hits, the whole best line), the analysis's candidates with their values and lines, and the
// points left out of the analysis.

import { chanceOf, heatColor, scaleOf } from './evaluation.js';
import { analysing, reviewing, analysisInfo, shownSource } from './game-state.js';
import { evalText, rawText, num } from './words.js';
import { bestChance } from './overlays.js';
import { storedHere } from './explorer.js';
import { $, html, setText } from './dom.js';

const FIELDS = ['info-move', 'info-eval', 'info-time', 'info-depth', 'info-nodes', 'info-nps', 'info-tt', 'info-pv'];

/** The search the panel shows for the session's state `s`. */
export function shownInfo(s) {
  const src = shownSource(s.game, s.live, storedHere(s));
  return src ? src.info : null;
}

/** What the panel's first line says. */
function statusText(s, t, info, now) {
  const game = s.game;
  if (reviewing(game)) return t('status.reviewing', { done: game.review.done, total: game.review.total });
  if (game && game.thinking) {
    const secs = ((now - s.thinkSince) / 1000).toFixed(1);
    return t(analysing(game) ? 'info.analyzing' : 'info.thinking', { secs });
  }
  if (info && info.purpose === 'stored') return t('info.stored', { color: t(info.color), engine: info.engine || '?' });
  if (info) {
    const key = { hint: 'info.hint', analysis: 'info.analysis' }[info.purpose] || 'info.last';
    return t(key, { color: t(info.color) });
  }
  return t('info.none');
}

/** Draws the panel (`now`: the local clock, for the time of a search under way). */
export function renderInfo(s, t, now) {
  const info = shownInfo(s);
  const game = s.game;
  setText('info-status', statusText(s, t, info, now));
  const panel = $('engine-info');
  panel.classList.toggle('thinking', !!(game && game.thinking));
  panel.dataset.liveUpdates = String(s.liveUpdates);
  renderCandidates(s, t);
  if (!info) {
    for (const id of FIELDS) setText(id, '–');
    return;
  }
  setText('info-move', info.move || '–');
  const ev = $('info-eval');
  ev.textContent = evalText(t, info, scaleOf(game));
  const raw = rawText(t, info);
  if (raw) ev.appendChild(html('small', 'raw', ' (' + raw + ')'));
  ev.classList.toggle('proven-earlier', !!info.proven_earlier);
  ev.title = info.proven_earlier ? t('eval.provenEarlier') : t('eval.tip', { k: scaleOf(game) });
  setText('info-time', (info.time_ms / 1000).toFixed(2) + ' s');
  setText('info-depth', info.seldepth > info.depth ? `${info.depth} / ${info.seldepth}` : String(info.depth));
  setText('info-nodes', num(info.nodes));
  // a speed only where the search ran long enough to measure one
  setText('info-nps', info.nps === null || info.nps === undefined ? '–' : num(info.nps));
  setText('info-tt', info.tt_hits === null || info.tt_hits === undefined ? '–' : num(info.tt_hits));
  setText('info-pv', info.pv.length ? info.pv.join(' ') : '–');
}

/** The analysis's candidates: colour, point, value, the line cut to the panel's width, and
 * a button that leaves the point out. The list is redrawn only when the analysis or the
 * language changes (the list element keeps what it shows). */
function renderCandidates(s, t) {
  const info = analysisInfo(s.game, s.live, storedHere(s));
  const list = $('candidates');
  if (list.shown && list.shown.info === info && list.shown.lang === t.lang) return;
  list.shown = { info, lang: t.lang };
  list.textContent = '';
  const cands = (info && info.candidates) || [];
  $('candidates-box').hidden = cands.length === 0;
  $('exclude-note').hidden = !!info && info.purpose === 'stored';
  const scale = scaleOf(s.game);
  const best = bestChance(info, scale);
  for (const c of cands) {
    const li = html('li', null, null, { move: c.move, line: c.pv.join(' ') });
    const chip = html('span', 'chip');
    chip.style.background = heatColor(chanceOf(c.score, info.color, scale), best);
    // the whole line, cut to the width of the panel (its title has it all)
    const line = html('span', 'line', c.pv.slice(1).join(' ') + ' (d' + c.depth + ')');
    line.title = c.pv.join(' ');
    li.append(chip, html('span', 'pt', c.move), html('span', 'ev', evalText(t, { score: c.score, color: info.color, mate: c.mate }, scale)), line);
    // (a stored analysis is the library's: nothing to leave out of it)
    if (info.purpose !== 'stored') {
      const x = html('button', 'cand-x', '×', { exclude: c.move });
      x.type = 'button';
      x.title = t('exclude.one', { move: c.move });
      li.append(x);
    }
    list.appendChild(li);
  }
}

/** The points left out of the analysis, under the candidates. */
export function renderExcluded(game) {
  const list = (game && game.analyze && game.excluded) || [];
  $('excluded-box').hidden = list.length === 0;
  setText('excluded-list', list.join(' '));
}
