//! Iterative deepening: one iteration after another, each with an aspiration window around
//! the last value, until the depth, a stop or the time manager's verdict on the iterations so
//! far (`TimeManager::decide`: the time, a dominant move, a proven result) ends the search;
//! with Lazy SMP, iterations other threads completed are adopted instead of searched again.

use super::{RootEntry, Worker};
use crate::search::score::{is_decisive, Score, INFINITE};
use crate::search::time::{IterationRecord, StopReason, Verdict};
use crate::search::{RootMove, SearchEvent, SearchInfo, SearchResult, ValueBound, MAX_DEPTH};
use crate::types::Pos;
use std::sync::atomic::Ordering;

/// What iterative deepening has so far.
struct Progress {
    /// The deepest iteration completed (or adopted) and its value.
    completed: i32,
    score: Score,
    /// Each iteration's nodes over the previous iteration's.
    branching: Vec<f64>,
    /// The nodes of the last iteration (0: none to compare with).
    last_iter_nodes: u64,
    /// The last iteration reported.
    info: SearchInfo,
    /// Every iteration completed or adopted, for the time manager's stop rules.
    history: Vec<IterationRecord>,
}

impl Worker<'_> {
    /// Iterative deepening. Thread 0 reports and decides when to stop.
    pub(crate) fn iterate(&mut self, report: &mut dyn FnMut(SearchEvent<'_>)) -> SearchResult {
        self.init_root();
        let max_depth = self
            .sh
            .limits
            .depth
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_DEPTH);
        let mut pr = Progress {
            completed: 0,
            score: 0,
            branching: Vec::new(),
            last_iter_nodes: 0,
            info: SearchInfo {
                depth: 0,
                seldepth: 0,
                score: 0,
                nodes: 0,
                nps: 0,
                tt_hits: 0,
                elapsed_ms: 0,
                pv: Vec::new(),
                hashfull: 0,
            },
            history: Vec::new(),
        };
        if !self.root.is_empty() {
            let mut depth = 0;
            loop {
                depth = self.next_depth(depth, max_depth);
                if depth > max_depth {
                    break;
                }
                self.iter_depth = depth;
                self.eval_pct = self.params.nnue_eval_pct_at(depth);
                let nodes_before = self.totals().0;
                self.aspiration(depth, pr.score);
                if self.abandoned {
                    if let Some(d) = self.take_over_abandoned(&mut pr, report) {
                        depth = d;
                    }
                    self.poll();
                    if self.stopped {
                        break;
                    }
                    if self.id == 0 && self.sh.time.decide(&pr.history) != Verdict::Continue {
                        break;
                    }
                    continue;
                }
                if self.stopped && pr.completed > 0 {
                    break;
                }
                if self.stopped {
                    // stopped in this thread's first iteration, which may have begun deeper than
                    // depth 1 (Lazy SMP skips iterations other threads completed): their deepest
                    // result, when there is one, beats this unfinished one
                    if let Some((d, v)) = self.adopt_and_report(&mut pr.info, report) {
                        pr.completed = d;
                        pr.score = v;
                        break;
                    }
                }
                self.complete_iteration(depth, nodes_before, &mut pr, report);
                if self.ends_search(depth, max_depth, &pr.history) {
                    break;
                }
            }
        }
        self.result(pr)
    }

    /// The root list from the root candidates, none with a value yet.
    fn init_root(&mut self) {
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
    }

    /// The depth of the next iteration after `depth`.
    fn next_depth(&self, depth: i32, max_depth: i32) -> i32 {
        // Lazy SMP: an iteration another thread has completed is not searched again, and a
        // helper works one iteration ahead of the main thread, filling the shared table for
        // the main thread's next iteration.
        let mut depth = (depth + 1).max(self.sh.completed_any.load(Ordering::Relaxed) as i32 + 1);
        if self.id == 0 {
            self.sh.main_depth.store(depth as u64, Ordering::Relaxed);
        } else {
            let ahead = self.sh.main_depth.load(Ordering::Relaxed) as i32 + 1;
            depth = depth.max(ahead).min(max_depth);
        }
        depth
    }

    /// One iteration: root searches in an aspiration window around `score`, the last
    /// iteration's value, widened until the value falls inside (or the search stops).
    fn aspiration(&mut self, depth: i32, score: Score) {
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
        // a re-search after a fail-high goes a ply shallower per fail-high (the iteration
        // still counts as `depth`): a root that fails high has found something, and
        // proving its exact value at full depth costs up to nine times the first try on
        // the bench (2-thread ratio 1.48x against 1.40x over 12 runs; self-play 161.5/320
        // on one and two threads)
        let mut failed_high = 0;
        loop {
            self.seldepth = 0;
            let d = (depth - failed_high * self.params.aspiration_fail_high_reduce).max(1);
            let s = self.root_search(alpha, beta, d);
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
    }

    /// After an iteration abandoned because another thread completed it (Lazy SMP): this
    /// thread takes over the deepest iteration completed, if any, and goes on from its depth,
    /// which it returns.
    fn take_over_abandoned(
        &mut self,
        pr: &mut Progress,
        report: &mut dyn FnMut(SearchEvent<'_>),
    ) -> Option<i32> {
        self.stopped = false;
        self.abandoned = false;
        self.iter_depth = 0;
        pr.last_iter_nodes = 0;
        let (d, v) = self.adopt_and_report(&mut pr.info, report)?;
        pr.completed = d;
        pr.score = v;
        self.record(d, pr);
        if self.id == 0 {
            self.sh.completed_depth.store(d as u64, Ordering::Relaxed);
        }
        Some(d)
    }

    /// Takes the result of iteration `depth` (which began at `nodes_before` nodes): its
    /// value and branching factor; the main thread reports it; a complete iteration is
    /// offered to the other threads as the deepest.
    fn complete_iteration(
        &mut self,
        depth: i32,
        nodes_before: u64,
        pr: &mut Progress,
        report: &mut dyn FnMut(SearchEvent<'_>),
    ) {
        pr.completed = depth;
        pr.score = self.root[0].rm.score;
        self.record(depth, pr);
        let (nodes, hits) = self.totals();
        let iter_nodes = nodes - nodes_before;
        if pr.last_iter_nodes > 0 {
            pr.branching
                .push(iter_nodes as f64 / pr.last_iter_nodes as f64);
        }
        pr.last_iter_nodes = iter_nodes;
        if self.id == 0 {
            let elapsed_ms = self.sh.time.elapsed_ms();
            pr.info = SearchInfo {
                depth,
                seldepth: self.seldepth.max(depth),
                score: pr.score,
                nodes,
                nps: nodes * 1000 / elapsed_ms.max(1),
                tt_hits: hits,
                elapsed_ms,
                pv: self.root[0].rm.pv.clone(),
                hashfull: self.sh.tt.hashfull(),
            };
            report(SearchEvent::Iteration(&pr.info));
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
    }

    /// Adds iteration `depth`, whose best move heads the root list and whose value is
    /// `pr.score`, to the history the stop rules read.
    fn record(&self, depth: i32, pr: &mut Progress) {
        pr.history.push(IterationRecord {
            depth,
            best: self.root[0].rm.pos,
            score: pr.score,
            elapsed: self.sh.time.elapsed(),
        });
    }

    /// Whether the search ends after iteration `depth` (the last of `history`): the depth
    /// limit (which stops every thread), a stop, a single root move, or the time manager's
    /// verdict: a proven result that cannot change any more ends every thread's search, the
    /// time rules the main thread's.
    fn ends_search(&self, depth: i32, max_depth: i32, history: &[IterationRecord]) -> bool {
        if depth >= max_depth {
            // any thread reaching the depth limit ends the search
            self.sh.internal_stop.store(true, Ordering::Relaxed);
            return true;
        }
        if self.stopped {
            return true;
        }
        if self.root.len() == 1 && self.sh.time.is_timed() && depth >= 2 {
            return true;
        }
        match self.sh.time.decide(history) {
            Verdict::Continue => false,
            Verdict::Stop(StopReason::Proven) => true,
            Verdict::Stop(_) => self.id == 0,
        }
    }

    /// The search's result: the best root move with its value and line, and the counters.
    fn result(&mut self, pr: Progress) -> SearchResult {
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
            score: best.as_ref().map_or(0, |r| {
                if r.score == -INFINITE {
                    pr.score
                } else {
                    r.score
                }
            }),
            depth: pr.completed,
            seldepth: pr.info.seldepth.max(pr.completed),
            pv: best.map_or_else(Vec::new, |r| r.pv),
            root_moves: self.root.iter().map(|e| e.rm.clone()).collect(),
            stats,
            branching: pr.branching,
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
}
