//! `gomoku train`: trains the learned evaluation ([`gomoku_engine::eval::EvalModel`]) on
//! self-play corpora (`gomoku selfplay`) and writes the model file the engine compiles in.
//!
//! Each rule found in the files is trained on its own games; the other rules keep the
//! starting model's tables. Every `--valid-every`-th game (after a shuffle by `--seed`) is held
//! out, and its loss says whether the fit carries over. The training itself is
//! [`gomoku_engine::train`].

use anyhow::{bail, Context, Result};
use gomoku_engine::eval::{EvalModel, EvalParams};
use gomoku_engine::record::Record;
use gomoku_engine::rng::{Rng, XorShift64};
use gomoku_engine::search::score::WIN;
use gomoku_engine::train::{
    fit_policy_scale, fit_scale, game_policy, game_rows, loss, policy_loss, train, train_policy,
    CorpusGame, Dataset, Layout, PolicyData, PolicyLayout, TrainOptions,
};
use gomoku_engine::{Color, Rule};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::path::PathBuf;

/// Arguments of `gomoku train`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Corpus files, one game per line: `<N> <rule> <moves...> | result=black|white|draw
    /// opening_plies=K values=v,v,...` (`gomoku selfplay` writes them; a value is a number, `W`
    /// or `L` for a proven result, `?` when unknown; `gomoku match --positions`
    /// lines, without values, train on the results alone).
    #[arg(required_unless_present = "results_only")]
    pub files: Vec<PathBuf>,
    /// Corpus files whose games train on their results alone, their values ignored: games
    /// against another engine, where our search's values share the blind spots of the
    /// evaluation being trained. Read after FILES. Repeatable.
    #[arg(long, value_name = "FILE")]
    pub results_only: Vec<PathBuf>,
    /// Where to write the trained model (e.g. crates/engine/weights/eval.bin).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Start from (and pull towards) this model file instead of the compiled-in model.
    #[arg(long, conflicts_with = "from_formula")]
    pub from: Option<PathBuf>,
    /// Start from (and pull towards) the hand-set formula instead of the compiled-in model.
    #[arg(long)]
    pub from_formula: bool,
    /// Plies at the start of a game without `opening_plies=` left out.
    #[arg(long, default_value_t = 6)]
    pub skip_plies: usize,
    /// Every N-th game is held out for validation (0: none).
    #[arg(long, default_value_t = 10)]
    pub valid_every: usize,
    /// Seed of the shuffle that decides which games are held out.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Full-batch gradient steps.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub iterations: u64,
    /// Step size (Adam), in evaluation units.
    #[arg(long, default_value_t = 2.0)]
    pub learning_rate: f64,
    /// Pull towards the starting model (lambda in lambda * sum (w - w0)^2).
    #[arg(long, default_value_t = 1e-6)]
    pub regularization: f64,
    /// Share of the game's result in the target; the rest is the search's value.
    #[arg(long, default_value_t = 0.5)]
    pub result_weight: f64,
    /// Full-batch steps of the move-ordering training (0: keep the starting model's ordering).
    #[arg(long, default_value_t = 200)]
    pub policy_iterations: u64,
    /// Step size of the move-ordering training, in ordering-score units.
    #[arg(long, default_value_t = 4.0)]
    pub policy_learning_rate: f64,
    /// Pull of the move-ordering scores towards the starting model's.
    #[arg(long, default_value_t = 1e-7)]
    pub policy_regularization: f64,
    /// `RULE=FROM`: RULE trains on FROM's games too, replayed under its own rule (e.g.
    /// `standard=freestyle`: the two differ only in overlines), beside any of its own.
    /// Repeatable.
    #[arg(long, value_name = "RULE=FROM", value_parser = parse_borrow)]
    pub borrow: Vec<(Rule, Rule)>,
    /// Score the starting model on every game of the files instead of training: its loss
    /// against the mixed target and against the results alone, under the scale fitted to it
    /// (to compare models on games none of them trained on, e.g. a new match against Rapfi).
    #[arg(long, conflicts_with = "out")]
    pub score: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

