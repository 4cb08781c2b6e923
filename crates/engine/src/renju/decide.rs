//! The engine's decisions in a Soosõrv-8 or Taraguchi-10 opening, each made by search within
//! the time (or node budget) it is given:
//!
//! - **stones in a central square** (the first player's three under Soosõrv-8, one at a time
//!   under Taraguchi-10): the opponent may swap next, so the stones whose position is nearest
//!   to even;
//! - **swap or keep**: the colour whose value is better (below `-EVEN` for the colour held, it
//!   swaps). Where the rule decides what the fifth move will be, the value is the rule's: with
//!   N offers White takes the worst of Black's N best fifth moves, so Black's value is that of
//!   its N-th best; a single Taraguchi-10 fifth faces a swap, so it is worth no more than the
//!   fifth nearest to even;
//! - **the 4th stone and the number of offers** (Soosõrv-8): of White's best 4th stones, the
//!   one and the number N whose N-th best fifth move for Black is nearest to even, since Black
//!   may swap next;
//! - **the offers**: Black's best fifth moves, none forbidden, no two symmetrical (White takes
//!   the one worst for Black, so all of them are to be good for Black); under Taraguchi-10,
//!   ten offers rather than one fifth when the tenth best is worth more than a single fifth;
//! - **the choice among offers**: the offer after which White's value is best.
//!
//! Values come from the [`Searcher`](crate::study::Searcher) with every root move searched to an exact value where
//! several are compared. The decision's time is shared between its searches (the searches
//! report their own elapsed time: this module reads no clock).

use super::names::OPENINGS;
use super::rules::{Action, Area, Opening, OpeningRule, Step};
use crate::board::Board;
pub use crate::decision::Context;
use crate::rng::{Rng, XorShift64};
use crate::search::score::{format_score, Score};
use crate::search::{SearchOptions, SearchResult, ValueBound};
use crate::types::{Color, Pos};
use std::sync::atomic::Ordering;

/// A value within this many points of zero counts as even: keeping the colour held is as good
/// as swapping.
pub const EVEN: Score = 50;

/// How many of the 26 openings the first player of a Soosõrv-8 opening searches.
const OPENING_CANDIDATES: usize = 8;

/// How many 4th stones White compares under Soosõrv-8.
const FOURTH_CANDIDATES: usize = 4;

/// The actions of the player to act in `opening` on `board` (the game so far), in order:
/// everything it does until the other player acts or the opening is over (three stones, a
/// swap, the 4th stone and a number of offers, the offers, a choice, ...). Every action fits
/// the rule: when a search finds nothing that does, [`fallback`] stands in.
#[must_use]
pub fn decide(cx: &mut Context<'_>, opening: &Opening, board: &Board) -> Vec<Action> {
    let mut d = Decider {
        cx,
        spent_ms: 0,
        fifths: None,
    };
    let me = opening.actor();
    let mut o = opening.clone();
    let mut b = board.clone();
    let mut actions = Vec::new();
    while let Some(step) = o.step() {
        if o.actor() != me {
            break;
        }
        let mut batch = d.step(&o, &b, step);
        if batch.is_empty() {
            batch.push(fallback(&o, &b));
        }
        let made = actions.len();
        for a in batch {
            let a = match o.clone().advance(&b, a) {
                Ok(_) => a,
                Err(e) => {
                    let f = fallback(&o, &b);
                    d.note(format!(
                        "{}: {} does not fit ({e}); {} instead",
                        o.rule().name(),
                        a.describe(b.size()),
                        f.describe(b.size())
                    ));
                    f
                }
            };
            match o.advance(&b, a) {
                Ok(stone) => {
                    if let Some(p) = stone {
                        b.play(p);
                    }
                    actions.push(a);
                }
                Err(_) => break,
            }
            if o.actor() != me || o.is_over() {
                break;
            }
        }
        if actions.len() == made {
            break; // no progress: leave the rest to the caller's fallback
        }
    }
    actions
}

