//! `pbrain-gomoku` (and `gomoku pbrain`) driven as a manager drives it: a process with pipes,
//! scripted sessions line by line.

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

/// Sends `BOARD`, the field lines and `DONE`; returns the answer.
fn board(b: &mut Brain, fields: &[(usize, usize, u8)]) -> String {
    b.send("BOARD");
    for (x, y, f) in fields {
        b.send(&format!("{x},{y},{f}"));
    }
    b.ask("DONE")
}

mod setup {
    use super::*;

    #[test]
    fn about_start_rectstart_restart() {
        let mut b = Brain::start();
        let about = b.ask("ABOUT");
        for key in ["name=\"gomoku\"", "version=\"", "author=\"", "country=\""] {
            assert!(about.contains(key), "{about}");
        }
        assert!(
            b.ask("RESTART").starts_with("ERROR"),
            "RESTART before START"
        );
        assert!(b.ask("START 4").starts_with("ERROR"));
        assert!(b.ask("START 23").starts_with("ERROR"));
        assert!(b.ask("START twenty").starts_with("ERROR"));
        assert_eq!(b.ask("START 20"), "OK");
        assert_eq!(b.ask("START 5"), "OK");
        assert!(b.ask("RECTSTART 20,15").starts_with("ERROR"));
        assert!(b.ask("RECTSTART 30,30").starts_with("ERROR"));
        assert_eq!(b.ask("RECTSTART 15,15"), "OK");
        assert_eq!(b.ask("BEGIN"), "7,7");
        assert_eq!(b.ask("RESTART"), "OK");
        // the board is empty again: BEGIN plays the centre once more
        assert_eq!(b.ask("BEGIN"), "7,7");
        b.end();
    }

    #[test]
    fn lower_case_line_endings_and_the_subcommand() {
        let mut b = Brain::start_subcommand();
        // Yixin-Board writes commands in lower case; lines may end in LF only, or CR LF
        b.send_raw("start 15\n");
        assert_eq!(b.answer(), "OK");
        b.send_raw("info timeout_turn 100\r\n\r\nbegin\n");
        assert_eq!(b.answer(), "7,7");
        assert_eq!(b.ask("yxshowforbid"), "FORBID .");
        b.end();
    }

    #[test]
    fn yixin_boards_engine_argument_is_accepted() {
        // Yixin-Board runs its engine as `engine.exe --force-utf8`
        let mut b = Brain::start_with(&["--force-utf8"]);
        assert_eq!(b.ask("START 15"), "OK");
        b.end();
    }

    #[test]
    fn search_parameters_from_the_environment() {
        let mut c = Command::new(env!("CARGO_BIN_EXE_pbrain-gomoku"));
        c.env("GOMOKU_SEARCH_SET", "lmr_scale_pct=80,move_count_base=5");
        let mut b = Brain::spawn(c);
        assert_eq!(b.ask("START 15"), "OK");
        assert_eq!(
            b.messages,
            ["MESSAGE search parameters: lmr_scale_pct=80 move_count_base=5"]
        );
        b.send("INFO timeout_turn 100");
        let (x, y) = xy(&b.ask("TURN 7,7"));
        assert!(x < 15 && y < 15 && (x, y) != (7, 7));
        b.end();

        // a bad list stops the brain with the reason, before it reads a line
        for (bin, list) in [
            (env!("CARGO_BIN_EXE_pbrain-gomoku"), "lmr_scale_pct=lots"),
            (env!("CARGO_BIN_EXE_pbrain-gomoku"), "no_such_parameter=1"),
            (env!("CARGO_BIN_EXE_gomoku"), "lmr_scale_pct"),
        ] {
            let mut c = Command::new(bin);
            if bin == env!("CARGO_BIN_EXE_gomoku") {
                c.arg("pbrain");
            }
            let o = c
                .env("GOMOKU_SEARCH_SET", list)
                .stdin(Stdio::null())
                .output()
                .expect("runs");
            assert!(!o.status.success(), "{list}");
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
            assert!(text.contains("GOMOKU_SEARCH_SET"), "{list}: {text}");
        }
    }

    #[test]
    fn end_and_end_of_input_exit_cleanly() {
        let mut b = started(&[], 15);
        b.send("END");
        assert!(b.wait_exit().success());
        assert!(b.silent_for(100), "nothing is written after END");

        let mut b = started(&[], 15);
        b.close_input();
        assert!(b.wait_exit().success());
    }
}

mod bad_input {
    use super::*;

