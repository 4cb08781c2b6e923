//! Faults of the library under a real server (`gomoku serve`): the server killed with SIGKILL
//! while it writes, after which the library opens and holds every change the server had
//! acknowledged; and two servers on one file, which both work.
#![cfg(unix)]

use gomoku_app::library::Library;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A server on a free port with the library `lib`; its port.
fn start(lib: &Path) -> (Child, u16) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gomoku"))
        .args(["serve", "--port", "0", "--hash-mb", "4", "--library"])
        .arg(lib)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let out = child.stdout.take().unwrap();
    let mut lines = BufReader::new(out).lines();
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        let Some(Ok(line)) = lines.next() else { break };
        if let Some(rest) = line.split("http://127.0.0.1:").nth(1) {
            let port = rest.trim_end_matches(|c: char| !c.is_ascii_digit());
            let port = port.split('/').next().unwrap().parse().unwrap();
            // the rest of the output is not read: keep the pipe open
            std::thread::spawn(move || for _ in lines {});
            return (child, port);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("the server did not say where it listens");
}

/// One request; the status and the JSON answer (`None` when the connection broke before a
/// whole answer came: the server did not acknowledge it).
fn request(port: u16, method: &str, path: &str, body: &Value) -> Option<(u16, Value)> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(20))).ok()?;
    let body = body.to_string();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).ok()?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).ok()?;
    let text = String::from_utf8_lossy(&raw);
    let (head, rest) = text.split_once("\r\n\r\n")?;
    let status: u16 = head.split_whitespace().nth(1)?.parse().ok()?;
    let length: usize = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().to_string())
        })?
        .parse()
        .ok()?;
    if rest.len() < length {
        return None;
    }
    Some((status, serde_json::from_str(&rest[..length]).ok()?))
}

/// What the server acknowledged of one game: its board id, the moves and the comment.
#[derive(Debug, Default, Clone)]
struct Acked {
    id: String,
    moves: Vec<&'static str>,
    comment: Option<String>,
}

/// Plays games on the server until it dies; returns what it acknowledged.
fn play_until_killed(port: u16) -> Vec<Acked> {
    const LINE: [&str; 8] = ["h8", "h9", "i8", "i9", "j9", "j8", "g10", "k7"];
    let mut acked: Vec<Acked> = Vec::new();
    for n in 0.. {
        let Some((201, v)) = request(port, "POST", "/api/games", &json!({"white": "person"}))
        else {
            return acked;
        };
        let id = v["id"].as_str().unwrap().to_string();
        acked.push(Acked {
            id: id.clone(),
            ..Acked::default()
        });
        for m in LINE {
            match request(
                port,
                "POST",
                &format!("/api/games/{id}/move"),
                &json!({"move": m}),
            ) {
                Some((200, _)) => acked.last_mut().unwrap().moves.push(m),
                _ => return acked,
            }
        }
        let text = format!("game {n}");
        let note = json!({"node": 3, "comment": text});
        match request(port, "POST", &format!("/api/games/{id}/note"), &note) {
            Some((200, _)) => acked.last_mut().unwrap().comment = Some(text),
            _ => return acked,
        }
    }
    acked
}

#[test]
fn a_server_killed_while_it_writes_loses_nothing_it_acknowledged() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    for round in 0..3u64 {
        let (mut child, port) = start(&lib);
        let pid = child.id() as i32;
        let killer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300 + 250 * round));
            // Safety: a signal to the child this test started, by its process id
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        });
        let acked = play_until_killed(port);
        killer.join().unwrap();
        let _ = child.wait();
        assert!(
            acked.iter().any(|a| !a.moves.is_empty()),
            "round {round}: nothing played"
        );
        let lib = Library::open(&lib).expect("the library opens again");
        for a in &acked {
            if a.moves.is_empty() {
                continue;
            }
            let stored = lib
                .find_board_game(&a.id)
                .unwrap()
                .unwrap_or_else(|| panic!("round {round}: game {} lost", a.id));
            let g = &stored.game;
            let line: Vec<String> = g
                .tree
                .main_line()
                .iter()
                .map(|&n| gomoku_engine::notation::format_pos(g.tree.get(n).unwrap().point, 15))
                .collect();
            assert!(
                line.len() >= a.moves.len() && line[..a.moves.len()] == a.moves[..],
                "round {round}: game {}: acknowledged {:?}, kept {line:?}",
                a.id,
                a.moves
            );
            if let Some(c) = &a.comment {
                assert_eq!(&g.tree.get(3).unwrap().note.comment, c, "round {round}");
            }
        }
    }
}

#[test]
fn two_servers_on_one_file_both_work() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    let (mut a, pa) = start(&lib);
    let (mut b, pb) = start(&lib);
    let mut ids = Vec::new();
    for (port, m) in [(pa, "h8"), (pb, "i9"), (pa, "j10"), (pb, "k11")] {
        let (s, v) = request(port, "POST", "/api/games", &json!({"white": "person"})).unwrap();
        assert_eq!(s, 201, "{v}");
        let id = v["id"].as_str().unwrap().to_string();
        let (s, v) = request(
            port,
            "POST",
            &format!("/api/games/{id}/move"),
            &json!({"move": m}),
        )
        .unwrap();
        assert_eq!(s, 200, "{v}");
        ids.push((port, id));
    }
    for port in [pa, pb] {
        let (s, v) = request(port, "GET", "/api/library", &json!({})).unwrap();
        assert_eq!((s, v["games"].as_u64()), (200, Some(4)), "{v}");
    }
    // a game of one server, read back by the other
    let (_, id) = &ids[0];
    let (s, v) = request(pb, "GET", &format!("/api/games/{id}"), &json!({})).unwrap();
    assert_eq!((s, v["position"].as_str()), (200, Some("h8")), "{v}");
    let _ = a.kill();
    let _ = b.kill();
    let _ = a.wait();
    let _ = b.wait();
}
