//! The page and its files.

use super::*;

#[tokio::test]
async fn index_and_assets_are_served_from_the_binary() {
    let (app, _) = router();
    let resp = get_response(&app, "/").await;
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(resp.headers()[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let html = String::from_utf8(
        resp.into_body()
            .collect()
            .await
            .unwrap()
            .to_bytes()
            .to_vec(),
    )
    .unwrap();
    for id in [
        "data-testid=\"board\"",
        "data-testid=\"move-list\"",
        "data-testid=\"engine-info\"",
        "data-testid=\"result\"",
        "data-testid=\"new-game\"",
    ] {
        assert!(html.contains(id), "missing {id}");
    }
    // nothing from elsewhere: every script and style is local
    assert!(!html.contains("src=\"http") && !html.contains("href=\"http"));
    assert!(!html.contains("src=\"//") && !html.contains("href=\"//"));
    for (path, ty) in [
        ("/app.js", "text/javascript"),
        ("/i18n.js", "text/javascript"),
        ("/style.css", "text/css"),
        ("/favicon.svg", "image/svg+xml"),
    ] {
        let resp = get_response(&app, path).await;
        assert_eq!(resp.status(), StatusCode::OK, "{path}");
        let ct = resp.headers()[header::CONTENT_TYPE].to_str().unwrap();
        assert!(ct.starts_with(ty), "{path}: {ct}");
    }
    let (_, i18n) = get(&app, "/i18n.js").await;
    assert!(i18n.as_str().unwrap().contains("中文") || i18n.as_str().unwrap().contains("悔棋"));
}

#[tokio::test]
async fn unknown_paths_and_methods_are_json_errors() {
    let (app, _) = router();
    let (s, v) = get(&app, "/nope").await;
    assert_error(s, &v, StatusCode::NOT_FOUND, "not_found");
    let (s, v) = call(&app, Method::PUT, "/api/games", None).await;
    assert_error(s, &v, StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed");
}
