//! `gomoku think`: searches a position and prints the progress line by line, then the move.

use anyhow::Result;
use gomoku_engine::notation::{format_moves, format_pos};
use gomoku_engine::search::format_score;
use gomoku_engine::{Limits, SearchEvent, SearchOptions};
use serde::Serialize;
use std::sync::atomic::AtomicBool;

/// Arguments of `gomoku think`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position to search.
    #[command(flatten)]
    pub position: crate::args::PositionArgs,
    /// Time for the move in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub time_ms: u64,
    /// Stop at this nominal depth.
    #[arg(long)]
    pub depth: Option<i32>,
    /// The searcher and its limits.
    #[command(flatten)]
    pub search: crate::args::SearchArgs,
    /// Print one JSON object at the end instead of progress lines.
    #[arg(long)]
    pub json: bool,
    /// Read the moves as a diagram (stones placed without game rules).
    #[arg(long)]
    pub diagram: bool,
}

#[derive(Serialize)]
struct IterationJson {
    depth: i32,
    seldepth: i32,
    score: i32,
    score_text: String,
    nodes: u64,
    nps: u64,
    tt_hits: u64,
    time_ms: u64,
    pv: Vec<String>,
}

#[derive(Serialize)]
struct ThinkJson {
    best_move: String,
    score: i32,
    score_text: String,
    depth: i32,
    seldepth: i32,
    nodes: u64,
    nps: u64,
    tt_hits: u64,
    time_ms: u64,
    pv: Vec<String>,
    iterations: Vec<IterationJson>,
}

/// Runs the command.
///
/// # Errors
/// Bad moves, a finished game or a full board.
pub fn run(args: &Args) -> Result<()> {
    let game = args.position.searchable(args.diagram)?;
    let board = game.board();
    let size = board.size();
    let (_, mut searcher) = args.search.build(args.depth)?;
    let limits = Limits {
        move_time_ms: Some(args.time_ms),
        depth: args.depth,
        nodes: args.search.nodes,
        ..Limits::default()
    };
    let options = SearchOptions {
        exclude: args.search.excluded(&game)?,
        ..SearchOptions::default()
    };
    let stop = AtomicBool::new(false);
    let mut iterations = Vec::new();
    let json = args.json;
    if !json {
        println!(
            "position: {} {}x{} {}",
            board.rule(),
            size,
            size,
            format_moves(board.moves(), size)
        );
        println!("to move: {}", board.to_move());
        println!("search: {}", searcher.name());
    }
    let result = searcher.search(board, &limits, &options, &stop, &mut |ev| {
        if let SearchEvent::Iteration(i) = ev {
            let pv: Vec<String> = i.pv.iter().map(|&p| format_pos(p, size)).collect();
            if json {
                iterations.push(IterationJson {
                    depth: i.depth,
                    seldepth: i.seldepth,
                    score: i.score,
                    score_text: format_score(i.score),
                    nodes: i.nodes,
                    nps: i.nps,
                    tt_hits: i.tt_hits,
                    time_ms: i.elapsed_ms,
                    pv,
                });
            } else {
                println!(
                    "depth {:>2}/{:<2} score {:>9} nodes {:>10} nps {:>8} tt_hits {:>9} time {:>6}ms pv {}",
                    i.depth,
                    i.seldepth,
                    format_score(i.score),
                    i.nodes,
                    i.nps,
                    i.tt_hits,
                    i.elapsed_ms,
                    pv.join(" ")
                );
            }
        }
    });
    let nps = result.stats.nodes * 1000 / result.elapsed_ms.max(1);
    let best = format_pos(result.best_move, size);
    if json {
        let out = ThinkJson {
            best_move: best,
            score: result.score,
            score_text: format_score(result.score),
            depth: result.depth,
            seldepth: result.seldepth,
            nodes: result.stats.nodes,
            nps,
            tt_hits: result.stats.tt_hits,
            time_ms: result.elapsed_ms,
            pv: result.pv.iter().map(|&p| format_pos(p, size)).collect(),
            iterations,
        };
        println!("{}", serde_json::to_string(&out)?);
    } else {
        println!(
            "bestmove {best} score {} depth {} nodes {} nps {nps} tt_hits {} time {}ms",
            format_score(result.score),
            result.depth,
            result.stats.nodes,
            result.stats.tt_hits,
            result.elapsed_ms
        );
    }
    Ok(())
}
