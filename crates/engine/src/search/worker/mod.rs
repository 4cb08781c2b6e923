//! One search thread: the [`Worker`] with its per-thread state (killers, history, lines,
//! frames), the state the threads of one search share ([`Shared`]), and the stop checks.
//!
//! The search itself is spread over the modules below, one concept each:
//! - [`deepening`]: iterative deepening with aspiration windows, and adopting what other
//!   threads completed (Lazy SMP);
//! - [`root`]: the root moves, their search and their values;
//! - [`node`]: the recursive principal variation search (PVS) of one node and of one move;
//! - [`quiescence`]: the threat quiescence search at the horizon (fours and forced blocks);
//! - [`split`]: split points of Young Brothers Wait, shared by the threads;
//! - [`ordering`]: move ordering: the history, killers and the bonus near the last moves;
//! - [`symmetry`]: one move per class of images in a symmetric position.

mod deepening;
mod node;
mod ordering;
mod quiescence;
mod root;
mod split;
mod symmetry;

use ordering::CounterHistory;
pub(crate) use ordering::History;
pub(crate) use split::SplitPoint;

use super::movegen::ScoredMove;
use super::params::{SearchParams, PLY};
use super::score::{Score, WIN_MIN};
use super::time::{Limits, TimeManager};
use super::tt::TranspositionTable;
use super::{RootMove, SearchOptions, SearchStats, MAX_PLY};
use crate::board::Board;
use crate::nnue::{Accumulator, NnueModel};
use crate::pattern::Pattern4;
use crate::types::Pos;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// How often (in nodes) a thread publishes its counters and looks at the clock.
const POLL_INTERVAL: u64 = 256;

/// The evaluation a node starts from: the static eval, or the parent's (negated) when the
/// opponent just made a four and we only answer.
#[derive(Clone, Copy)]
struct Frame {
    static_eval: Score,
    current: Option<Pos>,
    /// Threat classes of the move played at this ply: (mover's own, opponent's there).
    move_class: (Pattern4, Pattern4),
    tt_pv: bool,
    /// The move a singular test leaves out of this ply's node (none outside the test).
    excluded: Pos,
}

/// What the moves of a node's loop share: the node's bounds and the facts its pruning and
/// reductions look at.
#[derive(Clone, Copy)]
struct NodeCtx {
    beta: Score,
    ply: usize,
    cut_node: bool,
    tt_pv: bool,
    improving: bool,
    oppo4: bool,
    prev_own_class: Pattern4,
    own_last: Option<Pos>,
    their_last: Option<Pos>,
    killers: [Pos; 2],
    tt_move: Pos,
    /// The hash value when the hash entry allows a singular test of the hash move.
    singular: Option<Score>,
    /// The move this node leaves out (a singular test), or none.
    excluded: Pos,
    move_count_limit: usize,
    /// The evaluation is far enough above beta at a cut node for the fail-high reduction.
    likely_fail_high: bool,
    /// The best ordering score (pcode tables only) of the node's list, once it is made.
    policy_top: i32,
    /// The network policy's query of the node and the best logit of its list, once it is
    /// made (`i32::MIN` without the network's policy).
    nn_query: [i16; crate::nnue::FEAT],
    nn_policy_top: i32,
}

/// State shared by all threads of one search.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub stop: &'a AtomicBool,
    pub internal_stop: AtomicBool,
    pub limits: Limits,
    pub options: SearchOptions,
    pub time: TimeManager,
    pub total_nodes: AtomicU64,
    pub total_tt_hits: AtomicU64,
    pub completed_depth: AtomicU64,
    pub params: SearchParams,
    /// The deepest iteration completed by any thread, with its best root move.
    pub deepest: std::sync::Mutex<Option<(i32, RootMove)>>,
    /// The iteration the main thread is working on.
    pub main_depth: AtomicU64,
    /// The deepest iteration completed by any thread.
    pub completed_any: AtomicU64,
    /// Young Brothers Wait instead of Lazy SMP: helpers work only at split points.
    pub ybwc: bool,
    /// The open split point, if any, and a count of split points opened.
    pub split: Mutex<Option<Arc<SplitPoint>>>,
    pub split_seq: AtomicU64,
    /// Helper threads waiting for a split point.
    pub idle: AtomicUsize,
    /// The history the threads share, if they do.
    pub history: Option<Arc<History>>,
}

/// A root move with its value so far.
struct RootEntry {
    rm: RootMove,
    /// Sort key of this iteration (-INFINITE when only an upper bound is known).
    sort_score: Score,
}

