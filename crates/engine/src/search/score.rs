//! Search scores: centi-stone-like evaluation units, with proven wins and losses encoded by
//! their distance ("wins in N moves").

/// A search score, from the side to move's point of view.
pub type Score = i32;

/// Score of a five on the board right now (never reached: a win in `n` plies is `WIN - n`).
pub const WIN: Score = 30_000;
/// Scores at or above this are proven wins (below `-WIN_MIN`, proven losses).
pub const WIN_MIN: Score = WIN - 1_000;
/// Larger than any score.
pub const INFINITE: Score = WIN + 1;
/// A drawn position (full board).
pub const DRAW: Score = 0;

/// The score of winning `plies` plies from now (1 = making five with this move).
#[inline]
#[must_use]
pub const fn win_in(plies: i32) -> Score {
    WIN - plies
}

/// The score of losing `plies` plies from now.
#[inline]
#[must_use]
pub const fn loss_in(plies: i32) -> Score {
    -WIN + plies
}

/// Whether the score is a proven win or loss.
#[inline]
#[must_use]
pub const fn is_decisive(s: Score) -> bool {
    s >= WIN_MIN || s <= -WIN_MIN
}

/// For a proven result, the number of the side to move's own moves until five (positive for a
/// win, negative for a loss, counting the opponent's moves of a loss): `win_in(1)` is "wins in 1",
/// `win_in(3)` "wins in 2", `loss_in(2)` "loses in 1".
#[must_use]
pub fn moves_to_result(s: Score) -> Option<i32> {
    if s >= WIN_MIN {
        Some((WIN - s + 1) / 2)
    } else if s <= -WIN_MIN {
        Some(-((WIN + s) / 2))
    } else {
        None
    }
}

/// Human-readable score: `+35`, `-120`, `win in 3`, `loss in 2`.
#[must_use]
pub fn format_score(s: Score) -> String {
    match moves_to_result(s) {
        Some(n) if n > 0 => format!("win in {n}"),
        Some(n) => format!("loss in {}", -n),
        None => format!("{s:+}"),
    }
}

/// Converts a score from "relative to this node" to "relative to the root" for the hash table.
#[inline]
#[must_use]
pub(crate) fn to_tt(s: Score, ply: i32) -> Score {
    if s >= WIN_MIN {
        s + ply
    } else if s <= -WIN_MIN {
        s - ply
    } else {
        s
    }
}

/// The inverse of [`to_tt`].
#[inline]
#[must_use]
pub(crate) fn from_tt(s: Score, ply: i32) -> Score {
    if s >= WIN_MIN {
        s - ply
    } else if s <= -WIN_MIN {
        s + ply
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(moves_to_result(win_in(1)), Some(1));
        assert_eq!(moves_to_result(win_in(3)), Some(2));
        assert_eq!(moves_to_result(win_in(5)), Some(3));
        assert_eq!(moves_to_result(loss_in(2)), Some(-1));
        assert_eq!(moves_to_result(loss_in(4)), Some(-2));
        assert_eq!(moves_to_result(120), None);
        assert_eq!(format_score(win_in(3)), "win in 2");
        assert_eq!(format_score(-35), "-35");
        assert_eq!(from_tt(to_tt(win_in(7), 4), 4), win_in(7));
    }
}
