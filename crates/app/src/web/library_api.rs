//! The handlers of the library (`/api/library...`): where it is, the list of games with
//! filters, a game with its tree, its tags changed, deleted and restored, opened on the
//! board, the explorer and the stored analysis of a position, imports and exports. The
//! request and answer of each are in `docs/protocol.md`.

use super::api::parse_body;
use super::error::ApiError;
use super::AppState;
use crate::library::filter::{Filter, Summary};
use crate::library::game::{LibGame, ROOT};
use crate::library::store::TagsPatch;
use crate::library::symmetry::SymHash;
use crate::library::{Library, LibraryError};
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use gomoku_engine::notation::{check_size, format_pos, parse_moves};
use gomoku_engine::Rule;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::Arc;

type ApiResult<T> = Result<T, ApiError>;

/// The library of the server, or 404 `no_library`.
fn library(state: &AppState) -> ApiResult<Arc<Library>> {
    state.games.library().cloned().ok_or_else(|| ApiError {
        status: StatusCode::NOT_FOUND,
        code: "no_library",
        message: "this server keeps no library (it was started without one)".to_string(),
    })
}

/// A library failure: the caller's mistake (400 `bad_request`) or the file's (500).
fn bad(e: LibraryError) -> ApiError {
    ApiError::bad_request("bad_request", e.0)
}

fn failed(e: LibraryError) -> ApiError {
    ApiError::internal(e)
}

fn unknown(id: i64) -> ApiError {
    ApiError {
        status: StatusCode::NOT_FOUND,
        code: "unknown_library_game",
        message: format!("no game {id} in the library"),
    }
}

/// A library game's number from the path.
fn lib_id(text: &str) -> ApiResult<i64> {
    text.parse().map_err(|_| {
        let shown: String = text.chars().take(40).collect();
        ApiError {
            status: StatusCode::NOT_FOUND,
            code: "unknown_library_game",
            message: format!("no game '{shown}' in the library (games are numbered)"),
        }
    })
}

fn query<T>(q: Result<Query<T>, QueryRejection>) -> ApiResult<T> {
    q.map(|Query(v)| v)
        .map_err(|e| ApiError::bad_request("bad_request", e.body_text()))
}

/// `GET /api/library`: where the library is and its figures.
pub(super) async fn info(State(state): State<AppState>) -> ApiResult<Json<Value>> {
    let Some(lib) = state.games.library().cloned() else {
        return Ok(Json(json!({ "enabled": false })));
    };
    let stats = lib.stats().map_err(failed)?;
    let mut v = serde_json::to_value(stats).map_err(ApiError::internal)?;
    v["enabled"] = json!(true);
    Ok(Json(v))
}

/// `GET /api/library/games`: the games a filter takes.
pub(super) async fn list(
    State(state): State<AppState>,
    q: Result<Query<Filter>, QueryRejection>,
) -> ApiResult<Json<Value>> {
    let lib = library(&state)?;
    let filter = query(q)?;
    let (games, total) = lib.list(&filter).map_err(bad)?;
    Ok(Json(json!({ "total": total, "games": games })))
}

/// A node of a game as the API shows it.
#[derive(Serialize)]
struct NodeJson {
    id: u32,
    parent: Option<u32>,
    #[serde(rename = "move")]
    point: Option<String>,
    number: usize,
    color: Option<&'static str>,
    children: Vec<u32>,
    #[serde(skip_serializing_if = "String::is_empty")]
    comment: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    labels: Vec<Value>,
}

/// A game with its tree, as `GET /api/library/games/{id}` answers.
fn game_json(summary: &Summary, g: &LibGame) -> Value {
    let size = g.size;
    let start = g.black.len() + g.white.len();
    let mut nodes = Vec::new();
    for (id, depth) in g.tree.preorder() {
        let Some(n) = g.tree.get(id) else { continue };
        let color = (id != ROOT).then(|| {
            let c = if depth % 2 == 1 {
                g.to_move
            } else {
                g.to_move.opponent()
            };
            c.name()
        });
        nodes.push(NodeJson {
            id,
            parent: n.parent,
            point: (id != ROOT).then(|| format_pos(n.point, size)),
            number: start + depth,
            color,
            children: n.children.clone(),
            comment: n.note.comment.clone(),
            labels: n
                .note
                .labels
                .iter()
                .map(|l| json!({ "point": format_pos(l.point, size), "text": l.text }))
                .collect(),
        });
    }
    let points = |ps: &[gomoku_engine::Pos]| -> Vec<String> {
        ps.iter().map(|&p| format_pos(p, size)).collect()
    };
    json!({
        "game": summary,
        "setup": {
            "black": points(&g.black),
            "white": points(&g.white),
            "to_move": g.to_move.name(),
        },
        "main_line": g.tree.main_line(),
        "nodes": nodes,
    })
}

/// `GET /api/library/games/{id}`: a game with its whole tree.
pub(super) async fn game(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let id = lib_id(&id)?;
    let lib = library(&state)?;
    let stored = lib.load(id).map_err(failed)?.ok_or_else(|| unknown(id))?;
    let summary = lib
        .summary(id)
        .map_err(failed)?
        .ok_or_else(|| unknown(id))?;
    Ok(Json(game_json(&summary, &stored.game)))
}

