//! Soosõrv-8 and Taraguchi-10 openings played to the sixth move between a scripted player and
//! the engine, the engine on either side, its decisions made under a small node budget (so
//! that every run is the same). Each step is checked against the rule (the area of every
//! stone, who may swap and when, the number of offers, the offers' symmetry, the choice), and
//! before every scripted action a few illegal ones are tried: each must be refused with a clear
//! reason and leave the game and the opening as they were.

use gomoku_engine::notation::parse_pos;
use gomoku_engine::renju::{
    self, decide, fallback, Action, Area, Context, Opening, OpeningRule, Seat, Step,
};
use gomoku_engine::{Color, Engine, EngineConfig, Game, Limits, Pos, Rule};
use std::sync::atomic::AtomicBool;

/// The node budget of each of the engine's searches.
const NODES: u64 = 3_000;

fn pt(s: &str) -> Pos {
    parse_pos(s, 15).expect("point")
}

/// How the scripted player acts where it has a choice.
#[derive(Clone, Copy, Debug)]
struct Script {
    /// Swap at its swap steps (alternately, starting with this).
    swap_first: bool,
    /// Soosõrv-8: the number of offers it declares.
    declare: usize,
    /// Taraguchi-10: ten offers rather than one 5th stone.
    ten: bool,
}

/// The scripted player's action: the free point nearest the centre where a stone or offer is
/// due, the swaps and numbers of its script, the last offer.
fn scripted(o: &Opening, g: &Game, script: &Script, swaps: &mut usize) -> Action {
    match o.step().expect("a step") {
        Step::Swap => {
            *swaps += 1;
            if (*swaps % 2 == 1) == script.swap_first {
                Action::Swap
            } else {
                Action::Keep
            }
        }
        Step::Declare { .. } => Action::Declare(script.declare),
        Step::Fifth { offers, .. } if script.ten => Action::Declare(offers),
        Step::Choose => Action::Choose(*o.offers().last().expect("offers")),
        _ => fallback(o, g.board()),
    }
}

/// Illegal actions at `o`'s step, each with a word its refusal must contain.
fn illegal(o: &Opening, g: &Game) -> Vec<(Action, &'static str)> {
    let occupied = g.board().moves().first().copied();
    let mut out = Vec::new();
    match o.step().expect("a step") {
        Step::Stone { area, .. } | Step::Fifth { area, .. } => {
            if area != Area::Anywhere {
                out.push((Action::Stone(pt("a1")), "goes"));
            }
            if let Some(p) = occupied {
                out.push((Action::Stone(p), "occupied"));
            }
            out.push((Action::Swap, "waits for"));
            out.push((Action::Choose(pt("a1")), "waits for"));
        }
        Step::Swap => {
            out.push((Action::Stone(pt("a1")), "waits for"));
            out.push((Action::Declare(3), "waits for"));
        }
        Step::Declare { max } => {
            out.push((Action::Declare(max + 1), "fifth-move offers"));
            out.push((Action::Declare(0), "fifth-move offers"));
            out.push((Action::Keep, "waits for"));
        }
        Step::Offer { .. } => {
            if let Some(p) = occupied {
                out.push((Action::Offer(p), "occupied"));
            }
            if let Some(&p) = o.offers().first() {
                out.push((Action::Offer(p), "already offered"));
            }
            out.push((Action::Choose(pt("a1")), "waits for"));
        }
        Step::Choose => {
            out.push((Action::Choose(pt("a1")), "was not offered"));
            out.push((Action::Offer(pt("a1")), "waits for"));
        }
    }
    out
}

/// Checks an action about to be taken at `o`'s step: every stone in its area, offers only
/// where due, and (for the engine) nothing forbidden to Black.
fn check_step(o: &Opening, g: &Game, a: Action) {
    let b = g.board();
    let step = o.step().expect("a step");
    match (step, a) {
        (Step::Stone { number, area }, Action::Stone(p)) => {
            assert!(area.contains(b, p), "stone {number} outside {area}");
            assert_eq!(area, o.rule().area(number));
        }
        (Step::Fifth { area, .. }, Action::Stone(p)) => assert!(area.contains(b, p)),
        (Step::Swap, Action::Swap | Action::Keep) => {}
        (Step::Declare { max }, Action::Declare(n)) => assert!((1..=max).contains(&n)),
        (Step::Fifth { offers, .. }, Action::Declare(n)) => assert_eq!(n, offers),
        (Step::Offer { .. }, Action::Offer(p)) => {
            assert!(!b.clone().is_forbidden(p), "a forbidden offer");
        }
        (Step::Choose, Action::Choose(p)) => assert!(o.offers().contains(&p)),
        _ => panic!("{a:?} at {step:?}"),
    }
}