    #[test]
    fn unknown_and_malformed_lines_get_a_reason_and_the_loop_goes_on() {
        let mut b = Brain::start();
        assert!(b.ask("TURN 7,7").starts_with("ERROR"), "TURN before START");
        assert!(b.ask("BEGIN").starts_with("ERROR"), "BEGIN before START");
        b.send_all(&["BOARD", "7,7,1"]);
        assert!(b.ask("DONE").contains("START"), "BOARD before START");
        assert!(b.ask("YXSHOWFORBID").starts_with("ERROR"));
        b.send("START 15");
        assert_eq!(b.answer(), "OK");
        let unknown = b.ask("FLY 3");
        assert!(
            unknown.starts_with("UNKNOWN") && unknown.contains("FLY"),
            "{unknown}"
        );
        for (line, needle) in [
            ("TURN", "x,y"),
            ("TURN 7", "x,y"),
            ("TURN a,b", "integers"),
            ("TURN 15,3", "off the"),
            ("TURN -1,3", "off the"),
            ("TAKEBACK 1", "x,y"),
            ("PLAY 99,99", "off the"),
            ("INFO timeout_turn soon", "soon"),
            ("INFO max_memory -5", "negative"),
            ("INFO rule 99", "rule"),
            ("YXNBEST many", "many"),
            ("DONE", "without BOARD"),
            ("BEGIN now", "no arguments"),
        ] {
            let a = b.ask(line);
            assert!(a.starts_with("ERROR") && a.contains(needle), "{line}: {a}");
        }
        // blank lines and unknown INFO keys are ignored silently
        b.send("");
        b.send("INFO evaluate 7,7");
        b.send("INFO some_future_key 12");
        assert!(b.ask("ABOUT").starts_with("name="));
        // bytes that are not UTF-8 are a line like any other
        b.send_bytes(b"\xff\xfe\r\n");
        assert!(b.answer().starts_with("UNKNOWN"));
        // after all that, the game works
        b.send("INFO timeout_turn 100");
        assert_eq!(b.ask("BEGIN"), "7,7");
        b.end();
    }

    #[test]
    fn a_bad_turn_changes_nothing() {
        let mut b = started(&["INFO timeout_turn 100"], 15);
        assert_eq!(b.ask("BEGIN"), "7,7");
        // occupied (our own stone), off the board: errors, and no stone is placed
        assert!(b.ask("TURN 7,7").contains("occupied"));
        assert!(b.ask("TURN 15,15").starts_with("ERROR"));
        let reply = xy(&b.ask("TURN 8,8"));
        assert!(reply != (7, 7) && reply != (8, 8));
        // still White's turn to answer after another bad TURN: the next good one works
        assert!(b
            .ask(&format!("TURN {},{}", reply.0, reply.1))
            .contains("occupied"));
        let next = xy(&b.ask("TURN 0,0"));
        assert!(![(7, 7), (8, 8), reply, (0, 0)].contains(&next));
        b.end();
    }
}

mod board_command {
    use super::*;

    #[test]
    fn own_and_opponent_stones_in_any_order() {
        let mut b = started(&["INFO timeout_turn 300"], 15);
        // we are White (the opponent has one stone more); Black has four on row 7, blocked on
        // the left by our stone at 2,7: the only defence is 7,7
        let a = board(
            &mut b,
            &[
                (5, 7, 2),
                (10, 10, 1),
                (3, 7, 2),
                (2, 7, 1),
                (6, 7, 2),
                (11, 11, 1),
                (4, 7, 2),
            ],
        );
        assert_eq!(a, "7,7");
        // we are Black with an open four of our own (fields 1): we complete the five
        let a = board(
            &mut b,
            &[
                (0, 0, 2),
                (3, 5, 1),
                (0, 2, 2),
                (4, 5, 1),
                (14, 14, 2),
                (5, 5, 1),
                (14, 12, 2),
                (6, 5, 1),
            ],
        );
        assert!(a == "2,5" || a == "7,5", "{a}");
        b.end();
    }

    #[test]
    fn an_empty_board_means_we_open() {
        let mut b = started(&["INFO timeout_turn 100"], 15);
        assert_eq!(board(&mut b, &[]), "7,7");
        // YXBOARD sets the position without an answer
        b.send("YXBOARD");
        b.send("7,7,2");
        b.send("DONE");
        assert!(b.silent_for(200));
        assert!(b.ask("TURN 7,7").contains("occupied"));
        b.end();
    }

    #[test]
    fn dead_stones_of_a_continuous_game_are_never_played() {
        // rule 3: exactly five, in a continuous game
        let mut b = started(&["INFO timeout_turn 300", "INFO rule 3"], 15);
        // our four on row 5; its left end 2,5 holds a dead stone (field 3): only 7,5 wins.
        // Field 3 does not count for the side to move: 4 own, 4 opponent, so we are Black.
        let a = board(
            &mut b,
            &[
                (2, 5, 3),
                (3, 5, 1),
                (4, 5, 1),
                (5, 5, 1),
                (6, 5, 1),
                (0, 0, 2),
                (0, 2, 2),
                (14, 14, 2),
                (14, 12, 2),
            ],
        );
        assert_eq!(a, "7,5");
        b.end();

        // dead stones occupy their point
        let mut b = started(&["INFO timeout_turn 100"], 15);
        let a = xy(&board(&mut b, &[(8, 8, 3), (9, 9, 3), (7, 7, 2)]));
        assert!(![(8, 8), (9, 9), (7, 7)].contains(&a));
        assert!(b.ask("TURN 8,8").contains("occupied"));
        b.end();
    }

