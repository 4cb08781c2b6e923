//! Creating games and the state they report.

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
