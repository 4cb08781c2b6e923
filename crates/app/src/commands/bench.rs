//! `gomoku bench`: searches fixed positions (every rule, sizes 15 and 20) to a fixed depth with
//! one thread and a fixed table size. The total node count is deterministic: it is a checksum of
//! search behaviour and goes into commit messages (`Bench: N`). Also prints nodes per second and
//! a signature hash of per-position nodes and values; with `--threads N` it compares the time
//! to reach the depth with N threads against one thread, and splits that ratio into the
//! threads' nodes per second and the nodes they searched (each against one thread's).
//! `--positions FILE` runs the same measurements over the positions of a file instead.

use crate::arena::{is_decided, read_records, FileRecord};
use crate::args::MAX_THREADS;
use crate::stats::{median, median_index};
use anyhow::{bail, Context, Result};
use gomoku_engine::notation::format_pos;
use gomoku_engine::record::Record;
use gomoku_engine::search::{format_score, SearchParams};
use gomoku_engine::{Engine, EngineConfig, Limits, SearchOptions, SearchResult};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The bench positions (the "rapfi_bench" set of the shared openings: every rule, sizes 15/20).
pub const POSITIONS: &[&str] = &[
    "15 freestyle h8 g9 f10 g8 g7",
    "15 freestyle h14 h11 h12 f10",
    "20 freestyle e19 f19 h18 g18 g15 h16 f12",
    "20 freestyle f16 e18 b14 h16 g18 g17 i15 e17 h17 d17 f19 i16 f17 f15 e16 d15 d14 e14 f13",
    "15 standard h8 h9 j10 i9 f9",
    "15 standard f10 i7 h8",
    "15 standard b13 k6 g14 f10",
    "15 renju h8 i7 j6 i8 i9 g7",
    "15 renju h8 h7 j7 j8 f8 i9 g9 i7 h10 e7 f10 k9 l10 i6 i10 f7 g7 g5 h6 i5 i8",
    "15 renju h8 h7 h10 i6 i10 i7 g7 g8 j5 i9",
];

/// Default bench depth: deep enough that every position takes a few hundred milliseconds, so
/// that the 2-thread comparison measures search rather than start-up (at depth 16 the
/// positions took 80-200 ms once the history with a malus had shrunk the trees, and 2 threads
/// gained only 1.25x).
pub const DEFAULT_DEPTH: i32 = 18;

/// Arguments of `gomoku bench`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Nominal search depth for every position.
    #[arg(long, default_value_t = DEFAULT_DEPTH)]
    pub depth: i32,
    /// Transposition table size in MB (fresh for every position).
    #[arg(long, default_value_t = 16)]
    pub hash_mb: usize,
    /// Timed runs of the whole set (node counts are identical; the median speed is reported).
    #[arg(long, default_value_t = 1)]
    pub runs: usize,
    /// Also search with this many threads and compare the time to reach the depth.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print only the summary.
    #[arg(long)]
    pub quiet: bool,
    /// Override a search parameter for this run (`name=value`, repeatable; for tuning).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Search the positions of this file (the common position format) instead of the bench's
    /// own ten; the node count is then no `Bench:` figure.
    #[arg(long, value_name = "FILE")]
    pub positions: Option<std::path::PathBuf>,
    /// With `--positions`, only the lines whose `set=` contains this text.
    #[arg(long, value_name = "SET", requires = "positions")]
    pub only: Option<String>,
}

/// The positions of a file in the common position format (optionally only those whose `set=`
/// contains `only`), skipping positions whose game is already over.
///
/// # Errors
/// The file cannot be read, a line is malformed or its moves are illegal (the message names the
/// line), or no position is left.
pub fn load_positions(path: &std::path::Path, only: Option<&str>) -> Result<Vec<Record>> {
    let mut out = Vec::new();
    for FileRecord { at, rec, .. } in read_records(path, "positions", only)? {
        if is_decided(&rec.game().context(at)?, &rec.moves) {
            continue;
        }
        out.push(rec);
    }
    if out.is_empty() {
        bail!(
            "no position to search in {}{}",
            path.display(),
            only.map_or(String::new(), |s| format!(" with a set containing '{s}'"))
        );
    }
    Ok(out)
}

