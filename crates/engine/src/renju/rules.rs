//! The opening rules of renju tournaments, Soosõrv-8 and Taraguchi-10, as a state machine:
//! which step the opening is at, who acts, and whether an action fits the rule.
//!
//! The two players are [`Seat::First`] (tentatively Black: the one who starts) and
//! [`Seat::Second`]; a swap exchanges the colours they hold, never the stones on the board,
//! which alternate Black, White, Black, ... as in any game. The steps, as the Renju
//! International Federation defines them:
//!
//! **Soosõrv-8**
//! 1. The first player puts down the first three stones (black, white, black): one of the 26
//!    openings (the 1st on the centre, the 2nd in the central 3x3 square, the 3rd in the
//!    central 5x5 square).
//! 2. The other player may swap.
//! 3. White puts down the 4th stone anywhere, and declares how many fifth moves Black will
//!    offer: 1 to 8.
//! 4. The other player (Black) may swap.
//! 5. Black offers that many fifth moves, no two of them symmetrical.
//! 6. White chooses one of them as the 5th stone, and plays the 6th move: the game goes on.
//!
//! **Taraguchi-10**
//! 1. The first player puts down the 1st stone on the centre; the other player may swap.
//! 2. White puts down the 2nd stone in the central 3x3 square; the other player may swap.
//! 3. Black puts down the 3rd stone in the central 5x5 square; the other player may swap.
//! 4. White puts down the 4th stone in the central 7x7 square; the other player may swap.
//! 5. Black either puts down the 5th stone in the central 9x9 square (then the other player
//!    may swap), or offers ten fifth moves anywhere, no two of them symmetrical, of which
//!    White chooses one.
//! 6. White plays the 6th move: the game goes on.
//!
//! No point forbidden to Black is ever accepted for a black stone or offer. [`Opening::apply`]
//! checks an action and plays its stone; an action that does not fit is refused with the
//! rule's reason, and leaves the opening and the game as they were.

use crate::board::{Board, ForbiddenKind};
use crate::game::Game;
use crate::notation::format_pos;
use crate::types::{Color, Pos};
use std::fmt;
use std::str::FromStr;

/// An opening rule of renju tournaments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpeningRule {
    /// Soosõrv-8: one of the 26 openings, a swap, the 4th stone and 1 to 8 fifth-move offers,
    /// a swap, the offers, White's choice.
    Soosorv8,
    /// Taraguchi-10: a stone at a time in growing central squares with a swap after each, then
    /// one 5th stone (and a swap) or ten offers.
    Taraguchi10,
}

impl OpeningRule {
    /// Both rules.
    pub const ALL: [OpeningRule; 2] = [OpeningRule::Soosorv8, OpeningRule::Taraguchi10];

    /// The name on the command line and in the web API: `soosorv8`, `taraguchi10`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            OpeningRule::Soosorv8 => "soosorv8",
            OpeningRule::Taraguchi10 => "taraguchi10",
        }
    }

    /// The name as players write it: `Soosõrv-8`, `Taraguchi-10`.
    #[must_use]
    pub const fn title(self) -> &'static str {
        match self {
            OpeningRule::Soosorv8 => "Soosõrv-8",
            OpeningRule::Taraguchi10 => "Taraguchi-10",
        }
    }

    /// The most fifth-move offers: 8 (Soosõrv-8, which White declares) or 10 (Taraguchi-10,
    /// always exactly ten when Black offers).
    #[must_use]
    pub const fn max_offers(self) -> usize {
        match self {
            OpeningRule::Soosorv8 => 8,
            OpeningRule::Taraguchi10 => 10,
        }
    }

    /// The smallest board the rule fits: its largest central square.
    #[must_use]
    pub const fn min_size(self) -> usize {
        match self {
            OpeningRule::Soosorv8 => 5,
            OpeningRule::Taraguchi10 => 9,
        }
    }

    /// Where stone `number` (1 to 5) of the opening goes.
    #[must_use]
    pub const fn area(self, number: usize) -> Area {
        match (self, number) {
            (_, 1) => Area::Centre,
            (_, 2) => Area::Square(3),
            (_, 3) => Area::Square(5),
            (OpeningRule::Taraguchi10, 4) => Area::Square(7),
            (OpeningRule::Taraguchi10, 5) => Area::Square(9),
            _ => Area::Anywhere,
        }
    }
}

