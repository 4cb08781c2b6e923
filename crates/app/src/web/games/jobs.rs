//! The engine's searches: each runs on a thread of its own as the slot's one job (a move, a
//! hint, an analysis, a review, a solve or a swap2 decision), with an engine from a shared
//! pool, and hands its result back to the slot under its lock.

use super::analysis::ANALYSIS_MS;
use super::info::{Candidate, EngineInfo, CANDIDATES};
use super::{lock, Level, MoveRecord, Player, Purpose, ServerEvent, Slot};
use crate::web::error::ApiError;
use gomoku_engine::search::{is_decisive, Score};
use gomoku_engine::study::{Greedy, PatternEval, Searcher};
use gomoku_engine::vcf::{complete_win, VcfSearcher};
use gomoku_engine::{
    Color, Engine, EngineConfig, Limits, Pos, SearchEvent, SearchOptions, SearchResult,
};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Instant;

#[derive(Debug)]
pub(super) struct Job {
    pub(super) id: u64,
    pub(super) purpose: Purpose,
    pub(super) color: Color,
    pub(super) stop: Arc<AtomicBool>,
    pub(super) started: Instant,
}

/// Idle engines, reused between searches so that tables are allocated once, not per move.
#[derive(Debug)]
pub struct EnginePool {
    pub(super) idle: Mutex<Vec<(Engine, u64)>>,
    pub(super) config: EngineConfig,
}

/// Engines kept allocated while idle.
const POOL_KEEP: usize = 2;

impl EnginePool {
    pub(super) fn new(config: EngineConfig) -> EnginePool {
        EnginePool {
            idle: Mutex::new(Vec::new()),
            config,
        }
    }

    /// An engine for game `serial`: the one it used last if idle (its table still helps),
    /// otherwise any idle engine with a cleared table, otherwise a new one.
    pub(super) fn take(&self, serial: u64) -> Engine {
        let mut idle = lock(&self.idle);
        if let Some(i) = idle.iter().position(|(_, s)| *s == serial) {
            return idle.swap_remove(i).0;
        }
        if let Some((mut e, _)) = idle.pop() {
            // tables are not keyed by rule or size, so another game's entries must go
            e.clear_hash();
            return e;
        }
        drop(idle);
        Engine::new(self.config.clone())
    }

    pub(super) fn put(&self, engine: Engine, serial: u64) {
        let mut idle = lock(&self.idle);
        if idle.len() < POOL_KEEP {
            idle.push((engine, serial));
        }
    }
}

/// The longest line seen for each first move during a search. An iteration's line can stop
/// short where the search took a value from its table instead of searching on (two moves at
/// depth 22); when it is the start of a line seen before, that line goes on as it was seen.
/// A proven win's line goes on to the five ([`Lines::whole`]), with the VCF searcher kept here.
#[derive(Debug, Default)]
struct Lines(HashMap<Pos, Vec<Pos>>, Option<Box<VcfSearcher>>);

/// Nodes of each VCF that carries a proven win's line on (see [`complete_win`]).
pub(super) const WIN_LINE_NODES: u64 = 20_000;

impl Lines {
    /// Plays `pv`, a line from `board` of value `score`, on to the five when it is a proven
    /// win (a search's line stops at a four that cannot be stopped, or sooner).
    fn whole(&mut self, board: &gomoku_engine::Board, pv: &mut Vec<Pos>, score: Score) {
        if score > 0 && is_decisive(score) {
            let vcf = self.1.get_or_insert_with(|| Box::new(VcfSearcher::new()));
            *pv = complete_win(board, pv, vcf, WIN_LINE_NODES);
        }
    }

    /// Lengthens `pv` by the line seen before, when `pv` is its start; otherwise `pv` is
    /// the line from now on.
    fn fill(&mut self, pv: &mut Vec<Pos>) {
        let Some(&first) = pv.first() else {
            return;
        };
        let known = self.0.entry(first).or_default();
        if known.len() > pv.len() && known.starts_with(pv) {
            pv.clone_from(known);
        } else {
            known.clone_from(pv);
        }
    }

    /// The line seen for `first`, or `first` alone.
    fn of(&self, first: Pos) -> Vec<Pos> {
        self.0.get(&first).cloned().unwrap_or_else(|| vec![first])
    }
}

/// Kept off the engine's time left on the clock (the move's way from the search to the game).
const CLOCK_MARGIN_MS: u64 = 50;

