//! The web API without a socket, for the integration tests: a router on a small table, one
//! request and its answer as JSON, a new game, polling a game until a condition holds, the
//! moves of a game's state, and the checks of an error answer.
#![allow(dead_code)]

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use axum::Router;
use gomoku_app::web::{app, AppState, ServerConfig};
use http_body_util::BodyExt;
use serde_json::Value;
use std::time::{Duration, Instant};
use tower::ServiceExt;

pub fn router() -> (Router, AppState) {
    let state = AppState::new(ServerConfig {
        hash_mb: 4,
        ..ServerConfig::default()
    });
    (app(state.clone()), state)
}

/// One request; the answer's status and body (JSON when it parses, else a JSON string).
pub async fn call(
    app: &Router,
    method: Method,
    uri: &str,
    body: Option<&str>,
) -> (StatusCode, Value) {
    let req = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let v = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, v)
}

pub async fn post(app: &Router, uri: &str, body: Value) -> (StatusCode, Value) {
    call(app, Method::POST, uri, Some(&body.to_string())).await
}

pub async fn get(app: &Router, uri: &str) -> (StatusCode, Value) {
    call(app, Method::GET, uri, None).await
}

/// A GET whose answer is kept whole: its headers, and a body that may be a stream or not JSON.
pub async fn get_response(app: &Router, uri: &str) -> axum::response::Response {
    let req = Request::get(uri).body(Body::empty()).unwrap();
    app.clone().oneshot(req).await.unwrap()
}

/// Creates a game and returns its id and state.
pub async fn new_game(app: &Router, settings: Value) -> (String, Value) {
    let (status, v) = post(app, "/api/games", settings).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    (v["id"].as_str().unwrap().to_string(), v)
}

/// Polls the game until `done` holds (the engine runs on its own thread).
pub async fn wait_for(app: &Router, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let (status, v) = get(app, &format!("/api/games/{id}")).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        if done(&v) {
            return v;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "timed out waiting for {what}: {v}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A game of engine against engine at 2 s a move, once the engine is thinking.
pub async fn engine_moving(app: &Router) -> String {
    let (id, _) = new_game(
        app,
        serde_json::json!({"black": "engine", "white": "engine", "time_ms": 2000}),
    )
    .await;
    wait_for(app, &id, "the engine thinking", |v| {
        v["thinking"]["purpose"] == "move"
    })
    .await;
    id
}

/// The points of a list of moves of a game's state.
pub fn points(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect()
}

/// The moves on the board.
pub fn moves(v: &Value) -> Vec<String> {
    points(&v["moves"])
}

/// The moves after those on the board on the line shown (redo's).
pub fn continuation(v: &Value) -> Vec<String> {
    points(&v["continuation"])
}

/// The line shown: the moves on the board, then those after them.
pub fn line(v: &Value) -> Vec<String> {
    let mut out = moves(v);
    out.extend(continuation(v));
    out
}

/// The code of an error answer.
pub fn error_code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("<no error code>")
}

/// Asserts a 4xx JSON error with this status and code, and a message for people.
pub fn assert_error(status: StatusCode, v: &Value, want: StatusCode, code: &str) {
    assert_eq!(status, want, "{v}");
    assert_eq!(error_code(v), code, "{v}");
    assert!(
        v["error"]["message"].as_str().is_some_and(|m| m.len() > 10),
        "a message for people: {v}"
    );
}
