//! `gomoku nnue train`: trains one rule's network on corpora read as a stream.
//!
//! Every epoch reads the files (in an order drawn from the seed and the epoch) game by game.
//! Games are gathered into windows of about `--window` positions; a window's positions become
//! samples, each game in an orientation (and, where the colours are alike, a colouring) drawn
//! from the seed, and are shuffled and cut into batches; what is left of a window after its
//! last whole batch is dropped. So a run is a function of its files and options, and a
//! checkpoint, written between windows, says where to go on from.

use super::data::{colours_alike, for_each_position, held_out, open, SampleOptions};
use super::report::{fit_value_scale, report};
use crate::corpus::GameRecord;
use anyhow::{bail, Context, Result};
use gomoku_engine::nnue::float::{FloatNet, Sample, StepOptions, Trainer};
use gomoku_engine::nnue::{Network, NnueModel};
use gomoku_engine::rng::{mix, Rng, SplitMix64};
use gomoku_engine::Rule;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `gomoku nnue train`.
#[derive(Debug, Clone, clap::Args)]
pub struct TrainArgs {
    /// Corpus files: binary corpora (`gomoku selfplay --format bin`) or text lines with
    /// `result=`, `opening_plies=` and `values=` keys.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The rule whose games train its network (the others are skipped).
    #[arg(long, value_parser = crate::args::parse_rule)]
    pub rule: Rule,
    /// The network file to write: the rule's network goes into it, the other rules' networks
    /// in an existing file stay.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Passes over the training games.
    #[arg(long, default_value_t = 4)]
    pub epochs: u64,
    /// Positions a step.
    #[arg(long, default_value_t = 1024)]
    pub batch: usize,
    /// Positions gathered and shuffled together.
    #[arg(long, default_value_t = 65_536)]
    pub window: usize,
    /// Adam's step size at the start; it falls linearly to `--lr-end`.
    #[arg(long, default_value_t = 2e-3)]
    pub lr: f32,
    /// Adam's step size at the end.
    #[arg(long, default_value_t = 1e-4)]
    pub lr_end: f32,
    /// Weight of the policy's loss beside the value's.
    #[arg(long, default_value_t = 0.3)]
    pub policy_weight: f32,
    /// Share of the game's result in the value target; the rest is the search's value.
    #[arg(long, default_value_t = 0.5)]
    pub result_weight: f32,
    /// Evaluation units per unit of logit of the search's values, also the network's score
    /// scale (default: fitted to the held-out games' values and results).
    #[arg(long)]
    pub value_scale: Option<f32>,
    /// One game in N is held out (0: none).
    #[arg(long, default_value_t = 50)]
    pub valid_every: u64,
    /// The most held-out games kept for the report.
    #[arg(long, default_value_t = 2_000)]
    pub valid_games: usize,
    /// Start from the rule's network in this model file (`embedded`: the compiled-in one)
    /// instead of random weights; its score scale is kept unless `--value-scale` is given.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Seed of the network's start, the orientations and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads of a step (the result does not depend on them).
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Checkpoint file: written every `--checkpoint-every` windows and at the end.
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Windows between checkpoints.
    #[arg(long, default_value_t = 8)]
    pub checkpoint_every: u64,
    /// Go on from `--checkpoint` (the same files and options).
    #[arg(long, requires = "checkpoint")]
    pub resume: bool,
    /// Stop after this many windows of this run, with a checkpoint to go on from (a run in
    /// slices).
    #[arg(long, requires = "checkpoint")]
    pub max_windows: Option<u64>,
    /// No progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

const CHECKPOINT_MAGIC: &[u8; 8] = b"GMKNNCK1";

/// Where a run stands: the next window to train.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Position {
    epoch: u64,
    window: u64,
}

