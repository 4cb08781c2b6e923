//! The network in floating point, for the training: a position as the network's input
//! ([`Sample`]), the forward pass and the gradients of the loss ([`FloatNet::accumulate`]),
//! Adam steps ([`Trainer`]), and the integer network it rounds to ([`FloatNet::quantize`]).
//!
//! The loss of a position is the cross-entropy of the value head's win, draw and loss against
//! the sample's target distribution, plus `policy_weight` times the cross-entropy of the
//! policy over the empty points against the move played. Every step is deterministic: the
//! same samples in the same order give the same numbers, whatever the number of threads.

use super::model::{Network, PolicyHead, ValueHead, POOL_SHIFT};
use super::simd::Row;
use super::{
    point_rows, FEAT, H1, H2, MAX_DENSE_WEIGHT, MAX_SHAPE_WEIGHT, NUM_ROWS, OUT, QA, QW, QX,
    ROWS_PER_POINT,
};
use crate::board::Board;
use crate::rng::{Rng, SplitMix64};
use crate::types::Color;

/// One position as the network sees it, with its targets.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sample {
    /// The rows of `M` of every board point (its four line shapes and its threat row,
    /// [`point_rows`]), the board's points row by row.
    pub rows: Vec<[u16; ROWS_PER_POINT]>,
    /// The points (indices into `rows`) the side to move may play: the policy's choices.
    pub empty: Vec<u16>,
    /// Black (0) or White (1) to move.
    pub to_move: u8,
    /// The move played (an index into `rows`, one of `empty`), if the sample has one.
    pub target: Option<u16>,
    /// Win, draw and loss probabilities for the side to move.
    pub value: [f32; 3],
}

impl Sample {
    /// The sample of `board`'s position, with `target` the move played there (row by row:
    /// `y * size + x`) and `value` its win/draw/loss target for the side to move.
    #[must_use]
    pub fn from_board(board: &Board, target: Option<u16>, value: [f32; 3]) -> Sample {
        let mut s = Sample::default();
        s.fill(board, target, value);
        s
    }

    /// [`Sample::from_board`] into this sample's buffers.
    pub fn fill(&mut self, board: &Board, target: Option<u16>, value: [f32; 3]) {
        self.rows.clear();
        self.empty.clear();
        for (i, p) in board.points().enumerate() {
            self.rows.push(point_rows(board, p));
            if board.is_empty(p) {
                self.empty.push(i as u16);
            }
        }
        self.to_move = board.to_move().index() as u8;
        self.target = target;
        self.value = value;
    }
}

/// Where each part of the network lies in the flat parameter vector.
#[derive(Clone, Copy, Debug)]
struct Layout;

const SHAPES: usize = 0;
const BIAS: usize = NUM_ROWS * FEAT;
const POOL_S: usize = BIAS + FEAT;
const POOL_T: usize = POOL_S + FEAT;
const VALUE: usize = POOL_T + FEAT;
const V_W1: usize = 0;
const V_B1: usize = V_W1 + H1 * FEAT;
const V_W2: usize = V_B1 + H1;
const V_B2: usize = V_W2 + H2 * H1;
const V_W3: usize = V_B2 + H2;
const V_B3: usize = V_W3 + OUT * H2;
const V_LEN: usize = V_B3 + OUT;
const POLICY: usize = VALUE + 2 * V_LEN;
const P_WQ: usize = 0;
const P_BQ: usize = P_WQ + FEAT * FEAT;
const P_LEN: usize = P_BQ + FEAT;
/// Number of parameters.
pub const NUM_PARAMS: usize = POLICY + 2 * P_LEN;
/// The first parameter after the rows of `M` (the dense part, updated at every step).
const DENSE: usize = BIAS;

impl Layout {
    fn value(stm: usize) -> usize {
        VALUE + stm * V_LEN
    }
    fn policy(stm: usize) -> usize {
        POLICY + stm * P_LEN
    }
}

/// The network with floating-point weights.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// Every parameter (see the layout constants).
    pub w: Vec<f32>,
    /// Score units per unit of `logit(win) - logit(loss)`.
    pub score_scale: f32,
    /// Whether the activations between the dense layers (and the policy's query) are rounded
    /// to the integer network's steps, as it computes them (on, but for gradient checks).
    pub round_activations: bool,
}

/// Gradients (and counters) of a batch.
#[derive(Clone, Debug)]
pub struct Grad {
    g: Vec<f32>,
    /// The rows of `M` that have gradients.
    touched: Vec<u16>,
    mark: Vec<bool>,
    /// Sum of the value losses, of the policy losses, and the number of samples.
    pub value_loss: f64,
    /// See `value_loss`.
    pub policy_loss: f64,
    /// See `value_loss`.
    pub samples: usize,
}

impl Default for Grad {
    fn default() -> Self {
        Grad {
            g: vec![0.0; NUM_PARAMS],
            touched: Vec::new(),
            mark: vec![false; NUM_ROWS],
            value_loss: 0.0,
            policy_loss: 0.0,
            samples: 0,
        }
    }
}