fn parse_borrow(s: &str) -> Result<(Rule, Rule), String> {
    let (to, from) = s
        .split_once('=')
        .ok_or_else(|| format!("'{s}': expected RULE=FROM, e.g. standard=freestyle"))?;
    let rule = |name: &str| {
        name.trim()
            .parse::<Rule>()
            .ok()
            .filter(|r| gomoku_engine::eval::MODEL_RULES.contains(r))
            .ok_or_else(|| {
                format!("'{name}' is not a rule with a model (freestyle, standard or renju)")
            })
    };
    let (to, from) = (rule(to)?, rule(from)?);
    if to == from {
        return Err(format!("'{s}': a rule cannot borrow its own games"));
    }
    Ok((to, from))
}

#[derive(Serialize)]
struct RuleReport {
    rule: &'static str,
    games: usize,
    /// The rules whose games were used, joined by `+` (others than its own under `--borrow`).
    games_of: String,
    training_positions: usize,
    validation_positions: usize,
    scale: f64,
    /// Loss against the mixed target, before and after.
    training_loss: [f64; 2],
    validation_loss: Option<[f64; 2]>,
    /// Loss against the game results alone, held-out games, before and after.
    validation_result_loss: Option<[f64; 2]>,
    /// Move ordering: positions, the score scale, and on held-out games the cross-entropy of
    /// the chosen moves and the share ranked first, before and after.
    policy: Option<PolicyReport>,
}

#[derive(Serialize)]
struct PolicyReport {
    training_positions: usize,
    validation_positions: usize,
    scale: f64,
    validation_cross_entropy: [f64; 2],
    validation_top1: [f64; 2],
}

#[derive(Serialize)]
struct ScoreReport {
    rule: &'static str,
    games: usize,
    games_of: String,
    positions: usize,
    scale: f64,
    /// Loss against the mixed target (results and search values).
    loss: f64,
    /// Loss against the game results alone.
    result_loss: f64,
}

#[derive(Serialize)]
struct Report {
    skipped_lines: usize,
    rules: Vec<RuleReport>,
    out: Option<String>,
}

/// The game of one corpus line, or why it has none.
fn corpus_game(rec: &Record, skip_plies: usize, results_only: bool) -> Result<CorpusGame, String> {
    rec.game().map_err(|e| e.to_string())?;
    let winner = match rec.get("result") {
        Some("black") => Some(Color::Black),
        Some("white") => Some(Color::White),
        Some("draw") => None,
        Some(other) => return Err(format!("result={other} is not black, white or draw")),
        None => return Err("no result= key (a finished game is needed)".to_string()),
    };
    let opening_len = match rec.get("opening_plies") {
        Some(v) => v
            .parse::<usize>()
            .map_err(|_| format!("opening_plies={v} is not a number"))?,
        None => skip_plies,
    };
    let values = match rec.get("values") {
        None | Some("") => Vec::new(),
        Some(v) => v
            .split(',')
            .map(|t| match t {
                "W" => Ok(Some(WIN)),
                "L" => Ok(Some(-WIN)),
                "?" => Ok(None),
                _ => t
                    .parse::<i32>()
                    .map(Some)
                    .map_err(|_| format!("values: '{t}' is not a number, W, L or ?")),
            })
            .collect::<Result<Vec<_>, _>>()?,
    };
    // one value per move after the opening: a count that differs means the opening's length
    // is not the one the values were written for, and every value would land on the wrong
    // position (and, an odd number of plies off, on the wrong side)
    let after_opening = rec.moves.len().saturating_sub(opening_len);
    if !values.is_empty() && values.len() != after_opening {
        return Err(format!(
            "{} values for the {after_opening} moves after an opening of {opening_len} plies",
            values.len()
        ));
    }
    Ok(CorpusGame {
        size: rec.size,
        moves: rec.moves.clone(),
        opening_len,
        winner,
        values: if results_only { Vec::new() } else { values },
    })
}

/// The order in which games are dealt to training and validation: a shuffle by `seed`.
fn deal_order(n: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    XorShift64::from_seed(seed).shuffle(&mut order);
    order
}

fn check(args: &Args) -> Result<()> {
    let ok = |v: f64, lo: f64, hi: f64| v.is_finite() && v >= lo && v <= hi;
    if !ok(args.learning_rate, 1e-9, 1000.0) {
        bail!(
            "--learning-rate {}: expected a number above 0 and at most 1000",
            args.learning_rate
        );
    }
    if !ok(args.regularization, 0.0, 1.0) {
        bail!(
            "--regularization {}: expected a number from 0 to 1",
            args.regularization
        );
    }
    if !ok(args.result_weight, 0.0, 1.0) {
        bail!(
            "--result-weight {}: expected a number from 0 to 1",
            args.result_weight
        );
    }
    if args.valid_every == 1 {
        bail!("--valid-every 1 would hold out every game: use 0 for no validation, or 2 or more");
    }
    Ok(())
}

