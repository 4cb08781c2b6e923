//! The search: iterative deepening PVS (NegaScout) with aspiration windows, a shared lockless
//! transposition table, threat-aware move generation, VCF checks at the horizon, and Young
//! Brothers Wait (or Lazy SMP) over several threads.
//!
//! The engine prints nothing: progress goes to a callback as [`SearchEvent`]s.

pub mod movegen;
pub mod params;
pub mod score;
pub mod time;
pub mod tt;
mod worker;

pub use params::SearchParams;
pub use score::{format_score, is_decisive, moves_to_result, Score};
pub use time::{Limits, TimeManager};
pub use tt::{allow_huge_pages, TranspositionTable};

use crate::board::Board;
use crate::pattern::Pattern4;
use crate::types::Pos;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use worker::{Shared, Worker};

/// Deepest nominal depth the iterative deepening goes to.
pub const MAX_DEPTH: i32 = 99;
/// Deepest ply a search line may reach (extensions included).
pub const MAX_PLY: usize = 128;

/// Engine-wide settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Transposition table size in megabytes.
    pub hash_mb: usize,
    /// Number of search threads.
    pub threads: usize,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            hash_mb: 64,
            threads: 1,
        }
    }
}

/// Per-search options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchOptions {
    /// Search every root move with a full window, so that each gets an exact value (slower;
    /// for analysis), and report them after every iteration.
    pub all_root_values: bool,
    /// With `all_root_values`, exact values only for this many moves (0: for every move): the
    /// best so far in each iteration. Each later move is first tested with a null window
    /// against the worst of them and gets an upper bound when it does not beat it, so that
    /// an analysis of the best few candidates goes deeper in the same time.
    pub exact_moves: usize,
    /// Report the (bounded) values of root moves after every iteration.
    pub report_root_moves: bool,
    /// Do not consider these root moves.
    pub exclude: Vec<Pos>,
    /// Skip the VCT of the side to move that a timed search runs before its first iteration
    /// (for a caller that runs its own VCT on another thread, like the solver).
    pub no_root_vct: bool,
    /// Skip the opponent's VCT check after the search when the root had to answer a threat
    /// (for a caller that only wants a proof of its own win, like the solver).
    pub no_defence_vct: bool,
}

/// Counters of one search (all threads).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Nodes visited (main search, leaf threat searches included).
    pub nodes: u64,
    /// Transposition-table probes that found the position.
    pub tt_hits: u64,
    /// Transposition-table stores.
    pub tt_stores: u64,
    /// Beta cut-offs.
    pub cutoffs: u64,
    /// Beta cut-offs made by the first move tried.
    pub first_move_cutoffs: u64,
    /// Nodes of the VCF checks at the horizon (included in `nodes`).
    pub vcf_nodes: u64,
    /// Nodes whose moves a thread shared with idle threads (Young Brothers Wait).
    pub splits: u64,
    /// Singular tests of hash moves (searches of a node without its hash move).
    pub singular_tests: u64,
    /// Hash moves those tests found singular, and extended.
    pub singular_extensions: u64,
}

impl SearchStats {
    fn add(&mut self, o: &SearchStats) {
        self.nodes += o.nodes;
        self.tt_hits += o.tt_hits;
        self.tt_stores += o.tt_stores;
        self.cutoffs += o.cutoffs;
        self.first_move_cutoffs += o.first_move_cutoffs;
        self.vcf_nodes += o.vcf_nodes;
        self.splits += o.splits;
        self.singular_tests += o.singular_tests;
        self.singular_extensions += o.singular_extensions;
    }
}

/// How exact a root move's value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueBound {
    /// The exact value at the searched depth.
    Exact,
    /// At most this value (the move was refuted by the search window).
    Upper,
    /// At least this value.
    Lower,
}

/// A root move and what the search knows about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootMove {
    /// The move.
    pub pos: Pos,
    /// Its value from the mover's point of view.
    pub score: Score,
    /// How exact the value is.
    pub bound: ValueBound,
    /// The principal variation starting with this move.
    pub pv: Vec<Pos>,
    /// Depth at which the value was found.
    pub depth: i32,
}

/// Progress of the search after an iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Nominal depth completed.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: i32,
    /// Value of the best move, for the side to move.
    pub score: Score,
    /// Nodes so far (all threads).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition-table hits so far.
    pub tt_hits: u64,
    /// Milliseconds since the start.
    pub elapsed_ms: u64,
    /// Principal variation.
    pub pv: Vec<Pos>,
    /// Permille of the table used by this search.
    pub hashfull: u32,
}

