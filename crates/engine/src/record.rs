//! The common position format of the shared datasets:
//!
//! ```text
//! <N> <rule> <m1> <m2> ... | key=value key=value ...
//! ```
//!
//! Moves are in play order, Black first, `--` a pass; after the list Black is to move when the
//! number of tokens is even. Keys answer questions about the position (see the datasets).

use crate::game::{Game, GameError};
use crate::notation::{check_size, parse_moves, NotationError};
use crate::types::{Color, Pos, Rule};
use std::fmt;

/// One parsed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Board size.
    pub size: usize,
    /// Rule.
    pub rule: Rule,
    /// Moves in order (passes as [`Pos::PASS`]).
    pub moves: Vec<Pos>,
    /// The `key=value` pairs after the `|`, in order.
    pub keys: Vec<(String, String)>,
}

/// Why a line could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The line has no size and rule.
    MissingHeader,
    /// The size is not a number.
    BadSize(String),
    /// Size, rule or a move could not be read.
    Notation(NotationError),
    /// A key without `=`.
    BadKey(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::MissingHeader => {
                f.write_str("expected '<size> <rule> <moves...> | key=value ...'")
            }
            RecordError::BadSize(s) => write!(f, "'{s}': the board size must be a number"),
            RecordError::Notation(e) => e.fmt(f),
            RecordError::BadKey(k) => write!(f, "'{k}': expected key=value"),
        }
    }
}

impl std::error::Error for RecordError {}

impl From<NotationError> for RecordError {
    fn from(e: NotationError) -> Self {
        RecordError::Notation(e)
    }
}

/// `game`'s position as a line of the format, without keys: size, rule and moves (passes
/// included), which [`Record::parse`] and [`Record::start`] read back as the same position.
/// A set-up start position ([`Game::start_ply`]) whose plies hold no pass is written after
/// a pair of passes (`-- --`, which leaves the side to move as it is), so that the line
/// reads back as a set-up position, not as a game of its stones.
#[must_use]
pub fn line_of(game: &Game) -> String {
    let board = game.board();
    let mut moves = board.position_string();
    if game.start_ply() > 0 && !board.moves().iter().any(|p| p.is_pass()) {
        moves = format!("-- -- {moves}");
    }
    let sep = if moves.is_empty() { "" } else { " " };
    format!("{} {}{sep}{moves}", board.size(), board.rule().name())
}