    #[test]
    fn a_bad_board_is_refused_whole() {
        let mut b = started(&["INFO timeout_turn 100"], 15);
        assert!(board(&mut b, &[(1, 1, 1), (1, 1, 2)]).contains("twice"));
        assert!(board(&mut b, &[(1, 1, 1), (2, 2, 7)]).contains("field"));
        assert!(board(&mut b, &[(1, 1, 1), (15, 2, 2)]).contains("off the"));
        b.send("BOARD");
        b.send("1,1");
        assert!(b.ask("DONE").contains("x,y,field"));
        // nothing of those boards stayed: the board is still empty
        assert_eq!(b.ask("BEGIN"), "7,7");
        b.end();
    }

    #[test]
    fn an_impossible_board_is_refused_and_changes_nothing() {
        let mut b = started(&["INFO timeout_turn 100"], 15);
        // a position of the manager's: we (Black) and the opponent have a stone each
        b.send("YXBOARD");
        b.send_all(&["7,7,1", "8,8,2", "DONE"]);
        assert!(b.silent_for(200));
        // counts no game reaches with us to move: three of ours and none of the opponent's,
        // one of ours too many, two of the opponent's ahead
        for fields in [
            &[(1, 1, 1), (2, 2, 1), (3, 3, 1)][..],
            &[(1, 1, 1), (2, 2, 1), (3, 3, 2)],
            &[(1, 1, 2), (2, 2, 2), (3, 3, 2)],
            &[(1, 1, 2), (2, 2, 2)],
        ] {
            let a = board(&mut b, fields);
            assert!(
                a.starts_with("ERROR BOARD: ") && a.contains("no game reaches that"),
                "{fields:?}: {a}"
            );
        }
        // two stones on one point, a point off the board
        let a = board(&mut b, &[(1, 1, 1), (1, 1, 2)]);
        assert!(a.starts_with("ERROR BOARD: ") && a.contains("twice"), "{a}");
        let a = board(&mut b, &[(1, 1, 2), (15, 2, 1)]);
        assert!(
            a.starts_with("ERROR BOARD: ") && a.contains("off the"),
            "{a}"
        );
        // the position is still the one before: 7,7 and 8,8 taken, 1,1 free, Black to move
        assert!(b.ask("TURN 7,7").contains("occupied"));
        assert!(b.ask("TURN 8,8").contains("occupied"));
        assert_eq!(b.ask("PLAY 1,1"), "1,1");
        assert_eq!(b.ask("TAKEBACK 1,1"), "OK");
        assert_eq!(b.ask("TAKEBACK 8,8"), "OK");
        b.end();
    }
}

mod takeback_and_play {
    use super::*;

    #[test]
    fn takeback_removes_the_named_stone() {
        let mut b = started(&["INFO timeout_turn 100"], 15);
        assert_eq!(b.ask("BEGIN"), "7,7");
        let ours = xy(&b.ask("TURN 8,8"));
        assert_eq!(b.ask(&format!("TAKEBACK {},{}", ours.0, ours.1)), "OK");
        assert_eq!(b.ask("TAKEBACK 8,8"), "OK");
        assert!(b.ask("TAKEBACK 8,8").contains("no stone"));
        assert!(b.ask("TAKEBACK 3,x").starts_with("ERROR"));
        // only 7,7 is left and White is to move: the same TURN again gets an answer
        let again = xy(&b.ask("TURN 8,8"));
        assert!(again != (7, 7) && again != (8, 8));
        for (x, y) in [again, (8, 8), (7, 7)] {
            assert_eq!(b.ask(&format!("TAKEBACK {x},{y}")), "OK");
        }
        assert_eq!(b.ask("PLAY 7,7"), "7,7");
        b.end();
    }

