//! The person's actions on a game: a move, undo and redo, a hint, an engine move, stop,
//! resign, swapping sides and the engine's settings. Each leaves the game unchanged when it
//! returns an error.

use super::{check_time, parse_color, read_point, Level, MoveRecord, Player, Purpose, Slot};
use crate::opening::Next;
use crate::web::error::ApiError;
use gomoku_engine::notation::format_pos;
use gomoku_engine::Color;
use serde::Deserialize;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The body of `POST /api/games/{id}/move`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The point: `h8` style or Gomocup `x,y`.
    #[serde(rename = "move")]
    pub point: String,
    /// The colour the sender believes is to move; a mismatch is refused as out of turn.
    #[serde(default)]
    pub color: Option<String>,
}

/// The body of `POST /api/games/{id}/resign` (optional).
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ResignRequest {
    /// Who resigns; by default the person (or the side to move when both or neither are).
    pub color: Option<String>,
}

/// The body of `POST /api/games/{id}/settings`.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// New engine level.
    pub level: Option<Level>,
    /// New time per move in ms.
    pub time_ms: Option<u64>,
}

impl Slot {
    /// A person's move.
    ///
    /// # Errors
    /// Malformed or off-board points (400); out of turn, occupied, forbidden, game over or the
    /// engine thinking (409).
    pub fn play(&mut self, req: &MoveRequest) -> Result<(), ApiError> {
        self.touch();
        self.refuse_if_flagged()?;
        self.refuse_if_over()?;
        self.refuse_if_thinking()?;
        let to_move = self.game.board().to_move();
        if let Some(c) = &req.color {
            let c = parse_color(c)?;
            if c != to_move {
                return Err(ApiError::conflict(
                    "not_your_turn",
                    format!("it is {to_move}'s turn, not {c}'s"),
                ));
            }
        }
        if self.renju_active() {
            return self.renju_point(&req.point);
        }
        match &self.opening {
            Some(o) if o.actor() == Player::Engine => {
                return Err(ApiError::conflict(
                    "not_your_turn",
                    "the engine is deciding in the swap2 opening",
                ));
            }
            Some(o) if !o.placing() => {
                return Err(ApiError::conflict(
                    "not_your_turn",
                    "choose first: the swap2 opening waits for your choice",
                ));
            }
            Some(_) => {}
            None if self.player(to_move) == Player::Engine => {
                return Err(ApiError::conflict(
                    "not_your_turn",
                    format!("{to_move} is played by the engine"),
                ));
            }
            None => {}
        }
        let size = self.size();
        let p = read_point(&req.point, size)
            .map_err(|e| ApiError::bad_request("bad_move", e.to_string()))?;
        let name = format_pos(p, size);
        if !self.game.board().is_empty(p) {
            return Err(ApiError::conflict(
                "occupied",
                format!("{name} is already occupied"),
            ));
        }
        if to_move == Color::Black {
            if let Some(kind) = self.game.board_mut().forbidden_kind(p) {
                return Err(ApiError::conflict(
                    "forbidden",
                    format!("{name} is forbidden for Black ({kind})"),
                ));
            }
        }
        let running = self.clock_running();
        let used = self.turn_ms();
        self.game
            .play(p)
            .map_err(|e| ApiError::conflict("illegal", e.to_string()))?;
        self.charge_move(running, used);
        // a hint being computed is for the position just left
        self.cancel_job();
        self.tree.push(MoveRecord {
            pos: p,
            ms: used,
            engine: None,
        });
        self.hold = false;
        self.hint = None;
        self.analysis = None;
        self.error = None;
        self.turn_started = Instant::now();
        let ply = self.game.board().ply();
        if let Some(o) = &mut self.opening {
            let before = o.stage;
            o.after_stone(ply);
            let after = o.stage;
            if after != before {
                self.log_decision(Player::Person, Next::Stage(after));
            }
        }
        self.maybe_start_engine();
        self.changed();
        Ok(())
    }

    /// Takes back a move (and the engine's reply before it, so that the person is to move).
    /// A resignation is taken back first. A running search is cancelled.
    ///
    /// # Errors
    /// 409 when there is nothing to undo.
    pub fn undo(&mut self) -> Result<(), ApiError> {
        self.touch();
        let ply = self.game.board().ply();
        if self.renju_active() {
            return self.renju_undo();
        }
        if let Some(o) = &self.opening {
            // only the stones the person is putting down in this stage
            if o.actor() == Player::Person && o.placing() && ply > o.stage_start() {
                // the opening keeps no lines: the stone taken back is gone
                if let Some(gone) = self.undo_one() {
                    self.tree.remove(gone);
                }
                self.error = None;
                self.changed();
                return Ok(());
            }
            return Err(ApiError::conflict(
                "nothing_to_undo",
                "the swap2 opening's earlier stones cannot be taken back",
            ));
        }
        if self.timed_out.is_some() || self.check_flag() {
            return Err(ApiError::conflict(
                "lost_on_time",
                "the game was lost on time: it cannot be taken back",
            ));
        }
        if self.resigned.take().is_none() {
            if ply == 0 {
                return Err(ApiError::conflict("nothing_to_undo", "no move to undo"));
            }
            if ply <= self.opening_plies {
                let what = if self.game.start_ply() > 0 {
                    "the set-up position's stones cannot be taken back"
                } else if self.renju.is_some() {
                    "the renju opening cannot be taken back"
                } else {
                    "the swap2 opening cannot be taken back"
                };
                return Err(ApiError::conflict("nothing_to_undo", what));
            }
            self.cancel_job();
            // the time of the turn under way is the side to move's, before it changes
            self.settle_clock();
            self.undo_one();
            let to_move = self.game.board().to_move();
            if self.has_person()
                && self.player(to_move) == Player::Engine
                && self.game.board().ply() > self.opening_plies
            {
                self.undo_one();
            }
        }
        self.cancel_job();
        self.hold = false;
        self.resume_after_history_change();
        Ok(())
    }

