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
//! The searches of neighbouring positions need not agree, and where a proven result (a win or
//! a loss in so many moves) shows that they do not, the review follows the proof: the engine's
//! own move takes the value that the search after it proved; a move proven better than its
//! position's search saw becomes that position's best move and value;
//! in a position proven lost every move is lost; and after a move that played a proven win,
//! the opponent's position is lost in one move less, whatever its own search saw.
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
use crate::search::score::{is_decisive, moves_to_result, Score, WIN, WIN_MIN};
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
        let mut value = (result.score, result.pv.clone());
        if ply < n {
            let played = moves[ply];
            if played.is_point() {
                let (next_score, next_pv) = after.take().unwrap_or((0, Vec::new()));
                let m = review_move(
                    ply,
                    played,
                    g.board().to_move(),
                    &result,
                    (next_score, next_pv),
                    params,
                );
                carry_forward(&m, reviewed.iter_mut().rev(), params);
                value = (m.best_score, m.best_pv.clone());
                reviewed.push(m);
            }
        }
        after = Some(value);
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

/// The review of the move `played` by `color` at `ply`, from the search of the position before
/// it and the value and line of the position after it (for its side to move).
///
/// A move's value and the position's value come from different searches, which need not
/// agree. Where a proof settles it, the review makes them agree: the engine's own move takes
/// the value of a proof the search after it found; a move proven to do better than the
/// search's value makes the position worth as much (the search missed the proof, and the move
/// is judged best); and in a position proven lost every move is lost.
fn review_move(
    ply: usize,
    played: Pos,
    color: Color,
    result: &SearchResult,
    (next_score, next_pv): (Score, Vec<Pos>),
    params: &ReviewParams,
) -> MoveReview {
    let engine_choice = result.best_move == played;
    let mut best = result.best_move;
    let mut best_score = result.score;
    let mut best_pv = result.pv.clone();
    let after = one_ply_back(-next_score);
    let mut played_score = if !engine_choice {
        after
    } else if !is_decisive(after) {
        result.score
    } else if is_decisive(result.score) {
        // two proofs of the engine's move: the faster win (or the slower loss) is the
        // closer one
        result.score.max(after)
    } else {
        // the position after the engine's move was proven won or lost, which its own search
        // had not seen
        after
    };
    if is_decisive(played_score) && played_score > best_score {
        // the position is worth at least what one of its moves is proven to be worth
        best = played;
        best_score = played_score;
        best_pv = std::iter::once(played)
            .chain(next_pv.iter().copied())
            .collect();
    }
    if best_score <= -WIN_MIN {
        // the position was proven lost, so every move loses (the search after the move may
        // not have seen how): the proof's distance is the closest known
        played_score = played_score.min(best_score);
    }
    let (loss, verdict) = judge(best_score, played_score, best == played, params);
    MoveReview {
        ply,
        played,
        color,
        best,
        best_score,
        best_pv,
        played_score,
        played_pv: if best == played { Vec::new() } else { next_pv },
        loss,
        verdict,
        depth: result.depth,
    }
}

