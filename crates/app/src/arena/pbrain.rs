//! The manager side of the Gomocup pbrain protocol: starts an engine process, tells it the rules
//! and the clock, sends it the position and the opponent's moves, and reads its answers within
//! the time allowed.
//!
//! Commands sent: `START N`, `INFO timeout_turn|timeout_match|time_left|max_memory|rule|
//! game_type`, `BEGIN` (empty board), `BOARD` ... `DONE` (a position: `x,y,1` own stones,
//! `x,y,2` the opponent's, in play order), `TURN x,y`, `END`. Answers: `OK` to `START`, `x,y`
//! to a move request; `MESSAGE`, `DEBUG` and `SUGGEST` lines are skipped; `ERROR` and
//! `UNKNOWN` are failures. Every wait has a deadline, and the process is killed when the game
//! ends or the engine fails, so a broken engine never hangs a match.

use crate::pbrain::command::{excerpt, notation_message};
use crate::pbrain::swap2::Answer;
use gomoku_engine::notation::{format_xy, parse_xy};
use gomoku_engine::{Board, Color, Pos, Rule};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Why an external engine lost the game without a five.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// No answer within the time allowed.
    Timeout(String),
    /// The process ended or closed its output.
    Crash(String),
    /// It answered `ERROR` / `UNKNOWN`, or something that is not a move.
    Protocol(String),
    /// The process could not be started.
    Spawn(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Timeout(s) => write!(f, "time forfeit ({s})"),
            Failure::Crash(s) => write!(f, "crash ({s})"),
            Failure::Protocol(s) => write!(f, "protocol error ({s})"),
            Failure::Spawn(s) => write!(f, "could not start ({s})"),
        }
    }
}

/// The Gomocup rule number of a rule (bit 1: exactly five, bit 4: renju, bit 8: caro).
#[must_use]
pub fn rule_number(rule: Rule) -> u32 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 4,
        Rule::Caro5 => 9,
        Rule::Caro6 => 8,
    }
}

/// Splits a command line into words as a POSIX shell would (without expanding anything):
/// blanks separate, single and double quotes group, a backslash escapes, `#` at the start of
/// a word begins a comment.
///
/// # Errors
/// An unclosed quote, a backslash at the end, or an empty command.
pub fn split_command(line: &str) -> Result<Vec<String>, String> {
    let words = shlex::split(line)
        .ok_or_else(|| format!("unclosed quote or trailing backslash in '{line}'"))?;
    if words.is_empty() {
        return Err("empty engine command".to_string());
    }
    Ok(words)
}