impl Grad {
    fn clear(&mut self) {
        for &s in &self.touched {
            let r = SHAPES + usize::from(s) * FEAT;
            self.g[r..r + FEAT].fill(0.0);
            self.mark[usize::from(s)] = false;
        }
        self.touched.clear();
        self.g[DENSE..].fill(0.0);
        self.value_loss = 0.0;
        self.policy_loss = 0.0;
        self.samples = 0;
    }

    fn add(&mut self, o: &Grad) {
        for &s in &o.touched {
            if !self.mark[usize::from(s)] {
                self.mark[usize::from(s)] = true;
                self.touched.push(s);
            }
            let r = SHAPES + usize::from(s) * FEAT;
            for k in r..r + FEAT {
                self.g[k] += o.g[k];
            }
        }
        for (a, b) in self.g[DENSE..].iter_mut().zip(&o.g[DENSE..]) {
            *a += b;
        }
        self.value_loss += o.value_loss;
        self.policy_loss += o.policy_loss;
        self.samples += o.samples;
    }
}

/// What the forward pass of one sample gives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Output {
    /// Win, draw, loss probabilities for the side to move.
    pub wdl: [f32; 3],
    /// The value head's logits.
    pub logits: [f32; 3],
    /// The policy's probability of the target move (1 without one).
    pub target_prob: f32,
    /// Whether the target move has the policy's highest logit.
    pub target_top: bool,
}

/// What the forward pass keeps for the backward pass.
struct Forward {
    pooled: [f32; FEAT],
    u: [f32; FEAT],
    x: [f32; FEAT],
    z1: [f32; H1],
    h1: [f32; H1],
    z2: [f32; H2],
    h2: [f32; H2],
    q: [f32; FEAT],
    /// The sum of the policy's `exp(l - top)`.
    total: f32,
    /// The target move's place in the sample's empty points.
    target_at: Option<usize>,
    out: Output,
}

/// Buffers of one forward and backward pass.
#[derive(Clone, Debug, Default)]
struct Scratch {
    f: Vec<[f32; FEAT]>,
    logits: Vec<f32>,
    da: Vec<f32>,
}

fn clamp01(v: f32) -> f32 {
    v.clamp(0.0, 1.0)
}

/// `clamp01` on the integer network's steps of `1 / QX` (the activations between its dense
/// layers); its gradient is taken as `clamp01`'s.
fn step01(v: f32) -> f32 {
    (clamp01(v) * QX as f32).round() / QX as f32
}

fn inside(v: f32) -> f32 {
    if v > 0.0 && v < 1.0 {
        1.0
    } else {
        0.0
    }
}

/// `out = w x + b` for a row-major `w`.
fn affine<const IN: usize, const OUT_N: usize>(
    w: &[f32],
    b: &[f32],
    x: &[f32; IN],
) -> [f32; OUT_N] {
    std::array::from_fn(|o| {
        let row = &w[o * IN..(o + 1) * IN];
        b[o] + row.iter().zip(x).map(|(a, c)| a * c).sum::<f32>()
    })
}

/// `dw += dz x^T`, `db += dz`, and returns `w^T dz`.
fn affine_back<const IN: usize, const OUT_N: usize>(
    w: &[f32],
    gw: &mut [f32],
    gb: &mut [f32],
    x: &[f32; IN],
    dz: &[f32; OUT_N],
) -> [f32; IN] {
    let mut dx = [0.0f32; IN];
    for o in 0..OUT_N {
        let d = dz[o];
        if d == 0.0 {
            continue;
        }
        gb[o] += d;
        let row = &w[o * IN..(o + 1) * IN];
        let grow = &mut gw[o * IN..(o + 1) * IN];
        for i in 0..IN {
            grow[i] += d * x[i];
            dx[i] += d * row[i];
        }
    }
    dx
}

impl FloatNet {
    /// A network with small random weights drawn from `seed`.
    #[must_use]
    pub fn random(seed: u64) -> FloatNet {
        let mut rng = SplitMix64::new(seed);
        let mut uniform = |lo: f32, hi: f32| {
            let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            lo + (hi - lo) * u
        };
        let mut w = vec![0.0f32; NUM_PARAMS];
        for v in &mut w[SHAPES..BIAS] {
            *v = uniform(-0.04, 0.06);
        }
        w[BIAS..POOL_S].fill(0.05);
        w[POOL_S..POOL_T].fill(1.0 / 32.0);
        for stm in 0..2 {
            let v = Layout::value(stm);
            let k1 = (1.0 / FEAT as f32).sqrt();
            for x in &mut w[v + V_W1..v + V_B1] {
                *x = uniform(-k1, k1);
            }
            w[v + V_B1..v + V_W2].fill(0.3);
            let k2 = (1.0 / H1 as f32).sqrt();
            for x in &mut w[v + V_W2..v + V_B2] {
                *x = uniform(-k2, k2);
            }
            w[v + V_B2..v + V_W3].fill(0.3);
            let k3 = (1.0 / H2 as f32).sqrt();
            for x in &mut w[v + V_W3..v + V_B3] {
                *x = uniform(-k3, k3);
            }
            let p = Layout::policy(stm);
            for x in &mut w[p + P_WQ..p + P_BQ] {
                *x = uniform(-k1, k1);
            }
        }
        FloatNet {
            w,
            score_scale: 400.0,
            round_activations: true,
        }
    }

