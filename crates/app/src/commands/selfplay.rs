//! `gomoku selfplay`: the corpus generator of the evaluation's training. The engine plays
//! itself at a fixed node budget from random balanced openings; every game becomes a line of
//! the common position format with its result and the search's value of every position after
//! the opening (`values=`, for the side to move there), which `gomoku train` reads.
//!
//! A game depends only on the seed, its number and the settings (one search thread, a fixed
//! node budget), so a corpus can be made again or extended with other game numbers.

use anyhow::{bail, Context, Result};
use gomoku_engine::eval::{EvalModel, EvalParams};
use gomoku_engine::notation::format_moves;
use gomoku_engine::rng::{self, Rng, SplitMix64};
use gomoku_engine::search::score::WIN_MIN;
use gomoku_engine::{
    Color, Engine, EngineConfig, Game, GameResult, Limits, Pos, Rule, SearchOptions,
};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

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
    /// compiled-in model, so that the corpus does not depend on the model it will replace.
    #[arg(long)]
    pub formula: bool,
    /// Output file (appended to).
    #[arg(long)]
    pub out: PathBuf,
    /// No progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

fn parse_range(s: &str) -> Result<(usize, usize), String> {
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
    if a == 0 || a > b || b > 20 {
        return Err(format!("'{s}': need 1 <= MIN <= MAX <= 20"));
    }
    Ok((a, b))
}

/// One finished game of the corpus.
struct Played {
    moves: Vec<Pos>,
    opening_len: usize,
    winner: Option<Color>,
    values: Vec<i32>,
}

/// A random opening: `scattered` stones on points within two of the edge (as some of
/// Gomocup's openings have), then `stones` more, the first near the centre, each later one
/// within two points of one of these; no five, no forbidden point, no stone that makes a four.
fn random_opening(
    rng: &mut SplitMix64,
    size: usize,
    rule: Rule,
    scattered: usize,
    stones: usize,
) -> Option<Game> {
    let mut game = Game::new(size, rule).ok()?;
    let fits = |game: &mut Game, p: Pos| {
        let b = game.board();
        let us = b.to_move();
        if !b.is_empty(p) || b.threat(p, us) >= gomoku_engine::Pattern4::Block4 {
            return false;
        }
        !(us == Color::Black && rule == Rule::Renju && game.board_mut().is_forbidden(p))
    };
    let mut tries = 0;
    while game.board().stone_count() < scattered {
        tries += 1;
        if tries > 200 {
            return None;
        }
        let (x, y) = (rng.below(size), rng.below(size));
        let near_edge = x.min(y).min(size - 1 - x).min(size - 1 - y) <= 1;
        let p = Pos::new(x, y);
        if near_edge && fits(&mut game, p) {
            game.play(p).ok()?;
        }
    }
    let c = (size / 2) as i32;
    let first = Pos::new(
        (c - 2 + rng.below(5) as i32) as usize,
        (c - 2 + rng.below(5) as i32) as usize,
    );
    if !fits(&mut game, first) {
        return None;
    }
    game.play(first).ok()?;
    let mut cluster = vec![first];
    while cluster.len() < stones {
        tries += 1;
        if tries > 400 {
            return None;
        }
        let base = cluster[rng.below(cluster.len())];
        let x = base.x() as i32 + rng.below(5) as i32 - 2;
        let y = base.y() as i32 + rng.below(5) as i32 - 2;
        if x < 0 || y < 0 || x >= size as i32 || y >= size as i32 {
            continue;
        }
        let p = Pos::new(x as usize, y as usize);
        if fits(&mut game, p) {
            game.play(p).ok()?;
            cluster.push(p);
        }
    }
    Some(game)
}

/// Plays game number `number` of the corpus.
fn play_game(args: &Args, number: usize, engine: &mut Engine) -> Option<Played> {
    let rule = args.board.rule();
    let size = args.board.size;
    let mut rng = SplitMix64::new(rng::mix(args.seed, number as u64));
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: Some(args.nodes),
        ..Limits::default()
    };
    let opts = SearchOptions::default();
    // an opening the engine finds balanced at the corpus's node budget
    let mut game = None;
    for _ in 0..50 {
        let (lo, hi) = args.opening_stones;
        let stones = lo + rng.below(hi - lo + 1);
        let scattered = if rng.below(100) < usize::from(args.scattered_pct) {
            2 + rng.below(9)
        } else {
            0
        };
        let Some(g) = random_opening(&mut rng, size, rule, scattered, stones) else {
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
        match g.winner {
            Some(Color::Black) => "black",
            Some(Color::White) => "white",
            None => "draw",
        },
        values.join(",")
    )
}

fn formula_model() -> EvalModel {
    EvalModel::from_params(&EvalParams::default())
}

/// Runs `gomoku selfplay`.
///
/// # Errors
/// Bad settings or a file that cannot be written.
pub fn run(args: &Args) -> Result<()> {
    if args.games == 0 || args.concurrency == 0 || args.nodes == 0 {
        bail!("--games, --concurrency and --nodes must be at least 1");
    }
    if args.formula {
        let formula = EvalModel::from_params(&EvalParams::default());
        if EvalModel::install(formula).is_err() && EvalModel::active() != &formula_model() {
            bail!("--formula: another evaluation model is already in use (GOMOKU_EVAL_MODEL?)");
        }
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .with_context(|| format!("opening {}", args.out.display()))?;
    let file = Mutex::new(std::io::BufWriter::new(file));
    let next = AtomicUsize::new(0);
    let bar = if args.no_progress {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(args.games as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {elapsed} (eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let failed: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..args.concurrency {
            s.spawn(|| {
                let mut engine = Engine::new(EngineConfig {
                    hash_mb: args.hash_mb,
                    threads: 1,
                });
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= args.games {
                        break;
                    }
                    let number = args.first_game + i;
                    if let Some(g) = play_game(args, number, &mut engine) {
                        let line = line_of(args, number, &g);
                        let mut f = file.lock().unwrap_or_else(|e| e.into_inner());
                        if let Err(e) = writeln!(f, "{line}").and_then(|()| f.flush()) {
                            *failed.lock().unwrap_or_else(|e| e.into_inner()) =
                                Some(anyhow::Error::new(e).context("writing the corpus"));
                            break;
                        }
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    Ok(())
}
