//! `gomoku analyze`: every root move with its value, then how the search got there: nodes,
//! table use, cut-offs, branching factor, time, and optionally the size of the plain minimax
//! tree of the same depth (the pruning ratio).

use crate::args::SearchArgs;
use anyhow::{bail, Result};
use gomoku_engine::notation::{format_moves, format_pos};
use gomoku_engine::search::{format_score, RootMove, ValueBound};
use gomoku_engine::study::{Minimax, SearchKind, Searcher, SearcherSpec};
use gomoku_engine::{Board, Game, Limits, Pos, SearchEvent, SearchOptions, SearchResult};
use serde::Serialize;
use std::sync::atomic::AtomicBool;

/// Deepest search `--minimax` accepts (the tree grows by a factor of 30 to 60 per ply).
const MINIMAX_MAX_DEPTH: i32 = 5;

/// Arguments of `gomoku analyze`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position to analyse.
    #[command(flatten)]
    pub position: crate::args::PositionArgs,
    /// Search to this nominal depth (default 4, minimax 3, when no --time-ms is given).
    #[arg(long)]
    pub depth: Option<i32>,
    /// Search for this many milliseconds.
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// The searcher and its limits.
    #[command(flatten)]
    pub search: SearchArgs,
    /// Also search the plain minimax tree of the same depth over the same candidates and
    /// report its node count and the pruning ratio (depths up to 5).
    #[arg(long)]
    pub minimax: bool,
    /// Node limit of the --minimax count (it reports an incomplete count when reached).
    #[arg(long, default_value_t = 200_000_000)]
    pub minimax_max_nodes: u64,
    /// Do not ask for an exact value of every move: moves that cannot be best get only a bound
    /// (shown as `<=`), and alpha-beta prunes at the root too.
    #[arg(long)]
    pub bounds: bool,
    /// Exact values only for the best N moves (the engine's search): each later move is
    /// tested against the N-th value first and gets a bound (`<=`) when it does not beat it,
    /// so the search goes deeper in the same time.
    #[arg(long, value_name = "N", conflicts_with = "bounds")]
    pub exact: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Read the moves as a diagram (stones placed without game rules).
    #[arg(long)]
    pub diagram: bool,
}

#[derive(Serialize)]
struct MoveJson {
    #[serde(rename = "move")]
    pos: String,
    score: i32,
    score_text: String,
    bound: &'static str,
    depth: i32,
    pv: Vec<String>,
}

#[derive(Serialize)]
struct IterationJson {
    depth: i32,
    score: i32,
    score_text: String,
    nodes: u64,
    iteration_nodes: u64,
    time_ms: u64,
    branching: Option<f64>,
    pv: Vec<String>,
}

#[derive(Serialize)]
struct StatsJson {
    nodes: u64,
    last_iteration_nodes: u64,
    tt_hits: u64,
    tt_stores: u64,
    cutoffs: u64,
    first_move_cutoffs: u64,
    first_move_cutoff_rate: Option<f64>,
    vcf_nodes: u64,
    singular_tests: u64,
    singular_extensions: u64,
    time_ms: u64,
    nps: u64,
}

#[derive(Serialize)]
struct MinimaxJson {
    depth: i32,
    nodes: u64,
    complete: bool,
    score: Option<i32>,
    time_ms: u64,
    /// Nodes of the analysed search's last iteration per minimax node.
    visited_fraction: Option<f64>,
    /// Minimax nodes per node of the analysed search's last iteration.
    pruning_ratio: Option<f64>,
}

#[derive(Serialize)]
struct AnalyzeJson {
    rule: &'static str,
    size: usize,
    position: String,
    to_move: &'static str,
    search: String,
    depth: i32,
    best_move: String,
    score: i32,
    score_text: String,
    exact_values: bool,
    moves: Vec<MoveJson>,
    iterations: Vec<IterationJson>,
    stats: StatsJson,
    minimax: Option<MinimaxJson>,
}

/// One completed iteration as seen through the events.
struct Iter {
    depth: i32,
    score: i32,
    nodes: u64,
    time_ms: u64,
    pv: Vec<Pos>,
}

