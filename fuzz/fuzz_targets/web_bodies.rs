//! The web API's request bodies. The first byte chooses the endpoint and the game it is sent
//! to, the rest is the body. No engine ever searches: games are between two people, and the
//! requests that would start a search (analysis on, review, solve) are only read.
//!
//! - `POST /api/games`: the body is read as the handler reads it, made a game between two
//!   people (a person and the engine second for a swap2 opening, so that the person acts
//!   first), and created (every set-up field checked: rule, size, position, `.psq`, diagram,
//!   stones, clock, opening);
//! - `move`, `resign`, `settings`, `swap2`: through the whole router (the guard, the body
//!   reader, the handler) to a game made for the purpose;
//! - `analyze`: read, and applied when it turns the analysis off; `review`, `solve`: read.
//!
//! Nothing may panic, and no answer may be a 5xx.

#![no_main]

use axum::body::Body;
use axum::http::{header, Request};
use axum::Router;
use gomoku_app::web::games::{
    AnalyzeRequest, NewGame, OpeningRule, Player, ReviewRequest, SolveRequest,
};
use gomoku_app::web::{app, AppState, ServerConfig};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use tower::ServiceExt;

struct Server {
    runtime: tokio::runtime::Runtime,
    state: AppState,
    router: Router,
}

fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let state = AppState::new(ServerConfig {
            hash_mb: 1,
            ..ServerConfig::default()
        });
        Server {
            runtime: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap(),
            router: app(state.clone()),
            state,
        }
    })
}

/// The games the other endpoints are sent to.
const GAMES: [&str; 4] = [
    r#"{"black": "person", "white": "person"}"#,
    r#"{"black": "person", "white": "person", "rule": "renju", "position": "h8 h9 i8 g7"}"#,
    r#"{"black": "person", "white": "engine", "opening": "swap2"}"#,
    r#"{"black": "person", "white": "person", "rule": "standard", "size": 19, "clock_ms": 60000}"#,
];

fn id_of(view: &impl serde::Serialize) -> String {
    serde_json::to_value(view).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string()
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, body)) = data.split_first() else {
        return;
    };
    let s = server();
    let games = &s.state.games;
    match choice % 8 {
        0 => {
            // as the handler: an empty body is the defaults, anything else must parse
            let req = if body.iter().all(u8::is_ascii_whitespace) {
                Ok(NewGame::default())
            } else {
                serde_json::from_slice::<NewGame>(body)
            };
            if let Ok(mut req) = req {
                // a swap2 opening needs an engine: it comes second, so the person proposes
                // first, unless a set-up position might hand the engine the next step
                let set_up = req.position.is_some()
                    || req.psq.is_some()
                    || req.diagram.is_some()
                    || req.setup.is_some();
                let engine_second = req.opening == Some(OpeningRule::Swap2) && !set_up;
                req.black = Some(Player::Person);
                req.white = Some(if engine_second {
                    Player::Engine
                } else {
                    Player::Person
                });
                match games.create(&req) {
                    Ok(view) => {
                        let view = serde_json::to_value(&view).unwrap();
                        assert!(view["thinking"].is_null(), "a search started: {view}");
                        games.remove(view["id"].as_str().unwrap()).unwrap();
                    }
                    Err(e) => assert!(e.status.is_client_error(), "{e}"),
                }
            }
        }
        c @ 1..=4 => {
            let setup: NewGame = serde_json::from_str(GAMES[usize::from(choice / 8) % 4]).unwrap();
            let id = id_of(&games.create(&setup).unwrap());
            let endpoint = ["move", "resign", "settings", "swap2"][usize::from(c) - 1];
            let req = Request::post(format!("/api/games/{id}/{endpoint}"))
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_vec()))
                .unwrap();
            let resp = s.runtime.block_on(s.router.clone().oneshot(req)).unwrap();
            assert!(!resp.status().is_server_error(), "{}", resp.status());
            games.remove(&id).unwrap();
        }
        5 => {
            if let Ok(mut req) = serde_json::from_slice::<AnalyzeRequest>(body) {
                if !req.on {
                    let setup: NewGame = serde_json::from_str(GAMES[1]).unwrap();
                    let id = id_of(&games.create(&setup).unwrap());
                    let slot = games.get(&id).unwrap();
                    req.on = false;
                    let r = slot
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .analyze(&req);
                    if let Err(e) = r {
                        assert!(e.status.is_client_error(), "{e}");
                    }
                    games.remove(&id).unwrap();
                }
            }
        }
        6 => {
            let _ = serde_json::from_slice::<ReviewRequest>(body);
        }
        _ => {
            let _ = serde_json::from_slice::<SolveRequest>(body);
        }
    }
});
