//! `gomoku selfplay`: the corpus generator of the evaluation's training. The engine plays
//! itself at a fixed node budget from random balanced openings ([`crate::corpus::openings`]);
//! every game is written with its result and the search's value of every position after the
//! opening (for the side to move there): as a line of the common position format
//! (`--format text`, which `gomoku train` reads) or as a record of the binary corpus
//! (`--format bin`, [`crate::corpus`]).
//!
//! A game depends only on the seed, its number and the settings (a fresh engine a game, one
//! search thread, a fixed node budget), so a corpus can be made again, extended with other
//! game numbers, or split into shards (`--shard K/N`) played apart. Games are written in the
//! order of their numbers whatever `--concurrency` is, so the same arguments give the same
//! bytes.

use crate::corpus::openings::{draw_opening, OpeningSpec};
use crate::corpus::{CorpusReader, CorpusWriter, GameRecord, RULES};
use anyhow::{bail, Context, Result};
use gomoku_engine::eval::{EvalModel, EvalParams};
use gomoku_engine::notation::format_moves;
use gomoku_engine::rng::{self, SplitMix64};
use gomoku_engine::search::score::WIN_MIN;
use gomoku_engine::search::SearchParams;
use gomoku_engine::{Color, Engine, EngineConfig, GameResult, Limits, Pos, SearchOptions};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// What `--out` holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A line of the common position format a game (`gomoku train` reads it).
    Text,
    /// The binary corpus (`GMKCORP1`, see `gomoku corpus`).
    Bin,
}

/// Arguments of `gomoku selfplay`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rule and board size.
    #[command(flatten)]
    pub board: crate::args::BoardArgs,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Number of the first game (to extend a corpus with new games).
    #[arg(long, default_value_t = 1)]
    pub first_game: usize,
    /// Play only shard K of N: the games `first_game + i` with `i % N == K - 1`.
    #[arg(long, value_name = "K/N", default_value = "1/1", value_parser = parse_shard)]
    pub shard: (usize, usize),
    /// Nodes per move.
    #[arg(long, default_value_t = 20_000)]
    pub nodes: u64,
    /// Games played at the same time (one search thread each).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Fewest and most stones of a random opening, as MIN,MAX.
    #[arg(long, default_value = "3,7", value_parser = parse_range)]
    pub opening_stones: (usize, usize),
    /// Fewest and most points from the centre (in either direction) of an opening's first
    /// central stone, as MIN,MAX, drawn per game: 2,2 is the central 5x5; the largest radius
    /// used is the board less its edge (6 on 15x15, 8 on 20x20).
    #[arg(long, default_value = "2,2", value_parser = parse_radius)]
    pub opening_radius: (usize, usize),
    /// Percentage of openings that start with 2 to 10 stones scattered along the edges
    /// before the stones near the centre.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u8).range(0..=100))]
    pub scattered_pct: u8,
    /// Largest value (for the side to move, in evaluation units) of an opening kept as
    /// balanced.
    #[arg(long, default_value_t = 120)]
    pub balance: i32,
    /// Transposition table of each game's engine, in MB.
    #[arg(long, default_value_t = 16)]
    pub hash_mb: usize,
    /// Play with the hand-set formula's evaluation (the training's prior) instead of the
    /// compiled-in model and network, so that the corpus does not depend on the model it will
    /// replace.
    #[arg(long)]
    pub formula: bool,
    /// Override a search parameter of the players (`name=value`, repeatable), as `gomoku
    /// think --set`.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Output file (appended to; a binary one must be a corpus already, or empty, or new).
    #[arg(long)]
    pub out: PathBuf,
    /// No progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

fn parse_pair(s: &str) -> Result<(usize, usize), String> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| format!("'{s}': expected MIN,MAX"))?;
    let a: usize = a
        .trim()
        .parse()
        .map_err(|_| format!("'{s}': MIN must be a number"))?;
    let b: usize = b
        .trim()
        .parse()
        .map_err(|_| format!("'{s}': MAX must be a number"))?;
    Ok((a, b))
}

