//! The integer network of a rule ([`Network`]), the model of every rule ([`NnueModel`]), its
//! file format and the compiled-in model.
//!
//! The file: the eight bytes `GMKNNUE2`, five little-endian `u32`s (the rows of `M`,
//! [`FEAT`], [`H1`], [`H2`], and a mask of the rules present, bit `i` for `NET_RULES[i]`), then
//! for each rule present, in that order: the score scale (`f32`), the rows of `M` (`i16`,
//! row by row: the line shapes', then the threat rows'), the bias (`i16`), the pooling's multipliers and offsets (`i32`), for each
//! side to move (Black, White) the value head (`w1`, `b1`, `w2`, `b2`, `w3`, `b3`: weights `i8`
//! row by row, biases `i32`), then for each side to move the policy head (`wq` `i8`, `bq`
//! `i32`).

use super::simd::{Kernels, Pooled, Row};
use super::{net_slot, FEAT, H1, H2, NET_RULES, NUM_ROWS, OUT, QW, QX};
use crate::types::{Color, Rule};
use std::sync::OnceLock;

/// The value head of one side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueHead {
    /// `H1 x FEAT`, row by row.
    pub w1: Vec<i8>,
    /// `H1`.
    pub b1: [i32; H1],
    /// `H2 x H1`.
    pub w2: Vec<i8>,
    /// `H2`.
    pub b2: [i32; H2],
    /// `OUT x H2`.
    pub w3: Vec<i8>,
    /// `OUT`.
    pub b3: [i32; OUT],
}

/// The policy head of one side to move: `q = wq x + bq`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyHead {
    /// `FEAT x FEAT`, row by row.
    pub wq: Vec<i8>,
    /// `FEAT`.
    pub bq: [i32; FEAT],
}

/// The integer network of one rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// Score units per unit of `logit(win) - logit(loss)`.
    pub score_scale: f32,
    /// The rows of `M`, times [`QA`](super::QA): one per line shape class, then one per threat
    /// row ([`super::NUM_ROWS`]).
    pub rows: Vec<Row>,
    /// The bias of every point's features, times [`QA`](super::QA).
    pub bias: Row,
    /// The pooling's `x = clamp((P * mul + add) >> 16, 0, 127)`, per feature.
    pub pool_mul: [i32; FEAT],
    /// See `pool_mul`.
    pub pool_add: [i32; FEAT],
    /// The value heads, Black to move and White to move.
    pub value: [ValueHead; 2],
    /// The policy heads, Black to move and White to move.
    pub policy: [PolicyHead; 2],
}

/// The pooling's fixed-point shift.
pub const POOL_SHIFT: u32 = 16;

/// Why a network file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NnueError {
    /// The file does not start with the magic bytes.
    BadMagic,
    /// The file's dimensions are not this engine's.
    BadShape(String),
    /// The file ends early or goes on after its networks.
    BadLength {
        /// Bytes expected.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// A value out of its range (a scale that is not a positive number).
    BadValue(String),
}

impl std::fmt::Display for NnueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NnueError::BadMagic => write!(f, "not a network file (bad magic bytes)"),
            NnueError::BadShape(s) => write!(f, "a network of another shape: {s}"),
            NnueError::BadLength { expected, found } => {
                write!(f, "network file of {found} bytes, expected {expected}")
            }
            NnueError::BadValue(s) => write!(f, "bad network file: {s}"),
        }
    }
}

impl std::error::Error for NnueError {}

const MAGIC: &[u8; 8] = b"GMKNNUE2";
const HEADER: usize = 8 + 5 * 4;

/// Bytes of one rule's network in the file.
const NET_BYTES: usize = 4
    + NUM_ROWS * FEAT * 2
    + FEAT * 2
    + FEAT * 4 * 2
    + 2 * (H1 * FEAT + H1 * 4 + H2 * H1 + H2 * 4 + OUT * H2 + OUT * 4)
    + 2 * (FEAT * FEAT + FEAT * 4);

impl Network {
    /// A network whose every weight is zero (the start of a test or a format check).
    #[must_use]
    pub fn zero() -> Network {
        let head = ValueHead {
            w1: vec![0; H1 * FEAT],
            b1: [0; H1],
            w2: vec![0; H2 * H1],
            b2: [0; H2],
            w3: vec![0; OUT * H2],
            b3: [0; OUT],
        };
        let policy = PolicyHead {
            wq: vec![0; FEAT * FEAT],
            bq: [0; FEAT],
        };
        Network {
            score_scale: 400.0,
            rows: vec![Row::ZERO; NUM_ROWS],
            bias: Row::ZERO,
            pool_mul: [0; FEAT],
            pool_add: [0; FEAT],
            value: [head.clone(), head],
            policy: [policy.clone(), policy],
        }
    }

