//! The openings of a terminal game: swap2, and the renju tournament rules (Soosõrv-8,
//! Taraguchi-10), with the person's prompts and the engine's decisions by search.

use super::{draw, Args, Table};
use crate::args::OpeningKind;
use crate::opening::{Choice, Next, Opening, Stage};
use crate::pbrain::swap2;
use crate::renju_opening::RenjuTable;
use crate::web::games::Player;
use anyhow::{bail, Result};
use gomoku_engine::notation::format_pos;
use gomoku_engine::renju::{self, Seat};
use gomoku_engine::{Color, Limits};
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

impl Table<'_> {
    /// What the person is asked for in the opening.
    pub(super) fn opening_prompt(&self, o: &Opening<Player>) -> String {
        match o.stage {
            Stage::Three | Stage::Five => format!(
                "swap2: stone {} ({})> ",
                self.game.board().stone_count() + 1,
                self.game.board().to_move()
            ),
            Stage::Choice3 => "swap2: black, white or more> ".to_string(),
            Stage::Choice5 => "swap2: black or white> ".to_string(),
        }
    }

    /// Tells the person what the opening's new stage asks of them.
    pub(super) fn explain(&self, o: &Opening<Player>, out: &mut impl Write) -> Result<()> {
        if o.actor() != Player::Person {
            return Ok(());
        }
        let text = match o.stage {
            Stage::Three => {
                "swap2: put down three stones (black, white, black); then the engine \
                             chooses its colour or adds two stones"
            }
            Stage::Five => {
                "swap2: put down two more stones (white, black); then the engine chooses"
            }
            Stage::Choice3 => {
                "swap2: choose black (the engine plays White's next move), white \
                               (you play the 4th stone) or more (you put down two more stones \
                               and the engine chooses)"
            }
            Stage::Choice5 => {
                "swap2: choose black (the engine plays White's next move) or white \
                               (you play the 6th stone)"
            }
        };
        writeln!(out, "{text}")?;
        Ok(())
    }

    /// Where a choice or the engine's answer leads: the next stage, or the colours settled.
    pub(super) fn advance(
        &mut self,
        actor: Player,
        next: Next<Player>,
        out: &mut impl Write,
    ) -> Result<()> {
        let who = if actor == Player::Engine {
            "the engine"
        } else {
            "you"
        };
        match next {
            Next::Stage(stage) => {
                let Some(o) = &mut self.opening else {
                    return Ok(());
                };
                o.stage = stage;
                let o = o.clone();
                match stage {
                    Stage::Five => writeln!(out, "swap2: {who} will put down two more stones")?,
                    Stage::Choice5 if actor == Player::Engine => {
                        writeln!(out, "swap2: the engine put down two more stones")?;
                    }
                    _ => {}
                }
                self.explain(&o, out)?;
            }
            Next::Done { black } => {
                self.human = if black == Player::Person {
                    Color::Black
                } else {
                    Color::White
                };
                let took = if black == actor { "black" } else { "white" };
                writeln!(out, "swap2: {who} took {took}: you play {}", self.human)?;
                self.opening = None;
                self.start_len = self.game.board().moves().len();
                if let Some(t) = &mut self.timer {
                    t.turn = Instant::now();
                }
                self.show_clock(out)?;
            }
        }
        Ok(())
    }

    /// The engine's turn in the opening: three stones, a colour, or two more stones.
    pub(super) fn engine_opening(
        &mut self,
        o: &Opening<Player>,
        out: &mut impl Write,
    ) -> Result<()> {
        let board = self.game.board().clone();
        let stop = AtomicBool::new(false);
        let mut note = |_: String| {};
        let mut cx = swap2::Context {
            searcher: self.engine.searcher.as_mut(),
            limits: decision_limits(self.args),
            time_ms: decision_time_ms(self.args),
            stop: &stop,
            seed: self.seed,
            note: &mut note,
        };
        let answer = swap2::decide(&mut cx, &board);
        let Some((stones, next)) = o.engine_answer(&board, &answer) else {
            bail!("the engine found no answer in the swap2 opening");
        };
        let size = self.size();
        if !stones.is_empty() {
            let names: Vec<String> = stones.iter().map(|&p| format_pos(p, size)).collect();
            writeln!(out, "engine puts down {}", names.join(" "))?;
            for p in stones {
                self.game.play(p)?;
            }
            draw(&mut self.game, out)?;
        }
        self.advance(Player::Engine, next, out)
    }

    /// Tells the person what the renju opening asks of them now, if anything.
    pub(super) fn explain_renju(&self, out: &mut impl Write) -> Result<()> {
        if let Some(r) = &self.renju {
            if let (Player::Person, Some(step)) = (r.actor(), r.opening.step()) {
                writeln!(out, "{}: {}", r.opening.rule(), r.asks(step))?;
            }
        }
        Ok(())
    }

    /// Takes an action of the renju opening (the person's or the engine's) and says what
    /// follows: the log line, the board after a stone, the end of the opening.
    pub(super) fn renju_act(
        &mut self,
        action: renju::Action,
        show_board: bool,
        out: &mut impl Write,
    ) -> Result<()> {
        let Some(r) = &mut self.renju else {
            return Ok(());
        };
        let logged = r.log.len();
        if let Err(e) = r.apply(&mut self.game, action, &you_or_engine) {
            writeln!(out, "{e}")?;
            return Ok(());
        }
        for line in &r.log[logged..] {
            writeln!(out, "{line}")?;
        }
        if show_board && matches!(action, renju::Action::Stone(_) | renju::Action::Choose(_)) {
            draw(&mut self.game, out)?;
        }
        if r.opening.is_over() {
            self.human = if r.holder(Color::Black) == Player::Person {
                Color::Black
            } else {
                Color::White
            };
            self.renju_done = Some(r.opening.clone());
            self.renju = None;
            self.start_len = self.game.board().moves().len();
            if let Some(t) = &mut self.timer {
                t.turn = Instant::now();
            }
            writeln!(out, "you play {}", self.human)?;
            self.show_clock(out)?;
        } else if show_board {
            self.explain_renju(out)?;
        }
        Ok(())
    }

    /// The engine's turn in the renju opening: its decisions by search, then its actions.
    pub(super) fn engine_renju(&mut self, out: &mut impl Write) -> Result<()> {
        let Some(r) = &self.renju else {
            return Ok(());
        };
        let stop = AtomicBool::new(false);
        let mut note = |_: String| {};
        let mut cx = renju::Context {
            searcher: self.engine.searcher.as_mut(),
            limits: decision_limits(self.args),
            time_ms: decision_time_ms(self.args),
            stop: &stop,
            seed: self.seed,
            note: &mut note,
        };
        let actions = renju::decide(&mut cx, &r.opening, self.game.board());
        let actions = if actions.is_empty() {
            vec![renju::fallback(&r.opening, self.game.board())]
        } else {
            actions
        };
        let stones = self.game.board().ply();
        for a in actions {
            if self
                .renju
                .as_ref()
                .is_none_or(|r| r.actor() != Player::Engine)
            {
                break;
            }
            self.renju_act(a, false, out)?;
        }
        if self
            .renju
            .as_ref()
            .is_some_and(|r| r.actor() == Player::Engine)
        {
            // a decision that did not fit: the rule's plain choice, so that the game goes on
            let a = self
                .renju
                .as_ref()
                .map(|r| renju::fallback(&r.opening, self.game.board()));
            if let Some(a) = a {
                self.renju_act(a, false, out)?;
            }
        }
        if self.game.board().ply() > stones {
            draw(&mut self.game, out)?;
        }
        self.explain_renju(out)?;
        Ok(())
    }

    /// A choice word in the opening.
    pub(super) fn choose(
        &mut self,
        o: &Opening<Player>,
        c: Choice,
        out: &mut impl Write,
    ) -> Result<()> {
        match o.choose(c) {
            Ok(next) => self.advance(Player::Person, next, out),
            Err(e) => {
                writeln!(out, "{e}")?;
                Ok(())
            }
        }
    }
}

