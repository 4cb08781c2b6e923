//! What the engine reports about a search, live and final: the move, its value, the line, the
//! counters, and an analysis's candidate moves.

use super::Purpose;
use gomoku_engine::notation::format_pos;
use gomoku_engine::search::score::Score;
use gomoku_engine::search::{format_score, moves_to_result, RootMove, ValueBound};
use gomoku_engine::{Color, Pos, SearchInfo, SearchResult};
use serde::Serialize;

/// How many candidate moves an analysis reports.
pub const CANDIDATES: usize = 12;

/// The scale `K` of the winning chance of an evaluation `v` (for the side it is of): the
/// expected score `1 / (1 + exp(-v / K))`, 50% at 0 and 73% at `K`. It is the logistic curve
/// `gomoku train` fits to the results of self-play games under the engine's evaluation (its
/// `scale K` line). On 200 games a rule, `gomoku selfplay --games 200 --nodes 20000 --seed 7`
/// (`--rule renju` for renju), it fitted 173 for freestyle and 185 for renju; 180 is their
/// mean, rounded. One value for every rule, so that a value reads as the same chance
/// everywhere on the board.
pub const WIN_SCALE: f64 = 180.0;

/// A search shorter than this reports no speed: a few nodes in a millisecond or two say
/// nothing about nodes per second.
pub const NPS_MIN_MS: u64 = 100;

/// The speed of a search of `nodes` in `ms`, when it ran long enough to tell.
fn speed(nodes: u64, ms: u64) -> Option<u64> {
    (ms >= NPS_MIN_MS).then(|| nodes * 1000 / ms.max(1))
}

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
    /// Nodes per second (`null` when the search was too short to tell: [`NPS_MIN_MS`]).
    pub nps: Option<u64>,
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
    /// The value is a proof found earlier up the game (the search itself saw less): see
    /// [`EngineInfo::with_proof`]. Absent when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub proven_earlier: bool,
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
            nps: None,
            tt_hits: 0,
            time_ms: 0,
            pv: pv.iter().map(|&p| format_pos(p, size)).collect(),
            engine: String::new(),
            done: false,
            candidates: Vec::new(),
            proven_earlier: false,
        }
    }

    /// The figures with the value `proof` (a proven value of the searched position, for the
    /// side searched for) in place of an ordinary one: a proof found up the game still holds
    /// when this search was too short to see it again.
    #[must_use]
    pub fn with_proof(&self, proof: Option<Score>) -> EngineInfo {
        match proof {
            Some(s) if self.mate.is_none() && moves_to_result(s).is_some() => EngineInfo {
                score: s,
                eval: format_score(s),
                mate: moves_to_result(s),
                black_score: if self.color == Color::Black.name() {
                    s
                } else {
                    -s
                },
                proven_earlier: true,
                ..self.clone()
            },
            _ => self.clone(),
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
            nps: speed(i.nodes, i.elapsed_ms),
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
            nps: speed(r.stats.nodes, r.elapsed_ms),
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
    fn an_earlier_proof_replaces_an_ordinary_value() {
        let pv = [Pos::new(7, 7)];
        let w = EngineInfo::new(Purpose::Move, Color::White, 296, &pv, 15);
        let proven = w.with_proof(Some(gomoku_engine::search::score::win_in(11)));
        assert_eq!(
            (proven.mate, proven.black_score < 0, proven.proven_earlier),
            (Some(6), true, true)
        );
        assert!(!w.with_proof(None).proven_earlier);
        let won = EngineInfo::new(Purpose::Move, Color::White, 29_990, &pv, 15);
        assert_eq!(
            won.with_proof(Some(29_900)).score,
            29_990,
            "its own proof stays"
        );
    }

    #[test]
    fn short_searches_have_no_speed() {
        assert_eq!(speed(5, 1), None);
        assert_eq!(speed(300_000, 1_000), Some(300_000));
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
