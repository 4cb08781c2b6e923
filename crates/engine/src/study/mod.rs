//! Pluggable pieces for experiments: evaluators and searchers behind two small traits, so that
//! the engine's own components can be compared with simpler ones (five-tuple evaluation, plain
//! alpha-beta, minimax, one-ply greedy) without touching the engine's hot path.
//!
//! - [`Evaluator`]: [`PatternEval`] (the engine's) and [`TupleEval`] (the classic five-tuple
//!   table of student engines), or [`AnyEval`] to choose one at run time;
//! - [`Searcher`]: the [`Engine`] (PVS), [`AlphaBeta`] (plain, no table, with or without move
//!   ordering), [`Minimax`] and [`Greedy`] (one ply);
//! - [`SearcherSpec`]: a searcher and evaluator chosen by name, as the command line does.
//!
//! ```
//! use gomoku_engine::study::{AlphaBeta, Minimax, Searcher, TupleEval};
//! use gomoku_engine::{Game, Limits, Rule, SearchOptions};
//! use std::sync::atomic::AtomicBool;
//! let game = Game::from_position(9, Rule::Freestyle, "e5 e6 f5").unwrap();
//! let limits = Limits { depth: Some(2), ..Limits::default() };
//! let stop = AtomicBool::new(false);
//! let opts = SearchOptions::default();
//! let ab = AlphaBeta { eval: TupleEval, ordering: true }.search(game.board(), &limits, &opts, &stop, &mut |_| {});
//! let mm = Minimax { eval: TupleEval }.search(game.board(), &limits, &opts, &stop, &mut |_| {});
//! assert_eq!(ab.score, mm.score); // pruning never changes the value...
//! assert!(ab.stats.nodes < mm.stats.nodes); // ...only the work
//! ```

mod spec;
mod tree;
mod tuple;

pub use spec::{EvalKind, SearchKind, SearcherSpec, SpecError};
pub use tree::{AlphaBeta, Minimax};
pub use tuple::{TupleEval, TUPLE_OPPO, TUPLE_SELF};

use crate::board::Board;
use crate::search::score::Score;
use crate::search::{Engine, Limits, SearchEvent, SearchOptions, SearchResult};
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

/// One of the evaluators, chosen at run time (a `match`, no virtual call in the tree).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyEval {
    /// [`PatternEval`].
    Pattern,
    /// [`TupleEval`].
    Tuple,
}

impl Evaluator for AnyEval {
    fn name(&self) -> &'static str {
        match self {
            AnyEval::Pattern => PatternEval.name(),
            AnyEval::Tuple => TupleEval.name(),
        }
    }
    #[inline]
    fn evaluate(&self, board: &Board) -> Score {
        match self {
            AnyEval::Pattern => PatternEval.evaluate(board),
            AnyEval::Tuple => TupleEval.evaluate(board),
        }
    }
}

/// Something that chooses a move.
///
/// Every searcher obeys [`Limits`] (depth, and the time, node and stop limits where they make
/// sense), always returns a legal move when the board has an empty point, fills
/// [`SearchResult::root_moves`] and the counters of [`SearchResult::stats`] (nodes, cut-offs,
/// first-move cut-offs), and reports [`SearchEvent::Iteration`] after each completed depth.
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
///
/// The same as [`Minimax`] limited to depth 1: every root move gets an exact value.
#[derive(Debug)]
pub struct Greedy<E: Evaluator> {
    /// The evaluation used.
    pub eval: E,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::win_in;
    use crate::types::Rule;

    use crate::game::test_board as board;

    #[test]
    fn greedy_takes_the_five() {
        let b = board(15, Rule::Freestyle, "h8 a1 i8 a2 j8 a3 k8 b1");
        let stop = AtomicBool::new(false);
        let r = Greedy { eval: PatternEval }.search(
            &b,
            &Limits::default(),
            &SearchOptions::default(),
            &stop,
            &mut |_| {},
        );
        assert_eq!(r.score, win_in(1));
        let m = b.fmt_pos(r.best_move);
        assert!(m == "g8" || m == "l8", "{m}");
        assert!(r.root_moves.len() > 10);
    }

    #[test]
    fn any_eval_matches_the_concrete_ones() {
        let b = board(15, Rule::Renju, "h8 h9 i8 j10 g7");
        assert_eq!(AnyEval::Pattern.evaluate(&b), PatternEval.evaluate(&b));
        assert_eq!(AnyEval::Tuple.evaluate(&b), TupleEval.evaluate(&b));
        assert_eq!(AnyEval::Tuple.name(), "tuple");
    }
}
