//! `gomoku tune-eval`: Texel tuning of the evaluation weights from finished games (position
//! lines with `result=`, as `gomoku match --positions` writes them). Prints the fitted scale,
//! the loss before and after on the training games and on held-out validation games, and the
//! weights now and tuned, with the tuned ones as the constants of `crates/engine/src/eval.rs`.
//! The search itself is in [`gomoku_engine::tune`].

use anyhow::{bail, Context, Result};
use gomoku_engine::eval::EvalParams;
use gomoku_engine::pattern::{NUM_PATTERN4, NUM_PATTERNS};
use gomoku_engine::record::Record;
use gomoku_engine::tune::{
    fit_scale, game_samples, is_tuned, loss, params_with, tune, weight_name, weights_of, Sample,
    TuneOptions, NUM_WEIGHTS,
};
use gomoku_engine::Color;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::path::PathBuf;

/// Arguments of `gomoku tune-eval`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Files of finished games, one per line: `<N> <rule> <moves...> | result=black|white|draw`
    /// (`gomoku match --positions FILE` writes them).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Plies of each game left out at its start (its opening).
    #[arg(long, default_value_t = 6)]
    pub skip_plies: usize,
    /// Every N-th game is held out for validation (0: none).
    #[arg(long, default_value_t = 10)]
    pub valid_every: usize,
    /// Gradient steps over the whole training set.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub iterations: u64,
    /// Step size (Adam), in evaluation units.
    #[arg(long, default_value_t = 0.5)]
    pub learning_rate: f64,
    /// Pull towards the current weights (lambda in lambda * sum (w - w0)^2).
    #[arg(long, default_value_t = 1e-7)]
    pub regularization: f64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct WeightJson {
    name: String,
    now: f64,
    tuned: i64,
    fixed: bool,
}

#[derive(Serialize)]
struct Report {
    games: usize,
    training_games: usize,
    validation_games: usize,
    training_positions: usize,
    validation_positions: usize,
    skipped_lines: usize,
    scale: f64,
    training_loss: [f64; 2],
    validation_loss: Option<[f64; 2]>,
    weights: Vec<WeightJson>,
}

/// The winner a line's `result=` names (`None` for a draw), or why the line has none.
fn result_of(rec: &Record) -> Result<Option<Color>, String> {
    match rec.get("result") {
        Some("black") => Ok(Some(Color::Black)),
        Some("white") => Ok(Some(Color::White)),
        Some("draw") => Ok(None),
        Some(other) => Err(format!("result={other} is not black, white or draw")),
        None => Err("no result= key (a finished game is needed)".to_string()),
    }
}

fn check(args: &Args) -> Result<()> {
    let finite_positive = |v: f64| v.is_finite() && v > 0.0;
    if !finite_positive(args.learning_rate) || args.learning_rate > 1000.0 {
        bail!(
            "--learning-rate {}: expected a number above 0 and at most 1000",
            args.learning_rate
        );
    }
    if !(args.regularization.is_finite() && (0.0..=1.0).contains(&args.regularization)) {
        bail!(
            "--regularization {}: expected a number from 0 to 1",
            args.regularization
        );
    }
    Ok(())
}

