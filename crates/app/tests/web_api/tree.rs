//! The tree of a game's moves: a move after an undo starts a new line, any node can be shown
//! again, lines are promoted and deleted, the engine waits inside a line, the tree goes out as
//! SGF with its variations and comes back the same, and bad requests (unknown nodes, malformed
//! SGF) are refused with the game unchanged.

use super::*;

/// The node of the tree reached by the moves `path` from the start.
fn node(v: &Value, path: &[&str]) -> u64 {
    let nodes = v["tree"]["nodes"].as_array().unwrap();
    let by_id = |id: u64| nodes.iter().find(|n| n["id"] == id).unwrap();
    let mut at = 0;
    for p in path {
        at = by_id(at)["children"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .find(|&c| by_id(c)["move"] == *p)
            .unwrap_or_else(|| panic!("no {p} after {at}: {v}"));
    }
    at
}

/// The tree as text: every line from the start, main lines first (ids left out, so that two
/// games with the same lines read the same).
fn lines(v: &Value) -> Vec<String> {
    let nodes = v["tree"]["nodes"].as_array().unwrap();
    let by_id = |id: u64| nodes.iter().find(|n| n["id"] == id).unwrap();
    let mut out = Vec::new();
    let mut todo = vec![(0u64, String::new())];
    while let Some((id, prefix)) = todo.pop() {
        let n = by_id(id);
        let here = match n["move"].as_str() {
            Some(m) => format!("{prefix} {m}"),
            None => prefix,
        };
        let children = n["children"].as_array().unwrap();
        if children.is_empty() {
            out.push(here.trim().to_string());
        }
        for c in children.iter().rev() {
            todo.push((c.as_u64().unwrap(), here.clone()));
        }
    }
    out
}

async fn two_people(app: &Router, position: &str) -> (String, Value) {
    new_game(
        app,
        json!({"black": "person", "white": "person", "position": position}),
    )
    .await
}

async fn play(app: &Router, id: &str, point: &str) -> Value {
    let (s, v) = post(
        app,
        &format!("/api/games/{id}/move"),
        json!({"move": point}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{point}: {v}");
    v
}

async fn goto(app: &Router, id: &str, node: u64) -> Value {
    let (s, v) = post(app, &format!("/api/games/{id}/goto"), json!({"node": node})).await;
    assert_eq!(s, StatusCode::OK, "goto {node}: {v}");
    v
}

async fn export(app: &Router, id: &str, format: &str) -> String {
    let (s, v) = get(app, &format!("/api/games/{id}/export?format={format}")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v.as_str().unwrap().to_string()
}
// Lines: a new one after an undo, shown again, promoted, deleted.
mod variations {
    use super::*;

    #[tokio::test]
    async fn a_move_after_an_undo_starts_a_line_and_the_old_one_can_be_shown_again() {
        let (app, _) = router();
        let (id, v) = two_people(&app, "h8 h9 i8 i9").await;
        // the scale of the page's winning chances
        assert_eq!(v["win_scale"], gomoku_app::web::games::WIN_SCALE);
        let (s, v) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(
            (moves(&v).len(), continuation(&v)),
            (3, vec!["i9".to_string()])
        );
        // another move: a second line from i8, shown from now on; the first stays
        let v = play(&app, &id, "j9").await;
        assert_eq!(moves(&v), ["h8", "h9", "i8", "j9"]);
        assert!(continuation(&v).is_empty());
        assert_eq!(lines(&v), ["h8 h9 i8 i9", "h8 h9 i8 j9"]);
        // the old line, shown again: its board, and the analysis would follow it
        let old = node(&v, &["h8", "h9", "i8", "i9"]);
        let v = goto(&app, &id, old).await;
        assert_eq!(moves(&v), ["h8", "h9", "i8", "i9"]);
        assert_eq!(v["tree"]["current"], old);
        assert_eq!(v["position"], "h8 h9 i8 i9");
        // back two moves: redo follows the line last shown
        let v = goto(&app, &id, node(&v, &["h8", "h9"])).await;
        assert_eq!(continuation(&v), ["i8", "i9"]);
        let (_, v) = post(&app, &format!("/api/games/{id}/redo"), json!({})).await;
        assert_eq!(moves(&v), ["h8", "h9", "i8"]);
        // the same move as a line's next one follows that line: no new line
        let v = play(&app, &id, "j9").await;
        assert_eq!(lines(&v), ["h8 h9 i8 i9", "h8 h9 i8 j9"]);
        // the start position, and a first move of another line
        let v = goto(&app, &id, 0).await;
        assert!(moves(&v).is_empty());
        assert_eq!(continuation(&v), ["h8", "h9", "i8", "j9"]);
        let v = play(&app, &id, "a1").await;
        assert_eq!(lines(&v), ["h8 h9 i8 i9", "h8 h9 i8 j9", "a1"]);
    }

    #[tokio::test]
    async fn a_line_is_promoted_to_the_main_line_or_deleted() {
        let (app, _) = router();
        let (id, _) = two_people(&app, "h8 h9 i8 i9").await;
        post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        let v = play(&app, &id, "j9").await;
        let j9 = node(&v, &["h8", "h9", "i8", "j9"]);
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/branch"),
            json!({"node": j9, "action": "promote"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(lines(&v), ["h8 h9 i8 j9", "h8 h9 i8 i9"]);
        assert_eq!(moves(&v), ["h8", "h9", "i8", "j9"], "the board stays");
        // deleting another line leaves the board as it is
        let i9 = node(&v, &["h8", "h9", "i8", "i9"]);
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/branch"),
            json!({"node": i9, "action": "delete"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(lines(&v), ["h8 h9 i8 j9"]);
        assert_eq!(moves(&v), ["h8", "h9", "i8", "j9"]);
        // deleting the line on the board takes the board back to the move before it
        let h9 = node(&v, &["h8", "h9"]);
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/branch"),
            json!({"node": h9, "action": "delete"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(lines(&v), ["h8"]);
        assert_eq!(moves(&v), ["h8"]);
        assert_eq!(v["position"], "h8");
    }

    #[tokio::test]
    async fn inside_a_line_the_engine_waits_for_a_move_or_an_engine_move() {
        let (app, _) = router();
        let (id, _) = new_game(&app, json!({"level": "easy", "time_ms": 100})).await;
        play(&app, &id, "h8").await;
        wait_for(&app, &id, "the engine's reply", |v| {
            moves(v).len() == 2 && v["thinking"].is_null()
        })
        .await;
        play(&app, &id, "a1").await;
        let v = wait_for(&app, &id, "the second reply", |v| {
            moves(v).len() == 4 && v["thinking"].is_null()
        })
        .await;
        let first = moves(&v)[1].clone();
        // after h8 the engine is to move, inside the line: it waits
        let v = goto(&app, &id, node(&v, &["h8"])).await;
        assert_eq!(v["to_move"], "white");
        assert_eq!(v["engine_waits"], true, "{v}");
        assert!(v["thinking"].is_null(), "{v}");
        let (s, e) = post(
            &app,
            &format!("/api/games/{id}/move"),
            json!({"move": "a2"}),
        )
        .await;
        assert_error(s, &e, StatusCode::CONFLICT, "not_your_turn");
        // an engine move ends the wait
        let (s, v) = post(&app, &format!("/api/games/{id}/go"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["thinking"]["purpose"], "move", "{v}");
        let v = wait_for(&app, &id, "the engine's move", |v| {
            moves(v).len() == 2 && v["thinking"].is_null()
        })
        .await;
        assert_eq!(v["engine_waits"], false);
        // at the end of a line the engine plays at once: a1 made the end of one
        let a1 = node(&v, &["h8", &first, "a1"]);
        let after = v["tree"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["parent"] == a1)
            .unwrap()["id"]
            .clone();
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/branch"),
            json!({"node": after, "action": "delete"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let v = goto(&app, &id, a1).await;
        assert_eq!(v["thinking"]["purpose"], "move", "the engine replies: {v}");
    }
}

// The tree as SGF, out and back.
mod sgf {
    use super::*;

    #[tokio::test]
    async fn the_tree_goes_out_as_sgf_with_its_variations_and_comes_back_the_same() {
        let (app, _) = router();
        let (id, _) = two_people(&app, "h8 h9 i8 i9 j8").await;
        post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        play(&app, &id, "g7").await;
        play(&app, &id, "g8").await;
        post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        let v = play(&app, &id, "k8").await;
        let before = lines(&v);
        assert_eq!(
            before,
            ["h8 h9 i8 i9 j8", "h8 h9 i8 g7 g8", "h8 h9 i8 g7 k8"]
        );
        let text = export(&app, &id, "sgf").await;
        assert!(text.starts_with("(;FF[4]GM[4]"), "{text}");
        assert!(
            text.contains("SZ[15]") && text.contains("RU[freestyle]"),
            "{text}"
        );
        // the fork after i8: i9 (the main line) and g7
        assert!(
            text.contains("(;W[ig]") && text.contains("(;W[gi]"),
            "{text}"
        );
        // a new game from it: the same lines, the end of the main line on the board
        let (copy, v) = new_game(&app, json!({"sgf": text, "white": "person"})).await;
        assert_eq!(lines(&v), before);
        assert_eq!(moves(&v), ["h8", "h9", "i8", "i9", "j8"]);
        assert_eq!(v["result"], Value::Null, "{v}");
        assert_eq!(
            export(&app, &copy, "sgf").await,
            text,
            "written back the same"
        );
    }

    #[tokio::test]
    async fn a_set_up_position_and_its_rule_come_back_from_sgf() {
        let (app, _) = router();
        let (id, v) = new_game(
            &app,
            json!({"rule": "renju", "size": 13, "white": "person",
                   "setup": {"black": ["g7", "h8"], "white": ["f6"], "to_move": "white"}}),
        )
        .await;
        assert_eq!(v["setup_plies"], 3);
        play(&app, &id, "a1").await;
        let text = export(&app, &id, "sgf").await;
        assert!(
            text.contains("SZ[13]RU[renju]AB[gg][hf]AW[fh]PL[W]"),
            "{text}"
        );
        let (_, v) = new_game(&app, json!({"sgf": text, "white": "person"})).await;
        assert_eq!(
            (v["rule"].as_str(), v["size"].as_u64()),
            (Some("renju"), Some(13))
        );
        assert_eq!(v["setup_plies"], 3, "{v}");
        assert_eq!(v["position"], "g7 f6 h8 a1", "{v}");
    }

    #[tokio::test]
    async fn a_record_from_elsewhere_reads_with_comments_and_passes() {
        let (app, _) = router();
        let text = "(;GM[4]FF[4]SZ[15]PB[someone]C[a game]\n;B[hh]C[centre];W[ii]\n(;B[jj])(;B[gg]C[the other]))";
        let (_, v) = new_game(
            &app,
            json!({"sgf": text, "black": "person", "white": "person"}),
        )
        .await;
        assert_eq!(lines(&v), ["h8 i7 j6", "h8 i7 g9"]);
        assert_eq!(
            v["rule"], "freestyle",
            "the rule chosen, as the record names none"
        );
    }
}

// Bad requests change nothing.
mod bad_input {
    use super::*;

    /// The state without what changes by itself (nothing, in a game of two people).
    async fn state(app: &Router, id: &str) -> Value {
        get(app, &format!("/api/games/{id}")).await.1
    }

    #[tokio::test]
    async fn unknown_nodes_and_bad_branch_requests_are_refused() {
        let (app, _) = router();
        let (id, _) = two_people(&app, "h8 h9 i8").await;
        post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
        play(&app, &id, "a1").await;
        let before = state(&app, &id).await;
        let cases: [(&str, Value, StatusCode, &str); 9] = [
            (
                "goto",
                json!({"node": 999}),
                StatusCode::BAD_REQUEST,
                "unknown_node",
            ),
            (
                "goto",
                json!({"node": -1}),
                StatusCode::BAD_REQUEST,
                "malformed_json",
            ),
            (
                "goto",
                json!({"node": "h8"}),
                StatusCode::BAD_REQUEST,
                "malformed_json",
            ),
            ("goto", json!({}), StatusCode::BAD_REQUEST, "malformed_json"),
            (
                "branch",
                json!({"node": 999, "action": "delete"}),
                StatusCode::BAD_REQUEST,
                "unknown_node",
            ),
            (
                "branch",
                json!({"node": 0, "action": "delete"}),
                StatusCode::BAD_REQUEST,
                "bad_node",
            ),
            (
                "branch",
                json!({"node": 1, "action": "merge"}),
                StatusCode::BAD_REQUEST,
                "malformed_json",
            ),
            (
                "branch",
                json!({"node": 1}),
                StatusCode::BAD_REQUEST,
                "malformed_json",
            ),
            (
                "branch",
                json!({"node": 1, "action": "promote", "x": 1}),
                StatusCode::BAD_REQUEST,
                "malformed_json",
            ),
        ];
        for (what, body, status, code) in cases {
            let (s, e) = post(&app, &format!("/api/games/{id}/{what}"), body.clone()).await;
            assert_error(s, &e, status, code);
            assert_eq!(
                state(&app, &id).await,
                before,
                "{what} {body} changed the game"
            );
        }
        // a deleted node is gone for good: its id is not reused
        let a1 = node(&before, &["h8", "h9", "a1"]);
        let (s, _) = post(
            &app,
            &format!("/api/games/{id}/branch"),
            json!({"node": a1, "action": "delete"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK);
        let after = state(&app, &id).await;
        let (s, e) = post(&app, &format!("/api/games/{id}/goto"), json!({"node": a1})).await;
        assert_error(s, &e, StatusCode::BAD_REQUEST, "unknown_node");
        assert_eq!(state(&app, &id).await, after);
        let (s, e) = post(&app, "/api/games/nope/goto", json!({"node": 1})).await;
        assert_error(s, &e, StatusCode::NOT_FOUND, "unknown_game");
    }

    #[tokio::test]
    async fn no_going_back_into_a_swap2_opening() {
        let (app, _) = router();
        let (id, _) = new_game(
            &app,
            json!({"opening": "swap2", "level": "easy", "time_ms": 50}),
        )
        .await;
        for p in ["h8", "i9", "j8"] {
            play(&app, &id, p).await;
        }
        let before = wait_for(&app, &id, "the engine's choice", |v| {
            v["thinking"].is_null()
        })
        .await;
        let (s, e) = post(&app, &format!("/api/games/{id}/goto"), json!({"node": 0})).await;
        assert_eq!(s, StatusCode::CONFLICT, "{e}");
        let after = state(&app, &id).await;
        assert_eq!(moves(&after), moves(&before));
    }

    #[tokio::test]
    async fn malformed_sgf_is_refused_with_the_reason_and_no_game() {
        let (app, state_) = router();
        let (id, _) = two_people(&app, "h8 h9").await;
        let before = state(&app, &id).await;
        let cases = [
            ("", "empty"),
            ("not a record", "starts with '(;'"),
            ("(;GM[4];B[hh]", "')' is missing"),
            ("(;GM[1]SZ[19];B[dd])", "GM[1]"),
            ("(;GM[4]SZ[15];B[hh];B[ii])", "white's turn"),
            ("(;GM[4]SZ[15];B[hh];W[hh])", "taken"),
            ("(;GM[4]SZ[15];B[zz])", "B[zz]"),
            ("(;GM[4]SZ[15]RU[chess])", "RU[chess]"),
            ("(;GM[4]SZ[30])", "SZ[30]"),
            (
                "(;GM[4]SZ[15];B[aa];W[ba];B[ab];W[bb];B[ac];W[bc];B[ad];W[bd];B[ae];W[be])",
                "over",
            ),
        ];
        for (text, want) in cases {
            let (s, e) = post(&app, "/api/games", json!({"sgf": text})).await;
            assert_error(s, &e, StatusCode::BAD_REQUEST, "bad_position");
            let message = e["error"]["message"].as_str().unwrap();
            assert!(message.contains(want), "{text}: {message}");
            assert_eq!(state_.games.len(), 1, "no game made from {text}");
        }
        // an SGF beside another start, or a rule that disagrees with the record's
        let (s, e) = post(
            &app,
            "/api/games",
            json!({"sgf": "(;GM[4])", "position": "h8"}),
        )
        .await;
        assert_error(s, &e, StatusCode::BAD_REQUEST, "bad_settings");
        let (s, e) = post(
            &app,
            "/api/games",
            json!({"sgf": "(;GM[4]RU[renju])", "rule": "freestyle"}),
        )
        .await;
        assert_error(s, &e, StatusCode::BAD_REQUEST, "bad_settings");
        assert_eq!(
            state(&app, &id).await,
            before,
            "the game in play is untouched"
        );
        let (s, e) = get(&app, &format!("/api/games/{id}/export?format=sgf2")).await;
        assert_error(s, &e, StatusCode::BAD_REQUEST, "bad_request");
    }
}
