//! `pbrain-gomoku` (and `gomoku pbrain`) driven as a manager drives it: a process with pipes,
//! scripted sessions line by line, a module for each part of the protocol, and two brains
//! playing each other (`selfplay`).

mod selfplay;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// Longest wait for any answer before the test fails (a hung brain must not hang the tests).
const PATIENCE: Duration = Duration::from_secs(20);

/// A brain process.
pub struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// MESSAGE lines seen while waiting for answers.
    pub messages: Vec<String>,
}

impl Brain {
    /// Starts `pbrain-gomoku`.
    pub fn start() -> Brain {
        Brain::spawn(Command::new(env!("CARGO_BIN_EXE_pbrain-gomoku")))
    }

    /// Starts `pbrain-gomoku` with arguments (as some GUIs do).
    pub fn start_with(args: &[&str]) -> Brain {
        let mut c = Command::new(env!("CARGO_BIN_EXE_pbrain-gomoku"));
        c.args(args);
        Brain::spawn(c)
    }

    /// Starts `gomoku pbrain`.
    pub fn start_subcommand() -> Brain {
        let mut c = Command::new(env!("CARGO_BIN_EXE_gomoku"));
        c.arg("pbrain");
        Brain::spawn(c)
    }

    fn spawn(mut cmd: Command) -> Brain {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the brain starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Brain {
            child,
            stdin,
            lines,
            messages: Vec::new(),
        }
    }

    /// Sends one line, ended with CR LF as Piskvork does.
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        write!(stdin, "{line}\r\n").expect("the brain reads its input");
        stdin.flush().expect("flush");
    }

    /// Writes `text` as it is.
    pub fn send_raw(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin
            .write_all(text.as_bytes())
            .expect("the brain reads its input");
        stdin.flush().expect("flush");
    }

    /// Writes raw bytes.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).expect("the brain reads its input");
        stdin.flush().expect("flush");
    }

    /// Sends several lines.
    pub fn send_all(&mut self, lines: &[&str]) {
        for l in lines {
            self.send(l);
        }
    }

    /// The next line of any kind, if one comes within `wait`.
    pub fn raw(&mut self, wait: Duration) -> Option<String> {
        self.lines.recv_timeout(wait).ok()
    }

    /// The next line that is not a MESSAGE (those are kept in `messages`).
    pub fn answer(&mut self) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let l = self
                .raw(left)
                .unwrap_or_else(|| panic!("no answer within {PATIENCE:?}"));
            if l.starts_with("MESSAGE") {
                self.messages.push(l);
            } else {
                return l;
            }
        }
    }

    /// Sends `line` and returns the answer with the time it took.
    pub fn ask_timed(&mut self, line: &str) -> (String, Duration) {
        let t = Instant::now();
        self.send(line);
        let a = self.answer();
        (a, t.elapsed())
    }

    /// Sends `line` and returns the answer.
    pub fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.answer()
    }

    /// Whether nothing at all is written for `ms` milliseconds.
    pub fn silent_for(&mut self, ms: u64) -> bool {
        self.raw(Duration::from_millis(ms)).is_none()
    }

    /// Waits for the process to exit on its own.
    pub fn wait_exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "the brain did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Sends END and waits for a clean exit.
    pub fn end(mut self) {
        self.send("END");
        let status = self.wait_exit();
        assert!(status.success(), "exit status {status}");
    }

    /// Closes the input (end of file).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// `x,y` of an answer.
pub fn xy(answer: &str) -> (usize, usize) {
    let parse = || -> Option<(usize, usize)> {
        let (x, y) = answer.split_once(',')?;
        Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
    };
    parse().unwrap_or_else(|| panic!("'{answer}' is not a move"))
}

/// A brain after `INFO` lines and `START size` (answered OK).
fn started(infos: &[&str], size: usize) -> Brain {
    let mut b = Brain::start();
    b.send_all(infos);
    assert_eq!(b.ask(&format!("START {size}")), "OK");
    b
}

/// Field lines written as the protocol writes them, `x,y,field` apart by spaces.
fn fields(text: &str) -> Vec<(usize, usize, u8)> {
    text.split_whitespace()
        .map(|f| {
            let v: Vec<&str> = f.split(',').collect();
            (
                v[0].parse().unwrap(),
                v[1].parse().unwrap(),
                v[2].parse().unwrap(),
            )
        })
        .collect()
}

/// Sends `BOARD`, the field lines and `DONE`; returns the answer.
fn board(b: &mut Brain, fields: &[(usize, usize, u8)]) -> String {
    b.send("BOARD");
    for (x, y, f) in fields {
        b.send(&format!("{x},{y},{f}"));
    }
    b.ask("DONE")
}

mod bad_input;
mod balance;
mod blocked_points;
mod board_command;
mod game_over;
mod renju;
mod setup;
mod swap2;
mod takeback_and_play;
mod thinking;
mod yixin;
