//! The swap2 opening against the engine.

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
