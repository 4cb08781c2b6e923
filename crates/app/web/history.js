// Recent games: every game with a move is kept in this browser (its position line, its SGF
// with every line, its result and date), newest first, and can be opened again.

import * as api from './api.js';
import { $, html } from './dom.js';
import { resultText } from './words.js';

const KEY = 'gomoku.history';
const MAX = 20;

/** The list kept in `storage` (entries that do not look like one are left out). */
export function loadHistory(storage) {
  try {
    const h = JSON.parse(storage.getItem(KEY) || '[]');
    return Array.isArray(h) ? h.filter((e) => e && typeof e.line === 'string' && typeof e.id === 'string') : [];
  } catch (e) { return []; }
}

/** Keeps the first MAX entries of `h` in `storage`. */
export function storeHistory(storage, h) {
  try { storage.setItem(KEY, JSON.stringify(h.slice(0, MAX))); } catch (e) { /* full or off */ }
}

/** `h` with `entry` first, and no other entry of the same game or the same moves. */
export function withEntry(h, entry) {
  return [entry, ...h.filter((e) => e.id !== entry.id && e.line !== entry.line)];
}

/** Keeps the games of one page in the list: what was saved of each, to save only changes. */
export class History {
  constructor(storage, onChange) {
    this.storage = storage;
    this.onChange = onChange;
    this.saved = new Map(); // game id -> what was saved of it (moves, nodes and result)
  }

  /** Saves `state` when it has a move and changed since it was saved. */
  async remember(state) {
    // the moves of the line shown, and every line of the tree (saved as SGF)
    const moves = state.moves.length + (state.continuation || []).length - (state.setup_plies || 0);
    const nodes = state.tree ? state.tree.nodes.length : 0;
    const key = moves + ':' + nodes + ':' + JSON.stringify(state.result);
    if (moves < 1 || this.saved.get(state.id) === key) return;
    this.saved.set(state.id, key);
    try {
      const [line, sgf] = await Promise.all([
        api.exportText(state.id, 'record'),
        api.exportText(state.id, 'sgf').catch(() => null),
      ]);
      const entry = {
        id: state.id, line: line.trim(), sgf, rule: state.rule, size: state.size, moves,
        result: state.result || null, at: Date.now(),
      };
      storeHistory(this.storage, withEntry(loadHistory(this.storage), entry));
      this.onChange();
    } catch (e) { this.saved.delete(state.id); }
  }

  /** Entry `i` of the list. */
  entry(i) {
    return loadHistory(this.storage)[i];
  }

  clear() {
    storeHistory(this.storage, []);
    this.onChange();
  }

  /** Draws the list; the current game's entry stands out. */
  render(t, game) {
    const list = $('history-list');
    list.textContent = '';
    const h = loadHistory(this.storage);
    $('history-empty').hidden = h.length > 0;
    $('btn-history-clear').disabled = h.length === 0;
    const locale = t.lang === 'zh' ? 'zh-CN' : 'en-GB';
    h.forEach((e, i) => {
      const li = html('li', null, null, { index: i, line: e.line });
      if (game && e.id === game.id) li.classList.add('current');
      const open = html('button', null, t('history.open'), { open: i });
      open.type = 'button';
      const when = new Date(e.at);
      const what = html('span', null, [
        t('rules', { rule: t('rule.' + e.rule), size: e.size }),
        e.moves === 1 ? t('history.move') : t('history.moves', { n: e.moves }),
        e.result ? resultText(t, e.result) : t('history.unfinished'),
        when.toLocaleDateString(locale) + ' ' + when.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' }),
      ].join(' · '));
      li.append(open, ' ', what);
      list.appendChild(li);
    });
  }
}