impl fmt::Display for OpeningRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

impl FromStr for OpeningRule {
    type Err = String;

    /// `soosorv8`, `soosorv-8`, `Soosõrv-8`, `taraguchi10`, `taraguchi-10` (any case).
    fn from_str(s: &str) -> Result<OpeningRule, String> {
        let key: String = s
            .trim()
            .to_lowercase()
            .chars()
            .map(|c| if c == 'õ' { 'o' } else { c })
            .filter(|c| c.is_ascii_alphanumeric())
            .collect();
        match key.as_str() {
            "soosorv8" | "soosyrv8" => Ok(OpeningRule::Soosorv8),
            "taraguchi10" => Ok(OpeningRule::Taraguchi10),
            _ => Err(format!(
                "'{s}': the renju opening rules are soosorv8 and taraguchi10"
            )),
        }
    }
}

/// One of the two players of an opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seat {
    /// The player who starts: tentatively Black.
    First,
    /// The other player: tentatively White.
    Second,
}

impl Seat {
    /// The other player.
    #[must_use]
    pub const fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }

    /// `first` or `second`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Seat::First => "first",
            Seat::Second => "second",
        }
    }
}

/// Where a stone of the opening may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Area {
    /// The centre of the board only.
    Centre,
    /// The central square of this side (3, 5, 7 or 9 points).
    Square(u8),
    /// Any empty point.
    Anywhere,
}

impl Area {
    /// Whether `p` is in the area on `board`.
    #[must_use]
    pub fn contains(self, board: &Board, p: Pos) -> bool {
        let c = board.centre();
        let ring = p.x().abs_diff(c.x()).max(p.y().abs_diff(c.y()));
        board.contains(p)
            && match self {
                Area::Centre => p == c,
                Area::Square(side) => ring <= usize::from(side / 2),
                Area::Anywhere => true,
            }
    }
}

impl fmt::Display for Area {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Area::Centre => f.write_str("on the centre"),
            Area::Square(n) => write!(f, "in the central {n}x{n} square"),
            Area::Anywhere => f.write_str("anywhere"),
        }
    }
}

/// What the opening waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// A stone: number `number` of the game (1 to 5), in `area`.
    Stone {
        /// The stone's number (its colour: Black when odd).
        number: usize,
        /// Where it may go.
        area: Area,
    },
    /// The actor may take the other colour ([`Action::Swap`]) or keep its own
    /// ([`Action::Keep`]).
    Swap,
    /// Soosõrv-8: White declares how many fifth moves Black will offer (1 to `max`).
    Declare {
        /// The most offers.
        max: usize,
    },
    /// Taraguchi-10: Black puts down the 5th stone in `area` ([`Action::Stone`]), or declares
    /// `offers` fifth-move offers ([`Action::Declare`]).
    Fifth {
        /// Where a single 5th stone goes.
        area: Area,
        /// How many offers the other choice is.
        offers: usize,
    },
    /// Black offers fifth moves, one at a time: `made` of `count` so far.
    Offer {
        /// Offers made.
        made: usize,
        /// Offers due.
        count: usize,
    },
    /// White chooses one of the offered fifth moves.
    Choose,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Stone { number, area } => write!(
                f,
                "stone {number} ({}) {area}",
                if number % 2 == 1 { "black" } else { "white" }
            ),
            Step::Swap => f.write_str("the choice to swap or not"),
            Step::Declare { max } => write!(f, "White's number of fifth-move offers (1 to {max})"),
            Step::Fifth { area, offers } => {
                write!(f, "Black's 5th stone {area}, or {offers} fifth-move offers")
            }
            Step::Offer { made, count } => {
                write!(f, "Black's fifth-move offer {} of {count}", made + 1)
            }
            Step::Choose => f.write_str("White's choice among the offered fifth moves"),
        }
    }
}

/// A player's action in the opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Put down the next stone (or, in Taraguchi-10, the single 5th stone).
    Stone(Pos),
    /// Take the other colour.
    Swap,
    /// Keep the colour held.
    Keep,
    /// Declare the number of fifth-move offers.
    Declare(usize),
    /// Offer a fifth move.
    Offer(Pos),
    /// Choose an offered fifth move: it becomes the 5th stone.
    Choose(Pos),
}

