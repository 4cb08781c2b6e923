//! Renju as tournaments play it: the 26 named openings ([`names`]), the opening rules
//! Soosõrv-8 and Taraguchi-10 ([`rules`]), and the engine's decisions in them, made by search
//! ([`decide()`]).
//!
//! ```
//! use gomoku_engine::renju::{Action, Opening, OpeningRule, Seat};
//! use gomoku_engine::{notation::parse_pos, Game, Rule};
//! let mut game = Game::new(15, Rule::Renju).unwrap();
//! let mut opening = Opening::new(OpeningRule::Soosorv8);
//! for p in ["h8", "h9", "i9"] {
//!     opening.apply(&mut game, Action::Stone(parse_pos(p, 15).unwrap())).unwrap();
//! }
//! assert_eq!(gomoku_engine::renju::of_game(&game).unwrap().romaji, "Kagetsu");
//! // the second player may swap now
//! assert_eq!(opening.actor(), Seat::Second);
//! let far = parse_pos("a1", 15).unwrap();
//! assert!(opening.apply(&mut game, Action::Stone(far)).is_err());
//! ```

pub mod decide;
pub mod names;
pub mod rules;

pub use decide::{decide, fallback, Context};
pub use names::{by_name, identify, of_game, of_moves, Kind, NamedOpening, OPENINGS};
pub use rules::{Action, Area, Opening, OpeningError, OpeningRule, Seat, Step};
