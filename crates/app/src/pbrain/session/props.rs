//! Property test of the whole command loop: random sequences of protocol lines (commands with
//! good and bad arguments, `BOARD` blocks with broken field lines, random text) never crash the
//! brain; every line that is not a command gets exactly one `UNKNOWN`, every malformed command
//! exactly one `ERROR`; and the board stays consistent after every line. Searches are kept to
//! a few milliseconds, so the time settings the lines may change are kept small.

use super::super::channel;
use super::tests::Lines;
use super::*;
use crate::prop_support::{mutate, noise, number, weird_token};
use proptest::prelude::*;
use proptest::sample::Index;
use std::sync::mpsc;

/// A coordinate, mostly on a board.
fn coordinate() -> BoxedStrategy<String> {
    prop_oneof![
        4 => (0usize..5).prop_map(|v| v.to_string()),
        4 => (0usize..22).prop_map(|v| v.to_string()),
        1 => number(),
    ]
    .boxed()
}

fn point() -> BoxedStrategy<String> {
    (coordinate(), coordinate())
        .prop_map(|(x, y)| format!("{x},{y}"))
        .boxed()
}

/// A small number (time settings stay short), or a word that is no number.
fn small() -> BoxedStrategy<String> {
    prop_oneof![
        3 => (0u32..12).prop_map(|v| v.to_string()),
        1 => prop::sample::select(vec!["-1", "x", "", "1e3", "-9223372036854775809"])
            .prop_map(str::to_string),
    ]
    .boxed()
}

/// One command as lines (a `BOARD` block is several).
fn command() -> BoxedStrategy<Vec<String>> {
    let one = |s: BoxedStrategy<String>| s.prop_map(|l| vec![l]).boxed();
    let board = (
        prop::sample::select(vec!["BOARD", "YXBOARD", "yxboard"]),
        prop::collection::vec(
            (
                point(),
                prop_oneof![4 => "[1-3]", 1 => weird_token()],
                any::<Index>(),
                weird_token(),
                0u8..16,
            )
                .prop_map(|(p, f, at, w, how)| {
                    let line = format!("{p},{f}");
                    // now and then one part broken
                    if how < 4 {
                        let parts = line.split(',').map(str::to_string).collect();
                        mutate(parts, at, w, how).join(",")
                    } else {
                        line
                    }
                }),
            0..8,
        ),
        prop::sample::select(vec!["DONE", "done", "DONE", "END", ""]),
    )
        .prop_map(|(word, fields, done)| {
            let mut v = vec![word.to_string()];
            v.extend(fields);
            v.push(done.to_string());
            v
        })
        .boxed();
    let swap2 = (
        prop::sample::select(vec!["SWAP2BOARD", "swap2board"]),
        prop::collection::vec(point(), 0..7),
        prop::sample::select(vec!["DONE", "done", "END", ""]),
    )
        .prop_map(|(word, stones, done)| {
            let mut v = vec![word.to_string()];
            v.extend(stones);
            v.push(done.to_string());
            v
        })
        .boxed();
    let block = (
        prop::sample::select(vec!["YXBLOCK", "yxblockundo", "yxblock"]),
        prop::collection::vec(point(), 0..30),
        prop::sample::select(vec!["DONE", "done", "END", ""]),
    )
        .prop_map(|(word, points, done)| {
            let mut v = vec![word.to_string()];
            v.extend(points);
            v.push(done.to_string());
            v
        })
        .boxed();
    let info = prop_oneof![
        (
            prop::sample::select(vec![
                "timeout_turn",
                "timeout_match",
                "time_left",
                "max_depth",
                "thread_num",
                "show_detail",
                "game_type",
            ]),
            small(),
        )
            .prop_map(|(k, v)| format!("INFO {k} {v}")),
        number().prop_map(|v| format!("INFO rule {v}")),
        prop::sample::select(vec!["0", "1", "2", "4", "8", "9"])
            .prop_map(|v| format!("INFO rule {v}")),
        noise().prop_map(|v| format!("INFO folder {v}")),
        ("[a-z_]{0,10}", weird_token()).prop_map(|(k, v)| format!("INFO {k} {v}")),
    ]
    .boxed();
    prop_oneof![
        2 => one(
            prop_oneof![
                4 => (5usize..=22).prop_map(|n| n.to_string()),
                1 => number(),
            ]
            .prop_map(|n| format!("START {n}"))
            .boxed()
        ),
        1 => one((coordinate(), coordinate()).prop_map(|(w, h)| format!("RECTSTART {w},{h}")).boxed()),
        6 => one(
            (prop::sample::select(vec!["TURN", "PLAY", "TAKEBACK", "turn"]), point())
                .prop_map(|(c, p)| format!("{c} {p}"))
                .boxed()
        ),
        2 => board,
        1 => swap2,
        2 => block,
        2 => info.prop_map(|l| vec![l]).boxed(),
        2 => one(
            prop::sample::select(vec![
                "BEGIN", "RESTART", "ABOUT", "YXSHOWFORBID", "YXHASHCLEAR", "YXSHOWINFO",
                "STOP", "YXSTOP", "DONE", "BEGIN now", "END", "YXBLOCKRESET",
                "YXBALANCEONE", "yxbalancetwo 0", "YXBALANCEONE -300", "YXBALANCETWO x",
            ])
            .prop_map(str::to_string)
            .boxed()
        ),
        1 => one(small().prop_map(|n| format!("YXNBEST {n}")).boxed()),
        1 => one(noise().prop_map(|l| l.replace(['\n', '\r'], " ")).boxed()),
        1 => one(
            (weird_token(), weird_token())
                .prop_map(|(a, b)| format!("{a} {b}").replace(['\n', '\r'], " "))
                .boxed()
        ),
    ]
    .boxed()
}

