//! The property test of the games: any sequence of actions keeps a game consistent.

use super::*;
use crate::opening::{Choice, Stage};
use gomoku_engine::notation::{self, format_pos};
use gomoku_engine::record::Record;
use std::time::Duration;

/// One button of the page (or one API call).
#[derive(Clone, Debug)]
enum Action {
    Move(u8, u8),
    Undo,
    Redo,
    Hint,
    Go,
    Stop,
    Swap,
    Resign,
    /// On or off, and the points to leave out (`None`: as before).
    Analyze(bool, Option<Vec<(u8, u8)>>),
    Review,
    Solve,
    Choice(u8),
    Level(u8),
    Wait(u8),
}

fn action() -> impl proptest::strategy::Strategy<Value = Action> {
    use proptest::prelude::*;
    prop_oneof![
        6 => (5u8..10, 5u8..10).prop_map(|(x, y)| Action::Move(x, y)),
        1 => Just(Action::Undo),
        1 => Just(Action::Redo),
        1 => Just(Action::Hint),
        1 => Just(Action::Go),
        1 => Just(Action::Stop),
        1 => Just(Action::Swap),
        1 => Just(Action::Resign),
        3 => (
            any::<bool>(),
            proptest::option::of(proptest::collection::vec((3u8..8, 3u8..8), 0..4))
        )
            .prop_map(|(on, ex)| Action::Analyze(on, ex)),
        1 => Just(Action::Review),
        1 => Just(Action::Solve),
        2 => (0u8..3).prop_map(Action::Choice),
        1 => (0u8..5).prop_map(Action::Level),
        2 => (0u8..30).prop_map(Action::Wait),
    ]
}