    #[test]
    fn a_takeback_out_of_order_is_refused_and_changes_nothing() {
        let mut b = started(&["INFO timeout_turn 100"], 15);
        assert_eq!(b.ask("BEGIN"), "7,7");
        let ours = xy(&b.ask("TURN 8,8"));
        // 7,7 and 8,8 are on the board but not the last stone
        for earlier in ["7,7", "8,8"] {
            let a = b.ask(&format!("TAKEBACK {earlier}"));
            assert!(
                a.starts_with("ERROR TAKEBACK: ")
                    && a.contains("not the last stone played")
                    && a.contains(&format!("({},{} is)", ours.0, ours.1)),
                "{a}"
            );
        }
        // nothing changed: all three stones are still there, in their order
        assert!(b.ask("PLAY 7,7").contains("occupied"));
        assert!(b.ask("TURN 8,8").contains("occupied"));
        assert_eq!(b.ask(&format!("TAKEBACK {},{}", ours.0, ours.1)), "OK");
        assert_eq!(b.ask("TAKEBACK 8,8"), "OK");
        assert_eq!(b.ask("TAKEBACK 7,7"), "OK");
        // after BOARD, the last stone is the last line of the side that moved last
        b.send("YXBOARD");
        b.send_all(&["3,3,1", "4,4,2", "5,5,1", "6,6,2", "DONE"]);
        assert!(b.ask("TAKEBACK 5,5").contains("not the last"));
        assert_eq!(b.ask("TAKEBACK 6,6"), "OK");
        assert_eq!(b.ask("TAKEBACK 5,5"), "OK");
        b.end();
    }

    #[test]
    fn play_imposes_our_move() {
        let mut b = started(&["INFO timeout_turn 100"], 15);
        assert_eq!(b.ask("PLAY 3,4"), "3,4");
        assert!(b.ask("PLAY 3,4").contains("occupied"));
        let a = xy(&b.ask("TURN 10,10"));
        assert!(a != (3, 4) && a != (10, 10));
        b.end();
    }
}

mod game_over {
    use super::*;

    #[test]
    fn no_move_after_five_or_on_a_full_board() {
        let mut b = started(&["INFO timeout_turn 100"], 15);
        // a five already on the board
        let a = board(
            &mut b,
            &[
                (0, 0, 2),
                (1, 0, 2),
                (2, 0, 2),
                (3, 0, 2),
                (4, 0, 2),
                (0, 5, 1),
                (1, 5, 1),
                (2, 5, 1),
                (3, 5, 1),
            ],
        );
        assert!(a.starts_with("ERROR") && a.contains("over"), "{a}");
        // the opponent completes five with TURN: the stone stays, we cannot answer
        b.send("YXBOARD");
        for l in [
            "0,0,2", "1,0,2", "2,0,2", "3,0,2", "0,5,1", "1,5,1", "2,5,1", "14,14,1",
        ] {
            b.send(l);
        }
        b.send("DONE");
        assert_eq!(b.ask("PLAY 10,10"), "10,10");
        let a = b.ask("TURN 4,0");
        assert!(a.starts_with("ERROR") && a.contains("over"), "{a}");
        // a decided game takes no more stones
        assert!(b.ask("TURN 9,9").contains("over"));
        assert!(b.ask("TAKEBACK 9,9").contains("no stone"));
        assert_eq!(b.ask("TAKEBACK 4,0"), "OK");
        assert_eq!(b.ask("TURN 9,9"), "4,0", "we block the four");

        // a full 5x5 board without a five
        assert_eq!(b.ask("START 5"), "OK");
        let pattern = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"];
        let mut fields = Vec::new();
        for (y, row) in pattern.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                // 13 X and 12 O: X is the side that moved last, so O is "us" (1)
                fields.push((x, y, if c == 'O' { 1 } else { 2 }));
            }
        }
        let a = board(&mut b, &fields);
        assert!(a.starts_with("ERROR") && a.contains("full"), "{a}");
        assert!(b.ask("PLAY 0,0").starts_with("ERROR"));
        b.end();
    }
}

mod renju {
    use super::*;

    /// Black on 2,3,4 and 6,7 of row 7: 5,7 would be six in a row, forbidden for Black.
    const OVERLINE: [(usize, usize); 5] = [(2, 7), (3, 7), (4, 7), (6, 7), (7, 7)];

    #[test]
    fn the_engine_never_answers_a_forbidden_point() {
        let mut b = started(&["INFO timeout_turn 300", "INFO rule 4"], 15);
        // White (opponent) has a four down column 5 whose only free end is 5,7: Black cannot
        // block it there, it is an overline point; any other legal point will do
        let mut fields: Vec<(usize, usize, u8)> =
            OVERLINE.iter().map(|&(x, y)| (x, y, 1)).collect();
        fields.push((5, 2, 1));
        for (x, y) in [(5, 3), (5, 4), (5, 5), (5, 6), (12, 12), (12, 0)] {
            fields.push((x, y, 2));
        }
        let a = xy(&board(&mut b, &fields));
        assert_ne!(a, (5, 7), "5,7 is forbidden for Black");
        assert!(!fields.iter().any(|&(x, y, _)| (x, y) == a));
        b.end();
    }

