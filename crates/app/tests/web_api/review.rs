//! Reviewing the game's moves.

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
