//! Move generation and ordering scores.
//!
//! Three kinds of lists, chosen by the searcher from the threat situation:
//! - [`gen_all`]: every empty point near a stone;
//! - [`gen_defence`]: when the opponent can make a straight four (or a double four) next move:
//!   the points on the lines of those threats, plus our own fours (counter-attacks);
//! - [`gen_fours`]: our moves that make a four (for threat searches).
//!
//! Under renju, Black's forbidden points are never generated. Scores come from the threat
//! classes of both colours (attack and defence) via the evaluation tables.

use crate::board::Board;
use crate::pattern::{Pattern, Pattern4};
use crate::types::{Color, Dir, Pos};
use std::ops::ControlFlow;

/// A move with its ordering score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredMove {
    /// The point.
    pub pos: Pos,
    /// Ordering score (higher first).
    pub score: i32,
}

/// The threat class `us` gets at `p`, with renju Black's double threes decided (forbidden
/// points come back as [`Pattern4::Forbid`]).
#[inline]
pub fn own_class(board: &mut Board, p: Pos, us: Color) -> Pattern4 {
    let t = board.threat(p, us);
    if t == Pattern4::Flex3x2 {
        board.resolved_threat(p, us)
    } else {
        t
    }
}

/// Ordering score of `us` playing `p` whose own class is `class`.
#[inline]
pub fn order_score(board: &Board, p: Pos, us: Color, class: Pattern4) -> i32 {
    let t = board.tables();
    let them = us.opponent();
    let att = if class == board.threat(p, us) {
        t.attack[us.index()][board.pcode(p, us)]
    } else {
        t.params.attack_score[class as usize]
    };
    att + t.defend[them.index()][board.pcode(p, them)]
}

/// Every empty point near a stone that `us` may play, scored.
pub fn gen_all(board: &mut Board, us: Color, out: &mut Vec<ScoredMove>) {
    out.clear();
    let t = board.tables();
    let (attack, defend) = (
        &t.attack[us.index()][..],
        &t.defend[us.opponent().index()][..],
    );
    // One pass scores every point whose class is known; renju Black's possible double threes
    // need `&mut Board` to be decided, so they keep a place in the list and are settled after.
    let mut undecided = false;
    board.for_each_candidate(|p| {
        let class = board.threat(p, us);
        let score = match class {
            Pattern4::Forbid => return,
            Pattern4::Flex3x2 => {
                undecided = true;
                0
            }
            // the pcodes of both colours, as in `order_score` when the class is the board's
            _ => attack[board.pcode(p, us)] + defend[board.pcode(p, us.opponent())],
        };
        out.push(ScoredMove { pos: p, score });
    });
    if undecided {
        out.retain_mut(|m| {
            if board.threat(m.pos, us) != Pattern4::Flex3x2 {
                return true;
            }
            let class = own_class(board, m.pos, us);
            m.score = order_score(board, m.pos, us, class);
            class != Pattern4::Forbid
        });
    }
}

/// Points where `color` has a class of at least `min` (scanning the candidate area).
pub fn find_class(board: &Board, color: Color, min: Pattern4, out: &mut Vec<Pos>) {
    out.clear();
    board.for_each_candidate(|p| {
        if board.threat(p, color) >= min {
            out.push(p);
        }
    });
}

/// The defence list when `them` threatens a straight four or double four next move: the
/// threat points themselves, every empty point within four steps on their lines, and all of
/// `us`'s fours.
pub fn gen_defence(board: &mut Board, us: Color, out: &mut Vec<ScoredMove>) {
    gen_defence_against(board, us, Pattern4::Flex4, out);
}