    #[test]
    fn showforbid_and_an_opponent_foul_taken_as_given() {
        let mut b = started(&["INFO timeout_turn 300", "INFO rule 4"], 15);
        // we are White; Black has the overline shape and a four down column 10 that we must
        // block at 10,4
        let mut fields: Vec<(usize, usize, u8)> =
            OVERLINE.iter().map(|&(x, y)| (x, y, 2)).collect();
        for y in 0..4 {
            fields.push((10, y, 2));
        }
        for (x, y) in [
            (0, 3),
            (0, 5),
            (0, 9),
            (0, 11),
            (0, 13),
            (14, 3),
            (14, 5),
            (14, 9),
        ] {
            fields.push((x, y, 1));
        }
        assert_eq!(board(&mut b, &fields), "10,4");
        // Black to move now: 5,7 is forbidden
        let forbid = b.ask("YXSHOWFORBID");
        assert!(
            forbid.starts_with("FORBID ") && forbid.ends_with('.'),
            "{forbid}"
        );
        assert!(forbid.contains("0507"), "{forbid}");
        // the manager judges the opponent: a stone on a forbidden point is taken as given
        let a = b.ask("TURN 5,7");
        assert!(!a.starts_with("ERROR"), "{a}");
        let a = xy(&a);
        assert!(!fields.iter().any(|&(x, y, _)| (x, y) == a) && a != (5, 7) && a != (10, 4));
        // White to move: no forbidden points to show
        b.send("YXBOARD");
        for (x, y, f) in &fields {
            b.send(&format!("{x},{y},{f}"));
        }
        b.send("DONE");
        assert_eq!(b.ask("YXSHOWFORBID"), "FORBID .");
        // the same stones with Black to move (our 10,4 added): 5,7 is forbidden again
        b.send("YXBOARD");
        for (x, y, f) in &fields {
            b.send(&format!("{x},{y},{}", 3 - f));
        }
        b.send("10,4,2");
        b.send("DONE");
        let forbid = b.ask("YXSHOWFORBID");
        assert!(forbid.contains("0507") && forbid.ends_with('.'), "{forbid}");
        b.end();
    }

    #[test]
    fn the_rule_flags_decide_what_is_forbidden() {
        // exactly-five and freestyle have no forbidden points; 4 and Yixin-Board's 2 are renju
        for (rule, forbidden) in [
            ("0", false),
            ("1", false),
            ("4", true),
            ("5", true),
            ("2", true),
        ] {
            let mut b = started(&[&format!("INFO rule {rule}")], 15);
            b.send("YXBOARD");
            for (i, (x, y)) in OVERLINE.iter().enumerate() {
                b.send(&format!("{x},{y},1"));
                b.send(&format!("0,{},2", 1 + 2 * i));
            }
            b.send("DONE");
            let line = b.ask("YXSHOWFORBID");
            assert_eq!(line == "FORBID 0507.", forbidden, "rule {rule}: {line}");
            b.end();
        }
    }
}

mod yixin {
    use super::*;

    #[test]
    fn showinfo_hashclear_and_nbest() {
        let mut b = started(&["INFO timeout_turn 300", "INFO hash_size 4096"], 15);
        b.send("YXSHOWINFO");
        let threads = b.raw(PATIENCE).expect("a line");
        let n: usize = threads
            .strip_prefix("MESSAGE INFO MAX_THREAD_NUM ")
            .unwrap_or_else(|| panic!("{threads}"))
            .parse()
            .expect("a number");
        assert!(n >= 1);
        assert_eq!(
            b.raw(PATIENCE).as_deref(),
            Some("MESSAGE INFO MAX_HASH_SIZE 22")
        );
        b.send("YXHASHCLEAR");
        assert_eq!(
            b.raw(PATIENCE).as_deref(),
            Some("MESSAGE hash table cleared")
        );

        b.send("YXBOARD");
        for l in ["7,7,2", "8,8,1", "8,7,2"] {
            b.send(l);
        }
        b.send("DONE");
        b.messages.clear();
        let best = xy(&b.ask("YXNBEST 3"));
        let ranked: Vec<&String> = b
            .messages
            .iter()
            .filter(|m| m.starts_with("MESSAGE ("))
            .collect();
        for i in 1..=3 {
            assert!(
                ranked
                    .iter()
                    .any(|m| m.starts_with(&format!("MESSAGE ({i}) eval "))),
                "{:?}",
                b.messages
            );
        }
        // the answer is the first of the list, and it was played
        let first = ranked
            .iter()
            .rev()
            .find(|m| m.starts_with("MESSAGE (1)"))
            .expect("a first line");
        let pv_head = first
            .split(" pv ")
            .nth(1)
            .and_then(|pv| pv.split_whitespace().next())
            .expect("a pv");
        assert_eq!(xy(pv_head), best, "{first}");
        assert!(b
            .ask(&format!("TURN {},{}", best.0, best.1))
            .contains("occupied"));
        b.end();
    }
}