impl Action {
    /// The action in words, points in `h8` style on a `size` board (`stone h8`, `swap`,
    /// `declare 3`, `offer j7`, `choose j7`).
    #[must_use]
    pub fn describe(&self, size: usize) -> String {
        match *self {
            Action::Stone(p) => format!("stone {}", format_pos(p, size)),
            Action::Swap => "swap".to_string(),
            Action::Keep => "keep".to_string(),
            Action::Declare(n) => format!("declare {n}"),
            Action::Offer(p) => format!("offer {}", format_pos(p, size)),
            Action::Choose(p) => format!("choose {}", format_pos(p, size)),
        }
    }
}

/// Why an action was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningError {
    /// The opening is over.
    Over,
    /// The action is not what the step asks for.
    Unexpected {
        /// The rule's name.
        rule: &'static str,
        /// The step, in words.
        step: String,
        /// The action, in words.
        action: String,
    },
    /// The point is off the board.
    OffBoard,
    /// The point holds a stone.
    Occupied {
        /// The point.
        point: String,
    },
    /// A stone outside the area its number must go in.
    OutsideArea {
        /// The rule's name.
        rule: &'static str,
        /// The stone's number.
        number: usize,
        /// The point.
        point: String,
        /// Where it must go.
        area: Area,
    },
    /// A point forbidden to Black.
    Forbidden {
        /// The point.
        point: String,
        /// Why.
        kind: ForbiddenKind,
    },
    /// A number of offers the rule does not allow.
    BadCount {
        /// The rule's name.
        rule: &'static str,
        /// The number given.
        count: usize,
        /// The allowed numbers, in words.
        allowed: String,
    },
    /// An offer already made.
    AlreadyOffered {
        /// The point.
        point: String,
    },
    /// An offer symmetrical to one already made (the same position seen in a mirror).
    Symmetrical {
        /// The point.
        point: String,
        /// The offer it mirrors.
        other: String,
    },
    /// A choice of a point that was not offered.
    NotOffered {
        /// The point.
        point: String,
        /// The offers.
        offers: Vec<String>,
    },
    /// The board does not hold the opening's stones (a different game, or an unsuitable
    /// board).
    Board(String),
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningError::Over => f.write_str("the opening is over"),
            OpeningError::Unexpected { rule, step, action } => {
                write!(f, "{rule}: the opening waits for {step}, not '{action}'")
            }
            OpeningError::OffBoard => f.write_str("the point is off the board"),
            OpeningError::Occupied { point } => write!(f, "{point} is already occupied"),
            OpeningError::OutsideArea {
                rule,
                number,
                point,
                area,
            } => {
                let nth = match number {
                    1 => "1st",
                    2 => "2nd",
                    3 => "3rd",
                    4 => "4th",
                    _ => "5th",
                };
                write!(f, "{point}: under {rule} the {nth} stone goes {area}")?;
                if *rule == OpeningRule::Soosorv8.title() && *number <= 3 {
                    f.write_str(" (the first three stones are one of the 26 openings)")?;
                }
                Ok(())
            }
            OpeningError::Forbidden { point, kind } => {
                write!(f, "{point} is forbidden for Black ({kind})")
            }
            OpeningError::BadCount {
                rule,
                count,
                allowed,
            } => write!(f, "{rule}: {allowed} fifth-move offers, not {count}"),
            OpeningError::AlreadyOffered { point } => write!(f, "{point} is already offered"),
            OpeningError::Symmetrical { point, other } => write!(
                f,
                "{point} mirrors the offer {other}: no two fifth-move offers may be symmetrical"
            ),
            OpeningError::NotOffered { point, offers } => write!(
                f,
                "{point} was not offered (the offers: {})",
                offers.join(" ")
            ),
            OpeningError::Board(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for OpeningError {}

/// A Soosõrv-8 or Taraguchi-10 opening in progress (see the module's description).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    rule: OpeningRule,
    /// The step under way; `None` once the opening is over.
    step: Option<Step>,
    /// Who acts at `step`.
    actor: Seat,
    /// Who holds Black now.
    black: Seat,
    /// Stones put down so far.
    stones: usize,
    /// Soosõrv-8: the declared number of offers.
    declared: Option<usize>,
    /// The fifth moves offered so far.
    offers: Vec<Pos>,
    /// Every action so far, with its actor.
    actions: Vec<(Seat, Action)>,
}

