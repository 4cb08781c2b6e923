//! The games in play: one [`Slot`] per browser tab, each with its own [`Game`], players,
//! engine settings and event channel; the engine searches on threads of their own and reports
//! through the slot's channel.
//!
//! Locking: the map of games and each slot have their own `std` mutex, held only for short,
//! non-blocking work (never across an `.await`, never during a search). The order is always
//! map, then slot.

use super::error::ApiError;
use super::opening::{Choice, Next, Opening, Stage};
use super::psq;
use crate::clock::{Clock, ClockView};
use crate::commands::review as review_cmd;
use crate::pbrain::swap2;
use gomoku_engine::notation::{self, check_size, format_pos, parse_pos, parse_xy};
use gomoku_engine::record::Record;
use gomoku_engine::review::{review_game, Review, ReviewParams};
use gomoku_engine::search::{format_score, moves_to_result, RootMove, ValueBound};
use gomoku_engine::solver::{SolveLimits, SolveTask, Solver};
use gomoku_engine::study::{Greedy, PatternEval, Searcher};
use gomoku_engine::{
    Color, Engine, EngineConfig, Game, GameResult, Limits, Pos, Rule, SearchEvent, SearchInfo,
    SearchOptions, SearchResult,
};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// Server-wide settings.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Transposition table of each engine, in MB.
    pub hash_mb: usize,
    /// Search threads per engine move.
    pub threads: usize,
    /// A game with no request and no open event stream for this long is removed.
    pub idle_timeout: Duration,
    /// At most this many games at once.
    pub max_games: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            hash_mb: 32,
            threads: 1,
            idle_timeout: Duration::from_secs(30 * 60),
            max_games: 200,
        }
    }
}

/// Who plays a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// A person clicking on the board.
    Person,
    /// The engine.
    Engine,
}

/// Named engine strengths, from a one-ply greedy player to the full search. Every level also
/// obeys the game's time per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// One ply: the move whose resulting position evaluates best (a five is always taken).
    Greedy,
    /// Full search stopped at nominal depth 2.
    Easy,
    /// Depth 4.
    Medium,
    /// Depth 8.
    Hard,
    /// No depth limit: the whole time per move.
    Max,
}

impl Level {
    fn depth(self) -> Option<i32> {
        match self {
            Level::Greedy => Some(1),
            Level::Easy => Some(2),
            Level::Medium => Some(4),
            Level::Hard => Some(8),
            Level::Max => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Level::Greedy => "greedy",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Max => "max",
        }
    }
}

/// Bounds of the time per move, in milliseconds.
pub const TIME_RANGE_MS: std::ops::RangeInclusive<u64> = 10..=600_000;

/// The body of `POST /api/games`: every field optional.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NewGame {
    /// Rule name (default freestyle).
    pub rule: Option<String>,
    /// Board size (default 15, or the size of the `.psq` record).
    pub size: Option<usize>,
    /// Who plays Black (default person).
    pub black: Option<Player>,
    /// Who plays White (default engine).
    pub white: Option<Player>,
    /// Engine level (default max).
    pub level: Option<Level>,
    /// Engine time per move in ms (default 1000).
    pub time_ms: Option<u64>,
    /// Start from these moves (a position string).
    pub position: Option<String>,
    /// Start from this Piskvork `.psq` record.
    pub psq: Option<String>,
    /// `free` (the default) or `swap2` (one person and one engine, from an empty board; the
    /// player given as Black puts down the first three stones).
    pub opening: Option<OpeningRule>,
    /// A game clock: milliseconds per side (absent or 0: none). The side whose time runs out
    /// loses; the engine shares its time out over the game, each move at most `time_ms`.
    pub clock_ms: Option<u64>,
    /// Milliseconds added to a side's clock after each of its moves (with `clock_ms` only).
    pub increment_ms: Option<u64>,
    /// Start from a set-up position (instead of `position` or `psq`).
    pub setup: Option<SetUp>,
    /// Start from a board diagram (`X` Black, `O` White, `.` empty, a row per line from the
    /// top, as `gomoku position` prints it); a set-up position like `setup`.
    pub diagram: Option<String>,
    /// Start from a line of the datasets' common format (`15 renju h8 i9 | key=value`): its
    /// size and rule; with a pass among its moves a set-up position, else a game.
    pub record: Option<String>,
}

/// A position set up stone by stone: the start of a new game. Its stones are not moves of the
/// game: they cannot be undone, and a review starts after them.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SetUp {
    /// Black's stones (`h8` style or Gomocup `x,y`).
    pub black: Vec<String>,
    /// White's stones.
    pub white: Vec<String>,
    /// The side to move (default: Black when Black has no more stones than White, else
    /// White).
    pub to_move: Option<String>,
}

/// How a game opens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpeningRule {
    /// Black's first move is free.
    #[default]
    Free,
    /// Swap2: three stones, a choice, perhaps two more stones and a second choice.
    Swap2,
}

/// The body of `POST /api/games/{id}/swap2`: the person's choice in a swap2 opening.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Swap2Request {
    /// `black`, `white` or (after three stones) `more`.
    pub choice: Choice,
}

/// The body of `POST /api/games/{id}/settings`.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// New engine level.
    pub level: Option<Level>,
    /// New time per move in ms.
    pub time_ms: Option<u64>,
}

/// The body of `POST /api/games/{id}/move`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The point: `h8` style or Gomocup `x,y`.
    #[serde(rename = "move")]
    pub point: String,
    /// The colour the sender believes is to move; a mismatch is refused as out of turn.
    #[serde(default)]
    pub color: Option<String>,
}

/// The body of `POST /api/games/{id}/analyze` (optional).
#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AnalyzeRequest {
    /// Analysis on (the default) or off.
    pub on: bool,
    /// Empty points the analysis leaves out, replacing those left out before (`h8` or `x,y`);
    /// absent, they stay as they were. They hold for the position on the board only.
    pub exclude: Option<Vec<String>>,
}

impl Default for AnalyzeRequest {
    fn default() -> Self {
        AnalyzeRequest {
            on: true,
            exclude: None,
        }
    }
}

/// The body of `POST /api/games/{id}/review` (optional).
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReviewRequest {
    /// Milliseconds of search for each position ([`REVIEW_MS`] by default).
    pub time_ms: Option<u64>,
}

/// The time a review gives each position by default.
pub const REVIEW_MS: u64 = 500;

/// The body of `POST /api/games/{id}/solve` (optional).
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SolveRequest {
    /// `vcf` (fours only), `vct` (fours and threes, the default) or `win` (any proof, the
    /// main search's included).
    pub task: Option<String>,
    /// Milliseconds to look for it ([`SOLVE_MS`] by default, at most [`SOLVE_MAX_MS`]).
    pub time_ms: Option<u64>,
}

/// The time a solve takes by default.
pub const SOLVE_MS: u64 = 2000;
/// The longest solve (`stop` ends one sooner).
pub const SOLVE_MAX_MS: u64 = 30_000;

/// The body of `POST /api/games/{id}/resign` (optional).
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ResignRequest {
    /// Who resigns; by default the person (or the side to move when both or neither are).
    pub color: Option<String>,
}

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Purpose {
    /// A move that will be played.
    Move,
    /// A suggestion for the person to move.
    Hint,
    /// Analysis of the position: every candidate move with its exact value.
    Analysis,
    /// The engine's stones or choice in a swap2 opening.
    Swap2,
    /// A review of every move of the game.
    Review,
    /// A proof of a forced win (VCF, VCT) for the side to move.
    Solve,
}

impl Purpose {
    fn name(self) -> &'static str {
        match self {
            Purpose::Move => "move",
            Purpose::Hint => "hint",
            Purpose::Analysis => "analysis",
            Purpose::Swap2 => "swap2",
            Purpose::Review => "review",
            Purpose::Solve => "solve",
        }
    }
}

/// How long one analysis runs at most (a tab left open must not keep a core busy for ever).
pub const ANALYSIS_MS: u64 = 5 * 60 * 1000;

/// How often a game's clock is looked at for a side whose time ran out.
const CLOCK_TICK: Duration = Duration::from_millis(50);

/// Ends the game of `slot` when the running side's time is over, until the game is removed.
/// A thread of its own, which mostly sleeps.
fn watch_clock(slot: Weak<Mutex<Slot>>) {
    let spawned = std::thread::Builder::new()
        .name("gomoku-clock".to_string())
        .spawn(move || loop {
            std::thread::sleep(CLOCK_TICK);
            let Some(slot) = slot.upgrade() else {
                return;
            };
            lock(&slot).check_flag();
        });
    if let Err(e) = spawned {
        // moves still end the game on time; only a side that never moves is not flagged
        eprintln!("gomoku serve: cannot start a game clock's thread: {e}");
    }
}

/// Kept off the engine's time left on the clock (the move's way from the search to the game).
const CLOCK_MARGIN_MS: u64 = 50;

/// The least depth of the engine's swap2 decisions, whatever its level.
const SWAP2_MIN_DEPTH: i32 = 6;

/// How many candidate moves an analysis reports.
pub const CANDIDATES: usize = 12;

/// One candidate move of an analysis.
#[derive(Clone, Debug, Serialize)]
pub struct Candidate {
    /// The point (`h8` style).
    #[serde(rename = "move")]
    pub point: String,
    /// Its value for the side to move.
    pub score: i32,
    /// The value as text, as in [`EngineInfo::eval`].
    pub eval: String,
    /// Own moves to a proven result, as in [`EngineInfo::mate`].
    pub mate: Option<i32>,
    /// The depth the value comes from.
    pub depth: i32,
    /// The line starting with this move.
    pub pv: Vec<String>,
}

impl Candidate {
    /// The first [`CANDIDATES`] moves with exact values (an analysis gives them for that
    /// many moves, and only bounds for the rest).
    fn list(moves: &[RootMove], size: usize) -> Vec<Candidate> {
        moves
            .iter()
            .filter(|m| m.pos.is_point() && m.bound == ValueBound::Exact)
            .take(CANDIDATES)
            .map(|m| Candidate {
                point: format_pos(m.pos, size),
                score: m.score,
                eval: format_score(m.score),
                mate: moves_to_result(m.score),
                depth: m.depth,
                pv: m.pv.iter().map(|&p| format_pos(p, size)).collect(),
            })
            .collect()
    }
}

