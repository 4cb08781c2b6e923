// The session: which states of the server it takes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Session, emptyState } from '../session.js';

/** A view that counts what it is asked to do. */
function view() {
  const v = { renders: 0, changed: [] };
  v.render = () => { v.renders += 1; };
  v.gameChanged = (game, other) => v.changed.push([game.version, other]);
  return v;
}

const state = (version, extra = {}) => ({ id: 'g1', version, moves: [], tree: { nodes: [], current: 0 }, ...extra });

test('an older state of the game is left, unless it is the server\'s current one', () => {
  const v = view();
  const s = new Session(emptyState('en', {}), v, () => 0);
  s.setGame(state(5));
  s.setGame(state(4));
  assert.equal(s.state.game.version, 5, 'a late answer is stale');
  s.setGame(state(6));
  assert.equal(s.state.game.version, 6);
  // the server started again and read the game back from the library: its versions count
  // from the start again, and its first state on the new connection is taken
  s.setGame(state(1, { moves: [{ move: 'h8' }] }), true);
  assert.equal(s.state.game.version, 1);
  assert.deepEqual(s.state.game.moves, [{ move: 'h8' }]);
  s.setGame(state(2));
  assert.equal(s.state.game.version, 2, 'and the versions after it');
  // another game is always taken
  s.setGame({ ...state(0), id: 'g2' });
  assert.equal(s.state.game.id, 'g2');
  assert.deepEqual(v.changed.map(([, other]) => other), [true, false, false, false, true]);
});
