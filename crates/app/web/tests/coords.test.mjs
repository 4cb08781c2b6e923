// Points and where they are drawn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CELL, MARGIN, px, boardUnits, parsePoint, pointName, starPoints, cellPixels, lineEnds, centralSquare } from '../coords.js';

test('a point name and its place go both ways on every size', () => {
  for (const size of [5, 9, 15, 19, 20, 22]) {
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const name = pointName(x, y, size);
        assert.deepEqual(parsePoint(name, size), { x, y }, name);
      }
    }
  }
  // a1 is the lower left corner, the row number counted from the bottom
  assert.deepEqual(parsePoint('a1', 15), { x: 0, y: 14 });
  assert.deepEqual(parsePoint('H8', 15), { x: 7, y: 7 });
  assert.equal(pointName(19, 0, 20), 't20');
});

test('a name off the board or not a point is null', () => {
  for (const bad of ['p8', 'a16', 'a0', 'h', '8', 'hh', '', 'h8 ', null]) assert.equal(parsePoint(bad, 15), null, String(bad));
});

test('the drawing: lines CELL apart inside a MARGIN, cells in pixels', () => {
  assert.equal(px(0), MARGIN);
  assert.equal(px(14), MARGIN + 14 * CELL);
  assert.equal(boardUnits(15), 2 * MARGIN + 14 * CELL);
  // a 15x15 board drawn as wide as its units: a cell is CELL pixels
  assert.equal(cellPixels(boardUnits(15), 15), CELL);
  assert.ok(Math.abs(cellPixels(374, 22) - 374 * CELL / boardUnits(22)) < 1e-9);
});

test('star points: the centre and four more, eight more on 19x19', () => {
  assert.deepEqual(starPoints(7), []);
  assert.deepEqual(starPoints(15), [[3, 3], [3, 11], [11, 3], [11, 11], [7, 7]]);
  assert.equal(starPoints(19).length, 9);
  assert.equal(starPoints(20).length, 4);
  assert.deepEqual(starPoints(9), [[2, 2], [2, 6], [6, 2], [6, 6], [4, 4]]);
});

test('a winning line is drawn between its ends, whatever their order', () => {
  const [a, b] = lineEnds(['h8', 'f6', 'j10', 'g7', 'i9'], 15);
  assert.deepEqual([a, b], [parsePoint('f6', 15), parsePoint('j10', 15)]);
  assert.equal(lineEnds(['h8'], 15), null);
});

test('the central square of a renju rule is centred, half a cell beyond its points', () => {
  const sq = centralSquare(15, 3);
  assert.equal(sq.x, px(6) - CELL / 2);
  assert.equal(sq.w, 3 * CELL);
  assert.equal(centralSquare(15, 1).w, CELL);
});
