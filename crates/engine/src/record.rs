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
use crate::types::{Pos, Rule};
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
}
