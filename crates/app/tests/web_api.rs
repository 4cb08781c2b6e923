//! The web server's API through the router, without a socket (`oneshot`): the page and its
//! files, games and moves, the engine's replies, and every kind of bad request.

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use axum::Router;
use gomoku_app::web::{app, AppState, ServerConfig};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tower::ServiceExt;

mod web_common;
use web_common::*;

/// A game of engine against engine at 2 s a move, once the engine is thinking.
async fn engine_moving(app: &Router) -> String {
    let (id, _) = new_game(
        app,
        json!({"black": "engine", "white": "engine", "time_ms": 2000}),
    )
    .await;
    wait_for(app, &id, "the engine thinking", |v| {
        v["thinking"]["purpose"] == "move"
    })
    .await;
    id
}

fn moves(v: &Value) -> Vec<String> {
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect()
}

/// The line shown: the moves on the board, then those after them (redo's).
fn line(v: &Value) -> Vec<String> {
    let mut out = moves(v);
    out.extend(
        v["continuation"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["move"].as_str().unwrap().to_string()),
    );
    out
}

fn error_code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("<no error code>")
}

/// Asserts a 4xx JSON error with this status and code.
fn assert_error(status: StatusCode, v: &Value, want: StatusCode, code: &str) {
    assert_eq!(status, want, "{v}");
    assert_eq!(error_code(v), code, "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "{v}"
    );
}

// The page and its files.
mod page {
    use super::*;

    #[tokio::test]
    async fn index_and_assets_are_served_from_the_binary() {
        let (app, _) = router();
        let resp = app
            .clone()
            .oneshot(Request::get("/").body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        assert!(resp.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/html"));
        let html = String::from_utf8(
            resp.into_body()
                .collect()
                .await
                .unwrap()
                .to_bytes()
                .to_vec(),
        )
        .unwrap();
        for id in [
            "data-testid=\"board\"",
            "data-testid=\"move-list\"",
            "data-testid=\"engine-info\"",
            "data-testid=\"result\"",
            "data-testid=\"new-game\"",
        ] {
            assert!(html.contains(id), "missing {id}");
        }
        // nothing from elsewhere: every script and style is local
        assert!(!html.contains("src=\"http") && !html.contains("href=\"http"));
        assert!(!html.contains("src=\"//") && !html.contains("href=\"//"));
        for (path, ty) in [
            ("/app.js", "text/javascript"),
            ("/i18n.js", "text/javascript"),
            ("/style.css", "text/css"),
            ("/favicon.svg", "image/svg+xml"),
        ] {
            let resp = app
                .clone()
                .oneshot(Request::get(path).body(Body::empty()).unwrap())
                .await
                .unwrap();
            assert_eq!(resp.status(), StatusCode::OK, "{path}");
            let ct = resp.headers()[header::CONTENT_TYPE].to_str().unwrap();
            assert!(ct.starts_with(ty), "{path}: {ct}");
        }
        let (_, i18n) = get(&app, "/i18n.js").await;
        assert!(i18n.as_str().unwrap().contains("中文") || i18n.as_str().unwrap().contains("悔棋"));
    }

    #[tokio::test]
    async fn unknown_paths_and_methods_are_json_errors() {
        let (app, _) = router();
        let (s, v) = get(&app, "/nope").await;
        assert_error(s, &v, StatusCode::NOT_FOUND, "not_found");
        let (s, v) = call(&app, Method::PUT, "/api/games", None).await;
        assert_error(s, &v, StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed");
    }
}

// Creating games and the state they report.
mod games {
    use super::*;

    #[tokio::test]
    async fn defaults_person_black_against_the_engine_on_15x15_freestyle() {
        let (app, _) = router();
        let (s, v) = call(&app, Method::POST, "/api/games", None).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_eq!(v["rule"], "freestyle");
        assert_eq!(v["size"], 15);
        assert_eq!(v["players"], json!({"black": "person", "white": "engine"}));
        assert_eq!(v["to_move"], "black");
        assert_eq!(v["level"], "max");
        assert_eq!(v["time_ms"], 1000);
        assert_eq!(v["moves"], json!([]));
        assert_eq!(v["result"], Value::Null);
        assert_eq!(v["thinking"], Value::Null);
    }

    #[tokio::test]
    async fn sizes_15_19_20_and_rules() {
        let (app, _) = router();
        for (rule, size) in [
            ("renju", 15),
            ("standard", 19),
            ("freestyle", 20),
            ("caro6", 9),
        ] {
            let (_, v) = new_game(&app, json!({"rule": rule, "size": size})).await;
            assert_eq!(v["rule"], rule);
            assert_eq!(v["size"], size);
        }
    }

    #[tokio::test]
    async fn each_game_is_separate() {
        let (app, state) = router();
        let pp = json!({"black": "person", "white": "person"});
        let (a, _) = new_game(&app, pp.clone()).await;
        let (b, _) = new_game(&app, pp).await;
        assert_ne!(a, b);
        post(&app, &format!("/api/games/{a}/move"), json!({"move": "h8"})).await;
        let (_, vb) = get(&app, &format!("/api/games/{b}")).await;
        assert_eq!(moves(&vb), Vec::<String>::new());
        let (_, va) = get(&app, &format!("/api/games/{a}")).await;
        assert_eq!(moves(&va), ["h8"]);
        assert_eq!(state.games.len(), 2);
    }

    #[tokio::test]
    async fn bad_settings_are_400() {
        let (app, state) = router();
        for (body, code) in [
            (json!({"rule": "chess"}), "bad_settings"),
            (json!({"size": 40}), "bad_settings"),
            (json!({"time_ms": 0}), "bad_settings"),
            (json!({"level": "godlike"}), "malformed_json"),
            (json!({"black": "robot"}), "malformed_json"),
            (json!({"colour": "black"}), "malformed_json"),
            (json!({"position": "h8 h8"}), "bad_position"),
            (json!({"position": "h8 zz"}), "bad_position"),
            (json!({"psq": "not a record"}), "bad_position"),
            // one pass per point at most (226 on 15x15 is one too many)
            (
                json!({"position": vec!["--"; 226].join(" ")}),
                "bad_position",
            ),
            // a move line with a negative or overflowing number is an error, not the trailer
            (
                json!({"psq": "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,-1\n10,10,0"}),
                "bad_position",
            ),
            (
                json!({"psq": "Piskvorky 15x15, 11:11, 0\n99999999999999999999,10,0\n11,11,0"}),
                "bad_position",
            ),
            (
                json!({"position": "h8", "psq": "Piskvorky 15x15, 11:11, 0\n8,8,0"}),
                "bad_settings",
            ),
        ] {
            let (s, v) = post(&app, "/api/games", body.clone()).await;
            assert_error(s, &v, StatusCode::BAD_REQUEST, code);
        }
        assert_eq!(state.games.len(), 0, "no game was created");
    }

    #[tokio::test]
    async fn malformed_json_is_400() {
        let (app, _) = router();
        for body in ["{", "[1,2", "\"rule\"", "{\"size\": \"big\"}"] {
            let (s, v) = call(&app, Method::POST, "/api/games", Some(body)).await;
            assert_error(s, &v, StatusCode::BAD_REQUEST, "malformed_json");
        }
    }

    #[tokio::test]
    async fn bodies_must_be_objects_not_arrays() {
        // serde fills a struct from an array field by field; the API takes objects only
        let (app, state) = router();
        let (s, v) = call(
            &app,
            Method::POST,
            "/api/games",
            Some(r#"["renju",9,"person","person"]"#),
        )
        .await;
        assert_error(s, &v, StatusCode::BAD_REQUEST, "malformed_json");
        assert_eq!(state.games.len(), 0, "no game was created");
        let (id, before) = new_game(&app, json!({"black": "person", "white": "person"})).await;
        for (path, body) in [
            ("/move", r#"["h8"]"#),
            ("/settings", r#" ["easy",10]"#),
            ("/resign", "[]"),
            ("/move", "7"),
        ] {
            let (s, v) = call(
                &app,
                Method::POST,
                &format!("/api/games/{id}{path}"),
                Some(body),
            )
            .await;
            assert_error(s, &v, StatusCode::BAD_REQUEST, "malformed_json");
            assert!(
                v["error"]["message"].as_str().unwrap().contains("object"),
                "{v}"
            );
        }
        let (_, after) = get(&app, &format!("/api/games/{id}")).await;
        assert_eq!(before, after, "the game is unchanged");
    }

    #[tokio::test]
    async fn unknown_game_is_404_everywhere() {
        let (app, _) = router();
        let id = "no-such-game";
        for (method, path, body) in [
            (Method::GET, "", None),
            (Method::DELETE, "", None),
            (Method::POST, "/move", Some(r#"{"move":"h8"}"#)),
            (Method::POST, "/move", Some("{not json")),
            (Method::POST, "/undo", None),
            (Method::POST, "/redo", None),
            (Method::POST, "/hint", None),
            (Method::POST, "/go", None),
            (Method::POST, "/stop", None),
            (Method::POST, "/resign", None),
            (Method::POST, "/swap", None),
            (Method::POST, "/renju", Some(r#"{"action":"keep"}"#)),
            (Method::POST, "/review", None),
            (Method::POST, "/solve", None),
            (Method::POST, "/settings", Some(r#"{"level":"easy"}"#)),
            (Method::GET, "/export", None),
            (Method::GET, "/events", None),
        ] {
            let (s, v) = call(
                &app,
                method.clone(),
                &format!("/api/games/{id}{path}"),
                body,
            )
            .await;
            assert_error(s, &v, StatusCode::NOT_FOUND, "unknown_game");
        }
    }

    #[tokio::test]
    async fn delete_and_idle_cleanup_remove_games() {
        let (app, state) = router();
        let (a, _) = new_game(&app, json!({"white": "person"})).await;
        let (b, _) = new_game(&app, json!({"white": "person"})).await;
        let (s, _) = call(&app, Method::DELETE, &format!("/api/games/{a}"), None).await;
        assert_eq!(s, StatusCode::NO_CONTENT);
        let (s, v) = get(&app, &format!("/api/games/{a}")).await;
        assert_error(s, &v, StatusCode::NOT_FOUND, "unknown_game");
        // a long timeout keeps the fresh game; a zero timeout removes it
        assert_eq!(state.games.reap(Duration::from_secs(3600)), 0);
        assert_eq!(state.games.reap(Duration::ZERO), 1);
        let (s, _) = get(&app, &format!("/api/games/{b}")).await;
        assert_eq!(s, StatusCode::NOT_FOUND);
        assert!(state.games.is_empty());
    }

    #[tokio::test]
    async fn an_abandoned_engine_game_is_cleaned_up_while_the_engines_play() {
        let (app, state) = router();
        new_game(
            &app,
            json!({"black": "engine", "white": "engine", "level": "greedy", "size": 19}),
        )
        .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        // the engines' moves do not count as someone looking at the game
        assert_eq!(state.games.reap(Duration::from_millis(200)), 1);
        assert!(state.games.is_empty());
    }

    #[tokio::test]
    async fn too_many_games_is_503() {
        let state = AppState::new(ServerConfig {
            hash_mb: 4,
            max_games: 2,
            ..ServerConfig::default()
        });
        let app = app(state);
        new_game(&app, json!({})).await;
        new_game(&app, json!({})).await;
        let (s, v) = post(&app, "/api/games", json!({})).await;
        assert_error(s, &v, StatusCode::SERVICE_UNAVAILABLE, "busy");
    }
}

// Moves by people, and the bad ones.
mod moves {
    use super::*;

    async fn two_people(app: &Router, extra: Value) -> String {
        let mut body = json!({"black": "person", "white": "person"});
        if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
            b.extend(e.clone());
        }
        new_game(app, body).await.0
    }

    #[tokio::test]
    async fn moves_alternate_in_both_notations() {
        let (app, _) = router();
        let id = two_people(&app, json!({})).await;
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "h8"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["to_move"], "white");
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "8,6", "color": "white"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(moves(&v), ["h8", "i9"]);
        assert_eq!(v["position"], "h8 i9");
        assert_eq!(v["moves"][1]["color"], "white");
        assert_eq!(v["moves"][1]["x"], 8);
        assert_eq!(v["moves"][1]["y"], 6);
    }

    #[tokio::test]
    async fn bad_moves_are_4xx_and_change_nothing() {
        let (app, _) = router();
        let id = two_people(&app, json!({"position": "h8"})).await;
        let uri = format!("/api/games/{id}/move");
        let (_, before) = get(&app, &format!("/api/games/{id}")).await;
        let cases: Vec<(Option<String>, StatusCode, &str)> = vec![
            (
                Some(json!({"move": "h8"}).to_string()),
                StatusCode::CONFLICT,
                "occupied",
            ),
            (
                Some(json!({"move": "z99"}).to_string()),
                StatusCode::BAD_REQUEST,
                "bad_move",
            ),
            (
                Some(json!({"move": "p1"}).to_string()),
                StatusCode::BAD_REQUEST,
                "bad_move",
            ),
            (
                Some(json!({"move": "15,3"}).to_string()),
                StatusCode::BAD_REQUEST,
                "bad_move",
            ),
            (
                Some(json!({"move": "hello"}).to_string()),
                StatusCode::BAD_REQUEST,
                "bad_move",
            ),
            (
                Some(json!({"move": ""}).to_string()),
                StatusCode::BAD_REQUEST,
                "bad_move",
            ),
            (
                Some(json!({"move": "a1", "color": "black"}).to_string()),
                StatusCode::CONFLICT,
                "not_your_turn",
            ),
            (
                Some(json!({"move": "a1", "color": "green"}).to_string()),
                StatusCode::BAD_REQUEST,
                "bad_color",
            ),
            (
                Some(json!({"point": "a1"}).to_string()),
                StatusCode::BAD_REQUEST,
                "malformed_json",
            ),
            (
                Some(json!({"move": 7}).to_string()),
                StatusCode::BAD_REQUEST,
                "malformed_json",
            ),
            (
                Some("{\"move\": \"a1\"".to_string()),
                StatusCode::BAD_REQUEST,
                "malformed_json",
            ),
            (
                Some("\u{0}\u{1}garbage".to_string()),
                StatusCode::BAD_REQUEST,
                "malformed_json",
            ),
            (None, StatusCode::BAD_REQUEST, "malformed_json"),
        ];
        for (body, status, code) in cases {
            let (s, v) = call(&app, Method::POST, &uri, body.as_deref()).await;
            assert_error(s, &v, status, code);
        }
        let (_, after) = get(&app, &format!("/api/games/{id}")).await;
        assert_eq!(after, before, "the game is as it was");
    }

    #[tokio::test]
    async fn a_person_cannot_move_for_the_engines_colour() {
        let (app, _) = router();
        let (id, _) = new_game(&app, json!({"level": "greedy"})).await;
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "h8", "color": "white"}),
        )
        .await;
        assert_error(s, &v, StatusCode::CONFLICT, "not_your_turn");
        let (_, v) = get(&app, &format!("/api/games/{id}")).await;
        assert_eq!(moves(&v), Vec::<String>::new());
    }

    #[tokio::test]
    async fn five_wins_then_the_game_is_over() {
        let (app, _) = router();
        let id = two_people(&app, json!({"position": "h8 a1 i8 a2 j8 a3 k8 a4"})).await;
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "l8"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["result"]["kind"], "win");
        assert_eq!(v["result"]["winner"], "black");
        assert_eq!(v["result"]["line"], json!(["h8", "i8", "j8", "k8", "l8"]));
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "a5"}),
        )
        .await;
        assert_error(s, &v, StatusCode::CONFLICT, "game_over");
        let (s, v) = post(&app, &format!("/api/games/{id}/redo"), json!({})).await;
        assert_error(s, &v, StatusCode::CONFLICT, "game_over");
    }

    #[tokio::test]
    async fn renju_forbidden_points_are_listed_and_refused() {
        let (app, _) = router();
        let id = two_people(
            &app,
            json!({"rule": "renju", "position": "f8 a1 g8 a3 h6 a5 h7 a7"}),
        )
        .await;
        let (_, v) = get(&app, &format!("/api/games/{id}")).await;
        assert_eq!(
            v["forbidden"],
            json!([{"point": "h8", "kind": "double-three"}])
        );
        let (s, e) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "h8"}),
        )
        .await;
        assert_error(s, &e, StatusCode::CONFLICT, "forbidden");
        let (_, after) = get(&app, &format!("/api/games/{id}")).await;
        assert_eq!(after, v);
        // White may play there
        post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "o15"}),
        )
        .await;
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "h8"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }

    #[tokio::test]
    async fn undo_redo_and_nothing_to_undo() {
        let (app, _) = router();
        let id = two_people(&app, json!({})).await;
        let (s, v) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        assert_error(s, &v, StatusCode::CONFLICT, "nothing_to_undo");
        let (s, v) = post(&app, &format!("/api/games/{id}/redo"), json!({})).await;
        assert_error(s, &v, StatusCode::CONFLICT, "nothing_to_redo");
        post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "h8"}),
        )
        .await;
        post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "h9"}),
        )
        .await;
        let (_, v) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        assert_eq!(moves(&v), ["h8"], "two people: one move back");
        assert_eq!(v["redo"], json!(["h9"]));
        let (_, v) = post(&app, &format!("/api/games/{id}/redo"), json!({})).await;
        assert_eq!(moves(&v), ["h8", "h9"]);
    }

    #[tokio::test]
    async fn resign_and_take_it_back() {
        let (app, _) = router();
        let id = two_people(&app, json!({"position": "h8"})).await;
        let (s, v) = post(&app, &format!("/api/games/{id}/resign"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["result"]["winner"], "black", "the side to move resigned");
        assert_eq!(v["result"]["resigned"], true);
        let (s, e) = post(&app, &format!("/api/games/{id}/resign"), json!({})).await;
        assert_error(s, &e, StatusCode::CONFLICT, "game_over");
        let (_, v) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        assert_eq!(v["result"], Value::Null);
        assert_eq!(moves(&v), ["h8"], "undo takes back the resignation only");
        let (s, e) = post(
            &app,
            &format!("/api/games/{id}/resign"),
            json!({"color": "pink"}),
        )
        .await;
        assert_error(s, &e, StatusCode::BAD_REQUEST, "bad_color");
    }

    #[tokio::test]
    async fn settings_change_level_and_time() {
        let (app, _) = router();
        let id = two_people(&app, json!({})).await;
        let (_, v) = post(
            &app,
            &format!("/api/games/{id}/settings"),
            json!({"level": "greedy", "time_ms": 250}),
        )
        .await;
        assert_eq!(v["level"], "greedy");
        assert_eq!(v["time_ms"], 250);
        let (s, e) = post(
            &app,
            &format!("/api/games/{id}/settings"),
            json!({"time_ms": 5}),
        )
        .await;
        assert_error(s, &e, StatusCode::BAD_REQUEST, "bad_settings");
        let (s, e) = post(
            &app,
            &format!("/api/games/{id}/settings"),
            json!({"level": 3}),
        )
        .await;
        assert_error(s, &e, StatusCode::BAD_REQUEST, "malformed_json");
        let (_, v) = get(&app, &format!("/api/games/{id}")).await;
        assert_eq!(v["time_ms"], 250);
    }
}