/// An action that fits the step under way and needs no search: the free point nearest the
/// centre (of the area, not forbidden to Black, not mirroring an offer), keeping the colour
/// held, the most offers, the first offer.
#[must_use]
pub fn fallback(opening: &Opening, board: &Board) -> Action {
    let step = opening.step().unwrap_or(Step::Swap);
    let mut b = board.clone();
    let black = b.to_move() == Color::Black;
    let mut nearest = |area: Area, avoid: &[Pos]| -> Pos {
        let mut pts: Vec<Pos> = b
            .points()
            .filter(|&p| b.is_empty(p) && area.contains(&b, p))
            .collect();
        pts.sort_by_key(|&p| centre_order(&b, p));
        pts.into_iter()
            .find(|&p| {
                let forbidden = black && b.rule().has_forbidden() && b.is_forbidden(p);
                let mirrored = avoid.iter().any(|&q| Opening::mirrors(board, p, q));
                !forbidden && !mirrored
            })
            .unwrap_or(Pos::NONE)
    };
    match step {
        Step::Stone { area, .. } => Action::Stone(nearest(area, &[])),
        Step::Swap => Action::Keep,
        Step::Declare { max } => Action::Declare(max),
        Step::Fifth { area, .. } => Action::Stone(nearest(area, &[])),
        Step::Offer { .. } => Action::Offer(nearest(Area::Anywhere, opening.offers())),
        Step::Choose => Action::Choose(opening.offers().first().copied().unwrap_or(Pos::NONE)),
    }
}

/// Sorts points from the centre outwards (ring, then distance, then index).
fn centre_order(b: &Board, p: Pos) -> (usize, usize, usize) {
    let c = b.centre();
    let (dx, dy) = (p.x().abs_diff(c.x()), p.y().abs_diff(c.y()));
    (dx.max(dy), dx + dy, p.index())
}

/// One decision in progress: the context, the time spent so far, and Black's fifth moves once
/// searched.
struct Decider<'c, 'a> {
    cx: &'c mut Context<'a>,
    spent_ms: u64,
    /// Black's fifth moves (distinct, allowed, best first) for the position of this key.
    fifths: Option<(u64, Vec<(Pos, Score)>)>,
}

impl Decider<'_, '_> {
    fn note(&mut self, text: String) {
        (self.cx.note)(text);
    }

    fn stopped(&self) -> bool {
        self.cx.stop.load(Ordering::Relaxed)
    }

    /// Searches `board` with `share` (0 to 1) of the decision's time left.
    fn search(&mut self, board: &Board, share: f64, options: &SearchOptions) -> SearchResult {
        let mut limits = self.cx.limits.clone();
        limits.game_time_left_ms = None;
        limits.margin_ms = 0;
        limits.iteration_start_pct = None;
        if let Some(t) = self.cx.time_ms {
            let left = t.saturating_sub(self.spent_ms);
            limits.move_time_ms = Some(((left as f64 * share.clamp(0.0, 1.0)) as u64).max(1));
        }
        let r = self
            .cx
            .searcher
            .search(board, &limits, options, self.cx.stop, &mut |_| {});
        self.spent_ms += r.elapsed_ms;
        r
    }

    /// The actions for `step` (the actor's), before they are checked.
    fn step(&mut self, o: &Opening, b: &Board, step: Step) -> Vec<Action> {
        let rule = o.rule();
        match step {
            Step::Stone { number: 1, .. } => vec![Action::Stone(b.centre())],
            Step::Stone { number: 2, .. } if rule == OpeningRule::Soosorv8 => {
                self.propose_opening(b)
            }
            Step::Stone { number: 4, .. } if rule == OpeningRule::Soosorv8 => {
                self.fourth_and_count(b)
            }
            Step::Stone { number, area } => self.even_stone(b, number, area).into_iter().collect(),
            Step::Swap => vec![self.swap_or_keep(o, b)],
            Step::Declare { max } => {
                let fifths = self.fifths(b, 1.0);
                let (n, v) = best_count(&fifths, max);
                self.note(format!(
                    "{}: {n} offers: Black's {} best fifth move is worth {}",
                    rule.name(),
                    nth(n),
                    format_score(v)
                ));
                vec![Action::Declare(n)]
            }
            Step::Fifth { area, offers } => vec![self.fifth_or_offers(b, area, offers)],
            Step::Offer { made, count } => self.offers(o, b, count - made),
            Step::Choose => self.choose(o, b).into_iter().collect(),
        }
    }

