//! Yixin-Board's balance commands, which GUIs use to make even openings:
//! `YXBALANCEONE bias` asks for the move after which the position is worth `bias` to the side
//! that played it (0: even), and `YXBALANCETWO bias` for two moves, ours and then one for the
//! opponent, after which we are to move again with that value. The answer is the move, or the
//! two moves, as `x,y` separated by a space.
//!
//! Both read the exact values of every root move from an analysis search (`all_root_values`)
//! and take the move whose value is nearest to `bias`. For two moves, the first is one of the
//! few nearest to `bias` itself, and each of them gets a search of the opponent's moves after
//! it. They search with the swap2 decision's [`Context`] (its `seed` is not used).

use super::swap2::{share_of, Context};
use gomoku_engine::notation::format_xy;
use gomoku_engine::search::{format_score, RootMove, Score, ValueBound};
use gomoku_engine::{Board, Pattern4, Pos, SearchOptions};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// How many of our moves get a search of the opponent's moves after them (`YXBALANCETWO`).
const FIRST_MOVES: usize = 3;
/// Share of the time for the first search of `YXBALANCETWO`; the rest goes to the searches
/// after each of the first moves.
const FIRST_SHARE: f64 = 0.3;

/// The exact values of the root moves of `board` (best first) but those in `exclude`,
/// searched with `share` (0 to 1) of the decision's time left.
fn values(
    cx: &mut Context<'_>,
    board: &Board,
    exclude: &[Pos],
    share: f64,
    started: Instant,
) -> Vec<RootMove> {
    let limits = share_of(&cx.limits, cx.time_ms, share, started);
    let options = SearchOptions {
        all_root_values: true,
        exclude: exclude.to_vec(),
        ..SearchOptions::default()
    };
    let r = cx
        .searcher
        .search(board, &limits, &options, cx.stop, &mut |_| {});
    let mut moves: Vec<RootMove> = r
        .root_moves
        .into_iter()
        .filter(|m| m.bound == ValueBound::Exact && !exclude.contains(&m.pos))
        .collect();
    if moves.is_empty() && r.best_move.is_point() {
        // no exact value came back (a stop at once): the move found, at its value
        moves.push(RootMove {
            pos: r.best_move,
            score: r.score,
            bound: ValueBound::Exact,
            pv: r.pv,
            depth: r.depth,
        });
    }
    moves
}

/// The move of the side to move whose value is nearest to `bias` (none on a board with no
/// legal move).
pub fn one(cx: &mut Context<'_>, board: &Board, exclude: &[Pos], bias: Score) -> Vec<Pos> {
    let started = Instant::now();
    let moves = values(cx, board, exclude, 1.0, started);
    let Some(m) = nearest(&moves, |m| m.score, bias) else {
        return Vec::new();
    };
    (cx.note)(format!(
        "balance: {} is worth {} to the side that plays it (target {})",
        format_xy(m.pos),
        format_score(m.score),
        format_score(bias)
    ));
    vec![m.pos]
}

/// Our move and one of the opponent's after which we are to move with a value nearest to
/// `bias`. Our move alone when no move of the opponent is left (or our move makes five).
pub fn two(cx: &mut Context<'_>, board: &Board, exclude: &[Pos], bias: Score) -> Vec<Pos> {
    let started = Instant::now();
    let us = board.to_move();
    let mut firsts = values(cx, board, exclude, FIRST_SHARE, started);
    if firsts.is_empty() {
        return Vec::new();
    }
    // a five ends the game: there is no second move after it
    let quiet: Vec<RootMove> = firsts
        .iter()
        .filter(|m| board.threat(m.pos, us) != Pattern4::Five)
        .cloned()
        .collect();
    if quiet.is_empty() {
        return one(cx, board, exclude, bias);
    }
    firsts = quiet;
    firsts.sort_by_key(|m| (i64::from(m.score) - i64::from(bias)).abs());
    firsts.truncate(FIRST_MOVES);
    let n = firsts.len();
    let mut best: Option<(i64, Pos, Pos, Score)> = None;
    for (i, first) in firsts.iter().enumerate() {
        if i > 0 && cx.stop.load(Ordering::Relaxed) {
            break;
        }
        let mut after = board.clone();
        if after.try_play(first.pos).is_err() {
            continue;
        }
        let them = after.to_move();
        let replies = values(cx, &after, exclude, 1.0 / (n - i) as f64, started);
        // the opponent's move's value for them is ours, negated, once we are to move again
        let ours = |m: &RootMove| -m.score;
        let quiet: Vec<RootMove> = replies
            .into_iter()
            .filter(|m| after.threat(m.pos, them) != Pattern4::Five)
            .collect();
        let Some(second) = nearest(&quiet, ours, bias) else {
            continue;
        };
        let off = (i64::from(ours(second)) - i64::from(bias)).abs();
        (cx.note)(format!(
            "balance: {} then {} leaves the first player {} (target {})",
            format_xy(first.pos),
            format_xy(second.pos),
            format_score(ours(second)),
            format_score(bias)
        ));
        if best.is_none_or(|(o, ..)| off < o) {
            best = Some((off, first.pos, second.pos, ours(second)));
        }
    }
    match best {
        Some((_, a, b, _)) => vec![a, b],
        None => vec![firsts[0].pos],
    }
}

