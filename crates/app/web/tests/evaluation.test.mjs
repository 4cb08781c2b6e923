// Values as chances and proven wins, in words, and the heat map's colours.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WIN, WIN_MIN, HEAT_SPAN, blackChance, chanceOf, mateOf, judge, heatColor, scaleOf, other } from '../evaluation.js';
import { judgeText, evalText, rawText, resultText, clockText, num } from '../words.js';
import { translator } from '../i18n.js';

const en = translator('en');
const zh = translator('zh');

test('a value is the expected score of its side on the fitted curve', () => {
  assert.equal(blackChance(0, 'black'), 0.5);
  assert.ok(Math.abs(blackChance(180, 'black', 180) - 1 / (1 + Math.exp(-1))) < 1e-12);
  // the same value of White is Black's loss
  assert.ok(Math.abs(blackChance(120, 'white') - (1 - blackChance(120, 'black'))) < 1e-12);
  assert.ok(Math.abs(chanceOf(120, 'white') - blackChance(120, 'black')) < 1e-12);
  assert.equal(blackChance(WIN_MIN, 'black'), 1);
  assert.equal(blackChance(WIN_MIN, 'white'), 0);
  assert.equal(scaleOf({ win_scale: 150 }), 150);
  assert.equal(scaleOf(null), 180);
  assert.equal(other('black'), 'white');
});

test('a proven value counts its own moves to the win or the loss', () => {
  assert.equal(mateOf(WIN - 1), 1);
  assert.equal(mateOf(WIN - 3), 2);
  assert.equal(mateOf(-(WIN - 2)), -1);
  assert.equal(mateOf(-(WIN - 4)), -2);
  assert.equal(mateOf(500), null);
});

test('every value names its side', () => {
  assert.deepEqual(judge(0, 'black'), { side: 'black', pct: 50 });
  assert.deepEqual(judge(-300, 'black'), { side: 'white', pct: Math.round(100 * (1 - blackChance(-300, 'black'))) });
  assert.deepEqual(judge(WIN - 9, 'white'), { side: 'white', mate: 5 });
  assert.deepEqual(judge(-(WIN - 2), 'white'), { side: 'black', mate: 1 });
  // a mate the server gives wins over the score's own
  assert.deepEqual(judge(100, 'black', 3), { side: 'black', mate: 3 });
  assert.equal(judgeText(en, { side: 'black', pct: 64 }), 'Black 64%');
  assert.equal(judgeText(en, { side: 'white', mate: 5 }), 'White wins in 5');
  assert.equal(judgeText(zh, { side: 'white', mate: 5 }), '白方 5 步内胜');
  assert.equal(evalText(en, { score: WIN - 3, color: 'black' }), 'Black wins in 2');
  assert.equal(evalText(en, null), '–');
  assert.equal(rawText(en, { score: 118, color: 'white' }), 'White +118');
  assert.equal(rawText(en, { score: WIN - 1, color: 'white' }), '');
});

test('the heat map colours a candidate by the chance it gives up against the best', () => {
  const hue = (c, best) => Number(/hsl\((\d+),/.exec(heatColor(c, best))[1]);
  assert.equal(hue(0.8, 0.8), 120);
  assert.equal(hue(0.5, 0.5), 120, 'the best is green, whatever its chance');
  assert.equal(hue(0.8 - HEAT_SPAN, 0.8), 0);
  assert.equal(hue(0.1, 0.8), 0);
  // 65% to 80%: the colours still tell the candidates apart
  const spread = [0.8, 0.76, 0.72, 0.68, 0.65].map((c) => hue(c, 0.8));
  for (let i = 1; i < spread.length; i++) assert.ok(spread[i] < spread[i - 1] - 5, String(spread));
  // steepest near the best
  assert.ok(hue(0.8, 0.8) - hue(0.78, 0.8) > hue(0.62, 0.8) - hue(0.6, 0.8));
});

test('results, clocks and counts in words', () => {
  assert.equal(resultText(en, { kind: 'win', winner: 'black' }), 'Black wins with five in a row');
  assert.equal(resultText(en, { kind: 'win', winner: 'white', resigned: true }), 'Black resigned: White wins');
  assert.equal(resultText(en, { kind: 'win', winner: 'white', foul: 'double-three' }), 'White wins: Black played a forbidden point (double three)');
  assert.equal(resultText(zh, { kind: 'draw' }), '和棋：棋盘已满');
  assert.equal(clockText(180000), '3:00');
  assert.equal(clockText(61500), '1:01');
  assert.equal(clockText(9870), '0:09.8');
  assert.equal(clockText(-5), '0:00.0');
  assert.equal(num(1234567), '1,234,567');
});
