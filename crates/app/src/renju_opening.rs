//! The renju opening rules (Soosõrv-8, Taraguchi-10) between two players of the app: which
//! player acts, what a person's click or word means at each step, the words that tell a
//! person what is asked, and the log of what happened. The web board, the terminal game and
//! the matches all follow it; the rules themselves, and the engine's decisions, are the
//! engine's ([`gomoku_engine::renju`]).

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
                "{who} swapped: {who} now plays {}",
                before.color_of(seat).opponent().name()
            ),
            Action::Keep => format!("{who} kept {}", before.color_of(seat).name()),
            Action::Declare(n) => format!("{who} declared {n} fifth-move offers"),
            Action::Offer(p) => format!("{who} offered {}", format_pos(p, size)),
            Action::Choose(p) => format!("{who} chose the fifth move {}", format_pos(p, size)),
        };
        self.log
            .push(format!("{}: {line}", self.opening.rule().name()));
        if self.opening.is_over() {
            let black = name(self.holder(Color::Black), self.opening.black());
            self.log.push(format!(
                "{}: the opening is over: Black is {black}; White plays the 6th move",
                self.opening.rule().name()
            ));
        }
        Ok(())
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
