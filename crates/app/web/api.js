// The server: the JSON API under /api/games and the game's server-sent events. A refused
// request throws the server's error (`{code, message, status}`); a request that does not
// reach the server throws `{code: 'network'}`.

const GAMES = '/api/games';

/** Sends `method path` with `body` as JSON and returns the JSON answer. */
export async function request(method, path, body) {
  let resp;
  try {
    resp = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw { code: 'network', message: String(e) };
  }
  const text = await resp.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = text; }
  if (!resp.ok) {
    const err = (data && data.error) || { code: 'http', message: resp.status + ' ' + text };
    err.status = resp.status;
    throw err;
  }
  return data;
}

/** A new game from `body` (the settings, and a position to start from). */
export function createGame(body) {
  return request('POST', GAMES, body);
}

/** The state of game `id`. */
export function getGame(id) {
  return request('GET', GAMES + '/' + id);
}

/** An action on game `id` (`/move`, `/undo`...): the new state. */
export function act(id, path, body) {
  return request('POST', GAMES + '/' + id + path, body);
}

/** Ends game `id`, not waiting for the answer (the page does not need it any more). */
export function deleteGame(id) {
  fetch(GAMES + '/' + id, { method: 'DELETE' }).catch(() => {});
}

/** The address of game `id` as text in `format` (`download` asks the browser to save it). */
export function exportUrl(id, format, download) {
  return GAMES + '/' + id + '/export?format=' + format + (download ? '&download=true' : '');
}

/** Game `id` as text in `format` (`psq`, `sgf`, `diagram`, `record`). */
export async function exportText(id, format) {
  let resp;
  try {
    resp = await fetch(exportUrl(id, format));
  } catch (e) {
    throw { code: 'network', message: String(e) };
  }
  const text = await resp.text();
  if (!resp.ok) {
    let err;
    try { err = JSON.parse(text).error; } catch (e) { err = null; }
    throw err || { code: 'http', message: resp.status + ' ' + text };
  }
  return text;
}

/** Follows game `id`'s events: `on.state(state, first)` (`first` for the first state of
 * each connection: the server's current state, which may come from a server started again),
 * `on.info(progress)`, `on.closed()`, and `on.lost()` when the connection closes for good.
 * Returns the EventSource (to close it). */
export function follow(id, on) {
  const events = new EventSource(GAMES + '/' + id + '/events');
  let first = true;
  events.addEventListener('open', () => { first = true; });
  events.addEventListener('state', (e) => {
    on.state(JSON.parse(e.data), first);
    first = false;
  });
  events.addEventListener('info', (e) => on.info(JSON.parse(e.data)));
  events.addEventListener('closed', () => {
    events.close();
    on.closed();
  });
  events.onerror = () => {
    if (events.readyState === EventSource.CLOSED) on.lost();
  };
  return events;
}

/** Whether the events of `events` (an EventSource) come in now: while they do not, the
 * server may be starting again. */
export function connected(events) {
  return !!events && events.readyState === 1;
}
