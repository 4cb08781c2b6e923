//! Basic value types: colours, rules, board points and line directions.

use std::fmt;

/// Smallest supported board size.
pub const MIN_SIZE: usize = 5;
/// Largest supported board size.
pub const MAX_SIZE: usize = 22;
/// The usual board size (Gomocup also plays 20).
pub const DEFAULT_SIZE: usize = 15;

/// Width of the wall around the board: a line walk of up to this many steps never leaves the
/// padded array, so pattern code needs no bounds checks.
pub const PAD: usize = 5;
/// Row stride of the padded board (a power of two, so `x` and `y` are shifts and masks).
pub const STRIDE: usize = 32;
/// Number of cells in the padded board.
pub const NUM_CELLS: usize = STRIDE * STRIDE;

/// A stone colour, also used for "side to move".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player.
    Black = 0,
    /// The second player.
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White (for indexing per-colour arrays).
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case English name (`black` / `white`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The content of one point of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// No stone.
    Empty,
    /// A stone of the given colour.
    Stone(Color),
    /// Outside the board (the padding).
    Wall,
}

/// Winning rule of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Five or more in a row wins, for both colours.
    Freestyle,
    /// Exactly five wins; an overline (six or more) wins for nobody.
    Standard,
    /// White wins with five or more; Black only with exactly five, and Black may not play
    /// double-three, double-four or overline points (forbidden points).
    Renju,
    /// Exactly five wins, unless both ends of the five are blocked by the opponent.
    Caro5,
    /// Five or more wins, unless it is exactly five blocked at both ends by the opponent.
    Caro6,
}

impl Rule {
    /// All rules, in a fixed order.
    pub const ALL: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro5,
        Rule::Caro6,
    ];

    /// The name used on the command line and in position files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro5 => "caro5",
            Rule::Caro6 => "caro6",
        }
    }

    /// Index into per-rule arrays.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether Black has forbidden points under this rule.
    #[inline]
    #[must_use]
    pub const fn has_forbidden(self) -> bool {
        matches!(self, Rule::Renju)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Rule {
    type Err = crate::notation::NotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase();
        Ok(match lower.as_str() {
            "freestyle" | "free" | "gomoku" | "0" => Rule::Freestyle,
            "standard" | "exact" | "exactfive" | "exact-five" | "1" => Rule::Standard,
            "renju" | "4" => Rule::Renju,
            "caro5" => Rule::Caro5,
            "caro6" | "caro" => Rule::Caro6,
            _ => return Err(crate::notation::NotationError::UnknownRule(s.to_string())),
        })
    }
}

/// A point of the padded board, or the pass marker.
///
/// Internally an index into the padded `STRIDE x STRIDE` array; `x` counts columns from the left
/// and `y` rows from the TOP (as in the Gomocup protocol), both 0-based on the real board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos(pub(crate) u16);

impl Pos {
    /// The pass "move" (used to set up diagrams with the right side to move).
    pub const PASS: Pos = Pos(0);
    /// No point at all (an empty slot in move lists).
    pub const NONE: Pos = Pos(u16::MAX);

    /// The point at column `x` and row `y` (0-based, `y` from the top). The caller makes sure
    /// both are below [`MAX_SIZE`]; use [`Board::pos`](crate::Board::pos) for a checked version.
    #[inline]
    #[must_use]
    pub const fn new(x: usize, y: usize) -> Pos {
        Pos(((y + PAD) * STRIDE + x + PAD) as u16)
    }

    /// Column, 0-based from the left.
    #[inline]
    #[must_use]
    pub const fn x(self) -> usize {
        (self.0 as usize % STRIDE).wrapping_sub(PAD)
    }

    /// Row, 0-based from the top.
    #[inline]
    #[must_use]
    pub const fn y(self) -> usize {
        (self.0 as usize / STRIDE).wrapping_sub(PAD)
    }

    /// Index into padded-board arrays.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The position from a padded-board index.
    #[inline]
    #[must_use]
    pub const fn from_index(i: usize) -> Pos {
        Pos(i as u16)
    }

    /// Whether this is the pass marker.
    #[inline]
    #[must_use]
    pub const fn is_pass(self) -> bool {
        self.0 == Pos::PASS.0
    }

    /// Whether this is a real point (not pass, not none).
    #[inline]
    #[must_use]
    pub const fn is_point(self) -> bool {
        self.0 != Pos::PASS.0 && self.0 != Pos::NONE.0
    }

    /// The point `k` steps along direction `d` (may be a wall point; `|k| <= PAD` stays in the
    /// padded array for every point of the board).
    #[inline]
    #[must_use]
    pub const fn step(self, d: Dir, k: i32) -> Pos {
        Pos((self.0 as i32 + d.offset() * k) as u16)
    }
}

impl fmt::Debug for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            f.write_str("Pos(pass)")
        } else if *self == Pos::NONE {
            f.write_str("Pos(none)")
        } else {
            write!(f, "Pos({},{})", self.x(), self.y())
        }
    }
}

/// One of the four line directions. Each steps "forward" with a positive index offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Left to right (`-`).
    Horizontal = 0,
    /// Top to bottom (`|`).
    Vertical = 1,
    /// Top-left to bottom-right (`\`).
    Diagonal = 2,
    /// Top-right to bottom-left (`/`).
    AntiDiagonal = 3,
}

impl Dir {
    /// All four directions.
    pub const ALL: [Dir; 4] = [
        Dir::Horizontal,
        Dir::Vertical,
        Dir::Diagonal,
        Dir::AntiDiagonal,
    ];

    /// Index offset of one forward step in the padded array.
    #[inline]
    #[must_use]
    pub const fn offset(self) -> i32 {
        match self {
            Dir::Horizontal => 1,
            Dir::Vertical => STRIDE as i32,
            Dir::Diagonal => STRIDE as i32 + 1,
            Dir::AntiDiagonal => STRIDE as i32 - 1,
        }
    }

    /// Index for per-direction arrays.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pos_roundtrip() {
        for y in 0..MAX_SIZE {
            for x in 0..MAX_SIZE {
                let p = Pos::new(x, y);
                assert_eq!((p.x(), p.y()), (x, y));
                assert!(p.is_point());
                // every point keeps PAD steps of room in every direction
                for d in Dir::ALL {
                    let far = p.step(d, PAD as i32).index();
                    let near = p.step(d, -(PAD as i32)).index();
                    assert!(far < NUM_CELLS && near < NUM_CELLS);
                }
            }
        }
        assert!(!Pos::PASS.is_point() && Pos::PASS.is_pass());
    }

    #[test]
    fn rule_names_parse() {
        for r in Rule::ALL {
            assert_eq!(r.name().parse::<Rule>().unwrap(), r);
        }
        assert!("gobang-ish".parse::<Rule>().is_err());
    }
}
