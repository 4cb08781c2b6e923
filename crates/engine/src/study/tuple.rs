//! The five-tuple evaluation of classic student engines.
//!
//! Every run of five consecutive points (a "tuple", in the four directions) that holds stones of
//! one colour only is worth a fixed amount that grows with the number of stones in it; tuples
//! holding both colours, or none, are worth nothing. The side to move's tuples count more than
//! the opponent's, since it moves first. Recomputed from scratch at every call: a baseline, not a
//! contender.

use super::Evaluator;
use crate::board::Board;
use crate::search::score::{Score, WIN_MIN};
use crate::types::{Cell, Color, Pos};

/// Value of a tuple holding `k` stones of the side to move and none of the opponent's.
pub const TUPLE_SELF: [Score; 5] = [0, 2, 15, 120, 2500];
/// Value (subtracted) of a tuple holding `k` stones of the opponent and none of the mover's.
pub const TUPLE_OPPO: [Score; 5] = [0, 1, 10, 80, 500];

/// Five-tuple scoring (see the module documentation).
#[derive(Clone, Copy, Debug, Default)]
pub struct TupleEval;

/// Directions as (dx, dy) with y from the top.
const DIRS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

impl TupleEval {
    /// The raw sum for `us`: own tuples with [`TUPLE_SELF`], the opponent's with [`TUPLE_OPPO`].
    #[must_use]
    pub fn score_for(board: &Board, us: Color) -> Score {
        let n = board.size();
        // 0 empty, 1 us, 2 them: one read per point, then only array work
        let mut grid = vec![0u8; n * n];
        for y in 0..n {
            for x in 0..n {
                grid[y * n + x] = match board.cell(Pos::new(x, y)) {
                    Cell::Stone(c) if c == us => 1,
                    Cell::Stone(_) => 2,
                    _ => 0,
                };
            }
        }
        let inside = |x: isize, y: isize| x >= 0 && y >= 0 && (x as usize) < n && (y as usize) < n;
        let mut total: i64 = 0;
        let mut line = Vec::with_capacity(n);
        for (dx, dy) in DIRS {
            for y0 in 0..n as isize {
                for x0 in 0..n as isize {
                    // only start at the first point of each line
                    if inside(x0 - dx, y0 - dy) {
                        continue;
                    }
                    line.clear();
                    let (mut x, mut y) = (x0, y0);
                    while inside(x, y) {
                        line.push(grid[y as usize * n + x as usize]);
                        x += dx;
                        y += dy;
                    }
                    if line.len() < 5 {
                        continue;
                    }
                    let mut count = [0usize; 3];
                    for &c in &line[..5] {
                        count[c as usize] += 1;
                    }
                    for i in 0..=line.len() - 5 {
                        if i > 0 {
                            count[line[i - 1] as usize] -= 1;
                            count[line[i + 4] as usize] += 1;
                        }
                        let (own, opp) = (count[1], count[2]);
                        if own > 0 && opp == 0 {
                            total += i64::from(TUPLE_SELF[own.min(4)]);
                        } else if opp > 0 && own == 0 {
                            total -= i64::from(TUPLE_OPPO[opp.min(4)]);
                        }
                    }
                }
            }
        }
        let bound = i64::from(WIN_MIN - 1);
        total.clamp(-bound, bound) as Score
    }
}

impl Evaluator for TupleEval {
    fn name(&self) -> &'static str {
        "tuple"
    }
    fn evaluate(&self, board: &Board) -> Score {
        TupleEval::score_for(board, board.to_move())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;
    use crate::Game;

    fn eval(size: usize, moves: &str) -> Score {
        let g = Game::from_position(size, Rule::Freestyle, moves).expect("valid position");
        TupleEval.evaluate(g.board())
    }

    #[test]
    fn empty_board_is_zero() {
        assert_eq!(eval(15, ""), 0);
    }

    #[test]
    fn one_centre_stone_counts_every_tuple_through_it() {
        // after h8 White is to move; Black's stone lies in 5 tuples per direction
        assert_eq!(eval(15, "h8"), -(20 * TUPLE_OPPO[1]));
        // a corner stone lies in one tuple per direction except the anti-diagonal (too short)
        assert_eq!(eval(15, "a1"), -(3 * TUPLE_OPPO[1]));
    }

    #[test]
    fn two_in_a_row_and_a_blocked_tuple() {
        // Black h8 i8, Black to move. Horizontal: 4 tuples hold both (starts e8..h8), one each
        // holds only h8 (d8) or only i8 (i8); the other three directions: 5 tuples per stone.
        let expected = 4 * TUPLE_SELF[2] + 2 * TUPLE_SELF[1] + 30 * TUPLE_SELF[1];
        assert_eq!(eval(15, "h8 -- i8 --"), expected);
        // a white stone between them makes the shared tuples mixed: worth nothing
        let mixed = eval(15, "h8 j8 i8 --");
        assert!(mixed < expected, "{mixed} {expected}");
    }

    #[test]
    fn symmetric_between_colours() {
        // the same stones with the colours exchanged score the same for the exchanged side
        let a = Game::from_position(15, Rule::Freestyle, "h8 i9 h9").expect("valid");
        let b = Game::from_position(15, Rule::Freestyle, "-- h8 i9 h9").expect("valid");
        assert_eq!(
            TupleEval::score_for(a.board(), Color::Black),
            TupleEval::score_for(b.board(), Color::White)
        );
        assert_ne!(TupleEval::score_for(a.board(), Color::Black), 0);
    }
}
