//! Coordinates and position strings.
//!
//! Two notations are supported:
//! - `h8` style: column letter from the left (`a`, `b`, ... with no letter skipped), row number
//!   from the BOTTOM, so `h8` is the centre of 15x15;
//! - Gomocup `x,y`: both 0-based, `y` from the TOP (`h8` on 15x15 is `7,7`, `a1` is `0,14`).
//!
//! A position string lists moves in play order, Black first, `--` for a pass, written either with
//! spaces (`h8 i9 j10`) or without (`h8i9j10`).
//!
//! A diagram ([`parse_diagram`]) draws the board as text, a row per line from the top: `X` Black,
//! `O` White, `.` empty, as [`Board::to_text`](crate::Board::to_text) prints it.

use crate::types::{Color, Pos, MAX_SIZE, MIN_SIZE};
use std::fmt;

/// Errors from parsing coordinates, position strings, sizes and rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// A token that is not a coordinate at all.
    Malformed {
        /// The offending text.
        token: String,
        /// Why it was rejected.
        reason: &'static str,
    },
    /// A well-formed coordinate that lies outside the board.
    OffBoard {
        /// The offending text.
        token: String,
        /// The board size.
        size: usize,
    },
    /// A board size outside the supported range.
    SizeOutOfRange(usize),
    /// A rule name that is not known.
    UnknownRule(String),
    /// A board diagram that cannot be read.
    Diagram {
        /// 1-based line of the text (0 when about the whole diagram).
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Malformed { token, reason } => write!(f, "'{token}': {reason}"),
            NotationError::OffBoard { token, size } => {
                write!(f, "'{token}': off the {size}x{size} board")
            }
            NotationError::SizeOutOfRange(n) => {
                write!(
                    f,
                    "board size {n} is out of range ({MIN_SIZE} to {MAX_SIZE})"
                )
            }
            NotationError::UnknownRule(r) => write!(
                f,
                "'{r}': unknown rule (expected freestyle, standard, renju, caro5 or caro6)"
            ),
            NotationError::Diagram { line: 0, reason } => write!(f, "diagram: {reason}"),
            NotationError::Diagram { line, reason } => {
                write!(f, "diagram line {line}: {reason}")
            }
        }
    }
}

impl std::error::Error for NotationError {}

/// Checks a board size.
///
/// # Errors
/// [`NotationError::SizeOutOfRange`] outside 5..=22.
pub fn check_size(size: usize) -> Result<usize, NotationError> {
    if (MIN_SIZE..=MAX_SIZE).contains(&size) {
        Ok(size)
    } else {
        Err(NotationError::SizeOutOfRange(size))
    }
}

/// Formats a point in `h8` style on a board of `size`. A pass is `--`.
#[must_use]
pub fn format_pos(p: Pos, size: usize) -> String {
    if p.is_pass() {
        return "--".to_string();
    }
    if !p.is_point() {
        return "none".to_string();
    }
    if p.x() >= size || p.y() >= size {
        // a point of a larger board: the coordinates, rather than a row that does not exist
        return format_xy(p);
    }
    let col = (b'a' + p.x() as u8) as char;
    format!("{col}{}", size - p.y())
}

/// Formats a point as Gomocup `x,y`.
#[must_use]
pub fn format_xy(p: Pos) -> String {
    format!("{},{}", p.x(), p.y())
}

