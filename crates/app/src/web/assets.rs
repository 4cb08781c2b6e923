//! The page's files, embedded in the binary at compile time.

use axum::http::header;
use axum::response::IntoResponse;

const INDEX_HTML: &str = include_str!("../../web/index.html");
const APP_JS: &str = include_str!("../../web/app.js");
const I18N_JS: &str = include_str!("../../web/i18n.js");
const RENJU_JS: &str = include_str!("../../web/renju.js");
const STYLE_CSS: &str = include_str!("../../web/style.css");
const FAVICON_SVG: &str = include_str!("../../web/favicon.svg");

fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, content_type),
            // the files change only with the binary; a reload after an upgrade must see them
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
}

pub(super) async fn index() -> impl IntoResponse {
    asset("text/html; charset=utf-8", INDEX_HTML)
}

pub(super) async fn app_js() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", APP_JS)
}

pub(super) async fn i18n_js() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", I18N_JS)
}

pub(super) async fn renju_js() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", RENJU_JS)
}

pub(super) async fn style_css() -> impl IntoResponse {
    asset("text/css; charset=utf-8", STYLE_CSS)
}

pub(super) async fn favicon() -> impl IntoResponse {
    asset("image/svg+xml", FAVICON_SVG)
}
