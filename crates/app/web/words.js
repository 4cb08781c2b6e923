// Values, results, clocks and counts in words, in the page's language (`t` from i18n.js).
// Nothing here touches the page.

import { judge, mateOf, other, DEFAULT_SCALE } from './evaluation.js';

/** "Black 64%" / "White wins in 5" for a judgement of `judge`. */
export function judgeText(t, j) {
  return j.mate !== undefined
    ? t('eval.wins', { side: t(j.side), n: j.mate })
    : t('eval.side', { side: t(j.side), pct: j.pct });
}

/** "Black 64%" / "White wins in 5" for a search's figures (`info`: score, color, mate). */
export function evalText(t, info, scale = DEFAULT_SCALE) {
  if (!info) return '–';
  return judgeText(t, judge(info.score, info.color, info.mate, scale));
}

/** The value in the engine's own units, from Black's side ("Black +118"); empty for a proven
 * one. */
export function rawText(t, info) {
  const v = info.color === 'black' ? info.score : -info.score;
  if (mateOf(v) !== null) return '';
  return t('eval.raw', { side: t(v >= 0 ? 'black' : 'white'), value: Math.abs(v) });
}

/** A game's result in words. */
export function resultText(t, r) {
  const loser = t(other(r.winner));
  if (r.kind === 'draw') return t('result.draw');
  if (r.resigned) return t('result.resign', { winner: t(r.winner), loser });
  if (r.timeout) return t('result.timeout', { winner: t(r.winner), loser });
  if (r.foul) return t('result.foul', { winner: t(r.winner), kind: t('foul.' + r.foul) });
  return t('result.win', { winner: t(r.winner) });
}

/** m:ss, and tenths under 10 s. */
export function clockText(ms) {
  const t10 = Math.max(0, Math.floor(ms / 100));
  const secs = Math.floor(t10 / 10);
  if (secs < 10) return '0:0' + secs + '.' + (t10 % 10);
  return Math.floor(secs / 60) + ':' + String(secs % 60).padStart(2, '0');
}

/** A count with thousands separated: 1,234,567. */
export function num(n) {
  return Number(n).toLocaleString('en-US');
}
