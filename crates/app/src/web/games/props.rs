//! The property test of the games: any sequence of actions keeps a game consistent, and the
//! same actions always give the same game.
//!
//! The test is deterministic: every search stops at a node limit instead of a time, the
//! engine's jobs wait at a gate until a `Wait` action lets them run one after the other, and
//! the clock is long enough never to run out.

use super::*;
use crate::opening::{Choice, Stage};
use gomoku_engine::notation::{self, format_pos};
use gomoku_engine::record::Record;

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
    /// Shows the node of the tree with this number among the nodes (255: one that is not
    /// there).
    Goto(u8),
    /// Promotes or deletes (true) the line through a node, chosen as for `Goto`.
    Branch(u8, bool),
    /// Lets the engine's jobs run to their end (they wait until then).
    Wait,
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
        3 => any::<u8>().prop_map(Action::Goto),
        1 => (any::<u8>(), any::<bool>()).prop_map(|(n, delete)| Action::Branch(n, delete)),
        2 => Just(Action::Wait),
    ]
}

/// What must hold after every action, whatever came before.
fn check(s: &mut Slot) {
    check_records(s);
    let v = s.view();
    let taken: Vec<&str> = v.moves.iter().map(|m| m.point.as_str()).collect();
    check_analysis(&v, &taken);
    check_jobs(&v);
    check_solution_and_opening(&v, &taken);
    check_clock(&v);
    check_tree(s, &v);
}

/// While the game goes on, its position line and its diagram read back as the same stones
/// with the same side to move.
fn check_records(s: &Slot) {
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
}

/// The analysis is of the position on the board, and leaves out the points it is to.
fn check_analysis(v: &GameView, taken: &[&str]) {
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
}

/// The engine thinks for the side to move, and a review is shown while it runs.
fn check_jobs(v: &GameView) {
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
        let line: Vec<&str> = v
            .moves
            .iter()
            .chain(&v.continuation)
            .map(|m| m.point.as_str())
            .collect();
        for m in &r.moves {
            assert!(m.number > v.setup_plies, "set-up stones are not judged");
            assert_eq!(
                line.get(m.number - 1).copied(),
                Some(m.played.as_str()),
                "verdicts only for moves still on the line shown"
            );
        }
    } else {
        assert!(!reviewing, "a running review is shown");
    }
}

/// A solution is for the side to move; the swap2 opening's stage fits its stones.
fn check_solution_and_opening(v: &GameView, taken: &[&str]) {
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
}

/// The clock runs for the side to move while the game goes on.
fn check_clock(v: &GameView) {
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
}

/// The board is the path to the tree's current node, and every line can be played.
fn check_tree(s: &Slot, v: &GameView) {
    let start = s.game.start_ply();
    let path = s.tree.path(s.tree.current());
    let on_board: Vec<Pos> = path
        .iter()
        .map(|&n| s.tree.get(n).unwrap().rec.pos)
        .collect();
    assert_eq!(
        &s.game.board().moves()[start..],
        &on_board[..],
        "the board is the path"
    );
    assert_eq!(v.tree.current, s.tree.current());
    for (id, node) in s.tree.nodes() {
        let mut seen = std::collections::HashSet::new();
        for &c in &node.children {
            let child = s.tree.get(c).expect("a child in the tree");
            assert_eq!(child.parent, Some(id));
            assert_eq!(child.ply, node.ply + 1);
            assert!(seen.insert(child.rec.pos), "one node per move");
        }
        if let Some(next) = node.next {
            assert!(
                node.children.contains(&next),
                "the line goes on through a child"
            );
        }
    }
    let mut line = s.game.clone();
    for m in &v.continuation {
        let p = m.node.and_then(|n| s.tree.get(n)).expect("a node").rec.pos;
        assert!(line.play(p).is_ok(), "the line shown plays on: {}", m.point);
    }
    let board = s.game.board();
    assert_eq!(board.position_string(), v.position);
    assert_eq!(v.moves.len(), board.ply());
    assert!(v.moves.len() >= v.setup_plies, "the set-up stones stay");
    assert_eq!(v.setup_plies, s.game.start_ply());
}

