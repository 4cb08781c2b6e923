//! Piskvork `.psq` game records.
//!
//! The format, as Piskvork and the Gomocup archives write it:
//!
//! ```text
//! Piskvorky 15x15, 11:11, 0      header: board width x height, then two fields readers ignore
//! 8,8,0                          one move a line: x,y,milliseconds; x from the left and y from
//! 9,7,1250                       the top, both 1-based; Black moved first
//! ...
//! name of the first player       after the moves: free-form lines (player names, `-1`, ...)
//! ```
//!
//! Reading stops at the first line after the header that is not shaped like a move (two or
//! three comma-separated integers), so trailers of any other shape are accepted. A line shaped
//! like a move whose numbers are out of range (negative, too large, off the board) is an
//! error rather than the start of the trailer, so that a damaged record is never cut short
//! without a word.

use crate::pbrain::command::excerpt;
use gomoku_engine::notation::check_size;
use gomoku_engine::Pos;

/// A game read from a `.psq` record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PsqGame {
    /// The board size.
    pub size: usize,
    /// The moves in play order with the milliseconds each took.
    pub moves: Vec<(Pos, u64)>,
}

/// Writes a record: header, `x,y,ms` lines, then the two players' names and `-1`.
///
/// Passes cannot be written in this format; the caller must not pass them.
#[must_use]
pub fn format(size: usize, moves: &[(Pos, u64)], black: &str, white: &str) -> String {
    let mut out = format!("Piskvorky {size}x{size}, 11:11, 0\n");
    for &(p, ms) in moves {
        out.push_str(&format!("{},{},{}\n", p.x() + 1, p.y() + 1, ms));
    }
    out.push_str(black);
    out.push('\n');
    out.push_str(white);
    out.push_str("\n-1\n");
    out
}

/// Reads a record.
///
/// # Errors
/// A missing or malformed header, a non-square or unsupported board size, or a move off the
/// board; the message names the line.
pub fn parse(text: &str) -> Result<PsqGame, String> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let header = lines.next().ok_or("the .psq record is empty")?;
    let size = parse_header(header)?;
    let mut moves = Vec::new();
    for (n, line) in lines.enumerate() {
        let Some(fields) = move_fields(line) else {
            break;
        };
        let coord = |t: &str| t.parse::<usize>().ok().filter(|v| (1..=size).contains(v));
        let (Some(x), Some(y)) = (coord(fields[0]), coord(fields[1])) else {
            return Err(format!(
                "move {} '{}': off the {size}x{size} board (psq coordinates are 1-based)",
                n + 1,
                excerpt(line)
            ));
        };
        let ms = match fields.get(2) {
            Some(t) => t.parse::<u64>().map_err(|_| {
                format!(
                    "move {} '{}': the time '{}' is not a number of milliseconds",
                    n + 1,
                    excerpt(line),
                    excerpt(t)
                )
            })?,
            None => 0,
        };
        moves.push((Pos::new(x - 1, y - 1), ms));
    }
    Ok(PsqGame { size, moves })
}

fn parse_header(header: &str) -> Result<usize, String> {
    let bad = || {
        format!(
            "'{}': a .psq record starts with a line like 'Piskvorky 15x15, 11:11, 0'",
            excerpt(header)
        )
    };
    let rest = header
        .get(..9)
        .filter(|h| h.eq_ignore_ascii_case("piskvorky"))
        .and_then(|_| header.get(9..))
        .ok_or_else(bad)?;
    let dims = rest.split(',').next().unwrap_or("").trim();
    let (w, h) = dims.split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h): (usize, usize) = match (w.trim().parse(), h.trim().parse()) {
        (Ok(w), Ok(h)) => (w, h),
        _ => return Err(bad()),
    };
    if w != h {
        return Err(format!(
            "'{}': only square boards are supported",
            excerpt(header)
        ));
    }
    check_size(w).map_err(|e| e.to_string())
}