/// Where the opening's swaps may come: the steps after which the rule lets the other player
/// swap, by the number of stones on the board (and, for Soosõrv-8, the declaration).
fn swap_allowed(o: &Opening) -> bool {
    match o.rule() {
        OpeningRule::Soosorv8 => o.stones() == 3 || (o.stones() == 4 && o.declared().is_some()),
        OpeningRule::Taraguchi10 => (1..=5).contains(&o.stones()),
    }
}

/// The record of one opening: every action with its actor, the engine's notes, the game.
struct Played {
    actions: Vec<(Seat, Action)>,
    notes: Vec<String>,
    game: Game,
    opening: Opening,
}

/// Plays an opening under `rule` with the engine in `engine_seat` and the scripted player in
/// the other, to the sixth move.
fn play(rule: OpeningRule, engine_seat: Seat, script: Script, seed: u64) -> Played {
    let mut engine = Engine::new(EngineConfig {
        hash_mb: 4,
        threads: 1,
    });
    let mut g = Game::new(15, Rule::Renju).expect("game");
    let mut o = Opening::new(rule);
    Opening::check_start(rule, g.board()).expect("an empty 15x15 board");
    let mut notes = Vec::new();
    let mut swaps = 0;
    let stop = AtomicBool::new(false);
    let mut turns = 0;
    while !o.is_over() {
        turns += 1;
        assert!(turns < 60, "the opening does not end: {:?}", o.actions());
        if o.step() == Some(Step::Swap) {
            assert!(swap_allowed(&o), "a swap after {} stones", o.stones());
        }
        if o.actor() == engine_seat {
            let mut note = |s: String| notes.push(s);
            let mut cx = Context {
                searcher: &mut engine,
                limits: Limits {
                    nodes: Some(NODES),
                    ..Limits::default()
                },
                time_ms: None,
                stop: &stop,
                seed,
                note: &mut note,
            };
            let actions = decide(&mut cx, &o, g.board());
            assert!(!actions.is_empty(), "the engine acts at {:?}", o.step());
            for a in actions {
                assert_eq!(o.actor(), engine_seat, "the engine acts only in its turn");
                check_step(&o, &g, a);
                o.apply(&mut g, a)
                    .unwrap_or_else(|e| panic!("the engine's {a:?}: {e}"));
            }
        } else {
            for (bad, why) in illegal(&o, &g) {
                let (mut o2, mut g2) = (o.clone(), g.clone());
                let e = o2
                    .apply(&mut g2, bad)
                    .expect_err("an illegal action is refused");
                assert!(
                    e.to_string().contains(why),
                    "{bad:?} at {:?}: '{e}'",
                    o.step()
                );
                assert_eq!(o2, o, "a refused action leaves the opening");
                assert_eq!(g2.board().moves(), g.board().moves(), "and the game");
            }
            let a = scripted(&o, &g, &script, &mut swaps);
            check_step(&o, &g, a);
            o.apply(&mut g, a)
                .unwrap_or_else(|e| panic!("the script's {a:?}: {e}"));
        }
    }
    Played {
        actions: o.actions().to_vec(),
        notes,
        game: g,
        opening: o,
    }
}

