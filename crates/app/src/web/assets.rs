//! The page's files, embedded in the binary at compile time: `index.html`, the style sheet,
//! the icon and the page's ES modules (`app.js` imports the others, by relative paths that
//! are their paths here).

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const SVG: &str = "image/svg+xml";

/// The page's `index.html`, served at `/` too.
const INDEX_HTML: &str = include_str!("../../web/index.html");

/// The icon, served at `/favicon.ico` too.
const FAVICON_SVG: &str = include_str!("../../web/favicon.svg");

/// Every file of the page but `index.html`: its path, its content type and its text.
const FILES: &[(&str, &str, &str)] = &[
    ("/style.css", CSS, include_str!("../../web/style.css")),
    ("/favicon.svg", SVG, FAVICON_SVG),
    ("/app.js", JS, include_str!("../../web/app.js")),
    ("/api.js", JS, include_str!("../../web/api.js")),
    ("/board.js", JS, include_str!("../../web/board.js")),
    ("/coords.js", JS, include_str!("../../web/coords.js")),
    ("/dialogs.js", JS, include_str!("../../web/dialogs.js")),
    ("/dom.js", JS, include_str!("../../web/dom.js")),
    (
        "/engine-panel.js",
        JS,
        include_str!("../../web/engine-panel.js"),
    ),
    ("/explorer.js", JS, include_str!("../../web/explorer.js")),
    (
        "/evaluation.js",
        JS,
        include_str!("../../web/evaluation.js"),
    ),
    (
        "/game-state.js",
        JS,
        include_str!("../../web/game-state.js"),
    ),
    ("/graph.js", JS, include_str!("../../web/graph.js")),
    ("/history.js", JS, include_str!("../../web/history.js")),
    ("/i18n.js", JS, include_str!("../../web/i18n.js")),
    ("/library.js", JS, include_str!("../../web/library.js")),
    (
        "/library-api.js",
        JS,
        include_str!("../../web/library-api.js"),
    ),
    ("/moves.js", JS, include_str!("../../web/moves.js")),
    ("/new-game.js", JS, include_str!("../../web/new-game.js")),
    ("/notes.js", JS, include_str!("../../web/notes.js")),
    (
        "/opening-log.js",
        JS,
        include_str!("../../web/opening-log.js"),
    ),
    ("/openings.js", JS, include_str!("../../web/openings.js")),
    ("/overlays.js", JS, include_str!("../../web/overlays.js")),
    ("/review.js", JS, include_str!("../../web/review.js")),
    ("/session.js", JS, include_str!("../../web/session.js")),
    ("/setup.js", JS, include_str!("../../web/setup.js")),
    ("/status.js", JS, include_str!("../../web/status.js")),
    ("/tools.js", JS, include_str!("../../web/tools.js")),
    ("/tree.js", JS, include_str!("../../web/tree.js")),
    ("/words.js", JS, include_str!("../../web/words.js")),
];

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

/// The routes of the page's files (`/favicon.ico` is the icon too).
pub(super) fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let index = || async { asset(HTML, INDEX_HTML) };
    let mut router = Router::new()
        .route("/", get(index))
        .route("/index.html", get(index));
    for &(path, content_type, body) in FILES {
        router = router.route(path, get(move || async move { asset(content_type, body) }));
    }
    router.route("/favicon.ico", get(|| async { asset(SVG, FAVICON_SVG) }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The paths a module imports (`import ... from './x.js'`, `import './x.js'`), as served
    /// paths (`/x.js`).
    fn imports(module: &str) -> Vec<String> {
        let mut out = Vec::new();
        for line in module.lines() {
            let line = line.trim();
            if !line.starts_with("import ") && !line.starts_with("} from ") {
                continue;
            }
            let Some(start) = line.find(['\'', '"']) else {
                continue;
            };
            let quote = &line[start..start + 1];
            let rest = &line[start + 1..];
            let Some(end) = rest.find(quote) else {
                continue;
            };
            let spec = &rest[..end];
            assert!(
                spec.starts_with("./") && !spec[2..].contains('/'),
                "imports are relative paths of the page's own folder: {spec}"
            );
            out.push(format!("/{}", &spec[2..]));
        }
        out
    }

    fn served(path: &str) -> Option<&'static (&'static str, &'static str, &'static str)> {
        FILES.iter().find(|f| f.0 == path)
    }

    #[test]
    fn every_module_imported_is_served_and_every_module_served_is_used() {
        let entry = "/app.js";
        assert!(
            INDEX_HTML.contains("<script type=\"module\" src=\"/app.js\"></script>"),
            "index.html loads the entry module"
        );
        let mut seen = BTreeSet::new();
        let mut todo = vec![entry.to_string()];
        while let Some(path) = todo.pop() {
            if !seen.insert(path.clone()) {
                continue;
            }
            let file = served(&path).unwrap_or_else(|| panic!("{path} is imported, not served"));
            assert_eq!(file.1, JS, "{path}");
            todo.extend(imports(file.2));
        }
        let modules: BTreeSet<String> = FILES
            .iter()
            .filter(|f| f.1 == JS)
            .map(|f| f.0.to_string())
            .collect();
        assert_eq!(seen, modules, "every module served is reached from app.js");
    }

    #[test]
    fn every_file_of_the_page_folder_is_served() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        for entry in std::fs::read_dir(&dir).expect("the page's folder") {
            let entry = entry.expect("an entry");
            if entry.file_type().expect("a type").is_dir() {
                continue; // the page's own tests, not served
            }
            let name = entry.file_name().to_string_lossy().to_string();
            // (package.json tells Node, for the page's unit tests, that these are modules)
            if name == "index.html" || name == "package.json" {
                continue;
            }
            assert!(
                served(&format!("/{name}")).is_some(),
                "web/{name} is not served: add it to FILES"
            );
        }
    }
}