// `YXBLOCK`, `YXBLOCKUNDO`, `YXBLOCKRESET`: points the engine must not play.
mod blocked_points {
    use super::*;

    /// Sends `word`, the points and `DONE`.
    fn block(b: &mut Brain, word: &str, points: &[&str]) {
        b.send(word);
        for p in points {
            b.send(p);
        }
        b.send("DONE");
    }

    /// The brain's straight four on row 7 (3,7 to 6,7; either 2,7 or 7,7 makes five), with
    /// the opponent's stones on the first column, the brain to move.
    fn straight_four(b: &mut Brain) -> String {
        board(
            b,
            &[
                (3, 7, 1),
                (0, 0, 2),
                (4, 7, 1),
                (0, 2, 2),
                (5, 7, 1),
                (0, 4, 2),
                (6, 7, 1),
                (0, 6, 2),
            ],
        )
    }

    #[test]
    fn a_blocked_point_is_not_played_until_it_is_unblocked() {
        let mut b = started(&["INFO timeout_turn 300"], 15);
        // no answer to the block itself
        block(&mut b, "YXBLOCK", &["2,7"]);
        assert!(b.silent_for(200));
        assert_eq!(straight_four(&mut b), "7,7");
        block(&mut b, "yxblock", &["7,7", "2,7"]);
        let m = straight_four(&mut b);
        assert!(!["2,7", "7,7"].contains(&m.as_str()), "{m}");
        // unblocked, the five again
        block(&mut b, "YXBLOCKUNDO", &["2,7"]);
        assert_eq!(straight_four(&mut b), "2,7");
        b.send("YXBLOCKRESET");
        b.send("RESTART");
        assert_eq!(b.answer(), "OK");
        assert_eq!(b.ask("BEGIN"), "7,7");
        b.end();
    }

    #[test]
    fn the_empty_board_without_its_centre_starts_next_to_it() {
        let mut b = started(&["INFO timeout_turn 200"], 15);
        block(&mut b, "YXBLOCK", &["7,7"]);
        let (x, y) = xy(&b.ask("BEGIN"));
        assert!(
            x.abs_diff(7) <= 1 && y.abs_diff(7) <= 1 && (x, y) != (7, 7),
            "{x},{y}"
        );
        // START clears the block
        assert_eq!(b.ask("START 15"), "OK");
        assert_eq!(b.ask("BEGIN"), "7,7");
        b.end();
    }

    #[test]
    fn a_bad_point_is_an_error_and_changes_nothing() {
        let mut b = started(&["INFO timeout_turn 200"], 15);
        block(&mut b, "YXBLOCK", &["7,7", "7,x"]);
        let e = b.answer();
        assert!(e.starts_with("ERROR YXBLOCK: ") && e.contains("7,x"), "{e}");
        block(&mut b, "YXBLOCK", &["15,3"]);
        let e = b.answer();
        assert!(e.starts_with("ERROR YXBLOCK: "), "{e}");
        assert!(b
            .ask("YXBLOCK 7,7")
            .starts_with("ERROR YXBLOCK takes no arguments"));
        // nothing was blocked: the centre is played
        assert_eq!(b.ask("BEGIN"), "7,7");
        b.end();
    }

    #[test]
    fn a_block_of_every_point_is_set_aside() {
        let mut b = started(&["INFO timeout_turn 200"], 5);
        let all: Vec<String> = (0..5)
            .flat_map(|x| (0..5).map(move |y| format!("{x},{y}")))
            .collect();
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        block(&mut b, "YXBLOCK", &refs);
        b.messages.clear();
        let (x, y) = xy(&b.ask("BEGIN"));
        assert!(x < 5 && y < 5);
        assert!(
            b.messages.iter().any(|m| m.contains("set aside")),
            "{:?}",
            b.messages
        );
        b.end();
    }
}

// `YXBALANCEONE`, `YXBALANCETWO`: balanced moves for making openings.
mod balance {
    use super::*;

    fn yxboard(b: &mut Brain, fields: &[&str]) {
        b.send("YXBOARD");
        for f in fields {
            b.send(f);
        }
        b.send("DONE");
    }

    #[test]
    fn one_balanced_move_is_played_and_answered() {
        let mut b = started(&["INFO timeout_turn 400"], 15);
        yxboard(&mut b, &["7,7,2", "8,8,1"]);
        b.messages.clear();
        let m = xy(&b.ask("YXBALANCEONE 0"));
        assert!(
            b.messages
                .iter()
                .any(|l| l.contains("balance: ") && l.contains("(target +0)")),
            "{:?}",
            b.messages
        );
        // the move is on the board now
        assert!(b.ask(&format!("TURN {},{}", m.0, m.1)).contains("occupied"));
        b.end();
    }

