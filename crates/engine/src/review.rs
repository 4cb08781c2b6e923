//! Game review: how much each move of a game gave away, judged by the engine's searches.
//!
//! Every position of the game is searched with the same limits, from the last to the first (so
//! that the table already knows what the later positions hold when the earlier ones are
//! searched). A move's value is the value of the position after it, from the mover's side
//! (the engine's best reply, negated); the best value is that of the position before it. Both
//! become a winning chance ([`win_chance`]), and the chance the move gave away decides its
//! [`Verdict`]. A move the engine would have played itself is [`Verdict::Best`] and gives
//! nothing away.
//!
//! ```
//! use gomoku_engine::review::{review_game, ReviewParams, Verdict};
//! use gomoku_engine::{Engine, EngineConfig, Game, Limits, Rule};
//! use std::sync::atomic::AtomicBool;
//! // White lets Black make an open four (h8 i8 j8 + k8), then Black wins
//! let game = Game::from_position(15, Rule::Freestyle, "h8 h9 i8 i9 j8 a1 k8").unwrap();
//! let mut engine = Engine::new(EngineConfig { hash_mb: 4, threads: 1 });
//! let limits = Limits { depth: Some(4), ..Limits::default() };
//! let stop = AtomicBool::new(false);
//! let review = review_game(&mut engine, &game, &limits, &ReviewParams::default(), &stop, &mut |_| {});
//! assert!(review.complete);
//! assert_eq!(review.moves.len(), 7);
//! assert_eq!(review.moves[5].verdict, Verdict::Blunder); // a1 ignores the three
//! ```

use crate::game::{Game, GameResult};
use crate::search::score::{moves_to_result, Score, WIN, WIN_MIN};
use crate::search::{Engine, Limits, SearchOptions, SearchResult};
use crate::types::{Color, Pos};
use std::sync::atomic::{AtomicBool, Ordering};

/// How a move compares with the engine's choice, from best to worst.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// The engine's own choice.
    Best,
    /// Another move that gives away less than an inaccuracy.
    Good,
    /// Gives away at least [`ReviewParams::inaccuracy`] of the winning chance.
    Inaccuracy,
    /// Gives away at least [`ReviewParams::mistake`].
    Mistake,
    /// Gives away at least [`ReviewParams::blunder`], or turns a proven win into no win or a
    /// position not proven lost into a proven loss.
    Blunder,
}

impl Verdict {
    /// Short lowercase name (`best`, `good`, `inaccuracy`, `mistake`, `blunder`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Best => "best",
            Verdict::Good => "good",
            Verdict::Inaccuracy => "inaccuracy",
            Verdict::Mistake => "mistake",
            Verdict::Blunder => "blunder",
        }
    }

    /// The usual annotation mark: `""` for best and good moves, `?!`, `?` and `??`.
    #[must_use]
    pub fn mark(self) -> &'static str {
        match self {
            Verdict::Best | Verdict::Good => "",
            Verdict::Inaccuracy => "?!",
            Verdict::Mistake => "?",
            Verdict::Blunder => "??",
        }
    }
}

/// The thresholds of the verdicts, as a share of the winning chance given away (0 to 1), and
/// the scale of the chance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReviewParams {
    /// Chance given away from which a move is an inaccuracy.
    pub inaccuracy: f64,
    /// Chance given away from which a move is a mistake.
    pub mistake: f64,
    /// Chance given away from which a move is a blunder.
    pub blunder: f64,
    /// The score at which the winning chance is about 73% (the logistic curve's scale).
    pub scale: f64,
}

impl Default for ReviewParams {
    fn default() -> Self {
        ReviewParams {
            inaccuracy: 0.10,
            mistake: 0.20,
            blunder: 0.35,
            scale: 400.0,
        }
    }
}

