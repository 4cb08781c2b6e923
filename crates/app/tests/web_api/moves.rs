//! Moves by people, and the bad ones.

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
