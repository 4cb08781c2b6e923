//! The web API without a socket, for the integration tests: a router on a small table, one
//! request and its answer as JSON, a new game, and polling a game until a condition holds.
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
