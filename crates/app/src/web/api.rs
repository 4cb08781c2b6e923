//! The JSON handlers. Each looks the game up, applies one action under the game's lock and
//! answers with the new state; every failure is an [`ApiError`] and leaves the game unchanged.

use super::error::ApiError;
use super::games::{
    lock, AnalyzeRequest, GameView, MoveRequest, NewGame, RenjuRequest, ResignRequest,
    ReviewRequest, Settings, Slot, SolveRequest, Swap2Request,
};
use super::AppState;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;
use serde::Deserialize;

type ApiResult<T> = Result<T, ApiError>;

/// Reads a JSON body; an empty body means "all defaults" when `T` has them.
pub(super) fn parse_body<T: DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
    empty: Option<T>,
) -> ApiResult<T> {
    let bytes = body
        .map_err(|e| ApiError::bad_request("bad_request", format!("cannot read the body: {e}")))?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        if let Some(d) = empty {
            return Ok(d);
        }
        return Err(ApiError::bad_request(
            "malformed_json",
            "this request needs a JSON body",
        ));
    }
    // every body is an object: serde would also fill a struct from an array, field by field
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(ApiError::bad_request(
            "malformed_json",
            "the body must be a JSON object ({...})",
        ));
    }
    serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad_request("malformed_json", format!("malformed JSON: {e}")))
}

/// Runs `f` on the game and answers with its new state.
pub(super) fn act(
    state: &AppState,
    id: &str,
    f: impl FnOnce(&mut Slot) -> ApiResult<()>,
) -> ApiResult<Json<GameView>> {
    let slot = state.games.get(id)?;
    let mut s = lock(&slot);
    f(&mut s)?;
    // a change that could not be written to the library is not acknowledged as kept
    s.take_library_error()?;
    Ok(Json(s.view()))
}

pub(super) async fn create(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<(StatusCode, Json<GameView>)> {
    let req: NewGame = parse_body(body, Some(NewGame::default()))?;
    let view = state.games.create(&req)?;
    Ok((StatusCode::CREATED, Json(view)))
}

pub(super) async fn state(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<GameView>> {
    act(&state, &id, |s| {
        s.touch();
        Ok(())
    })
}

pub(super) async fn delete(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    state.games.remove(&id)?;
    Ok(StatusCode::NO_CONTENT)
}

pub(super) async fn play(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<GameView>> {
    // the game must exist before the body matters: an unknown game is a 404 whatever is sent
    state.games.get(&id)?;
    let req: MoveRequest = parse_body(body, None)?;
    act(&state, &id, |s| s.play(&req))
}

pub(super) async fn undo(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<GameView>> {
    act(&state, &id, Slot::undo)
}

pub(super) async fn redo(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<GameView>> {
    act(&state, &id, Slot::redo)
}

pub(super) async fn hint(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<GameView>> {
    act(&state, &id, Slot::hint)
}

pub(super) async fn go(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<GameView>> {
    act(&state, &id, Slot::go)
}

pub(super) async fn stop(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<GameView>> {
    act(&state, &id, Slot::stop)
}

pub(super) async fn resign(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<GameView>> {
    state.games.get(&id)?;
    let req: ResignRequest = parse_body(body, Some(ResignRequest::default()))?;
    act(&state, &id, |s| s.resign(&req))
}

pub(super) async fn analyze(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<GameView>> {
    state.games.get(&id)?;
    let req: AnalyzeRequest = parse_body(body, Some(AnalyzeRequest::default()))?;
    act(&state, &id, |s| s.analyze(&req))
}

pub(super) async fn review(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<GameView>> {
    state.games.get(&id)?;
    let req: ReviewRequest = parse_body(body, Some(ReviewRequest::default()))?;
    act(&state, &id, |s| s.review(&req))
}

pub(super) async fn solve(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<GameView>> {
    state.games.get(&id)?;
    let req: SolveRequest = parse_body(body, Some(SolveRequest::default()))?;
    act(&state, &id, |s| s.solve(&req))
}

pub(super) async fn swap(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<GameView>> {
    act(&state, &id, Slot::swap)
}

pub(super) async fn swap2(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<GameView>> {
    state.games.get(&id)?;
    let req: Swap2Request = parse_body(body, None)?;
    act(&state, &id, |s| s.swap2_choice(&req))
}

pub(super) async fn renju(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<GameView>> {
    state.games.get(&id)?;
    let req: RenjuRequest = parse_body(body, None)?;
    act(&state, &id, |s| s.renju_action(&req))
}

pub(super) async fn settings(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<GameView>> {
    state.games.get(&id)?;
    let req: Settings = parse_body(body, Some(Settings::default()))?;
    act(&state, &id, |s| s.settings(&req))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ExportQuery {
    format: Option<String>,
    download: Option<bool>,
}

pub(super) async fn export(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<ExportQuery>, QueryRejection>,
) -> ApiResult<Response> {
    let slot = state.games.get(&id)?;
    let Query(q) = query.map_err(|e| ApiError::bad_request("bad_request", e.body_text()))?;
    let mut s = lock(&slot);
    s.touch();
    let (text, ext) = match q.format.as_deref().unwrap_or("position") {
        "position" | "pos" | "text" => (s.position() + "\n", "txt"),
        "psq" => (s.psq()?, "psq"),
        "diagram" => (s.diagram(), "txt"),
        "record" | "line" => (s.record() + "\n", "txt"),
        "sgf" => (s.sgf(), "sgf"),
        other => {
            return Err(ApiError::bad_request(
                "bad_request",
                format!("'{other}': the export format is position, psq, diagram, record or sgf"),
            ))
        }
    };
    let mut resp = ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response();
    if q.download.unwrap_or(false) {
        let value = format!("attachment; filename=\"gomoku.{ext}\"");
        if let Ok(v) = header::HeaderValue::from_str(&value) {
            resp.headers_mut().insert(header::CONTENT_DISPOSITION, v);
        }
    }
    Ok(resp)
}

pub(super) async fn not_found() -> ApiError {
    ApiError {
        status: StatusCode::NOT_FOUND,
        code: "not_found",
        message: "no such page or API endpoint".to_string(),
    }
}

pub(super) async fn method_not_allowed() -> ApiError {
    ApiError {
        status: StatusCode::METHOD_NOT_ALLOWED,
        code: "method_not_allowed",
        message: "this endpoint does not take this method".to_string(),
    }
}