/// The games `rule` trains on: its own and those it borrows, in the order of the files, and
/// the names of the rules they come from, joined by `+`.
fn games_of_rule<'a>(
    games: &'a [(Rule, CorpusGame)],
    rule: Rule,
    borrow: &[(Rule, Rule)],
) -> (Vec<&'a CorpusGame>, String) {
    let uses = |r: Rule| r == rule || borrow.contains(&(rule, r));
    let of_rule = games
        .iter()
        .filter(|(r, _)| uses(*r))
        .map(|(_, g)| g)
        .collect();
    let names: Vec<&str> = gomoku_engine::eval::MODEL_RULES
        .iter()
        .filter(|&&r| uses(r) && games.iter().any(|(g, _)| *g == r))
        .map(|r| r.name())
        .collect();
    (of_rule, names.join("+"))
}

/// `--score`: the losses of `model` on every game of each rule, without training.
fn score(
    args: &Args,
    games: &[(Rule, CorpusGame)],
    model: &EvalModel,
    skipped: usize,
) -> Result<()> {
    let mut reports = Vec::new();
    for rule in gomoku_engine::eval::MODEL_RULES {
        let (of_rule, games_of) = games_of_rule(games, rule, &args.borrow);
        if of_rule.is_empty() {
            continue;
        }
        let layout = Layout::of(rule);
        let w = layout.params_of(model);
        let mut all = Dataset::default();
        for g in &of_rule {
            game_rows(g, layout, &mut all);
        }
        if all.is_empty() {
            bail!("no {rule} position to score in {} games", of_rule.len());
        }
        let opts = TrainOptions {
            result_weight: args.result_weight,
            k: fit_scale(&all, &w),
            ..TrainOptions::default()
        };
        reports.push(ScoreReport {
            rule: rule.name(),
            games: of_rule.len(),
            games_of,
            positions: all.len(),
            scale: opts.k,
            loss: loss(&all, &w, &opts),
            result_loss: loss(
                &all,
                &w,
                &TrainOptions {
                    result_weight: 1.0,
                    ..opts
                },
            ),
        });
    }
    if reports.is_empty() {
        bail!("no game of freestyle, standard or renju in the files ({skipped} lines skipped)");
    }
    if args.json {
        println!(
            "{}",
            serde_json::json!({ "skipped_lines": skipped, "rules": reports })
        );
        return Ok(());
    }
    for r in &reports {
        println!(
            "{}: {} games of {}; positions {}; scale K {}; loss {:.6}; against results alone {:.6}",
            r.rule, r.games, r.games_of, r.positions, r.scale, r.loss, r.result_loss
        );
    }
    if skipped > 0 {
        println!("{skipped} lines skipped (see the warnings)");
    }
    Ok(())
}

/// Runs the training.
///
/// # Errors
/// Bad arguments, a file that cannot be read or written, or no position to train on.
pub fn run(args: &Args) -> Result<()> {
    check(args)?;
    let mut model = starting_model(args)?;
    let (games, skipped) = read_games(args)?;
    if args.score {
        return score(args, &games, &model, skipped);
    }
    let mut reports = Vec::new();
    for rule in gomoku_engine::eval::MODEL_RULES {
        let (of_rule, games_of) = games_of_rule(&games, rule, &args.borrow);
        if !of_rule.is_empty() {
            reports.push(train_rule(args, rule, &of_rule, games_of, &mut model)?);
        }
    }
    if reports.is_empty() {
        bail!("no game of freestyle, standard or renju in the files ({skipped} lines skipped)");
    }
    if let Some(out) = &args.out {
        std::fs::write(out, model.to_bytes())
            .with_context(|| format!("writing the model {}", out.display()))?;
    }
    let report = Report {
        skipped_lines: skipped,
        rules: reports,
        out: args.out.as_ref().map(|p| p.display().to_string()),
    };
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print_report(&report);
    }
    Ok(())
}

