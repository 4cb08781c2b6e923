// The new-game form and the import box: the settings of a new game, kept in this browser,
// and what a pasted text is (a .psq record, SGF, a position line, a diagram or moves).

import { $ } from './dom.js';

const SETTINGS_KEY = 'gomoku.settings';

/** `{clock_ms, increment_ms}` of a clock choice: "300000+3000" is 5 minutes a side and 3 s
 * after each move; "" is no clock (`{}`). */
export function clockSetting(value) {
  const [total, inc] = String(value || '').split('+').map(Number);
  return total > 0 ? { clock_ms: total, increment_ms: inc || 0 } : {};
}

/** Whether `body` starts from a position rather than an empty board. */
function fromPosition(body) {
  return !!(body.psq || body.sgf || body.position || body.setup || body.diagram || body.record);
}

/** The request of a new game from the form's `settings` and `extra` (a position to start
 * from): a record says its own size (and rule), and the opening rules start from an empty
 * board (swap2 between a person and the engine only). */
export function newGameBody(settings, extra) {
  const body = Object.assign({}, settings, extra || {});
  for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
  if (body.psq) delete body.size;
  if (body.record) { delete body.size; delete body.rule; }
  if (body.sgf) {
    delete body.size;
    if (/\bRU\s*\[/.test(body.sgf)) delete body.rule;
  }
  if (body.opening === 'swap2' && (fromPosition(body) || body.black === body.white)) body.opening = 'free';
  if (body.opening !== 'swap2' && fromPosition(body)) body.opening = 'free';
  return body;
}

/** What a pasted `text` is, as the new game's request: `{psq}`, `{sgf}`, `{record}` (a
 * position line: size, rule, moves, `| key=value`), `{diagram}` (five rows or more of X, O
 * and .) or `{position}` (moves); null for an empty text. */
export function importRequest(text) {
  text = text.trim();
  if (!text) return null;
  const rows = text.split('\n').filter((l) => /^[\sXxOo.+\-_·●○#\[\]\d]*[XxOo.+\-_·●○#][\sXxOo.+\-_·●○#\[\]\d]*$/.test(l.trim()));
  if (/^piskvorky/i.test(text)) return { psq: text };
  if (/^\(\s*;/.test(text)) return { sgf: text };
  if (/^\d+\s+(freestyle|standard|renju|caro5|caro6)\b/i.test(text)) return { record: text.split('\n')[0] };
  if (rows.length >= 5) return { diagram: text, size: undefined };
  return { position: text };
}

/** The form's settings. */
export function formSettings() {
  const [black, white] = $('ng-mode').value.split('-');
  return {
    rule: $('ng-rule').value,
    size: Number($('ng-size').value),
    black, white,
    level: $('ng-level').value,
    time_ms: Number($('ng-time').value),
    opening: $('ng-opening').value,
    ...clockSetting($('ng-clock').value),
  };
}

/** Shows a game's own settings in the form (so that "Start" repeats them). */
export function showSettings(state) {
  const put = (id, v) => {
    const sel = $(id);
    v = String(v);
    if (![...sel.options].some((o) => o.value === v)) {
      const o = document.createElement('option');
      o.value = v;
      o.textContent = id === 'ng-time' ? (Number(v) / 1000) + ' s' : v + ' × ' + v;
      sel.appendChild(o);
    }
    sel.value = v;
  };
  put('ng-rule', state.rule);
  put('ng-size', state.size);
  put('ng-mode', state.players.black + '-' + state.players.white);
  put('ng-level', state.level);
  put('ng-time', state.time_ms);
}

const FIELDS = [['ng-rule', 'rule'], ['ng-size', 'size'], ['ng-mode', 'mode'], ['ng-level', 'level'],
  ['ng-time', 'time_ms'], ['ng-opening', 'opening'], ['ng-clock', 'clock']];

/** Keeps the form's settings in `storage`. */
export function saveSettings(storage) {
  const s = formSettings();
  s.mode = $('ng-mode').value;
  s.clock = $('ng-clock').value;
  storage.setItem(SETTINGS_KEY, JSON.stringify(s));
}

/** Puts the settings kept in `storage` in the form (those it still offers). */
export function loadSettings(storage) {
  try {
    const s = JSON.parse(storage.getItem(SETTINGS_KEY) || 'null');
    if (!s) return;
    for (const [id, key] of FIELDS) {
      const el = $(id);
      const v = s[key];
      if (v !== undefined && [...el.options].some((o) => o.value === String(v))) el.value = String(v);
    }
  } catch (e) { /* ignore a bad saved value */ }
}
