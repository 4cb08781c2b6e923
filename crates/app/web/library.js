// The library panel (a dialog of the header's Library button): where the library file is, its
// games (the last changed first) filtered by rule, opening, player, result or words, each to
// open on the board, rename, export or delete (with an undo), and the import of collections
// (SGF, PSQ, RenLib, zip files) and exports of the games listed or of all of them.

import * as library from './library-api.js';
import { closeDialog } from './dialogs.js';
import { num } from './words.js';
import { $, html } from './dom.js';

/** The largest file the page sends (the server takes requests up to 1 MB, and base64 makes
 * bytes a third longer); larger collections go through `gomoku library import`. */
export const UPLOAD_MAX = 700 * 1024;

/** The filter's fields, as the API names them. */
export const FILTER_FIELDS = ['rule', 'player', 'opening', 'result', 'text'];

/** The query string of a filter (`{rule, player, ...}`; empty fields left out). */
export function filterQuery(f) {
  const q = new URLSearchParams();
  for (const k of FILTER_FIELDS) {
    const v = String((f && f[k]) || '').trim();
    if (v) q.set(k, v);
  }
  return q.toString();
}

/** A game's title: its name, else its players, else its number. */
export function gameTitle(t, g) {
  return g.name || [g.black, g.white].filter(Boolean).join(' – ') || t('lib.untitled', { id: g.id });
}

/** What a game of the list says under its title: rule and size, moves, result, date, source. */
export function gameDetails(t, g) {
  return [
    t('rules', { rule: t('rule.' + g.rule), size: g.size }),
    g.moves === 1 ? t('history.move') : t('history.moves', { n: g.moves }),
    t('lib.outcome.' + g.outcome),
    g.opening || '', g.date || '',
    g.source === 'board' ? t('lib.fromBoard') : g.source,
  ].filter(Boolean).join(' · ');
}

