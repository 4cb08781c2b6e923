//! The swap2 opening of a game in play: the engine's decisions on a thread of their own, the
//! person's choices, and the log of what happened. The rules of the opening are in
//! [`super::super::opening`].

use super::{MoveRecord, Player, Purpose, Slot};
use crate::opening::{Choice, Next, Stage};
use crate::pbrain::swap2;
use crate::renju_opening::OpeningEvent;
use crate::web::error::ApiError;
use gomoku_engine::decision::Context;
use gomoku_engine::notation::{format_pos, parse_xy};
use gomoku_engine::Limits;
use serde::Deserialize;
use std::time::Instant;

/// The body of `POST /api/games/{id}/swap2`: the person's choice in a swap2 opening.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Swap2Request {
    /// `black`, `white` or (after three stones) `more`.
    pub choice: Choice,
}

/// How the page's log names a player.
pub(super) fn player_name(p: Player) -> &'static str {
    match p {
        Player::Person => "person",
        Player::Engine => "engine",
    }
}

/// The least depth of the engine's decisions in an opening protocol, whatever its level.
const OPENING_MIN_DEPTH: i32 = 6;

/// An engine decision's answer and its notes (`None` when the decision failed).
pub(super) type Decided<A> = Option<(A, Vec<String>)>;

impl Slot {
    /// The limits of an engine decision in an opening protocol (swap2, renju's opening rules):
    /// a real search at every level (a weak level plays weak moves, but a colour chosen by a
    /// one-ply look would decide the game by chance), in up to three times the time per move.
    pub(super) fn opening_limits(&self) -> (Limits, Option<u64>) {
        let limits = Limits {
            depth: self.level.depth().map(|d| d.max(OPENING_MIN_DEPTH)),
            nodes: self.node_limit,
            ..Limits::default()
        };
        let time_ms = self
            .node_limit
            .is_none()
            .then(|| self.time_ms.saturating_mul(3));
        (limits, time_ms)
    }

    /// Runs `decide` (an engine decision in an opening protocol) on a thread of its own as the
    /// slot's job, then hands its answer and its notes (one line per step of its reasoning) to
    /// `finish`. `decide` gets the decision's context: an engine of the pool, the limits of
    /// [`Slot::opening_limits`], the job's stop flag, a seed that varies from game to game and
    /// job to job, and the notes to write.
    pub(super) fn spawn_decision<A: Send + 'static>(
        &mut self,
        purpose: Purpose,
        decide: impl FnOnce(&mut Context<'_>) -> A + Send + 'static,
        finish: fn(&mut Slot, u64, Decided<A>),
    ) -> Result<(), ApiError> {
        let pool = self.pool.clone();
        let serial = self.serial;
        let (limits, time_ms) = self.opening_limits();
        self.spawn_job(
            purpose,
            move |id, stop| {
                let mut engine = pool.take(serial);
                let mut notes = Vec::new();
                let mut cx = Context {
                    searcher: &mut engine,
                    limits,
                    time_ms,
                    stop,
                    seed: serial.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ id,
                    note: &mut |line: String| notes.push(line),
                };
                let answer = decide(&mut cx);
                pool.put(engine, serial);
                (answer, notes)
            },
            finish,
        )
    }

    /// Starts the engine's swap2 decision (stones or a colour) on a thread of its own. It may
    /// take up to three times the time per move: the choice is worth more than one move.
    pub(super) fn start_swap2_job(&mut self) -> Result<(), ApiError> {
        let board = self.game.board().clone();
        self.spawn_decision(
            Purpose::Swap2,
            move |cx| swap2::decide(cx, &board),
            Slot::finish_swap2,
        )
    }