/// What a checkpoint must agree with to go on from it: every option that changes the numbers.
fn fingerprint(args: &TrainArgs, value_scale: f32) -> String {
    let files: Vec<String> = args.files.iter().map(|f| f.display().to_string()).collect();
    format!(
        "rule={} files={files:?} batch={} window={} lr={} lr_end={} epochs={} policy={} result={} scale={value_scale} valid={} seed={} init={:?}",
        args.rule, args.batch, args.window, args.lr, args.lr_end, args.epochs,
        args.policy_weight, args.result_weight, args.valid_every, args.seed, args.init
    )
}

fn save_checkpoint(path: &Path, print: &str, at: Position, trainer: &Trainer) -> Result<()> {
    let mut out = CHECKPOINT_MAGIC.to_vec();
    out.extend_from_slice(&(print.len() as u32).to_le_bytes());
    out.extend_from_slice(print.as_bytes());
    out.extend_from_slice(&at.epoch.to_le_bytes());
    out.extend_from_slice(&at.window.to_le_bytes());
    out.extend_from_slice(&trainer.to_bytes());
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, &out).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))
}

fn load_checkpoint(path: &Path, print: &str) -> Result<(Position, Trainer)> {
    let shown = path.display();
    let b = std::fs::read(path).with_context(|| format!("reading the checkpoint {shown}"))?;
    if b.len() < 12 || &b[..8] != CHECKPOINT_MAGIC {
        bail!("{shown} is not a training checkpoint");
    }
    let n = u32::from_le_bytes(b[8..12].try_into().expect("4 bytes")) as usize;
    let Some(theirs) = b.get(12..12 + n) else {
        bail!("{shown}: the checkpoint is cut short");
    };
    if theirs != print.as_bytes() {
        bail!(
            "{shown} was written by a run with other files or options:\n  it: {}\n  now: {print}",
            String::from_utf8_lossy(theirs)
        );
    }
    let rest = &b[12 + n..];
    if rest.len() < 16 {
        bail!("{shown}: the checkpoint is cut short");
    }
    let at = Position {
        epoch: u64::from_le_bytes(rest[..8].try_into().expect("8 bytes")),
        window: u64::from_le_bytes(rest[8..16].try_into().expect("8 bytes")),
    };
    let trainer = Trainer::from_bytes(&rest[16..])
        .with_context(|| format!("{shown}: the network in the checkpoint has another shape"))?;
    Ok((at, trainer))
}

/// The training and held-out games' counts, and the held-out games kept.
struct Scan {
    train_positions: u64,
    train_games: u64,
    held: Vec<GameRecord>,
}

fn scan(args: &TrainArgs) -> Result<Scan> {
    let mut s = Scan {
        train_positions: 0,
        train_games: 0,
        held: Vec::new(),
    };
    for f in &args.files {
        for g in open(f)? {
            let g = g?;
            if g.rule != args.rule {
                continue;
            }
            if held_out(&g, args.valid_every) {
                if s.held.len() < args.valid_games {
                    s.held.push(g);
                }
            } else {
                s.train_games += 1;
                s.train_positions += g.positions() as u64;
            }
        }
    }
    Ok(s)
}

/// The training games of one epoch, a window at a time.
struct Stream<'a> {
    args: &'a TrainArgs,
    order: Vec<usize>,
    next_file: usize,
    games: Option<super::data::Games>,
}

