//! `gomoku review`: judges every move of a game with the engine (best, good, inaccuracy,
//! mistake, blunder) and prints a table, then a count per player.

use crate::review_json::{counts, move_json, CountsJson, MoveJson};
use anyhow::{bail, Context, Result};
use gomoku_engine::notation::format_moves;
use gomoku_engine::review::{review_game, Review, ReviewParams, Verdict};
use gomoku_engine::{Color, Engine, EngineConfig, Game, Limits};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use std::io::{IsTerminal as _, Write};
use std::sync::atomic::AtomicBool;

/// Arguments of `gomoku review`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game to review: the moves given are the game played from the board file's position.
    #[command(flatten)]
    pub position: crate::args::PositionArgs,
    /// Time for each position in milliseconds.
    #[arg(long, default_value_t = 500)]
    pub time_ms: u64,
    /// Stop each position's search at this nominal depth.
    #[arg(long)]
    pub depth: Option<i32>,
    /// Threads and table.
    #[command(flatten)]
    pub table: crate::args::TableArgs,
    /// Read the game from a Piskvork `.psq` record instead of the moves (the record gives the
    /// board size).
    #[arg(long, value_name = "FILE")]
    pub psq: Option<String>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct ReviewJson {
    rule: &'static str,
    size: usize,
    /// The renju opening of the first three moves, if they form one.
    opening: Option<crate::renju_opening::OpeningName>,
    moves: Vec<MoveJson>,
    black: CountsJson,
    white: CountsJson,
    complete: bool,
}

/// Reads the game to review from the arguments.
fn load_game(args: &Args) -> Result<Game> {
    let Some(file) = &args.psq else {
        return args.position.load(false);
    };
    if args.position.start.path.is_some() {
        bail!("give either --psq or --board, not both");
    }
    if !args.position.moves.is_empty() {
        bail!("give either --psq or moves, not both");
    }
    let text = std::fs::read_to_string(file).with_context(|| format!("reading {file}"))?;
    let rec = crate::psq::parse(&text).map_err(|e| anyhow::anyhow!("{file}: {e}"))?;
    let mut game = Game::new(rec.size, args.position.board.rule())?;
    for (k, &(p, _)) in rec.moves.iter().enumerate() {
        game.play(p)
            .map_err(|e| anyhow::anyhow!("{file}: move {}: {e}", k + 1))?;
    }
    Ok(game)
}

/// One player's counts as text: `3 best, 5 good, 1 inaccuracy, 0 mistakes, 1 blunder`.
fn counts_text(c: &CountsJson) -> String {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{} best, {} good, {}, {}, {}",
        c.best,
        c.good,
        plural(c.inaccuracy, "inaccuracy", "inaccuracies"),
        plural(c.mistake, "mistake", "mistakes"),
        plural(c.blunder, "blunder", "blunders"),
    )
}

/// Runs the command.
///
/// # Errors
/// Bad moves or record, bad limits.
pub fn run(args: &Args) -> Result<()> {
    if !(1..=crate::args::MAX_THREADS).contains(&args.table.threads) {
        bail!("--threads must be 1 to {}", crate::args::MAX_THREADS);
    }
    if args.table.hash_mb == 0 {
        bail!("--hash-mb must be at least 1");
    }
    crate::args::check_hash_mb(args.table.hash_mb)?;
    if args.time_ms == 0 {
        bail!("--time-ms must be at least 1");
    }
    if args.depth.is_some_and(|d| !(1..=99).contains(&d)) {
        bail!("--depth must be 1 to 99");
    }
    let game = load_game(args)?;
    let board = game.board();
    let size = board.size();
    if !gomoku_engine::review::has_moves(&game) {
        bail!("the game has no moves to review");
    }
    let mut engine = Engine::new(EngineConfig {
        hash_mb: args.table.hash_mb,
        threads: args.table.threads,
    });
    let limits = Limits {
        move_time_ms: Some(args.time_ms),
        depth: args.depth,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let bar = if args.json || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} positions [{elapsed}<{eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let review = review_game(
        &mut engine,
        &game,
        &limits,
        &ReviewParams::default(),
        &stop,
        &mut |p| {
            bar.set_length(p.total as u64);
            bar.set_position(p.done as u64);
        },
    );
    bar.finish_and_clear();
    let rule = board.rule();
    if args.json {
        let out = ReviewJson {
            rule: rule.name(),
            size,
            opening: crate::renju_opening::OpeningName::of_game(&game),
            moves: review.moves.iter().map(|m| move_json(m, size)).collect(),
            black: counts(&review, Color::Black),
            white: counts(&review, Color::White),
            complete: review.complete,
        };
        println!("{}", serde_json::to_string(&out)?);
        return Ok(());
    }
    println!(
        "game: {rule} {size}x{size} {}",
        format_moves(board.moves(), size)
    );
    if let Some(o) = gomoku_engine::renju::of_game(&game) {
        println!("opening: {o}");
    }
    if game.result().is_some() {
        println!("result: {}", crate::args::result_text(&game));
    }
    write_table(&mut std::io::stdout().lock(), &review, size)?;
    Ok(())
}

/// Writes a review as a table, one row per judged move, then each player's counts.
///
/// # Errors
/// Failures writing to `out`.
pub(crate) fn write_table(
    out: &mut impl Write,
    review: &Review,
    size: usize,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{:>4}  {:<5} {:<5} {:>11}   {:<5} {:>11}  {:>5}  verdict",
        "no.", "color", "move", "value", "best", "best value", "lost"
    )?;
    for m in &review.moves {
        let j = move_json(m, size);
        let lost = if m.verdict == Verdict::Best {
            "-".to_string()
        } else {
            format!("{:.0}%", m.loss * 100.0)
        };
        writeln!(
            out,
            "{:>4}  {:<5} {:<5} {:>11}   {:<5} {:>11}  {:>5}  {}{}",
            j.number,
            j.color,
            format!("{}{}", j.played, m.verdict.mark()),
            j.score_text,
            j.best,
            j.best_score_text,
            lost,
            j.verdict,
            if m.verdict >= Verdict::Mistake && !m.best_pv.is_empty() {
                format!(
                    " (better {})",
                    j.best_pv[..j.best_pv.len().min(8)].join(" ")
                )
            } else {
                String::new()
            }
        )?;
    }
    writeln!(out, "black: {}", counts_text(&counts(review, Color::Black)))?;
    writeln!(out, "white: {}", counts_text(&counts(review, Color::White)))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_as_english() {
        let c = CountsJson {
            best: 3,
            good: 1,
            inaccuracy: 1,
            mistake: 0,
            blunder: 2,
        };
        assert_eq!(
            counts_text(&c),
            "3 best, 1 good, 1 inaccuracy, 0 mistakes, 2 blunders"
        );
    }
}
