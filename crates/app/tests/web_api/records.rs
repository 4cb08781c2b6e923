//! Export and import.

use super::*;

async fn export(app: &Router, id: &str, format: &str) -> (StatusCode, String) {
    let (s, v) = get(app, &format!("/api/games/{id}/export?format={format}")).await;
    (
        s,
        v.as_str()
            .map(str::to_string)
            .unwrap_or_else(|| v.to_string()),
    )
}

#[tokio::test]
async fn position_and_psq_round_trip() {
    let (app, _) = router();
    let pp = json!({"black": "person", "white": "person", "size": 20});
    let (id, _) = new_game(&app, pp).await;
    for m in ["j10", "k11", "a1", "t20"] {
        post(&app, &format!("/api/games/{id}/move"), json!({"move": m})).await;
    }
    let (s, pos) = export(&app, &id, "position").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(pos.trim(), "j10 k11 a1 t20");
    let (s, psq) = export(&app, &id, "psq").await;
    assert_eq!(s, StatusCode::OK);
    let lines: Vec<&str> = psq.lines().collect();
    assert_eq!(lines[0], "Piskvorky 20x20, 11:11, 0");
    assert!(lines[1].starts_with("10,11,"), "{psq}");
    assert!(lines[3].starts_with("1,20,"), "{psq}");
    assert!(lines[4].starts_with("20,1,"), "{psq}");
    assert_eq!(lines.last(), Some(&"-1"));
    // a psq record imports to the same moves, size from the header
    let (_, v) = new_game(&app, json!({"psq": psq, "white": "person"})).await;
    assert_eq!(v["size"], 20);
    assert_eq!(moves(&v), ["j10", "k11", "a1", "t20"]);
    let (_, v) = new_game(
        &app,
        json!({"position": pos, "size": 20, "white": "person"}),
    )
    .await;
    assert_eq!(moves(&v), ["j10", "k11", "a1", "t20"]);
}

#[tokio::test]
async fn export_errors() {
    let (app, _) = router();
    let (id, _) = new_game(&app, json!({"position": "h8 -- i9", "white": "person"})).await;
    let (s, v) = get(&app, &format!("/api/games/{id}/export?format=psq")).await;
    assert_error(s, &v, StatusCode::CONFLICT, "cannot_export");
    let (s, v) = get(&app, &format!("/api/games/{id}/export?format=pdf")).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST, "bad_request");
    let (s, v) = get(&app, &format!("/api/games/{id}/export?what=1")).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST, "bad_request");
    let (s, v) = post(
        &app,
        "/api/games",
        json!({"psq": "Piskvorky 15x15, 11:11, 0\n8,8,0", "size": 19}),
    )
    .await;
    assert_error(s, &v, StatusCode::BAD_REQUEST, "bad_settings");
}

#[tokio::test]
async fn psq_download_has_a_file_name() {
    let (app, _) = router();
    let (id, _) = new_game(&app, json!({"position": "h8"})).await;
    let resp = get_response(
        &app,
        &format!("/api/games/{id}/export?format=psq&download=true"),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let cd = resp.headers()[header::CONTENT_DISPOSITION]
        .to_str()
        .unwrap();
    assert!(cd.contains("gomoku.psq"), "{cd}");
}
