//! The renju opening rules (Soosõrv-8, Taraguchi-10) between two players of the app: which
//! player acts, what a person's click or word means at each step, the words that tell a
//! person what is asked, and the log of what happened (as text lines, and as
//! [`OpeningEvent`]s that the web page words in the player's language). The web board, the
//! terminal game and the matches all follow it; the rules themselves, and the engine's
//! decisions, are the engine's ([`gomoku_engine::renju`]).

use gomoku_engine::notation::format_pos;
use gomoku_engine::renju::{Action, Opening, OpeningError, OpeningRule, Seat, Step};
use gomoku_engine::{Color, Game, Pos};

/// A renju opening in progress between two players named by `P` (a person or the engine, or
/// a player of a match).
#[derive(Clone, Debug)]
pub struct RenjuTable<P> {
    /// The opening.
    pub opening: Opening,
    /// The player who starts (tentatively Black).
    pub first: P,
    /// The other player.
    pub second: P,
    /// One line per action so far (points in `h8` style).
    pub log: Vec<String>,
    /// One event per action so far, and one for the end of the opening.
    pub events: Vec<OpeningEvent>,
    /// The board size (to write points).
    pub size: usize,
}

/// How a player is named in the log: `you`, `the engine`, `the first player`...
pub type Namer<'a, P> = &'a dyn Fn(P, Seat) -> String;

impl<P: Copy + PartialEq> RenjuTable<P> {
    /// An opening under `rule` on a `size` board whose first stone `first` puts down.
    #[must_use]
    pub fn new(rule: OpeningRule, size: usize, first: P, second: P) -> RenjuTable<P> {
        RenjuTable {
            opening: Opening::new(rule),
            first,
            second,
            log: Vec::new(),
            events: Vec::new(),
            size,
        }
    }

    /// The player in `seat`.
    #[must_use]
    pub fn player(&self, seat: Seat) -> P {
        match seat {
            Seat::First => self.first,
            Seat::Second => self.second,
        }
    }

    /// Who acts now.
    #[must_use]
    pub fn actor(&self) -> P {
        self.player(self.opening.actor())
    }

    /// Who holds `color` now.
    #[must_use]
    pub fn holder(&self, color: Color) -> P {
        self.player(self.opening.holder(color))
    }

    /// Whether the step under way takes a point (a stone, an offer, a choice among offers).
    #[must_use]
    pub fn wants_point(&self) -> bool {
        matches!(
            self.opening.step(),
            Some(Step::Stone { .. } | Step::Fifth { .. } | Step::Offer { .. } | Step::Choose)
        )
    }

    /// The action a point clicked or typed at this step stands for: a stone, an offer, or the
    /// choice of an offer; `None` when the step takes no point.
    #[must_use]
    pub fn point_action(&self, p: Pos) -> Option<Action> {
        match self.opening.step()? {
            Step::Stone { .. } | Step::Fifth { .. } => Some(Action::Stone(p)),
            Step::Offer { .. } => Some(Action::Offer(p)),
            Step::Choose => Some(Action::Choose(p)),
            Step::Swap | Step::Declare { .. } => None,
        }
    }

    /// The action a word stands for: `swap`, `keep`, a number of offers (`3`, `declare 3`),
    /// or `ten` (Taraguchi-10's ten offers).
    ///
    /// # Errors
    /// A word that means nothing at this step, with what the step asks for.
    pub fn word_action(&self, word: &str) -> Result<Action, String> {
        let w = word.trim().to_ascii_lowercase();
        let n = w.strip_prefix("declare").unwrap_or(&w).trim();
        match (self.opening.step(), w.as_str()) {
            (Some(Step::Swap), "swap" | "s") => Ok(Action::Swap),
            (Some(Step::Swap), "keep" | "k") => Ok(Action::Keep),
            (Some(Step::Fifth { offers, .. }), "ten" | "offer" | "offers" | "10") => {
                Ok(Action::Declare(offers))
            }
            (Some(Step::Declare { .. }), _) if n.parse::<usize>().is_ok() => {
                Ok(Action::Declare(n.parse().unwrap_or(0)))
            }
            (Some(step), _) => Err(format!("'{word}': {}", self.asks(step))),
            (None, _) => Err("the opening is over".to_string()),
        }
    }