/// One search thread: its board, its counters and the per-ply state of its search.
pub(crate) struct Worker<'a> {
    id: usize,
    board: Board,
    sh: &'a Shared<'a>,
    pub stats: SearchStats,
    flushed_nodes: u64,
    flushed_hits: u64,
    seldepth: i32,
    stopped: bool,
    /// The iteration being searched, and whether it was abandoned because another thread
    /// completed it first (Lazy SMP).
    iter_depth: i32,
    abandoned: bool,
    /// The network's share of the static evaluation in this iteration
    /// ([`SearchParams::nnue_eval_pct_at`]; a helper of Young Brothers Wait keeps the share
    /// of depth 1).
    eval_pct: i32,
    killers: [[Pos; 2]; MAX_PLY],
    history: Arc<History>,
    /// The counter-move history, this thread's own.
    counter: CounterHistory,
    pv: Box<[[Pos; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    lists: Vec<Vec<ScoredMove>>,
    qlists: Vec<Vec<Pos>>,
    root: Vec<RootEntry>,
    frames: Vec<Frame>,
    params: SearchParams,
    /// `ln(i) * factor`, the factors of a late-move reduction (multiply two, in plies).
    lmr: [f32; 256],
    /// `SearchParams::move_count_limit` by whole plies left (and improving or not), computed
    /// once: the formula's `powf` cost about 0.7% of the search's time per node.
    move_count_limits: [[usize; 2]; MCL_PLIES],
    /// `SearchParams::fail_high_reduction_for` the board's rule.
    fail_high_reduction: i32,
    root_delta: Score,
    /// Moves on the board at the search's root.
    root_len: usize,
    /// The split points this thread is working at, outermost first.
    splits: Vec<Arc<SplitPoint>>,
    /// The tie salt of this thread's move ordering (0: none).
    salt: u64,
    /// The network's state of the board, when the network evaluates (see
    /// [`SearchParams::nnue`]); it follows every move the search makes.
    nn: Option<Accumulator>,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            static_eval: 0,
            current: None,
            move_class: (Pattern4::None, Pattern4::None),
            tt_pv: false,
            excluded: Pos::NONE,
        }
    }
}

/// A policy logit of 1, in the network's integer units.
const POLICY_LOGIT: i64 = (crate::nnue::QX * crate::nnue::QA) as i64;

/// The depths in whole plies with a precomputed move count limit.
const MCL_PLIES: usize = 64;

/// Frames are indexed `ply + FRAME_OFFSET` so that `ply - 4` is always valid.
const FRAME_OFFSET: usize = 4;

/// The late-move reduction factors, `ln(i)` times one base factor for every rule. Weaker
/// reductions for standard and renju (0.78 and 0.75 of freestyle's) make their trees 2-12 times
/// larger at the same depth and lose strength at a fixed time: the common factor scores +36 Elo
/// in standard (420 games) and +72 Elo in renju (210 games) at 100 ms per move.
fn lmr_table(threads: usize, scale_pct: i32) -> [f32; 256] {
    let factor = f64::from(scale_pct) / 100.0;
    let bias = 0.1 * (threads.max(1) as f64).ln();
    let mut t = [0.0f32; 256];
    for (i, v) in t.iter_mut().enumerate().skip(1) {
        *v = (factor * ((i as f64).ln() + bias)) as f32;
    }
    t
}

