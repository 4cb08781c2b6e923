//! Puzzle solving: proves a forced win of the side to move with the threat searches, and
//! returns the winning line. The entry point of `gomoku solve`.

use crate::board::Board;
use crate::search::score::WIN_MIN;
use crate::search::{Engine, EngineConfig, Limits, SearchEvent, SearchOptions, SearchParams};
use crate::types::Pos;
use crate::vct::{ThreatSearchers, VctLimits};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What kind of win to look for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SolveTask {
    /// Victory by continuous fours only.
    Vcf,
    /// Victory by continuous threats (fours and threes); a VCF counts.
    Vct,
    /// Any forced win: found by the threat searches (VCF, then VCT) or proven by the main
    /// search.
    Win,
}

impl SolveTask {
    /// Reads a `task=` value of the datasets (`vcf`, `vct`, `win_in_3`, ...).
    #[must_use]
    pub fn from_key(value: &str) -> Option<SolveTask> {
        match value {
            "vcf" => Some(SolveTask::Vcf),
            "vct" => Some(SolveTask::Vct),
            "win" | "win_in_3" | "win_in_2" | "win_in_4" | "win_in_5" => Some(SolveTask::Win),
            _ => None,
        }
    }
}

/// Which search proved the win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SolveMethod {
    /// Continuous fours.
    Vcf,
    /// Continuous threats.
    Vct,
    /// The main search proved a win (its principal variation is the line).
    Search,
}

impl SolveMethod {
    /// Lower-case name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            SolveMethod::Vcf => "vcf",
            SolveMethod::Vct => "vct",
            SolveMethod::Search => "search",
        }
    }
}

/// Budget of one solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveLimits {
    /// Wall-clock budget in milliseconds.
    pub time_ms: Option<u64>,
    /// Node budget (per search).
    pub nodes: Option<u64>,
    /// Run the VCT and the main search at the same time on two threads, each with all the
    /// time left after the VCF, instead of one after the other.
    pub concurrent: bool,
}

impl Default for SolveLimits {
    fn default() -> Self {
        SolveLimits {
            time_ms: Some(1000),
            nodes: None,
            concurrent: false,
        }
    }
}

/// The answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveResult {
    /// The winning line (attacker and defender alternating), empty when not solved.
    pub line: Vec<Pos>,
    /// Which search proved it, `None` when not solved.
    pub method: Option<SolveMethod>,
    /// Nodes visited by all searches.
    pub nodes: u64,
    /// Milliseconds used.
    pub elapsed_ms: u64,
}

impl SolveResult {
    /// Whether a win was proven.
    #[must_use]
    pub fn solved(&self) -> bool {
        self.method.is_some()
    }

    /// The first move of the win.
    #[must_use]
    pub fn first_move(&self) -> Option<Pos> {
        self.line.first().copied()
    }
}

/// A reusable solver (keeps the threat searchers' tables allocated).
#[derive(Debug, Default)]
pub struct Solver {
    threats: ThreatSearchers,
    engine: Option<Box<Engine>>,
}

/// The solver's main search keeps late move reductions in sixteenths of a ply: the whole-ply
/// reductions of play (which share the table better between threads and iterations) reduce
/// more and proved 186 of the 212 positions of `renju-vct.txt` at 1 s against 190-191. It also
/// keeps re-searching a reduced move that fails high at full depth (the solver's figures were
/// measured so), where play re-searches narrow fail-highs a ply short.
fn new_engine() -> Box<Engine> {
    let mut engine = Box::new(Engine::new(EngineConfig {
        hash_mb: 16,
        threads: 1,
    }));
    engine.set_params(SearchParams {
        lmr_whole_plies: false,
        lmr_shallower_margin: 0,
        ..SearchParams::default()
    });
    engine
}

/// The main search's options in the solver: the solver runs the VCT itself, so the search
/// skips its own short one at the root.
fn search_options() -> SearchOptions {
    SearchOptions {
        no_root_vct: true,
        no_defence_vct: true,
        ..SearchOptions::default()
    }
}

/// Longest VCF tried: enough fours to fill any board.
const VCF_MAX_FOURS: i32 = 250;

impl Solver {
    /// A solver.
    #[must_use]
    pub fn new() -> Solver {
        Solver::default()
    }

    /// Tries to prove a win of `task`'s kind for the side to move of `board`.
    pub fn solve(&mut self, board: &Board, task: SolveTask, limits: SolveLimits) -> SolveResult {
        self.solve_stoppable(board, task, limits, &AtomicBool::new(false))
    }