    /// The dense layers' input from the pooled features.
    #[inline]
    #[must_use]
    pub fn pooled_input(&self, pooled: &Pooled) -> [u8; FEAT] {
        let pooled = &pooled.0;
        std::array::from_fn(|k| {
            let v = (i64::from(pooled[k]) * i64::from(self.pool_mul[k])
                + i64::from(self.pool_add[k])
                + (1 << (POOL_SHIFT - 1)))
                >> POOL_SHIFT;
            v.clamp(0, i64::from(QX)) as u8
        })
    }

    /// The value head's outputs (win, draw, loss logits times `QX * QW`) for `to_move`.
    #[inline(always)]
    #[must_use]
    pub fn value_logits<K: Kernels>(&self, x: &[u8; FEAT], to_move: Color) -> [i32; OUT] {
        let h = &self.value[to_move.index()];
        let h1 = activate(&K::dense::<FEAT, H1>(x, &h.w1, &h.b1));
        let h2 = activate(&K::dense::<H1, H2>(&h1, &h.w2, &h.b2));
        K::dense::<H2, OUT>(&h2, &h.w3, &h.b3)
    }

    /// The score (evaluation units, for `to_move`) of value logits.
    #[inline]
    #[must_use]
    pub fn score_of(&self, logits: &[i32; OUT]) -> i32 {
        let d = (logits[0] - logits[2]) as f32 / (QX * QW) as f32;
        (d * self.score_scale) as i32
    }

    /// The policy's query vector for `to_move`: a point's logit is its dot product with the
    /// point's clamped features ([`Kernels::dot`], times `QX * QA`).
    #[inline(always)]
    #[must_use]
    pub fn policy_query<K: Kernels>(&self, x: &[u8; FEAT], to_move: Color) -> [i16; FEAT] {
        let h = &self.policy[to_move.index()];
        let q = K::dense::<FEAT, FEAT>(x, &h.wq, &h.bq);
        q.map(|v| ((v + QW / 2) >> QW.trailing_zeros()).clamp(-32_767, 32_767) as i16)
    }

    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.score_scale.to_le_bytes());
        for r in self.rows.iter().chain(std::iter::once(&self.bias)) {
            for v in r.0 {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        for v in self.pool_mul.iter().chain(&self.pool_add) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let bytes = |out: &mut Vec<u8>, w: &[i8]| out.extend(w.iter().map(|&v| v as u8));
        let ints = |out: &mut Vec<u8>, b: &[i32]| {
            for v in b {
                out.extend_from_slice(&v.to_le_bytes());
            }
        };
        for h in &self.value {
            bytes(out, &h.w1);
            ints(out, &h.b1);
            bytes(out, &h.w2);
            ints(out, &h.b2);
            bytes(out, &h.w3);
            ints(out, &h.b3);
        }
        for h in &self.policy {
            bytes(out, &h.wq);
            ints(out, &h.bq);
        }
    }

    fn read(r: &mut Reader<'_>) -> Result<Network, NnueError> {
        let mut n = Network::zero();
        n.score_scale = f32::from_bits(r.u32());
        if !(n.score_scale.is_finite() && n.score_scale > 0.0) {
            return Err(NnueError::BadValue(format!(
                "score scale {}",
                n.score_scale
            )));
        }
        for row in n.rows.iter_mut().chain(std::iter::once(&mut n.bias)) {
            for v in &mut row.0 {
                *v = r.u16() as i16;
            }
        }
        for v in n.pool_mul.iter_mut().chain(n.pool_add.iter_mut()) {
            *v = r.u32() as i32;
        }
        for h in &mut n.value {
            r.bytes(&mut h.w1);
            r.ints(&mut h.b1);
            r.bytes(&mut h.w2);
            r.ints(&mut h.b2);
            r.bytes(&mut h.w3);
            r.ints(&mut h.b3);
        }
        for h in &mut n.policy {
            r.bytes(&mut h.wq);
            r.ints(&mut h.bq);
        }
        Ok(n)
    }
}

/// The clipped activation between dense layers: `clamp(v / QW, 0, 127)`, rounded.
#[inline]
fn activate<const N: usize>(v: &[i32; N]) -> [u8; N] {
    v.map(|s| ((s + QW / 2) >> QW.trailing_zeros()).clamp(0, QX) as u8)
}

/// A little-endian reader over a checked length.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let b: [u8; N] = self.bytes[self.at..self.at + N]
            .try_into()
            .expect("the length is checked before reading");
        self.at += N;
        b
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.take())
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn bytes(&mut self, out: &mut [i8]) {
        for v in out {
            *v = self.take::<1>()[0] as i8;
        }
    }
    fn ints(&mut self, out: &mut [i32]) {
        for v in out {
            *v = self.u32() as i32;
        }
    }
}

/// The networks of the rules that have one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NnueModel {
    nets: [Option<Box<Network>>; NET_RULES.len()],
}

/// The model of [`NnueModel::active`], once chosen.
static INSTALLED: OnceLock<NnueModel> = OnceLock::new();

