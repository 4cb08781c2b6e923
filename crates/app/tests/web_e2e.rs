//! End to end: the real `gomoku serve` binary, driven by headless Chromium through WebDriver
//! (Debian's `chromium` and `chromium-driver`; `scripts/test.sh` installs them when missing).
//!
//! Each test is a scenario a player goes through, with a server, a driver and a browser of
//! its own (`web_e2e/browser.rs`, the fixture); the scenarios take turns, so that one failing
//! hides none of the others and two browsers never share the machine's cores. The screenshots
//! they take are in `target/tmp/web-e2e-*.png` (`web-e2e.png` at `GOMOKU_E2E_SCREENSHOT`
//! when that is set).

mod common;

// the fixture: server, chromedriver, the page in a browser, and the helpers that drive it
#[path = "web_e2e/browser.rs"]
mod browser;

// playing: the engine's reply and figures, undo and redo, other sizes, a clock
#[path = "web_e2e/play.rs"]
mod play;

// studying a position: forbidden points, the analysis and its heat map, find a win
#[path = "web_e2e/analysis.rs"]
mod analysis;

// the opening rules: swap2, Soosõrv-8
#[path = "web_e2e/openings.rs"]
mod openings;

// positions and records: set-up, diagrams, position lines, lines and SGF, recent games
#[path = "web_e2e/records.rs"]
mod records;

// a game to its result, reviewed, and looked back at; the Chinese labels
#[path = "web_e2e/review.rs"]
mod review;

// a laptop and a phone
#[path = "web_e2e/layout.rs"]
mod layout;

// the library: a game through a restart, collections, the explorer
#[path = "web_e2e/library.rs"]
mod library;

// `gomoku serve` itself, without a browser.
mod serve_command {
    use super::browser::start_server;
    use std::net::{TcpListener, TcpStream};

    #[test]
    fn a_taken_port_is_a_clear_error() {
        let taken = TcpListener::bind("127.0.0.1:0").expect("a port to occupy");
        let port = taken.local_addr().expect("address").port().to_string();
        let out = super::common::gomoku(&["serve", "--port", &port, "--no-library"]);
        assert!(!out.status.success());
        let err = super::common::stderr(&out);
        assert!(
            err.contains(&format!("port {port}")) && err.contains("already in use"),
            "{err}"
        );
    }

    /// GETs `path` from the server at `addr`: the whole response, head and body.
    fn get(addr: &str, path: &str) -> String {
        use std::io::{Read, Write};
        let mut s = TcpStream::connect(addr).expect("connect");
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        )
        .expect("send");
        let mut resp = String::new();
        s.read_to_string(&mut resp).expect("read");
        resp
    }

    #[test]
    fn serves_the_page_and_the_api_over_tcp() {
        let (_server, url) = start_server();
        assert!(url.starts_with("http://127.0.0.1:"), "{url}");
        let addr = url.trim_start_matches("http://").trim_end_matches('/');
        let page = get(addr, "/");
        assert!(page.starts_with("HTTP/1.1 200"), "{page}");
        assert!(page.contains("data-testid=\"board\""));
        let missing = get(addr, "/api/games/nope");
        assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");
        assert!(missing.contains("\"unknown_game\""));
    }

    #[test]
    fn every_module_the_page_imports_is_served_as_javascript() {
        let (_server, url) = start_server();
        let addr = url.trim_start_matches("http://").trim_end_matches('/');
        let mut todo = vec!["/app.js".to_string()];
        let mut seen = std::collections::BTreeSet::new();
        while let Some(path) = todo.pop() {
            if !seen.insert(path.clone()) {
                continue;
            }
            let resp = get(addr, &path);
            let (head, body) = resp.split_once("\r\n\r\n").expect("a head and a body");
            let head = head.to_ascii_lowercase();
            assert!(head.starts_with("http/1.1 200"), "{path}: {head}");
            assert!(
                head.contains("content-type: text/javascript"),
                "{path}: {head}"
            );
            assert!(head.contains("cache-control: no-cache"), "{path}: {head}");
            for spec in body
                .lines()
                .filter(|l| l.starts_with("import ") || l.starts_with("} from "))
                .filter_map(|l| l.split('\'').nth(1))
            {
                todo.push(format!("/{}", spec.trim_start_matches("./")));
            }
        }
        assert!(seen.len() > 10, "{seen:?}");
    }
}
