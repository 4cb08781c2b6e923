//! A reviewed game as JSON: each judged move and each player's counts, as `gomoku review
//! --json` prints them and the web board's review shows them.

use gomoku_engine::notation::format_pos;
use gomoku_engine::review::{MoveReview, Review, Verdict};
use gomoku_engine::search::format_score;
use gomoku_engine::Color;
use serde::Serialize;

/// One judged move, as `--json` and the web board's review give it.
#[derive(Debug, Serialize)]
pub struct MoveJson {
    /// The move's number in the game (1 for the first).
    pub number: usize,
    /// The colour that played it.
    pub color: &'static str,
    /// The move played.
    #[serde(rename = "move")]
    pub played: String,
    /// Its value for the mover.
    pub score: i32,
    /// Its value as text (`+35`, `win in 3`).
    pub score_text: String,
    /// The engine's best move there.
    pub best: String,
    /// The best move's value.
    pub best_score: i32,
    /// The best move's value as text.
    pub best_score_text: String,
    /// What the move lost against the best one, as a winning chance (0 to 1).
    pub loss: f64,
    /// best, good, inaccuracy, mistake or blunder.
    pub verdict: &'static str,
    /// The verdict's mark (`?!`, `?`, `??`; empty for best and good).
    pub mark: &'static str,
    /// The depth of the search that judged it.
    pub depth: i32,
    /// The line after the best move.
    pub best_pv: Vec<String>,
    /// The line after the move played.
    pub played_pv: Vec<String>,
}

/// How many moves of one player got each verdict.
#[derive(Debug, Serialize)]
pub struct CountsJson {
    /// Best moves.
    pub best: usize,
    /// Good moves.
    pub good: usize,
    /// Inaccuracies.
    pub inaccuracy: usize,
    /// Mistakes.
    pub mistake: usize,
    /// Blunders.
    pub blunder: usize,
}

/// `color`'s counts in `review`.
pub fn counts(review: &Review, color: Color) -> CountsJson {
    let c = review.counts(color);
    CountsJson {
        best: c[Verdict::Best as usize],
        good: c[Verdict::Good as usize],
        inaccuracy: c[Verdict::Inaccuracy as usize],
        mistake: c[Verdict::Mistake as usize],
        blunder: c[Verdict::Blunder as usize],
    }
}

/// A judged move with its points in `h8` style.
pub fn move_json(m: &MoveReview, size: usize) -> MoveJson {
    let line = |pv: &[gomoku_engine::Pos]| pv.iter().map(|&p| format_pos(p, size)).collect();
    MoveJson {
        number: m.ply + 1,
        color: m.color.name(),
        played: format_pos(m.played, size),
        score: m.played_score,
        score_text: format_score(m.played_score),
        best: format_pos(m.best, size),
        best_score: m.best_score,
        best_score_text: format_score(m.best_score),
        loss: (m.loss * 1000.0).round() / 1000.0,
        verdict: m.verdict.name(),
        mark: m.verdict.mark(),
        depth: m.depth,
        best_pv: line(&m.best_pv),
        played_pv: line(&m.played_pv),
    }
}
