//! The web server's API through the router, without a socket (`oneshot`), one module for each
//! resource: the page and its files, games and moves, the engine's replies, exports and
//! imports, server-sent events, analysis, the openings (swap2, the renju rules), reviews,
//! solves, the clock, the start positions (set up, diagrams, position lines) and the tree of a
//! game's lines; and every kind of bad request. The helpers are in `web_common`.

use axum::body::Body;
use axum::http::{header, Method, StatusCode};
use axum::Router;
use gomoku_app::web::{app, AppState, ServerConfig};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

#[path = "../web_common/mod.rs"]
mod web_common;
use web_common::*;

mod analysis;
mod clock;
mod diagram;
mod engine;
mod events;
mod games;
mod moves;
mod page;
mod position_line;
mod records;
mod renju;
mod review;
mod setup;
mod solve;
mod swap2;
mod tree;