/// What a search thread needs.
struct SearchCtx {
    pub(super) me: Weak<Mutex<Slot>>,
    pub(super) pool: Arc<EnginePool>,
    pub(super) serial: u64,
    pub(super) job: u64,
    pub(super) purpose: Purpose,
    pub(super) color: Color,
    pub(super) size: usize,
    /// Root moves the search leaves out (an analysis's excluded points).
    pub(super) exclude: Vec<Pos>,
}

impl SearchCtx {
    fn run(
        &self,
        board: &gomoku_engine::Board,
        level: Level,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> (SearchResult, String) {
        let analysis = self.purpose == Purpose::Analysis;
        let options = SearchOptions {
            all_root_values: analysis,
            // exact values for the candidates shown, bounds for the rest: a deeper analysis
            exact_moves: CANDIDATES,
            exclude: self.exclude.clone(),
            ..SearchOptions::default()
        };
        let name = match level {
            Level::Greedy => Greedy { eval: PatternEval }.name(),
            _ => "pvs".to_string(),
        };
        // the latest progress line, sent again with the candidates when they follow it
        let mut last: Option<EngineInfo> = None;
        let mut lines = Lines::default();
        let mut report = |ev: SearchEvent<'_>| {
            let info = match ev {
                SearchEvent::Iteration(i) => {
                    let mut i = i.clone();
                    lines.fill(&mut i.pv);
                    lines.whole(board, &mut i.pv, i.score);
                    let mut info =
                        EngineInfo::from_iteration(self.purpose, self.color, &i, self.size, &name);
                    if let Some(prev) = &last {
                        info.candidates.clone_from(&prev.candidates);
                    }
                    info
                }
                SearchEvent::RootMoves { moves, .. } if analysis => {
                    let Some(mut info) = last.clone() else {
                        return;
                    };
                    let mut moves = moves.to_vec();
                    for m in &mut moves {
                        lines.fill(&mut m.pv);
                        lines.whole(board, &mut m.pv, m.score);
                    }
                    info.candidates = Candidate::list(&moves, self.size);
                    info
                }
                SearchEvent::RootMoves { .. } => return,
            };
            last = Some(info.clone());
            if let Some(slot) = self.me.upgrade() {
                lock(&slot).progress(self.job, info);
            } else {
                // the game is gone: nobody needs the rest of this search
                stop.store(true, Ordering::Relaxed);
            }
        };
        let mut result = if level == Level::Greedy {
            Greedy { eval: PatternEval }.search(board, limits, &options, stop, &mut report)
        } else {
            let mut engine = self.pool.take(self.serial);
            let r = engine.search(board, limits, &options, stop, &mut report);
            // hand the engine back so that its table is reused by the next move
            self.pool.put(engine, self.serial);
            r
        };
        // the move played leads its line, whatever the last iteration's line was
        if result.pv.first() != Some(&result.best_move) && result.best_move.is_point() {
            result.pv = lines.of(result.best_move);
        }
        lines.fill(&mut result.pv);
        lines.whole(board, &mut result.pv, result.score);
        for m in &mut result.root_moves {
            lines.fill(&mut m.pv);
            lines.whole(board, &mut m.pv, m.score);
        }
        (result, name)
    }
}

impl Slot {
    /// Stops and forgets the running search, if any (its result will be ignored).
    pub(super) fn cancel_job(&mut self) {
        if let Some(job) = self.job.take() {
            job.stop.store(true, Ordering::Relaxed);
        }
        self.live = None;
    }

    /// Starts the engine if it is to move in a game still going (or to act in the opening),
    /// otherwise the analysis if it is on.
    pub(super) fn maybe_start_engine(&mut self) {
        if self.renju_active() {
            if self.job.is_none()
                && self
                    .renju
                    .as_ref()
                    .is_some_and(|r| r.actor() == Player::Engine)
            {
                if let Err(e) = self.start_renju_job() {
                    self.error = Some(e.message);
                }
            }
            return;
        }
        if let Some(o) = &self.opening {
            if self.job.is_none() && o.actor() == Player::Engine {
                if let Err(e) = self.start_swap2_job() {
                    self.error = Some(e.message);
                }
            }
            return;
        }
        let to_move = self.game.board().to_move();
        if self.job.is_none()
            && !self.hold
            && !self.is_over()
            && !self.game.board().is_full()
            && self.player(to_move) == Player::Engine
        {
            if let Err(e) = self.start_job(Purpose::Move) {
                self.error = Some(e.message);
            }
        }
        self.maybe_analyze();
    }