    /// Takes the engine's swap2 decision for job `job`: its stones go down and the opening
    /// moves on (an answer that does not fit is replaced by the fallback one).
    fn finish_swap2(&mut self, job: u64, result: Decided<swap2::Answer>) {
        if self.job.take_if(|j| j.id == job).is_none() {
            return;
        }
        let Some(opening) = self.opening.clone() else {
            return;
        };
        let (answer, notes) = result.unwrap_or_else(|| {
            let b = self.game.board();
            (
                swap2::fallback(b),
                vec!["swap2: the decision failed; the fallback answer".to_string()],
            )
        });
        let Some((stones, next)) = opening.engine_answer(self.game.board(), &answer) else {
            self.error = Some("the engine found no answer in the swap2 opening".to_string());
            self.changed();
            return;
        };
        for &p in &stones {
            if self.game.play(p).is_err() {
                self.error = Some("the engine's swap2 stone was refused".to_string());
                break;
            }
            self.tree.push(MoveRecord {
                pos: p,
                ms: 0,
                engine: None,
            });
        }
        // the notes are written for the protocol (`x,y`); the page speaks `h8`
        let size = self.size();
        let notes: Vec<String> = notes
            .iter()
            .map(|line| {
                let words: Vec<String> = line
                    .split(' ')
                    .map(|w| {
                        parse_xy(w, size).map_or_else(|_| w.to_string(), |p| format_pos(p, size))
                    })
                    .collect();
                words.join(" ")
            })
            .collect();
        self.swap2_log.extend(notes.iter().cloned());
        let events = self.swap2_events.len();
        self.log_decision(Player::Engine, next);
        if let Some(e) = self.swap2_events.get_mut(events) {
            if e.points.is_empty() {
                e.points = stones.iter().map(|&p| format_pos(p, size)).collect();
            }
        }
        super::renju::attach_readings(&mut self.swap2_events[events..], &notes);
        self.advance_opening(next);
        self.changed();
    }

    /// One line of the swap2 log, and its event, for `who`'s decision.
    pub(super) fn log_decision(&mut self, actor: Player, next: Next<Player>) {
        let who = if actor == Player::Engine {
            "the engine"
        } else {
            "you"
        };
        let (line, kind, stones) = match next {
            Next::Stage(Stage::Choice3) => {
                (format!("swap2: {who} put down three stones"), "three", 3)
            }
            Next::Stage(Stage::Five) => (
                format!("swap2: {who} will put down two more stones"),
                "more",
                0,
            ),
            Next::Stage(Stage::Choice5) => (
                format!("swap2: {who} put down two more stones; the other side chooses"),
                "five",
                2,
            ),
            Next::Stage(Stage::Three) => return,
            Next::Done { black } => {
                let took = if black == actor { "Black" } else { "White" };
                (format!("swap2: {who} took {took}"), "took", 0)
            }
        };
        self.swap2_log.push(line);
        let size = self.size();
        let moves = self.game.board().moves();
        let color = match next {
            Next::Done { black } => Some(if black == actor { "black" } else { "white" }),
            _ => None,
        };
        self.swap2_events.push(OpeningEvent {
            who: Some(player_name(actor)),
            points: moves[moves.len().saturating_sub(stones)..]
                .iter()
                .map(|&p| format_pos(p, size))
                .collect(),
            color,
            ..OpeningEvent::new(kind)
        });
    }

    /// Applies where a choice or an answer leads: a new stage, or the end of the opening with
    /// the colours settled; then the engine acts if it is its turn.
    fn advance_opening(&mut self, next: Next<Player>) {
        match next {
            Next::Stage(stage) => {
                if let Some(o) = &mut self.opening {
                    o.stage = stage;
                }
            }
            Next::Done { black } => {
                self.players = match black {
                    Player::Person => [Player::Person, Player::Engine],
                    Player::Engine => [Player::Engine, Player::Person],
                };
                self.opening = None;
                self.opening_plies = self.game.board().ply();
                self.turn_started = Instant::now();
            }
        }
        self.maybe_start_engine();
    }

    /// The person's choice in a swap2 opening.
    ///
    /// # Errors
    /// 409 when there is no opening, it is not the person's choice, or the choice does not fit
    /// the stage.
    pub fn swap2_choice(&mut self, req: &Swap2Request) -> Result<(), ApiError> {
        self.touch();
        let Some(o) = &self.opening else {
            return Err(ApiError::conflict(
                "no_opening",
                "this game has no swap2 opening under way",
            ));
        };
        if o.actor() != Player::Person || o.placing() {
            return Err(ApiError::conflict(
                "not_your_choice",
                if o.actor() == Player::Engine {
                    "the engine is deciding"
                } else {
                    "put down your stones first"
                },
            ));
        }
        let next = o
            .choose(req.choice)
            .map_err(|m| ApiError::conflict("bad_choice", m))?;
        self.error = None;
        self.log_decision(Player::Person, next);
        self.advance_opening(next);
        self.changed();
        Ok(())
    }
}
