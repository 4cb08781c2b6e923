//! The renju opening rules (Soosõrv-8, Taraguchi-10) of a game in play: the engine's turns on
//! a thread of their own, the person's clicks and choices, undo within a turn, and the state
//! the page shows (the step, who acts, the offers, the log). The rules are the engine's
//! ([`gomoku_engine::renju`]); [`crate::renju_opening`] names the players and keeps the log.

use super::{MoveRecord, Player, Purpose, Slot};
use crate::renju_opening::{OpeningEvent, OpeningName, Reading, RenjuTable};
use crate::web::error::ApiError;
use gomoku_engine::notation::format_pos;
use gomoku_engine::renju::{self, Action, Area, OpeningError, Seat, Step};
use gomoku_engine::Color;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// The body of `POST /api/games/{id}/renju`: a person's action that is not a point.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RenjuRequest {
    /// `swap`, `keep`, or `declare` (with `count`: Soosõrv-8's number of offers, or
    /// Taraguchi-10's ten offers instead of one 5th stone).
    pub action: String,
    /// The number of offers declared.
    #[serde(default)]
    pub count: Option<usize>,
}

/// The opening as the page sees it.
#[derive(Debug, Serialize)]
pub(super) struct RenjuView {
    /// `soosorv8` or `taraguchi10`.
    rule: &'static str,
    /// `Soosõrv-8` or `Taraguchi-10`.
    title: &'static str,
    /// Whether it is over (the log stays).
    over: bool,
    /// The step under way (`null` once over).
    step: Option<StepView>,
    /// Who acts: `person` or `engine`.
    actor: Player,
    /// The seat that acts: `first` or `second` (two people share a board).
    actor_seat: &'static str,
    /// The colour the actor holds.
    actor_color: &'static str,
    /// Who started the opening (tentatively Black), and the other player.
    first: Player,
    /// See `first`.
    second: Player,
    /// The seat holding Black now.
    black_seat: &'static str,
    /// Whether a click on the board is the actor's step (a stone, an offer, a choice).
    wants_point: bool,
    /// The fifth moves offered so far.
    offers: Vec<String>,
    /// Soosõrv-8: the number of offers White declared.
    declared: Option<usize>,
    /// What the step asks for, in words (English; the page has its own texts).
    asks: String,
    /// What happened so far, with the engine's reasons.
    log: Vec<String>,
    /// The same as events, with who acted and how the engine read its decisions (the page
    /// words them in its language).
    events: Vec<OpeningEvent>,
}

/// A step as JSON: `kind` (`stone`, `swap`, `declare`, `fifth`, `offer`, `choose`) and the
/// numbers that go with it.
#[derive(Debug, Serialize)]
struct StepView {
    kind: &'static str,
    /// The stone's number (`stone`).
    #[serde(skip_serializing_if = "Option::is_none")]
    number: Option<usize>,
    /// The side of the central square where the stone goes (1 the centre, 0 anywhere).
    #[serde(skip_serializing_if = "Option::is_none")]
    area: Option<u8>,
    /// The most offers (`declare`), or the offers of the other choice (`fifth`).
    #[serde(skip_serializing_if = "Option::is_none")]
    max: Option<usize>,
    /// Offers made and due (`offer`).
    #[serde(skip_serializing_if = "Option::is_none")]
    made: Option<usize>,
    /// See `made`.
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<usize>,
}

fn area_side(a: Area) -> u8 {
    match a {
        Area::Centre => 1,
        Area::Square(n) => n,
        Area::Anywhere => 0,
    }
}

impl StepView {
    fn of(step: Step) -> StepView {
        let mut v = StepView {
            kind: "",
            number: None,
            area: None,
            max: None,
            made: None,
            count: None,
        };
        match step {
            Step::Stone { number, area } => {
                v.kind = "stone";
                v.number = Some(number);
                v.area = Some(area_side(area));
            }
            Step::Swap => v.kind = "swap",
            Step::Declare { max } => {
                v.kind = "declare";
                v.max = Some(max);
            }
            Step::Fifth { area, offers } => {
                v.kind = "fifth";
                v.area = Some(area_side(area));
                v.max = Some(offers);
            }
            Step::Offer { made, count } => {
                v.kind = "offer";
                v.made = Some(made);
                v.count = Some(count);
            }
            Step::Choose => v.kind = "choose",
        }
        v
    }
}

/// The error code of a refused step.
fn code(e: &OpeningError) -> &'static str {
    match e {
        OpeningError::OutsideArea { .. } => "outside_area",
        OpeningError::Forbidden { .. } => "forbidden",
        OpeningError::Occupied { .. } => "occupied",
        OpeningError::BadCount { .. } => "bad_count",
        OpeningError::Symmetrical { .. } | OpeningError::AlreadyOffered { .. } => "bad_offer",
        OpeningError::NotOffered { .. } => "not_offered",
        _ => "bad_step",
    }
}

