//! The server with a library: a game is written as it changes and found whole after a
//! restart; analyses are stored and found again; the library's API lists, filters, renames,
//! deletes and restores, opens, exports, explores and imports; SGF tags and notes survive a
//! round trip through the board.

use axum::http::{Method, StatusCode};
use axum::Router;
use gomoku_app::library::Library;
use gomoku_app::web::{app, AppState, ServerConfig};
use serde_json::{json, Value};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[path = "web_common/mod.rs"]
mod web_common;

/// A server whose library is the file `path` (`None`: no library).
fn server(path: Option<&Path>) -> Router {
    let library = path.map(|p| Arc::new(Library::open(p).expect("a library")));
    app(AppState::new(ServerConfig {
        hash_mb: 4,
        node_limit: Some(3_000),
        library,
        ..ServerConfig::default()
    }))
}

/// One request with an optional JSON body (the shared helper takes the body as text).
async fn call(app: &Router, method: Method, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
    web_common::call(app, method, uri, body.map(|b| b.to_string()).as_deref()).await
}

async fn get(app: &Router, uri: &str) -> Value {
    let (s, v) = call(app, Method::GET, uri, None).await;
    assert_eq!(s, StatusCode::OK, "{uri}: {v}");
    v
}

async fn post(app: &Router, uri: &str, body: Value) -> Value {
    let (s, v) = call(app, Method::POST, uri, Some(body)).await;
    assert!(s.is_success(), "{uri}: {s} {v}");
    v
}

/// The moves of each line of a state's tree, as text.
fn lines(v: &Value) -> Vec<String> {
    let nodes = v["tree"]["nodes"].as_array().unwrap();
    let by_id = |id: &Value| nodes.iter().find(|n| n["id"] == *id).unwrap();
    let mut out = Vec::new();
    let mut todo = vec![(json!(0), Vec::<String>::new())];
    while let Some((id, line)) = todo.pop() {
        let n = by_id(&id);
        let kids = n["children"].as_array().unwrap();
        if kids.is_empty() {
            out.push(line.join(" "));
        }
        for k in kids.iter().rev() {
            let mut l = line.clone();
            l.push(by_id(k)["move"].as_str().unwrap().to_string());
            todo.push((k.clone(), l));
        }
    }
    out
}

fn node_of<'a>(v: &'a Value, line: &[&str]) -> &'a Value {
    let nodes = v["tree"]["nodes"].as_array().unwrap();
    let mut at = &nodes[0];
    for m in line {
        let kids = at["children"].as_array().unwrap();
        at = nodes
            .iter()
            .find(|n| kids.contains(&n["id"]) && n["move"] == *m)
            .unwrap_or_else(|| panic!("no {m}"));
    }
    at
}

#[tokio::test]
async fn a_game_with_a_side_line_and_a_comment_is_found_whole_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lib.sqlite");
    let first = server(Some(&path));
    let v = post(
        &first,
        "/api/games",
        json!({"white": "person", "rule": "renju"}),
    )
    .await;
    assert_eq!(v["library_id"], Value::Null, "not kept before a move");
    let id = v["id"].as_str().unwrap().to_string();
    for m in ["h8", "h9", "i8", "i9"] {
        post(&first, &format!("/api/games/{id}/move"), json!({"move": m})).await;
    }
    let v = get(&first, &format!("/api/games/{id}")).await;
    let i8 = node_of(&v, &["h8", "h9", "i8"])["id"].clone();
    post(
        &first,
        &format!("/api/games/{id}/goto"),
        json!({"node": i8}),
    )
    .await;
    post(
        &first,
        &format!("/api/games/{id}/move"),
        json!({"move": "g10"}),
    )
    .await;
    post(
        &first,
        &format!("/api/games/{id}/note"),
        json!({"node": i8, "comment": "a fork here", "labels": [{"point": "g10", "text": "A"}, {"point": "i9"}]}),
    )
    .await;
    let before = get(&first, &format!("/api/games/{id}")).await;
    assert_eq!(lines(&before), ["h8 h9 i8 i9", "h8 h9 i8 g10"]);
    let lib_id = before["library_id"].clone();
    assert!(lib_id.is_u64(), "{before}");
    drop(first);

    // a new server on the same file: the game is read back whole at the node shown
    let second = server(Some(&path));
    let after = get(&second, &format!("/api/games/{id}")).await;
    assert_eq!(lines(&after), lines(&before));
    assert_eq!(after["moves"], before["moves"]);
    assert_eq!(after["rule"], "renju");
    assert_eq!(after["library_id"], lib_id);
    let n = node_of(&after, &["h8", "h9", "i8"]);
    assert_eq!(n["comment"], "a fork here");
    assert_eq!(
        n["labels"],
        json!([{"point": "g10", "text": "A"}, {"point": "i9", "text": ""}])
    );
    // and goes on where it was, into the same library game
    post(
        &second,
        &format!("/api/games/{id}/move"),
        json!({"move": "j10"}),
    )
    .await;
    let lib = get(&second, &format!("/api/library/games/{lib_id}")).await;
    assert_eq!(lib["game"]["moves"], 6, "{lib}");
    // an id never seen is still unknown
    let (s, v) = call(&second, Method::GET, "/api/games/nope", None).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("unknown_game"))
    );
}