/// What the search reports while it runs.
#[derive(Debug)]
pub enum SearchEvent<'a> {
    /// An iteration finished (or a new best line was found).
    Iteration(&'a SearchInfo),
    /// The root moves with their values, best first (when asked for in [`SearchOptions`]).
    RootMoves {
        /// Depth of the iteration.
        depth: i32,
        /// The moves.
        moves: &'a [RootMove],
    },
}

/// The final answer of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play (always a legal point when the board has an empty point).
    pub best_move: Pos,
    /// Its value for the side to move.
    pub score: Score,
    /// Deepest completed nominal depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: i32,
    /// Principal variation.
    pub pv: Vec<Pos>,
    /// Root moves with their last known values, best first.
    pub root_moves: Vec<RootMove>,
    /// Counters.
    pub stats: SearchStats,
    /// Effective branching factor per completed iteration (nodes of iteration d / nodes of d-1).
    pub branching: Vec<f64>,
    /// Milliseconds used.
    pub elapsed_ms: u64,
}

/// The engine: a transposition table and settings, reused from search to search.
#[derive(Debug)]
pub struct Engine {
    config: EngineConfig,
    tt: TranspositionTable,
    params: SearchParams,
    threats: crate::vct::ThreatSearchers,
}

/// Node budget of each VCF check around the root (ours, the opponent's, per candidate move).
const ROOT_VCF_NODES: u64 = 20_000;
/// Node budget of the VCF check of each candidate move when the opponent threatens one.
const DEFENCE_VCF_NODES: u64 = 4_000;
/// When the root must answer a threat, the main search's time after which no iteration starts
/// and its hard limit are cut to these percentages, so that the opponent's VCT after its best
/// moves can be looked for in the rest.
const DEFENCE_OPTIMUM_PERCENT: u32 = 60;
/// See [`DEFENCE_OPTIMUM_PERCENT`].
const DEFENCE_MAXIMUM_PERCENT: u32 = 75;
/// Most attacking moves of the VCT searches around the root.
const ROOT_VCT_DEPTH: i32 = 12;
/// How many of the best root moves the opponent's VCT is looked for after.
const DEFENCE_VCT_MOVES: usize = 3;
/// The checks of which root moves stop the opponent's VCF may take this percentage of the
/// time the move should take.
const PRECHECK_PERCENT: u32 = 20;

/// What the threat searches before the main search found.
enum Precheck {
    /// A proven win: the answer.
    Won(SearchResult),
    /// The main search decides; `forced` when the opponent threatens a VCF and more than one
    /// move answers it (the root moves left), so the opponent's VCT after the chosen one is
    /// worth a look.
    Search { forced: bool },
}

impl Engine {
    /// An engine with the given settings (the table is allocated now).
    #[must_use]
    pub fn new(config: EngineConfig) -> Engine {
        let tt = TranspositionTable::new(config.hash_mb);
        Engine {
            config,
            tt,
            params: SearchParams::default(),
            threats: crate::vct::ThreatSearchers::default(),
        }
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Changes the number of threads (at least one).
    pub fn set_threads(&mut self, threads: usize) {
        self.config.threads = threads.max(1);
    }

    /// Reallocates the table with a new size (clearing it).
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.config.hash_mb = mb.max(1);
        self.tt = TranspositionTable::new(self.config.hash_mb);
    }

    /// The search parameters.
    #[must_use]
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Replaces the search parameters (for tuning experiments).
    ///
    /// # Panics
    /// A value outside its range ([`SearchParams::validate`]): such values can overflow or
    /// never end the search. [`SearchParams::set`] checks each value as it is given.
    pub fn set_params(&mut self, params: SearchParams) {
        if let Err(e) = params.validate() {
            panic!("search parameters out of range: {e}");
        }
        self.params = params;
    }

    /// Clears the table.
    pub fn clear_hash(&mut self) {
        self.tt.clear();
    }