fn parse_range(s: &str) -> Result<(usize, usize), String> {
    let (a, b) = parse_pair(s)?;
    if a == 0 || a > b || b > 20 {
        return Err(format!("'{s}': need 1 <= MIN <= MAX <= 20"));
    }
    Ok((a, b))
}

fn parse_radius(s: &str) -> Result<(usize, usize), String> {
    let (a, b) = parse_pair(s)?;
    if a > b || b > 10 {
        return Err(format!("'{s}': need MIN <= MAX <= 10"));
    }
    Ok((a, b))
}

fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("'{s}': expected K/N with 1 <= K <= N");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let k: usize = k.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// One finished game of the corpus.
struct Played {
    moves: Vec<Pos>,
    opening_len: usize,
    winner: Option<Color>,
    values: Vec<i32>,
}

impl Args {
    fn opening_spec(&self) -> OpeningSpec {
        OpeningSpec {
            stones: self.opening_stones,
            scattered_pct: self.scattered_pct,
            radius: self.opening_radius,
        }
    }

    /// The numbers of the games of this shard, in order.
    fn numbers(&self) -> Vec<usize> {
        let (k, n) = self.shard;
        (0..self.games)
            .filter(|i| i % n == k - 1)
            .map(|i| self.first_game + i)
            .collect()
    }
}

/// Plays game number `number` of the corpus.
fn play_game(args: &Args, number: usize, params: &SearchParams) -> Option<Played> {
    let rule = args.board.rule();
    let size = args.board.size;
    // an engine of its own, so that no table of an earlier game changes this one
    let mut engine = Engine::new(EngineConfig {
        hash_mb: args.hash_mb.max(1),
        threads: 1,
    });
    engine.set_params(params.clone());
    let mut rng = SplitMix64::new(rng::mix(args.seed, number as u64));
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: Some(args.nodes),
        ..Limits::default()
    };
    let opts = SearchOptions::default();
    let spec = args.opening_spec();
    // an opening the engine finds balanced at the corpus's node budget
    let mut game = None;
    for _ in 0..50 {
        let Some(g) = draw_opening(&mut rng, &spec, size, rule) else {
            continue;
        };
        engine.clear_hash();
        let r = engine.search(g.board(), &limits, &opts, &stop, &mut |_| {});
        if r.score.abs() <= args.balance {
            game = Some(g);
            break;
        }
    }
    let mut game = game?;
    let opening_len = game.board().moves().len();
    engine.clear_hash();
    let mut values = Vec::new();
    while !game.is_over() {
        let r = engine.search(game.board(), &limits, &opts, &stop, &mut |_| {});
        if !r.best_move.is_point() {
            break;
        }
        values.push(r.score);
        game.play(r.best_move).ok()?;
    }
    let winner = match game.result() {
        Some(GameResult::Win { winner, .. }) => Some(*winner),
        _ => None,
    };
    Some(Played {
        moves: game.board().moves().to_vec(),
        opening_len,
        winner,
        values,
    })
}

fn line_of(args: &Args, number: usize, g: &Played) -> String {
    let values: Vec<String> = g
        .values
        .iter()
        .map(|&v| {
            if v >= WIN_MIN {
                "W".to_string()
            } else if v <= -WIN_MIN {
                "L".to_string()
            } else {
                v.to_string()
            }
        })
        .collect();
    format!(
        "{} {} {} | game={} seed={} nodes={} opening_plies={} result={} values={}",
        args.board.size,
        args.board.rule().name(),
        format_moves(&g.moves, args.board.size),
        number,
        args.seed,
        args.nodes,
        g.opening_len,
        crate::corpus::result_name(g.winner),
        values.join(",")
    )
}

fn record_of(args: &Args, g: &Played) -> GameRecord {
    GameRecord {
        rule: args.board.rule(),
        size: args.board.size,
        result: g.winner,
        opening_plies: g.opening_len,
        moves: g.moves.clone(),
        values: g
            .values
            .iter()
            .map(|&v| GameRecord::value_of_score(v))
            .collect(),
    }
}

