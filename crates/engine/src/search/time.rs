//! Time management: how long to think about this move.
//!
//! The only place of the engine that reads the clock.

use std::time::{Duration, Instant};

/// The limits of one search. Every field is optional; with none set, the search runs until
/// stopped (or to the maximum depth).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Time for this move, in milliseconds (a hard limit).
    pub move_time_ms: Option<u64>,
    /// Time left for the whole game, in milliseconds.
    pub game_time_left_ms: Option<u64>,
    /// Time subtracted from every deadline as a safety margin (protocol and process latency).
    pub margin_ms: u64,
    /// Maximum nominal depth.
    pub depth: Option<i32>,
    /// Maximum number of nodes (all threads together).
    pub nodes: Option<u64>,
}

/// Deadlines computed from [`Limits`] when a search starts.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    /// Do not start another iteration after this.
    optimum: Option<Duration>,
    /// Stop searching at this point.
    maximum: Option<Duration>,
}

impl TimeManager {
    /// Starts the clock. `empties` is the number of empty points (to spread game time).
    #[must_use]
    pub fn start(limits: &Limits, empties: usize) -> TimeManager {
        let start = Instant::now();
        let mut maximum: Option<u64> = limits.move_time_ms;
        let mut optimum: Option<u64> = limits.move_time_ms.map(|t| t * 7 / 10);
        if let Some(left) = limits.game_time_left_ms {
            // expect roughly this many more moves of ours
            let moves_left = (empties as u64 / 2).clamp(8, 40);
            let share = left / moves_left;
            let cap = left / 4;
            let opt = share.min(cap);
            let max = (share * 3).min(cap);
            optimum = Some(optimum.map_or(opt, |o| o.min(opt)));
            maximum = Some(maximum.map_or(max, |m| m.min(max)));
        }
        let margin = limits.margin_ms;
        let to_dur = |ms: u64| Duration::from_millis(ms.saturating_sub(margin).max(1));
        TimeManager {
            start,
            optimum: optimum.map(to_dur),
            maximum: maximum.map(to_dur),
        }
    }

    /// Time since the search started.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Milliseconds since the search started.
    #[must_use]
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Whether the hard limit has passed.
    #[must_use]
    pub fn out_of_time(&self) -> bool {
        self.maximum.is_some_and(|m| self.start.elapsed() >= m)
    }

    /// Whether a new iteration should not be started any more.
    #[must_use]
    pub fn should_stop_iterating(&self) -> bool {
        self.optimum.is_some_and(|m| self.start.elapsed() >= m)
    }

    /// Whether any time limit is set.
    #[must_use]
    pub fn is_timed(&self) -> bool {
        self.maximum.is_some()
    }
}
