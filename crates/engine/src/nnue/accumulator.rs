//! The network's state for one position, kept incrementally: every point's features `F` and
//! their pooled sum `P`, with a stack to take moves back.

use super::model::Network;
use super::shape::{self, REACH};
#[cfg(target_arch = "x86_64")]
use super::simd::Avx2;
use super::simd::{has_avx2, Kernels, Pooled, Portable, Row};
use super::threat::{self, threat_index};
use super::{point_rows, threat_row, FEAT};
use crate::board::Board;
use crate::search::movegen::ScoredMove;
use crate::types::{Color, Dir, Pos, NUM_CELLS};

/// What [`Accumulator::make`] changed, for [`Accumulator::unmake`].
#[derive(Clone, Copy)]
struct Frame {
    saved_start: u32,
    threats_start: u32,
    pooled: Pooled,
}

/// The network's features of a position, updated by [`Accumulator::make`] and
/// [`Accumulator::unmake`] as the board's stones change (passes change nothing).
#[derive(Clone)]
pub struct Accumulator {
    net: &'static Network,
    /// Whether the AVX2 kernels run (else the portable ones).
    avx2: bool,
    /// Whether the network's threat rows are not all zero: without them a move changes only
    /// the shapes of the points within four steps, and the threat rows are not followed.
    threats: bool,
    /// `F` of every point, by padded index (off-board points unused).
    feat: Box<[Row; NUM_CELLS]>,
    /// The threat row of every point ([`threat_index`]), by padded index.
    threat: Box<[u16; NUM_CELLS]>,
    /// `P`: the sum of `clamp(F, 0, QA)` over the board's points.
    pooled: Pooled,
    /// The old `F` of the points the moves on the stack changed, with their indices.
    saved_rows: Vec<Row>,
    saved_at: Vec<u16>,
    /// The old threat rows of the points the moves on the stack changed, with their indices.
    saved_threats: Vec<(u16, u16)>,
    frames: Vec<Frame>,
}

impl std::fmt::Debug for Accumulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Accumulator")
            .field("pooled", &self.pooled)
            .field("depth", &self.frames.len())
            .finish_non_exhaustive()
    }
}

impl Accumulator {
    /// The state of `board`'s position under `net`.
    #[must_use]
    pub fn new(net: &'static Network, board: &Board) -> Accumulator {
        Accumulator::with_kernels(net, board, has_avx2())
    }

    /// [`Accumulator::new`] with the AVX2 kernels only when `avx2` (and the CPU has them):
    /// for tests of the portable path.
    #[must_use]
    pub fn with_kernels(net: &'static Network, board: &Board, avx2: bool) -> Accumulator {
        let mut a = Accumulator {
            net,
            avx2: avx2 && has_avx2(),
            threats: net.rows[shape::NUM_SHAPES..]
                .iter()
                .any(|r| *r != Row::ZERO),
            feat: Box::new([Row::ZERO; NUM_CELLS]),
            threat: Box::new([threat::STONE; NUM_CELLS]),
            pooled: Pooled([0; FEAT]),
            saved_rows: Vec::with_capacity(64 * 40),
            saved_at: Vec::with_capacity(64 * 40),
            saved_threats: Vec::with_capacity(64 * 40),
            frames: Vec::with_capacity(256),
        };
        a.refresh(board);
        a
    }

    /// Recomputes everything from `board` (and forgets the moves to take back).
    pub fn refresh(&mut self, board: &Board) {
        self.frames.clear();
        self.saved_rows.clear();
        self.saved_at.clear();
        self.saved_threats.clear();
        self.pooled = Pooled([0; FEAT]);
        for p in board.points() {
            let f = features_of(self.net, board, p);
            Portable::pool_delta(&mut self.pooled, &f, &Row::ZERO);
            self.feat[p.index()] = f;
            self.threat[p.index()] = threat_index(board, p);
        }
    }