    /// The forward pass of `s`; with `grad`, the gradients of its loss are added to it.
    pub fn accumulate(&self, s: &Sample, policy_weight: f32, grad: Option<&mut Grad>) -> Output {
        let mut scratch = Scratch::default();
        self.pass(s, policy_weight, grad, &mut scratch)
    }

    fn pass(
        &self,
        s: &Sample,
        policy_weight: f32,
        grad: Option<&mut Grad>,
        sc: &mut Scratch,
    ) -> Output {
        let fw = self.forward(s, sc);
        if let Some(g) = grad {
            self.backward(s, &fw, policy_weight, g, sc);
        }
        fw.out
    }

    /// The forward pass: the points' features go to `sc`, the rest is kept for the backward
    /// pass.
    fn forward(&self, s: &Sample, sc: &mut Scratch) -> Forward {
        let w = &self.w;
        let stm = usize::from(s.to_move);
        // the points' features and their pooled sum
        sc.f.clear();
        let mut pooled = [0.0f32; FEAT];
        let bias = &w[BIAS..BIAS + FEAT];
        for sh in &s.rows {
            let mut f: [f32; FEAT] = bias.try_into().expect("FEAT biases");
            for &c in sh {
                let r = &w[SHAPES + usize::from(c) * FEAT..][..FEAT];
                for k in 0..FEAT {
                    f[k] += r[k];
                }
            }
            for k in 0..FEAT {
                pooled[k] += clamp01(f[k]);
            }
            sc.f.push(f);
        }
        let u: [f32; FEAT] = std::array::from_fn(|k| w[POOL_S + k] * pooled[k] + w[POOL_T + k]);
        let act = |v: f32| {
            if self.round_activations {
                step01(v)
            } else {
                clamp01(v)
            }
        };
        let x = u.map(act);
        // the value head
        let v = Layout::value(stm);
        let z1: [f32; H1] = affine(&w[v + V_W1..v + V_B1], &w[v + V_B1..v + V_W2], &x);
        let h1 = z1.map(act);
        let z2: [f32; H2] = affine(&w[v + V_W2..v + V_B2], &w[v + V_B2..v + V_W3], &h1);
        let h2 = z2.map(act);
        let z3: [f32; OUT] = affine(&w[v + V_W3..v + V_B3], &w[v + V_B3..v + V_LEN], &h2);
        let wdl = super::accumulator::softmax3(z3);
        // the policy: the logits of the empty points, as exp(l - top), go to `sc`
        let p = Layout::policy(stm);
        let q: [f32; FEAT] = affine(&w[p + P_WQ..p + P_BQ], &w[p + P_BQ..p + P_LEN], &x);
        let q = if self.round_activations {
            q.map(|v| (v * QX as f32).round() / QX as f32)
        } else {
            q
        };
        sc.logits.clear();
        let mut top = f32::NEG_INFINITY;
        for &e in &s.empty {
            let f = &sc.f[usize::from(e)];
            let l: f32 = (0..FEAT).map(|k| q[k] * clamp01(f[k])).sum();
            top = top.max(l);
            sc.logits.push(l);
        }
        let mut total = 0.0f32;
        for l in &mut sc.logits {
            *l = (*l - top).exp();
            total += *l;
        }
        let target_at = s.target.and_then(|t| s.empty.iter().position(|&e| e == t));
        let (target_prob, target_top) = match target_at {
            Some(i) => (
                sc.logits[i] / total,
                sc.logits[i] >= 1.0 && sc.logits.iter().filter(|&&l| l >= 1.0).count() == 1,
            ),
            None => (1.0, true),
        };
        Forward {
            pooled,
            u,
            x,
            z1,
            h1,
            z2,
            h2,
            q,
            total,
            target_at,
            out: Output {
                wdl,
                logits: z3,
                target_prob,
                target_top,
            },
        }
    }

