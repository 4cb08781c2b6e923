//! `gomoku bench-analysis`: long timed analyses of a few standard positions (an opening of
//! freestyle, a renju opening, a renju midgame and a 20x20 freestyle position), each with a
//! fresh table: every completed iteration with its time, best move and value as time goes,
//! then the depth reached and the table's fill. It shows whether a long analysis keeps
//! improving: an iteration many times longer than the ones before is flagged, and the time
//! from the last completed iteration to the end shows a depth that stops moving.

use crate::args::TableArgs;
use anyhow::{Context, Result};
use gomoku_engine::notation::format_pos;
use gomoku_engine::record::Record;
use gomoku_engine::search::format_score;
use gomoku_engine::{Engine, EngineConfig, Limits, SearchEvent, SearchOptions};
use serde::Serialize;
use std::sync::atomic::AtomicBool;

/// The positions analysed: an opening, a renju opening (Kagetsu, 4D), a renju midgame and a
/// 20x20 freestyle position (the last two from `gomoku bench`'s set).
pub const POSITIONS: &[&str] = &[
    "15 freestyle h8 i9",
    "15 renju h8 h9 i9",
    "15 renju h8 h7 h10 i6 i10 i7 g7 g8 j5 i9",
    "20 freestyle e19 f19 h18 g18 g15 h16 f12",
];

/// An iteration this many times longer than the longest of the [`STALL_WINDOW`] before it is
/// flagged as a stall (against one alone, a short iteration that found the table full of the
/// one before would make the next look slow).
const STALL_RATIO: u64 = 6;
/// See [`STALL_RATIO`].
const STALL_WINDOW: usize = 3;
/// ... when it took at least this long (shorter ones vary too much to mean anything).
const STALL_MIN_MS: u64 = 200;

/// Arguments of `gomoku bench-analysis`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Time of each position's analysis in milliseconds.
    #[arg(long, default_value_t = 60_000)]
    pub time_ms: u64,
    /// Threads and table (a fresh table for every position).
    #[command(flatten)]
    pub table: TableArgs,
    /// Analyse as the board's analysis does: exact values for this many candidates and
    /// bounds for the rest (0: a plain search for the move, as `gomoku think`).
    #[arg(long, default_value_t = 0)]
    pub candidates: usize,
    /// Only the positions of these numbers (1 to 4; repeatable).
    #[arg(long, value_name = "N")]
    pub only: Vec<usize>,
    /// Print one JSON object at the end instead of the tables.
    #[arg(long)]
    pub json: bool,
}

/// One completed iteration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Iteration {
    /// Nominal depth.
    pub depth: i32,
    /// Deepest ply.
    pub seldepth: i32,
    /// Time since the analysis started.
    pub elapsed_ms: u64,
    /// Time since the iteration before.
    pub took_ms: u64,
    /// `took_ms` over the iteration before's (`None` for the first or after one of 0 ms).
    pub ratio: Option<f64>,
    /// Best move.
    pub best: String,
    /// Its value, and in words.
    pub score: i32,
    /// See `score`.
    pub score_text: String,
    /// Nodes so far.
    pub nodes: u64,
    /// Permille of the table used.
    pub hashfull: u32,
    /// Whether it is flagged as a stall: six times the longest of the three iterations
    /// before, or more (and at least 200 ms).
    pub stall: bool,
}

/// One position's analysis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// The position line.
    pub position: String,
    /// Every iteration reported.
    pub iterations: Vec<Iteration>,
    /// Deepest iteration completed, best move and its value at the end.
    pub depth: i32,
    /// See `depth`.
    pub best: String,
    /// See `depth`.
    pub score: i32,
    /// See `depth`.
    pub score_text: String,
    /// Nodes and time of the whole analysis.
    pub nodes: u64,
    /// See `nodes`.
    pub time_ms: u64,
    /// The table's fill at the last iteration, in permille.
    pub tt_fill_permille: u32,
    /// Time from the last completed iteration to the end (the unfinished last iteration).
    pub tail_ms: u64,
    /// Iterations flagged as stalls.
    pub stalls: usize,
}

/// Runs the command.
///
/// # Errors
/// A table or thread count out of range, a position number that does not exist.
pub fn run(args: &Args) -> Result<()> {
    crate::args::check_hash_mb(args.table.hash_mb)?;
    if !(1..=crate::args::MAX_THREADS).contains(&args.table.threads) {
        anyhow::bail!(
            "--threads must be between 1 and {}",
            crate::args::MAX_THREADS
        );
    }
    if let Some(n) = args
        .only
        .iter()
        .find(|&&n| !(1..=POSITIONS.len()).contains(&n))
    {
        anyhow::bail!(
            "--only {n}: the positions are numbered 1 to {}",
            POSITIONS.len()
        );
    }
    let chosen: Vec<(usize, &str)> = POSITIONS
        .iter()
        .enumerate()
        .filter(|(i, _)| args.only.is_empty() || args.only.contains(&(i + 1)))
        .map(|(i, p)| (i + 1, *p))
        .collect();
    let mut all = Vec::new();
    for (n, line) in chosen {
        let rec = Record::parse(line).with_context(|| format!("position {line}"))?;
        if !args.json {
            println!(
                "position {n}/{}: {line}, {} ms{}",
                POSITIONS.len(),
                args.time_ms,
                if args.candidates > 0 {
                    format!(", {} candidates", args.candidates)
                } else {
                    String::new()
                }
            );
            println!("  depth seldepth    time ms    iter ms  x prev  best   value           nodes  tt fill");
        }
        let a = analyse(args, &rec, line)?;
        if !args.json {
            println!("{}", summary_line(&a));
        }
        all.push(a);
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&all)?);
    } else {
        println!("\nposition                                         depth  best   value      tt fill  stalls");
        for a in &all {
            println!(
                "{:<48} {:>5}  {:<5} {:>9} {:>9.1}%  {:>6}",
                a.position,
                a.depth,
                a.best,
                a.score_text,
                f64::from(a.tt_fill_permille) / 10.0,
                a.stalls
            );
        }
    }
    Ok(())
}

