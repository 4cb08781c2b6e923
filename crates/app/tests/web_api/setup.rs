//! A position set up stone by stone as the start of a game.

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