impl<'a> Worker<'a> {
    pub(crate) fn new(id: usize, board: Board, sh: &'a Shared<'a>) -> Worker<'a> {
        let board_len = board.ply();
        let fail_high_reduction = sh.params.fail_high_reduction_for(board.rule());
        let nn = sh
            .params
            .nnue_for(board.rule())
            .then(|| NnueModel::active().net(board.rule()))
            .flatten()
            .map(|net| Accumulator::new(net, &board));
        Worker {
            id,
            board,
            sh,
            stats: SearchStats::default(),
            flushed_nodes: 0,
            flushed_hits: 0,
            seldepth: 0,
            stopped: false,
            iter_depth: 0,
            abandoned: false,
            eval_pct: sh.params.nnue_eval_pct_at(1),
            killers: [[Pos::NONE; 2]; MAX_PLY],
            history: sh
                .history
                .as_ref()
                .map_or_else(|| Arc::new(History::new()), Arc::clone),
            counter: CounterHistory::new(
                sh.params.counter_history_pct > 0 || sh.params.counter_history_lmr_pct > 0,
            ),
            pv: Box::new([[Pos::NONE; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
            lists: (0..MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            qlists: (0..MAX_PLY).map(|_| Vec::with_capacity(16)).collect(),
            root: Vec::new(),
            frames: vec![Frame::default(); MAX_PLY + 2 * FRAME_OFFSET],
            lmr: lmr_table(1, sh.params.lmr_scale_pct),
            move_count_limits: std::array::from_fn(|p| {
                [false, true].map(|imp| sh.params.move_count_limit(p as i32 * PLY, imp))
            }),
            params: sh.params.clone(),
            fail_high_reduction,
            root_delta: 1,
            root_len: board_len,
            // the threads of Young Brothers Wait search one tree, in one order
            salt: if sh.ybwc { 0 } else { id as u64 * 0x9E37_79B9 },
            splits: Vec::new(),
            nn,
        }
    }

    /// Publishes counters and checks the stop conditions.
    fn poll(&mut self) {
        let sh = self.sh;
        let dn = self.stats.nodes - self.flushed_nodes;
        let dh = self.stats.tt_hits - self.flushed_hits;
        self.flushed_nodes = self.stats.nodes;
        self.flushed_hits = self.stats.tt_hits;
        let total = sh.total_nodes.fetch_add(dn, Ordering::Relaxed) + dn;
        sh.total_tt_hits.fetch_add(dh, Ordering::Relaxed);
        // every thread reads the clock: with more threads than cores, the main thread may
        // wait many time slices for its turn to see the deadline pass
        let global = sh.stop.load(Ordering::Relaxed)
            || sh.internal_stop.load(Ordering::Relaxed)
            || sh.time.out_of_time()
            || (self.id == 0 && sh.limits.nodes.is_some_and(|n| total >= n));
        if global {
            self.stopped = true;
            sh.internal_stop.store(true, Ordering::Relaxed);
        } else if self.stopped {
            // already unwinding (an abandoned iteration or an aborted split point)
        } else if self.iter_depth > 0
            && self.splits.is_empty()
            && sh.completed_any.load(Ordering::Relaxed) >= self.iter_depth as u64
        {
            // another thread has completed this iteration: unwind and move on
            self.stopped = true;
            self.abandoned = true;
        } else if self
            .splits
            .iter()
            .any(|sp| sp.abort.load(Ordering::Relaxed))
        {
            // a split point this thread works under got a cut-off: unwind to it
            self.stopped = true;
        }
    }

    /// Whether the whole search (or, for the main thread, this iteration) is stopping, as
    /// opposed to unwinding to an aborted split point.
    fn stopping(&self) -> bool {
        self.abandoned
            || self.sh.stop.load(Ordering::Relaxed)
            || self.sh.internal_stop.load(Ordering::Relaxed)
    }

    fn totals(&self) -> (u64, u64) {
        let sh = self.sh;
        (
            sh.total_nodes.load(Ordering::Relaxed) + self.stats.nodes - self.flushed_nodes,
            sh.total_tt_hits.load(Ordering::Relaxed) + self.stats.tt_hits - self.flushed_hits,
        )
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, m: Pos) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
        debug_assert!(
            line_fits(&self.board, &self.pv[ply][ply..child_len]),
            "the line at ply {ply} is not playable: {:?}",
            &self.pv[ply][ply..child_len]
        );
    }

    #[inline]
    fn frame(&mut self, ply: usize) -> &mut Frame {
        &mut self.frames[ply + FRAME_OFFSET]
    }

    /// Plays `m` (an empty point) on the board and in the network's state.
    #[inline]
    fn play(&mut self, m: Pos) {
        self.board.play_unchecked(m);
        if let Some(nn) = &mut self.nn {
            nn.make(&self.board, m);
        }
    }

    /// Takes back the last move or pass of the board and of the network's state.
    #[inline]
    fn unplay(&mut self) {
        if let Some(m) = self.board.undo() {
            if let (true, Some(nn)) = (m.is_point(), &mut self.nn) {
                nn.unmake();
            }
        }
    }

    /// Adds the network policy's logits to the ordering scores of `list`, the moves of
    /// `node` (`us` to move), and keeps the node's query and best logit; nothing without the
    /// network or with the policy off.
    fn apply_policy(&self, node: &mut NodeCtx, list: &mut [ScoredMove], us: crate::Color) {
        let Some(nn) = &self.nn else { return };
        let w = i64::from(self.params.nnue_policy_weight);
        if w == 0 && self.params.nnue_policy_lmr == 0 {
            return;
        }
        let q = nn.policy_query(us);
        let top = nn.add_policy(&q, list, w, POLICY_LOGIT);
        node.nn_query = q;
        node.nn_policy_top = top;
    }

    /// The policy reduction of `m` at `node` (sixteenths of a ply), before `m` is played.
    #[inline]
    fn policy_reduction(&self, node: &NodeCtx, m: Pos) -> i32 {
        let (Some(nn), lmr) = (&self.nn, self.params.nnue_policy_lmr) else {
            return 0;
        };
        if lmr == 0 || node.nn_policy_top == i32::MIN {
            return 0;
        }
        let below = i64::from(node.nn_policy_top) - i64::from(nn.policy_logit(&node.nn_query, m));
        ((below.max(0) * i64::from(lmr) / POLICY_LOGIT) as i32).min(self.params.nnue_policy_lmr_max)
    }

    /// The static evaluation of the board for the side to move: the network's when it
    /// evaluates (blended with the tables' by [`SearchParams::nnue_eval_pct_at`]), else the
    /// tables'.
    #[inline]
    fn evaluate(&self) -> Score {
        let pct = self.eval_pct;
        match &self.nn {
            Some(nn) if pct > 0 => {
                let net = nn.evaluate(self.board.to_move());
                let tables = (pct < 100).then(|| crate::eval::evaluate(&self.board));
                blend(net, tables, pct)
            }
            _ => crate::eval::evaluate(&self.board),
        }
    }
}

/// The network's value `net` and the tables' `tables` (when they count) weighed `pct` to
/// `100 - pct`, within the values of unproven positions.
fn blend(net: Score, tables: Option<Score>, pct: i32) -> Score {
    let v = match tables {
        Some(t) if pct < 100 => (net * pct + t * (100 - pct)) / 100,
        _ => net,
    };
    v.clamp(-WIN_MIN + 1, WIN_MIN - 1)
}

/// Whether `line` could be played from `board`'s position: its moves are empty points, each
/// once (a cheap check of a principal variation in debug builds).
fn line_fits(board: &Board, line: &[Pos]) -> bool {
    line.iter()
        .enumerate()
        .all(|(i, &m)| board.contains(m) && board.is_empty(m) && !line[..i].contains(&m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;

    #[test]
    fn the_evaluation_blends_the_network_and_the_tables() {
        // (network, tables, percent of the network) -> value
        for (net, tables, pct, want) in [
            (300, Some(100), 100, 300),
            (300, None, 50, 300),
            (300, Some(100), 50, 200),
            (-300, Some(100), 25, 0),
            (90, Some(-10), 90, 80),
            // never a proven value, whatever the network says
            (WIN_MIN + 5000, Some(WIN_MIN), 50, WIN_MIN - 1),
            (-WIN_MIN - 5000, Some(-WIN_MIN), 100, -WIN_MIN + 1),
        ] {
            assert_eq!(blend(net, tables, pct), want, "{net} {tables:?} {pct}");
        }
    }

    #[test]
    fn a_line_fits_only_with_distinct_empty_points() {
        let mut b = Board::new(15, Rule::Freestyle).unwrap();
        b.play(Pos::new(7, 7));
        let (p, q) = (Pos::new(8, 8), Pos::new(6, 6));
        let cases: [(&[Pos], bool); 5] = [
            (&[], true),
            (&[p, q], true),
            // an occupied point
            (&[p, Pos::new(7, 7)], false),
            // a point twice: what a line spliced from another search's row looks like
            (&[p, p], false),
            (&[p, q, Pos::new(9, 9), q], false),
        ];
        for (line, fits) in cases {
            assert_eq!(line_fits(&b, line), fits, "{line:?}");
        }
    }

    /// A PV node's later move that fails high past beta on its null-window search has no
    /// line of its own: the node's line is that move alone, never the move followed by what
    /// the child's row held from an earlier search (lines with a point twice, which the debug
    /// check in `update_pv` caught in one-thread searches of the tests before the fix).
    #[test]
    fn principal_variations_are_playable_at_every_depth() {
        let mut engine = super::super::Engine::new(super::super::EngineConfig {
            hash_mb: 4,
            threads: 1,
        });
        for (rule, moves) in [
            (Rule::Freestyle, "h8 i9 j8"),
            (Rule::Freestyle, "h8 g9 f10 g8 g7"),
            (Rule::Standard, "f10 i7 h8"),
            (Rule::Renju, "h8 h7 h10 i6 i10 i7 g7 g8 j5 i9"),
        ] {
            let game = crate::game::Game::from_position(15, rule, moves).unwrap();
            let b = game.board();
            let stop = AtomicBool::new(false);
            let mut lines = Vec::new();
            let res = engine.search(
                b,
                &Limits {
                    depth: Some(10),
                    ..Limits::default()
                },
                &super::super::SearchOptions::default(),
                &stop,
                &mut |e| {
                    if let super::super::SearchEvent::Iteration(info) = e {
                        lines.push(info.pv.clone());
                    }
                },
            );
            lines.push(res.pv.clone());
            for line in &lines {
                assert!(line_fits(b, line), "{rule:?} {moves}: {line:?}");
            }
        }
    }
}
