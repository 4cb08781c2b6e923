//! One search thread: iterative deepening, root search and the recursive PVS.

use super::movegen::{gen_all, gen_defence, sort_moves, ScoredMove};
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
use crate::vcf::VcfSearcher;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

// Search parameters (named so that they can be tuned in one place).
/// First aspiration window half-width.
const ASPIRATION_DELTA: Score = 24;
/// Iterations from which aspiration windows are used.
const ASPIRATION_MIN_DEPTH: i32 = 5;
/// Reverse futility pruning: depth limit and margin per ply.
const RFP_DEPTH: i32 = 6;
const RFP_MARGIN: Score = 60;
/// Razoring: depth limit and margin per ply.
const RAZOR_DEPTH: i32 = 2;
const RAZOR_MARGIN: Score = 150;
/// Futility pruning of quiet moves: depth limit and margin per ply.
const FUTILITY_DEPTH: i32 = 4;
const FUTILITY_MARGIN: Score = 70;
/// Late move pruning: moves searched at depth d before quiet moves are skipped.
const LMP_DEPTH: i32 = 7;
const LMP_BASE: usize = 3;
/// Late move reductions: `ln(depth) * ln(move number) / LMR_DIVISOR`.
const LMR_DIVISOR: f64 = 1.7;
/// Leaf VCF check limits.
const LEAF_VCF_FOURS: i32 = 12;
const LEAF_VCF_NODES: u64 = 400;
/// Ordering bonus of killer moves.
const KILLER_BONUS: i32 = 3000;
/// How often (in nodes) a thread publishes its counters and looks at the clock.
const POLL_INTERVAL: u64 = 256;

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
    killers: [[Pos; 2]; MAX_PLY],
    history: Box<[[i32; NUM_CELLS]; 2]>,
    pv: Box<[[Pos; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    lists: Vec<Vec<ScoredMove>>,
    root: Vec<RootEntry>,
    vcf: VcfSearcher,
    lmr: Box<[[i32; 64]; 64]>,
}

fn lmr_table() -> Box<[[i32; 64]; 64]> {
    let mut t = Box::new([[0i32; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = ((d as f64).ln() * (m as f64).ln() / LMR_DIVISOR) as i32;
        }
    }
    t
}

/// Depth skipping of helper threads (Lazy SMP): thread i skips some depths so the threads
/// spread over different iterations.
fn helper_skips(id: usize, depth: i32) -> bool {
    const SIZE: [i32; 8] = [1, 1, 2, 2, 2, 2, 3, 3];
    const PHASE: [i32; 8] = [0, 1, 0, 1, 2, 3, 0, 1];
    if id == 0 {
        return false;
    }
    let i = (id - 1) % 8;
    ((depth + PHASE[i]) / SIZE[i]) % 2 != 0
}

impl<'a> Worker<'a> {
    pub(crate) fn new(id: usize, board: Board, sh: &'a Shared<'a>) -> Worker<'a> {
        Worker {
            id,
            board,
            sh,
            stats: SearchStats::default(),
            flushed_nodes: 0,
            flushed_hits: 0,
            seldepth: 0,
            stopped: false,
            killers: [[Pos::NONE; 2]; MAX_PLY],
            history: Box::new([[0; NUM_CELLS]; 2]),
            pv: Box::new([[Pos::NONE; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
            lists: (0..MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            root: Vec::new(),
            vcf: VcfSearcher::new(),
            lmr: lmr_table(),
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
        if sh.stop.load(Ordering::Relaxed) || sh.internal_stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        if self.id == 0 && (sh.time.out_of_time() || sh.limits.nodes.is_some_and(|n| total >= n)) {
            self.stopped = true;
        }
        if self.stopped {
            sh.internal_stop.store(true, Ordering::Relaxed);
        }
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
        let mut list = Vec::new();
        if b.stone_count() == 0 {
            return vec![ScoredMove {
                pos: b.centre(),
                score: 0,
            }];
        }
        if b.threat_count(us, Pattern4::Five) > 0 {
            let mut pts = Vec::new();
            super::movegen::find_class(b, us, Pattern4::Five, &mut pts);
            return pts
                .into_iter()
                .map(|p| ScoredMove { pos: p, score: 0 })
                .collect();
        }
        if b.threat_count(them, Pattern4::Five) > 0 {
            let mut pts = Vec::new();
            super::movegen::find_class(b, them, Pattern4::Five, &mut pts);
            let legal: Vec<ScoredMove> = pts
                .into_iter()
                .filter(|&p| !(us == Color::Black && b.is_forbidden(p)))
                .map(|p| ScoredMove { pos: p, score: 0 })
                .collect();
            if !legal.is_empty() {
                return legal;
            }
            // lost anyway: fall through to any legal move
            gen_all(b, us, &mut list);
        } else if b.threat_count(us, Pattern4::Flex4) > 0 {
            let mut pts = Vec::new();
            super::movegen::find_class(b, us, Pattern4::Flex4, &mut pts);
            list = pts
                .into_iter()
                .map(|p| ScoredMove { pos: p, score: 0 })
                .collect();
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
            // every candidate excluded or forbidden: any legal empty point
            let pts: Vec<Pos> = b.points().filter(|&p| b.is_empty(p)).collect();
            for p in pts {
                let excluded = self.sh.options.exclude.contains(&p);
                if !excluded && !(us == Color::Black && b.is_forbidden(p)) {
                    list.push(ScoredMove { pos: p, score: 0 });
                }
            }
        }
        sort_moves(&mut list);
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
            for depth in 1..=max_depth {
                if helper_skips(self.id, depth) {
                    continue;
                }
                let nodes_before = self.totals().0;
                let mut delta = ASPIRATION_DELTA;
                let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH && !is_decisive(score)
                {
                    (
                        (score - delta).max(-INFINITE),
                        (score + delta).min(INFINITE),
                    )
                } else {
                    (-INFINITE, INFINITE)
                };
                let mut s;
                loop {
                    self.seldepth = 0;
                    s = self.root_search(alpha, beta, depth);
                    if self.stopped {
                        break;
                    }
                    if s <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (s - delta).max(-INFINITE);
                    } else if s >= beta {
                        beta = (s + delta).min(INFINITE);
                    } else {
                        break;
                    }
                    delta += delta / 2 + 8;
                    if delta > 1000 {
                        alpha = -INFINITE;
                        beta = INFINITE;
                    }
                }
                if self.stopped && completed > 0 {
                    break;
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

    fn root_search(&mut self, mut alpha: Score, beta: Score, depth: i32) -> Score {
        let all = self.sh.options.all_root_values;
        let orig_alpha = alpha;
        let mut best = -INFINITE;
        for e in &mut self.root {
            e.sort_score = -INFINITE;
        }
        for i in 0..self.root.len() {
            let m = self.root[i].rm.pos;
            self.board.play_unchecked(m);
            self.stats.nodes += 1;
            let v = if all {
                -self.search::<true>(-INFINITE, INFINITE, depth - 1, 1, false)
            } else if i == 0 {
                -self.search::<true>(-beta, -alpha, depth - 1, 1, false)
            } else {
                let v0 = -self.search::<false>(-alpha - 1, -alpha, depth - 1, 1, true);
                if v0 > alpha && v0 < beta {
                    -self.search::<true>(-beta, -alpha, depth - 1, 1, false)
                } else {
                    v0
                }
            };
            self.board.undo();
            if self.stopped {
                break;
            }
            let e = &mut self.root[i];
            let exact = all || i == 0 || v > alpha;
            e.rm.score = v;
            e.rm.depth = depth;
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
                let mut pv = vec![m];
                pv.extend_from_slice(&self.pv[1][1..self.pv_len[1].max(1)]);
                e.rm.pv = pv;
                e.sort_score = v;
            } else {
                e.rm.pv.truncate(1);
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
        let _ = orig_alpha;
        best
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, m: Pos) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// The position at the horizon: a bounded VCF check, then the static evaluation.
    fn leaf(&mut self, ply: usize) -> Score {
        let us = self.board.to_move();
        if VcfSearcher::has_four_moves(&self.board, us) {
            let found = self
                .vcf
                .search(&mut self.board, LEAF_VCF_FOURS, LEAF_VCF_NODES);
            let n = self.vcf.nodes();
            self.stats.nodes += n;
            self.stats.vcf_nodes += n;
            if let Some(line) = found {
                return win_in(ply as i32 + line.len() as i32 + 2);
            }
        }
        evaluate(&self.board)
    }

    fn search<const PV: bool>(
        &mut self,
        mut alpha: Score,
        mut beta: Score,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        if PV {
            self.pv_len[ply] = ply;
        }
        self.stats.nodes += 1;
        if self.stats.nodes % POLL_INTERVAL == 0 {
            self.poll();
        }
        if self.stopped {
            return 0;
        }
        if ply as i32 > self.seldepth {
            self.seldepth = ply as i32;
        }
        let p = ply as i32;
        let us = self.board.to_move();
        let them = us.opponent();

        // Step 1. We make five now.
        if self.board.threat_count(us, Pattern4::Five) > 0 {
            return win_in(p + 1);
        }
        if self.board.is_full() {
            return DRAW;
        }
        if ply >= MAX_PLY - 4 {
            return evaluate(&self.board);
        }
        // Step 2. Mate distance pruning.
        alpha = alpha.max(loss_in(p));
        beta = beta.min(win_in(p + 1));
        if alpha >= beta {
            return alpha;
        }
        // Step 3. The opponent threatens five: the block is forced (and searched one ply deeper).
        if self.board.threat_count(them, Pattern4::Five) > 0 {
            let mut pts = Vec::new();
            super::movegen::find_class(&self.board, them, Pattern4::Five, &mut pts);
            if pts.len() >= 2 {
                return loss_in(p + 2);
            }
            let Some(&blk) = pts.first() else {
                return evaluate(&self.board);
            };
            if us == Color::Black
                && self.board.rule() == Rule::Renju
                && self.board.is_forbidden(blk)
            {
                return loss_in(p + 2);
            }
            self.board.play_unchecked(blk);
            let v = -self.search::<PV>(-beta, -alpha, depth, ply + 1, !cut_node);
            self.board.undo();
            if PV && !self.stopped && v > alpha {
                self.update_pv(ply, blk);
            }
            return v;
        }
        // Step 4. We can make a straight four or a double four: five follows.
        if self.board.threat_count(us, Pattern4::Flex4) > 0 {
            return win_in(p + 3);
        }
        // Step 5. Transposition table.
        let key = self.board.key();
        let mut tt_move = Pos::NONE;
        let mut tt_eval = None;
        if let Some(h) = self.sh.tt.probe(key) {
            self.stats.tt_hits += 1;
            if h.mv.is_point() && self.board.contains(h.mv) && self.board.is_empty(h.mv) {
                tt_move = h.mv;
            }
            let s = from_tt(h.score, p);
            if !PV
                && h.depth >= depth
                && (h.bound == Bound::Exact
                    || (h.bound == Bound::Lower && s >= beta)
                    || (h.bound == Bound::Upper && s <= alpha))
            {
                return s;
            }
            tt_eval = Some(h.eval);
        }
        // Step 6. Horizon.
        if depth <= 0 {
            return self.leaf(ply);
        }
        let eval = tt_eval.unwrap_or_else(|| evaluate(&self.board));
        let them_threat = self.board.threat_count(them, Pattern4::Flex4) > 0;

        // Step 7. Whole-node pruning (no threats to answer, not near a proven result).
        if !PV && !them_threat && !is_decisive(beta) && !is_decisive(alpha) {
            if depth <= RFP_DEPTH && eval - RFP_MARGIN * depth >= beta {
                return eval;
            }
            if depth <= RAZOR_DEPTH && eval + RAZOR_MARGIN * depth <= alpha {
                let v = self.leaf(ply);
                if v <= alpha {
                    return v;
                }
            }
        }

        // Step 8. Moves.
        let mut list = std::mem::take(&mut self.lists[ply]);
        if them_threat {
            gen_defence(&mut self.board, us, &mut list);
        } else {
            gen_all(&mut self.board, us, &mut list);
        }
        if list.is_empty() {
            self.lists[ply] = list;
            return if them_threat { loss_in(p + 4) } else { eval };
        }
        let killers = self.killers[ply];
        let hist = &self.history[us.index()];
        for m in list.iter_mut() {
            if m.pos == tt_move {
                m.score = i32::MAX;
            } else {
                if m.pos == killers[0] || m.pos == killers[1] {
                    m.score += KILLER_BONUS;
                }
                m.score += hist[m.pos.index()] / 64;
            }
        }
        sort_moves(&mut list);

        let orig_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = Pos::NONE;
        let mut count = 0usize;
        let lmp_limit = LMP_BASE + (depth * depth) as usize;
        for i in 0..list.len() {
            let m = list[i].pos;
            let our_class = self.board.threat(m, us);
            let their_class = self.board.threat(m, them);
            let tactical = our_class >= Pattern4::Flex3 || their_class >= Pattern4::Flex3;
            count += 1;
            // Step 9. Move-level pruning of quiet moves once a non-losing move is known.
            if !PV && !them_threat && best > -WIN_MIN && !tactical && count > 1 {
                if depth <= LMP_DEPTH && count > lmp_limit {
                    continue;
                }
                if depth <= FUTILITY_DEPTH && eval + FUTILITY_MARGIN * depth <= alpha {
                    continue;
                }
            }
            self.board.play_unchecked(m);
            let nd = depth - 1;
            let mut v;
            if count == 1 {
                v = -self.search::<PV>(-beta, -alpha, nd, ply + 1, !PV && !cut_node);
            } else {
                // Step 10. Late move reductions.
                let mut r = 0;
                if depth >= 3 && count > if PV { 3 } else { 1 } && !tactical {
                    r = self.lmr[(depth as usize).min(63)][count.min(63)];
                    if !PV && cut_node {
                        r += 1;
                    }
                    if PV {
                        r -= 1;
                    }
                    r = r.clamp(0, nd - 1);
                }
                v = -self.search::<false>(-alpha - 1, -alpha, nd - r, ply + 1, true);
                if v > alpha && r > 0 {
                    v = -self.search::<false>(-alpha - 1, -alpha, nd, ply + 1, !cut_node);
                }
                if PV && v > alpha && v < beta {
                    v = -self.search::<true>(-beta, -alpha, nd, ply + 1, false);
                }
            }
            self.board.undo();
            if self.stopped {
                self.lists[ply] = list;
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
                        self.stats.cutoffs += 1;
                        if count == 1 {
                            self.stats.first_move_cutoffs += 1;
                        }
                        if !tactical {
                            let k = &mut self.killers[ply];
                            if k[0] != m {
                                k[1] = k[0];
                                k[0] = m;
                            }
                            let h = &mut self.history[us.index()][m.index()];
                            *h += depth * depth;
                            if *h > 1 << 20 {
                                for v in self.history[us.index()].iter_mut() {
                                    *v /= 2;
                                }
                            }
                        }
                        break;
                    }
                    alpha = v;
                }
            }
        }
        self.lists[ply] = list;
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
        self.sh
            .tt
            .store(key, best_move, to_tt(best, p), eval, depth, bound, PV);
        best
    }
}
