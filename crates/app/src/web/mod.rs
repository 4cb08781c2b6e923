//! The web board: `gomoku serve`. An axum server with a JSON API under `/api`, server-sent events
//! for live engine output, and the page itself (HTML, CSS and JavaScript embedded in the binary
//! from `crates/app/web/`, so nothing is fetched from anywhere else).
//!
//! API (all bodies JSON; errors are `{"error": {"code", "message"}}` with a 4xx status):
//!
//! | request | does |
//! |---|---|
//! | `POST /api/games` | new game: `rule`, `size`, `black`/`white` (`person`/`engine`), `level`, `time_ms`, `position`, `psq` or `sgf`, `opening` (`free`, `swap2`, `soosorv8` or `taraguchi10`), `clock_ms` and `increment_ms` (a game clock) |
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
//! | `POST /api/games/{id}/goto` | `{"node": 7}`: shows a node of the game's tree (a move played there starts a new line) |
//! | `POST /api/games/{id}/branch` | `{"node": 7, "action": "promote" \| "delete"}`: the line through the node becomes the main line, or goes |
//! | `POST /api/games/{id}/note` | `{"node": 7, "comment": "...", "labels": [{"point": "h8", "text": "A"}]}`: a node's comment and labels |
//! | `GET /api/games/{id}/export?format=position\|psq\|diagram\|record\|sgf` | the game as text (`sgf`: the whole tree) |
//! | `GET /api/games/{id}/events` | server-sent events: `state`, `info` (search progress), `closed` |
//! | `GET /api/library`, `/api/library/games`, `/api/library/games/{n}` (`PATCH`, `DELETE`, `/restore`, `/open`, `/export`), `/api/library/explorer`, `/api/library/analysis`, `/api/library/export`, `POST /api/library/import` | the library (`library_api`, `docs/protocol.md`) |
//!
//! Before any handler, [`guard`] refuses requests from other sites or for other host names,
//! bodies that are not JSON, too large or too slow.

mod api;
mod assets;
pub mod error;
pub mod games;
pub mod guard;
mod library_api;
mod sse;
mod tree_api;

pub use error::ApiError;
pub use games::{Games, ServerConfig};
pub use guard::Protection;

use axum::routing::{get, post};
use axum::Router;
use std::sync::Arc;

/// Shared state of the handlers.
#[derive(Clone, Debug)]
pub struct AppState {
    /// The games in play.
    pub games: Arc<Games>,
    /// What requests are refused before any handler runs.
    pub protection: Arc<Protection>,
}

impl AppState {
    /// State with no games yet, and the default [`Protection`] (any port).
    #[must_use]
    pub fn new(config: ServerConfig) -> AppState {
        AppState {
            games: Arc::new(Games::new(config)),
            protection: Arc::new(Protection::default()),
        }
    }

    /// The same state with `protection`.
    #[must_use]
    pub fn with_protection(self, protection: Protection) -> AppState {
        AppState {
            protection: Arc::new(protection),
            ..self
        }
    }
}

/// The whole application as a router (tests call it without a socket).
pub fn app(state: AppState) -> Router {
    Router::new()
        .merge(assets::routes())
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
        .route("/api/games/{id}/goto", post(tree_api::goto))
        .route("/api/games/{id}/branch", post(tree_api::branch))
        .route("/api/games/{id}/note", post(tree_api::note))
        .route("/api/library", get(library_api::info))
        .route("/api/library/games", get(library_api::list))
        .route(
            "/api/library/games/{id}",
            get(library_api::game)
                .patch(library_api::patch)
                .delete(library_api::delete),
        )
        .route(
            "/api/library/games/{id}/restore",
            post(library_api::restore),
        )
        .route("/api/library/games/{id}/open", post(library_api::open))
        .route(
            "/api/library/games/{id}/export",
            get(library_api::export_game),
        )
        .route("/api/library/export", get(library_api::export))
        .route("/api/library/explorer", get(library_api::explorer))
        .route("/api/library/analysis", get(library_api::analysis))
        .route("/api/library/import", post(library_api::import))
        .route("/api/games/{id}/export", get(api::export))
        .route("/api/games/{id}/events", get(sse::events))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::check,
        ))
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
    let state = AppState::new(config).with_protection(Protection::listening(host, addr.port()));
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
    serve_listener(listener, state).await;
    Ok(())
}

/// Serves [`app`] on `listener` until the process ends, each connection with the header read
/// timeout of `state`'s [`Protection`] (a client that opens a connection and sends nothing, or
/// half a request, is dropped; `axum::serve` has no such timeout).
pub async fn serve_listener(listener: tokio::net::TcpListener, state: AppState) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let header_timeout = state.protection.header_timeout;
    let app = app(state);
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // a connection that failed before it was accepted concerns only its client;
                // anything else (no file descriptors left) is waited out
                if !matches!(
                    e.kind(),
                    std::io::ErrorKind::ConnectionRefused
                        | std::io::ErrorKind::ConnectionAborted
                        | std::io::ErrorKind::ConnectionReset
                ) {
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                }
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            // an error here is the client's (it went away, or timed out): nothing to report
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
