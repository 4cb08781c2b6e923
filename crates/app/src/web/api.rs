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

/// Runs an action that reads a JSON body on the game. The game must exist before the body
/// matters (an unknown game is a 404 whatever is sent); an empty body is `empty`, if given.
pub(super) fn act_on_body<T: DeserializeOwned>(
    state: &AppState,
    id: &str,
    body: Result<Bytes, BytesRejection>,
    empty: Option<T>,
    action: impl FnOnce(&mut Slot, &T) -> ApiResult<()>,
) -> ApiResult<Json<GameView>> {
    state.games.get(id)?;
    let req: T = parse_body(body, empty)?;
    act(state, id, |s| action(s, &req))
}

/// Handlers that each run one action of the game and answer with its new state:
/// `name => action` for an action without a body, `name(Request, empty) => action` for one
/// that reads a `Request` from the JSON body (`empty`: the request an empty body stands for,
/// or `None` when the body is required).
macro_rules! game_actions {
    ($($name:ident => $action:expr;)*) => {$(
        pub(super) async fn $name(
            axum::extract::State(state): axum::extract::State<super::AppState>,
            axum::extract::Path(id): axum::extract::Path<String>,
        ) -> Result<axum::Json<super::games::GameView>, super::error::ApiError> {
            super::api::act(&state, &id, $action)
        }
    )*};
    ($($name:ident($req:ty, $empty:expr) => $action:expr;)*) => {$(
        pub(super) async fn $name(
            axum::extract::State(state): axum::extract::State<super::AppState>,
            axum::extract::Path(id): axum::extract::Path<String>,
            body: Result<axum::body::Bytes, axum::extract::rejection::BytesRejection>,
        ) -> Result<axum::Json<super::games::GameView>, super::error::ApiError> {
            super::api::act_on_body::<$req>(&state, &id, body, $empty, $action)
        }
    )*};
}
pub(super) use game_actions;

game_actions! {
    undo => Slot::undo;
    redo => Slot::redo;
    hint => Slot::hint;
    go => Slot::go;
    stop => Slot::stop;
    swap => Slot::swap;
}

game_actions! {
    play(MoveRequest, None) => Slot::play;
    resign(ResignRequest, Some(ResignRequest::default())) => Slot::resign;
    analyze(AnalyzeRequest, Some(AnalyzeRequest::default())) => Slot::analyze;
    review(ReviewRequest, Some(ReviewRequest::default())) => Slot::review;
    solve(SolveRequest, Some(SolveRequest::default())) => Slot::solve;
    swap2(Swap2Request, None) => Slot::swap2_choice;
    renju(RenjuRequest, None) => Slot::renju_action;
    settings(Settings, Some(Settings::default())) => Slot::settings;
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