/// Feeds `lines` to a session, waiting for each search to end before the next line.
fn drive(lines: &[String]) -> Result<(), TestCaseError> {
    let (tx, out) = mpsc::channel();
    let (events, rx) = channel();
    let mut s = Session::new(
        Output::new(Lines {
            tx,
            buf: Vec::new(),
        }),
        events,
    );
    let fail = |what: String| TestCaseError::fail(what);
    for setup in ["INFO timeout_turn 5", "INFO max_memory 8388608"] {
        s.handle(Event::Line(setup.to_string(), Instant::now()));
    }
    for line in lines {
        let in_board = s.board_input.is_some();
        let swap2 = s
            .board_input
            .as_ref()
            .is_some_and(|b| b.kind == LinesFor::Swap2);
        let blocked = s.blocked.clone();
        let flow = s.handle(Event::Line(format!("{line}\r\n"), Instant::now()));
        while flow == Flow::Continue && s.thinking.is_some() {
            let ev = rx
                .recv_timeout(Duration::from_secs(30))
                .map_err(|e| fail(format!("no answer to '{line}': {e}")))?;
            if s.handle(ev) == Flow::Quit {
                return Ok(());
            }
        }
        let all: Vec<String> = out.try_iter().collect();
        let set_aside = all.iter().any(|l| l.contains("the block is set aside"));
        let answers: Vec<String> = all
            .into_iter()
            .filter(|l| !l.starts_with("MESSAGE"))
            .collect();
        // a move the engine chose is never a blocked point, unless the block left no
        // legal move (PLAY is the manager's move, answered as given; an error may name
        // the point it refuses)
        let imposed = matches!(command::parse(line), Ok(Command::Play(_)));
        if let (false, false, false, Some(g)) = (swap2, set_aside, imposed, &s.game) {
            let moves = answers
                .iter()
                .filter(|a| !a.starts_with("ERROR ") && !a.starts_with("UNKNOWN "));
            for a in moves {
                for p in a.split(' ').filter_map(|t| parse_xy(t, g.size()).ok()) {
                    prop_assert!(!blocked.contains(&p), "'{}' answered blocked {}", line, a);
                }
            }
        }
        let cleaned = command::clean(line);
        if !in_board && !cleaned.is_empty() {
            match command::parse(cleaned) {
                Err(ParseError::Unknown(_)) => {
                    prop_assert!(
                        answers.len() == 1 && answers[0].starts_with("UNKNOWN "),
                        "'{}': {:?}",
                        line,
                        answers
                    );
                }
                Err(ParseError::Malformed(_)) => {
                    prop_assert!(
                        answers.len() == 1 && answers[0].starts_with("ERROR "),
                        "'{}': {:?}",
                        line,
                        answers
                    );
                }
                Ok(_) => {}
            }
        }
        for a in &answers {
            prop_assert!(a.len() < 2000, "a long answer to '{}': {}", line, a);
        }
        if let Some(g) = &s.game {
            g.board()
                .validate()
                .map_err(|e| fail(format!("after '{line}': {e}")))?;
            prop_assert_eq!(g.board().stone_count() + g.dead().len(), g.stone_count());
        }
        if flow == Flow::Quit {
            break;
        }
    }
    s.abort_search();
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 128,
        ..crate::prop_support::config()
    })]

    #[test]
    fn any_lines_get_answers_and_keep_the_board_sound(
        size in 5usize..=22,
        commands in prop::collection::vec(command(), 0..14),
    ) {
        // most lines need a board
        let mut lines = vec![format!("START {size}")];
        lines.extend(commands.concat());
        drive(&lines)?;
    }
}

/// A case the property found: the error refusing to take back a blocked point names the
/// point, and is not a move onto it.
#[test]
fn an_error_naming_a_blocked_point_is_not_a_move() {
    let lines: Vec<String> = ["START 9", "yxblock", "2,8", "DONE", "TAKEBACK 2,8"]
        .map(str::to_string)
        .to_vec();
    drive(&lines).expect("no move onto a blocked point");
}