impl Slot {
    /// Whether a renju opening is under way.
    pub(super) fn renju_active(&self) -> bool {
        self.renju.as_ref().is_some_and(|r| !r.opening.is_over())
    }

    /// How the log names the players of this game.
    fn renju_namer(&self) -> impl Fn(Player, Seat) -> String {
        let people = self
            .players
            .iter()
            .filter(|&&p| p == Player::Person)
            .count();
        move |p: Player, seat: Seat| match (people, p) {
            (1, Player::Person) => "you".to_string(),
            (1, Player::Engine) => "the engine".to_string(),
            (_, Player::Person) => format!("the {} player", seat.name()),
            (_, Player::Engine) => format!("the engine ({})", seat.name()),
        }
    }

    /// Starts the engine's turn in the opening on a thread of its own: its actions, decided by
    /// search in up to three times the time per move (the choice is worth more than a move).
    pub(super) fn start_renju_job(&mut self) -> Result<(), ApiError> {
        let Some(table) = &self.renju else {
            return Ok(());
        };
        let opening = table.opening.clone();
        let board = self.game.board().clone();
        self.spawn_decision(
            Purpose::Opening,
            move |cx| renju::decide(cx, &opening, &board),
            Slot::finish_renju,
        )
    }

    /// Takes the engine's actions of job `job` (what does not fit the rule is replaced by the
    /// rule's plain choice, so that the opening goes on).
    fn finish_renju(&mut self, job: u64, result: super::swap2::Decided<Vec<Action>>) {
        if self.job.take_if(|j| j.id == job).is_none() {
            return;
        }
        let (actions, notes) = result.unwrap_or_else(|| {
            (
                Vec::new(),
                vec!["the engine's decision failed; the rule's plain choice".to_string()],
            )
        });
        let events = self.renju.as_ref().map_or(0, |r| r.events.len());
        if let Some(r) = &mut self.renju {
            r.log.extend(notes.iter().map(|n| format!("  ({n})")));
        }
        for a in actions {
            if !self.renju_active()
                || self.renju.as_ref().map(RenjuTable::actor) != Some(Player::Engine)
            {
                break;
            }
            if let Err(e) = self.renju_apply(a) {
                self.error = Some(format!("the engine's step was refused: {}", e.message));
                break;
            }
        }
        if self.renju_active() && self.renju.as_ref().map(RenjuTable::actor) == Some(Player::Engine)
        {
            let fallback = self
                .renju
                .as_ref()
                .map(|r| renju::fallback(&r.opening, self.game.board()));
            if let Some(a) = fallback {
                let _ = self.renju_apply(a);
            }
        }
        if let Some(r) = &mut self.renju {
            attach_readings(&mut r.events[events..], &notes);
        }
        self.after_renju_step();
        self.changed();
    }

    /// Applies `action` of the player to act: its stone goes on the board, the log grows.
    fn renju_apply(&mut self, action: Action) -> Result<(), ApiError> {
        let name = self.renju_namer();
        let Some(r) = &mut self.renju else {
            return Err(ApiError::conflict(
                "no_opening",
                "no renju opening under way",
            ));
        };
        let before = self.game.board().ply();
        r.apply(&mut self.game, action, &name)
            .map_err(|e| ApiError::conflict(code(&e), e.to_string()))?;
        for &p in &self.game.board().moves()[before..] {
            self.tree.push(MoveRecord {
                pos: p,
                ms: 0,
                engine: None,
            });
        }
        Ok(())
    }

    /// After a step: the end of the opening settles the colours (one person against the
    /// engine: whoever holds Black plays it), then the engine acts if it is its turn.
    fn after_renju_step(&mut self) {
        if let Some(r) = self.renju.as_ref().filter(|r| r.opening.is_over()) {
            let (black, white) = (r.holder(Color::Black), r.holder(Color::White));
            if self.opening_plies < self.game.board().ply() {
                self.players = [black, white];
                self.opening_plies = self.game.board().ply();
                self.turn_started = Instant::now();
            }
        }
        self.hold = false;
        self.maybe_start_engine();
    }