    /// Starts analysing the position when analysis is on, the engine idle and the position
    /// not analysed yet (a finished or stopped analysis stays until the position changes).
    pub(super) fn maybe_analyze(&mut self) {
        if self.analyze
            && self.job.is_none()
            && self.opening.is_none()
            && !self.renju_active()
            && self.analysis.is_none()
            && !self.is_over()
            && !self.game.board().is_full()
        {
            if let Err(e) = self.start_job(Purpose::Analysis) {
                self.error = Some(e.message);
            }
        }
    }

    /// Starts a search for the side to move on a thread of its own.
    pub(super) fn start_job(&mut self, purpose: Purpose) -> Result<(), ApiError> {
        let board = self.game.board().clone();
        let color = board.to_move();
        let size = board.size();
        // hints and analyses always use the full search: a greedy suggestion would mislead
        let level = if purpose == Purpose::Move {
            self.level
        } else {
            Level::Max
        };
        // a move on the clock: the time left for the game too
        let clock_left = match (purpose, self.clock_running(), &self.clock) {
            (Purpose::Move, Some(c), Some(clock)) => Some(clock.left_after(c, self.turn_ms())),
            _ => None,
        };
        let mut limits = self.search_limits(if purpose == Purpose::Analysis {
            ANALYSIS_MS
        } else {
            self.time_ms
        });
        limits.depth = level.depth();
        if limits.move_time_ms.is_some() {
            limits.game_time_left_ms = clock_left;
            limits.margin_ms = if clock_left.is_some() {
                CLOCK_MARGIN_MS
            } else {
                0
            };
        }
        let mut ctx = SearchCtx {
            me: self.me.clone(),
            pool: self.pool.clone(),
            serial: self.serial,
            job: 0,
            purpose,
            color,
            size,
            exclude: if purpose == Purpose::Analysis {
                self.excluded().to_vec()
            } else {
                Vec::new()
            },
        };
        self.spawn_job(
            purpose,
            move |id, stop| {
                ctx.job = id;
                ctx.run(&board, level, &limits, stop)
            },
            Slot::finish_job,
        )
    }

    /// The limits of a search that may take `time_ms`: that time, or the node limit instead
    /// when the server has one.
    pub(super) fn search_limits(&self, time_ms: u64) -> Limits {
        match self.node_limit {
            Some(nodes) => Limits {
                nodes: Some(nodes),
                ..Limits::default()
            },
            None => Limits {
                move_time_ms: Some(time_ms),
                ..Limits::default()
            },
        }
    }

