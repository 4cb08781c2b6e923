// Comments and labels on the moves: the comment of the move on the board (shown and edited
// under the move list), and labels on the board at that move (letters, or plain marks) put
// down and taken away by a click on a point while a label tool is chosen. The server keeps
// them on the game's tree (`POST /api/games/{id}/note`), and the library with the game.

import { CELL, px, parsePoint } from './coords.js';
import { currentNode } from './tree.js';
import { $, svg as el } from './dom.js';

/** The label tools: a letter (the first one not on the board yet), or a plain mark. */
export const LABEL_TOOLS = ['letter', 'mark'];

/** The node on the board (its comment and labels), or null. */
export function nodeHere(s) {
  return s.game && !s.setup ? s.index.get(currentNode(s.game)) || null : null;
}

/** The first letter A to Z that no label of `labels` has, then a to z, then numbers. */
export function nextLetter(labels) {
  const used = new Set((labels || []).map((l) => l.text));
  const letters = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'];
  for (const c of letters) if (!used.has(c)) return c;
  for (let n = 1; ; n++) if (!used.has(String(n))) return String(n);
}

/** The labels after a click on `point` with label tool `tool`: a label there goes, else one
 * comes (the next letter, or a plain mark with an empty text). */
export function toggleLabel(labels, point, tool) {
  const list = (labels || []).map((l) => ({ point: l.point, text: l.text || '' }));
  if (list.some((l) => l.point === point)) return list.filter((l) => l.point !== point);
  return list.concat([{ point, text: tool === 'mark' ? '' : nextLetter(list) }]);
}

/** The labels of the node on the board, drawn on it: a letter or word on its point (over a
 * stone in the stone's opposite colour), a mark as a triangle. `stones` maps a point to the
 * colour of its stone. */
export function drawLabels(board, node, stones, size) {
  const layer = el('g', { class: 'labels-layer', 'data-testid': 'labels' });
  for (const l of (node && node.labels) || []) {
    const p = parsePoint(l.point, size);
    if (!p) continue;
    const on = stones.get(l.point);
    const g = el('g', { class: 'label' + (on ? ' on-' + on : ''), 'data-label': l.point, 'data-text': l.text || '' });
    if (!l.text) {
      const r = CELL * 0.26;
      g.appendChild(el('polygon', { points: `${px(p.x)},${px(p.y) - r} ${px(p.x) + r * 0.87},${px(p.y) + r / 2} ${px(p.x) - r * 0.87},${px(p.y) + r / 2}`, class: 'mark' }));
    } else {
      const text = [...l.text].slice(0, 3).join('');
      if (!on) g.appendChild(el('rect', { x: px(p.x) - CELL * 0.36, y: px(p.y) - CELL * 0.3, width: CELL * 0.72, height: CELL * 0.6, rx: 5 }));
      g.appendChild(el('text', { x: px(p.x), y: px(p.y) + 6, 'text-anchor': 'middle' }, text));
      g.appendChild(el('title', {}, l.text));
    }
    layer.appendChild(g);
  }
  board.appendChild(layer);
}

/** Draws the comment box and the label tools for the session's state `s`. A comment being
 * written (the box has the focus, for the same move) is left as it is. */
export function renderNotes(s, t) {
  const node = nodeHere(s);
  const box = $('comment');
  const id = node ? String(node.id) : '';
  const editing = document.activeElement === box && box.dataset.node === id;
  if (!editing) {
    box.value = node ? node.comment || '' : '';
    box.dataset.node = id;
  }
  box.disabled = !node;
  box.placeholder = node && node.id !== 0 ? t('notes.placeholder', { n: node.number, move: node.move }) : t('notes.placeholderStart');
  $('notes').dataset.node = id;
  $('notes').dataset.comment = node ? node.comment || '' : '';
  for (const b of document.querySelectorAll('#notes [data-label-tool]')) {
    b.setAttribute('aria-pressed', s.labeling === b.dataset.labelTool ? 'true' : 'false');
    b.disabled = !node;
  }
  $('btn-labels-clear').disabled = !node || !(node.labels || []).length;
  $('board').classList.toggle('labeling', !!s.labeling);
}

/** Wires the comment box and the label tools to `session`; `render()` redraws the page. */
export function wireNotes(session, render) {
  const s = session.state;
  const box = $('comment');
  const save = () => {
    const node = nodeHere(s);
    if (!node || box.dataset.node !== String(node.id) || box.value.trimEnd() === (node.comment || '')) return;
    session.note(node.id, { comment: box.value });
  };
  box.addEventListener('change', save);
  box.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); save(); }
  });
  $('btn-comment-save').addEventListener('click', save);
  for (const b of document.querySelectorAll('#notes [data-label-tool]')) {
    b.addEventListener('click', () => {
      s.labeling = s.labeling === b.dataset.labelTool ? null : b.dataset.labelTool;
      render();
    });
  }
  $('btn-labels-clear').addEventListener('click', () => {
    const node = nodeHere(s);
    if (node) session.note(node.id, { labels: [] });
  });
}

/** A click on `point` while a label tool is chosen: the label there comes or goes. */
export function labelClick(session, point) {
  const s = session.state;
  const node = nodeHere(s);
  if (!node || !s.labeling) return;
  session.note(node.id, { labels: toggleLabel(node.labels, point, s.labeling) });
}
