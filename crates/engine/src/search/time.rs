//! Time management: how long to think about this move, and when to stop.
//!
//! The only place of the engine that reads the clock, and it reads it through [`Clock`]: the
//! search's [`RealClock`], or in tests a clock set by hand, so that the allocation and the stop
//! decisions are checked at given times without time passing.
//!
//! Two steps:
//! - [`allocate`] turns the [`Limits`] and the game's [`Stage`] into the time the move should
//!   take (the *optimum*) and the time it may take (the *maximum*). A plain move time is the
//!   move's to use; a game clock is shared among the moves still expected, with the increment
//!   of each, and never more than a part of what is on the clock goes to one move.
//! - After every iteration, [`TimeManager::decide`] looks at the iterations so far: under a game
//!   clock that binds, the optimum grows when the best move keeps changing or the value drops,
//!   and the search stops early when one move dominates, when the next iteration could not
//!   finish, or when the result is proven.

use crate::board::Board;
use crate::search::score::{is_decisive, Score, WIN};
use crate::types::Pos;
use std::time::{Duration, Instant};

/// The limits of one search. Every field is optional; with none set, the search runs until
/// stopped (or to the maximum depth).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Time for this move, in milliseconds (a hard limit).
    pub move_time_ms: Option<u64>,
    /// Time left for the whole game, in milliseconds.
    pub game_time_left_ms: Option<u64>,
    /// Time added to the game clock after each of our moves, in milliseconds (Fischer).
    pub increment_ms: Option<u64>,
    /// Time subtracted from every deadline as a safety margin (protocol and process latency).
    pub margin_ms: u64,
    /// Maximum nominal depth.
    pub depth: Option<i32>,
    /// Maximum number of nodes (all threads together).
    pub nodes: Option<u64>,
    /// With a move time and no game clock that binds: the percentage of the move time after
    /// which no iteration starts. `None` is 100: a fixed time per move is the move's to use
    /// (time left over is lost), and an iteration cut short by the hard limit still ranks the
    /// root moves it got through. The solver sets 70 to finish well inside its own time.
    pub iteration_start_pct: Option<u32>,
}

/// The longest time limit taken as given (2^40 ms, about 35 years); longer ones are cut to it.
pub const MAX_LIMIT_MS: u64 = 1 << 40;

/// With a plain move time, the time the move should take, in percent of the move time (the
/// base of the threat checks' share and of the time after the search).
const MOVE_TIME_OPTIMUM_PCT: u64 = 70;
/// Under a game clock, the maximum is this many times the move's share of the clock.
const MAXIMUM_SHARES: u64 = 3;
/// Expected length of a game in stones, per line of the board, up to [`EXPECTED_STONES_MAX`]:
/// 40 on 10x10, 60 on 15x15 and larger. Half the games against Rapfi end by 55 stones in
/// freestyle and by 40 in renju, a game is mostly decided well before its last stone, and the
/// fight stays local on a larger board (half the 20x20 games end by 49 stones), so the time
/// goes to the opening and the middle.
const EXPECTED_STONES_PER_LINE: usize = 4;
/// See [`EXPECTED_STONES_PER_LINE`].
const EXPECTED_STONES_MAX: usize = 60;
/// A game that has lasted `s` stones is expected to go on for at least (expected length + `s`)
/// / n more: the longer a game lasts, the longer it is likely to go on (a blocked position
/// fills the board), so a long game keeps a reserve instead of spending its clock by the
/// expected length.
const TAIL_DIVISOR: usize = 3;

// The stop rules (see `TimeManager::decide_at`).
/// Best-move changes are counted over this many iterations before the last one.
const CHANGE_WINDOW: usize = 3;
/// Each best-move change in the window lengthens the move by this percentage of the optimum.
const CHANGE_PCT: u64 = 35;
/// The value's drop is measured from the mean of this many iterations before the last one.
const VALUE_WINDOW: usize = 3;
/// A drop of this much (or more) lengthens the move by [`FALL_PCT`] of the optimum; a smaller
/// one in proportion.
const FALL_CAP: Score = 200;
/// See [`FALL_CAP`].
const FALL_PCT: u64 = 50;
/// Values are clamped to this before the drop is measured, so that a proven result counts as a
/// large drop, not an enormous one.
const VALUE_CLAMP: Score = 1_000;
/// One move dominates when it has been the best of this many iterations in a row with no drop
/// of the value ...
const STABLE_ITERATIONS: usize = 6;
/// ... and the search then stops once this percentage of the optimum has gone.
const DOMINANT_PCT: u32 = 50;
/// The next iteration is taken to last the last one's time times the growth between the last
/// two, within these bounds (in tenths); without two to compare, twice the last one.
const GROWTH_MIN_TENTHS: u64 = 15;
/// See [`GROWTH_MIN_TENTHS`].
const GROWTH_MAX_TENTHS: u64 = 40;
/// An iteration that would not finish before the maximum is not started once this percentage
/// of the (scaled) optimum has gone.
const NO_NEXT_PCT: u32 = 50;

