//! The threat classes of a point as an input of the network: one more row of features per point,
//! beside its four line shapes.
//!
//! An empty point's row is chosen by the pair of its [`Pattern4`](crate::pattern::Pattern4) classes, Black's and
//! White's ([`Board::threat`]): what each colour would make by playing there, the four lines
//! combined (a four and a free three, two free threes, and for renju Black a forbidden
//! overline or double four, or a double three the board has not confirmed yet). The line
//! shapes see each line alone; these classes are how the lines combine, which decides most
//! tactics. Every stone shares one row. The classes of a point depend on the eleven points
//! centred on it along each line ([`crate::pattern::HALF`] each side), so a move changes them
//! only there.

use crate::board::Board;
use crate::pattern::NUM_PATTERN4;
use crate::types::{Color, Pos};

/// Points on each side of a point whose stones its classes depend on.
pub const REACH: usize = crate::pattern::HALF;
/// Number of threat rows: one per pair of classes, and one for a stone.
pub const NUM_THREATS: usize = NUM_PATTERN4 * NUM_PATTERN4 + 1;
/// The row of every stone.
pub const STONE: u16 = (NUM_PATTERN4 * NUM_PATTERN4) as u16;

/// The threat row of `p` (below [`NUM_THREATS`]).
#[inline]
#[must_use]
pub fn threat_index(board: &Board, p: Pos) -> u16 {
    if !board.is_empty(p) {
        return STONE;
    }
    let b = board.threat(p, Color::Black) as usize;
    let w = board.threat(p, Color::White) as usize;
    (b * NUM_PATTERN4 + w) as u16
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::Pattern4;
    use crate::types::Rule;
    use crate::Game;

    fn board(rule: Rule, moves: &str) -> Board {
        Game::from_position(15, rule, moves)
            .expect("position")
            .board()
            .clone()
    }

    fn at(b: &Board, s: &str) -> Pos {
        crate::notation::parse_pos(s, b.size()).expect("point")
    }

    #[test]
    fn a_point_is_indexed_by_both_colours_classes() {
        // black h8 i8 j8 (a three), white h9 i9 (a two)
        let b = board(Rule::Freestyle, "h8 h9 i8 i9 j8");
        let k8 = at(&b, "k8");
        let want = Pattern4::Flex4 as usize * NUM_PATTERN4 + b.threat(k8, Color::White) as usize;
        assert_eq!(usize::from(threat_index(&b, k8)), want);
        assert_eq!(threat_index(&b, at(&b, "h8")), STONE);
        assert_eq!(threat_index(&b, at(&b, "h9")), STONE);
        for p in b.points() {
            assert!(usize::from(threat_index(&b, p)) < NUM_THREATS);
        }
    }

    #[test]
    fn a_renju_double_four_is_its_own_class() {
        // black h8 h9 h10 and i7 j7 k7 ... a point making two fours for Black
        let b = board(Rule::Renju, "h8 a1 h9 a3 h10 a5 i7 a7 j7 a9 k7 a11");
        let h7 = at(&b, "h7");
        let class = usize::from(threat_index(&b, h7)) / NUM_PATTERN4;
        assert_eq!(class, Pattern4::Forbid as usize);
        let f = board(Rule::Freestyle, "h8 a1 h9 a3 h10 a5 i7 a7 j7 a9 k7 a11");
        let class = usize::from(threat_index(&f, h7)) / NUM_PATTERN4;
        assert_eq!(class, Pattern4::Flex4 as usize);
    }
}
