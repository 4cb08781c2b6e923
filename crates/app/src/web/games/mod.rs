//! The games in play: one [`Slot`] per browser tab, each with its own [`Game`], players,
//! engine settings and event channel; the engine searches on threads of their own and reports
//! through the slot's channel.
//!
//! Locking: the map of games and each slot have their own `std` mutex, held only for short,
//! non-blocking work (never across an `.await`, never during a search). The order is always
//! map, then slot.
//!
//! A slot's state is defined here; each module below owns one part of what happens to it:
//! - `store`: the map of games ([`Games`]): creating, finding and removing them;
//! - `actions`: the person's actions (a move, undo, redo, hint, resign, ...);
//! - `jobs`: the engine's searches on threads of their own, and their results;
//! - `info`: what the engine reports about a search ([`EngineInfo`]);
//! - `analysis`, `review`, `solve`, `swap2`, `renju`: the analysis mode, the review of a
//!   game, the search for a forced win, the swap2 opening and the renju opening rules;
//! - `timing`: the game clock;
//! - `tree`: the tree of moves (every line tried, the main line first);
//! - `variations`: moving about the tree, promoting and deleting lines;
//! - `view`: the state as the page sees it ([`GameView`]);
//! - `export`: the game as text (position, record, diagram, `.psq`, SGF with its variations);
//! - `notes`: comments and labels on the tree's nodes;
//! - `persist`: the game in the library, written as it changes and read back after a restart.

mod actions;
mod analysis;
mod export;
mod info;
mod jobs;
mod notes;
mod persist;
#[cfg(test)]
mod props;
mod renju;
mod review;
mod solve;
mod store;
mod swap2;
mod timing;
mod tree;
mod variations;
mod view;

pub use actions::{MoveRequest, ResignRequest, Settings};
pub use analysis::{AnalyzeRequest, ANALYSIS_MS};
pub use info::{Candidate, EngineInfo, CANDIDATES, NPS_MIN_MS, WIN_SCALE};
pub use jobs::EnginePool;
pub use notes::NoteRequest;
pub use renju::RenjuRequest;
pub use review::{ReviewRequest, REVIEW_MS};
pub use solve::{SolutionView, SolveRequest, SOLVE_MAX_MS, SOLVE_MS};
pub use store::{Games, NewGame, OpeningRule, ServerConfig, SetUp};
pub use swap2::Swap2Request;
pub use tree::NodeId;
pub use variations::{BranchAction, BranchRequest, GotoRequest};
pub use view::GameView;

use super::error::ApiError;
use crate::clock::Clock;
use crate::opening::Opening;
use gomoku_engine::notation::{parse_pos, parse_xy};
use gomoku_engine::{Color, Game, Pos};
use jobs::Job;
#[cfg(test)]
use jobs::JobGate;
use review::ReviewState;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Instant;
use tokio::sync::broadcast;
use tree::Tree;

/// Locks a mutex, recovering the data if a thread panicked while holding it (the data of a
/// game stays consistent because every change is made in one step under the lock).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
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

impl Player {
    /// The other player.
    #[must_use]
    pub fn other(self) -> Player {
        match self {
            Player::Person => Player::Engine,
            Player::Engine => Player::Person,
        }
    }
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
    /// The engine's steps in a renju opening rule.
    Opening,
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
            Purpose::Opening => "opening",
            Purpose::Review => "review",
            Purpose::Solve => "solve",
        }
    }
}

/// Bounds of the time per move, in milliseconds.
pub const TIME_RANGE_MS: std::ops::RangeInclusive<u64> = 10..=600_000;

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

/// One game and everything around it.
#[derive(Debug)]
pub struct Slot {
    id: String,
    serial: u64,
    me: Weak<Mutex<Slot>>,
    pool: Arc<EnginePool>,
    /// The node limit of every search instead of a time ([`ServerConfig::node_limit`]).
    node_limit: Option<u64>,
    /// The number of the last job started.
    next_job: u64,
    #[cfg(test)]
    gate: Option<Arc<JobGate>>,
    game: Game,
    players: [Player; 2],
    level: Level,
    time_ms: u64,
    /// Every move tried, with the position on the board as its current node.
    tree: Tree,
    /// The engine waits instead of moving: the position was reached by moving about the tree
    /// and lines go on from it (an engine move or a person's move ends the wait).
    hold: bool,
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
    opening: Option<Opening<Player>>,
    /// Stones put down in the opening (undo does not go back into it).
    opening_plies: usize,
    /// What happened in the swap2 opening (points in `h8` style).
    swap2_log: Vec<String>,
    /// The same as events, for the page's log in the player's language.
    swap2_events: Vec<crate::renju_opening::OpeningEvent>,
    /// The renju opening rule (Soosõrv-8, Taraguchi-10): under way, or over with its log.
    renju: Option<crate::renju_opening::RenjuTable<Player>>,
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
    /// Where the game is written as it changes (`None`: the server has no library).
    library: Option<persist::LibLink>,
    /// The tags of the record the game started from, or of the library game it was opened
    /// from (players, event, date, result, ...).
    tags: crate::library::Tags,
}

/// One move of the game as the page sees it.
#[derive(Clone, Debug)]
struct MoveRecord {
    pos: Pos,
    ms: u64,
    engine: Option<EngineInfo>,
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

impl Slot {
    fn size(&self) -> usize {
        self.game.board().size()
    }

    fn is_over(&self) -> bool {
        self.resigned.is_some() || self.timed_out.is_some() || self.game.is_over()
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

    /// Records a change: bumps the version and sends the new state to the watchers.
    fn changed(&mut self) {
        // no touch here: the engine's own moves must not keep an abandoned game alive
        self.version += 1;
        self.persist();
        let view = self.view();
        match serde_json::to_string(&view) {
            Ok(json) => {
                // no receiver is not an error: nobody is watching right now
                let _ = self.tx.send(ServerEvent::State(json.into()));
            }
            Err(e) => eprintln!("gomoku serve: cannot serialize a game: {e}"),
        }
    }

    fn refuse_if_over(&self) -> Result<(), ApiError> {
        if self.is_over() {
            Err(ApiError::conflict("game_over", "the game is over"))
        } else {
            Ok(())
        }
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

    /// Refuses what a swap2 opening does not allow (`what`: the action, for the message).
    fn refuse_in_opening(&self, what: &str) -> Result<(), ApiError> {
        if let Some(r) = self.renju.as_ref().filter(|r| !r.opening.is_over()) {
            return Err(ApiError::conflict(
                "opening",
                format!(
                    "{what} waits until the {} opening is over",
                    r.opening.rule()
                ),
            ));
        }
        if self.opening.is_some() {
            Err(ApiError::conflict(
                "opening",
                format!("{what} waits until the swap2 opening is over"),
            ))
        } else {
            Ok(())
        }
    }

    /// Stops everything and tells the watchers the game is gone.
    fn close(&mut self) {
        self.cancel_job();
        let _ = self.tx.send(ServerEvent::Closed);
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
}