/// Where the time manager reads the time: the time since the search started.
pub trait Clock: Copy {
    /// Time since the search started.
    fn now(&self) -> Duration;
}

/// The search's clock: the wall clock from the moment the search started.
#[derive(Clone, Copy, Debug)]
pub struct RealClock {
    start: Instant,
}

impl RealClock {
    /// A clock starting now.
    #[must_use]
    pub fn start() -> RealClock {
        RealClock {
            start: Instant::now(),
        }
    }
}

impl Clock for RealClock {
    fn now(&self) -> Duration {
        self.start.elapsed()
    }
}

/// How far the game has gone: what the moves still expected are computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stage {
    /// The board's size (a side).
    pub size: usize,
    /// Stones on the board.
    pub stones: usize,
}

impl Stage {
    /// The stage of `board`.
    #[must_use]
    pub fn of(board: &Board) -> Stage {
        Stage {
            size: board.size(),
            stones: board.stone_count(),
        }
    }

    /// The stage from the number of empty points alone: the board is taken as 15x15 when they
    /// fit on it, else as 20x20 (the sizes tournaments play), else as the smallest square that
    /// holds them. Exact on 15x15, and on 20x20 until 175 stones; [`Stage::of`] is exact on
    /// every size.
    #[must_use]
    pub fn from_empties(empties: usize) -> Stage {
        let size = match empties {
            0..=225 => 15,
            226..=400 => 20,
            _ => (21..).find(|s| s * s >= empties).unwrap_or(21),
        };
        Stage {
            size,
            stones: size * size - empties,
        }
    }

    /// Our moves still expected in the game (at least one): half the stones still to come in
    /// a game of the expected length, or, when that is fewer, of a third of the expected
    /// length and the stones played together; no more than the empty points allow.
    #[must_use]
    pub fn moves_left(&self) -> u64 {
        let expected = (EXPECTED_STONES_PER_LINE * self.size).min(EXPECTED_STONES_MAX);
        let to_come = expected
            .saturating_sub(self.stones)
            .max((expected + self.stones) / TAIL_DIVISOR);
        let empties = (self.size * self.size).saturating_sub(self.stones);
        (to_come / 2).min(empties.div_ceil(2)).max(1) as u64
    }
}

/// The most one move may take of a game clock with `time_left_ms` on it and `increment_ms`
/// added after each move: a quarter of the time left, plus half the increment, and never more
/// than half the time left (the increment comes only after the move).
#[must_use]
pub fn move_cap_ms(time_left_ms: u64, increment_ms: u64) -> u64 {
    let left = time_left_ms.min(MAX_LIMIT_MS);
    let inc = increment_ms.min(MAX_LIMIT_MS);
    (left / 4 + inc / 2).min(left / 2)
}

/// The time of one move, in milliseconds, before the safety margin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allocation {
    /// The time the move should take.
    pub optimum_ms: Option<u64>,
    /// No iteration starts after this (the stop rules may stop earlier or, under a game clock
    /// that binds, later, up to the maximum).
    pub iterate_until_ms: Option<u64>,
    /// The hard limit.
    pub maximum_ms: Option<u64>,
    /// Whether time saved now is time for later moves: a game clock that binds. The stop rules
    /// then scale the optimum; a plain move time is the move's to use.
    pub flexible: bool,
}

