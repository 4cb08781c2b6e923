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
    /// With a move time and no game clock: the percentage of the move time after which no
    /// iteration starts. `None` is 100: a fixed time per move is the move's to use (time left
    /// over is lost), and an iteration cut short by the hard limit still ranks the root moves it
    /// got through. The solver sets 70 to finish well inside its own time.
    pub iteration_start_pct: Option<u32>,
}

/// The longest time limit taken as given (2^40 ms, about 35 years); longer ones are cut to it.
pub const MAX_LIMIT_MS: u64 = 1 << 40;

/// Deadlines computed from [`Limits`] when a search starts.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    /// The time the move should take: the base of the cuts and of the time after the search.
    optimum: Option<Duration>,
    /// Do not start another iteration after this.
    iterate_until: Option<Duration>,
    /// Stop searching at this point.
    maximum: Option<Duration>,
}

impl TimeManager {
    /// Starts the clock. `empties` is the number of empty points (to spread game time).
    #[must_use]
    pub fn start(limits: &Limits, empties: usize) -> TimeManager {
        let start = Instant::now();
        // limits beyond a few decades are no limit in practice, and capping them keeps every
        // product below (and every deadline of the clock) far from overflowing
        let move_time = limits.move_time_ms.map(|t| t.min(MAX_LIMIT_MS));
        let mut maximum: Option<u64> = move_time;
        let mut optimum: Option<u64> = move_time.map(|t| t * 7 / 10);
        let pct = u64::from(limits.iteration_start_pct.unwrap_or(100).min(100));
        let mut iterate_until: Option<u64> = move_time.map(|t| t * pct / 100);
        if let Some(left) = limits.game_time_left_ms.map(|t| t.min(MAX_LIMIT_MS)) {
            // expect roughly this many more moves of ours
            let moves_left = (empties as u64 / 2).clamp(8, 40);
            let share = left / moves_left;
            let cap = left / 4;
            let opt = share.min(cap);
            let max = (share * 3).min(cap);
            optimum = Some(optimum.map_or(opt, |o| o.min(opt)));
            maximum = Some(maximum.map_or(max, |m| m.min(max)));
            // time saved now is time for later moves
            iterate_until = optimum;
        }
        let margin = limits.margin_ms;
        let to_dur = |ms: u64| Duration::from_millis(ms.saturating_sub(margin).max(1));
        TimeManager {
            start,
            optimum: optimum.map(to_dur),
            iterate_until: iterate_until.map(to_dur),
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
        self.iterate_until
            .is_some_and(|m| self.start.elapsed() >= m)
    }

    /// The same clock with the time the move should take cut to `optimum_pct` percent (no
    /// iteration starts after it) and the hard limit to `maximum_pct` percent (to leave time
    /// for work after the search).
    #[must_use]
    pub fn cut(&self, optimum_pct: u32, maximum_pct: u32) -> TimeManager {
        let optimum = self.optimum.map(|d| d * optimum_pct / 100);
        TimeManager {
            start: self.start,
            optimum,
            iterate_until: optimum,
            maximum: self.maximum.map(|d| d * maximum_pct / 100),
        }
    }

    /// `pct` percent of the time the move should take (`None` without a time limit).
    #[must_use]
    pub fn fraction_of_optimum(&self, pct: u32) -> Option<Duration> {
        self.optimum.map(|d| d * pct / 100)
    }

    /// Time left for work after the search (the opponent's threats): until 130% of the time
    /// after which no iteration starts, and at most 92% of the hard limit (`None` without a time
    /// limit).
    #[must_use]
    pub fn after_search_left(&self) -> Option<Duration> {
        let end = match (self.optimum, self.maximum) {
            (Some(o), Some(m)) => (o * 13 / 10).min(m * 23 / 25),
            _ => return None,
        };
        Some(end.saturating_sub(self.start.elapsed()))
    }

    /// Whether any time limit is set.
    #[must_use]
    pub fn is_timed(&self) -> bool {
        self.maximum.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn move_time(ms: u64) -> TimeManager {
        TimeManager::start(
            &Limits {
                move_time_ms: Some(ms),
                ..Limits::default()
            },
            200,
        )
    }

    #[test]
    fn huge_limits_are_cut_and_never_overflow() {
        let far = Duration::from_millis(MAX_LIMIT_MS);
        for ms in [MAX_LIMIT_MS, 3_000_000_000_000_000_000, u64::MAX] {
            let t = move_time(ms);
            assert_eq!(t.maximum, Some(far), "{ms}");
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
                    move_time_ms: Some(ms),
                    game_time_left_ms: Some(u64::MAX),
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
    fn iterations_start_until_the_end_of_a_fixed_move_time_unless_told_otherwise() {
        let ms = Duration::from_millis;
        let t = move_time(1_000);
        assert_eq!(
            (t.optimum, t.iterate_until, t.maximum),
            (Some(ms(700)), Some(ms(1_000)), Some(ms(1_000)))
        );
        let limits = |pct, game| Limits {
            move_time_ms: Some(1_000),
            game_time_left_ms: game,
            margin_ms: 50,
            iteration_start_pct: pct,
            ..Limits::default()
        };
        // the margin comes off every deadline
        let t = TimeManager::start(&limits(Some(70), None), 200);
        assert_eq!(t.iterate_until, Some(ms(650)));
        assert_eq!(t.maximum, Some(ms(950)));
        // over 100 is 100
        let t = TimeManager::start(&limits(Some(250), None), 200);
        assert_eq!(t.iterate_until, Some(ms(950)));
        // with a game clock the time saved goes to later moves: 20 s over 40 moves
        let t = TimeManager::start(&limits(None, Some(20_000)), 200);
        assert_eq!(
            (t.optimum, t.iterate_until, t.maximum),
            (Some(ms(450)), Some(ms(450)), Some(ms(950)))
        );
        // no limit at all
        let t = TimeManager::start(&Limits::default(), 200);
        assert!(!t.is_timed() && t.iterate_until.is_none() && !t.should_stop_iterating());
    }

    #[test]
    fn a_cut_shortens_both_deadlines_from_the_same_start() {
        let t = move_time(10_000);
        let c = t.cut(60, 75);
        assert_eq!(c.start, t.start);
        assert_eq!(c.optimum, Some(Duration::from_millis(4_200)));
        assert_eq!(c.iterate_until, c.optimum);
        assert_eq!(c.maximum, Some(Duration::from_millis(7_500)));
        assert!(!c.out_of_time() && !c.should_stop_iterating());
    }

    #[test]
    fn time_after_the_search_ends_before_the_hard_limit() {
        // optimum 7 s: 130% of it is 9.1 s, below 92% of the 10 s limit
        let left = move_time(10_000).after_search_left().expect("timed");
        assert!(left <= Duration::from_millis(9_100), "{left:?}");
        assert!(left > Duration::from_millis(8_000), "{left:?}");
        // with game time: 40 moves expected, a 900 ms share and a 2.7 s limit; 130% of the
        // share is 1.17 s
        let g = TimeManager::start(
            &Limits {
                game_time_left_ms: Some(36_000),
                ..Limits::default()
            },
            200,
        );
        let left = g.after_search_left().expect("timed");
        assert!(left <= Duration::from_millis(1_170), "{left:?}");
        assert!(left > Duration::from_millis(1_000), "{left:?}");
        // the hard limit caps it when the optimum is close to it
        let close = TimeManager {
            start: Instant::now(),
            optimum: Some(Duration::from_millis(1_000)),
            iterate_until: Some(Duration::from_millis(1_000)),
            maximum: Some(Duration::from_millis(1_000)),
        };
        let left = close.after_search_left().expect("timed");
        assert!(left <= Duration::from_millis(920), "{left:?}");
        assert_eq!(
            TimeManager::start(&Limits::default(), 200).after_search_left(),
            None
        );
    }
}