    /// The backward pass of `s` after [`FloatNet::forward`]: its losses and gradients go to
    /// `g`.
    fn backward(
        &self,
        s: &Sample,
        fw: &Forward,
        policy_weight: f32,
        g: &mut Grad,
        sc: &mut Scratch,
    ) {
        let w = &self.w;
        let stm = usize::from(s.to_move);
        let (v, p) = (Layout::value(stm), Layout::policy(stm));
        let Forward {
            pooled,
            u,
            x,
            z1,
            h1,
            z2,
            h2,
            q,
            total,
            target_at,
            out,
        } = fw;
        let wdl = out.wdl;
        let vloss: f32 = (0..3).map(|i| -s.value[i] * wdl[i].max(1e-12).ln()).sum();
        g.value_loss += f64::from(vloss);
        g.policy_loss += f64::from(-out.target_prob.max(1e-12).ln());
        g.samples += 1;
        // the value head
        let gg = &mut g.g;
        let dz3: [f32; OUT] = std::array::from_fn(|i| wdl[i] - s.value[i]);
        let (gw3, rest) = gg[v + V_W3..v + V_LEN].split_at_mut(V_B3 - V_W3);
        let dh2 = affine_back(&w[v + V_W3..v + V_B3], gw3, rest, h2, &dz3);
        let dz2: [f32; H2] = std::array::from_fn(|i| dh2[i] * inside(z2[i]));
        let (gw2, rest) = gg[v + V_W2..v + V_W3].split_at_mut(V_B2 - V_W2);
        let dh1 = affine_back(&w[v + V_W2..v + V_B2], gw2, rest, h1, &dz2);
        let dz1: [f32; H1] = std::array::from_fn(|i| dh1[i] * inside(z1[i]));
        let (gw1, rest) = gg[v + V_W1..v + V_W2].split_at_mut(V_B1 - V_W1);
        let mut dx = affine_back(&w[v + V_W1..v + V_B1], gw1, rest, x, &dz1);
        // the policy (d loss / d a(e) = d(e) * q for the empty points e)
        sc.da.clear();
        sc.da.resize(s.rows.len(), 0.0);
        if let Some(ti) = *target_at {
            let mut dq = [0.0f32; FEAT];
            for (i, &e) in s.empty.iter().enumerate() {
                let d = policy_weight * (sc.logits[i] / total - if i == ti { 1.0 } else { 0.0 });
                let f = &sc.f[usize::from(e)];
                for k in 0..FEAT {
                    dq[k] += d * clamp01(f[k]);
                }
                sc.da[usize::from(e)] = d;
            }
            let (gwq, gbq) = gg[p + P_WQ..p + P_LEN].split_at_mut(P_BQ);
            let dxp = affine_back(&w[p + P_WQ..p + P_BQ], gwq, gbq, x, &dq);
            for k in 0..FEAT {
                dx[k] += dxp[k];
            }
        }
        // the pooling
        let mut dpool = [0.0f32; FEAT];
        for k in 0..FEAT {
            let du = dx[k] * inside(u[k]);
            gg[POOL_S + k] += du * pooled[k];
            gg[POOL_T + k] += du;
            dpool[k] = du * w[POOL_S + k];
        }
        // the points' features
        for ((sh, f), &dp) in s.rows.iter().zip(&sc.f).zip(&sc.da) {
            let mut df = [0.0f32; FEAT];
            let mut any = false;
            for k in 0..FEAT {
                if f[k] > 0.0 && f[k] < 1.0 {
                    let da = dpool[k] + dp * q[k];
                    df[k] = da;
                    any |= da != 0.0;
                }
            }
            if !any {
                continue;
            }
            for k in 0..FEAT {
                g.g[BIAS + k] += df[k];
            }
            for &c in sh {
                let c = usize::from(c);
                if !g.mark[c] {
                    g.mark[c] = true;
                    g.touched.push(c as u16);
                }
                let r = &mut g.g[SHAPES + c * FEAT..][..FEAT];
                for k in 0..FEAT {
                    r[k] += df[k];
                }
            }
        }
    }

    /// The integer network this one rounds to.
    #[must_use]
    pub fn quantize(&self) -> Network {
        let w = &self.w;
        let mut n = Network::zero();
        n.score_scale = self.score_scale;
        let qa = |v: f32| (v * QA as f32).round().clamp(-32_767.0, 32_767.0) as i16;
        for (s, row) in n.rows.iter_mut().enumerate() {
            *row = Row(std::array::from_fn(|k| qa(w[SHAPES + s * FEAT + k])));
        }
        n.bias = Row(std::array::from_fn(|k| qa(w[BIAS + k])));
        let unit = f64::from(QX) * f64::from(1u32 << POOL_SHIFT);
        for k in 0..FEAT {
            let mul = f64::from(w[POOL_S + k]) * unit / f64::from(QA);
            let add = f64::from(w[POOL_T + k]) * unit;
            n.pool_mul[k] = mul.round().clamp(-2e9, 2e9) as i32;
            n.pool_add[k] = add.round().clamp(-2e9, 2e9) as i32;
        }
        let qw = |v: f32| (v * QW as f32).round().clamp(-127.0, 127.0) as i8;
        let qb = |v: f32| (f64::from(v) * f64::from(QX * QW)).round().clamp(-2e9, 2e9) as i32;
        for stm in 0..2 {
            let v = Layout::value(stm);
            n.value[stm] = ValueHead {
                w1: w[v + V_W1..v + V_B1].iter().map(|&x| qw(x)).collect(),
                b1: std::array::from_fn(|i| qb(w[v + V_B1 + i])),
                w2: w[v + V_W2..v + V_B2].iter().map(|&x| qw(x)).collect(),
                b2: std::array::from_fn(|i| qb(w[v + V_B2 + i])),
                w3: w[v + V_W3..v + V_B3].iter().map(|&x| qw(x)).collect(),
                b3: std::array::from_fn(|i| qb(w[v + V_B3 + i])),
            };
            let p = Layout::policy(stm);
            n.policy[stm] = PolicyHead {
                wq: w[p + P_WQ..p + P_BQ].iter().map(|&x| qw(x)).collect(),
                bq: std::array::from_fn(|i| qb(w[p + P_BQ + i])),
            };
        }
        n
    }

