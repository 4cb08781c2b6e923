//! The network in burn (ndarray backend with autodiff, f32) and burn's AdamW (weight decay 0,
//! so Adam as in the hand-written trainer).
//!
//! The same computation as the candle one ([`crate::candle_impl`]), with the same differences
//! from the hand trainer: every point scored and the stones masked, every shape row updated.

use burn::module::{Module, Param};
use burn::optim::{AdamWConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::activation::log_softmax;
use burn::tensor::{Device, Int, Tensor, TensorData};
use gomoku_engine::nnue::float::{FloatNet, Sample};
use gomoku_engine::nnue::{
    FEAT, H1, H2, MAX_DENSE_WEIGHT, MAX_SHAPE_WEIGHT, NUM_ROWS, OUT, QA, QW, QX, ROWS_PER_POINT,
};

use crate::layout::*;
use crate::{Args, Bench, POINTS};

/// One side to move's value head and policy query.
#[derive(Module, Debug)]
struct Head {
    w1: Param<Tensor<2>>,
    b1: Param<Tensor<1>>,
    w2: Param<Tensor<2>>,
    b2: Param<Tensor<1>>,
    w3: Param<Tensor<2>>,
    b3: Param<Tensor<1>>,
    wq: Param<Tensor<2>>,
    bq: Param<Tensor<1>>,
}

#[derive(Module, Debug)]
struct Net {
    shapes: Param<Tensor<2>>,
    bias: Param<Tensor<1>>,
    pool_s: Param<Tensor<1>>,
    pool_t: Param<Tensor<1>>,
    head0: Head,
    head1: Head,
}

struct Burn {
    dev: Device,
    net: Option<Net>,
    opt: ModuleOptimizer,
    lr: f64,
    policy_weight: f32,
    plain: bool,
}

/// `x` rounded to steps of `1 / q`, with the gradient of the identity.
fn ste<const D: usize>(x: Tensor<D>, q: i32) -> Tensor<D> {
    let q = q as f32;
    let r = x.clone().mul_scalar(q).round().div_scalar(q);
    x.clone() + (r - x).detach()
}

pub fn new(net: &FloatNet, args: &Args) -> Box<dyn Bench> {
    let dev = Device::default().autodiff();
    let w = &net.w;
    let p2 = |at: usize, r: usize, c: usize| {
        Param::from_tensor(Tensor::<2>::from_data(
            TensorData::new(w[at..at + r * c].to_vec(), [r, c]),
            &dev,
        ))
    };
    let p1 = |at: usize, n: usize| {
        Param::from_tensor(Tensor::<1>::from_data(
            TensorData::new(w[at..at + n].to_vec(), [n]),
            &dev,
        ))
    };
    let head = |stm: usize| {
        let (v, p) = (value(stm), policy(stm));
        Head {
            w1: p2(v + V_W1, H1, FEAT),
            b1: p1(v + V_B1, H1),
            w2: p2(v + V_W2, H2, H1),
            b2: p1(v + V_B2, H2),
            w3: p2(v + V_W3, OUT, H2),
            b3: p1(v + V_B3, OUT),
            wq: p2(p + P_WQ, FEAT, FEAT),
            bq: p1(p + P_BQ, FEAT),
        }
    };
    let net = Net {
        shapes: p2(SHAPES, NUM_ROWS, FEAT),
        bias: p1(BIAS, FEAT),
        pool_s: p1(POOL_S, FEAT),
        pool_t: p1(POOL_T, FEAT),
        head0: head(0),
        head1: head(1),
    };
    let opt = AdamWConfig::new()
        .with_beta_1(0.9)
        .with_beta_2(0.999)
        .with_epsilon(1e-8)
        .with_weight_decay(0.0)
        .init();
    Box::new(Burn {
        dev,
        net: Some(net),
        opt,
        lr: f64::from(args.lr),
        policy_weight: args.policy_weight,
        plain: args.plain,
    })
}

impl Burn {
    fn grid<const D: usize>(&self, p: &Param<Tensor<D>>, q: i32) -> Tensor<D> {
        if self.plain {
            p.val()
        } else {
            ste(p.val(), q)
        }
    }

    fn act<const D: usize>(&self, v: Tensor<D>) -> Tensor<D> {
        let c = v.clamp(0.0, 1.0);
        if self.plain {
            c
        } else {
            ste(c, QX)
        }
    }

    fn affine(&self, x: Tensor<2>, w: &Param<Tensor<2>>, b: &Param<Tensor<1>>) -> Tensor<2> {
        let w = self.grid(w, QW);
        let b = self.grid(b, QX * QW);
        x.matmul(w.transpose()) + b.unsqueeze::<2>()
    }
}

impl Bench for Burn {
    fn step(&mut self, batch: &[Sample]) -> (f64, f64) {
        let n = batch.len();
        let dev = &self.dev;
        // the batch as tensors: the rows of the points, the line shapes and the threat row
        let mut ids = vec![Vec::with_capacity(n * POINTS); ROWS_PER_POINT];
        let mut mask = vec![-1e9f32; n * POINTS];
        let mut target = Vec::with_capacity(n);
        let mut vt = Vec::with_capacity(n * 3);
        let mut stm = Vec::with_capacity(n);
        for (i, s) in batch.iter().enumerate() {
            assert_eq!(s.rows.len(), POINTS, "a 15x15 board");
            for sh in &s.rows {
                for d in 0..ROWS_PER_POINT {
                    ids[d].push(i64::from(sh[d]));
                }
            }
            for &e in &s.empty {
                mask[i * POINTS + usize::from(e)] = 0.0;
            }
            target.push(i64::from(s.target.expect("a target move")));
            vt.extend_from_slice(&s.value);
            stm.push(f32::from(s.to_move));
        }
        let mask = Tensor::<2>::from_data(TensorData::new(mask, [n, POINTS]), dev);
        let target = Tensor::<2, Int>::from_data(TensorData::new(target, [n, 1]), dev);
        let vt = Tensor::<2>::from_data(TensorData::new(vt, [n, 3]), dev);
        let m1 = Tensor::<2>::from_data(TensorData::new(stm, [n, 1]), dev);
        let m0 = m1.clone().neg().add_scalar(1.0);
        let net = self.net.take().expect("the network");
        // the points' features and their pooled sum
        let table = self.grid(&net.shapes, QA);
        let mut f = self.grid(&net.bias, QA).unsqueeze::<2>();
        for row in ids {
            let row = Tensor::<1, Int>::from_data(TensorData::new(row, [n * POINTS]), dev);
            f = f + table.clone().select(0, row);
        }
        let a = f.clamp(0.0, 1.0).reshape([n, POINTS, FEAT]);
        let pooled: Tensor<2> = a.clone().sum_dim(1).reshape([n, FEAT]);
        let u = pooled * net.pool_s.val().unsqueeze::<2>() + net.pool_t.val().unsqueeze::<2>();
        let x = self.act(u);
        // the heads of both sides, each sample taking its own side's
        let head = |h: &Head| {
            let h1 = self.act(self.affine(x.clone(), &h.w1, &h.b1));
            let h2 = self.act(self.affine(h1, &h.w2, &h.b2));
            (
                self.affine(h2, &h.w3, &h.b3),
                self.affine(x.clone(), &h.wq, &h.bq),
            )
        };
        let (z0, q0) = head(&net.head0);
        let (z1, q1) = head(&net.head1);
        let z3 = z0 * m0.clone() + z1 * m1.clone();
        let q = q0 * m0 + q1 * m1;
        let q = if self.plain { q } else { ste(q, QX) };
        // the value loss: cross-entropy against the target distribution
        let vloss = (log_softmax(z3, 1) * vt).sum().mul_scalar(-1.0 / n as f32);
        // the policy: q . a(p) for every point, the stones masked out
        let logits: Tensor<2> = (a * q.unsqueeze_dim::<3>(1))
            .sum_dim(2)
            .reshape([n, POINTS]);
        let logits = logits + mask;
        let ploss = log_softmax(logits, 1)
            .gather(1, target)
            .sum()
            .mul_scalar(-1.0 / n as f32);
        let loss = vloss.clone() + ploss.clone().mul_scalar(self.policy_weight);
        let grads = GradientsParams::from_grads(loss.backward(), &net);
        let mut net = self.opt.step(self.lr, net, grads);
        if !self.plain {
            // the clamp runs on the inner (untracked) tensor, which becomes a leaf again
            fn clip<const D: usize>(p: Param<Tensor<D>>, m: f32) -> Param<Tensor<D>> {
                p.map(|t| Tensor::from_inner(t.inner().clamp(-m, m)).require_grad())
            }
            net.shapes = clip(net.shapes, MAX_SHAPE_WEIGHT);
            net.bias = clip(net.bias, MAX_SHAPE_WEIGHT);
            for h in [&mut net.head0, &mut net.head1] {
                h.w1 = clip(h.w1.clone(), MAX_DENSE_WEIGHT);
                h.w2 = clip(h.w2.clone(), MAX_DENSE_WEIGHT);
                h.w3 = clip(h.w3.clone(), MAX_DENSE_WEIGHT);
                h.wq = clip(h.wq.clone(), MAX_DENSE_WEIGHT);
            }
        }
        self.net = Some(net);
        let v = f64::from(vloss.into_scalar::<f32>());
        let p = f64::from(ploss.into_scalar::<f32>());
        (v, p)
    }
    fn weights(&self) -> Vec<f32> {
        fn flat<const D: usize>(p: &Param<Tensor<D>>) -> Vec<f32> {
            p.val()
                .into_data()
                .try_to_vec::<f32>()
                .expect("f32 weights")
        }
        let net = self.net.as_ref().expect("the network");
        let mut parts = vec![flat(&net.shapes), flat(&net.bias), flat(&net.pool_s)];
        parts.push(flat(&net.pool_t));
        for h in [&net.head0, &net.head1] {
            parts.extend([flat(&h.w1), flat(&h.b1), flat(&h.w2), flat(&h.b2)]);
            parts.extend([flat(&h.w3), flat(&h.b3), flat(&h.wq), flat(&h.bq)]);
        }
        parts.concat()
    }
}
