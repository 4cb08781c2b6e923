//! The pbrain command loop: the input, cut into lines, is fed to a fresh [`Session`] as a
//! manager would send it, and the session runs until it has answered everything. Nothing may
//! panic, hang or answer a huge line.
//!
//! Searches are kept to a few milliseconds and a small table whatever the input says: `INFO`
//! lines that set time, node, depth, memory or thread limits are clamped before they are sent
//! (a line that is not a number is sent as it is, to be refused).

#![no_main]

use gomoku_app::pbrain::command::{self, Command};
use gomoku_app::pbrain::{channel, Event, Output, Session};
use libfuzzer_sys::fuzz_target;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The output, kept to check the answers.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `line` with its limit, if it sets one, brought within `lo..=hi`.
fn tame(line: &str) -> String {
    let Ok(Command::Info { key, value }) = command::parse(line) else {
        return line.to_string();
    };
    let Ok(v) = value.trim().parse::<i64>() else {
        return line.to_string();
    };
    let (lo, hi) = match key.as_str() {
        "timeout_turn" | "timeout_match" | "time_left" => (0, 5),
        // 0 or less means no limit, and would lift the node limit
        "max_node" => (1, 1_000),
        "max_depth" => (1, 8),
        "max_memory" => (1, 4 << 20),
        "hash_size" => (0, 2_048),
        "thread_num" => (0, 2),
        _ => return line.to_string(),
    };
    format!("INFO {key} {}", v.clamp(lo, hi))
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let out = Shared::default();
    let (tx, rx) = channel();
    let session = Session::new(Output::new(out.clone()), tx.clone());
    let setup = [
        "INFO timeout_turn 3",
        "INFO hash_size 1024",
        "INFO max_node 1000",
    ];
    let lines = setup
        .into_iter()
        .map(str::to_string)
        .chain(text.lines().map(tame));
    for line in lines {
        tx.send(Event::Line(format!("{line}\r\n"), Instant::now()))
            .unwrap();
    }
    tx.send(Event::Eof).unwrap();
    session.run(&rx);
    // the thinking thread is detached (END must not wait for it): wait here until it has let
    // go of its channel and its output, so that no input runs beside the last one's thread
    drop(tx);
    while rx.recv().is_ok() {}
    while Arc::strong_count(&out.0) > 1 {
        std::thread::yield_now();
    }
    let written = out.0.lock().unwrap();
    for line in String::from_utf8_lossy(&written).lines() {
        assert!(line.len() < 2_000, "a long answer: {line}");
    }
});