/// One position's timed analysis, its iterations printed as they come (without `--json`).
fn analyse(args: &Args, rec: &Record, line: &str) -> Result<Analysis> {
    let game = rec.game()?;
    let board = game.board();
    let size = board.size();
    let mut engine = Engine::new(EngineConfig {
        hash_mb: args.table.hash_mb.max(1),
        threads: args.table.threads,
    });
    let limits = Limits {
        move_time_ms: Some(args.time_ms),
        ..Limits::default()
    };
    let options = SearchOptions {
        all_root_values: args.candidates > 0,
        exact_moves: args.candidates,
        ..SearchOptions::default()
    };
    let stop = AtomicBool::new(false);
    let mut iterations: Vec<Iteration> = Vec::new();
    let print = !args.json;
    let result = engine.search(board, &limits, &options, &stop, &mut |ev| {
        let SearchEvent::Iteration(i) = ev else {
            return;
        };
        let (prev_at, prev_took) = iterations
            .last()
            .map_or((0, 0), |p| (p.elapsed_ms, p.took_ms));
        let took_ms = i.elapsed_ms.saturating_sub(prev_at);
        let ratio =
            (!iterations.is_empty() && prev_took > 0).then(|| took_ms as f64 / prev_took as f64);
        let it = Iteration {
            depth: i.depth,
            seldepth: i.seldepth,
            elapsed_ms: i.elapsed_ms,
            took_ms,
            ratio,
            best: i.pv.first().map_or("-".into(), |&p| format_pos(p, size)),
            score: i.score,
            score_text: format_score(i.score),
            nodes: i.nodes,
            hashfull: i.hashfull,
            stall: is_stall(&iterations, took_ms),
        };
        if print {
            println!("{}", iteration_line(&it));
        }
        iterations.push(it);
    });
    let last_at = iterations.last().map_or(0, |i| i.elapsed_ms);
    Ok(Analysis {
        position: line.to_string(),
        depth: result.depth,
        best: format_pos(result.best_move, size),
        score: result.score,
        score_text: format_score(result.score),
        nodes: result.stats.nodes,
        time_ms: result.elapsed_ms,
        tt_fill_permille: iterations.last().map_or(0, |i| i.hashfull),
        tail_ms: result.elapsed_ms.saturating_sub(last_at),
        stalls: iterations.iter().filter(|i| i.stall).count(),
        iterations,
    })
}

/// Whether an iteration of `took_ms` after `before` is a stall: see [`STALL_RATIO`].
fn is_stall(before: &[Iteration], took_ms: u64) -> bool {
    let longest = before
        .iter()
        .rev()
        .take(STALL_WINDOW)
        .map(|i| i.took_ms)
        .max();
    took_ms >= STALL_MIN_MS && longest.is_some_and(|l| took_ms >= l.max(1) * STALL_RATIO)
}

fn iteration_line(i: &Iteration) -> String {
    format!(
        "  {:>5} {:>8} {:>10} {:>10} {:>7} {:<5} {:>9} {:>15} {:>7.1}%{}",
        i.depth,
        i.seldepth,
        i.elapsed_ms,
        i.took_ms,
        i.ratio
            .map_or_else(|| "-".to_string(), |r| format!("{r:.1}")),
        i.best,
        i.score_text,
        i.nodes,
        f64::from(i.hashfull) / 10.0,
        if i.stall { "  <- stall" } else { "" }
    )
}

fn summary_line(a: &Analysis) -> String {
    let longest = a
        .iterations
        .iter()
        .max_by_key(|i| i.took_ms)
        .map_or_else(String::new, |i| {
            format!("; longest iteration {} ms (depth {})", i.took_ms, i.depth)
        });
    format!(
        "  reached depth {} in {} ms: best {} {}; TT fill {:.1}%{longest}; last iteration completed {} ms before the end; {} stall(s)\n",
        a.depth,
        a.time_ms,
        a.best,
        a.score_text,
        f64::from(a.tt_fill_permille) / 10.0,
        a.tail_ms,
        a.stalls
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn took(ms: &[u64]) -> Vec<Iteration> {
        ms.iter()
            .map(|&took_ms| Iteration {
                depth: 1,
                seldepth: 1,
                elapsed_ms: 0,
                took_ms,
                ratio: None,
                best: "h8".into(),
                score: 0,
                score_text: "0".into(),
                nodes: 0,
                hashfull: 0,
                stall: false,
            })
            .collect()
    }

    #[test]
    fn stalls_against_the_three_iterations_before() {
        // (times of the iterations before, this one's, a stall)
        for (before, now, stall) in [
            (&[][..], 5_000, false),
            (&[300, 40, 80][..], 1_900, true),
            (&[350, 47, 81][..], 1_962, false),
            (&[305, 961, 605][..], 9_194, true),
            (&[2, 3, 4][..], 150, false),
            (&[0, 0, 0][..], 200, true),
            (&[5_000, 10, 10, 10][..], 200, true),
        ] {
            assert_eq!(is_stall(&took(before), now), stall, "{before:?} {now}");
        }
    }
}