/** `bytes` (a Uint8Array) in base64. */
export function base64Of(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** What an import did, in words: `report` sums the answers of the files sent. */
export function reportText(t, report) {
  const parts = [t('lib.imported', { files: report.files, added: report.added, duplicates: report.duplicates })];
  for (const f of report.failed) parts.push(f.file + ': ' + f.error);
  return parts.join('\n');
}

/** The panel: its list, filter, undo, import and export. `openGame(id)` opens a game on the
 * board (true when it did), `changed()` says the library changed (the explorer asks again). */
export class LibraryPanel {
  constructor(state, deps) {
    this.state = state;
    this.t = deps.t;
    this.showError = deps.showError;
    this.openGame = deps.openGame;
    this.changed = deps.changed;
    this.games = [];
    this.total = 0;
    this.deleted = null;   // the game deleted last: {id, title}, for its undo
    this.renaming = null;  // the id of the game being renamed
    this.report = null;    // the last import's report
    this.timer = 0;
    this.asked = 0;        // the number of the last list asked for (older answers are left)
  }

  filter() {
    const f = {};
    for (const k of FILTER_FIELDS) f[k] = $('lib-' + k).value;
    return f;
  }

  /** Reads the library's figures and the games the filter takes, and draws them. */
  async refresh() {
    const n = ++this.asked;
    try {
      const [info, list] = await Promise.all([library.info(), library.list(filterQuery(this.filter()))]);
      if (n !== this.asked) return;
      this.state.library = info;
      this.games = list.games;
      this.total = list.total;
      this.render();
    } catch (e) {
      this.showError(e);
    }
  }

  /** Draws the panel. */
  render() {
    const t = this.t();
    const info = this.state.library;
    $('open-library').hidden = !(info && info.enabled);
    if (!info || !info.enabled) return;
    $('lib-where').textContent = t('lib.where', { path: info.path, games: num(info.games) });
    $('lib-where').title = info.path;
    $('open-library').title = $('lib-where').textContent;
    $('lib-count').textContent = t('lib.count', { shown: num(this.games.length), total: num(this.total) });
    $('lib-export-filtered').href = library.exportUrl(filterQuery(this.filter()));
    $('lib-export-all').href = library.exportUrl('');
    const list = $('lib-list');
    list.textContent = '';
    const here = this.state.game && this.state.game.library_id;
    for (const g of this.games) list.appendChild(this.entry(t, g, g.id === here));
    $('lib-empty').hidden = this.games.length > 0;
    $('lib-undo').hidden = !this.deleted;
    if (this.deleted) $('lib-undo-text').textContent = t('lib.deleted', { title: this.deleted.title });
    $('lib-report').hidden = !this.report;
    $('lib-report').textContent = this.report ? reportText(t, this.report) : '';
  }

  /** One game of the list. */
  entry(t, g, current) {
    const li = html('li', current ? 'current' : null, null, { game: String(g.id), testid: 'lib-game', title: gameTitle(t, g) });
    const main = html('div', 'lib-main');
    if (this.renaming === g.id) {
      const input = html('input', 'lib-rename', null, { renameInput: String(g.id), testid: 'lib-rename-input' });
      input.value = g.name;
      input.placeholder = gameTitle(t, g);
      main.append(input);
      setTimeout(() => input.focus(), 0);
    } else {
      main.append(button(t('lib.openTitle', { title: gameTitle(t, g) }), 'link', { open: String(g.id), testid: 'lib-open' }, gameTitle(t, g)));
    }
    main.append(html('div', 'muted small', gameDetails(t, g)));
    const actions = html('div', 'lib-actions');
    if (this.renaming === g.id) {
      actions.append(button(null, 'primary', { renameSave: String(g.id), testid: 'lib-rename-save' }, t('lib.save')),
        button(null, null, { renameCancel: String(g.id) }, t('setup.cancel')));
    } else {
      const sgf = html('a', 'button', 'SGF', { testid: 'lib-export-game' });
      sgf.href = library.gameExportUrl(g.id);
      sgf.download = 'game-' + g.id + '.sgf';
      sgf.title = t('lib.exportOne');
      actions.append(button(null, null, { rename: String(g.id), testid: 'lib-rename' }, t('lib.rename')), sgf,
        button(null, null, { remove: String(g.id), testid: 'lib-delete' }, t('lib.delete')));
    }
    li.append(main, actions);
    return li;
  }

  async rename(id, name) {
    try {
      await library.rename(id, name);
      this.renaming = null;
      await this.refresh();
    } catch (e) { this.showError(e); }
  }

  async remove(id) {
    const g = this.games.find((x) => x.id === id);
    try {
      await library.remove(id);
      this.deleted = { id, title: g ? gameTitle(this.t(), g) : '#' + id };
      await this.refresh();
      this.changed();
    } catch (e) { this.showError(e); }
  }

  async undo() {
    if (!this.deleted) return;
    try {
      await library.restore(this.deleted.id);
      this.deleted = null;
      await this.refresh();
      this.changed();
    } catch (e) { this.showError(e); }
  }

  /** Imports `files` (a FileList), one request each, and says what came of them. */
  async importFiles(files) {
    const report = { files: 0, added: 0, duplicates: 0, failed: [] };
    const rule = $('lib-import-rule').value;
    $('lib-report').hidden = false;
    $('lib-report').textContent = this.t()('lib.importing');
    for (const f of files) {
      if (f.size > UPLOAD_MAX) {
        report.failed.push({ file: f.name, error: this.t()('lib.tooLarge') });
        continue;
      }
      try {
        const bytes = new Uint8Array(await f.arrayBuffer());
        const r = await library.importFile(f.name, base64Of(bytes), rule);
        report.files += r.files;
        report.added += r.added;
        report.duplicates += r.duplicates;
        report.failed.push(...r.failed);
      } catch (e) {
        report.failed.push({ file: f.name, error: e.message || e.code || String(e) });
      }
    }
    this.report = report;
    await this.refresh();
    this.changed();
  }

  /** Wires the panel's controls. */
  wire() {
    $('open-library').addEventListener('click', () => {
      // (the last import's report is of another visit)
      this.report = null;
      this.refresh();
    });
    for (const k of FILTER_FIELDS) {
      $('lib-' + k).addEventListener('input', () => {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.refresh(), 250);
      });
    }
    $('lib-list').addEventListener('click', (e) => this.listClick(e));
    $('lib-list').addEventListener('keydown', (e) => {
      const input = e.target.closest('[data-rename-input]');
      if (!input) return;
      if (e.key === 'Enter') this.rename(Number(input.dataset.renameInput), input.value);
      else if (e.key === 'Escape') { this.renaming = null; this.render(); }
      else return;
      e.preventDefault();
      e.stopPropagation();
    });
    $('lib-undo-btn').addEventListener('click', () => this.undo());
    $('lib-file').addEventListener('change', async () => {
      const input = $('lib-file');
      const files = [...input.files];
      if (files.length) await this.importFiles(files);
      input.value = '';
    });
  }

  async listClick(e) {
    const b = e.target.closest('button');
    if (!b) return;
    const d = b.dataset;
    if (d.open) {
      if (await this.openGame(Number(d.open))) closeDialog('dlg-library');
    } else if (d.rename) {
      this.renaming = Number(d.rename);
      this.render();
    } else if (d.renameSave) {
      const input = $('lib-list').querySelector(`[data-rename-input="${d.renameSave}"]`);
      this.rename(Number(d.renameSave), input ? input.value : '');
    } else if (d.renameCancel) {
      this.renaming = null;
      this.render();
    } else if (d.remove) {
      this.remove(Number(d.remove));
    }
  }
}

/** A button of the list. */
function button(title, cls, data, text) {
  const b = html('button', cls, text, data);
  b.type = 'button';
  if (title) b.title = title;
  return b;
}
