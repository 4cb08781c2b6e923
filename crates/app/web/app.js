// The board page: draws the game the server keeps, sends the person's actions to the JSON API
// and follows the game's server-sent events (state changes and live engine output). This
// module starts the page: it makes the session (the page's state and its one owner), draws
// the page from it, and wires the page's controls to it.

import { translator, defaultLang } from './i18n.js';
import { Session, emptyState } from './session.js';
import { History } from './history.js';
import { Messages, renderStatus, renderClocks } from './status.js';
import { renderBoard, needsConfirm } from './board.js';
import { renderCandidateMarks, renderHeatLabel, renderLineMarks } from './overlays.js';
import { renderInfo, renderExcluded } from './engine-panel.js';
import { renderEvalBar, renderButtons, renderSolution } from './tools.js';
import { renderMoves } from './moves.js';
import { renderGraph } from './graph.js';
import { renderReview } from './review.js';
import { renderTurn, renjuRequest, RENJU_RULES } from './openings.js';
import { wireDialogs, closeDialog } from './dialogs.js';
import { renderSetup, openSetup, setupClick, setupRequest } from './setup.js';
import { formSettings, newGameBody, importRequest, showSettings, saveSettings, loadSettings } from './new-game.js';
import { analysing, analysisInfo, personToMove, reviewing, refusal } from './game-state.js';
import { currentNode, nodeBefore } from './tree.js';
import { Explorer, renderExplorer, renderExplorerMarks, storedHere, wireExplorer } from './explorer.js';
import { LibraryPanel } from './library.js';
import { renderNotes, wireNotes, labelClick } from './notes.js';
import * as api from './api.js';
import * as library from './library-api.js';
import { $ } from './dom.js';

const GAME_KEY = 'gomoku.game';      // per tab: sessionStorage
const LANG_KEY = 'gomoku.lang';
const PV_KEY = 'gomoku.showLine';
const HEAT_KEY = 'gomoku.heatMap';
const EXPLORER_KEY = 'gomoku.explorerMarks';

const state = emptyState(localStorage.getItem(LANG_KEY) || defaultLang(navigator.language), {
  numbers: $('chk-numbers').checked,
  showLine: localStorage.getItem(PV_KEY) === '1',
  heat: localStorage.getItem(HEAT_KEY) !== '0',
  explorerMarks: localStorage.getItem(EXPLORER_KEY) !== '0',
});
const messages = new Messages();
const recent = new History(localStorage, () => recent.render(tr(), state.game));
/** The page's words in its language now. */
const tr = () => translator(state.lang);

const session = new Session(state, {
  render,
  renderLive() {
    renderInfo(state, tr(), performance.now());
    renderEvalBar(state, tr());
    if (analysing(state.game)) renderCandidateMarks(state, tr());
    renderLineMarks(state);
  },
  showError: (err) => messages.show(tr(), err),
  clearError: () => messages.clear(),
  gameChanged(game, other) {
    if (other) showSettings(game);
    recent.remember(game);
    explorer.follow();
  },
  newGame(game) {
    sessionStorage.setItem(GAME_KEY, game.id);
    if (location.hash) history.replaceState(null, '', location.pathname);
  },
});

// the library: the explorer follows the board, the panel lists the games
const explorer = new Explorer(state, () => renderLibrary());
const libraryPanel = new LibraryPanel(state, {
  t: tr,
  showError: (err) => messages.show(tr(), err),
  openGame: (id) => session.openLibraryGame(id, null),
  changed: () => explorer.refresh(),
});

// ------------------------------------------------------------------------------------------
// Drawing

// Fits the board to the window. Wide: the board fits the window's height, its tools in a
// column beside it. Narrow: the board takes the width, the evaluation follows right under it.
const WIDE = 900;
const TOOLS = 230 + 14;
function fitBoard() {
  const play = $('play');
  if (window.innerWidth < WIDE) {
    play.style.removeProperty('--board');
    return;
  }
  const top = play.querySelector('.board-wrap').getBoundingClientRect().top + window.scrollY;
  const byWidth = window.innerWidth - TOOLS - 340 - 18 * 3;
  const size = Math.max(300, Math.min(900, byWidth, window.innerHeight - top - 10));
  play.style.setProperty('--board', Math.floor(size) + 'px');
}

function render() {
  const t = tr();
  const now = performance.now();
  renderTurn(t, state);
  renderSetup(t, state.setup);
  renderBoard(state, t);
  renderStatus(state, t);
  if (state.game && state.game.engine_error) messages.show(t, { message: state.game.engine_error });
  renderInfo(state, t, now);
  renderEvalBar(state, t);
  renderMoves(state, t);
  renderGraph(t, state.game);
  renderReview(t, state.game);
  renderSolution(t, state.game);
  renderExplorer(state, t);
  renderNotes(state, t);
  renderExcluded(state.game);
  recent.render(t, state.game);
  renderClocks(state, t, now);
  renderButtons(state, t);
  fitBoard();
  // (the cells' size on the screen decides whether a tap asks for a second one)
  $('board').dataset.confirm = needsConfirm(state) ? 'yes' : 'no';
}