/// The fields of a line shaped like a move, `x,y` or `x,y,ms` with integers (signs and any
/// number of digits allowed, so that out-of-range values can be reported); `None` for any other
/// line, which ends the move list.
fn move_fields(line: &str) -> Option<Vec<&str>> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    let integer = |t: &str| {
        let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    };
    ((2..=3).contains(&fields.len()) && fields.iter().all(|t| integer(t))).then_some(fields)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gomoku_engine::notation::{format_pos, parse_pos};

    fn pos(s: &str) -> Pos {
        parse_pos(s, 15).unwrap()
    }

    #[test]
    fn errors_quote_a_long_line_cut_short() {
        let long = "x".repeat(100_000);
        let e = parse(&format!("Piskvorky {long}\n")).unwrap_err();
        assert!(
            e.len() < 400 && e.contains("(100010 bytes)"),
            "{}",
            &e[..200]
        );
        // a time of 100000 digits, too large for a number of milliseconds
        let digits = "9".repeat(100_000);
        let e = parse(&format!("Piskvorky 15x15, 11:11, 0\n8,8,{digits}\n")).unwrap_err();
        assert!(
            e.len() < 600 && e.contains("(100000 bytes)"),
            "{}",
            &e[..200]
        );
    }

    #[test]
    fn round_trip_keeps_moves_and_times() {
        let moves = vec![(pos("h8"), 0), (pos("i9"), 1250), (pos("a1"), 7)];
        let text = format(15, &moves, "person", "gomoku");
        assert!(text.starts_with("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,7,1250\n1,15,7\n"));
        assert!(text.ends_with("person\ngomoku\n-1\n"));
        let back = parse(&text).unwrap();
        assert_eq!(back, PsqGame { size: 15, moves });
    }

    #[test]
    fn reads_records_with_trailers_crlf_and_no_times() {
        let text =
            "Piskvorky 20x20, 11:11, 0\r\n10,10\r\n11,10,5\r\npbrain-a.zip\r\n3,3,0\r\n-1\r\n";
        let g = parse(text).unwrap();
        assert_eq!(g.size, 20);
        let shown: Vec<String> = g.moves.iter().map(|&(p, _)| format_pos(p, 20)).collect();
        assert_eq!(shown, ["j11", "k11"]);
    }

    #[test]
    fn move_lines_out_of_range_are_errors_not_trailers() {
        let head = "Piskvorky 15x15, 11:11, 0\n8,8,0\n";
        for (line, want) in [
            ("9,9,-1", "'-1' is not a number of milliseconds"),
            ("9,9,99999999999999999999", "not a number of milliseconds"),
            ("99999999999999999999,10,0", "off the 15x15 board"),
            ("-3,4", "off the 15x15 board"),
            ("0,4,0", "off the 15x15 board"),
            ("16,10,0", "off the 15x15 board"),
        ] {
            let e = parse(&format!("{head}{line}\n10,10,0\n")).unwrap_err();
            assert!(e.starts_with(&format!("move 2 '{line}'")), "{line}: {e}");
            assert!(e.contains(want), "{line}: {e}");
        }
        // signs are fine when the value is: `+9` reads as 9
        let g = parse(&format!("{head}+9,9,0\n-1\n")).unwrap();
        assert_eq!(g.moves.len(), 2);
        // lines of any other shape still end the moves
        for trailer in ["-1", "1,2,3,4", "9,x,0", "pbrain-a.zip", "9;9;0"] {
            let g = parse(&format!("{head}{trailer}\n10,10,0\n")).unwrap();
            assert_eq!(g.moves.len(), 1, "{trailer}");
        }
    }

    #[test]
    fn bad_records_are_errors_naming_the_problem() {
        assert!(parse("").unwrap_err().contains("empty"));
        assert!(parse("hello\n1,1,0").unwrap_err().contains("Piskvorky"));
        assert!(parse("Piskvorky 15x19, 11:11, 0")
            .unwrap_err()
            .contains("square"));
        assert!(parse("Piskvorky 40x40, 11:11, 0")
            .unwrap_err()
            .contains("out of range"));
        let e = parse("Piskvorky 15x15, 11:11, 0\n8,8,0\n16,1,0").unwrap_err();
        assert!(e.contains("move 2") && e.contains("off the 15x15"), "{e}");
        assert!(parse("Piskvorky 15x15, 11:11, 0\n0,3,0").is_err());
    }
}

