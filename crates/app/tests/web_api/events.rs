//! Server-sent events.

use super::*;

/// Reads the stream until `want` appears in the text received so far.
async fn read_until(body: &mut Body, want: &str) -> String {
    let mut text = String::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !text.contains(want) {
        let left = deadline.saturating_duration_since(Instant::now());
        let frame = tokio::time::timeout(left, body.frame())
            .await
            .unwrap_or_else(|_| panic!("no '{want}' in: {text}"));
        let Some(Ok(frame)) = frame else {
            panic!("stream ended before '{want}': {text}");
        };
        if let Ok(data) = frame.into_data() {
            text.push_str(&String::from_utf8_lossy(&data));
        }
    }
    text
}

#[tokio::test]
async fn the_stream_starts_with_the_state_then_streams_engine_progress() {
    let (app, state) = router();
    let (id, _) = new_game(&app, json!({"time_ms": 400})).await;
    let resp = get_response(&app, &format!("/api/games/{id}/events")).await;
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(resp.headers()[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .starts_with("text/event-stream"));
    let mut body = resp.into_body();
    let first = read_until(&mut body, "\n\n").await;
    assert!(first.starts_with("event: state\ndata: {"), "{first}");
    assert!(first.contains(&id));
    post(
        &app,
        &format!("/api/games/{id}/move"),
        json!({"move": "h8"}),
    )
    .await;
    let text = read_until(&mut body, "event: info").await;
    let text = text + &read_until(&mut body, "\"final\":true").await;
    assert!(text.contains("\"tt_hits\""), "{text}");
    // an open stream keeps the game from being cleaned up; closing it lets it go
    assert_eq!(state.games.reap(Duration::ZERO), 0);
    drop(body);
    assert_eq!(state.games.reap(Duration::ZERO), 1);
}

#[tokio::test]
async fn removing_the_game_closes_the_stream() {
    let (app, _) = router();
    let (id, _) = new_game(&app, json!({"white": "person"})).await;
    let resp = get_response(&app, &format!("/api/games/{id}/events")).await;
    let mut body = resp.into_body();
    read_until(&mut body, "event: state").await;
    call(&app, Method::DELETE, &format!("/api/games/{id}"), None).await;
    read_until(&mut body, "event: closed").await;
}