/// Carries the proof of the review `m`, a proven win or loss of the position before its move,
/// along the game to `later`, the reviews of the moves after it in game order, as far as the
/// game follows the proof's line. Each of those positions is then proven won or lost, one ply
/// closer, whatever its own search saw: a side that is lost loses with every move, and a side
/// that wins and plays the line's move plays a proven win. A later search that proved the
/// opposite contradicts the proof, and the walk stops there.
fn carry_forward<'a>(
    m: &MoveReview,
    later: impl IntoIterator<Item = &'a mut MoveReview>,
    params: &ReviewParams,
) {
    if !is_decisive(m.best_score) {
        return;
    }
    let line = &m.best_pv;
    // the proven value of the position before the move `played` at `ply`, for its mover
    let (mut value, mut ply, mut played) = (m.best_score, m.ply, m.played);
    for (j, next) in later.into_iter().enumerate() {
        if line.get(j) != Some(&played) || next.ply != ply + 1 {
            return;
        }
        // a win in n plies is a loss in n - 1 plies after the move, and the other way round
        value = if value > 0 {
            -(value + 1)
        } else {
            -(value - 1)
        };
        if value.abs() >= WIN {
            return;
        }
        if value < 0 {
            if next.best_score >= WIN_MIN {
                return;
            }
            next.best_score = next.best_score.min(value);
            next.played_score = next.played_score.min(next.best_score);
        } else {
            if next.best_score <= -WIN_MIN || line.get(j + 1) != Some(&next.played) {
                // contradicted, or the winner left the line: what its move is worth is
                // its own search's to say
                return;
            }
            next.played_score = next.played_score.max(value);
            if next.played_score >= next.best_score {
                next.best = next.played;
                next.best_score = next.played_score;
                next.best_pv = line[j + 1..].to_vec();
                next.played_pv.clear();
            }
        }
        let (loss, verdict) = judge(
            next.best_score,
            next.played_score,
            next.best == next.played,
            params,
        );
        next.loss = loss;
        next.verdict = verdict;
        (ply, played) = (next.ply, next.played);
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

    /// Games in which the searches of neighbouring positions disagreed before the review
    /// reconciled them (engine self-play at depths 2 and 3).
    const SELF_PLAY: [(Rule, &str); 6] = [
        (Rule::Freestyle, "h8 i9 h9 h10 j8 i8 i7 i10 j6 i11 i12 g9 j12 j10 k10 f10 g10 h12 k9 h6 k11 g13 f14 f8 e7 k8 l10 m11 i13 h14 m9"),
        (Rule::Freestyle, "h8 i8 j9 j6 i9 k7 j10 k11 h9 k9 g9 f9 h10 h11 j11 k10 k8 k12 k13 j12 j8 j7 h7 h6 g7 f6 g11 f12 g10 g8 f10 i10 e11 d12 i7"),
        (Rule::Standard, "h8 h7 j6 e7 i7 g9 i5 f8 d6 f7 i6 i8 k5 l4 k6 i11 h10 g7 d7 l6 k7 l8 k8 k9 k4"),
        (Rule::Standard, "h8 g9 i10 h10 i9 i11 f8 j10 g8 i8 f7 j12 k13 j11 e8 d8 j9 h11 k11 f11 g11 h9 g10 h12 h13 g13 f14 k9"),
        (Rule::Renju, "h8 i9 j8 i8 i7 g9 h6 k9 h9 h7 g6 g5 j6 i6 j5 j7 k5 l4 i5 l5 j4 k3 h4 k7 f8 g7 g3 f2 k8 l7 j2 j3 l6 m7 n7 i3 l3 n6 l8 m5 o7 m4 k6 m6 m8 m3"),
        (Rule::Renju, "h8 h9 i10 i8 g10 f10 h11 f9 g12 j9 f13 e14 g11 g9 i9 h7 g13 g14 k10 g6 f5 j10 j11 i11 f12 h10 f8 g8 e10 j12 k13 g7 g5 d9 e9 f7 e7 e8 c10 h5"),
    ];

    #[test]
    fn proofs_agree_between_a_move_and_the_positions_around_it() {
        let mut proofs = 0;
        for (rule, moves) in SELF_PLAY {
            for depth in [2, 4, 6] {
                let r = review(rule, moves, depth);
                assert!(r.complete);
                for m in &r.moves {
                    // no move is proven better than the position it was played in
                    if is_decisive(m.played_score) {
                        proofs += 1;
                        assert!(
                            m.played_score <= m.best_score,
                            "{rule:?} depth {depth} ply {}: {m:?}",
                            m.ply
                        );
                    }
                    assert_eq!(m.best_pv.first(), Some(&m.best));
                }
                for w in r.moves.windows(2) {
                    let (m, next) = (&w[0], &w[1]);
                    // a move that wins in n plies leaves a position lost in at most n - 1
                    if next.ply == m.ply + 1 && m.played == m.best && m.best_score >= WIN_MIN {
                        assert!(
                            next.best_score <= -(m.best_score + 1),
                            "{rule:?} depth {depth} ply {}: {m:?} then {next:?}",
                            m.ply
                        );
                        assert!(next.played_score <= next.best_score);
                    }
                }
            }
        }
        assert!(proofs > 20, "the games hold proofs to check: {proofs}");
    }

    fn found(best: &str, score: Score, pv: &str) -> SearchResult {
        let pts = crate::notation::parse_moves(pv, 15).unwrap();
        SearchResult {
            best_move: crate::notation::parse_pos(best, 15).unwrap(),
            score,
            pv: pts,
            depth: 6,
            seldepth: 6,
            root_moves: Vec::new(),
            stats: crate::search::SearchStats::default(),
            branching: Vec::new(),
            elapsed_ms: 0,
        }
    }

    #[test]
    fn a_move_proven_better_than_the_search_saw_is_the_best() {
        let pt = |t: &str| crate::notation::parse_pos(t, 15).unwrap();
        let pts = |t: &str| crate::notation::parse_moves(t, 15).unwrap();
        // Black plays j10 at ply 10 where the search found `search`; the position after j10
        // has the value `after` (for White) with its line
        let judge = |search: SearchResult, after: (Score, &str)| {
            let after = (after.0, pts(after.1));
            review_move(10, pt("j10"), Color::Black, &search, after, &params())
        };
        // the search of the position gave 120 with h9; the move played, j10, was proven to
        // win in 5 plies (the position after it loses in 4 for White)
        let m = judge(found("h9", 120, "h9 h10"), (loss_in(4), "k11 l12"));
        assert_eq!(
            (m.best, m.best_score, m.played_score),
            (pt("j10"), win_in(5), win_in(5))
        );
        assert_eq!(m.best_pv, pts("j10 k11 l12"));
        assert!(m.played_pv.is_empty());
        assert_eq!((m.verdict, m.loss), (Verdict::Best, 0.0));
        // a value that is no proof leaves the search's choice alone
        let m = judge(found("h9", 120, "h9"), (-300, "k11"));
        assert_eq!((m.best, m.best_score, m.played_score), (pt("h9"), 120, 300));
        assert_eq!(m.verdict, Verdict::Good);
        // nor does a proven loss that the search already saw as worse
        let m = judge(found("h9", loss_in(9), "h9"), (win_in(4), "k11"));
        assert_eq!(
            (m.best, m.best_score, m.played_score),
            (pt("h9"), loss_in(9), loss_in(5))
        );
        // a loss the search saw as shorter than the move's: the move defends longer
        let m = judge(found("h9", loss_in(3), "h9"), (win_in(6), "k11"));
        assert_eq!(
            (m.best, m.best_score, m.played_score),
            (pt("j10"), loss_in(7), loss_in(7))
        );
        assert_eq!(m.verdict, Verdict::Best);
    }

    #[test]
    fn the_engines_move_takes_a_proof_found_after_it() {
        let pt = |t: &str| crate::notation::parse_pos(t, 15).unwrap();
        let pts = |t: &str| crate::notation::parse_moves(t, 15).unwrap();
        // (the search before: its value; the position after h9, for White) -> (value, best value)
        let cases = [
            (120, -80, 120, 120),
            (120, loss_in(4), win_in(5), win_in(5)),
            (win_in(9), loss_in(4), win_in(5), win_in(5)),
            (win_in(5), loss_in(8), win_in(5), win_in(5)),
            // the engine's move proven to lose: the position itself is not proven lost
            (120, win_in(4), loss_in(5), 120),
            (loss_in(3), win_in(6), loss_in(7), loss_in(7)),
        ];
        for (before, after, value, best_value) in cases {
            let m = review_move(
                10,
                pt("h9"),
                Color::Black,
                &found("h9", before, "h9 h10"),
                (after, pts("k11 l12")),
                &params(),
            );
            assert_eq!(
                (m.played_score, m.best_score),
                (value, best_value),
                "{before} then {after}"
            );
            assert_eq!((m.best, m.verdict, m.loss), (pt("h9"), Verdict::Best, 0.0));
            assert!(m.played_pv.is_empty());
        }
    }

    #[test]
    fn a_proof_follows_the_game_as_far_as_the_game_follows_its_line() {
        let pt = |t: &str| crate::notation::parse_pos(t, 15).unwrap();
        let p = params();
        // Black's win in 9 plies by j10 k11 l12 m13 n14; the game went j10 k11 l12 m13 a1 (Black
        // left the line at ply 14). The later searches each saw only small edges.
        let won = review_move(
            10,
            pt("j10"),
            Color::Black,
            &found("j10", win_in(9), "j10 k11 l12 m13 n14"),
            (loss_in(8), Vec::new()),
            &p,
        );
        let mut later: Vec<MoveReview> = [
            ("k11", Color::White, "k11", 30),
            ("l12", Color::Black, "b2", 50),
            ("m13", Color::White, "m13", 20),
            ("a1", Color::Black, "n14", 60),
        ]
        .iter()
        .enumerate()
        .map(|(i, &(played, color, best, score))| {
            review_move(
                11 + i,
                pt(played),
                color,
                &found(best, score, best),
                (-score, Vec::new()),
                &p,
            )
        })
        .collect();
        carry_forward(&won, later.iter_mut(), &p);
        let values: Vec<(Score, Score, Pos)> = later
            .iter()
            .map(|m| (m.best_score, m.played_score, m.best))
            .collect();
        assert_eq!(
            values,
            [
                (loss_in(8), loss_in(8), pt("k11")),
                (win_in(7), win_in(7), pt("l12")),
                (loss_in(6), loss_in(6), pt("m13")),
                // off the line: a1 is its search's to judge
                (60, 60, pt("n14")),
            ]
        );
        assert_eq!(later[1].best_pv, vec![pt("l12"), pt("m13"), pt("n14")]);
        assert_eq!(later[1].verdict, Verdict::Best);
        assert!(later[1].played_pv.is_empty());
        // a proven loss: every move loses, and the winner's reply on the line is a win
        let lost = review_move(
            10,
            pt("j10"),
            Color::Black,
            &found("j10", loss_in(4), "j10 k11"),
            (win_in(3), Vec::new()),
            &p,
        );
        let mut later = [review_move(
            11,
            pt("k11"),
            Color::White,
            &found("c3", 90, "c3"),
            (-90, Vec::new()),
            &p,
        )];
        carry_forward(&lost, later.iter_mut(), &p);
        assert_eq!(
            (later[0].best_score, later[0].played_score, later[0].best),
            (win_in(3), win_in(3), pt("k11"))
        );
        // a later proof of the opposite stops the walk
        let mut later = [review_move(
            11,
            pt("k11"),
            Color::White,
            &found("k11", win_in(5), "k11"),
            (loss_in(4), Vec::new()),
            &p,
        )];
        let before = later.clone();
        carry_forward(&won, later.iter_mut(), &p);
        assert_eq!(later, before);
    }

    #[test]
    fn a_winning_move_leaves_the_opponent_lost_whatever_its_search_saw() {
        let pt = |t: &str| crate::notation::parse_pos(t, 15).unwrap();
        let won = review_move(
            10,
            pt("j10"),
            Color::Black,
            &found("j10", win_in(7), "j10 k11"),
            (loss_in(6), Vec::new()),
            &params(),
        );
        // the opponent's search saw a small edge; it played k11 (its own choice)
        let mut next = review_move(
            11,
            pt("k11"),
            Color::White,
            &found("k11", 40, "k11 l12"),
            (-40, Vec::new()),
            &params(),
        );
        assert_eq!(next.verdict, Verdict::Best);
        carry_forward(&won, [&mut next], &params());
        assert_eq!(
            (next.best_score, next.played_score),
            (loss_in(6), loss_in(6))
        );
        assert_eq!((next.verdict, next.loss), (Verdict::Best, 0.0));
        // had it played another move that its search thought a blunder into a loss, the move
        // is no blunder: the position was lost already
        let mut next = review_move(
            11,
            pt("a1"),
            Color::White,
            &found("k11", 40, "k11"),
            (win_in(2), Vec::new()),
            &params(),
        );
        assert_eq!(next.verdict, Verdict::Blunder);
        carry_forward(&won, [&mut next], &params());
        assert_eq!(
            (next.best_score, next.played_score),
            (loss_in(6), loss_in(3))
        );
        assert_ne!(next.verdict, Verdict::Blunder);
        // not after a move that was not the proof's, nor for a move that does not follow
        for (m, ply) in [
            (
                review_move(
                    10,
                    pt("h9"),
                    Color::Black,
                    &found("j10", win_in(7), "j10"),
                    (-50, Vec::new()),
                    &params(),
                ),
                11,
            ),
            (won.clone(), 12),
        ] {
            let mut next = review_move(
                ply,
                pt("k11"),
                Color::White,
                &found("k11", 40, "k11"),
                (-40, Vec::new()),
                &params(),
            );
            let before = next.clone();
            carry_forward(&m, [&mut next], &params());
            assert_eq!(next, before);
        }
    }
}
