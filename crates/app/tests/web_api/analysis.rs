//! Analysis mode: every candidate move's value, whenever the engine is idle.

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
        v["live"]["depth"].as_i64().is_some_and(|d| d >= 6) && v["live"]["candidates"].is_array()
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
