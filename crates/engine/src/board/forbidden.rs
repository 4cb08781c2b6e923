//! Renju's forbidden points of Black: overline, double four and double three, the last decided
//! the way the rules say (a three counts only when it can become a straight four on a point that
//! is itself not forbidden, checked recursively).

use super::Board;
use crate::pattern::{completion_offsets, Pattern, Pattern4, HALF};
use crate::types::{Color, Dir, Pos, Rule};
use std::fmt;

/// The kinds of renju forbidden points of Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ForbiddenKind {
    /// Two (or more) real free threes made by one stone.
    DoubleThree,
    /// Two (or more) fours made by one stone (also two fours on one line).
    DoubleFour,
    /// Six or more in a row.
    Overline,
}

impl ForbiddenKind {
    /// The name used in output (`double-three`, `double-four`, `overline`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ForbiddenKind::DoubleThree => "double-three",
            ForbiddenKind::DoubleFour => "double-four",
            ForbiddenKind::Overline => "overline",
        }
    }
}

impl fmt::Display for ForbiddenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Board {
    /// Whether `p` is a renju forbidden point for Black (always `false` under other rules, for
    /// occupied points, and where Black makes five).
    pub fn is_forbidden(&mut self, p: Pos) -> bool {
        self.forbidden_kind(p).is_some()
    }

    /// The kind of renju forbidden point `p` is for Black, if any.
    ///
    /// Five takes precedence; then an overline or two fours are forbidden outright; two free
    /// threes are forbidden when at least two of them are real: a three is real when some point
    /// turns it into a straight four and that point is itself not forbidden (checked recursively
    /// with the stone on `p` in place).
    pub fn forbidden_kind(&mut self, p: Pos) -> Option<ForbiddenKind> {
        if self.rule != Rule::Renju || !self.contains(p) || !self.is_empty(p) {
            return None;
        }
        let pats = self.patterns(p, Color::Black);
        if pats.contains(&Pattern::F5) {
            return None;
        }
        if pats.contains(&Pattern::Overline) {
            return Some(ForbiddenKind::Overline);
        }
        let fours: usize = pats
            .iter()
            .map(|&x| match x {
                Pattern::B4 | Pattern::F4 => 1,
                Pattern::DoubleFourLine => 2,
                _ => 0,
            })
            .sum();
        if fours >= 2 {
            return Some(ForbiddenKind::DoubleFour);
        }
        let three_dirs: Vec<Dir> = Dir::ALL
            .into_iter()
            .filter(|d| pats[d.index()] == Pattern::F3)
            .collect();
        if three_dirs.len() < 2 {
            return None;
        }
        let keys: Vec<u32> = three_dirs.iter().map(|&d| self.window_key(p, d)).collect();
        let saved_moves = self.moves.len();
        self.put(p, Color::Black);
        let mut real = 0;
        for (&d, &key) in three_dirs.iter().zip(&keys) {
            let mask = completion_offsets(self.rule, Color::Black, key, Pattern::F4);
            let mut is_real = false;
            for bit in 0..=(2 * HALF as u32) {
                if mask & (1 << bit) == 0 {
                    continue;
                }
                let e = p.step(d, bit as i32 - HALF as i32);
                if !self.is_forbidden(e) {
                    is_real = true;
                    break;
                }
            }
            if is_real {
                real += 1;
                if real >= 2 {
                    break;
                }
            }
        }
        let st = self.plies.pop().expect("just pushed");
        self.moves.pop();
        self.take(st);
        debug_assert_eq!(self.moves.len(), saved_moves);
        (real >= 2).then_some(ForbiddenKind::DoubleThree)
    }

    /// The threat class of `p` for `color` with renju Black's possible double threes decided:
    /// [`Pattern4::Forbid`] when forbidden, otherwise the class the point really has (one of its
    /// threes does not count).
    pub fn resolved_threat(&mut self, p: Pos, color: Color) -> Pattern4 {
        let t = self.threat(p, color);
        if t != Pattern4::Flex3x2 || self.rule != Rule::Renju || color != Color::Black {
            return t;
        }
        if self.is_forbidden(p) {
            return Pattern4::Forbid;
        }
        let mut pats = self.patterns(p, color);
        if let Some(x) = pats.iter_mut().find(|x| **x == Pattern::F3) {
            *x = Pattern::B3;
        }
        let t = crate::pattern::combine(self.rule, color, pats);
        // with one three left, a remaining pair of threes cannot occur; guard anyway
        if t == Pattern4::Flex3x2 {
            Pattern4::Flex3Plus
        } else {
            t
        }
    }

    /// All forbidden points of Black with their kinds (empty unless the rule is renju).
    pub fn forbidden_points(&mut self) -> Vec<(Pos, ForbiddenKind)> {
        if self.rule != Rule::Renju {
            return Vec::new();
        }
        let pts: Vec<Pos> = self.points().collect();
        pts.into_iter()
            .filter_map(|p| self.forbidden_kind(p).map(|k| (p, k)))
            .collect()
    }
}
