//! A board diagram as the start of a game, and the game exported as one.

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