    /// [`Solver::solve`] that gives up within a few milliseconds of `stop` becoming true, with
    /// what it has proven by then (usually nothing).
    pub fn solve_stoppable(
        &mut self,
        board: &Board,
        task: SolveTask,
        limits: SolveLimits,
        stop: &AtomicBool,
    ) -> SolveResult {
        // set up once, before the clock starts (the table's allocation is not this position's)
        if task != SolveTask::Vcf {
            // a fresh table for this position (clearing it takes a few milliseconds)
            self.engine.get_or_insert_with(new_engine).clear_hash();
            self.threats.vct().clear();
        }
        self.threats.vcf.clear();
        let start = Instant::now();
        // a small margin, so that the searches' own stopping latency stays within the budget
        let limits = SolveLimits {
            time_ms: limits.time_ms.map(|t| t - t / 20),
            ..limits
        };
        let mut b = board.clone();
        self.threats.prepare(board);
        let vcf_nodes = limits.nodes.unwrap_or(u64::MAX);
        // the VCF gets the whole budget when only a VCF counts, a share otherwise (the VCT
        // looks for VCFs at every node too)
        let vcf_ms = match task {
            SolveTask::Vcf => limits.time_ms,
            _ => limits.time_ms.map(|t| t / 10),
        };
        let vcf = self
            .threats
            .vcf
            .search_stoppable(&mut b, VCF_MAX_FOURS, vcf_nodes, vcf_ms, stop);
        let mut nodes = self.threats.vcf.nodes();
        let result = |line: Vec<Pos>, method, nodes| SolveResult {
            line,
            method,
            nodes,
            elapsed_ms: start.elapsed().as_millis() as u64,
        };
        if let Some(line) = vcf {
            return result(line, Some(SolveMethod::Vcf), nodes);
        }
        if task == SolveTask::Vcf {
            return result(Vec::new(), None, nodes);
        }
        let left = || {
            limits
                .time_ms
                .map(|t| t.saturating_sub(start.elapsed().as_millis() as u64))
        };
        if limits.concurrent {
            let (line, method, n) = self.vct_and_search(board, &mut b, left(), limits.nodes, stop);
            return result(line, method, nodes + n);
        }
        if let Some(line) = self.vct_for(&mut b, left(), limits.nodes, stop, &mut nodes) {
            return result(line, Some(SolveMethod::Vct), nodes);
        }
        // the rest of the time: the main search, whose proven wins count too
        if let Some(line) = self.search_for(board, left(), limits.nodes, stop, &mut nodes) {
            return result(line, Some(SolveMethod::Search), nodes);
        }
        result(Vec::new(), None, nodes)
    }

    /// The VCT of `b` within half the `left` milliseconds and `max_nodes`: its line if it
    /// proves a win; its nodes are added to `nodes`. Nothing is searched when no time is left
    /// or `stop` is set.
    ///
    /// Half: the main search proves wins the VCT does not reach (over renju-vct.txt at 1 s,
    /// alone it proves 173 and the VCT alone 178, with 10 of its wins outside the VCT's), and
    /// the halves solved the most.
    fn vct_for(
        &mut self,
        b: &mut Board,
        left: Option<u64>,
        max_nodes: Option<u64>,
        stop: &AtomicBool,
        nodes: &mut u64,
    ) -> Option<Vec<Pos>> {
        if left == Some(0) || stop.load(Ordering::Relaxed) {
            return None;
        }
        let res = self.threats.vct().search_stoppable(
            b,
            VctLimits {
                max_depth: 40,
                max_nodes: max_nodes.unwrap_or(u64::MAX),
                max_ms: left.map(|t| t / 2),
            },
            stop,
        );
        *nodes += res.nodes;
        res.line
    }

    /// The main search of `board` for `left` milliseconds and `max_nodes`: its line if it
    /// proves a win; its nodes are added to `nodes`. Nothing is searched when no time is left
    /// or `stop` is set.
    fn search_for(
        &mut self,
        board: &Board,
        left: Option<u64>,
        max_nodes: Option<u64>,
        stop: &AtomicBool,
        nodes: &mut u64,
    ) -> Option<Vec<Pos>> {
        if left == Some(0) || stop.load(Ordering::Relaxed) {
            return None;
        }
        let engine = self.engine.get_or_insert_with(new_engine);
        let res = engine.search(
            board,
            &Limits {
                move_time_ms: left,
                nodes: max_nodes,
                // no iteration after 70%, so that the search ends inside the time
                iteration_start_pct: Some(70),
                ..Limits::default()
            },
            // the VCT has had its turn: the search does not repeat it
            &search_options(),
            stop,
            &mut |_| {},
        );
        *nodes += res.stats.nodes;
        (res.score >= WIN_MIN && !res.pv.is_empty()).then_some(res.pv)
    }
}

