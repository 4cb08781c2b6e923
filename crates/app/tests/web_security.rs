//! What the board server refuses before any handler runs (`web::guard`): requests from other
//! sites or for other host names, bodies that are not JSON or are too large, and clients too
//! slow to send their request. Each refusal changes nothing. The router is called without a
//! socket (`oneshot`), except for the timeouts, which need a real connection.

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use axum::Router;
use gomoku_app::web::{app, serve_listener, AppState, Protection, ServerConfig};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};
use tower::ServiceExt;

/// The port the servers of these tests pretend to listen on.
const PORT: u16 = 8080;

fn router() -> (Router, AppState) {
    let state = AppState::new(ServerConfig {
        hash_mb: 4,
        ..ServerConfig::default()
    })
    .with_protection(Protection::listening("127.0.0.1", PORT));
    (app(state.clone()), state)
}

/// One request with `headers`; the answer's status and body (JSON when it parses).
async fn send(
    app: &Router,
    method: Method,
    uri: &str,
    headers: &[(&str, &str)],
    body: Body,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let resp = app.clone().oneshot(req.body(body).unwrap()).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// The headers of a request from the page the server serves.
const OWN: [(&str, &str); 3] = [
    ("host", "127.0.0.1:8080"),
    ("origin", "http://127.0.0.1:8080"),
    ("content-type", "application/json"),
];

/// A game between two people with one move played, made by the page; its id.
async fn game_with_a_move(app: &Router) -> String {
    let body = json!({"black": "person", "white": "person"}).to_string();
    let (s, v) = send(app, Method::POST, "/api/games", &OWN, Body::from(body)).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let uri = format!("/api/games/{id}/move");
    let body = json!({"move": "h8"}).to_string();
    let (s, v) = send(app, Method::POST, &uri, &OWN, Body::from(body)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    id
}

/// The moves of a game, read as the page reads them.
async fn moves(app: &Router, id: &str) -> Value {
    let uri = format!("/api/games/{id}");
    let (s, v) = send(app, Method::GET, &uri, &OWN[..1], Body::empty()).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v["moves"].clone()
}

fn assert_refused(status: StatusCode, v: &Value, want: StatusCode, code: &str) {
    assert_eq!(status, want, "{v}");
    assert_eq!(v["error"]["code"], code, "{v}");
    assert!(v["error"]["message"]
        .as_str()
        .is_some_and(|m| !m.is_empty()));
}

// Other sites: a form or a script on another page, or a name rebound to this machine.
mod origins {
    use super::*;

    #[tokio::test]
    async fn a_cross_origin_post_is_refused_and_changes_nothing() {
        let (app, state) = router();
        let id = game_with_a_move(&app).await;
        let before = moves(&app, &id).await;
        let move_uri = format!("/api/games/{id}/move");
        let game_uri = format!("/api/games/{id}");
        let requests = [
            (Method::POST, "/api/games", json!({}).to_string()),
            (
                Method::POST,
                move_uri.as_str(),
                json!({"move": "a1"}).to_string(),
            ),
            (
                Method::POST,
                &format!("/api/games/{id}/undo"),
                String::new(),
            ),
            (
                Method::POST,
                &format!("/api/games/{id}/resign"),
                String::new(),
            ),
            (Method::DELETE, game_uri.as_str(), String::new()),
        ];
        for origin in [
            "http://evil.example",
            "https://evil.example:8080",
            "http://127.0.0.1:9999",
            "http://localhost:8080",
            "null",
            "file://",
        ] {
            for (method, uri, body) in &requests {
                let headers = [
                    ("host", "127.0.0.1:8080"),
                    ("origin", origin),
                    ("content-type", "application/json"),
                ];
                let (s, v) = send(
                    &app,
                    method.clone(),
                    uri,
                    &headers,
                    Body::from(body.clone()),
                )
                .await;
                assert_refused(s, &v, StatusCode::FORBIDDEN, "cross_origin");
            }
            // without a Host (no browser), only this machine's names are its own
            if origin == "http://localhost:8080" {
                continue;
            }
            let (s, v) = send(
                &app,
                Method::POST,
                &move_uri,
                &[("origin", origin), ("content-type", "application/json")],
                Body::from(json!({"move": "a1"}).to_string()),
            )
            .await;
            assert_refused(s, &v, StatusCode::FORBIDDEN, "cross_origin");
        }
        assert_eq!(state.games.len(), 1, "no game was made or removed");
        assert_eq!(moves(&app, &id).await, before);
        // a GET from anywhere is still answered (a page cannot read it across sites anyway)
        let headers = [
            ("host", "127.0.0.1:8080"),
            ("origin", "http://evil.example"),
        ];
        let (s, _) = send(&app, Method::GET, &game_uri, &headers, Body::empty()).await;
        assert_eq!(s, StatusCode::OK);
    }

    #[tokio::test]
    async fn the_page_and_local_tools_are_answered() {
        let (app, _) = router();
        let id = game_with_a_move(&app).await;
        // the page opened as localhost, or as [::1]; curl without an Origin or a Host
        for (host, origin) in [
            ("localhost:8080", "http://localhost:8080"),
            ("[::1]:8080", "http://[::1]:8080"),
            ("LOCALHOST:8080", "http://localhost:8080"),
        ] {
            let headers = [
                ("host", host),
                ("origin", origin),
                ("content-type", "application/json; charset=utf-8"),
            ];
            let uri = format!("/api/games/{id}/undo");
            let (s, v) = send(&app, Method::POST, &uri, &headers, Body::empty()).await;
            assert!(
                s == StatusCode::OK || s == StatusCode::CONFLICT,
                "{host}: {s} {v}"
            );
        }
        let (s, v) = send(&app, Method::POST, "/api/games", &[], Body::empty()).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let uri = format!("/api/games/{id}");
        let (s, _) = send(&app, Method::DELETE, &uri, &OWN[..2], Body::empty()).await;
        assert_eq!(s, StatusCode::NO_CONTENT);
    }

    #[tokio::test]
    async fn a_foreign_host_name_is_refused_dns_rebinding() {
        let (app, state) = router();
        let id = game_with_a_move(&app).await;
        let before = moves(&app, &id).await;
        // a page of evil.example whose name now resolves to 127.0.0.1: to the browser its
        // requests are same-origin, but they carry its name
        for host in [
            "evil.example:8080",
            "localhost.evil.example:8080",
            "127.0.0.1:9999",
            "localhost",
            "",
        ] {
            let origin = format!("http://{host}");
            let headers = [
                ("host", host),
                ("origin", origin.as_str()),
                ("content-type", "application/json"),
            ];
            let uri = format!("/api/games/{id}/move");
            let body = Body::from(json!({"move": "a1"}).to_string());
            let (s, v) = send(&app, Method::POST, &uri, &headers, body).await;
            assert_refused(s, &v, StatusCode::FORBIDDEN, "forbidden_host");
            let body = Body::from(json!({}).to_string());
            let (s, v) = send(&app, Method::POST, "/api/games", &headers, body).await;
            assert_refused(s, &v, StatusCode::FORBIDDEN, "forbidden_host");
            // nor does it read anything
            let (s, v) = send(
                &app,
                Method::GET,
                &format!("/api/games/{id}"),
                &headers,
                Body::empty(),
            )
            .await;
            assert_refused(s, &v, StatusCode::FORBIDDEN, "forbidden_host");
        }
        assert_eq!(state.games.len(), 1);
        assert_eq!(moves(&app, &id).await, before);
    }
}

// Bodies: JSON only, and not too large.
mod bodies {
    use super::*;

    #[tokio::test]
    async fn a_text_plain_post_is_refused_and_changes_nothing() {
        let (app, state) = router();
        let id = game_with_a_move(&app).await;
        let before = moves(&app, &id).await;
        let uri = format!("/api/games/{id}/move");
        // what a cross-site form can send without asking: text/plain, urlencoded, multipart
        for ct in [
            "text/plain",
            "text/plain;charset=UTF-8",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/jsonx",
            "",
        ] {
            let headers = [("host", "127.0.0.1:8080"), ("content-type", ct)];
            let body = Body::from(json!({"move": "a1"}).to_string());
            let (s, v) = send(&app, Method::POST, &uri, &headers, body).await;
            assert_refused(
                s,
                &v,
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
            );
            let body = Body::from(json!({"black": "engine"}).to_string());
            let (s, v) = send(&app, Method::POST, "/api/games", &headers, body).await;
            assert_refused(
                s,
                &v,
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
            );
        }
        // a body without a type is refused too; an empty one without a type is fine
        let body = Body::from(json!({"move": "a1"}).to_string());
        let (s, v) = send(&app, Method::POST, &uri, &[], body).await;
        assert_refused(
            s,
            &v,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
        );
        assert_eq!(state.games.len(), 1, "no game was made");
        assert_eq!(moves(&app, &id).await, before);
        let (s, _) = send(
            &app,
            Method::POST,
            &format!("/api/games/{id}/undo"),
            &[],
            Body::empty(),
        )
        .await;
        assert_eq!(s, StatusCode::OK);
    }

    #[tokio::test]
    async fn an_oversized_body_is_413_and_changes_nothing() {
        let (app, state) = router();
        let limit = state.protection.body_limit;
        // a JSON object just over the limit, with its length given
        let padding = "x".repeat(limit);
        let big = json!({"black": "person", "white": "person", "psq": padding}).to_string();
        assert!(big.len() > limit);
        let (s, v) = send(
            &app,
            Method::POST,
            "/api/games",
            &OWN,
            Body::from(big.clone()),
        )
        .await;
        assert_refused(s, &v, StatusCode::PAYLOAD_TOO_LARGE, "too_large");
        // the same in chunks with no length given
        let chunks: Vec<Result<String, std::io::Error>> = big
            .as_bytes()
            .chunks(64 * 1024)
            .map(|c| Ok(String::from_utf8(c.to_vec()).unwrap()))
            .collect();
        let body = Body::from_stream(futures_util::stream::iter(chunks));
        let (s, v) = send(&app, Method::POST, "/api/games", &OWN, body).await;
        assert_refused(s, &v, StatusCode::PAYLOAD_TOO_LARGE, "too_large");
        assert!(state.games.is_empty());
        // a large body within the limit is read (and judged by the handler)
        let body = json!({"psq": "x".repeat(limit - 100)}).to_string();
        let (s, v) = send(&app, Method::POST, "/api/games", &OWN, Body::from(body)).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    }
}

// Slow clients, over a real connection.
mod timeouts {
    use super::*;

    /// The servers' timeouts in the tests of slow clients.
    const TIMEOUT: Duration = Duration::from_millis(800);

    /// How late a closing may come after its timeout: the tests run beside others on two
    /// cores that a build may load, and a timer's task can wait its turn for seconds there.
    /// Without the timeout the connection stays open for the client's 20 s.
    const LATE: Duration = Duration::from_secs(8);

    /// A server on a free port with short timeouts; its address and state.
    async fn server() -> (String, AppState) {
        server_with(TIMEOUT).await
    }

    /// A server on a free port with these header and body timeouts; its address and state.
    async fn server_with(timeout: Duration) -> (String, AppState) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let state = AppState::new(ServerConfig {
            hash_mb: 4,
            ..ServerConfig::default()
        })
        .with_protection(Protection {
            header_timeout: timeout,
            body_timeout: timeout,
            ..Protection::listening("127.0.0.1", port)
        });
        tokio::spawn(serve_listener(listener, state.clone()));
        (format!("127.0.0.1:{port}"), state)
    }

    /// Writes `text`, then reads until the server closes the connection (on a thread of its
    /// own: a blocking socket, as a plain client); what it sent and how long after the write it
    /// closed.
    async fn closed_after(addr: &str, text: &str) -> (String, Duration) {
        let (addr, text) = (addr.to_string(), text.to_string());
        tokio::task::spawn_blocking(move || {
            let mut s = TcpStream::connect(addr).unwrap();
            s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
            s.write_all(text.as_bytes()).unwrap();
            let start = Instant::now();
            let mut got = Vec::new();
            // a reset is a close too
            let _ = s.read_to_end(&mut got);
            let after = start.elapsed();
            assert!(
                after < Duration::from_secs(19),
                "still open after {after:?}"
            );
            (String::from_utf8_lossy(&got).into_owned(), after)
        })
        .await
        .unwrap()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_client_that_stops_in_the_headers_is_dropped() {
        let (addr, _) = server().await;
        for partial in [
            String::new(),
            "POST /api/games HTTP/1.1\r\n".to_string(),
            format!("POST /api/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: app"),
        ] {
            let (got, after) = closed_after(&addr, &partial).await;
            assert!(!got.contains(" 20"), "{partial:?}: {got}");
            assert!(
                after >= TIMEOUT - Duration::from_millis(100) && after < TIMEOUT + LATE,
                "{partial:?}: closed after {after:?}"
            );
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_client_that_stops_in_the_body_gets_408_and_is_dropped() {
        let (addr, state) = server().await;
        let head = format!(
            "POST /api/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Content-Length: 100\r\n\r\n{{\"black\":"
        );
        let (got, after) = closed_after(&addr, &head).await;
        assert!(got.starts_with("HTTP/1.1 408"), "{got}");
        assert!(got.contains("\"timeout\""), "{got}");
        assert!(
            after >= TIMEOUT - Duration::from_millis(100) && after < TIMEOUT + LATE,
            "closed after {after:?}"
        );
        assert!(state.games.is_empty());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_prompt_client_is_answered_and_the_connection_kept() {
        // a timeout no scheduling delay between the two requests comes near
        let (addr, state) = server_with(Duration::from_secs(10)).await;
        let body = json!({"black": "person", "white": "person"}).to_string();
        let req = format!(
            "POST /api/games HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        tokio::task::spawn_blocking(move || {
            let mut s = TcpStream::connect(addr).unwrap();
            s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
            // two requests on one connection, the second at once
            for _ in 0..2 {
                s.write_all(req.as_bytes()).unwrap();
                let got = response(&mut s);
                assert!(got.starts_with("HTTP/1.1 201"), "{got}");
            }
        })
        .await
        .unwrap();
        assert_eq!(state.games.len(), 2);
    }

    /// One whole response (its head and its `Content-Length` bytes of body).
    fn response(s: &mut TcpStream) -> String {
        let mut got = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            let text = String::from_utf8_lossy(&got).into_owned();
            if let Some((head, body)) = text.split_once("\r\n\r\n") {
                let length = head
                    .lines()
                    .find_map(|l| {
                        let l = l.to_ascii_lowercase();
                        l.strip_prefix("content-length:")
                            .map(|n| n.trim().parse::<usize>().unwrap())
                    })
                    .expect("a length");
                if body.len() >= length {
                    return text;
                }
            }
            let n = s.read(&mut buf).expect("an answer within 20 s");
            assert!(n > 0, "closed early: {text}");
            got.extend_from_slice(&buf[..n]);
        }
    }
}

// `gomoku serve` itself, with its default timeouts.
mod serve_command {
    use super::*;
    use gomoku_app::web::guard::READ_TIMEOUT;
    use std::io::{BufRead, BufReader};
    use std::process::{Child, Command, Stdio};

    struct Server(Child);

    impl Drop for Server {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }

    /// Starts `gomoku serve --port 0`; the process and the address it prints.
    fn start() -> (Server, String) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gomoku"))
            .args(["serve", "--port", "0", "--hash-mb", "1", "--no-library"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("gomoku serve starts");
        let stdout = child.stdout.take().expect("piped");
        let server = Server(child);
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the address");
        let addr = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("http://"))
            .unwrap_or_else(|| panic!("no address in {line}"))
            .trim_end_matches('/')
            .to_string();
        (server, addr)
    }

    #[test]
    fn a_half_sent_request_is_dropped_after_the_read_timeout() {
        let (_server, addr) = start();
        let mut s = TcpStream::connect(&addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        write!(s, "POST /api/games HTTP/1.1\r\nHost: {addr}\r\n").unwrap();
        let start = Instant::now();
        let mut got = Vec::new();
        let _ = s.read_to_end(&mut got);
        let after = start.elapsed();
        assert!(
            after >= READ_TIMEOUT - Duration::from_millis(200)
                && after < READ_TIMEOUT + Duration::from_secs(8),
            "closed after {after:?}"
        );
    }

    #[test]
    fn a_foreign_host_is_refused_over_tcp() {
        let (_server, addr) = start();
        let port = addr.rsplit_once(':').unwrap().1;
        let mut s = TcpStream::connect(&addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        write!(
            s,
            "POST /api/games HTTP/1.1\r\nHost: rebound.example:{port}\r\n\
             Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}"
        )
        .unwrap();
        let mut got = String::new();
        let _ = s.read_to_string(&mut got);
        assert!(got.starts_with("HTTP/1.1 403"), "{got}");
        assert!(got.contains("\"forbidden_host\""), "{got}");
    }
}
