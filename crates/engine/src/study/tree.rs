//! Plain game-tree searches for comparison with the engine: negamax minimax and alpha-beta, no
//! transposition table, no extensions, no threat search: a five ends the game, and at the
//! horizon a side to move that can make five has won; otherwise the horizon is the static
//! evaluation.
//!
//! Both deepen iteratively (depth 1, 2, ... up to the limit) so that a time limit can be obeyed
//! and the branching factor of each iteration measured; nothing is carried from one iteration to
//! the next, so the last iteration is exactly the textbook search of that depth.

use super::{Evaluator, Greedy, Searcher};
use crate::board::Board;
use crate::pattern::Pattern4;
use crate::search::movegen::{gen_all, sort_moves, ScoredMove};
use crate::search::score::{is_decisive, win_in, Score, DRAW, INFINITE, WIN};
use crate::search::{
    Limits, RootMove, SearchEvent, SearchInfo, SearchOptions, SearchResult, SearchStats,
    TimeManager, ValueBound,
};
use crate::types::{Color, Pos};
use std::sync::atomic::{AtomicBool, Ordering};

/// Deepest nominal depth of the plain searches (they never get near it in practice).
const MAX_TREE_DEPTH: i32 = 30;
/// Plies the PV tables hold (the nominal depth plus the terminal five).
const MAX_TREE_PLY: usize = MAX_TREE_DEPTH as usize + 2;
/// How often (in nodes) the clock and the stop flag are looked at.
const POLL_MASK: u64 = 255;

/// Plain alpha-beta (negamax, fail-soft) with the candidates of the engine's move generator,
/// tried in the generator's ordering-score order or, without ordering, in a fixed board order
/// (row by row from the top).
///
/// With [`SearchOptions::all_root_values`] every root move is searched with a full window so
/// that each gets an exact value; otherwise moves that cannot beat the best so far only get an
/// upper bound ([`ValueBound::Upper`]).
#[derive(Clone, Copy, Debug)]
pub struct AlphaBeta<E: Evaluator> {
    /// The evaluation at the horizon.
    pub eval: E,
    /// Try the candidates best-first by the generator's ordering score.
    pub ordering: bool,
}

/// Plain minimax (negamax, no pruning): visits every node of the tree up to the depth. Every
/// root move gets an exact value.
#[derive(Clone, Copy, Debug)]
pub struct Minimax<E: Evaluator> {
    /// The evaluation at the horizon.
    pub eval: E,
}

/// How a plain tree search walks the tree: its name, whether alpha-beta cuts off (else every
/// node is visited), whether the candidates are tried best-first (else in board order), and
/// the depth it keeps to whatever the limits say (one ply for [`Greedy`]).
#[derive(Clone, Copy, Debug)]
struct Shape(&'static str, bool, bool, Option<i32>);

impl Shape {
    const ALPHABETA: Shape = Shape("alphabeta", true, true, None);
    const ALPHABETA_NO_ORDER: Shape = Shape("alphabeta-noorder", true, false, None);
    const MINIMAX: Shape = Shape("minimax", false, true, None);
    const GREEDY: Shape = Shape("greedy", false, true, Some(1));

    fn prunes(self) -> bool {
        self.1
    }

    fn orders(self) -> bool {
        self.2
    }
}

/// A plain tree search of this module: an evaluator at the horizon and a [`Shape`]. Each is
/// a [`Searcher`] through [`run`].
trait Walk: Send {
    /// The evaluator at the horizon.
    type Eval: Evaluator;
    /// The evaluator and the shape of the walk.
    fn walk(&self) -> (&Self::Eval, Shape);
}

impl<W: Walk> Searcher for W {
    fn name(&self) -> String {
        let (eval, shape) = self.walk();
        format!("{}/{}", shape.0, eval.name())
    }

    fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        options: &SearchOptions,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchEvent<'_>),
    ) -> SearchResult {
        let (eval, shape) = self.walk();
        let limits = Limits {
            depth: shape.3.or(limits.depth),
            ..limits.clone()
        };
        run(eval, shape, board, &limits, options, stop, report)
    }
}