    /// The person's point in the opening: a stone, an offer or the offer chosen, as the step
    /// says.
    pub(super) fn renju_point(&mut self, point: &str) -> Result<(), ApiError> {
        let size = self.size();
        let Some(r) = &self.renju else {
            return Err(ApiError::conflict(
                "no_opening",
                "no renju opening under way",
            ));
        };
        if r.actor() == Player::Engine {
            return Err(ApiError::conflict(
                "not_your_turn",
                format!("the engine is deciding in the {} opening", r.opening.rule()),
            ));
        }
        let p = super::read_point(point, size)
            .map_err(|e| ApiError::bad_request("bad_move", e.to_string()))?;
        let Some(action) = r.point_action(p) else {
            let step = r.opening.step().unwrap_or(Step::Swap);
            return Err(ApiError::conflict(
                "choose_first",
                format!("{}: choose first: {}", r.opening.rule(), r.asks(step)),
            ));
        };
        self.renju_step(action)
    }

    /// A person's step: applied, then the engine acts if it is its turn.
    fn renju_step(&mut self, action: Action) -> Result<(), ApiError> {
        self.renju_apply(action)?;
        self.hint = None;
        self.analysis = None;
        self.error = None;
        self.after_renju_step();
        self.changed();
        Ok(())
    }

    /// The person's action that is not a point: swap, keep, or a number of offers.
    ///
    /// # Errors
    /// 409 when there is no renju opening under way, it is the engine's turn, or the action
    /// does not fit the step (with the rule's reason); 400 for an unknown action.
    pub fn renju_action(&mut self, req: &RenjuRequest) -> Result<(), ApiError> {
        self.touch();
        let Some(r) = self.renju.as_ref().filter(|r| !r.opening.is_over()) else {
            return Err(ApiError::conflict(
                "no_opening",
                "this game has no renju opening under way",
            ));
        };
        if r.actor() == Player::Engine {
            return Err(ApiError::conflict(
                "not_your_turn",
                format!("the engine is deciding in the {} opening", r.opening.rule()),
            ));
        }
        let action = match (req.action.as_str(), req.count) {
            ("swap", None) => Action::Swap,
            ("keep", None) => Action::Keep,
            ("declare", Some(n)) => Action::Declare(n),
            _ => {
                return Err(ApiError::bad_request(
                    "bad_action",
                    format!(
                        "'{}': the actions are swap, keep and declare (with a count)",
                        req.action
                    ),
                ))
            }
        };
        self.renju_step(action)
    }

    /// Takes back the person's last step of the opening (not the engine's).
    pub(super) fn renju_undo(&mut self) -> Result<(), ApiError> {
        let people = self
            .players
            .iter()
            .filter(|&&p| p == Player::Person)
            .count();
        let Some(r) = &mut self.renju else {
            return Err(ApiError::conflict(
                "no_opening",
                "no renju opening under way",
            ));
        };
        let last = r.opening.actions().last().map(|&(seat, _)| r.player(seat));
        let mine = r.actor() == Player::Person && last == Some(Player::Person);
        if !(mine || people == 2 && last.is_some()) {
            return Err(ApiError::conflict(
                "nothing_to_undo",
                "the engine's steps in the opening cannot be taken back",
            ));
        }
        let before = self.game.board().ply();
        if let Some((seat, a)) = r.opening.undo(&mut self.game) {
            let size = self.game.board().size();
            r.log.push(format!(
                "{}: took back: {}",
                r.opening.rule().name(),
                a.describe(size)
            ));
            r.events.push(OpeningEvent::undo(seat, a, before, size));
        }
        // the opening keeps no lines: the stones taken back are gone from the tree
        for _ in self.game.board().ply()..before {
            let gone = self.tree.current();
            self.tree.up();
            self.tree.remove(gone);
        }
        self.error = None;
        self.changed();
        Ok(())
    }

    /// The opening as the page sees it.
    pub(super) fn renju_view(&self) -> Option<RenjuView> {
        let r = self.renju.as_ref()?;
        let o = &r.opening;
        let size = self.size();
        let seat = o.actor();
        Some(RenjuView {
            rule: o.rule().name(),
            title: o.rule().title(),
            over: o.is_over(),
            step: o.step().map(StepView::of),
            actor: r.actor(),
            actor_seat: seat.name(),
            actor_color: o.color_of(seat).name(),
            first: r.first,
            second: r.second,
            black_seat: o.black().name(),
            wants_point: r.wants_point(),
            offers: o.offers().iter().map(|&p| format_pos(p, size)).collect(),
            declared: o.declared(),
            asks: o.step().map(|s| r.asks(s)).unwrap_or_default(),
            log: r.log.clone(),
            events: r
                .events
                .iter()
                .map(|e| {
                    let seat = if e.seat == Some(Seat::Second.name()) {
                        Seat::Second
                    } else {
                        Seat::First
                    };
                    OpeningEvent {
                        who: Some(super::swap2::player_name(r.player(seat))),
                        ..e.clone()
                    }
                })
                .collect(),
        })
    }

