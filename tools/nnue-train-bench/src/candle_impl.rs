//! The network in candle (CPU, f32): candle's autodiff (`Var`, `backward`) and its AdamW
//! (weight decay 0, so Adam as in the hand-written trainer).
//!
//! Faithful to `gomoku_engine::nnue::float` in: the two heads per side to move (each sample
//! takes its side's head through a 0/1 mask), the forward pass on the integer network's grid
//! (weights and activations rounded with straight-through gradients, as the trainer's shadow
//! network does), and the clipping of the weights after each step. It differs in: the policy
//! scores every point and masks the stones with -1e9 (a ragged gather per sample has no cheap
//! form here), Adam updates every shape row (the hand trainer only the rows of the batch), and
//! `clamp`'s gradient is 1/2 where a value sits exactly on a bound (0 in the hand trainer).

use candle_core::{DType, Device, Result, Tensor, Var, D};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use gomoku_engine::nnue::float::{FloatNet, Sample};
use gomoku_engine::nnue::{
    FEAT, H1, H2, MAX_DENSE_WEIGHT, MAX_SHAPE_WEIGHT, NUM_ROWS, OUT, QA, QW, QX, ROWS_PER_POINT,
};

use crate::layout::*;
use crate::{Args, Bench, POINTS};

/// One side to move's value head and policy query.
struct Head {
    w1: Var,
    b1: Var,
    w2: Var,
    b2: Var,
    w3: Var,
    b3: Var,
    wq: Var,
    bq: Var,
}

pub struct Candle {
    dev: Device,
    shapes: Var,
    bias: Var,
    pool_s: Var,
    pool_t: Var,
    heads: [Head; 2],
    opt: AdamW,
    policy_weight: f64,
    plain: bool,
    /// The formulation of the gather and of the policy's dot products (see [`Args`]).
    joint_gather: bool,
    policy_matmul: bool,
}

/// `x` rounded to steps of `1 / q`, with the gradient of the identity.
fn ste(x: &Tensor, q: f64) -> Result<Tensor> {
    let r = x.affine(q, 0.0)?.round()?.affine(1.0 / q, 0.0)?;
    x + (r - x)?.detach()
}

impl Candle {
    pub fn new(net: &FloatNet, args: &Args) -> Result<Candle> {
        let dev = Device::Cpu;
        let w = &net.w;
        let var = |at: usize, shape: &[usize]| -> Result<Var> {
            let n: usize = shape.iter().product();
            Var::from_slice(&w[at..at + n], shape, &dev)
        };
        let head = |stm: usize| -> Result<Head> {
            let (v, p) = (value(stm), policy(stm));
            Ok(Head {
                w1: var(v + V_W1, &[H1, FEAT])?,
                b1: var(v + V_B1, &[H1])?,
                w2: var(v + V_W2, &[H2, H1])?,
                b2: var(v + V_B2, &[H2])?,
                w3: var(v + V_W3, &[OUT, H2])?,
                b3: var(v + V_B3, &[OUT])?,
                wq: var(p + P_WQ, &[FEAT, FEAT])?,
                bq: var(p + P_BQ, &[FEAT])?,
            })
        };
        let shapes = var(SHAPES, &[NUM_ROWS, FEAT])?;
        let bias = var(BIAS, &[FEAT])?;
        let pool_s = var(POOL_S, &[FEAT])?;
        let pool_t = var(POOL_T, &[FEAT])?;
        let heads = [head(0)?, head(1)?];
        let mut vars = vec![shapes.clone(), bias.clone(), pool_s.clone(), pool_t.clone()];
        for h in &heads {
            for v in [&h.w1, &h.b1, &h.w2, &h.b2, &h.w3, &h.b3, &h.wq, &h.bq] {
                vars.push(v.clone());
            }
        }
        let opt = AdamW::new(
            vars,
            ParamsAdamW {
                lr: f64::from(args.lr),
                beta1: 0.9,
                beta2: 0.999,
                eps: 1e-8,
                weight_decay: 0.0,
            },
        )?;
        Ok(Candle {
            dev,
            shapes,
            bias,
            pool_s,
            pool_t,
            heads,
            opt,
            policy_weight: f64::from(args.policy_weight),
            plain: args.plain,
            joint_gather: args.joint_gather,
            policy_matmul: args.policy_matmul,
        })
    }

    /// A weight as the forward pass uses it: on the grid of `1 / q` unless `plain`.
    fn grid(&self, v: &Var, q: i32) -> Result<Tensor> {
        if self.plain {
            Ok(v.as_tensor().clone())
        } else {
            ste(v.as_tensor(), f64::from(q))
        }
    }

    /// `clamp(v, 0, 1)`, on steps of `1 / QX` unless `plain`.
    fn act(&self, v: &Tensor) -> Result<Tensor> {
        let c = v.clamp(0f32, 1f32)?;
        if self.plain {
            Ok(c)
        } else {
            ste(&c, f64::from(QX))
        }
    }

    /// `w x + b` for a batch of rows `x`.
    fn affine(&self, x: &Tensor, w: &Var, b: &Var) -> Result<Tensor> {
        let w = self.grid(w, QW)?;
        let b = self.grid(b, QX * QW)?;
        x.matmul(&w.t()?)?.broadcast_add(&b)
    }

