// The library on the server: the JSON API under /api/library (the list of games and their
// filters, a game renamed, deleted and restored, opened on the board, the explorer and the
// stored analysis of a position, imports and exports). A refused request throws the server's
// error, as api.js does.

import { request } from './api.js';

const LIBRARY = '/api/library';

/** Where the library is and its figures (`{enabled: false}` without one). */
export function info() {
  return request('GET', LIBRARY);
}

/** The games a filter takes: `query` is a query string (`rule=renju&player=ann`). */
export function list(query) {
  return request('GET', LIBRARY + '/games' + (query ? '?' + query : ''));
}

/** Renames game `id`; answers its summary. */
export function rename(id, name) {
  return request('PATCH', LIBRARY + '/games/' + id, { name });
}

/** Deletes game `id` so that it can be restored. */
export function remove(id) {
  return request('DELETE', LIBRARY + '/games/' + id);
}

/** Restores deleted game `id`. */
export function restore(id) {
  return request('POST', LIBRARY + '/games/' + id + '/restore', {});
}

/** A new game of the board from game `id`, at node `node` of its tree (null: the end of its
 * main line): the board's state. */
export function open(id, node) {
  return request('POST', LIBRARY + '/games/' + id + '/open', node === null || node === undefined ? {} : { node });
}

/** The explorer of a position (`query`: `rule=..&size=..&moves=..`, and `limit`). */
export function explore(query) {
  return request('GET', LIBRARY + '/explorer?' + query);
}

/** The stored analysis of a position (`{analysis: null}` when there is none). */
export function analysis(query) {
  return request('GET', LIBRARY + '/analysis?' + query);
}

/** Imports one file: its `name` and its bytes in `base64`; `rule` for records that name
 * none. Answers the import's report. */
export function importFile(name, base64, rule) {
  return request('POST', LIBRARY + '/import', { files: [{ name, base64 }], rule });
}

/** The address of game `id` as SGF, to download. */
export function gameExportUrl(id) {
  return LIBRARY + '/games/' + id + '/export?download=true';
}

/** The address of the games a filter takes (`query`; all of them when empty) as one SGF
 * collection, to download. */
export function exportUrl(query) {
  return LIBRARY + '/export?' + (query ? query + '&' : '') + 'download=true';
}
