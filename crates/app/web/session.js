// The page's state and its one owner. A Session holds the game as the server last sent it,
// the search under way, and what the person is doing on the page (setting up a position, a
// point tapped once, the pointer on a line); it sends the person's actions to the server and
// follows the game's events. It never touches the page: it calls the `view` it is given
// (`render()`, `renderLive()`, `showError(err)`, `clearError()`, `newGame(state)`) and the
// renderers read `session.state`.

import * as api from './api.js';
import * as library from './library-api.js';
import { indexTree, currentNode, stepTarget } from './tree.js';

/** The state of a page before any game: `lang` its language, `options` the board's boxes. */
export function emptyState(lang, options) {
  return {
    lang,
    game: null,         // the latest state from the server
    index: new Map(),   // the game's tree: node id -> node
    live: null,         // the latest search progress while the engine thinks
    thinkSince: 0,      // when the current search started (local clock)
    clockAt: 0,         // when the state's clock was read (local clock)
    liveUpdates: 0,     // search progress events received
    owned: false,       // whether this tab created the current game (and may delete it)
    setup: null,        // setting up a position: { size, stones: Map point -> colour, tool }
    pending: null,      // small cells: the point tapped once, waiting for the second tap
    hoverPoint: null,   // the point under the pointer (for the heat map's number)
    hoverLine: null,    // the pointer on a candidate ({move}) or on the best line ({best: true})
    library: null,      // the server's library: {enabled, path, games, ...}
    explorer: null,     // the explorer's answer for a position: {key, answer}
    stored: null,       // the library's analysis of a position: {key, info} (info null: none)
    hoverExplorer: null, // the pointer on a move of the explorer
    labeling: null,     // putting labels on the board: 'letter' or 'mark'
    options: { numbers: false, showLine: false, heat: true, explorerMarks: true, ...options },
  };
}

export class Session {
  constructor(state, view, now = () => performance.now()) {
    this.state = state;
    this.view = view;
    this.now = now;
    this.events = null;
  }

  /** Takes a state sent by the server. An older version of the same game is ignored, unless
   * it is `fresh`: the server's current state, which after the server started again (the game
   * read back from the library) counts its versions from the start again. */
  setGame(next, fresh = false) {
    const s = this.state;
    if (!next || typeof next !== 'object') return;
    const game = s.game;
    if (game && next.id === game.id && next.version < game.version && !fresh) return; // stale
    const wasThinking = game && game.id === next.id && game.thinking;
    const other = !game || game.id !== next.id;
    if (other || game.version !== next.version) s.pending = null;
    s.game = next;
    s.index = indexTree(next);
    s.clockAt = this.now();
    if (next.thinking) {
      if (!wasThinking) s.thinkSince = this.now() - (next.thinking.elapsed_ms || 0);
      if (next.live) s.live = next.live;
    } else {
      s.live = null;
    }
    this.view.gameChanged(next, other);
    this.view.render();
  }

  /** Search progress of the game's engine. */
  setLive(info) {
    const s = this.state;
    if (!s.game || !s.game.thinking) return;
    s.live = info;
    s.liveUpdates += 1;
    this.view.renderLive();
  }

  /** Sends an action on the game (`/move`, `/undo`...) and takes the new state. */
  async act(path, body) {
    const game = this.state.game;
    if (!game) return;
    try {
      // (an answer while the events do not come in may be from a server started again)
      const events = this.events;
      this.setGame(await api.act(game.id, path, body), !!events && !api.connected(events));
      this.view.clearError();
    } catch (e) {
      this.view.showError(e);
      if (e.code === 'unknown_game') this.state.game = null;
    }
  }

  /** Follows game `id`'s events (and no other's). */
  follow(id) {
    if (this.events) this.events.close();
    this.events = api.follow(id, {
      state: (state, first) => this.setGame(state, first),
      info: (info) => this.setLive(info),
      closed: () => this.view.showError({ code: 'closed' }),
      lost: async () => {
        const game = this.state.game;
        if (!game) return;
        try { await api.getGame(game.id); this.follow(game.id); } catch (e) { this.view.showError(e); }
      },
    });
  }

  /** Starts a new game from `body`; true when the server made it. The game this tab made
   * before goes. */
  newGame(body) {
    return this.start(() => api.createGame(body));
  }

  /** Opens library game `id` on the board (at node `node` of its tree, or the end of its
   * main line): a new game of this tab; true when the server made it. */
  openLibraryGame(id, node) {
    return this.start(() => library.open(id, node));
  }

  /** Takes the new game `make()` answers as this tab's own; the game this tab made before
   * goes (from the server, not from the library). */
  async start(make) {
    const s = this.state;
    try {
      const state = await make();
      const old = s.owned ? s.game : null;
      s.owned = true;
      s.game = null;
      s.live = null;
      s.setup = null;
      s.labeling = null;
      this.setGame(state);
      this.view.newGame(state);
      this.follow(state.id);
      this.view.clearError();
      if (old && old.id !== state.id) api.deleteGame(old.id);
      return true;
    } catch (e) {
      this.view.showError(e);
      return false;
    }
  }

  /** Sets the comment (`{comment}`) or the labels (`{labels}`) of node `node`. */
  note(node, what) {
    return this.act('/note', { node, ...what });
  }

  /** Opens game `id` (this tab's own unless `shared`); false when it is gone. */
  async open(id, shared) {
    try {
      this.setGame(await api.getGame(id));
      this.state.owned = !shared;
      this.follow(id);
      return true;
    } catch (e) {
      return false;
    }
  }

  /** Shows node `id` of the tree: the server puts the board there. */
  goTo(id) {
    const s = this.state;
    if (!s.game || s.setup || id === null || id === undefined || id === currentNode(s.game) || !s.index.has(id)) return;
    this.act('/goto', { node: id });
  }

  /** One move back or forward along the line shown (`prev`, `next`), or to its ends. */
  step(where) {
    this.goTo(stepTarget(this.state.game, this.state.index, where));
  }
}
