//! One search thread: iterative deepening, root search and the recursive PVS.

use super::movegen::{gen_all, gen_defence, own_class, sort_moves, ScoredMove};
use super::score::{
    from_tt, is_decisive, loss_in, to_tt, win_in, Score, DRAW, INFINITE, WIN, WIN_MIN,
};
use super::time::{Limits, TimeManager};
use super::tt::{Bound, TranspositionTable};
use super::{
    RootMove, SearchEvent, SearchInfo, SearchOptions, SearchResult, SearchStats, ValueBound,
};
use super::{MAX_DEPTH, MAX_PLY};
use crate::board::Board;
use crate::eval::evaluate;
use crate::pattern::Pattern4;
use crate::types::{Color, Pos, Rule, NUM_CELLS};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::params::{SearchParams, PLY};

/// Ordering of quiescence fours is by threat class; the search parameters are in
/// [`SearchParams`]. How often (in nodes) a thread publishes its counters and looks at the clock.
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
}

/// What the search's move ordering at a node depends on besides the history.
struct MoveOrdering {
    tt_move: Pos,
    killers: [Pos; 2],
    own_last: Option<Pos>,
    their_last: Option<Pos>,
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
    move_count_limit: usize,
}

/// A node whose remaining moves the threads share (Young Brothers Wait): its owner searched
/// the first move alone, then published the rest; each thread takes the next move, searches it
/// on its own board and reports the value here.
pub(crate) struct SplitPoint {
    /// The moves (and passes) from the search's root to the node.
    path: Vec<Pos>,
    /// The owner's frames up to the node's own and its killers for the node's children, so
    /// that the helpers order moves as it would.
    frames: Vec<Frame>,
    child_killers: [Pos; 2],
    node: NodeCtx,
    pv: bool,
    /// A split point at the root, whose moves are root moves.
    root: bool,
    /// The rest of the node's list, in order; `moves[j]` is the node's move number
    /// `count0 + j + 1`.
    moves: Vec<Pos>,
    count0: usize,
    next: AtomicUsize,
    /// Copies of the state's alpha, best value and depth (in sixteenths of a ply; at the root
    /// split point, the iteration's depth in plies), read without the lock.
    alpha: AtomicI32,
    best: AtomicI32,
    depth: AtomicI32,
    /// Set on a beta cut-off (or when the owner stops): the threads drop their moves.
    abort: AtomicBool,
    /// Helper threads working here.
    workers: AtomicUsize,
    state: Mutex<SplitState>,
    /// The owner's history, which a thread with a table of its own copies when it joins.
    owner_history: Arc<History>,
}

/// Leaves a split point when dropped, also when the thread unwinds from a panic, so that the
/// point's owner never waits for a thread that is gone.
struct Leave<'s>(&'s SplitPoint);

impl Drop for Leave<'_> {
    fn drop(&mut self) {
        self.0.workers.fetch_sub(1, Ordering::Release);
    }
}

/// The result of a split point so far.
struct SplitState {
    best: Score,
    best_move: Pos,
    alpha: Score,
    depth: i32,
    /// Moves searched here (for the history update at the node).
    tried: Vec<Pos>,
    /// The best move's line at a PV node, when a move here improved alpha.
    line: Vec<Pos>,
    /// At the root: (root move number, value, the alpha it was searched with, its line).
    root_results: Vec<(usize, Score, Score, Vec<Pos>)>,
}

/// The history of both colours, per point (atomics with relaxed loads and stores: a lost
/// update only blurs an ordering hint).
///
/// Each thread has its own. A thread joining a shared node of Young Brothers Wait copies the
/// owner's, so that it orders and reduces the node's moves as the owner would; what it learns
/// there stays its own. Until the fifteenth session the threads shared one table
/// (`shared_history`): both threads writing it cost the pair 0.5-2% of their nodes/s, and the
/// copy searches as many nodes. 2-thread bench ratio over 135 interleaved single runs: mean
/// 1.514x against 1.491x.
pub(crate) struct History([[AtomicI32; NUM_CELLS]; 2]);

impl History {
    pub(crate) fn new() -> History {
        History(std::array::from_fn(|_| {
            std::array::from_fn(|_| AtomicI32::new(0))
        }))
    }

    /// Overwrites this history's values at the points of `cells` (indices) with `other`'s.
    fn copy_from(&self, other: &History, cells: std::ops::Range<usize>) {
        for (mine, theirs) in self.0.iter().zip(&other.0) {
            for (m, t) in mine[cells.clone()].iter().zip(&theirs[cells.clone()]) {
                m.store(t.load(Ordering::Relaxed), Ordering::Relaxed);
            }
        }
    }
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

struct RootEntry {
    rm: RootMove,
    /// Sort key of this iteration (-INFINITE when only an upper bound is known).
    sort_score: Score,
}

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
    killers: [[Pos; 2]; MAX_PLY],
    history: Arc<History>,
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
    root_delta: Score,
    /// Moves on the board at the search's root.
    root_len: usize,
    /// The split points this thread is working at, outermost first.
    splits: Vec<Arc<SplitPoint>>,
    /// The tie salt of this thread's move ordering (0: none).
    salt: u64,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            static_eval: 0,
            current: None,
            move_class: (Pattern4::None, Pattern4::None),
            tt_pv: false,
        }
    }
}

/// The depths in whole plies with a precomputed move count limit.
const MCL_PLIES: usize = 64;

/// Frames are indexed `ply + FRAME_OFFSET` so that `ply - 4` is always valid.
const FRAME_OFFSET: usize = 4;