/// What every finished opening holds: five stones, White to move (the 6th move), the first
/// three one of the 26 openings, the offers as many as due and none symmetrical.
fn check_end(p: &Played) {
    let b = p.game.board();
    assert_eq!(b.stone_count(), 5, "{:?}", p.actions);
    assert_eq!(b.to_move(), Color::White, "White plays the 6th move");
    assert!(p.opening.is_over());
    assert!(!p.game.is_over());
    assert!(renju::of_game(&p.game).is_some(), "one of the 26 openings");
    let offers = p.opening.offers();
    if !offers.is_empty() {
        let due = match p.opening.rule() {
            OpeningRule::Soosorv8 => p.opening.declared().expect("declared"),
            OpeningRule::Taraguchi10 => 10,
        };
        assert_eq!(offers.len(), due, "as many offers as declared");
        assert!(offers.contains(&b.moves()[4]), "the 5th stone is an offer");
        let mut four = b.clone();
        four.undo();
        for (i, &p1) in offers.iter().enumerate() {
            for &p2 in &offers[..i] {
                assert!(!Opening::mirrors(&four, p1, p2), "symmetrical offers");
            }
        }
    }
}

#[test]
fn soosorv8_to_the_sixth_move_with_the_engine_on_each_side() {
    for engine_seat in [Seat::First, Seat::Second] {
        for swap_first in [false, true] {
            let script = Script {
                swap_first,
                declare: 3,
                ten: false,
            };
            let p = play(OpeningRule::Soosorv8, engine_seat, script, 7);
            check_end(&p);
            assert!(!p.notes.is_empty(), "the engine explains its decisions");
            assert_eq!(
                p.opening.offers().len(),
                p.opening.declared().unwrap_or(0),
                "Soosõrv-8 always ends with the offers"
            );
            // the same decisions every run
            let again = play(OpeningRule::Soosorv8, engine_seat, script, 7);
            assert_eq!(again.actions, p.actions);
        }
    }
}

#[test]
fn taraguchi10_to_the_sixth_move_with_the_engine_on_each_side() {
    for engine_seat in [Seat::First, Seat::Second] {
        for (swap_first, ten) in [(false, false), (true, true), (false, true)] {
            let script = Script {
                swap_first,
                declare: 0,
                ten,
            };
            let p = play(OpeningRule::Taraguchi10, engine_seat, script, 3);
            check_end(&p);
            let again = play(OpeningRule::Taraguchi10, engine_seat, script, 3);
            assert_eq!(again.actions, p.actions);
        }
    }
}

#[test]
fn the_engine_declares_and_offers_by_search() {
    // Soosõrv-8 after 1D (Kansei) and a far 4th stone: White declares, Black offers that
    // many fifth moves, White chooses
    let mut g = Game::new(15, Rule::Renju).expect("game");
    let mut o = Opening::new(OpeningRule::Soosorv8);
    for a in [
        Action::Stone(pt("h8")),
        Action::Stone(pt("h9")),
        Action::Stone(pt("h10")),
        Action::Keep,
        Action::Stone(pt("a15")),
    ] {
        o.apply(&mut g, a).expect("legal");
    }
    let mut engine = Engine::new(EngineConfig {
        hash_mb: 4,
        threads: 1,
    });
    let stop = AtomicBool::new(false);
    let mut notes = Vec::new();
    let mut run = |o: &Opening, g: &Game| {
        let mut note = |s: String| notes.push(s);
        let mut cx = Context {
            searcher: &mut engine,
            limits: Limits {
                nodes: Some(NODES),
                ..Limits::default()
            },
            time_ms: None,
            stop: &stop,
            seed: 1,
            note: &mut note,
        };
        decide(&mut cx, o, g.board())
    };
    let decl = run(&o, &g);
    let [Action::Declare(n)] = decl[..] else {
        panic!("a declaration: {decl:?}");
    };
    assert!((1..=8).contains(&n));
    o.apply(&mut g, Action::Declare(n)).expect("legal");
    // Black (the first player) keeps Black: a far 4th stone leaves Black's best fifths strong
    let acts = run(&o, &g);
    assert_eq!(acts.first(), Some(&Action::Keep), "{acts:?}");
    assert_eq!(acts.len(), 1 + n, "keep, then the {n} offers: {acts:?}");
    for a in acts {
        o.apply(&mut g, a).expect("legal");
    }
    let choice = run(&o, &g);
    let [Action::Choose(p)] = choice[..] else {
        panic!("a choice: {choice:?}");
    };
    assert!(o.offers().contains(&p));

    assert!(notes.iter().any(|n| n.contains("offering")), "{notes:?}");
}
