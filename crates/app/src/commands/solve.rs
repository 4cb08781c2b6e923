//! `gomoku solve`: proves forced wins over a file of positions in the common format of the
//! shared datasets, and checks every answer against the keys of the line.
//!
//! Each position is searched for the side to move by the engine's [`Solver`] (threat searches:
//! VCF, then VCT). A position counts as solved only with a winning line from the solver, a
//! proof; the engine's main search is asked for a move only to check a `best=` list when no win
//! was proven, and that move is labelled as unproven. Every VCF line is replayed by the
//! independent checker [`verify_vcf_line`].
//!
//! Output: one line per position and a summary on stdout, or with `--json` JSON Lines (one
//! object per line, `"type"` saying which): a `position` object per position, a `skipped`
//! object per malformed line, in file order, and a final `summary` object. Malformed lines are
//! also reported on stderr with their line number, and skipped.

use crate::stats::median;
use anyhow::{bail, Context, Result};
use gomoku_engine::notation::format_pos;
use gomoku_engine::record::Record;
use gomoku_engine::solver::{SolveLimits, SolveMethod, SolveResult, SolveTask, Solver};
use gomoku_engine::vcf::verify_vcf_line;
use gomoku_engine::{Board, Color, Engine, EngineConfig, Limits, Pos, SearchOptions};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// Arguments of `gomoku solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// File of positions, one per line: `<N> <rule> <moves...> | key=value ...` (`-` for
    /// standard input).
    pub file: PathBuf,
    /// Time budget per position in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub time_ms: u64,
    /// Node budget per search (with a generous time budget, makes runs reproducible).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Positions solved in parallel (one solver per thread; output stays in file order).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Per position, run the VCT and the main search at the same time on two threads (each
    /// with the time left after the VCF) instead of one after the other.
    #[arg(long)]
    pub concurrent: bool,
    /// Kind of win to prove for every line (vcf, vct or win), instead of the line's `task=`.
    #[arg(long, value_parser = parse_task)]
    pub task: Option<String>,
    /// Print JSON Lines: a `position` object per position, then a `summary` object.
    #[arg(long)]
    pub json: bool,
}

fn parse_task(s: &str) -> Result<String, String> {
    match SolveTask::from_key(s) {
        Some(_) => Ok(s.to_string()),
        None => Err(format!("'{s}': expected vcf, vct, win or win_in_N")),
    }
}

/// Most threads accepted (a typo guard: each thread holds its own solver tables).
const MAX_THREADS: usize = 256;

/// Table size of the engine search used for unproven `best=` checks.
const FALLBACK_HASH_MB: usize = 16;

/// A `best=` value.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Best {
    /// Every move is good.
    Any,
    /// One of these.
    Moves(Vec<Pos>),
}

/// What a line says about its answer, read from its keys.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Expect {
    /// `side=` or `attacker=`: who should be to move and win.
    side: Option<Color>,
    /// `solution=`: the source's winning line.
    solution: Option<Vec<Pos>>,
    /// `vcf_last_move=`: the attacker's final move.
    vcf_last_move: Option<Pos>,
    /// `answer=` (unless `none`): the expected first moves.
    answer: Option<Vec<Pos>>,
    /// `outcome=`: whether the side to move has a forced win.
    outcome_win: Option<bool>,
    /// `best=`: good first moves.
    best: Option<Best>,
}

/// One position to solve.
#[derive(Clone, Debug)]
struct Puzzle {
    /// 1-based line number in the file.
    line_no: usize,
    board: Board,
    task: SolveTask,
    /// The task as named in the file (`vcf`, `win_in_3`, ...) or chosen for it (`win`).
    task_name: String,
    /// Whether `task_name` came from a `task=` key (then solving is the expected answer).
    task_key: bool,
    expect: Expect,
}

/// What the file's location says about lines without `task=`.
#[derive(Clone, Copy, Debug, Default)]
struct FileContext {
    /// The file is in a `vcf/` folder: positions with an attacker are VCF puzzles.
    vcf_dir: bool,
    /// `--task`, overriding the lines.
    task_override: Option<SolveTask>,
}

