// What the page reads from a state: who may click, the search shown, the line drawn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { personToMove, analysisInfo, shownSource, engineLine, boardLine, reviewInfo, inOpening } from '../game-state.js';

const base = {
  players: { black: 'person', white: 'engine' }, to_move: 'black', result: null, thinking: null,
  moves: [], continuation: [], analysis: null, hint: null, solution: null,
};
const moves = (...pts) => pts.map((move, i) => ({ move, number: i + 1, color: i % 2 ? 'white' : 'black' }));

test('a click is the person\'s move on the person\'s turn, while nothing else runs', () => {
  assert.equal(personToMove(base), true);
  assert.equal(personToMove({ ...base, to_move: 'white' }), false);
  assert.equal(personToMove({ ...base, result: { kind: 'draw' } }), false);
  assert.equal(personToMove({ ...base, thinking: { purpose: 'move' } }), false);
  // an analysis runs on while the person plays
  assert.equal(personToMove({ ...base, thinking: { purpose: 'analysis' } }), true);
  assert.equal(personToMove(null), false);
});

test('in an opening, a click is the person\'s when the step takes a point', () => {
  const renju = { over: false, actor: 'person', wants_point: true };
  assert.equal(personToMove({ ...base, renju }), true);
  assert.equal(personToMove({ ...base, renju: { ...renju, wants_point: false } }), false);
  assert.equal(personToMove({ ...base, renju: { ...renju, actor: 'engine' } }), false);
  assert.equal(inOpening({ ...base, renju }), true);
  assert.equal(inOpening({ ...base, renju: { ...renju, over: true } }), false);
  const opening = { actor: 'person', stage: 'three' };
  assert.equal(personToMove({ ...base, opening }), true);
  assert.equal(personToMove({ ...base, opening: { ...opening, stage: 'choice3' } }), false);
});

test('the panel shows the search under way, else the analysis, the hint or the last engine move', () => {
  const live = { pv: ['h8'] };
  assert.deepEqual(shownSource({ ...base, thinking: { purpose: 'move' } }, live), { info: live, at: 0 });
  const hint = { pv: ['i9'] };
  assert.deepEqual(shownSource({ ...base, hint }, null), { info: hint, at: 0 });
  const engine = { pv: ['i9', 'j10'] };
  const played = { ...base, moves: [...moves('h8', 'i9', 'j10')] };
  played.moves[1].engine = engine;
  assert.deepEqual(shownSource(played, null), { info: engine, at: 1 });
  assert.equal(shownSource(base, null), null);
  const analysis = { candidates: [] };
  assert.equal(analysisInfo({ ...base, thinking: { purpose: 'analysis' } }, live), live);
  assert.equal(analysisInfo({ ...base, analysis }, live), analysis);
});

test('the engine\'s line goes on past the moves played along it, and goes when they leave it', () => {
  const g = { ...base, moves: moves('h8', 'i9', 'j10') };
  g.moves[1].engine = { pv: ['i9', 'j10', 'k11', 'l12'] };
  assert.deepEqual(engineLine(g, null), ['k11', 'l12']);
  const left = { ...base, moves: moves('h8', 'i9', 'a1') };
  left.moves[1].engine = { pv: ['i9', 'j10', 'k11'] };
  assert.equal(engineLine(left, null), null);
});

test('the line on the board: a candidate under the pointer, or the best line when asked', () => {
  const analysis = { color: 'black', candidates: [{ move: 'h8', pv: ['h8', 'i9'] }, { move: 'g7', pv: ['g7', 'h8'] }] };
  const g = { ...base, analysis };
  assert.deepEqual(boardLine(g, null, { move: 'g7' }, false), ['g7', 'h8']);
  assert.equal(boardLine(g, null, { move: 'a1' }, false), null);
  // with candidates, "best line on board" leaves the values shown
  assert.equal(boardLine(g, null, null, true), null);
  const h = { ...base, hint: { pv: ['h8', 'i9'] } };
  assert.deepEqual(boardLine(h, null, null, true), ['h8', 'i9']);
  assert.equal(boardLine(h, null, null, false), null);
  assert.deepEqual(boardLine(h, null, { best: true }, false), ['h8', 'i9']);
});

test('a review gives the value of the last move, or of the move before the next', () => {
  const review = { moves: [{ number: 1, score: 40, color: 'black', best: 'h8', best_score: 40 },
    { number: 2, score: -90, color: 'white', best: 'g7', best_score: 10 }] };
  const g = { ...base, review, moves: moves('h8'), continuation: moves('h8', 'i9').slice(1) };
  assert.deepEqual(reviewInfo(g), { score: 40, color: 'black', mate: null, move: null, depth: 0 });
  const start = { ...base, review, moves: [], continuation: moves('h8') };
  assert.deepEqual(reviewInfo(start), { score: 40, color: 'black', mate: null, move: 'h8', depth: 0 });
  assert.equal(reviewInfo(base), null);
});
