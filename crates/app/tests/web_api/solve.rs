//! Proving a forced win for the side to move.

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