impl Opening {
    /// An opening under `rule` from the empty board: the first player puts down the 1st stone.
    #[must_use]
    pub fn new(rule: OpeningRule) -> Opening {
        Opening {
            rule,
            step: Some(Step::Stone {
                number: 1,
                area: Area::Centre,
            }),
            actor: Seat::First,
            black: Seat::First,
            stones: 0,
            declared: None,
            offers: Vec::new(),
            actions: Vec::new(),
        }
    }

    /// Checks that `board` can hold an opening under `rule`: empty, and large enough for the
    /// rule's central squares.
    ///
    /// # Errors
    /// [`OpeningError::Board`] saying what is wrong.
    pub fn check_start(rule: OpeningRule, board: &Board) -> Result<(), OpeningError> {
        if board.ply() > 0 {
            return Err(OpeningError::Board(format!(
                "a {rule} opening starts from the empty board"
            )));
        }
        if board.size() < rule.min_size() || board.size() % 2 == 0 {
            return Err(OpeningError::Board(format!(
                "a {rule} opening needs a board with a centre point, at least {n}x{n} (15x15 \
                 in tournaments)",
                n = rule.min_size()
            )));
        }
        Ok(())
    }

    /// The rule.
    #[must_use]
    pub fn rule(&self) -> OpeningRule {
        self.rule
    }

    /// The step under way; `None` once the opening is over.
    #[must_use]
    pub fn step(&self) -> Option<Step> {
        self.step
    }