/// `PATCH /api/library/games/{id}`: changes tags (`name` renames it).
pub(super) async fn patch(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<Summary>> {
    let id = lib_id(&id)?;
    let lib = library(&state)?;
    let req: TagsPatch = parse_body(body, None)?;
    if lib.summary(id).map_err(failed)?.is_none() {
        return Err(unknown(id));
    }
    lib.set_tags(id, &req).map_err(bad)?;
    Ok(Json(
        lib.summary(id)
            .map_err(failed)?
            .ok_or_else(|| unknown(id))?,
    ))
}

/// `DELETE /api/library/games/{id}`: deletes a game so that it can be restored.
pub(super) async fn delete(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let id = lib_id(&id)?;
    let lib = library(&state)?;
    if !lib.delete(id).map_err(failed)? {
        return Err(unknown(id));
    }
    Ok(Json(json!({
        "id": id,
        "deleted": true,
        "restore": format!("/api/library/games/{id}/restore"),
    })))
}

/// `POST /api/library/games/{id}/restore`: undoes a delete.
pub(super) async fn restore(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Summary>> {
    let id = lib_id(&id)?;
    let lib = library(&state)?;
    if !lib.restore(id).map_err(failed)? {
        return Err(ApiError {
            status: StatusCode::NOT_FOUND,
            code: "unknown_library_game",
            message: format!("no deleted game {id} in the library"),
        });
    }
    Ok(Json(
        lib.summary(id)
            .map_err(failed)?
            .ok_or_else(|| unknown(id))?,
    ))
}

/// The body of `POST /api/library/games/{id}/open` (optional).
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(super) struct OpenRequest {
    /// The node of the game's tree to show (the end of its main line when absent or not
    /// there).
    node: Option<usize>,
}

/// `POST /api/library/games/{id}/open`: a new game of the board from a library game.
pub(super) async fn open(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<(StatusCode, Json<super::games::GameView>)> {
    let id = lib_id(&id)?;
    library(&state)?;
    let req: OpenRequest = parse_body(body, Some(OpenRequest::default()))?;
    let view = state.games.open_library_game(id, req.node)?;
    Ok((StatusCode::CREATED, Json(view)))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DownloadQuery {
    download: Option<bool>,
}

/// SGF text as an answer, as a download when asked.
fn sgf_response(text: String, download: bool, name: &str) -> Response {
    let mut resp = (
        [(header::CONTENT_TYPE, "application/x-go-sgf; charset=utf-8")],
        text,
    )
        .into_response();
    if download {
        let value = format!("attachment; filename=\"{name}\"");
        if let Ok(v) = header::HeaderValue::from_str(&value) {
            resp.headers_mut().insert(header::CONTENT_DISPOSITION, v);
        }
    }
    resp
}

/// `GET /api/library/games/{id}/export`: one game as SGF.
pub(super) async fn export_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
    q: Result<Query<DownloadQuery>, QueryRejection>,
) -> ApiResult<Response> {
    let id = lib_id(&id)?;
    let lib = library(&state)?;
    let q = query(q)?;
    if lib.summary(id).map_err(failed)?.is_none() {
        return Err(unknown(id));
    }
    let text = lib.export_game(id).map_err(failed)?;
    Ok(sgf_response(
        text,
        q.download.unwrap_or(false),
        &format!("game-{id}.sgf"),
    ))
}

/// The query of `GET /api/library/export`: a filter, and whether to download.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(super) struct ExportQuery {
    rule: Option<String>,
    size: Option<usize>,
    player: Option<String>,
    opening: Option<String>,
    result: Option<String>,
    text: Option<String>,
    /// Comma-separated ids (instead of a filter).
    ids: Option<String>,
    download: Option<bool>,
}

/// `GET /api/library/export`: the games a filter takes (all without one) as one SGF collection.
pub(super) async fn export(
    State(state): State<AppState>,
    q: Result<Query<ExportQuery>, QueryRejection>,
) -> ApiResult<Response> {
    let lib = library(&state)?;
    let q = query(q)?;
    let ids: Vec<i64> = match &q.ids {
        Some(list) => list
            .split(',')
            .filter(|t| !t.trim().is_empty())
            .map(|t| {
                t.trim().parse::<i64>().map_err(|_| {
                    ApiError::bad_request("bad_request", format!("'{t}': ids are numbers"))
                })
            })
            .collect::<ApiResult<_>>()?,
        None => lib
            .ids(&Filter {
                rule: q.rule.clone(),
                size: q.size,
                player: q.player.clone(),
                opening: q.opening.clone(),
                result: q.result.clone(),
                text: q.text.clone(),
                ..Filter::default()
            })
            .map_err(bad)?,
    };
    // a large export reads the file for a while: off the server's own threads
    let out = tokio::task::spawn_blocking(move || {
        let mut out = Vec::new();
        lib.export_to(&ids, &mut out).map(|_| out)
    })
    .await
    .map_err(ApiError::internal)?
    .map_err(failed)?;
    let text = String::from_utf8(out).map_err(ApiError::internal)?;
    Ok(sgf_response(
        text,
        q.download.unwrap_or(false),
        "library.sgf",
    ))
}

/// A position in a query: `rule` (default freestyle), `size` (default 15) and the moves from
/// the empty board (`moves=h8 h9 i8`, commas or spaces, `--` a pass).
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(super) struct PositionQuery {
    rule: Option<String>,
    size: Option<usize>,
    moves: Option<String>,
    limit: Option<usize>,
    offset: Option<usize>,
}

impl PositionQuery {
    fn position(&self) -> ApiResult<SymHash> {
        let bad = |e: String| ApiError::bad_request("bad_position", e);
        let rule: Rule = match &self.rule {
            Some(r) => r
                .parse()
                .map_err(|e: gomoku_engine::NotationError| bad(e.to_string()))?,
            None => Rule::Freestyle,
        };
        let size = check_size(self.size.unwrap_or(15)).map_err(|e| bad(e.to_string()))?;
        let text = self.moves.as_deref().unwrap_or("").replace(',', " ");
        let moves = parse_moves(&text, size).map_err(|e| bad(e.to_string()))?;
        let mut seen = std::collections::HashSet::new();
        let mut h = SymHash::new(size, rule);
        for p in moves {
            if p.is_point() && !seen.insert(p) {
                return Err(bad(format!("{} is played twice", format_pos(p, size))));
            }
            h.play(p);
        }
        Ok(h)
    }
}

/// The most games the explorer lists at once.
const EXPLORER_LIST_MAX: usize = 200;

/// `GET /api/library/explorer`: the games through a position and the moves played there.
pub(super) async fn explorer(
    State(state): State<AppState>,
    q: Result<Query<PositionQuery>, QueryRejection>,
) -> ApiResult<Json<Value>> {
    let lib = library(&state)?;
    let q = query(q)?;
    let at = q.position()?;
    let started = std::time::Instant::now();
    let limit = q.limit.unwrap_or(20).min(EXPLORER_LIST_MAX);
    let found = lib
        .explore(&at, limit, q.offset.unwrap_or(0))
        .map_err(failed)?;
    let mut v = serde_json::to_value(found).map_err(ApiError::internal)?;
    v["ms"] = json!(started.elapsed().as_secs_f64() * 1000.0);
    Ok(Json(v))
}

/// `GET /api/library/analysis`: the stored analysis of a position, in its orientation.
pub(super) async fn analysis(
    State(state): State<AppState>,
    q: Result<Query<PositionQuery>, QueryRejection>,
) -> ApiResult<Json<Value>> {
    let lib = library(&state)?;
    let q = query(q)?;
    let at = q.position()?;
    let a = lib.analysis(&at).map_err(failed)?;
    Ok(Json(json!({ "analysis": a.map(|a| a.view(at.size())) })))
}

/// A file of an import: its name, and its text or its bytes in base64.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct UploadFile {
    name: String,
    text: Option<String>,
    base64: Option<String>,
}

/// The body of `POST /api/library/import`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ImportRequest {
    files: Vec<UploadFile>,
    /// The rule of records that name none (default freestyle).
    rule: Option<String>,
}

