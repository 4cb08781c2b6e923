//! The thinking thread: owns the engine, runs one job at a time (allocate the table, clear
//! it, search), writes `MESSAGE` progress lines while searching and hands the chosen move back
//! to the command loop, which keeps reading input meanwhile.

use super::balance;
use super::output::Output;
use super::settings::TimeBudget;
use super::swap2;
use super::Event;
use gomoku_engine::notation::format_xy;
use gomoku_engine::search::{format_score, moves_to_result, RootMove, Score};
use gomoku_engine::{Board, Engine, EngineConfig, Pos, SearchEvent, SearchInfo, SearchOptions};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Least time between two progress lines: a line per iteration would flood the manager's log
/// in the first milliseconds, and a GUI refreshes a few times a second at most.
const REPORT_INTERVAL: Duration = Duration::from_millis(250);

/// What the thinking thread is asked to do.
#[derive(Debug)]
pub(crate) enum Job {
    /// Make sure the table has this size and the engine this many threads (allocating now,
    /// so that the first move does not pay for it); then signal `done`, if given.
    Configure(EngineConfig, Option<Sender<()>>),
    /// Forget the table's contents.
    ClearHash,
    /// Search a position.
    Search(Box<SearchJob>),
    /// Answer `SWAP2BOARD` for a position (its `nbest` and `exclude` are not used).
    Swap2(Box<SearchJob>),
    /// Answer `YXBALANCEONE` (`false`) or `YXBALANCETWO` (`true`) for a position, aiming at
    /// the value given (its `nbest` is not used).
    Balance(Box<SearchJob>, bool, i32),
}

/// One search.
#[derive(Debug)]
pub(crate) struct SearchJob {
    /// Identifies the search in the answer.
    pub id: u64,
    /// The position (the side to move is us).
    pub board: Board,
    /// Points that must not be answered (dead stones of a continuous game).
    pub exclude: Vec<Pos>,
    /// Time we may use, counted from `received`.
    pub budget: TimeBudget,
    /// When the command that asked for the move arrived.
    pub received: Instant,
    /// Set from outside to stop now.
    pub stop: Arc<AtomicBool>,
    /// How many best moves to report (1 = a normal move).
    pub nbest: usize,
    /// Yixin-Board `show_detail` bits.
    pub show_detail: u8,
    /// Engine settings for this search.
    pub config: EngineConfig,
}

/// The result of a search, for the command loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The search's id.
    pub id: u64,
    /// The move found ([`Pos::NONE`] when there was none, and for a swap2 answer).
    pub best: Pos,
    /// The answer to `SWAP2BOARD`, for a swap2 job.
    pub swap2: Option<swap2::Answer>,
    /// The stones of a balance job, in order.
    pub balance: Option<Vec<Pos>>,
}

/// Handle of the thinking thread. Dropping it ends the thread once its current job is done.
#[derive(Debug)]
pub(crate) struct Thinker {
    jobs: Sender<Job>,
    _thread: JoinHandle<()>,
}

impl Thinker {
    /// Starts the thread; progress goes to `out`, results to `done`.
    pub(crate) fn spawn(out: Output, done: Sender<Event>) -> Thinker {
        let (jobs, rx) = std::sync::mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("pbrain-think".into())
            .spawn(move || work(&rx, &out, &done))
            .unwrap_or_else(|e| panic!("cannot start the thinking thread: {e}"));
        Thinker {
            jobs,
            _thread: thread,
        }
    }

    /// Queues a job (jobs run in order).
    pub(crate) fn send(&self, job: Job) {
        // the thread only ends when this handle is dropped, so sending cannot fail while we
        // hold it; if it panicked, the missing answer shows as an error upstream
        let _ = self.jobs.send(job);
    }
}