// The engine: replies, reports, hints, cancelling.
mod engine {
    use super::*;

    fn assert_full_info(info: &Value) {
        for key in [
            "move", "eval", "score", "depth", "nodes", "tt_hits", "time_ms", "pv",
        ] {
            assert!(!info[key].is_null(), "{key} missing: {info}");
        }
        // a speed only for a search long enough to measure one
        let long = info["time_ms"].as_u64().unwrap() >= gomoku_app::web::games::NPS_MIN_MS;
        assert_eq!(info["nps"].is_u64(), long, "{info}");
        assert_eq!(info["final"], true);
        assert!(
            info["pv"].as_array().is_some_and(|pv| !pv.is_empty()),
            "{info}"
        );
        assert_eq!(info["pv"][0], info["move"]);
    }

    #[tokio::test]
    async fn the_engine_replies_with_its_figures() {
        let (app, _) = router();
        let (id, _) = new_game(&app, json!({"level": "easy", "time_ms": 300})).await;
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "h8"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["thinking"]["purpose"], "move");
        assert_eq!(v["thinking"]["color"], "white");
        let v = wait_for(&app, &id, "the engine's reply", |v| {
            v["moves"].as_array().unwrap().len() == 2
        })
        .await;
        assert_eq!(v["thinking"], Value::Null);
        assert_eq!(v["to_move"], "black");
        let info = &v["moves"][1]["engine"];
        assert_full_info(info);
        assert_eq!(info["move"], v["moves"][1]["move"]);
        assert_eq!(info["color"], "white");
        assert_eq!(info["engine"], "pvs");
        assert!(info["depth"].as_i64().unwrap() >= 1);
        assert!(info["nodes"].as_u64().unwrap() > 0);
    }

    #[tokio::test]
    async fn greedy_level_and_engine_first() {
        let (app, _) = router();
        let (id, v) = new_game(
            &app,
            json!({"black": "engine", "white": "person", "level": "greedy"}),
        )
        .await;
        assert_eq!(v["thinking"]["color"], "black", "the engine starts at once");
        let v = wait_for(&app, &id, "the first move", |v| {
            !v["moves"].as_array().unwrap().is_empty()
        })
        .await;
        assert_eq!(moves(&v), ["h8"], "greedy opens in the centre");
        assert_eq!(v["moves"][0]["engine"]["engine"], "greedy/pattern");
        assert_eq!(v["moves"][0]["engine"]["depth"], 1);
    }

    #[tokio::test]
    async fn a_proven_win_is_reported_as_wins_in_n() {
        let (app, _) = router();
        // White (engine) has an open four-to-be: it makes five at once
        let (id, _) = new_game(
            &app,
            json!({"black": "engine", "white": "person", "level": "easy", "time_ms": 300,
                   "position": "h8 a1 i8 a2 j8 a3 k8 o15"}),
        )
        .await;
        let v = wait_for(&app, &id, "the winning move", |v| !v["result"].is_null()).await;
        let last = &v["moves"][8]["engine"];
        assert_eq!(last["move"], v["moves"][8]["move"]);
        // the exact distance is the engine's business; here: proven, and said so in words
        assert!(last["mate"].as_i64().is_some_and(|n| n > 0), "{last}");
        assert!(
            last["eval"].as_str().unwrap().starts_with("win in "),
            "{last}"
        );
        assert_eq!(v["result"]["winner"], "black");
    }

    #[tokio::test]
    async fn move_while_the_engine_thinks_is_refused_and_stop_makes_it_move() {
        let (app, _) = router();
        let (id, v) = new_game(
            &app,
            json!({"black": "engine", "white": "person", "time_ms": 60000, "position": "h8 h9 i8 i9"}),
        )
        .await;
        assert_eq!(v["thinking"]["purpose"], "move");
        let (s, e) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "a1"}),
        )
        .await;
        assert_error(s, &e, StatusCode::CONFLICT, "engine_thinking");
        let (s, e) = post(&app, &format!("/api/games/{id}/hint"), json!({})).await;
        assert_error(s, &e, StatusCode::CONFLICT, "engine_thinking");
        let (s, e) = post(&app, &format!("/api/games/{id}/go"), json!({})).await;
        assert_error(s, &e, StatusCode::CONFLICT, "engine_thinking");
        let (_, now) = get(&app, &format!("/api/games/{id}")).await;
        assert_eq!(moves(&now), ["h8", "h9", "i8", "i9"], "nothing changed");
        let started = Instant::now();
        let (s, _) = post(&app, &format!("/api/games/{id}/stop"), json!({})).await;
        assert_eq!(s, StatusCode::OK);
        let v = wait_for(&app, &id, "the stopped search's move", |v| {
            v["moves"].as_array().unwrap().len() == 5
        })
        .await;
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "stop was obeyed"
        );
        assert_full_info(&v["moves"][4]["engine"]);
        let (s, e) = post(&app, &format!("/api/games/{id}/stop"), json!({})).await;
        assert_error(s, &e, StatusCode::CONFLICT, "not_thinking");
    }

    #[tokio::test]
    async fn undo_cancels_the_search_and_its_move_never_lands() {
        let (app, _) = router();
        let (id, _) = new_game(&app, json!({"time_ms": 60000})).await;
        let (_, v) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "h8"}),
        )
        .await;
        assert!(!v["thinking"].is_null());
        let (s, v) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["thinking"], Value::Null);
        assert_eq!(moves(&v), Vec::<String>::new());
        tokio::time::sleep(Duration::from_millis(300)).await;
        let (_, v) = get(&app, &format!("/api/games/{id}")).await;
        assert_eq!(
            moves(&v),
            Vec::<String>::new(),
            "the cancelled search played nothing"
        );
        assert_eq!(v["thinking"], Value::Null);
    }

    #[tokio::test]
    async fn undo_against_the_engine_takes_back_both_moves_and_redo_replays_them() {
        let (app, _) = router();
        let (id, _) = new_game(&app, json!({"level": "greedy"})).await;
        post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "h8"}),
        )
        .await;
        let v = wait_for(&app, &id, "reply", |v| {
            v["moves"].as_array().unwrap().len() == 2
        })
        .await;
        let both = moves(&v);
        let (_, v) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        assert_eq!(moves(&v), Vec::<String>::new());
        assert_eq!(
            v["thinking"],
            Value::Null,
            "the engine does not replay at once"
        );
        let (_, v) = post(&app, &format!("/api/games/{id}/redo"), json!({})).await;
        assert_eq!(moves(&v), both);
        assert!(
            !v["moves"][1]["engine"].is_null(),
            "the engine's figures come back too"
        );
    }

    #[tokio::test]
    async fn hint_suggests_a_move_without_playing_it() {
        let (app, _) = router();
        let (id, _) = new_game(
            &app,
            json!({"white": "person", "time_ms": 200, "position": "h8 a1 i8 a2 j8 a3 k8 a4"}),
        )
        .await;
        let (s, v) = post(&app, &format!("/api/games/{id}/hint"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["thinking"]["purpose"], "hint");
        let v = wait_for(&app, &id, "the hint", |v| !v["hint"].is_null()).await;
        let hint = v["hint"]["move"].as_str().unwrap();
        assert!(hint == "g8" || hint == "l8", "{hint}");
        assert_eq!(v["hint"]["color"], "black");
        assert_eq!(moves(&v).len(), 8, "a hint plays nothing");
        // playing a move clears the hint
        let (_, v) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": hint}),
        )
        .await;
        assert_eq!(v["hint"], Value::Null);
        assert_eq!(v["result"]["winner"], "black");
    }

    #[tokio::test]
    async fn swap_hands_the_side_to_move_to_the_engine() {
        let (app, _) = router();
        let (id, _) = new_game(&app, json!({"level": "greedy"})).await;
        let (_, v) = post(&app, &format!("/api/games/{id}/swap"), json!({})).await;
        assert_eq!(v["players"], json!({"black": "engine", "white": "person"}));
        let v = wait_for(&app, &id, "the engine's move as Black", |v| {
            v["moves"].as_array().unwrap().len() == 1
        })
        .await;
        assert_eq!(v["moves"][0]["color"], "black");
        assert_eq!(v["to_move"], "white");
    }

    #[tokio::test]
    async fn resign_against_the_engine_is_the_persons() {
        let (app, _) = router();
        let (id, _) = new_game(
            &app,
            json!({"black": "engine", "white": "person", "level": "greedy"}),
        )
        .await;
        wait_for(&app, &id, "first move", |v| v["thinking"].is_null()).await;
        let (_, v) = post(&app, &format!("/api/games/{id}/resign"), json!({})).await;
        assert_eq!(v["result"]["winner"], "black");
        assert_eq!(v["result"]["resigned"], true);
    }

    #[tokio::test]
    async fn engine_against_engine_plays_to_the_end() {
        let (app, _) = router();
        let (id, _) = new_game(
            &app,
            json!({"black": "engine", "white": "engine", "level": "greedy", "size": 9}),
        )
        .await;
        let v = wait_for(&app, &id, "the end of the game", |v| !v["result"].is_null()).await;
        assert!(moves(&v).len() >= 9, "{v}");
    }
}