fn search_one(
    rec: &Record,
    depth: i32,
    hash_mb: usize,
    threads: usize,
    params: &gomoku_engine::search::SearchParams,
) -> Result<(SearchResult, f64)> {
    let game = rec.game()?;
    let mut engine = Engine::new(EngineConfig { hash_mb, threads });
    engine.set_params(params.clone());
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let t = Instant::now();
    let res = engine.search(
        game.board(),
        &limits,
        &SearchOptions::default(),
        &stop,
        &mut |_| {},
    );
    Ok((res, t.elapsed().as_secs_f64()))
}

/// FNV-1a over the per-position node counts, scores and moves.
fn signature(items: &[(u64, i32, usize)]) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for &(n, s, m) in items {
        for b in n
            .to_le_bytes()
            .iter()
            .chain(s.to_le_bytes().iter())
            .chain((m as u64).to_le_bytes().iter())
        {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01B3);
        }
    }
    h
}

/// Runs the bench.
///
/// # Errors
/// Bad arguments.
pub fn run(args: &Args) -> Result<()> {
    if !(1..=60).contains(&args.depth) {
        bail!("--depth must be between 1 and 60");
    }
    if args
        .threads
        .is_some_and(|t| !(2..=MAX_THREADS).contains(&t))
    {
        bail!("--threads must be between 2 and {MAX_THREADS} for the comparison");
    }
    crate::args::check_hash_mb(args.hash_mb)?;
    if args.runs == 0 {
        bail!("--runs must be at least 1");
    }
    let records: Vec<Record> = match &args.positions {
        Some(path) => load_positions(path, args.only.as_deref())?,
        None => POSITIONS
            .iter()
            .map(|l| Record::parse(l))
            .collect::<Result<_, _>>()?,
    };
    let params = crate::args::params_with(&args.set)?;
    bench(args, &records, &params)?;
    if let Some(threads) = args.threads {
        compare_threads(args, &records, &params, threads)?;
    }
    Ok(())
}

/// The evaluator a search with `params` uses, in words.
fn evaluator_name(params: &SearchParams) -> &'static str {
    if params.nnue {
        "network"
    } else {
        "tables"
    }
}

/// Searches `records` with one thread `--runs` times and prints the nodes, the speed and the
/// signature (`Bench: N` for the built-in positions); then, when the model has a network,
/// the speed of the other evaluator (the network or the tables) on the same positions.
///
/// # Errors
/// A position that cannot be searched.
fn bench(args: &Args, records: &[Record], params: &SearchParams) -> Result<()> {
    let (total_nodes, rates, sig) = timed_runs(args, records, params, !args.quiet)?;
    let mid = median(&rates);
    let runs = args.runs;
    println!("===========================");
    println!("Depth         : {}", args.depth);
    println!("Total nodes   : {total_nodes}");
    println!(
        "Nodes/second  : {:.0}  (median of {runs} run{}: {}; {})",
        mid,
        if runs == 1 { "" } else { "s" },
        rates
            .iter()
            .map(|r| format!("{:.0}", r))
            .collect::<Vec<_>>()
            .join(", "),
        evaluator_name(params)
    );
    let has_network = records.iter().any(|r| {
        gomoku_engine::nnue::NnueModel::active()
            .net(r.rule)
            .is_some()
    });
    if has_network {
        let mut other = params.clone();
        other.nnue = !other.nnue;
        let (nodes, rates, _) = timed_runs(args, records, &other, false)?;
        println!(
            "Nodes/second  : {:.0}  ({}: {nodes} nodes)",
            median(&rates),
            evaluator_name(&other)
        );
    }
    println!("Signature     : {sig:016x}");
    if args.positions.is_none() {
        println!("Bench: {total_nodes}");
    }
    Ok(())
}