/// The defence list against `them`'s points of threat class `class`: for straight-four threats
/// ([`Pattern4::Flex4`]) the lines of the fours, for four-three threats
/// ([`Pattern4::Block4Flex3`]) the lines of the four and of the three; plus all of `us`'s fours.
pub fn gen_defence_against(
    board: &mut Board,
    us: Color,
    class: Pattern4,
    out: &mut Vec<ScoredMove>,
) {
    out.clear();
    let min_line = if class == Pattern4::Flex4 {
        Pattern::B4
    } else {
        Pattern::F3
    };
    let them = us.opponent();
    // points collected so far, deduplicated with a small bitset over the padded board
    let mut seen = [0u64; crate::types::NUM_CELLS / 64];
    let mut pts: [Pos; 512] = [Pos::NONE; 512];
    let mut n = 0;
    let mut add = |q: Pos, pts: &mut [Pos; 512], n: &mut usize| {
        let i = q.index();
        if seen[i / 64] & (1 << (i % 64)) == 0 && *n < 512 {
            seen[i / 64] |= 1 << (i % 64);
            pts[*n] = q;
            *n += 1;
        }
    };
    // (the scans stop once they have found as many points as the board counts)
    let mut threats: [Pos; 64] = [Pos::NONE; 64];
    let max_threats = (board.threat_count(them, class) as usize).min(threats.len());
    let mut nt = 0;
    if max_threats > 0 {
        let _: ControlFlow<()> = board.try_for_each_candidate(|p| {
            if board.threat(p, them) == class {
                threats[nt] = p;
                nt += 1;
                if nt == max_threats {
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        });
    }
    for &t in &threats[..nt] {
        add(t, &mut pts, &mut n);
        for d in Dir::ALL {
            // only the lines that make the threat
            if board.pattern(t, them, d) < min_line {
                continue;
            }
            for k in 1..=4 {
                for q in [t.step(d, k), t.step(d, -k)] {
                    if board.is_empty(q) {
                        add(q, &mut pts, &mut n);
                    }
                }
            }
        }
    }
    let mut fours = board.threat_count_at_least(us, Pattern4::Block4);
    if fours > 0 {
        let _: ControlFlow<()> = board.try_for_each_candidate(|p| {
            if board.threat(p, us) >= Pattern4::Block4 {
                add(p, &mut pts, &mut n);
                fours -= 1;
                if fours == 0 {
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        });
    }
    for &p in &pts[..n] {
        let class = own_class(board, p, us);
        if class == Pattern4::Forbid {
            continue;
        }
        out.push(ScoredMove {
            pos: p,
            score: order_score(board, p, us, class),
        });
    }
}

/// `us`'s moves that make a four (not five, not forbidden), scored.
pub fn gen_fours(board: &mut Board, us: Color, out: &mut Vec<ScoredMove>) {
    out.clear();
    let mut pts: Vec<Pos> = Vec::with_capacity(16);
    board.for_each_candidate(|p| {
        let t = board.threat(p, us);
        if (Pattern4::Block4..Pattern4::Five).contains(&t) || t == Pattern4::Flex3x2 {
            pts.push(p);
        }
    });
    for p in pts {
        let class = own_class(board, p, us);
        if !(Pattern4::Block4..Pattern4::Five).contains(&class) {
            continue;
        }
        out.push(ScoredMove {
            pos: p,
            score: order_score(board, p, us, class),
        });
    }
}

/// Moves the best-scored move of `moves[i..]` (the first of equal ones) to position `i`, swapping
/// it with the move there (selection step: most nodes look at only a few moves, so sorting
/// lazily is cheaper than sorting everything).
#[inline]
pub fn pick_best(moves: &mut [ScoredMove], i: usize) {
    // the best score (a pass the compiler vectorises), then the first move that has it
    let rest = &moves[i..];
    if let Some(top) = rest.iter().map(|m| m.score).max() {
        let best = rest.iter().position(|m| m.score == top);
        moves.swap(i, i + best.expect("some move has the best score"));
    }
}

/// Sorts moves by descending score (stable, insertion sort: lists are short and nearly sorted).
pub fn sort_moves(moves: &mut [ScoredMove]) {
    for i in 1..moves.len() {
        let m = moves[i];
        let mut j = i;
        while j > 0 && moves[j - 1].score < m.score {
            moves[j] = moves[j - 1];
            j -= 1;
        }
        moves[j] = m;
    }
}

/// The point on one of `p`'s lines (within four steps) where `color` makes five, if any.
pub fn five_point_near(board: &Board, p: Pos, color: Color) -> Option<Pos> {
    for d in Dir::ALL {
        for k in 1..=4 {
            for q in [p.step(d, k), p.step(d, -k)] {
                if board.is_empty(q) && board.threat(q, color) == Pattern4::Five {
                    return Some(q);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pick_best_takes_the_first_of_equal_scores() {
        let scores = [3, 9, 1, 9, 4, 9, 0, 4];
        let mut moves: Vec<ScoredMove> = scores
            .iter()
            .enumerate()
            .map(|(k, &score)| ScoredMove {
                pos: Pos(k as u16),
                score,
            })
            .collect();
        for i in 0..moves.len() {
            pick_best(&mut moves, i);
        }
        let order: Vec<u16> = moves.iter().map(|m| m.pos.0).collect();
        // the first of equal scores comes first, as a scan with a strict `>` picks it
        assert_eq!(order, [1, 3, 5, 4, 7, 0, 2, 6]);
    }
}
