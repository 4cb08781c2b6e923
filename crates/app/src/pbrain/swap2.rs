//! The swap2 opening of Gomocup's `SWAP2BOARD` command: which stones to propose, and which
//! colour to take.
//!
//! Swap2: the first player puts down three stones (black, white, black); the second either
//! takes Black (`SWAP`), stays White and plays the 4th stone, or puts down a 4th (white) and a
//! 5th (black) stone and lets the first player choose; after five stones the first player
//! either takes Black (`SWAP`) or stays White and plays the 6th stone. In every case White is
//! to move on the board, so the choice reads one value: White's, from a search.

use gomoku_engine::notation::{format_xy, parse_xy};
use gomoku_engine::rng::{Rng, XorShift64};
use gomoku_engine::search::format_score;
use gomoku_engine::{Board, Color, Limits, Pos, SearchOptions, SearchResult};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// A value for White within this many points of zero counts as an even position (the
/// first move is worth about 100-200 points to Black in the searches of 3-stone openings).
pub const EVEN: i32 = 50;

/// How many 3-stone openings are searched before one is proposed.
const OPENING_CANDIDATES: usize = 8;

/// The brain's answer to `SWAP2BOARD`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Take Black: the opponent plays White's next move.
    Swap,
    /// These stones, in order (3 for an opening, 1 to stay White and move, 2 for the 4th and
    /// 5th stones).
    Stones(Vec<Pos>),
}