/// Runs a searcher and keeps its iterations.
fn run_search(
    searcher: &mut dyn Searcher,
    board: &Board,
    limits: &Limits,
    options: &SearchOptions,
) -> (SearchResult, Vec<Iter>) {
    let stop = AtomicBool::new(false);
    let mut iters = Vec::new();
    let result = searcher.search(board, limits, options, &stop, &mut |ev| {
        if let SearchEvent::Iteration(i) = ev {
            iters.push(Iter {
                depth: i.depth,
                score: i.score,
                nodes: i.nodes,
                time_ms: i.elapsed_ms,
                pv: i.pv.clone(),
            });
        }
    });
    (result, iters)
}

/// Nodes of the last completed iteration (cumulative counts in, difference out).
fn last_iteration_nodes(iters: &[Iter]) -> u64 {
    match iters {
        [] => 0,
        [one] => one.nodes,
        [.., a, b] => b.nodes.saturating_sub(a.nodes),
    }
}

fn bound_name(b: ValueBound) -> &'static str {
    match b {
        ValueBound::Exact => "exact",
        ValueBound::Upper => "upper",
        ValueBound::Lower => "lower",
    }
}

fn value_text(r: &RootMove) -> String {
    if r.depth == 0 {
        return "-".to_string();
    }
    let s = format_score(r.score);
    match r.bound {
        ValueBound::Exact => s,
        ValueBound::Upper => format!("<= {s}"),
        ValueBound::Lower => format!(">= {s}"),
    }
}

fn ratio(a: u64, b: u64) -> Option<f64> {
    (b > 0).then(|| a as f64 / b as f64)
}

/// Runs the command.
///
/// # Errors
/// Bad moves, a finished game, a full board, impossible flag combinations.
pub fn run(args: &Args) -> Result<()> {
    let game = args.position.searchable(args.diagram)?;
    let board = game.board();
    let (spec, mut searcher, limits, options) = prepare(args, &game)?;
    let (result, iters) = run_search(searcher.as_mut(), board, &limits, &options);
    let last_nodes = last_iteration_nodes(&iters);
    let minimax = (args.minimax && result.depth >= 1)
        .then(|| count_minimax(&spec, board, &result, args.minimax_max_nodes, last_nodes));
    let iterations = iterations_json(&iters, board.size());
    if args.json {
        let out = json_report(args, &spec, board, &result, iterations, last_nodes, minimax);
        println!("{}", serde_json::to_string(&out)?);
    } else {
        print_report(
            args,
            &spec,
            board,
            &result,
            &iterations,
            last_nodes,
            minimax.as_ref(),
        );
    }
    Ok(())
}

/// The searcher, the limits and the options the flags ask for.
///
/// # Errors
/// Impossible flag combinations; bad excluded points.
fn prepare(
    args: &Args,
    game: &Game,
) -> Result<(SearcherSpec, Box<dyn Searcher>, Limits, SearchOptions)> {
    let (spec, searcher) = args.search.build(args.depth)?;
    let depth = match (args.depth, args.time_ms, args.search.nodes) {
        (Some(d), _, _) => Some(d),
        (None, None, None) => Some(match spec.search {
            SearchKind::Minimax => 3,
            _ => 4,
        }),
        _ => None,
    };
    if args.minimax {
        match depth {
            Some(d) if d <= MINIMAX_MAX_DEPTH => {}
            Some(d) => bail!(
                "--minimax counts the whole minimax tree: only for depths up to \
                 {MINIMAX_MAX_DEPTH} (got --depth {d})"
            ),
            None => bail!("--minimax needs a --depth (the tree of which depth to count?)"),
        }
    }
    let limits = Limits {
        move_time_ms: args.time_ms,
        depth,
        nodes: args.search.nodes,
        ..Limits::default()
    };
    if args.exact == Some(0) {
        bail!("--exact needs at least one move");
    }
    let options = SearchOptions {
        all_root_values: !args.bounds,
        exact_moves: args.exact.unwrap_or(0),
        report_root_moves: args.bounds,
        exclude: args.search.excluded(game)?,
        ..SearchOptions::default()
    };
    Ok((spec, searcher, limits, options))
}

