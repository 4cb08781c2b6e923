//! What a decision made by search is given: the searcher, its limits and time, a stop flag, a
//! seed and a log. The opening decisions (the renju opening rules' [`crate::renju::decide()`],
//! the app's swap2 and balance commands) each share this time out between several searches.

use crate::search::Limits;
use crate::study::Searcher;
use std::sync::atomic::AtomicBool;

/// What a decision searches with.
pub struct Context<'a> {
    /// The searcher (the engine, or a simpler one of `match`).
    pub searcher: &'a mut dyn Searcher,
    /// Depth and node limits for every search (their times are set by the decision).
    pub limits: Limits,
    /// Milliseconds for the whole decision (`None`: the limits' own for each search).
    pub time_ms: Option<u64>,
    /// Stops every search at once.
    pub stop: &'a AtomicBool,
    /// Varies the decision from game to game (the openings a first player proposes).
    pub seed: u64,
    /// One line per step of the decision (points in `h8` style), for a log.
    pub note: &'a mut dyn FnMut(String),
}

impl<'a> Context<'a> {
    /// A context of searches within `limits` (no time for the whole decision, seed 0).
    pub fn new(
        searcher: &'a mut dyn Searcher,
        limits: Limits,
        stop: &'a AtomicBool,
        note: &'a mut dyn FnMut(String),
    ) -> Self {
        Context {
            searcher,
            limits,
            time_ms: None,
            stop,
            seed: 0,
            note,
        }
    }
}

impl std::fmt::Debug for Context<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("limits", &self.limits)
            .field("time_ms", &self.time_ms)
            .field("seed", &self.seed)
            .finish_non_exhaustive()
    }
}