// Export and import.
mod records {
    use super::*;

    async fn export(app: &Router, id: &str, format: &str) -> (StatusCode, String) {
        let (s, v) = get(app, &format!("/api/games/{id}/export?format={format}")).await;
        (
            s,
            v.as_str()
                .map(str::to_string)
                .unwrap_or_else(|| v.to_string()),
        )
    }

    #[tokio::test]
    async fn position_and_psq_round_trip() {
        let (app, _) = router();
        let pp = json!({"black": "person", "white": "person", "size": 20});
        let (id, _) = new_game(&app, pp).await;
        for m in ["j10", "k11", "a1", "t20"] {
            post(&app, &format!("/api/games/{id}/move"), json!({"move": m})).await;
        }
        let (s, pos) = export(&app, &id, "position").await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(pos.trim(), "j10 k11 a1 t20");
        let (s, psq) = export(&app, &id, "psq").await;
        assert_eq!(s, StatusCode::OK);
        let lines: Vec<&str> = psq.lines().collect();
        assert_eq!(lines[0], "Piskvorky 20x20, 11:11, 0");
        assert!(lines[1].starts_with("10,11,"), "{psq}");
        assert!(lines[3].starts_with("1,20,"), "{psq}");
        assert!(lines[4].starts_with("20,1,"), "{psq}");
        assert_eq!(lines.last(), Some(&"-1"));
        // a psq record imports to the same moves, size from the header
        let (_, v) = new_game(&app, json!({"psq": psq, "white": "person"})).await;
        assert_eq!(v["size"], 20);
        assert_eq!(moves(&v), ["j10", "k11", "a1", "t20"]);
        let (_, v) = new_game(
            &app,
            json!({"position": pos, "size": 20, "white": "person"}),
        )
        .await;
        assert_eq!(moves(&v), ["j10", "k11", "a1", "t20"]);
    }

    #[tokio::test]
    async fn export_errors() {
        let (app, _) = router();
        let (id, _) = new_game(&app, json!({"position": "h8 -- i9", "white": "person"})).await;
        let (s, v) = get(&app, &format!("/api/games/{id}/export?format=psq")).await;
        assert_error(s, &v, StatusCode::CONFLICT, "cannot_export");
        let (s, v) = get(&app, &format!("/api/games/{id}/export?format=pdf")).await;
        assert_error(s, &v, StatusCode::BAD_REQUEST, "bad_request");
        let (s, v) = get(&app, &format!("/api/games/{id}/export?what=1")).await;
        assert_error(s, &v, StatusCode::BAD_REQUEST, "bad_request");
        let (s, v) = post(
            &app,
            "/api/games",
            json!({"psq": "Piskvorky 15x15, 11:11, 0\n8,8,0", "size": 19}),
        )
        .await;
        assert_error(s, &v, StatusCode::BAD_REQUEST, "bad_settings");
    }

    #[tokio::test]
    async fn psq_download_has_a_file_name() {
        let (app, _) = router();
        let (id, _) = new_game(&app, json!({"position": "h8"})).await;
        let resp = app
            .clone()
            .oneshot(
                Request::get(format!("/api/games/{id}/export?format=psq&download=true"))
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        let cd = resp.headers()[header::CONTENT_DISPOSITION]
            .to_str()
            .unwrap();
        assert!(cd.contains("gomoku.psq"), "{cd}");
    }
}

// Server-sent events.
mod events {
    use super::*;

    /// Reads the stream until `want` appears in the text received so far.
    async fn read_until(body: &mut Body, want: &str) -> String {
        let mut text = String::new();
        let deadline = Instant::now() + Duration::from_secs(30);
        while !text.contains(want) {
            let left = deadline.saturating_duration_since(Instant::now());
            let frame = tokio::time::timeout(left, body.frame())
                .await
                .unwrap_or_else(|_| panic!("no '{want}' in: {text}"));
            let Some(Ok(frame)) = frame else {
                panic!("stream ended before '{want}': {text}");
            };
            if let Ok(data) = frame.into_data() {
                text.push_str(&String::from_utf8_lossy(&data));
            }
        }
        text
    }

    #[tokio::test]
    async fn the_stream_starts_with_the_state_then_streams_engine_progress() {
        let (app, state) = router();
        let (id, _) = new_game(&app, json!({"time_ms": 400})).await;
        let resp = app
            .clone()
            .oneshot(
                Request::get(format!("/api/games/{id}/events"))
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        assert!(resp.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream"));
        let mut body = resp.into_body();
        let first = read_until(&mut body, "\n\n").await;
        assert!(first.starts_with("event: state\ndata: {"), "{first}");
        assert!(first.contains(&id));
        post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "h8"}),
        )
        .await;
        let text = read_until(&mut body, "event: info").await;
        let text = text + &read_until(&mut body, "\"final\":true").await;
        assert!(text.contains("\"tt_hits\""), "{text}");
        // an open stream keeps the game from being cleaned up; closing it lets it go
        assert_eq!(state.games.reap(Duration::ZERO), 0);
        drop(body);
        assert_eq!(state.games.reap(Duration::ZERO), 1);
    }

    #[tokio::test]
    async fn removing_the_game_closes_the_stream() {
        let (app, _) = router();
        let (id, _) = new_game(&app, json!({"white": "person"})).await;
        let resp = app
            .clone()
            .oneshot(
                Request::get(format!("/api/games/{id}/events"))
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        let mut body = resp.into_body();
        read_until(&mut body, "event: state").await;
        call(&app, Method::DELETE, &format!("/api/games/{id}"), None).await;
        read_until(&mut body, "event: closed").await;
    }
}

// Analysis mode: every candidate move's value, whenever the engine is idle.
mod analysis {
    use super::*;

    /// The candidates of an engine report, checked for shape: unique empty points, each
    /// with a line starting with itself, a value as text and a depth.
    fn candidates(info: &Value, state: &Value) -> Vec<(String, i64, Option<i64>)> {
        let list = info["candidates"]
            .as_array()
            .unwrap_or_else(|| panic!("no candidates in {info}"));
        let taken = moves(state);
        let mut seen = Vec::new();
        for c in list {
            let m = c["move"].as_str().unwrap().to_string();
            assert!(!taken.contains(&m), "{m} is occupied: {info}");
            assert!(!seen.iter().any(|(s, _, _)| s == &m), "{m} twice: {info}");
            assert_eq!(c["pv"][0], c["move"], "{c}");
            assert!(c["depth"].as_i64().is_some_and(|d| d >= 1), "{c}");
            assert!(c["eval"].as_str().is_some_and(|e| !e.is_empty()), "{c}");
            seen.push((m, c["score"].as_i64().unwrap(), c["mate"].as_i64()));
        }
        assert!(list.len() <= 12, "at most 12 candidates: {info}");
        seen
    }

