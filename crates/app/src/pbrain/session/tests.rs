//! Tests of the command loop, driven through its channels as a manager would.

use super::super::channel;
use super::*;
use std::io::Write;
use std::sync::mpsc;

/// Collects output lines into a channel (the property tests below use it too).
pub(super) struct Lines {
    pub(super) tx: mpsc::Sender<String>,
    pub(super) buf: Vec<u8>,
}

impl Write for Lines {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        for &b in data {
            if b == b'\n' {
                let line = String::from_utf8_lossy(&self.buf).into_owned();
                self.buf.clear();
                let _ = self.tx.send(line);
            } else {
                self.buf.push(b);
            }
        }
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A session on its own thread, driven line by line.
struct Harness {
    events: mpsc::Sender<Event>,
    lines: mpsc::Receiver<String>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Harness {
    fn new() -> Harness {
        let (tx, lines) = mpsc::channel();
        let out = Output::new(Lines {
            tx,
            buf: Vec::new(),
        });
        let (events, rx) = channel();
        let session = Session::new(out, events.clone());
        let thread = std::thread::spawn(move || session.run(&rx));
        Harness {
            events,
            lines,
            thread: Some(thread),
        }
    }

    fn send(&self, line: &str) {
        self.events
            .send(Event::Line(format!("{line}\r\n"), Instant::now()))
            .unwrap();
    }

    /// Sends a BOARD of text rows: `X` the brain's own stones, `O` the opponent's.
    fn board(&self, rows: &[&str]) {
        self.send("BOARD");
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                match c {
                    'X' => self.send(&format!("{x},{y},1")),
                    'O' => self.send(&format!("{x},{y},2")),
                    _ => {}
                }
            }
        }
        self.send("DONE");
    }

    /// The next line that is not a MESSAGE.
    fn answer(&self) -> String {
        loop {
            let l = self
                .lines
                .recv_timeout(Duration::from_secs(20))
                .expect("an answer in time");
            if !l.starts_with("MESSAGE") {
                return l;
            }
        }
    }

    /// All lines up to and including the next one that is not a MESSAGE.
    fn answer_with_messages(&self) -> Vec<String> {
        let mut v = Vec::new();
        loop {
            let l = self
                .lines
                .recv_timeout(Duration::from_secs(20))
                .expect("an answer in time");
            let done = !l.starts_with("MESSAGE");
            v.push(l);
            if done {
                return v;
            }
        }
    }

    fn silent_for(&self, ms: u64) -> bool {
        self.lines.recv_timeout(Duration::from_millis(ms)).is_err()
    }

    fn finish(mut self) {
        self.send("END");
        if let Some(t) = self.thread.take() {
            t.join().unwrap();
        }
    }
}

fn xy(answer: &str) -> (usize, usize) {
    let (x, y) = answer.split_once(',').expect("x,y");
    (x.parse().unwrap(), y.parse().unwrap())
}

#[test]
fn a_short_game_in_process() {
    let h = Harness::new();
    h.send("INFO timeout_turn 100");
    h.send("INFO max_memory 16777216");
    h.send("START 15");
    assert_eq!(h.answer(), "OK");
    h.send("BEGIN");
    let lines = h.answer_with_messages();
    assert!(
        lines.iter().any(|l| l.starts_with("MESSAGE depth")),
        "{lines:?}"
    );
    assert_eq!(
        xy(lines.last().unwrap()),
        (7, 7),
        "the first move goes to the centre"
    );
    h.send("TURN 8,8");
    let (x, y) = xy(&h.answer());
    assert!((x, y) != (7, 7) && (x, y) != (8, 8));
    h.finish();
}

#[test]
fn commands_during_a_search_wait_their_turn() {
    let h = Harness::new();
    h.send("INFO timeout_turn 150");
    h.send("START 15");
    h.send("BEGIN");
    h.send("TURN 8,8");
    h.send("ABOUT");
    assert_eq!(h.answer(), "OK");
    assert_eq!(xy(&h.answer()), (7, 7));
    let second = xy(&h.answer());
    assert!(second != (7, 7) && second != (8, 8));
    assert!(h.answer().starts_with("name="));
    h.finish();
}

