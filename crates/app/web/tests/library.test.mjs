// The library panel's logic (its filter, its words, the bytes it sends) and the labels on
// moves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { filterQuery, gameTitle, gameDetails, base64Of, reportText } from '../library.js';
import { exportUrl, gameExportUrl } from '../library-api.js';
import { nextLetter, toggleLabel, nodeHere } from '../notes.js';
import { translator } from '../i18n.js';

const t = translator('en');

test('the filter keeps the fields given, trimmed, and only those', () => {
  assert.equal(filterQuery({}), '');
  assert.equal(filterQuery(null), '');
  assert.equal(filterQuery({ rule: 'renju', player: '  Ann ', opening: '', result: 'black', text: ' ' }),
    'rule=renju&player=Ann&result=black');
  assert.equal(filterQuery({ text: 'Club cup & co' }), 'text=Club+cup+%26+co');
  assert.equal(filterQuery({ colour: 'x' }), '', 'no field the API does not know');
});

test('the exports: the games listed, all of them, or one', () => {
  assert.equal(exportUrl(filterQuery({ player: 'ann' })), '/api/library/export?player=ann&download=true');
  assert.equal(exportUrl(''), '/api/library/export?download=true');
  assert.equal(gameExportUrl(4), '/api/library/games/4/export?download=true');
});

test('a game is called by its name, else its players, else its number', () => {
  const g = { id: 4, name: '', black: 'Ann', white: 'Bo' };
  assert.equal(gameTitle(t, { ...g, name: 'Final' }), 'Final');
  assert.equal(gameTitle(t, g), 'Ann – Bo');
  assert.equal(gameTitle(t, { ...g, white: '' }), 'Ann');
  assert.equal(gameTitle(t, { ...g, black: '', white: '' }), 'Game 4');
  assert.equal(gameTitle(translator('zh'), { ...g, black: '', white: '' }), '第 4 局');
});

test('a game\'s line in the list: rule, moves, result, opening, date, where it comes from', () => {
  const g = { id: 1, rule: 'renju', size: 15, moves: 7, outcome: 'white', opening: 'Kagetsu', date: '2024-05-02', source: 'collection.sgf' };
  assert.equal(gameDetails(t, g), 'Renju, 15×15 · 7 moves · White won · Kagetsu · 2024-05-02 · collection.sgf');
  assert.equal(gameDetails(t, { ...g, moves: 1, outcome: 'unknown', opening: '', date: '', source: 'board' }),
    'Renju, 15×15 · 1 move · No result · played here');
});

test('bytes go as base64, large ones too', () => {
  assert.equal(base64Of(new Uint8Array([])), '');
  assert.equal(base64Of(new TextEncoder().encode('hello')), 'aGVsbG8=');
  assert.equal(base64Of(new Uint8Array([0xff, 0x52, 0x65, 0x6e])), '/1Jlbg==');
  const big = new Uint8Array(100_000).map((_, i) => i % 256);
  assert.deepEqual(Uint8Array.from(Buffer.from(base64Of(big), 'base64')), big);
});

test('an import says what it added and names each file that failed', () => {
  const r = { files: 3, added: 5, duplicates: 1, failed: [{ file: 'bad.sgf', error: 'line 1: no game' }] };
  assert.equal(reportText(t, r), '3 files read: 5 games added, 1 already in the library.\nbad.sgf: line 1: no game');
});

test('labels: the next free letter, a mark, and a click on a label takes it away', () => {
  assert.equal(nextLetter([]), 'A');
  assert.equal(nextLetter([{ point: 'h8', text: 'A' }, { point: 'h9', text: 'C' }]), 'B');
  const all = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'].map((c, i) => ({ point: 'p' + i, text: c }));
  assert.equal(nextLetter(all), '1');
  let labels = toggleLabel(undefined, 'j8', 'letter');
  assert.deepEqual(labels, [{ point: 'j8', text: 'A' }]);
  labels = toggleLabel(labels, 'g8', 'letter');
  labels = toggleLabel(labels, 'h7', 'mark');
  assert.deepEqual(labels, [{ point: 'j8', text: 'A' }, { point: 'g8', text: 'B' }, { point: 'h7', text: '' }]);
  labels = toggleLabel(labels, 'j8', 'mark');
  assert.deepEqual(labels, [{ point: 'g8', text: 'B' }, { point: 'h7', text: '' }]);
  // the letter taken away is the next one given
  assert.deepEqual(toggleLabel(labels, 'k8', 'letter').pop(), { point: 'k8', text: 'A' });
});

test('the notes are those of the node on the board, none while setting up', () => {
  const node = { id: 2, comment: 'c', labels: [] };
  const index = new Map([[0, { id: 0 }], [2, node]]);
  const s = { game: { tree: { current: 2 } }, index, setup: null };
  assert.equal(nodeHere(s), node);
  assert.equal(nodeHere({ ...s, setup: {} }), null);
  assert.equal(nodeHere({ ...s, game: null }), null);
});
