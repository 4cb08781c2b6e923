//! Property test of [`Game`]: random sequences of moves, passes, undos and redos, on every rule
//! and on 7x7 (where boards fill up), 15x15 and 20x20, leave the game equal to a fresh replay
//! of the moves that remain, read back from their position string: the same Zobrist key,
//! stones, side to move, result and redo list.
//!
//! `random_games.rs` checks the board's incremental state after every step; this test checks
//! the game level above it (results, renju fouls, game over, redo) and that a position
//! string written from a game reads back as the same game.

use gomoku_engine::notation::format_moves;
use gomoku_engine::{Cell, Game, GameError, Pos, Rule};
use proptest::prelude::*;
use proptest::sample::Index;

/// One step of the random walk.
#[derive(Clone, Debug)]
enum Op {
    /// A stone on an empty point (the index picks which).
    Play(Index),
    /// A stone that extends a line of the mover's stones (so that fives, overlines, renju
    /// fouls and full boards come up): the first index picks the stone, the second the
    /// direction.
    Extend(Index, Index),
    /// A move on an occupied point, which must be refused.
    PlayOccupied(Index),
    /// A pass.
    Pass,
    /// Take the last move back.
    Undo,
    /// Replay the last move taken back.
    Redo,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => any::<Index>().prop_map(Op::Play),
        6 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Op::Extend(a, b)),
        1 => any::<Index>().prop_map(Op::PlayOccupied),
        1 => Just(Op::Pass),
        4 => Just(Op::Undo),
        2 => Just(Op::Redo),
    ]
}

/// Everything that must agree between two games.
fn snapshot(g: &Game) -> (u64, Vec<Pos>, String, bool, Option<String>, Vec<Pos>) {
    let b = g.board();
    (
        b.key(),
        b.moves().to_vec(),
        b.to_text(&[]),
        g.is_over(),
        g.result().map(|r| format!("{r:?}")),
        g.redo_stack(),
    )
}

/// The eight ways along a line.
const STEPS: [(i64, i64); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

/// The empty point that `op` asks for, if any.
fn target(g: &Game, op: &Op) -> Option<Pos> {
    let b = g.board();
    let empty: Vec<Pos> = b.points().filter(|&p| b.is_empty(p)).collect();
    let any = |i: &Index| (!empty.is_empty()).then(|| empty[i.index(empty.len())]);
    match op {
        Op::Play(i) => any(i),
        Op::Extend(i, d) => {
            let mine = Cell::Stone(b.to_move());
            let own: Vec<Pos> = b.points().filter(|&p| b.cell(p) == mine).collect();
            if own.is_empty() {
                return any(i);
            }
            let start = own[i.index(own.len())];
            let (dx, dy) = STEPS[d.index(STEPS.len())];
            let (mut x, mut y) = (start.x() as i64, start.y() as i64);
            loop {
                x += dx;
                y += dy;
                let p = usize::try_from(x)
                    .ok()
                    .zip(usize::try_from(y).ok())
                    .and_then(|(x, y)| b.pos(x, y));
                match p {
                    Some(p) if b.cell(p) == mine => {}
                    Some(p) if b.is_empty(p) => return Some(p),
                    _ => return any(i),
                }
            }
        }
        _ => None,
    }
}

/// Runs `ops` on a new game, checking each step against a model of the move list.
fn walk(rule: Rule, size: usize, ops: &[Op]) -> Result<(), TestCaseError> {
    let mut g = Game::new(size, rule).expect("valid size");
    // the moves on the board and the undone ones, next to redo last
    let mut played: Vec<Pos> = Vec::new();
    let mut undone: Vec<Pos> = Vec::new();
    // the key before each move, to check undo
    let mut keys: Vec<u64> = Vec::new();
    for op in ops {
        let key = g.board().key();
        match op {
            Op::Play(_) | Op::Extend(..) => {
                let Some(p) = target(&g, op) else {
                    continue;
                };
                let over = g.is_over();
                let before = snapshot(&g);
                match g.play(p) {
                    Ok(_) => {
                        prop_assert!(!over, "a move after the end was accepted");
                        played.push(p);
                        undone.clear();
                        keys.push(key);
                    }
                    Err(GameError::GameOver { .. }) => {
                        prop_assert!(over);
                        prop_assert_eq!(snapshot(&g), before);
                    }
                    Err(e) => return Err(TestCaseError::fail(format!("{p:?}: {e}"))),
                }
            }
            Op::PlayOccupied(i) => {
                let stones: Vec<Pos> = played.iter().copied().filter(|p| p.is_point()).collect();
                if stones.is_empty() {
                    continue;
                }
                let before = snapshot(&g);
                prop_assert!(g.play(stones[i.index(stones.len())]).is_err());
                prop_assert_eq!(snapshot(&g), before);
            }
            Op::Pass => {
                if g.is_over() {
                    prop_assert!(g.play(Pos::PASS).is_err());
                    continue;
                }
                g.play(Pos::PASS)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                played.push(Pos::PASS);
                undone.clear();
                keys.push(key);
            }
            Op::Undo => {
                let took = g.undo();
                prop_assert_eq!(took, played.pop());
                if let Some(p) = took {
                    undone.push(p);
                    prop_assert_eq!(Some(g.board().key()), keys.pop());
                }
            }
            Op::Redo => {
                let again = g.redo();
                prop_assert_eq!(again, undone.pop());
                if let Some(p) = again {
                    played.push(p);
                    keys.push(key);
                }
            }
        }
        prop_assert_eq!(g.board().moves(), &played[..]);
    }
    g.board()
        .validate()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    // a fresh game from the position string of what is left
    let text = format_moves(&played, size);
    let mut fresh = Game::from_position(size, rule, &text)
        .map_err(|e| TestCaseError::fail(format!("replaying '{text}': {e}")))?;
    for &p in undone.iter().rev() {
        fresh
            .play(p)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
    }
    for _ in 0..undone.len() {
        fresh.undo();
    }
    prop_assert_eq!(snapshot(&fresh), snapshot(&g), "{}", text);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn moves_and_undos_leave_the_game_of_a_fresh_replay(
        rule in prop::sample::select(Rule::ALL.to_vec()),
        size in prop::sample::select(vec![7usize, 15, 20]),
        ops in prop::collection::vec(op(), 0..120),
    ) {
        walk(rule, size, &ops)?;
    }
}