    /// Runs `work` on a thread of its own as the slot's job (`work` gets the job's id and stop
    /// flag), then hands its result to `finish` under the slot's lock (`None` if it panicked).
    /// Nothing is handed over once the game is removed.
    pub(super) fn spawn_job<R: Send + 'static>(
        &mut self,
        purpose: Purpose,
        work: impl FnOnce(u64, &AtomicBool) -> R + Send + 'static,
        finish: fn(&mut Slot, u64, Option<R>),
    ) -> Result<(), ApiError> {
        self.next_job += 1;
        let id = self.next_job;
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = stop.clone();
        let me = self.me.clone();
        #[cfg(test)]
        let turn = self.gate.as_ref().map(|g| (g.clone(), g.ticket()));
        std::thread::Builder::new()
            .name(format!("gomoku-{}", purpose.name()))
            .spawn(move || {
                #[cfg(test)]
                if let Some((gate, ticket)) = &turn {
                    gate.wait_turn(*ticket);
                }
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    work(id, &thread_stop)
                }));
                if let Some(slot) = me.upgrade() {
                    finish(&mut lock(&slot), id, result.ok());
                }
                #[cfg(test)]
                if let Some((gate, _)) = &turn {
                    gate.done();
                }
            })
            .map_err(ApiError::internal)?;
        self.job = Some(Job {
            id,
            purpose,
            color: self.game.board().to_move(),
            stop,
            started: Instant::now(),
        });
        self.live = None;
        self.error = None;
        Ok(())
    }

    /// Takes the result of search `job` (ignored if the job was cancelled meanwhile).
    fn finish_job(&mut self, job: u64, result: Option<(SearchResult, String)>) {
        let Some(current) = self.job.take_if(|j| j.id == job) else {
            return;
        };
        self.live = None;
        let size = self.size();
        match result {
            None => self.error = Some("the engine failed on this position".to_string()),
            Some((r, engine)) => {
                let info =
                    EngineInfo::from_result(current.purpose, current.color, &r, size, &engine);
                // a proof stays with the position (not the one-ply player's guess; an
                // analysis that left points out proves a win, but not a loss: a point left
                // out might have saved the game)
                let sound = match current.purpose {
                    Purpose::Move => self.level != Level::Greedy,
                    Purpose::Analysis => r.score > 0 || self.excluded().is_empty(),
                    _ => true,
                };
                if sound {
                    self.tree.prove(r.score, r.best_move);
                }
                match current.purpose {
                    Purpose::Hint => self.hint = Some(info),
                    Purpose::Analysis => {
                        self.persist_analysis(&info);
                        self.analysis = Some(info);
                    }
                    // openings and reviews end in `finish_swap2`, `finish_renju` and
                    // `finish_review`
                    Purpose::Swap2 | Purpose::Opening | Purpose::Review | Purpose::Solve => {}
                    Purpose::Move => {
                        let running = self.clock_running();
                        let used = self.turn_ms();
                        if self.check_flag() {
                            // the time ran out first: the game is over, the move is not played
                            return;
                        }
                        if !r.best_move.is_point() || self.game.play(r.best_move).is_err() {
                            self.error = Some("the engine found no move".to_string());
                        } else {
                            self.charge_move(running, used);
                            self.analysis = None;
                            self.tree.push(MoveRecord {
                                pos: r.best_move,
                                ms: r.elapsed_ms,
                                engine: Some(info),
                            });
                            self.turn_started = Instant::now();
                        }
                    }
                }
            }
        }
        self.changed();
        if current.purpose == Purpose::Move && self.error.is_none() {
            self.maybe_start_engine();
            if self.job.is_some() {
                self.changed();
            }
        }
    }

    /// Publishes live progress of search `job`.
    fn progress(&mut self, job: u64, info: EngineInfo) {
        if self.job.as_ref().is_some_and(|j| j.id == job) {
            // the page shows what the state would: a proof from up the game included
            let shown = info.with_proof(self.proof_here());
            if let Ok(json) = serde_json::to_string(&shown) {
                let _ = self.tx.send(ServerEvent::Info(json.into()));
            }
            self.live = Some(info);
        }
    }
}

/// Holds the jobs of a set of games (tests only): each job waits for its turn before it starts,
/// and [`JobGate::run_all`] lets them run one at a time, in the order they were started, so
/// that what a test sees does not depend on how the threads are scheduled.
#[cfg(test)]
#[derive(Debug, Default)]
pub(super) struct JobGate {
    /// Jobs started, let run, and finished (each job's ticket is its start number).
    counts: Mutex<(u64, u64, u64)>,
    changed: std::sync::Condvar,
}

#[cfg(test)]
impl JobGate {
    /// The ticket of a job being started.
    fn ticket(&self) -> u64 {
        let mut c = lock(&self.counts);
        c.0 += 1;
        c.0
    }

    /// Waits until the job with `ticket` may run.
    fn wait_turn(&self, ticket: u64) {
        let mut c = lock(&self.counts);
        while c.1 < ticket {
            c = self
                .changed
                .wait(c)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    /// Notes that a job has finished (its result handed over).
    fn done(&self) {
        lock(&self.counts).2 += 1;
        self.changed.notify_all();
    }

    /// Lets the waiting jobs run one after the other, each to its end, until none is left
    /// (jobs that those start included).
    pub(super) fn run_all(&self) {
        let mut c = lock(&self.counts);
        while c.2 < c.0 {
            c.1 = c.2 + 1;
            self.changed.notify_all();
            let turn = c.1;
            while c.2 < turn {
                c = self
                    .changed
                    .wait(c)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_cut_short_goes_on_as_seen_before() {
        let p = |x: usize| Pos::new(x, 0);
        let mut lines = Lines::default();
        let mut first = vec![p(1), p(2), p(3), p(4)];
        lines.fill(&mut first);
        let mut short = vec![p(1), p(2)];
        lines.fill(&mut short);
        assert_eq!(short, [p(1), p(2), p(3), p(4)]);
        // a line that leaves the one seen replaces it
        let mut other = vec![p(1), p(5)];
        lines.fill(&mut other);
        assert_eq!(other, [p(1), p(5)]);
        assert_eq!(lines.of(p(1)), [p(1), p(5)]);
        assert_eq!(lines.of(p(9)), [p(9)]);
    }
}
