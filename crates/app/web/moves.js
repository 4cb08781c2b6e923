// The move list: the game's tree as the main line from the start, and after each move that
// has others tried in its place, those lines in boxes of their own. The line shown (the
// board's moves and the moves after them) stands out, the move on the board is marked, and
// a click on any move shows the board after it. Under it, the buttons that step along the
// line, make it the main line or delete it.

import { reviewByNumber, inOpening } from './game-state.js';
import { currentNode, firstNode, startPlies, lineMoves, layout, onMainLine } from './tree.js';
import { evalText } from './words.js';
import { scaleOf } from './evaluation.js';
import { $, html } from './dom.js';

/** The entry of the set-up position's stones, which shows the board before the first move. */
function setupEntry(t, game, here) {
  const stones = game.moves.slice(0, startPlies(game)).filter((m) => m.x !== null && m.x !== undefined);
  return html('span', 'setup' + (here === 0 ? ' current' : ''), t('setup.entry', {
    black: stones.filter((m) => m.color === 'black').length,
    white: stones.filter((m) => m.color === 'white').length,
  }), { testid: 'setup-entry', node: '0' });
}

/** One move of the list, with its review verdict or its engine value as a tip. */
function moveEntry(t, game, ctx, id) {
  const node = ctx.index.get(id);
  const m = ctx.byNode.get(id);
  const cls = 'mv ' + node.color + (ctx.played.has(id) ? ' played' : '') + (ctx.ahead.has(id) ? ' ahead' : '')
    + (id === ctx.here ? ' current' : '') + (m ? '' : ' off-line') + (node.comment ? ' has-comment' : '');
  const span = html('span', cls, null, { testid: 'move', node: String(id), move: node.move, number: String(node.number) });
  if (ctx.played.has(id)) span.dataset.played = 'yes';
  span.append(html('span', 'n', node.number + '.'), html('span', 'pt', node.move));
  const v = m && ctx.verdicts.get(m.number);
  const scale = scaleOf(game);
  const value = (score) => evalText(t, { score, color: v.color }, scale);
  if (v) {
    span.dataset.verdict = v.verdict;
    span.title = t('review.tip', {
      verdict: t('verdict.' + v.verdict), value: value(v.score),
      best: v.best, bestValue: value(v.best_score), loss: Math.round(v.loss * 100),
    });
    if (v.mark) span.append(html('span', 'mark', v.mark));
  } else if (m && m.engine) {
    span.title = evalText(t, m.engine, scale);
  }
  if (node.comment) span.title = (span.title ? span.title + '\n' : '') + node.comment;
  return span;
}

/** Puts the items of `layout` in `box`. */
function fill(t, game, ctx, box, items) {
  for (const item of items) {
    if (item.move !== undefined) {
      box.appendChild(moveEntry(t, game, ctx, item.move));
      continue;
    }
    const sub = html('div', 'variation' + (ctx.byNode.has(item.variation) ? ' on-line' : ''), null,
      { testid: 'variation', node: String(item.variation) });
    fill(t, game, ctx, sub, item.items);
    box.appendChild(sub);
  }
}

/** Scrolls the move on the board into view, inside the list only (never the page). */
function keepInView(list) {
  const cur = list.querySelector('.current');
  if (!cur) return;
  const top = cur.offsetTop - list.offsetTop;
  if (top < list.scrollTop) list.scrollTop = top - 4;
  else if (top + cur.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + cur.offsetHeight - list.clientHeight + 4;
}

/** Draws the list and its buttons for the session's state `s`. */
export function renderMoves(s, t) {
  const list = $('moves');
  list.textContent = '';
  const game = s.game;
  if (!game || !game.tree) return;
  const here = currentNode(game);
  const ctx = {
    index: s.index,
    here,
    verdicts: reviewByNumber(game),
    played: new Set(game.moves.map((m) => m.node)),
    ahead: new Set((game.continuation || []).map((m) => m.node)),
    byNode: new Map(lineMoves(game).filter((m) => m.node !== null).map((m) => [m.node, m])),
  };
  if (startPlies(game) > 0) list.appendChild(setupEntry(t, game, here));
  fill(t, game, ctx, list, layout(s.index, 0));
  keepInView(list);
  const nav = (id, off) => { $(id).disabled = off || !!s.setup; };
  const first = firstNode(game);
  const atEnd = !(game.continuation || []).length;
  nav('nav-first', here === first);
  nav('nav-prev', here === first);
  nav('nav-next', atEnd);
  nav('nav-last', atEnd);
  // a line can be promoted when it is not the main line, deleted from any move after the start
  const busy = inOpening(game) || !!s.setup;
  nav('btn-promote', busy || onMainLine(s.index, here));
  nav('btn-delete', busy || here === 0 || here === first);
}