    /// The network.
    #[must_use]
    pub fn net(&self) -> &'static Network {
        self.net
    }

    /// Follows the stone just played on `p` (`board` is the position after it).
    #[inline]
    pub fn make(&mut self, board: &Board, p: Pos) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // Safety: `avx2` is set only when the CPU has AVX2.
            unsafe { self.make_avx2(board, p) };
            return;
        }
        self.make_with::<Portable>(board, p);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn make_avx2(&mut self, board: &Board, p: Pos) {
        self.make_with::<Avx2>(board, p);
    }

    #[inline(always)]
    fn make_with<K: Kernels>(&mut self, board: &Board, p: Pos) {
        self.frames.push(Frame {
            saved_start: self.saved_at.len() as u32,
            threats_start: self.saved_threats.len() as u32,
            pooled: self.pooled,
        });
        let net = self.net;
        let table = shape::table();
        let centre = 2 * REACH as u32;
        // the point itself: its centre changed on all four lines, and it holds a stone now
        let i = p.index();
        let old = self.feat[i];
        self.save(i, old);
        for d in Dir::ALL {
            let key = board.shape_key(p, d);
            update::<K>(&mut self.feat[i], net, table, key, key & !(3 << centre));
        }
        if self.threats {
            self.set_threat::<K>(i, threat::STONE);
        }
        K::pool_delta(&mut self.pooled, &self.feat[i], &old);
        let reach = if self.threats { threat::REACH } else { REACH };
        // every other point within five steps on a line through it: within four, one of its
        // shapes changed; within five, its threat classes may have
        for d in Dir::ALL {
            for k in 1..=reach as i32 {
                for s in [k, -k] {
                    let q = p.step(d, s);
                    if !board.contains(q) {
                        continue;
                    }
                    let j = q.index();
                    let old = self.feat[j];
                    let mut saved = false;
                    if k <= REACH as i32 {
                        let key = board.shape_key(q, d);
                        // `p` is `s` steps back from `q`: point 4 - s of its window
                        let before = key & !(3 << (2 * (REACH as i32 - s)) as u32);
                        self.save(j, old);
                        saved = true;
                        update::<K>(&mut self.feat[j], net, table, key, before);
                    }
                    if self.threats {
                        let t = threat_index(board, q);
                        if t != self.threat[j] {
                            if !saved {
                                self.save(j, old);
                                saved = true;
                            }
                            self.set_threat::<K>(j, t);
                        }
                    }
                    if saved {
                        K::pool_delta(&mut self.pooled, &self.feat[j], &old);
                    }
                }
            }
        }
    }

    /// Moves point `i`'s threat row to `t` in its `F` (saving the old one).
    #[inline(always)]
    fn set_threat<K: Kernels>(&mut self, i: usize, t: u16) {
        let old = self.threat[i];
        self.saved_threats.push((i as u16, old));
        self.threat[i] = t;
        let rows = &self.net.rows;
        K::update_row(
            &mut self.feat[i],
            &rows[usize::from(threat_row(t))],
            &rows[usize::from(threat_row(old))],
        );
    }

    /// Takes back the last [`Accumulator::make`].
    ///
    /// # Panics
    /// With no move to take back.
    #[inline]
    pub fn unmake(&mut self) {
        let f = self.frames.pop().expect("a move to take back");
        let start = f.saved_start as usize;
        for (row, &at) in self.saved_rows[start..].iter().zip(&self.saved_at[start..]) {
            self.feat[usize::from(at)] = *row;
        }
        self.saved_rows.truncate(start);
        self.saved_at.truncate(start);
        let start = f.threats_start as usize;
        for &(at, t) in self.saved_threats[start..].iter().rev() {
            self.threat[usize::from(at)] = t;
        }
        self.saved_threats.truncate(start);
        self.pooled = f.pooled;
    }

    /// How many moves [`Accumulator::unmake`] can take back.
    #[must_use]
    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    #[inline]
    fn save(&mut self, i: usize, row: Row) {
        self.saved_rows.push(row);
        self.saved_at.push(i as u16);
    }

    /// The dense layers' input.
    #[inline]
    #[must_use]
    pub fn input(&self) -> [u8; FEAT] {
        self.net.pooled_input(&self.pooled)
    }

    /// The value head's logits for `to_move` (times `QX * QW`).
    #[inline]
    #[must_use]
    pub fn value_logits(&self, to_move: Color) -> [i32; 3] {
        let x = self.input();
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // Safety: `avx2` is set only when the CPU has AVX2.
            return unsafe { value_avx2(self.net, &x, to_move) };
        }
        self.net.value_logits::<Portable>(&x, to_move)
    }

    /// The evaluation of the position for `to_move` (evaluation units).
    #[inline]
    #[must_use]
    pub fn evaluate(&self, to_move: Color) -> i32 {
        self.net.score_of(&self.value_logits(to_move))
    }

    /// The value head's win, draw and loss probabilities for `to_move`.
    #[must_use]
    pub fn wdl(&self, to_move: Color) -> [f32; 3] {
        let z = self.value_logits(to_move);
        softmax3(z.map(|v| v as f32 / (super::QX * super::QW) as f32))
    }

    /// The policy's query for `to_move` ([`Accumulator::policy_logit`] of each move).
    #[inline]
    #[must_use]
    pub fn policy_query(&self, to_move: Color) -> [i16; FEAT] {
        let x = self.input();
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // Safety: `avx2` is set only when the CPU has AVX2.
            return unsafe { query_avx2(self.net, &x, to_move) };
        }
        self.net.policy_query::<Portable>(&x, to_move)
    }

    /// The policy's logit of playing `p` (times `QX * QA`), for a `query` of this position.
    #[inline]
    #[must_use]
    pub fn policy_logit(&self, query: &[i16; FEAT], p: Pos) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            return Avx2::dot(query, &self.feat[p.index()]);
        }
        Portable::dot(query, &self.feat[p.index()])
    }

    /// Adds `weight / unit` times the policy's logit of each move to its score, for a `query`
    /// of this position, and returns the best logit (`i32::MIN` for no move).
    #[inline]
    pub fn add_policy(
        &self,
        query: &[i16; FEAT],
        moves: &mut [ScoredMove],
        weight: i64,
        unit: i64,
    ) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // Safety: `avx2` is set only when the CPU has AVX2.
            return unsafe { self.add_policy_avx2(query, moves, weight, unit) };
        }
        self.add_policy_with::<Portable>(query, moves, weight, unit)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn add_policy_avx2(
        &self,
        query: &[i16; FEAT],
        moves: &mut [ScoredMove],
        weight: i64,
        unit: i64,
    ) -> i32 {
        self.add_policy_with::<Avx2>(query, moves, weight, unit)
    }

    #[inline(always)]
    fn add_policy_with<K: Kernels>(
        &self,
        query: &[i16; FEAT],
        moves: &mut [ScoredMove],
        weight: i64,
        unit: i64,
    ) -> i32 {
        let mut top = i32::MIN;
        for m in moves {
            let l = K::dot(query, &self.feat[m.pos.index()]);
            top = top.max(l);
            m.score = m
                .score
                .saturating_add((i64::from(l) * weight / unit) as i32);
        }
        top
    }

    /// The features of `p` (for tests and tools).
    #[must_use]
    pub fn features(&self, p: Pos) -> &Row {
        &self.feat[p.index()]
    }

    /// The pooled sum (for tests and tools).
    #[must_use]
    pub fn pooled(&self) -> &Pooled {
        &self.pooled
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn value_avx2(net: &Network, x: &[u8; FEAT], to_move: Color) -> [i32; 3] {
    net.value_logits::<Avx2>(x, to_move)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn query_avx2(net: &Network, x: &[u8; FEAT], to_move: Color) -> [i16; FEAT] {
    net.policy_query::<Avx2>(x, to_move)
}

/// `f += M[shape(key)] - M[shape(before)]`.
#[inline(always)]
fn update<K: Kernels>(f: &mut Row, net: &Network, table: &[u16], key: u32, before: u32) {
    // Safety: keys are 18-bit numbers and the table has 4^9 entries; the keys are shapes of
    // board points, whose classes index the weights.
    let (rn, ro) = unsafe {
        let n = usize::from(*table.get_unchecked(key as usize));
        let o = usize::from(*table.get_unchecked(before as usize));
        debug_assert!(n < net.rows.len() && o < net.rows.len());
        (net.rows.get_unchecked(n), net.rows.get_unchecked(o))
    };
    K::update_row(f, rn, ro);
}

/// `F` of point `p` computed from the board.
fn features_of(net: &Network, board: &Board, p: Pos) -> Row {
    let mut f = net.bias;
    for r in point_rows(board, p) {
        Portable::update_row(&mut f, &net.rows[usize::from(r)], &Row::ZERO);
    }
    f
}

/// Probabilities of three logits.
#[must_use]
pub fn softmax3(z: [f32; 3]) -> [f32; 3] {
    let m = z[0].max(z[1]).max(z[2]);
    let e = z.map(|v| (v - m).exp());
    let s = e[0] + e[1] + e[2];
    e.map(|v| v / s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Rng, SplitMix64};
    use crate::types::Rule;

    fn random_net(seed: u64) -> &'static Network {
        let mut rng = SplitMix64::new(seed);
        let mut n = Network::zero();
        for r in &mut n.rows {
            for v in &mut r.0 {
                *v = (rng.below(601) as i32 - 300) as i16;
            }
        }
        n.bias = Row(std::array::from_fn(|k| k as i16 * 3 - 40));
        n.pool_mul = std::array::from_fn(|k| 100 + k as i32);
        for h in &mut n.value {
            for w in h.w1.iter_mut().chain(&mut h.w2).chain(&mut h.w3) {
                *w = (rng.below(255) as i32 - 127) as i8;
            }
        }
        for h in &mut n.policy {
            for w in &mut h.wq {
                *w = (rng.below(255) as i32 - 127) as i8;
            }
        }
        Box::leak(Box::new(n))
    }

    /// [`random_net`] with its threat rows zero: the shapes alone.
    fn shapes_only_net(seed: u64) -> &'static Network {
        let mut n = random_net(seed).clone();
        for r in &mut n.rows[shape::NUM_SHAPES..] {
            *r = Row::ZERO;
        }
        Box::leak(Box::new(n))
    }

    #[test]
    fn make_and_unmake_match_a_recomputation() {
        make_and_unmake_match_a_recomputation_with(random_net(3));
    }

    #[test]
    fn without_threat_rows_make_and_unmake_match_a_recomputation() {
        let net = shapes_only_net(3);
        assert!(!Accumulator::new(net, &Board::new(15, Rule::Renju).expect("board")).threats);
        make_and_unmake_match_a_recomputation_with(net);
    }

    fn make_and_unmake_match_a_recomputation_with(net: &'static Network) {
        let mut rng = SplitMix64::new(11);
        for (size, rule) in [
            (15, Rule::Freestyle),
            (5, Rule::Renju),
            (22, Rule::Standard),
        ] {
            let mut board = Board::new(size, rule).expect("board");
            let mut acc = Accumulator::new(net, &board);
            let mut history = Vec::new();
            for step in 0..200 {
                let undo = !history.is_empty() && rng.below(3) == 0;
                if undo {
                    board.undo();
                    acc.unmake();
                    history.pop();
                } else {
                    let empty: Vec<Pos> = board.points().filter(|&p| board.is_empty(p)).collect();
                    if empty.is_empty() {
                        break;
                    }
                    let p = empty[rng.below(empty.len())];
                    board.play(p);
                    acc.make(&board, p);
                    history.push(p);
                }
                let fresh = Accumulator::with_kernels(net, &board, false);
                assert_eq!(acc.pooled(), fresh.pooled(), "{size} step {step}");
                for p in board.points() {
                    assert_eq!(acc.features(p), fresh.features(p), "{p:?}");
                }
                for c in Color::BOTH {
                    assert_eq!(acc.evaluate(c), fresh.evaluate(c));
                    let (q, qf) = (acc.policy_query(c), fresh.policy_query(c));
                    assert_eq!(q, qf);
                    for p in board.points() {
                        assert_eq!(acc.policy_logit(&q, p), fresh.policy_logit(&qf, p));
                    }
                }
            }
            assert_eq!(acc.depth(), history.len());
        }
    }

    #[test]
    fn the_eight_images_of_a_position_evaluate_the_same() {
        let net = random_net(5);
        let moves = "h8 i9 j9 g7 h10 k8 i6";
        let board = crate::Game::from_position(15, Rule::Freestyle, moves)
            .expect("position")
            .board()
            .clone();
        let base = Accumulator::new(net, &board);
        for t in 0..8 {
            let mut img = Board::new(15, Rule::Freestyle).expect("board");
            for &m in board.moves() {
                img.play(board.transform(m, t));
            }
            let a = Accumulator::new(net, &img);
            assert_eq!(a.pooled(), base.pooled(), "image {t}");
            let q = a.policy_query(Color::Black);
            let q0 = base.policy_query(Color::Black);
            for p in board.points() {
                let ip = board.transform(p, t);
                assert_eq!(a.policy_logit(&q, ip), base.policy_logit(&q0, p));
            }
        }
    }
}
