//! Property tests of the engine's text parsers: coordinates (`h8`, Gomocup `x,y`), position
//! strings (and games read from them), rule, search and evaluator names, board sizes and
//! dataset lines ([`Record`]).
//!
//! Two kinds of property, for every parser:
//! - any input, fully random or a valid one with a token broken, gives `Ok` or a clean error
//!   (never a panic), an `Ok` value satisfies the parser's invariants (points on the board,
//!   a supported size), and an error message names the offending text;
//! - well-formed input round-trips: what the formatting functions write reads back equal.

use gomoku_engine::notation::{
    check_size, format_moves, format_pos, format_xy, parse_moves, parse_pos, parse_xy, tokenize,
    NotationError,
};
use gomoku_engine::record::{line_of, Record, RecordError};
use gomoku_engine::study::{EvalKind, SearchKind};
use gomoku_engine::{Game, Pos, Rule, MAX_SIZE, MIN_SIZE};
use proptest::prelude::*;
use proptest::sample::Index;

mod prop_support;
use prop_support::{config, mutate, noise, weird_token, NASTY};

/// A supported board size.
fn size() -> impl Strategy<Value = usize> {
    MIN_SIZE..=MAX_SIZE
}

/// A size and a point on that board.
fn size_and_point() -> impl Strategy<Value = (usize, Pos)> {
    size().prop_flat_map(|n| (Just(n), (0..n, 0..n).prop_map(|(x, y)| Pos::new(x, y))))
}

/// A size and a move list on that board: distinct points with a few passes between them.
fn size_and_moves() -> impl Strategy<Value = (usize, Vec<Pos>)> {
    size().prop_flat_map(|n| {
        let points = prop::sample::subsequence(
            (0..n * n)
                .map(|i| Pos::new(i % n, i / n))
                .collect::<Vec<_>>(),
            0..=(n * n).min(40),
        )
        .prop_shuffle();
        let passes = prop::collection::vec(any::<Index>(), 0..4);
        (Just(n), points, passes).prop_map(|(n, mut moves, passes)| {
            for at in passes {
                moves.insert(at.index(moves.len() + 1), Pos::PASS);
            }
            (n, moves)
        })
    })
}

/// Every spelling of a rule that [`Rule`]'s parser accepts.
const RULE_NAMES: &[&str] = &[
    "freestyle",
    "free",
    "gomoku",
    "0",
    "standard",
    "exact",
    "exactfive",
    "exact-five",
    "1",
    "renju",
    "4",
    "caro5",
    "caro6",
    "caro",
    "RENJU",
    "Caro5",
];

/// `key=value` pairs that survive a round trip: no blanks anywhere, no `=` in the key.
fn keys() -> impl Strategy<Value = Vec<(String, String)>> {
    prop::collection::vec(("[^\\s=]{0,8}", "[^\\s]{0,12}"), 0..5)
}

/// A dataset line as the datasets write it.
fn record_line(size: usize, rule: &str, moves: &[Pos], keys: &[(String, String)]) -> String {
    let mut line = format!("{size} {rule}");
    if !moves.is_empty() {
        line.push(' ');
        line.push_str(&format_moves(moves, size));
    }
    if !keys.is_empty() {
        line.push_str(" |");
        for (k, v) in keys {
            line.push_str(&format!(" {k}={v}"));
        }
    }
    line
}

/// A valid dataset line, as tokens (the `|` one of them).
fn record_tokens() -> impl Strategy<Value = Vec<String>> {
    (size_and_moves(), prop::sample::select(RULE_NAMES), keys()).prop_map(
        |((n, moves), rule, keys)| {
            record_line(n, rule, &moves, &keys)
                .split(' ')
                .map(str::to_string)
                .collect()
        },
    )
}

/// A dataset line: valid, valid with one token changed, or random.
fn record_input() -> impl Strategy<Value = String> {
    prop_oneof![
        record_tokens().prop_map(|t| t.join(" ")),
        (record_tokens(), any::<Index>(), weird_token(), any::<u8>())
            .prop_map(|(t, at, w, how)| mutate(t, at, w, how).join(" ")),
        (record_tokens(), any::<Index>(), weird_token(), any::<u8>())
            .prop_map(|(t, at, w, how)| mutate(t, at, w, how).concat()),
        noise(),
    ]
}

