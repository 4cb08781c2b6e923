//! The renju opening rules (Soosõrv-8, Taraguchi-10), with the engine or between two people.

use super::*;

/// A server whose every search stops after a few nodes (quick, and the same every time).
fn small_router() -> Router {
    app(AppState::new(ServerConfig {
        hash_mb: 4,
        node_limit: Some(1500),
        ..ServerConfig::default()
    }))
}

/// The points of a 15x15 board from the centre outwards, `h8` style.
fn from_centre() -> Vec<String> {
    let mut pts: Vec<(usize, usize, String)> = Vec::new();
    for x in 0..15usize {
        for y in 0..15usize {
            let ring = x.abs_diff(7).max(y.abs_diff(7));
            let name = format!("{}{}", (b'a' + x as u8) as char, 15 - y);
            pts.push((ring, x.abs_diff(7) + y.abs_diff(7), name));
        }
    }
    pts.sort();
    pts.into_iter().map(|(_, _, p)| p).collect()
}

fn step(v: &Value) -> &str {
    v["renju"]["step"]["kind"].as_str().unwrap_or("over")
}

/// Tries `req` (a path and a body), which must be refused with `code`, and checks that the
/// game did not change.
async fn refused(app: &Router, id: &str, path: &str, body: Value, code: &str) {
    let (_, before) = get(app, &format!("/api/games/{id}")).await;
    let (s, e) = post(app, &format!("/api/games/{id}/{path}"), body.clone()).await;
    assert!(s.is_client_error(), "{path} {body}: {e}");
    assert_eq!(error_code(&e), code, "{path} {body}: {e}");
    let (_, after) = get(app, &format!("/api/games/{id}")).await;
    assert_eq!(
        after["version"], before["version"],
        "{path} {body}: the game changed"
    );
    assert_eq!(after["renju"], before["renju"]);
}

/// Plays the person's steps of a renju opening until it is over, the engine acting in
/// between: stones and offers on the free points nearest the centre (the next one when
/// refused), `keep` (or `swap` at the first swap with `swap_once`), 3 offers, ten at the
/// 5th, the first offer; before some steps, an illegal one that must change nothing.
async fn drive(app: &Router, id: &str, swap_once: bool) -> Value {
    let points = from_centre();
    let mut swapped = false;
    let mut tried_bad = std::collections::HashSet::new();
    for _ in 0..200 {
        let v = wait_for(app, id, "the person's step", |v| {
            v["thinking"].is_null()
                && (v["renju"]["over"] == true || v["renju"]["actor"] == "person")
        })
        .await;
        if v["renju"]["over"] == true {
            return v;
        }
        let kind = step(&v).to_string();
        if tried_bad.insert(kind.clone()) {
            match kind.as_str() {
                "stone" if v["renju"]["step"]["area"] != 0 => {
                    refused(app, id, "move", json!({"move": "a1"}), "outside_area").await;
                    refused(app, id, "renju", json!({"action": "swap"}), "bad_step").await;
                }
                "swap" => {
                    refused(app, id, "move", json!({"move": "a1"}), "choose_first").await;
                    refused(
                        app,
                        id,
                        "renju",
                        json!({"action": "declare", "count": 2}),
                        "bad_step",
                    )
                    .await;
                }
                "declare" => {
                    refused(
                        app,
                        id,
                        "renju",
                        json!({"action": "declare", "count": 9}),
                        "bad_count",
                    )
                    .await;
                    refused(app, id, "renju", json!({"action": "jump"}), "bad_action").await;
                }
                "choose" => {
                    refused(app, id, "move", json!({"move": "a1"}), "not_offered").await;
                }
                _ => {}
            }
        }
        let (path, body) = match kind.as_str() {
            "swap" => {
                let swap = swap_once && !swapped;
                swapped |= swap;
                (
                    "renju",
                    json!({"action": if swap { "swap" } else { "keep" }}),
                )
            }
            "declare" => ("renju", json!({"action": "declare", "count": 3})),
            "fifth" => ("renju", json!({"action": "declare", "count": 10})),
            "choose" => ("move", json!({"move": v["renju"]["offers"][0]})),
            _ => {
                // a stone or an offer: the first free point that the rule takes
                let taken: Vec<String> = moves(&v);
                let offered: Vec<String> = v["renju"]["offers"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p.as_str().unwrap().to_string())
                    .collect();
                let mut done = false;
                for p in points
                    .iter()
                    .filter(|p| !taken.contains(p) && !offered.contains(p))
                {
                    let (s, _) =
                        post(app, &format!("/api/games/{id}/move"), json!({"move": p})).await;
                    if s == StatusCode::OK {
                        done = true;
                        break;
                    }
                }
                assert!(done, "no point taken at {kind}: {v}");
                continue;
            }
        };
        let (s, e) = post(app, &format!("/api/games/{id}/{path}"), body).await;
        assert_eq!(s, StatusCode::OK, "{e}");
    }
    panic!("the opening did not end");
}

