//! The swap2 opening: who puts down which stones, and who chooses which colour. The web board,
//! the terminal game and the matches between engines all follow it.
//!
//! The first player (tentatively Black) puts down three stones: black, white, black. The second
//! player then takes Black, takes White and plays the 4th stone, or puts down a 4th (white) and
//! a 5th (black) stone and lets the first player choose a colour. A player is whatever `P`
//! names it (a person or the engine, or a player of a match); an engine answers as over the
//! Gomocup protocol ([`Answer`], decided by [`crate::pbrain::swap2::decide`]).

use crate::pbrain::swap2::Answer;
use gomoku_engine::{Board, Color, Pos};
use serde::{Deserialize, Serialize};

/// Where the opening stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// The first player puts down stones 1 to 3.
    Three,
    /// The second player chooses: Black, White (and the 4th stone), or two more stones.
    Choice3,
    /// The second player puts down stones 4 (white) and 5 (black).
    Five,
    /// The first player chooses Black or White.
    Choice5,
}

/// A person's choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Choice {
    /// Take Black (White is to move, so the other side moves next).
    Black,
    /// Take White and move.
    White,
    /// Put down the 4th and 5th stones and let the first player choose (after 3 stones only).
    More,
}

/// What a choice or an answer leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next<P> {
    /// The opening goes on at this stage.
    Stage(Stage),
    /// The opening is over and this player has Black.
    Done {
        /// Who plays Black from now on.
        black: P,
    },
}

/// A swap2 opening in progress between two players named by `P`.
#[derive(Clone, Debug)]
pub struct Opening<P> {
    /// Where it stands.
    pub stage: Stage,
    /// Who put down (or puts down) the first three stones.
    pub first: P,
    /// The other player.
    pub second: P,
}

impl<P: Copy + PartialEq> Opening<P> {
    /// The start of an opening whose first three stones `first` puts down.
    #[must_use]
    pub fn new(first: P, second: P) -> Opening<P> {
        Opening {
            stage: Stage::Three,
            first,
            second,
        }
    }

    /// The player that is not `p`.
    fn other(&self, p: P) -> P {
        if p == self.first {
            self.second
        } else {
            self.first
        }
    }

    /// Who acts now.
    #[must_use]
    pub fn actor(&self) -> P {
        match self.stage {
            Stage::Three | Stage::Choice5 => self.first,
            Stage::Choice3 | Stage::Five => self.second,
        }
    }

    /// Whether the actor puts down stones now (rather than choosing).
    #[must_use]
    pub fn placing(&self) -> bool {
        matches!(self.stage, Stage::Three | Stage::Five)
    }

    /// How many stones were on the board when this stage began.
    #[must_use]
    pub fn stage_start(&self) -> usize {
        match self.stage {
            Stage::Three => 0,
            Stage::Choice3 | Stage::Five => 3,
            Stage::Choice5 => 5,
        }
    }

    /// Moves on once `stones` stones are down: to the second player's choice after three, to
    /// the first player's after five.
    pub fn after_stone(&mut self, stones: usize) {
        match (self.stage, stones) {
            (Stage::Three, 3) => self.stage = Stage::Choice3,
            (Stage::Five, 5) => self.stage = Stage::Choice5,
            _ => {}
        }
    }