/// The node limit of every search of the test.
const NODES: u64 = 4_000;

/// How a case's game starts.
#[derive(Clone, Debug, Default)]
struct Start {
    /// The engine plays White.
    engine_white: bool,
    /// A swap2 opening (with the engine as one player).
    swap2: bool,
    /// In a swap2 opening, the engine puts down the first stones.
    engine_first: bool,
    /// A game clock.
    clocked: bool,
    /// A set-up start position (not with swap2, which starts from an empty board).
    set_up: bool,
}

/// Plays `actions` on a new game started as `start`, checking the game after each; returns
/// what each action did and the game after it, without the times (which vary from run to run).
fn play(start: &Start, actions: &[Action]) -> Vec<String> {
    let games = Games::held(ServerConfig {
        hash_mb: 1,
        node_limit: Some(NODES),
        ..ServerConfig::default()
    });
    let gate = games.gate.clone().expect("a held set of games");
    // swap2 games: the engine first when engine_first, else the person
    let engine_first = start.swap2 && start.engine_first;
    let req = NewGame {
        black: Some(if engine_first {
            Player::Engine
        } else {
            Player::Person
        }),
        white: Some(if start.engine_white && !engine_first {
            Player::Engine
        } else {
            Player::Person
        }),
        level: Some(Level::Easy),
        time_ms: Some(20),
        size: Some(9),
        opening: Some(if start.swap2 && (start.engine_white || engine_first) {
            OpeningRule::Swap2
        } else {
            OpeningRule::Free
        }),
        // ten minutes a side: the clock runs, but never out (that is tested in web_api)
        clock_ms: start.clocked.then_some(600_000),
        increment_ms: start.clocked.then_some(50),
        setup: (start.set_up && !start.swap2).then(|| SetUp {
            black: vec!["e5".into(), "f6".into()],
            white: vec!["d4".into()],
            to_move: None,
        }),
        ..NewGame::default()
    };
    let set_up = req.setup.is_some();
    let id = games.create(&req).expect("a new game").id;
    let slot = games.get(&id).expect("the game");
    let stones = lock(&slot).game.board().moves()[..if set_up { 3 } else { 0 }].to_vec();
    let mut transcript = Vec::new();
    for a in actions {
        if matches!(a, Action::Wait) {
            gate.run_all();
            let mut s = lock(&slot);
            check(&mut s);
            transcript.push(format!("{a:?}: {}", summary(&mut s)));
            continue;
        }
        let mut s = lock(&slot);
        let before = s.game.board().position_string();
        let done = match a.clone() {
            Action::Move(x, y) => {
                let p = format_pos(Pos::new(usize::from(x) - 1, usize::from(y) - 1), 9);
                s.play(&MoveRequest {
                    point: p,
                    color: None,
                })
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
            Action::Solve => s.solve(&SolveRequest {
                task: None,
                time_ms: Some(10),
            }),
            Action::Choice(c) => s.swap2_choice(&Swap2Request {
                choice: [Choice::Black, Choice::White, Choice::More][usize::from(c)],
            }),
            Action::Level(l) => s.settings(&Settings {
                level: Some(
                    [
                        Level::Greedy,
                        Level::Easy,
                        Level::Medium,
                        Level::Hard,
                        Level::Max,
                    ][usize::from(l)],
                ),
                time_ms: None,
            }),
            Action::Goto(n) => {
                let node = pick_node(&s, n);
                s.goto(&GotoRequest { node })
            }
            Action::Branch(n, delete) => {
                let node = pick_node(&s, n);
                s.branch(&BranchRequest {
                    node,
                    action: if delete {
                        BranchAction::Delete
                    } else {
                        BranchAction::Promote
                    },
                })
            }
            Action::Wait => unreachable!(),
        };
        if done.is_err() {
            assert_eq!(
                s.game.board().position_string(),
                before,
                "a refused action changes nothing"
            );
        }
        assert_eq!(
            &s.game.board().moves()[..stones.len()],
            &stones[..],
            "the set-up stones stay"
        );
        check(&mut s);
        let outcome = done.map_or_else(|e| e.code.to_string(), |()| "ok".to_string());
        transcript.push(format!("{a:?}: {outcome}; {}", summary(&mut s)));
        if matches!(a, Action::Review) && outcome == "ok" {
            // let the review finish, so that later actions change the game under it
            drop(s);
            gate.run_all();
            check(&mut lock(&slot));
        }
    }
    games.remove(&id).expect("removed");
    drop(slot);
    // the jobs still waiting end now (their game is gone)
    gate.run_all();
    transcript
}

/// The id of the `n`th node of the tree (in the order of their ids), or one that is not
/// there for 255.
fn pick_node(s: &Slot, n: u8) -> tree::NodeId {
    let ids: Vec<tree::NodeId> = s.tree.nodes().map(|(id, _)| id).collect();
    if n == 255 {
        return 1_000_000;
    }
    ids[usize::from(n) % ids.len()]
}

/// The game as the page sees it, without the times.
fn summary(s: &mut Slot) -> String {
    let v = s.view();
    let info = |i: &Option<EngineInfo>| {
        i.as_ref().map(|i| {
            let c: Vec<&str> = i.candidates.iter().map(|c| c.point.as_str()).collect();
            format!("{:?} {} {} {:?}", i.point, i.score, i.depth, c)
        })
    };
    let tree: Vec<String> = v
        .tree
        .nodes
        .iter()
        .map(|n| format!("{}<{:?}:{:?}", n.id, n.parent, n.point))
        .collect();
    format!(
        "{} tree {tree:?} at {} players {:?}/{:?} thinking {:?} hint {:?} analysis {:?} excluded {:?} opening {:?} \
         review {:?} solution {:?} result {:?} error {:?}",
        v.position,
        v.tree.current,
        v.players.black,
        v.players.white,
        v.thinking.as_ref().map(|t| t.purpose),
        info(&v.hint),
        info(&v.analysis),
        v.excluded,
        v.opening.as_ref().map(|o| o.stage),
        v.review.as_ref().map(|r| (
            r.running,
            r.moves.iter().map(|m| m.verdict).collect::<Vec<_>>()
        )),
        v.solution.as_ref().map(|s| (s.solved, s.line.clone())),
        v.result.as_ref().map(|r| (r.winner, r.resigned, r.timeout)),
        v.engine_error,
    )
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(40))]

    /// Any sequence of buttons, refused or not, leaves a consistent game (analysis only of
    /// the position on the board, searches only for the side to move, nothing after the
    /// end), and the same sequence gives the same game again.
    #[test]
    fn any_sequence_of_actions_keeps_the_game_consistent(
        engine_white in proptest::bool::ANY,
        swap2 in proptest::bool::ANY,
        engine_first in proptest::bool::ANY,
        clocked in proptest::bool::ANY,
        set_up in proptest::bool::ANY,
        actions in proptest::collection::vec(action(), 1..30),
    ) {
        let start = Start { engine_white, swap2, engine_first, clocked, set_up };
        let first = play(&start, &actions);
        proptest::prop_assert_eq!(first, play(&start, &actions), "the same actions, another game");
    }
}

// Cases the property test once found, replayed as they were shrunk.

#[test]
fn analysis_turned_off_at_once_leaves_none() {
    play(
        &Start::default(),
        &[Action::Analyze(true, None), Action::Analyze(false, None)],
    );
}

#[test]
fn a_move_after_an_analysis_of_the_position_drops_it() {
    play(
        &Start::default(),
        &[
            Action::Stop,
            Action::Undo,
            Action::Analyze(true, None),
            Action::Wait,
            Action::Move(5, 5),
        ],
    );
}

#[test]
fn an_undo_after_a_review_keeps_only_the_verdicts_of_moves_still_played() {
    play(
        &Start::default(),
        &[Action::Go, Action::Wait, Action::Review, Action::Undo],
    );
}

#[test]
fn deleting_a_line_inside_a_swap2_opening_keeps_its_stones() {
    play(
        &Start {
            swap2: true,
            engine_first: true,
            ..Start::default()
        },
        &[
            Action::Wait,
            Action::Choice(0),
            Action::Swap,
            Action::Move(5, 6),
            Action::Branch(233, true),
        ],
    );
}