    /// The float network that [`FloatNet::quantize`] rounds back to `net`: every weight on
    /// the integer network's grid (the pooling's multipliers and offsets to within a float's
    /// precision). Training from it goes on from a network that was written out, such as the
    /// compiled-in one.
    #[must_use]
    pub fn from_network(net: &Network) -> FloatNet {
        let mut w = vec![0.0f32; NUM_PARAMS];
        let qa = QA as f32;
        for (s, row) in net.rows.iter().enumerate() {
            for k in 0..FEAT {
                w[SHAPES + s * FEAT + k] = f32::from(row.0[k]) / qa;
            }
        }
        for k in 0..FEAT {
            w[BIAS + k] = f32::from(net.bias.0[k]) / qa;
        }
        let unit = f64::from(QX) * f64::from(1u32 << POOL_SHIFT);
        for k in 0..FEAT {
            w[POOL_S + k] = (f64::from(net.pool_mul[k]) * f64::from(QA) / unit) as f32;
            w[POOL_T + k] = (f64::from(net.pool_add[k]) / unit) as f32;
        }
        let dw = |d: &mut [f32], q: &[i8]| {
            for (d, &q) in d.iter_mut().zip(q) {
                *d = f32::from(q) / QW as f32;
            }
        };
        let db = |d: &mut [f32], q: &[i32]| {
            for (d, &q) in d.iter_mut().zip(q) {
                *d = (f64::from(q) / f64::from(QX * QW)) as f32;
            }
        };
        for stm in 0..2 {
            let (v, h) = (Layout::value(stm), &net.value[stm]);
            dw(&mut w[v + V_W1..v + V_B1], &h.w1);
            db(&mut w[v + V_B1..v + V_W2], &h.b1);
            dw(&mut w[v + V_W2..v + V_B2], &h.w2);
            db(&mut w[v + V_B2..v + V_W3], &h.b2);
            dw(&mut w[v + V_W3..v + V_B3], &h.w3);
            db(&mut w[v + V_B3..v + V_LEN], &h.b3);
            let (p, q) = (Layout::policy(stm), &net.policy[stm]);
            dw(&mut w[p + P_WQ..p + P_BQ], &q.wq);
            db(&mut w[p + P_BQ..p + P_LEN], &q.bq);
        }
        FloatNet {
            w,
            score_scale: net.score_scale,
            round_activations: true,
        }
    }

    /// The network with every weight on the integer network's grid (the shape weights and the
    /// bias on steps of `1 / QA`, the dense weights on steps of `1 / QW`, their biases on
    /// steps of `1 / (QX QW)`): the float forward pass then computes what the integer one
    /// does, and training on it (its gradients applied to the unrounded weights) learns
    /// weights that survive the rounding.
    #[must_use]
    pub fn rounded(&self) -> FloatNet {
        let mut r = self.clone();
        r.round_into(&self.w, None);
        r
    }

    /// Rounds `w` into this network's weights: the shape rows of `rows` (all with `None`) and
    /// the whole dense part.
    fn round_into(&mut self, w: &[f32], rows: Option<&[u16]>) {
        let on = |v: f32, q: f32| (v * q).round() / q;
        let qa = QA as f32;
        match rows {
            None => {
                for (d, &v) in self.w[SHAPES..BIAS].iter_mut().zip(&w[SHAPES..BIAS]) {
                    *d = on(v, qa);
                }
            }
            Some(rows) => {
                for &s in rows {
                    let r = SHAPES + usize::from(s) * FEAT;
                    for i in r..r + FEAT {
                        self.w[i] = on(w[i], qa);
                    }
                }
            }
        }
        for i in BIAS..POOL_S {
            self.w[i] = on(w[i], qa);
        }
        self.w[POOL_S..VALUE].copy_from_slice(&w[POOL_S..VALUE]);
        let (qw, qb) = (QW as f32, (QX * QW) as f32);
        for stm in 0..2 {
            let v = Layout::value(stm);
            for (lo, hi, q) in [
                (V_W1, V_B1, qw),
                (V_B1, V_W2, qb),
                (V_W2, V_B2, qw),
                (V_B2, V_W3, qb),
                (V_W3, V_B3, qw),
                (V_B3, V_LEN, qb),
            ] {
                for i in v + lo..v + hi {
                    self.w[i] = on(w[i], q);
                }
            }
            let p = Layout::policy(stm);
            for (lo, hi, q) in [(P_WQ, P_BQ, qw), (P_BQ, P_LEN, qb)] {
                for i in p + lo..p + hi {
                    self.w[i] = on(w[i], q);
                }
            }
        }
    }