/// A rough winning chance for a score of the side to move: 1 for a proven win, 0 for a proven
/// loss, else a logistic curve of the score (0.5 at 0, about 0.73 at `scale`).
#[must_use]
pub fn win_chance(s: Score, scale: f64) -> f64 {
    match moves_to_result(s) {
        Some(n) if n > 0 => 1.0,
        Some(_) => 0.0,
        None => 1.0 / (1.0 + (-f64::from(s) / scale).exp()),
    }
}

/// The review of one move of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// Its index in the game's moves (0 for the first move).
    pub ply: usize,
    /// The move played.
    pub played: Pos,
    /// Who played it.
    pub color: Color,
    /// The engine's choice in the position before it.
    pub best: Pos,
    /// The value of the position before the move for the mover (the engine's choice's value).
    pub best_score: Score,
    /// The engine's line from the position before the move, starting with `best`.
    pub best_pv: Vec<Pos>,
    /// The value of the move played, for the mover.
    pub played_score: Score,
    /// The engine's line after the move played (the opponent's best reply first); empty when
    /// the move ended the game or was the engine's choice (then see `best_pv`).
    pub played_pv: Vec<Pos>,
    /// The winning chance the move gave away (0 to 1).
    pub loss: f64,
    /// The judgement.
    pub verdict: Verdict,
    /// Depth of the search of the position before the move.
    pub depth: i32,
}

/// A finished (or stopped) review.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Review {
    /// The reviewed moves in game order (passes are not judged and not listed). A stopped
    /// review holds the moves from some point to the end of the game.
    pub moves: Vec<MoveReview>,
    /// Whether every move was reviewed.
    pub complete: bool,
}

impl Review {
    /// How many of the reviewed moves of `color` got each verdict, in the order best, good,
    /// inaccuracy, mistake, blunder.
    #[must_use]
    pub fn counts(&self, color: Color) -> [usize; 5] {
        let mut c = [0; 5];
        for m in self.moves.iter().filter(|m| m.color == color) {
            c[m.verdict as usize] += 1;
        }
        c
    }
}

/// Progress of a review, reported after each position is searched.
#[derive(Debug)]
pub struct ReviewProgress<'a> {
    /// Positions searched so far.
    pub done: usize,
    /// Positions to search in all.
    pub total: usize,
    /// The number of stones and passes on the board of the position just searched.
    pub ply: usize,
    /// That search's result.
    pub result: &'a SearchResult,
}

/// The value of a finished game for the side that would move next.
fn final_score(result: &GameResult, to_move: Color) -> Score {
    match result {
        GameResult::Draw => 0,
        // the last move won (made five, or Black fouled and lost): the mover of the next
        // position lost on the spot or won on the spot
        GameResult::Win { winner, .. } if *winner == to_move => WIN,
        GameResult::Win { .. } => -WIN,
    }
}

/// The winning chance given away and the verdict of a move, from its value and the best value
/// (both for the mover) and whether it was the engine's choice.
#[must_use]
pub fn judge(
    best_score: Score,
    played_score: Score,
    engine_choice: bool,
    params: &ReviewParams,
) -> (f64, Verdict) {
    // a move that wins as fast as the engine's choice is as good
    if engine_choice || (played_score >= WIN_MIN && played_score >= best_score) {
        return (0.0, Verdict::Best);
    }
    let before = win_chance(best_score, params.scale);
    let after = win_chance(played_score, params.scale);
    let loss = (before - after).max(0.0);
    let won_thrown = best_score >= WIN_MIN && played_score < WIN_MIN;
    let loss_made = best_score > -WIN_MIN && played_score <= -WIN_MIN;
    let verdict = if won_thrown || loss_made || loss >= params.blunder {
        Verdict::Blunder
    } else if loss >= params.mistake {
        Verdict::Mistake
    } else if loss >= params.inaccuracy {
        Verdict::Inaccuracy
    } else {
        Verdict::Good
    };
    (loss, verdict)
}

/// Whether `game` has a move to judge (passes are not judged).
#[must_use]
pub fn has_moves(game: &Game) -> bool {
    game.board().moves()[game.start_ply()..]
        .iter()
        .any(|p| p.is_point())
}

