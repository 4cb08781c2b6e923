// Setting up a position.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSetup, setupCounts, setupToMove, setupMoves, setupClick, setupRequest } from '../setup.js';

test('a set-up starts from the stones shown on a board of its size', () => {
  const game = { size: 15, moves: [{ move: 'h8', color: 'black', x: 7, y: 7 }, { move: '--', color: 'white', x: null, y: null }] };
  assert.deepEqual([...openSetup(15, 'renju', game).stones], [['h8', 'black']]);
  assert.equal(openSetup(15, 'renju', game).rule, 'renju');
  assert.equal(openSetup(19, 'renju', game).stones.size, 0);
  assert.equal(openSetup(15, 'freestyle', null).tool, 'black');
});

test('a click puts a stone of the tool\'s colour, or takes one away', () => {
  const s = openSetup(15, 'freestyle', null);
  setupClick(s, 'h8');
  s.tool = 'white';
  setupClick(s, 'h9');
  setupClick(s, 'j9');
  setupClick(s, 'j9');
  assert.deepEqual(setupCounts(s), { black: 1, white: 1 });
  assert.equal(setupToMove(s, ''), 'black');
  s.tool = 'black';
  setupClick(s, 'i8');
  assert.equal(setupToMove(s, ''), 'white');
  assert.equal(setupToMove(s, 'black'), 'black');
  assert.deepEqual(setupMoves(s).map((m) => [m.move, m.x, m.y, m.number]), [['h8', 7, 7, 0], ['h9', 7, 6, 0], ['i8', 8, 7, 0]]);
  assert.deepEqual(setupRequest(s, 'black'), { size: 15, setup: { black: ['h8', 'i8'], white: ['h9'], to_move: 'black' } });
  assert.deepEqual(setupRequest(s, ''), { size: 15, setup: { black: ['h8', 'i8'], white: ['h9'] } });
});
