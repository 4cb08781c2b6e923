//! The one error type of the web API: every failure becomes a 4xx (or 5xx) response with a JSON
//! body `{"error": {"code": "...", "message": "..."}}`. Internal details never reach the client.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use std::fmt;

/// An API error: an HTTP status, a stable machine-readable code and a message for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable code (`unknown_game`, `occupied`, `not_your_turn`, ...) that pages can translate.
    pub code: &'static str,
    /// A readable explanation (English).
    pub message: String,
}

impl ApiError {
    /// 400: the request itself is wrong (malformed JSON, a bad coordinate, bad settings).
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            code,
            message: message.into(),
        }
    }

    /// 404: no game with this id (never existed, deleted, or cleaned up after idling).
    pub fn unknown_game(id: &str) -> ApiError {
        // the id is echoed shortened: it came from outside and may be anything
        let shown: String = id.chars().take(40).collect();
        ApiError {
            status: StatusCode::NOT_FOUND,
            code: "unknown_game",
            message: format!("no game '{shown}' (it may have been cleaned up after idling)"),
        }
    }

    /// 409: the request is well formed but conflicts with the state of the game.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::CONFLICT,
            code,
            message: message.into(),
        }
    }

    /// 503: the server is at capacity.
    pub fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            code: "busy",
            message: message.into(),
        }
    }

    /// 500: something failed inside; the detail goes to the server's log, not to the client.
    pub fn internal(detail: impl fmt::Display) -> ApiError {
        eprintln!("gomoku serve: internal error: {detail}");
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            code: "internal",
            message: "internal error".to_string(),
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.status.as_u16(),
            self.code,
            self.message
        )
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({ "error": { "code": self.code, "message": self.message } });
        (self.status, Json(body)).into_response()
    }
}