    #[tokio::test]
    async fn analysis_values_the_candidates_and_follows_the_game() {
        let (app, _) = router();
        let (id, _) = new_game(
            &app,
            json!({"level": "easy", "time_ms": 200, "position": "h8 i9"}),
        )
        .await;
        let (s, v) = post(&app, &format!("/api/games/{id}/analyze"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["analyze"], true);
        assert_eq!(v["thinking"]["purpose"], "analysis");
        assert_eq!(v["thinking"]["color"], "black");
        // live progress carries the candidates
        let v = wait_for(&app, &id, "live candidates", |v| {
            v["live"]["candidates"]
                .as_array()
                .is_some_and(|c| c.len() >= 5)
        })
        .await;
        assert_eq!(v["live"]["purpose"], "analysis");
        candidates(&v["live"], &v);
        // a hint would only repeat the analysis
        let (s, e) = post(&app, &format!("/api/games/{id}/hint"), json!({})).await;
        assert_error(s, &e, StatusCode::CONFLICT, "engine_thinking");
        // stop keeps the result, best first, and does not start again
        let (s, v) = post(&app, &format!("/api/games/{id}/stop"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let v = wait_for(&app, &id, "the finished analysis", |v| {
            !v["analysis"].is_null()
        })
        .await;
        assert!(v["thinking"].is_null(), "{v}");
        let a = &v["analysis"];
        assert_eq!(a["final"], true);
        assert_eq!(a["purpose"], "analysis");
        assert_eq!(a["color"], "black");
        let list = candidates(a, &v);
        assert!(list.len() >= 5, "{a}");
        assert_eq!(a["move"].as_str(), Some(list[0].0.as_str()), "{a}");
        assert!(a["nodes"].as_u64().is_some_and(|n| n > 0), "{a}");
        tokio::time::sleep(Duration::from_millis(100)).await;
        let (_, again) = get(&app, &format!("/api/games/{id}")).await;
        assert!(
            again["thinking"].is_null(),
            "a stopped analysis stays stopped"
        );
        // the person's move: the engine replies, then the analysis starts for Black again
        let best = list[0].0.clone();
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": best}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert!(
            v["analysis"].is_null(),
            "the old position's analysis is gone: {v}"
        );
        assert_eq!(v["thinking"]["purpose"], "move");
        let v = wait_for(&app, &id, "the analysis after the engine's reply", |v| {
            moves(v).len() == 4 && v["thinking"]["purpose"] == "analysis"
        })
        .await;
        assert_eq!(v["thinking"]["color"], "black");
        // undo while analysing: the analysis moves on with the game
        let (s, v) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(moves(&v).len(), 2);
        assert_eq!(v["thinking"]["purpose"], "analysis");
        // off: the analysis stops and its result goes
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/analyze"),
            json!({"on": false}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["analyze"], false);
        assert!(v["thinking"].is_null() && v["analysis"].is_null(), "{v}");
        assert!(v["live"].is_null(), "{v}");
        tokio::time::sleep(Duration::from_millis(100)).await;
        let (_, v) = get(&app, &format!("/api/games/{id}")).await;
        assert!(v["thinking"].is_null(), "nothing starts again: {v}");
    }

    #[tokio::test]
    async fn renju_candidates_answer_the_threat_and_skip_forbidden_points() {
        let (app, _) = router();
        // White's a1 a3 a5 a7 threaten a double four; h8 is Black's double three
        let (id, v) = new_game(
            &app,
            json!({"rule": "renju", "black": "person", "white": "person",
                   "position": "f8 a1 g8 a3 h6 a5 h7 a7"}),
        )
        .await;
        assert!(v["forbidden"].to_string().contains("h8"), "{v}");
        post(
            &app,
            &format!("/api/games/{id}/analyze"),
            json!({"on": true}),
        )
        .await;
        let v = wait_for(&app, &id, "a deep enough analysis", |v| {
            v["live"]["depth"].as_i64().is_some_and(|d| d >= 6)
                && v["live"]["candidates"].is_array()
        })
        .await;
        let list = candidates(&v["live"], &v);
        assert!(list.iter().all(|(m, _, _)| m != "h8"), "{list:?}");
        assert!(["a2", "a4", "a6"].contains(&list[0].0.as_str()), "{list:?}");
        // a8 leaves White its double four: proven lost
        if let Some((_, _, mate)) = list.iter().find(|(m, _, _)| m == "a8") {
            assert!(mate.is_some_and(|n| n < 0), "{list:?}");
        }
        post(
            &app,
            &format!("/api/games/{id}/analyze"),
            json!({"on": false}),
        )
        .await;
    }

    #[tokio::test]
    async fn points_left_out_of_the_analysis() {
        let (app, _) = router();
        // Black's straight four: g8 and l8 each make five
        let (id, _) = new_game(
            &app,
            json!({"black": "person", "white": "person", "position": "h8 a1 i8 a3 j8 a5 k8 a7"}),
        )
        .await;
        let url = format!("/api/games/{id}/analyze");
        // "7,7" is h8, occupied: refused, and nothing changed
        let (s, e) = post(&app, &url, json!({"exclude": ["g8", "7,7"]})).await;
        assert_error(s, &e, StatusCode::BAD_REQUEST, "bad_point");
        let (_, v) = get(&app, &format!("/api/games/{id}")).await;
        assert_eq!((&v["analyze"], &v["excluded"]), (&json!(false), &json!([])));
        let (s, v) = post(&app, &url, json!({"exclude": ["g8"]})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["excluded"], json!(["g8"]));
        // with a five to make, the five is the only candidate: the other one
        let v = wait_for(&app, &id, "the finished analysis", |v| {
            !v["analysis"].is_null()
        })
        .await;
        let list = candidates(&v["analysis"], &v);
        assert_eq!(list.len(), 1, "{list:?}");
        assert_eq!((list[0].0.as_str(), list[0].2), ("l8", Some(1)), "{list:?}");
        // another set restarts the analysis without them
        let (s, v) = post(&app, &url, json!({"exclude": ["l8", "g8", "l8"]})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["excluded"], json!(["l8", "g8"]));
        assert!(v["analysis"].is_null(), "{v}");
        // (the five comes a move later: any move wins in two)
        let v = wait_for(&app, &id, "candidates without either five", |v| {
            !v["analysis"].is_null()
        })
        .await;
        let list = candidates(&v["analysis"], &v);
        assert!(list.len() >= 3, "{list:?}");
        assert!(
            list.iter().all(|(m, _, _)| m != "g8" && m != "l8"),
            "{list:?}"
        );
        // they hold for this position only, and come back with it
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "b2"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["excluded"], json!([]));
        let (_, v) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        assert_eq!(v["excluded"], json!(["l8", "g8"]), "{v}");
        // an empty list restores every point; off forgets them
        let (_, v) = post(&app, &url, json!({"exclude": []})).await;
        assert_eq!(v["excluded"], json!([]));
        post(&app, &url, json!({"exclude": ["g8"]})).await;
        let (_, v) = post(&app, &url, json!({"on": false})).await;
        assert_eq!(v["excluded"], json!([]));
        assert_eq!(v["analyze"], false);
    }

    #[tokio::test]
    async fn bad_points_to_leave_out_change_nothing() {
        let (app, _) = router();
        let (id, _) = new_game(
            &app,
            json!({"size": 5, "black": "person", "white": "person", "position": "c3"}),
        )
        .await;
        let url = format!("/api/games/{id}/analyze");
        post(&app, &url, json!({"exclude": ["a1"]})).await;
        let every: Vec<String> = "abcde"
            .chars()
            .flat_map(|c| (1..=5).map(move |r| format!("{c}{r}")))
            .filter(|p| p != "c3")
            .collect();
        for (body, code) in [
            (json!({"exclude": ["c3"]}), "bad_point"),
            (json!({"exclude": ["a1", "z9"]}), "bad_point"),
            (json!({"exclude": ["a1", "7,7"]}), "bad_point"),
            (json!({"exclude": every}), "nothing_left"),
        ] {
            let (s, e) = post(&app, &url, body.clone()).await;
            assert_error(s, &e, StatusCode::BAD_REQUEST, code);
            let (_, v) = get(&app, &format!("/api/games/{id}")).await;
            assert_eq!(v["excluded"], json!(["a1"]), "{body}: {v}");
        }
        let (s, e) = call(&app, Method::POST, &url, Some(r#"{"exclude": "a1"}"#)).await;
        assert_error(s, &e, StatusCode::BAD_REQUEST, "malformed_json");
        post(&app, &url, json!({"on": false})).await;
    }

    #[tokio::test]
    async fn bad_analysis_requests_change_nothing() {
        let (app, _) = router();
        let (id, _) = new_game(
            &app,
            json!({"white": "person", "position": "h8 a1 i8 a2 j8 a3 k8 a4 l8"}),
        )
        .await;
        for body in [r#"{"on": "yes"}"#, r#"{"deep": true}"#, "[true]", "{"] {
            let (s, v) = call(
                &app,
                Method::POST,
                &format!("/api/games/{id}/analyze"),
                Some(body),
            )
            .await;
            assert_error(s, &v, StatusCode::BAD_REQUEST, "malformed_json");
        }
        let (s, v) = post(&app, "/api/games/nope/analyze", json!({})).await;
        assert_error(s, &v, StatusCode::NOT_FOUND, "unknown_game");
        // the game is over: nothing to analyse, but turning it off is fine
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/analyze"),
            json!({"on": true}),
        )
        .await;
        assert_error(s, &v, StatusCode::CONFLICT, "game_over");
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/analyze"),
            json!({"on": false}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["analyze"], false);
        assert_eq!(moves(&v).len(), 9);
        assert!(v["thinking"].is_null());
    }
}

// The swap2 opening against the engine.
mod swap2 {
    use super::*;

    fn stage(v: &Value) -> &str {
        v["opening"]["stage"].as_str().unwrap_or("over")
    }

    /// Waits until the engine has decided (the game waits for the person or is under way).
    async fn engine_decided(app: &Router, id: &str) -> Value {
        wait_for(app, id, "the engine's swap2 decision", |v| {
            v["thinking"]["purpose"] != "swap2"
        })
        .await
    }

    /// After the opening: one person and one engine, and the colours match the last decision.
    fn check_over(v: &Value) {
        assert!(v["opening"].is_null(), "{v}");
        let p = &v["players"];
        assert_ne!(p["black"], p["white"], "{v}");
        let log = v["swap2_log"].as_array().unwrap();
        let last = log.last().and_then(Value::as_str).unwrap_or("");
        let person_black = p["black"] == "person";
        let expected = match (last.contains("the engine"), last.contains("Black")) {
            (true, true) | (false, false) => !person_black,
            _ => person_black,
        };
        assert!(
            last.contains("took") && expected,
            "the log's last line {last:?} and the players {p} agree"
        );
    }

    #[tokio::test]
    async fn the_person_proposes_and_the_engine_chooses() {
        let (app, _) = router();
        let (id, v) = new_game(&app, json!({"opening": "swap2", "time_ms": 100})).await;
        assert_eq!(stage(&v), "three");
        assert_eq!(v["opening"]["actor"], "person");
        for (i, m) in ["h8", "h9", "j7"].iter().enumerate() {
            let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({"move": m})).await;
            assert_eq!(s, StatusCode::OK, "{v}");
            assert_eq!(moves(&v).len(), i + 1);
        }
        // three stones: the engine decides, and nothing else may happen meanwhile
        let (_, v) = get(&app, &format!("/api/games/{id}")).await;
        if v["thinking"]["purpose"] == "swap2" {
            let (s, e) = post(
                &app,
                &format!("/api/games/{id}/move"),
                json!({"move": "a1"}),
            )
            .await;
            assert_error(s, &e, StatusCode::CONFLICT, "not_your_turn");
        }
        let v = engine_decided(&app, &id).await;
        match stage(&v) {
            "over" => {
                check_over(&v);
                assert!(moves(&v).len() == 3 || moves(&v).len() == 4, "{v}");
            }
            "choice5" => {
                assert_eq!(moves(&v).len(), 5);
                assert_eq!(v["opening"]["choices"], json!(["black", "white"]));
                let (s, e) = post(
                    &app,
                    &format!("/api/games/{id}/swap2"),
                    json!({"choice": "more"}),
                )
                .await;
                assert_error(s, &e, StatusCode::CONFLICT, "bad_choice");
                let (s, v) = post(
                    &app,
                    &format!("/api/games/{id}/swap2"),
                    json!({"choice": "white"}),
                )
                .await;
                assert_eq!(s, StatusCode::OK, "{v}");
                check_over(&v);
                assert_eq!(v["players"]["white"], "person");
                assert_eq!(v["to_move"], "white");
            }
            other => panic!("stage {other}: {v}"),
        }
    }

    #[tokio::test]
    async fn a_beginner_level_still_searches_its_opening() {
        let (app, _) = router();
        let (id, _) = new_game(
            &app,
            json!({"opening": "swap2", "black": "engine", "white": "person",
                   "time_ms": 1000, "level": "greedy"}),
        )
        .await;
        let v = engine_decided(&app, &id).await;
        assert_eq!(stage(&v), "choice3", "{v}");
        let depths: Vec<i64> = v["swap2_log"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|l| {
                let l = l.as_str()?;
                let d = l.split("(depth ").nth(1)?;
                d.trim_end_matches(')').parse().ok()
            })
            .collect();
        assert!(!depths.is_empty(), "{v}");
        assert!(depths.iter().all(|&d| d >= 6), "{depths:?}");
    }

    #[tokio::test]
    async fn the_engine_proposes_and_the_person_puts_down_two_more() {
        let (app, _) = router();
        let (id, _) = new_game(
            &app,
            json!({"opening": "swap2", "black": "engine", "white": "person", "time_ms": 100}),
        )
        .await;
        let v = engine_decided(&app, &id).await;
        assert_eq!(stage(&v), "choice3", "{v}");
        assert_eq!(moves(&v).len(), 3);
        assert_eq!(v["opening"]["choices"], json!(["black", "white", "more"]));
        assert!(
            !v["swap2_log"].as_array().unwrap().is_empty(),
            "the engine explains: {v}"
        );
        // no stone before the choice, and no undo of the engine's stones
        let (s, e) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "a1"}),
        )
        .await;
        assert_error(s, &e, StatusCode::CONFLICT, "not_your_turn");
        let (s, e) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        assert_error(s, &e, StatusCode::CONFLICT, "nothing_to_undo");
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/swap2"),
            json!({"choice": "more"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(stage(&v), "five");
        // a stone put down may be taken back while the stage lasts
        post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "a1"}),
        )
        .await;
        let (s, v) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(moves(&v).len(), 3);
        for m in ["a1", "o15"] {
            let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({"move": m})).await;
            assert_eq!(s, StatusCode::OK, "{v}");
        }
        engine_decided(&app, &id).await;
        let v = wait_for(&app, &id, "the engine's move if it is White", |v| {
            v["thinking"].is_null() || v["players"][v["to_move"].as_str().unwrap()] == "person"
        })
        .await;
        check_over(&v);
        let n = moves(&v).len();
        assert!(n == 5 || n == 6, "{v}");
        // the opening's stones stay
        if v["thinking"].is_null() {
            let (s, e) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
            if n <= 5 {
                assert_error(s, &e, StatusCode::CONFLICT, "nothing_to_undo");
            } else {
                assert!(s == StatusCode::OK || s == StatusCode::CONFLICT, "{e}");
                let (_, v) = get(&app, &format!("/api/games/{id}")).await;
                assert!(moves(&v).len() >= 5, "{v}");
            }
        }
    }

    #[tokio::test]
    async fn taking_black_after_three_stones_lets_the_engine_play_white() {
        let (app, _) = router();
        let (id, _) = new_game(
            &app,
            json!({"opening": "swap2", "black": "engine", "white": "person", "time_ms": 100}),
        )
        .await;
        let v = engine_decided(&app, &id).await;
        assert_eq!(stage(&v), "choice3", "{v}");
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/swap2"),
            json!({"choice": "black"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["players"], json!({"black": "person", "white": "engine"}));
        let v = wait_for(&app, &id, "White's 4th stone", |v| moves(v).len() == 4).await;
        assert_eq!(v["moves"][3]["color"], "white");
        assert_eq!(v["to_move"], "black");
        assert_eq!(
            v["swap2_log"].as_array().unwrap().last().unwrap(),
            "swap2: you took Black"
        );
    }

    #[tokio::test]
    async fn bad_swap2_requests_change_nothing() {
        let (app, _) = router();
        for body in [
            json!({"opening": "swap2", "white": "person"}),
            json!({"opening": "swap2", "black": "engine"}),
            json!({"opening": "swap2", "position": "h8"}),
        ] {
            let (s, v) = post(&app, "/api/games", body).await;
            assert_error(s, &v, StatusCode::BAD_REQUEST, "bad_settings");
        }
        let (s, v) = post(&app, "/api/games", json!({"opening": "swap3"})).await;
        assert_error(s, &v, StatusCode::BAD_REQUEST, "malformed_json");
        let (id, _) = new_game(&app, json!({"opening": "swap2"})).await;
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/swap2"),
            json!({"choice": "black"}),
        )
        .await;
        assert_error(s, &v, StatusCode::CONFLICT, "not_your_choice");
        for body in [
            r#"{"choice": "red"}"#,
            r#"{}"#,
            "",
            r#"{"choice": "black", "x": 1}"#,
        ] {
            let (s, v) = call(
                &app,
                Method::POST,
                &format!("/api/games/{id}/swap2"),
                Some(body),
            )
            .await;
            assert_error(s, &v, StatusCode::BAD_REQUEST, "malformed_json");
        }
        for action in ["hint", "go", "swap", "resign", "redo"] {
            let (s, v) = post(&app, &format!("/api/games/{id}/{action}"), json!({})).await;
            assert_eq!(s, StatusCode::CONFLICT, "{action}: {v}");
        }
        let (s, v) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        assert_error(s, &v, StatusCode::CONFLICT, "nothing_to_undo");
        let (_, v) = get(&app, &format!("/api/games/{id}")).await;
        assert_eq!(stage(&v), "three");
        assert!(moves(&v).is_empty());
        // a game without an opening has no choice to make
        let (free, _) = new_game(&app, json!({"white": "person"})).await;
        let (s, v) = post(
            &app,
            &format!("/api/games/{free}/swap2"),
            json!({"choice": "black"}),
        )
        .await;
        assert_error(s, &v, StatusCode::CONFLICT, "no_opening");
    }
}