    fn try_step(&mut self, batch: &[Sample]) -> Result<(f64, f64)> {
        let n = batch.len();
        // the batch as tensors
        let mut ids = Vec::with_capacity(n * POINTS * ROWS_PER_POINT);
        let mut mask = vec![-1e9f32; n * POINTS];
        let mut target = Vec::with_capacity(n);
        let mut vt = Vec::with_capacity(n * 3);
        let mut stm = Vec::with_capacity(n);
        for (i, s) in batch.iter().enumerate() {
            assert_eq!(s.rows.len(), POINTS, "a 15x15 board");
            ids.extend(s.rows.iter().flatten().map(|&c| u32::from(c)));
            for &e in &s.empty {
                mask[i * POINTS + usize::from(e)] = 0.0;
            }
            target.push(u32::from(s.target.expect("a target move")));
            vt.extend_from_slice(&s.value);
            stm.push(f32::from(s.to_move));
        }
        let ids = Tensor::from_vec(ids, n * POINTS * ROWS_PER_POINT, &self.dev)?;
        let mask = Tensor::from_vec(mask, (n, POINTS), &self.dev)?;
        let target = Tensor::from_vec(target, n, &self.dev)?;
        let vt = Tensor::from_vec(vt, (n, 3), &self.dev)?;
        let m1 = Tensor::from_vec(stm, (n, 1), &self.dev)?;
        let m0 = (1.0 - &m1)?;
        // the points' features and their pooled sum
        let table = self.grid(&self.shapes, QA)?;
        let bias = self.grid(&self.bias, QA)?;
        let f = if self.joint_gather {
            // one gather of all the rows of a point, then their sum
            table
                .index_select(&ids, 0)?
                .reshape((n * POINTS, ROWS_PER_POINT, FEAT))?
                .sum(1)?
                .broadcast_add(&bias)?
        } else {
            // one gather a row, added up: tensors a fifth the size
            let ids = ids.reshape((n * POINTS, ROWS_PER_POINT))?.t()?.contiguous()?;
            let mut f = table.index_select(&ids.get(0)?, 0)?;
            for d in 1..ROWS_PER_POINT {
                f = (f + table.index_select(&ids.get(d)?, 0)?)?;
            }
            f.broadcast_add(&bias)?
        };
        let a = f.clamp(0f32, 1f32)?.reshape((n, POINTS, FEAT))?;
        let pooled = a.sum(1)?;
        let u = pooled
            .broadcast_mul(self.pool_s.as_tensor())?
            .broadcast_add(self.pool_t.as_tensor())?;
        let x = self.act(&u)?;
        // the heads of both sides, each sample taking its own side's
        let mut z3 = Vec::new();
        let mut q = Vec::new();
        for h in &self.heads {
            let h1 = self.act(&self.affine(&x, &h.w1, &h.b1)?)?;
            let h2 = self.act(&self.affine(&h1, &h.w2, &h.b2)?)?;
            z3.push(self.affine(&h2, &h.w3, &h.b3)?);
            q.push(self.affine(&x, &h.wq, &h.bq)?);
        }
        let z3 = (z3[0].broadcast_mul(&m0)? + z3[1].broadcast_mul(&m1)?)?;
        let q = (q[0].broadcast_mul(&m0)? + q[1].broadcast_mul(&m1)?)?;
        let q = if self.plain {
            q
        } else {
            ste(&q, f64::from(QX))?
        };
        // the value loss: cross-entropy against the target distribution
        let vloss = (candle_nn::ops::log_softmax(&z3, D::Minus1)? * &vt)?
            .sum_all()?
            .affine(-1.0 / n as f64, 0.0)?;
        // the policy: q . a(p) for every point, the stones masked out
        let logits = if self.policy_matmul {
            a.matmul(&q.unsqueeze(2)?)?.squeeze(2)?
        } else {
            a.broadcast_mul(&q.unsqueeze(1)?)?.sum(2)?
        };
        let logits = (logits + mask)?;
        let ploss = candle_nn::loss::cross_entropy(&logits, &target)?;
        let loss = (&vloss + ploss.affine(self.policy_weight, 0.0)?)?;
        let grads = loss.backward()?;
        self.opt.step(&grads)?;
        if !self.plain {
            let clip = |v: &Var, m: f32| v.set(&v.as_tensor().clamp(-m, m)?);
            clip(&self.shapes, MAX_SHAPE_WEIGHT)?;
            clip(&self.bias, MAX_SHAPE_WEIGHT)?;
            for h in &self.heads {
                for w in [&h.w1, &h.w2, &h.w3, &h.wq] {
                    clip(w, MAX_DENSE_WEIGHT)?;
                }
            }
        }
        let v = f64::from(vloss.to_dtype(DType::F32)?.to_scalar::<f32>()?);
        let p = f64::from(ploss.to_scalar::<f32>()?);
        Ok((v, p))
    }
}

impl Bench for Candle {
    fn step(&mut self, batch: &[Sample]) -> (f64, f64) {
        self.try_step(batch).expect("candle step")
    }
    fn weights(&self) -> Vec<f32> {
        let mut vars = vec![&self.shapes, &self.bias, &self.pool_s, &self.pool_t];
        for h in &self.heads {
            vars.extend([&h.w1, &h.b1, &h.w2, &h.b2, &h.w3, &h.b3, &h.wq, &h.bq]);
        }
        vars.iter()
            .flat_map(|v| {
                v.as_tensor()
                    .flatten_all()
                    .and_then(|t| t.to_vec1::<f32>())
                    .expect("candle weights")
            })
            .collect()
    }
}