fn parse_color(key: &str, v: &str) -> Result<Color, String> {
    match v.to_ascii_lowercase().as_str() {
        "black" | "x" | "b" => Ok(Color::Black),
        "white" | "o" | "w" => Ok(Color::White),
        _ => Err(format!("{key}={v}: expected black or white")),
    }
}

fn parse_points(rec: &Record, key: &str, v: &str) -> Result<Vec<Pos>, String> {
    let pts = rec.points(v).map_err(|e| format!("{key}={v}: {e}"))?;
    if pts.iter().any(|p| !p.is_point()) {
        return Err(format!("{key}={v}: a pass is not a move here"));
    }
    Ok(pts)
}

/// Reads one non-blank line into a puzzle, or says why it cannot be solved.
fn parse_puzzle(line: &str, line_no: usize, ctx: FileContext) -> Result<Puzzle, String> {
    let rec = Record::parse(line).map_err(|e| e.to_string())?;
    let game = rec.game().map_err(|e| e.to_string())?;
    let board = game.board().clone();
    if let Some(p) = board.points().find(|&p| board.winning_line(p).is_some()) {
        return Err(format!(
            "the position already has a five (through {})",
            board.fmt_pos(p)
        ));
    }
    let mut e = Expect::default();
    for (key, v) in &rec.keys {
        match key.as_str() {
            "side" | "attacker" => {
                let c = parse_color(key, v)?;
                if e.side.is_some_and(|s| s != c) {
                    return Err("side= and attacker= disagree".into());
                }
                e.side = Some(c);
            }
            "solution" => {
                let line = parse_points(&rec, key, v)?;
                if line.is_empty() {
                    return Err(format!("{key}={v}: an empty solution"));
                }
                e.solution = Some(line);
            }
            "vcf_last_move" => match parse_points(&rec, key, v)?.as_slice() {
                [p] => e.vcf_last_move = Some(*p),
                _ => return Err(format!("{key}={v}: expected one point")),
            },
            "answer" if v != "none" => {
                let pts = parse_points(&rec, key, v)?;
                if pts.is_empty() {
                    return Err(format!("{key}={v}: expected points or none"));
                }
                e.answer = Some(pts);
            }
            "outcome" => {
                e.outcome_win = Some(match v.as_str() {
                    "win" => true,
                    "not-win" | "draw" | "loss" => false,
                    _ => return Err(format!("{key}={v}: expected win or not-win")),
                });
            }
            "best" => {
                e.best = Some(if v == "any" {
                    Best::Any
                } else {
                    let pts = parse_points(&rec, key, v)?;
                    if pts.is_empty() {
                        return Err(format!("{key}={v}: expected points or any"));
                    }
                    Best::Moves(pts)
                });
            }
            _ => {}
        }
    }
    let from_key = match rec.get("task") {
        Some(t) => Some((
            SolveTask::from_key(t).ok_or_else(|| format!("task={t}: unknown task"))?,
            t.to_string(),
        )),
        None => None,
    };
    let (task, task_name, task_key) = match (ctx.task_override, from_key) {
        (Some(t), _) => (t, task_label(t).to_string(), false),
        (None, Some((t, name))) => (t, name, true),
        (None, None) => {
            let tactics = e.outcome_win.is_some() || e.best.is_some();
            let vcf_keys = e.solution.is_some() || e.vcf_last_move.is_some();
            let t = if !tactics && (vcf_keys || (ctx.vcf_dir && e.side.is_some())) {
                SolveTask::Vcf
            } else {
                SolveTask::Win
            };
            (t, task_label(t).to_string(), false)
        }
    };
    Ok(Puzzle {
        line_no,
        board,
        task,
        task_name,
        task_key,
        expect: e,
    })
}

fn task_label(t: SolveTask) -> &'static str {
    match t {
        SolveTask::Vcf => "vcf",
        SolveTask::Vct => "vct",
        SolveTask::Win => "win",
    }
}

/// What the searches found for one position.
#[derive(Clone, Debug)]
struct Found {
    result: SolveResult,
    /// Wall-clock milliseconds of the solve, measured here (finer than the solver's).
    time_ms: f64,
    /// The independent checker's verdict on a VCF line.
    verified: Option<Result<(), String>>,
    /// The checker's verdict on the source's `solution=` when the task is VCF.
    source_verified: Option<Result<(), String>>,
    /// The main search's move, asked only to check `best=` when no win was proven.
    engine_move: Option<Pos>,
}