/// The late-move reduction factors, `ln(i)` times one base factor for every rule. Standard and
/// renju once had weaker reductions (0.78 and 0.75 of freestyle's), which made their trees 2-12
/// times larger at the same depth and lost strength at a fixed time: the common factor scored
/// +36 Elo in standard (420 games) and +72 Elo in renju (210 games) at 100 ms per move.
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
            killers: [[Pos::NONE; 2]; MAX_PLY],
            history: sh
                .history
                .as_ref()
                .map_or_else(|| Arc::new(History::new()), Arc::clone),
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
            root_delta: 1,
            root_len: board_len,
            // the threads of Young Brothers Wait search one tree, in one order
            salt: if sh.ybwc { 0 } else { id as u64 * 0x9E37_79B9 },
            splits: Vec::new(),
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

    /// The root moves: the threat situation decides, as in the tree.
    fn root_candidates(&mut self) -> Vec<ScoredMove> {
        let b = &mut self.board;
        let us = b.to_move();
        let them = us.opponent();
        let excluded = &self.sh.options.exclude;
        let points = |b: &Board, color: Color, class: Pattern4| -> Vec<ScoredMove> {
            let mut pts = Vec::new();
            super::movegen::find_class(b, color, class, &mut pts);
            pts.into_iter()
                .filter(|p| !excluded.contains(p))
                .map(|p| ScoredMove { pos: p, score: 0 })
                .collect()
        };
        let mut list = Vec::new();
        if b.stone_count() == 0 {
            list.push(ScoredMove {
                pos: b.centre(),
                score: 0,
            });
        } else if b.threat_count(us, Pattern4::Five) > 0
            && !points(b, us, Pattern4::Five).is_empty()
        {
            list = points(b, us, Pattern4::Five);
        } else if b.threat_count(them, Pattern4::Five) > 0 {
            list = points(b, them, Pattern4::Five);
            list.retain(|m| !(us == Color::Black && b.is_forbidden(m.pos)));
            if list.is_empty() {
                // lost anyway: any legal move
                gen_all(b, us, &mut list);
            }
        } else if b.threat_count(us, Pattern4::Flex4) > 0
            && !points(b, us, Pattern4::Flex4).is_empty()
        {
            list = points(b, us, Pattern4::Flex4);
        } else if b.threat_count(them, Pattern4::Flex4) > 0 {
            gen_defence(b, us, &mut list);
            if list.is_empty() {
                gen_all(b, us, &mut list);
            }
        } else {
            gen_all(b, us, &mut list);
        }
        list.retain(|m| !self.sh.options.exclude.contains(&m.pos));
        if list.is_empty() {
            // every candidate excluded or forbidden: any legal empty point; on an empty board
            // (its centre excluded) the ones nearest to the centre
            let c = b.centre();
            let ring = |p: &Pos| p.x().abs_diff(c.x()).max(p.y().abs_diff(c.y()));
            let pts: Vec<Pos> = b.points().filter(|&p| b.is_empty(p)).collect();
            for p in pts {
                let excluded = self.sh.options.exclude.contains(&p);
                let forbidden = us == Color::Black && b.is_forbidden(p);
                if !excluded && !forbidden {
                    list.push(ScoredMove { pos: p, score: 0 });
                }
            }
            if b.stone_count() == 0 {
                if let Some(nearest) = list.iter().map(|m| ring(&m.pos)).min() {
                    list.retain(|m| ring(&m.pos) == nearest);
                }
            }
        }
        sort_moves(&mut list);
        let opts = &self.sh.options;
        if !opts.all_root_values && !opts.report_root_moves {
            // A symmetric position (the first moves of a game) has moves that are images of
            // each other, with the same value: only the first of each is searched.
            keep_one_per_image(b, &mut list, Pos::NONE);
        }
        list
    }

    /// Iterative deepening. Thread 0 reports and decides when to stop.
    pub(crate) fn iterate(&mut self, report: &mut dyn FnMut(SearchEvent<'_>)) -> SearchResult {
        let cands = self.root_candidates();
        self.root = cands
            .iter()
            .map(|m| RootEntry {
                rm: RootMove {
                    pos: m.pos,
                    score: -INFINITE,
                    bound: ValueBound::Upper,
                    pv: vec![m.pos],
                    depth: 0,
                },
                sort_score: -INFINITE,
            })
            .collect();
        let max_depth = self
            .sh
            .limits
            .depth
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_DEPTH);
        let mut completed = 0;
        let mut score = 0;
        let mut branching = Vec::new();
        let mut last_iter_nodes = 0u64;
        let mut info = SearchInfo {
            depth: 0,
            seldepth: 0,
            score: 0,
            nodes: 0,
            nps: 0,
            tt_hits: 0,
            elapsed_ms: 0,
            pv: Vec::new(),
            hashfull: 0,
        };
        if !self.root.is_empty() {
            let mut depth = 0;
            loop {
                // Lazy SMP: an iteration another thread has completed is not searched again,
                // and a helper works one iteration ahead of the main thread, filling the shared
                // table for the main thread's next iteration.
                depth = (depth + 1).max(self.sh.completed_any.load(Ordering::Relaxed) as i32 + 1);
                if self.id == 0 {
                    self.sh.main_depth.store(depth as u64, Ordering::Relaxed);
                } else {
                    let ahead = self.sh.main_depth.load(Ordering::Relaxed) as i32 + 1;
                    depth = depth.max(ahead).min(max_depth);
                }
                if depth > max_depth {
                    break;
                }
                self.iter_depth = depth;
                let nodes_before = self.totals().0;
                let mut delta = self.params.aspiration_delta(score, 0);
                let (mut alpha, mut beta) =
                    if depth >= self.params.aspiration_min_depth && !is_decisive(score) {
                        (
                            (score - delta).max(-INFINITE),
                            (score + delta).min(INFINITE),
                        )
                    } else {
                        (-INFINITE, INFINITE)
                    };
                let mut s;
                // a re-search after a fail-high goes a ply shallower per fail-high (the iteration
                // still counts as `depth`): a root that fails high has found something, and
                // proving its exact value at full depth cost up to nine times the first try on
                // the bench (thirteenth session: 2-thread ratio 1.48x against 1.40x over 12
                // runs, self-play 161.5/320 on one and two threads)
                let mut failed_high = 0;
                loop {
                    self.seldepth = 0;
                    let d = (depth - failed_high * self.params.aspiration_fail_high_reduce).max(1);
                    s = self.root_search(alpha, beta, d);
                    if self.stopped {
                        break;
                    }
                    if s <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (s - delta).max(-INFINITE);
                        failed_high = 0;
                    } else if s >= beta {
                        beta = (s + delta).min(INFINITE);
                        failed_high += 1;
                    } else {
                        break;
                    }
                    delta = self.params.aspiration_delta(s, delta);
                    if delta > 1000 {
                        alpha = -INFINITE;
                        beta = INFINITE;
                    }
                }
                if self.abandoned {
                    self.stopped = false;
                    self.abandoned = false;
                    self.iter_depth = 0;
                    last_iter_nodes = 0;
                    if let Some((d, v)) = self.adopt_and_report(&mut info, report) {
                        completed = d;
                        score = v;
                        if self.id == 0 {
                            self.sh.completed_depth.store(d as u64, Ordering::Relaxed);
                        }
                        depth = d;
                    }
                    self.poll();
                    if self.stopped {
                        break;
                    }
                    if self.id == 0 && self.sh.time.should_stop_iterating() {
                        break;
                    }
                    continue;
                }
                if self.stopped && completed > 0 {
                    break;
                }
                if self.stopped {
                    // stopped in this thread's first iteration, which may have begun deeper than
                    // depth 1 (Lazy SMP skips iterations other threads completed): their deepest
                    // result, when there is one, beats this unfinished one
                    if let Some((d, v)) = self.adopt_and_report(&mut info, report) {
                        completed = d;
                        score = v;
                        break;
                    }
                }
                completed = depth;
                score = self.root[0].rm.score;
                let (nodes, hits) = self.totals();
                let iter_nodes = nodes - nodes_before;
                if last_iter_nodes > 0 {
                    branching.push(iter_nodes as f64 / last_iter_nodes as f64);
                }
                last_iter_nodes = iter_nodes;
                if self.id == 0 {
                    let elapsed_ms = self.sh.time.elapsed_ms();
                    info = SearchInfo {
                        depth,
                        seldepth: self.seldepth.max(depth),
                        score,
                        nodes,
                        nps: nodes * 1000 / elapsed_ms.max(1),
                        tt_hits: hits,
                        elapsed_ms,
                        pv: self.root[0].rm.pv.clone(),
                        hashfull: self.sh.tt.hashfull(),
                    };
                    report(SearchEvent::Iteration(&info));
                    if self.sh.options.report_root_moves || self.sh.options.all_root_values {
                        let moves: Vec<RootMove> = self.root.iter().map(|e| e.rm.clone()).collect();
                        report(SearchEvent::RootMoves {
                            depth,
                            moves: &moves,
                        });
                    }
                    self.sh
                        .completed_depth
                        .store(depth as u64, Ordering::Relaxed);
                }
                // an iteration cut short (a thread stopped before finishing its first one) has
                // no value to share: another thread adopting it would report "loss in 0"
                if !self.stopped {
                    let mut deepest = self.sh.deepest.lock().unwrap_or_else(|e| e.into_inner());
                    if deepest.as_ref().is_none_or(|(d, _)| depth > *d) {
                        *deepest = Some((depth, self.root[0].rm.clone()));
                        self.sh
                            .completed_any
                            .fetch_max(depth as u64, Ordering::Relaxed);
                    }
                }
                if depth >= max_depth {
                    // any thread reaching the depth limit ends the search
                    self.sh.internal_stop.store(true, Ordering::Relaxed);
                    break;
                }
                if self.stopped {
                    break;
                }
                // stop early when the result is proven and cannot change any more
                if is_decisive(score) && depth > WIN - score.abs() + 1 && self.sh.time.is_timed() {
                    break;
                }
                if self.root.len() == 1 && self.sh.time.is_timed() && depth >= 2 {
                    break;
                }
                if self.id == 0 && self.sh.time.should_stop_iterating() {
                    break;
                }
            }
        }
        if self.id == 0 {
            self.sh.internal_stop.store(true, Ordering::Relaxed);
        }
        self.poll();
        let (nodes, hits) = self.totals();
        self.stats.tt_hits = self.stats.tt_hits.max(hits);
        let mut stats = self.stats;
        stats.nodes = nodes;
        stats.tt_hits = hits;
        let best = self.root.first().map(|e| e.rm.clone());
        SearchResult {
            best_move: best.as_ref().map_or(Pos::NONE, |r| r.pos),
            score: best
                .as_ref()
                .map_or(0, |r| if r.score == -INFINITE { score } else { r.score }),
            depth: completed,
            seldepth: info.seldepth.max(completed),
            pv: best.map_or_else(Vec::new, |r| r.pv),
            root_moves: self.root.iter().map(|e| e.rm.clone()).collect(),
            stats,
            branching,
            elapsed_ms: self.sh.time.elapsed_ms(),
        }
    }

    /// [`Worker::adopt_deepest`], reported as an iteration by the main thread (into `info`):
    /// the adopted depth and value.
    fn adopt_and_report(
        &mut self,
        info: &mut SearchInfo,
        report: &mut dyn FnMut(SearchEvent<'_>),
    ) -> Option<(i32, Score)> {
        let (d, rm) = self.adopt_deepest()?;
        if self.id == 0 {
            let (nodes, hits) = self.totals();
            let elapsed_ms = self.sh.time.elapsed_ms();
            *info = SearchInfo {
                depth: d,
                seldepth: self.seldepth.max(d),
                score: rm.score,
                nodes,
                nps: nodes * 1000 / elapsed_ms.max(1),
                tt_hits: hits,
                elapsed_ms,
                pv: rm.pv,
                hashfull: self.sh.tt.hashfull(),
            };
            report(SearchEvent::Iteration(info));
        }
        Some((d, rm.score))
    }

    /// Takes over the deepest iteration completed by any thread: its best move goes first in
    /// the root list with its value and line.
    fn adopt_deepest(&mut self) -> Option<(i32, RootMove)> {
        let (d, rm) = self
            .sh
            .deepest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()?;
        let k = self.root.iter().position(|e| e.rm.pos == rm.pos)?;
        let mut e = self.root.remove(k);
        e.rm = rm.clone();
        e.sort_score = rm.score;
        self.root.insert(0, e);
        Some((d, rm))
    }

    /// Searches root move `i` (a full window for the first move or for every move when all
    /// root values are wanted; a reduced null window first for the others).
    fn root_move(
        &mut self,
        i: usize,
        m: Pos,
        alpha_used: &mut Score,
        beta: Score,
        depth_plies: i32,
        shared_alpha: Option<&AtomicI32>,
        floor: Option<Score>,
    ) -> Score {
        let mut alpha = *alpha_used;
        let all = self.sh.options.all_root_values;
        let depth = depth_plies * PLY;
        let us = self.board.to_move();
        self.frames[FRAME_OFFSET].current = Some(m);
        self.frames[FRAME_OFFSET].move_class = (
            self.board.threat(m, us),
            self.board.threat(m, us.opponent()),
        );
        let makes_five = self.board.threat(m, us) == Pattern4::Five;
        self.board.play_unchecked(m);
        self.stats.nodes += 1;
        let nd = depth - PLY;
        // no line after the move unless a full-window search gives one (a null-window fail-high
        // would otherwise take an older search's line)
        self.pv_len[1] = 1;
        let v = if makes_five {
            // the game ends here; the child position is never searched
            win_in(1)
        } else if let (true, Some(f)) = (all, floor) {
            // beyond the moves with exact values: an exact value only for one that beats the
            // worst of them
            let v0 = -self.search::<false>(-f - 1, -f, nd, 1, true);
            if v0 > f && !self.stopped {
                -self.search::<true>(-INFINITE, INFINITE, nd, 1, false)
            } else {
                v0
            }
        } else if all {
            -self.search::<true>(-INFINITE, INFINITE, nd, 1, false)
        } else if i == 0 {
            -self.search::<true>(-beta, -alpha, nd, 1, false)
        } else {
            // late root moves: reduced null-window first
            let r = if depth_plies >= 3 && i >= 3 {
                (self.lmr[(depth_plies as usize).min(255)]
                    * self.lmr[(i + 1).min(255)]
                    * PLY as f32) as i32
                    / 2
            } else {
                0
            };
            let mut v0 = -self.search::<false>(-alpha - 1, -alpha, (nd - r).max(PLY), 1, true);
            if v0 > alpha && r > 0 {
                v0 = -self.search::<false>(-alpha - 1, -alpha, nd, 1, true);
            }
            if let Some(shared) = shared_alpha {
                // another thread may have raised alpha meanwhile: test against that first
                let a = shared.load(Ordering::Relaxed);
                if v0 > alpha && a > alpha && !self.stopped {
                    *alpha_used = a;
                    alpha = a;
                    v0 = -self.search::<false>(-alpha - 1, -alpha, nd, 1, true);
                }
            }
            if v0 > alpha && v0 < beta {
                -self.search::<true>(-beta, -alpha, nd, 1, false)
            } else {
                v0
            }
        };
        self.board.undo();
        v
    }

    fn may_split_root(&self, depth_plies: i32) -> bool {
        self.sh.ybwc
            && self.id == 0
            && depth_plies >= self.params.split_min_depth
            && self.sh.idle.load(Ordering::Relaxed) > 0
    }

    /// Shares the root moves from `first` on with the helpers; their values go into the root
    /// list. The best value of the iteration.
    fn root_split(
        &mut self,
        first: usize,
        alpha: Score,
        beta: Score,
        depth_plies: i32,
        best: Score,
    ) -> Score {
        let node = NodeCtx {
            beta,
            ply: 0,
            cut_node: false,
            tt_pv: true,
            improving: false,
            oppo4: false,
            prev_own_class: Pattern4::None,
            own_last: None,
            their_last: None,
            killers: self.killers[0],
            tt_move: Pos::NONE,
            move_count_limit: usize::MAX,
        };
        let moves = self.root[first..].iter().map(|e| e.rm.pos).collect();
        let st = self.open_split(
            &node,
            moves,
            first,
            depth_plies,
            alpha,
            best,
            Pos::NONE,
            true,
            true,
        );
        let mut best = best;
        for (i, v, a, line) in &st.root_results {
            record_root(
                &mut self.root[*i],
                *v,
                *a,
                beta,
                depth_plies,
                false,
                false,
                line,
            );
            best = best.max(*v);
        }
        best
    }

    /// Takes root moves of a root split point until none are left or it is aborted.
    fn work_root(&mut self, sp: &SplitPoint) {
        let beta = sp.node.beta;
        let depth_plies = sp.depth.load(Ordering::Relaxed);
        loop {
            if self.stopped || sp.abort.load(Ordering::Relaxed) {
                break;
            }
            let j = sp.next.fetch_add(1, Ordering::Relaxed);
            if j >= sp.moves.len() {
                break;
            }
            let i = sp.count0 + j;
            let mut alpha = sp.alpha.load(Ordering::Relaxed);
            let v = self.root_move(
                i,
                sp.moves[j],
                &mut alpha,
                beta,
                depth_plies,
                Some(&sp.alpha),
                None,
            );
            if self.stopped {
                break;
            }
            let line = self.pv[1][1..self.pv_len[1].max(1)].to_vec();
            let mut st = sp.state.lock().unwrap_or_else(|e| e.into_inner());
            st.root_results.push((i, v, alpha, line));
            if v > st.best {
                st.best = v;
            }
            if v > st.alpha {
                st.alpha = v;
                sp.alpha.store(v, Ordering::Relaxed);
                if v >= beta {
                    sp.abort.store(true, Ordering::Relaxed);
                    break;
                }
            }
        }
    }

    fn root_search(&mut self, mut alpha: Score, beta: Score, depth_plies: i32) -> Score {
        let all = self.sh.options.all_root_values;
        let mut best = -INFINITE;
        self.root_delta = (beta - alpha).max(1);
        for e in &mut self.root {
            e.sort_score = -INFINITE;
        }
        self.frames[FRAME_OFFSET].static_eval = evaluate(&self.board);
        self.frames[FRAME_OFFSET].tt_pv = true;
        // with `exact_moves`, the exact values of this iteration, best first
        let exact_n = self.sh.options.exact_moves;
        let mut exact: Vec<Score> = Vec::new();
        for i in 0..self.root.len() {
            if i > 0 && !all && self.may_split_root(depth_plies) {
                // Young Brothers Wait at the root: the helpers share the later root moves
                best = self.root_split(i, alpha, beta, depth_plies, best);
                break;
            }
            let m = self.root[i].rm.pos;
            let mut a = alpha;
            let floor = (all && exact_n > 0 && exact.len() >= exact_n).then(|| exact[exact_n - 1]);
            let v = self.root_move(i, m, &mut a, beta, depth_plies, None, floor);
            if self.stopped {
                break;
            }
            let child = &self.pv[1][1..self.pv_len[1].max(1)];
            let (lo, got_exact) = match floor {
                Some(f) => (f, v > f),
                None => (alpha, all),
            };
            record_root(
                &mut self.root[i],
                v,
                lo,
                if floor.is_some() { INFINITE } else { beta },
                depth_plies,
                got_exact || i == 0,
                got_exact,
                child,
            );
            if got_exact && exact_n > 0 {
                let at = exact.partition_point(|&x| x >= v);
                exact.insert(at, v);
            }
            if v > best {
                best = v;
            }
            if !all && v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
        // best first; moves without a value this iteration keep their old order at the back
        self.root.sort_by_key(|e| std::cmp::Reverse(e.sort_score));
        best
    }

    /// Adds the search's ordering terms to the scores of a generated list: the TT move first,
    /// killer and history bonuses (the history of `us`, the side to move), a bonus near the
    /// last two moves, and the helpers' tie salt.
    fn order(&self, list: &mut [ScoredMove], o: &MoveOrdering, us: Color) {
        let hist = &self.history.0[us.index()];
        let (near_bonus, killer_bonus) = (self.params.near_last_bonus, self.params.killer_bonus);
        let history_divisor = self.params.history_divisor;
        let own_last = o.own_last.map_or(NO_INDEX, Pos::index);
        let their_last = o.their_last.map_or(NO_INDEX, Pos::index);
        for m in list.iter_mut() {
            if m.pos == o.tt_move {
                m.score = i32::MAX;
                continue;
            }
            let i = m.pos.index();
            let mut score = m.score;
            if m.pos == o.killers[0] || m.pos == o.killers[1] {
                score += killer_bonus;
            }
            score += hist[i % NUM_CELLS].load(Ordering::Relaxed) / history_divisor;
            // play happens near the last moves: 3 - d at Chebyshev distance d <= 2
            score += near_bonus * near_factor(their_last, i).max(near_factor(own_last, i));
            m.score = score;
        }
        if self.salt > 0 {
            // Lazy SMP helpers order ties differently, so that the threads spread over the tree
            let salt = self.salt;
            for m in list.iter_mut().filter(|m| m.pos != o.tt_move) {
                let h = (m.pos.index() as u64 ^ salt).wrapping_mul(0x2545_F491_4F6C_DD1D);
                m.score += (h >> 59) as i32;
            }
        }
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

    /// The point where `color` makes five (the only one, or the first of several) and how many
    /// there are (0, 1 or 2 meaning "two or more").
    fn five_points(&self, color: Color) -> (Pos, usize) {
        let last = self.board.last_move_of(color);
        if self.board.threat_count(color, Pattern4::Five) == 1 {
            if let Some(m) = last {
                if let Some(q) = super::movegen::five_point_near(&self.board, m, color) {
                    return (q, 1);
                }
            }
        }
        // the scan stops at two points, or once it has found every point the board counts
        let enough = (self.board.threat_count(color, Pattern4::Five) as usize).min(2);
        let mut pts = [Pos::NONE; 2];
        let mut n = 0;
        if enough > 0 {
            let _: ControlFlow<()> = self.board.try_for_each_candidate(|q| {
                if self.board.threat(q, color) == Pattern4::Five {
                    pts[n] = q;
                    n += 1;
                    if n == enough {
                        return ControlFlow::Break(());
                    }
                }
                ControlFlow::Continue(())
            });
        }
        (pts[0], n)
    }

    /// Immediate results common to every node: our five, the opponent's five threat (returns
    /// the forced block), our straight four. `Err(score)` ends the node.
    #[inline]
    fn quick_checks(&mut self, ply: usize) -> Result<Option<Pos>, Score> {
        let p = ply as i32;
        let us = self.board.to_move();
        let them = us.opponent();
        if self.board.threat_count(us, Pattern4::Five) > 0 {
            return Err(win_in(p + 1));
        }
        if self.board.is_full() {
            return Err(DRAW);
        }
        if self.board.threat_count(them, Pattern4::Five) > 0 {
            let (blk, n) = self.five_points(them);
            if n >= 2 || blk == Pos::NONE {
                return Err(loss_in(p + 2));
            }
            if us == Color::Black
                && self.board.rule() == Rule::Renju
                && self.board.is_forbidden(blk)
            {
                return Err(loss_in(p + 2));
            }
            return Ok(Some(blk));
        }
        if self.board.threat_count(us, Pattern4::Flex4) > 0 {
            return Err(win_in(p + 3));
        }
        Ok(None)
    }

    /// Counts a node at `ply` (starting its line at a PV node), polls the stop conditions now
    /// and then and tracks the selective depth; false when the search is stopping.
    #[inline(always)]
    fn enter_node<const PV: bool>(&mut self, ply: usize) -> bool {
        if PV {
            self.pv_len[ply] = ply;
        }
        self.stats.nodes += 1;
        if self.stats.nodes % POLL_INTERVAL == 0 {
            self.poll();
        }
        if self.stopped {
            return false;
        }
        if ply as i32 > self.seldepth {
            self.seldepth = ply as i32;
        }
        true
    }

    /// Threat quiescence search: stand pat on the static evaluation, or play fours near our
    /// last move (each answered by the forced block) looking for a VCF or a better position.
    fn qsearch<const PV: bool>(
        &mut self,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        qdepth: i32,
    ) -> Score {
        if !self.enter_node::<PV>(ply) {
            return 0;
        }
        let p = ply as i32;
        let forced = match self.quick_checks(ply) {
            Err(v) => return v,
            Ok(f) => f,
        };
        if ply >= MAX_PLY - 4 {
            return evaluate(&self.board);
        }
        alpha = alpha.max(loss_in(p));
        beta = beta.min(win_in(p + 1));
        if alpha >= beta {
            return alpha;
        }
        if let Some(blk) = forced {
            // the opponent's four must be blocked, whatever we hoped to do
            self.sh.tt.prefetch(self.board.key_after(blk));
            self.board.play_unchecked(blk);
            let v = -self.qsearch::<PV>(-beta, -alpha, ply + 1, qdepth);
            self.board.undo();
            if PV && !self.stopped && v > alpha {
                self.update_pv(ply, blk);
            }
            return v;
        }
        let key = self.board.key();
        let mut tt_move = Pos::NONE;
        let mut stand = None;
        if let Some(h) = self.sh.tt.probe(key) {
            self.stats.tt_hits += 1;
            let s = from_tt(h.score, p);
            if !PV
                && h.bound != Bound::None
                && ((h.bound as u8 & Bound::Lower as u8 != 0 && s >= beta)
                    || (h.bound as u8 & Bound::Upper as u8 != 0 && s <= alpha))
            {
                return s;
            }
            if h.mv.is_point() && self.board.contains(h.mv) && self.board.is_empty(h.mv) {
                tt_move = h.mv;
            }
            stand = Some(h.eval);
        }
        let stand = stand.unwrap_or_else(|| evaluate(&self.board));
        if stand >= beta {
            return stand;
        }
        let orig_alpha = alpha;
        if stand > alpha {
            alpha = stand;
        }
        if qdepth <= self.params.qvcf_max_depth {
            return stand;
        }
        let us = self.board.to_move();
        let Some(last) = self.board.last_move_of(us) else {
            return stand;
        };
        let allow_plain = qdepth >= self.params.qvcf_plain_depth;
        let mut list = std::mem::take(&mut self.qlists[ply]);
        list.clear();
        if tt_move != Pos::NONE {
            let c = self.board.threat(tt_move, us);
            if (Pattern4::Block4..Pattern4::Five).contains(&c) || c == Pattern4::Flex3x2 {
                list.push(tt_move);
            }
        }
        for &o in QVCF_RANGE.iter() {
            let q = Pos::from_index((last.index() as i32 + o) as usize);
            if !self.board.is_empty(q) || q == tt_move {
                continue;
            }
            let c = self.board.threat(q, us);
            let ok = if allow_plain {
                c >= Pattern4::Block4
            } else {
                c >= Pattern4::Block4Plus
            };
            if (ok && c < Pattern4::Five) || c == Pattern4::Flex3x2 {
                list.push(q);
            }
        }
        let mut best = stand;
        let mut best_move = Pos::NONE;
        for i in 0..list.len() {
            let m = list[i];
            let class = super::movegen::own_class(&mut self.board, m, us);
            if !(Pattern4::Block4..Pattern4::Five).contains(&class) {
                continue;
            }
            self.board.play_unchecked(m);
            let v = -self.qdefend::<PV>(-beta, -alpha, ply + 1, qdepth - 1, m);
            self.board.undo();
            if self.stopped {
                self.qlists[ply] = list;
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        self.qlists[ply] = list;
        let bound = if best >= beta {
            Bound::Lower
        } else if PV && best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.sh
            .tt
            .store(key, best_move, to_tt(best, p), stand, -1, bound, PV);
        best
    }

    /// The defender's forced block in the threat quiescence search.
    fn qdefend<const PV: bool>(
        &mut self,
        alpha: Score,
        beta: Score,
        ply: usize,
        qdepth: i32,
        four: Pos,
    ) -> Score {
        if PV {
            self.pv_len[ply] = ply;
        }
        self.stats.nodes += 1;
        let p = ply as i32;
        let us = self.board.to_move();
        let them = us.opponent();
        if self.board.threat_count(us, Pattern4::Five) > 0 {
            return win_in(p + 1);
        }
        let blk = match super::movegen::five_point_near(&self.board, four, them) {
            Some(b) => b,
            None => return evaluate(&self.board),
        };
        self.sh.tt.prefetch(self.board.key_after(blk));
        if self.board.threat_count(them, Pattern4::Five) >= 2 {
            // the four made two five points (possible through a second line)
            let (_, n) = self.five_points(them);
            if n >= 2 {
                return loss_in(p + 2);
            }
        }
        if us == Color::Black && self.board.rule() == Rule::Renju && self.board.is_forbidden(blk) {
            return loss_in(p + 2);
        }
        self.board.play_unchecked(blk);
        let v = -self.qsearch::<PV>(-beta, -alpha, ply + 1, qdepth);
        self.board.undo();
        if PV && !self.stopped {
            self.update_pv(ply, blk);
        }
        v
    }

    /// Whether this thread should share the rest of a node's list with an idle thread.
    #[inline]
    fn may_split(&self, depth: i32) -> bool {
        self.sh.ybwc
            && depth >= self.params.split_min_depth * PLY
            && self.sh.idle.load(Ordering::Relaxed) > 0
    }

    /// Opens a split point for the rest of a node's list (`moves`, after `count0` moves of
    /// the node), works on it beside the helpers, and returns its result once every thread
    /// has left it.
    fn open_split(
        &mut self,
        node: &NodeCtx,
        moves: Vec<Pos>,
        count0: usize,
        depth: i32,
        alpha: Score,
        best: Score,
        best_move: Pos,
        pv: bool,
        root: bool,
    ) -> SplitState {
        let sh = self.sh;
        let sp = Arc::new(SplitPoint {
            path: self.board.moves()[self.root_len..].to_vec(),
            frames: self.frames[..=node.ply + FRAME_OFFSET].to_vec(),
            child_killers: self.killers[node.ply + 1],
            node: *node,
            pv,
            root,
            moves,
            count0,
            next: AtomicUsize::new(0),
            alpha: AtomicI32::new(alpha),
            best: AtomicI32::new(best),
            depth: AtomicI32::new(depth),
            abort: AtomicBool::new(false),
            workers: AtomicUsize::new(0),
            owner_history: Arc::clone(&self.history),
            state: Mutex::new(SplitState {
                best,
                best_move,
                alpha,
                depth,
                tried: Vec::new(),
                line: Vec::new(),
                root_results: Vec::new(),
            }),
        });
        *sh.split.lock().unwrap_or_else(|e| e.into_inner()) = Some(Arc::clone(&sp));
        sh.split_seq.fetch_add(1, Ordering::Release);
        self.stats.splits += 1;
        self.splits.push(Arc::clone(&sp));
        self.work_at(&sp);
        {
            let mut open = sh.split.lock().unwrap_or_else(|e| e.into_inner());
            if open.as_ref().is_some_and(|o| Arc::ptr_eq(o, &sp)) {
                *open = None;
            }
        }
        if self.stopped {
            // the helpers drop their moves too
            sp.abort.store(true, Ordering::Relaxed);
        }
        // wait for the helpers still searching a move here, helping them at split points
        // they open below this one (and watching the clock)
        let mut seen = 0;
        let mut spins = 0u32;
        sh.idle.fetch_add(1, Ordering::Relaxed);
        while sp.workers.load(Ordering::Acquire) > 0 {
            if !self.stopped && self.try_join(&mut seen, Some(&sp)) {
                // back at this node
                self.sync_board(&sp.path);
                self.frames[..sp.frames.len()].copy_from_slice(&sp.frames);
            }
            std::hint::spin_loop();
            spins += 1;
            if spins % 64 == 0 {
                self.poll();
            }
            if self.stopped {
                sp.abort.store(true, Ordering::Relaxed);
            }
        }
        sh.idle.fetch_sub(1, Ordering::Relaxed);
        self.splits.pop();
        if self.stopped
            && !self.stopping()
            && !self.splits.iter().any(|o| o.abort.load(Ordering::Relaxed))
        {
            // stopped by this split point's own cut-off, which its state holds
            self.stopped = false;
        }
        let mut st = sp.state.lock().unwrap_or_else(|e| e.into_inner());
        SplitState {
            tried: std::mem::take(&mut st.tried),
            line: std::mem::take(&mut st.line),
            root_results: std::mem::take(&mut st.root_results),
            ..*st
        }
    }

    fn work_at(&mut self, sp: &SplitPoint) {
        if sp.root {
            self.work_root(sp);
        } else if sp.pv {
            self.work_split::<true>(sp);
        } else {
            self.work_split::<false>(sp);
        }
    }

    /// Takes moves of a split point until none are left or it is aborted.
    fn work_split<const PV: bool>(&mut self, sp: &SplitPoint) {
        let node = sp.node;
        let ply = node.ply;
        loop {
            if self.stopped || sp.abort.load(Ordering::Relaxed) {
                break;
            }
            let j = sp.next.fetch_add(1, Ordering::Relaxed);
            if j >= sp.moves.len() {
                break;
            }
            let count = sp.count0 + j + 1;
            let best = sp.best.load(Ordering::Relaxed);
            // move count pruning, as in the node's own loop
            if best > -WIN_MIN && count > node.move_count_limit {
                break;
            }
            let alpha = sp.alpha.load(Ordering::Relaxed);
            let depth = sp.depth.load(Ordering::Relaxed);
            let m = sp.moves[j];
            let Some(v) = self.search_move::<PV>(&node, m, count, depth, alpha, best) else {
                continue;
            };
            if self.stopped {
                break;
            }
            let mut st = sp.state.lock().unwrap_or_else(|e| e.into_inner());
            st.tried.push(m);
            if v > st.best {
                st.best = v;
                sp.best.store(v, Ordering::Relaxed);
                if v > st.alpha {
                    st.best_move = m;
                    if PV {
                        let child_len = self.pv_len[ply + 1].max(ply + 1);
                        st.line.clear();
                        st.line.push(m);
                        st.line
                            .extend_from_slice(&self.pv[ply + 1][ply + 1..child_len]);
                        debug_assert!(
                            line_fits(&self.board, &st.line),
                            "the line at shared ply {ply} is not playable: {:?}",
                            st.line
                        );
                    }
                    if v >= node.beta {
                        self.stats.cutoffs += 1;
                        sp.abort.store(true, Ordering::Relaxed);
                        break;
                    }
                    st.alpha = v;
                    sp.alpha.store(v, Ordering::Relaxed);
                    // later moves at a PV node with an improved alpha get less depth
                    if st.depth > 2 * PLY && st.depth < 12 * PLY && !is_decisive(v) {
                        st.depth -= PLY;
                        sp.depth.store(st.depth, Ordering::Relaxed);
                    }
                }
            }
        }
    }

    /// A helper thread of Young Brothers Wait: waits for split points and works at them
    /// until the search ends.
    pub(crate) fn help(&mut self) {
        let sh = self.sh;
        let mut seen = 0u64;
        let mut spins = 0u32;
        sh.idle.fetch_add(1, Ordering::Relaxed);
        while !self.stopping() {
            if !self.try_join(&mut seen, None) {
                std::hint::spin_loop();
                spins += 1;
                if spins % 1024 == 0 {
                    std::thread::yield_now();
                }
            }
        }
        self.poll();
    }

    /// Joins the open split point, if there is a new one with moves left (and, for a thread
    /// waiting at split point `below`, only one under it), and works there. Whether it did.
    fn try_join(&mut self, seen: &mut u64, below: Option<&SplitPoint>) -> bool {
        let sh = self.sh;
        let seq = sh.split_seq.load(Ordering::Acquire);
        if seq == *seen {
            return false;
        }
        *seen = seq;
        let sp = {
            let open = sh.split.lock().unwrap_or_else(|e| e.into_inner());
            match open.as_ref() {
                Some(sp)
                    if !sp.abort.load(Ordering::Relaxed)
                        && sp.next.load(Ordering::Relaxed) < sp.moves.len()
                        && below.is_none_or(|b| {
                            sp.path.len() > b.path.len() && sp.path.starts_with(&b.path)
                        }) =>
                {
                    sp.workers.fetch_add(1, Ordering::Relaxed);
                    Some(Arc::clone(sp))
                }
                _ => None,
            }
        };
        let Some(sp) = sp else { return false };
        let _leave = Leave(&sp);
        sh.idle.fetch_sub(1, Ordering::Relaxed);
        self.sync_board(&sp.path);
        let ply = sp.node.ply;
        self.frames[..sp.frames.len()].copy_from_slice(&sp.frames);
        self.killers[ply] = sp.node.killers;
        self.killers[ply + 1] = sp.child_killers;
        if !Arc::ptr_eq(&self.history, &sp.owner_history) {
            // the board's points only: the padding around them never gets a value
            let last = self.board.size() - 1;
            let cells = Pos::new(0, 0).index()..Pos::new(last, last).index() + 1;
            self.history.copy_from(&sp.owner_history, cells);
        }

        self.splits.push(Arc::clone(&sp));
        self.work_at(&sp);
        self.splits.pop();
        if self.stopped
            && !self.stopping()
            && !self.splits.iter().any(|o| o.abort.load(Ordering::Relaxed))
        {
            // the split point was aborted: this thread is free again
            self.stopped = false;
        }
        sh.idle.fetch_add(1, Ordering::Relaxed);
        true
    }

    /// Brings the board from the search's root to the end of `path`, keeping the moves it
    /// shares with the board's line.
    fn sync_board(&mut self, path: &[Pos]) {
        let common = self.board.moves()[self.root_len..]
            .iter()
            .zip(path)
            .take_while(|(a, b)| a == b)
            .count();
        while self.board.ply() > self.root_len + common {
            self.board.undo();
        }
        for &m in &path[common..] {
            if m.is_pass() {
                self.board.pass();
            } else {
                self.board.play_unchecked(m);
            }
        }
    }

    /// Searches one move of a node's loop (steps 11b-13: shallow pruning, extensions, late
    /// move reductions and re-searches) and returns its value, or `None` when it is pruned.
    /// The caller looks at `self.stopped` before using the value. Shared by the node's own
    /// loop and the threads working on a split point.
    #[inline(always)]
    fn search_move<const PV: bool>(
        &mut self,
        node: &NodeCtx,
        m: Pos,
        count: usize,
        depth: i32,
        alpha: Score,
        best: Score,
    ) -> Option<Score> {
        let NodeCtx {
            beta,
            ply,
            cut_node,
            tt_pv,
            improving,
            oppo4,
            prev_own_class,
            own_last,
            their_last,
            tt_move,
            ..
        } = *node;
        let us = self.board.to_move();
        let them = us.opponent();
        let our_class = self.board.threat(m, us);
        let their_class = self.board.threat(m, them);
        let trivial = our_class == Pattern4::None && their_class == Pattern4::None;
        let dist = |o: Option<Pos>| o.map_or(99, |q: Pos| chebyshev(q, m));
        let dist_self = dist(own_last);
        let dist_oppo = dist(their_last);
        let distract = dist_self > 4 && dist_oppo > 4;
        // Step 11b. Shallow pruning, once a non-losing move is known.
        if best > -WIN_MIN {
            if trivial && depth < self.params.trivial_prune_depth {
                return None;
            }
            if oppo4
                && depth < self.params.trivial_prune_depth
                && their_class < Pattern4::Block4
                && our_class < Pattern4::Block4
                && distract
            {
                return None;
            }
        }
        // Step 12. Extensions.
        let mut ext = 0;
        if m == tt_move {
            ext = if PV {
                self.params.tt_move_ext_pv
            } else {
                self.params.tt_move_ext_nonpv
            };
        }
        let new_depth = depth - PLY + ext;
        {
            let f = self.frame(ply);
            f.current = Some(m);
            f.move_class = (our_class, their_class);
        }
        if PV {
            // No line after the move unless a full-window search gives one: a null-window
            // search that fails high past beta leaves the child's row as an earlier search
            // (of another move, or in a helper of another node) left it.
            self.pv_len[ply + 1] = ply + 1;
        }
        // the child's key is known before the move is made: its bucket loads while the
        // board updates its patterns
        self.sh.tt.prefetch(self.board.key_after(m));
        self.board.play_unchecked(m);
        let mut v;
        if count == 1 {
            v = -self.search::<PV>(-beta, -alpha, new_depth, ply + 1, !PV && !cut_node);
        } else {
            // Step 13. Late move reductions.
            let mut r = 0;
            if depth >= 2 * PLY {
                let mut rf = self.lmr[((depth / PLY) as usize).min(255)] * self.lmr[count.min(255)];
                if !PV && !improving && rf > 1.0 {
                    rf += 1.0;
                }
                r = (rf * PLY as f32) as i32;
                if tt_pv {
                    r -= self.params.ttpv_reduction;
                }
                if cut_node && !node.killers.contains(&m) {
                    r += self.params.cutnode_reduction;
                }
                if oppo4 && their_class < Pattern4::Block4 {
                    r += PLY * (i32::from(dist_oppo > 4) * 2 + i32::from(dist_self > 4));
                }
                if !oppo4
                    && prev_own_class >= Pattern4::Flex3
                    && (our_class >= Pattern4::Flex3
                        || (dist_self <= 4 && our_class >= Pattern4::Flex2x2))
                {
                    r -= PLY / 2;
                }
                if our_class >= Pattern4::Block4 {
                    r -= PLY;
                }
                let h = self.history.0[us.index()][m.index()].load(Ordering::Relaxed);
                // up to a ply less for moves with a good history, more for a bad one
                r -= (h / (HIST_MAX / PLY)).clamp(-PLY, PLY);
            }
            // Whole plies, rounded up: a reduced child's depth then keeps its parent's
            // fraction of a ply, whatever the history (which moves the reduction by up to a
            // ply either way) said at the time, so that a position met again (through a
            // transposition, in the next iteration or in another thread) finds its table
            // entry deep enough. Against fractional reductions: 2 threads reached the bench
            // depth 1.64x faster than 1 thread against 1.35x (medians of 6 commands of 3
            // runs, interleaved), 9% fewer bench nodes, and 151.5/296 in self-play at 100 ms.
            // (The solver keeps fractional reductions, which prove more wins.)
            if self.params.lmr_whole_plies {
                r = whole_plies_up(r);
            }
            let d = (new_depth - r).min(new_depth).max(PLY.min(new_depth));
            v = -self.search::<false>(-alpha - 1, -alpha, d, ply + 1, true);
            // A reduced search that fails high only just is weak evidence: its re-search
            // goes a ply short of the full depth (and no re-search is left when that is the
            // reduced depth), like Stockfish's "shallower search". With a margin of 5, to
            // depth 18 from the nine openings of issue 3: 3.06M nodes instead of 5.18M
            // (standard `h8` 352k instead of 884k, `h8 i9` 342k instead of 1006k);
            // self-play at 100 ms per move against the full re-search: 163/296 (55.1%;
            // 43/72 in standard). A margin of 10: 366.5/750 (48.9%).
            // `lmr_shallower_min_depth` (eleventh session) keeps the full re-search at
            // nodes with fewer plies left. At 6, 2 threads reached the bench depth
            // 1.48-1.84x faster than one (nine medians of 5 runs) against 1.27-1.49x, but
            // only because one thread got slower on the bench positions (15% more nodes)
            // while two threads did not; self-play at 100 ms 151.5/296 with one thread and
            // 32/72 with two (freestyle). Not the default.
            let mut full = new_depth;
            if v > alpha && d < new_depth {
                // (alpha is already the best value so far where that is higher)
                if v < alpha + self.params.lmr_shallower_margin
                    && !is_decisive(v)
                    && depth >= self.params.lmr_shallower_min_depth * PLY
                {
                    full -= PLY;
                }
                if full > d {
                    v = -self.search::<false>(-alpha - 1, -alpha, full, ply + 1, !cut_node);
                }
            }
            if PV && v > alpha && v < beta {
                v = -self.search::<true>(-beta, -alpha, full, ply + 1, false);
            }
        }
        self.board.undo();
        Some(v)
    }

    fn search<const PV: bool>(
        &mut self,
        mut alpha: Score,
        mut beta: Score,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        if depth < PLY {
            return self.qsearch::<PV>(alpha, beta, ply, 0);
        }
        if !self.enter_node::<PV>(ply) {
            return 0;
        }
        let p = ply as i32;
        let us = self.board.to_move();
        let them = us.opponent();

        // Step 1. Immediate results: our five, the opponent's five threat, our straight four.
        let forced = match self.quick_checks(ply) {
            Err(v) => return v,
            Ok(f) => f,
        };
        if ply >= MAX_PLY - 4 {
            return evaluate(&self.board);
        }
        // Step 2. Mate distance pruning.
        alpha = alpha.max(loss_in(p));
        beta = beta.min(win_in(p + 1));
        if alpha >= beta {
            return alpha;
        }
        let prev_eval = self.frames[ply + FRAME_OFFSET - 1].static_eval;
        // Step 3. The opponent threatens five: the block is forced, and searched deeper.
        if let Some(blk) = forced {
            let class = self.board.threat(blk, us);
            let f = self.frame(ply);
            f.static_eval = -prev_eval;
            f.current = Some(blk);
            f.move_class = (class, Pattern4::Five);
            self.sh.tt.prefetch(self.board.key_after(blk));
            self.board.play_unchecked(blk);
            let v = -self.search::<PV>(
                -beta,
                -alpha,
                depth + self.params.forced_block_ext,
                ply + 1,
                !cut_node,
            );
            self.board.undo();
            if PV && !self.stopped && v > alpha {
                self.update_pv(ply, blk);
            }
            return v;
        }
        // Step 4. Transposition table.
        let key = self.board.key();
        let mut tt_move = Pos::NONE;
        let mut tt_hit = None;
        if let Some(h) = self.sh.tt.probe(key) {
            self.stats.tt_hits += 1;
            if h.mv.is_point() && self.board.contains(h.mv) && self.board.is_empty(h.mv) {
                tt_move = h.mv;
            }
            let s = from_tt(h.score, p);
            if !PV
                && h.depth * PLY >= depth
                && (h.bound == Bound::Exact
                    || (h.bound == Bound::Lower && s >= beta)
                    || (h.bound == Bound::Upper && s <= alpha))
            {
                return s;
            }
            tt_hit = Some((h, s));
        }
        let tt_pv = PV || tt_hit.is_some_and(|(h, _)| h.pv);
        let oppo4 = self.board.threat_count(them, Pattern4::Flex4) > 0;

        // Step 5. Static evaluation.
        let static_eval;
        let mut eval;
        if oppo4 {
            static_eval = -prev_eval;
            eval = static_eval;
        } else {
            static_eval = tt_hit.map_or_else(|| evaluate(&self.board), |(h, _)| h.eval);
            eval = static_eval;
            if let Some((h, s)) = tt_hit {
                let fits = if s > eval {
                    h.bound == Bound::Lower || h.bound == Bound::Exact
                } else {
                    h.bound == Bound::Upper || h.bound == Bound::Exact
                };
                if fits && !is_decisive(s) {
                    eval = s;
                }
            }
        }
        {
            let f = self.frame(ply);
            f.static_eval = static_eval;
            f.tt_pv = tt_pv;
        }
        let improving = !oppo4 && static_eval > self.frames[ply + FRAME_OFFSET - 2].static_eval;
        self.killers[ply + 1] = [Pos::NONE; 2];

        if !PV && !oppo4 {
            // Step 6. Razoring: hopeless shallow nodes drop into the threat search.
            if depth < self.params.razor_max_depth
                && eval + self.params.razor_margin(depth) < alpha
                && !is_decisive(alpha)
            {
                return self.qsearch::<false>(alpha, alpha + 1, ply, 0);
            }
            // Step 7. Reverse futility pruning.
            if eval < WIN_MIN
                && beta > -WIN_MIN
                && eval - self.params.futility_margin(depth - PLY, improving) >= beta
            {
                return eval;
            }
            // Step 8. Null move pruning (never twice in a row).
            if depth >= self.params.null_move_min_depth
                && eval >= beta
                && static_eval >= beta + self.params.null_move_margin(depth)
                && self.board.move_back(0).is_some_and(|m| m.is_point())
                && !is_decisive(beta)
            {
                let r = self.params.null_move_reduction(depth);
                self.frame(ply).current = None;
                self.board.pass();
                let v = -self.search::<false>(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.board.undo();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v >= WIN_MIN { beta } else { v };
                }
            }
        }
        // Step 9. Internal iterative reductions.
        if PV && tt_move == Pos::NONE {
            depth -= self.params.iir_pv;
        }
        if depth >= self.params.iir_deep_depth && tt_move == Pos::NONE {
            depth -= self.params.iir_deep;
        }
        if depth < PLY {
            return self.qsearch::<PV>(alpha, beta, ply, 0);
        }

        // Step 10. Moves: the defence list when the opponent threatens a straight four, else
        // every candidate. A TT move that the full list would hold is searched before the list
        // is made (it is ordered first anyway, and when it cuts off no list is needed); the
        // list is then ordered with the history as the TT move's subtree left it.
        let own_last = self.frames[ply + FRAME_OFFSET - 2].current;
        let their_last = self.frames[ply + FRAME_OFFSET - 1].current;
        let ordering = MoveOrdering {
            tt_move,
            killers: self.killers[ply],
            own_last,
            their_last,
        };
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        let staged = !oppo4
            && tt_move != Pos::NONE
            && self.board.is_candidate(tt_move)
            && own_class(&mut self.board, tt_move, us) != Pattern4::Forbid;
        if staged {
            list.push(ScoredMove {
                pos: tt_move,
                score: i32::MAX,
            });
        } else {
            if oppo4 {
                gen_defence(&mut self.board, us, &mut list);
            } else {
                gen_all(&mut self.board, us, &mut list);
                drop_images(&self.board, &mut list, Pos::NONE);
            }
            if list.is_empty() {
                self.lists[ply] = list;
                return if oppo4 { loss_in(p + 4) } else { eval };
            }
            self.order(&mut list, &ordering, us);
        }
        let mut generated = !staged;

        let prev_own_class = self.frames[ply + FRAME_OFFSET - 2].move_class.0;
        let orig_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = Pos::NONE;
        let mut count = 0usize;
        let mut tried = [Pos::NONE; 64];
        let mut ntried = 0usize;
        let move_count_limit = match self.move_count_limits.get((depth / PLY).max(0) as usize) {
            Some(l) => l[usize::from(improving)],
            None => self.params.move_count_limit(depth, improving),
        };
        let node = NodeCtx {
            beta,
            ply,
            cut_node,
            tt_pv,
            improving,
            oppo4,
            prev_own_class,
            own_last,
            their_last,
            killers: ordering.killers,
            tt_move,
            move_count_limit,
        };
        let mut next = 0;
        loop {
            let i = next;
            // Step 11a. Move count pruning: past the limit, with a non-losing move known, the
            // rest of the (ordered) list is skipped.
            if best > -WIN_MIN && count >= move_count_limit {
                break;
            }
            if i == list.len() {
                if generated {
                    break;
                }
                // the staged TT move is done: the full list, with the TT move first
                generated = true;
                gen_all(&mut self.board, us, &mut list);
                drop_images(&self.board, &mut list, tt_move);
                self.order(&mut list, &ordering, us);
                super::movegen::pick_best(&mut list, 0);
                debug_assert_eq!(list[0].pos, tt_move);
                if i == list.len() {
                    break;
                }
            }
            // Step 11c. Young brothers wait: once the first move is searched (and did not cut
            // off), an idle helper thread may share the rest of the list.
            if count > 0 && list.len() - i >= 2 && self.may_split(depth) {
                list[i..].sort_by_key(|m| std::cmp::Reverse(m.score));
                let moves = list[i..].iter().map(|m| m.pos).collect();
                let st = self.open_split(
                    &node, moves, count, depth, alpha, best, best_move, PV, false,
                );
                for &t in &st.tried {
                    if ntried < tried.len() {
                        tried[ntried] = t;
                        ntried += 1;
                    }
                }
                if self.stopped {
                    self.lists[ply] = list;
                    return 0;
                }
                if PV && !st.line.is_empty() {
                    let n = st.line.len();
                    self.pv[ply][ply..ply + n].copy_from_slice(&st.line);
                    self.pv_len[ply] = ply + n;
                }
                best = st.best;
                best_move = st.best_move;
                depth = st.depth;
                break;
            }
            super::movegen::pick_best(&mut list, i);
            next = i + 1;
            let m = list[i].pos;
            count += 1;
            let Some(v) = self.search_move::<PV>(&node, m, count, depth, alpha, best) else {
                continue;
            };
            if self.stopped {
                self.lists[ply] = list;
                return 0;
            }
            if ntried < tried.len() {
                tried[ntried] = m;
                ntried += 1;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        self.stats.cutoffs += 1;
                        if count == 1 {
                            self.stats.first_move_cutoffs += 1;
                        }
                        break;
                    }
                    alpha = v;
                    // later moves at a PV node with an improved alpha get less depth
                    if depth > 2 * PLY && depth < 12 * PLY && !is_decisive(v) {
                        depth -= PLY;
                    }
                }
            }
        }
        self.lists[ply] = list;
        if best_move != Pos::NONE {
            let tactical = self.board.threat(best_move, us) >= Pattern4::Flex3;
            if !tactical {
                let k = &mut self.killers[ply];
                if k[0] != best_move {
                    k[1] = k[0];
                    k[0] = best_move;
                }
            }
            // History: a bonus for the best move, a malus for the moves searched with it that
            // were not best, each pulling the value towards +-HIST_MAX ("gravity", so that
            // values stay bounded and old ones fade). Against the former bonus-only history
            // (values up to 2^20, which outweighed every pattern score in the ordering) this
            // scored +110 Elo in freestyle, +74 in standard and +63 in renju (72 games each at
            // 100 ms per move) and cut the first-move failures at cut nodes by half.
            let dp = depth / PLY;
            let bonus = (dp * dp * 16 + 32).min(HIST_BONUS_MAX);
            let hist = &self.history.0[us.index()];
            for &t in &tried[..ntried] {
                let b = if t == best_move { bonus } else { -bonus };
                let h = &hist[t.index()];
                let v = h.load(Ordering::Relaxed);
                h.store(v + b - v * b.abs() / HIST_MAX, Ordering::Relaxed);
            }
        }
        if best == -INFINITE {
            // every move pruned: a fail-low
            best = alpha;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if PV && best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.stats.tt_stores += 1;
        self.sh.tt.store(
            key,
            best_move,
            to_tt(best, p),
            static_eval,
            depth / PLY,
            bound,
            tt_pv,
        );
        best
    }
}

/// Records root move `e`'s value `v` from a search with the window (`alpha`, `beta`) (`full`:
/// a full window, so the value is exact; `child`: the line after the move).
fn record_root(
    e: &mut RootEntry,
    v: Score,
    alpha: Score,
    beta: Score,
    depth_plies: i32,
    full: bool,
    all: bool,
    child: &[Pos],
) {
    let m = e.rm.pos;
    let exact = full || v > alpha;
    e.rm.score = v;
    e.rm.depth = depth_plies;
    e.rm.bound = if all {
        ValueBound::Exact
    } else if v <= alpha {
        ValueBound::Upper
    } else if v >= beta {
        ValueBound::Lower
    } else {
        ValueBound::Exact
    };
    if exact {
        let mut pv = Vec::with_capacity(child.len() + 1);
        pv.push(m);
        pv.extend_from_slice(child);
        e.rm.pv = pv;
        e.sort_score = v;
    } else {
        e.rm.pv.truncate(1);
    }
}

/// Whether `line` could be played from `board`'s position: its moves are empty points, each
/// once (a cheap check of a principal variation in debug builds).
fn line_fits(board: &Board, line: &[Pos]) -> bool {
    line.iter()
        .enumerate()
        .all(|(i, &m)| board.contains(m) && board.is_empty(m) && !line[..i].contains(&m))
}

/// Up to this many stones, the tree's nodes look for board symmetries of their position.
const SYMMETRY_MAX_STONES: usize = 10;

/// In a symmetric position with few stones, keeps one move of each class of images under the
/// position's symmetries (`first`, when given, represents its class): the others have the
/// same value.
fn drop_images(board: &Board, list: &mut Vec<ScoredMove>, first: Pos) {
    if board.stone_count() <= SYMMETRY_MAX_STONES {
        keep_one_per_image(board, list, first);
    }
}

/// Keeps the first move of each class of images under the symmetries of `board`'s position
/// (`first`, when given, represents its class wherever it stands in the list).
fn keep_one_per_image(board: &Board, list: &mut Vec<ScoredMove>, first: Pos) {
    let sym = board.symmetries();
    if sym.len() == 1 {
        return;
    }
    let mut kept: Vec<Pos> = Vec::with_capacity(list.len());
    if first != Pos::NONE {
        kept.push(first);
    }
    list.retain(|m| {
        if m.pos == first {
            return true;
        }
        let image = kept
            .iter()
            .any(|&k| sym.iter().any(|&t| board.transform(k, t) == m.pos));
        if !image {
            kept.push(m.pos);
        }
        !image
    });
}

/// The bound of history values (either sign).
const HIST_MAX: i32 = 16384;
/// The largest history bonus or malus of one node.
const HIST_BONUS_MAX: i32 = 2048;

/// Offsets around a point where the threat quiescence looks for fours: the 5x5 square and the
/// four lines up to four steps.
const QVCF_RANGE: [i32; 40] = {
    let mut t = [0i32; 40];
    let mut n = 0;
    let s = crate::types::STRIDE as i32;
    let mut dy = -4i32;
    while dy <= 4 {
        let mut dx = -4i32;
        while dx <= 4 {
            let ax = if dx < 0 { -dx } else { dx };
            let ay = if dy < 0 { -dy } else { dy };
            let square = ax <= 2 && ay <= 2;
            let line = ax == 0 || ay == 0 || ax == ay;
            if (square || line) && !(dx == 0 && dy == 0) {
                t[n] = dy * s + dx;
                n += 1;
            }
            dx += 1;
        }
        dy += 1;
    }
    t
};

/// Largest index difference of two points within Chebyshev distance 2 (two rows and two
/// columns).
const NEAR_SPAN: usize = 2 * crate::types::STRIDE + 2;

/// `3 - d` for the points at Chebyshev distance `d <= 2`, by index difference (offset by
/// [`NEAR_SPAN`]); 0 elsewhere. Two board points a column difference of at most
/// `MAX_SIZE - 1 < STRIDE - 2` apart can only have such an index difference when they are that
/// close.
const NEAR_FACTOR: [i32; 2 * NEAR_SPAN + 1] = {
    assert!(crate::types::MAX_SIZE - 1 < crate::types::STRIDE - 2);
    let mut t = [0i32; 2 * NEAR_SPAN + 1];
    let s = crate::types::STRIDE as i32;
    let mut dy = -2i32;
    while dy <= 2 {
        let mut dx = -2i32;
        while dx <= 2 {
            let ax = if dx < 0 { -dx } else { dx };
            let ay = if dy < 0 { -dy } else { dy };
            let d = if ax > ay { ax } else { ay };
            t[(NEAR_SPAN as i32 + dy * s + dx) as usize] = 3 - d;
            dx += 1;
        }
        dy += 1;
    }
    t
};

/// `r` (in 1/16 ply) rounded up to whole plies.
const fn whole_plies_up(r: i32) -> i32 {
    (r + PLY - 1).div_euclid(PLY) * PLY
}

/// A point index standing for "no point" in [`near_factor`].
const NO_INDEX: usize = usize::MAX / 2;

/// `3 - d` for the points of indices `a` and `b` at Chebyshev distance `d <= 2`, otherwise 0
/// (also when `a` is [`NO_INDEX`]); a table lookup.
#[inline]
fn near_factor(a: usize, b: usize) -> i32 {
    let k = (b + NEAR_SPAN).wrapping_sub(a);
    NEAR_FACTOR.get(k).copied().unwrap_or(0)
}

#[inline]
fn chebyshev(a: Pos, b: Pos) -> i32 {
    let dx = (a.x() as i32 - b.x() as i32).abs();
    let dy = (a.y() as i32 - b.y() as i32).abs();
    dx.max(dy)
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn history_copy_takes_every_value_of_both_colours() {
        let (a, b) = (History::new(), History::new());
        for c in 0..2 {
            for (i, h) in b.0[c].iter().enumerate() {
                h.store(i as i32 * if c == 0 { 1 } else { -3 }, Ordering::Relaxed);
            }
        }
        a.0[1][5].store(77, Ordering::Relaxed);
        a.0[0][40].store(9, Ordering::Relaxed);
        a.copy_from(&b, 0..NUM_CELLS);
        for c in 0..2 {
            for (x, y) in a.0[c].iter().zip(&b.0[c]) {
                assert_eq!(x.load(Ordering::Relaxed), y.load(Ordering::Relaxed));
            }
        }
        assert_eq!(a.0[1][5].load(Ordering::Relaxed), -15);
        // a range leaves the values outside it alone
        let c = History::new();
        c.0[0][40].store(9, Ordering::Relaxed);
        c.copy_from(&b, 10..20);
        assert_eq!(c.0[0][40].load(Ordering::Relaxed), 9);
        assert_eq!(c.0[1][12].load(Ordering::Relaxed), -36);
        assert_eq!(c.0[1][9].load(Ordering::Relaxed), 0);
    }

    #[test]
    fn drop_images_keeps_one_move_of_each_mirror_pair() {
        let b = crate::Game::from_position(15, crate::Rule::Standard, "h8 i8 h9 g8")
            .expect("valid")
            .board()
            .clone();
        let sym = b.symmetries();
        assert_eq!(sym.len(), 2);
        let mut all = Vec::new();
        gen_all(&mut b.clone(), b.to_move(), &mut all);
        let on_axis = |p: Pos| b.transform(p, sym[1]) == p;
        let first = all.iter().map(|m| m.pos).find(|&p| !on_axis(p)).unwrap();
        // the chosen representative stays even when its image comes first in the list
        let image = b.transform(first, sym[1]);
        let mut list = all.clone();
        let k = list.iter().position(|m| m.pos == image).unwrap();
        list.swap(0, k);
        drop_images(&b, &mut list, first);
        assert!(list.iter().any(|m| m.pos == first));
        assert!(!list.iter().any(|m| m.pos == image));
        let axis = all.iter().filter(|m| on_axis(m.pos)).count();
        assert_eq!(list.len(), axis + (all.len() - axis) / 2);
        for m in &list {
            let i = b.transform(m.pos, sym[1]);
            assert!(i == m.pos || !list.iter().any(|n| n.pos == i), "{m:?}");
        }
        // an asymmetric position keeps everything
        let b = crate::Game::from_position(15, crate::Rule::Standard, "h8 i8 h9 g7")
            .expect("valid")
            .board()
            .clone();
        let mut all = Vec::new();
        gen_all(&mut b.clone(), b.to_move(), &mut all);
        let mut list = all.clone();
        drop_images(&b, &mut list, Pos::NONE);
        assert_eq!(list, all);
    }

    #[test]
    fn reductions_round_up_to_whole_plies() {
        for (r, want) in [
            (0, 0),
            (1, PLY),
            (PLY, PLY),
            (PLY + 1, 2 * PLY),
            (-1, 0),
            (-PLY, -PLY),
            (-PLY - 1, -PLY),
            (-PLY + 1, 0),
        ] {
            assert_eq!(whole_plies_up(r), want, "r = {r}");
        }
    }

    #[test]
    fn near_factor_matches_chebyshev() {
        let size = crate::types::MAX_SIZE;
        for a in 0..size * size {
            for b in 0..size * size {
                let (pa, pb) = (Pos::new(a % size, a / size), Pos::new(b % size, b / size));
                let d = chebyshev(pa, pb);
                let want = if d <= 2 { 3 - d } else { 0 };
                assert_eq!(near_factor(pa.index(), pb.index()), want, "{pa:?} {pb:?}");
                assert_eq!(near_factor(NO_INDEX, pb.index()), 0);
            }
        }
    }
}