    /// Keeps the weights inside what the integer network holds.
    fn clip(&mut self, rows: &[u16]) {
        for &s in rows {
            let r = SHAPES + usize::from(s) * FEAT;
            for v in &mut self.w[r..r + FEAT] {
                *v = v.clamp(-MAX_SHAPE_WEIGHT, MAX_SHAPE_WEIGHT);
            }
        }
        for v in &mut self.w[BIAS..POOL_S] {
            *v = v.clamp(-MAX_SHAPE_WEIGHT, MAX_SHAPE_WEIGHT);
        }
        let dense = |w: &mut [f32]| {
            for v in w {
                *v = v.clamp(-MAX_DENSE_WEIGHT, MAX_DENSE_WEIGHT);
            }
        };
        for stm in 0..2 {
            let v = Layout::value(stm);
            dense(&mut self.w[v + V_W1..v + V_B1]);
            dense(&mut self.w[v + V_W2..v + V_B2]);
            dense(&mut self.w[v + V_W3..v + V_B3]);
            let p = Layout::policy(stm);
            dense(&mut self.w[p + P_WQ..p + P_BQ]);
        }
    }

    /// The parameters as little-endian bytes (for checkpoints).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(4 * (NUM_PARAMS + 1));
        out.extend_from_slice(&self.score_scale.to_le_bytes());
        for v in &self.w {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// Reads [`FloatNet::to_bytes`]; `None` for bytes of another length.
    #[must_use]
    pub fn from_bytes(bytes: &[u8]) -> Option<FloatNet> {
        if bytes.len() != 4 * (NUM_PARAMS + 1) {
            return None;
        }
        let mut it = bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let score_scale = it.next()?;
        Some(FloatNet {
            w: it.collect(),
            score_scale,
            round_activations: true,
        })
    }
}

/// Adam over a [`FloatNet`]: the dense part at every step, a row of `M` when a point of the
/// batch has it.
#[derive(Clone, Debug)]
pub struct Trainer {
    /// The network being trained.
    pub net: FloatNet,
    /// `net` on the integer network's grid, which the forward passes use.
    shadow: FloatNet,
    m: Vec<f32>,
    v: Vec<f32>,
    /// Steps taken.
    pub steps: u64,
    /// Per-thread gradients of the current batch.
    grads: Vec<Grad>,
    scratch: Vec<Scratch>,
}

/// The settings of a training step.
#[derive(Clone, Copy, Debug)]
pub struct StepOptions {
    /// Learning rate.
    pub lr: f32,
    /// Weight of the policy loss.
    pub policy_weight: f32,
    /// Threads that share a batch.
    pub threads: usize,
}

/// The losses of one step's batch (means over its samples).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepLoss {
    /// Mean value cross-entropy.
    pub value: f64,
    /// Mean policy cross-entropy.
    pub policy: f64,
}

/// The fixed parts of a batch (see [`Trainer::step`]).
pub const PARTS: usize = 4;

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPS: f32 = 1e-8;

