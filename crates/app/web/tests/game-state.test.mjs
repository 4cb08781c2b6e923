// What the page reads from a state: who may click, the search shown, the line drawn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { personToMove, analysisInfo, shownSource, engineLine, boardLine, reviewInfo, inOpening, refusal, inArea } from '../game-state.js';

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

test('the library\'s stored analysis comes after the game\'s own searches, and not once it is over', () => {
  const stored = { purpose: 'stored', pv: ['g8'], candidates: [{ move: 'g8', pv: ['g8', 'f8'] }] };
  const analysis = { pv: ['h8'], candidates: [] };
  const hint = { pv: ['i9'] };
  const live = { pv: ['j10'] };
  assert.equal(analysisInfo(base, null, stored), stored);
  assert.equal(analysisInfo({ ...base, analysis }, null, stored), analysis);
  assert.equal(analysisInfo({ ...base, thinking: { purpose: 'analysis' } }, live, stored), live);
  assert.equal(analysisInfo({ ...base, result: { winner: 'black' } }, null, stored), null);
  assert.deepEqual(shownSource(base, null, stored), { info: stored, at: 0 });
  assert.deepEqual(shownSource({ ...base, hint }, null, stored), { info: hint, at: 0 });
  assert.deepEqual(shownSource({ ...base, thinking: { purpose: 'move' } }, live, stored), { info: live, at: 0 });
  assert.equal(shownSource({ ...base, result: { winner: 'black' } }, null, stored), null);
  // its candidates' lines, under the pointer
  assert.deepEqual(boardLine(base, null, { move: 'g8' }, false, stored), ['g8', 'f8']);
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

test('a click the server would refuse is refused on the page, with the server\'s code', () => {
  const g = { ...base, moves: moves('h8', 'i9'), forbidden: [{ point: 'j10', kind: 'double-three' }] };
  assert.equal(refusal(g, 'a1'), null);
  assert.deepEqual(refusal(g, 'h8'), { code: 'occupied' });
  assert.deepEqual(refusal(g, 'j10'), { code: 'forbidden' });
  assert.deepEqual(refusal({ ...g, to_move: 'white' }, 'a1'), { code: 'not_your_turn' });
  assert.deepEqual(refusal({ ...g, result: { kind: 'draw' } }, 'a1'), { code: 'game_over' });
  assert.deepEqual(refusal({ ...g, thinking: { purpose: 'move' } }, 'a1'), { code: 'engine_thinking' });
  // a hint or an analysis under way: the server takes the move
  assert.equal(refusal({ ...g, thinking: { purpose: 'hint' } }, 'a1'), null);
  assert.deepEqual(refusal({ ...g, opening: { actor: 'person', stage: 'choice3' } }, 'a1'), { code: 'choose_first' });
  assert.equal(refusal(null, 'a1'), null);
});

test('in a renju opening, the step says which points it takes', () => {
  const renju = { over: false, actor: 'person', wants_point: true, title: 'Soosõrv-8', offers: ['i10', 'g7'],
    step: { kind: 'stone', number: 1, area: 1 } };
  const g = { ...base, size: 15, renju, forbidden: [] };
  assert.equal(refusal(g, 'h8'), null);
  assert.deepEqual(refusal(g, 'a1'), { code: 'outside_area', key: 'err.outside_area.centre', params: { rule: 'Soosõrv-8', n: 1, side: 1 } });
  const third = { ...g, renju: { ...renju, step: { kind: 'stone', number: 3, area: 5 } } };
  assert.equal(refusal(third, 'j10'), null);
  assert.equal(refusal(third, 'k11').key, 'err.outside_area.square');
  const choose = { ...g, renju: { ...renju, step: { kind: 'choose' } } };
  assert.equal(refusal(choose, 'g7'), null);
  assert.deepEqual(refusal(choose, 'a1'), { code: 'not_offered' });
  assert.deepEqual(refusal({ ...g, renju: { ...renju, wants_point: false } }, 'h8'), { code: 'choose_first' });
  assert.deepEqual(refusal({ ...g, renju: { ...renju, actor: 'engine' } }, 'h8'), { code: 'not_your_turn' });
  assert.ok(inArea('a1', 0, 15) && inArea('h8', 1, 15) && !inArea('h9', 1, 15));
  assert.ok(inArea('f6', 5, 15) && !inArea('e5', 5, 15) && !inArea('z9', 0, 15));
});