/// Searches the plain minimax tree to the depth `result` reached (at most `max_nodes`
/// nodes) and compares its size with the last iteration's `last_nodes`.
fn count_minimax(
    spec: &SearcherSpec,
    board: &Board,
    result: &SearchResult,
    max_nodes: u64,
    last_nodes: u64,
) -> MinimaxJson {
    let mut mm = Minimax {
        eval: spec.eval.evaluator(),
    };
    let mm_limits = Limits {
        depth: Some(result.depth),
        nodes: Some(max_nodes),
        ..Limits::default()
    };
    let (r, it) = run_search(&mut mm, board, &mm_limits, &SearchOptions::default());
    let complete = r.depth == result.depth;
    let mm_last = last_iteration_nodes(&it);
    MinimaxJson {
        depth: result.depth,
        nodes: if complete { mm_last } else { r.stats.nodes },
        complete,
        score: complete.then_some(r.score),
        time_ms: r.elapsed_ms,
        visited_fraction: complete.then(|| ratio(last_nodes, mm_last)).flatten(),
        pruning_ratio: complete.then(|| ratio(mm_last, last_nodes)).flatten(),
    }
}

/// A line of moves in `h8` style.
fn line_text(pv: &[Pos], size: usize) -> Vec<String> {
    pv.iter().map(|&p| format_pos(p, size)).collect()
}

/// The iterations with their own nodes (not cumulative) and branching factors.
fn iterations_json(iters: &[Iter], size: usize) -> Vec<IterationJson> {
    let iter_nodes: Vec<u64> = iters
        .iter()
        .enumerate()
        .map(|(i, it)| {
            it.nodes
                .saturating_sub(if i > 0 { iters[i - 1].nodes } else { 0 })
        })
        .collect();
    iters
        .iter()
        .enumerate()
        .map(|(i, it)| IterationJson {
            depth: it.depth,
            score: it.score,
            score_text: format_score(it.score),
            nodes: it.nodes,
            iteration_nodes: iter_nodes[i],
            time_ms: it.time_ms,
            branching: if i > 0 {
                ratio(iter_nodes[i], iter_nodes[i - 1])
            } else {
                None
            },
            pv: line_text(&it.pv, size),
        })
        .collect()
}

/// The analysis as one JSON object (`--json`).
fn json_report(
    args: &Args,
    spec: &SearcherSpec,
    board: &Board,
    result: &SearchResult,
    iterations: Vec<IterationJson>,
    last_nodes: u64,
    minimax: Option<MinimaxJson>,
) -> AnalyzeJson {
    let size = board.size();
    AnalyzeJson {
        rule: board.rule().name(),
        size,
        position: format_moves(board.moves(), size),
        to_move: board.to_move().name(),
        search: spec.label(),
        depth: result.depth,
        best_move: format_pos(result.best_move, size),
        score: result.score,
        score_text: format_score(result.score),
        exact_values: !args.bounds && args.exact.is_none(),
        moves: result
            .root_moves
            .iter()
            .map(|r| MoveJson {
                pos: format_pos(r.pos, size),
                score: r.score,
                score_text: value_text(r),
                bound: bound_name(r.bound),
                depth: r.depth,
                pv: line_text(&r.pv, size),
            })
            .collect(),
        iterations,
        stats: StatsJson {
            nodes: result.stats.nodes,
            last_iteration_nodes: last_nodes,
            tt_hits: result.stats.tt_hits,
            tt_stores: result.stats.tt_stores,
            cutoffs: result.stats.cutoffs,
            first_move_cutoffs: result.stats.first_move_cutoffs,
            first_move_cutoff_rate: ratio(result.stats.first_move_cutoffs, result.stats.cutoffs),
            vcf_nodes: result.stats.vcf_nodes,
            singular_tests: result.stats.singular_tests,
            singular_extensions: result.stats.singular_extensions,
            time_ms: result.elapsed_ms,
            nps: result.stats.nodes * 1000 / result.elapsed_ms.max(1),
        },
        minimax,
    }
}

