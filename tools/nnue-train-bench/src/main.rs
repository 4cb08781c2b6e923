//! Training throughput of the NNUE network (forward, backward and optimiser step, in positions
//! per second) for the hand-written trainer and for the same network in candle and in burn.
//!
//! Every implementation trains on the same batches (synthetic ones, or positions of a binary
//! self-play corpus with `--corpus`) from the same initial weights (`FloatNet::random`), with
//! the same batch size, learning rate and loss. The losses they print (the first step's, the
//! last step's, and the mean of the first pass over the batches against the last pass) check
//! that they compute the same network and that it learns; the weights' fingerprint checks that
//! a run is the same whatever the number of threads.

use std::time::Instant;

use gomoku_engine::nnue::float::{
    value_target, FloatNet, Sample, StepOptions, Trainer, NUM_PARAMS,
};
use gomoku_engine::nnue::shape::NUM_SHAPES;
use gomoku_engine::nnue::threat::NUM_THREATS;
use gomoku_engine::nnue::{FEAT, H1, H2, NUM_ROWS, OUT, ROWS_PER_POINT};
use gomoku_engine::rng::{Rng, SplitMix64};
use gomoku_engine::{Board, Color, Pos, Rule};

#[cfg(feature = "burn")]
mod burn_impl;
#[cfg(feature = "candle")]
mod candle_impl;

/// Points of a 15x15 board.
pub const POINTS: usize = 225;

/// The flat parameter layout of `FloatNet::w` (private in the engine, restated here).
pub mod layout {
    use super::*;
    pub const SHAPES: usize = 0;
    pub const BIAS: usize = NUM_ROWS * FEAT;
    pub const POOL_S: usize = BIAS + FEAT;
    pub const POOL_T: usize = POOL_S + FEAT;
    pub const VALUE: usize = POOL_T + FEAT;
    pub const V_W1: usize = 0;
    pub const V_B1: usize = V_W1 + H1 * FEAT;
    pub const V_W2: usize = V_B1 + H1;
    pub const V_B2: usize = V_W2 + H2 * H1;
    pub const V_W3: usize = V_B2 + H2;
    pub const V_B3: usize = V_W3 + OUT * H2;
    pub const V_LEN: usize = V_B3 + OUT;
    pub const POLICY: usize = VALUE + 2 * V_LEN;
    pub const P_WQ: usize = 0;
    pub const P_BQ: usize = P_WQ + FEAT * FEAT;
    pub const P_LEN: usize = P_BQ + FEAT;
    pub const LEN: usize = POLICY + 2 * P_LEN;
    pub fn value(stm: usize) -> usize {
        VALUE + stm * V_LEN
    }
    pub fn policy(stm: usize) -> usize {
        POLICY + stm * P_LEN
    }
}

/// What a benchmark run is given.
#[derive(Clone, Debug)]
pub struct Args {
    pub imp: String,
    pub threads: usize,
    pub batch: usize,
    pub batches: usize,
    pub warmup: usize,
    pub steps: usize,
    pub reps: usize,
    pub lr: f32,
    pub policy_weight: f32,
    pub seed: u64,
    /// Drops the integer-grid rounding and the weight clipping (candle and burn only).
    pub plain: bool,
    /// candle: one gather of every row of all points (else one gather a row).
    pub joint_gather: bool,
    /// candle: the policy's dot products as a batched matmul (else a product and a sum).
    pub policy_matmul: bool,
    /// Leaves glibc's malloc at its defaults (else large blocks stay in the heap).
    pub default_malloc: bool,
    /// A self-play corpus (`gomoku selfplay --format bin`, 15x15) to take the samples from,
    /// instead of the synthetic ones.
    pub corpus: Option<String>,
}

/// One implementation's training loop.
pub trait Bench {
    /// One optimiser step on `batch`; returns the mean value and policy losses.
    fn step(&mut self, batch: &[Sample]) -> (f64, f64);
    /// Every parameter, in any fixed order (for [`fingerprint`]).
    fn weights(&self) -> Vec<f32>;
}

/// FNV-1a of the bits of `w`: equal fingerprints mean bit-identical weights.
pub fn fingerprint(w: &[f32]) -> u64 {
    w.iter().fold(0xcbf2_9ce4_8422_2325, |h, v| {
        (h ^ u64::from(v.to_bits())).wrapping_mul(0x0100_0000_01b3)
    })
}