impl Trainer {
    /// Starts training `net`.
    #[must_use]
    pub fn new(net: FloatNet) -> Trainer {
        Trainer {
            shadow: net.rounded(),
            net,
            m: vec![0.0; NUM_PARAMS],
            v: vec![0.0; NUM_PARAMS],
            steps: 0,
            grads: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// One Adam step on `batch`. The batch is cut into [`PARTS`] fixed contiguous parts whose
    /// gradients are summed in order, and `opts.threads` threads share the parts: the result
    /// is the same whatever the number of threads.
    pub fn step(&mut self, batch: &[Sample], opts: StepOptions) -> StepLoss {
        while self.grads.len() < PARTS {
            self.grads.push(Grad::default());
            self.scratch.push(Scratch::default());
        }
        let threads = opts.threads.clamp(1, PARTS);
        let chunk = batch.len().div_ceil(PARTS).max(1);
        let net = &self.shadow;
        let mut jobs: Vec<Vec<(&[Sample], &mut Grad, &mut Scratch)>> =
            (0..threads).map(|_| Vec::new()).collect();
        let mut parts = batch.chunks(chunk);
        for (i, (g, s)) in self
            .grads
            .iter_mut()
            .zip(self.scratch.iter_mut())
            .enumerate()
        {
            jobs[i % threads].push((parts.next().unwrap_or(&[]), g, s));
        }
        std::thread::scope(|sc| {
            for job in jobs {
                sc.spawn(move || {
                    for (part, g, s) in job {
                        g.clear();
                        for sample in part {
                            net.pass(sample, opts.policy_weight, Some(g), s);
                        }
                    }
                });
            }
        });
        let (first, rest) = self.grads.split_at_mut(1);
        for g in rest.iter() {
            first[0].add(g);
        }
        let g = &first[0];
        let n = g.samples.max(1) as f32;
        self.steps += 1;
        let t = self.steps as i32;
        let corr1 = 1.0 - BETA1.powi(t);
        let corr2 = 1.0 - BETA2.powi(t);
        let lr = opts.lr * corr2.sqrt() / corr1;
        let (w, m, v) = (&mut self.net.w, &mut self.m, &mut self.v);
        let mut update = |i: usize| {
            let gi = g.g[i] / n;
            m[i] = BETA1 * m[i] + (1.0 - BETA1) * gi;
            v[i] = BETA2 * v[i] + (1.0 - BETA2) * gi * gi;
            w[i] -= lr * m[i] / (v[i].sqrt() + EPS);
        };
        for &s in &g.touched {
            let r = SHAPES + usize::from(s) * FEAT;
            for i in r..r + FEAT {
                update(i);
            }
        }
        for i in DENSE..NUM_PARAMS {
            update(i);
        }
        let touched = g.touched.clone();
        self.net.clip(&touched);
        self.shadow.round_into(&self.net.w, Some(&touched));
        self.shadow.score_scale = self.net.score_scale;
        StepLoss {
            value: g.value_loss / f64::from(n),
            policy: g.policy_loss / f64::from(n),
        }
    }

    /// The trainer's state as bytes (the network, Adam's moments, the step count).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.net.to_bytes();
        for v in self.m.iter().chain(&self.v) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.steps.to_le_bytes());
        out
    }

    /// Reads [`Trainer::to_bytes`]; `None` for bytes of another length.
    #[must_use]
    pub fn from_bytes(bytes: &[u8]) -> Option<Trainer> {
        let net_len = 4 * (NUM_PARAMS + 1);
        if bytes.len() != net_len + 8 * NUM_PARAMS + 8 {
            return None;
        }
        let net = FloatNet::from_bytes(&bytes[..net_len])?;
        let floats = |b: &[u8]| -> Vec<f32> {
            b.chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        };
        let m = floats(&bytes[net_len..net_len + 4 * NUM_PARAMS]);
        let v = floats(&bytes[net_len + 4 * NUM_PARAMS..net_len + 8 * NUM_PARAMS]);
        let steps = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().ok()?);
        Some(Trainer {
            shadow: net.rounded(),
            net,
            m,
            v,
            steps,
            grads: Vec::new(),
            scratch: Vec::new(),
        })
    }
}

/// The win/draw/loss target of a position for the side to move: `lambda` of the game's result
/// (`result`: 1 a win, 0 a draw, -1 a loss, for the side to move) and the rest of the search's
/// value as an expected score `sigmoid(value / scale)` split between win and loss (a proven
/// result counts as certain).
#[must_use]
pub fn value_target(result: i8, search: Option<f32>, lambda: f32, scale: f32) -> [f32; 3] {
    let r = match result.signum() {
        1 => [1.0, 0.0, 0.0],
        -1 => [0.0, 0.0, 1.0],
        _ => [0.0, 1.0, 0.0],
    };
    let Some(v) = search else {
        return r;
    };
    let e = 1.0 / (1.0 + (-v / scale).exp());
    let s = [e, 0.0, 1.0 - e];
    std::array::from_fn(|i| lambda * r[i] + (1.0 - lambda) * s[i])
}