/// Whether the game opens with swap2 (`--swap2` or `--opening swap2`).
pub(super) fn swap2_asked(args: &Args) -> bool {
    args.swap2 || args.opening == Some(OpeningKind::Swap2)
}

/// A renju opening under `rule` for a person who asked for `color`: the first player's with
/// Black, the engine's with White.
pub(super) fn new_renju(rule: renju::OpeningRule, size: usize, color: Color) -> RenjuTable<Player> {
    let first = first_player(color);
    RenjuTable::new(rule, size, first, first.other())
}

/// The prompt of a renju opening: what the person is asked for, shortly.
pub(super) fn renju_prompt(r: &RenjuTable<Player>) -> String {
    let rule = r.opening.rule().name();
    match r.opening.step() {
        Some(renju::Step::Stone { number, .. }) => format!("{rule}: stone {number}> "),
        Some(renju::Step::Swap) => format!("{rule}: swap or keep> "),
        Some(renju::Step::Declare { max }) => format!("{rule}: offers (1 to {max})> "),
        Some(renju::Step::Fifth { .. }) => format!("{rule}: 5th stone or ten> "),
        Some(renju::Step::Offer { made, count }) => {
            format!("{rule}: offer {} of {count}> ", made + 1)
        }
        Some(renju::Step::Choose) => format!("{rule}: choose one of {}> ", r.offers_text()),
        None => "> ".to_string(),
    }
}

/// How the log of a terminal game names a player.
pub(super) fn you_or_engine(p: Player, _: Seat) -> String {
    match p {
        Player::Person => "you".to_string(),
        Player::Engine => "the engine".to_string(),
    }
}

/// Who puts down the first three stones of a swap2 opening: you when you asked for Black.
pub(super) fn first_player(color: Color) -> Player {
    if color == Color::Black {
        Player::Person
    } else {
        Player::Engine
    }
}

/// A swap2 opening for a person who asked for `color`: the first three stones are theirs with
/// Black, the engine's with White.
pub(super) fn new_opening(color: Color) -> Opening<Player> {
    let first = first_player(color);
    Opening::new(first, first.other())
}

/// The limits of the engine's decisions in an opening: the game's depth limit, if any.
fn decision_limits(args: &Args) -> Limits {
    Limits {
        depth: args.depth,
        ..Limits::default()
    }
}

/// The time of an opening decision: three moves' worth, as a choice weighs more than a move.
fn decision_time_ms(args: &Args) -> Option<u64> {
    Some(args.time_ms.saturating_mul(3))
}
