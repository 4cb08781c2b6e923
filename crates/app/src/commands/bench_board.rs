//! `gomoku bench-board`: make+unmake throughput of the board with all incremental bookkeeping
//! (line words, patterns, threat classes, value sums, Zobrist key, candidates).

use anyhow::Result;
use gomoku_engine::rng::{Rng, XorShift64};
use gomoku_engine::{Board, Pos, Rule};
use std::time::Instant;

/// Arguments of `gomoku bench-board`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rules to measure (repeatable; default: freestyle, standard and renju).
    #[arg(long = "rule", value_parser = crate::args::parse_rule)]
    pub rules: Vec<Rule>,
    /// Board size.
    #[arg(long, default_value_t = 15, value_parser = crate::args::parse_size)]
    pub size: usize,
    /// Number of timed runs (the median is reported).
    #[arg(long, default_value_t = 3)]
    pub runs: usize,
    /// Number of random positions.
    #[arg(long, default_value_t = 300)]
    pub positions: usize,
}

/// Random positions of 10 to 60 stones grown around the centre, with their candidate moves.
fn positions(rule: Rule, size: usize, count: usize) -> Vec<(Board, Vec<Pos>)> {
    let mut rng = XorShift64::new(0x2545_F491_4F6C_DD1D);
    (0..count)
        .map(|_| {
            let mut b = Board::new(size, rule).expect("size checked");
            b.play(b.centre());
            let n = 10 + rng.below(50);
            for _ in 0..n {
                let mut c = Vec::new();
                b.for_each_candidate(|p| c.push(p));
                if c.is_empty() {
                    break;
                }
                b.play(c[rng.below(c.len())]);
            }
            let mut c = Vec::new();
            b.for_each_candidate(|p| c.push(p));
            (b, c)
        })
        .collect()
}

/// One timed run: every candidate of every position made and unmade `reps` times.
fn run_once(set: &mut [(Board, Vec<Pos>)], reps: usize) -> (u64, f64) {
    let t = Instant::now();
    let mut n = 0u64;
    for (b, cands) in set.iter_mut() {
        for _ in 0..reps {
            for &p in cands.iter() {
                b.play_unchecked(p);
                b.undo();
            }
            n += cands.len() as u64;
        }
    }
    (n, t.elapsed().as_secs_f64())
}

/// Runs the benchmark and prints one line per rule.
///
/// # Errors
/// None in practice (kept for a uniform command signature).
pub fn run(args: &Args) -> Result<()> {
    let rules = if args.rules.is_empty() {
        vec![Rule::Freestyle, Rule::Standard, Rule::Renju]
    } else {
        args.rules.clone()
    };
    let runs = args.runs.max(1);
    println!(
        "make+unmake throughput, {0}x{0}, {1} random positions (10-60 stones), every candidate \
         move 20 times, median of {runs} runs",
        args.size, args.positions
    );
    for rule in rules {
        let mut set = positions(rule, args.size, args.positions.max(1));
        run_once(&mut set, 2); // warm up tables and caches
        let mut rates: Vec<f64> = (0..runs)
            .map(|_| {
                let (n, secs) = run_once(&mut set, 20);
                n as f64 / secs
            })
            .collect();
        rates.sort_by(f64::total_cmp);
        let median = crate::stats::median(&rates);
        let all: Vec<String> = rates.iter().map(|r| format!("{:.2}", r / 1e6)).collect();
        println!(
            "{:<10} {:>6.2} M make+unmake/s  (runs: {} M/s)",
            rule.name(),
            median / 1e6,
            all.join(", ")
        );
    }
    Ok(())
}