fn work(jobs: &Receiver<Job>, out: &Output, done: &Sender<Event>) {
    let mut engine: Option<Engine> = None;
    while let Ok(job) = jobs.recv() {
        match job {
            Job::Configure(config, ack) => {
                configure(&mut engine, &config);
                if let Some(ack) = ack {
                    let _ = ack.send(());
                }
            }
            Job::ClearHash => {
                if let Some(e) = engine.as_mut() {
                    e.clear_hash();
                }
                out.line("MESSAGE hash table cleared");
            }
            Job::Search(job) => {
                let e = configure(&mut engine, &job.config);
                // a bug in the engine must not leave the manager without an answer: the
                // command loop then plays some legal point, and the engine starts afresh
                let best =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| search(e, &job, out)))
                        .unwrap_or_else(|_| {
                            engine = None;
                            out.line("MESSAGE the search failed; playing a fallback move");
                            Pos::NONE
                        });
                if done
                    .send(Event::Finished(Outcome {
                        id: job.id,
                        best,
                        swap2: None,
                        balance: None,
                    }))
                    .is_err()
                {
                    return;
                }
            }
            Job::Swap2(job) => {
                let e = configure(&mut engine, &job.config);
                let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    swap2_answer(e, &job, out)
                }))
                .unwrap_or_else(|_| {
                    engine = None;
                    out.line("MESSAGE the swap2 decision failed; answering a fallback");
                    swap2::fallback(&job.board)
                });
                let outcome = Outcome {
                    id: job.id,
                    best: Pos::NONE,
                    swap2: Some(answer),
                    balance: None,
                };
                if done.send(Event::Finished(outcome)).is_err() {
                    return;
                }
            }
            Job::Balance(job, two, bias) => {
                let e = configure(&mut engine, &job.config);
                let stones = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    balance_answer(e, &job, two, bias, out)
                }))
                .unwrap_or_else(|_| {
                    engine = None;
                    out.line("MESSAGE the balance search failed; playing a fallback move");
                    Vec::new()
                });
                let outcome = Outcome {
                    id: job.id,
                    best: Pos::NONE,
                    swap2: None,
                    balance: Some(stones),
                };
                if done.send(Event::Finished(outcome)).is_err() {
                    return;
                }
            }
        }
    }
}

fn configure<'e>(engine: &'e mut Option<Engine>, config: &EngineConfig) -> &'e mut Engine {
    let e = engine.get_or_insert_with(|| {
        let mut e = Engine::new(config.clone());
        e.set_params(crate::args::search::session_params());
        e
    });
    if e.config().hash_mb != config.hash_mb {
        e.set_hash_mb(config.hash_mb);
    }
    if e.config().threads != config.threads {
        e.set_threads(config.threads);
    }
    e
}

fn search(engine: &mut Engine, job: &SearchJob, out: &Output) -> Pos {
    let waited = job.received.elapsed().as_millis() as u64;
    let limits = job.budget.limits(waited);
    let options = SearchOptions {
        all_root_values: job.nbest > 1,
        // exact values for the moves shown, bounds for the rest: a deeper search
        exact_moves: job.nbest,
        report_root_moves: job.nbest > 1,
        exclude: job.exclude.clone(),
        ..SearchOptions::default()
    };
    let mut reporter = Reporter::new(out, job.nbest, job.show_detail);
    let result = engine.search(&job.board, &limits, &options, &job.stop, &mut |ev| {
        reporter.event(&ev);
    });
    let nodes = result.stats.nodes;
    let summary = SearchInfo {
        depth: result.depth,
        seldepth: result.seldepth,
        score: result.score,
        nodes,
        nps: nodes * 1000 / result.elapsed_ms.max(1),
        tt_hits: result.stats.tt_hits,
        elapsed_ms: result.elapsed_ms,
        pv: result.pv.clone(),
        hashfull: 0,
    };
    reporter.finish(&summary, &result.root_moves);
    result.best_move
}

