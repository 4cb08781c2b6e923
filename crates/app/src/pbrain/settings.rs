//! What the manager told us through `INFO`: rule, time limits, memory, threads; and how that
//! turns into a rule, a table size and the search limits of one move.

use gomoku_engine::search::time::move_cap_ms;
use gomoku_engine::{Limits, Rule};
use std::time::Duration;

/// Turn time used until the manager sends `INFO timeout_turn` (milliseconds).
pub const DEFAULT_TURN_MS: u64 = 5_000;
/// Table size when the memory is not limited (`max_memory` absent or 0), in megabytes.
pub const DEFAULT_HASH_MB: usize = 64;
/// Largest table we allocate, in megabytes (also what `YXSHOWINFO` reports).
pub const MAX_HASH_MB: usize = 4_096;
/// Most search threads we accept.
pub const MAX_THREADS: usize = 64;
/// `INFO time_left` value that means "no match time limit".
pub const UNLIMITED_TIME_LEFT: i64 = 2_147_483_647;

/// Smallest and largest safety margin kept off every deadline: pipes, the manager's clock and
/// a busy machine all cost time we do not see.
const MIN_MARGIN_MS: u64 = 15;
const MAX_MARGIN_MS: u64 = 300;
/// The margin is this fraction (1/n) of the tighter limit, within the bounds above: 40 ms of a
/// 1 s turn. A turn's unspent time is lost, and the search stops within a few milliseconds of
/// its deadline.
const MARGIN_DIVISOR: u64 = 25;

/// The shortest time between a request and a reply that ends the game (a five or the board's
/// last point), when the clocks allow it: a quarter of the turn and a twentieth of the match
/// time left at most.
const ENDING_PAUSE: Duration = Duration::from_millis(300);

/// Settings from `INFO` lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The rule in force.
    pub rule: Rule,
    /// `timeout_turn` in milliseconds (0 = play as fast as possible).
    pub timeout_turn: u64,
    /// `timeout_match` in milliseconds (0 = no limit).
    pub timeout_match: u64,
    /// Last `time_left` in milliseconds, minus what we used since (None = not limited).
    pub time_left: Option<u64>,
    /// Milliseconds we thought in this match, less the increments (for `timeout_match`
    /// without `time_left`).
    pub used_ms: u64,
    /// `time_increment` (Yixin-Board's key): milliseconds added to our clock after each of our
    /// moves (0 = none).
    pub increment_ms: u64,
    /// `max_memory` in bytes (0 = no limit).
    pub max_memory: u64,
    /// Table size asked for by Yixin-Board's `INFO hash_size` (KB); overrides `max_memory`.
    pub hash_kb: Option<u64>,
    /// Search threads.
    pub threads: usize,
    /// `game_type` (0 human, 1 brain, 2 tournament, 3 network tournament); kept for reference.
    pub game_type: i64,
    /// `folder` for persistent files; we keep none, but remember it.
    pub folder: Option<String>,
    /// Yixin-Board `show_detail`: bit 1 real-time best move, bit 2 `INFO PV` blocks.
    pub show_detail: u8,
    /// Yixin-Board `max_depth`: stop at this nominal depth.
    pub max_depth: Option<i32>,
    /// Yixin-Board `max_node`: stop after this many nodes.
    pub max_nodes: Option<u64>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            rule: Rule::Freestyle,
            timeout_turn: DEFAULT_TURN_MS,
            timeout_match: 0,
            time_left: None,
            used_ms: 0,
            increment_ms: 0,
            max_memory: 0,
            hash_kb: None,
            threads: 1,
            game_type: 0,
            folder: None,
            show_detail: 0,
            max_depth: None,
            max_nodes: None,
        }
    }
}

impl Settings {
    /// Table size in megabytes: half of `max_memory` (the rest is for the program itself),
    /// at least 1; the default when memory is not limited.
    #[must_use]
    pub fn hash_mb(&self) -> usize {
        let mb = if let Some(kb) = self.hash_kb {
            (kb / 1024) as usize
        } else if self.max_memory == 0 {
            DEFAULT_HASH_MB
        } else {
            (self.max_memory / 2 / (1 << 20)) as usize
        };
        mb.clamp(1, MAX_HASH_MB)
    }

    /// Records `INFO time_left` (the protocol's "unlimited" value and negatives included).
    pub fn set_time_left(&mut self, ms: i64) {
        self.time_left = if ms >= UNLIMITED_TIME_LEFT {
            None
        } else {
            Some(ms.max(0) as u64)
        };
    }

    /// Forgets the clock of the previous match (at `START` / `RESTART`).
    pub fn new_match(&mut self) {
        self.time_left = None;
        self.used_ms = 0;
    }

    /// Accounts for a move of ours that took `ms`, and the increment after it (the manager
    /// resends `time_left`, but may not).
    pub fn spend(&mut self, ms: u64) {
        self.used_ms = (self.used_ms + ms).saturating_sub(self.increment_ms);
        if let Some(left) = self.time_left.as_mut() {
            *left = left.saturating_sub(ms).saturating_add(self.increment_ms);
        }
    }