    /// The renju opening of the game's first three moves, if they form one.
    pub(super) fn opening_name(&self) -> Option<OpeningName> {
        OpeningName::of_game(&self.game)
    }
}

/// Gives the events of one engine turn (`events`) the readings of its decision's `notes`: each
/// event the note that decided it (the one naming its points, all the turn's stones when
/// several notes do; the swap or keep; the number of offers), and each note's reading once,
/// on the last event it decided.
pub(super) fn attach_readings(events: &mut [OpeningEvent], notes: &[String]) {
    let names = |note: &str, point: &str| {
        note.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w == point)
    };
    let played: Vec<String> = events
        .iter()
        .filter(|e| e.kind == "stone")
        .flat_map(|e| e.points.clone())
        .collect();
    let all_played = |note: &str| played.iter().all(|p| names(note, p));
    let decided_by = |e: &OpeningEvent| -> Option<usize> {
        let fits = |n: &str| match e.kind {
            "stone" | "offer" | "choose" | "three" => {
                !e.points.is_empty() && e.points.iter().all(|p| names(n, p))
            }
            "five" => n.contains("two more stones"),
            "swap" | "keep" => n.contains("swapping") || n.contains("keeping"),
            "declare" => {
                let count = e.count.unwrap_or(0);
                n.contains(&format!("{count} offers")) && (!n.contains("4th on") || all_played(n))
            }
            "took" | "more" => n.starts_with("swap2: White's value"),
            _ => false,
        };
        let found: Vec<usize> = (0..notes.len())
            .filter(|&i| fits(&notes[i]) && Reading::of_note(&notes[i]).is_some())
            .collect();
        found
            .iter()
            .rev()
            .find(|&&i| all_played(&notes[i]))
            .or(found.last())
            .copied()
    };
    let decided: Vec<Option<usize>> = events.iter().map(decided_by).collect();
    for (k, e) in events.iter_mut().enumerate() {
        let last = decided[k].is_some() && !decided[k + 1..].contains(&decided[k]);
        if let (Some(i), true) = (decided[k], last) {
            e.reading = Reading::of_note(&notes[i]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(kind: &'static str, points: &[&str], count: Option<usize>) -> OpeningEvent {
        OpeningEvent {
            points: points.iter().map(|p| p.to_string()).collect(),
            count,
            ..OpeningEvent::new(kind)
        }
    }

    fn readings(events: &[OpeningEvent]) -> Vec<Option<(&'static str, i32)>> {
        events
            .iter()
            .map(|e| e.reading.map(|r| (r.color, r.score)))
            .collect()
    }

    #[test]
    fn the_chosen_opening_s_note_goes_on_its_last_stone() {
        let notes = [
            "soosorv8: Kosei (h8 h9 h10) is worth +80 for White (depth 8)",
            "soosorv8: Kagetsu (h8 h9 i9) is worth -12 for White (depth 8)",
            "soosorv8: Ukigumo (h8 g9 i9) is worth +40 for White (depth 8)",
        ]
        .map(String::from);
        let mut events = [event("stone", &["h9"], None), event("stone", &["i9"], None)];
        attach_readings(&mut events, &notes);
        assert_eq!(readings(&events), [None, Some(("white", -12))]);
    }

    #[test]
    fn the_fourth_stone_and_its_offers_read_the_note_of_that_stone() {
        let notes = [
            "soosorv8: 4th on g7 with 6 offers: Black's 6th best fifth move is worth -2",
            "soosorv8: 4th on j10 with 6 offers: Black's 6th best fifth move is worth +1",
            "soosorv8: 4th on g8 with 8 offers: Black's 8th best fifth move is worth +14",
        ]
        .map(String::from);
        let mut events = [
            event("stone", &["j10"], None),
            event("declare", &[], Some(6)),
        ];
        attach_readings(&mut events, &notes);
        assert_eq!(readings(&events), [None, Some(("black", 1))]);
    }

    #[test]
    fn a_swap_reads_its_value_and_offers_read_theirs_once() {
        let notes =
            ["soosorv8: White's value is -119 (depth 21): swapping, leaving White".to_string()];
        let mut events = [event("swap", &[], None)];
        attach_readings(&mut events, &notes);
        assert_eq!(readings(&events), [Some(("white", -119))]);
        let notes = [
            "soosorv8: offering i10 g7 (Black's best fifth moves, the last worth +30)".to_string(),
        ];
        let mut events = [
            event("offer", &["i10"], None),
            event("offer", &["g7"], None),
        ];
        attach_readings(&mut events, &notes);
        assert_eq!(readings(&events), [None, Some(("black", 30))]);
        let mut none = [event("stone", &["a1"], None)];
        attach_readings(&mut none, &notes);
        assert_eq!(readings(&none), [None]);
    }
}