    /// After an undo, a redo or a jump in the tree: the hint and error no longer apply, the
    /// side to move's clock starts again, and the engine replies if it is its turn in a game
    /// with a person (unless it holds: see [`Slot::goto`]).
    pub(super) fn resume_after_history_change(&mut self) {
        self.hint = None;
        self.analysis = None;
        self.error = None;
        self.turn_started = Instant::now();
        if self.has_person() {
            self.maybe_start_engine();
        }
        self.maybe_analyze();
        self.changed();
    }

    /// Replays undone moves (the person's and the engine's reply).
    ///
    /// # Errors
    /// 409 when there is nothing to redo or the game is over.
    pub fn redo(&mut self) -> Result<(), ApiError> {
        self.touch();
        self.refuse_if_flagged()?;
        self.refuse_if_over()?;
        self.refuse_in_opening("redo")?;
        if self.tree.next_of(self.tree.current()).is_none() {
            return Err(ApiError::conflict("nothing_to_redo", "no move to redo"));
        }
        self.cancel_job();
        self.settle_clock();
        self.redo_one();
        let to_move = self.game.board().to_move();
        if self.has_person()
            && self.player(to_move) == Player::Engine
            && self.tree.next_of(self.tree.current()).is_some()
        {
            self.redo_one();
        }
        self.hold = false;
        self.resume_after_history_change();
        Ok(())
    }

    /// Asks the engine for a move suggestion for the side to move.
    ///
    /// # Errors
    /// 409 when the game is over or the engine is already thinking.
    pub fn hint(&mut self) -> Result<(), ApiError> {
        self.touch();
        self.refuse_if_over()?;
        self.refuse_in_opening("a hint")?;
        if self.job.is_some() {
            return Err(ApiError::conflict(
                "engine_thinking",
                "the engine is already thinking",
            ));
        }
        self.hint = None;
        self.start_job(Purpose::Hint)?;
        self.changed();
        Ok(())
    }

    /// Makes the engine play the side to move now, whoever plays it.
    ///
    /// # Errors
    /// 409 when the game is over or the engine is already thinking.
    pub fn go(&mut self) -> Result<(), ApiError> {
        self.touch();
        self.refuse_if_over()?;
        self.refuse_in_opening("an engine move")?;
        self.refuse_if_thinking()?;
        self.cancel_job();
        self.hint = None;
        self.hold = false;
        self.start_job(Purpose::Move)?;
        self.changed();
        Ok(())
    }

    /// Tells the running search to finish now with the best move found so far.
    ///
    /// # Errors
    /// 409 when the engine is not thinking.
    pub fn stop(&mut self) -> Result<(), ApiError> {
        self.touch();
        match &self.job {
            Some(j) => {
                j.stop.store(true, Ordering::Relaxed);
                Ok(())
            }
            None => Err(ApiError::conflict(
                "not_thinking",
                "the engine is not thinking",
            )),
        }
    }

    /// Resigns for `req.color`, or for the person (the side to move if both or neither are).
    ///
    /// # Errors
    /// 400 for a bad colour, 409 when the game is over.
    pub fn resign(&mut self, req: &ResignRequest) -> Result<(), ApiError> {
        self.touch();
        self.refuse_if_flagged()?;
        self.refuse_if_over()?;
        self.refuse_in_opening("resigning")?;
        let color = match &req.color {
            Some(c) => parse_color(c)?,
            None => match self.players {
                [Player::Person, Player::Engine] => Color::Black,
                [Player::Engine, Player::Person] => Color::White,
                _ => self.game.board().to_move(),
            },
        };
        self.cancel_job();
        self.hint = None;
        self.analysis = None;
        self.settle_clock();
        self.resigned = Some(color);
        self.changed();
        Ok(())
    }

    /// Exchanges who plays Black and who plays White; the engine starts if it is now to move.
    ///
    /// # Errors
    /// 409 during a swap2 opening (whose choices settle the colours).
    pub fn swap(&mut self) -> Result<(), ApiError> {
        self.touch();
        self.refuse_in_opening("swapping sides")?;
        self.cancel_job();
        self.hint = None;
        self.error = None;
        self.settle_clock();
        self.players.swap(0, 1);
        self.hold = false;
        self.maybe_start_engine();
        self.changed();
        Ok(())
    }

    /// Changes the engine's level and time per move (used from the next search on).
    ///
    /// # Errors
    /// 400 for a time out of range.
    pub fn settings(&mut self, s: &Settings) -> Result<(), ApiError> {
        self.touch();
        if let Some(t) = s.time_ms {
            self.time_ms = check_time(t)?;
        }
        if let Some(l) = s.level {
            self.level = l;
        }
        self.changed();
        Ok(())
    }
}
