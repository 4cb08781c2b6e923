// The game's tree as the page reads it: the arrows, the main line, the move list's layout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexTree, stepTarget, onMainLine, nodeBefore, layout, lineMoves, currentNode, firstNode, startPlies } from '../tree.js';

// 1. h8 2. i9 3. h9, then 4. i10 (main) or 4. h10; and 3. j8 instead of 3. h9, then 4. k7
const nodes = [
  { id: 0, parent: null, move: null, number: 0, color: 'white', children: [1] },
  { id: 1, parent: 0, move: 'h8', number: 1, color: 'black', children: [2] },
  { id: 2, parent: 1, move: 'i9', number: 2, color: 'white', children: [3, 6] },
  { id: 3, parent: 2, move: 'h9', number: 3, color: 'black', children: [4, 5] },
  { id: 4, parent: 3, move: 'i10', number: 4, color: 'white', children: [] },
  { id: 5, parent: 3, move: 'h10', number: 4, color: 'white', children: [] },
  { id: 6, parent: 2, move: 'j8', number: 3, color: 'black', children: [7] },
  { id: 7, parent: 6, move: 'k7', number: 4, color: 'white', children: [] },
];
const mv = (id) => ({ node: id, number: nodes[id].number, move: nodes[id].move, color: nodes[id].color });

/** The game shown at node `current`, the line ahead of it being `ahead`. */
function game(current, path, ahead, extra = {}) {
  return { tree: { current, first: 0, nodes }, moves: path.map(mv), continuation: ahead.map(mv), ...extra };
}

test('the move list: the main line, and each other line after the move it replaces', () => {
  const index = indexTree(game(0, [], []));
  assert.deepEqual(layout(index), [
    { move: 1 },
    { move: 2 },
    { move: 3 },
    { variation: 6, items: [{ move: 6 }, { move: 7 }] },
    { move: 4 },
    { variation: 5, items: [{ move: 5 }] },
  ]);
  assert.deepEqual(layout(index, 6), [{ move: 7 }]);
  assert.deepEqual(layout(new Map()), []);
});

test('the arrows step along the line shown, to its ends, and stop there', () => {
  const g = game(3, [1, 2, 3], [5]);
  const index = indexTree(g);
  assert.equal(stepTarget(g, index, 'prev'), 2);
  assert.equal(stepTarget(g, index, 'next'), 5);
  assert.equal(stepTarget(g, index, 'last'), 5);
  assert.equal(stepTarget(g, index, 'first'), 0);
  const start = game(0, [], [1, 2, 3, 4]);
  assert.equal(stepTarget(start, index, 'prev'), null);
  assert.equal(stepTarget(start, index, 'first'), null);
  assert.equal(stepTarget(start, index, 'last'), 4);
  const end = game(4, [1, 2, 3, 4], []);
  assert.equal(stepTarget(end, index, 'next'), null);
  assert.equal(stepTarget(end, index, 'nowhere'), null);
  assert.equal(stepTarget(null, index, 'next'), null);
});

test('the earliest node is the start, or where an opening ended', () => {
  const g = game(3, [1, 2, 3], [], { tree: { current: 3, first: 2, nodes } });
  const index = indexTree(g);
  assert.equal(firstNode(g), 2);
  assert.equal(currentNode(g), 3);
  assert.equal(stepTarget(g, index, 'first'), 2);
  const at = game(2, [1, 2], [3], { tree: { current: 2, first: 2, nodes } });
  assert.equal(stepTarget(at, index, 'prev'), null);
});

test('a node is on the main line when each step is its parent\'s first child', () => {
  const index = indexTree(game(0, [], []));
  for (const id of [0, 1, 2, 3, 4]) assert.ok(onMainLine(index, id), String(id));
  for (const id of [5, 6, 7]) assert.ok(!onMainLine(index, id), String(id));
});

test('the position before a move of the line, past a set-up position', () => {
  const g = game(4, [1, 2, 3, 4], []);
  assert.deepEqual(lineMoves(g).map((m) => m.move), ['h8', 'i9', 'h9', 'i10']);
  assert.equal(nodeBefore(g, 1), 0);
  assert.equal(nodeBefore(g, 3), 2);
  assert.equal(nodeBefore(g, 4), 3);
  assert.equal(nodeBefore(g, 9), null);
  // two set-up stones: their moves are the start
  const setup = game(4, [1, 2, 3, 4], [], { setup_plies: 2 });
  assert.equal(startPlies(setup), 2);
  assert.equal(nodeBefore(setup, 3), 0);
  assert.equal(nodeBefore(setup, 4), 3);
});