/// What the engine reports about a search, live or final.
#[derive(Clone, Debug, Serialize)]
pub struct EngineInfo {
    /// Move or hint.
    pub purpose: Purpose,
    /// The colour the engine searched for.
    pub color: &'static str,
    /// The best move so far (`h8` style), `null` before the first iteration.
    #[serde(rename = "move")]
    pub point: Option<String>,
    /// Score for the searching side.
    pub score: i32,
    /// The score as text: `+35`, `win in 3`, `loss in 2`.
    pub eval: String,
    /// Own moves to a proven result: positive wins, negative loses, `null` when not proven.
    pub mate: Option<i32>,
    /// The score from Black's point of view (for the evaluation graph).
    pub black_score: i32,
    /// Nominal depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition-table hits.
    pub tt_hits: u64,
    /// Think time so far.
    pub time_ms: u64,
    /// Principal variation.
    pub pv: Vec<String>,
    /// Which searcher (`pvs` or `greedy/pattern`).
    pub engine: String,
    /// Whether the search has finished.
    #[serde(rename = "final")]
    pub done: bool,
    /// An analysis's candidate moves, best first (absent for moves and hints).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<Candidate>,
}

impl EngineInfo {
    fn new(purpose: Purpose, color: Color, score: i32, pv: &[Pos], size: usize) -> EngineInfo {
        EngineInfo {
            purpose,
            color: color.name(),
            point: pv.first().map(|&p| format_pos(p, size)),
            score,
            eval: format_score(score),
            mate: moves_to_result(score),
            black_score: if color == Color::Black { score } else { -score },
            depth: 0,
            seldepth: 0,
            nodes: 0,
            nps: 0,
            tt_hits: 0,
            time_ms: 0,
            pv: pv.iter().map(|&p| format_pos(p, size)).collect(),
            engine: String::new(),
            done: false,
            candidates: Vec::new(),
        }
    }

    fn from_iteration(
        purpose: Purpose,
        color: Color,
        i: &SearchInfo,
        size: usize,
        engine: &str,
    ) -> EngineInfo {
        EngineInfo {
            depth: i.depth,
            seldepth: i.seldepth,
            nodes: i.nodes,
            nps: i.nps,
            tt_hits: i.tt_hits,
            time_ms: i.elapsed_ms,
            engine: engine.to_string(),
            ..EngineInfo::new(purpose, color, i.score, &i.pv, size)
        }
    }

    fn from_result(
        purpose: Purpose,
        color: Color,
        r: &SearchResult,
        size: usize,
        engine: &str,
    ) -> EngineInfo {
        // the reported move is the one played, even if the PV was cut short
        let mut pv = r.pv.clone();
        if pv.first() != Some(&r.best_move) {
            pv = vec![r.best_move];
        }
        EngineInfo {
            depth: r.depth,
            seldepth: r.seldepth,
            nodes: r.stats.nodes,
            nps: r.stats.nodes * 1000 / r.elapsed_ms.max(1),
            tt_hits: r.stats.tt_hits,
            time_ms: r.elapsed_ms,
            engine: engine.to_string(),
            done: true,
            candidates: if purpose == Purpose::Analysis {
                Candidate::list(&r.root_moves, size)
            } else {
                Vec::new()
            },
            ..EngineInfo::new(purpose, color, r.score, &pv, size)
        }
    }
}

/// Events sent to the pages watching a game (already serialized, so cloning is cheap).
#[derive(Clone, Debug)]
pub enum ServerEvent {
    /// The whole game state after a change (JSON of [`GameView`]).
    State(Arc<str>),
    /// Progress of the running search (JSON of [`EngineInfo`]).
    Info(Arc<str>),
    /// The game was removed; no more events follow.
    Closed,
}

/// One move of the game as the page sees it.
#[derive(Clone, Debug)]
struct MoveRecord {
    pos: Pos,
    ms: u64,
    engine: Option<EngineInfo>,
}

#[derive(Debug)]
struct Job {
    id: u64,
    purpose: Purpose,
    color: Color,
    stop: Arc<AtomicBool>,
    started: Instant,
}

/// Idle engines, reused between searches so that tables are allocated once, not per move.
#[derive(Debug)]
pub struct EnginePool {
    idle: Mutex<Vec<(Engine, u64)>>,
    config: EngineConfig,
}

/// Engines kept allocated while idle.
const POOL_KEEP: usize = 2;

impl EnginePool {
    fn new(config: EngineConfig) -> EnginePool {
        EnginePool {
            idle: Mutex::new(Vec::new()),
            config,
        }
    }

    /// An engine for game `serial`: the one it used last if idle (its table still helps),
    /// otherwise any idle engine with a cleared table, otherwise a new one.
    fn take(&self, serial: u64) -> Engine {
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

    fn put(&self, engine: Engine, serial: u64) {
        let mut idle = lock(&self.idle);
        if idle.len() < POOL_KEEP {
            idle.push((engine, serial));
        }
    }
}

/// Locks a mutex, recovering the data if a thread panicked while holding it (the data of a
/// game stays consistent because every change is made in one step under the lock).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

static NEXT_JOB: AtomicU64 = AtomicU64::new(1);
static NEXT_SERIAL: AtomicU64 = AtomicU64::new(1);

/// A point written `h8` style or as Gomocup's `x,y`.
fn read_point(text: &str, size: usize) -> Result<Pos, gomoku_engine::NotationError> {
    let text = text.trim();
    if text.contains(',') {
        parse_xy(text, size)
    } else {
        parse_pos(text, size)
    }
}

fn parse_color(s: &str) -> Result<Color, ApiError> {
    match s.trim().to_ascii_lowercase().as_str() {
        "black" | "b" | "x" => Ok(Color::Black),
        "white" | "w" | "o" => Ok(Color::White),
        _ => Err(ApiError::bad_request(
            "bad_color",
            format!("'{s}': a colour is black or white"),
        )),
    }
}

/// The game of a set-up position; errors are 400 `bad_position`.
fn set_up(size: usize, rule: Rule, req: &SetUp) -> Result<Game, ApiError> {
    let bad = |e: String| ApiError::bad_request("bad_position", e);
    let read = |list: &[String], color: &str| -> Result<Vec<Pos>, ApiError> {
        list.iter()
            .map(|t| read_point(t, size).map_err(|e| bad(format!("{color} stone: {e}"))))
            .collect()
    };
    let (black, white) = (read(&req.black, "black")?, read(&req.white, "white")?);
    let to_move = req.to_move.as_deref().map(parse_color).transpose()?;
    let to_move = to_move.unwrap_or_else(|| notation::side_to_move(black.len(), white.len()));
    Game::from_stones(size, rule, &black, &white, to_move).map_err(|e| bad(e.to_string()))
}

fn check_time(ms: u64) -> Result<u64, ApiError> {
    if TIME_RANGE_MS.contains(&ms) {
        Ok(ms)
    } else {
        Err(ApiError::bad_request(
            "bad_settings",
            format!(
                "time_ms {ms} is out of range ({} to {})",
                TIME_RANGE_MS.start(),
                TIME_RANGE_MS.end()
            ),
        ))
    }
}

/// A fresh id that is hard to guess (so one tab cannot stumble on another's game).
fn new_id(serial: u64) -> String {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(serial);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    h.write_u64(t);
    format!("{:016x}{:04x}", h.finish(), serial & 0xffff)
}

/// One game and everything around it.
#[derive(Debug)]
pub struct Slot {
    id: String,
    serial: u64,
    me: Weak<Mutex<Slot>>,
    pool: Arc<EnginePool>,
    game: Game,
    players: [Player; 2],
    level: Level,
    time_ms: u64,
    records: Vec<MoveRecord>,
    redo_records: Vec<MoveRecord>,
    resigned: Option<Color>,
    /// The game clock, if the game has one.
    clock: Option<Clock>,
    /// The side that lost on time.
    timed_out: Option<Color>,
    job: Option<Job>,
    live: Option<EngineInfo>,
    hint: Option<EngineInfo>,
    /// Whether analysis mode is on: the position is analysed whenever the engine is idle.
    analyze: bool,
    /// The last finished analysis of the current position.
    analysis: Option<EngineInfo>,
    /// Points the analysis leaves out, with the position they were chosen in (they hold for
    /// it only).
    excluded: Option<(String, Vec<Pos>)>,
    /// The swap2 opening while it lasts.
    opening: Option<Opening>,
    /// Stones put down in the opening (undo does not go back into it).
    opening_plies: usize,
    /// What happened in the swap2 opening (points in `h8` style).
    swap2_log: Vec<String>,
    /// The last review of the game, running or done.
    review: Option<ReviewState>,
    /// The last solve, with the position it was for.
    solution: Option<(String, SolutionView)>,
    error: Option<String>,
    version: u64,
    last_seen: Instant,
    turn_started: Instant,
    watchers: Arc<()>,
    tx: broadcast::Sender<ServerEvent>,
}

/// A review of the game: its progress while it runs, then its verdicts.
#[derive(Debug)]
struct ReviewState {
    /// The moves reviewed (the game when the review started).
    moves: Vec<Pos>,
    time_ms: u64,
    done: usize,
    total: usize,
    result: Option<Review>,
}

/// The JSON state of a game.
#[derive(Debug, Serialize)]
pub struct GameView {
    id: String,
    version: u64,
    rule: &'static str,
    size: usize,
    players: PlayersView,
    level: Level,
    time_ms: u64,
    to_move: &'static str,
    moves: Vec<MoveView>,
    redo: Vec<String>,
    position: String,
    result: Option<ResultView>,
    forbidden: Vec<ForbiddenView>,
    thinking: Option<ThinkingView>,
    live: Option<EngineInfo>,
    hint: Option<EngineInfo>,
    /// Whether analysis mode is on.
    analyze: bool,
    /// The last finished analysis of the current position (the live one is in `live`).
    analysis: Option<EngineInfo>,
    /// The points the analysis of the current position leaves out.
    excluded: Vec<String>,
    /// The swap2 opening while it lasts.
    opening: Option<OpeningView>,
    /// What happened in the swap2 opening: the engine's reasons, the choices made.
    swap2_log: Vec<String>,
    /// The plies of a set-up start position (0 without one): `moves` up to this number are
    /// its stones (and passes), not moves of the game; they cannot be undone.
    setup_plies: usize,
    /// The review of the game's moves: running, or done (only the moves still in the game).
    review: Option<ReviewView>,
    /// The last solve's answer, while the position is the one it was for.
    solution: Option<SolutionView>,
    /// The game clock (`null` without one).
    clock: Option<ClockView>,
    /// Why the engine could not move, if it could not (never set by a bad request).
    engine_error: Option<String>,
}

#[derive(Debug, Serialize)]
struct PlayersView {
    black: Player,
    white: Player,
}

#[derive(Debug, Serialize)]
struct MoveView {
    number: usize,
    #[serde(rename = "move")]
    point: String,
    x: Option<usize>,
    y: Option<usize>,
    color: &'static str,
    ms: u64,
    engine: Option<EngineInfo>,
}

#[derive(Debug, Serialize)]
struct ResultView {
    /// `win` or `draw`.
    kind: &'static str,
    winner: Option<&'static str>,
    line: Vec<String>,
    foul: Option<&'static str>,
    resigned: bool,
    /// The loser's time ran out.
    timeout: bool,
}

#[derive(Debug, Serialize)]
struct ForbiddenView {
    point: String,
    kind: &'static str,
}

#[derive(Debug, Serialize)]
struct OpeningView {
    rule: &'static str,
    stage: Stage,
    /// Who puts down the first three stones.
    first: Player,
    /// Who acts now.
    actor: Player,
    /// The person's choices now (empty while stones are put down or the engine decides).
    choices: &'static [&'static str],
}

