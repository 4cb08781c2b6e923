//! The engine: replies, reports, hints, cancelling.

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
