//! Pluggable pieces for experiments: evaluators and searchers behind two small traits, so that
//! the engine's own components can be compared with simpler ones (five-tuple evaluation, plain
//! alpha-beta, minimax, one-ply greedy) without touching the engine's hot path.

use crate::board::Board;
use crate::pattern::Pattern4;
use crate::search::movegen::{gen_all, own_class};
use crate::search::score::{win_in, Score, INFINITE};
use crate::search::{
    Engine, Limits, RootMove, SearchEvent, SearchOptions, SearchResult, SearchStats, ValueBound,
};
use crate::types::Pos;
use std::sync::atomic::AtomicBool;

/// A static evaluation: a score for the side to move.
pub trait Evaluator: Send + Sync {
    /// Short name (`pattern`, `tuple`, ...).
    fn name(&self) -> &'static str;
    /// The score of `board` for its side to move.
    fn evaluate(&self, board: &Board) -> Score;
}

/// The engine's incremental pattern evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct PatternEval;

impl Evaluator for PatternEval {
    fn name(&self) -> &'static str {
        "pattern"
    }
    fn evaluate(&self, board: &Board) -> Score {
        crate::eval::evaluate(board)
    }
}

/// Something that chooses a move.
pub trait Searcher: Send {
    /// Short description (`pvs`, `greedy/pattern`, ...).
    fn name(&self) -> String;
    /// Searches `board` for its side to move.
    fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        options: &SearchOptions,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchEvent<'_>),
    ) -> SearchResult;
}

impl Searcher for Engine {
    fn name(&self) -> String {
        "pvs".to_string()
    }
    fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        options: &SearchOptions,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchEvent<'_>),
    ) -> SearchResult {
        Engine::search(self, board, limits, options, stop, report)
    }
}

/// One ply: play each candidate, evaluate, keep the best (a five is taken at once).
#[derive(Debug)]
pub struct Greedy<E: Evaluator> {
    /// The evaluation used.
    pub eval: E,
}

impl<E: Evaluator> Searcher for Greedy<E> {
    fn name(&self) -> String {
        format!("greedy/{}", self.eval.name())
    }
    fn search(
        &mut self,
        board: &Board,
        _limits: &Limits,
        _options: &SearchOptions,
        _stop: &AtomicBool,
        _report: &mut dyn FnMut(SearchEvent<'_>),
    ) -> SearchResult {
        let start = std::time::Instant::now();
        let mut b = board.clone();
        let us = b.to_move();
        let mut list = Vec::new();
        gen_all(&mut b, us, &mut list);
        if b.stone_count() == 0 {
            list.clear();
            list.push(crate::search::movegen::ScoredMove {
                pos: b.centre(),
                score: 0,
            });
        }
        let mut stats = SearchStats::default();
        let mut root: Vec<RootMove> = Vec::new();
        for m in &list {
            stats.nodes += 1;
            let score = if own_class(&mut b, m.pos, us) == Pattern4::Five {
                win_in(1)
            } else {
                b.play_unchecked(m.pos);
                let s = -self.eval.evaluate(&b);
                b.undo();
                s
            };
            root.push(RootMove {
                pos: m.pos,
                score,
                bound: ValueBound::Exact,
                pv: vec![m.pos],
                depth: 1,
            });
        }
        root.sort_by_key(|r| std::cmp::Reverse(r.score));
        let best = root.first().cloned();
        SearchResult {
            best_move: best.as_ref().map_or(Pos::NONE, |r| r.pos),
            score: best.as_ref().map_or(-INFINITE, |r| r.score),
            depth: 1,
            seldepth: 1,
            pv: best.map_or_else(Vec::new, |r| r.pv),
            root_moves: root,
            stats,
            branching: Vec::new(),
            elapsed_ms: start.elapsed().as_millis() as u64,
        }
    }
}