    /// Soosõrv-8's first three stones: of a few of the 26 openings (drawn from the seed, in
    /// an orientation drawn too), the one whose value is nearest to even.
    fn propose_opening(&mut self, b: &Board) -> Vec<Action> {
        let mut rng = XorShift64::from_seed(self.cx.seed);
        let mut order: Vec<usize> = (0..OPENINGS.len()).collect();
        rng.shuffle(&mut order);
        let t = rng.below(8);
        order.truncate(OPENING_CANDIDATES);
        let n = order.len();
        let mut best: Option<(Score, [Pos; 3])> = None;
        for (i, k) in order.into_iter().enumerate() {
            if i > 0 && self.stopped() {
                break;
            }
            let Some(stones) = OPENINGS[k].stones(b) else {
                continue;
            };
            let stones = stones.map(|p| b.transform(p, t));
            // the 1st stone is down already, on the centre
            let mut pos = b.clone();
            if stones[1..].iter().any(|&p| pos.try_play(p).is_err()) {
                continue;
            }
            let r = self.search(&pos, 1.0 / (n - i) as f64, &SearchOptions::default());
            self.note(format!(
                "soosorv8: {} ({}) is worth {} for White (depth {})",
                OPENINGS[k],
                stones.map(|p| b.fmt_pos(p)).join(" "),
                format_score(r.score),
                r.depth
            ));
            if best.as_ref().is_none_or(|(v, _)| r.score.abs() < *v) {
                best = Some((r.score.abs(), stones));
            }
        }
        let Some((_, stones)) = best else {
            return Vec::new();
        };
        // the centre is down already
        stones[1..].iter().map(|&p| Action::Stone(p)).collect()
    }

    /// Stone `number` in `area`: the one after which the position is nearest to even (the
    /// opponent may swap next).
    fn even_stone(&mut self, b: &Board, number: usize, area: Area) -> Option<Action> {
        let exclude: Vec<Pos> = b
            .points()
            .filter(|&p| b.is_empty(p) && !area.contains(b, p))
            .collect();
        let options = SearchOptions {
            all_root_values: true,
            exclude,
            ..SearchOptions::default()
        };
        let r = self.search(b, 1.0, &options);
        let mut pos = b.clone();
        let black = b.to_move() == Color::Black && b.rule().has_forbidden();
        let best = r
            .root_moves
            .iter()
            .filter(|m| m.bound == ValueBound::Exact && area.contains(b, m.pos))
            .filter(|m| b.is_empty(m.pos) && !(black && pos.is_forbidden(m.pos)))
            .min_by_key(|m| m.score.abs())?;
        self.note(format!(
            "stone {number} on {}: the position is worth {} for {} (depth {}), the nearest to \
             even {area}",
            b.fmt_pos(best.pos),
            format_score(best.score),
            title(b.to_move()),
            best.depth
        ));
        Some(Action::Stone(best.pos))
    }

    /// Black's fifth moves on `b` (4 stones, Black to move): every candidate's exact value,
    /// best first, points forbidden to Black and mirror images of a better one left out.
    fn fifths(&mut self, b: &Board, share: f64) -> Vec<(Pos, Score)> {
        if let Some((key, list)) = &self.fifths {
            if *key == b.key() {
                return list.clone();
            }
        }
        let options = SearchOptions {
            all_root_values: true,
            ..SearchOptions::default()
        };
        let r = self.search(b, share, &options);
        let mut pos = b.clone();
        let renju = b.rule().has_forbidden();
        let mut list: Vec<(Pos, Score)> = Vec::new();
        let mut moves: Vec<_> = r
            .root_moves
            .iter()
            .filter(|m| m.pos.is_point() && b.is_empty(m.pos))
            .collect();
        // exact values first, in order; bounds after them
        moves.sort_by_key(|m| (m.bound != ValueBound::Exact, -m.score));
        for m in moves {
            if renju && pos.is_forbidden(m.pos) {
                continue;
            }
            if list.iter().any(|&(q, _)| Opening::mirrors(b, m.pos, q)) {
                continue;
            }
            list.push((m.pos, m.score));
        }
        self.fifths = Some((b.key(), list.clone()));
        list
    }