/// `--runs` timed searches of `records` with `params`: the nodes of a run, the sorted nodes
/// per second of the runs, the signature; with `show`, a line a position of the first run.
fn timed_runs(
    args: &Args,
    records: &[Record],
    params: &SearchParams,
    show: bool,
) -> Result<(u64, Vec<f64>, u64)> {
    let mut rates = Vec::new();
    let mut total_nodes = 0;
    let mut sig = 0;
    for run in 0..args.runs {
        let mut items = Vec::new();
        let mut nodes = 0u64;
        let mut secs = 0.0;
        for (i, rec) in records.iter().enumerate() {
            let (res, t) = search_one(rec, args.depth, args.hash_mb, 1, params)?;
            nodes += res.stats.nodes;
            secs += t;
            items.push((res.stats.nodes, res.score, res.best_move.index()));
            if run == 0 && show {
                println!(
                    "position {:>2}/{}: {:<9} {}x{}  best {:<4} score {:>10}  depth {:>2}  nodes {:>10}  time {:>7.0} ms",
                    i + 1,
                    records.len(),
                    rec.rule.name(),
                    rec.size,
                    rec.size,
                    format_pos(res.best_move, rec.size),
                    format_score(res.score),
                    res.depth,
                    res.stats.nodes,
                    t * 1000.0
                );
            }
        }
        total_nodes = nodes;
        sig = signature(&items);
        rates.push(nodes as f64 / secs.max(1e-9));
    }
    rates.sort_by(f64::total_cmp);
    Ok((total_nodes, rates, sig))
}