struct Hand {
    trainer: Trainer,
    opts: StepOptions,
}

impl Bench for Hand {
    fn step(&mut self, batch: &[Sample]) -> (f64, f64) {
        let l = self.trainer.step(batch, self.opts);
        (l.value, l.policy)
    }
    fn weights(&self) -> Vec<f32> {
        self.trainer.net.w.clone()
    }
}

/// A number in [0, 1) from `rng`, for the synthetic samples.
fn unit(rng: &mut SplitMix64) -> f32 {
    (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32
}

/// `n` synthetic samples: uniform shape classes and threat rows, 45 stones (so 180 empty points), a target
/// among the empty points and a random win/draw/loss distribution.
pub fn synthetic(n: usize, seed: u64) -> Vec<Sample> {
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .map(|_| {
            let rows: Vec<[u16; ROWS_PER_POINT]> = (0..POINTS)
                .map(|_| {
                    std::array::from_fn(|d| {
                        if d < 4 {
                            rng.below(NUM_SHAPES) as u16
                        } else {
                            (NUM_SHAPES + rng.below(NUM_THREATS)) as u16
                        }
                    })
                })
                .collect();
            let mut order: Vec<u16> = (0..POINTS as u16).collect();
            for i in (1..POINTS).rev() {
                order.swap(i, rng.below(i + 1));
            }
            let mut empty = order[45..].to_vec();
            empty.sort_unstable();
            let target = empty[rng.below(empty.len())];
            let v = [
                unit(&mut rng) + 0.01,
                unit(&mut rng) * 0.3,
                unit(&mut rng) + 0.01,
            ];
            let sum: f32 = v.iter().sum();
            Sample {
                rows,
                empty,
                to_move: (rng.next_u64() & 1) as u8,
                target: Some(target),
                value: v.map(|x| x / sum),
            }
        })
        .collect()
}

/// Up to `n` samples of the 15x15 games of the binary corpus at `path`, as `gomoku nnue train`
/// makes them (the board before each move after the opening, the move as the policy's target,
/// half the game's result and half the search's value as the value target), shuffled with
/// `seed`.
pub fn from_corpus(path: &str, n: usize, seed: u64) -> Vec<Sample> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    assert!(
        bytes.starts_with(b"GMKCORP1"),
        "{path} is not a binary corpus"
    );
    let word = |b: &[u8], i: usize| u16::from_le_bytes([b[2 * i], b[2 * i + 1]]);
    let mut out = Vec::new();
    let mut at = 8;
    while at + 6 <= bytes.len() {
        let [rule, size, result, opening] = [0, 1, 2, 3].map(|i| bytes[at + i]);
        let moves = usize::from(u16::from_le_bytes([bytes[at + 4], bytes[at + 5]]));
        let opening = usize::from(opening);
        let body = &bytes[at + 6..at + 6 + 2 * moves + 2 * (moves - opening)];
        at += 6 + body.len();
        if size != 15 {
            continue;
        }
        let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju][usize::from(rule)];
        let winner = [None, Some(Color::Black), Some(Color::White)][usize::from(result)];
        let mut board = Board::new(15, rule).expect("a 15x15 board");
        for i in 0..moves {
            let code = usize::from(word(body, i));
            let p = if code == 0xFFFF {
                Pos::PASS
            } else {
                Pos::new(code % 15, code / 15)
            };
            if i >= opening && p.is_point() {
                let mover = Color::BOTH[i % 2];
                let r = match winner {
                    Some(w) if w == mover => 1,
                    Some(_) => -1,
                    None => 0,
                };
                let v = word(body, moves + i - opening) as i16;
                let search = match v {
                    32_000 => f32::INFINITY,
                    -32_000 => f32::NEG_INFINITY,
                    v => f32::from(v),
                };
                let t = value_target(r, Some(search), 0.5, 400.0);
                out.push(Sample::from_board(&board, Some(code as u16), t));
            }
            if p.is_pass() {
                board.pass();
            } else {
                board.try_play(p).expect("the corpus's moves play");
            }
        }
    }
    let mut rng = SplitMix64::new(seed);
    for i in (1..out.len()).rev() {
        out.swap(i, rng.below(i + 1));
    }
    assert!(
        out.len() >= n,
        "{path} has {} positions of 15x15 games, fewer than the {n} asked for",
        out.len()
    );
    out.truncate(n);
    out
}

