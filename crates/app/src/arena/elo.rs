//! Match statistics: score, Elo difference with a 95% interval, and the sequential probability
//! ratio test (SPRT) used to decide "is A stronger than B by at least elo1, or by at most elo0?"
//! with bounded error rates.
//!
//! The Elo model is the logistic one: an expected score `s` corresponds to an Elo difference of
//! `-400 log10(1/s - 1)`. The interval uses the normal approximation of the mean score over the
//! games (wins 1, draws 1/2, losses 0). The SPRT log-likelihood ratio is the usual normal
//! approximation of the generalised SPRT over the same per-game scores.

use serde::Serialize;

/// Wins, losses and draws from the first player's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}

/// Quantile of the normal distribution for a two-sided 95% interval.
const Z95: f64 = 1.959_963_985;

/// The Elo difference of an expected score (infinite at 0 and 1).
#[must_use]
pub fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score of an Elo difference.
#[must_use]
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Tally {
    /// Counts one game from its score for the first player (1 a win, 0 a loss, 1/2 a draw).
    pub fn add_score(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Points: a win 1, a draw 1/2.
    #[must_use]
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// Mean score per game (0.5 with no games).
    #[must_use]
    pub fn mean(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.5
        } else {
            self.points() / f64::from(n)
        }
    }

    /// Variance of one game's score.
    #[must_use]
    pub fn variance(&self) -> f64 {
        let n = f64::from(self.games());
        if n == 0.0 {
            return 0.0;
        }
        let m = self.mean();
        (f64::from(self.wins) * (1.0 - m).powi(2)
            + f64::from(self.draws) * (0.5 - m).powi(2)
            + f64::from(self.losses) * m.powi(2))
            / n
    }

    /// The Elo difference (may be infinite after a clean sweep).
    #[must_use]
    pub fn elo(&self) -> f64 {
        elo_of_score(self.mean())
    }

    /// The 95% interval of the Elo difference.
    #[must_use]
    pub fn elo_interval(&self) -> (f64, f64) {
        let n = f64::from(self.games());
        if n == 0.0 {
            return (f64::NEG_INFINITY, f64::INFINITY);
        }
        let m = self.mean();
        if m <= 0.0 || m >= 1.0 {
            // a sweep has no spread, and the normal interval shrinks to a point: use the
            // Wilson score interval, which stays sensible at the extremes
            let z2 = Z95 * Z95;
            let centre = (m + z2 / (2.0 * n)) / (1.0 + z2 / n);
            let half = Z95 / (1.0 + z2 / n) * (m * (1.0 - m) / n + z2 / (4.0 * n * n)).sqrt();
            return if m >= 1.0 {
                (elo_of_score(centre - half), f64::INFINITY)
            } else {
                (f64::NEG_INFINITY, elo_of_score(centre + half))
            };
        }
        let half = Z95 * (self.variance() / n).sqrt();
        (elo_of_score(m - half), elo_of_score(m + half))
    }
}

/// The parameters of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    /// Elo difference of the null hypothesis.
    pub elo0: f64,
    /// Elo difference of the alternative hypothesis.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the test concludes so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The first player is stronger by about elo1 or more.
    H1,
    /// The first player is stronger by about elo0 or less.
    H0,
    /// Not enough games yet.
    Continue,
}

impl Sprt {
    /// Lower and upper bounds of the log-likelihood ratio.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            // differences of logarithms: a quotient overflows for a tiny alpha (1e-309)
            self.beta.ln() - (1.0 - self.alpha).ln(),
            (1.0 - self.beta).ln() - self.alpha.ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after the games of `t`.
    #[must_use]
    pub fn llr(&self, t: &Tally) -> f64 {
        let n = f64::from(t.games());
        if n == 0.0 {
            return 0.0;
        }
        // a sweep has no spread: assume a little, so that the ratio stays finite
        let var = t.variance().max(1e-3);
        let s0 = score_of_elo(self.elo0);
        let s1 = score_of_elo(self.elo1);
        n * (s1 - s0) * (2.0 * t.mean() - s0 - s1) / (2.0 * var)
    }