fn solve_one(
    p: &Puzzle,
    solver: &mut Solver,
    engine: &mut Option<Engine>,
    limits: SolveLimits,
) -> Found {
    let t = Instant::now();
    let result = solver.solve(&p.board, p.task, limits);
    let time_ms = t.elapsed().as_secs_f64() * 1000.0;
    let verified =
        (result.method == Some(SolveMethod::Vcf)).then(|| verify_vcf_line(&p.board, &result.line));
    let source_verified = match (&p.expect.solution, p.task) {
        (Some(line), SolveTask::Vcf) => Some(verify_vcf_line(&p.board, line)),
        _ => None,
    };
    let engine_move = match &p.expect.best {
        Some(Best::Moves(_)) if !result.solved() && !p.board.is_full() => {
            let engine = engine.get_or_insert_with(|| {
                Engine::new(EngineConfig {
                    hash_mb: FALLBACK_HASH_MB,
                    threads: 1,
                })
            });
            engine.clear_hash();
            let limits = Limits {
                move_time_ms: limits.time_ms,
                nodes: limits.nodes,
                ..Limits::default()
            };
            let stop = AtomicBool::new(false);
            let r = engine.search(
                &p.board,
                &limits,
                &SearchOptions::default(),
                &stop,
                &mut |_| {},
            );
            r.best_move.is_point().then_some(r.best_move)
        }
        _ => None,
    };
    Found {
        result,
        time_ms,
        verified,
        source_verified,
        engine_move,
    }
}

/// One answer compared with one key of the line.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Check {
    /// The key as the summary groups it (`task=vcf`, `side`, `solution`, ...).
    key: String,
    ok: bool,
    /// A mismatch that is no error: another proven line than the source's.
    soft: bool,
    /// What differs, for the text output.
    note: String,
}

fn check(key: impl Into<String>, ok: bool, note: impl Into<String>) -> Check {
    Check {
        key: key.into(),
        ok,
        soft: false,
        note: note.into(),
    }
}

/// Compares the answer with every key of the line that states one.
fn checks(p: &Puzzle, f: &Found) -> Vec<Check> {
    let size = p.board.size();
    let name = |q: Pos| format_pos(q, size);
    let names = |v: &[Pos]| v.iter().map(|&q| name(q)).collect::<Vec<_>>().join(",");
    let solved = f.result.solved();
    let first = f.result.first_move();
    // a VCF line the checker accepts is a proof even where it differs from the source's
    let proven_vcf = matches!(f.verified, Some(Ok(())));
    let mut out = Vec::new();
    if p.task_key {
        out.push(check(
            format!("task={}", p.task_name),
            solved,
            "no win proven",
        ));
    }
    if let Some(side) = p.expect.side {
        let to_move = p.board.to_move();
        out.push(check(
            "side",
            side == to_move,
            format!("the line says {side}, {to_move} is to move"),
        ));
    }
    if let Some(sol) = &p.expect.solution {
        let ok = first.is_some() && first == sol.first().copied();
        let mut note = format!("source starts {}", name(sol[0]));
        if let Some(Err(e)) = &f.source_verified {
            let _ = write!(note, "; the source line fails the checker: {e}");
        }
        out.push(Check {
            soft: proven_vcf,
            ..check("solution", ok, note)
        });
    }
    if let Some(last) = p.expect.vcf_last_move {
        let ours = f.result.line.last().copied();
        out.push(Check {
            soft: proven_vcf,
            ..check(
                "vcf_last_move",
                ours == Some(last),
                format!("expected {}", name(last)),
            )
        });
    }
    if let Some(ans) = &p.expect.answer {
        out.push(check(
            "answer",
            first.is_some_and(|m| ans.contains(&m)),
            format!("expected {}", names(ans)),
        ));
    }
    if let Some(win) = p.expect.outcome_win {
        let note = if win {
            "expected a win, none proven"
        } else {
            "WRONG: a win proven where the line says there is none"
        };
        out.push(check(
            if win {
                "outcome=win"
            } else {
                "outcome=not-win"
            },
            solved == win,
            note,
        ));
    }
    match &p.expect.best {
        Some(Best::Any) if solved => out.push(check("best", true, "")),
        Some(Best::Moves(good)) => {
            if let Some(m) = first.or(f.engine_move) {
                out.push(check(
                    "best",
                    good.contains(&m),
                    format!("expected {}", names(good)),
                ));
            }
        }
        _ => {}
    }
    out
}