impl<E: Evaluator> Walk for Minimax<E> {
    type Eval = E;
    fn walk(&self) -> (&E, Shape) {
        (&self.eval, Shape::MINIMAX)
    }
}

impl<E: Evaluator> Walk for AlphaBeta<E> {
    type Eval = E;
    fn walk(&self) -> (&E, Shape) {
        let shape = if self.ordering {
            Shape::ALPHABETA
        } else {
            Shape::ALPHABETA_NO_ORDER
        };
        (&self.eval, shape)
    }
}

impl<E: Evaluator> Walk for Greedy<E> {
    type Eval = E;
    fn walk(&self) -> (&E, Shape) {
        (&self.eval, Shape::GREEDY)
    }
}

/// The candidates of `us` in `board`: the engine's generator (near stones, renju forbidden
/// points left out), or every allowed empty point when nothing is near a stone.
fn candidates(board: &mut Board, us: Color, ordering: bool, out: &mut Vec<ScoredMove>) {
    gen_all(board, us, out);
    if out.is_empty() && !board.is_full() {
        let pts: Vec<Pos> = board.points().filter(|&p| board.is_empty(p)).collect();
        for p in pts {
            if us == Color::Black && board.is_forbidden(p) {
                continue;
            }
            out.push(ScoredMove { pos: p, score: 0 });
        }
    }
    if ordering {
        sort_moves(out);
    } else {
        out.sort_by_key(|m| m.pos.index());
    }
}

struct Tree<'a, E: Evaluator> {
    eval: &'a E,
    prune: bool,
    ordering: bool,
    board: Board,
    stats: SearchStats,
    time: TimeManager,
    stop: &'a AtomicBool,
    node_limit: Option<u64>,
    stopped: bool,
    seldepth: i32,
    pv: Vec<[Pos; MAX_TREE_PLY + 1]>,
    pv_len: [usize; MAX_TREE_PLY + 1],
    lists: Vec<Vec<ScoredMove>>,
}