/// The compiled-in model's bytes.
static EMBEDDED: &[u8] = include_bytes!("../../weights/nnue.bin");

impl NnueModel {
    /// The network of `rule`, if the model has one.
    #[must_use]
    pub fn net(&self, rule: Rule) -> Option<&Network> {
        net_slot(rule).and_then(|i| self.nets[i].as_deref())
    }

    /// Sets (or with `None` removes) the network of `rule`.
    ///
    /// # Panics
    /// For a rule without a network slot ([`NET_RULES`]).
    pub fn set_net(&mut self, rule: Rule, net: Option<Network>) {
        let i = net_slot(rule).expect("a rule with a network slot");
        self.nets[i] = net.map(Box::new);
    }

    /// The compiled-in model.
    ///
    /// # Panics
    /// If the compiled-in file is not a valid model (a unit test reads it).
    #[must_use]
    pub fn embedded() -> &'static NnueModel {
        static M: OnceLock<NnueModel> = OnceLock::new();
        M.get_or_init(|| NnueModel::from_bytes(EMBEDDED).expect("the compiled-in network is valid"))
    }

    /// The model in use: the one given to [`NnueModel::install`], else the compiled-in one.
    #[must_use]
    pub fn active() -> &'static NnueModel {
        INSTALLED.get_or_init(|| NnueModel::embedded().clone())
    }

    /// Makes `model` the model in use, for a program that compares models. It must come before
    /// the first search that uses the network; once the model is in use, it is given back.
    ///
    /// # Errors
    /// The model, when one is already in use.
    pub fn install(model: NnueModel) -> Result<(), NnueModel> {
        INSTALLED.set(model)
    }

    /// Reads a model file.
    ///
    /// # Errors
    /// A file of another format, shape or length.
    pub fn from_bytes(bytes: &[u8]) -> Result<NnueModel, NnueError> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(NnueError::BadMagic);
        }
        let mut r = Reader { bytes, at: 8 };
        let dims = [r.u32(), r.u32(), r.u32(), r.u32()];
        let want = [NUM_ROWS, FEAT, H1, H2].map(|v| v as u32);
        if dims != want {
            return Err(NnueError::BadShape(format!(
                "rows, features and hidden widths {dims:?}, expected {want:?}"
            )));
        }
        let mask = r.u32();
        if mask >> NET_RULES.len() != 0 {
            return Err(NnueError::BadShape(format!("rule mask {mask:#x}")));
        }
        let expected = HEADER + mask.count_ones() as usize * NET_BYTES;
        if bytes.len() != expected {
            return Err(NnueError::BadLength {
                expected,
                found: bytes.len(),
            });
        }
        let mut m = NnueModel::default();
        for (i, slot) in m.nets.iter_mut().enumerate() {
            if mask & (1 << i) != 0 {
                *slot = Some(Box::new(Network::read(&mut r)?));
            }
        }
        Ok(m)
    }

    /// The model file of this model.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        let mask = self
            .nets
            .iter()
            .enumerate()
            .filter(|(_, n)| n.is_some())
            .fold(0u32, |m, (i, _)| m | (1 << i));
        for v in [NUM_ROWS as u32, FEAT as u32, H1 as u32, H2 as u32, mask] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for n in self.nets.iter().flatten() {
            n.write(&mut out);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_model_reads_and_writes_back() {
        let m = NnueModel::embedded();
        assert_eq!(&NnueModel::from_bytes(&m.to_bytes()).expect("model"), m);
    }

    #[test]
    fn a_model_round_trips_and_bad_files_are_refused() {
        let mut m = NnueModel::default();
        let mut n = Network::zero();
        n.rows[5].0[3] = -77;
        n.value[1].w3[2] = -3;
        n.policy[0].bq[1] = 123_456;
        n.pool_add[4] = -9;
        m.set_net(Rule::Renju, Some(n));
        let bytes = m.to_bytes();
        assert_eq!(bytes.len(), HEADER + NET_BYTES);
        assert_eq!(NnueModel::from_bytes(&bytes), Ok(m.clone()));
        assert!(m.net(Rule::Freestyle).is_none() && m.net(Rule::Renju).is_some());
        assert_eq!(NnueModel::from_bytes(b"GMKEVAL1"), Err(NnueError::BadMagic));
        let mut short = bytes.clone();
        short.pop();
        assert!(matches!(
            NnueModel::from_bytes(&short),
            Err(NnueError::BadLength { .. })
        ));
        let mut other = bytes.clone();
        other[12..16].copy_from_slice(&64u32.to_le_bytes());
        assert!(matches!(
            NnueModel::from_bytes(&other),
            Err(NnueError::BadShape(_))
        ));
        let mut scale = bytes;
        scale[HEADER..HEADER + 4].copy_from_slice(&(-1.0f32).to_le_bytes());
        assert!(matches!(
            NnueModel::from_bytes(&scale),
            Err(NnueError::BadValue(_))
        ));
    }
}