fn data(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/library")
            .join(name),
    )
    .unwrap()
}

fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(A[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

async fn imported(app: &Router) {
    let text = String::from_utf8(data("collection.sgf")).unwrap();
    let r = post(
        app,
        "/api/library/import",
        json!({"files": [
            {"name": "collection.sgf", "text": text},
            {"name": "fixture.lib", "base64": base64(&data("renlib-fixture.lib"))},
            {"name": "bad.sgf", "text": "(;GM[4];B[zz])"},
        ]}),
    )
    .await;
    assert_eq!(
        (r["added"].as_u64(), r["files"].as_u64()),
        (Some(4), Some(3)),
        "{r}"
    );
    assert_eq!(r["failed"][0]["file"], "bad.sgf", "{r}");
}

#[tokio::test]
async fn the_library_api_lists_filters_renames_deletes_and_restores() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(Some(&dir.path().join("lib.sqlite")));
    imported(&app).await;
    let info = get(&app, "/api/library").await;
    assert_eq!(
        (info["enabled"].as_bool(), info["games"].as_u64()),
        (Some(true), Some(4))
    );
    assert!(info["path"].as_str().unwrap().ends_with("lib.sqlite"));
    let total = |v: Value| v["total"].as_u64().unwrap();
    assert_eq!(total(get(&app, "/api/library/games?player=ann").await), 2);
    assert_eq!(
        total(get(&app, "/api/library/games?rule=renju&result=white").await),
        1
    );
    assert_eq!(
        total(get(&app, "/api/library/games?opening=nothing").await),
        0
    );
    let list = get(&app, "/api/library/games?limit=1").await;
    assert_eq!(list["games"].as_array().unwrap().len(), 1);
    // rename, delete, undo
    let (s, v) = call(
        &app,
        Method::PATCH,
        "/api/library/games/1",
        Some(json!({"name": "Final", "date": "2024-06-01"})),
    )
    .await;
    assert_eq!(
        (s, v["name"].as_str(), v["black"].as_str()),
        (StatusCode::OK, Some("Final"), Some("Ann"))
    );
    let (s, v) = call(&app, Method::DELETE, "/api/library/games/1", None).await;
    assert_eq!(
        (s, &v["restore"]),
        (StatusCode::OK, &json!("/api/library/games/1/restore"))
    );
    assert_eq!(total(get(&app, "/api/library/games").await), 3);
    assert_eq!(total(get(&app, "/api/library/games?deleted=true").await), 1);
    assert_eq!(
        get(&app, "/api/library/explorer?rule=renju&moves=h8,h9,i8,i9").await["games"],
        2
    );
    let v = post(&app, "/api/library/games/1/restore", json!({})).await;
    assert_eq!(v["name"], "Final");
    assert_eq!(
        get(
            &app,
            "/api/library/explorer?rule=renju&moves=h8%20h9%20i8%20i9"
        )
        .await["games"],
        3
    );
    // mistakes
    for (method, uri, body, status, code) in [
        (
            Method::GET,
            "/api/library/games/99",
            None,
            StatusCode::NOT_FOUND,
            "unknown_library_game",
        ),
        (
            Method::GET,
            "/api/library/games/x",
            None,
            StatusCode::NOT_FOUND,
            "unknown_library_game",
        ),
        (
            Method::DELETE,
            "/api/library/games/99",
            None,
            StatusCode::NOT_FOUND,
            "unknown_library_game",
        ),
        (
            Method::POST,
            "/api/library/games/1/restore",
            None,
            StatusCode::NOT_FOUND,
            "unknown_library_game",
        ),
        (
            Method::GET,
            "/api/library/games?result=maybe",
            None,
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            Method::GET,
            "/api/library/explorer?moves=h8,h8",
            None,
            StatusCode::BAD_REQUEST,
            "bad_position",
        ),
        (
            Method::GET,
            "/api/library/explorer?moves=z99",
            None,
            StatusCode::BAD_REQUEST,
            "bad_position",
        ),
        (
            Method::PATCH,
            "/api/library/games/1",
            Some(json!({"colour": "x"})),
            StatusCode::BAD_REQUEST,
            "malformed_json",
        ),
        (
            Method::POST,
            "/api/library/import",
            Some(json!({"files": [{"name": "a", "base64": "**"}]})),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
    ] {
        let (s, v) = call(&app, method, uri, body).await;
        assert_eq!(
            (s, v["error"]["code"].as_str()),
            (status, Some(code)),
            "{uri}: {v}"
        );
    }
}

#[tokio::test]
async fn a_library_game_opens_on_the_board_exports_and_is_explored() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(Some(&dir.path().join("lib.sqlite")));
    imported(&app).await;
    let g = get(&app, "/api/library/games/2").await;
    assert_eq!(g["game"]["black"], "Cy");
    let side = g["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["comment"] == "a side line");
    assert_eq!(side.unwrap()["move"], "k8");
    // opened at a node of a side line: the board shows it, the same node as in the library
    let side_node = side.unwrap()["id"].clone();
    let (s, v) = call(
        &app,
        Method::POST,
        "/api/library/games/2/open",
        Some(json!({ "node": side_node })),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["tree"]["current"], side_node);
    assert!(v["position"].as_str().unwrap().ends_with("k8"), "{v}");
    // open it on the board: its main line is shown, its changes go to the same game
    let (s, v) = call(
        &app,
        Method::POST,
        "/api/library/games/2/open",
        Some(json!({})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["library_id"], 2);
    assert_eq!(v["position"], "i8 i9 h8 h9 g8 f8");
    let id = v["id"].as_str().unwrap();
    post(
        &app,
        &format!("/api/games/{id}/move"),
        json!({"move": "e8"}),
    )
    .await;
    assert_eq!(get(&app, "/api/library/games/2").await["game"]["moves"], 8);
    // exports: the game, a filtered set
    let (s, text) = call(&app, Method::GET, "/api/library/games/2/export", None).await;
    let text = text.as_str().unwrap().to_string();
    assert_eq!(s, StatusCode::OK);
    assert!(
        text.contains("PB[Cy]PW[Di]") && text.contains("C[a side line]"),
        "{text}"
    );
    let (_, text) = call(&app, Method::GET, "/api/library/export?player=ann", None).await;
    assert_eq!(text.as_str().unwrap().matches("(;FF[4]").count(), 2);
    let (_, text) = call(&app, Method::GET, "/api/library/export?ids=1,3", None).await;
    assert_eq!(text.as_str().unwrap().matches("(;FF[4]").count(), 2);
    // the board's own export has the tags the library has
    let (_, text) = call(
        &app,
        Method::GET,
        &format!("/api/games/{id}/export?format=sgf"),
        None,
    )
    .await;
    assert!(text.as_str().unwrap().contains("PB[Cy]"), "{text}");
    // the explorer, asked from a mirror image
    let e = get(
        &app,
        "/api/library/explorer?rule=renju&moves=h8,h9,g8,g9&limit=2",
    )
    .await;
    assert_eq!(e["games"], 3);
    assert_eq!(e["moves"][0]["move"], "f8");
    assert_eq!(e["list"].as_array().unwrap().len(), 2);
    assert!(e["ms"].as_f64().unwrap() >= 0.0);
    assert_eq!(
        get(&app, "/api/library/analysis?rule=renju&moves=h8").await["analysis"],
        Value::Null
    );
}

#[tokio::test]
async fn an_analysis_on_the_board_is_found_again_from_a_mirror_image() {
    let dir = tempfile::tempdir().unwrap();
    let app = server(Some(&dir.path().join("lib.sqlite")));
    let v = post(
        &app,
        "/api/games",
        json!({"white": "person", "position": "h8 i9 j8"}),
    )
    .await;
    let id = v["id"].as_str().unwrap();
    post(
        &app,
        &format!("/api/games/{id}/analyze"),
        json!({"on": true}),
    )
    .await;
    let start = Instant::now();
    loop {
        let v = get(&app, &format!("/api/games/{id}")).await;
        if v["analysis"]["final"] == true {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no analysis: {v}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // the mirror image x -> 14 - x, in another order
    let a = get(&app, "/api/library/analysis?moves=f8,g9,h8").await;
    let best = a["analysis"]["best"].as_array().expect("an analysis");
    assert!(!best.is_empty(), "{a}");
    let e = get(&app, "/api/library/explorer?moves=f8%20g9%20h8").await;
    assert_eq!(e["analysis"]["depth"], a["analysis"]["depth"]);
}

#[tokio::test]
async fn sgf_tags_comments_and_labels_go_through_the_board_and_back() {
    let app = server(None);
    let text = "(;GM[4]FF[4]SZ[15]RU[renju]PB[Ann]PW[Bo]RE[W+R]DT[2024-05-01]EV[Cup]C[start]\
                ;B[hh]C[centre]LB[ii:A];W[hg];B[ih]MA[ig])";
    let v = post(&app, "/api/games", json!({"sgf": text, "white": "person"})).await;
    let id = v["id"].as_str().unwrap();
    let (_, out) = call(
        &app,
        Method::GET,
        &format!("/api/games/{id}/export?format=sgf"),
        None,
    )
    .await;
    let out = out.as_str().unwrap();
    for part in [
        "PB[Ann]",
        "PW[Bo]",
        "RE[W+R]",
        "DT[2024-05-01]",
        "EV[Cup]",
        "C[start]",
        ";B[hh]C[centre]LB[ii:A]",
        "MA[ig]",
    ] {
        assert!(out.contains(part), "{part}: {out}");
    }
    // a collection: its first game
    let two = format!("{text}\n(;GM[4]SZ[9];B[ee])");
    let v = post(&app, "/api/games", json!({"sgf": two, "white": "person"})).await;
    assert_eq!(v["size"], 15);
    // without a library, the library's API says so
    assert_eq!(get(&app, "/api/library").await["enabled"], false);
    let (s, v) = call(&app, Method::GET, "/api/library/games", None).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("no_library"))
    );
}