#[test]
fn stop_answers_at_once() {
    let h = Harness::new();
    h.send("INFO timeout_turn 600000");
    h.send("START 15");
    assert_eq!(h.answer(), "OK");
    h.send("BOARD");
    h.send("7,7,2");
    h.send("8,8,1");
    h.send("8,7,2");
    h.send("DONE");
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    h.send("YXSTOP");
    let (x, y) = xy(&h.answer());
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert!(x < 15 && y < 15 && (x, y) != (7, 7) && (x, y) != (8, 8) && (x, y) != (8, 7));
    h.finish();
}

/// Renju, Black to move on a 6x6 board whose two free points both make an overline: the
/// answer is still a move (a foul, which loses), not an `ERROR` the manager reads as a
/// broken engine.
#[test]
fn renju_black_with_only_forbidden_points_still_moves() {
    let rows = ["XXX.XX", "OXOOOO", "OOOXOO", "XOOXXO", "XOOOXO", "XX.XXX"];
    let h = Harness::new();
    h.send("INFO rule 4");
    h.send("START 6");
    assert_eq!(h.answer(), "OK");
    h.board(&rows);
    let lines = h.answer_with_messages();
    let answer = xy(lines.last().unwrap());
    assert!(answer == (3, 0) || answer == (2, 5), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("forbidden") && l.starts_with("MESSAGE")),
        "{lines:?}"
    );
    h.finish();
}

#[test]
fn a_shorter_limit_from_info_ends_the_search() {
    let h = Harness::new();
    h.send("INFO timeout_turn 600000");
    h.send("START 15");
    assert_eq!(h.answer(), "OK");
    h.send("TURN 7,7");
    std::thread::sleep(Duration::from_millis(50));
    let t = Instant::now();
    h.send("INFO timeout_turn 300");
    let (x, y) = xy(&h.answer());
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert!((x, y) != (7, 7));
    h.finish();
}

/// Sends `SWAP2BOARD` with `stones` and returns the answer.
fn swap2(h: &Harness, stones: &[&str]) -> String {
    h.send("SWAP2BOARD");
    for s in stones {
        h.send(s);
    }
    h.send("DONE");
    h.answer()
}

#[test]
fn swap2_answers_stones_or_swap_on_free_points() {
    let h = Harness::new();
    h.send("INFO timeout_turn 150");
    h.send("INFO rule 1");
    h.send("START 15");
    assert_eq!(h.answer(), "OK");
    // an opening: three distinct points
    let opening = swap2(&h, &[]);
    let mut points: Vec<(usize, usize)> = opening.split(' ').map(xy).collect();
    assert_eq!(points.len(), 3, "{opening}");
    // which are on the board now
    let first = points[0];
    h.send(&format!("TURN {},{}", first.0, first.1));
    let a = h.answer();
    assert!(a.starts_with("ERROR") && a.contains("occupied"), "{a}");
    points.sort_unstable();
    points.dedup();
    assert_eq!(points.len(), 3, "{opening}");
    // (stones, the answers allowed: SWAP, or how many stones)
    let cases: &[(&[&str], &[usize])] = &[
        // Black's open three: White takes Black
        (&["7,7", "0,0", "8,7", "14,14", "9,7"], &[]),
        // after three stones: swap, stay (one stone) or two more stones
        (&["7,7", "8,7", "11,7"], &[0, 1, 2]),
        // after five: swap or stay
        (&["7,7", "8,7", "11,7", "7,8", "3,3"], &[0, 1]),
    ];
    for &(stones, allowed) in cases {
        let a = swap2(&h, stones);
        if a == "SWAP" {
            assert!(
                allowed.is_empty() || allowed.contains(&0),
                "{stones:?}: {a}"
            );
            continue;
        }
        let placed: Vec<(usize, usize)> = a.split(' ').map(xy).collect();
        assert!(allowed.contains(&placed.len()), "{stones:?}: {a}");
        for p in &placed {
            assert!(
                !stones.contains(&format!("{},{}", p.0, p.1).as_str()),
                "{stones:?}: {a}"
            );
        }
    }
    h.finish();
}