/// The mean number of distinct shape classes (rows of the shape table) in a batch.
fn rows_touched(batches: &[&[Sample]]) -> f64 {
    let mut mark = vec![usize::MAX; NUM_ROWS];
    let mut total = 0;
    for (b, batch) in batches.iter().enumerate() {
        for s in batch.iter() {
            for &c in s.rows.iter().flatten() {
                if mark[usize::from(c)] != b {
                    mark[usize::from(c)] = b;
                    total += 1;
                }
            }
        }
    }
    total as f64 / batches.len() as f64
}

/// User and system CPU seconds of this process so far (from /proc; 0 elsewhere).
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // the fields after the command name, which is in parentheses
    let rest = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name
    (ticks(11) + ticks(12)) / 100.0
}

/// Makes glibc's malloc serve blocks up to 32 MiB from the heap and never give the heap back:
/// the tensor libraries allocate tensors of tens of MiB at every operation, and with the
/// defaults each one is a fresh mmap whose pages fault in again (half the run time in the
/// kernel). The hand trainer allocates little, so this does not change its numbers.
fn keep_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets allocator parameters; nothing else runs yet.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
    }
}

fn parse_args() -> Args {
    let mut a = Args {
        imp: "hand".into(),
        threads: 1,
        batch: 1024,
        batches: 4,
        warmup: 3,
        steps: 20,
        reps: 3,
        lr: 2e-3,
        policy_weight: 0.3,
        seed: 1,
        plain: false,
        joint_gather: false,
        policy_matmul: false,
        default_malloc: false,
        corpus: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let switch = match flag.as_str() {
            "--plain" => Some(&mut a.plain),
            "--joint-gather" => Some(&mut a.joint_gather),
            "--policy-matmul" => Some(&mut a.policy_matmul),
            "--default-malloc" => Some(&mut a.default_malloc),
            _ => None,
        };
        if let Some(on) = switch {
            *on = true;
            continue;
        }
        if flag == "--help" || flag == "-h" {
            println!(
                "nnue-train-bench --impl hand|candle|burn [--threads N] [--batch 1024] \
                 [--steps 20] [--warmup 3] [--reps 3] [--batches 4] [--lr 0.002] \
                 [--policy-weight 0.3] [--seed 1] [--corpus FILE.bin] [--plain] \
                 [--joint-gather] [--policy-matmul] [--default-malloc]"
            );
            std::process::exit(0);
        }
        let val = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        let num = |v: &str| {
            v.parse::<usize>()
                .unwrap_or_else(|_| panic!("bad {flag} {v}"))
        };
        match flag.as_str() {
            "--impl" => a.imp = val,
            "--threads" => a.threads = num(&val).max(1),
            "--batch" => a.batch = num(&val).max(1),
            "--batches" => a.batches = num(&val).max(1),
            "--warmup" => a.warmup = num(&val),
            "--steps" => a.steps = num(&val).max(1),
            "--reps" => a.reps = num(&val).max(1),
            "--lr" => a.lr = val.parse().expect("--lr"),
            "--policy-weight" => a.policy_weight = val.parse().expect("--policy-weight"),
            "--seed" => a.seed = val.parse().expect("--seed"),
            "--corpus" => a.corpus = Some(val),
            _ => panic!("unknown flag {flag} (see --help)"),
        }
    }
    a
}