#[derive(Debug, Serialize)]
struct ReviewView {
    /// Whether it is still running.
    running: bool,
    /// Positions searched so far, of `total`.
    done: usize,
    total: usize,
    /// Milliseconds of search per position.
    time_ms: u64,
    /// Whether every move was reviewed (a stopped review holds the last moves only).
    complete: bool,
    /// The verdicts, for the reviewed moves that are still the game's.
    moves: Vec<review_cmd::MoveJson>,
    black: review_cmd::CountsJson,
    white: review_cmd::CountsJson,
}

/// The answer of a solve.
#[derive(Clone, Debug, Serialize)]
pub struct SolutionView {
    /// `vcf`, `vct` or `win`: what was looked for.
    task: &'static str,
    /// The side whose win was looked for (the side to move).
    color: &'static str,
    /// Whether a win was proven.
    solved: bool,
    /// Whether `stop` ended the solve before its time (and before it proved a win).
    stopped: bool,
    /// Which search proved it: `vcf`, `vct` or `search`.
    method: Option<&'static str>,
    /// The winning line, attacker and defender alternating (for a VCT, one branch).
    line: Vec<String>,
    nodes: u64,
    time_ms: u64,
    /// The time it was given.
    limit_ms: u64,
}

#[derive(Debug, Serialize)]
struct ThinkingView {
    purpose: Purpose,
    color: &'static str,
    /// Milliseconds since the search started.
    elapsed_ms: u64,
}

impl Slot {
    fn size(&self) -> usize {
        self.game.board().size()
    }

    fn is_over(&self) -> bool {
        self.resigned.is_some() || self.timed_out.is_some() || self.game.is_over()
    }

    /// Milliseconds of the turn under way.
    fn turn_ms(&self) -> u64 {
        self.turn_started.elapsed().as_millis() as u64
    }

    /// The side whose clock runs: the side to move, in a game with a clock that goes on
    /// (not in a swap2 opening).
    fn clock_running(&self) -> Option<Color> {
        (self.clock.is_some() && !self.is_over() && self.opening.is_none())
            .then(|| self.game.board().to_move())
    }

    /// Ends the game if the running side's time is over (the search under way stops). True
    /// when it did.
    fn check_flag(&mut self) -> bool {
        let Some(color) = self.clock_running() else {
            return false;
        };
        let used = self.turn_ms();
        let Some(clock) = &mut self.clock else {
            return false;
        };
        if !clock.is_out(color, used) {
            return false;
        }
        clock.run_out(color);
        self.timed_out = Some(color);
        self.cancel_job();
        self.hint = None;
        self.changed();
        true
    }

    /// Charges the turn under way to the running side without ending it by a move (an undo, a
    /// redo or a swap of sides starts a new turn), so that no time goes uncounted.
    fn settle_clock(&mut self) {
        if self.check_flag() {
            return;
        }
        if let Some(color) = self.clock_running() {
            let used = self.turn_ms();
            if let Some(clock) = &mut self.clock {
                clock.charge(color, used, false);
            }
        }
        self.turn_started = Instant::now();
    }

    /// Charges a move of `color` that took `used` ms (`running`: whether its clock ran).
    fn charge_move(&mut self, running: Option<Color>, used: u64) {
        if let (Some(color), Some(clock)) = (running, &mut self.clock) {
            if !clock.charge(color, used, true) {
                // the move came as the time ran out: it stands, with no time left
                clock.run_out(color);
            }
        }
    }

    /// Refuses a move of a side whose time is over (and ends the game for it).
    fn refuse_if_flagged(&mut self) -> Result<(), ApiError> {
        if self.check_flag() {
            Err(ApiError::conflict(
                "game_over",
                "the game is over: the time ran out",
            ))
        } else {
            Ok(())
        }
    }

    fn has_person(&self) -> bool {
        self.players.contains(&Player::Person)
    }

    fn player(&self, c: Color) -> Player {
        self.players[c.index()]
    }

    /// Marks the game as used now.
    pub fn touch(&mut self) {
        self.last_seen = Instant::now();
    }

    /// A receiver of this game's events and a token whose lifetime marks an open stream.
    pub fn subscribe(&mut self) -> (broadcast::Receiver<ServerEvent>, Arc<()>) {
        self.touch();
        (self.tx.subscribe(), self.watchers.clone())
    }

