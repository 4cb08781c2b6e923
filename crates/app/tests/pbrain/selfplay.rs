//! Two `pbrain-gomoku` processes play each other through a small manager, the way Gomocup's
//! managers drive brains: INFO lines, START, a BOARD opening to both sides, then TURN after
//! TURN with `time_left` before every move. The manager judges every move with the engine's
//! own rules (legal point, renju fouls, five, full board) and keeps both clocks.

use super::{xy, Brain};
use gomoku_engine::{Color, Game, GameResult, Pos, Rule};
use std::time::Instant;

const TURN_MS: u64 = 50;
const MATCH_MS: u64 = 5_000;
/// How late an answer may be before it counts as a timeout. Real managers allow some slack
/// for process scheduling; the tests run in parallel, on two cores that another build may
/// load, where a 50 ms answer has been seen to take several hundred, so the slack is the
/// 1.5 s of the other pbrain tests: a brain that ignored the limits (5 s a turn by default)
/// would still be far beyond it.
const TURN_TOLERANCE_MS: u64 = 1_500;
/// The same for the whole game's time (the brains use about a second of their 5 s a game).
const MATCH_TOLERANCE_MS: u64 = 2_000;

struct Player {
    brain: Brain,
    used_ms: u64,
    max_turn_ms: u64,
}

/// One finished game, for the report.
#[derive(Debug)]
struct Played {
    moves: usize,
    result: GameResult,
    times_ms: [u64; 2],
    max_turn_ms: [u64; 2],
}

fn rule_flag(rule: Rule) -> u8 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 4,
        other => panic!("no flag for {other}"),
    }
}

/// Asks `player` (whose colour is `color`) for a move and judges it.
fn ask_move(player: &mut Player, game: &mut Game, color: Color, request: &[String]) -> Pos {
    let left = MATCH_MS.saturating_sub(player.used_ms);
    player.brain.send(&format!("INFO time_left {left}"));
    let t = Instant::now();
    let (last, before) = request.split_last().expect("a request");
    for l in before {
        player.brain.send(l);
    }
    player.brain.send(last);
    let answer = player.brain.answer();
    let took = t.elapsed().as_millis() as u64;
    player.used_ms += took;
    player.max_turn_ms = player.max_turn_ms.max(took);
    assert!(
        took <= TURN_MS + TURN_TOLERANCE_MS,
        "{color} took {took} ms for a move (limit {TURN_MS} ms): '{answer}'"
    );
    assert!(
        player.used_ms <= MATCH_MS + MATCH_TOLERANCE_MS,
        "{color} used {} ms in the game (limit {MATCH_MS} ms)",
        player.used_ms
    );
    assert!(!answer.starts_with("ERROR"), "{color} answered '{answer}'");
    let (x, y) = xy(&answer);
    let size = game.board().size();
    assert!(
        x < size && y < size,
        "{color} answered {x},{y}: off the board"
    );
    let p = Pos::new(x, y);
    assert!(
        game.board().is_empty(p),
        "{color} answered {x},{y}: occupied"
    );
    if game.board().rule() == Rule::Renju && color == Color::Black {
        assert!(
            !game.board_mut().is_forbidden(p),
            "Black answered the forbidden point {x},{y}"
        );
    }
    p
}

/// `BOARD` as `color` sees the moves so far.
fn board_request(moves: &[Pos], color: Color) -> Vec<String> {
    let mut lines = vec!["BOARD".to_string()];
    for (i, p) in moves.iter().enumerate() {
        let stone = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let field = if stone == color { 1 } else { 2 };
        lines.push(format!("{},{},{field}", p.x(), p.y()));
    }
    lines.push("DONE".to_string());
    lines
}

/// Plays one game: `players[0]` is Black. Returns when the game is decided.
fn play_game(players: &mut [Player; 2], rule: Rule, opening: &[(usize, usize)]) -> Played {
    for p in players.iter_mut() {
        p.used_ms = 0;
        p.max_turn_ms = 0;
        p.brain.send_all(&[
            &format!("INFO timeout_turn {TURN_MS}"),
            &format!("INFO timeout_match {MATCH_MS}"),
            "INFO max_memory 67108864",
            "INFO game_type 1",
            &format!("INFO rule {}", rule_flag(rule)),
        ]);
        assert_eq!(p.brain.ask("START 15"), "OK");
    }
    let mut game = Game::new(15, rule).expect("a board");
    let mut moves: Vec<Pos> = Vec::new();
    for &(x, y) in opening {
        let p = Pos::new(x, y);
        assert!(game.play(p).expect("a legal opening").is_none());
        moves.push(p);
    }
    // both sides get the opening as a BOARD, then the game goes on with TURN
    let mut boards_sent = [false, false];
    loop {
        let color = game.board().to_move();
        let side = color.index();
        let request = if boards_sent[side] {
            let last = moves.last().expect("a move before TURN");
            vec![format!("TURN {},{}", last.x(), last.y())]
        } else {
            boards_sent[side] = true;
            board_request(&moves, color)
        };
        let p = ask_move(&mut players[side], &mut game, color, &request);
        moves.push(p);
        let result = game.play(p).expect("a judged move is legal").cloned();
        if let Some(result) = result {
            match &result {
                GameResult::Win { winner, line, foul } => {
                    assert_eq!(*winner, color, "only the mover can win");
                    assert!(foul.is_none(), "no fouls: {result:?}");
                    assert!(line.len() >= 5 && line.contains(&p), "{result:?}");
                }
                GameResult::Draw => assert!(game.board().is_full()),
            }
            return Played {
                moves: moves.len(),
                result,
                times_ms: [players[0].used_ms, players[1].used_ms],
                max_turn_ms: [players[0].max_turn_ms, players[1].max_turn_ms],
            };
        }
    }
}

#[test]
fn two_brains_play_full_games_within_the_rules_and_the_clock() {
    let started = Instant::now();
    let player = || Player {
        brain: Brain::start(),
        used_ms: 0,
        max_turn_ms: 0,
    };
    let mut players = [player(), player()];
    // openings of three stones (Black, White, Black), then White answers first
    let games: [(Rule, &[(usize, usize)]); 4] = [
        (Rule::Freestyle, &[(7, 7), (8, 6), (9, 7)]),
        (Rule::Standard, &[(7, 7), (7, 8), (8, 9)]),
        (Rule::Renju, &[(7, 7), (8, 8), (6, 8)]),
        (Rule::Freestyle, &[(7, 7), (6, 6), (5, 8)]),
    ];
    for (i, (rule, opening)) in games.iter().enumerate() {
        let played = play_game(&mut players, *rule, opening);
        eprintln!(
            "game {} ({rule}): {} moves, {:?}, time used {:?} ms, slowest move {:?} ms",
            i + 1,
            played.moves,
            played.result,
            played.times_ms,
            played.max_turn_ms
        );
        // the other brain plays Black next
        players.swap(0, 1);
    }
    for p in players {
        p.brain.end();
    }
    eprintln!("self-play took {:?}", started.elapsed());
}
