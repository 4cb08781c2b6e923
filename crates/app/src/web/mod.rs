//! The web board: `gomoku serve`. An axum server with a JSON API under `/api`, server-sent events
//! for live engine output, and the page itself (HTML, CSS and JavaScript embedded in the binary
//! from `crates/app/web/`, so nothing is fetched from anywhere else).
//!
//! API (all bodies JSON; errors are `{"error": {"code", "message"}}` with a 4xx status):
//!
//! | request | does |
//! |---|---|
//! | `POST /api/games` | new game: `rule`, `size`, `black`/`white` (`person`/`engine`), `level`, `time_ms`, `position` or `psq`, `opening` (`free`, `swap2`, `soosorv8` or `taraguchi10`), `clock_ms` and `increment_ms` (a game clock) |
//! | `GET /api/games/{id}` | the state |
//! | `DELETE /api/games/{id}` | ends the game |
//! | `POST /api/games/{id}/move` | `{"move": "h8"}` (or `"7,7"`), optional `"color"` |
//! | `POST /api/games/{id}/undo`, `/redo` | take back / replay (a move and the engine's reply) |
//! | `POST /api/games/{id}/hint` | the engine suggests a move for the side to move |
//! | `POST /api/games/{id}/go`, `/stop` | the engine plays the side to move / moves now |
//! | `POST /api/games/{id}/swap2` | `{"choice": "black" \| "white" \| "more"}`: the person's choice in a swap2 opening |
//! | `POST /api/games/{id}/renju` | `{"action": "swap" \| "keep"}` or `{"action": "declare", "count": 3}`: the person's step in a renju opening rule that is not a point (points go to `/move`: a stone, an offer, or the offer chosen) |
//! | `POST /api/games/{id}/analyze` | `{"on": true}` (the default) or `false`: analysis mode, every candidate's exact value whenever the engine is idle |
//! | `POST /api/games/{id}/resign`, `/swap` | resign (optional `color`) / exchange sides |
//! | `POST /api/games/{id}/settings` | `level`, `time_ms` |
//! | `GET /api/games/{id}/export?format=position\|psq\|diagram\|record` | the game as text |
//! | `GET /api/games/{id}/events` | server-sent events: `state`, `info` (search progress), `closed` |

mod api;
mod assets;
pub mod error;
pub mod games;
mod sse;

pub use error::ApiError;
pub use games::{Games, ServerConfig};

use axum::routing::{get, post};
use axum::Router;
use std::sync::Arc;

/// Shared state of the handlers.
#[derive(Clone, Debug)]
pub struct AppState {
    /// The games in play.
    pub games: Arc<Games>,
}

impl AppState {
    /// State with no games yet.
    #[must_use]
    pub fn new(config: ServerConfig) -> AppState {
        AppState {
            games: Arc::new(Games::new(config)),
        }
    }
}

/// The whole application as a router (tests call it without a socket).
pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/index.html", get(assets::index))
        .route("/app.js", get(assets::app_js))
        .route("/i18n.js", get(assets::i18n_js))
        .route("/renju.js", get(assets::renju_js))
        .route("/style.css", get(assets::style_css))
        .route("/favicon.svg", get(assets::favicon))
        .route("/favicon.ico", get(assets::favicon))
        .route("/api/games", post(api::create))
        .route("/api/games/{id}", get(api::state).delete(api::delete))
        .route("/api/games/{id}/move", post(api::play))
        .route("/api/games/{id}/undo", post(api::undo))
        .route("/api/games/{id}/redo", post(api::redo))
        .route("/api/games/{id}/hint", post(api::hint))
        .route("/api/games/{id}/go", post(api::go))
        .route("/api/games/{id}/stop", post(api::stop))
        .route("/api/games/{id}/resign", post(api::resign))
        .route("/api/games/{id}/swap", post(api::swap))
        .route("/api/games/{id}/analyze", post(api::analyze))
        .route("/api/games/{id}/swap2", post(api::swap2))
        .route("/api/games/{id}/renju", post(api::renju))
        .route("/api/games/{id}/review", post(api::review))
        .route("/api/games/{id}/solve", post(api::solve))
        .route("/api/games/{id}/settings", post(api::settings))
        .route("/api/games/{id}/export", get(api::export))
        .route("/api/games/{id}/events", get(sse::events))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .with_state(state)
}

/// Binds `host:port`, prints the address and serves until the process ends; games idle for
/// longer than the configured timeout are removed every so often.
///
/// # Errors
/// When the address cannot be bound (for example, the port is taken).
pub async fn serve(host: &str, port: u16, config: ServerConfig) -> anyhow::Result<()> {
    let listener = match tokio::net::TcpListener::bind((host, port)).await {
        Ok(l) => l,
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => anyhow::bail!(
            "port {port} on {host} is already in use (another `gomoku serve`?); \
             choose another with --port"
        ),
        Err(e) => anyhow::bail!("cannot listen on {host}:{port}: {e}"),
    };
    let addr = listener.local_addr()?;
    let state = AppState::new(config);
    let games = state.games.clone();
    let idle = games.config().idle_timeout;
    let period = (idle / 4).clamp(
        std::time::Duration::from_millis(100),
        std::time::Duration::from_secs(60),
    );
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(period);
        loop {
            tick.tick().await;
            games.reap(idle);
        }
    });
    println!("gomoku: the board is at http://{addr}/ (Ctrl-C to stop)");
    use std::io::Write;
    std::io::stdout().flush()?;
    axum::serve(listener, app(state)).await?;
    Ok(())
}
