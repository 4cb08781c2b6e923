//! The neural evaluation (NNUE): a small network over the line shapes of every point, updated
//! incrementally as stones are played and taken back.
//!
//! The network, per rule:
//!
//! ```text
//! F(p)   = bias + sum over the 4 lines d through p of M[shape(p, d)]     (FEAT numbers a point)
//!               + M[threat(p)]
//! a(p)   = clamp(F(p), 0, 1)
//! P      = sum over the board's points of a(p)                            (pooling)
//! x      = clamp(s * P + t, 0, 1)                                         (per feature)
//! value  = W3 clamp(W2 clamp(W1 x + b1) + b2) + b3 -> win, draw, loss     (one head per side to move)
//! policy = q . a(p) for every empty point p, q = Wq x + bq                (one head per side to move)
//! ```
//!
//! `shape(p, d)` is the class of the nine points centred on `p` along line `d` ([`shape`]);
//! `threat(p)` the pair of threat classes of an empty point, Black's and White's, or the row
//! every stone shares ([`threat`]). Stones and empty points both have features. A stone changes
//! the shapes of at most 33 (point, line) pairs and the threat classes of the points within
//! five steps on its four lines, so make and unmake update only those points' `F` and their
//! share of `P` ([`Accumulator`]). Inference is integer arithmetic ([`model`]): `F` in 16 bits (128 for
//! 1.0), the dense layers in 8 bits, with AVX2 kernels where the CPU has them and a portable
//! path that gives the same numbers ([`simd`]). [`float`] is the same network in floating point,
//! with its gradients, for the training, and turns into the integer one.
//!
//! The value the search uses is `K * (logit(win) - logit(loss))`: the logistic scale `K` of the
//! tables ([`Network::score_scale`]), so that the search's margins keep their meaning.

mod accumulator;
pub mod float;
pub mod model;
pub mod shape;
pub mod simd;
pub mod threat;

pub use accumulator::Accumulator;
pub use model::{Network, NnueError, NnueModel};

/// Rows of the feature table `M`: one per shape class, then one per threat row.
pub const NUM_ROWS: usize = shape::NUM_SHAPES + threat::NUM_THREATS;
/// Rows of `M` in a point's `F`: its four line shapes and its threat row.
pub const ROWS_PER_POINT: usize = 5;

/// The rows of `M` that make up `F(p)` on `board`: the shape class of each line, then the
/// threat row (after the shape rows).
#[inline]
#[must_use]
pub fn point_rows(board: &crate::Board, p: crate::Pos) -> [u16; ROWS_PER_POINT] {
    let mut r = [0u16; ROWS_PER_POINT];
    for d in crate::Dir::ALL {
        r[d.index()] = shape::shape_index(board.shape_key(p, d));
    }
    r[4] = threat_row(threat::threat_index(board, p));
    r
}

/// The row of `M` of threat row `t`.
#[inline]
#[must_use]
pub fn threat_row(t: u16) -> u16 {
    shape::NUM_SHAPES as u16 + t
}

/// Features of a point (the width of `F`).
pub const FEAT: usize = 32;
/// Width of the value head's first hidden layer.
pub const H1: usize = 32;
/// Width of the value head's second hidden layer.
pub const H2: usize = 32;
/// Outputs of the value head: win, draw, loss (for the side to move).
pub const OUT: usize = 3;

/// `F` and `a` are stored times this (so `a` is 0 to 128, and the pooled sum of a board's
/// points fits 16 unsigned bits).
pub const QA: i32 = 128;
/// Inputs of a dense layer are stored times this (0 to 127).
pub const QX: i32 = 127;
/// Weights of a dense layer are stored times this.
pub const QW: i32 = 64;
/// The largest weight of a dense layer (what 8 bits hold at scale [`QW`]).
pub const MAX_DENSE_WEIGHT: f32 = 127.0 / QW as f32;
/// The largest weight of a row of `M` ([`ROWS_PER_POINT`] of them and the bias must stay
/// inside 16 bits at [`QA`]).
pub const MAX_SHAPE_WEIGHT: f32 = 24.0;

/// The rules that have networks, in the model file's order.
pub const NET_RULES: [crate::Rule; 3] = [
    crate::Rule::Freestyle,
    crate::Rule::Standard,
    crate::Rule::Renju,
];

/// The slot of `rule` in [`NET_RULES`], if it has one.
#[must_use]
pub fn net_slot(rule: crate::Rule) -> Option<usize> {
    NET_RULES.iter().position(|&r| r == rule)
}