    /// Threat searches around the root, before the main search:
    /// 1. a VCF of ours wins at once (the line becomes the answer);
    /// 2. when the opponent would win by VCF if we passed, the root moves that do not stop it
    ///    are excluded (as long as one that does exists);
    /// 3. with time to spare, a VCT of ours is looked for (and played when found).
    fn threat_precheck(
        &mut self,
        board: &Board,
        limits: &Limits,
        options: &mut SearchOptions,
        time: &TimeManager,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchEvent<'_>),
    ) -> Precheck {
        if board.stone_count() == 0 || board.is_full() || options.all_root_values {
            return Precheck::Search { forced: false };
        }
        self.threats.prepare(board);
        let mut b = board.clone();
        let us = b.to_move();
        let mut nodes = 0;
        // 1. our VCF
        if let Some(line) = self.threats.vcf.search(&mut b, 250, ROOT_VCF_NODES) {
            nodes += self.threats.vcf.nodes();
            if line.first().is_some_and(|m| !options.exclude.contains(m)) {
                return Precheck::Won(self.threat_result(board, line, nodes, time, report));
            }
        }
        nodes += self.threats.vcf.nodes();
        // 2. the opponent's VCF threat: keep only the root moves that stop it. A five to
        // block leaves one answer (the root's list is that block); against a straight four
        // to come, the root searches only the defence list, so only those moves are checked.
        let them = us.opponent();
        let threat = if b.threat_count(them, Pattern4::Five) > 0 {
            None
        } else {
            b.pass();
            let t = self.threats.vcf.search(&mut b, 250, ROOT_VCF_NODES);
            nodes += self.threats.vcf.nodes();
            b.undo();
            t
        };
        let mut forced = false;
        if threat.is_some() {
            let mut cands = Vec::new();
            if b.threat_count(them, Pattern4::Flex4) > 0 {
                let mut list = Vec::new();
                movegen::gen_defence(&mut b, us, &mut list);
                cands.extend(list.iter().map(|m| m.pos));
            }
            if cands.is_empty() {
                b.for_each_candidate(|p| cands.push(p));
            }
            let mut losing = Vec::new();
            let mut safe = 0;
            // the checks may take a fifth of the move's time; the main search needs the rest
            let budget = time.fraction_of_optimum(PRECHECK_PERCENT);
            for m in cands {
                if stop.load(Ordering::Relaxed)
                    || time.out_of_time()
                    || budget.is_some_and(|d| time.elapsed() >= d)
                {
                    break; // what was found so far still holds
                }
                if options.exclude.contains(&m)
                    || (us == crate::types::Color::Black && b.is_forbidden(m))
                {
                    continue;
                }
                b.play_unchecked(m);
                let refuted = self
                    .threats
                    .vcf
                    .search(&mut b, 250, DEFENCE_VCF_NODES)
                    .is_none();
                nodes += self.threats.vcf.nodes();
                b.undo();
                if refuted {
                    safe += 1;
                } else {
                    losing.push(m);
                }
            }
            if safe > 0 {
                options.exclude.extend(losing);
            }
            // with a single answer there is nothing to choose
            forced = safe > 1;
        }
        // 3. a VCT of ours, with time to spare
        if let Some(ms) = limits
            .move_time_ms
            .filter(|&t| t >= 200 && !options.no_root_vct)
        {
            let res = self.root_vct(&mut b, (ms / 10).min(300), stop);
            nodes += res.nodes;
            if let Some(line) = res.line {
                if line.first().is_some_and(|m| !options.exclude.contains(m)) {
                    return Precheck::Won(self.threat_result(board, line, nodes, time, report));
                }
            }
        }
        let _ = nodes;
        Precheck::Search { forced }
    }

    /// A VCT of the side to move of `b` around the root (ours before the search, the opponent's
    /// after it), within `ms` milliseconds and [`ROOT_VCT_DEPTH`] attacking moves.
    fn root_vct(&mut self, b: &mut Board, ms: u64, stop: &AtomicBool) -> crate::vct::VctResult {
        self.threats.vct().search_stoppable(
            b,
            crate::vct::VctLimits {
                max_depth: ROOT_VCT_DEPTH,
                max_nodes: u64::MAX,
                max_ms: Some(ms),
            },
            stop,
        )
    }