// Reviewing the game's moves.
mod review {
    use super::*;

    async fn two_people(app: &Router, position: &str) -> String {
        new_game(
            app,
            json!({"black": "person", "white": "person", "position": position}),
        )
        .await
        .0
    }

    async fn reviewed(app: &Router, id: &str) -> Value {
        wait_for(app, id, "the finished review", |v| {
            v["review"]["running"] == false
        })
        .await
    }

    /// The verdicts of a review, checked for shape: numbers in order, a colour that alternates
    /// with the number, points and values as text, a share given away between 0 and 1, marks
    /// that match the verdicts, and counts that add up.
    fn verdicts(v: &Value) -> Vec<(u64, String, String)> {
        let r = &v["review"];
        let list = r["moves"]
            .as_array()
            .unwrap_or_else(|| panic!("no moves: {v}"));
        let mut out = Vec::new();
        let mut last = 0;
        let mut counted = std::collections::HashMap::new();
        for m in list {
            let n = m["number"].as_u64().unwrap();
            assert!(n > last, "numbers in order: {r}");
            last = n;
            let color = if n % 2 == 1 { "black" } else { "white" };
            assert_eq!(m["color"], color, "{m}");
            assert_eq!(line(v)[n as usize - 1], m["move"].as_str().unwrap(), "{m}");
            assert!(m["best"].as_str().is_some_and(|b| !b.is_empty()), "{m}");
            assert!(
                m["score_text"].as_str().is_some_and(|t| !t.is_empty()),
                "{m}"
            );
            assert!(
                m["best_score_text"].as_str().is_some_and(|t| !t.is_empty()),
                "{m}"
            );
            let loss = m["loss"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&loss), "{m}");
            let verdict = m["verdict"].as_str().unwrap().to_string();
            let mark = match verdict.as_str() {
                "best" | "good" => "",
                "inaccuracy" => "?!",
                "mistake" => "?",
                "blunder" => "??",
                other => panic!("unknown verdict {other}"),
            };
            assert_eq!(m["mark"], mark, "{m}");
            *counted.entry((color, verdict.clone())).or_insert(0u64) += 1;
            out.push((n, m["move"].as_str().unwrap().to_string(), verdict));
        }
        for color in ["black", "white"] {
            for verdict in ["best", "good", "inaccuracy", "mistake", "blunder"] {
                let want = counted
                    .get(&(color, verdict.to_string()))
                    .copied()
                    .unwrap_or(0);
                assert_eq!(
                    r[color][verdict].as_u64(),
                    Some(want),
                    "{color} {verdict}: {r}"
                );
            }
        }
        out
    }

    #[tokio::test]
    async fn a_finished_game_is_judged_move_by_move() {
        let (app, _) = router();
        // White ignores Black's three with a1 and loses to the straight four
        let id = two_people(&app, "h8 h9 i8 i9 j8 a1 k8 a2 l8").await;
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/review"),
            json!({"time_ms": 100}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["thinking"]["purpose"], "review", "{v}");
        assert_eq!(v["review"]["running"], true, "{v}");
        assert_eq!(
            v["review"]["total"], 9,
            "a finished game: one search per move"
        );
        assert_eq!(v["review"]["time_ms"], 100);
        // one more review at a time, and no hint meanwhile
        let (s, e) = post(&app, &format!("/api/games/{id}/hint"), json!({})).await;
        assert_error(s, &e, StatusCode::CONFLICT, "game_over");
        let v = reviewed(&app, &id).await;
        assert!(v["thinking"].is_null(), "{v}");
        assert_eq!(v["review"]["done"], 9, "{v}");
        assert_eq!(v["review"]["complete"], true, "{v}");
        let list = verdicts(&v);
        assert_eq!(list.len(), 9, "{v}");
        assert_eq!(list[5], (6, "a1".to_string(), "blunder".to_string()), "{v}");
        assert_eq!(v["review"]["moves"][5]["mark"], "??");
        assert!(
            v["review"]["moves"][5]["score_text"]
                .as_str()
                .is_some_and(|t| t.starts_with("loss in")),
            "{v}"
        );
        assert_ne!(list[8].2, "blunder", "the winning five: {v}");
        assert!(v["review"]["white"]["blunder"].as_u64() >= Some(1), "{v}");
        // undo keeps the verdicts of the line shown, the move undone's too
        let (s, v) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!((moves(&v).len(), verdicts(&v).len()), (8, 9), "{v}");
        let (s, v) = post(&app, &format!("/api/games/{id}/redo"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(verdicts(&v).len(), 9, "{v}");
        post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        let (_, v) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        assert_eq!(moves(&v).len(), 7, "{v}");
        // another 8th move: a new line, shown from now on, with no verdict for it
        let (_, v) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "g8"}),
        )
        .await;
        let list = verdicts(&v);
        assert_eq!(list.len(), 7, "a new 8th move has no verdict: {v}");
        assert!(list.iter().all(|m| m.0 <= 7));
    }

    #[tokio::test]
    async fn a_game_in_progress_is_judged_up_to_its_last_move_and_stop_keeps_the_last_moves() {
        let (app, _) = router();
        // a quiet position: every search takes its whole time
        let id = two_people(&app, "h8 i9 g10 j7 f9 k8 e12").await;
        let (s, v) = post(&app, &format!("/api/games/{id}/review"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(
            v["review"]["total"], 8,
            "the position after the last move too"
        );
        assert_eq!(v["review"]["time_ms"], 500, "the default time");
        // stop once a few positions are done: the last moves keep their verdicts
        wait_for(&app, &id, "three positions", |v| {
            v["review"]["done"].as_u64() >= Some(3)
        })
        .await;
        let (s, v) = post(&app, &format!("/api/games/{id}/stop"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let v = reviewed(&app, &id).await;
        let list = verdicts(&v);
        assert!(!list.is_empty(), "{v}");
        assert_eq!(v["review"]["complete"], false, "{v}");
        assert!(list.len() < 7, "{v}");
        assert_eq!(
            list.last().unwrap().0,
            7,
            "a stopped review holds the last moves: {v}"
        );
        // the game goes on: a move is allowed, and a new review starts from scratch
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "e8"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/review"),
            json!({"time_ms": 50}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["review"]["moves"], json!([]), "nothing judged yet: {v}");
        // a move cancels a running review
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "a1"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        if v["review"].is_null() {
            assert!(v["thinking"].is_null(), "{v}");
        } else {
            // it had already finished: its verdicts cover the game before the move
            assert_eq!(v["review"]["running"], false, "{v}");
            assert_eq!(verdicts(&v).len(), 8, "{v}");
        }
    }

    #[tokio::test]
    async fn bad_review_requests_change_nothing() {
        let (app, _) = router();
        let id = two_people(&app, "").await;
        let (s, e) = post(&app, &format!("/api/games/{id}/review"), json!({})).await;
        assert_error(s, &e, StatusCode::CONFLICT, "nothing_to_review");
        let id = two_people(&app, "--").await;
        let (s, e) = post(&app, &format!("/api/games/{id}/review"), json!({})).await;
        assert_error(s, &e, StatusCode::CONFLICT, "nothing_to_review");
        let id = two_people(&app, "h8 i9").await;
        for (body, code) in [
            (json!({"time_ms": 0}), "bad_settings"),
            (json!({"time_ms": 100_000_000}), "bad_settings"),
            (json!({"time_ms": "fast"}), "malformed_json"),
            (json!({"depth": 3}), "malformed_json"),
        ] {
            let (s, e) = post(&app, &format!("/api/games/{id}/review"), body).await;
            assert_error(s, &e, StatusCode::BAD_REQUEST, code);
        }
        let (s, e) = call(
            &app,
            Method::POST,
            &format!("/api/games/{id}/review"),
            Some("[1]"),
        )
        .await;
        assert_error(s, &e, StatusCode::BAD_REQUEST, "malformed_json");
        let (_, v) = get(&app, &format!("/api/games/{id}")).await;
        assert!(v["review"].is_null() && v["thinking"].is_null(), "{v}");
        // not while the engine moves, not in a swap2 opening (an unknown game: see `games`)
        let id = engine_moving(&app).await;
        let (s, e) = post(&app, &format!("/api/games/{id}/review"), json!({})).await;
        assert_error(s, &e, StatusCode::CONFLICT, "engine_thinking");
        let (id, _) = new_game(&app, json!({"opening": "swap2"})).await;
        let (_, v) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "h8"}),
        )
        .await;
        assert_eq!(moves(&v).len(), 1, "{v}");
        let (s, e) = post(&app, &format!("/api/games/{id}/review"), json!({})).await;
        assert_error(s, &e, StatusCode::CONFLICT, "opening");
    }
}

// Proving a forced win for the side to move.
mod solve {
    use super::*;