fn main() {
    let args = parse_args();
    assert_eq!(
        layout::LEN,
        NUM_PARAMS,
        "the engine's parameter layout changed"
    );
    // candle's and burn's thread pools (rayon's) read these when they start
    if std::env::var_os("RAYON_NUM_THREADS").is_none() {
        std::env::set_var("RAYON_NUM_THREADS", args.threads.to_string());
    }
    if std::env::var_os("CANDLE_NUM_THREADS").is_none() {
        std::env::set_var("CANDLE_NUM_THREADS", args.threads.to_string());
    }
    // burn's ndarray backend multiplies matrices with matrixmultiply, whose own threads default
    // to the physical cores
    if std::env::var_os("MATMUL_NUM_THREADS").is_none() {
        std::env::set_var("MATMUL_NUM_THREADS", args.threads.to_string());
    }
    if !args.default_malloc {
        keep_large_blocks();
    }
    let net = FloatNet::random(args.seed);
    let mut bench: Box<dyn Bench> = match args.imp.as_str() {
        "hand" => Box::new(Hand {
            trainer: Trainer::new(net),
            opts: StepOptions {
                lr: args.lr,
                policy_weight: args.policy_weight,
                threads: args.threads,
            },
        }),
        #[cfg(feature = "candle")]
        "candle" => Box::new(candle_impl::Candle::new(&net, &args).expect("candle network")),
        #[cfg(feature = "burn")]
        "burn" => burn_impl::new(&net, &args),
        other => {
            eprintln!(
                "implementation {other} is unknown or not built in (cargo features candle, burn)"
            );
            std::process::exit(2);
        }
    };
    let n = args.batch * args.batches;
    let samples = match &args.corpus {
        Some(path) => from_corpus(path, n, 0x5eed ^ args.seed),
        None => synthetic(n, 0x5eed ^ args.seed),
    };
    let batches: Vec<&[Sample]> = samples.chunks_exact(args.batch).collect();
    println!(
        "samples: {} ({} batches of {}), {:.0} of the {NUM_ROWS} rows of the feature table in a batch",
        args.corpus.as_deref().unwrap_or("synthetic"),
        batches.len(),
        args.batch,
        rows_touched(&batches)
    );
    let mut k = 0;
    let mut next = || {
        let b = batches[k % batches.len()];
        k += 1;
        b
    };
    // every step's loss (value + policy_weight * policy), for the sanity check
    let mut losses = Vec::new();
    let pw = f64::from(args.policy_weight);
    let (v0, p0) = bench.step(next());
    losses.push(v0 + pw * p0);
    println!(
        "impl={} threads={} batch={} plain={} joint_gather={} policy_matmul={} default_malloc={} \
         first step loss value {v0:.5} policy {p0:.5}",
        args.imp,
        args.threads,
        args.batch,
        args.plain,
        args.joint_gather,
        args.policy_matmul,
        args.default_malloc
    );
    for _ in 1..args.warmup {
        let (v, p) = bench.step(next());
        losses.push(v + pw * p);
    }
    let mut rates = Vec::new();
    let mut last = (0.0, 0.0);
    for rep in 0..args.reps {
        let (t0, c0) = (Instant::now(), cpu_seconds());
        for _ in 0..args.steps {
            last = bench.step(next());
            losses.push(last.0 + pw * last.1);
        }
        let (wall, cpu) = (t0.elapsed().as_secs_f64(), cpu_seconds() - c0);
        let rate = (args.steps * args.batch) as f64 / wall;
        println!(
            "rep {rep}: {rate:.0} positions/s ({:.1} ms a step, {:.2} cores busy)",
            1e3 * wall / args.steps as f64,
            cpu / wall
        );
        rates.push(rate);
    }
    rates.sort_by(f64::total_cmp);
    let median = rates[rates.len() / 2];
    println!(
        "last step loss value {:.5} policy {:.5}; after {} steps; weights {:016x}",
        last.0,
        last.1,
        losses.len(),
        fingerprint(&bench.weights())
    );
    // the mean loss over the first pass over the batches against the last pass (the same
    // batches, so the numbers compare)
    let k = batches.len().min(losses.len() / 2).max(1);
    let mean = |l: &[f64]| l.iter().sum::<f64>() / l.len() as f64;
    let (first, end) = (mean(&losses[..k]), mean(&losses[losses.len() - k..]));
    println!(
        "SANITY loss (value + {pw:.2} policy) over the first {k} steps {first:.5}, over the last \
         {k} {end:.5}: {}",
        if end < first {
            "falls"
        } else {
            "DOES NOT FALL"
        }
    );
    println!(
        "RESULT impl={} threads={} batch={} plain={} samples={} median {median:.0} positions/s",
        args.imp,
        args.threads,
        args.batch,
        args.plain,
        if args.corpus.is_some() {
            "corpus"
        } else {
            "synthetic"
        }
    );
}