/// The model the training starts from (and pulls towards): `--from`, `--from-formula`, or the
/// compiled-in one.
fn starting_model(args: &Args) -> Result<EvalModel> {
    let params = EvalParams::default();
    Ok(if let Some(path) = &args.from {
        let bytes =
            std::fs::read(path).with_context(|| format!("reading the model {}", path.display()))?;
        EvalModel::from_bytes(&bytes, &params)
            .with_context(|| format!("reading the model {}", path.display()))?
    } else if args.from_formula {
        EvalModel::from_params(&params)
    } else {
        EvalModel::embedded().clone()
    })
}

/// The games of the corpus files, each with its rule, and the number of lines skipped (with
/// a warning for each).
fn read_games(args: &Args) -> Result<(Vec<(Rule, CorpusGame)>, usize)> {
    let mut games: Vec<(Rule, CorpusGame)> = Vec::new();
    let mut skipped = 0;
    let files =
        (args.files.iter().map(|p| (p, false))).chain(args.results_only.iter().map(|p| (p, true)));
    for (path, results_only) in files {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading the corpus {}", path.display()))?;
        for (i, line) in text.lines().enumerate() {
            if Record::is_blank(line) {
                continue;
            }
            let parsed = Record::parse(line)
                .map_err(|e| e.to_string())
                .and_then(|rec| {
                    corpus_game(&rec, args.skip_plies, results_only).map(|g| (rec.rule, g))
                });
            match parsed {
                Ok(g) => games.push(g),
                Err(why) => {
                    eprintln!("warning: {}:{}: skipped: {why}", path.display(), i + 1);
                    skipped += 1;
                }
            }
        }
    }
    Ok((games, skipped))
}

/// The positions of one rule's games, dealt to training and validation.
#[derive(Default)]
struct Deal {
    /// The evaluation's training and validation rows.
    training: Dataset,
    validation: Dataset,
    /// The move ordering's training and validation positions (none without its training).
    ordering: PolicyData,
    ordering_validation: PolicyData,
    /// The rows of the first 2,000 games dealt, on which the scale is fitted.
    probe: Dataset,
}

impl Deal {
    /// Deals `games` in the order of a shuffle by `--seed`: every `--valid-every`-th is held
    /// out.
    fn new(args: &Args, games: &[&CorpusGame], layout: Layout, playout: PolicyLayout) -> Deal {
        let mut deal = Deal::default();
        for (n, &gi) in deal_order(games.len(), args.seed).iter().enumerate() {
            let held = args.valid_every > 0 && n % args.valid_every == args.valid_every - 1;
            let rows = if held {
                &mut deal.validation
            } else {
                &mut deal.training
            };
            game_rows(games[gi], layout, rows);
            if args.policy_iterations > 0 {
                let positions = if held {
                    &mut deal.ordering_validation
                } else {
                    &mut deal.ordering
                };
                game_policy(games[gi], playout, positions);
            }
            if n < 2000 {
                game_rows(games[gi], layout, &mut deal.probe);
            }
        }
        deal
    }
}

/// A progress bar of `len` iterations of `what` for `rule` (hidden with `--json`).
fn progress_bar(args: &Args, len: u64, what: &str, rule: Rule) -> ProgressBar {
    let bar = if args.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(len)
    };
    let template = format!(
        "{{prefix}} {what}{{bar:30}} {{pos}}/{{len}} iterations {{msg}} [{{elapsed}}<{{eta}}]"
    );
    bar.set_style(
        ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_prefix(rule.name());
    bar
}