/// Formats a move list as a position string with spaces.
#[must_use]
pub fn format_moves(moves: &[Pos], size: usize) -> String {
    moves
        .iter()
        .map(|&p| format_pos(p, size))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Parses one `h8`-style point (case-insensitive) on a board of `size`.
///
/// # Errors
/// [`NotationError::Malformed`] when the token is not a letter followed by a number,
/// [`NotationError::OffBoard`] when it lies outside the board.
pub fn parse_pos(token: &str, size: usize) -> Result<Pos, NotationError> {
    let t = token.trim();
    let mut chars = t.chars();
    let Some(letter) = chars.next() else {
        return Err(NotationError::Malformed {
            token: t.to_string(),
            reason: "empty coordinate",
        });
    };
    if !letter.is_ascii_alphabetic() {
        return Err(NotationError::Malformed {
            token: t.to_string(),
            reason: "a coordinate starts with a column letter",
        });
    }
    let digits: &str = chars.as_str();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 3 {
        return Err(NotationError::Malformed {
            token: t.to_string(),
            reason: "a column letter must be followed by a row number",
        });
    }
    let row: usize = digits.parse().map_err(|_| NotationError::Malformed {
        token: t.to_string(),
        reason: "bad row number",
    })?;
    let x = (letter.to_ascii_lowercase() as u8 - b'a') as usize;
    if x >= size || row == 0 || row > size {
        return Err(NotationError::OffBoard {
            token: t.to_string(),
            size,
        });
    }
    Ok(Pos::new(x, size - row))
}

/// Parses a Gomocup `x,y` point on a board of `size`.
///
/// # Errors
/// [`NotationError::Malformed`] unless two comma-separated integers,
/// [`NotationError::OffBoard`] outside the board.
pub fn parse_xy(token: &str, size: usize) -> Result<Pos, NotationError> {
    let t = token.trim();
    let mut it = t.split(',');
    let (Some(a), Some(b), None) = (it.next(), it.next(), it.next()) else {
        return Err(NotationError::Malformed {
            token: t.to_string(),
            reason: "expected x,y",
        });
    };
    let parse = |s: &str| -> Result<i64, NotationError> {
        s.trim()
            .parse::<i64>()
            .map_err(|_| NotationError::Malformed {
                token: t.to_string(),
                reason: "x and y must be integers",
            })
    };
    let (x, y) = (parse(a)?, parse(b)?);
    if x < 0 || y < 0 || x >= size as i64 || y >= size as i64 {
        return Err(NotationError::OffBoard {
            token: t.to_string(),
            size,
        });
    }
    Ok(Pos::new(x as usize, y as usize))
}

/// Splits a position string into move tokens: whitespace and commas separate tokens, and a
/// token such as `h8i9j10` is cut before each letter. `--` is a pass.
///
/// # Errors
/// [`NotationError::Malformed`] for characters that cannot start or continue a move.
pub fn tokenize(text: &str) -> Result<Vec<String>, NotationError> {
    let mut out = Vec::new();
    for word in text.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
        let bytes: Vec<char> = word.chars().collect();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            if c == '-' {
                if i + 1 < bytes.len() && bytes[i + 1] == '-' {
                    out.push("--".to_string());
                    i += 2;
                    continue;
                }
                return Err(NotationError::Malformed {
                    token: word.to_string(),
                    reason: "a pass is written '--'",
                });
            }
            if c.is_ascii_alphabetic() {
                let mut j = i + 1;
                while j < bytes.len() && bytes[j].is_ascii_digit() {
                    j += 1;
                }
                out.push(bytes[i..j].iter().collect());
                i = j;
                continue;
            }
            let bad: String = bytes[i..].iter().collect();
            return Err(NotationError::Malformed {
                token: if bad.is_empty() {
                    word.to_string()
                } else {
                    bad
                },
                reason: "expected a move like h8 or a pass '--'",
            });
        }
    }
    Ok(out)
}

/// Parses a position string into points (passes as [`Pos::PASS`]) for a board of `size`. Whether
/// the moves can be played (empty points, game not over) is checked when they are played.
///
/// # Errors
/// The first malformed or off-board token.
pub fn parse_moves(text: &str, size: usize) -> Result<Vec<Pos>, NotationError> {
    tokenize(text)?
        .iter()
        .map(|t| {
            if t == "--" {
                Ok(Pos::PASS)
            } else {
                parse_pos(t, size)
            }
        })
        .collect()
}

/// A board read from a diagram: its size, the stones of each colour and, when the text says
/// so, the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// Board size (the number of rows, each of as many points).
    pub size: usize,
    /// Black's stones, from the top row down, left to right.
    pub black: Vec<Pos>,
    /// White's stones, in the same order.
    pub white: Vec<Pos>,
    /// The side to move, from a line such as `to move: white`.
    pub to_move: Option<Color>,
}

impl Diagram {
    /// The side to move: the one the diagram names, else the usual one for its stone counts
    /// ([`side_to_move`]).
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        self.to_move
            .unwrap_or_else(|| side_to_move(self.black.len(), self.white.len()))
    }
}

/// The side to move after Black's and White's stones were played in turn from Black: White
/// when Black has more stones, else Black.
#[must_use]
pub fn side_to_move(black: usize, white: usize) -> Color {
    if black > white {
        Color::White
    } else {
        Color::Black
    }
}

