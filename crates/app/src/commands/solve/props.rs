//! Property tests of reading puzzle lines ([`parse_puzzle`]) and puzzle files
//! ([`read_file`]): any line, random or a valid one with one token broken, gives a puzzle whose
//! expectations are sound (points on the board, lists not empty, no five on the board) or an
//! error (never a panic); the source's VCF line of a puzzle can always be checked; and every
//! non-blank line of any file, UTF-8 or not, ends up as a puzzle or as a skipped line with its
//! number.

use super::*;
use crate::prop_support::{config, near_valid, weird_token};
use gomoku_engine::notation::format_moves;
use gomoku_engine::Rule;
use proptest::prelude::*;
use proptest::sample::Index;

/// A few points of a board, as a key value.
fn points(size: usize) -> BoxedStrategy<String> {
    prop_oneof![
        4 => prop::collection::vec((0..size, 0..size), 1..4).prop_map(move |v| {
            let pts: Vec<Pos> = v.into_iter().map(|(x, y)| Pos::new(x, y)).collect();
            format_moves(&pts, size).replace(' ', ",")
        }),
        1 => Just("none".to_string()),
        1 => Just("any".to_string()),
        1 => Just(String::new()),
        1 => Just("--".to_string()),
        2 => weird_token(),
    ]
    .boxed()
}

/// One `key=value` of the keys `solve` reads.
fn key(size: usize) -> BoxedStrategy<String> {
    let word = |words: Vec<&'static str>| {
        prop_oneof![
            4 => prop::sample::select(words).prop_map(str::to_string),
            1 => weird_token(),
        ]
    };
    prop_oneof![
        word(vec!["black", "white", "x", "o", "B", "W"]).prop_map(|v| format!("side={v}")),
        word(vec!["black", "white"]).prop_map(|v| format!("attacker={v}")),
        points(size).prop_map(|v| format!("solution={v}")),
        points(size).prop_map(|v| format!("vcf_last_move={v}")),
        points(size).prop_map(|v| format!("answer={v}")),
        points(size).prop_map(|v| format!("best={v}")),
        word(vec!["win", "not-win", "draw", "loss"]).prop_map(|v| format!("outcome={v}")),
        word(vec!["vcf", "vct", "win", "win_in_3", "win_in_9"]).prop_map(|v| format!("task={v}")),
        "[a-z]{1,6}=[a-z0-9]{0,6}",
    ]
    .boxed()
}

/// The tokens of a puzzle line: a legal-looking position (distinct points) and keys.
fn line_tokens() -> impl Strategy<Value = Vec<String>> + Clone {
    (5usize..=22, prop::sample::select(Rule::ALL.to_vec()))
        .prop_flat_map(|(size, rule)| {
            let cells: Vec<Pos> = (0..size * size)
                .map(|i| Pos::new(i % size, i / size))
                .collect();
            (
                Just(size),
                Just(rule),
                prop::sample::subsequence(cells, 0..=12).prop_shuffle(),
                prop::collection::vec(key(size), 0..5),
            )
        })
        .prop_map(|(size, rule, moves, keys)| {
            let mut t = vec![size.to_string(), rule.name().to_string()];
            t.extend(moves.iter().map(|&p| format_pos(p, size)));
            t.push("|".to_string());
            t.extend(keys);
            t
        })
}

fn context() -> impl Strategy<Value = FileContext> {
    (
        any::<bool>(),
        prop::option::of(prop::sample::select(vec![
            SolveTask::Vcf,
            SolveTask::Vct,
            SolveTask::Win,
        ])),
    )
        .prop_map(|(vcf_dir, task_override)| FileContext {
            vcf_dir,
            task_override,
        })
}

fn on_board(p: &Puzzle, q: Pos) -> bool {
    p.board.contains(q)
}

/// A file of puzzle lines, random lines and bytes that are not UTF-8.
fn file_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            3 => near_valid(line_tokens(), " ").prop_map(String::into_bytes),
            1 => Just(b"# a comment".to_vec()),
            1 => Just(Vec::new()),
            1 => prop::collection::vec(any::<u8>(), 0..20),
        ],
        0..8,
    )
    .prop_map(|lines| lines.join(&b'\n'))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn puzzle_lines_read_or_fail_cleanly(
        line in near_valid(line_tokens(), " "),
        ctx in context(),
    ) {
        match parse_puzzle(&line, 7, ctx) {
            Ok(p) => {
                prop_assert_eq!(p.line_no, 7);
                let b = &p.board;
                prop_assert!(b.points().all(|q| b.winning_line(q).is_none()));
                let e = &p.expect;
                if let Some(s) = &e.solution {
                    prop_assert!(!s.is_empty() && s.iter().all(|&q| on_board(&p, q)));
                    // the checker takes any line of points on the board
                    if p.task == SolveTask::Vcf {
                        let _ = verify_vcf_line(b, s);
                    }
                }
                if let Some(q) = e.vcf_last_move {
                    prop_assert!(on_board(&p, q));
                }
                if let Some(a) = &e.answer {
                    prop_assert!(!a.is_empty() && a.iter().all(|&q| on_board(&p, q)));
                }
                if let Some(Best::Moves(m)) = &e.best {
                    prop_assert!(!m.is_empty() && m.iter().all(|&q| on_board(&p, q)));
                }
                prop_assert!(!p.task_name.is_empty());
                prop_assert!(!p.task_key || ctx.task_override.is_none());
                if let Some(t) = ctx.task_override {
                    prop_assert_eq!(p.task, t);
                }
            }
            Err(e) => prop_assert!(!e.is_empty()),
        }
    }

    #[test]
    fn every_line_of_any_file_is_read_or_skipped(bytes in file_bytes(), case in any::<Index>()) {
        let dir = tempfile::tempdir().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let path = dir.path().join(format!("{}.txt", case.index(1 << 30)));
        std::fs::write(&path, &bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let read = read_file(&path, FileContext::default());
        drop(dir);
        let (puzzles, skipped) = read.map_err(|e| TestCaseError::fail(e.to_string()))?;
        let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
        let wanted: Vec<usize> = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| std::str::from_utf8(l).map_or(true, |t| !Record::is_blank(t)))
            .map(|(i, _)| i + 1)
            .collect();
        let mut got: Vec<usize> = puzzles.iter().map(|p| p.line_no).collect();
        got.extend(skipped.iter().map(|s| s.0));
        got.sort_unstable();
        prop_assert_eq!(got, wanted);
        prop_assert!(skipped.iter().all(|s| !s.1.is_empty()));
    }
}