    /// Match time we still have, if the match is timed.
    #[must_use]
    pub fn game_left(&self) -> Option<u64> {
        match (self.time_left, self.timeout_match) {
            (Some(left), _) => Some(left),
            (None, 0) => None,
            (None, total) => Some(total.saturating_sub(self.used_ms)),
        }
    }

    /// How long after its request a game-ending reply goes out: the manager starts the next
    /// game the moment it arrives, and a brain that answered the move before may still be
    /// winding down and drop that command.
    #[must_use]
    pub fn ending_pause(&self) -> Duration {
        let mut ms = ENDING_PAUSE.as_millis() as u64;
        if self.timeout_turn > 0 {
            ms = ms.min(self.timeout_turn / 4);
        }
        if let Some(left) = self.game_left() {
            ms = ms.min(left / 20);
        }
        Duration::from_millis(ms)
    }

    /// The budget of the next move.
    #[must_use]
    pub fn budget(&self) -> TimeBudget {
        TimeBudget {
            turn_ms: self.timeout_turn,
            game_left_ms: self.game_left(),
            increment_ms: (self.increment_ms > 0).then_some(self.increment_ms),
            depth: self.max_depth,
            nodes: self.max_nodes,
        }
    }
}

/// What we may spend on one move: time measured from when its command arrived, and
/// optionally a depth or node limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// The turn limit (0 = as fast as possible).
    pub turn_ms: u64,
    /// Match time left, if the match is timed.
    pub game_left_ms: Option<u64>,
    /// Time added to the match clock after each of our moves.
    pub increment_ms: Option<u64>,
    /// Nominal depth limit.
    pub depth: Option<i32>,
    /// Node limit.
    pub nodes: Option<u64>,
}

impl TimeBudget {
    /// The safety margin for this budget: a 25th of the tighter limit, within bounds.
    #[must_use]
    pub fn margin_ms(&self) -> u64 {
        if self.turn_ms == 0 {
            return 0;
        }
        let tight = self
            .game_left_ms
            .map_or(self.turn_ms, |g| g.min(self.turn_ms));
        (tight / MARGIN_DIVISOR).clamp(MIN_MARGIN_MS, MAX_MARGIN_MS)
    }

    /// The search limits once `waited_ms` of the budget have already gone (the command waited
    /// while the table was being allocated, say).
    #[must_use]
    pub fn limits(&self, waited_ms: u64) -> Limits {
        Limits {
            move_time_ms: Some(self.turn_ms.saturating_sub(waited_ms)),
            game_time_left_ms: self.game_left_ms.map(|g| g.saturating_sub(waited_ms)),
            increment_ms: self.increment_ms,
            margin_ms: self.margin_ms(),
            depth: self.depth,
            nodes: self.nodes,
            iteration_start_pct: None,
        }
    }

    /// Milliseconds after the command arrived by which the answer must be out, at the latest
    /// (the engine usually stops well before; this bounds a search from outside).
    #[must_use]
    pub fn hard_deadline_ms(&self) -> u64 {
        let limit = self.game_left_ms.map_or(self.turn_ms, |g| {
            // the engine never spends more of the match time on one move than this cap
            move_cap_ms(g, self.increment_ms.unwrap_or(0)).min(self.turn_ms)
        });
        limit
            .min(gomoku_engine::search::time::MAX_LIMIT_MS)
            .saturating_sub(self.margin_ms())
            .max(1)
    }
}