/// A position string: valid, valid with one move changed, or random.
fn moves_input() -> impl Strategy<Value = (usize, String)> {
    let valid = size_and_moves()
        .prop_map(|(n, m)| {
            (
                n,
                m.iter().map(|&p| format_pos(p, n)).collect::<Vec<String>>(),
            )
        })
        .boxed();
    prop_oneof![
        valid.clone().prop_map(|(n, t)| (n, t.join(" "))),
        valid.clone().prop_map(|(n, t)| (n, t.concat())),
        (valid, any::<Index>(), weird_token(), any::<u8>())
            .prop_map(|((n, t), at, w, how)| (n, mutate(t, at, w, how).join(" "))),
        (size(), noise()),
    ]
}

/// An `x,y` point: valid, with a strange number, or random.
fn xy_input() -> impl Strategy<Value = String> {
    let number = prop_oneof![
        (0usize..30).prop_map(|v| v.to_string()),
        weird_token(),
        prop::sample::select(NASTY).prop_map(str::to_string),
    ]
    .boxed();
    prop_oneof![
        (number.clone(), number.clone()).prop_map(|(a, b)| format!("{a},{b}")),
        (number.clone(), number).prop_map(|(a, b)| format!(" {a} , {b} ")),
        noise(),
    ]
}

/// Checks a point read from text: a real point on the board.
fn assert_on_board(p: Pos, size: usize) {
    assert!(p.is_point(), "{p:?}");
    assert!(p.x() < size && p.y() < size, "{p:?} on {size}x{size}");
}