/// Trains `rule`'s tables of `model` on its games `of_rule` (from the rules `games_of`): the
/// evaluation, then the move ordering.
///
/// # Errors
/// No position to train on.
fn train_rule(
    args: &Args,
    rule: Rule,
    of_rule: &[&CorpusGame],
    games_of: String,
    model: &mut EvalModel,
) -> Result<RuleReport> {
    let layout = Layout::of(rule);
    let start = layout.params_of(model);
    let playout = PolicyLayout::of(rule);
    let deal = Deal::new(args, of_rule, layout, playout);
    let (tr, va) = (&deal.training, &deal.validation);
    if tr.is_empty() {
        bail!("no {rule} position to train on in {} games", of_rule.len());
    }
    // the scale comes from the results under the starting model
    let k = fit_scale(&deal.probe, &start);
    let opts = TrainOptions {
        iterations: usize::try_from(args.iterations).unwrap_or(usize::MAX),
        learning_rate: args.learning_rate,
        regularization: args.regularization,
        result_weight: args.result_weight,
        k,
    };
    let results_only = TrainOptions {
        result_weight: 1.0,
        ..opts
    };
    let before = (loss(tr, &start, &opts), loss(va, &start, &opts));
    let before_r = loss(va, &start, &results_only);
    let bar = progress_bar(args, args.iterations, "", rule);
    let w = train(tr, &start, &opts, 20, &mut |it, w| {
        bar.set_position(it as u64);
        bar.set_message(format!("loss {:.6}", loss(va, w, &opts)));
    });
    bar.finish_and_clear();
    layout.store(&w, model);
    // the loss of the model as written: whole numbers
    let rounded = layout.params_of(model);
    let policy = train_ordering(args, rule, &deal, &opts, model);
    Ok(RuleReport {
        rule: rule.name(),
        games: of_rule.len(),
        games_of,
        training_positions: tr.len(),
        validation_positions: va.len(),
        scale: k,
        training_loss: [before.0, loss(tr, &rounded, &opts)],
        validation_loss: (!va.is_empty()).then(|| [before.1, loss(va, &rounded, &opts)]),
        validation_result_loss: (!va.is_empty())
            .then(|| [before_r, loss(va, &rounded, &results_only)]),
        policy,
    })
}

/// Trains `rule`'s move-ordering tables of `model` on the positions of `deal`, with the
/// options of the evaluation's training `opts` but for the ordering's own; nothing without
/// positions.
fn train_ordering(
    args: &Args,
    rule: Rule,
    deal: &Deal,
    opts: &TrainOptions,
    model: &mut EvalModel,
) -> Option<PolicyReport> {
    let (ptr, pva) = (&deal.ordering, &deal.ordering_validation);
    if ptr.is_empty() {
        return None;
    }
    let playout = PolicyLayout::of(rule);
    let pstart = playout.params_of(model);
    let scale = fit_policy_scale(ptr, &pstart);
    let popts = TrainOptions {
        iterations: usize::try_from(args.policy_iterations).unwrap_or(usize::MAX),
        learning_rate: args.policy_learning_rate,
        regularization: args.policy_regularization,
        ..*opts
    };
    let bar = progress_bar(args, args.policy_iterations, "ordering ", rule);
    let pw = train_policy(ptr, &pstart, scale, &popts, 20, &mut |it, w| {
        bar.set_position(it as u64);
        bar.set_message(format!("cross-entropy {:.4}", policy_loss(pva, w, scale)));
    });
    bar.finish_and_clear();
    playout.store(&pw, model);
    let prounded = playout.params_of(model);
    Some(PolicyReport {
        training_positions: ptr.len(),
        validation_positions: pva.len(),
        scale,
        validation_cross_entropy: [
            policy_loss(pva, &pstart, scale),
            policy_loss(pva, &prounded, scale),
        ],
        validation_top1: [pva.top1(&pstart), pva.top1(&prounded)],
    })
}

/// Prints the training's report as text.
fn print_report(report: &Report) {
    for r in &report.rules {
        let borrowed = if r.games_of == r.rule {
            String::new()
        } else {
            format!(" of {}", r.games_of)
        };
        println!(
            "{}: {} games{borrowed}; positions {} training, {} validation; scale K {}",
            r.rule, r.games, r.training_positions, r.validation_positions, r.scale
        );
        println!(
            "  loss (target: results and search values): training {:.6} -> {:.6}",
            r.training_loss[0], r.training_loss[1]
        );
        if let (Some(v), Some(vr)) = (r.validation_loss, r.validation_result_loss) {
            println!(
                "  validation {:.6} -> {:.6}; against results alone {:.6} -> {:.6}",
                v[0], v[1], vr[0], vr[1]
            );
        }
        if let Some(p) = &r.policy {
            println!(
                "  move ordering: {} training, {} validation positions; scale {}; validation \
                 cross-entropy {:.4} -> {:.4}, chosen move first {:.1}% -> {:.1}%",
                p.training_positions,
                p.validation_positions,
                p.scale,
                p.validation_cross_entropy[0],
                p.validation_cross_entropy[1],
                100.0 * p.validation_top1[0],
                100.0 * p.validation_top1[1]
            );
        }
    }
    if report.skipped_lines > 0 {
        println!("{} lines skipped (see the warnings)", report.skipped_lines);
    }
    if let Some(out) = &report.out {
        println!("model written to {out}");
    }
}
