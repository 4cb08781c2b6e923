// The game's tree of moves as the server sends it (`game.tree`: nodes with their children,
// the main line first; `current`, the node on the board; `first`, the earliest node one may go
// back to) and what the page reads from it: where the arrows lead, which line is the main
// one, and the move list's layout. Nothing here touches the page.

/** The tree's nodes by id. */
export function indexTree(game) {
  return new Map(((game && game.tree && game.tree.nodes) || []).map((n) => [n.id, n]));
}

/** The node on the board. */
export function currentNode(game) {
  return game && game.tree ? game.tree.current : 0;
}

/** The earliest node one may go back to. */
export function firstNode(game) {
  return game && game.tree ? game.tree.first : 0;
}

/** The moves of a set-up start position: its stones, not moves of the game. */
export function startPlies(game) {
  return (game && game.setup_plies) || 0;
}

/** The line shown: the moves on the board, then those after them (what redo replays). */
export function lineMoves(game) {
  return game ? game.moves.concat(game.continuation || []) : [];
}

/** The node one step `where` (`first`, `prev`, `next`, `last`) along the line shown, or null
 * when there is none that way. */
export function stepTarget(game, index, where) {
  if (!game) return null;
  const here = currentNode(game);
  const first = firstNode(game);
  const ahead = game.continuation || [];
  switch (where) {
    case 'first': return here === first ? null : first;
    case 'prev': return here === first || !index.has(here) ? null : index.get(here).parent;
    case 'next': return ahead.length ? ahead[0].node : null;
    case 'last': return ahead.length ? ahead[ahead.length - 1].node : null;
    default: return null;
  }
}

/** Whether node `id` is on the main line (every node on its way from the start is its
 * parent's first child). */
export function onMainLine(index, id) {
  for (let n = id; n !== 0 && index.has(n); n = index.get(n).parent) {
    const parent = index.get(index.get(n).parent);
    if (parent && parent.children[0] !== n) return false;
  }
  return true;
}

/** The node of the position before move `number` of the line shown (null when it is not on
 * the line). */
export function nodeBefore(game, number) {
  const line = lineMoves(game);
  const k = number - 1;
  return k <= startPlies(game) ? 0 : (line[k - 1] ? line[k - 1].node : null);
}

/** The move list's layout from node `from`: each move of the line (`{move: id}`), and after
 * each move that has others tried in its place, those lines (`{variation: id, items}`), each
 * laid out the same way. A node's first child is its main line. */
export function layout(index, from = 0) {
  const items = [];
  let at = from;
  for (;;) {
    const node = index.get(at);
    if (!node || !node.children.length) return items;
    const [main, ...others] = node.children;
    items.push({ move: main });
    for (const o of others) items.push({ variation: o, items: [{ move: o }, ...layout(index, o)] });
    at = main;
  }
}