/// A running pbrain engine.
#[derive(Debug)]
pub struct PbrainProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl PbrainProcess {
    /// Starts `command` (program and arguments) and sends `START size`; waits for `OK` until
    /// `start_timeout`.
    ///
    /// # Errors
    /// The process cannot be started, refuses the board size, crashes or stays silent.
    pub fn start(
        command: &[String],
        size: usize,
        start_timeout: Duration,
    ) -> Result<PbrainProcess, Failure> {
        let (prog, args) = command
            .split_first()
            .ok_or_else(|| Failure::Spawn("empty command".to_string()))?;
        let mut child = Command::new(prog)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Failure::Spawn(format!("{prog}: {e}")))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| Failure::Spawn("no standard output".to_string()))?;
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        // a reader thread turns the blocking pipe into a channel with timeouts; it ends when
        // the process closes its output (or is killed)
        std::thread::spawn(move || {
            let reader = BufReader::new(stdout);
            for line in reader.lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut p = PbrainProcess {
            child,
            stdin,
            lines: rx,
        };
        p.send(&format!("START {size}"))?;
        let deadline = Instant::now() + start_timeout;
        let reply = p.reply(deadline, "START")?;
        if reply.trim().eq_ignore_ascii_case("OK") {
            Ok(p)
        } else {
            Err(Failure::Protocol(format!(
                "answered '{}' to START {size}",
                excerpt(reply.trim())
            )))
        }
    }

    /// Sends one line.
    ///
    /// # Errors
    /// The process closed its input (it has ended).
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        let ok = match self.stdin.as_mut() {
            Some(s) => writeln!(s, "{line}").and_then(|()| s.flush()).is_ok(),
            None => false,
        };
        if ok {
            Ok(())
        } else {
            Err(Failure::Crash(self.exit_text()))
        }
    }

    /// Sends the rule and clock information.
    ///
    /// # Errors
    /// See [`PbrainProcess::send`].
    pub fn send_info(
        &mut self,
        rule: Rule,
        turn_ms: u64,
        match_ms: Option<u64>,
        time_left_ms: Option<u64>,
    ) -> Result<(), Failure> {
        self.send(&format!("INFO timeout_turn {turn_ms}"))?;
        // 0 means "no limit for the game" in the protocol
        self.send(&format!("INFO timeout_match {}", match_ms.unwrap_or(0)))?;
        if let Some(left) = time_left_ms {
            self.send(&format!("INFO time_left {left}"))?;
        }
        self.send("INFO max_memory 0")?;
        self.send("INFO game_type 1")?;
        self.send(&format!("INFO rule {}", rule_number(rule)))
    }

    /// Asks for a move in `board` (the engine plays `me`): `BEGIN` on an empty board, otherwise
    /// the whole position with `BOARD`.
    ///
    /// # Errors
    /// See [`PbrainProcess::move_reply`].
    pub fn ask_board(
        &mut self,
        board: &Board,
        me: Color,
        deadline: Instant,
    ) -> Result<Pos, Failure> {
        let stones: Vec<Pos> = board
            .moves()
            .iter()
            .copied()
            .filter(|p| p.is_point())
            .collect();
        if stones.is_empty() {
            self.send("BEGIN")?;
        } else {
            self.send("BOARD")?;
            for p in stones {
                let own = board.cell(p) == gomoku_engine::Cell::Stone(me);
                self.send(&format!("{},{}", format_xy(p), if own { 1 } else { 2 }))?;
            }
            self.send("DONE")?;
        }
        self.move_reply(board.size(), deadline)
    }

    /// Tells the opponent's move and asks for an answer.
    ///
    /// # Errors
    /// See [`PbrainProcess::move_reply`].
    pub fn ask_turn(&mut self, last: Pos, size: usize, deadline: Instant) -> Result<Pos, Failure> {
        self.send(&format!("TURN {}", format_xy(last)))?;
        self.move_reply(size, deadline)
    }

    /// Sends `SWAP2BOARD` with `stones` (Black first) and reads the answer before `deadline`.
    ///
    /// # Errors
    /// Timeout, crash, `ERROR`, or an answer that is neither `SWAP` nor points on the board.
    pub fn ask_swap2(
        &mut self,
        stones: &[Pos],
        size: usize,
        deadline: Instant,
    ) -> Result<Answer, Failure> {
        self.send("SWAP2BOARD")?;
        for &p in stones {
            self.send(&format_xy(p))?;
        }
        self.send("DONE")?;
        let line = self.reply(deadline, "SWAP2BOARD")?;
        Answer::parse(&line, size).map_err(|e| {
            Failure::Protocol(format!(
                "answered '{}' to SWAP2BOARD: {}",
                excerpt(line.trim()),
                excerpt(&e)
            ))
        })
    }

    /// Reads a move answer `x,y` before `deadline`.
    ///
    /// # Errors
    /// Timeout, crash, `ERROR`, or an answer that is not `x,y` on the board.
    pub fn move_reply(&mut self, size: usize, deadline: Instant) -> Result<Pos, Failure> {
        let line = self.reply(deadline, "a move")?;
        parse_xy(line.trim(), size).map_err(|e| {
            Failure::Protocol(format!(
                "answered '{}': {}",
                excerpt(line.trim()),
                notation_message(e)
            ))
        })
    }

    /// The next line that is not a message, before `deadline`.
    fn reply(&mut self, deadline: Instant, what: &str) -> Result<String, Failure> {
        loop {
            let now = Instant::now();
            if now >= deadline {
                return Err(Failure::Timeout(format!("no answer to {what} in time")));
            }
            match self.lines.recv_timeout(deadline - now) {
                Ok(line) => {
                    let t = line.trim();
                    let head = t
                        .split_whitespace()
                        .next()
                        .unwrap_or("")
                        .to_ascii_uppercase();
                    match head.as_str() {
                        "" | "DEBUG" | "SUGGEST" | "MESSAGE" => {}
                        "ERROR" | "UNKNOWN" => {
                            return Err(Failure::Protocol(format!(
                                "answered '{}' to {what}",
                                excerpt(t)
                            )))
                        }
                        _ => return Ok(line),
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Failure::Timeout(format!("no answer to {what} in time")))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Failure::Crash(self.exit_text()));
                }
            }
        }
    }

    /// How the process ended, if it has (waiting a moment for the exit status).
    fn exit_text(&mut self) -> String {
        for _ in 0..20 {
            if let Ok(Some(st)) = self.child.try_wait() {
                return format!("exited with {st}");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        "closed its output".to_string()
    }

    /// Sends `END`, gives the engine a moment to exit, then kills it.
    pub fn end(mut self) {
        let _ = self.send("END");
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_millis(300);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Kills the process at once.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for PbrainProcess {
    fn drop(&mut self) {
        // never leave an engine running behind a finished or abandoned game
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_commands_with_quotes() {
        assert_eq!(
            split_command("sh 'my engine.sh' legal").expect("ok"),
            vec!["sh", "my engine.sh", "legal"]
        );
        assert_eq!(
            split_command(r#"./a "b c" d\ e"#).expect("ok"),
            vec!["./a", "b c", "d e"]
        );
        // as a POSIX shell: no escape inside single quotes, a comment from `#`
        assert_eq!(
            split_command(r"./e 'it'\''s' a\\b # the rest").expect("ok"),
            vec!["./e", "it's", r"a\b"]
        );
        assert!(split_command("   ").is_err());
        assert!(split_command("a 'b").is_err());
        assert!(split_command("a b\\").is_err());
    }

    #[test]
    fn rule_numbers() {
        assert_eq!(rule_number(Rule::Freestyle), 0);
        assert_eq!(rule_number(Rule::Standard), 1);
        assert_eq!(rule_number(Rule::Renju), 4);
    }

    #[test]
    fn missing_program_is_a_spawn_failure() {
        let e = PbrainProcess::start(
            &["/nonexistent/engine-xyz".to_string()],
            15,
            Duration::from_millis(100),
        )
        .unwrap_err();
        assert!(matches!(e, Failure::Spawn(_)), "{e}");
    }
}