/// What must hold after every action, whatever came before.
fn check(s: &mut Slot) {
    // while the game goes on, its position line and its diagram read back as the same
    // stones with the same side to move
    if !s.game.is_over() {
        let board = s.game.board();
        let line = s.record();
        let from_line = Record::parse(&line)
            .expect("the line reads")
            .start()
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        let d = notation::parse_diagram(&s.diagram()).expect("the diagram reads");
        let from_diagram = Game::from_diagram(board.rule(), &d).expect("the diagram starts");
        for g in [&from_line, &from_diagram] {
            assert_eq!(g.board().to_move(), board.to_move(), "{line}");
            for p in board.points() {
                assert_eq!(g.board().cell(p), board.cell(p), "{line}");
            }
        }
    }
    let v = s.view();
    let taken: Vec<&str> = v.moves.iter().map(|m| m.point.as_str()).collect();
    if let Some(a) = &v.analysis {
        assert!(v.analyze, "an analysis is kept only while analysis is on");
        assert_eq!(
            a.color, v.to_move,
            "the analysis is of the position on the board"
        );
        assert!(v.result.is_none(), "no analysis of a finished game");
        for c in &a.candidates {
            assert!(
                !taken.contains(&c.point.as_str()),
                "{} is occupied",
                c.point
            );
            assert!(
                !v.excluded.contains(&c.point),
                "{} was left out of the analysis",
                c.point
            );
        }
    }
    for p in &v.excluded {
        assert!(!taken.contains(&p.as_str()), "{p} is left out but occupied");
    }
    if !v.analyze {
        assert!(
            v.excluded.is_empty(),
            "points are left out only while analysing"
        );
    }
    match &v.thinking {
        Some(t) if t.purpose == Purpose::Analysis => {
            assert!(v.analyze, "an analysis runs only while analysis is on");
            assert_eq!(t.color, v.to_move);
        }
        Some(t) => assert_eq!(t.color, v.to_move, "the engine thinks for the side to move"),
        None => {}
    }
    let reviewing = v
        .thinking
        .as_ref()
        .is_some_and(|t| t.purpose == Purpose::Review);
    if v.result.is_some() && !reviewing {
        assert!(
            v.thinking.is_none(),
            "only a review runs once the game is over"
        );
    }
    if let Some(r) = &v.review {
        assert_eq!(r.running, reviewing, "the review runs as the slot's job");
        assert!(r.done <= r.total);
        for m in &r.moves {
            assert!(m.number > v.setup_plies, "set-up stones are not judged");
            assert_eq!(
                taken.get(m.number - 1).copied(),
                Some(m.played.as_str()),
                "verdicts only for moves still in the game"
            );
        }
    } else {
        assert!(!reviewing, "a running review is shown");
    }
    if let Some(sol) = &v.solution {
        assert_eq!(sol.color, v.to_move, "the answer is for the side to move");
        assert_eq!(sol.solved, !sol.line.is_empty());
        if let Some(first) = sol.line.first() {
            assert!(!taken.contains(&first.as_str()), "{first} is occupied");
        }
    }
    if let Some(o) = &v.opening {
        let ply = v.moves.len();
        let fits = match o.stage {
            Stage::Three => ply < 3,
            Stage::Choice3 => ply == 3,
            Stage::Five => (3..5).contains(&ply),
            Stage::Choice5 => ply == 5,
        };
        assert!(fits, "stage {:?} with {ply} stones", o.stage);
        assert!(v.analysis.is_none() && v.result.is_none());
        if let Some(t) = &v.thinking {
            assert_eq!(t.purpose, Purpose::Swap2, "only the swap2 decision runs");
            assert_eq!(o.actor, Player::Engine);
        }
    } else if !v.swap2_log.is_empty() {
        assert_ne!(v.players.black, v.players.white);
        assert!(v.moves.len() >= 3);
    }
    if let Some(c) = &v.clock {
        assert_eq!(
            c.running.is_some(),
            v.result.is_none() && v.opening.is_none(),
            "the clock runs while the game goes on"
        );
        if let Some(run) = c.running {
            assert_eq!(run, v.to_move, "the side to move's clock runs");
        }
        if let Some(r) = v.result.as_ref().filter(|r| r.timeout) {
            let loser_ms = if r.winner == Some("white") {
                c.black_ms
            } else {
                c.white_ms
            };
            assert_eq!(loser_ms, 0, "the loser on time has no time left");
        }
    } else if let Some(r) = &v.result {
        assert!(!r.timeout, "no loss on time without a clock");
    }
    let board = s.game.board();
    assert_eq!(board.position_string(), v.position);
    assert_eq!(v.moves.len(), board.ply());
    assert!(v.moves.len() >= v.setup_plies, "the set-up stones stay");
    assert_eq!(v.setup_plies, s.game.start_ply());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(40))]

    /// Any sequence of buttons, refused or not, leaves a consistent game: analysis only of
    /// the position on the board, searches only for the side to move, nothing after the end.
    #[test]
    fn any_sequence_of_actions_keeps_the_game_consistent(
        engine_white in proptest::bool::ANY,
        swap2 in proptest::bool::ANY,
        engine_first in proptest::bool::ANY,
        clocked in proptest::bool::ANY,
        set_up in proptest::bool::ANY,
        actions in proptest::collection::vec(action(), 1..30),
    ) {
        let games = Games::new(ServerConfig {
            hash_mb: 1,
            ..ServerConfig::default()
        });
        // swap2 games: the engine first when engine_first, else the person
        let engine_first = swap2 && engine_first;
        let req = NewGame {
            black: Some(if engine_first { Player::Engine } else { Player::Person }),
            white: Some(if engine_white && !engine_first { Player::Engine } else { Player::Person }),
            level: Some(Level::Easy),
            time_ms: Some(20),
            size: Some(9),
            opening: Some(if swap2 && (engine_white || engine_first) { OpeningRule::Swap2 } else { OpeningRule::Free }),
            // a second a side: some games are lost on time along the way
            clock_ms: clocked.then_some(1_000),
            increment_ms: clocked.then_some(50),
            // a set-up start (not with swap2, which starts from an empty board)
            setup: (set_up && !swap2).then(|| SetUp {
                black: vec!["e5".into(), "f6".into()],
                white: vec!["d4".into()],
                to_move: None,
            }),
            ..NewGame::default()
        };
        let set_up = req.setup.is_some();
        let id = games.create(&req).expect("a new game").id;
        let slot = games.get(&id).expect("the game");
        let start = lock(&slot).game.board().moves()[..if set_up { 3 } else { 0 }].to_vec();
        for a in actions {
            if let Action::Wait(ms) = a {
                std::thread::sleep(Duration::from_millis(u64::from(ms)));
                check(&mut lock(&slot));
                continue;
            }
            let mut s = lock(&slot);
            let before = s.game.board().position_string();
            let done = match a.clone() {
                Action::Move(x, y) => {
                    let p = format_pos(Pos::new(usize::from(x) - 1, usize::from(y) - 1), 9);
                    s.play(&MoveRequest { point: p, color: None })
                }
                Action::Undo => s.undo(),
                Action::Redo => s.redo(),
                Action::Hint => s.hint(),
                Action::Go => s.go(),
                Action::Stop => s.stop(),
                Action::Swap => s.swap(),
                Action::Resign => s.resign(&ResignRequest::default()),
                Action::Analyze(on, exclude) => s.analyze(&AnalyzeRequest {
                    on,
                    exclude: exclude.map(|points| {
                        points
                            .iter()
                            .map(|&(x, y)| format_pos(Pos::new(usize::from(x), usize::from(y)), 9))
                            .collect()
                    }),
                }),
                Action::Review => s.review(&ReviewRequest { time_ms: Some(10) }),
                Action::Solve => s.solve(&SolveRequest { task: None, time_ms: Some(10) }),
                Action::Choice(c) => s.swap2_choice(&Swap2Request {
                    choice: [Choice::Black, Choice::White, Choice::More][usize::from(c)],
                }),
                Action::Level(l) => s.settings(&Settings {
                    level: Some([Level::Greedy, Level::Easy, Level::Medium, Level::Hard, Level::Max][usize::from(l)]),
                    time_ms: None,
                }),
                Action::Wait(_) => unreachable!(),
            };
            if done.is_err() {
                assert_eq!(s.game.board().position_string(), before, "a refused action changes nothing");
            }
            assert_eq!(&s.game.board().moves()[..start.len()], &start[..], "the set-up stones stay");
            check(&mut s);
            if matches!(a, Action::Stop) {
                // let the stopped search hand in its result, as it does between two clicks
                drop(s);
                std::thread::sleep(Duration::from_millis(30));
                check(&mut lock(&slot));
            } else if matches!(a, Action::Review) && done.is_ok() {
                // let the review finish, so that later actions change the game under it
                drop(s);
                let start = Instant::now();
                while lock(&slot).job.as_ref().is_some_and(|j| j.purpose == Purpose::Review)
                    && start.elapsed() < Duration::from_secs(5)
                {
                    std::thread::sleep(Duration::from_millis(5));
                }
                check(&mut lock(&slot));
            }
        }
        games.remove(&id).expect("removed");
    }
}