/// What a point of a diagram holds, if `c` draws a point.
fn diagram_point(c: char) -> Option<Option<Color>> {
    match c {
        'X' | 'x' | '●' | '#' => Some(Some(Color::Black)),
        'O' | 'o' | '○' => Some(Some(Color::White)),
        '.' | '+' | '-' | '_' | '·' => Some(None),
        _ => None,
    }
}

/// Reads a board diagram: a row per line from the top, each point `X` (or `x`, `●`, `#`) for
/// Black, `O` (or `o`, `○`) for White and `.` (or `+`, `-`, `_`, `·`) for an empty point,
/// with or without spaces between points. Row numbers at either end of a row, the brackets
/// marking the last move and lines of column letters or other words are skipped, so the
/// output of `gomoku position` reads back; a line `to move: black` (or `white`) gives the side
/// to move. The board is square: as many rows as points in a row.
///
/// # Errors
/// A row of another length than the first, a point that is not one of those above, no rows,
/// a size out of range.
pub fn parse_diagram(text: &str) -> Result<Diagram, NotationError> {
    let mut rows: Vec<(usize, Vec<Option<Color>>)> = Vec::new();
    let mut to_move = None;
    for (n, line) in text.lines().enumerate() {
        let lower = line.trim().to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("to move:") {
            let word = rest.split_whitespace().next().unwrap_or("");
            to_move = match word {
                "black" => Some(Color::Black),
                "white" => Some(Color::White),
                _ => {
                    return Err(NotationError::Diagram {
                        line: n + 1,
                        reason: format!("'{word}': the side to move is black or white"),
                    })
                }
            };
            continue;
        }
        // the row numbers at the ends, and the brackets around the last move
        let body = line
            .trim()
            .trim_matches(|c: char| c.is_ascii_digit() || c.is_whitespace())
            .replace(['[', ']'], " ");
        let points: Vec<char> = body.chars().filter(|c| !c.is_whitespace()).collect();
        // a line of column letters or of words is not a row: a row has no letter other than
        // the stones' x and o, and at least one point
        if points.is_empty()
            || points
                .iter()
                .any(|&c| c.is_alphabetic() && diagram_point(c).is_none())
        {
            continue;
        }
        let row = points
            .iter()
            .map(|&c| {
                diagram_point(c).ok_or_else(|| NotationError::Diagram {
                    line: n + 1,
                    reason: format!("'{c}' is not a point (X, O or .)"),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        if let Some((_, first)) = rows.first() {
            if row.len() != first.len() {
                return Err(NotationError::Diagram {
                    line: n + 1,
                    reason: format!(
                        "a row of {} points, where the first row has {}",
                        row.len(),
                        first.len()
                    ),
                });
            }
        }
        rows.push((n + 1, row));
    }
    let Some((_, first)) = rows.first() else {
        return Err(NotationError::Diagram {
            line: 0,
            reason: "no rows of points (X, O or .)".to_string(),
        });
    };
    let size = rows.len();
    if first.len() != size {
        return Err(NotationError::Diagram {
            line: 0,
            reason: format!("{size} rows of {} points: a board is square", first.len()),
        });
    }
    check_size(size)?;
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for (y, (_, row)) in rows.iter().enumerate() {
        for (x, point) in row.iter().enumerate() {
            match point {
                Some(Color::Black) => black.push(Pos::new(x, y)),
                Some(Color::White) => white.push(Pos::new(x, y)),
                None => {}
            }
        }
    }
    Ok(Diagram {
        size,
        black,
        white,
        to_move,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h8_is_centre() {
        let p = parse_pos("h8", 15).unwrap();
        assert_eq!((p.x(), p.y()), (7, 7));
        assert_eq!(format_pos(p, 15), "h8");
        assert_eq!(format_xy(parse_pos("a1", 15).unwrap()), "0,14");
        assert_eq!(format_xy(parse_pos("a15", 15).unwrap()), "0,0");
        assert_eq!(parse_xy("7,7", 15).unwrap(), p);
        assert_eq!(format_pos(parse_pos("V22", 22).unwrap(), 22), "v22");
        // a point of a larger board is named by its coordinates, not by a row that wraps
        assert_eq!(format_pos(parse_pos("b6", 15).unwrap(), 7), "1,9");
        assert_eq!(format_pos(parse_pos("o8", 15).unwrap(), 7), "14,7");
    }

    #[test]
    fn both_spellings() {
        let a = parse_moves("h8 i9 j10 -- a1", 15).unwrap();
        let b = parse_moves("h8i9j10--a1", 15).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.len(), 5);
        assert!(a[3].is_pass());
        assert_eq!(format_moves(&a, 15), "h8 i9 j10 -- a1");
    }

    #[test]
    fn errors_name_the_token() {
        let e = parse_moves("h8 p8", 15).unwrap_err();
        assert_eq!(e.to_string(), "'p8': off the 15x15 board");
        let e = parse_moves("h8 h16", 15).unwrap_err();
        assert!(e.to_string().contains("'h16'"));
        let e = parse_moves("h8 h0", 15).unwrap_err();
        assert!(e.to_string().contains("'h0'"));
        let e = parse_moves("h8 8h", 15).unwrap_err();
        assert!(e.to_string().contains("8h"), "{e}");
        let e = parse_moves("h8 h", 15).unwrap_err();
        assert!(e.to_string().contains("'h'"), "{e}");
        let e = parse_moves("h8 -", 15).unwrap_err();
        assert!(e.to_string().contains("'-'"), "{e}");
        assert!(parse_xy("15,0", 15).is_err());
        assert!(parse_xy("-1,0", 15).is_err());
        assert!(parse_xy("a,b", 15).is_err());
        assert!(parse_xy("1,2,3", 15).is_err());
        assert!(check_size(4).is_err() && check_size(23).is_err() && check_size(20).is_ok());
    }

    #[test]
    fn diagrams_read_back_what_the_board_prints() {
        use crate::{Board, Rule};
        for (size, moves) in [(15, "h8 i9 j10 h9 --"), (5, "a1 e5 c3"), (22, "a1 v22 k11")] {
            let mut b = Board::new(size, Rule::Renju).unwrap();
            for p in parse_moves(moves, size).unwrap() {
                if p.is_pass() {
                    b.pass();
                } else {
                    b.play(p);
                }
            }
            let d = parse_diagram(&b.to_text(&[])).unwrap();
            assert_eq!(d.size, size);
            let mut want_black: Vec<Pos> = b
                .points()
                .filter(|&p| b.cell(p) == crate::Cell::Stone(Color::Black))
                .collect();
            let mut want_white: Vec<Pos> = b
                .points()
                .filter(|&p| b.cell(p) == crate::Cell::Stone(Color::White))
                .collect();
            let (mut black, mut white) = (d.black.clone(), d.white.clone());
            for v in [&mut want_black, &mut want_white, &mut black, &mut white] {
                v.sort_by_key(|p| p.index());
            }
            assert_eq!((black, white), (want_black, want_white), "{moves}");
            assert_eq!(d.to_move, None);
        }
    }

    #[test]
    fn diagrams_in_other_hands() {
        // text -> (size, black, white, side to move)
        let cases: &[(&str, usize, &str, &str, Option<Color>)] = &[
            (".....\n.....\n..X..\n.O...\n.....", 5, "c3", "b2", None),
            ("x o . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . +", 5, "a5", "b5", None),
            ("  a b c d e\n5 ● ○ · · · 5\n4 · · · · · 4\n3 · ·[●]· · 3\n2 · · · · · 2\n1 · · · · · 1\n  a b c d e\nto move: White (O)",
             5, "a5 c3", "b5", Some(Color::White)),
            ("rule: renju\n-----\n-----\n--#--\n-----\n----O\n", 5, "c3", "e1", None),
        ];
        for &(text, size, black, white, to_move) in cases {
            let d = parse_diagram(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(d.size, size, "{text}");
            assert_eq!(format_moves(&d.black, size), black, "{text}");
            assert_eq!(format_moves(&d.white, size), white, "{text}");
            assert_eq!(d.to_move, to_move, "{text}");
        }
    }

    #[test]
    fn bad_diagrams_say_where() {
        let cases = [
            ("", "diagram: no rows of points (X, O or .)"),
            ("h8 i9", "diagram: no rows of points (X, O or .)"),
            (
                ".....\n....\n",
                "diagram line 2: a row of 4 points, where the first row has 5",
            ),
            (
                "....\n....\n....\n....\n....",
                "diagram: 5 rows of 4 points: a board is square",
            ),
            (
                "....\n....\n....\n....",
                "board size 4 is out of range (5 to 22)",
            ),
            (
                ".....\n..?..\n",
                "diagram line 2: '?' is not a point (X, O or .)",
            ),
            (
                "to move: red\n.....",
                "diagram line 1: 'red': the side to move is black or white",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(parse_diagram(text).unwrap_err().to_string(), want, "{text}");
        }
    }
}