    /// The state as JSON-ready data.
    pub fn view(&mut self) -> GameView {
        let size = self.size();
        let board_moves: Vec<Pos> = self.game.board().moves().to_vec();
        let moves = board_moves
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                let rec = self.records.get(i).filter(|r| r.pos == p);
                MoveView {
                    number: i + 1,
                    point: format_pos(p, size),
                    x: p.is_point().then(|| p.x()),
                    y: p.is_point().then(|| p.y()),
                    color: if i % 2 == 0 { "black" } else { "white" },
                    ms: rec.map_or(0, |r| r.ms),
                    engine: rec.and_then(|r| r.engine.clone()),
                }
            })
            .collect();
        let result = if let Some(loser) = self.resigned.or(self.timed_out) {
            Some(ResultView {
                kind: "win",
                winner: Some(loser.opponent().name()),
                line: Vec::new(),
                foul: None,
                resigned: self.resigned.is_some(),
                timeout: self.resigned.is_none(),
            })
        } else {
            self.game.result().map(|r| match r {
                GameResult::Win { winner, line, foul } => ResultView {
                    kind: "win",
                    winner: Some(winner.name()),
                    line: line.iter().map(|&p| format_pos(p, size)).collect(),
                    foul: foul.map(|k| k.name()),
                    resigned: false,
                    timeout: false,
                },
                GameResult::Draw => ResultView {
                    kind: "draw",
                    winner: None,
                    line: Vec::new(),
                    foul: None,
                    resigned: false,
                    timeout: false,
                },
            })
        };
        let to_move = self.game.board().to_move();
        let forbidden = if self.is_over() || to_move != Color::Black {
            Vec::new()
        } else {
            self.game
                .board_mut()
                .forbidden_points()
                .into_iter()
                .map(|(p, k)| ForbiddenView {
                    point: format_pos(p, size),
                    kind: k.name(),
                })
                .collect()
        };
        GameView {
            id: self.id.clone(),
            version: self.version,
            rule: self.game.board().rule().name(),
            size,
            players: PlayersView {
                black: self.players[0],
                white: self.players[1],
            },
            level: self.level,
            time_ms: self.time_ms,
            to_move: to_move.name(),
            moves,
            redo: self
                .game
                .redo_stack()
                .iter()
                .map(|&p| format_pos(p, size))
                .collect(),
            position: self.game.board().position_string(),
            result,
            forbidden,
            thinking: self.job.as_ref().map(|j| ThinkingView {
                purpose: j.purpose,
                color: j.color.name(),
                elapsed_ms: j.started.elapsed().as_millis() as u64,
            }),
            live: self.live.clone(),
            hint: self.hint.clone(),
            analyze: self.analyze,
            analysis: self.analysis.clone(),
            excluded: self
                .excluded()
                .iter()
                .map(|&p| format_pos(p, self.game.board().size()))
                .collect(),
            opening: self.opening.as_ref().map(|o| OpeningView {
                rule: "swap2",
                stage: o.stage,
                first: o.first,
                actor: o.actor(),
                choices: if o.actor() == Player::Person {
                    o.choices()
                } else {
                    &[]
                },
            }),
            swap2_log: self.swap2_log.clone(),
            setup_plies: self.game.start_ply(),
            review: self.review_view(&board_moves),
            solution: self
                .solution
                .as_ref()
                .filter(|(position, _)| *position == self.game.board().position_string())
                .map(|(_, v)| v.clone()),
            clock: self
                .clock
                .as_ref()
                .map(|c| c.view(self.clock_running().map(|color| (color, self.turn_ms())))),
            engine_error: self.error.clone(),
        }
    }

    /// Records a change: bumps the version and sends the new state to the watchers.
    fn changed(&mut self) {
        // no touch here: the engine's own moves must not keep an abandoned game alive
        self.version += 1;
        let view = self.view();
        match serde_json::to_string(&view) {
            Ok(json) => {
                // no receiver is not an error: nobody is watching right now
                let _ = self.tx.send(ServerEvent::State(json.into()));
            }
            Err(e) => eprintln!("gomoku serve: cannot serialize a game: {e}"),
        }
    }

    /// Stops and forgets the running search, if any (its result will be ignored).
    fn cancel_job(&mut self) {
        if let Some(job) = self.job.take() {
            job.stop.store(true, Ordering::Relaxed);
        }
        self.live = None;
    }

    fn refuse_if_thinking(&self) -> Result<(), ApiError> {
        match &self.job {
            Some(j) if j.purpose == Purpose::Move => Err(ApiError::conflict(
                "engine_thinking",
                format!("the engine is thinking for {}; wait or press stop", j.color),
            )),
            _ => Ok(()),
        }
    }

    fn refuse_if_over(&self) -> Result<(), ApiError> {
        if self.is_over() {
            Err(ApiError::conflict("game_over", "the game is over"))
        } else {
            Ok(())
        }
    }

    /// Refuses what a swap2 opening does not allow (`what`: the action, for the message).
    fn refuse_in_opening(&self, what: &str) -> Result<(), ApiError> {
        if self.opening.is_some() {
            Err(ApiError::conflict(
                "opening",
                format!("{what} waits until the swap2 opening is over"),
            ))
        } else {
            Ok(())
        }
    }

    /// Starts the engine if it is to move in a game still going (or to act in the opening),
    /// otherwise the analysis if it is on.
    fn maybe_start_engine(&mut self) {
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
    fn maybe_analyze(&mut self) {
        if self.analyze
            && self.job.is_none()
            && self.opening.is_none()
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
    fn start_job(&mut self, purpose: Purpose) -> Result<(), ApiError> {
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
        let limits = Limits {
            move_time_ms: Some(if purpose == Purpose::Analysis {
                ANALYSIS_MS
            } else {
                self.time_ms
            }),
            game_time_left_ms: clock_left,
            margin_ms: if clock_left.is_some() {
                CLOCK_MARGIN_MS
            } else {
                0
            },
            depth: level.depth(),
            ..Limits::default()
        };
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

    /// Runs `work` on a thread of its own as the slot's job (`work` gets the job's id and stop
    /// flag), then hands its result to `finish` under the slot's lock (`None` if it panicked).
    /// Nothing is handed over once the game is removed.
    fn spawn_job<R: Send + 'static>(
        &mut self,
        purpose: Purpose,
        work: impl FnOnce(u64, &AtomicBool) -> R + Send + 'static,
        finish: fn(&mut Slot, u64, Option<R>),
    ) -> Result<(), ApiError> {
        let id = NEXT_JOB.fetch_add(1, Ordering::Relaxed);
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = stop.clone();
        let me = self.me.clone();
        std::thread::Builder::new()
            .name(format!("gomoku-{}", purpose.name()))
            .spawn(move || {
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    work(id, &thread_stop)
                }));
                if let Some(slot) = me.upgrade() {
                    finish(&mut lock(&slot), id, result.ok());
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

    /// Starts the engine's swap2 decision (stones or a colour) on a thread of its own. It may
    /// take up to three times the time per move: the choice is worth more than one move.
    fn start_swap2_job(&mut self) -> Result<(), ApiError> {
        let board = self.game.board().clone();
        let pool = self.pool.clone();
        let serial = self.serial;
        // the opening is chosen with a real search at every level (a weak level plays weak
        // moves, but a colour chosen by a one-ply look would decide the game by chance)
        let limits = Limits {
            depth: self.level.depth().map(|d| d.max(SWAP2_MIN_DEPTH)),
            ..Limits::default()
        };
        let time_ms = self.time_ms.saturating_mul(3);
        self.spawn_job(
            Purpose::Swap2,
            move |id, stop| {
                let seed = serial.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ id;
                let mut engine = pool.take(serial);
                let mut notes = Vec::new();
                let mut note = |line: String| notes.push(line);
                let mut cx = swap2::Context {
                    searcher: &mut engine,
                    limits,
                    time_ms: Some(time_ms),
                    stop,
                    seed,
                    note: &mut note,
                };
                let answer = swap2::decide(&mut cx, &board);
                pool.put(engine, serial);
                (answer, notes)
            },
            Slot::finish_swap2,
        )
    }

    /// Takes the engine's swap2 decision for job `job`: its stones go down and the opening
    /// moves on (an answer that does not fit is replaced by the fallback one).
    fn finish_swap2(&mut self, job: u64, result: Option<(swap2::Answer, Vec<String>)>) {
        if self.job.take_if(|j| j.id == job).is_none() {
            return;
        }
        let Some(opening) = self.opening.clone() else {
            return;
        };
        let (answer, notes) = result.unwrap_or_else(|| {
            let b = self.game.board();
            (
                swap2::fallback(b),
                vec!["swap2: the decision failed; the fallback answer".to_string()],
            )
        });
        let Some((stones, next)) = opening.engine_answer(self.game.board(), &answer) else {
            self.error = Some("the engine found no answer in the swap2 opening".to_string());
            self.changed();
            return;
        };
        for p in stones {
            if self.game.play(p).is_err() {
                self.error = Some("the engine's swap2 stone was refused".to_string());
                break;
            }
            self.records.push(MoveRecord {
                pos: p,
                ms: 0,
                engine: None,
            });
        }
        // the notes are written for the protocol (`x,y`); the page speaks `h8`
        let size = self.size();
        for line in notes {
            let words: Vec<String> = line
                .split(' ')
                .map(|w| parse_xy(w, size).map_or_else(|_| w.to_string(), |p| format_pos(p, size)))
                .collect();
            self.swap2_log.push(words.join(" "));
        }
        self.log_decision(Player::Engine, next);
        self.advance_opening(next);
        self.changed();
    }

    /// One line of the swap2 log for `who`'s decision.
    fn log_decision(&mut self, actor: Player, next: Next) {
        let who = if actor == Player::Engine {
            "the engine"
        } else {
            "you"
        };
        let line = match next {
            Next::Stage(Stage::Choice3) => format!("swap2: {who} put down three stones"),
            Next::Stage(Stage::Five) => format!("swap2: {who} will put down two more stones"),
            Next::Stage(Stage::Choice5) => {
                format!("swap2: {who} put down two more stones; the other side chooses")
            }
            Next::Stage(Stage::Three) => return,
            Next::Done { black } => {
                let took = if black == actor { "Black" } else { "White" };
                format!("swap2: {who} took {took}")
            }
        };
        self.swap2_log.push(line);
    }

    /// Applies where a choice or an answer leads: a new stage, or the end of the opening with
    /// the colours settled; then the engine acts if it is its turn.
    fn advance_opening(&mut self, next: Next) {
        match next {
            Next::Stage(stage) => {
                if let Some(o) = &mut self.opening {
                    o.stage = stage;
                }
            }
            Next::Done { black } => {
                self.players = match black {
                    Player::Person => [Player::Person, Player::Engine],
                    Player::Engine => [Player::Engine, Player::Person],
                };
                self.opening = None;
                self.opening_plies = self.game.board().ply();
                self.turn_started = Instant::now();
            }
        }
        self.redo_records.clear();
        self.maybe_start_engine();
    }

    /// The person's choice in a swap2 opening.
    ///
    /// # Errors
    /// 409 when there is no opening, it is not the person's choice, or the choice does not fit
    /// the stage.
    pub fn swap2_choice(&mut self, req: &Swap2Request) -> Result<(), ApiError> {
        self.touch();
        let Some(o) = &self.opening else {
            return Err(ApiError::conflict(
                "no_opening",
                "this game has no swap2 opening under way",
            ));
        };
        if o.actor() != Player::Person || o.placing() {
            return Err(ApiError::conflict(
                "not_your_choice",
                if o.actor() == Player::Engine {
                    "the engine is deciding"
                } else {
                    "put down your stones first"
                },
            ));
        }
        let next = o
            .choose(req.choice)
            .map_err(|m| ApiError::conflict("bad_choice", m))?;
        self.error = None;
        self.log_decision(Player::Person, next);
        self.advance_opening(next);
        self.changed();
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
                match current.purpose {
                    Purpose::Hint => self.hint = Some(info),
                    Purpose::Analysis => self.analysis = Some(info),
                    // swap2 decisions and reviews end in `finish_swap2` and `finish_review`
                    Purpose::Swap2 | Purpose::Review | Purpose::Solve => {}
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
                            self.records.push(MoveRecord {
                                pos: r.best_move,
                                ms: r.elapsed_ms,
                                engine: Some(info),
                            });
                            self.redo_records.clear();
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
            if let Ok(json) = serde_json::to_string(&info) {
                let _ = self.tx.send(ServerEvent::Info(json.into()));
            }
            self.live = Some(info);
        }
    }

    // -----------------------------------------------------------------------------------------
    // Actions (each leaves the game unchanged when it returns an error).

    /// A person's move.
    ///
    /// # Errors
    /// Malformed or off-board points (400); out of turn, occupied, forbidden, game over or the
    /// engine thinking (409).
    pub fn play(&mut self, req: &MoveRequest) -> Result<(), ApiError> {
        self.touch();
        self.refuse_if_flagged()?;
        self.refuse_if_over()?;
        self.refuse_if_thinking()?;
        let to_move = self.game.board().to_move();
        if let Some(c) = &req.color {
            let c = parse_color(c)?;
            if c != to_move {
                return Err(ApiError::conflict(
                    "not_your_turn",
                    format!("it is {to_move}'s turn, not {c}'s"),
                ));
            }
        }
        match &self.opening {
            Some(o) if o.actor() == Player::Engine => {
                return Err(ApiError::conflict(
                    "not_your_turn",
                    "the engine is deciding in the swap2 opening",
                ));
            }
            Some(o) if !o.placing() => {
                return Err(ApiError::conflict(
                    "not_your_turn",
                    "choose first: the swap2 opening waits for your choice",
                ));
            }
            Some(_) => {}
            None if self.player(to_move) == Player::Engine => {
                return Err(ApiError::conflict(
                    "not_your_turn",
                    format!("{to_move} is played by the engine"),
                ));
            }
            None => {}
        }
        let size = self.size();
        let p = read_point(&req.point, size)
            .map_err(|e| ApiError::bad_request("bad_move", e.to_string()))?;
        let name = format_pos(p, size);
        if !self.game.board().is_empty(p) {
            return Err(ApiError::conflict(
                "occupied",
                format!("{name} is already occupied"),
            ));
        }
        if to_move == Color::Black {
            if let Some(kind) = self.game.board_mut().forbidden_kind(p) {
                return Err(ApiError::conflict(
                    "forbidden",
                    format!("{name} is forbidden for Black ({kind})"),
                ));
            }
        }
        let running = self.clock_running();
        let used = self.turn_ms();
        self.game
            .play(p)
            .map_err(|e| ApiError::conflict("illegal", e.to_string()))?;
        self.charge_move(running, used);
        // a hint being computed is for the position just left
        self.cancel_job();
        self.records.push(MoveRecord {
            pos: p,
            ms: used,
            engine: None,
        });
        self.redo_records.clear();
        self.hint = None;
        self.analysis = None;
        self.error = None;
        self.turn_started = Instant::now();
        let ply = self.game.board().ply();
        if let Some(o) = &mut self.opening {
            let before = o.stage;
            o.after_stone(ply);
            let after = o.stage;
            if after != before {
                self.log_decision(Player::Person, Next::Stage(after));
            }
        }
        self.maybe_start_engine();
        self.changed();
        Ok(())
    }

    fn undo_one(&mut self) -> bool {
        if self.game.undo().is_none() {
            return false;
        }
        let rec = self.records.pop().unwrap_or(MoveRecord {
            pos: Pos::NONE,
            ms: 0,
            engine: None,
        });
        self.redo_records.push(rec);
        true
    }

    fn redo_one(&mut self) -> bool {
        let Some(p) = self.game.redo() else {
            return false;
        };
        let rec = self
            .redo_records
            .pop()
            .filter(|r| r.pos == p)
            .unwrap_or(MoveRecord {
                pos: p,
                ms: 0,
                engine: None,
            });
        self.records.push(rec);
        true
    }

    /// Takes back a move (and the engine's reply before it, so that the person is to move).
    /// A resignation is taken back first. A running search is cancelled.
    ///
    /// # Errors
    /// 409 when there is nothing to undo.
    pub fn undo(&mut self) -> Result<(), ApiError> {
        self.touch();
        let ply = self.game.board().ply();
        if let Some(o) = &self.opening {
            // only the stones the person is putting down in this stage
            if o.actor() == Player::Person && o.placing() && ply > o.stage_start() {
                self.undo_one();
                self.error = None;
                self.changed();
                return Ok(());
            }
            return Err(ApiError::conflict(
                "nothing_to_undo",
                "the swap2 opening's earlier stones cannot be taken back",
            ));
        }
        if self.timed_out.is_some() || self.check_flag() {
            return Err(ApiError::conflict(
                "lost_on_time",
                "the game was lost on time: it cannot be taken back",
            ));
        }
        if self.resigned.take().is_none() {
            if ply == 0 {
                return Err(ApiError::conflict("nothing_to_undo", "no move to undo"));
            }
            if ply <= self.opening_plies {
                let what = if self.game.start_ply() > 0 {
                    "the set-up position's stones cannot be taken back"
                } else {
                    "the swap2 opening cannot be taken back"
                };
                return Err(ApiError::conflict("nothing_to_undo", what));
            }
            self.cancel_job();
            // the time of the turn under way is the side to move's, before it changes
            self.settle_clock();
            self.undo_one();
            let to_move = self.game.board().to_move();
            if self.has_person()
                && self.player(to_move) == Player::Engine
                && self.game.board().ply() > self.opening_plies
            {
                self.undo_one();
            }
        }
        self.cancel_job();
        self.resume_after_history_change();
        Ok(())
    }

    /// After an undo or a redo: the hint and error no longer apply, the side to move's clock
    /// starts again, and the engine replies if it is its turn in a game with a person.
    fn resume_after_history_change(&mut self) {
        self.hint = None;
        self.analysis = None;
        self.error = None;
        self.turn_started = Instant::now();
        if self.has_person() {
            self.maybe_start_engine();
        }
        self.maybe_analyze();
        self.changed();
    }

    /// Replays undone moves (the person's and the engine's reply).
    ///
    /// # Errors
    /// 409 when there is nothing to redo or the game is over.
    pub fn redo(&mut self) -> Result<(), ApiError> {
        self.touch();
        self.refuse_if_flagged()?;
        self.refuse_if_over()?;
        self.refuse_in_opening("redo")?;
        if self.game.redo_stack().is_empty() {
            return Err(ApiError::conflict("nothing_to_redo", "no move to redo"));
        }
        self.cancel_job();
        self.settle_clock();
        self.redo_one();
        let to_move = self.game.board().to_move();
        if self.has_person()
            && self.player(to_move) == Player::Engine
            && !self.game.redo_stack().is_empty()
        {
            self.redo_one();
        }
        self.resume_after_history_change();
        Ok(())
    }

    /// Asks the engine for a move suggestion for the side to move.
    ///
    /// # Errors
    /// 409 when the game is over or the engine is already thinking.
    pub fn hint(&mut self) -> Result<(), ApiError> {
        self.touch();
        self.refuse_if_over()?;
        self.refuse_in_opening("a hint")?;
        if self.job.is_some() {
            return Err(ApiError::conflict(
                "engine_thinking",
                "the engine is already thinking",
            ));
        }
        self.hint = None;
        self.start_job(Purpose::Hint)?;
        self.changed();
        Ok(())
    }

    /// Makes the engine play the side to move now, whoever plays it.
    ///
    /// # Errors
    /// 409 when the game is over or the engine is already thinking.
    pub fn go(&mut self) -> Result<(), ApiError> {
        self.touch();
        self.refuse_if_over()?;
        self.refuse_in_opening("an engine move")?;
        self.refuse_if_thinking()?;
        self.cancel_job();
        self.hint = None;
        self.start_job(Purpose::Move)?;
        self.changed();
        Ok(())
    }

    /// Tells the running search to finish now with the best move found so far.
    ///
    /// # Errors
    /// 409 when the engine is not thinking.
    pub fn stop(&mut self) -> Result<(), ApiError> {
        self.touch();
        match &self.job {
            Some(j) => {
                j.stop.store(true, Ordering::Relaxed);
                Ok(())
            }
            None => Err(ApiError::conflict(
                "not_thinking",
                "the engine is not thinking",
            )),
        }
    }

    /// Resigns for `req.color`, or for the person (the side to move if both or neither are).
    ///
    /// # Errors
    /// 400 for a bad colour, 409 when the game is over.
    pub fn resign(&mut self, req: &ResignRequest) -> Result<(), ApiError> {
        self.touch();
        self.refuse_if_flagged()?;
        self.refuse_if_over()?;
        self.refuse_in_opening("resigning")?;
        let color = match &req.color {
            Some(c) => parse_color(c)?,
            None => match self.players {
                [Player::Person, Player::Engine] => Color::Black,
                [Player::Engine, Player::Person] => Color::White,
                _ => self.game.board().to_move(),
            },
        };
        self.cancel_job();
        self.hint = None;
        self.analysis = None;
        self.settle_clock();
        self.resigned = Some(color);
        self.changed();
        Ok(())
    }

    /// Turns analysis on or off. On, the engine analyses the position whenever it is idle: every
    /// candidate move gets an exact value, for at most [`ANALYSIS_MS`] per position (`stop`
    /// ends it early); turning it on again while idle analyses the position anew. Off, a
    /// running analysis stops and its result is dropped.
    ///
    /// # Errors
    /// 409 when turning it on in a game that is over.
    pub fn analyze(&mut self, req: &AnalyzeRequest) -> Result<(), ApiError> {
        self.touch();
        let analysing = self
            .job
            .as_ref()
            .is_some_and(|j| j.purpose == Purpose::Analysis);
        if req.on {
            self.refuse_if_over()?;
            let exclude = req
                .exclude
                .as_ref()
                .map(|points| self.check_exclude(points))
                .transpose()?;
            self.analyze = true;
            if let Some(points) = exclude {
                if points != self.excluded() {
                    // the analysis so far counted those points: it starts again without them
                    if analysing {
                        self.cancel_job();
                    }
                    self.analysis = None;
                }
                self.excluded = Some((self.game.board().position_string(), points));
            }
            if self.job.is_none() {
                self.analysis = None;
                self.maybe_analyze();
            }
        } else {
            self.analyze = false;
            if analysing {
                self.cancel_job();
            }
            self.analysis = None;
            self.excluded = None;
        }
        self.changed();
        Ok(())
    }

    /// The points the analysis of the position on the board leaves out.
    fn excluded(&self) -> &[Pos] {
        match &self.excluded {
            Some((position, points)) if *position == self.game.board().position_string() => points,
            _ => &[],
        }
    }

    /// Reads the points an analysis is to leave out: empty points of the board, in order and
    /// without repeats, and at least one legal point left to analyse.
    fn check_exclude(&self, points: &[String]) -> Result<Vec<Pos>, ApiError> {
        let board = self.game.board();
        let size = board.size();
        let mut out = Vec::new();
        for text in points {
            let p = read_point(text, size)
                .map_err(|e| ApiError::bad_request("bad_point", format!("exclude: {e}")))?;
            if !board.is_empty(p) {
                return Err(ApiError::bad_request(
                    "bad_point",
                    format!("exclude: {} is not an empty point", format_pos(p, size)),
                ));
            }
            if !out.contains(&p) {
                out.push(p);
            }
        }
        if !board.clone().has_move_outside(&out) {
            return Err(ApiError::bad_request(
                "nothing_left",
                "exclude: no legal point would be left to analyse",
            ));
        }
        Ok(out)
    }

    /// Reviews every move of the game: each position is searched for `time_ms` (from the last
    /// to the first) and each move judged (best, good, inaccuracy, mistake, blunder). A running
    /// hint or analysis is stopped for it (the analysis starts again afterwards); `stop` ends it
    /// with the moves reviewed so far; a move, undo or redo cancels it. A finished review stays
    /// with the moves it judged while they are still the game's.
    ///
    /// # Errors
    /// 400 for a bad time; 409 in a swap2 opening, while the engine is moving, or with no move
    /// to review.
    pub fn review(&mut self, req: &ReviewRequest) -> Result<(), ApiError> {
        self.touch();
        let time_ms = check_time(req.time_ms.unwrap_or(REVIEW_MS))?;
        self.refuse_in_opening("a review")?;
        self.refuse_if_thinking()?;
        if !gomoku_engine::review::has_moves(&self.game) {
            return Err(ApiError::conflict(
                "nothing_to_review",
                "the game has no moves to review",
            ));
        }
        self.cancel_job();
        self.hint = None;
        let game = self.game.clone();
        let pool = self.pool.clone();
        let serial = self.serial;
        let me = self.me.clone();
        let limits = Limits {
            move_time_ms: Some(time_ms),
            ..Limits::default()
        };
        self.spawn_job(
            Purpose::Review,
            move |id, stop| {
                let mut engine = pool.take(serial);
                let review = review_game(
                    &mut engine,
                    &game,
                    &limits,
                    &ReviewParams::default(),
                    stop,
                    &mut |p| {
                        if let Some(slot) = me.upgrade() {
                            lock(&slot).review_progress(id, p.done, p.total);
                        } else {
                            stop.store(true, Ordering::Relaxed);
                        }
                    },
                );
                pool.put(engine, serial);
                review
            },
            Slot::finish_review,
        )?;
        let moves = self.game.board().moves().to_vec();
        let total = gomoku_engine::review::positions(&self.game);
        self.review = Some(ReviewState {
            moves,
            time_ms,
            done: 0,
            total,
            result: None,
        });
        self.changed();
        Ok(())
    }

    /// Records the progress of review `job`.
    fn review_progress(&mut self, job: u64, done: usize, total: usize) {
        if self.job.as_ref().is_none_or(|j| j.id != job) {
            return;
        }
        if let Some(r) = &mut self.review {
            r.done = done;
            r.total = total;
        }
        self.changed();
    }

    /// Takes the result of review `job` (ignored if it was cancelled meanwhile).
    fn finish_review(&mut self, job: u64, result: Option<Review>) {
        if self.job.take_if(|j| j.id == job).is_none() {
            return;
        }
        match (result, &mut self.review) {
            (Some(review), Some(r)) => r.result = Some(review),
            _ => {
                self.review = None;
                self.error = Some("the review failed".to_string());
            }
        }
        self.changed();
        self.maybe_start_engine();
        if self.job.is_some() {
            self.changed();
        }
    }

    /// The review as the page sees it: only the judged moves still in the game (the game's
    /// moves may have changed since by undo and new moves).
    fn review_view(&self, board_moves: &[Pos]) -> Option<ReviewView> {
        let r = self.review.as_ref()?;
        let running = self
            .job
            .as_ref()
            .is_some_and(|j| j.purpose == Purpose::Review);
        if !running && r.result.is_none() {
            // cancelled before it finished
            return None;
        }
        let same = r
            .moves
            .iter()
            .zip(board_moves)
            .take_while(|(a, b)| a == b)
            .count();
        let size = self.size();
        let mut kept = Review::default();
        if let Some(result) = &r.result {
            kept.complete = result.complete;
            kept.moves = result
                .moves
                .iter()
                .filter(|m| m.ply < same)
                .cloned()
                .collect();
        }
        Some(ReviewView {
            running,
            done: r.done,
            total: r.total,
            time_ms: r.time_ms,
            complete: kept.complete,
            moves: kept
                .moves
                .iter()
                .map(|m| review_cmd::move_json(m, size))
                .collect(),
            black: review_cmd::counts(&kept, Color::Black),
            white: review_cmd::counts(&kept, Color::White),
        })
    }

    /// Looks for a forced win of the side to move (`task`: `vcf`, `vct` or `win`) with the
    /// solver of `gomoku solve`, for `time_ms`. The answer stays while the position does. A
    /// running hint or analysis is stopped for it (the analysis starts again afterwards);
    /// `stop` ends the solve early, with the answer marked `stopped`.
    ///
    /// # Errors
    /// 400 for a bad task or time; 409 when the game is over, in a swap2 opening or while the
    /// engine moves.
    pub fn solve(&mut self, req: &SolveRequest) -> Result<(), ApiError> {
        self.touch();
        let task_name = req
            .task
            .as_deref()
            .unwrap_or("vct")
            .trim()
            .to_ascii_lowercase();
        let (task, task_name) = match task_name.as_str() {
            "vcf" => (SolveTask::Vcf, "vcf"),
            "vct" => (SolveTask::Vct, "vct"),
            "win" => (SolveTask::Win, "win"),
            _ => {
                return Err(ApiError::bad_request(
                    "bad_task",
                    format!(
                        "task '{}': expected vcf, vct or win",
                        crate::pbrain::command::excerpt(&task_name)
                    ),
                ))
            }
        };
        let time_ms = check_time(req.time_ms.unwrap_or(SOLVE_MS))?;
        if time_ms > SOLVE_MAX_MS {
            return Err(ApiError::bad_request(
                "bad_settings",
                format!("time_ms {time_ms}: a solve takes at most {SOLVE_MAX_MS} ms"),
            ));
        }
        self.refuse_if_over()?;
        self.refuse_in_opening("solving")?;
        self.refuse_if_thinking()?;
        if self.game.board().is_full() {
            return Err(ApiError::conflict("board_full", "the board is full"));
        }
        self.cancel_job();
        self.hint = None;
        let board = self.game.board().clone();
        let color = board.to_move();
        let position = board.position_string();
        let size = self.size();
        self.spawn_job(
            Purpose::Solve,
            move |_, stop| {
                let r = Solver::new().solve_stoppable(
                    &board,
                    task,
                    SolveLimits {
                        time_ms: Some(time_ms),
                        ..SolveLimits::default()
                    },
                    stop,
                );
                let view = SolutionView {
                    task: task_name,
                    color: color.name(),
                    solved: r.solved(),
                    stopped: !r.solved() && stop.load(Ordering::Relaxed),
                    method: r.method.map(|m| m.name()),
                    line: r.line.iter().map(|&p| format_pos(p, size)).collect(),
                    nodes: r.nodes,
                    time_ms: r.elapsed_ms,
                    limit_ms: time_ms,
                };
                (position, view)
            },
            Slot::finish_solve,
        )?;
        self.changed();
        Ok(())
    }

    /// Takes the answer of solve `job` (ignored if it was cancelled meanwhile).
    fn finish_solve(&mut self, job: u64, result: Option<(String, SolutionView)>) {
        if self.job.take_if(|j| j.id == job).is_none() {
            return;
        }
        match result {
            Some(r) => self.solution = Some(r),
            None => self.error = Some("the solver failed on this position".to_string()),
        }
        self.changed();
        self.maybe_start_engine();
        if self.job.is_some() {
            self.changed();
        }
    }

    /// Exchanges who plays Black and who plays White; the engine starts if it is now to move.
    ///
    /// # Errors
    /// 409 during a swap2 opening (whose choices settle the colours).
    pub fn swap(&mut self) -> Result<(), ApiError> {
        self.touch();
        self.refuse_in_opening("swapping sides")?;
        self.cancel_job();
        self.hint = None;
        self.error = None;
        self.settle_clock();
        self.players.swap(0, 1);
        self.maybe_start_engine();
        self.changed();
        Ok(())
    }

    /// Changes the engine's level and time per move (used from the next search on).
    ///
    /// # Errors
    /// 400 for a time out of range.
    pub fn settings(&mut self, s: &Settings) -> Result<(), ApiError> {
        self.touch();
        if let Some(t) = s.time_ms {
            self.time_ms = check_time(t)?;
        }
        if let Some(l) = s.level {
            self.level = l;
        }
        self.changed();
        Ok(())
    }

    /// The game as a position string.
    #[must_use]
    pub fn position(&self) -> String {
        self.game.board().position_string()
    }

    /// The game as a line of the datasets' common format: size, rule and moves (a set-up
    /// position's passes included, so that it reads back as one).
    #[must_use]
    pub fn record(&self) -> String {
        gomoku_engine::record::line_of(&self.game)
    }

    /// The board as a diagram (as `gomoku position` draws it), with the side to move.
    #[must_use]
    pub fn diagram(&self) -> String {
        let board = self.game.board();
        format!("{}to move: {}\n", board.to_text(&[]), board.to_move())
    }

    /// The game as a Piskvork `.psq` record.
    ///
    /// # Errors
    /// 409 when the game has passes, which the format cannot hold.
    pub fn psq(&self) -> Result<String, ApiError> {
        let moves = self.game.board().moves();
        if moves.iter().any(|p| p.is_pass()) {
            return Err(ApiError::conflict(
                "cannot_export",
                "a .psq record cannot hold passes",
            ));
        }
        let list: Vec<(Pos, u64)> = moves
            .iter()
            .enumerate()
            .map(|(i, &p)| (p, self.records.get(i).map_or(0, |r| r.ms)))
            .collect();
        let name = |pl: Player| match pl {
            Player::Person => "person".to_string(),
            Player::Engine => format!("gomoku ({})", self.level.name()),
        };
        Ok(psq::format(
            self.size(),
            &list,
            &name(self.players[0]),
            &name(self.players[1]),
        ))
    }

    /// Stops everything and tells the watchers the game is gone.
    fn close(&mut self) {
        self.cancel_job();
        let _ = self.tx.send(ServerEvent::Closed);
    }
}

/// What a search thread needs.
struct SearchCtx {
    me: Weak<Mutex<Slot>>,
    pool: Arc<EnginePool>,
    serial: u64,
    job: u64,
    purpose: Purpose,
    color: Color,
    size: usize,
    /// Root moves the search leaves out (an analysis's excluded points).
    exclude: Vec<Pos>,
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
        let mut report = |ev: SearchEvent<'_>| {
            let info = match ev {
                SearchEvent::Iteration(i) => {
                    let mut info =
                        EngineInfo::from_iteration(self.purpose, self.color, i, self.size, &name);
                    if let Some(prev) = &last {
                        info.candidates.clone_from(&prev.candidates);
                    }
                    info
                }
                SearchEvent::RootMoves { moves, .. } if analysis => {
                    let Some(mut info) = last.clone() else {
                        return;
                    };
                    info.candidates = Candidate::list(moves, self.size);
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
        let result = if level == Level::Greedy {
            Greedy { eval: PatternEval }.search(board, limits, &options, stop, &mut report)
        } else {
            let mut engine = self.pool.take(self.serial);
            let r = engine.search(board, limits, &options, stop, &mut report);
            // hand the engine back so that its table is reused by the next move
            self.pool.put(engine, self.serial);
            r
        };
        (result, name)
    }
}

/// All games of the server.
#[derive(Debug)]
pub struct Games {
    map: Mutex<HashMap<String, Arc<Mutex<Slot>>>>,
    pool: Arc<EnginePool>,
    config: ServerConfig,
}

impl Games {
    /// An empty set of games.
    #[must_use]
    pub fn new(config: ServerConfig) -> Games {
        let pool = Arc::new(EnginePool::new(EngineConfig {
            hash_mb: config.hash_mb.max(1),
            threads: config.threads.max(1),
        }));
        Games {
            map: Mutex::new(HashMap::new()),
            pool,
            config,
        }
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &ServerConfig {
        &self.config
    }

    /// Number of games.
    #[must_use]
    pub fn len(&self) -> usize {
        lock(&self.map).len()
    }

    /// Whether there is no game.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The game with this id.
    ///
    /// # Errors
    /// 404 when there is none.
    pub fn get(&self, id: &str) -> Result<Arc<Mutex<Slot>>, ApiError> {
        lock(&self.map)
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::unknown_game(id))
    }

    /// Creates a game; the engine starts at once if it plays Black. Returns the game's view
    /// taken under the same lock as the engine's start, so that it shows the engine thinking
    /// even when a fast engine (the greedy level) has its move ready a moment later.
    ///
    /// # Errors
    /// 400 for bad settings or a bad position or record; 503 when there are too many games.
    pub fn create(&self, req: &NewGame) -> Result<GameView, ApiError> {
        let bad = |e: String| ApiError::bad_request("bad_settings", e);
        let rule: Rule = match &req.rule {
            Some(r) => r
                .parse()
                .map_err(|e: gomoku_engine::NotationError| bad(e.to_string()))?,
            None => Rule::Freestyle,
        };
        let time_ms = check_time(req.time_ms.unwrap_or(1000))?;
        let clock = match (req.clock_ms.unwrap_or(0), req.increment_ms) {
            (0, Some(inc)) if inc > 0 => {
                return Err(bad("increment_ms needs a clock (clock_ms)".into()));
            }
            (0, _) => None,
            (total, inc) => Some(Clock::new(total, inc.unwrap_or(0)).map_err(bad)?),
        };
        let mut records: Vec<MoveRecord> = Vec::new();
        let starts = [
            req.position.is_some(),
            req.psq.is_some(),
            req.setup.is_some(),
            req.diagram.is_some(),
            req.record.is_some(),
        ];
        if starts.iter().filter(|&&given| given).count() > 1 {
            return Err(bad(
                "give one of a position, a psq record, a set-up position, a diagram or a \
                 position line"
                    .into(),
            ));
        }
        let bad_position = |e: String| ApiError::bad_request("bad_position", e);
        // a size given beside a start that has its own must agree with it
        let same_size = |size: usize, whose: &str| match req.size {
            Some(s) if s != size => Err(bad(format!("size {s} differs from {whose} {size}"))),
            _ => Ok(()),
        };
        let game = match (
            &req.position,
            &req.psq,
            &req.setup,
            &req.diagram,
            &req.record,
        ) {
            (_, _, _, _, Some(text)) => {
                let rec = Record::parse(text.trim()).map_err(|e| bad_position(e.to_string()))?;
                same_size(rec.size, "the position line's")?;
                if req.rule.is_some() && rule != rec.rule {
                    return Err(bad(format!(
                        "rule {rule} differs from the position line's {}",
                        rec.rule
                    )));
                }
                rec.start().map_err(|e| bad_position(e.to_string()))?
            }
            (_, _, _, Some(text), None) => {
                let d = notation::parse_diagram(text).map_err(|e| bad_position(e.to_string()))?;
                same_size(d.size, "the diagram's")?;
                Game::from_diagram(rule, &d).map_err(|e| bad_position(e.to_string()))?
            }
            (_, _, Some(setup), None, None) => {
                let size = check_size(req.size.unwrap_or(15)).map_err(|e| bad(e.to_string()))?;
                set_up(size, rule, setup)?
            }
            (_, Some(text), None, None, None) => {
                let rec = psq::parse(text).map_err(bad_position)?;
                same_size(rec.size, "the record's")?;
                let mut g = Game::new(rec.size, rule).map_err(|e| bad(e.to_string()))?;
                for (n, &(p, ms)) in rec.moves.iter().enumerate() {
                    g.play(p)
                        .map_err(|e| bad_position(format!("psq move {}: {e}", n + 1)))?;
                    records.push(MoveRecord {
                        pos: p,
                        ms,
                        engine: None,
                    });
                }
                g
            }
            (pos, None, None, None, None) => {
                let size = check_size(req.size.unwrap_or(15)).map_err(|e| bad(e.to_string()))?;
                Game::from_position(size, rule, pos.as_deref().unwrap_or(""))
                    .map_err(|e| bad_position(e.to_string()))?
            }
        };
        if records.is_empty() {
            // a position or a set-up start: moves without times or engine figures
            records = game
                .board()
                .moves()
                .iter()
                .map(|&p| MoveRecord {
                    pos: p,
                    ms: 0,
                    engine: None,
                })
                .collect();
        }
        let players = [
            req.black.unwrap_or(Player::Person),
            req.white.unwrap_or(Player::Engine),
        ];
        let opening = match req.opening.unwrap_or_default() {
            OpeningRule::Free => None,
            OpeningRule::Swap2 => {
                if players[0] == players[1] {
                    return Err(bad("a swap2 opening needs one person and one engine".into()));
                }
                if game.board().ply() > 0 {
                    return Err(bad("a swap2 opening starts from an empty board".into()));
                }
                Some(Opening::new(players[0]))
            }
        };
        {
            if self.len() >= self.config.max_games {
                self.reap(self.config.idle_timeout);
            }
            if self.len() >= self.config.max_games {
                return Err(ApiError::unavailable(format!(
                    "too many games ({}); try again later",
                    self.config.max_games
                )));
            }
        }
        let start_ply = game.start_ply();
        let serial = NEXT_SERIAL.fetch_add(1, Ordering::Relaxed);
        let id = new_id(serial);
        let (tx, _) = broadcast::channel(256);
        let slot = Arc::new_cyclic(|me| {
            Mutex::new(Slot {
                id: id.clone(),
                serial,
                me: me.clone(),
                pool: self.pool.clone(),
                game,
                players,
                level: req.level.unwrap_or(Level::Max),
                time_ms,
                records,
                redo_records: Vec::new(),
                resigned: None,
                clock,
                timed_out: None,
                job: None,
                live: None,
                hint: None,
                analyze: false,
                analysis: None,
                excluded: None,
                opening_plies: start_ply,
                opening,
                swap2_log: Vec::new(),
                review: None,
                solution: None,
                error: None,
                version: 0,
                last_seen: Instant::now(),
                turn_started: Instant::now(),
                watchers: Arc::new(()),
                tx,
            })
        });
        let mut game = lock(&slot);
        game.maybe_start_engine();
        let view = game.view();
        let timed = game.clock.is_some();
        drop(game);
        if timed {
            watch_clock(Arc::downgrade(&slot));
        }
        lock(&self.map).insert(id, slot);
        Ok(view)
    }

    /// Removes a game, stopping its search.
    ///
    /// # Errors
    /// 404 when there is none.
    pub fn remove(&self, id: &str) -> Result<(), ApiError> {
        let slot = lock(&self.map)
            .remove(id)
            .ok_or_else(|| ApiError::unknown_game(id))?;
        lock(&slot).close();
        Ok(())
    }

    /// Removes the games nobody has touched for `idle` and nobody watches; returns how many.
    pub fn reap(&self, idle: Duration) -> usize {
        let mut map = lock(&self.map);
        let now = Instant::now();
        let stale: Vec<String> = map
            .iter()
            .filter(|(_, slot)| {
                let s = lock(slot);
                // one reference is the slot's own; more are open event streams
                now.duration_since(s.last_seen) >= idle && Arc::strong_count(&s.watchers) == 1
            })
            .map(|(id, _)| id.clone())
            .collect();
        for id in &stale {
            if let Some(slot) = map.remove(id) {
                lock(&slot).close();
            }
        }
        stale.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_go_from_one_ply_to_unlimited() {
        let depths: Vec<Option<i32>> = [
            Level::Greedy,
            Level::Easy,
            Level::Medium,
            Level::Hard,
            Level::Max,
        ]
        .iter()
        .map(|l| l.depth())
        .collect();
        assert_eq!(depths, [Some(1), Some(2), Some(4), Some(8), None]);
    }

    #[test]
    fn colours_and_times_are_checked() {
        assert_eq!(parse_color(" White").ok(), Some(Color::White));
        assert_eq!(parse_color("b").ok(), Some(Color::Black));
        assert_eq!(parse_color("red").unwrap_err().code, "bad_color");
        assert!(check_time(9).is_err() && check_time(600_001).is_err());
        assert_eq!(check_time(1000).ok(), Some(1000));
    }

    #[test]
    fn ids_differ() {
        let ids: std::collections::HashSet<String> = (0..100).map(new_id).collect();
        assert_eq!(ids.len(), 100);
    }

    #[test]
    fn engine_info_is_from_blacks_view_for_the_graph() {
        let size = 15;
        let pv = [Pos::new(7, 7)];
        let w = EngineInfo::new(Purpose::Move, Color::White, 120, &pv, size);
        assert_eq!(
            (w.black_score, w.point.as_deref(), w.mate),
            (-120, Some("h8"), None)
        );
        let b = EngineInfo::new(
            Purpose::Hint,
            Color::Black,
            gomoku_engine::search::score::win_in(3),
            &pv,
            size,
        );
        assert_eq!((b.mate, b.eval.as_str()), (Some(2), "win in 2"));
    }

    #[test]
    fn candidates_are_capped_and_carry_their_line() {
        let size = 15;
        let moves: Vec<RootMove> = (0..20)
            .map(|i| RootMove {
                pos: Pos::new(i % size, i / size),
                score: 100 - i as i32,
                bound: gomoku_engine::search::ValueBound::Exact,
                pv: vec![Pos::new(i % size, i / size), Pos::new(7, 7)],
                depth: 9,
            })
            .collect();
        let list = Candidate::list(&moves, size);
        assert_eq!(list.len(), CANDIDATES);
        assert_eq!(list[0].point, "a15");
        assert_eq!(list[0].pv, ["a15", "h8"]);
        assert_eq!((list[1].score, list[1].eval.as_str()), (99, "+99"));
        assert!(list.iter().all(|c| c.depth == 9 && c.mate.is_none()));
    }

    /// One button of the page (or one API call).
    #[derive(Clone, Debug)]
    enum Action {
        Move(u8, u8),
        Undo,
        Redo,
        Hint,
        Go,
        Stop,
        Swap,
        Resign,
        /// On or off, and the points to leave out (`None`: as before).
        Analyze(bool, Option<Vec<(u8, u8)>>),
        Review,
        Solve,
        Choice(u8),
        Level(u8),
        Wait(u8),
    }

    fn action() -> impl proptest::strategy::Strategy<Value = Action> {
        use proptest::prelude::*;
        prop_oneof![
            6 => (5u8..10, 5u8..10).prop_map(|(x, y)| Action::Move(x, y)),
            1 => Just(Action::Undo),
            1 => Just(Action::Redo),
            1 => Just(Action::Hint),
            1 => Just(Action::Go),
            1 => Just(Action::Stop),
            1 => Just(Action::Swap),
            1 => Just(Action::Resign),
            3 => (
                any::<bool>(),
                proptest::option::of(proptest::collection::vec((3u8..8, 3u8..8), 0..4))
            )
                .prop_map(|(on, ex)| Action::Analyze(on, ex)),
            1 => Just(Action::Review),
            1 => Just(Action::Solve),
            2 => (0u8..3).prop_map(Action::Choice),
            1 => (0u8..5).prop_map(Action::Level),
            2 => (0u8..30).prop_map(Action::Wait),
        ]
    }

    /// What must hold after every action, whatever came before.
    fn check(s: &mut Slot) {
        // while the game goes on, its position line and its diagram read back as the same
        // stones with the same side to move
        if !s.game.is_over() {
            let board = s.game.board();
            let line = s.record();
            let from_line = Record::parse(&line)
                .expect("the line reads")
                .start()
                .unwrap_or_else(|e| panic!("{line}: {e}"));
            let d = notation::parse_diagram(&s.diagram()).expect("the diagram reads");
            let from_diagram = Game::from_diagram(board.rule(), &d).expect("the diagram starts");
            for g in [&from_line, &from_diagram] {
                assert_eq!(g.board().to_move(), board.to_move(), "{line}");
                for p in board.points() {
                    assert_eq!(g.board().cell(p), board.cell(p), "{line}");
                }
            }
        }
        let v = s.view();
        let taken: Vec<&str> = v.moves.iter().map(|m| m.point.as_str()).collect();
        if let Some(a) = &v.analysis {
            assert!(v.analyze, "an analysis is kept only while analysis is on");
            assert_eq!(
                a.color, v.to_move,
                "the analysis is of the position on the board"
            );
            assert!(v.result.is_none(), "no analysis of a finished game");
            for c in &a.candidates {
                assert!(
                    !taken.contains(&c.point.as_str()),
                    "{} is occupied",
                    c.point
                );
                assert!(
                    !v.excluded.contains(&c.point),
                    "{} was left out of the analysis",
                    c.point
                );
            }
        }
        for p in &v.excluded {
            assert!(!taken.contains(&p.as_str()), "{p} is left out but occupied");
        }
        if !v.analyze {
            assert!(
                v.excluded.is_empty(),
                "points are left out only while analysing"
            );
        }
        match &v.thinking {
            Some(t) if t.purpose == Purpose::Analysis => {
                assert!(v.analyze, "an analysis runs only while analysis is on");
                assert_eq!(t.color, v.to_move);
            }
            Some(t) => assert_eq!(t.color, v.to_move, "the engine thinks for the side to move"),
            None => {}
        }
        let reviewing = v
            .thinking
            .as_ref()
            .is_some_and(|t| t.purpose == Purpose::Review);
        if v.result.is_some() && !reviewing {
            assert!(
                v.thinking.is_none(),
                "only a review runs once the game is over"
            );
        }
        if let Some(r) = &v.review {
            assert_eq!(r.running, reviewing, "the review runs as the slot's job");
            assert!(r.done <= r.total);
            for m in &r.moves {
                assert!(m.number > v.setup_plies, "set-up stones are not judged");
                assert_eq!(
                    taken.get(m.number - 1).copied(),
                    Some(m.played.as_str()),
                    "verdicts only for moves still in the game"
                );
            }
        } else {
            assert!(!reviewing, "a running review is shown");
        }
        if let Some(sol) = &v.solution {
            assert_eq!(sol.color, v.to_move, "the answer is for the side to move");
            assert_eq!(sol.solved, !sol.line.is_empty());
            if let Some(first) = sol.line.first() {
                assert!(!taken.contains(&first.as_str()), "{first} is occupied");
            }
        }
        if let Some(o) = &v.opening {
            let ply = v.moves.len();
            let fits = match o.stage {
                Stage::Three => ply < 3,
                Stage::Choice3 => ply == 3,
                Stage::Five => (3..5).contains(&ply),
                Stage::Choice5 => ply == 5,
            };
            assert!(fits, "stage {:?} with {ply} stones", o.stage);
            assert!(v.analysis.is_none() && v.result.is_none());
            if let Some(t) = &v.thinking {
                assert_eq!(t.purpose, Purpose::Swap2, "only the swap2 decision runs");
                assert_eq!(o.actor, Player::Engine);
            }
        } else if !v.swap2_log.is_empty() {
            assert_ne!(v.players.black, v.players.white);
            assert!(v.moves.len() >= 3);
        }
        if let Some(c) = &v.clock {
            assert_eq!(
                c.running.is_some(),
                v.result.is_none() && v.opening.is_none(),
                "the clock runs while the game goes on"
            );
            if let Some(run) = c.running {
                assert_eq!(run, v.to_move, "the side to move's clock runs");
            }
            if let Some(r) = v.result.as_ref().filter(|r| r.timeout) {
                let loser_ms = if r.winner == Some("white") {
                    c.black_ms
                } else {
                    c.white_ms
                };
                assert_eq!(loser_ms, 0, "the loser on time has no time left");
            }
        } else if let Some(r) = &v.result {
            assert!(!r.timeout, "no loss on time without a clock");
        }
        let board = s.game.board();
        assert_eq!(board.position_string(), v.position);
        assert_eq!(v.moves.len(), board.ply());
        assert!(v.moves.len() >= v.setup_plies, "the set-up stones stay");
        assert_eq!(v.setup_plies, s.game.start_ply());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(40))]

        /// Any sequence of buttons, refused or not, leaves a consistent game: analysis only of
        /// the position on the board, searches only for the side to move, nothing after the end.
        #[test]
        fn any_sequence_of_actions_keeps_the_game_consistent(
            engine_white in proptest::bool::ANY,
            swap2 in proptest::bool::ANY,
            engine_first in proptest::bool::ANY,
            clocked in proptest::bool::ANY,
            set_up in proptest::bool::ANY,
            actions in proptest::collection::vec(action(), 1..30),
        ) {
            let games = Games::new(ServerConfig {
                hash_mb: 1,
                ..ServerConfig::default()
            });
            // swap2 games: the engine first when engine_first, else the person
            let engine_first = swap2 && engine_first;
            let req = NewGame {
                black: Some(if engine_first { Player::Engine } else { Player::Person }),
                white: Some(if engine_white && !engine_first { Player::Engine } else { Player::Person }),
                level: Some(Level::Easy),
                time_ms: Some(20),
                size: Some(9),
                opening: Some(if swap2 && (engine_white || engine_first) { OpeningRule::Swap2 } else { OpeningRule::Free }),
                // a second a side: some games are lost on time along the way
                clock_ms: clocked.then_some(1_000),
                increment_ms: clocked.then_some(50),
                // a set-up start (not with swap2, which starts from an empty board)
                setup: (set_up && !swap2).then(|| SetUp {
                    black: vec!["e5".into(), "f6".into()],
                    white: vec!["d4".into()],
                    to_move: None,
                }),
                ..NewGame::default()
            };
            let set_up = req.setup.is_some();
            let id = games.create(&req).expect("a new game").id;
            let slot = games.get(&id).expect("the game");
            let start = lock(&slot).game.board().moves()[..if set_up { 3 } else { 0 }].to_vec();
            for a in actions {
                if let Action::Wait(ms) = a {
                    std::thread::sleep(Duration::from_millis(u64::from(ms)));
                    check(&mut lock(&slot));
                    continue;
                }
                let mut s = lock(&slot);
                let before = s.game.board().position_string();
                let done = match a.clone() {
                    Action::Move(x, y) => {
                        let p = format_pos(Pos::new(usize::from(x) - 1, usize::from(y) - 1), 9);
                        s.play(&MoveRequest { point: p, color: None })
                    }
                    Action::Undo => s.undo(),
                    Action::Redo => s.redo(),
                    Action::Hint => s.hint(),
                    Action::Go => s.go(),
                    Action::Stop => s.stop(),
                    Action::Swap => s.swap(),
                    Action::Resign => s.resign(&ResignRequest::default()),
                    Action::Analyze(on, exclude) => s.analyze(&AnalyzeRequest {
                        on,
                        exclude: exclude.map(|points| {
                            points
                                .iter()
                                .map(|&(x, y)| format_pos(Pos::new(usize::from(x), usize::from(y)), 9))
                                .collect()
                        }),
                    }),
                    Action::Review => s.review(&ReviewRequest { time_ms: Some(10) }),
                    Action::Solve => s.solve(&SolveRequest { task: None, time_ms: Some(10) }),
                    Action::Choice(c) => s.swap2_choice(&Swap2Request {
                        choice: [Choice::Black, Choice::White, Choice::More][usize::from(c)],
                    }),
                    Action::Level(l) => s.settings(&Settings {
                        level: Some([Level::Greedy, Level::Easy, Level::Medium, Level::Hard, Level::Max][usize::from(l)]),
                        time_ms: None,
                    }),
                    Action::Wait(_) => unreachable!(),
                };
                if done.is_err() {
                    assert_eq!(s.game.board().position_string(), before, "a refused action changes nothing");
                }
                assert_eq!(&s.game.board().moves()[..start.len()], &start[..], "the set-up stones stay");
                check(&mut s);
                if matches!(a, Action::Stop) {
                    // let the stopped search hand in its result, as it does between two clicks
                    drop(s);
                    std::thread::sleep(Duration::from_millis(30));
                    check(&mut lock(&slot));
                } else if matches!(a, Action::Review) && done.is_ok() {
                    // let the review finish, so that later actions change the game under it
                    drop(s);
                    let start = Instant::now();
                    while lock(&slot).job.as_ref().is_some_and(|j| j.purpose == Purpose::Review)
                        && start.elapsed() < Duration::from_secs(5)
                    {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    check(&mut lock(&slot));
                }
            }
            games.remove(&id).expect("removed");
        }
    }
}
