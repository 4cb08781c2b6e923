// What a new game asks the server for, and what a pasted text is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clockSetting, newGameBody, importRequest } from '../new-game.js';

const form = { rule: 'renju', size: 15, black: 'person', white: 'engine', level: 'max', time_ms: 1000, opening: 'swap2' };

test('a clock choice is a total and an increment', () => {
  assert.deepEqual(clockSetting('300000+3000'), { clock_ms: 300000, increment_ms: 3000 });
  assert.deepEqual(clockSetting('60000'), { clock_ms: 60000, increment_ms: 0 });
  assert.deepEqual(clockSetting(''), {});
  assert.deepEqual(clockSetting(undefined), {});
});

test('a record says its own size and rule; an opening rule needs an empty board', () => {
  assert.deepEqual(newGameBody(form), form);
  const psq = newGameBody(form, { psq: 'Piskvorky 15x15' });
  assert.equal(psq.size, undefined);
  assert.equal(psq.rule, 'renju');
  assert.equal(psq.opening, 'free');
  const line = newGameBody(form, { record: '9 renju e5' });
  assert.ok(!('size' in line) && !('rule' in line));
  assert.equal(newGameBody(form, { sgf: '(;SZ[15]RU[renju];B[hh])' }).rule, undefined);
  assert.equal(newGameBody(form, { sgf: '(;SZ[15];B[hh])' }).rule, 'renju');
  // an entry of the recent games drops the form's size and rule
  const opened = newGameBody(form, { sgf: '(;SZ[15];B[hh])', size: undefined, rule: undefined });
  assert.ok(!('size' in opened) && !('rule' in opened));
  // swap2 is for one person against the engine
  assert.equal(newGameBody({ ...form, white: 'person' }).opening, 'free');
  assert.equal(newGameBody({ ...form, opening: 'soosorv8' }, { position: 'h8' }).opening, 'free');
  assert.equal(newGameBody({ ...form, opening: 'soosorv8', white: 'person' }).opening, 'soosorv8');
});

test('a pasted text: a .psq, SGF, a position line, a diagram, or moves', () => {
  assert.equal(importRequest('  '), null);
  assert.deepEqual(importRequest('Piskvorky 15x15, 11:11, 0\n8,8,0'), { psq: 'Piskvorky 15x15, 11:11, 0\n8,8,0' });
  assert.deepEqual(importRequest('(;FF[4];B[hh])'), { sgf: '(;FF[4];B[hh])' });
  assert.deepEqual(importRequest('15 renju h8 i9 | task=x\nmore'), { record: '15 renju h8 i9 | task=x' });
  const diagram = ['. . . . .', '. X O . .', '. . X . .', '. . . O .', '. . . . .'].join('\n');
  assert.deepEqual(importRequest(diagram), { diagram, size: undefined });
  assert.deepEqual(importRequest('h8 i9 j10'), { position: 'h8 i9 j10' });
});