impl Answer {
    /// The protocol line: `SWAP`, or the stones' `x,y` separated by spaces.
    #[must_use]
    pub fn line(&self) -> String {
        match self {
            Answer::Swap => "SWAP".to_string(),
            Answer::Stones(stones) => stones
                .iter()
                .map(|&p| format_xy(p))
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

impl Answer {
    /// Reads an answer line on a `size` board: `SWAP`, or `x,y` points separated by blanks.
    ///
    /// # Errors
    /// Anything else, or a point off the board.
    pub fn parse(line: &str, size: usize) -> Result<Answer, String> {
        let line = line.trim();
        if line.eq_ignore_ascii_case("SWAP") {
            return Ok(Answer::Swap);
        }
        let stones = line
            .split_whitespace()
            .map(|t| parse_xy(t, size).map_err(|e| e.to_string()))
            .collect::<Result<Vec<Pos>, String>>()?;
        if stones.is_empty() {
            return Err("an empty answer".to_string());
        }
        Ok(Answer::Stones(stones))
    }
}

/// What [`decide`] searches with (its `seed` varies the proposed opening from game to game).
pub use gomoku_engine::decision::Context;

/// Searches `board` with `share` (0 to 1) of the decision's time left.
fn search(
    cx: &mut Context<'_>,
    board: &Board,
    share: f64,
    started: Instant,
    all_values: bool,
) -> SearchResult {
    let limits = share_of(&cx.limits, cx.time_ms, share, started);
    let options = SearchOptions {
        all_root_values: all_values,
        ..SearchOptions::default()
    };
    cx.searcher
        .search(board, &limits, &options, cx.stop, &mut |_| {})
}

/// `limits` for one search of a decision that has `time_ms` in all (`None`: the limits' own)
/// and started at `started`: `share` (0 to 1) of the time left, and no game clock.
pub(crate) fn share_of(
    limits: &Limits,
    time_ms: Option<u64>,
    share: f64,
    started: Instant,
) -> Limits {
    let mut limits = limits.clone();
    limits.game_time_left_ms = None;
    limits.margin_ms = 0;
    limits.iteration_start_pct = None;
    if let Some(t) = time_ms {
        let left = t.saturating_sub(started.elapsed().as_millis() as u64);
        limits.move_time_ms = Some((left as f64 * share) as u64);
    }
    limits
}

/// The answer to `SWAP2BOARD` with `board`'s stones (0, 3 or 5, Black first and alternating;
/// White to move unless the board is empty).
///
/// # Panics
/// With another number of stones (the session checks it first).
pub fn decide(cx: &mut Context<'_>, board: &Board) -> Answer {
    let started = Instant::now();
    match board.stone_count() {
        0 => propose_opening(cx, board, started),
        3 => answer_opening(cx, board, started),
        5 => choose_colour(cx, board, started),
        n => panic!("swap2 with {n} stones"),
    }
}

/// Three stones: of a few openings (a black stone in the centre, a white one beside it, a
/// black one 2-4 points away), the one whose value is nearest to even.
fn propose_opening(cx: &mut Context<'_>, board: &Board, started: Instant) -> Answer {
    let mut candidates = openings(board, cx.seed);
    candidates.truncate(OPENING_CANDIDATES);
    let mut best: Option<(i32, Vec<Pos>)> = None;
    let n = candidates.len();
    for (i, stones) in candidates.into_iter().enumerate() {
        if i > 0 && cx.stop.load(Ordering::Relaxed) {
            break;
        }
        let mut b = board.clone();
        if stones.iter().any(|&p| b.try_play(p).is_err()) {
            continue;
        }
        let r = search(cx, &b, 1.0 / (n - i) as f64, started, false);
        let off = r.score.abs();
        (cx.note)(format!(
            "swap2: opening {} scores {} for White (depth {})",
            Answer::Stones(stones.clone()).line(),
            format_score(r.score),
            r.depth
        ));
        if best.as_ref().is_none_or(|(o, _)| off < *o) {
            best = Some((off, stones));
        }
    }
    let stones = best.map_or_else(|| first_free(board, 3), |(_, s)| s);
    Answer::Stones(stones)
}

/// The second player's choice after three stones.
fn answer_opening(cx: &mut Context<'_>, board: &Board, started: Instant) -> Answer {
    let r = search(cx, board, 0.5, started, false);
    let value = r.score;
    if value < -EVEN {
        (cx.note)(format!(
            "swap2: White's value is {}: taking Black",
            format_score(value)
        ));
        return Answer::Swap;
    }
    let mut b = board.clone();
    let Some(fourth) = playable(&mut b, r.best_move) else {
        return Answer::Swap;
    };
    if value > EVEN {
        (cx.note)(format!(
            "swap2: White's value is {}: staying White",
            format_score(value)
        ));
        return Answer::Stones(vec![fourth]);
    }
    // even: a 4th and a 5th stone that keep it even, and the opponent chooses
    if b.try_play(fourth).is_ok() && !cx.stop.load(Ordering::Relaxed) {
        let black = search(cx, &b, 1.0, started, true);
        let fifth = black
            .root_moves
            .iter()
            .filter(|m| m.bound == gomoku_engine::search::ValueBound::Exact)
            .filter(|m| playable(&mut b, m.pos).is_some())
            .min_by_key(|m| m.score.abs());
        if let Some(m) = fifth.filter(|m| m.score.abs() <= EVEN) {
            (cx.note)(format!(
                "swap2: White's value is {}: two more stones, White's value {} after them",
                format_score(value),
                format_score(-m.score)
            ));
            return Answer::Stones(vec![fourth, m.pos]);
        }
    }
    (cx.note)(format!(
        "swap2: White's value is {}: staying White",
        format_score(value)
    ));
    Answer::Stones(vec![fourth])
}

/// The first player's choice after five stones.
fn choose_colour(cx: &mut Context<'_>, board: &Board, started: Instant) -> Answer {
    let r = search(cx, board, 1.0, started, false);
    match playable(&mut board.clone(), r.best_move) {
        Some(sixth) if r.score >= 0 => {
            (cx.note)(format!(
                "swap2: White's value is {}: staying White",
                format_score(r.score)
            ));
            Answer::Stones(vec![sixth])
        }
        _ => {
            (cx.note)(format!(
                "swap2: White's value is {}: taking Black",
                format_score(r.score)
            ));
            Answer::Swap
        }
    }
}

/// An answer that needs no search, for when the search failed: the three points nearest
/// the centre for an opening, else `SWAP`.
#[must_use]
pub fn fallback(board: &Board) -> Answer {
    if board.stone_count() == 0 {
        Answer::Stones(first_free(board, 3))
    } else {
        Answer::Swap
    }
}

/// `p` if the side to move may play it on `board`.
fn playable(board: &mut Board, p: Pos) -> Option<Pos> {
    let foul =
        board.rule().has_forbidden() && board.to_move() == Color::Black && board.is_forbidden(p);
    (board.contains(p) && board.is_empty(p) && !foul).then_some(p)
}

/// The first `n` free points from the centre outwards (for a board too small for
/// [`openings`]).
fn first_free(board: &Board, n: usize) -> Vec<Pos> {
    let c = board.centre();
    let mut pts: Vec<Pos> = board.points().filter(|&p| board.is_empty(p)).collect();
    pts.sort_by_key(|&p| {
        let dx = p.x().abs_diff(c.x());
        let dy = p.y().abs_diff(c.y());
        (dx.max(dy), dx + dy)
    });
    pts.truncate(n);
    pts
}

/// Three-stone openings on `board`'s centre, in an order drawn from `seed`: Black in the
/// centre, White on one of its eight neighbours, Black 2-4 points from the centre.
fn openings(board: &Board, seed: u64) -> Vec<Vec<Pos>> {
    let c = board.centre();
    let at = |dx: i32, dy: i32| -> Option<Pos> {
        let x = c.x() as i32 + dx;
        let y = c.y() as i32 + dy;
        let p = Pos::new(usize::try_from(x).ok()?, usize::try_from(y).ok()?);
        board.contains(p).then_some(p)
    };
    let mut all = Vec::new();
    for (wx, wy) in [
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ] {
        for bx in -4..=4i32 {
            for by in -4..=4i32 {
                if bx.abs().max(by.abs()) < 2 {
                    continue;
                }
                if let (Some(w), Some(b)) = (at(wx, wy), at(bx, by)) {
                    all.push(vec![c, w, b]);
                }
            }
        }
    }
    XorShift64::from_seed(seed).shuffle(&mut all);
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use gomoku_engine::{Engine, EngineConfig, Rule};
    use std::sync::atomic::AtomicBool;

    fn engine() -> Engine {
        Engine::new(EngineConfig {
            hash_mb: 4,
            threads: 1,
        })
    }

    fn decide_at(rule: Rule, size: usize, moves: &[(usize, usize)], seed: u64) -> Answer {
        let mut board = Board::new(size, rule).expect("size");
        for &(x, y) in moves {
            board.try_play(Pos::new(x, y)).expect("legal");
        }
        let mut e = engine();
        let stop = AtomicBool::new(false);
        let mut notes = Vec::new();
        let mut note = |s: String| notes.push(s);
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let mut cx = Context::new(&mut e, limits, &stop, &mut note);
        cx.seed = seed;
        let answer = decide(&mut cx, &board);
        assert!(!notes.is_empty(), "the decision is explained");
        answer
    }

    #[test]
    fn an_opening_is_three_distinct_free_points_that_vary_with_the_seed() {
        let mut seen = Vec::new();
        for seed in 1..=4 {
            for (rule, size) in [
                (Rule::Standard, 15),
                (Rule::Freestyle, 20),
                (Rule::Renju, 15),
            ] {
                let Answer::Stones(stones) = decide_at(rule, size, &[], seed) else {
                    panic!("an opening is stones");
                };
                assert_eq!(stones.len(), 3);
                let mut b = Board::new(size, rule).expect("size");
                for &p in &stones {
                    b.try_play(p).expect("a free point");
                }
                seen.push(stones);
            }
        }
        seen.sort();
        seen.dedup();
        assert!(seen.len() > 1, "{seen:?}");
    }

    #[test]
    fn openings_fit_small_boards() {
        for size in 5..=8 {
            let Answer::Stones(stones) = decide_at(Rule::Freestyle, size, &[], 7) else {
                panic!("stones");
            };
            assert_eq!(stones.len(), 3, "size {size}");
            let mut b = Board::new(size, Rule::Freestyle).expect("size");
            for &p in &stones {
                b.try_play(p).expect("a free point");
            }
        }
    }

    #[test]
    fn a_lost_white_takes_black_and_a_winning_white_stays() {
        // (stones, White to move; whether White should take Black)
        let cases: &[(&[(usize, usize)], bool)] = &[
            // Black's open three in the middle, White's stone far away: Black
            (&[(7, 7), (0, 0), (8, 7)], true),
            (&[(7, 7), (0, 0), (8, 7), (14, 14), (9, 7)], true),
            // White's two stones beside each other, Black's two scattered on the edges:
            // White
            (&[(0, 0), (7, 7), (14, 14), (8, 8), (0, 14)], false),
        ];
        for &(stones, swap) in cases {
            let answer = decide_at(Rule::Standard, 15, stones, 1);
            assert_eq!(answer == Answer::Swap, swap, "{stones:?}: {answer:?}");
            if let Answer::Stones(s) = answer {
                assert_eq!(s.len(), 1, "{stones:?}: {s:?}");
                assert!(!stones.contains(&(s[0].x(), s[0].y())));
            }
        }
    }

    #[test]
    fn an_even_opening_gets_two_more_stones_on_free_points() {
        // White's stone diagonally beside the first black one, the second black stone a
        // knight's move and more away: White's value is within EVEN at depth 6
        let stones = [(7, 7), (8, 6), (10, 4)];
        let Answer::Stones(s) = decide_at(Rule::Standard, 15, &stones, 1) else {
            panic!("an even opening is not swapped");
        };
        assert_eq!(s.len(), 2, "{s:?}");
        let mut b = Board::new(15, Rule::Standard).expect("size");
        for &(x, y) in &stones {
            b.try_play(Pos::new(x, y)).expect("legal");
        }
        for &p in &s {
            b.try_play(p).expect("a free point");
        }
    }

    #[test]
    fn answers_read_as_protocol_lines_and_back() {
        assert_eq!(Answer::Swap.line(), "SWAP");
        let a = Answer::Stones(vec![Pos::new(7, 7), Pos::new(8, 6)]);
        assert_eq!(a.line(), "7,7 8,6");
        assert_eq!(Answer::parse(" 7,7  8,6\r", 15), Ok(a));
        assert_eq!(Answer::parse("swap", 15), Ok(Answer::Swap));
        for bad in ["", "SWAP 7,7", "7,7 x", "15,0", "7;7"] {
            assert!(Answer::parse(bad, 15).is_err(), "{bad:?}");
        }
    }
}