    #[test]
    fn two_moves_ours_then_the_opponents() {
        let mut b = started(&["INFO timeout_turn 600"], 15);
        yxboard(&mut b, &["7,7,2", "8,8,1", "8,7,2"]);
        let a = b.ask("YXBALANCETWO 0");
        let stones: Vec<(usize, usize)> = a.split(' ').map(xy).collect();
        assert_eq!(stones.len(), 2, "{a}");
        assert_ne!(stones[0], stones[1]);
        for (x, y) in &stones {
            assert!(![(7, 7), (8, 8), (8, 7)].contains(&(*x, *y)), "{a}");
            assert!(b.ask(&format!("TURN {x},{y}")).contains("occupied"));
        }
        b.end();
    }

    #[test]
    fn a_bad_target_is_an_error_and_a_blocked_point_is_never_played() {
        let mut b = started(&["INFO timeout_turn 300"], 15);
        assert!(b
            .ask("YXBALANCEONE even")
            .starts_with("ERROR YXBALANCEONE takes a value to aim at"));
        // a five to make, blocked: the balance never plays it, whatever it aims at
        b.send("YXBLOCK");
        b.send("2,7");
        b.send("7,7");
        b.send("DONE");
        yxboard(
            &mut b,
            &[
                "3,7,1", "0,0,2", "4,7,1", "0,2,2", "5,7,1", "0,4,2", "6,7,1", "0,6,2",
            ],
        );
        let m = xy(&b.ask("YXBALANCEONE 30000"));
        assert!(![(2, 7), (7, 7)].contains(&m), "{m:?}");
        b.end();
    }
}

mod thinking {
    use super::*;

    fn long_search() -> Brain {
        let mut b = started(&["INFO timeout_turn 600000", "INFO timeout_match 0"], 15);
        b.send("TURN 7,7");
        b
    }

    /// Waits for a progress line of the running search.
    fn progress(b: &mut Brain) -> String {
        loop {
            let l = b.raw(PATIENCE).expect("progress while thinking");
            if l.starts_with("MESSAGE depth") {
                return l;
            }
            assert!(l.starts_with("MESSAGE"), "no answer expected yet: {l}");
        }
    }

    #[test]
    fn progress_lines_then_stop_and_yxstop_answer_at_once() {
        for stop in ["STOP", "YXSTOP"] {
            let mut b = long_search();
            let line = progress(&mut b);
            for word in ["depth", "eval", "nodes", "speed", "pv"] {
                assert!(line.contains(word), "{line}");
            }
            let (a, took) = b.ask_timed(stop);
            let a = xy(&a);
            assert!(a != (7, 7) && a.0 < 15 && a.1 < 15);
            assert!(took < Duration::from_secs(5), "{stop} took {took:?}");
            b.end();
        }
    }

    #[test]
    fn info_during_a_search_is_obeyed() {
        let mut b = long_search();
        progress(&mut b);
        let (a, took) = b.ask_timed("INFO timeout_turn 200");
        assert!(xy(&a) != (7, 7));
        assert!(took < Duration::from_secs(5), "took {took:?}");
        b.end();
    }

    #[test]
    fn end_during_a_search_quits_without_a_move() {
        let mut b = long_search();
        progress(&mut b);
        b.send("END");
        assert!(b.wait_exit().success());
        while let Some(l) = b.raw(Duration::from_millis(100)) {
            assert!(l.starts_with("MESSAGE"), "no move after END: {l}");
        }
    }

    #[test]
    fn time_limits_are_obeyed() {
        // generous bounds: the point is that the limits are used at all, on a busy machine
        let mut b = started(
            &[
                "INFO timeout_turn 300",
                "INFO timeout_match 600000",
                "INFO thread_num 2",
                "INFO max_memory 0",
            ],
            15,
        );
        let (a, took) = b.ask_timed("TURN 7,7");
        assert!(xy(&a) != (7, 7));
        assert!(
            took < Duration::from_millis(300 + 1_500),
            "turn limit: {took:?}"
        );
        // little match time left: a quick answer even with a long turn limit
        b.send("INFO timeout_turn 60000");
        b.send("INFO time_left 400");
        let (a, took) = b.ask_timed("TURN 0,14");
        assert!(xy(&a) != (0, 14));
        assert!(
            took < Duration::from_millis(400 + 1_500),
            "time_left: {took:?}"
        );
        // "as fast as possible"
        b.send("INFO time_left 2147483647");
        b.send("INFO timeout_turn 0");
        let (a, took) = b.ask_timed("TURN 14,0");
        assert!(xy(&a) != (14, 0));
        assert!(
            took < Duration::from_millis(1_500),
            "timeout_turn 0: {took:?}"
        );
        b.end();
    }

