// The opening rules' log in the players' words, in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { logLines } from '../opening-log.js';
import { translator } from '../i18n.js';

const en = translator('en');
const zh = translator('zh');

// a Soosõrv-8 opening against the engine, as the server keeps it
const events = [
  { kind: 'stone', seat: 'first', who: 'person', points: ['h8'], number: 1, color: 'black' },
  { kind: 'keep', seat: 'second', who: 'engine', color: 'white', reading: { color: 'white', score: -119 } },
  { kind: 'stone', seat: 'second', who: 'engine', points: ['j10'], number: 4, color: 'white' },
  { kind: 'declare', seat: 'second', who: 'engine', count: 6, reading: { color: 'black', score: 1067 } },
  { kind: 'swap', seat: 'first', who: 'person', color: 'white' },
  { kind: 'undo', seat: 'first', who: 'person', undone: 'stone', number: 5, points: ['g7'] },
  { kind: 'choose', seat: 'second', who: 'engine', points: ['k11'], reading: { color: 'white', score: 0, mate: 3 } },
  { kind: 'over', seat: 'second', who: 'engine', number: 6, color: 'black' },
];

test('each step in the players\' words, the engine\'s values named by side', () => {
  assert.deepEqual(logLines(en, events, false, 180), [
    'You put down stone 1 (Black) on h8.',
    'The engine kept White (engine: Black 66%).',
    'The engine put down stone 4 (White) on j10.',
    'The engine asked for 6 fifth-move offers (engine: Black 100%).',
    'You swapped and took White.',
    'You took back stone 5 on g7.',
    'The engine chose the fifth move k11 (engine: White wins in 3).',
    'The opening is over. Black: the engine; White: you. White plays move 6.',
  ]);
});

test('the log in Chinese has no English words but the points', () => {
  for (const line of logLines(zh, events, false, 180)) {
    assert.doesNotMatch(line.replace(/\b[a-o]\d{1,2}\b/g, ''), /[A-Za-z]{2}/, line);
  }
  assert.equal(logLines(zh, events, false, 180)[1], '引擎选择不交换，继续执白（引擎：黑方 66%）。');
});

test('two people at one board are the first and the second player', () => {
  const lines = logLines(en, events.map((e) => ({ ...e, who: 'person', reading: undefined })), true, 180);
  assert.equal(lines[0], 'The first player put down stone 1 (Black) on h8.');
  assert.equal(lines[1], 'The second player kept White.');
  assert.equal(lines[7], 'The opening is over. Black: the second player; White: the first player. White plays move 6.');
});

test('swap2: the stones, the choices and the colour taken', () => {
  const swap2 = [
    { kind: 'three', who: 'engine', points: ['h8', 'h9', 'j7'], reading: { color: 'white', score: 20 } },
    { kind: 'more', who: 'person' },
    { kind: 'five', who: 'person', points: ['g7', 'j9'] },
    { kind: 'took', who: 'engine', color: 'white', points: ['k10'] },
    { kind: 'took', who: 'person', color: 'black' },
  ];
  assert.deepEqual(logLines(en, swap2, false, 180), [
    'The engine put down the first three stones: h8 h9 j7 (engine: White 53%).',
    'You chose to put down two more stones.',
    'You put down two more stones (g7 j9); the other side chooses a colour.',
    'The engine took White and put down the 4th stone on k10.',
    'You took Black.',
  ]);
});