/// Per-position JSON.
#[derive(Serialize)]
struct PositionJson<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    line_no: usize,
    size: usize,
    rule: &'static str,
    to_move: &'static str,
    task: &'a str,
    solved: bool,
    method: Option<&'static str>,
    first_move: Option<String>,
    line: Vec<String>,
    time_ms: f64,
    nodes: u64,
    /// The checker's verdict on a VCF line (`null` for other lines).
    verified: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    verify_error: Option<&'a str>,
    /// The checker's verdict on the source's `solution=` (VCF tasks only).
    #[serde(skip_serializing_if = "Option::is_none")]
    source_line_verified: Option<bool>,
    /// The main search's move (not a proof), only when `best=` was checked without a proof.
    #[serde(skip_serializing_if = "Option::is_none")]
    engine_move: Option<String>,
    matches: BTreeMap<&'a str, bool>,
}

#[derive(Serialize)]
struct SkippedJson<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    line_no: usize,
    error: &'a str,
}

#[derive(Serialize, Default, Clone, Copy)]
struct Tally {
    matched: usize,
    checked: usize,
}

#[derive(Serialize)]
struct SkippedLine {
    line_no: usize,
    error: String,
}

#[derive(Serialize)]
struct SummaryJson {
    #[serde(rename = "type")]
    kind: &'static str,
    file: String,
    positions: usize,
    solved: usize,
    by_method: BTreeMap<&'static str, usize>,
    median_ms: f64,
    /// Median over the solved positions only.
    median_solved_ms: f64,
    worst_ms: f64,
    worst_line_no: Option<usize>,
    total_ms: f64,
    nodes: u64,
    /// Per key: how many answers matched of those the key checked.
    matches: BTreeMap<String, Tally>,
    /// VCF lines passing the independent checker, of all VCF lines found.
    verified: Tally,
    /// The sources' `solution=` lines passing the checker (VCF tasks).
    source_lines: Tally,
    /// Lines whose source solution fails the checker.
    source_lines_failing: Vec<usize>,
    skipped: Vec<SkippedLine>,
}

/// Milliseconds rounded to the microsecond (the clock says no more).
fn round_us(ms: f64) -> f64 {
    (ms * 1000.0).round() / 1000.0
}

/// A time in milliseconds with precision that suits its size.
fn fmt_ms(ms: f64) -> String {
    if ms < 10.0 {
        format!("{ms:.2} ms")
    } else if ms < 100.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{ms:.0} ms")
    }
}

/// Reads the file into puzzles and malformed-line reports (line number, reason).
/// A malformed line: its number and what is wrong.
type Skipped = (usize, String);

fn read_file(path: &Path, ctx: FileContext) -> Result<(Vec<Puzzle>, Vec<Skipped>)> {
    let bytes = if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
            .context("cannot read the positions from standard input")?;
        bytes
    } else {
        std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?
    };
    let mut puzzles = Vec::new();
    let mut bad = Vec::new();
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line_no = i + 1;
        let Ok(line) = std::str::from_utf8(raw) else {
            bad.push((line_no, "not UTF-8 text".to_string()));
            continue;
        };
        if Record::is_blank(line) {
            continue;
        }
        match parse_puzzle(line.trim(), line_no, ctx) {
            Ok(p) => puzzles.push(p),
            Err(e) => bad.push((line_no, e)),
        }
    }
    Ok((puzzles, bad))
}

