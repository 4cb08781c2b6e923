//! The review of a game: every move judged by the engine (best, good, inaccuracy, mistake,
//! blunder), its progress while it runs, and its verdicts for the moves still in the game.

use super::{check_time, lock, Purpose, Slot};
use crate::review_json::{self, CountsJson, MoveJson};
use crate::web::error::ApiError;
use gomoku_engine::review::{review_game, Review, ReviewParams};
use gomoku_engine::{Color, Pos};
use serde::{Deserialize, Serialize};
use std::sync::atomic::Ordering;

/// The body of `POST /api/games/{id}/review` (optional).
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReviewRequest {
    /// Milliseconds of search for each position ([`REVIEW_MS`] by default).
    pub time_ms: Option<u64>,
}

/// The time a review gives each position by default.
pub const REVIEW_MS: u64 = 500;

/// A review of the game: its progress while it runs, then its verdicts.
#[derive(Debug)]
pub(super) struct ReviewState {
    /// The moves reviewed (the game when the review started).
    pub(super) moves: Vec<Pos>,
    pub(super) time_ms: u64,
    pub(super) done: usize,
    pub(super) total: usize,
    pub(super) result: Option<Review>,
}

#[derive(Debug, Serialize)]
pub(super) struct ReviewView {
    /// Whether it is still running.
    pub(super) running: bool,
    /// Positions searched so far, of `total`.
    pub(super) done: usize,
    pub(super) total: usize,
    /// Milliseconds of search per position.
    pub(super) time_ms: u64,
    /// Whether every move was reviewed (a stopped review holds the last moves only).
    pub(super) complete: bool,
    /// The verdicts, for the reviewed moves that are still the game's.
    pub(super) moves: Vec<MoveJson>,
    pub(super) black: CountsJson,
    pub(super) white: CountsJson,
}

impl Slot {
    /// Reviews every move of the line shown (to its end, past the board's position): each
    /// position is searched for `time_ms` (from the last
    /// to the first) and each move judged (best, good, inaccuracy, mistake, blunder). A running
    /// hint or analysis is stopped for it (the analysis starts again afterwards); `stop` ends it
    /// with the moves reviewed so far; a move, undo or redo cancels it. A finished review stays
    /// with the moves it judged while they are still the game's.
    ///
    /// # Errors
    /// 400 for a bad time; 409 in a swap2 opening, while the engine is moving, or with no move
    /// to review.
    pub fn review(&mut self, req: &ReviewRequest) -> Result<(), ApiError> {
        self.touch();
        let time_ms = check_time(req.time_ms.unwrap_or(REVIEW_MS))?;
        self.refuse_in_opening("a review")?;
        self.refuse_if_thinking()?;
        // the line shown, to its end: the moves after the board's position too
        let mut game = self.game.clone();
        for n in self.tree.continuation(self.tree.current()) {
            let Some(p) = self.tree.get(n).map(|n| n.rec.pos) else {
                break;
            };
            if game.play(p).is_err() {
                break;
            }
        }
        if !gomoku_engine::review::has_moves(&game) {
            return Err(ApiError::conflict(
                "nothing_to_review",
                "the game has no moves to review",
            ));
        }
        self.cancel_job();
        self.hint = None;
        let moves = game.board().moves().to_vec();
        let total = gomoku_engine::review::positions(&game);
        let pool = self.pool.clone();
        let serial = self.serial;
        let me = self.me.clone();
        let limits = self.search_limits(time_ms);
        self.spawn_job(
            Purpose::Review,
            move |id, stop| {
                let mut engine = pool.take(serial);
                let review = review_game(
                    &mut engine,
                    &game,
                    &limits,
                    &ReviewParams::default(),
                    stop,
                    &mut |p| {
                        if let Some(slot) = me.upgrade() {
                            lock(&slot).review_progress(id, p.done, p.total);
                        } else {
                            stop.store(true, Ordering::Relaxed);
                        }
                    },
                );
                pool.put(engine, serial);
                review
            },
            Slot::finish_review,
        )?;
        self.review = Some(ReviewState {
            moves,
            time_ms,
            done: 0,
            total,
            result: None,
        });
        self.changed();
        Ok(())
    }

    /// Records the progress of review `job`.
    fn review_progress(&mut self, job: u64, done: usize, total: usize) {
        if self.job.as_ref().is_none_or(|j| j.id != job) {
            return;
        }
        if let Some(r) = &mut self.review {
            r.done = done;
            r.total = total;
        }
        self.changed();
    }

    /// Takes the result of review `job` (ignored if it was cancelled meanwhile).
    fn finish_review(&mut self, job: u64, result: Option<Review>) {
        if self.job.take_if(|j| j.id == job).is_none() {
            return;
        }
        match (result, &mut self.review) {
            (Some(review), Some(r)) => r.result = Some(review),
            _ => {
                self.review = None;
                self.error = Some("the review failed".to_string());
            }
        }
        self.changed();
        self.maybe_start_engine();
        if self.job.is_some() {
            self.changed();
        }
    }

    /// The review as the page sees it: only the judged moves still on the line shown
    /// (`line`: the board's moves and those after them; the lines may have changed since).
    pub(super) fn review_view(&self, line: &[Pos]) -> Option<ReviewView> {
        let r = self.review.as_ref()?;
        let running = self
            .job
            .as_ref()
            .is_some_and(|j| j.purpose == Purpose::Review);
        if !running && r.result.is_none() {
            // cancelled before it finished
            return None;
        }
        let same = r.moves.iter().zip(line).take_while(|(a, b)| a == b).count();
        let size = self.size();
        let mut kept = Review::default();
        if let Some(result) = &r.result {
            kept.complete = result.complete;
            kept.moves = result
                .moves
                .iter()
                .filter(|m| m.ply < same)
                .cloned()
                .collect();
        }
        Some(ReviewView {
            running,
            done: r.done,
            total: r.total,
            time_ms: r.time_ms,
            complete: kept.complete,
            moves: kept
                .moves
                .iter()
                .map(|m| review_json::move_json(m, size))
                .collect(),
            black: review_json::counts(&kept, Color::Black),
            white: review_json::counts(&kept, Color::White),
        })
    }
}