/// The swap2 decision for `job`'s position, within its time: a search of White's value (or
/// of a few openings), explained in `MESSAGE` lines.
fn swap2_answer(engine: &mut Engine, job: &SearchJob, out: &Output) -> swap2::Answer {
    let waited = job.received.elapsed().as_millis() as u64;
    // the turn's time, but no more than a fifteenth of the match time left: the decision is
    // worth more than one move, not the match
    let turn = job.budget.hard_deadline_ms().saturating_sub(waited);
    let time_ms = job.budget.game_left_ms.map_or(turn, |g| turn.min(g / 15));
    let seed = crate::seed::time_seed();
    decision(engine, job, out, waited, time_ms, seed, |cx| {
        swap2::decide(cx, &job.board)
    })
}

/// The balanced move (or two) for `job`'s position, within the turn's time.
fn balance_answer(
    engine: &mut Engine,
    job: &SearchJob,
    two: bool,
    bias: i32,
    out: &Output,
) -> Vec<Pos> {
    let waited = job.received.elapsed().as_millis() as u64;
    let time_ms = job.budget.hard_deadline_ms().saturating_sub(waited);
    decision(engine, job, out, waited, time_ms, 0, |cx| {
        if two {
            balance::two(cx, &job.board, &job.exclude, bias)
        } else {
            balance::one(cx, &job.board, &job.exclude, bias)
        }
    })
}

/// Runs `decide` over `engine` for `job` (which waited `waited` ms): the job's limits,
/// `time_ms` for the whole decision, its notes as `MESSAGE` lines.
fn decision<R>(
    engine: &mut Engine,
    job: &SearchJob,
    out: &Output,
    waited: u64,
    time_ms: u64,
    seed: u64,
    decide: impl FnOnce(&mut swap2::Context<'_>) -> R,
) -> R {
    let mut note = |text: String| out.line(&format!("MESSAGE {text}"));
    let mut cx = swap2::Context {
        searcher: engine,
        limits: job.budget.limits(waited),
        time_ms: Some(time_ms),
        stop: &job.stop,
        seed,
        note: &mut note,
    };
    decide(&mut cx)
}

/// Turns search events into protocol lines, at a sensible rate.
struct Reporter<'a> {
    out: &'a Output,
    last_line: Instant,
    nbest: usize,
    realtime: bool,
    detail: bool,
    best: Option<Pos>,
    print_roots: bool,
}