/// Solves the puzzles on `threads` threads, handing each answer to `emit` in file order.
fn solve_all(
    puzzles: &[Puzzle],
    threads: usize,
    limits: SolveLimits,
    mut emit: impl FnMut(usize, Found),
) {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Found)>();
    std::thread::scope(|s| {
        for _ in 0..threads.min(puzzles.len()) {
            let tx = tx.clone();
            let next = &next;
            s.spawn(move || {
                let mut solver = Solver::new();
                let mut engine = None;
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(p) = puzzles.get(i) else { break };
                    let found = solve_one(p, &mut solver, &mut engine, limits);
                    if tx.send((i, found)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // answers arrive in any order; hold them until the earlier ones are out
        let mut pending = BTreeMap::new();
        let mut want = 0;
        for (i, f) in rx {
            pending.insert(i, f);
            while let Some(f) = pending.remove(&want) {
                emit(want, f);
                want += 1;
            }
        }
    });
}

/// Runs the command.
///
/// # Errors
/// A missing or unreadable file, a file without positions, bad arguments, or failing stdout.
pub fn run(args: &Args) -> Result<()> {
    if args.threads == 0 || args.threads > MAX_THREADS {
        bail!("--threads must be between 1 and {MAX_THREADS}");
    }
    if args.time_ms == 0 {
        bail!("--time-ms must be at least 1");
    }
    let ctx = FileContext {
        vcf_dir: args
            .file
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n == "vcf"),
        task_override: args.task.as_deref().and_then(SolveTask::from_key),
    };
    let (puzzles, bad) = read_file(&args.file, ctx)?;
    let file = args.file.display().to_string();
    for (n, e) in &bad {
        eprintln!("warning: {file}:{n}: skipped: {e}");
    }
    if puzzles.is_empty() {
        if bad.is_empty() {
            bail!("{file}: no positions (the file is empty or has only comments)");
        }
        bail!("{file}: no valid position ({} malformed lines)", bad.len());
    }
    let limits = SolveLimits {
        time_ms: Some(args.time_ms),
        nodes: args.nodes,
        concurrent: args.concurrent,
    };
    let bar = progress_bar(args, puzzles.len());
    let mut out = std::io::stdout().lock();
    let mut totals = Totals::default();
    let mut write_err: Option<std::io::Error> = None;
    // skipped lines go into the JSON stream at their place in the file
    let mut bad_iter = bad.iter().peekable();
    solve_all(&puzzles, args.threads, limits, |i, f| {
        let p = &puzzles[i];
        let cs = checks(p, &f);
        totals.add(p, &f, &cs);
        let mut text = String::new();
        if args.json {
            while let Some((n, e)) = bad_iter.next_if(|(n, _)| *n < p.line_no) {
                text.push_str(&skipped_json(*n, e));
                text.push('\n');
            }
            text.push_str(&position_json(p, &f, &cs));
        } else {
            text.push_str(&position_text(p, &f, &cs));
        }
        text.push('\n');
        if write_err.is_none() {
            if let Err(e) = bar.suspend(|| out.write_all(text.as_bytes())) {
                write_err = Some(e);
            }
        }
        bar.inc(1);
        bar.set_message(format!("{} solved", totals.solved));
    });
    bar.finish_and_clear();
    if let Some(e) = write_err {
        return Err(e).context("writing the results");
    }
    let summary = totals.summary(file, puzzles.len(), &bad);
    if args.json {
        for (n, e) in bad_iter {
            writeln!(out, "{}", skipped_json(*n, e))?;
        }
        writeln!(out, "{}", serde_json::to_string(&summary)?)?;
    } else {
        out.write_all(summary_text(&summary).as_bytes())?;
    }
    out.flush()?;
    Ok(())
}

/// The progress bar of `positions` positions (hidden with `--json` or without a terminal).
fn progress_bar(args: &Args, positions: usize) -> ProgressBar {
    let bar = if args.json || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        ProgressBar::with_draw_target(Some(positions as u64), ProgressDrawTarget::stderr())
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} positions, {msg} [{elapsed}<{eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// A skipped line as a line of the JSON stream.
fn skipped_json(line_no: usize, error: &str) -> String {
    let s = SkippedJson {
        kind: "skipped",
        line_no,
        error,
    };
    serde_json::to_string(&s).unwrap_or_default()
}

/// The counts and times of the positions solved so far, for the summary.
#[derive(Default)]
struct Totals {
    times: Vec<f64>,
    solved_times: Vec<f64>,
    /// The longest time and its line.
    worst: Option<(f64, usize)>,
    nodes: u64,
    solved: usize,
    by_method: BTreeMap<&'static str, usize>,
    matches: BTreeMap<String, Tally>,
    verified: Tally,
    source_lines: Tally,
    source_lines_failing: Vec<usize>,
}

impl Totals {
    /// Counts the answer `f` to the puzzle `p`, and its checks `cs`.
    fn add(&mut self, p: &Puzzle, f: &Found, cs: &[Check]) {
        self.times.push(f.time_ms);
        if self.worst.is_none_or(|(t, _)| f.time_ms > t) {
            self.worst = Some((f.time_ms, p.line_no));
        }
        self.nodes += f.result.nodes;
        if let Some(m) = f.result.method {
            self.solved += 1;
            self.solved_times.push(f.time_ms);
            *self.by_method.entry(m.name()).or_default() += 1;
        }
        for c in cs {
            let t = self.matches.entry(c.key.clone()).or_default();
            t.checked += 1;
            t.matched += usize::from(c.ok);
        }
        if let Some(v) = &f.verified {
            self.verified.checked += 1;
            self.verified.matched += usize::from(v.is_ok());
        }
        if let Some(v) = &f.source_verified {
            self.source_lines.checked += 1;
            self.source_lines.matched += usize::from(v.is_ok());
            if v.is_err() {
                self.source_lines_failing.push(p.line_no);
            }
        }
    }

    /// The summary of the `positions` positions of `file`, with its skipped lines `bad`.
    fn summary(self, file: String, positions: usize, bad: &[Skipped]) -> SummaryJson {
        SummaryJson {
            kind: "summary",
            file,
            positions,
            solved: self.solved,
            by_method: self.by_method,
            median_ms: round_us(median(&self.times)),
            median_solved_ms: round_us(median(&self.solved_times)),
            worst_ms: round_us(self.worst.map_or(0.0, |w| w.0)),
            worst_line_no: self.worst.map(|w| w.1),
            total_ms: round_us(self.times.iter().sum()),
            nodes: self.nodes,
            matches: self.matches,
            verified: self.verified,
            source_lines: self.source_lines,
            source_lines_failing: self.source_lines_failing,
            skipped: bad
                .iter()
                .map(|(n, e)| SkippedLine {
                    line_no: *n,
                    error: e.clone(),
                })
                .collect(),
        }
    }
}

fn position_json(p: &Puzzle, f: &Found, cs: &[Check]) -> String {
    let size = p.board.size();
    let r = &f.result;
    let j = PositionJson {
        kind: "position",
        line_no: p.line_no,
        size,
        rule: p.board.rule().name(),
        to_move: p.board.to_move().name(),
        task: &p.task_name,
        solved: r.solved(),
        method: r.method.map(SolveMethod::name),
        first_move: r.first_move().map(|m| format_pos(m, size)),
        line: r.line.iter().map(|&m| format_pos(m, size)).collect(),
        time_ms: round_us(f.time_ms),
        nodes: r.nodes,
        verified: f.verified.as_ref().map(Result::is_ok),
        verify_error: f
            .verified
            .as_ref()
            .and_then(|v| v.as_ref().err())
            .map(String::as_str),
        source_line_verified: f.source_verified.as_ref().map(Result::is_ok),
        engine_move: f.engine_move.map(|m| format_pos(m, size)),
        matches: cs.iter().map(|c| (c.key.as_str(), c.ok)).collect(),
    };
    serde_json::to_string(&j).unwrap_or_default()
}

/// `line 12: black vcf: solved by vcf, first i13, 11 moves: i13 j14 ... | 0.31 ms, 812 nodes | side ok, solution ok, checker ok`
fn position_text(p: &Puzzle, f: &Found, cs: &[Check]) -> String {
    let size = p.board.size();
    let r = &f.result;
    let mut s = format!(
        "line {}: {} {}: ",
        p.line_no,
        p.board.to_move(),
        p.task_name
    );
    match (r.method, r.first_move()) {
        (Some(m), Some(first)) => {
            let line: Vec<String> = r.line.iter().map(|&q| format_pos(q, size)).collect();
            let _ = write!(
                s,
                "solved by {}, first {}, {} move{}: {}",
                m.name(),
                format_pos(first, size),
                line.len(),
                if line.len() == 1 { "" } else { "s" },
                line.join(" ")
            );
        }
        _ => {
            s.push_str("not solved");
            if let Some(m) = f.engine_move {
                let _ = write!(s, ", engine plays {} (not proven)", format_pos(m, size));
            }
        }
    }
    let _ = write!(s, " | {}, {} nodes", fmt_ms(f.time_ms), r.nodes);
    let mut notes: Vec<String> = cs
        .iter()
        .map(|c| {
            if c.ok {
                format!("{} ok", c.key)
            } else if c.soft {
                format!("{} other line ({})", c.key, c.note)
            } else {
                format!("{} NO ({})", c.key, c.note)
            }
        })
        .collect();
    match &f.verified {
        Some(Ok(())) => notes.push("checker ok".into()),
        Some(Err(e)) => notes.push(format!("checker FAILED ({e})")),
        None => {}
    }
    if !notes.is_empty() {
        let _ = write!(s, " | {}", notes.join(", "));
    }
    s
}

fn summary_text(s: &SummaryJson) -> String {
    let mut t = String::new();
    let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    let _ = writeln!(t, "== {}", s.file);
    let methods: Vec<String> = s
        .by_method
        .iter()
        .map(|(m, n)| format!("{m} {n}"))
        .collect();
    let _ = writeln!(
        t,
        "solved   {}/{} ({:.1}%){}",
        s.solved,
        s.positions,
        pct(s.solved, s.positions),
        if methods.is_empty() {
            String::new()
        } else {
            format!(": {}", methods.join(", "))
        }
    );
    let _ = writeln!(
        t,
        "time     median {} (solved: {}), worst {}{}, total {}",
        fmt_ms(s.median_ms),
        fmt_ms(s.median_solved_ms),
        fmt_ms(s.worst_ms),
        s.worst_line_no
            .map(|n| format!(" (line {n})"))
            .unwrap_or_default(),
        fmt_ms(s.total_ms)
    );
    let _ = writeln!(t, "nodes    {}", s.nodes);
    // the puzzle's claim first, then the details of the answer
    let rank = |k: &str| {
        [
            "task=",
            "outcome=",
            "side",
            "answer",
            "best",
            "solution",
            "vcf_last_move",
        ]
        .iter()
        .position(|p| k.starts_with(p))
        .unwrap_or(usize::MAX)
    };
    let mut keys: Vec<(&String, &Tally)> = s.matches.iter().collect();
    keys.sort_by_key(|(k, _)| rank(k));
    for (key, m) in keys {
        // another proven line than the source's is no error for these two
        let what = match key.as_str() {
            "solution" => ", same first move as the source's line",
            "vcf_last_move" => ", same final move",
            _ => "",
        };
        let _ = writeln!(
            t,
            "matched  {key}: {}/{} ({:.1}%{what})",
            m.matched,
            m.checked,
            pct(m.matched, m.checked)
        );
    }
    if s.verified.checked > 0 {
        let _ = writeln!(
            t,
            "checker  {}/{} VCF lines verified",
            s.verified.matched, s.verified.checked
        );
    }
    if s.source_lines.checked > 0 {
        let failing: Vec<String> = s
            .source_lines_failing
            .iter()
            .map(ToString::to_string)
            .collect();
        let _ = writeln!(
            t,
            "sources  {}/{} given solutions pass the checker{}",
            s.source_lines.matched,
            s.source_lines.checked,
            if failing.is_empty() {
                String::new()
            } else {
                format!(" (failing: lines {})", failing.join(", "))
            }
        );
    }
    if !s.skipped.is_empty() {
        let lines: Vec<String> = s.skipped.iter().map(|k| k.line_no.to_string()).collect();
        let _ = writeln!(
            t,
            "skipped  {} malformed line{}: {}",
            s.skipped.len(),
            if s.skipped.len() == 1 { "" } else { "s" },
            lines.join(", ")
        );
    }
    t
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod props;
