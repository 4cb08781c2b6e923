//! A game clock for the web board and the terminal `play`: time left per side, an optional
//! increment after each move (Fischer), and the loss of the side whose time runs out.
//!
//! The clock only keeps the times; the game decides when it runs (the side to move's, while
//! the game goes on and no swap2 opening is under way) and passes in the time used.

use gomoku_engine::Color;
use serde::Serialize;

/// The shortest and longest time per side, in milliseconds.
pub const CLOCK_RANGE_MS: std::ops::RangeInclusive<u64> = 1_000..=3 * 60 * 60 * 1000;
/// The largest increment, in milliseconds.
pub const MAX_INCREMENT_MS: u64 = 60_000;

/// Time left for Black and White.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    left_ms: [u64; 2],
    increment_ms: u64,
}

/// The clock as the page sees it.
#[derive(Clone, Debug, Serialize)]
pub struct ClockView {
    /// Black's time left now (less the time of the turn under way when it is Black's).
    pub black_ms: u64,
    pub white_ms: u64,
    pub increment_ms: u64,
    /// The side whose time runs, `null` when the clock stands.
    pub running: Option<&'static str>,
}

impl Clock {
    /// A clock of `total_ms` per side and `increment_ms` after each move.
    ///
    /// # Errors
    /// A message when a time is out of range.
    pub fn new(total_ms: u64, increment_ms: u64) -> Result<Clock, String> {
        if !CLOCK_RANGE_MS.contains(&total_ms) {
            return Err(format!(
                "a clock of {total_ms} ms a side is out of range ({} to {} ms, or 0 for none)",
                CLOCK_RANGE_MS.start(),
                CLOCK_RANGE_MS.end()
            ));
        }
        if increment_ms > MAX_INCREMENT_MS {
            return Err(format!(
                "an increment of {increment_ms} ms is out of range (0 to {MAX_INCREMENT_MS} ms)"
            ));
        }
        Ok(Clock {
            left_ms: [total_ms; 2],
            increment_ms,
        })
    }

    /// The time `color` had left when its turn began.
    #[must_use]
    pub fn left(&self, color: Color) -> u64 {
        self.left_ms[color.index()]
    }

    /// The time `color` has left after `used_ms` of its turn (0 once it is over).
    #[must_use]
    pub fn left_after(&self, color: Color, used_ms: u64) -> u64 {
        self.left(color).saturating_sub(used_ms)
    }

    /// Whether `color`'s time is over after `used_ms` of its turn.
    #[must_use]
    pub fn is_out(&self, color: Color, used_ms: u64) -> bool {
        used_ms >= self.left(color)
    }

    /// Takes `used_ms` off `color`'s time; `moved` adds the increment (a turn ended by a move,
    /// not one cut by an undo). Returns false, changing nothing, when the time was over: the
    /// side lost on time before it moved.
    pub fn charge(&mut self, color: Color, used_ms: u64, moved: bool) -> bool {
        if self.is_out(color, used_ms) {
            return false;
        }
        let left = &mut self.left_ms[color.index()];
        *left -= used_ms;
        if moved {
            *left = left.saturating_add(self.increment_ms);
        }
        true
    }

    /// Sets `color`'s time to nothing (it lost on time).
    pub fn run_out(&mut self, color: Color) {
        self.left_ms[color.index()] = 0;
    }

    /// The view, with `running` the side whose turn is under way and the time it has used.
    #[must_use]
    pub fn view(&self, running: Option<(Color, u64)>) -> ClockView {
        let now = |c: Color| match running {
            Some((r, used)) if r == c => self.left_after(c, used),
            _ => self.left(c),
        };
        ClockView {
            black_ms: now(Color::Black),
            white_ms: now(Color::White),
            increment_ms: self.increment_ms,
            running: running.map(|(c, _)| c.name()),
        }
    }
}

/// A time as the terminal shows it: `m:ss.t` (tenths of a second), `h:mm:ss` from an
/// hour on.
#[must_use]
pub fn format_ms(ms: u64) -> String {
    let (s, tenths) = (ms / 1000, (ms % 1000) / 100);
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
    } else {
        format!("{}:{:02}.{tenths}", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_out_of_range_are_refused() {
        for (total, inc, ok) in [
            (1_000, 0, true),
            (300_000, 3_000, true),
            (3 * 60 * 60 * 1000, MAX_INCREMENT_MS, true),
            (999, 0, false),
            (3 * 60 * 60 * 1000 + 1, 0, false),
            (60_000, MAX_INCREMENT_MS + 1, false),
        ] {
            assert_eq!(Clock::new(total, inc).is_ok(), ok, "{total} {inc}");
        }
        let e = Clock::new(10, 0).unwrap_err();
        assert!(e.contains("a clock of 10 ms a side"), "{e}");
        let e = Clock::new(60_000, 60_001).unwrap_err();
        assert!(e.contains("an increment of 60001 ms"), "{e}");
    }

    #[test]
    fn a_move_takes_its_time_and_gets_the_increment() {
        let mut c = Clock::new(10_000, 2_000).unwrap();
        assert!(c.charge(Color::Black, 3_000, true));
        assert_eq!(c.left(Color::Black), 9_000);
        assert_eq!(c.left(Color::White), 10_000);
        // a turn cut short (an undo) takes its time without the increment
        assert!(c.charge(Color::White, 4_000, false));
        assert_eq!(c.left(Color::White), 6_000);
        let v = c.view(Some((Color::White, 1_500)));
        assert_eq!(
            (v.black_ms, v.white_ms, v.running),
            (9_000, 4_500, Some("white"))
        );
        let v = c.view(None);
        assert_eq!((v.black_ms, v.white_ms, v.running), (9_000, 6_000, None));
    }

    #[test]
    fn times_read_as_minutes_seconds_and_tenths() {
        for (ms, text) in [
            (0, "0:00.0"),
            (99, "0:00.0"),
            (1_950, "0:01.9"),
            (61_000, "1:01.0"),
            (3_599_999, "59:59.9"),
            (3_600_000, "1:00:00"),
            (3 * 60 * 60 * 1000, "3:00:00"),
        ] {
            assert_eq!(format_ms(ms), text, "{ms}");
        }
    }

    #[test]
    fn a_move_after_the_time_is_over_is_refused() {
        let mut c = Clock::new(5_000, 1_000).unwrap();
        assert!(!c.is_out(Color::Black, 4_999));
        assert!(c.is_out(Color::Black, 5_000));
        assert!(!c.charge(Color::Black, 5_000, true));
        assert_eq!(c.left(Color::Black), 5_000, "unchanged");
        assert_eq!(c.view(Some((Color::Black, 7_000))).black_ms, 0);
        c.run_out(Color::Black);
        assert_eq!(c.left(Color::Black), 0);
    }
}