/** What the library's answers change (the explorer, a stored analysis), drawn without
 * redrawing the board (so that a click on it is never lost). */
function renderLibrary() {
  const t = tr();
  renderExplorer(state, t);
  renderExplorerMarks(state);
  renderInfo(state, t, performance.now());
  renderEvalBar(state, t);
  renderCandidateMarks(state, t);
  renderLineMarks(state);
}

function applyLang() {
  const t = tr();
  document.documentElement.lang = state.lang === 'zh' ? 'zh-CN' : 'en';
  document.title = t('title');
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll('[data-i18n-title]')) el.title = t(el.dataset.i18nTitle);
  for (const el of document.querySelectorAll('[data-i18n-placeholder]')) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const b of document.querySelectorAll('[data-lang]')) b.classList.toggle('active', b.dataset.lang === state.lang);
  libraryPanel.render();
  render();
}

// ------------------------------------------------------------------------------------------
// Actions

/** A new game from the form's settings and `extra`; the dialog `dialog` it was asked from
 * closes when the game starts (a refusal leaves it open, to mend what was refused). */
async function newGame(extra, dialog) {
  const started = await session.newGame(newGameBody(formSettings(), extra));
  if (started && dialog) closeDialog(dialog);
  return started;
}

/** Leaves `point` out of the analysis (or takes it back in with `back`). */
function exclude(point, back) {
  const game = state.game;
  if (!game || !game.analyze) return;
  const now = game.excluded || [];
  const next = back ? now.filter((p) => p !== point) : now.concat(now.includes(point) ? [] : [point]);
  session.act('/analyze', { on: true, exclude: next });
}

/** A click on a point of the board: a stone set up, a label put down or taken away, or the
 * person's move (small cells: the first tap shows the stone to come, the second on the same
 * point plays it). */
function clickPoint(point) {
  const game = state.game;
  if (state.setup) {
    setupClick(state.setup, point);
    render();
    return;
  }
  if (state.labeling) {
    labelClick(session, point);
    return;
  }
  if (needsConfirm(state) && state.pending !== point && game && !reviewing(game) && !refusal(game, point)) {
    if (!personToMove(game)) return;
    state.pending = point;
    renderBoard(state, tr());
    renderStatus(state, tr());
    return;
  }
  playMove(point);
}

/** The person's move at `point` (a click on the board, or on a move of the explorer). */
function playMove(point) {
  const game = state.game;
  // a click while the game is reviewed would cancel the review: Stop first
  if (!game || reviewing(game)) return;
  // what the server would refuse is said at once, and no request goes out
  const no = refusal(game, point);
  if (no) {
    messages.show(tr(), no);
    return;
  }
  state.pending = null;
  session.act('/move', { move: point });
}

function setHoverLine(h) {
  const same = (a, b) => (!a && !b) || (a && b && a.move === b.move && a.best === b.best);
  if (same(h, state.hoverLine)) return;
  state.hoverLine = h;
  renderCandidateMarks(state, tr());
  renderLineMarks(state);
}

async function exportAs(format) {
  if (!state.game) return;
  try {
    $('io-text').value = await api.exportText(state.game.id, format);
  } catch (e) { messages.show(tr(), e); }
}

function importText() {
  const req = importRequest($('io-text').value);
  if (!req) messages.show(tr(), { code: 'empty' });
  else newGame(req, 'dlg-io');
}