/// The time of one move under `limits` at `stage` (before the margin).
///
/// - A plain move time (or a game clock that leaves every move expected its whole move time):
///   iterations start until `iteration_start_pct` of it, the hard limit is the move time, and
///   the optimum is 70% of it.
/// - A game clock that binds: the move's share is the time left plus the increments of the
///   moves still expected after this one ([`Stage::moves_left`]), over those moves; the optimum
///   is that share and the maximum three shares, within the move time and [`move_cap_ms`].
#[must_use]
pub fn allocate(limits: &Limits, stage: Stage) -> Allocation {
    // limits beyond a few decades are no limit in practice, and capping them keeps every
    // product below (and every deadline of the clock) far from overflowing
    let move_time = limits.move_time_ms.map(|t| t.min(MAX_LIMIT_MS));
    let pct = u64::from(limits.iteration_start_pct.unwrap_or(100).min(100));
    let plain = |cap: u64| Allocation {
        optimum_ms: move_time.map(|t| (t * MOVE_TIME_OPTIMUM_PCT / 100).min(cap)),
        iterate_until_ms: move_time.map(|t| (t * pct / 100).min(cap)),
        maximum_ms: move_time.map(|t| t.min(cap)),
        flexible: false,
    };
    let Some(left) = limits.game_time_left_ms.map(|t| t.min(MAX_LIMIT_MS)) else {
        return plain(u64::MAX);
    };
    let inc = limits.increment_ms.unwrap_or(0).min(MAX_LIMIT_MS);
    let moves = stage.moves_left();
    let share = (left + inc * (moves - 1)) / moves;
    let cap = move_cap_ms(left, inc);
    if move_time.is_some_and(|t| share >= t) {
        // the clock does not bind: time saved on this move would be lost all the same
        return plain(cap);
    }
    let optimum = share.min(cap);
    let maximum = (share * MAXIMUM_SHARES)
        .min(cap)
        .min(move_time.unwrap_or(u64::MAX));
    Allocation {
        optimum_ms: Some(optimum),
        iterate_until_ms: Some(optimum),
        maximum_ms: Some(maximum),
        flexible: true,
    }
}

/// One completed iteration, as the stop rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IterationRecord {
    /// Its nominal depth.
    pub depth: i32,
    /// Its best move.
    pub best: Pos,
    /// Its value, for the side to move.
    pub score: Score,
    /// Time since the search started when it completed.
    pub elapsed: Duration,
}

/// What the time manager says after an iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Start the next iteration.
    Continue,
    /// Stop searching.
    Stop(StopReason),
}

/// Why the search stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// A proven win or loss that deeper iterations cannot change.
    Proven,
    /// The time the move should take has gone (scaled by the stop rules under a game clock).
    Time,
    /// One move has been the best of several iterations and part of the optimum has gone.
    Dominant,
    /// The next iteration would not finish before the maximum.
    NoTimeForNext,
}

/// The deadlines of one search, from [`Limits`] when it starts, and the clock it reads.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager<C: Clock = RealClock> {
    clock: C,
    /// The time the move should take: the base of the cuts, of the stop rules and of the time
    /// after the search.
    optimum: Option<Duration>,
    /// Do not start another iteration after this (unless the stop rules say otherwise).
    iterate_until: Option<Duration>,
    /// Stop searching at this point.
    maximum: Option<Duration>,
    /// See [`Allocation::flexible`].
    flexible: bool,
}

impl TimeManager<RealClock> {
    /// Starts the clock. `empties` is the number of empty points, the game's stage as
    /// [`Stage::from_empties`] reads it.
    #[must_use]
    pub fn start(limits: &Limits, empties: usize) -> TimeManager {
        TimeManager::with_clock(limits, Stage::from_empties(empties), RealClock::start())
    }

    /// Starts the clock for a search at `stage`.
    #[must_use]
    pub fn start_at(limits: &Limits, stage: Stage) -> TimeManager {
        TimeManager::with_clock(limits, stage, RealClock::start())
    }
}

impl<C: Clock> TimeManager<C> {
    /// The deadlines of [`allocate`] less the margin, read on `clock`.
    #[must_use]
    pub fn with_clock(limits: &Limits, stage: Stage, clock: C) -> TimeManager<C> {
        let a = allocate(limits, stage);
        let margin = limits.margin_ms;
        let to_dur = |ms: u64| Duration::from_millis(ms.saturating_sub(margin).max(1));
        TimeManager {
            clock,
            optimum: a.optimum_ms.map(to_dur),
            iterate_until: a.iterate_until_ms.map(to_dur),
            maximum: a.maximum_ms.map(to_dur),
            flexible: a.flexible,
        }
    }