    /// Whether the opening is over (the colours are settled and White plays the 6th move).
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.step.is_none()
    }

    /// Who acts now (the player who acted last once the opening is over).
    #[must_use]
    pub fn actor(&self) -> Seat {
        self.actor
    }

    /// Who holds Black now.
    #[must_use]
    pub fn black(&self) -> Seat {
        self.black
    }

    /// Who holds `color` now.
    #[must_use]
    pub fn holder(&self, color: Color) -> Seat {
        match color {
            Color::Black => self.black,
            Color::White => self.black.other(),
        }
    }

    /// The colour `seat` holds now.
    #[must_use]
    pub fn color_of(&self, seat: Seat) -> Color {
        if seat == self.black {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Stones put down so far.
    #[must_use]
    pub fn stones(&self) -> usize {
        self.stones
    }

    /// Soosõrv-8: the number of offers White declared.
    #[must_use]
    pub fn declared(&self) -> Option<usize> {
        self.declared
    }

    /// The fifth moves offered so far.
    #[must_use]
    pub fn offers(&self) -> &[Pos] {
        &self.offers
    }

    /// Every action so far, with its actor, in order.
    #[must_use]
    pub fn actions(&self) -> &[(Seat, Action)] {
        &self.actions
    }

    /// An error for `action`, which does not fit the step under way.
    fn unexpected(&self, step: Step, action: Action, size: usize) -> OpeningError {
        OpeningError::Unexpected {
            rule: self.rule.title(),
            step: step.to_string(),
            action: action.describe(size),
        }
    }

    /// A black stone or offer on `p`: on the board, empty and not forbidden.
    fn check_point(board: &Board, p: Pos, black: bool) -> Result<(), OpeningError> {
        if !board.contains(p) {
            return Err(OpeningError::OffBoard);
        }
        let point = format_pos(p, board.size());
        if !board.is_empty(p) {
            return Err(OpeningError::Occupied { point });
        }
        if black && board.rule().has_forbidden() {
            if let Some(kind) = board.clone().forbidden_kind(p) {
                return Err(OpeningError::Forbidden { point, kind });
            }
        }
        Ok(())
    }

    /// A stone number `number` on `p`: a free point of its area.
    fn check_stone(&self, board: &Board, p: Pos, number: usize) -> Result<(), OpeningError> {
        Opening::check_point(board, p, number % 2 == 1)?;
        let area = self.rule.area(number);
        if !area.contains(board, p) {
            return Err(OpeningError::OutsideArea {
                rule: self.rule.title(),
                number,
                point: format_pos(p, board.size()),
                area,
            });
        }
        Ok(())
    }

    /// Whether fifth move `p` mirrors fifth move `q` on `board` (the 4 stones before the
    /// fifth): a symmetry of the position maps one onto the other.
    #[must_use]
    pub fn mirrors(board: &Board, p: Pos, q: Pos) -> bool {
        board
            .symmetries()
            .into_iter()
            .any(|t| board.transform(p, t) == q)
    }

    /// Checks `action` against the step under way and `board` (the game so far), and moves
    /// the opening on; returns the stone to put down, if the action puts one down. The
    /// opening is unchanged on an error.
    ///
    /// # Errors
    /// Why the action does not fit (see [`OpeningError`]).
    pub fn advance(&mut self, board: &Board, action: Action) -> Result<Option<Pos>, OpeningError> {
        let Some(step) = self.step else {
            return Err(OpeningError::Over);
        };
        if board.stone_count() != self.stones || board.ply() != self.stones {
            return Err(OpeningError::Board(format!(
                "the board holds {} moves, the opening {} stones",
                board.ply(),
                self.stones
            )));
        }
        let size = board.size();
        let rule = self.rule;
        let mut next = self.clone();
        let stone = match (step, action) {
            (Step::Stone { number, .. }, Action::Stone(p)) => {
                self.check_stone(board, p, number)?;
                next.stones += 1;
                Some(p)
            }
            (Step::Swap, Action::Swap) => {
                next.black = self.black.other();
                None
            }
            (Step::Swap, Action::Keep) => None,
            (Step::Declare { max }, Action::Declare(n)) => {
                if !(1..=max).contains(&n) {
                    return Err(OpeningError::BadCount {
                        rule: rule.title(),
                        count: n,
                        allowed: format!("White declares 1 to {max}"),
                    });
                }
                next.declared = Some(n);
                None
            }
            (Step::Fifth { area, .. }, Action::Stone(p)) => {
                Opening::check_point(board, p, true)?;
                if !area.contains(board, p) {
                    return Err(OpeningError::OutsideArea {
                        rule: rule.title(),
                        number: 5,
                        point: format_pos(p, size),
                        area,
                    });
                }
                next.stones += 1;
                Some(p)
            }
            (Step::Fifth { offers, .. }, Action::Declare(n)) => {
                if n != offers {
                    return Err(OpeningError::BadCount {
                        rule: rule.title(),
                        count: n,
                        allowed: format!("Black offers exactly {offers}"),
                    });
                }
                next.declared = Some(n);
                None
            }
            (Step::Offer { .. }, Action::Offer(p)) => {
                Opening::check_point(board, p, true)?;
                let point = format_pos(p, size);
                if self.offers.contains(&p) {
                    return Err(OpeningError::AlreadyOffered { point });
                }
                if let Some(&q) = self.offers.iter().find(|&&q| Opening::mirrors(board, p, q)) {
                    return Err(OpeningError::Symmetrical {
                        point,
                        other: format_pos(q, size),
                    });
                }
                next.offers.push(p);
                None
            }
            (Step::Choose, Action::Choose(p)) => {
                if !self.offers.contains(&p) {
                    return Err(OpeningError::NotOffered {
                        point: format_pos(p, size),
                        offers: self.offers.iter().map(|&q| format_pos(q, size)).collect(),
                    });
                }
                next.stones += 1;
                Some(p)
            }
            _ => return Err(self.unexpected(step, action, size)),
        };
        next.actions.push((self.actor, action));
        next.step_on(step, action);
        *self = next;
        Ok(stone)
    }

    /// Moves to the step after `step`, where `action` was taken (already counted).
    fn step_on(&mut self, step: Step, action: Action) {
        let n = self.stones;
        let holder = |o: &Opening, c: Color| o.holder(c);
        // the colour of stone `k`
        let color = |k: usize| {
            if k % 2 == 1 {
                Color::Black
            } else {
                Color::White
            }
        };
        let stone = |o: &Opening, k: usize| -> (Step, Seat) {
            (
                Step::Stone {
                    number: k,
                    area: o.rule.area(k),
                },
                holder(o, color(k)),
            )
        };
        let (next, actor) = match (self.rule, step, action) {
            // Soosõrv-8: the first player's three stones, a swap, the 4th and the number of
            // offers, a swap, the offers, White's choice
            (OpeningRule::Soosorv8, Step::Stone { .. }, _) if n < 3 => (
                Step::Stone {
                    number: n + 1,
                    area: self.rule.area(n + 1),
                },
                Seat::First,
            ),
            (OpeningRule::Soosorv8, Step::Stone { .. }, _) if n == 3 => {
                (Step::Swap, holder(self, Color::White))
            }
            (OpeningRule::Soosorv8, Step::Swap, _) if n == 3 => stone(self, 4),
            (OpeningRule::Soosorv8, Step::Stone { .. }, _) => (
                Step::Declare {
                    max: self.rule.max_offers(),
                },
                holder(self, Color::White),
            ),
            (OpeningRule::Soosorv8, Step::Declare { .. }, _) => {
                (Step::Swap, holder(self, Color::Black))
            }
            (OpeningRule::Soosorv8, Step::Swap, _) => (
                Step::Offer {
                    made: 0,
                    count: self.declared.unwrap_or(1),
                },
                holder(self, Color::Black),
            ),
            // Taraguchi-10: a stone, a swap, ..., the 4th, a swap, then one 5th (and a swap)
            // or ten offers
            (OpeningRule::Taraguchi10, Step::Stone { .. }, _) => {
                (Step::Swap, holder(self, color(n + 1)))
            }
            (OpeningRule::Taraguchi10, Step::Swap, _) if n < 4 => stone(self, n + 1),
            (OpeningRule::Taraguchi10, Step::Swap, _) if n == 4 => (
                Step::Fifth {
                    area: self.rule.area(5),
                    offers: self.rule.max_offers(),
                },
                holder(self, Color::Black),
            ),
            (OpeningRule::Taraguchi10, Step::Fifth { .. }, Action::Stone(_)) => {
                (Step::Swap, holder(self, Color::White))
            }
            (OpeningRule::Taraguchi10, Step::Fifth { offers, .. }, _) => (
                Step::Offer {
                    made: 0,
                    count: offers,
                },
                holder(self, Color::Black),
            ),
            // both: the offers, then White's choice; the 5th stone ends the opening
            (_, Step::Offer { count, .. }, _) if self.offers.len() < count => (
                Step::Offer {
                    made: self.offers.len(),
                    count,
                },
                holder(self, Color::Black),
            ),
            (_, Step::Offer { .. }, _) => (Step::Choose, holder(self, Color::White)),
            (OpeningRule::Taraguchi10, Step::Swap, _) | (_, Step::Choose, _) => {
                self.step = None;
                self.actor = holder(self, Color::White);
                return;
            }
            // no other step exists: the opening is over
            (_, Step::Declare { .. } | Step::Fifth { .. }, _) => {
                self.step = None;
                return;
            }
        };
        self.step = Some(next);
        self.actor = actor;
    }

    /// Checks `action` and plays the stone it puts down, if any, on `game`.
    ///
    /// # Errors
    /// Why the action does not fit; the opening and the game are unchanged then.
    pub fn apply(&mut self, game: &mut Game, action: Action) -> Result<(), OpeningError> {
        let mut next = self.clone();
        if let Some(p) = next.advance(game.board(), action)? {
            game.play(p)
                .map_err(|e| OpeningError::Board(e.to_string()))?;
        }
        *self = next;
        Ok(())
    }

    /// Takes back the last action (its stone too, from `game`) and returns it; `None` when
    /// there is none.
    pub fn undo(&mut self, game: &mut Game) -> Option<(Seat, Action)> {
        let last = *self.actions.last()?;
        if matches!(last.1, Action::Stone(_) | Action::Choose(_)) && game.undo().is_none() {
            return None;
        }
        let mut board = game.board().clone();
        while board.ply() > 0 {
            board.undo();
        }
        let mut o = Opening::new(self.rule);
        for &(_, a) in &self.actions[..self.actions.len() - 1] {
            // the actions were accepted once, on the same stones
            if let Ok(Some(p)) = o.advance(&board, a) {
                board.play(p);
            }
        }
        *self = o;
        Some(last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_pos;
    use crate::types::Rule;

    fn pt(s: &str) -> Pos {
        parse_pos(s, 15).expect("point")
    }

    fn game() -> Game {
        Game::new(15, Rule::Renju).expect("game")
    }

    /// Plays `script` (`stone h8`, `swap`, `keep`, `declare 3`, `offer j7`, `choose j7`),
    /// checking the actor before each action (`1` or `2` before a word: `1:stone h8`).
    fn play(rule: OpeningRule, script: &str) -> (Opening, Game) {
        let mut o = Opening::new(rule);
        let mut g = game();
        for word in script.split(',').map(str::trim) {
            let (who, act) = word.split_once(':').expect("seat:action");
            let seat = if who == "1" {
                Seat::First
            } else {
                Seat::Second
            };
            assert_eq!(o.actor(), seat, "{word}: the actor, at {:?}", o.step());
            let a = action(act);
            o.apply(&mut g, a).unwrap_or_else(|e| panic!("{word}: {e}"));
        }
        (o, g)
    }

    fn action(text: &str) -> Action {
        let (verb, arg) = text.split_once(' ').unwrap_or((text, ""));
        match verb {
            "stone" => Action::Stone(pt(arg)),
            "swap" => Action::Swap,
            "keep" => Action::Keep,
            "declare" => Action::Declare(arg.parse().expect("n")),
            "offer" => Action::Offer(pt(arg)),
            "choose" => Action::Choose(pt(arg)),
            _ => panic!("{text}"),
        }
    }

    #[test]
    fn soosorv_goes_step_by_step() {
        let (o, g) = play(
            OpeningRule::Soosorv8,
            "1:stone h8, 1:stone h9, 1:stone i9, 2:swap, 1:stone g9, 1:declare 2, \
             2:keep, 2:offer j10, 2:offer g7, 1:choose g7",
        );
        assert!(o.is_over());
        assert_eq!(
            o.black(),
            Seat::Second,
            "the swap gave Black to the second player"
        );
        assert_eq!(o.actor(), Seat::First, "White plays the 6th move");
        assert_eq!(g.board().position_string(), "h8 h9 i9 g9 g7");
        assert_eq!(o.declared(), Some(2));
    }

    #[test]
    fn taraguchi_goes_step_by_step_both_ways() {
        let (o, g) = play(
            OpeningRule::Taraguchi10,
            "1:stone h8, 2:keep, 2:stone i9, 1:swap, 2:stone j8, 1:keep, 1:stone g10, \
             2:keep, 2:stone k7, 1:swap",
        );
        assert!(o.is_over());
        assert_eq!(
            o.black(),
            Seat::First,
            "two swaps: the first player is Black again"
        );
        assert_eq!(o.actor(), Seat::Second, "White plays the 6th move");
        assert_eq!(g.board().position_string(), "h8 i9 j8 g10 k7");
        let mut script = String::from(
            "1:stone h8, 2:keep, 2:stone i9, 1:keep, 1:stone j8, 2:keep, 2:stone g10, 1:keep, \
             1:declare 10",
        );
        for p in ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "j1"] {
            script.push_str(&format!(", 1:offer {p}"));
        }
        script.push_str(", 2:choose d1");
        let (o, g) = play(OpeningRule::Taraguchi10, &script);
        assert!(o.is_over());
        assert_eq!(o.black(), Seat::First);
        assert_eq!(g.board().position_string(), "h8 i9 j8 g10 d1");
        assert_eq!(o.offers().len(), 10);
    }

    #[test]
    fn wrong_steps_are_refused_with_the_rule_and_change_nothing() {
        let (o, g) = play(OpeningRule::Taraguchi10, "1:stone h8, 2:keep");
        let cases: [(Action, &str); 5] = [
            (
                Action::Stone(pt("j10")),
                "under Taraguchi-10 the 2nd stone goes in the central 3x3 square",
            ),
            (Action::Stone(pt("h8")), "h8 is already occupied"),
            (
                Action::Swap,
                "waits for stone 2 (white) in the central 3x3 square, not 'swap'",
            ),
            (Action::Declare(3), "not 'declare 3'"),
            (Action::Choose(pt("i9")), "not 'choose i9'"),
        ];
        for (a, why) in cases {
            let (mut o2, mut g2) = (o.clone(), g.clone());
            let e = o2.apply(&mut g2, a).expect_err("refused").to_string();
            assert!(e.contains(why), "{a:?}: {e}");
            assert_eq!(o2, o);
            assert_eq!(g2.board().position_string(), g.board().position_string());
        }
        // Soosõrv-8: the 3rd stone in the 5x5 square, at most 8 offers, symmetrical offers
        let (o, g) = play(OpeningRule::Soosorv8, "1:stone h8, 1:stone h9");
        let e = o
            .clone()
            .apply(&mut g.clone(), Action::Stone(pt("h11")))
            .expect_err("outside");
        assert!(e.to_string().contains("one of the 26 openings"), "{e}");
        let (o, g) = play(
            OpeningRule::Soosorv8,
            "1:stone h8, 1:stone h9, 1:stone h10, 2:keep, 2:stone h11",
        );
        let e = o
            .clone()
            .apply(&mut g.clone(), Action::Declare(9))
            .expect_err("9");
        assert_eq!(
            e.to_string(),
            "Soosõrv-8: White declares 1 to 8 fifth-move offers, not 9"
        );
        assert!(o.clone().apply(&mut g.clone(), Action::Declare(0)).is_err());
        // the four stones are on one line through the centre: g7 mirrors i7
        let (o, g) = play(
            OpeningRule::Soosorv8,
            "1:stone h8, 1:stone h9, 1:stone h10, 2:keep, 2:stone h11, 2:declare 2, 1:keep, \
             1:offer g7",
        );
        let e = o
            .clone()
            .apply(&mut g.clone(), Action::Offer(pt("i7")))
            .expect_err("mirror");
        assert_eq!(
            e.to_string(),
            "i7 mirrors the offer g7: no two fifth-move offers may be symmetrical"
        );
        let e = o
            .clone()
            .apply(&mut g.clone(), Action::Offer(pt("g7")))
            .expect_err("again");
        assert_eq!(e.to_string(), "g7 is already offered");
        let (mut o, mut g) = (o, g);
        o.apply(&mut g, Action::Offer(pt("g6")))
            .expect("another offer");
        let e = o
            .clone()
            .apply(&mut g.clone(), Action::Choose(pt("i7")))
            .expect_err("not offered");
        assert_eq!(e.to_string(), "i7 was not offered (the offers: g7 g6)");
        assert!(o
            .clone()
            .apply(&mut g.clone(), Action::Choose(pt("g6")))
            .is_ok());
        // over
        o.apply(&mut g, Action::Choose(pt("g7"))).expect("choose");
        assert_eq!(o.apply(&mut g, Action::Keep), Err(OpeningError::Over));
    }

    #[test]
    fn undo_takes_back_the_last_action() {
        let (mut o, mut g) = play(
            OpeningRule::Soosorv8,
            "1:stone h8, 1:stone h9, 1:stone i9, 2:swap, 1:stone g9, 1:declare 2",
        );
        let before = o.clone();
        assert_eq!(o.undo(&mut g), Some((Seat::First, Action::Declare(2))));
        assert_eq!(o.step(), Some(Step::Declare { max: 8 }));
        assert_eq!(o.undo(&mut g), Some((Seat::First, Action::Stone(pt("g9")))));
        assert_eq!(g.board().position_string(), "h8 h9 i9");
        assert_eq!(o.black(), Seat::Second, "the swap holds");
        o.apply(&mut g, Action::Stone(pt("g9"))).expect("again");
        o.apply(&mut g, Action::Declare(2)).expect("again");
        assert_eq!(o, before);
    }

    #[test]
    fn rule_names_read_back() {
        for r in OpeningRule::ALL {
            assert_eq!(r.name().parse::<OpeningRule>(), Ok(r));
            assert_eq!(r.title().parse::<OpeningRule>(), Ok(r));
        }
        assert_eq!(
            "Soosorv-8".parse::<OpeningRule>(),
            Ok(OpeningRule::Soosorv8)
        );
        assert!("swap2".parse::<OpeningRule>().is_err());
    }

    #[test]
    fn the_board_must_be_empty_and_large_enough() {
        let b = Board::new(15, Rule::Renju).expect("board");
        assert!(Opening::check_start(OpeningRule::Taraguchi10, &b).is_ok());
        let b = Board::new(7, Rule::Renju).expect("board");
        assert!(Opening::check_start(OpeningRule::Taraguchi10, &b).is_err());
        assert!(Opening::check_start(OpeningRule::Soosorv8, &b).is_ok());
        let b = Board::new(16, Rule::Renju).expect("board");
        assert!(Opening::check_start(OpeningRule::Soosorv8, &b).is_err());
        let g = Game::from_position(15, Rule::Renju, "h8").expect("game");
        assert!(Opening::check_start(OpeningRule::Soosorv8, g.board()).is_err());
    }
}