/// Once the opening is over: five stones, White to move (the sixth), the first three
/// named, the players as the colours were settled.
fn check_over(v: &Value) {
    assert_eq!(v["renju"]["over"], true, "{v}");
    assert!(v["renju"]["step"].is_null());
    assert!(moves(v).len() >= 5, "{v}");
    assert!(v["opening_name"]["code"].is_string(), "{v}");
    assert!(!v["renju"]["log"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn soosorv8_against_the_engine_on_each_side() {
    let app = small_router();
    for (black, white, swap_once) in [
        ("person", "engine", false),
        ("engine", "person", false),
        ("person", "engine", true),
    ] {
        let (id, v) = new_game(
            &app,
            json!({"opening": "soosorv8", "rule": "renju", "black": black, "white": white}),
        )
        .await;
        assert_eq!(v["renju"]["rule"], "soosorv8");
        assert_eq!(v["renju"]["first"], black);
        let v = drive(&app, &id, swap_once).await;
        check_over(&v);
        assert!(
            (1..=8).contains(&v["renju"]["declared"].as_u64().unwrap()),
            "{v}"
        );
        // the person and the engine hold one colour each, as the opening left them
        assert_ne!(v["players"]["black"], v["players"]["white"], "{v}");
        let (_, rec) = get(&app, &format!("/api/games/{id}/export?format=record")).await;
        let rec = rec.as_str().unwrap();
        assert!(
            rec.contains(" renju_opening=") && rec.contains(" opening_rule=soosorv8"),
            "{rec}"
        );
        assert!(rec.contains(" offers="), "{rec}");
        // the SGF record names the opening too
        let (_, sgf) = get(&app, &format!("/api/games/{id}/export?format=sgf")).await;
        let name = format!(
            "ON[{} {} ({})]",
            v["opening_name"]["name"].as_str().unwrap(),
            v["opening_name"]["chinese"].as_str().unwrap(),
            v["opening_name"]["code"].as_str().unwrap()
        );
        assert!(sgf.as_str().unwrap().contains(&name), "{sgf}");
        // the opening cannot be undone past its end
        let (s, _) = get(&app, &format!("/api/games/{id}")).await;
        assert_eq!(s, StatusCode::OK);
    }
}

#[tokio::test]
async fn taraguchi10_between_two_people_and_against_the_engine() {
    let app = small_router();
    for (black, white, swap_once) in [
        ("person", "person", true),
        ("person", "engine", true),
        ("engine", "person", false),
        ("engine", "engine", false),
    ] {
        let (id, _) = new_game(
            &app,
            json!({"opening": "taraguchi10", "rule": "renju", "black": black, "white": white}),
        )
        .await;
        let v = drive(&app, &id, swap_once).await;
        check_over(&v);
        if black == white {
            assert_eq!(v["players"]["black"], black, "{v}");
        }
    }
}

#[tokio::test]
async fn bad_bodies_of_a_renju_step_are_400_and_change_nothing() {
    let app = small_router();
    let (id, _) = new_game(
        &app,
        json!({"opening": "soosorv8", "black": "person", "white": "person"}),
    )
    .await;
    for p in ["h8", "h9", "i9"] {
        let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({"move": p})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let (_, before) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(step(&before), "swap", "{before}");
    // (body, error code, a word of the message)
    for (body, code, says) in [
        ("", "malformed_json", "needs a JSON body"),
        ("{", "malformed_json", "malformed JSON"),
        (r#"["swap"]"#, "malformed_json", "object"),
        (r#"{"action": 3}"#, "malformed_json", "malformed JSON"),
        (
            r#"{"action": "swap", "side": "black"}"#,
            "malformed_json",
            "side",
        ),
        (
            r#"{"action": "declare", "count": -1}"#,
            "malformed_json",
            "-1",
        ),
        (
            r#"{"action": "declare", "count": "three"}"#,
            "malformed_json",
            "three",
        ),
        (r#"{"count": 3}"#, "malformed_json", "action"),
        (r#"{"action": "jump"}"#, "bad_action", "'jump'"),
        (r#"{"action": "declare"}"#, "bad_action", "with a count"),
        (
            r#"{"action": "keep", "count": 2}"#,
            "bad_action",
            "with a count",
        ),
        (r#"{"action": "declare", "count": 3}"#, "bad_step", "swap"),
    ] {
        let (s, e) = call(
            &app,
            Method::POST,
            &format!("/api/games/{id}/renju"),
            Some(body),
        )
        .await;
        assert!(s.is_client_error(), "{body}: {s} {e}");
        assert_eq!(error_code(&e), code, "{body}: {e}");
        let message = e["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{body}: {e}");
        let (_, after) = get(&app, &format!("/api/games/{id}")).await;
        assert_eq!(after, before, "{body}: the game changed");
    }
    // a point where the step is a word, and a word after the opening
    refused(&app, &id, "move", json!({"move": "a1"}), "choose_first").await;
    let (s, v) = post(
        &app,
        &format!("/api/games/{id}/renju"),
        json!({"action": "keep"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(step(&v), "stone");
    assert_eq!(v["renju"]["step"]["number"], 4);
}

#[tokio::test]
async fn steps_out_of_turn_and_bad_games_are_refused() {
    let app = small_router();
    let (id, _) = new_game(&app, json!({"opening": "taraguchi10", "rule": "renju"})).await;
    // nothing but the opening meanwhile
    for path in ["hint", "go", "swap", "redo", "resign"] {
        let (s, e) = post(&app, &format!("/api/games/{id}/{path}"), json!({})).await;
        assert_error(s, &e, StatusCode::CONFLICT, error_code(&e));
        assert!(
            e["error"]["message"]
                .as_str()
                .unwrap()
                .contains("Taraguchi-10"),
            "{path}: {e}"
        );
    }
    // two people: undo takes back the last step, whoever took it
    let (id, _) = new_game(
        &app,
        json!({"opening": "soosorv8", "rule": "renju", "black": "person", "white": "person"}),
    )
    .await;
    for p in ["h8", "h9"] {
        let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({"move": p})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let (s, v) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(moves(&v), ["h8"]);
    assert_eq!(v["renju"]["step"]["number"], 2);
    // no renju opening: its actions are refused
    let (plain, _) = new_game(&app, json!({})).await;
    let (s, e) = post(
        &app,
        &format!("/api/games/{plain}/renju"),
        json!({"action": "swap"}),
    )
    .await;
    assert_error(s, &e, StatusCode::CONFLICT, "no_opening");
    // a renju opening needs the empty board and a centre
    for (body, says) in [
        (
            json!({"opening": "soosorv8", "position": "h8"}),
            "empty board",
        ),
        (json!({"opening": "taraguchi10", "size": 16}), "centre"),
        (json!({"opening": "taraguchi10", "size": 7}), "9x9"),
    ] {
        let (s, e) = post(&app, "/api/games", body.clone()).await;
        assert_error(s, &e, StatusCode::BAD_REQUEST, "bad_settings");
        assert!(
            e["error"]["message"].as_str().unwrap().contains(says),
            "{body}: {e}"
        );
    }
    // a free game whose first three moves form an opening is named
    let (id, _) = new_game(
        &app,
        json!({"position": "h8 i9 j10", "rule": "renju", "black": "person", "white": "person"}),
    )
    .await;
    let (_, v) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(v["opening_name"]["name"], "Chōsei", "{v}");
    assert_eq!(v["opening_name"]["chinese"], "长星");
    assert!(v["renju"].is_null());
}