/// Runs the tuner.
///
/// # Errors
/// Bad arguments, a file that cannot be read, or no position to tune on.
pub fn run(args: &Args) -> Result<()> {
    check(args)?;
    let (mut train, mut valid) = (Vec::<Sample>::new(), Vec::<Sample>::new());
    let (mut games, mut train_games, mut valid_games, mut skipped) = (0, 0, 0, 0);
    for path in &args.files {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading the games file {}", path.display()))?;
        for (i, line) in text.lines().enumerate() {
            if Record::is_blank(line) {
                continue;
            }
            let at = format!("{}:{}", path.display(), i + 1);
            let parsed = Record::parse(line)
                .map_err(|e| e.to_string())
                .and_then(|rec| rec.game().map(|_| rec).map_err(|e| e.to_string()))
                .and_then(|rec| result_of(&rec).map(|w| (rec, w)));
            let (rec, winner) = match parsed {
                Ok(x) => x,
                Err(why) => {
                    eprintln!("warning: {at}: skipped: {why}");
                    skipped += 1;
                    continue;
                }
            };
            games += 1;
            let samples = game_samples(rec.size, rec.rule, &rec.moves, winner, args.skip_plies);
            if args.valid_every > 0 && games % args.valid_every == 0 {
                valid_games += 1;
                valid.extend(samples);
            } else {
                train_games += 1;
                train.extend(samples);
            }
        }
    }
    if train_games == 0 && valid_games > 0 {
        bail!(
            "--valid-every {} holds out every one of the {valid_games} games: none is left to \
             tune on (use 0 for no validation, or 2 or more)",
            args.valid_every
        );
    }
    if train.is_empty() {
        bail!(
            "no position to tune on in {} game{} (each game gives the positions after its first \
             {} plies but its last two, where neither side can make five)",
            train_games,
            if train_games == 1 { "" } else { "s" },
            args.skip_plies
        );
    }
    let base = EvalParams::default();
    let start = weights_of(&base);
    let k = fit_scale(&train, &start);
    let before = (loss(&train, &start, k), loss(&valid, &start, k));
    let bar = ProgressBar::new(args.iterations);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} iterations {msg} [{elapsed}<{eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let opts = TuneOptions {
        iterations: usize::try_from(args.iterations).unwrap_or(usize::MAX),
        learning_rate: args.learning_rate,
        regularization: args.regularization,
    };
    let tuned = tune(&train, &start, k, &opts, &mut |it, w| {
        bar.set_position(it as u64);
        bar.set_message(format!("loss {:.6}", loss(&train, w, k)));
    });
    bar.finish_and_clear();
    let params = params_with(&base, &tuned);
    // the loss of the weights as they would be written: whole numbers
    let rounded = weights_of(&params);
    let after = (loss(&train, &rounded, k), loss(&valid, &rounded, k));
    let report = Report {
        games,
        training_games: train_games,
        validation_games: valid_games,
        training_positions: train.len(),
        validation_positions: valid.len(),
        skipped_lines: skipped,
        scale: k,
        training_loss: [before.0, after.0],
        validation_loss: (!valid.is_empty()).then_some([before.1, after.1]),
        weights: (0..NUM_WEIGHTS)
            .map(|i| WeightJson {
                name: weight_name(i),
                now: start[i],
                tuned: rounded[i] as i64,
                fixed: !is_tuned(i),
            })
            .collect(),
    };
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    print!("{}", text_report(&report, &params));
    Ok(())
}

fn text_report(r: &Report, p: &EvalParams) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "games: {} ({} training, {} validation); positions: {} training, {} validation{}",
        r.games,
        r.training_games,
        r.validation_games,
        r.training_positions,
        r.validation_positions,
        if r.skipped_lines > 0 {
            format!("; {} lines skipped", r.skipped_lines)
        } else {
            String::new()
        }
    );
    let _ = writeln!(s, "scale K: {} (fitted to the current weights)", r.scale);
    let _ = write!(
        s,
        "loss (mean squared error of the expected score): training {:.6} -> {:.6}",
        r.training_loss[0], r.training_loss[1]
    );
    match r.validation_loss {
        Some([a, b]) => {
            let _ = writeln!(s, ", validation {a:.6} -> {b:.6}");
        }
        None => s.push('\n'),
    }
    let _ = writeln!(s, "{:<30} {:>7} {:>7}", "weight", "now", "tuned");
    for w in &r.weights {
        let _ = writeln!(
            s,
            "{:<30} {:>7} {:>7}{}",
            w.name,
            w.now,
            w.tuned,
            if w.fixed { "  (fixed)" } else { "" }
        );
    }
    let list = |v: &[i32]| {
        v.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(s, "\n// the tuned weights, as in crates/engine/src/eval.rs");
    let _ = writeln!(
        s,
        "const PATTERN_VALUE: [i32; NUM_PATTERNS] = [{}];",
        list(&p.pattern_value)
    );
    let _ = writeln!(
        s,
        "const PATTERN4_VALUE: [i32; NUM_PATTERN4] = [{}];",
        list(&p.pattern4_value)
    );
    // the threat terms' constants are their names in capitals
    for w in &r.weights[NUM_PATTERNS + NUM_PATTERN4..] {
        let _ = writeln!(s, "const {}: i32 = {};", w.name.to_uppercase(), w.tuned);
    }
    s
}