    /// Swap or keep: the value of the colour held (the side to move), as the rule makes it.
    fn swap_or_keep(&mut self, o: &Opening, b: &Board) -> Action {
        let rule = o.rule();
        let held = b.to_move();
        let (value, how) = match (rule, o.stones()) {
            (OpeningRule::Soosorv8, 4) => {
                let n = o.declared().unwrap_or(1);
                let fifths = self.fifths(b, 1.0);
                let v = nth_value(&fifths, n);
                (
                    v,
                    format!(
                        "Black's {} best fifth move is worth {}",
                        nth(n),
                        format_score(v)
                    ),
                )
            }
            (OpeningRule::Taraguchi10, 4) => {
                let fifths = self.fifths(b, 1.0);
                let ten = nth_value(&fifths, rule.max_offers());
                let one = nearest_even(&fifths, b, rule.area(5)).map_or(ten, |(_, v)| -v.abs());
                let v = ten.max(one);
                (
                    v,
                    format!(
                        "Black's 5th is worth {} (ten offers {}, one fifth at best {})",
                        format_score(v),
                        format_score(ten),
                        format_score(one)
                    ),
                )
            }
            _ => {
                let share = if o.rule() == OpeningRule::Taraguchi10 && o.stones() == 5 {
                    1.0
                } else {
                    0.35
                };
                let r = self.search(b, share, &SearchOptions::default());
                (
                    r.score,
                    format!(
                        "{}'s value is {} (depth {})",
                        title(held),
                        format_score(r.score),
                        r.depth
                    ),
                )
            }
        };
        let swap = value < -EVEN;
        self.note(format!(
            "{}: {how}: {} {}",
            rule.name(),
            if swap { "swapping, leaving" } else { "keeping" },
            title(held)
        ));
        if swap {
            Action::Swap
        } else {
            Action::Keep
        }
    }

    /// Soosõrv-8's 4th stone and number of offers: of White's best 4th stones, the one and the
    /// number N whose N-th best fifth move for Black is nearest to even.
    fn fourth_and_count(&mut self, b: &Board) -> Vec<Action> {
        let max = OpeningRule::Soosorv8.max_offers();
        let options = SearchOptions {
            all_root_values: true,
            ..SearchOptions::default()
        };
        let r = self.search(b, 1.0 / (FOURTH_CANDIDATES + 1) as f64, &options);
        let mut cands: Vec<Pos> = Vec::new();
        let mut moves: Vec<_> = r.root_moves.iter().filter(|m| b.is_empty(m.pos)).collect();
        moves.sort_by_key(|m| (m.bound != ValueBound::Exact, -m.score));
        for m in moves {
            if cands.len() == FOURTH_CANDIDATES {
                break;
            }
            if !cands.iter().any(|&q| Opening::mirrors(b, m.pos, q)) {
                cands.push(m.pos);
            }
        }
        let n = cands.len();
        let mut best: Option<(Score, Pos, usize)> = None;
        for (i, c) in cands.into_iter().enumerate() {
            if i > 0 && self.stopped() {
                break;
            }
            let mut pos = b.clone();
            pos.play(c);
            let fifths = self.fifths(&pos, 1.0 / (n - i) as f64);
            let (count, v) = best_count(&fifths, max);
            self.note(format!(
                "soosorv8: 4th on {} with {count} offers: Black's {} best fifth move is worth {}",
                b.fmt_pos(c),
                nth(count),
                format_score(v)
            ));
            if best.as_ref().is_none_or(|(off, _, _)| v.abs() < *off) {
                best = Some((v.abs(), c, count));
            }
        }
        match best {
            Some((_, c, count)) => vec![Action::Stone(c), Action::Declare(count)],
            None => Vec::new(),
        }
    }

    /// Taraguchi-10's 5th: ten offers when the tenth best fifth move is worth more to Black
    /// than the single fifth nearest to even (which the opponent may swap), else that fifth.
    fn fifth_or_offers(&mut self, b: &Board, area: Area, offers: usize) -> Action {
        let fifths = self.fifths(b, 1.0);
        let ten = nth_value(&fifths, offers);
        let one = nearest_even(&fifths, b, area);
        match one {
            Some((p, v)) if -v.abs() >= ten || fifths.len() < offers => {
                self.note(format!(
                    "taraguchi10: one fifth on {} worth {} (ten offers would be worth {})",
                    b.fmt_pos(p),
                    format_score(v),
                    format_score(ten)
                ));
                Action::Stone(p)
            }
            _ => {
                self.note(format!(
                    "taraguchi10: {offers} offers: the {} best fifth move is worth {}",
                    nth(offers),
                    format_score(ten)
                ));
                Action::Declare(offers)
            }
        }
    }

