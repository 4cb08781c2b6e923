//! The game clock of a slot: the time of the turn under way, charging it to the side to move,
//! and the end of the game when a side's time runs out (watched by a thread of its own).

use super::{lock, Slot};
use crate::web::error::ApiError;
use gomoku_engine::Color;
use std::sync::{Mutex, Weak};
use std::time::{Duration, Instant};

/// How often a game's clock is looked at for a side whose time ran out.
const CLOCK_TICK: Duration = Duration::from_millis(50);

/// Ends the game of `slot` when the running side's time is over, until the game is removed.
/// A thread of its own, which mostly sleeps.
pub(super) fn watch_clock(slot: Weak<Mutex<Slot>>) {
    let spawned = std::thread::Builder::new()
        .name("gomoku-clock".to_string())
        .spawn(move || loop {
            std::thread::sleep(CLOCK_TICK);
            let Some(slot) = slot.upgrade() else {
                return;
            };
            lock(&slot).check_flag();
        });
    if let Err(e) = spawned {
        // moves still end the game on time; only a side that never moves is not flagged
        eprintln!("gomoku serve: cannot start a game clock's thread: {e}");
    }
}

impl Slot {
    /// Milliseconds of the turn under way.
    pub(super) fn turn_ms(&self) -> u64 {
        self.turn_started.elapsed().as_millis() as u64
    }

    /// The side whose clock runs: the side to move, in a game with a clock that goes on
    /// (not in a swap2 opening).
    pub(super) fn clock_running(&self) -> Option<Color> {
        (self.clock.is_some() && !self.is_over() && self.opening.is_none() && !self.renju_active())
            .then(|| self.game.board().to_move())
    }

    /// Ends the game if the running side's time is over (the search under way stops). True
    /// when it did.
    pub(super) fn check_flag(&mut self) -> bool {
        let Some(color) = self.clock_running() else {
            return false;
        };
        let used = self.turn_ms();
        let Some(clock) = &mut self.clock else {
            return false;
        };
        if !clock.is_out(color, used) {
            return false;
        }
        clock.run_out(color);
        self.timed_out = Some(color);
        self.cancel_job();
        self.hint = None;
        self.changed();
        true
    }

    /// Charges the turn under way to the running side without ending it by a move (an undo, a
    /// redo or a swap of sides starts a new turn), so that no time goes uncounted.
    pub(super) fn settle_clock(&mut self) {
        if self.check_flag() {
            return;
        }
        if let Some(color) = self.clock_running() {
            let used = self.turn_ms();
            if let Some(clock) = &mut self.clock {
                clock.charge(color, used, false);
            }
        }
        self.turn_started = Instant::now();
    }

    /// Charges a move of `color` that took `used` ms (`running`: whether its clock ran).
    pub(super) fn charge_move(&mut self, running: Option<Color>, used: u64) {
        if let (Some(color), Some(clock)) = (running, &mut self.clock) {
            if !clock.charge(color, used, true) {
                // the move came as the time ran out: it stands, with no time left
                clock.run_out(color);
            }
        }
    }

    /// Refuses a move of a side whose time is over (and ends the game for it).
    pub(super) fn refuse_if_flagged(&mut self) -> Result<(), ApiError> {
        if self.check_flag() {
            Err(ApiError::conflict(
                "game_over",
                "the game is over: the time ran out",
            ))
        } else {
            Ok(())
        }
    }
}