#[test]
fn swap2_with_bad_stones_is_an_error_and_the_game_goes_on() {
    let h = Harness::new();
    h.send("INFO timeout_turn 100");
    h.send("START 15");
    assert_eq!(h.answer(), "OK");
    for (stones, needle) in [
        (&["7,7", "7,7", "8,8"][..], "already occupied"),
        (&["1,1"][..], "1 stone; swap2 asks with 0, 3 or 5"),
        (&["7,7", "8,8", "9,9", "1,1"][..], "4 stones"),
        (&["zz"][..], "'zz'"),
        (&["7,7", "8,7", "20,3"][..], "off the 15x15 board"),
    ] {
        let a = swap2(&h, stones);
        assert!(a.starts_with("ERROR SWAP2BOARD: "), "{stones:?}: {a}");
        assert!(a.contains(needle), "{stones:?}: {a}");
    }
    h.send("BEGIN");
    assert_eq!(xy(&h.answer()), (7, 7));
    h.finish();
}

#[test]
fn end_of_input_finishes_the_work_in_hand() {
    let mut h = Harness::new();
    h.send("INFO timeout_turn 100");
    h.send("START 15");
    h.send("BEGIN");
    h.events.send(Event::Eof).unwrap();
    assert_eq!(h.answer(), "OK");
    assert_eq!(xy(&h.answer()), (7, 7));
    if let Some(t) = h.thread.take() {
        t.join().unwrap();
    }
}

#[test]
fn a_huge_malformed_line_gets_a_short_answer() {
    let h = Harness::new();
    let huge = "9".repeat(1 << 20);
    let noise = "z".repeat(1 << 20);
    h.send(&noise);
    h.send("START 15");
    for line in [
        format!("TURN {huge},7"),
        format!("TURN 7,{noise}"),
        format!("PLAY {noise}"),
        format!("TAKEBACK {noise}"),
        format!("INFO timeout_turn {noise}"),
        format!("START {huge}"),
        format!("ABOUT {noise}"),
        format!("{noise} 1"),
    ] {
        h.send(&line);
    }
    h.send("BOARD");
    h.send(&format!("7,7,{noise}"));
    h.send("DONE");
    h.send("BOARD");
    h.send(&format!("{huge},7,1"));
    h.send("DONE");
    let mut answers = Vec::new();
    for _ in 0..12 {
        answers.push(h.answer());
    }
    assert_eq!(
        answers.iter().filter(|a| *a == "OK").count(),
        1,
        "{answers:?}"
    );
    for a in answers.iter().filter(|a| *a != "OK") {
        assert!(
            a.starts_with("ERROR ") || a.starts_with("UNKNOWN "),
            "{}",
            &a[..a.len().min(300)]
        );
        assert!(a.len() < 300, "{} bytes: {}", a.len(), &a[..300]);
        // (the quoted text is a token or the whole line, a little over a megabyte)
        assert!(a.contains("... (104857"), "{a}");
    }
    h.finish();
}

#[test]
fn end_during_a_search_is_silent() {
    let mut h = Harness::new();
    h.send("INFO timeout_turn 600000");
    h.send("START 15");
    assert_eq!(h.answer(), "OK");
    // (BEGIN would be answered at once: the centre is the only candidate)
    h.send("TURN 7,7");
    std::thread::sleep(Duration::from_millis(50));
    h.send("END");
    if let Some(t) = h.thread.take() {
        t.join().unwrap();
    }
    // the loop has ended, and the move of the stopped search was never written
    let rest: Vec<String> = h.lines.try_iter().collect();
    assert!(rest.iter().all(|l| l.starts_with("MESSAGE")), "{rest:?}");
    assert!(h.silent_for(200));
}

/// A move that ends the game (the board's last point, or a five) never comes back at once:
/// the manager starts the next game on the reply, and gives the other brain a moment.
#[test]
fn a_game_ending_reply_waits_a_moment() {
    let full = ["OXOOX", "OOXXO", "XX.OX", "OOXXO", "XXOOX"];
    let five = ["XXXX.", "OOOO.", ".....", ".....", "....."];
    for (size, rows, expect) in [(5, full, (2, 2)), (7, five, (4, 0))] {
        let h = Harness::new();
        h.send(&format!("START {size}"));
        assert_eq!(h.answer(), "OK");
        let sent = Instant::now(); // the request is timed from its first line
        h.board(&rows);
        assert_eq!(xy(&h.answer()), expect);
        assert!(
            sent.elapsed() >= Settings::default().ending_pause(),
            "{:?}",
            sent.elapsed()
        );
        h.finish();
    }
}