    /// Time since the search started.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.clock.now()
    }

    /// Milliseconds since the search started.
    #[must_use]
    pub fn elapsed_ms(&self) -> u64 {
        self.clock.now().as_millis() as u64
    }

    /// The time the move should take (`None` without a time limit).
    #[must_use]
    pub fn optimum(&self) -> Option<Duration> {
        self.optimum
    }

    /// The hard limit (`None` without a time limit).
    #[must_use]
    pub fn maximum(&self) -> Option<Duration> {
        self.maximum
    }

    /// Whether the hard limit has passed.
    #[must_use]
    pub fn out_of_time(&self) -> bool {
        self.maximum.is_some_and(|m| self.clock.now() >= m)
    }

    /// Whether the time after which no iteration starts has passed (the stop rules of
    /// [`TimeManager::decide`] aside).
    #[must_use]
    pub fn should_stop_iterating(&self) -> bool {
        self.iterate_until.is_some_and(|m| self.clock.now() >= m)
    }

    /// [`TimeManager::decide_at`] now.
    #[must_use]
    pub fn decide(&self, history: &[IterationRecord]) -> Verdict {
        self.decide_at(history, self.clock.now())
    }

    /// Whether to start another iteration after `history` (the iterations completed, the
    /// last one last) at `elapsed`:
    /// 1. a proven result that a deeper iteration cannot change stops a timed search;
    /// 2. with a plain move time (or no iteration yet), the search stops once the time after
    ///    which no iteration starts has gone;
    /// 3. under a game clock that binds, the optimum is scaled: up by 35% for every change of
    ///    the best move in the last four iterations, and by up to 50% when the value dropped
    ///    from the mean of the three before (in full from a drop of 200), never past the
    ///    maximum. The search stops when one move dominates (the best of six iterations in a
    ///    row, the value not dropping) and half the optimum has gone, when the scaled optimum
    ///    has gone, or when half of it has gone and the next iteration (the last one's time
    ///    times its growth over the one before, 1.5 to 4) would not finish before the
    ///    maximum.
    ///
    /// Without a time limit the answer is always to go on.
    #[must_use]
    pub fn decide_at(&self, history: &[IterationRecord], elapsed: Duration) -> Verdict {
        if !self.is_timed() {
            return Verdict::Continue;
        }
        if history.last().is_some_and(is_proven) {
            return Verdict::Stop(StopReason::Proven);
        }
        let past_iterations = self.iterate_until.is_some_and(|t| elapsed >= t);
        let (Some(optimum), Some(maximum), true, false) = (
            self.optimum,
            self.maximum,
            self.flexible,
            history.is_empty(),
        ) else {
            return if past_iterations {
                Verdict::Stop(StopReason::Time)
            } else {
                Verdict::Continue
            };
        };
        let trend = Trend::of(history);
        if trend.stable >= STABLE_ITERATIONS
            && trend.drop == 0
            && elapsed >= optimum * DOMINANT_PCT / 100
        {
            return Verdict::Stop(StopReason::Dominant);
        }
        let target = trend.scale(optimum).min(maximum);
        if elapsed >= target {
            return Verdict::Stop(StopReason::Time);
        }
        if elapsed >= target * NO_NEXT_PCT / 100
            && next_iteration_ends(history, elapsed).is_some_and(|end| end > maximum)
        {
            return Verdict::Stop(StopReason::NoTimeForNext);
        }
        Verdict::Continue
    }

    /// The same clock with the time the move should take cut to `optimum_pct` percent (no
    /// iteration starts after it) and the hard limit to `maximum_pct` percent (to leave time
    /// for work after the search).
    #[must_use]
    pub fn cut(&self, optimum_pct: u32, maximum_pct: u32) -> TimeManager<C> {
        let optimum = self.optimum.map(|d| d * optimum_pct / 100);
        TimeManager {
            clock: self.clock,
            optimum,
            iterate_until: optimum,
            maximum: self.maximum.map(|d| d * maximum_pct / 100),
            flexible: self.flexible,
        }
    }

    /// `pct` percent of the time the move should take (`None` without a time limit).
    #[must_use]
    pub fn fraction_of_optimum(&self, pct: u32) -> Option<Duration> {
        self.optimum.map(|d| d * pct / 100)
    }

    /// Time left for work after the search (the opponent's threats): until 130% of the time
    /// the move should take, and at most 92% of the hard limit (`None` without a time limit).
    #[must_use]
    pub fn after_search_left(&self) -> Option<Duration> {
        let end = match (self.optimum, self.maximum) {
            (Some(o), Some(m)) => (o * 13 / 10).min(m * 23 / 25),
            _ => return None,
        };
        Some(end.saturating_sub(self.clock.now()))
    }

    /// Whether any time limit is set.
    #[must_use]
    pub fn is_timed(&self) -> bool {
        self.maximum.is_some()
    }
}

/// Whether an iteration's value is a proven result that deeper iterations cannot change: the
/// iteration went deeper than the distance to the five.
fn is_proven(it: &IterationRecord) -> bool {
    is_decisive(it.score) && it.depth > WIN - it.score.abs() + 1
}

/// What the last iterations say about the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Trend {
    /// Changes of the best move over the last [`CHANGE_WINDOW`] iterations.
    changes: u64,
    /// Iterations in a row, the last one included, with the last one's best move.
    stable: usize,
    /// How far the last value fell below the mean of the previous ones (0 when it did not).
    drop: Score,
}

