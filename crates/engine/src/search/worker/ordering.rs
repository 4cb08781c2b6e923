//! Move ordering in the tree: the TT move first, killers, the history of each colour (and,
//! as a parameter, its counter-move history) and a bonus near the last two moves; Lazy SMP
//! helpers add a tie salt.

use super::Worker;
use crate::search::movegen::ScoredMove;
use crate::types::{Color, Pos, MAX_SIZE, NUM_CELLS};
use std::sync::atomic::{AtomicI32, Ordering};

/// What the search's move ordering at a node depends on besides the history.
pub(super) struct MoveOrdering {
    pub(super) tt_move: Pos,
    pub(super) killers: [Pos; 2],
    pub(super) own_last: Option<Pos>,
    pub(super) their_last: Option<Pos>,
}

/// The history of both colours, per point (atomics with relaxed loads and stores: a lost
/// update only blurs an ordering hint).
///
/// Each thread has its own. A thread joining a shared node of Young Brothers Wait copies the
/// owner's, so that it orders and reduces the node's moves as the owner would; what it learns
/// there stays its own. One table shared by the threads (`shared_history`) costs the pair
/// 0.5-2% of their nodes/s for as many nodes (2-thread bench ratio over 135 interleaved single
/// runs: mean 1.491x, against 1.514x with the copy).
pub(crate) struct History(pub(super) [[AtomicI32; NUM_CELLS]; 2]);

impl History {
    pub(crate) fn new() -> History {
        History(std::array::from_fn(|_| {
            std::array::from_fn(|_| AtomicI32::new(0))
        }))
    }

    /// Overwrites this history's values at the points of `cells` (indices) with `other`'s.
    pub(super) fn copy_from(&self, other: &History, cells: std::ops::Range<usize>) {
        for (mine, theirs) in self.0.iter().zip(&other.0) {
            for (m, t) in mine[cells.clone()].iter().zip(&theirs[cells.clone()]) {
                m.store(t.load(Ordering::Relaxed), Ordering::Relaxed);
            }
        }
    }
}

impl Worker<'_> {
    /// Adds the search's ordering terms to the scores of a generated list: the TT move first,
    /// killer and history bonuses (the history of `us`, the side to move), a bonus near the
    /// last two moves, and the helpers' tie salt.
    pub(super) fn order(&self, list: &mut [ScoredMove], o: &MoveOrdering, us: Color) {
        let hist = &self.history.0[us.index()];
        let (near_bonus, killer_bonus) = (self.params.near_last_bonus, self.params.killer_bonus);
        let history_divisor = self.params.history_divisor;
        let own_last = o.own_last.map_or(NO_INDEX, Pos::index);
        let their_last = o.their_last.map_or(NO_INDEX, Pos::index);
        let counter_pct = self.params.counter_history_pct;
        let counter = (counter_pct > 0 && self.counter.used())
            .then_some(o.their_last)
            .flatten();
        for m in list.iter_mut() {
            if m.pos == o.tt_move {
                m.score = i32::MAX;
                continue;
            }
            let i = m.pos.index();
            let mut score = m.score;
            if m.pos == o.killers[0] || m.pos == o.killers[1] {
                score += killer_bonus;
            }
            let mut h = hist[i % NUM_CELLS].load(Ordering::Relaxed);
            if let Some(prev) = counter {
                h += self.counter.get(us, Some(prev), m.pos) * counter_pct / 100;
            }
            score += h / history_divisor;
            // play happens near the last moves: 3 - d at Chebyshev distance d <= 2
            score += near_bonus * near_factor(their_last, i).max(near_factor(own_last, i));
            m.score = score;
        }
        if self.salt > 0 {
            // Lazy SMP helpers order ties differently, so that the threads spread over the tree
            let salt = self.salt;
            for m in list.iter_mut().filter(|m| m.pos != o.tt_move) {
                let h = (m.pos.index() as u64 ^ salt).wrapping_mul(0x2545_F491_4F6C_DD1D);
                m.score += (h >> 59) as i32;
            }
        }
    }
}

/// The counter-move history of one thread: for each colour, the value of each move as the
/// answer to each move of the opponent before it, kept as the history is (a bonus for the best
/// move of a node, a malus for the others searched there, pulled towards `±HIST_MAX`). Empty
/// (and never read or written) when the search's parameters leave it out.
pub(super) struct CounterHistory(Vec<i16>);

/// Board points as the counter-move history counts them (`x + y * MAX_SIZE`).
const CH_POINTS: usize = MAX_SIZE * MAX_SIZE;

impl CounterHistory {
    pub(super) fn new(used: bool) -> CounterHistory {
        CounterHistory(if used {
            vec![0; 2 * CH_POINTS * CH_POINTS]
        } else {
            Vec::new()
        })
    }

    /// Whether the table is kept.
    #[inline]
    pub(super) fn used(&self) -> bool {
        !self.0.is_empty()
    }

    #[inline]
    fn slot(us: Color, prev: Pos, m: Pos) -> usize {
        let point = |p: Pos| p.x() + p.y() * MAX_SIZE;
        (us.index() * CH_POINTS + point(prev)) * CH_POINTS + point(m)
    }

    /// The value of `m` played by `us` after the opponent's `prev` (0 without a table or a
    /// previous move).
    #[inline]
    pub(super) fn get(&self, us: Color, prev: Option<Pos>, m: Pos) -> i32 {
        match prev {
            Some(prev) if self.used() => i32::from(self.0[Self::slot(us, prev, m)]),
            _ => 0,
        }
    }

    /// Pulls the value of `m` after `prev` by `bonus` (either sign) towards `±HIST_MAX`.
    #[inline]
    pub(super) fn update(&mut self, us: Color, prev: Pos, m: Pos, bonus: i32) {
        let h = &mut self.0[Self::slot(us, prev, m)];
        let v = i32::from(*h);
        *h = (v + bonus - v * bonus.abs() / HIST_MAX) as i16;
    }
}

