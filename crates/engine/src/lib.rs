//! `gomoku-engine`: the board, rules, patterns and search of a Gomoku / Renju engine.
//!
//! The crate does no I/O: no printing, no files, no clock reads outside the search's time
//! manager. Progress is reported through callbacks; the `gomoku` app turns it into text, JSON,
//! protocol lines or web events.
//!
//! ```
//! use gomoku_engine::{Game, Rule};
//! let game = Game::from_position(15, Rule::Renju, "h8 h9 i8").unwrap();
//! assert_eq!(game.board().stone_count(), 3);
//! ```
#![deny(missing_docs)]

pub mod board;
pub mod decision;
pub mod eval;
pub mod game;
pub mod nnue;
pub mod notation;
pub mod pattern;
pub mod record;
pub mod renju;
pub mod review;
pub mod rng;
pub mod search;
pub mod solver;
pub mod study;
pub mod train;
pub mod types;
pub mod vcf;
pub mod vct;

pub use board::{Board, ForbiddenKind, MoveError};
pub use game::{Game, GameError, GameResult};
pub use notation::NotationError;
pub use pattern::{Pattern, Pattern4};
pub use search::{
    Engine, EngineConfig, Limits, SearchEvent, SearchInfo, SearchOptions, SearchResult,
};
pub use types::{Cell, Color, Dir, Pos, Rule, DEFAULT_SIZE, MAX_SIZE, MIN_SIZE};