/// Prints the analysis as text: the position, the moves with their values, the iterations
/// and the statistics.
fn print_report(
    args: &Args,
    spec: &SearcherSpec,
    board: &Board,
    result: &SearchResult,
    iterations: &[IterationJson],
    last_nodes: u64,
    minimax: Option<&MinimaxJson>,
) {
    let size = board.size();
    println!(
        "position: {} {}x{} {}",
        board.rule(),
        size,
        size,
        format_moves(board.moves(), size)
    );
    println!("to move: {}", board.to_move());
    println!(
        "search: {} depth {}{}",
        spec.label(),
        result.depth,
        match (args.bounds, args.exact) {
            (true, _) => " (values of moves that cannot be best are bounds)".to_string(),
            (false, Some(n)) =>
                format!(" (exact values for the best {n} moves, bounds for the rest)"),
            (false, None) => " (exact value for every move)".to_string(),
        }
    );
    println!();
    println!("{:<6} {:>12}  pv", "move", "value");
    for r in &result.root_moves {
        let pv: Vec<String> = line_text(&r.pv, size).into_iter().take(8).collect();
        println!(
            "{:<6} {:>12}  {}",
            format_pos(r.pos, size),
            value_text(r),
            pv.join(" ")
        );
    }
    println!("({} candidate moves)", result.root_moves.len());
    println!();
    println!(
        "{:>5} {:>12} {:>12} {:>9} {:>9}  pv",
        "depth", "value", "nodes", "branching", "time"
    );
    for it in iterations {
        println!(
            "{:>5} {:>12} {:>12} {:>9} {:>7}ms  {}",
            it.depth,
            it.score_text,
            it.iteration_nodes,
            it.branching.map_or("-".to_string(), |b| format!("{b:.2}")),
            it.time_ms,
            it.pv.iter().take(8).cloned().collect::<Vec<_>>().join(" ")
        );
    }
    println!();
    print_stats(spec, result, size, last_nodes, minimax);
}

/// Prints the search's statistics and the minimax comparison.
fn print_stats(
    spec: &SearcherSpec,
    result: &SearchResult,
    size: usize,
    last_nodes: u64,
    minimax: Option<&MinimaxJson>,
) {
    let nps = result.stats.nodes * 1000 / result.elapsed_ms.max(1);
    let first_rate = ratio(result.stats.first_move_cutoffs, result.stats.cutoffs);
    println!(
        "bestmove {} value {}",
        format_pos(result.best_move, size),
        format_score(result.score)
    );
    println!(
        "nodes: {} (last iteration {})",
        result.stats.nodes, last_nodes
    );
    println!(
        "tt: {} hits, {} stores",
        result.stats.tt_hits, result.stats.tt_stores
    );
    println!(
        "cutoffs: {} beta cut-offs, {} by the first move ({})",
        result.stats.cutoffs,
        result.stats.first_move_cutoffs,
        first_rate.map_or("-".to_string(), |r| format!("{:.1}%", r * 100.0))
    );
    if result.stats.vcf_nodes > 0 {
        println!("vcf: {} nodes of threat search", result.stats.vcf_nodes);
    }
    if result.stats.singular_tests > 0 {
        println!(
            "singular: {} hash moves extended of {} tested",
            result.stats.singular_extensions, result.stats.singular_tests
        );
    }
    let branching: Vec<String> = result.branching.iter().map(|b| format!("{b:.2}")).collect();
    println!(
        "branching: {}",
        if branching.is_empty() {
            "-".to_string()
        } else {
            branching.join(" ")
        }
    );
    println!("time: {} ms ({} nps)", result.elapsed_ms, nps);
    if let Some(m) = minimax {
        if m.complete {
            println!(
                "minimax: {} nodes at depth {} in {} ms, value {}",
                m.nodes,
                m.depth,
                m.time_ms,
                m.score.map_or("-".to_string(), format_score)
            );
            if let (Some(f), Some(r)) = (m.visited_fraction, m.pruning_ratio) {
                println!(
                    "pruning: {} visits {:.2}% of the minimax nodes (ratio {:.1}x)",
                    spec.label(),
                    f * 100.0,
                    r
                );
            }
        } else {
            println!(
                "minimax: incomplete, stopped after {} nodes at depth {} (raise --minimax-max-nodes)",
                m.nodes, m.depth
            );
        }
    }
}