/// `POST /api/library/import`: files (SGF, PSQ, RenLib, position lines, zip files of them).
pub(super) async fn import(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<crate::library::import::ImportReport>> {
    let lib = library(&state)?;
    let req: ImportRequest = parse_body(body, None)?;
    let rule: Rule = match &req.rule {
        Some(r) => r.parse().map_err(|e: gomoku_engine::NotationError| {
            ApiError::bad_request("bad_request", e.to_string())
        })?,
        None => Rule::Freestyle,
    };
    let mut report = crate::library::import::ImportReport::default();
    for f in &req.files {
        let bytes = match (&f.text, &f.base64) {
            (Some(t), None) => t.as_bytes().to_vec(),
            (None, Some(b)) => base64(b)
                .map_err(|e| ApiError::bad_request("bad_request", format!("{}: {e}", f.name)))?,
            _ => {
                return Err(ApiError::bad_request(
                    "bad_request",
                    format!("{}: give its text or its base64, one of them", f.name),
                ))
            }
        };
        let (lib, name) = (lib.clone(), f.name.clone());
        let one = tokio::task::spawn_blocking(move || lib.import_bytes(&name, &bytes, rule))
            .await
            .map_err(ApiError::internal)?
            .map_err(failed)?;
        report.files += one.files;
        report.added += one.added;
        report.duplicates += one.duplicates;
        report.skipped += one.skipped;
        report.failed.extend(one.failed);
        report.ids.extend(one.ids);
    }
    Ok(Json(report))
}

/// Decodes standard base64 (padding optional, white space ignored).
fn base64(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0);
    for c in text
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
    {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return Err(format!("'{}' is no base64 character", char::from(c))),
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_decodes() {
        assert_eq!(super::base64("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(super::base64("aGVs bG8").unwrap(), b"hello");
        assert!(super::base64("a*").is_err());
    }
}