impl<'a> Stream<'a> {
    fn new(args: &'a TrainArgs, epoch: u64) -> Stream<'a> {
        let mut order: Vec<usize> = (0..args.files.len()).collect();
        SplitMix64::new(mix(args.seed, 1_000 + epoch)).shuffle(&mut order);
        Stream {
            args,
            order,
            next_file: 0,
            games: None,
        }
    }

    fn next_game(&mut self) -> Result<Option<GameRecord>> {
        loop {
            if let Some(games) = &mut self.games {
                for g in games.by_ref() {
                    let g = g?;
                    if g.rule == self.args.rule && !held_out(&g, self.args.valid_every) {
                        return Ok(Some(g));
                    }
                }
            }
            let Some(&f) = self.order.get(self.next_file) else {
                return Ok(None);
            };
            self.next_file += 1;
            self.games = Some(open(&self.args.files[f])?);
        }
    }

    /// The games of the next window (`None` at the end of the epoch).
    fn next_window(&mut self) -> Result<Option<Vec<GameRecord>>> {
        let mut games = Vec::new();
        let mut positions = 0;
        while positions < self.args.window {
            let Some(g) = self.next_game()? else { break };
            positions += g.positions();
            games.push(g);
        }
        Ok((!games.is_empty()).then_some(games))
    }
}

/// The shuffled samples of window `w` of `epoch`.
fn window_samples(
    args: &TrainArgs,
    games: &[GameRecord],
    at: Position,
    opts: SampleOptions,
) -> Result<Vec<Sample>> {
    let mut rng = SplitMix64::new(mix(args.seed, (at.epoch << 32) | at.window));
    let mut samples = Vec::new();
    let mut s = Sample::default();
    for g in games {
        let sym = rng.below(8);
        let swap = colours_alike(g.rule) && rng.below(2) == 1;
        for_each_position(g, sym, swap, opts, &mut s, |_, s| samples.push(s.clone()))?;
    }
    rng.shuffle(&mut samples);
    Ok(samples)
}

fn progress_bar(args: &TrainArgs, total: u64) -> ProgressBar {
    let bar = if args.no_progress {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(total)
    };
    bar.set_style(
        ProgressStyle::with_template("{prefix} {bar:30} {pos}/{len} steps {msg} [{elapsed}<{eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_prefix(args.rule.name());
    bar
}

/// Runs `gomoku nnue train`.
///
/// # Errors
/// Unreadable corpora or checkpoints, no training game, a file that cannot be written.
pub fn run(args: &TrainArgs) -> Result<()> {
    if gomoku_engine::nnue::net_slot(args.rule).is_none() {
        bail!(
            "--rule {}: networks are trained for freestyle, standard and renju",
            args.rule
        );
    }
    if args.batch == 0 || args.window < args.batch {
        bail!("--batch must be at least 1 and --window at least --batch");
    }
    let started = Instant::now();
    let scan = scan(args)?;
    if scan.train_games == 0 {
        bail!("no {} game to train on in the files", args.rule);
    }
    let init = args
        .init
        .as_deref()
        .map(|path| initial_net(path, args.rule))
        .transpose()?;
    let value_scale = args
        .value_scale
        .or(init.as_ref().map(|n| n.score_scale))
        .unwrap_or_else(|| fit_value_scale(&scan.held) as f32);
    let opts = SampleOptions {
        result_weight: args.result_weight,
        value_scale,
    };
    eprintln!(
        "{}: {} training games ({} positions), {} held out; value scale {value_scale}",
        args.rule,
        scan.train_games,
        scan.train_positions,
        scan.held.len()
    );
    let print = fingerprint(args, value_scale);
    let (at, mut trainer) = match (&args.checkpoint, args.resume) {
        (Some(path), true) => load_checkpoint(path, &print)?,
        _ => (
            Position::default(),
            Trainer::new(init.unwrap_or_else(|| FloatNet::random(args.seed))),
        ),
    };
    trainer.net.score_scale = value_scale;
    let per_epoch = scan.train_positions / args.batch as u64;
    let total = (per_epoch * args.epochs).max(1);
    let bar = progress_bar(args, total);
    bar.set_position(trainer.steps.min(total));
    let trained = train_windows(args, opts, &print, &mut trainer, at, total, &bar)?;
    bar.finish_and_clear();
    let quantized: &'static Network = Box::leak(Box::new(trainer.net.quantize()));
    let rep = report(
        &trainer.net.rounded(),
        quantized,
        &scan.held,
        opts,
        args.policy_weight,
    );
    for line in rep.lines(args.rule.name()) {
        println!("{line}");
    }
    println!(
        "trained {} steps ({} positions this run) in {:.0} s",
        trainer.steps,
        trained,
        started.elapsed().as_secs_f64()
    );
    if let Some(out) = &args.out {
        write_model(out, args.rule, quantized.clone())?;
        println!("wrote the {} network into {}", args.rule, out.display());
    }
    Ok(())
}

/// Trains from `at` to the end of the last epoch (or `--max-windows` windows), writing
/// checkpoints; the number of positions trained.
fn train_windows(
    args: &TrainArgs,
    opts: SampleOptions,
    print: &str,
    trainer: &mut Trainer,
    mut at: Position,
    total: u64,
    bar: &ProgressBar,
) -> Result<u64> {
    let mut trained = 0u64;
    let mut windows_run = 0u64;
    let started = Instant::now();
    let (mut run_v, mut run_p) = (0.0f64, 0.0f64);
    while at.epoch < args.epochs {
        let mut stream = Stream::new(args, at.epoch);
        let mut w = 0u64;
        while let Some(games) = stream.next_window()? {
            if w < at.window {
                w += 1;
                continue;
            }
            if args.max_windows.is_some_and(|m| windows_run >= m) {
                return Ok(trained);
            }
            windows_run += 1;
            let here = Position {
                epoch: at.epoch,
                window: w,
            };
            for batch in window_samples(args, &games, here, opts)?.chunks_exact(args.batch) {
                let progress = (trainer.steps as f32 / total as f32).min(1.0);
                let lr = args.lr + (args.lr_end - args.lr) * progress;
                let l = trainer.step(
                    batch,
                    StepOptions {
                        lr,
                        policy_weight: args.policy_weight,
                        threads: args.threads,
                    },
                );
                let a = if trained == 0 { 1.0 } else { 0.02 };
                run_v += a * (l.value - run_v);
                run_p += a * (l.policy - run_p);
                trained += batch.len() as u64;
                bar.inc(1);
                let rate = trained as f64 / started.elapsed().as_secs_f64().max(1e-9);
                bar.set_message(format!(
                    "value {run_v:.4} policy {run_p:.3} {rate:.0} positions/s"
                ));
            }
            w += 1;
            at.window = w;
            if let Some(path) = &args.checkpoint {
                let last = args.max_windows.is_some_and(|m| windows_run >= m);
                if last || w % args.checkpoint_every.max(1) == 0 {
                    save_checkpoint(path, print, at, trainer)?;
                }
            }
        }
        at = Position {
            epoch: at.epoch + 1,
            window: 0,
        };
        if let Some(path) = &args.checkpoint {
            save_checkpoint(path, print, at, trainer)?;
        }
    }
    Ok(trained)
}

/// The float network to start from: `rule`'s network in the model file `path`, or in the
/// compiled-in model for `embedded`.
fn initial_net(path: &Path, rule: Rule) -> Result<FloatNet> {
    let read;
    let model = if path.as_os_str() == "embedded" {
        NnueModel::embedded()
    } else {
        read = read_model(path).with_context(|| format!("--init {}", path.display()))?;
        &read
    };
    let net = model
        .net(rule)
        .with_context(|| format!("--init {}: no {rule} network in it", path.display()))?;
    Ok(FloatNet::from_network(net))
}

/// The model file `path`.
fn read_model(path: &Path) -> Result<NnueModel> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    NnueModel::from_bytes(&bytes)
        .with_context(|| format!("{} is not a network file", path.display()))
}

/// Puts `net` into the model file `out` as `rule`'s network (keeping the others there).
fn write_model(out: &Path, rule: Rule, net: Network) -> Result<()> {
    let mut model = if out.exists() {
        read_model(out)?
    } else {
        NnueModel::default()
    };
    model.set_net(rule, Some(net));
    std::fs::write(out, model.to_bytes()).with_context(|| format!("writing {}", out.display()))
}