    /// `count` more offers: Black's best fifth moves that are not offered yet and mirror no
    /// offer, then (when the search valued too few) the free points nearest the centre.
    fn offers(&mut self, o: &Opening, b: &Board, count: usize) -> Vec<Action> {
        let fifths = self.fifths(b, 1.0);
        let mut chosen: Vec<Pos> = o.offers().to_vec();
        let mut out = Vec::new();
        for &(p, _) in &fifths {
            if out.len() == count {
                break;
            }
            if !chosen.iter().any(|&q| q == p || Opening::mirrors(b, p, q)) {
                chosen.push(p);
                out.push(Action::Offer(p));
            }
        }
        let valued = out.len();
        while out.len() < count {
            let mut scratch = o.clone();
            for &p in &chosen[o.offers().len()..] {
                // already checked: an offer does not change the board
                let _ = scratch.advance(b, Action::Offer(p));
            }
            let Action::Offer(p) = fallback(&scratch, b) else {
                break;
            };
            if !p.is_point() {
                break;
            }
            chosen.push(p);
            out.push(Action::Offer(p));
        }
        let list: Vec<String> = out
            .iter()
            .filter_map(|a| match a {
                Action::Offer(p) => Some(b.fmt_pos(*p)),
                _ => None,
            })
            .collect();
        let worst = fifths
            .get(valued.saturating_sub(1))
            .map_or_else(|| "?".to_string(), |&(_, v)| format_score(v));
        self.note(format!(
            "{}: offering {} (Black's best fifth moves, the last worth {worst})",
            o.rule().name(),
            list.join(" ")
        ));
        out
    }

    /// White's choice among the offers: the one after which White's value is best.
    fn choose(&mut self, o: &Opening, b: &Board) -> Option<Action> {
        let offers = o.offers().to_vec();
        let n = offers.len();
        let mut best: Option<(Score, Pos)> = None;
        for (i, p) in offers.into_iter().enumerate() {
            if i > 0 && self.stopped() {
                break;
            }
            let mut pos = b.clone();
            if pos.try_play(p).is_err() {
                continue;
            }
            let r = self.search(&pos, 1.0 / (n - i) as f64, &SearchOptions::default());
            self.note(format!(
                "{}: after the fifth on {} White's value is {} (depth {})",
                o.rule().name(),
                b.fmt_pos(p),
                format_score(r.score),
                r.depth
            ));
            if best.as_ref().is_none_or(|(v, _)| r.score > *v) {
                best = Some((r.score, p));
            }
        }
        let (v, p) = best?;
        self.note(format!(
            "{}: choosing {} (White's value {})",
            o.rule().name(),
            b.fmt_pos(p),
            format_score(v)
        ));
        Some(Action::Choose(p))
    }
}

/// The value of Black's `n`-th best fifth move (the worst valued one when fewer are known).
fn nth_value(fifths: &[(Pos, Score)], n: usize) -> Score {
    fifths
        .get(n.saturating_sub(1))
        .or(fifths.last())
        .map_or(0, |&(_, v)| v)
}

/// The number of offers (1 to `max`) whose last offer's value is nearest to even, with that
/// value (fewer offers when the values tie).
fn best_count(fifths: &[(Pos, Score)], max: usize) -> (usize, Score) {
    (1..=max.min(fifths.len()).max(1))
        .map(|n| (n, nth_value(fifths, n)))
        .min_by_key(|&(n, v)| (v.abs(), n))
        .unwrap_or((1, 0))
}

/// The fifth move in `area` whose value is nearest to even.
fn nearest_even(fifths: &[(Pos, Score)], b: &Board, area: Area) -> Option<(Pos, Score)> {
    fifths
        .iter()
        .filter(|(p, _)| area.contains(b, *p))
        .min_by_key(|(_, v)| v.abs())
        .copied()
}

/// `Black` or `White`.
fn title(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, ...
fn nth(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