/// The move whose `value` is nearest to `bias` (the first of equals: the search's order).
fn nearest(
    moves: &[RootMove],
    value: impl Fn(&RootMove) -> Score,
    bias: Score,
) -> Option<&RootMove> {
    moves
        .iter()
        .min_by_key(|m| (i64::from(value(m)) - i64::from(bias)).abs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use gomoku_engine::search::score::win_in;
    use gomoku_engine::{Engine, EngineConfig, Game, Limits, Rule};
    use std::sync::atomic::AtomicBool;

    fn answer(moves: &str, two_moves: bool, bias: Score) -> (Board, Vec<Pos>, Vec<String>) {
        let game = Game::from_position(15, Rule::Freestyle, moves).unwrap();
        let board = game.board().clone();
        let mut engine = Engine::new(EngineConfig {
            hash_mb: 4,
            threads: 1,
        });
        let stop = AtomicBool::new(false);
        let mut notes = Vec::new();
        let mut note = |s: String| notes.push(s);
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let mut cx = Context::new(&mut engine, limits, &stop, &mut note);
        let stones = if two_moves {
            two(&mut cx, &board, &[], bias)
        } else {
            one(&mut cx, &board, &[], bias)
        };
        (board, stones, notes)
    }

    fn pt(t: &str) -> Pos {
        gomoku_engine::notation::parse_pos(t, 15).unwrap()
    }

    #[test]
    fn one_move_nearest_to_the_bias() {
        // Black can make five at g8 or l8
        let four = "h8 a1 i8 a3 j8 a5 k8 a7";
        let (_, stones, _) = answer(four, false, win_in(1));
        assert!(stones == [pt("g8")] || stones == [pt("l8")], "{stones:?}");
        // an even target in a quiet opening: a move, not far from even
        let (board, stones, notes) = answer("h8 i9", false, 0);
        assert_eq!(stones.len(), 1);
        assert!(board.is_empty(stones[0]));
        assert!(notes[0].contains("(target +0)"), "{notes:?}");
    }

    #[test]
    fn two_moves_ours_then_the_opponents() {
        let (board, stones, notes) = answer("h8 i9 h9", true, 0);
        assert_eq!(stones.len(), 2, "{stones:?}");
        assert_ne!(stones[0], stones[1]);
        let mut b = board.clone();
        for &p in &stones {
            b.try_play(p).expect("each stone fits");
        }
        assert_eq!(
            b.to_move(),
            board.to_move(),
            "the first player is to move again"
        );
        assert!(!notes.is_empty());
        // neither stone makes five
        let (board, stones, _) = answer("h8 a1 i8 a3 j8 a5", true, 0);
        assert_ne!(board.threat(stones[0], board.to_move()), Pattern4::Five);
    }

    #[test]
    fn a_five_to_make_is_all_there_is_when_only_fives_are_left() {
        // every quiet move is excluded: the five, alone
        let game = Game::from_position(5, Rule::Freestyle, "a1 a2 b1 b2 c1 c2 d1 d2").unwrap();
        let board = game.board().clone();
        let mut engine = Engine::new(EngineConfig {
            hash_mb: 4,
            threads: 1,
        });
        let stop = AtomicBool::new(false);
        let mut note = |_: String| {};
        let exclude: Vec<Pos> = board
            .points()
            .filter(|&p| board.is_empty(p) && p != Pos::new(4, 4))
            .collect();
        let limits = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        let mut cx = Context::new(&mut engine, limits, &stop, &mut note);
        assert_eq!(two(&mut cx, &board, &exclude, 0), vec![Pos::new(4, 4)]);
    }
}