/// Times the search of `records` to the depth with one thread and with `threads`, and prints
/// how much faster the threads are.
///
/// # Errors
/// A position that cannot be searched.
fn compare_threads(
    args: &Args,
    records: &[Record],
    params: &SearchParams,
    threads: usize,
) -> Result<()> {
    let runs = args.runs;
    println!(
        "Time to depth {}: 1 thread vs {threads} threads",
        args.depth
    );
    // 1 and N threads alternate position by position, so that a change in the machine's
    // load hits both alike; the figure is the median over the runs of the total-time ratio.
    let mut ratios = Vec::new();
    let mut totals = Vec::new();
    for run in 0..runs {
        let (mut sum1, mut sumn) = (0.0, 0.0);
        let (mut nodes1, mut nodesn) = (0u64, 0u64);
        for (i, rec) in records.iter().enumerate() {
            let (res1, t1) = search_one(rec, args.depth, args.hash_mb, 1, params)?;
            let (res, tn) = search_one(rec, args.depth, args.hash_mb, threads, params)?;
            sum1 += t1;
            sumn += tn;
            nodes1 += res1.stats.nodes;
            nodesn += res.stats.nodes;
            if run == 0 && !args.quiet {
                println!(
                    "position {:>2}: {:>8.0} ms vs {:>8.0} ms  ({:.2}x)  nodes {:>8} vs {:>8}  best {}",
                    i + 1,
                    t1 * 1000.0,
                    tn * 1000.0,
                    t1 / tn.max(1e-9),
                    res1.stats.nodes,
                    res.stats.nodes,
                    format_pos(res.best_move, rec.size)
                );
            }
        }
        if runs > 1 && !args.quiet {
            println!(
                "run {:>2}      : {:>8.0} ms vs {:>8.0} ms  ({:.2}x)",
                run + 1,
                sum1 * 1000.0,
                sumn * 1000.0,
                sum1 / sumn.max(1e-9)
            );
        }
        ratios.push(sum1 / sumn.max(1e-9));
        totals.push((sum1, sumn, nodes1, nodesn));
    }
    // the median run, whose times and nodes the split below breaks down
    let k = median_index(&ratios).unwrap_or(0);
    let ratio = ratios[k];
    let (sum1, sumn, nodes1, nodesn) = totals[k];
    println!(
        "Total         : {:.0} ms vs {:.0} ms{}: {threads} threads reach depth {} {:.2}x faster",
        sum1 * 1000.0,
        sumn * 1000.0,
        if runs == 1 {
            String::new()
        } else {
            format!(" (median of {runs} runs)")
        },
        args.depth,
        ratio
    );
    // the ratio is the threads' combined speed over the extra nodes they search
    let node_ratio = nodesn as f64 / nodes1.max(1) as f64;
    let speed_ratio = (nodesn as f64 / sumn.max(1e-9)) / (nodes1 as f64 / sum1.max(1e-9));
    println!(
        "Split         : {threads} threads searched {node_ratio:.2}x the nodes of 1 thread at {speed_ratio:.2}x its nodes/second ({speed_ratio:.2} / {node_ratio:.2} = {:.2})",
        speed_ratio / node_ratio
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `text` to `name` in `dir`.
    fn file_with(dir: &tempfile::TempDir, name: &str, text: &str) -> std::path::PathBuf {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("temporary file");
        path
    }

    #[test]
    fn the_bench_positions_parse_and_are_open_games() {
        for line in POSITIONS {
            let rec = Record::parse(line).expect("parses");
            assert!(
                !is_decided(&rec.game().expect("legal"), &rec.moves),
                "{line}"
            );
        }
    }

    #[test]
    fn positions_files_filter_by_set_and_skip_finished_games() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = file_with(
            &dir,
            "sets.txt",
            "# a comment\n\
             15 freestyle h8 i9 | set=alpha idx=0\n\
             \n\
             15 renju h8 h7 | set=beta idx=0\n\
             15 freestyle a1 b1 a2 b2 a3 b3 a4 b4 a5 | set=alpha idx=1\n\
             20 standard j10 | set=alpha_20 idx=2\n",
        );
        // (label, filter, the moves of the positions kept, in order)
        let cases: &[(Option<&str>, &[usize])] = &[
            (None, &[2, 2, 1]),
            (Some("alpha"), &[2, 1]),
            (Some("beta"), &[2]),
            (Some("_20"), &[1]),
        ];
        for &(only, moves) in cases {
            let recs = load_positions(&path, only).expect("loads");
            let got: Vec<usize> = recs.iter().map(|r| r.moves.len()).collect();
            assert_eq!(got, moves, "only {only:?}");
        }
        // the finished game (black's five on the a-file) is never searched
        let all = load_positions(&path, None).expect("loads");
        assert!(all.iter().all(|r| r.get("idx") != Some("1")));
    }

    #[test]
    fn bad_positions_files_are_errors_naming_the_line() {
        let cases: &[(&str, &str, &str)] = &[
            ("garbage.txt", "15 freestyle h8\nnot a position\n", "line 2"),
            ("illegal.txt", "15 freestyle h8 h8\n", "line 1"),
            ("offboard.txt", "15 renju h8 z99\n", "line 1"),
            ("empty.txt", "\n# nothing\n", "no position"),
            (
                "finished.txt",
                "15 freestyle a1 b1 a2 b2 a3 b3 a4 b4 a5\n",
                "no position",
            ),
        ];
        let dir = tempfile::tempdir().expect("temporary directory");
        for &(name, text, needle) in cases {
            let path = file_with(&dir, name, text);
            let err = load_positions(&path, None).expect_err(name);
            let msg = format!("{err:#}");
            assert!(msg.contains(needle), "{name}: {msg}");
        }
        let path = file_with(&dir, "one.txt", "15 freestyle h8 | set=alpha\n");
        let msg = format!(
            "{:#}",
            load_positions(&path, Some("beta")).expect_err("filtered")
        );
        assert!(msg.contains("'beta'"), "{msg}");
        let missing = dir.path().join("no-such-file.txt");
        let msg = format!("{:#}", load_positions(&missing, None).expect_err("missing"));
        assert!(msg.contains("reading the positions file"), "{msg}");
    }
}
