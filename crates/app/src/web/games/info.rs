//! What the engine reports about a search, live and final: the move, its value, the line, the
//! counters, and an analysis's candidate moves.

use super::Purpose;
use gomoku_engine::notation::format_pos;
use gomoku_engine::search::{format_score, moves_to_result, RootMove, ValueBound};
use gomoku_engine::{Color, Pos, SearchInfo, SearchResult};
use serde::Serialize;

/// How many candidate moves an analysis reports.
pub const CANDIDATES: usize = 12;

/// One candidate move of an analysis.
#[derive(Clone, Debug, Serialize)]
pub struct Candidate {
    /// The point (`h8` style).
    #[serde(rename = "move")]
    pub point: String,
    /// Its value for the side to move.
    pub score: i32,
    /// The value as text, as in [`EngineInfo::eval`].
    pub eval: String,
    /// Own moves to a proven result, as in [`EngineInfo::mate`].
    pub mate: Option<i32>,
    /// The depth the value comes from.
    pub depth: i32,
    /// The line starting with this move.
    pub pv: Vec<String>,
}

impl Candidate {
    /// The first [`CANDIDATES`] moves with exact values (an analysis gives them for that
    /// many moves, and only bounds for the rest).
    pub(super) fn list(moves: &[RootMove], size: usize) -> Vec<Candidate> {
        moves
            .iter()
            .filter(|m| m.pos.is_point() && m.bound == ValueBound::Exact)
            .take(CANDIDATES)
            .map(|m| Candidate {
                point: format_pos(m.pos, size),
                score: m.score,
                eval: format_score(m.score),
                mate: moves_to_result(m.score),
                depth: m.depth,
                pv: m.pv.iter().map(|&p| format_pos(p, size)).collect(),
            })
            .collect()
    }
}

/// What the engine reports about a search, live or final.
#[derive(Clone, Debug, Serialize)]
pub struct EngineInfo {
    /// Move or hint.
    pub purpose: Purpose,
    /// The colour the engine searched for.
    pub color: &'static str,
    /// The best move so far (`h8` style), `null` before the first iteration.
    #[serde(rename = "move")]
    pub point: Option<String>,
    /// Score for the searching side.
    pub score: i32,
    /// The score as text: `+35`, `win in 3`, `loss in 2`.
    pub eval: String,
    /// Own moves to a proven result: positive wins, negative loses, `null` when not proven.
    pub mate: Option<i32>,
    /// The score from Black's point of view (for the evaluation graph).
    pub black_score: i32,
    /// Nominal depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition-table hits.
    pub tt_hits: u64,
    /// Think time so far.
    pub time_ms: u64,
    /// Principal variation.
    pub pv: Vec<String>,
    /// Which searcher (`pvs` or `greedy/pattern`).
    pub engine: String,
    /// Whether the search has finished.
    #[serde(rename = "final")]
    pub done: bool,
    /// An analysis's candidate moves, best first (absent for moves and hints).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<Candidate>,
}

impl EngineInfo {
    pub(super) fn new(
        purpose: Purpose,
        color: Color,
        score: i32,
        pv: &[Pos],
        size: usize,
    ) -> EngineInfo {
        EngineInfo {
            purpose,
            color: color.name(),
            point: pv.first().map(|&p| format_pos(p, size)),
            score,
            eval: format_score(score),
            mate: moves_to_result(score),
            black_score: if color == Color::Black { score } else { -score },
            depth: 0,
            seldepth: 0,
            nodes: 0,
            nps: 0,
            tt_hits: 0,
            time_ms: 0,
            pv: pv.iter().map(|&p| format_pos(p, size)).collect(),
            engine: String::new(),
            done: false,
            candidates: Vec::new(),
        }
    }

    pub(super) fn from_iteration(
        purpose: Purpose,
        color: Color,
        i: &SearchInfo,
        size: usize,
        engine: &str,
    ) -> EngineInfo {
        EngineInfo {
            depth: i.depth,
            seldepth: i.seldepth,
            nodes: i.nodes,
            nps: i.nps,
            tt_hits: i.tt_hits,
            time_ms: i.elapsed_ms,
            engine: engine.to_string(),
            ..EngineInfo::new(purpose, color, i.score, &i.pv, size)
        }
    }

    pub(super) fn from_result(
        purpose: Purpose,
        color: Color,
        r: &SearchResult,
        size: usize,
        engine: &str,
    ) -> EngineInfo {
        // the reported move is the one played, even if the PV was cut short
        let mut pv = r.pv.clone();
        if pv.first() != Some(&r.best_move) {
            pv = vec![r.best_move];
        }
        EngineInfo {
            depth: r.depth,
            seldepth: r.seldepth,
            nodes: r.stats.nodes,
            nps: r.stats.nodes * 1000 / r.elapsed_ms.max(1),
            tt_hits: r.stats.tt_hits,
            time_ms: r.elapsed_ms,
            engine: engine.to_string(),
            done: true,
            candidates: if purpose == Purpose::Analysis {
                Candidate::list(&r.root_moves, size)
            } else {
                Vec::new()
            },
            ..EngineInfo::new(purpose, color, r.score, &pv, size)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_info_is_from_blacks_view_for_the_graph() {
        let size = 15;
        let pv = [Pos::new(7, 7)];
        let w = EngineInfo::new(Purpose::Move, Color::White, 120, &pv, size);
        assert_eq!(
            (w.black_score, w.point.as_deref(), w.mate),
            (-120, Some("h8"), None)
        );
        let b = EngineInfo::new(
            Purpose::Hint,
            Color::Black,
            gomoku_engine::search::score::win_in(3),
            &pv,
            size,
        );
        assert_eq!((b.mate, b.eval.as_str()), (Some(2), "win in 2"));
    }

    #[test]
    fn candidates_are_capped_and_carry_their_line() {
        let size = 15;
        let moves: Vec<RootMove> = (0..20)
            .map(|i| RootMove {
                pos: Pos::new(i % size, i / size),
                score: 100 - i as i32,
                bound: gomoku_engine::search::ValueBound::Exact,
                pv: vec![Pos::new(i % size, i / size), Pos::new(7, 7)],
                depth: 9,
            })
            .collect();
        let list = Candidate::list(&moves, size);
        assert_eq!(list.len(), CANDIDATES);
        assert_eq!(list[0].point, "a15");
        assert_eq!(list[0].pv, ["a15", "h8"]);
        assert_eq!((list[1].score, list[1].eval.as_str()), (99, "+99"));
        assert!(list.iter().all(|c| c.depth == 9 && c.mate.is_none()));
    }
}