/// The rule for an `INFO rule` value.
///
/// The Gomocup protocol defines bit flags: 1 exactly five, 2 continuous game, 4 renju, 8 caro.
/// Renju wins over caro, caro over exactly-five. Caro with exactly five is our `caro5`, plain
/// caro `caro6` (six or more wins too). A continuous game is played as a normal one (its dead
/// stones come as field 3 of `BOARD`). The value 2 alone is renju: Yixin-Board numbers its
/// rules 0 freestyle, 1 standard, 2 renju, and a continuous freestyle game plays the same
/// moves anyway.
///
/// # Errors
/// Negative values and unknown bits.
pub fn rule_from_flags(value: i64) -> Result<Rule, String> {
    if !(0..16).contains(&value) {
        return Err(format!(
            "INFO rule {value}: unknown rule (bits 1 exact five, 2 continuous, 4 renju, 8 caro)"
        ));
    }
    Ok(if value & 4 != 0 || value == 2 {
        Rule::Renju
    } else if value & 8 != 0 {
        if value & 1 != 0 {
            Rule::Caro5
        } else {
            Rule::Caro6
        }
    } else if value & 1 != 0 {
        Rule::Standard
    } else {
        Rule::Freestyle
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_flags() {
        assert_eq!(rule_from_flags(0), Ok(Rule::Freestyle));
        assert_eq!(rule_from_flags(1), Ok(Rule::Standard));
        assert_eq!(rule_from_flags(2), Ok(Rule::Renju));
        assert_eq!(rule_from_flags(3), Ok(Rule::Standard));
        assert_eq!(rule_from_flags(4), Ok(Rule::Renju));
        assert_eq!(rule_from_flags(5), Ok(Rule::Renju));
        assert_eq!(rule_from_flags(6), Ok(Rule::Renju));
        assert_eq!(rule_from_flags(8), Ok(Rule::Caro6));
        assert_eq!(rule_from_flags(9), Ok(Rule::Caro5));
        assert!(rule_from_flags(16).is_err());
        assert!(rule_from_flags(-1).is_err());
    }

    #[test]
    fn hash_from_memory() {
        let mut s = Settings::default();
        assert_eq!(s.hash_mb(), DEFAULT_HASH_MB);
        s.max_memory = 83_886_080; // 80 MB
        assert_eq!(s.hash_mb(), 40);
        s.max_memory = 1_000_000; // under 2 MB: still one
        assert_eq!(s.hash_mb(), 1);
        s.max_memory = 1 << 40;
        assert_eq!(s.hash_mb(), MAX_HASH_MB);
        s.hash_kb = Some(256 * 1024);
        assert_eq!(s.hash_mb(), 256);
    }

    #[test]
    fn ending_pause_fits_the_clocks() {
        // (timeout_turn, time_left, pause) in milliseconds
        let table = [
            (5_000, None, 300),
            (1_000, None, 250),
            (200, None, 50),
            (0, None, 300),
            (5_000, Some(120_000), 300),
            (5_000, Some(2_000), 100),
            (5_000, Some(0), 0),
        ];
        for (turn, left, pause) in table {
            let mut s = Settings {
                timeout_turn: turn,
                ..Settings::default()
            };
            if let Some(left) = left {
                s.set_time_left(left);
            }
            assert_eq!(
                s.ending_pause(),
                Duration::from_millis(pause),
                "{turn} {left:?}"
            );
        }
    }

    #[test]
    fn match_clock() {
        let mut s = Settings::default();
        assert_eq!(s.game_left(), None);
        s.timeout_match = 5_000;
        s.spend(1_200);
        assert_eq!(s.game_left(), Some(3_800));
        s.set_time_left(900);
        assert_eq!(s.game_left(), Some(900));
        s.spend(1_000);
        assert_eq!(s.game_left(), Some(0));
        s.set_time_left(-30);
        assert_eq!(s.game_left(), Some(0));
        s.set_time_left(UNLIMITED_TIME_LEFT);
        s.timeout_match = 0;
        assert_eq!(s.game_left(), None);
        s.new_match();
        assert_eq!(s.used_ms, 0);
        // an increment comes back after each move, in both ways of keeping the clock
        s.increment_ms = 500;
        s.timeout_match = 5_000;
        s.spend(1_200);
        assert_eq!(s.game_left(), Some(4_300));
        s.spend(200);
        assert_eq!(s.game_left(), Some(4_600));
        s.set_time_left(1_000);
        s.spend(1_200);
        assert_eq!(s.game_left(), Some(500));
        assert_eq!(s.budget().increment_ms, Some(500));
    }

    #[test]
    fn budget_to_limits() {
        let b = TimeBudget {
            turn_ms: 50,
            game_left_ms: Some(5_000),
            increment_ms: None,
            depth: None,
            nodes: Some(1_000),
        };
        assert_eq!(b.margin_ms(), MIN_MARGIN_MS);
        let l = b.limits(10);
        assert_eq!(l.move_time_ms, Some(40));
        assert_eq!(l.game_time_left_ms, Some(4_990));
        assert_eq!(l.margin_ms, MIN_MARGIN_MS);
        assert_eq!((l.depth, l.nodes), (None, Some(1_000)));
        assert_eq!(b.hard_deadline_ms(), 35);
        // a long turn keeps a bigger margin, capped
        let b = TimeBudget {
            turn_ms: 30_000,
            game_left_ms: None,
            increment_ms: None,
            depth: Some(8),
            nodes: None,
        };
        assert_eq!(b.limits(0).depth, Some(8));
        assert_eq!(b.margin_ms(), MAX_MARGIN_MS);
        // "as fast as possible"
        let b = TimeBudget {
            turn_ms: 0,
            game_left_ms: None,
            increment_ms: None,
            depth: None,
            nodes: None,
        };
        assert_eq!(b.limits(0).move_time_ms, Some(0));
        assert_eq!(b.margin_ms(), 0);
        // waiting longer than the budget leaves nothing, not an underflow
        assert_eq!(b.limits(500).move_time_ms, Some(0));
        // the increment reaches the engine, and the hard deadline allows its share of it
        let b = TimeBudget {
            turn_ms: 10_000,
            game_left_ms: Some(4_000),
            increment_ms: Some(2_000),
            depth: None,
            nodes: None,
        };
        assert_eq!(b.limits(0).increment_ms, Some(2_000));
        // a quarter of 4 s plus half of 2 s, less the 160 ms margin
        assert_eq!(b.hard_deadline_ms(), 1_840);
    }
}