/// Where the games go.
enum Sink {
    Text(BufWriter<File>),
    Bin(CorpusWriter<BufWriter<File>>),
}

impl Sink {
    /// Opens `--out` for appending; a binary corpus gets its header when new or empty, and
    /// must have it otherwise.
    fn open(args: &Args) -> Result<Sink> {
        let path = &args.out;
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("opening {}", path.display()))?;
        if args.format == Format::Text {
            return Ok(Sink::Text(BufWriter::new(file)));
        }
        let len = file
            .metadata()
            .with_context(|| format!("reading {}", path.display()))?
            .len();
        if len == 0 {
            return Ok(Sink::Bin(CorpusWriter::new(BufWriter::new(file))?));
        }
        let existing = File::open(path).with_context(|| format!("reading {}", path.display()))?;
        CorpusReader::new(existing)
            .with_context(|| format!("{}: cannot append to it", path.display()))?;
        Ok(Sink::Bin(CorpusWriter::appending(BufWriter::new(file))))
    }

    /// Writes a game and flushes it, so that a run stopped early keeps its finished games.
    fn write(&mut self, args: &Args, number: usize, g: &Played) -> Result<()> {
        match self {
            Sink::Text(f) => writeln!(f, "{}", line_of(args, number, g))
                .and_then(|()| f.flush())
                .context("writing the corpus"),
            Sink::Bin(w) => {
                w.write(&record_of(args, g))
                    .with_context(|| format!("game {number}"))?;
                w.flush()
            }
        }
    }
}

/// Finished games waiting for the ones before them, and the index of the next to write.
struct Ordered {
    sink: Sink,
    next: usize,
    done: BTreeMap<usize, Option<Played>>,
}

impl Ordered {
    /// Takes game `index` (of the shard's list) and writes every game now in order.
    fn finish(
        &mut self,
        args: &Args,
        numbers: &[usize],
        index: usize,
        g: Option<Played>,
    ) -> Result<()> {
        self.done.insert(index, g);
        while let Some(g) = self.done.remove(&self.next) {
            if let Some(g) = g {
                self.sink.write(args, numbers[self.next], &g)?;
            }
            self.next += 1;
        }
        Ok(())
    }
}

fn formula_model() -> EvalModel {
    EvalModel::from_params(&EvalParams::default())
}

fn check_args(args: &Args) -> Result<SearchParams> {
    if args.games == 0 || args.concurrency == 0 || args.nodes == 0 {
        bail!("--games, --concurrency and --nodes must be at least 1");
    }
    crate::args::check_hash_mb(args.hash_mb)?;
    if args.format == Format::Bin && !RULES.contains(&args.board.rule()) {
        bail!(
            "--format bin: a corpus holds freestyle, standard or renju, not {}",
            args.board.rule()
        );
    }
    let mut params = crate::args::params_with(&args.set)?;
    if args.formula {
        // the formula's games are the tables' own: no network evaluates or orders
        params.nnue = false;
        let formula = EvalModel::from_params(&EvalParams::default());
        if EvalModel::install(formula).is_err() && EvalModel::active() != &formula_model() {
            bail!("--formula: another evaluation model is already in use (GOMOKU_EVAL_MODEL?)");
        }
    }
    Ok(params)
}

/// Runs `gomoku selfplay`.
///
/// # Errors
/// Bad settings or a file that cannot be written.
pub fn run(args: &Args) -> Result<()> {
    let params = check_args(args)?;
    let numbers = args.numbers();
    let out = Mutex::new(Ordered {
        sink: Sink::open(args)?,
        next: 0,
        done: BTreeMap::new(),
    });
    let next = AtomicUsize::new(0);
    let bar = if args.no_progress {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(numbers.len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {elapsed} (eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let failed: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        for _ in 0..args.concurrency.min(numbers.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= numbers.len() || stop.load(Ordering::Relaxed) {
                    break;
                }
                let g = play_game(args, numbers[i], &params);
                let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
                if let Err(e) = out.finish(args, &numbers, i, g) {
                    *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    Ok(())
}