    /// What `step` asks for, in words.
    #[must_use]
    pub fn asks(&self, step: Step) -> String {
        let rule = self.opening.rule();
        match step {
            Step::Stone { number, area } if rule == OpeningRule::Soosorv8 && number <= 3 => {
                format!(
                    "the first three stones are one of the 26 openings: stone {number} ({}) \
                     {area}",
                    colour_of(number)
                )
            }
            Step::Stone { number, area } => {
                format!("stone {number} ({}) {area}", colour_of(number))
            }
            Step::Swap => {
                let held = self.opening.color_of(self.opening.actor());
                format!("swap (take {}) or keep ({held})", held.opponent().name())
            }
            Step::Declare { max } => {
                format!("the number of fifth moves Black will offer: 1 to {max}")
            }
            Step::Fifth { area, offers } => {
                format!("the 5th stone (black) {area}, or ten: {offers} fifth-move offers anywhere")
            }
            Step::Offer { made, count } => format!(
                "fifth-move offer {} of {count} (anywhere; no two symmetrical)",
                made + 1
            ),
            Step::Choose => format!(
                "the choice of one offered fifth move: {}",
                self.offers_text()
            ),
        }
    }

    /// The offers so far, `h8` style, separated by spaces.
    #[must_use]
    pub fn offers_text(&self) -> String {
        let size = self.size;
        self.opening
            .offers()
            .iter()
            .map(|&p| format_pos(p, size))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Checks `action` by the player to act, plays its stone on `game` and logs it.
    ///
    /// # Errors
    /// Why the action does not fit the rule; nothing changes then.
    pub fn apply(
        &mut self,
        game: &mut Game,
        action: Action,
        name: Namer<'_, P>,
    ) -> Result<(), OpeningError> {
        let seat = self.opening.actor();
        let before = self.opening.clone();
        self.opening.apply(game, action)?;
        let size = game.board().size();
        let who = name(self.player(seat), seat);
        let line = match action {
            Action::Stone(p) => format!(
                "{who} put down stone {} on {}",
                game.board().ply(),
                format_pos(p, size)
            ),
            Action::Swap => format!(
                "{who} swapped and took {}",
                before.color_of(seat).opponent().name()
            ),
            Action::Keep => format!("{who} kept {}", before.color_of(seat).name()),
            Action::Declare(n) => format!("{who} declared {n} fifth-move offers"),
            Action::Offer(p) => format!("{who} offered {}", format_pos(p, size)),
            Action::Choose(p) => format!("{who} chose the fifth move {}", format_pos(p, size)),
        };
        self.log
            .push(format!("{}: {line}", self.opening.rule().name()));
        self.events.push(OpeningEvent::of(
            seat,
            action,
            &before,
            game.board().ply(),
            size,
        ));
        if self.opening.is_over() {
            let black = name(self.holder(Color::Black), self.opening.black());
            self.log.push(format!(
                "{}: the opening is over: Black is {black}; White plays the 6th move",
                self.opening.rule().name()
            ));
            self.events.push(OpeningEvent {
                seat: Some(self.opening.black().name()),
                color: Some("black"),
                number: Some(game.board().ply() + 1),
                ..OpeningEvent::new("over")
            });
        }
        Ok(())
    }
}

/// One step of an opening as the page's log words it: who acted, what they did, and, for the
/// engine's decisions, how the engine read the game then (the web board fills that in).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct OpeningEvent {
    /// What happened: `stone`, `swap`, `keep`, `declare`, `offer`, `choose`, `undo` (a step
    /// taken back, `undone` says which), `over` (the end of the opening); swap2's `three`,
    /// `more`, `five` and `took`.
    pub kind: &'static str,
    /// The seat that acted, `first` or `second` (renju; `over`: the seat that plays Black).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<&'static str>,
    /// Who acted: `person` or `engine` (set by the web board).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub who: Option<&'static str>,
    /// The points: a stone, an offer, the offer chosen, or swap2's stones.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub points: Vec<String>,
    /// A stone's number (for `over`, the number of the next move).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<usize>,
    /// The number of fifth-move offers declared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
    /// The colour of a stone; the colour kept, or taken by a swap (or by swap2's `took`); for
    /// `over`, `black`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<&'static str>,
    /// For `undo`, the kind of step taken back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undone: Option<&'static str>,
    /// How the engine read the game when it decided this step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reading: Option<Reading>,
}

/// An engine's value of the game for one side: `color`'s value `score` in the engine's
/// units, or `color`'s proven win in `mate` of its own moves (a loss when negative).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Reading {
    /// `black` or `white`.
    pub color: &'static str,
    /// The value for `color` (0 with a `mate`).
    pub score: i32,
    /// A proven result: `color` wins in this many of its moves (loses, when negative).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
}