impl<E: Evaluator> Tree<'_, E> {
    /// The root's candidates: the centre on an empty board, else the generator's, without
    /// the points of `exclude` unless they are all there is.
    fn root_candidates(&mut self, exclude: &[Pos]) -> Vec<Pos> {
        let us = self.board.to_move();
        let mut moves: Vec<Pos> = if self.board.stone_count() == 0 && !self.board.is_full() {
            vec![self.board.centre()]
        } else {
            let mut list = Vec::new();
            candidates(&mut self.board, us, self.ordering, &mut list);
            list.iter().map(|m| m.pos).collect()
        };
        if moves.iter().any(|p| !exclude.contains(p)) {
            moves.retain(|p| !exclude.contains(p));
        }
        moves
    }

    fn poll(&mut self) {
        if self.node_limit.is_some_and(|n| self.stats.nodes >= n) {
            self.stopped = true;
        }
        if self.stats.nodes & POLL_MASK == 0
            && (self.stop.load(Ordering::Relaxed) || self.time.out_of_time())
        {
            self.stopped = true;
        }
    }

    fn update_pv(&mut self, ply: usize, m: Pos) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// The value of the position (a move was just played) for its side to move, `ply` plies
    /// below the root with `depth` plies left. Proven results count plies from the root.
    fn node(&mut self, depth: i32, ply: usize, mut alpha: Score, beta: Score) -> Score {
        self.stats.nodes += 1;
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply as i32);
        self.poll();
        if self.stopped {
            return 0;
        }
        let us = self.board.to_move();
        if depth <= 0 {
            // a five on the next move decides the game: no evaluation can outweigh it, and
            // without this a one-ply player would walk past the opponent's four
            if self.board.threat_count(us, Pattern4::Five) > 0 {
                return win_in(ply as i32 + 1);
            }
            return self.eval.evaluate(&self.board);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        candidates(&mut self.board, us, self.ordering, &mut list);
        if list.is_empty() {
            self.lists[ply] = list;
            return DRAW;
        }
        let mut best = -INFINITE;
        for (i, m) in list.iter().enumerate() {
            let v = if self.board.makes_five(m.pos, us) {
                // the game ends here: a leaf whatever the depth
                self.stats.nodes += 1;
                self.pv_len[ply + 1] = ply + 1;
                win_in(ply as i32 + 1)
            } else {
                self.board.play_unchecked(m.pos);
                let v = -self.node(depth - 1, ply + 1, -beta, -alpha);
                self.board.undo();
                v
            };
            if self.stopped {
                break;
            }
            if v > best {
                best = v;
                self.update_pv(ply, m.pos);
            }
            if self.prune {
                alpha = alpha.max(v);
                if alpha >= beta {
                    self.stats.cutoffs += 1;
                    if i == 0 {
                        self.stats.first_move_cutoffs += 1;
                    }
                    break;
                }
            }
        }
        self.lists[ply] = list;
        best
    }

    /// One iteration over the root moves; `None` when stopped before the end.
    fn root(&mut self, moves: &[Pos], depth: i32, all: bool) -> (Vec<RootMove>, bool) {
        let us = self.board.to_move();
        let mut alpha = -INFINITE;
        let mut out = Vec::with_capacity(moves.len());
        for &m in moves {
            let (v, pv) = if self.board.makes_five(m, us) {
                self.stats.nodes += 1;
                (win_in(1), vec![m])
            } else {
                self.board.play_unchecked(m);
                let a = if self.prune && !all { alpha } else { -INFINITE };
                let v = -self.node(depth - 1, 1, -INFINITE, -a);
                self.board.undo();
                let mut pv = vec![m];
                pv.extend_from_slice(&self.pv[1][1..self.pv_len[1].max(1)]);
                (v, pv)
            };
            if self.stopped {
                return (out, false);
            }
            let exact = !self.prune || all || v > alpha || out.is_empty();
            out.push(RootMove {
                pos: m,
                score: v,
                bound: if exact {
                    ValueBound::Exact
                } else {
                    ValueBound::Upper
                },
                pv: if exact { pv } else { vec![m] },
                depth,
            });
            alpha = alpha.max(v);
        }
        (out, true)
    }
}

/// Best first; among equal values, exact ones before bounds, then the candidate order.
fn sort_root(moves: &mut [RootMove]) {
    moves.sort_by_key(|r| (std::cmp::Reverse(r.score), r.bound != ValueBound::Exact));
}