    /// The choices the actor has now (none while stones are being put down).
    #[must_use]
    pub fn choices(&self) -> &'static [&'static str] {
        match self.stage {
            Stage::Choice3 => &["black", "white", "more"],
            Stage::Choice5 => &["black", "white"],
            Stage::Three | Stage::Five => &[],
        }
    }

    /// Where the actor's choice `c` leads.
    ///
    /// # Errors
    /// When there is no choice to make, or `c` is not one of [`Opening::choices`].
    pub fn choose(&self, c: Choice) -> Result<Next<P>, &'static str> {
        let chooser = self.actor();
        match (self.stage, c) {
            (Stage::Choice3 | Stage::Choice5, Choice::Black) => Ok(Next::Done { black: chooser }),
            (Stage::Choice3 | Stage::Choice5, Choice::White) => Ok(Next::Done {
                black: self.other(chooser),
            }),
            (Stage::Choice3, Choice::More) => Ok(Next::Stage(Stage::Five)),
            (Stage::Choice5, Choice::More) => Err("after five stones the choice is black or white"),
            (Stage::Three | Stage::Five, _) => Err("there is no choice to make now"),
        }
    }

    /// The stones to put down and where the engine's `answer` leads, when the engine acts now;
    /// `None` when the answer does not fit the stage.
    #[must_use]
    pub fn answer(&self, answer: &Answer) -> Option<(Vec<Pos>, Next<P>)> {
        match (self.stage, answer) {
            (Stage::Three, Answer::Stones(s)) if s.len() == 3 => {
                Some((s.clone(), Next::Stage(Stage::Choice3)))
            }
            (Stage::Choice3 | Stage::Choice5, Answer::Swap) => {
                Some((Vec::new(), self.choose(Choice::Black).ok()?))
            }
            (Stage::Choice3 | Stage::Choice5, Answer::Stones(s)) if s.len() == 1 => {
                Some((s.clone(), self.choose(Choice::White).ok()?))
            }
            (Stage::Choice3, Answer::Stones(s)) if s.len() == 2 => {
                Some((s.clone(), Next::Stage(Stage::Choice5)))
            }
            _ => None,
        }
    }

    /// Like [`Opening::answer`], and `None` too when a stone cannot go down on `board` (off
    /// the board, taken, or forbidden for Black under renju).
    #[must_use]
    pub fn playable(&self, board: &Board, answer: &Answer) -> Option<(Vec<Pos>, Next<P>)> {
        let (stones, next) = self.answer(answer)?;
        let mut b = board.clone();
        for &p in &stones {
            let ok = p.is_point()
                && b.is_empty(p)
                && !(b.to_move() == Color::Black && b.forbidden_kind(p).is_some());
            if !ok {
                return None;
            }
            b.play(p);
        }
        Some((stones, next))
    }

    /// The engine's stones and where they lead: `answer` if it fits, else the fallback answer
    /// ([`crate::pbrain::swap2::fallback`]); `None` when neither does.
    #[must_use]
    pub fn engine_answer(&self, board: &Board, answer: &Answer) -> Option<(Vec<Pos>, Next<P>)> {
        self.playable(board, answer)
            .or_else(|| self.playable(board, &crate::pbrain::swap2::fallback(board)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two players of the tests.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Player {
        Person,
        Engine,
    }

    fn other(p: Player) -> Player {
        match p {
            Player::Person => Player::Engine,
            Player::Engine => Player::Person,
        }
    }

    fn at(stage: Stage, first: Player) -> Opening<Player> {
        Opening {
            stage,
            ..Opening::new(first, other(first))
        }
    }

    #[test]
    fn the_stages_go_three_choice_five_choice() {
        let mut o = Opening::new(Player::Person, Player::Engine);
        assert_eq!((o.actor(), o.placing()), (Player::Person, true));
        o.after_stone(2);
        assert_eq!(o.stage, Stage::Three);
        o.after_stone(3);
        assert_eq!((o.stage, o.actor()), (Stage::Choice3, Player::Engine));
        assert_eq!(o.choose(Choice::More), Ok(Next::Stage(Stage::Five)));
        o.stage = Stage::Five;
        assert_eq!(
            (o.actor(), o.placing(), o.stage_start()),
            (Player::Engine, true, 3)
        );
        o.after_stone(4);
        assert_eq!(o.stage, Stage::Five);
        o.after_stone(5);
        assert_eq!((o.stage, o.actor()), (Stage::Choice5, Player::Person));
        assert_eq!(o.choices(), ["black", "white"]);
    }

    #[test]
    fn each_choice_gives_black_to_the_right_player() {
        let cases = [
            // after three stones the second player chooses
            (Stage::Choice3, Choice::Black, Player::Engine),
            (Stage::Choice3, Choice::White, Player::Person),
            // after five the first player does
            (Stage::Choice5, Choice::Black, Player::Person),
            (Stage::Choice5, Choice::White, Player::Engine),
        ];
        for (stage, choice, black) in cases {
            let o = at(stage, Player::Person);
            assert_eq!(
                o.choose(choice),
                Ok(Next::Done { black }),
                "{stage:?} {choice:?}"
            );
        }
        assert!(at(Stage::Choice5, Player::Person)
            .choose(Choice::More)
            .is_err());
        assert!(at(Stage::Three, Player::Person)
            .choose(Choice::Black)
            .is_err());
        assert!(at(Stage::Five, Player::Engine)
            .choose(Choice::White)
            .is_err());
    }

    #[test]
    fn engine_answers_fit_their_stage_or_are_refused() {
        let p = |x| Pos::new(x, 7);
        let three = Answer::Stones(vec![p(1), p(2), p(3)]);
        let one = Answer::Stones(vec![p(4)]);
        let two = Answer::Stones(vec![p(4), p(5)]);
        // the engine proposes
        let o = at(Stage::Three, Player::Engine);
        assert_eq!(
            o.answer(&three),
            Some((vec![p(1), p(2), p(3)], Next::Stage(Stage::Choice3)))
        );
        assert_eq!(o.answer(&Answer::Swap), None);
        assert_eq!(o.answer(&one), None);
        // the engine answers three stones (it is the second player)
        let o = at(Stage::Choice3, Player::Person);
        let engine_black = Next::Done {
            black: Player::Engine,
        };
        let person_black = Next::Done {
            black: Player::Person,
        };
        assert_eq!(o.answer(&Answer::Swap), Some((vec![], engine_black)));
        assert_eq!(o.answer(&one), Some((vec![p(4)], person_black)));
        assert_eq!(
            o.answer(&two),
            Some((vec![p(4), p(5)], Next::Stage(Stage::Choice5)))
        );
        assert_eq!(o.answer(&three), None);
        // the engine chooses after five stones (it was the first player)
        let o = at(Stage::Choice5, Player::Engine);
        assert_eq!(o.answer(&Answer::Swap), Some((vec![], engine_black)));
        assert_eq!(o.answer(&one), Some((vec![p(4)], person_black)));
        assert_eq!(o.answer(&two), None);
    }
}