impl Reading {
    /// The value an engine's note of a decision gives: its first value ("+118", "-40", "win
    /// in 3", "loss in 2") after "worth", "value is", "value" or "scores", of the colour named
    /// right after it ("... for White") or last before it ("White's value ..."), else Black's
    /// (the notes give the fifth moves' values for Black).
    #[must_use]
    pub fn of_note(note: &str) -> Option<Reading> {
        let (at, rest) = ["worth ", "value is ", "value ", "scores "]
            .iter()
            .filter_map(|k| note.find(k).map(|i| (i, &note[i + k.len()..])))
            .min_by_key(|&(i, _)| i)?;
        let (score, mate, len) = read_value(rest)?;
        let after = &rest[len..];
        let color = if after.starts_with(" for White") {
            "white"
        } else if after.starts_with(" for Black") {
            "black"
        } else {
            let before = &note[..at];
            match (before.rfind("White"), before.rfind("Black")) {
                (Some(w), b) if b.is_none_or(|b| w > b) => "white",
                _ => "black",
            }
        };
        Some(Reading { color, score, mate })
    }
}

/// A value at the start of `s` as the engine's notes write it: `(score, mate, its length)`.
fn read_value(s: &str) -> Option<(i32, Option<i32>, usize)> {
    let digits = |t: &str| t.chars().take_while(char::is_ascii_digit).count();
    for (word, sign) in [("win in ", 1), ("loss in ", -1)] {
        if let Some(t) = s.strip_prefix(word) {
            let n = digits(t);
            let moves: i32 = t[..n].parse().ok()?;
            return Some((0, Some(sign * moves), word.len() + n));
        }
    }
    let sign = s.chars().next().filter(|c| *c == '+' || *c == '-')?;
    let n = digits(&s[1..]);
    let v: i32 = s[1..=n].parse().ok()?;
    Some((if sign == '-' { -v } else { v }, None, 1 + n))
}

impl OpeningEvent {
    /// An event of `kind` and nothing else.
    #[must_use]
    pub fn new(kind: &'static str) -> OpeningEvent {
        OpeningEvent {
            kind,
            ..OpeningEvent::default()
        }
    }

    /// The event of `action` by `seat` in the opening `before` it, `ply` stones on the board
    /// after it.
    fn of(seat: Seat, action: Action, before: &Opening, ply: usize, size: usize) -> OpeningEvent {
        let at = |p: Pos| vec![format_pos(p, size)];
        let held = before.color_of(seat);
        let event = OpeningEvent {
            seat: Some(seat.name()),
            ..OpeningEvent::new(kind_of(action))
        };
        match action {
            Action::Stone(p) => OpeningEvent {
                points: at(p),
                number: Some(ply),
                color: Some(colour_of(ply)),
                ..event
            },
            Action::Swap => OpeningEvent {
                color: Some(held.opponent().name()),
                ..event
            },
            Action::Keep => OpeningEvent {
                color: Some(held.name()),
                ..event
            },
            Action::Declare(n) => OpeningEvent {
                count: Some(n),
                ..event
            },
            Action::Offer(p) | Action::Choose(p) => OpeningEvent {
                points: at(p),
                ..event
            },
        }
    }

    /// The event of `seat` taking back `action` (a stone's number is `ply`, the stones on
    /// the board before the undo).
    #[must_use]
    pub fn undo(seat: Seat, action: Action, ply: usize, size: usize) -> OpeningEvent {
        let points = match action {
            Action::Stone(p) | Action::Offer(p) | Action::Choose(p) => vec![format_pos(p, size)],
            _ => Vec::new(),
        };
        OpeningEvent {
            seat: Some(seat.name()),
            undone: Some(kind_of(action)),
            number: matches!(action, Action::Stone(_)).then_some(ply),
            points,
            ..OpeningEvent::new("undo")
        }
    }
}

/// The event kind of `action`.
fn kind_of(action: Action) -> &'static str {
    match action {
        Action::Stone(_) => "stone",
        Action::Swap => "swap",
        Action::Keep => "keep",
        Action::Declare(_) => "declare",
        Action::Offer(_) => "offer",
        Action::Choose(_) => "choose",
    }
}

/// `black` for odd stone numbers, `white` for even ones.
fn colour_of(number: usize) -> &'static str {
    if number % 2 == 1 {
        "black"
    } else {
        "white"
    }
}

