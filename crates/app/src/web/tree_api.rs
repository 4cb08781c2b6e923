//! The handlers of the game's tree of moves: showing a node, promoting or deleting a line,
//! a node's comment and labels.

use super::api::{act, parse_body};
use super::error::ApiError;
use super::games::{BranchRequest, GameView, GotoRequest, NoteRequest};
use super::AppState;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::Json;

pub(super) async fn goto(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<GameView>, ApiError> {
    state.games.get(&id)?;
    let req: GotoRequest = parse_body(body, None)?;
    act(&state, &id, |s| s.goto(&req))
}

pub(super) async fn branch(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<GameView>, ApiError> {
    state.games.get(&id)?;
    let req: BranchRequest = parse_body(body, None)?;
    act(&state, &id, |s| s.branch(&req))
}

pub(super) async fn note(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<GameView>, ApiError> {
    state.games.get(&id)?;
    let req: NoteRequest = parse_body(body, None)?;
    act(&state, &id, |s| s.note(&req))
}