/// How many positions [`review_game`] searches: one per move (a set-up position's stones are
/// not moves), and the position after the last move unless the game is over.
#[must_use]
pub fn positions(game: &Game) -> usize {
    game.board().moves().len() - game.start_ply() + usize::from(game.result().is_none())
}

/// Reviews every move of `game` (its moves so far; undone moves are not part of it), searching
/// each position with `limits`. Stops early when `stop` becomes true, with the moves reviewed
/// until then. The engine's table is used and kept as it is (clear it first for a review that
/// does not depend on earlier searches).
pub fn review_game(
    engine: &mut Engine,
    game: &Game,
    limits: &Limits,
    params: &ReviewParams,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(ReviewProgress<'_>),
) -> Review {
    let moves: Vec<Pos> = game.board().moves().to_vec();
    let n = moves.len();
    let total = positions(game);
    let mut after: Option<(Score, Vec<Pos>)> = game
        .result()
        .map(|r| (final_score(r, game.board().to_move()), Vec::new()));
    let mut g = game.clone();
    if g.is_over() {
        // a finished game's last position needs no search: `after` holds its value
        g.undo();
    }
    let mut done = 0;
    let mut reviewed = Vec::new();
    let options = SearchOptions::default();
    loop {
        // `g` is the position after `g.board().ply()` moves; `after` the value of the next one
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let ply = g.board().ply();
        let result = engine.search(g.board(), limits, &options, stop, &mut |_| {});
        if stop.load(Ordering::Relaxed) && done + 1 < total {
            // a search cut short by the stop is not a judgement (the last one is kept)
            break;
        }
        done += 1;
        progress(ReviewProgress {
            done,
            total,
            ply,
            result: &result,
        });
        if ply < n {
            let played = moves[ply];
            if played.is_point() {
                let (next_score, next_pv) = after.take().unwrap_or((0, Vec::new()));
                let engine_choice = result.best_move == played;
                let mut played_score = if engine_choice {
                    result.score
                } else {
                    one_ply_back(-next_score)
                };
                if result.score <= -WIN_MIN {
                    // the position was proven lost, so every move loses (the search after the
                    // move may not have seen how): the proof's distance is the closest known
                    played_score = played_score.min(result.score);
                }
                let (loss, verdict) = judge(result.score, played_score, engine_choice, params);
                reviewed.push(MoveReview {
                    ply,
                    played,
                    color: g.board().to_move(),
                    best: result.best_move,
                    best_score: result.score,
                    best_pv: result.pv.clone(),
                    played_score,
                    played_pv: if engine_choice { Vec::new() } else { next_pv },
                    loss,
                    verdict,
                    depth: result.depth,
                });
            }
        }
        after = Some((result.score, result.pv.clone()));
        if g.undo().is_none() {
            break;
        }
    }
    reviewed.reverse();
    let complete = done == total;
    Review {
        moves: reviewed,
        complete,
    }
}

/// A value of the position after a move, negated for the mover, as a value of the position
/// before it: a proven result is one ply further away (a move that makes five is a win in one
/// ply, `win_in(1)`).
fn one_ply_back(s: Score) -> Score {
    if s >= WIN_MIN {
        s - 1
    } else if s <= -WIN_MIN {
        s + 1
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{loss_in, win_in};
    use crate::search::EngineConfig;
    use crate::types::Rule;

    fn params() -> ReviewParams {
        ReviewParams::default()
    }

    #[test]
    fn verdicts_follow_the_chance_given_away() {
        let p = params();
        // (best, played, engine's choice) -> verdict
        let cases = [
            (100, 100, true, Verdict::Best),
            (100, 90, false, Verdict::Good),
            (100, 150, false, Verdict::Good),
            (0, -200, false, Verdict::Inaccuracy),
            (0, -450, false, Verdict::Mistake),
            (0, -800, false, Verdict::Blunder),
            (win_in(7), win_in(9), false, Verdict::Good),
            (win_in(7), win_in(7), false, Verdict::Best),
            (win_in(7), win_in(5), false, Verdict::Best),
            (win_in(7), 3000, false, Verdict::Blunder),
            (50, loss_in(6), false, Verdict::Blunder),
            (-3000, loss_in(6), false, Verdict::Blunder),
            (loss_in(8), loss_in(2), false, Verdict::Good),
            (-2500, -2600, false, Verdict::Good),
        ];
        for (best, played, choice, want) in cases {
            let (loss, v) = judge(best, played, choice, &p);
            assert_eq!(v, want, "best {best} played {played}");
            assert!((0.0..=1.0).contains(&loss));
        }
    }

    #[test]
    fn chances() {
        assert!((win_chance(0, 400.0) - 0.5).abs() < 1e-12);
        assert!(win_chance(400, 400.0) > 0.7 && win_chance(400, 400.0) < 0.75);
        assert_eq!(win_chance(win_in(1), 400.0), 1.0);
        assert_eq!(win_chance(loss_in(2), 400.0), 0.0);
        assert!((win_chance(-300, 400.0) + win_chance(300, 400.0) - 1.0).abs() < 1e-12);
    }

    fn review(rule: Rule, moves: &str, depth: i32) -> Review {
        let game = Game::from_position(15, rule, moves).unwrap();
        let mut engine = Engine::new(EngineConfig {
            hash_mb: 4,
            threads: 1,
        });
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        let mut seen = Vec::new();
        let r = review_game(&mut engine, &game, &limits, &params(), &stop, &mut |p| {
            seen.push((p.done, p.total, p.ply));
        });
        // every position reported once, from the last to the first
        let total = seen.first().map_or(0, |s| s.1);
        assert_eq!(seen.len(), total);
        for (k, &(done, t, ply)) in seen.iter().enumerate() {
            assert_eq!((done, t), (k + 1, total));
            assert_eq!(ply, total - 1 - k);
        }
        r
    }

    #[test]
    fn a_won_game_ends_with_the_winning_move_judged_best() {
        // Black's straight four is made by k8 (h8 i8 j8 k8) and wins at l8 or g8
        let r = review(Rule::Freestyle, "h8 h9 i8 i9 j8 a1 k8 a2 l8", 4);
        assert!(r.complete);
        assert_eq!(r.moves.len(), 9);
        let last = &r.moves[8];
        assert_eq!((last.ply, last.color), (8, Color::Black));
        assert_eq!(last.played_score, win_in(1));
        assert_eq!(last.verdict, Verdict::Best);
        // the values of the moves played count plies from the position before them, like the
        // best values: k8 makes a straight four (win in 3 plies), a2 lets the five be made
        assert_eq!(r.moves[6].played_score, win_in(3));
        assert_eq!(r.moves[6].best_score, win_in(3));
        assert_eq!(r.moves[7].played_score, loss_in(2));
        assert_eq!(r.moves[7].best_score, loss_in(2));
        assert!(last.played_pv.is_empty());
        // a1 (ply 5) lets Black make a straight four; a2 (ply 7) is already lost
        assert_eq!(r.moves[5].verdict, Verdict::Blunder);
        assert!(moves_to_result(r.moves[5].played_score).is_some_and(|n| n < 0));
        assert_ne!(r.moves[7].verdict, Verdict::Blunder);
        assert!(moves_to_result(r.moves[7].best_score).is_some_and(|n| n < 0));
        // best moves and lines belong to their positions
        for m in &r.moves {
            assert_eq!(m.best_pv.first(), Some(&m.best));
            assert!(m.loss >= 0.0 && m.loss <= 1.0);
            if m.verdict == Verdict::Best {
                assert!(m.best == m.played || m.played_score >= m.best_score);
                assert_eq!(m.loss, 0.0);
            }
        }
        let black = r.counts(Color::Black);
        let white = r.counts(Color::White);
        assert_eq!(black.iter().sum::<usize>(), 5);
        assert_eq!(white.iter().sum::<usize>(), 4);
        assert!(white[Verdict::Blunder as usize] >= 1);
    }

    #[test]
    fn an_unfinished_game_searches_the_last_position_too_and_passes_are_skipped() {
        let r = review(Rule::Renju, "h8 -- i9 h9", 3);
        assert!(r.complete);
        let plies: Vec<usize> = r.moves.iter().map(|m| m.ply).collect();
        assert_eq!(plies, vec![0, 2, 3]);
        assert_eq!(r.moves[1].color, Color::Black);
        assert_eq!(r.moves[2].color, Color::White);
    }

    #[test]
    fn a_foul_is_a_blunder() {
        // renju: j8 makes two open threes for Black (h8 i8 j8 and j8 j9 j10), a double three
        let moves = "h8 a1 i8 a3 j9 a5 j10 a7 j8";
        let game = Game::from_position(15, Rule::Renju, moves).unwrap();
        assert!(matches!(
            game.result(),
            Some(GameResult::Win {
                winner: Color::White,
                foul: Some(_),
                ..
            })
        ));
        let r = review(Rule::Renju, moves, 2);
        assert!(r.complete);
        assert_eq!(r.moves.len(), 9);
        let foul = &r.moves[8];
        assert_eq!(foul.verdict, Verdict::Blunder);
        assert_eq!(foul.played_score, loss_in(1));
        assert_eq!(win_chance(foul.played_score, 400.0), 0.0);
        assert_ne!(foul.best, foul.played);
    }

    #[test]
    fn a_stop_before_the_start_reviews_nothing() {
        let game = Game::from_position(15, Rule::Standard, "h8 h9 i8").unwrap();
        let mut engine = Engine::new(EngineConfig {
            hash_mb: 4,
            threads: 1,
        });
        let stop = AtomicBool::new(true);
        let r = review_game(
            &mut engine,
            &game,
            &Limits::default(),
            &params(),
            &stop,
            &mut |_| panic!("no position is searched"),
        );
        assert!(!r.complete);
        assert!(r.moves.is_empty());
    }

    #[test]
    fn an_empty_game_searches_one_position_and_judges_nothing() {
        let game = Game::from_position(15, Rule::Freestyle, "--").unwrap();
        assert!(!has_moves(&game));
        assert!(has_moves(
            &Game::from_position(15, Rule::Freestyle, "-- h8").unwrap()
        ));
        let r = review(Rule::Freestyle, "", 2);
        assert!(r.complete);
        assert!(r.moves.is_empty());
    }

    #[test]
    fn a_set_up_position_is_the_start_of_the_review() {
        let pts = |t: &str| crate::notation::parse_moves(t, 15).unwrap();
        let mut game =
            Game::from_stones(15, Rule::Freestyle, &pts("h8 i9"), &pts("h9"), Color::White)
                .unwrap();
        assert!(!has_moves(&game));
        assert_eq!(positions(&game), 1);
        for p in pts("g7 j10 f6") {
            game.play(p).unwrap();
        }
        assert!(has_moves(&game));
        assert_eq!(positions(&game), 4);
        let mut engine = Engine::new(EngineConfig {
            hash_mb: 4,
            threads: 1,
        });
        let limits = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        let mut seen = Vec::new();
        let r = review_game(
            &mut engine,
            &game,
            &limits,
            &params(),
            &AtomicBool::new(false),
            &mut |p| seen.push(p.ply),
        );
        assert!(r.complete);
        assert_eq!(seen, vec![6, 5, 4, 3]);
        let plies: Vec<usize> = r.moves.iter().map(|m| m.ply).collect();
        assert_eq!(plies, vec![3, 4, 5]);
        assert_eq!(r.moves[0].color, Color::White);
    }
}
