// The opening rules' log in the players' words: each event the server keeps (who acted, what
// they did, and for the engine's decisions how it read the game) as a sentence of the page's
// language, the engine's values named by side as everywhere on the page. Nothing here
// touches the page.

import { judge } from './evaluation.js';
import { judgeText } from './words.js';

/** The name of who acted: you, the engine, or (two people at one board) the first or the
 * second player. */
function nameOf(t, e, twoPeople) {
  if (twoPeople && e.seat) return t('log.name.' + e.seat);
  return t(e.who === 'engine' ? 'log.name.engine' : 'log.name.you');
}

/** `s` with its first letter in capitals (English sentences start with a name). */
function capital(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** What a step taken back was. */
function undone(t, e) {
  const point = e.points && e.points[0];
  return t('log.undone.' + e.undone, { n: e.number, point });
}

/** The sentence of event `e` (without the engine's reading). */
function sentence(t, e, names) {
  const who = names(e);
  const point = (e.points || [])[0];
  const params = { who, point, n: e.number, count: e.count, color: e.color ? t('renju.' + e.color) : '', points: (e.points || []).join(' ') };
  switch (e.kind) {
    case 'undo': return t('log.undo', { who, what: undone(t, e) });
    case 'over': {
      const black = names({ ...e });
      const white = names({ ...e, seat: e.seat === 'first' ? 'second' : 'first', who: e.who === 'engine' ? 'person' : 'engine' });
      return t('log.over', { black, white, n: e.number });
    }
    case 'took': return t(point ? 'log.tookWith' : 'log.took', params);
    default: return t('log.' + e.kind, params);
  }
}

/** The log of `events` as sentences. `twoPeople`: two people share the board (names by
 * seat); `scale`: the K of the game's values. */
export function logLines(t, events, twoPeople, scale) {
  const names = (e) => nameOf(t, e, twoPeople);
  return (events || []).map((e) => {
    const s = capital(sentence(t, e, names));
    if (!e.reading) return s;
    // the reading inside the sentence, before its full stop
    const value = judgeText(t, judge(e.reading.score, e.reading.color, e.reading.mate, scale));
    const stop = /[.。]$/.exec(s);
    return (stop ? s.slice(0, -1) : s) + t('log.reading', { value }) + (stop ? stop[0] : '');
  });
}