impl Trend {
    fn of(history: &[IterationRecord]) -> Trend {
        let n = history.len();
        let last = history[n - 1];
        let window = &history[n.saturating_sub(CHANGE_WINDOW + 1)..];
        let changes = window.windows(2).filter(|w| w[0].best != w[1].best).count() as u64;
        let stable = history
            .iter()
            .rev()
            .take_while(|it| it.best == last.best)
            .count();
        let before = &history[n.saturating_sub(VALUE_WINDOW + 1)..n - 1];
        let clamp = |s: Score| s.clamp(-VALUE_CLAMP, VALUE_CLAMP);
        let drop = if before.is_empty() {
            0
        } else {
            let mean =
                before.iter().map(|it| clamp(it.score)).sum::<Score>() / before.len() as Score;
            (mean - clamp(last.score)).max(0)
        };
        Trend {
            changes,
            stable,
            drop,
        }
    }

    /// `optimum` scaled by the changes of the best move and the drop of the value.
    fn scale(&self, optimum: Duration) -> Duration {
        let changes_pct = 100 + CHANGE_PCT * self.changes;
        let fall_pct = 100 + FALL_PCT * self.drop.min(FALL_CAP) as u64 / FALL_CAP as u64;
        let ms = optimum.as_millis() as u64;
        Duration::from_millis(ms * changes_pct / 100 * fall_pct / 100)
    }
}

