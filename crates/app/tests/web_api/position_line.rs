//! A line of the datasets' common format as the start of a game, and the game exported as one.

use super::*;

#[tokio::test]
async fn a_game_line_is_a_game_and_reads_back() {
    let (app, _) = router();
    let (id, v) = new_game(
        &app,
        json!({"black": "person", "white": "person", "record": "9 standard e5 d4 e4 | set=x"}),
    )
    .await;
    assert_eq!(
        (v["size"].as_u64(), v["rule"].as_str()),
        (Some(9), Some("standard"))
    );
    assert_eq!(v["setup_plies"], 0);
    assert_eq!(moves(&v), ["e5", "d4", "e4"]);
    let (s, out) = get(&app, &format!("/api/games/{id}/export?format=record")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(out, "9 standard e5 d4 e4\n");
    // its moves can be taken back
    let (s, v) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(moves(&v), ["e5", "d4"]);
}

#[tokio::test]
async fn a_puzzle_line_is_a_set_up_position_and_so_is_its_export() {
    let (app, _) = router();
    // (line, side to move, whether it is a set-up position): a shared VCF puzzle whose
    // stones play as a game, one with a pass, one in no game's order (Black's j8 would be
    // a double three)
    for (line, to_move, set_up) in [
        (
            "15 renju h11 g9 g10 h9 f9 g8 h8 f7 j8 i7 h7 i6 e6 | task=vcf side=white",
            "white",
            false,
        ),
        ("15 renju h8 -- i9 | task=x", "white", true),
        ("15 renju h8 a1 i8 a3 j9 a5 j10 a7 j8 a9", "black", true),
    ] {
        let (id, v) = new_game(
            &app,
            json!({"black": "person", "white": "person", "record": line}),
        )
        .await;
        assert_eq!(v["rule"], "renju", "{line}");
        assert_eq!(v["to_move"], to_move, "{line}");
        assert_eq!(v["result"], Value::Null, "{line}");
        let tokens = line.split('|').next().unwrap().split_whitespace().skip(2);
        assert_eq!(moves(&v).len(), tokens.count(), "{line}: {v}");
        let plies = v["setup_plies"].as_u64().unwrap();
        if set_up {
            assert_eq!(plies as usize, moves(&v).len(), "{line}: {v}");
            let (s, e) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
            assert_error(s, &e, StatusCode::CONFLICT, "nothing_to_undo");
        } else {
            assert_eq!(plies, 0, "{line}");
        }
        // the export holds the set-up's passes, so it reads back as a set-up position
        let (_, out) = get(&app, &format!("/api/games/{id}/export?format=record")).await;
        let out = out.as_str().unwrap().trim().to_string();
        let (_, again) = new_game(&app, json!({"record": out})).await;
        assert_eq!(again["setup_plies"], v["setup_plies"], "{line}");
        assert_eq!(again["to_move"], v["to_move"], "{line}");
        assert_eq!(moves(&again), moves(&v), "{line}");
    }
}

#[tokio::test]
async fn a_set_up_game_exports_a_line_that_keeps_its_start() {
    let (app, _) = router();
    let (id, v) = new_game(
        &app,
        json!({"black": "person", "white": "person",
               "setup": {"black": ["h8", "i8", "j8"], "white": ["a1"]}}),
    )
    .await;
    let (_, v2) = post(
        &app,
        &format!("/api/games/{id}/move"),
        json!({"move": "a15"}),
    )
    .await;
    assert_eq!(moves(&v2).len(), moves(&v).len() + 1, "{v2}");
    let (_, out) = get(&app, &format!("/api/games/{id}/export?format=record")).await;
    let out = out.as_str().unwrap().trim().to_string();
    assert!(out.starts_with("15 freestyle h8 a1 i8 -- j8"), "{out}");
    let (_, again) = new_game(&app, json!({"record": out})).await;
    // the stones and the side to move are kept; the move after the set-up joins it
    assert_eq!(again["to_move"], v2["to_move"]);
    let mut a = moves(&again);
    let mut b = moves(&v2);
    a.sort();
    b.sort();
    assert_eq!(a, b);
    assert!(again["setup_plies"].as_u64().unwrap() > 0);
}

#[tokio::test]
async fn bad_lines_are_refused() {
    let (app, state) = router();
    for (body, code, says) in [
        (json!({"record": "15 gobang h8"}), "bad_position", "gobang"),
        (
            json!({"record": "15 renju h8 | novalue"}),
            "bad_position",
            "key=value",
        ),
        (json!({"record": "15 renju h99"}), "bad_position", "h99"),
        (json!({"record": "15 renju h8 h8"}), "bad_position", "h8"),
        (
            json!({"record": "9 freestyle a1 -- a2 -- a3 -- a4 -- a5"}),
            "bad_position",
            "winning line",
        ),
        (
            json!({"record": "15 renju h8", "size": 19}),
            "bad_settings",
            "differs",
        ),
        (
            json!({"record": "15 renju h8", "rule": "standard"}),
            "bad_settings",
            "differs",
        ),
        (
            json!({"record": "15 renju h8", "position": "h8"}),
            "bad_settings",
            "one of",
        ),
        (json!({"record": ""}), "bad_position", "expected"),
    ] {
        let (s, e) = post(&app, "/api/games", body.clone()).await;
        assert_error(s, &e, StatusCode::BAD_REQUEST, code);
        assert!(
            e["error"]["message"].as_str().unwrap().contains(says),
            "{body}: {e}"
        );
    }
    assert_eq!(state.games.len(), 0, "no game was made");
}