    /// The answer when a threat search proved a win: its line as the principal variation.
    fn threat_result(
        &self,
        board: &Board,
        line: Vec<Pos>,
        nodes: u64,
        time: &TimeManager,
        report: &mut dyn FnMut(SearchEvent<'_>),
    ) -> SearchResult {
        // plies to the five: the line, plus the last two moves when it ends in a straight four
        let mut b = board.clone();
        for &m in &line {
            b.play_unchecked(m);
        }
        let ends_in_five = line.last().is_some_and(|&m| b.winning_line(m).is_some());
        let plies = line.len() as i32 + if ends_in_five { 0 } else { 2 };
        let score = score::win_in(plies);
        let elapsed_ms = time.elapsed_ms();
        let info = SearchInfo {
            depth: plies,
            seldepth: plies,
            score,
            nodes,
            nps: nodes * 1000 / elapsed_ms.max(1),
            tt_hits: 0,
            elapsed_ms,
            pv: line.clone(),
            hashfull: 0,
        };
        report(SearchEvent::Iteration(&info));
        SearchResult {
            best_move: line[0],
            score,
            depth: plies,
            seldepth: plies,
            pv: line.clone(),
            root_moves: vec![RootMove {
                pos: line[0],
                score,
                bound: ValueBound::Exact,
                pv: line,
                depth: plies,
            }],
            stats: SearchStats {
                nodes,
                vcf_nodes: nodes,
                ..SearchStats::default()
            },
            branching: Vec::new(),
            elapsed_ms,
        }
    }

    /// After the main search: if the chosen move lets the opponent win by VCF and another root
    /// move does not, switch to the best such move. With `vct_time` (when the root had to answer
    /// a threat), the opponent's VCT after up to [`DEFENCE_VCT_MOVES`] of the best moves is
    /// looked for too, in the time the search left (its share was cut for it; see
    /// [`TimeManager::after_search_left`]); a move after which none is found in that time
    /// counts as safe.
    fn threat_postcheck(
        &mut self,
        board: &Board,
        options: &SearchOptions,
        vct_time: Option<&TimeManager>,
        stop: &AtomicBool,
        result: &mut SearchResult,
    ) {
        if options.all_root_values
            || !result.best_move.is_point()
            || score::is_decisive(result.score)
        {
            return;
        }
        let mut b = board.clone();
        let candidates: Vec<Pos> = result.root_moves.iter().map(|r| r.pos).take(8).collect();
        let mut vct_checks = 0;
        let mut first_safe = None;
        let mut choice = None;
        for m in candidates {
            if !b.is_empty(m) {
                continue;
            }
            b.play_unchecked(m);
            let mut loses = self
                .threats
                .vcf
                .search(&mut b, 250, DEFENCE_VCF_NODES)
                .is_some();
            if !loses {
                first_safe = first_safe.or(Some(m));
                let left_ms = vct_time
                    .and_then(TimeManager::after_search_left)
                    .map_or(0, |d| d.as_millis() as u64);
                if vct_checks < DEFENCE_VCT_MOVES && left_ms >= 2 {
                    vct_checks += 1;
                    loses = self.root_vct(&mut b, left_ms, stop).line.is_some();
                }
            }
            b.undo();
            if !loses {
                choice = Some(m);
                break;
            }
        }
        // when every move checked loses, the best one that survives the VCF check stays
        if let Some(m) = choice.or(first_safe) {
            if m != result.best_move {
                if let Some(k) = result.root_moves.iter().position(|r| r.pos == m) {
                    let rm = result.root_moves.remove(k);
                    result.best_move = rm.pos;
                    result.pv = rm.pv.clone();
                    result.root_moves.insert(0, rm);
                }
            }
        }
    }

    /// Searches `board` for its side to move until a limit is hit or `stop` becomes true, and
    /// returns the best move found. Progress goes to `report`.
    pub fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        options: &SearchOptions,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchEvent<'_>),
    ) -> SearchResult {
        let time = TimeManager::start_at(limits, time::Stage::of(board));
        self.tt.new_search();
        // (a large table's pages are filled only between searches)
        let _busy = self.tt.busy();
        let mut options = options.clone();
        let forced = match self.threat_precheck(board, limits, &mut options, &time, stop, report) {
            Precheck::Won(result) => return result,
            Precheck::Search { forced } => forced,
        };
        // when the root must answer a threat, part of the time goes to the opponent's VCT
        // after the chosen move
        let defence_vct = forced && !options.no_defence_vct && time.is_timed();
        let search_time = if defence_vct {
            time.cut(DEFENCE_OPTIMUM_PERCENT, DEFENCE_MAXIMUM_PERCENT)
        } else {
            time
        };
        let shared = self.shared(limits, &options, search_time, stop);
        let mut result = self.run_threads(board, &shared, report);
        self.adopt_deepest(&shared, &time, &mut result, report);
        drop(shared);
        self.threat_postcheck(
            board,
            &options,
            defence_vct.then_some(&time),
            stop,
            &mut result,
        );
        result
    }