/// When the next iteration would end, started at `elapsed` after `history` (`None` with
/// fewer than two iterations to time the last one by).
fn next_iteration_ends(history: &[IterationRecord], elapsed: Duration) -> Option<Duration> {
    let n = history.len();
    if n < 2 {
        return None;
    }
    let last = history[n - 1]
        .elapsed
        .saturating_sub(history[n - 2].elapsed);
    let growth_tenths = if n >= 3 {
        let before = history[n - 2]
            .elapsed
            .saturating_sub(history[n - 3].elapsed);
        if before.is_zero() {
            GROWTH_MAX_TENTHS
        } else {
            (last.as_nanos() * 10 / before.as_nanos()) as u64
        }
    } else {
        20
    }
    .clamp(GROWTH_MIN_TENTHS, GROWTH_MAX_TENTHS);
    Some(elapsed + last * growth_tenths as u32 / 10)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{loss_in, win_in};
    use std::cell::Cell;

    /// A clock the test sets by hand.
    #[derive(Clone, Copy)]
    struct HandClock<'a>(&'a Cell<Duration>);

    impl Clock for HandClock<'_> {
        fn now(&self) -> Duration {
            self.0.get()
        }
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn move_time(n: u64) -> TimeManager {
        TimeManager::start(
            &Limits {
                move_time_ms: Some(n),
                ..Limits::default()
            },
            200,
        )
    }

    #[test]
    fn the_stage_from_the_empty_points_and_the_moves_left() {
        // (empties, size and stones guessed)
        for (empties, size, stones) in [
            (225, 15, 0),
            (200, 15, 25),
            (0, 15, 225),
            (226, 20, 174),
            (400, 20, 0),
            (401, 21, 40),
            (484, 22, 0),
        ] {
            assert_eq!(
                Stage::from_empties(empties),
                Stage { size, stones },
                "{empties}"
            );
        }
        // (size, stones, our moves expected): half of the 60 stones (15x15 and larger) of a
        // game still to come; past them, half of a third of that length and the stones played;
        // at most the empty points' half
        for (size, stones, moves) in [
            (15, 0, 30),
            (15, 25, 17),
            (15, 50, 18),
            (15, 100, 26),
            (15, 220, 3),
            (15, 225, 1),
            (20, 0, 30),
            (20, 80, 23),
            (10, 0, 20),
            (5, 20, 3),
        ] {
            assert_eq!(
                Stage { size, stones }.moves_left(),
                moves,
                "{size} {stones}"
            );
        }
    }

    #[test]
    fn the_allocation_from_the_clocks_and_the_stage() {
        // (size, stones, time left, increment, move time, iteration start %) → (optimum,
        // iterate until, maximum, flexible), in ms, without a margin
        type Given = (
            usize,
            usize,
            Option<u64>,
            Option<u64>,
            Option<u64>,
            Option<u32>,
        );
        type Want = (u64, u64, u64, bool);
        #[rustfmt::skip]
        let rows: &[(Given, Want)] = &[
            // a plain move time: iterations until its end, the optimum 70% of it
            ((15, 0, None, None, Some(1_000), None), (700, 1_000, 1_000, false)),
            ((15, 0, None, None, Some(1_000), Some(70)), (700, 700, 1_000, false)),
            ((15, 0, None, None, Some(1_000), Some(250)), (700, 1_000, 1_000, false)),
            // a game clock alone: 120 s over 30 moves, the maximum three shares
            ((15, 0, Some(120_000), None, None, None), (4_000, 4_000, 12_000, true)),
            // Gomocup's 5 s / 120 s: the clock binds, the move time caps the maximum
            ((15, 0, Some(120_000), None, Some(5_000), None), (4_000, 4_000, 5_000, true)),
            // 1 s / 120 s: the clock leaves every move its second, which is the move's to use
            ((15, 0, Some(120_000), None, Some(1_000), None), (700, 1_000, 1_000, false)),
            // late in a game: the longer it lasts, the more moves are still expected (20 at 60
            // stones, 30 at 120)
            ((15, 60, Some(20_000), None, Some(5_000), None), (1_000, 1_000, 3_000, true)),
            ((15, 120, Some(20_000), None, Some(5_000), None), (666, 666, 1_998, true)),
            // an increment: the next 19 increments count, a quarter of the clock plus half the
            // increment caps the maximum
            ((15, 20, Some(10_000), Some(2_000), None, None), (2_400, 2_400, 3_500, true)),
            // an increment larger than the clock: never more than half of what is on it
            ((15, 40, Some(500), Some(3_000), None, None), (250, 250, 250, true)),
            // 20x20, Gomocup's 30 s / 180 s: 30 moves expected
            ((20, 0, Some(180_000), None, Some(30_000), None), (6_000, 6_000, 18_000, true)),
            // a nearly full board: 3 moves at most, a quarter of the clock
            ((15, 220, Some(9_000), None, None, None), (2_250, 2_250, 2_250, true)),
            // nothing left
            ((15, 30, Some(0), None, Some(1_000), None), (0, 0, 0, true)),
        ];
        for &((size, stones, left, inc, mv, pct), (opt, until, max, flexible)) in rows {
            let limits = Limits {
                move_time_ms: mv,
                game_time_left_ms: left,
                increment_ms: inc,
                iteration_start_pct: pct,
                ..Limits::default()
            };
            assert_eq!(
                allocate(&limits, Stage { size, stones }),
                Allocation {
                    optimum_ms: Some(opt),
                    iterate_until_ms: Some(until),
                    maximum_ms: Some(max),
                    flexible,
                },
                "{size}x{size} {stones} stones, left {left:?}, +{inc:?}, move {mv:?}, {pct:?}%"
            );
        }
        let none = allocate(
            &Limits::default(),
            Stage {
                size: 15,
                stones: 0,
            },
        );
        assert_eq!(
            (none.optimum_ms, none.iterate_until_ms, none.maximum_ms),
            (None, None, None)
        );
    }

    #[test]
    fn the_margin_comes_off_every_deadline() {
        let t = TimeManager::start(
            &Limits {
                move_time_ms: Some(1_000),
                margin_ms: 50,
                iteration_start_pct: Some(70),
                ..Limits::default()
            },
            200,
        );
        assert_eq!(
            (t.optimum, t.iterate_until, t.maximum),
            (Some(ms(650)), Some(ms(650)), Some(ms(950)))
        );
        // the pbrain hard deadline trusts this cap: a move never takes more of the clock
        for (left, inc) in [(0, 0), (100, 5_000), (120_000, 0), (10_000, 2_000)] {
            let a = allocate(
                &Limits {
                    game_time_left_ms: Some(left),
                    increment_ms: Some(inc),
                    ..Limits::default()
                },
                Stage {
                    size: 15,
                    stones: 10,
                },
            );
            assert!(
                a.maximum_ms.unwrap() <= move_cap_ms(left, inc),
                "{left} {inc}"
            );
            assert!(move_cap_ms(left, inc) <= left / 2, "{left} {inc}");
        }
        // no limit at all
        let t = TimeManager::start(&Limits::default(), 200);
        assert!(!t.is_timed() && t.iterate_until.is_none() && !t.should_stop_iterating());
    }

    #[test]
    fn huge_limits_are_cut_and_never_overflow() {
        let far = Duration::from_millis(MAX_LIMIT_MS);
        for n in [MAX_LIMIT_MS, 3_000_000_000_000_000_000, u64::MAX] {
            let t = move_time(n);
            assert_eq!(t.maximum, Some(far), "{n}");
            assert_eq!(
                t.optimum,
                Some(Duration::from_millis(MAX_LIMIT_MS * 7 / 10))
            );
            assert!(!t.out_of_time() && !t.should_stop_iterating());
            assert!(t.after_search_left().is_some_and(|d| d > far / 2));
            let c = t.cut(130, 92);
            assert!(c.maximum.is_some_and(|m| m < far));
            let g = TimeManager::start(
                &Limits {
                    move_time_ms: Some(n),
                    game_time_left_ms: Some(u64::MAX),
                    increment_ms: Some(u64::MAX),
                    margin_ms: u64::MAX,
                    ..Limits::default()
                },
                200,
            );
            // the margin eats everything but the last millisecond
            assert_eq!(g.maximum, Some(Duration::from_millis(1)));
        }
    }

    #[test]
    fn the_injected_clock_decides_the_deadlines() {
        let now = Cell::new(Duration::ZERO);
        let t = TimeManager::with_clock(
            &Limits {
                move_time_ms: Some(5_000),
                game_time_left_ms: Some(120_000),
                ..Limits::default()
            },
            Stage {
                size: 15,
                stones: 0,
            },
            HandClock(&now),
        );
        // (elapsed ms) → (out of time, past the optimum, time left after the search in ms,
        // the verdict with no iteration yet)
        for (at, out, past, after) in [
            (0, false, false, 4_600),
            (3_999, false, false, 601),
            (4_000, false, true, 600),
            (4_999, false, true, 0),
            (5_000, true, true, 0),
        ] {
            now.set(ms(at));
            assert_eq!(t.elapsed_ms(), at);
            assert_eq!(t.out_of_time(), out, "{at}");
            assert_eq!(t.should_stop_iterating(), past, "{at}");
            let left = t.after_search_left().map(|d| d.as_millis() as u64);
            assert_eq!(left, Some(after), "{at}");
            let verdict = if past {
                Verdict::Stop(StopReason::Time)
            } else {
                Verdict::Continue
            };
            assert_eq!(t.decide(&[]), verdict, "{at}");
        }
        // a cut shortens both deadlines on the same clock
        let c = t.cut(60, 75);
        assert_eq!(c.optimum, Some(ms(2_400)));
        assert_eq!(c.iterate_until, c.optimum);
        assert_eq!(c.maximum, Some(ms(3_750)));
        now.set(ms(3_750));
        assert!(c.out_of_time() && !t.out_of_time());
        assert_eq!(
            TimeManager::start(&Limits::default(), 200).after_search_left(),
            None
        );
    }

    /// A history from rows of (depth, best move as a letter, value, elapsed ms).
    fn history(rows: &[(i32, char, Score, u64)]) -> Vec<IterationRecord> {
        rows.iter()
            .map(|&(depth, best, score, at)| IterationRecord {
                depth,
                best: Pos::new(best as usize - 'a' as usize, 7),
                score,
                elapsed: ms(at),
            })
            .collect()
    }

    fn manager(
        optimum: u64,
        maximum: u64,
        until: u64,
        flexible: bool,
        clock: HandClock<'_>,
    ) -> TimeManager<HandClock<'_>> {
        TimeManager {
            clock,
            optimum: Some(ms(optimum)),
            iterate_until: Some(ms(until)),
            maximum: Some(ms(maximum)),
            flexible,
        }
    }

    #[test]
    fn the_stop_rules_at_given_times() {
        use StopReason::{Dominant, NoTimeForNext, Proven, Time};
        use Verdict::{Continue, Stop};
        let steady = [(1, 'a', 30, 10), (2, 'a', 30, 20), (3, 'a', 30, 40)];
        let stable6 = [
            (1, 'a', 30, 10),
            (2, 'a', 30, 20),
            (3, 'a', 30, 40),
            (4, 'a', 30, 80),
            (5, 'a', 30, 160),
            (6, 'a', 30, 400),
        ];
        let stable6_dropping = [
            (1, 'a', 30, 10),
            (2, 'a', 30, 20),
            (3, 'a', 30, 40),
            (4, 'a', 30, 80),
            (5, 'a', 30, 160),
            (6, 'a', 10, 400),
        ];
        // three changes in the last four iterations: 205% of the optimum
        let changing = [
            (1, 'a', 30, 1_000),
            (2, 'b', 30, 1_100),
            (3, 'a', 30, 1_200),
            (4, 'b', 30, 1_300),
            (5, 'a', 30, 1_500),
        ];
        // a drop of 200 from the mean of the three before: 150%
        let falling = [
            (1, 'a', 100, 900),
            (2, 'a', 100, 1_000),
            (3, 'a', 100, 1_100),
            (4, 'a', -100, 1_200),
        ];
        // both: 307%, capped at the maximum
        let both = [
            (1, 'a', 100, 1_000),
            (2, 'b', 100, 1_100),
            (3, 'a', 100, 1_200),
            (4, 'b', -100, 1_300),
        ];
        // the next iteration would take about 800 ms
        let growing = [(1, 'a', 30, 200), (2, 'a', 30, 400), (3, 'a', 30, 800)];
        let jump = [(1, 'a', 30, 10), (2, 'a', 30, 300)];
        let won = [(6, 'a', 30, 10), (7, 'a', win_in(5), 20)];
        let not_yet_won = [(6, 'a', 30, 10), (7, 'a', win_in(9), 20)];
        let lost = [(4, 'a', 30, 10), (5, 'a', loss_in(2), 20)];
        // (optimum, maximum, iterate until, flexible, history, elapsed) → verdict
        type Rows<'a> = &'a [(i32, char, Score, u64)];
        #[rustfmt::skip]
        let rows: &[(u64, u64, u64, bool, Rows<'_>, u64, Verdict)] = &[
            // a game clock that binds
            (1_000, 3_000, 1_000, true, &[], 999, Continue),
            (1_000, 3_000, 1_000, true, &[], 1_000, Stop(Time)),
            (1_000, 3_000, 1_000, true, &steady, 40, Continue),
            (1_000, 3_000, 1_000, true, &steady, 999, Continue),
            (1_000, 3_000, 1_000, true, &steady, 1_000, Stop(Time)),
            // one move dominates: stop at half the optimum
            (1_000, 3_000, 1_000, true, &stable6, 499, Continue),
            (1_000, 3_000, 1_000, true, &stable6, 500, Stop(Dominant)),
            // ... unless its value is dropping (then 105%)
            (1_000, 3_000, 1_000, true, &stable6_dropping, 500, Continue),
            (1_000, 3_000, 1_000, true, &stable6_dropping, 1_049, Continue),
            (1_000, 3_000, 1_000, true, &stable6_dropping, 1_050, Stop(Time)),
            // the best move keeps changing: think longer
            (1_000, 3_000, 1_000, true, &changing, 1_500, Continue),
            (1_000, 3_000, 1_000, true, &changing, 2_049, Continue),
            (1_000, 3_000, 1_000, true, &changing, 2_050, Stop(Time)),
            // the value drops: think longer
            (1_000, 3_000, 1_000, true, &falling, 1_200, Continue),
            (1_000, 3_000, 1_000, true, &falling, 1_499, Continue),
            (1_000, 3_000, 1_000, true, &falling, 1_500, Stop(Time)),
            // never past the maximum
            (1_000, 3_000, 1_000, true, &both, 2_800, Continue),
            (1_000, 3_000, 1_000, true, &both, 3_000, Stop(Time)),
            (1_000, 2_000, 1_000, true, &both, 2_000, Stop(Time)),
            // the next iteration would not finish before the maximum, and half the optimum has
            // gone; before half of it, or with room for it, go on
            (1_000, 1_500, 1_000, true, &growing, 800, Stop(NoTimeForNext)),
            (1_000, 800, 1_000, true, &jump, 300, Continue),
            (1_000, 2_000, 1_000, true, &growing, 800, Continue),
            // a proven result that deeper iterations cannot change
            (1_000, 3_000, 1_000, true, &won, 20, Stop(Proven)),
            (1_000, 3_000, 1_000, true, &lost, 20, Stop(Proven)),
            (1_000, 3_000, 1_000, true, &not_yet_won, 20, Continue),
            // a plain move time: its end, or a proof, and no other rule
            (700, 1_000, 1_000, false, &stable6, 900, Continue),
            (700, 1_000, 1_000, false, &changing, 999, Continue),
            (700, 1_000, 1_000, false, &growing, 800, Continue),
            (700, 1_000, 1_000, false, &steady, 1_000, Stop(Time)),
            (700, 1_000, 700, false, &steady, 700, Stop(Time)),
            (700, 1_000, 1_000, false, &won, 20, Stop(Proven)),
        ];
        let now = Cell::new(Duration::ZERO);
        for (i, &(opt, max, until, flexible, rows, at, verdict)) in rows.iter().enumerate() {
            let t = manager(opt, max, until, flexible, HandClock(&now));
            let h = history(rows);
            assert_eq!(
                t.decide_at(&h, ms(at)),
                verdict,
                "row {i}: {rows:?} at {at}"
            );
            // the clock read is the same decision
            now.set(ms(at));
            assert_eq!(t.decide(&h), verdict, "row {i}");
        }
        // a search without a time limit goes on, proven or not
        let t = TimeManager::start(&Limits::default(), 200);
        assert_eq!(t.decide_at(&history(&won), ms(1 << 30)), Continue);
    }
}