/// Property tests of [`parse`] and [`format`]: any text, random or a valid record with one line
/// or number broken, gives a game on a supported board or an error (never a panic), and a
/// random legal game written by [`format`] reads back with the same size, moves and times,
/// and replays as a legal game.
#[cfg(test)]
mod props {
    use super::*;
    use crate::prop_support::{config, near_valid, noise, number};
    use gomoku_engine::{Game, Rule};
    use proptest::prelude::*;
    use proptest::sample::Index;

    /// A legal game: random empty points until the game ends or `len` moves are played.
    fn legal_game(size: usize, rule: Rule, picks: &[Index]) -> Vec<Pos> {
        let mut g = Game::new(size, rule).expect("valid size");
        for i in picks {
            if g.is_over() {
                break;
            }
            let b = g.board();
            let empty: Vec<Pos> = b.points().filter(|&p| b.is_empty(p)).collect();
            if empty.is_empty() {
                break;
            }
            g.play(empty[i.index(empty.len())]).expect("an empty point");
        }
        g.board().moves().to_vec()
    }

    /// A legal game with times, on a random board and rule.
    fn timed_game() -> impl Strategy<Value = (usize, Rule, Vec<(Pos, u64)>)> {
        (
            5usize..=22,
            prop::sample::select(Rule::ALL.to_vec()),
            prop::collection::vec((any::<Index>(), any::<u64>()), 0..80),
        )
            .prop_map(|(size, rule, picks)| {
                let idx: Vec<Index> = picks.iter().map(|p| p.0).collect();
                let moves = legal_game(size, rule, &idx);
                let timed = moves.iter().zip(&picks).map(|(&p, t)| (p, t.1)).collect();
                (size, rule, timed)
            })
    }

    /// The lines of a record, some of the numbers strange.
    fn record_lines() -> impl Strategy<Value = Vec<String>> + Clone {
        (
            prop_oneof![
                3 => (5usize..=22).prop_map(|n| n.to_string()),
                1 => number(),
            ],
            prop::collection::vec((number(), number(), prop::option::of(number())), 0..12),
            prop::collection::vec("[ -~]{0,12}", 0..3),
        )
            .prop_map(|(n, moves, trailer)| {
                let mut lines = vec![format!("Piskvorky {n}x{n}, 11:11, 0")];
                for (x, y, ms) in moves {
                    lines.push(match ms {
                        Some(ms) => format!("{x},{y},{ms}"),
                        None => format!("{x},{y}"),
                    });
                }
                lines.extend(trailer);
                lines
            })
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn any_text_reads_or_fails_cleanly(text in prop_oneof![
            near_valid(record_lines(), "\n"),
            near_valid(record_lines(), "\r\n"),
            noise(),
        ]) {
            match parse(&text) {
                Ok(g) => {
                    prop_assert_eq!(check_size(g.size).ok(), Some(g.size));
                    for &(p, _) in &g.moves {
                        prop_assert!(p.is_point() && p.x() < g.size && p.y() < g.size);
                    }
                    // what was read writes back as a record that reads the same
                    let again = format(g.size, &g.moves, "black", "white");
                    prop_assert_eq!(parse(&again), Ok(g));
                }
                Err(e) => prop_assert!(!e.is_empty()),
            }
        }

        #[test]
        fn legal_games_round_trip(
            (size, rule, moves) in timed_game(),
            black in "[A-Za-z][A-Za-z0-9 ()._-]{0,15}",
            white in "[A-Za-z][A-Za-z0-9 ()._-]{0,15}",
            crlf in any::<bool>(),
        ) {
            let mut text = format(size, &moves, &black, &white);
            if crlf {
                text = text.replace('\n', "\r\n");
            }
            let back = parse(&text);
            prop_assert_eq!(&back, &Ok(PsqGame { size, moves: moves.clone() }));
            // and the moves replay as the game they came from
            let mut g = Game::new(size, rule).expect("valid size");
            for (p, _) in moves {
                prop_assert!(g.play(p).is_ok());
            }
        }
    }
}