    /// The state the threads of one search (with `limits`, `options` and the clock `time`,
    /// stopped by `stop`) share.
    fn shared<'a>(
        &'a self,
        limits: &Limits,
        options: &SearchOptions,
        time: TimeManager,
        stop: &'a AtomicBool,
    ) -> Shared<'a> {
        let ybwc = self.params.uses_ybwc(self.config.threads);
        Shared {
            tt: &self.tt,
            stop,
            internal_stop: AtomicBool::new(false),
            limits: limits.clone(),
            options: options.clone(),
            time,
            total_nodes: AtomicU64::new(0),
            total_tt_hits: AtomicU64::new(0),
            completed_depth: AtomicU64::new(0),
            params: self.params.clone(),
            deepest: std::sync::Mutex::new(None),
            main_depth: AtomicU64::new(0),
            completed_any: AtomicU64::new(0),
            ybwc,
            split: std::sync::Mutex::new(None),
            split_seq: AtomicU64::new(0),
            idle: std::sync::atomic::AtomicUsize::new(0),
            history: (ybwc && self.params.shared_history)
                .then(|| std::sync::Arc::new(worker::History::new())),
        }
    }

    /// Runs the search's threads on `board`: the main thread's iterative deepening, which
    /// reports its progress to `report`, and the helpers (at split points with YBWC, else
    /// iterating on their own), until the main thread ends. The main thread's result, with
    /// every thread's counters.
    fn run_threads(
        &self,
        board: &Board,
        shared: &Shared<'_>,
        report: &mut dyn FnMut(SearchEvent<'_>),
    ) -> SearchResult {
        let threads = self.config.threads.max(1);
        let mut helper_stats = SearchStats::default();
        let mut result = std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for id in 1..threads {
                let b = board.clone();
                handles.push(scope.spawn(move || {
                    let mut w = Worker::new(id, b, shared);
                    if shared.ybwc {
                        w.help();
                    } else {
                        w.iterate(&mut |_| {});
                    }
                    w.stats
                }));
            }
            let mut main = Worker::new(0, board.clone(), shared);
            let res = main.iterate(report);
            shared.internal_stop.store(true, Ordering::Relaxed);
            for h in handles {
                if let Ok(s) = h.join() {
                    helper_stats.add(&s);
                }
            }
            res
        });
        result.stats.add(&helper_stats);
        // every thread's nodes and table hits went to the shared totals, which are exact (each
        // thread's own counters already include the others')
        result.stats.nodes = shared.total_nodes.load(Ordering::Relaxed);
        result.stats.tt_hits = shared.total_tt_hits.load(Ordering::Relaxed);
        result
    }

    /// When a helper thread completed a deeper iteration than the main thread, its best
    /// root move becomes the `result`'s, and `report` shows that iteration too (`time` is
    /// the search's clock).
    fn adopt_deepest(
        &self,
        shared: &Shared<'_>,
        time: &TimeManager,
        result: &mut SearchResult,
        report: &mut dyn FnMut(SearchEvent<'_>),
    ) {
        let Some((depth, rm)) = shared
            .deepest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        else {
            return;
        };
        if depth <= result.depth || rm.score <= -score::INFINITE || !rm.pos.is_point() {
            return;
        }
        result.best_move = rm.pos;
        result.score = rm.score;
        result.depth = depth;
        result.seldepth = result.seldepth.max(depth);
        result.pv = rm.pv.clone();
        if let Some(k) = result.root_moves.iter().position(|r| r.pos == rm.pos) {
            result.root_moves.remove(k);
        }
        result.root_moves.insert(0, rm);
        let elapsed_ms = time.elapsed_ms();
        report(SearchEvent::Iteration(&SearchInfo {
            depth,
            seldepth: result.seldepth,
            score: result.score,
            nodes: result.stats.nodes,
            nps: result.stats.nodes * 1000 / elapsed_ms.max(1),
            tt_hits: result.stats.tt_hits,
            elapsed_ms,
            pv: result.pv.clone(),
            hashfull: self.tt.hashfull(),
        }));
    }
}

/// Convenience: a single search with default options and no stop flag or reporting.
pub fn search_simple(engine: &mut Engine, board: &Board, limits: &Limits) -> SearchResult {
    let stop = AtomicBool::new(false);
    engine.search(board, limits, &SearchOptions::default(), &stop, &mut |_| {})
}