    #[test]
    fn yixin_depth_and_node_limits() {
        let mut b = started(&["INFO timeout_turn 600000", "INFO max_depth 2"], 15);
        b.messages.clear();
        let (a, took) = b.ask_timed("TURN 7,7");
        assert!(xy(&a) != (7, 7));
        assert!(took < Duration::from_secs(5), "{took:?}");
        let last = b
            .messages
            .iter()
            .rev()
            .find(|m| m.starts_with("MESSAGE depth"));
        let last = last.expect("a summary line");
        assert!(
            last.starts_with("MESSAGE depth 1-") || last.starts_with("MESSAGE depth 2-"),
            "{last}"
        );
        b.send("INFO max_depth 0");
        b.send("INFO max_node 2000");
        let (a, took) = b.ask_timed("TURN 0,0");
        assert!(xy(&a) != (0, 0));
        assert!(took < Duration::from_secs(5), "{took:?}");
        b.end();
    }

    #[test]
    fn the_first_move_after_start_is_in_time_with_a_big_table() {
        // 256 MB allowed: a 128 MB table, allocated at START, not on the first move
        let mut b = Brain::start();
        b.send_all(&["INFO max_memory 268435456", "INFO timeout_turn 200"]);
        assert_eq!(b.ask("START 15"), "OK");
        let (a, took) = b.ask_timed("TURN 7,7");
        assert!(xy(&a) != (7, 7));
        assert!(took < Duration::from_millis(200 + 1_500), "{took:?}");
        b.end();
    }
}

// Gomocup's swap2 opening (`SWAP2BOARD`), as a manager runs it
mod swap2 {
    use super::*;

    /// Sends `SWAP2BOARD` with `stones`; returns the answer and how long it took.
    fn ask_swap2(b: &mut Brain, stones: &[(usize, usize)]) -> (String, Duration) {
        b.send("SWAP2BOARD");
        for (x, y) in stones {
            b.send(&format!("{x},{y}"));
        }
        b.ask_timed("DONE")
    }

    /// The points of an answer that is not `SWAP`.
    fn points(answer: &str) -> Vec<(usize, usize)> {
        answer.split(' ').map(xy).collect()
    }

    #[test]
    fn a_whole_swap2_opening_then_the_game() {
        let mut b = started(&["INFO timeout_turn 400", "INFO rule 1"], 15);
        // the first player's three stones
        let (a, took) = ask_swap2(&mut b, &[]);
        let mut stones = points(&a);
        assert_eq!(stones.len(), 3, "{a}");
        assert!(took < Duration::from_millis(400 + 1_500), "{took:?}");
        // the second player's choice
        let (a, took) = ask_swap2(&mut b, &stones);
        assert!(took < Duration::from_millis(400 + 1_500), "{took:?}");
        if a != "SWAP" {
            let more = points(&a);
            assert!((1..=2).contains(&more.len()), "{a}");
            stones.extend(more);
        }
        if stones.len() == 5 {
            // the first player's choice
            let (a, took) = ask_swap2(&mut b, &stones);
            assert!(took < Duration::from_millis(400 + 1_500), "{took:?}");
            if a != "SWAP" {
                let sixth = points(&a);
                assert_eq!(sixth.len(), 1, "{a}");
                stones.extend(sixth);
            }
        }
        let mut seen = stones.clone();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(
            seen.len(),
            stones.len(),
            "every stone on its own point: {stones:?}"
        );
        assert!(stones.iter().all(|&(x, y)| x < 15 && y < 15), "{stones:?}");
        // then the game goes on from the position, as BOARD sends it
        let to_move = stones.len() % 2;
        let fields: Vec<(usize, usize, u8)> = stones
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| (x, y, if i % 2 == to_move { 1 } else { 2 }))
            .collect();
        let m = xy(&board(&mut b, &fields));
        assert!(!stones.contains(&m), "{m:?} is taken: {stones:?}");
        b.end();
    }

    #[test]
    fn bad_swap2_input_is_refused_and_the_brain_goes_on() {
        let mut b = started(&["INFO timeout_turn 200"], 15);
        for (lines, needle) in [
            (&["7,7", "8,8"][..], "2 stones"),
            (&["7,7", "7,7", "9,9"][..], "occupied"),
            (&["7,7,1", "8,8", "9,9"][..], "7,7,1"),
        ] {
            b.send("SWAP2BOARD");
            b.send_all(lines);
            let a = b.ask("DONE");
            assert!(
                a.starts_with("ERROR SWAP2BOARD:") && a.contains(needle),
                "{lines:?}: {a}"
            );
        }
        assert_eq!(xy(&b.ask("BEGIN")), (7, 7));
        b.end();
    }
}