async function start() {
  // the library's place and figures (the explorer and the panel only with one)
  try { state.library = await library.info(); } catch (e) { state.library = null; }
  libraryPanel.render();
  // `#game=ID` opens a game from another tab (to watch or take over); otherwise this tab's own
  const shared = /[#&]game=([\w-]+)/.exec(location.hash);
  const id = shared ? shared[1] : sessionStorage.getItem(GAME_KEY);
  if (id && await session.open(id, !!shared)) return;
  await newGame();
}

// ------------------------------------------------------------------------------------------
// Wiring

const on = (id, event, f) => $(id).addEventListener(event, f);
const pointOf = (e) => {
  const target = e.target.closest('[data-point]');
  return target ? target.dataset.point : null;
};

on('board', 'click', (e) => {
  const point = pointOf(e);
  if (point) clickPoint(point);
});
// a right-click on an empty point leaves it out of the analysis, or takes it back in
on('board', 'contextmenu', (e) => {
  const point = pointOf(e);
  const game = state.game;
  if (!game || !game.analyze || state.setup || !point || game.moves.some((m) => m.move === point)) return;
  e.preventDefault();
  exclude(point, (game.excluded || []).includes(point));
});
// the mouse on a candidate on the board: its value with the heat map on, its line without
// (a finger's tap is no hover: its value goes to the status line)
on('board', 'pointerover', (e) => {
  if (e.pointerType !== 'mouse') return;
  const point = pointOf(e);
  const analysis = analysisInfo(state.game, state.live, storedHere(state));
  const onCandidate = point && analysis && (analysis.candidates || []).some((c) => c.move === point);
  if (point !== state.hoverPoint) {
    state.hoverPoint = point;
    renderHeatLabel(state, tr());
  }
  if (onCandidate && !state.options.heat) setHoverLine({ move: point });
  else if (state.hoverLine && state.hoverLine.move) setHoverLine(null);
});
on('board', 'pointerleave', () => {
  state.hoverPoint = null;
  renderHeatLabel(state, tr());
  if (state.hoverLine && state.hoverLine.move) setHoverLine(null);
});
on('candidates', 'click', (e) => {
  const b = e.target.closest('[data-exclude]');
  if (b) exclude(b.dataset.exclude, false);
});
// the pointer on a candidate in the list, or on the best line, shows that line
on('candidates', 'mouseover', (e) => {
  const li = e.target.closest('li[data-move]');
  if (li) setHoverLine({ move: li.dataset.move });
});
on('candidates', 'mouseleave', () => setHoverLine(null));
on('info-pv', 'mouseenter', () => setHoverLine({ best: true }));
on('info-pv', 'mouseleave', () => setHoverLine(null));
on('btn-include-all', 'click', () => session.act('/analyze', { on: true, exclude: [] }));

on('history-list', 'click', (e) => {
  const b = e.target.closest('[data-open]');
  const entry = b && recent.entry(Number(b.dataset.open));
  if (entry && entry.sgf) newGame({ sgf: entry.sgf, size: undefined, rule: undefined }, 'dlg-history');
  else if (entry) newGame({ record: entry.line }, 'dlg-history');
});
on('btn-history-clear', 'click', () => recent.clear());

for (const where of ['first', 'prev', 'next', 'last']) on('nav-' + where, 'click', () => session.step(where));
on('moves', 'click', (e) => {
  const m = e.target.closest('[data-node]');
  if (m) session.goTo(Number(m.dataset.node));
});
on('review-list', 'click', (e) => {
  const li = e.target.closest('li[data-number]');
  if (li) session.goTo(nodeBefore(state.game, Number(li.dataset.number)));
});
on('btn-promote', 'click', () => session.act('/branch', { node: currentNode(state.game), action: 'promote' }));
on('btn-delete', 'click', () => session.act('/branch', { node: currentNode(state.game), action: 'delete' }));

const KEY_STEPS = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' };
document.addEventListener('keydown', (e) => {
  const typing = e.target instanceof Element && e.target.closest('input, textarea, select');
  // (a dialog open over the page takes the keys: Escape closes it)
  if (!state.game || typing || e.altKey || document.querySelector('dialog[open]')) return;
  if (e.ctrlKey || e.metaKey) {
    // Ctrl+Z undoes, Ctrl+Y (or Ctrl+Shift+Z) redoes, as the buttons do when they may
    const key = e.key.toLowerCase();
    const button = key === 'z' && !e.shiftKey ? 'btn-undo'
      : (key === 'y' || (key === 'z' && e.shiftKey)) ? 'btn-redo' : null;
    if (!button || state.setup) return;
    e.preventDefault();
    if (!$(button).disabled) $(button).click();
    return;
  }
  if (state.setup) {
    if (e.key === 'Escape') { state.setup = null; render(); e.preventDefault(); }
    return;
  }
  if (KEY_STEPS[e.key]) session.step(KEY_STEPS[e.key]);
  else if (e.key === 'Escape' && state.pending) { state.pending = null; render(); }
  else if (e.key === 'Escape' && state.labeling) { state.labeling = null; render(); }
  else return;
  e.preventDefault();
});

const ACTIONS = { 'btn-undo': '/undo', 'btn-redo': '/redo', 'btn-hint': '/hint', 'btn-go': '/go',
  'btn-stop': '/stop', 'btn-swap': '/swap', 'btn-resign': '/resign' };
for (const [id, path] of Object.entries(ACTIONS)) on(id, 'click', () => session.act(path));
on('btn-analyze', 'click', () => session.act('/analyze', { on: !(state.game && state.game.analyze) }));
on('btn-solve', 'click', () => {
  const g = state.game;
  if (g) session.act('/solve', { task: 'vct', time_ms: Math.max(1000, Math.min(g.time_ms * 2, 10000)) });
});
on('btn-review', 'click', () => {
  const g = state.game;
  if (g) session.act('/review', { time_ms: Math.max(100, Math.min(g.time_ms, 1000)) });
});
for (const b of document.querySelectorAll('#opening [data-choice]')) {
  b.addEventListener('click', () => session.act('/swap2', { choice: b.dataset.choice }));
}
on('renju', 'click', (e) => {
  const b = e.target.closest('[data-renju]');
  const req = b && renjuRequest(b);
  if (req) session.act('/renju', req);
});

on('chk-numbers', 'change', () => { state.options.numbers = $('chk-numbers').checked; renderBoard(state, tr()); });
$('chk-heat').checked = state.options.heat;
on('chk-heat', 'change', () => {
  state.options.heat = $('chk-heat').checked;
  localStorage.setItem(HEAT_KEY, state.options.heat ? '1' : '0');
  renderCandidateMarks(state, tr());
});
$('chk-pv').checked = state.options.showLine;
on('chk-pv', 'change', () => {
  state.options.showLine = $('chk-pv').checked;
  localStorage.setItem(PV_KEY, state.options.showLine ? '1' : '0');
  renderCandidateMarks(state, tr());
  renderLineMarks(state);
});

on('ng-start', 'click', () => { saveSettings(localStorage); newGame(undefined, 'dlg-new'); });
on('ng-setup', 'click', () => {
  closeDialog('dlg-new');
  state.hoverLine = null;
  state.pending = null;
  state.setup = openSetup(Number($('ng-size').value), $('ng-rule').value, state.game);
  $('setup-to-move').value = '';
  render();
});
for (const b of document.querySelectorAll('#setup-bar [data-tool]')) {
  b.addEventListener('click', () => { if (state.setup) { state.setup.tool = b.dataset.tool; render(); } });
}
on('setup-to-move', 'change', () => renderSetup(tr(), state.setup));
on('setup-clear', 'click', () => { if (state.setup) { state.setup.stones.clear(); render(); } });
on('setup-done', 'click', () => {
  if (!state.setup) return;
  saveSettings(localStorage);
  // a refused position (a five already on the board, say) stays on the page to be mended
  newGame(setupRequest(state.setup, $('setup-to-move').value));
});
on('setup-cancel', 'click', () => { state.setup = null; render(); });
// another board size while setting up: an empty board of that size
on('ng-size', 'change', () => {
  const size = Number($('ng-size').value);
  if (state.setup && state.setup.size !== size) { state.setup = { ...state.setup, size, stones: new Map() }; render(); }
});
on('ng-rule', 'change', () => {
  if (state.setup) { state.setup.rule = $('ng-rule').value; render(); }
});
for (const id of ['ng-level', 'ng-time']) {
  on(id, 'change', () => {
    saveSettings(localStorage);
    session.act('/settings', { level: $('ng-level').value, time_ms: Number($('ng-time').value) });
  });
}
for (const id of ['ng-rule', 'ng-size', 'ng-mode', 'ng-opening', 'ng-clock']) on(id, 'change', () => saveSettings(localStorage));
// the renju rules are renju openings: choosing one chooses the rule
on('ng-opening', 'change', () => {
  if (RENJU_RULES.includes($('ng-opening').value) && $('ng-rule').value !== 'renju') {
    $('ng-rule').value = 'renju';
    $('ng-rule').dispatchEvent(new Event('change'));
  }
});
for (const b of document.querySelectorAll('[data-lang]')) {
  b.addEventListener('click', () => {
    state.lang = b.dataset.lang;
    localStorage.setItem(LANG_KEY, state.lang);
    applyLang();
  });
}

on('io-export-pos', 'click', () => { if (state.game) $('io-text').value = state.game.position; });
for (const [id, format] of [['io-export-psq', 'psq'], ['io-export-diagram', 'diagram'], ['io-export-record', 'record'], ['io-export-sgf', 'sgf']]) {
  on(id, 'click', () => exportAs(format));
}
on('io-import', 'click', importText);

window.addEventListener('resize', () => { fitBoard(); renderBoard(state, tr()); });
setInterval(() => {
  const g = state.game;
  if (g && g.thinking) { renderInfo(state, tr(), performance.now()); renderEvalBar(state, tr()); }
  if (g && g.clock && g.clock.running) renderClocks(state, tr(), performance.now());
}, 100);

wireExplorer(explorer, session, {
  play: playMove,
  openGame: (id, node) => session.openLibraryGame(id, node),
  render: renderLibrary,
  saveOption: (on) => localStorage.setItem(EXPLORER_KEY, on ? '1' : '0'),
});
wireNotes(session, render);
libraryPanel.wire();
wireDialogs();
loadSettings(localStorage);
applyLang();
start();