impl<'a> Reporter<'a> {
    fn new(out: &'a Output, nbest: usize, show_detail: u8) -> Reporter<'a> {
        Reporter {
            out,
            last_line: Instant::now(),
            nbest,
            realtime: show_detail & 1 != 0,
            detail: show_detail & 2 != 0,
            best: None,
            print_roots: false,
        }
    }

    fn event(&mut self, ev: &SearchEvent<'_>) {
        match ev {
            SearchEvent::Iteration(info) => {
                let best = info.pv.first().copied();
                if let Some(p) = best {
                    if self.realtime && self.best != Some(p) {
                        self.out
                            .line(&format!("MESSAGE REALTIME BEST {}", format_xy(p)));
                    }
                    self.best = Some(p);
                }
                if self.last_line.elapsed() >= REPORT_INTERVAL {
                    self.last_line = Instant::now();
                    self.out.line(&progress_line(info));
                    self.print_roots = true;
                }
            }
            SearchEvent::RootMoves { depth, moves } => {
                if self.print_roots {
                    self.print_roots = false;
                    self.root_lines(*depth, moves);
                }
            }
        }
    }

    fn root_lines(&self, depth: i32, moves: &[RootMove]) {
        if self.nbest <= 1 {
            return;
        }
        let n = self.nbest.min(moves.len());
        for (i, m) in moves.iter().take(n).enumerate() {
            self.out.line(&format!(
                "MESSAGE ({}) eval {} depth {} pv {}",
                i + 1,
                format_score(m.score),
                if m.depth > 0 { m.depth } else { depth },
                pv_text(&m.pv)
            ));
        }
    }

    fn finish(&mut self, summary: &SearchInfo, roots: &[RootMove]) {
        self.out.line(&progress_line(summary));
        self.root_lines(summary.depth, roots);
        if self.detail {
            self.info_blocks(summary, roots);
        }
    }

    /// Yixin-Board's structured lines (one block per reported move), parsed by the GUI to
    /// label the board.
    fn info_blocks(&self, summary: &SearchInfo, roots: &[RootMove]) {
        let single = [RootMove {
            pos: summary.pv.first().copied().unwrap_or(Pos::NONE),
            score: summary.score,
            bound: gomoku_engine::search::ValueBound::Exact,
            pv: summary.pv.clone(),
            depth: summary.depth,
        }];
        let moves: &[RootMove] = if self.nbest > 1 && !roots.is_empty() {
            &roots[..self.nbest.min(roots.len())]
        } else {
            &single
        };
        for (i, m) in moves.iter().enumerate() {
            let lines = [
                format!("INFO PV {i}"),
                format!("INFO NUMPV {}", moves.len()),
                format!("INFO DEPTH {}", summary.depth),
                format!("INFO SELDEPTH {}", summary.seldepth),
                format!("INFO TOTALNODES {}", summary.nodes),
                format!("INFO TOTALTIME {}", summary.elapsed_ms),
                format!("INFO SPEED {}", summary.nps),
                format!("INFO EVAL {}", eval_text(m.score)),
                format!("INFO WINRATE {:.4}", win_rate(m.score)),
                format!("INFO BESTLINE {}", pv_text(&m.pv)),
                "INFO PV DONE".to_string(),
            ];
            for l in lines {
                self.out.line(&l);
            }
        }
    }
}

/// `MESSAGE depth 9-15 eval +42 nodes 35612 speed 712240 nps time 50 ms pv 7,7 8,8`.
fn progress_line(i: &SearchInfo) -> String {
    format!(
        "MESSAGE depth {}-{} eval {} nodes {} speed {} nps time {} ms pv {}",
        i.depth,
        i.seldepth,
        format_score(i.score),
        i.nodes,
        i.nps,
        i.elapsed_ms,
        pv_text(&i.pv)
    )
}

fn pv_text(pv: &[Pos]) -> String {
    if pv.is_empty() {
        return "-".to_string();
    }
    pv.iter()
        .filter(|p| p.is_point())
        .map(|&p| format_xy(p))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A score as Yixin-Board reads it: a number, or `+M3` / `-M3` for a win / loss in 3 moves.
fn eval_text(s: Score) -> String {
    match moves_to_result(s) {
        Some(n) if n > 0 => format!("+M{n}"),
        Some(n) => format!("-M{}", -n),
        None => s.to_string(),
    }
}

/// A rough winning chance for a score (proven results are 0 or 1), as the game review uses.
fn win_rate(s: Score) -> f64 {
    gomoku_engine::review::win_chance(s, gomoku_engine::review::ReviewParams::default().scale)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gomoku_engine::search::score::{loss_in, win_in};

    #[test]
    fn texts() {
        let info = SearchInfo {
            depth: 9,
            seldepth: 15,
            score: 42,
            nodes: 35_612,
            nps: 712_240,
            tt_hits: 0,
            elapsed_ms: 50,
            pv: vec![Pos::new(7, 7), Pos::new(8, 8)],
            hashfull: 0,
        };
        assert_eq!(
            progress_line(&info),
            "MESSAGE depth 9-15 eval +42 nodes 35612 speed 712240 nps time 50 ms pv 7,7 8,8"
        );
        assert_eq!(pv_text(&[]), "-");
        assert_eq!(eval_text(win_in(5)), "+M3");
        assert_eq!(eval_text(loss_in(2)), "-M1");
        assert_eq!(eval_text(-120), "-120");
        assert!((win_rate(0) - 0.5).abs() < 1e-9);
        assert!(win_rate(400) > 0.7);
        assert_eq!(win_rate(win_in(1)), 1.0);
    }
}