/// The colour to move of a sample.
#[must_use]
pub fn sample_colour(s: &Sample) -> Color {
    Color::BOTH[usize::from(s.to_move)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::Accumulator;
    use crate::types::Rule;
    use crate::Game;

    fn sample(moves: &str, target: &str) -> (Board, Sample) {
        let g = Game::from_position(15, Rule::Freestyle, moves).expect("position");
        let b = g.board().clone();
        let t = crate::notation::parse_pos(target, 15).expect("target");
        let idx = (t.y() * 15 + t.x()) as u16;
        let s = Sample::from_board(&b, Some(idx), [0.6, 0.1, 0.3]);
        (b, s)
    }

    #[test]
    fn gradients_match_finite_differences() {
        let (_, s) = sample("h8 i9 j9 g7 h10", "i8");
        let mut net = FloatNet::random(1);
        net.round_activations = false;
        // keep the pooling inside its linear range so that the differences are smooth
        for k in 0..FEAT {
            net.w[POOL_S + k] = 0.01;
            net.w[POOL_T + k] = 0.2;
        }
        let mut g = Grad::default();
        net.accumulate(&s, 0.5, Some(&mut g));
        let loss = |n: &FloatNet| {
            let mut g = Grad::default();
            n.accumulate(&s, 0.5, Some(&mut g));
            g.value_loss + 0.5 * g.policy_loss
        };
        let probe_shape = usize::from(s.rows[7 * 15 + 7][0]);
        let probe_threat = usize::from(s.rows[7 * 15 + 8][4]);
        let v1 = Layout::value(s.to_move as usize);
        let p1 = Layout::policy(s.to_move as usize);
        let probes = [
            SHAPES + probe_shape * FEAT + 3,
            SHAPES + probe_threat * FEAT + 6,
            BIAS + 1,
            POOL_S + 2,
            POOL_T + 5,
            v1 + V_W1 + 7,
            v1 + V_B2 + 3,
            v1 + V_W3 + 4,
            v1 + V_B3 + 1,
            p1 + P_WQ + 9,
            p1 + P_BQ + 2,
        ];
        for i in probes {
            let h = 1e-3;
            let mut a = net.clone();
            a.w[i] += h;
            let mut b = net.clone();
            b.w[i] -= h;
            let numeric = (loss(&a) - loss(&b)) / (2.0 * f64::from(h));
            let analytic = f64::from(g.g[i]);
            assert!(
                (numeric - analytic).abs() <= 2e-3 + 0.05 * analytic.abs(),
                "param {i}: numeric {numeric} analytic {analytic}"
            );
        }
    }

    #[test]
    fn the_integer_network_follows_the_float_one() {
        let mut net = FloatNet::random(2);
        for k in 0..FEAT {
            net.w[POOL_S + k] = 0.01;
            net.w[POOL_T + k] = 0.1;
        }
        let q: &'static Network = Box::leak(Box::new(net.quantize()));
        for (moves, target) in [("h8 i9 j9 g7 h10", "i8"), ("h8 h9 i8 i9 j8 j9", "k8")] {
            let (b, s) = sample(moves, target);
            let out = net.accumulate(&s, 1.0, None);
            let acc = Accumulator::new(q, &b);
            let wdl = acc.wdl(b.to_move());
            for i in 0..3 {
                assert!((wdl[i] - out.wdl[i]).abs() < 0.02, "{wdl:?} {:?}", out.wdl);
            }
        }
    }

    #[test]
    fn a_step_lowers_the_loss_and_threads_agree() {
        let (_, s1) = sample("h8 i9 j9 g7 h10", "i8");
        let (_, s2) = sample("h8 h9 i8 i9 j8 j9", "k8");
        let batch = vec![s1.clone(), s2.clone(), s1, s2];
        let opts = |threads| StepOptions {
            lr: 0.01,
            policy_weight: 1.0,
            threads,
        };
        let mut one = Trainer::new(FloatNet::random(3));
        let mut two = one.clone();
        let first = one.step(&batch, opts(1));
        two.step(&batch, opts(2));
        assert!(one.net == two.net, "the same step on one thread and two");
        for _ in 0..30 {
            one.step(&batch, opts(1));
        }
        let last = one.step(&batch, opts(1));
        assert!(last.value + last.policy < first.value + first.policy);
        let again = Trainer::from_bytes(&one.to_bytes()).expect("checkpoint");
        assert!(again.net == one.net);
        assert_eq!(again.steps, one.steps);
    }

    #[test]
    fn a_written_network_reads_back_into_the_float_one_it_rounds_from() {
        let mut net = FloatNet::random(4);
        for k in 0..FEAT {
            net.w[POOL_S + k] = 0.01 + 0.001 * k as f32;
            net.w[POOL_T + k] = 0.1 - 0.002 * k as f32;
        }
        let q = net.quantize();
        let back = FloatNet::from_network(&q);
        assert_eq!(back.score_scale, q.score_scale);
        let again = back.quantize();
        assert_eq!(again.rows, q.rows);
        assert_eq!(again.bias, q.bias);
        assert_eq!(again.value, q.value);
        assert_eq!(again.policy, q.policy);
        for k in 0..FEAT {
            assert!((again.pool_mul[k] - q.pool_mul[k]).abs() <= 1, "mul {k}");
            assert!((again.pool_add[k] - q.pool_add[k]).abs() <= 1, "add {k}");
        }
        // on the grid already, so rounding it changes nothing
        let (_, s) = sample("h8 i9 j9 g7 h10", "i8");
        let a = back.accumulate(&s, 1.0, None);
        let b = back.rounded().accumulate(&s, 1.0, None);
        for i in 0..3 {
            assert!(
                (a.wdl[i] - b.wdl[i]).abs() < 1e-3,
                "{:?} {:?}",
                a.wdl,
                b.wdl
            );
        }
    }

    #[test]
    fn targets_mix_the_result_and_the_search() {
        assert_eq!(value_target(1, None, 0.5, 400.0), [1.0, 0.0, 0.0]);
        assert_eq!(value_target(0, None, 0.5, 400.0), [0.0, 1.0, 0.0]);
        let t = value_target(-1, Some(0.0), 0.5, 400.0);
        assert!((t[0] - 0.25).abs() < 1e-6 && (t[2] - 0.75).abs() < 1e-6);
    }
}