impl Record {
    /// Parses one line. Blank lines and `#` comments are not records: the caller skips them
    /// (see [`Record::is_blank`]).
    ///
    /// # Errors
    /// A [`RecordError`] naming what is wrong.
    pub fn parse(line: &str) -> Result<Record, RecordError> {
        let (pos_part, key_part) = match line.split_once('|') {
            Some((a, b)) => (a, b),
            None => (line, ""),
        };
        let mut words = pos_part.split_whitespace();
        let size_s = words.next().ok_or(RecordError::MissingHeader)?;
        let rule_s = words.next().ok_or(RecordError::MissingHeader)?;
        let size: usize = size_s
            .parse()
            .map_err(|_| RecordError::BadSize(size_s.to_string()))?;
        let size = check_size(size)?;
        let rule: Rule = rule_s.parse()?;
        let rest: Vec<&str> = words.collect();
        let moves = parse_moves(&rest.join(" "), size)?;
        let mut keys = Vec::new();
        for kv in key_part.split_whitespace() {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| RecordError::BadKey(kv.to_string()))?;
            keys.push((k.to_string(), v.to_string()));
        }
        Ok(Record {
            size,
            rule,
            moves,
            keys,
        })
    }

    /// Whether a line is blank or a comment.
    #[must_use]
    pub fn is_blank(line: &str) -> bool {
        let t = line.trim();
        t.is_empty() || t.starts_with('#')
    }

    /// The value of a key, if present.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        self.keys
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Sets the position up as a diagram ([`Game::setup`]: stones in order, no game rules).
    ///
    /// # Errors
    /// The first move on an occupied point.
    pub fn game(&self) -> Result<Game, GameError> {
        Game::setup(self.size, self.rule, &self.moves)
    }

    /// The position as the start of a game. A line whose moves play as a game by the rules
    /// ([`Game::from_moves`]: no pass, no point taken twice, nothing after a five or a renju
    /// foul) is that game, whose moves can be taken back. Any other line is a diagram, as the
    /// datasets write them (their puzzles list the stones in no game's order, and passes
    /// where one colour has more): a set-up position ([`Game::from_stones`]) of Black's stones
    /// (the tokens in odd places) and White's (in even places), with the side to move the
    /// number of tokens gives.
    ///
    /// # Errors
    /// As [`Game::from_stones`] (a point taken twice, a five already on the board).
    pub fn start(&self) -> Result<Game, GameError> {
        if !self.moves.iter().any(|p| p.is_pass()) {
            if let Ok(g) = Game::from_moves(self.size, self.rule, &self.moves) {
                return Ok(g);
            }
        }
        let stones = |parity: usize| -> Vec<Pos> {
            self.moves
                .iter()
                .enumerate()
                .filter(|&(i, p)| i % 2 == parity && !p.is_pass())
                .map(|(_, &p)| p)
                .collect()
        };
        let to_move = if self.moves.len() % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        Game::from_stones(self.size, self.rule, &stones(0), &stones(1), to_move)
    }

    /// Parses a comma-separated list of points from a key value (`none` is empty).
    ///
    /// # Errors
    /// The first malformed point.
    pub fn points(&self, value: &str) -> Result<Vec<Pos>, NotationError> {
        if value == "none" || value.is_empty() {
            return Ok(Vec::new());
        }
        value
            .split(',')
            .map(|t| crate::notation::parse_pos(t, self.size))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_line() {
        let r = Record::parse("15 renju h8 -- i9 | task=vcf side=black src=x").unwrap();
        assert_eq!((r.size, r.rule, r.moves.len()), (15, Rule::Renju, 3));
        assert_eq!(r.get("side"), Some("black"));
        assert!(r.moves[1].is_pass());
        assert!(Record::parse("").is_err());
        assert!(Record::parse("x renju").is_err());
        assert!(Record::parse("15 gobang h8").is_err());
        assert!(Record::parse("15 renju h8 | novalue").is_err());
        assert!(Record::parse("15 renju h99").is_err());
    }

    #[test]
    fn a_line_with_a_pass_starts_as_a_set_up_position_and_one_without_as_a_game() {
        // (line, plies that cannot be undone, side to move, stones)
        for (line, start, to_move, stones) in [
            ("15 renju h8 i9 h9", 0, Color::White, 3),
            ("15 freestyle", 0, Color::Black, 0),
            (
                "15 renju h8 -- i9 | task=vcf side=black",
                3,
                Color::White,
                2,
            ),
            ("15 renju h8 -- i9 --", 4, Color::Black, 2),
            ("9 standard -- e5", 2, Color::Black, 1),
        ] {
            let mut g = Record::parse(line).unwrap().start().unwrap();
            assert_eq!(g.start_ply(), start, "{line}");
            assert_eq!(g.board().to_move(), to_move, "{line}");
            assert_eq!(g.board().stone_count(), stones, "{line}");
            if start == 0 && stones > 0 {
                assert!(
                    g.undo().is_some(),
                    "{line}: a game's moves can be taken back"
                );
            } else {
                assert_eq!(g.undo(), None, "{line}");
            }
        }
        // the game's line reads back as the same line; a set-up position without a pass
        // is written after two, so that it stays one
        for (line, written) in [
            ("15 freestyle", "15 freestyle"),
            ("15 renju h8 i9 h9", "15 renju h8 i9 h9"),
            ("15 renju h8 -- i9", "15 renju h8 -- i9"),
            ("9 standard -- e5", "9 standard -- e5"),
            (
                "15 renju h8 a1 i8 a3 j9 a5 j10 a7 j8 a9",
                "15 renju -- -- h8 a1 i8 a3 j9 a5 j10 a7 j8 a9",
            ),
        ] {
            let g = Record::parse(line).unwrap().start().unwrap();
            assert_eq!(line_of(&g), written);
            let again = Record::parse(written).unwrap().start().unwrap();
            assert_eq!(again.start_ply() > 0, g.start_ply() > 0, "{line}");
            assert_eq!(line_of(&again), written);
        }
        // a five ends a game; a diagram may not hold one; a point taken twice is refused
        let g = Record::parse("9 freestyle a1 b1 a2 b2 a3 b3 a4 b4 a5").unwrap();
        assert!(g.start().unwrap().is_over());
        // Black's j8 is a double three, which would end a game: so this is a diagram
        let g = Record::parse("15 renju h8 a1 i8 a3 j9 a5 j10 a7 j8 a9").unwrap();
        let g = g.start().unwrap();
        assert_eq!((g.start_ply(), g.is_over()), (10, false));
        assert_eq!(g.board().to_move(), Color::Black);
        for line in [
            "9 freestyle a1 -- a2 -- a3 -- a4 -- a5",
            "9 freestyle a1 b1 a2 b2 a3 b3 a4 b4 a5 b5",
            "15 renju h8 -- h8",
            "15 renju h8 h8",
        ] {
            assert!(Record::parse(line).unwrap().start().is_err(), "{line}");
        }
    }
}