    async fn solved(app: &Router, id: &str) -> Value {
        wait_for(app, id, "the solver's answer", |v| {
            v["thinking"].is_null() && !v["solution"].is_null()
        })
        .await
    }

    #[tokio::test]
    async fn a_vcf_is_found_and_shown_while_the_position_lasts() {
        let (app, _) = router();
        // Black's open three h8 i8 j8: k8 or g8 makes a straight four
        let (id, _) = new_game(
            &app,
            json!({"black": "person", "white": "person", "position": "h8 a1 i8 a3 j8 a5"}),
        )
        .await;
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/solve"),
            json!({"task": "vcf", "time_ms": 500}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["thinking"]["purpose"], "solve", "{v}");
        let v = solved(&app, &id).await;
        let sol = &v["solution"];
        assert_eq!(sol["solved"], true, "{v}");
        assert_eq!(sol["task"], "vcf");
        assert_eq!(sol["method"], "vcf");
        assert_eq!(sol["color"], "black");
        assert_eq!(sol["limit_ms"], 500);
        let line: Vec<String> = sol["line"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_string())
            .collect();
        assert!(
            line.len() % 2 == 1,
            "the attacker's move ends the line: {line:?}"
        );
        let taken = moves(&v);
        assert!(line.iter().all(|p| !taken.contains(p)), "{line:?}");
        // the line starts with the straight four (which wins by itself, so it may be all)
        assert!(["g8", "k8"].contains(&line[0].as_str()), "{line:?}");
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": line[0]}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert!(
            v["solution"].is_null(),
            "the answer was for another position: {v}"
        );
        // a finished game has nothing to solve
        let (id, _) = new_game(
            &app,
            json!({"black": "person", "white": "person", "position": "h8 a1 i8 a3 j8 a5 k8 a7 l8"}),
        )
        .await;
        let (s, e) = post(&app, &format!("/api/games/{id}/solve"), json!({})).await;
        assert_error(s, &e, StatusCode::CONFLICT, "game_over");
    }

    #[tokio::test]
    async fn no_win_is_an_answer_too_and_bad_requests_change_nothing() {
        let (app, _) = router();
        let (id, _) = new_game(
            &app,
            json!({"black": "person", "white": "person", "position": "h8"}),
        )
        .await;
        for (body, code) in [
            (json!({"task": "checkmate"}), "bad_task"),
            (json!({"time_ms": 0}), "bad_settings"),
            (json!({"time_ms": 60_000}), "bad_settings"),
            (json!({"task": 3}), "malformed_json"),
            (json!({"depth": 3}), "malformed_json"),
        ] {
            let (s, e) = post(&app, &format!("/api/games/{id}/solve"), body).await;
            assert_error(s, &e, StatusCode::BAD_REQUEST, code);
        }
        let (_, v) = get(&app, &format!("/api/games/{id}")).await;
        assert!(v["thinking"].is_null() && v["solution"].is_null(), "{v}");
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/solve"),
            json!({"time_ms": 200}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let v = solved(&app, &id).await;
        let sol = &v["solution"];
        assert_eq!(sol["solved"], false, "{v}");
        assert_eq!(sol["task"], "vct", "the default");
        assert_eq!(sol["color"], "white");
        assert_eq!(sol["line"], json!([]));
        assert!(sol["method"].is_null());
        // undo: another position, no answer shown; redo: the same position, the answer is back
        let (_, v) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        assert!(v["solution"].is_null(), "{v}");
        let (_, v) = post(&app, &format!("/api/games/{id}/redo"), json!({})).await;
        assert_eq!(v["solution"]["color"], "white", "{v}");
        // not while the engine moves
        let id = engine_moving(&app).await;
        let (s, e) = post(&app, &format!("/api/games/{id}/solve"), json!({})).await;
        assert_error(s, &e, StatusCode::CONFLICT, "engine_thinking");
    }

    #[tokio::test]
    async fn stop_ends_a_solve_early_and_it_can_be_asked_again() {
        let (app, _) = router();
        // a quiet position: nothing to prove, so the solver would use all of its 30 s
        let (id, _) = new_game(
            &app,
            json!({"black": "person", "white": "person", "position": "h8 h7 j6 i7 f7 g7"}),
        )
        .await;
        let asked = std::time::Instant::now();
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/solve"),
            json!({"task": "win", "time_ms": 30_000}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let (s, v) = post(&app, &format!("/api/games/{id}/stop"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let v = solved(&app, &id).await;
        let sol = &v["solution"];
        assert_eq!(sol["stopped"], true, "{v}");
        assert_eq!(sol["solved"], false, "{v}");
        assert_eq!(sol["limit_ms"], 30_000);
        // a generous bound: only a solve that ignored the stop runs its 30 s
        assert!(asked.elapsed().as_secs() < 20, "{v}");
        assert!(sol["time_ms"].as_u64().unwrap() < 20_000, "{v}");
        // the same position may be asked again, and that answer runs to its time
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/solve"),
            json!({"task": "vcf", "time_ms": 200}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let v = solved(&app, &id).await;
        assert_eq!(v["solution"]["stopped"], false, "{v}");
        assert_eq!(v["solution"]["task"], "vcf", "{v}");
    }
}

// A game clock.
mod clock {
    use super::*;

    fn ms(v: &Value, color: &str) -> u64 {
        v["clock"][format!("{color}_ms")]
            .as_u64()
            .unwrap_or_else(|| panic!("no clock: {v}"))
    }

    #[tokio::test]
    async fn a_move_takes_its_time_off_the_clock_and_adds_the_increment() {
        let (app, _) = router();
        let (id, v) = new_game(
            &app,
            json!({"black": "person", "white": "person", "clock_ms": 60_000, "increment_ms": 2_000}),
        )
        .await;
        assert_eq!(v["clock"]["running"], "black", "{v}");
        assert_eq!(v["clock"]["increment_ms"], 2_000);
        assert!(
            ms(&v, "black") <= 60_000 && ms(&v, "white") == 60_000,
            "{v}"
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "h8"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let black = ms(&v, "black");
        // 60 s, less the 0.3 s or more the move took, plus the 2 s increment
        assert!((50_000..=61_700).contains(&black), "{v}");
        assert_eq!(v["clock"]["running"], "white", "{v}");
        assert_eq!(
            v["moves"][0]["ms"].as_u64().map(|t| t >= 300),
            Some(true),
            "{v}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
        let (_, v) = get(&app, &format!("/api/games/{id}")).await;
        assert!(ms(&v, "white") <= 59_800, "White's time runs: {v}");
        assert_eq!(ms(&v, "black"), black, "Black's stands: {v}");
        // an undo charges the turn under way (no increment) and Black's clock runs again
        let (s, v) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["clock"]["running"], "black", "{v}");
        assert!(ms(&v, "white") <= 59_800, "{v}");
        assert!(ms(&v, "black") <= black, "{v}");
        // a resignation stops the clock
        let (s, v) = post(&app, &format!("/api/games/{id}/resign"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert!(v["clock"]["running"].is_null(), "{v}");
        assert_eq!(v["result"]["timeout"], false, "{v}");
    }

    #[tokio::test]
    async fn the_side_whose_time_runs_out_loses() {
        let (app, _) = router();
        let (id, _) = new_game(
            &app,
            json!({"black": "person", "white": "person", "clock_ms": 1_000, "position": "h8 i9"}),
        )
        .await;
        let v = wait_for(&app, &id, "Black's flag", |v| !v["result"].is_null()).await;
        assert_eq!(v["result"]["winner"], "white", "{v}");
        assert_eq!(v["result"]["timeout"], true, "{v}");
        assert_eq!(v["result"]["resigned"], false, "{v}");
        assert_eq!(ms(&v, "black"), 0, "{v}");
        assert_eq!(ms(&v, "white"), 1_000, "{v}");
        assert!(v["clock"]["running"].is_null(), "{v}");
        let (s, e) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "j10"}),
        )
        .await;
        assert_error(s, &e, StatusCode::CONFLICT, "game_over");
        let (s, e) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        assert_error(s, &e, StatusCode::CONFLICT, "lost_on_time");
        let (_, after) = get(&app, &format!("/api/games/{id}")).await;
        assert_eq!(moves(&after), ["h8", "i9"], "{after}");
        assert_eq!(after["result"], v["result"]);
    }

    #[tokio::test]
    async fn the_engine_plays_on_the_clock() {
        let (app, _) = router();
        let (id, _) = new_game(
            &app,
            json!({"black": "engine", "white": "engine", "clock_ms": 4_000, "time_ms": 2_000}),
        )
        .await;
        let v = wait_for(&app, &id, "six engine moves", |v| {
            v["moves"].as_array().is_some_and(|m| m.len() >= 6)
        })
        .await;
        // each move takes a share of the time left, far less than the 2 s per move
        for color in ["black", "white"] {
            let left = ms(&v, color);
            assert!(left > 1_000 && left < 4_000, "{color}: {v}");
        }
        assert!(v["result"].is_null(), "{v}");
        let (s, _) = call(&app, Method::DELETE, &format!("/api/games/{id}"), None).await;
        assert!(s.is_success());
    }

    #[tokio::test]
    async fn bad_clocks_are_refused_and_no_clock_is_the_default() {
        let (app, _) = router();
        for (body, code) in [
            (json!({"clock_ms": 10}), "bad_settings"),
            (json!({"clock_ms": 11_000_000}), "bad_settings"),
            (
                json!({"clock_ms": 60_000, "increment_ms": 61_000}),
                "bad_settings",
            ),
            (json!({"increment_ms": 1_000}), "bad_settings"),
            (json!({"clock_ms": "5 min"}), "malformed_json"),
            (json!({"clock_ms": -1}), "malformed_json"),
        ] {
            let (s, e) = post(&app, "/api/games", body.clone()).await;
            assert_error(s, &e, StatusCode::BAD_REQUEST, code);
        }
        let (_, v) = new_game(&app, json!({"black": "person", "white": "person"})).await;
        assert!(v["clock"].is_null(), "{v}");
        let (_, v) = new_game(&app, json!({"clock_ms": 0, "increment_ms": 0})).await;
        assert!(v["clock"].is_null(), "{v}");
    }
}

// A position set up stone by stone as the start of a game.
mod setup {
    use super::*;

    #[tokio::test]
    async fn the_stones_are_the_start_and_cannot_be_undone() {
        let (app, _) = router();
        let (id, v) = new_game(
            &app,
            json!({"black": "person", "white": "person", "rule": "renju",
                   "setup": {"black": ["h8", "i9"], "white": ["7,6"]}}),
        )
        .await;
        // laid down alternately from Black; White to move (Black has one stone more)
        assert_eq!(moves(&v), ["h8", "h9", "i9"]);
        assert_eq!(v["setup_plies"], 3);
        assert_eq!(v["to_move"], "white");
        assert_eq!(v["rule"], "renju");
        let uri = |what: &str| format!("/api/games/{id}/{what}");
        let (s, e) = post(&app, &uri("undo"), json!({})).await;
        assert_error(s, &e, StatusCode::CONFLICT, "nothing_to_undo");
        assert!(
            e["error"]["message"].as_str().unwrap().contains("set-up"),
            "{e}"
        );
        let (s, v) = post(&app, &uri("move"), json!({"move": "j10"})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let (s, v) = post(&app, &uri("undo"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(moves(&v), ["h8", "h9", "i9"]);
        let (s, e) = post(&app, &uri("undo"), json!({})).await;
        assert_error(s, &e, StatusCode::CONFLICT, "nothing_to_undo");
        let (_, v) = get(&app, &format!("/api/games/{id}")).await;
        assert_eq!(moves(&v), ["h8", "h9", "i9"], "unchanged by the refusals");
        assert_eq!(v["redo"], json!(["j10"]));

        // the side to move may be chosen: passes hand it over, and a game without a set-up
        // position has none
        let (_, v) = new_game(
            &app,
            json!({"black": "person", "white": "person",
                   "setup": {"black": ["h8", "i8", "j8"], "to_move": "black"}}),
        )
        .await;
        assert_eq!(moves(&v), ["h8", "--", "i8", "--", "j8", "--"]);
        assert_eq!(v["setup_plies"], 6);
        assert_eq!(v["to_move"], "black");
        let (_, v) = new_game(&app, json!({"position": "h8 i9"})).await;
        assert_eq!(v["setup_plies"], 0);
    }

    #[tokio::test]
    async fn the_engine_moves_from_a_set_up_position() {
        let (app, _) = router();
        // White to move must stop Black's open three h8 i8 j8
        let (id, _) = new_game(
            &app,
            json!({"black": "person", "white": "engine", "time_ms": 300,
                   "setup": {"black": ["h8", "i8", "j8"], "white": ["h9", "i10"]}}),
        )
        .await;
        let v = wait_for(&app, &id, "the engine's move", |v| {
            v["moves"].as_array().is_some_and(|m| m.len() == 6) && v["thinking"].is_null()
        })
        .await;
        let reply = v["moves"][5]["move"].as_str().unwrap().to_string();
        assert!(
            ["g8", "k8", "f8", "l8"].contains(&reply.as_str()),
            "White blocks the open three: {v}"
        );
        assert!(v["moves"][5]["engine"]["nodes"].as_u64() > Some(0), "{v}");
    }

    #[tokio::test]
    async fn a_review_starts_after_the_set_up_stones() {
        let (app, _) = router();
        let (id, _) = new_game(
            &app,
            json!({"black": "person", "white": "person",
                   "setup": {"black": ["h8", "i9"], "white": ["h9"]}}),
        )
        .await;
        for m in ["g7", "j10"] {
            let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({"move": m})).await;
            assert_eq!(s, StatusCode::OK, "{v}");
        }
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/review"),
            json!({"time_ms": 50}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(
            v["review"]["total"], 3,
            "two moves and the position after them"
        );
        let v = wait_for(&app, &id, "the finished review", |v| {
            v["review"]["running"] == false
        })
        .await;
        let judged: Vec<(u64, &str, &str)> = v["review"]["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["number"].as_u64().unwrap(),
                    m["move"].as_str().unwrap(),
                    m["color"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(judged, [(4, "g7", "white"), (5, "j10", "black")], "{v}");
    }

    #[tokio::test]
    async fn bad_set_ups_are_refused() {
        let (app, state) = router();
        let before = state.games.len();
        for (setup, code, says) in [
            (json!({"black": ["h8", "h8"]}), "bad_position", "occupied"),
            (
                json!({"black": ["h8"], "white": ["h8"]}),
                "bad_position",
                "occupied",
            ),
            (json!({"black": ["z99"]}), "bad_position", "black stone"),
            (json!({"white": ["--"]}), "bad_position", "white stone"),
            (
                json!({"black": ["a1", "a2", "a3", "a4", "a5"]}),
                "bad_position",
                "winning line",
            ),
            (
                json!({"black": ["h8"], "to_move": "red"}),
                "bad_color",
                "colour",
            ),
            (json!({"black": "h8"}), "malformed_json", ""),
            (json!({"stones": ["h8"]}), "malformed_json", ""),
        ] {
            let (s, e) = post(&app, "/api/games", json!({"setup": setup})).await;
            assert_error(s, &e, StatusCode::BAD_REQUEST, code);
            assert!(
                e["error"]["message"].as_str().unwrap().contains(says),
                "{setup}: {e}"
            );
        }
        for extra in [
            json!({"position": "h8"}),
            json!({"psq": "Piskvorky 15x15, 11:11, 0\n8,8,0\n"}),
            json!({"opening": "swap2", "white": "engine"}),
        ] {
            let mut body = json!({"setup": {"black": ["h8"]}});
            body.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            let (s, e) = post(&app, "/api/games", body).await;
            assert_error(s, &e, StatusCode::BAD_REQUEST, "bad_settings");
        }
        assert_eq!(state.games.len(), before, "no game was made");
    }
}

// A board diagram as the start of a game, and the game exported as one.
mod diagram {
    use super::*;

    #[tokio::test]
    async fn a_diagram_starts_a_game_and_the_export_reads_back() {
        let (app, _) = router();
        let text = "  a b c d e f g h i\n\
                    9 . . . . . . . . . 9\n\
                    8 . . . . . . . . . 8\n\
                    7 . . . . . . . . . 7\n\
                    6 . . . X O . . . . 6\n\
                    5 . . . .[X]. . . . 5\n\
                    4 . . . . . . . . . 4\n\
                    3 . . . . . . . . . 3\n\
                    2 . . . . . . . . . 2\n\
                    1 . . . . . . . . . 1\n";
        let (id, v) = new_game(
            &app,
            json!({"black": "person", "white": "person", "diagram": text}),
        )
        .await;
        assert_eq!(v["size"], 9);
        assert_eq!(v["to_move"], "white", "Black has a stone more");
        assert_eq!(v["setup_plies"], 3);
        let mut stones = moves(&v);
        stones.sort();
        assert_eq!(stones, ["d6", "e5", "e6"]);
        let (s, e) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        assert_error(s, &e, StatusCode::CONFLICT, "nothing_to_undo");
        // the export draws the same board and says who is to move; it reads back as it was
        let (s, out) = get(&app, &format!("/api/games/{id}/export?format=diagram")).await;
        assert_eq!(s, StatusCode::OK);
        let out = out.as_str().unwrap().to_string();
        assert!(out.contains(" 6  . . . X O . . . .  6"), "{out}");
        assert!(out.ends_with("to move: white\n"), "{out}");
        let (_, again) = new_game(&app, json!({"diagram": out})).await;
        assert_eq!(again["size"], 9);
        assert_eq!(again["to_move"], "white");
        let mut back = moves(&again);
        back.sort();
        assert_eq!(back, stones);
        // the side to move as the text says
        let (_, v) = new_game(&app, json!({"diagram": format!("{text}to move: black")})).await;
        assert_eq!(v["to_move"], "black");
        assert_eq!(moves(&v).len(), 4, "a pass hands the move to Black");
    }

    #[tokio::test]
    async fn bad_diagrams_are_refused() {
        let (app, state) = router();
        let row = ".........\n";
        for (body, code, says) in [
            (json!({"diagram": "h8 i9"}), "bad_position", "no rows"),
            (
                json!({"diagram": format!("{}........\n", row.repeat(8))}),
                "bad_position",
                "line 9",
            ),
            (
                json!({"diagram": format!("XXXXX....\n{}", row.repeat(8))}),
                "bad_position",
                "winning line",
            ),
            (
                json!({"diagram": row.repeat(9), "size": 15}),
                "bad_settings",
                "differs",
            ),
            (
                json!({"diagram": row.repeat(9), "position": "h8"}),
                "bad_settings",
                "one of",
            ),
            (json!({"diagram": 9}), "malformed_json", ""),
        ] {
            let (s, e) = post(&app, "/api/games", body.clone()).await;
            assert_error(s, &e, StatusCode::BAD_REQUEST, code);
            assert!(
                e["error"]["message"].as_str().unwrap().contains(says),
                "{body}: {e}"
            );
        }
        assert_eq!(state.games.len(), 0, "no game was made");
        let (id, _) = new_game(&app, json!({})).await;
        let (s, e) = get(&app, &format!("/api/games/{id}/export?format=svg")).await;
        assert_error(s, &e, StatusCode::BAD_REQUEST, "bad_request");
        assert!(e["error"]["message"].as_str().unwrap().contains("diagram"));
    }
}

// A line of the datasets' common format as the start of a game, and the game exported as one.
mod position_line {
    use super::*;

    #[tokio::test]
    async fn a_game_line_is_a_game_and_reads_back() {
        let (app, _) = router();
        let (id, v) = new_game(
            &app,
            json!({"black": "person", "white": "person", "record": "9 standard e5 d4 e4 | set=x"}),
        )
        .await;
        assert_eq!(
            (v["size"].as_u64(), v["rule"].as_str()),
            (Some(9), Some("standard"))
        );
        assert_eq!(v["setup_plies"], 0);
        assert_eq!(moves(&v), ["e5", "d4", "e4"]);
        let (s, out) = get(&app, &format!("/api/games/{id}/export?format=record")).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(out, "9 standard e5 d4 e4\n");
        // its moves can be taken back
        let (s, v) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(moves(&v), ["e5", "d4"]);
    }

    #[tokio::test]
    async fn a_puzzle_line_is_a_set_up_position_and_so_is_its_export() {
        let (app, _) = router();
        // (line, side to move, whether it is a set-up position): a shared VCF puzzle whose
        // stones play as a game, one with a pass, one in no game's order (Black's j8 would be
        // a double three)
        for (line, to_move, set_up) in [
            (
                "15 renju h11 g9 g10 h9 f9 g8 h8 f7 j8 i7 h7 i6 e6 | task=vcf side=white",
                "white",
                false,
            ),
            ("15 renju h8 -- i9 | task=x", "white", true),
            ("15 renju h8 a1 i8 a3 j9 a5 j10 a7 j8 a9", "black", true),
        ] {
            let (id, v) = new_game(
                &app,
                json!({"black": "person", "white": "person", "record": line}),
            )
            .await;
            assert_eq!(v["rule"], "renju", "{line}");
            assert_eq!(v["to_move"], to_move, "{line}");
            assert_eq!(v["result"], Value::Null, "{line}");
            let tokens = line.split('|').next().unwrap().split_whitespace().skip(2);
            assert_eq!(moves(&v).len(), tokens.count(), "{line}: {v}");
            let plies = v["setup_plies"].as_u64().unwrap();
            if set_up {
                assert_eq!(plies as usize, moves(&v).len(), "{line}: {v}");
                let (s, e) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
                assert_error(s, &e, StatusCode::CONFLICT, "nothing_to_undo");
            } else {
                assert_eq!(plies, 0, "{line}");
            }
            // the export holds the set-up's passes, so it reads back as a set-up position
            let (_, out) = get(&app, &format!("/api/games/{id}/export?format=record")).await;
            let out = out.as_str().unwrap().trim().to_string();
            let (_, again) = new_game(&app, json!({"record": out})).await;
            assert_eq!(again["setup_plies"], v["setup_plies"], "{line}");
            assert_eq!(again["to_move"], v["to_move"], "{line}");
            assert_eq!(moves(&again), moves(&v), "{line}");
        }
    }

    #[tokio::test]
    async fn a_set_up_game_exports_a_line_that_keeps_its_start() {
        let (app, _) = router();
        let (id, v) = new_game(
            &app,
            json!({"black": "person", "white": "person",
                   "setup": {"black": ["h8", "i8", "j8"], "white": ["a1"]}}),
        )
        .await;
        let (_, v2) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "a15"}),
        )
        .await;
        assert_eq!(moves(&v2).len(), moves(&v).len() + 1, "{v2}");
        let (_, out) = get(&app, &format!("/api/games/{id}/export?format=record")).await;
        let out = out.as_str().unwrap().trim().to_string();
        assert!(out.starts_with("15 freestyle h8 a1 i8 -- j8"), "{out}");
        let (_, again) = new_game(&app, json!({"record": out})).await;
        // the stones and the side to move are kept; the move after the set-up joins it
        assert_eq!(again["to_move"], v2["to_move"]);
        let mut a = moves(&again);
        let mut b = moves(&v2);
        a.sort();
        b.sort();
        assert_eq!(a, b);
        assert!(again["setup_plies"].as_u64().unwrap() > 0);
    }

    #[tokio::test]
    async fn bad_lines_are_refused() {
        let (app, state) = router();
        for (body, code, says) in [
            (json!({"record": "15 gobang h8"}), "bad_position", "gobang"),
            (
                json!({"record": "15 renju h8 | novalue"}),
                "bad_position",
                "key=value",
            ),
            (json!({"record": "15 renju h99"}), "bad_position", "h99"),
            (json!({"record": "15 renju h8 h8"}), "bad_position", "h8"),
            (
                json!({"record": "9 freestyle a1 -- a2 -- a3 -- a4 -- a5"}),
                "bad_position",
                "winning line",
            ),
            (
                json!({"record": "15 renju h8", "size": 19}),
                "bad_settings",
                "differs",
            ),
            (
                json!({"record": "15 renju h8", "rule": "standard"}),
                "bad_settings",
                "differs",
            ),
            (
                json!({"record": "15 renju h8", "position": "h8"}),
                "bad_settings",
                "one of",
            ),
            (json!({"record": ""}), "bad_position", "expected"),
        ] {
            let (s, e) = post(&app, "/api/games", body.clone()).await;
            assert_error(s, &e, StatusCode::BAD_REQUEST, code);
            assert!(
                e["error"]["message"].as_str().unwrap().contains(says),
                "{body}: {e}"
            );
        }
        assert_eq!(state.games.len(), 0, "no game was made");
    }
}

// The renju opening rules (Soosõrv-8, Taraguchi-10), with the engine or between two people.
mod renju {
    use super::*;

    /// A server whose every search stops after a few nodes (quick, and the same every time).
    fn small_router() -> Router {
        app(AppState::new(ServerConfig {
            hash_mb: 4,
            node_limit: Some(1500),
            ..ServerConfig::default()
        }))
    }

    /// The points of a 15x15 board from the centre outwards, `h8` style.
    fn from_centre() -> Vec<String> {
        let mut pts: Vec<(usize, usize, String)> = Vec::new();
        for x in 0..15usize {
            for y in 0..15usize {
                let ring = x.abs_diff(7).max(y.abs_diff(7));
                let name = format!("{}{}", (b'a' + x as u8) as char, 15 - y);
                pts.push((ring, x.abs_diff(7) + y.abs_diff(7), name));
            }
        }
        pts.sort();
        pts.into_iter().map(|(_, _, p)| p).collect()
    }

    fn step(v: &Value) -> &str {
        v["renju"]["step"]["kind"].as_str().unwrap_or("over")
    }

    /// Tries `req` (a path and a body), which must be refused with `code`, and checks that the
    /// game did not change.
    async fn refused(app: &Router, id: &str, path: &str, body: Value, code: &str) {
        let (_, before) = get(app, &format!("/api/games/{id}")).await;
        let (s, e) = post(app, &format!("/api/games/{id}/{path}"), body.clone()).await;
        assert!(s.is_client_error(), "{path} {body}: {e}");
        assert_eq!(error_code(&e), code, "{path} {body}: {e}");
        let (_, after) = get(app, &format!("/api/games/{id}")).await;
        assert_eq!(
            after["version"], before["version"],
            "{path} {body}: the game changed"
        );
        assert_eq!(after["renju"], before["renju"]);
    }

    /// Plays the person's steps of a renju opening until it is over, the engine acting in
    /// between: stones and offers on the free points nearest the centre (the next one when
    /// refused), `keep` (or `swap` at the first swap with `swap_once`), 3 offers, ten at the
    /// 5th, the first offer; before some steps, an illegal one that must change nothing.
    async fn drive(app: &Router, id: &str, swap_once: bool) -> Value {
        let points = from_centre();
        let mut swapped = false;
        let mut tried_bad = std::collections::HashSet::new();
        for _ in 0..200 {
            let v = wait_for(app, id, "the person's step", |v| {
                v["thinking"].is_null()
                    && (v["renju"]["over"] == true || v["renju"]["actor"] == "person")
            })
            .await;
            if v["renju"]["over"] == true {
                return v;
            }
            let kind = step(&v).to_string();
            if tried_bad.insert(kind.clone()) {
                match kind.as_str() {
                    "stone" if v["renju"]["step"]["area"] != 0 => {
                        refused(app, id, "move", json!({"move": "a1"}), "outside_area").await;
                        refused(app, id, "renju", json!({"action": "swap"}), "bad_step").await;
                    }
                    "swap" => {
                        refused(app, id, "move", json!({"move": "a1"}), "choose_first").await;
                        refused(
                            app,
                            id,
                            "renju",
                            json!({"action": "declare", "count": 2}),
                            "bad_step",
                        )
                        .await;
                    }
                    "declare" => {
                        refused(
                            app,
                            id,
                            "renju",
                            json!({"action": "declare", "count": 9}),
                            "bad_count",
                        )
                        .await;
                        refused(app, id, "renju", json!({"action": "jump"}), "bad_action").await;
                    }
                    "choose" => {
                        refused(app, id, "move", json!({"move": "a1"}), "not_offered").await;
                    }
                    _ => {}
                }
            }
            let (path, body) = match kind.as_str() {
                "swap" => {
                    let swap = swap_once && !swapped;
                    swapped |= swap;
                    (
                        "renju",
                        json!({"action": if swap { "swap" } else { "keep" }}),
                    )
                }
                "declare" => ("renju", json!({"action": "declare", "count": 3})),
                "fifth" => ("renju", json!({"action": "declare", "count": 10})),
                "choose" => ("move", json!({"move": v["renju"]["offers"][0]})),
                _ => {
                    // a stone or an offer: the first free point that the rule takes
                    let taken: Vec<String> = moves(&v);
                    let offered: Vec<String> = v["renju"]["offers"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|p| p.as_str().unwrap().to_string())
                        .collect();
                    let mut done = false;
                    for p in points
                        .iter()
                        .filter(|p| !taken.contains(p) && !offered.contains(p))
                    {
                        let (s, _) =
                            post(app, &format!("/api/games/{id}/move"), json!({"move": p})).await;
                        if s == StatusCode::OK {
                            done = true;
                            break;
                        }
                    }
                    assert!(done, "no point taken at {kind}: {v}");
                    continue;
                }
            };
            let (s, e) = post(app, &format!("/api/games/{id}/{path}"), body).await;
            assert_eq!(s, StatusCode::OK, "{e}");
        }
        panic!("the opening did not end");
    }

    /// Once the opening is over: five stones, White to move (the sixth), the first three
    /// named, the players as the colours were settled.
    fn check_over(v: &Value) {
        assert_eq!(v["renju"]["over"], true, "{v}");
        assert!(v["renju"]["step"].is_null());
        assert!(moves(v).len() >= 5, "{v}");
        assert!(v["opening_name"]["code"].is_string(), "{v}");
        assert!(!v["renju"]["log"].as_array().unwrap().is_empty());
    }

    #[tokio::test]
    async fn soosorv8_against_the_engine_on_each_side() {
        let app = small_router();
        for (black, white, swap_once) in [
            ("person", "engine", false),
            ("engine", "person", false),
            ("person", "engine", true),
        ] {
            let (id, v) = new_game(
                &app,
                json!({"opening": "soosorv8", "rule": "renju", "black": black, "white": white}),
            )
            .await;
            assert_eq!(v["renju"]["rule"], "soosorv8");
            assert_eq!(v["renju"]["first"], black);
            let v = drive(&app, &id, swap_once).await;
            check_over(&v);
            assert!(
                (1..=8).contains(&v["renju"]["declared"].as_u64().unwrap()),
                "{v}"
            );
            // the person and the engine hold one colour each, as the opening left them
            assert_ne!(v["players"]["black"], v["players"]["white"], "{v}");
            let (_, rec) = get(&app, &format!("/api/games/{id}/export?format=record")).await;
            let rec = rec.as_str().unwrap();
            assert!(
                rec.contains(" renju_opening=") && rec.contains(" opening_rule=soosorv8"),
                "{rec}"
            );
            assert!(rec.contains(" offers="), "{rec}");
            // the SGF record names the opening too
            let (_, sgf) = get(&app, &format!("/api/games/{id}/export?format=sgf")).await;
            let name = format!(
                "ON[{} {} ({})]",
                v["opening_name"]["name"].as_str().unwrap(),
                v["opening_name"]["chinese"].as_str().unwrap(),
                v["opening_name"]["code"].as_str().unwrap()
            );
            assert!(sgf.as_str().unwrap().contains(&name), "{sgf}");
            // the opening cannot be undone past its end
            let (s, _) = get(&app, &format!("/api/games/{id}")).await;
            assert_eq!(s, StatusCode::OK);
        }
    }

    #[tokio::test]
    async fn taraguchi10_between_two_people_and_against_the_engine() {
        let app = small_router();
        for (black, white, swap_once) in [
            ("person", "person", true),
            ("person", "engine", true),
            ("engine", "person", false),
            ("engine", "engine", false),
        ] {
            let (id, _) = new_game(
                &app,
                json!({"opening": "taraguchi10", "rule": "renju", "black": black, "white": white}),
            )
            .await;
            let v = drive(&app, &id, swap_once).await;
            check_over(&v);
            if black == white {
                assert_eq!(v["players"]["black"], black, "{v}");
            }
        }
    }

    #[tokio::test]
    async fn bad_bodies_of_a_renju_step_are_400_and_change_nothing() {
        let app = small_router();
        let (id, _) = new_game(
            &app,
            json!({"opening": "soosorv8", "black": "person", "white": "person"}),
        )
        .await;
        for p in ["h8", "h9", "i9"] {
            let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({"move": p})).await;
            assert_eq!(s, StatusCode::OK, "{v}");
        }
        let (_, before) = get(&app, &format!("/api/games/{id}")).await;
        assert_eq!(step(&before), "swap", "{before}");
        // (body, error code, a word of the message)
        for (body, code, says) in [
            ("", "malformed_json", "needs a JSON body"),
            ("{", "malformed_json", "malformed JSON"),
            (r#"["swap"]"#, "malformed_json", "object"),
            (r#"{"action": 3}"#, "malformed_json", "malformed JSON"),
            (
                r#"{"action": "swap", "side": "black"}"#,
                "malformed_json",
                "side",
            ),
            (
                r#"{"action": "declare", "count": -1}"#,
                "malformed_json",
                "-1",
            ),
            (
                r#"{"action": "declare", "count": "three"}"#,
                "malformed_json",
                "three",
            ),
            (r#"{"count": 3}"#, "malformed_json", "action"),
            (r#"{"action": "jump"}"#, "bad_action", "'jump'"),
            (r#"{"action": "declare"}"#, "bad_action", "with a count"),
            (
                r#"{"action": "keep", "count": 2}"#,
                "bad_action",
                "with a count",
            ),
            (r#"{"action": "declare", "count": 3}"#, "bad_step", "swap"),
        ] {
            let (s, e) = call(
                &app,
                Method::POST,
                &format!("/api/games/{id}/renju"),
                Some(body),
            )
            .await;
            assert!(s.is_client_error(), "{body}: {s} {e}");
            assert_eq!(error_code(&e), code, "{body}: {e}");
            let message = e["error"]["message"].as_str().unwrap_or_default();
            assert!(message.contains(says), "{body}: {e}");
            let (_, after) = get(&app, &format!("/api/games/{id}")).await;
            assert_eq!(after, before, "{body}: the game changed");
        }
        // a point where the step is a word, and a word after the opening
        refused(&app, &id, "move", json!({"move": "a1"}), "choose_first").await;
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/renju"),
            json!({"action": "keep"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(step(&v), "stone");
        assert_eq!(v["renju"]["step"]["number"], 4);
    }

    #[tokio::test]
    async fn steps_out_of_turn_and_bad_games_are_refused() {
        let app = small_router();
        let (id, _) = new_game(&app, json!({"opening": "taraguchi10", "rule": "renju"})).await;
        // nothing but the opening meanwhile
        for path in ["hint", "go", "swap", "redo", "resign"] {
            let (s, e) = post(&app, &format!("/api/games/{id}/{path}"), json!({})).await;
            assert_error(s, &e, StatusCode::CONFLICT, error_code(&e));
            assert!(
                e["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("Taraguchi-10"),
                "{path}: {e}"
            );
        }
        // two people: undo takes back the last step, whoever took it
        let (id, _) = new_game(
            &app,
            json!({"opening": "soosorv8", "rule": "renju", "black": "person", "white": "person"}),
        )
        .await;
        for p in ["h8", "h9"] {
            let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({"move": p})).await;
            assert_eq!(s, StatusCode::OK, "{v}");
        }
        let (s, v) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(moves(&v), ["h8"]);
        assert_eq!(v["renju"]["step"]["number"], 2);
        // no renju opening: its actions are refused
        let (plain, _) = new_game(&app, json!({})).await;
        let (s, e) = post(
            &app,
            &format!("/api/games/{plain}/renju"),
            json!({"action": "swap"}),
        )
        .await;
        assert_error(s, &e, StatusCode::CONFLICT, "no_opening");
        // a renju opening needs the empty board and a centre
        for (body, says) in [
            (
                json!({"opening": "soosorv8", "position": "h8"}),
                "empty board",
            ),
            (json!({"opening": "taraguchi10", "size": 16}), "centre"),
            (json!({"opening": "taraguchi10", "size": 7}), "9x9"),
        ] {
            let (s, e) = post(&app, "/api/games", body.clone()).await;
            assert_error(s, &e, StatusCode::BAD_REQUEST, "bad_settings");
            assert!(
                e["error"]["message"].as_str().unwrap().contains(says),
                "{body}: {e}"
            );
        }
        // a free game whose first three moves form an opening is named
        let (id, _) = new_game(
            &app,
            json!({"position": "h8 i9 j10", "rule": "renju", "black": "person", "white": "person"}),
        )
        .await;
        let (_, v) = get(&app, &format!("/api/games/{id}")).await;
        assert_eq!(v["opening_name"]["name"], "Chōsei", "{v}");
        assert_eq!(v["opening_name"]["chinese"], "长星");
        assert!(v["renju"].is_null());
    }
}
