//! A game clock.

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