impl Solver {
    /// The VCT on this thread and the main search on another, both for `left` milliseconds;
    /// the first to prove a win stops the other, and `stop` both. The line, the method that
    /// proved it (a VCT line is preferred), and the nodes of both.
    fn vct_and_search(
        &mut self,
        board: &Board,
        b: &mut Board,
        left: Option<u64>,
        nodes: Option<u64>,
        stop: &AtomicBool,
    ) -> (Vec<Pos>, Option<SolveMethod>, u64) {
        if left == Some(0) || stop.load(Ordering::Relaxed) {
            return (Vec::new(), None, 0);
        }
        let engine: &mut Engine = self.engine.get_or_insert_with(new_engine);
        let vct = self.threats.vct();
        let stop_vct = AtomicBool::new(false);
        let stop_search = AtomicBool::new(false);
        let start = Instant::now();
        let finished = AtomicBool::new(false);
        let (v, r) = std::thread::scope(|s| {
            // passes `stop` on to both searches
            s.spawn(|| {
                while !finished.load(Ordering::Relaxed) {
                    if stop.load(Ordering::Relaxed) {
                        stop_vct.store(true, Ordering::Relaxed);
                        stop_search.store(true, Ordering::Relaxed);
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
            });
            let searcher = s.spawn(|| {
                engine.search(
                    board,
                    &Limits {
                        // the search starts no iteration after 70% of its move time, and
                        // here its time is not saved for later moves: it gets 10/7 of what
                        // is left, and this thread stops it when that runs out
                        move_time_ms: left.map(|t| t * 10 / 7),
                        nodes,
                        iteration_start_pct: Some(70),
                        ..Limits::default()
                    },
                    // the VCT runs on this thread: the search does not repeat it
                    &search_options(),
                    &stop_search,
                    &mut |ev| {
                        if let SearchEvent::Iteration(info) = ev {
                            if info.score >= WIN_MIN {
                                // proven: both searches end here (iterating on would only
                                // shorten the line, and a later iteration could lose the
                                // win to the pruning while the VCT no longer runs)
                                stop_vct.store(true, Ordering::Relaxed);
                                stop_search.store(true, Ordering::Relaxed);
                            }
                        }
                    },
                )
            });
            let v = vct.search_stoppable(
                b,
                VctLimits {
                    max_depth: 40,
                    max_nodes: nodes.unwrap_or(u64::MAX),
                    max_ms: left,
                },
                &stop_vct,
            );
            if v.line.is_some() {
                stop_search.store(true, Ordering::Relaxed);
            } else if let Some(t) = left {
                // the VCT gave up (out of time, or nothing within its depth): the search goes
                // on until the time is up
                while !searcher.is_finished() {
                    if start.elapsed().as_millis() as u64 >= t {
                        stop_search.store(true, Ordering::Relaxed);
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
            }
            let r = searcher.join().ok();
            finished.store(true, Ordering::Relaxed);
            (v, r)
        });
        let n = v.nodes + r.as_ref().map_or(0, |r| r.stats.nodes);
        if let Some(line) = v.line {
            return (line, Some(SolveMethod::Vct), n);
        }
        match r {
            Some(r) if r.score >= WIN_MIN && !r.pv.is_empty() => {
                (r.pv, Some(SolveMethod::Search), n)
            }
            _ => (Vec::new(), None, n),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;

    fn board(rule: Rule, moves: &str) -> Board {
        crate::game::test_board(15, rule, moves)
    }

    #[test]
    fn the_concurrent_solver_proves_wins_and_only_wins() {
        let mut s = Solver::new();
        let limits = SolveLimits {
            time_ms: Some(2000),
            nodes: None,
            concurrent: true,
        };
        let win = board(Rule::Renju, "j9 j11 g8 i9 h8 k8 j8 h6");
        let r = s.solve(&win, SolveTask::Vct, limits);
        assert!(r.solved(), "{r:?}");
        let mut replay = win.clone();
        for m in &r.line {
            replay.try_play(*m).expect("the line is legal");
        }
        let quiet = board(Rule::Freestyle, "h8 h7 j6 i7 f7 g7");
        let r = s.solve(
            &quiet,
            SolveTask::Win,
            SolveLimits {
                time_ms: Some(300),
                ..limits
            },
        );
        assert!(!r.solved(), "{r:?}");
    }

    #[test]
    fn a_stopped_solve_ends_long_before_its_time() {
        let quiet = board(Rule::Freestyle, "h8 h7 j6 i7 f7 g7");
        let mut s = Solver::new();
        for concurrent in [false, true] {
            let limits = SolveLimits {
                time_ms: Some(120_000),
                nodes: None,
                concurrent,
            };
            let stop = AtomicBool::new(false);
            let start = Instant::now();
            let r = std::thread::scope(|scope| {
                scope.spawn(|| {
                    std::thread::sleep(std::time::Duration::from_millis(200));
                    stop.store(true, Ordering::Relaxed);
                });
                s.solve_stoppable(&quiet, SolveTask::Win, limits, &stop)
            });
            // 2 minutes were allowed; the stop came after 0.2 s (a generous bound, not a speed
            // figure: only a solver that ignores the flag runs this long)
            assert!(
                start.elapsed().as_secs() < 30,
                "concurrent {concurrent}: {r:?}"
            );
            assert!(!r.solved(), "{r:?}");
            // stopped before it starts: nothing is searched beyond the first VCF nodes
            let r = s.solve_stoppable(&quiet, SolveTask::Vct, limits, &stop);
            assert!(!r.solved() && r.elapsed_ms < 30_000, "{r:?}");
        }
    }
}