/// One of the 26 openings as JSON: `{"code": "4D", "name": "Kagetsu", "chinese": "花月",
/// "japanese": "花月", "id": "kagetsu"}`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct OpeningName {
    /// `4D`, `13I`.
    pub code: String,
    /// The romanised Japanese name.
    pub name: &'static str,
    /// The Chinese name.
    pub chinese: &'static str,
    /// The Japanese name.
    pub japanese: &'static str,
    /// The name without accents, in lower case.
    pub id: &'static str,
}

impl OpeningName {
    /// The JSON form of `o`.
    #[must_use]
    pub fn of(o: &gomoku_engine::renju::NamedOpening) -> OpeningName {
        OpeningName {
            code: o.code(),
            name: o.romaji,
            chinese: o.chinese,
            japanese: o.japanese,
            id: o.id,
        }
    }

    /// The opening of `game` (its first three moves), if they form one of the 26.
    #[must_use]
    pub fn of_game(game: &Game) -> Option<OpeningName> {
        gomoku_engine::renju::of_game(game).map(OpeningName::of)
    }
}

/// The keys a position line of `game` gets for its opening: ` renju_opening=kagetsu` when its
/// first three moves form one of the 26 openings, and ` opening_rule=soosorv8` (with the
/// offers, ` offers=g9,g8,f8`) when a rule opened it; empty otherwise.
#[must_use]
pub fn record_keys(game: &Game, rule: Option<&Opening>) -> String {
    let mut keys = String::new();
    if let Some(o) = gomoku_engine::renju::of_game(game) {
        keys.push_str(&format!(" renju_opening={}", o.id));
    }
    if let Some(o) = rule {
        keys.push_str(&format!(" opening_rule={}", o.rule().name()));
        let size = game.board().size();
        if !o.offers().is_empty() {
            let list: Vec<String> = o.offers().iter().map(|&p| format_pos(p, size)).collect();
            keys.push_str(&format!(" offers={}", list.join(",")));
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(color: &'static str, score: i32, mate: Option<i32>) -> Option<Reading> {
        Some(Reading { color, score, mate })
    }

    #[test]
    fn a_note_s_value_is_read_for_the_side_it_names() {
        let cases = [
            (
                "soosorv8: White's value is -119 (depth 21): swapping, leaving White",
                reading("white", -119, None),
            ),
            (
                "soosorv8: 4th on g8 with 8 offers: Black's 8th best fifth move is worth +1067",
                reading("black", 1067, None),
            ),
            (
                "soosorv8: Kagetsu (h8 h9 i9) is worth +12 for White (depth 9)",
                reading("white", 12, None),
            ),
            (
                "stone 4 on j10: the position is worth -3 for Black (depth 8), the nearest to even",
                reading("black", -3, None),
            ),
            (
                "taraguchi10: 10 offers: the 10th best fifth move is worth win in 4",
                reading("black", 0, Some(4)),
            ),
            (
                "soosorv8: choosing g7 (White's value loss in 2)",
                reading("white", 0, Some(-2)),
            ),
            (
                "swap2: opening h8 h9 j7 scores +20 for White (depth 6)",
                reading("white", 20, None),
            ),
            (
                "swap2: White's value is +45: two more stones, White's value +5 after them",
                reading("white", 45, None),
            ),
            (
                "the engine's decision failed; the rule's plain choice",
                None,
            ),
            ("soosorv8: h9 does not fit (occupied); i9 instead", None),
        ];
        for (note, expected) in cases {
            assert_eq!(Reading::of_note(note), expected, "{note}");
        }
    }

    #[test]
    fn every_action_is_an_event_in_the_players_terms() {
        let mut game = Game::new(15, gomoku_engine::Rule::Renju).unwrap();
        let mut table = RenjuTable::new(OpeningRule::Soosorv8, 15, 'a', 'b');
        let name = |p: char, _: Seat| p.to_string();
        let b = game.board().clone();
        for p in [b.centre(), b.pos(7, 6).unwrap(), b.pos(8, 6).unwrap()] {
            table.apply(&mut game, Action::Stone(p), &name).unwrap();
        }
        table.apply(&mut game, Action::Swap, &name).unwrap();
        let kinds: Vec<_> = table.events.iter().map(|e| e.kind).collect();
        assert_eq!(kinds, ["stone", "stone", "stone", "swap"]);
        let third = &table.events[2];
        assert_eq!(third.points, ["i9"]);
        assert_eq!(
            (third.number, third.color, third.seat),
            (Some(3), Some("black"), Some("first"))
        );
        // the second seat held White: it swapped and took Black
        let swap = &table.events[3];
        assert_eq!((swap.seat, swap.color), (Some("second"), Some("black")));
        assert_eq!(table.log[3], "soosorv8: b swapped and took black");
    }
}
