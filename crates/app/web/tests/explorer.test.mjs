// The explorer: the position it asks about, the moves it shows on the board, the stored
// analysis in the engine's form, and the answers it keeps as the board moves on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { positionMoves, positionQuery, positionKey, explorerRows, storedInfo, storedHere, Explorer } from '../explorer.js';
import { WIN } from '../evaluation.js';

const mv = (move, x, y, color) => ({ move, x, y, color });
// renju, 15x15: black h8 i8, white h9 i9, Black to move
const game = {
  rule: 'renju', size: 15, to_move: 'black', library_id: 3,
  moves: [mv('h8', 7, 7, 'black'), mv('h9', 7, 6, 'white'), mv('i8', 8, 7, 'black'), mv('i9', 8, 6, 'white')],
};

test('the position is the moves from the empty board, a pass as --', () => {
  assert.deepEqual(positionMoves(game), ['h8', 'h9', 'i8', 'i9']);
  // a set-up position: its stones as moves, with a pass where a colour has two in a row
  const setup = { ...game, moves: [mv('h8', 7, 7, 'black'), mv(null, null, null, 'white'), mv('i8', 8, 7, 'black')] };
  assert.deepEqual(positionMoves(setup), ['h8', '--', 'i8']);
  assert.equal(positionQuery(game), 'rule=renju&size=15&moves=h8%2Ch9%2Ci8%2Ci9');
  assert.equal(positionKey(null), null);
  assert.notEqual(positionKey(game), positionKey({ ...game, rule: 'freestyle' }));
  assert.notEqual(positionKey(game), positionKey({ ...game, size: 19 }));
});

test('the explorer\'s moves go on the board at their points; what does not fit is left out', () => {
  const results = (black, white) => ({ black, white, draw: 0, unknown: 0 });
  const answer = {
    games: 4,
    moves: [
      { move: 'j8', games: 2, results: results(2, 0), value: { score: 40, eval: '+40', depth: 10 } },
      { move: 'g8', games: 1, results: results(0, 1), value: null },
      { move: 'h8', games: 1, results: results(1, 0), value: null },   // on a stone
      { move: 'z30', games: 1, results: results(1, 0), value: null },  // off the board
      { move: '--', games: 1, results: results(0, 0), value: null },   // a pass
    ],
  };
  const rows = explorerRows(answer, game);
  assert.deepEqual(rows.map((r) => r.move), ['j8', 'g8', '--']);
  // j8 is column 9 (x 9), row 8 from the bottom (y 7 from the top)
  assert.deepEqual(rows[0].point, { x: 9, y: 7 });
  assert.deepEqual(rows[1].point, { x: 6, y: 7 });
  assert.equal(rows[2].point, null);
  assert.equal(rows[0].share, 0.5);
  assert.deepEqual(rows[0].value, { score: 40, eval: '+40', depth: 10 });
  assert.deepEqual(explorerRows(null, game), []);
  assert.deepEqual(explorerRows({ games: 0, moves: [] }, game), []);
});

test('the moves of a mirror image are shown where the server names them', () => {
  // the same position mirrored (black h8 g8, white h9 g9): the server answers f8 and i8
  const mirror = { ...game, moves: [mv('h8', 7, 7, 'black'), mv('h9', 7, 6, 'white'), mv('g8', 6, 7, 'black'), mv('g9', 6, 6, 'white')] };
  const answer = { games: 3, moves: [{ move: 'f8', games: 2, results: {}, value: null }, { move: 'i8', games: 1, results: {}, value: null }] };
  assert.deepEqual(explorerRows(answer, mirror).map((r) => [r.move, r.point.x, r.point.y]), [['f8', 5, 7], ['i8', 8, 7]]);
});

test('a stored analysis reads as the engine\'s figures for the side to move', () => {
  const a = {
    depth: 12, score: 55, eval: '+55', nodes: 9000, time_ms: 300, engine: 'pvs', created: 1,
    best: [
      { move: 'g8', score: 55, eval: '+55', depth: 12, pv: ['g8', 'f8'] },
      { move: 'j8', score: WIN - 3, eval: 'win in 2', depth: 12, pv: ['j8'] },
    ],
  };
  const info = storedInfo(a, game);
  assert.equal(info.purpose, 'stored');
  assert.equal(info.color, 'black');
  assert.equal(info.move, 'g8');
  assert.deepEqual(info.pv, ['g8', 'f8']);
  assert.equal(info.mate, null);
  assert.deepEqual(info.candidates.map((c) => [c.move, c.mate]), [['g8', null], ['j8', 2]]);
  assert.equal(storedInfo(null, game), null);
  // one with no best move
  assert.equal(storedInfo({ ...a, best: [] }, game).move, null);
});