    /// The verdict after the games of `t`.
    #[must_use]
    pub fn verdict(&self, t: &Tally) -> Verdict {
        let llr = self.llr(t);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Verdict::H1
        } else if llr <= lo {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

/// An Elo figure for people: `+123.4`, `+inf`, `-inf`.
#[must_use]
pub fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 {
            "+inf".to_string()
        } else {
            "-inf".to_string()
        }
    } else {
        format!("{e:+.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_count_as_wins_losses_and_draws() {
        let mut t = Tally::default();
        for s in [1.0, 0.0, 0.5, 1.0, 0.5, 0.5] {
            t.add_score(s);
        }
        assert_eq!(
            t,
            Tally {
                wins: 2,
                losses: 1,
                draws: 3
            }
        );
        assert_eq!(t.games(), 6);
    }

    #[test]
    fn even_score_is_zero_elo() {
        let t = Tally {
            wins: 10,
            losses: 10,
            draws: 5,
        };
        assert!(t.elo().abs() < 1e-9);
        let (lo, hi) = t.elo_interval();
        assert!(lo < 0.0 && hi > 0.0);
        assert!((lo + hi).abs() < 1e-6, "symmetric: {lo} {hi}");
    }

    #[test]
    fn known_values() {
        // 75% is about +190.8 Elo
        let t = Tally {
            wins: 15,
            losses: 5,
            draws: 0,
        };
        assert!((t.elo() - 190.85).abs() < 0.1, "{}", t.elo());
        assert!((score_of_elo(t.elo()) - 0.75).abs() < 1e-9);
        // 19 of 20: the upper end of the interval passes 100%
        let t = Tally {
            wins: 19,
            losses: 1,
            draws: 0,
        };
        let (lo, hi) = t.elo_interval();
        assert!(lo > 250.0 && lo < 320.0, "{lo}");
        assert!(hi.is_infinite());
        assert_eq!(fmt_elo(hi), "+inf");
        let sweep = Tally {
            wins: 0,
            losses: 4,
            draws: 0,
        };
        assert_eq!(fmt_elo(sweep.elo()), "-inf");
        // a sweep still bounds the difference from one side
        let (lo, hi) = sweep.elo_interval();
        assert!(lo.is_infinite() && hi.is_finite() && hi < 0.0, "{lo} {hi}");
        let t = Tally {
            wins: 20,
            losses: 0,
            draws: 0,
        };
        let (lo, hi) = t.elo_interval();
        assert!(lo > 250.0 && lo < 320.0 && hi.is_infinite(), "{lo} {hi}");
    }

    #[test]
    fn sprt_decides_clear_cases_and_waits_on_close_ones() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 50.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = sprt.bounds();
        assert!((hi - 2.944).abs() < 0.01 && (lo + 2.944).abs() < 0.01);
        let strong = Tally {
            wins: 300,
            losses: 150,
            draws: 50,
        };
        assert_eq!(sprt.verdict(&strong), Verdict::H1);
        let weak = Tally {
            wins: 150,
            losses: 300,
            draws: 50,
        };
        assert_eq!(sprt.verdict(&weak), Verdict::H0);
        let few = Tally {
            wins: 3,
            losses: 2,
            draws: 1,
        };
        assert_eq!(sprt.verdict(&few), Verdict::Continue);
    }

    #[test]
    fn sprt_bounds_stay_finite_for_the_smallest_error_rates() {
        // (1 - beta) / alpha overflows to infinity here; its logarithm does not
        for alpha in [2.341_430_499_973_074e-309, f64::MIN_POSITIVE, 5e-324] {
            let sprt = Sprt {
                elo0: 0.0,
                elo1: 50.0,
                alpha,
                beta: 0.001,
            };
            let (lo, hi) = sprt.bounds();
            assert!(
                lo.is_finite() && hi.is_finite() && lo < hi,
                "{alpha}: {lo} {hi}"
            );
            assert!(hi > 700.0, "{alpha}: {hi}");
        }
    }
}
