//! The Gomocup "pbrain" protocol (Petr Lastovicka's Gomoku AI protocol), as spoken by
//! Piskvork, Gomocup's managers, c-gomoku-cli and Yixin-Board, with the Yixin-Board extensions
//! those GUIs rely on.
//!
//! Layout: [`command`] reads lines, [`position`] keeps the game, [`settings`] holds what
//! `INFO` said and turns it into search limits, [`swap2`] answers Gomocup's swap2 opening
//! (`SWAP2BOARD`), [`balance`] finds balanced moves (`YXBALANCEONE`, `YXBALANCETWO`),
//! `thinker` runs the engine on its own thread,
//! and [`Session`] ties them together: one event at a time (an input line, or a search that
//! finished), so that input keeps being read while the engine thinks and `STOP`, `END` and
//! `INFO` are obeyed at once.
//!
//! ```no_run
//! // what `pbrain-gomoku` and `gomoku pbrain` do:
//! gomoku_app::pbrain::run_stdio();
//! ```

pub mod balance;
pub mod command;
mod output;
pub mod position;
mod session;
pub mod settings;
pub mod swap2;
mod thinker;

pub use output::Output;
pub use session::{Flow, Session};
pub use thinker::Outcome;

use std::io::BufRead;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Instant;

/// The brain's name for `ABOUT`.
pub const NAME: &str = "gomoku";
/// The author for `ABOUT`.
pub const AUTHOR: &str = "the gomoku developers";
/// The country for `ABOUT`.
pub const COUNTRY: &str = "unknown";

/// What the command loop reacts to.
#[derive(Debug)]
pub enum Event {
    /// A line of input and when it arrived (the turn clock starts then).
    Line(String, Instant),
    /// The input ended.
    Eof,
    /// A search finished.
    Finished(Outcome),
}

/// A channel for [`Event`]s: give the sender to whatever reads input, and the receiver to
/// [`Session::run`].
#[must_use]
pub fn channel() -> (Sender<Event>, Receiver<Event>) {
    mpsc::channel()
}

/// Reads lines from `input` on a thread of its own and sends them as events (then
/// [`Event::Eof`]). Bytes that are not UTF-8 are replaced, not fatal.
pub fn spawn_reader<R: BufRead + Send + 'static>(input: R, events: Sender<Event>) {
    std::thread::Builder::new()
        .name("pbrain-input".into())
        .spawn(move || read_all(input, &events))
        .unwrap_or_else(|e| panic!("cannot start the input thread: {e}"));
}

/// Runs the protocol on `input` and `out` until `END` or the end of the input.
pub fn run<R: BufRead + Send + 'static>(input: R, out: Output) {
    let (tx, rx) = channel();
    spawn_reader(input, tx.clone());
    Session::new(out, tx).run(&rx);
}

/// Runs the protocol on standard input and output.
pub fn run_stdio() {
    let (tx, rx) = channel();
    let reader_tx = tx.clone();
    std::thread::Builder::new()
        .name("pbrain-stdin".into())
        .spawn(move || {
            // the lock is taken on this thread, so nothing needs to be sent across
            let stdin = std::io::stdin();
            let lock = stdin.lock();
            read_all(lock, &reader_tx);
        })
        .unwrap_or_else(|e| panic!("cannot start the input thread: {e}"));
    Session::new(Output::new(std::io::stdout()), tx).run(&rx);
}

fn read_all<R: BufRead>(mut input: R, events: &Sender<Event>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf).into_owned();
                if events.send(Event::Line(line, Instant::now())).is_err() {
                    return;
                }
            }
        }
    }
    let _ = events.send(Event::Eof);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pbrain::output::Shared;
    use std::io::Cursor;

    #[test]
    fn a_piped_script_gets_every_answer_before_the_end_of_input_ends_the_run() {
        let buf = Shared::default();
        let script = "INFO timeout_turn 50\r\nSTART 15\r\nBEGIN\r\nTURN 8,8\r\nABOUT\r\n";
        run(
            Cursor::new(script.as_bytes().to_vec()),
            Output::new(buf.clone()),
        );
        let text = buf.text();
        let answers: Vec<&str> = text.lines().filter(|l| !l.starts_with("MESSAGE")).collect();
        assert_eq!(answers.len(), 4, "{text}");
        assert_eq!(answers[0], "OK");
        assert_eq!(answers[1], "7,7");
        assert!(answers[2].contains(',') && answers[2] != "8,8", "{text}");
        assert!(answers[3].starts_with("name=\"gomoku\""), "{text}");
    }
}