/// Checks that a coordinate error quotes the token it rejects.
fn assert_names_token(e: &NotationError, text: &str) {
    let msg = e.to_string();
    assert!(!msg.is_empty());
    match e {
        NotationError::Malformed { token, .. } | NotationError::OffBoard { token, .. } => {
            assert!(
                text.contains(token.as_str()),
                "'{token}' is not in '{text}'"
            );
            assert!(msg.contains(token.as_str()), "{msg}");
        }
        NotationError::SizeOutOfRange(_)
        | NotationError::UnknownRule(_)
        | NotationError::Diagram { .. } => {}
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn parse_pos_is_total_and_names_the_token(size in size(), text in prop_oneof![
        weird_token(),
        noise(),
        "[a-zA-Z][0-9]{1,3}",
    ]) {
        match parse_pos(&text, size) {
            Ok(p) => {
                assert_on_board(p, size);
                prop_assert_eq!(parse_pos(&format_pos(p, size), size), Ok(p));
            }
            Err(e) => {
                prop_assert!(
                    matches!(e, NotationError::Malformed { .. } | NotationError::OffBoard { .. }),
                    "{:?}",
                    e
                );
                assert_names_token(&e, &text);
            }
        }
    }

    #[test]
    fn format_pos_and_format_xy_read_back((size, p) in size_and_point()) {
        let h8 = format_pos(p, size);
        prop_assert_eq!(parse_pos(&h8, size), Ok(p));
        prop_assert_eq!(parse_pos(&h8.to_ascii_uppercase(), size), Ok(p));
        prop_assert_eq!(parse_pos(&format!("  {h8}\t"), size), Ok(p));
        prop_assert_eq!(parse_xy(&format_xy(p), size), Ok(p));
    }

    #[test]
    fn parse_xy_is_total_and_names_the_token(size in size(), text in xy_input()) {
        match parse_xy(&text, size) {
            Ok(p) => {
                assert_on_board(p, size);
                prop_assert_eq!(parse_xy(&format_xy(p), size), Ok(p));
            }
            Err(e) => assert_names_token(&e, &text),
        }
    }

    #[test]
    fn parse_moves_is_total_and_reads_its_own_output((size, text) in moves_input()) {
        let tokens = tokenize(&text);
        match parse_moves(&text, size) {
            Ok(moves) => {
                for &p in &moves {
                    if !p.is_pass() {
                        assert_on_board(p, size);
                    }
                }
                // one move per token, and the formatted list reads back equal
                prop_assert_eq!(tokens.map(|t| t.len()), Ok(moves.len()));
                prop_assert_eq!(parse_moves(&format_moves(&moves, size), size), Ok(moves));
            }
            Err(e) => assert_names_token(&e, &text),
        }
    }

    #[test]
    fn games_from_position_strings_are_total(
        (size, text) in moves_input(),
        rule in prop::sample::select(Rule::ALL.to_vec()),
    ) {
        match Game::from_position(size, rule, &text) {
            Ok(g) => {
                // the game written back as a position string is the same game
                let again = format_moves(g.board().moves(), size);
                let g2 = Game::from_position(size, rule, &again)
                    .map_err(|e| TestCaseError::fail(format!("'{again}': {e}")))?;
                prop_assert_eq!(g2.board().key(), g.board().key());
                prop_assert_eq!(g2.board().moves(), g.board().moves());
                prop_assert_eq!(g2.result(), g.result());
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    #[test]
    fn move_lists_round_trip_in_every_spelling((size, moves) in size_and_moves()) {
        let spaced = format_moves(&moves, size);
        prop_assert_eq!(parse_moves(&spaced, size), Ok(moves.clone()));
        let glued: String = moves.iter().map(|&p| format_pos(p, size)).collect();
        prop_assert_eq!(parse_moves(&glued, size), Ok(moves.clone()));
        let commas = moves.iter().map(|&p| format_pos(p, size)).collect::<Vec<_>>().join(",");
        prop_assert_eq!(parse_moves(&commas, size), Ok(moves.clone()));
        prop_assert_eq!(parse_moves(&spaced.to_ascii_uppercase(), size), Ok(moves));
    }

    #[test]
    fn sizes_rules_and_component_names_are_total(text in prop_oneof![
        weird_token(),
        prop::sample::select(RULE_NAMES).prop_map(str::to_string),
        noise(),
    ], n in prop_oneof![0usize..40, any::<usize>()]) {
        match text.parse::<Rule>() {
            Ok(rule) => prop_assert_eq!(rule.name().parse::<Rule>(), Ok(rule)),
            Err(e) => prop_assert!(e.to_string().contains(&text), "{}", e),
        }
        match check_size(n) {
            Ok(m) => prop_assert!(m == n && (MIN_SIZE..=MAX_SIZE).contains(&n)),
            Err(e) => prop_assert!(e.to_string().contains(&n.to_string()), "{}", e),
        }
        if let Ok(s) = text.parse::<SearchKind>() {
            prop_assert_eq!(s.name().parse::<SearchKind>(), Ok(s));
        }
        if let Ok(ev) = text.parse::<EvalKind>() {
            prop_assert_eq!(ev.name().parse::<EvalKind>(), Ok(ev));
        }
    }

    #[test]
    fn record_parse_is_total_and_ok_lines_are_sound(line in record_input()) {
        match Record::parse(&line) {
            Ok(r) => {
                prop_assert_eq!(check_size(r.size), Ok(r.size));
                for &p in &r.moves {
                    if !p.is_pass() {
                        assert_on_board(p, r.size);
                    }
                }
                for (k, v) in &r.keys {
                    prop_assert!(!k.contains('=') && !k.contains(char::is_whitespace));
                    prop_assert!(!v.contains(char::is_whitespace));
                }
                // what was read writes back as a line that reads the same
                let again = record_line(r.size, r.rule.name(), &r.moves, &r.keys);
                prop_assert_eq!(Record::parse(&again), Ok(r.clone()));
                // the keys' point lists are total too
                for (_, v) in &r.keys {
                    if let Ok(points) = r.points(v) {
                        for p in points {
                            prop_assert!(p.is_pass() || (p.x() < r.size && p.y() < r.size));
                        }
                    }
                }
                // a diagram of the moves is set up or refused, never a panic
                let _ = r.game().map_err(|e| e.to_string());
                // as the start of a game, the same; and the game's own line starts the same
                // position again
                if let Ok(g) = r.start() {
                    let line = line_of(&g);
                    let again = Record::parse(&line).expect("the line reads").start();
                    let again = again.unwrap_or_else(|e| panic!("{line}: {e}"));
                    prop_assert_eq!(again.board().to_move(), g.board().to_move());
                    for p in g.board().points() {
                        prop_assert_eq!(again.board().cell(p), g.board().cell(p), "{}", line);
                    }
                    prop_assert_eq!(again.start_ply() > 0, g.start_ply() > 0, "{}", line);
                }
            }
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(!msg.is_empty());
                match &e {
                    RecordError::BadSize(s) | RecordError::BadKey(s) => {
                        prop_assert!(line.contains(s.as_str()) && msg.contains(s.as_str()), "{}", msg);
                    }
                    RecordError::Notation(n) => {
                        if let NotationError::Malformed { token, .. }
                        | NotationError::OffBoard { token, .. } = n
                        {
                            prop_assert!(msg.contains(token.as_str()), "{}", msg);
                        }
                    }
                    RecordError::MissingHeader => {
                        prop_assert!(line.split('|').next().unwrap_or("").split_whitespace().count() < 2);
                    }
                }
            }
        }
    }

    #[test]
    fn records_round_trip(
        (size, moves) in size_and_moves(),
        rule in prop::sample::select(Rule::ALL.to_vec()),
        keys in keys(),
    ) {
        let line = record_line(size, rule.name(), &moves, &keys);
        // the moves start a game or a set-up position, or are refused (a five in a
        // diagram); a game's line reads back as the same game
        if let Ok(g) = Record::parse(&line).expect("reads").start() {
            if !moves.iter().any(|p| p.is_pass()) && g.start_ply() == 0 {
                prop_assert_eq!(g.board().moves(), &moves[..]);
                prop_assert_eq!(line_of(&g), record_line(size, rule.name(), &moves, &[]));
            }
        }
        let want = Record { size, rule, moves, keys };
        prop_assert_eq!(Record::parse(&line), Ok(want.clone()));
        // blanks around the parts do not matter
        let roomy = format!("  {}\t", line.replace(' ', "  "));
        prop_assert_eq!(Record::parse(&roomy), Ok(want));
    }

    /// Any text is read as a diagram or refused with a message, never a panic; what is read
    /// is a board in range with stones on it only once.
    #[test]
    fn parse_diagram_is_total(lines in prop::collection::vec(prop_oneof![
        noise(),
        "[XO. ]{0,30}",
        "[0-9]{0,2} [xo.+\\[\\]]{5,22} [0-9]{0,2}",
    ], 0..25)) {
        let text = lines.join("\n");
        match gomoku_engine::notation::parse_diagram(&text) {
            Ok(d) => {
                prop_assert!((MIN_SIZE..=MAX_SIZE).contains(&d.size));
                let mut all: Vec<Pos> = d.black.iter().chain(&d.white).copied().collect();
                for &p in &all {
                    assert_on_board(p, d.size);
                }
                let n = all.len();
                all.sort_by_key(|p| p.index());
                all.dedup();
                prop_assert_eq!(all.len(), n);
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    /// A board drawn as text reads back as the same stones.
    #[test]
    fn a_board_drawn_reads_back(size in size(), picks in prop::collection::vec((any::<Index>(), any::<bool>()), 0..40)) {
        let mut board = gomoku_engine::Board::new(size, Rule::Freestyle).unwrap();
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for (i, is_black) in picks {
            let points: Vec<Pos> = board.points().filter(|&p| board.is_empty(p)).collect();
            if points.is_empty() {
                break;
            }
            let p = points[i.index(points.len())];
            if (board.to_move() == gomoku_engine::Color::Black) != is_black {
                board.pass();
            }
            board.play(p);
            if is_black { black.push(p) } else { white.push(p) }
        }
        let d = gomoku_engine::notation::parse_diagram(&board.to_text(&[])).unwrap();
        for v in [&mut black, &mut white] {
            v.sort_by_key(|p| p.index());
        }
        let (mut b, mut w) = (d.black, d.white);
        b.sort_by_key(|p| p.index());
        w.sort_by_key(|p| p.index());
        prop_assert_eq!(d.size, size);
        prop_assert_eq!(b, black);
        prop_assert_eq!(w, white);
    }
}