/// Iterative deepening over [`Tree`]: the search of [`AlphaBeta`], [`Minimax`] and
/// [`Greedy`].
fn run<E: Evaluator>(
    eval: &E,
    shape: Shape,
    board: &Board,
    limits: &Limits,
    options: &SearchOptions,
    stop: &AtomicBool,
    report: &mut dyn FnMut(SearchEvent<'_>),
) -> SearchResult {
    let mut tree = Tree {
        eval,
        prune: shape.prunes(),
        ordering: shape.orders(),
        board: board.clone(),
        stats: SearchStats::default(),
        time: TimeManager::start_at(limits, crate::search::time::Stage::of(board)),
        stop,
        node_limit: limits.nodes,
        stopped: false,
        seldepth: 0,
        pv: vec![[Pos::NONE; MAX_TREE_PLY + 1]; MAX_TREE_PLY + 1],
        pv_len: [0; MAX_TREE_PLY + 1],
        lists: vec![Vec::new(); MAX_TREE_PLY + 1],
    };
    let moves = tree.root_candidates(&options.exclude);
    let mut deepening = Deepening::default();
    if !moves.is_empty() {
        deepening.run(&mut tree, &moves, limits, options, report);
    }
    deepening.result(tree, &moves)
}

/// What iterative deepening has found so far.
#[derive(Default)]
struct Deepening {
    /// The root moves of the last iteration, best first.
    root: Vec<RootMove>,
    /// The last completed depth.
    completed: i32,
    /// Each iteration's nodes per node of the one before.
    branching: Vec<f64>,
    /// The nodes of the last completed iteration.
    last_iter_nodes: u64,
}

impl Deepening {
    /// Searches `moves` at depth 1, 2, ... until the limits, a stop or a proof end it.
    fn run<E: Evaluator>(
        &mut self,
        tree: &mut Tree<'_, E>,
        moves: &[Pos],
        limits: &Limits,
        options: &SearchOptions,
        report: &mut dyn FnMut(SearchEvent<'_>),
    ) {
        let max_depth = limits
            .depth
            .unwrap_or(MAX_TREE_DEPTH)
            .clamp(1, MAX_TREE_DEPTH);
        for depth in 1..=max_depth {
            let before = tree.stats.nodes;
            let (mut got, done) = tree.root(moves, depth, options.all_root_values);
            if !done {
                if self.completed == 0 {
                    // nothing better known: keep what this iteration found
                    sort_root(&mut got);
                    self.root = got;
                }
                break;
            }
            sort_root(&mut got);
            self.root = got;
            self.completed = depth;
            let iter_nodes = tree.stats.nodes - before;
            if self.last_iter_nodes > 0 {
                self.branching
                    .push(iter_nodes as f64 / self.last_iter_nodes as f64);
            }
            self.last_iter_nodes = iter_nodes;
            self.report(tree, depth, options, report);
            let score = self.root[0].score;
            let timed = tree.time.is_timed() || limits.nodes.is_some();
            // a proven result within the horizon cannot change any more
            if is_decisive(score) && depth >= WIN - score.abs() {
                break;
            }
            if timed && (moves.len() == 1 || tree.time.should_stop_iterating()) {
                break;
            }
        }
    }

    /// Reports the iteration of `depth` just completed.
    fn report<E: Evaluator>(
        &self,
        tree: &Tree<'_, E>,
        depth: i32,
        options: &SearchOptions,
        report: &mut dyn FnMut(SearchEvent<'_>),
    ) {
        let elapsed_ms = tree.time.elapsed_ms();
        let info = SearchInfo {
            depth,
            seldepth: tree.seldepth.max(depth),
            score: self.root[0].score,
            nodes: tree.stats.nodes,
            nps: tree.stats.nodes * 1000 / elapsed_ms.max(1),
            tt_hits: 0,
            elapsed_ms,
            pv: self.root[0].pv.clone(),
            hashfull: 0,
        };
        report(SearchEvent::Iteration(&info));
        if options.report_root_moves || options.all_root_values {
            report(SearchEvent::RootMoves {
                depth,
                moves: &self.root,
            });
        }
    }

    /// The search's result: the root moves searched first, then the rest of `moves` with no
    /// value (only when stopped very early).
    fn result<E: Evaluator>(self, tree: Tree<'_, E>, moves: &[Pos]) -> SearchResult {
        let Deepening {
            mut root,
            completed,
            branching,
            ..
        } = self;
        for &m in moves {
            if !root.iter().any(|r| r.pos == m) {
                root.push(RootMove {
                    pos: m,
                    score: -INFINITE,
                    bound: ValueBound::Upper,
                    pv: vec![m],
                    depth: 0,
                });
            }
        }
        let best = root.first().cloned();
        SearchResult {
            best_move: best.as_ref().map_or(Pos::NONE, |r| r.pos),
            score: best
                .as_ref()
                .map_or(DRAW, |r| if r.score == -INFINITE { 0 } else { r.score }),
            depth: completed,
            seldepth: tree.seldepth.max(completed),
            pv: best.map_or_else(Vec::new, |r| r.pv),
            root_moves: root,
            stats: tree.stats,
            branching,
            elapsed_ms: tree.time.elapsed_ms(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{PatternEval, Searcher, TupleEval};
    use super::*;
    use crate::search::score::loss_in;
    use crate::types::Rule;

    use crate::game::test_board as board;

    fn go(s: &mut dyn Searcher, b: &Board, depth: i32, all: bool) -> SearchResult {
        let stop = AtomicBool::new(false);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let opts = SearchOptions {
            all_root_values: all,
            ..SearchOptions::default()
        };
        s.search(b, &limits, &opts, &stop, &mut |_| {})
    }

    #[test]
    fn pruning_keeps_the_minimax_value_and_visits_fewer_nodes() {
        let b = board(9, Rule::Freestyle, "e5 e6 f5 d4");
        for depth in 1..=3 {
            let mm = go(&mut Minimax { eval: PatternEval }, &b, depth, false);
            let ab = go(
                &mut AlphaBeta {
                    eval: PatternEval,
                    ordering: true,
                },
                &b,
                depth,
                false,
            );
            let abn = go(
                &mut AlphaBeta {
                    eval: PatternEval,
                    ordering: false,
                },
                &b,
                depth,
                false,
            );
            assert_eq!(mm.score, ab.score, "depth {depth}");
            assert_eq!(mm.score, abn.score, "depth {depth}");
            if depth >= 2 {
                assert!(ab.stats.nodes < mm.stats.nodes, "depth {depth}");
                assert!(abn.stats.nodes < mm.stats.nodes, "depth {depth}");
                assert!(ab.stats.cutoffs > 0);
                assert!(ab.stats.first_move_cutoffs <= ab.stats.cutoffs);
            }
            assert_eq!(mm.stats.cutoffs, 0);
            assert_eq!(mm.depth, depth);
        }
    }

    #[test]
    fn all_root_values_are_the_minimax_values() {
        let b = board(9, Rule::Freestyle, "e5 e6 f5");
        let mm = go(&mut Minimax { eval: TupleEval }, &b, 2, false);
        let ab = go(
            &mut AlphaBeta {
                eval: TupleEval,
                ordering: true,
            },
            &b,
            2,
            true,
        );
        assert_eq!(mm.root_moves.len(), ab.root_moves.len());
        for r in &ab.root_moves {
            assert_eq!(r.bound, ValueBound::Exact);
            let m = mm.root_moves.iter().find(|x| x.pos == r.pos).expect("same");
            assert_eq!(m.score, r.score, "{}", b.fmt_pos(r.pos));
        }
        // without the option, moves that cannot beat the best only get an upper bound
        let bounded = go(
            &mut AlphaBeta {
                eval: TupleEval,
                ordering: true,
            },
            &b,
            2,
            false,
        );
        assert_eq!(bounded.root_moves[0].score, mm.score);
        assert!(bounded
            .root_moves
            .iter()
            .any(|r| r.bound == ValueBound::Upper));
        for r in &bounded.root_moves {
            let m = mm.root_moves.iter().find(|x| x.pos == r.pos).expect("same");
            assert!(m.score <= r.score || r.bound == ValueBound::Exact);
        }
    }

    #[test]
    fn wins_and_losses_at_the_right_distance() {
        // Black has an open three: a straight four next, five after (win in 3 plies)
        let b = board(15, Rule::Freestyle, "h8 a1 i8 a3 j8 a5");
        let r = go(
            &mut AlphaBeta {
                eval: PatternEval,
                ordering: true,
            },
            &b,
            3,
            false,
        );
        assert_eq!(r.score, win_in(3), "{:?}", r.pv);
        // White to move cannot stop a four and an open three at once... but can block the
        // four: with Black's straight four on the board White loses in 2 plies
        let b = board(15, Rule::Freestyle, "h8 a1 i8 a3 j8 a5 k8");
        let r = go(&mut Minimax { eval: TupleEval }, &b, 2, false);
        assert_eq!(r.score, loss_in(2));
    }

    #[test]
    fn one_ply_sees_the_opponents_five_at_the_horizon() {
        // White has four on the top edge (a15-d15, e15 open): Black must block at e15
        let b = board(15, Rule::Freestyle, "h8 a15 i10 b15 i11 c15 j10 d15");
        let r = go(
            &mut super::super::Greedy { eval: PatternEval },
            &b,
            1,
            false,
        );
        assert_eq!(b.fmt_pos(r.best_move), "e15");
        // every other move lets White make five: a loss two plies away
        assert!(r.root_moves[1..].iter().all(|m| m.score == loss_in(2)));
    }

    #[test]
    fn renju_black_never_plays_a_forbidden_point() {
        // j8 would be a double three for Black (h8 i8 / j9 j10); White to pass: Black to move
        let b = board(15, Rule::Renju, "h8 a1 i8 a3 j10 a5 j9 a7");
        let mut bb = b.clone();
        let j8 = crate::notation::parse_pos("j8", 15).expect("point");
        assert!(bb.is_forbidden(j8));
        for depth in 1..=2 {
            let r = go(&mut Minimax { eval: PatternEval }, &b, depth, false);
            assert!(r.root_moves.iter().all(|m| m.pos != j8));
            assert_ne!(r.best_move, j8);
        }
    }

    #[test]
    fn obeys_node_limits_and_the_stop_flag() {
        let b = board(15, Rule::Freestyle, "h8 h9 i8");
        let stop = AtomicBool::new(false);
        let limits = Limits {
            nodes: Some(500),
            ..Limits::default()
        };
        let r = Minimax { eval: PatternEval }.search(
            &b,
            &limits,
            &SearchOptions::default(),
            &stop,
            &mut |_| {},
        );
        assert!(r.stats.nodes <= 500 + 1, "{}", r.stats.nodes);
        assert!(b.is_empty(r.best_move));
        let stop = AtomicBool::new(true);
        let r = AlphaBeta {
            eval: TupleEval,
            ordering: false,
        }
        .search(
            &b,
            &Limits::default(),
            &SearchOptions::default(),
            &stop,
            &mut |_| {},
        );
        assert!(b.is_empty(r.best_move), "a move even when stopped at once");
    }

    #[test]
    fn empty_board_plays_the_centre_and_exclude_is_respected() {
        let b = board(15, Rule::Freestyle, "");
        let r = go(
            &mut AlphaBeta {
                eval: TupleEval,
                ordering: true,
            },
            &b,
            2,
            false,
        );
        assert_eq!(r.best_move, b.centre());
        let b = board(15, Rule::Freestyle, "h8");
        let first = go(&mut Minimax { eval: TupleEval }, &b, 1, false).best_move;
        let stop = AtomicBool::new(false);
        let opts = SearchOptions {
            exclude: vec![first],
            ..SearchOptions::default()
        };
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let r = Minimax { eval: TupleEval }.search(&b, &limits, &opts, &stop, &mut |_| {});
        assert_ne!(r.best_move, first);
        assert!(r.root_moves.iter().all(|m| m.pos != first));
    }

    #[test]
    fn reports_one_iteration_per_depth_with_branching() {
        let b = board(9, Rule::Freestyle, "e5 e6");
        let stop = AtomicBool::new(false);
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let mut depths = Vec::new();
        let r = AlphaBeta {
            eval: PatternEval,
            ordering: true,
        }
        .search(&b, &limits, &SearchOptions::default(), &stop, &mut |ev| {
            if let SearchEvent::Iteration(i) = ev {
                depths.push(i.depth);
            }
        });
        assert_eq!(depths, vec![1, 2, 3]);
        assert_eq!(r.branching.len(), 2);
        assert!(r.branching.iter().all(|&x| x > 1.0));
    }
}