test('a stored analysis is shown only at its own position, and never while setting up', () => {
  const info = { purpose: 'stored' };
  const s = { game, setup: null, stored: { key: positionKey(game), info } };
  assert.equal(storedHere(s), info);
  assert.equal(storedHere({ ...s, game: { ...game, moves: game.moves.slice(0, 3) } }), null);
  assert.equal(storedHere({ ...s, setup: { size: 15 } }), null);
  assert.equal(storedHere({ ...s, stored: null }), null);
});

/** A library that answers when told to: `answer(i)` answers the i-th question. */
function fakeLibrary() {
  const asked = [];
  return {
    asked,
    explore(query) {
      return new Promise((resolve) => asked.push({ query, resolve }));
    },
    analysis(query) {
      return new Promise((resolve) => asked.push({ query, resolve, analysis: true }));
    },
  };
}

const tick = (ms) => new Promise((r) => setTimeout(r, ms));

test('the explorer asks once per position and keeps no answer the board has left', async () => {
  const api = fakeLibrary();
  const state = { library: { enabled: true }, game, setup: null, explorer: null, stored: null };
  let changes = 0;
  const ex = new Explorer(state, () => { changes += 1; }, api);
  ex.follow();
  ex.follow();
  await tick(80);
  assert.equal(api.asked.length, 1, 'one question for one position');
  assert.match(api.asked[0].query, /moves=h8%2Ch9%2Ci8%2Ci9&limit=20$/);
  // the board moves on before the answer comes: the late answer is left
  const next = { ...game, to_move: 'white', moves: [...game.moves, mv('j8', 9, 7, 'black')] };
  state.game = next;
  ex.follow();
  api.asked[0].resolve({ games: 9, moves: [], list: [], analysis: null });
  await tick(80);
  assert.equal(state.explorer, null);
  assert.equal(changes, 0);
  assert.equal(api.asked.length, 2);
  api.asked[1].resolve({ games: 2, moves: [], list: [], analysis: { depth: 3, score: 0, best: [] } });
  await tick(0);
  assert.equal(changes, 1);
  assert.equal(state.explorer.key, positionKey(next));
  assert.equal(state.explorer.answer.games, 2);
  assert.equal(state.stored.key, positionKey(next));
  assert.equal(state.stored.info.color, 'white');
  // More lists more games of the same position
  ex.more();
  assert.match(api.asked[2].query, /&limit=40$/);
});

test('the explorer asks nothing without a library, and again when the game\'s analysis goes', async () => {
  const api = fakeLibrary();
  const state = { library: { enabled: false }, game, setup: null };
  const ex = new Explorer(state, () => {}, api);
  ex.follow();
  await tick(80);
  assert.equal(api.asked.length, 0);
  state.library = { enabled: true };
  state.game = { ...game, analysis: { depth: 5 } };
  ex.follow();
  await tick(80);
  state.game = game;
  ex.follow();
  await tick(80);
  assert.equal(api.asked.length, 2, 'the stored analysis is looked for once the game\'s own is gone');
});

test('folded, the explorer asks only for the stored analysis of the position', async () => {
  const api = fakeLibrary();
  const state = { library: { enabled: true }, game, setup: null, explorer: null, stored: null };
  const ex = new Explorer(state, () => {}, api);
  ex.open = () => false;
  ex.follow();
  await tick(80);
  assert.equal(api.asked.length, 1);
  assert.equal(api.asked[0].analysis, true);
  assert.equal(api.asked[0].query, positionQuery(game));
  api.asked[0].resolve({ analysis: { depth: 7, score: -20, nodes: 1, time_ms: 1, best: [{ move: 'g8', score: -20, depth: 7, pv: ['g8'] }] } });
  await tick(0);
  assert.equal(state.explorer, null);
  assert.equal(storedHere(state).move, 'g8');
  assert.equal(storedHere(state).depth, 7);
});