/// The bound of history values (either sign).
pub(super) const HIST_MAX: i32 = 16384;
/// The largest history bonus or malus of one node.
pub(super) const HIST_BONUS_MAX: i32 = 2048;

/// Largest index difference of two points within Chebyshev distance 2 (two rows and two
/// columns).
const NEAR_SPAN: usize = 2 * crate::types::STRIDE + 2;

/// `3 - d` for the points at Chebyshev distance `d <= 2`, by index difference (offset by
/// [`NEAR_SPAN`]); 0 elsewhere. Two board points a column difference of at most
/// `MAX_SIZE - 1 < STRIDE - 2` apart can only have such an index difference when they are that
/// close.
const NEAR_FACTOR: [i32; 2 * NEAR_SPAN + 1] = {
    assert!(crate::types::MAX_SIZE - 1 < crate::types::STRIDE - 2);
    let mut t = [0i32; 2 * NEAR_SPAN + 1];
    let s = crate::types::STRIDE as i32;
    let mut dy = -2i32;
    while dy <= 2 {
        let mut dx = -2i32;
        while dx <= 2 {
            let ax = if dx < 0 { -dx } else { dx };
            let ay = if dy < 0 { -dy } else { dy };
            let d = if ax > ay { ax } else { ay };
            t[(NEAR_SPAN as i32 + dy * s + dx) as usize] = 3 - d;
            dx += 1;
        }
        dy += 1;
    }
    t
};

/// A point index standing for "no point" in [`near_factor`].
const NO_INDEX: usize = usize::MAX / 2;

/// `3 - d` for the points of indices `a` and `b` at Chebyshev distance `d <= 2`, otherwise 0
/// (also when `a` is [`NO_INDEX`]); a table lookup.
#[inline]
fn near_factor(a: usize, b: usize) -> i32 {
    let k = (b + NEAR_SPAN).wrapping_sub(a);
    NEAR_FACTOR.get(k).copied().unwrap_or(0)
}

/// The Chebyshev (king-move) distance of two points.
#[inline]
pub(super) fn chebyshev(a: Pos, b: Pos) -> i32 {
    let dx = (a.x() as i32 - b.x() as i32).abs();
    let dy = (a.y() as i32 - b.y() as i32).abs();
    dx.max(dy)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_copy_takes_every_value_of_both_colours() {
        let (a, b) = (History::new(), History::new());
        for c in 0..2 {
            for (i, h) in b.0[c].iter().enumerate() {
                h.store(i as i32 * if c == 0 { 1 } else { -3 }, Ordering::Relaxed);
            }
        }
        a.0[1][5].store(77, Ordering::Relaxed);
        a.0[0][40].store(9, Ordering::Relaxed);
        a.copy_from(&b, 0..NUM_CELLS);
        for c in 0..2 {
            for (x, y) in a.0[c].iter().zip(&b.0[c]) {
                assert_eq!(x.load(Ordering::Relaxed), y.load(Ordering::Relaxed));
            }
        }
        assert_eq!(a.0[1][5].load(Ordering::Relaxed), -15);
        // a range leaves the values outside it alone
        let c = History::new();
        c.0[0][40].store(9, Ordering::Relaxed);
        c.copy_from(&b, 10..20);
        assert_eq!(c.0[0][40].load(Ordering::Relaxed), 9);
        assert_eq!(c.0[1][12].load(Ordering::Relaxed), -36);
        assert_eq!(c.0[1][9].load(Ordering::Relaxed), 0);
    }

    #[test]
    fn counter_history_is_kept_per_colour_and_previous_move() {
        let (a, b, m) = (Pos::new(7, 7), Pos::new(21, 21), Pos::new(8, 8));
        let mut ch = CounterHistory::new(true);
        assert_eq!(ch.get(Color::Black, Some(a), m), 0);
        ch.update(Color::Black, a, m, 2048);
        assert_eq!(ch.get(Color::Black, Some(a), m), 2048);
        // other colours, other previous moves and no previous move read nothing
        assert_eq!(ch.get(Color::White, Some(a), m), 0);
        assert_eq!(ch.get(Color::Black, Some(b), m), 0);
        assert_eq!(ch.get(Color::Black, None, m), 0);
        // the gravity keeps values within the bound, either way
        for _ in 0..200 {
            ch.update(Color::White, b, m, HIST_BONUS_MAX);
            ch.update(Color::Black, a, m, -HIST_BONUS_MAX);
        }
        let (w, k) = (
            ch.get(Color::White, Some(b), m),
            ch.get(Color::Black, Some(a), m),
        );
        assert!((HIST_MAX * 9 / 10 + 1..=HIST_MAX).contains(&w), "{w}");
        assert!((-HIST_MAX..-HIST_MAX * 9 / 10).contains(&k), "{k}");
        // a table left out reads 0 everywhere
        let off = CounterHistory::new(false);
        assert!(!off.used());
        assert_eq!(off.get(Color::Black, Some(a), m), 0);
    }

    #[test]
    fn near_factor_matches_chebyshev() {
        let size = crate::types::MAX_SIZE;
        for a in 0..size * size {
            for b in 0..size * size {
                let (pa, pb) = (Pos::new(a % size, a / size), Pos::new(b % size, b / size));
                let d = chebyshev(pa, pb);
                let want = if d <= 2 { 3 - d } else { 0 };
                assert_eq!(near_factor(pa.index(), pb.index()), want, "{pa:?} {pb:?}");
                assert_eq!(near_factor(NO_INDEX, pb.index()), 0);
            }
        }
    }
}
