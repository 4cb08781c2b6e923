//! One game of a match: the two players at the table with their clocks, the opening rule
//! (swap2 or a renju rule) that decides the colours, then the moves to the end, each judged
//! as the board and the clock see it.

use super::player::{self, make_player, PlayerSpec};
use super::{GameRecord, MatchConfig, Opening, Outcome};
use gomoku_engine::notation::{format_moves, format_pos};
use gomoku_engine::{Color, Game, GameError, GameResult, Pos};
use std::time::Instant;

/// A player that failed (its index) and why: the reason recorded with the game.
type Failure = (usize, String);

/// The two players of a game, by index (0 or 1), with their names and game clocks.
struct Table {
    live: [Option<Box<dyn player::Player + Send>>; 2],
    names: [String; 2],
    clocks: [Option<u64>; 2],
}

impl Table {
    /// Starts both players for `game`, or names the first that cannot start.
    fn start(cfg: &MatchConfig, players: &[PlayerSpec; 2], game: &Game) -> Result<Self, Failure> {
        let mut table = Table {
            live: [None, None],
            names: [players[0].name.clone(), players[1].name.clone()],
            clocks: [cfg.time.game_ms; 2],
        };
        for i in 0..2 {
            match make_player(&players[i], game, &cfg.time) {
                Ok(p) => table.live[i] = Some(p),
                Err(f) => {
                    table.finish();
                    return Err((i, format!("{} {}", table.names[i], f.0)));
                }
            }
        }
        Ok(table)
    }

    /// Asks player `i` one question of the opening and takes the time it used off its clock.
    fn ask<T>(
        &mut self,
        i: usize,
        question: impl FnOnce(&mut dyn player::Player, Option<u64>) -> Result<T, player::Forfeit>,
    ) -> Result<T, Failure> {
        let Some(p) = self.live[i].as_mut() else {
            return Err((i, format!("{} is not running", self.names[i])));
        };
        let t0 = Instant::now();
        let answer = question(p.as_mut(), self.clocks[i]);
        if let Some(c) = self.clocks[i].as_mut() {
            *c = c.saturating_sub(t0.elapsed().as_millis() as u64);
        }
        answer.map_err(|f| (i, format!("{} {}", self.names[i], f.0)))
    }

    /// Tells both players that the game is over.
    fn finish(&mut self) {
        for p in self.live.iter_mut().flatten() {
            p.finish();
        }
    }
}

/// Whether Black is to move under renju and every empty point is forbidden for it.
fn only_forbidden_left(board: &gomoku_engine::Board) -> bool {
    if !board.rule().has_forbidden() || board.to_move() != Color::Black {
        return false;
    }
    let mut b = board.clone();
    let empty: Vec<Pos> = board.points().filter(|&p| board.is_empty(p)).collect();
    !empty.is_empty() && empty.into_iter().all(|p| b.is_forbidden(p))
}

fn outcome_of(winner: Color) -> Outcome {
    match winner {
        Color::Black => Outcome::Black,
        Color::White => Outcome::White,
    }
}

/// Gomocup's swap2 opening on the empty `game` between `table`'s player `opener` and the
/// other, as [`crate::opening`] lays it down: places the stones they answer and returns the
/// index of the player with Black, or the player who failed (a forfeit, an answer that does
/// not fit) and why.
fn swap2_opening(table: &mut Table, opener: usize, game: &mut Game) -> Result<usize, Failure> {
    use crate::opening::{Next, Opening};
    use crate::pbrain::swap2::Answer;
    let mut opening = Opening::new(opener, 1 - opener);
    loop {
        let i = opening.actor();
        let answer = table.ask(i, |p, clock| p.swap2(game, clock))?;
        let bad = |why: String| (i, format!("{} swap2: {why}", table.names[i]));
        let Some((stones, next)) = opening.answer(&answer) else {
            return Err(bad(match answer {
                Answer::Swap => "SWAP where stones were due".to_string(),
                Answer::Stones(s) => {
                    let n = s.len();
                    format!("{n} stone{}", if n == 1 { "" } else { "s" })
                }
            }));
        };
        let size = game.board().size();
        for p in stones {
            game.play(p)
                .map_err(|e| bad(format!("{}: {e}", format_pos(p, size))))?;
        }
        match next {
            Next::Stage(stage) => opening.stage = stage,
            Next::Done { black } => return Ok(black),
        }
    }
}

/// A renju opening rule on the empty `game` between `table`'s player `first` (the first
/// player) and the other, as [`crate::renju_opening`] lays it down: takes the actions they
/// answer and returns the index of the player with Black, or the player who failed and why.
fn renju_opening(
    table: &mut Table,
    rule: gomoku_engine::renju::OpeningRule,
    first: usize,
    game: &mut Game,
) -> Result<usize, Failure> {
    use crate::renju_opening::RenjuTable;
    use gomoku_engine::renju::Seat;
    let mut seats = RenjuTable::new(rule, game.board().size(), first, 1 - first);
    while !seats.opening.is_over() {
        let i = seats.actor();
        let actions = table.ask(i, |p, clock| p.renju(game, &seats.opening, clock))?;
        let names = &table.names;
        if actions.is_empty() {
            return Err((i, format!("{} {rule}: no action", names[i])));
        }
        let name = |i: usize, _: Seat| names[i].clone();
        for a in actions {
            if seats.opening.is_over() || seats.actor() != i {
                break;
            }
            let size = game.board().size();
            seats
                .apply(game, a, &name)
                .map_err(|e| (i, format!("{} {rule}: {}: {e}", names[i], a.describe(size))))?;
        }
    }
    Ok(seats.holder(Color::Black))
}

/// Plays one game: `players[black]` has Black (with swap2 or a renju opening rule, opens;
/// the opening decides).
#[must_use]
pub fn play_game(
    cfg: &MatchConfig,
    players: &[PlayerSpec; 2],
    number: usize,
    opening: Option<&Opening>,
    black: usize,
) -> GameRecord {
    let names = [players[0].name.clone(), players[1].name.clone()];
    let opening_moves = opening.map_or(&[][..], |o| &o.moves);
    let mut record = GameRecord {
        number,
        opening: opening.map_or_else(|| "empty board".to_string(), |o| o.label.clone()),
        opening_len: opening_moves.len(),
        black_player: black,
        black: names[black].clone(),
        white: names[1 - black].clone(),
        moves: opening_moves.to_vec(),
        position: String::new(),
        times_ms: Vec::new(),
        outcome: Outcome::Draw,
        reason: String::new(),
    };
    let mut game = match Game::setup(cfg.size, cfg.rule, opening_moves) {
        Ok(g) => g,
        Err(e) => {
            record.reason = format!("bad opening: {e}");
            return record;
        }
    };
    let mut table = match Table::start(cfg, players, &game) {
        Ok(t) => t,
        Err((i, reason)) => {
            let loser = if i == black {
                Color::Black
            } else {
                Color::White
            };
            record.outcome = outcome_of(loser.opponent());
            record.reason = reason;
            return close(record, None, cfg.size);
        }
    };
    if opening_moves.is_empty() && !open(cfg, &mut table, &mut game, &mut record) {
        return close(record, Some(&mut table), cfg.size);
    }
    if let Some((outcome, reason)) = play_out(&mut table, &mut game, &mut record) {
        record.outcome = outcome;
        record.reason = reason;
    }
    close(record, Some(&mut table), cfg.size)
}

/// Plays the opening rule of `cfg` (swap2, a renju rule, or none) on the empty `game` and
/// records the colours it decides. Returns whether the game goes on: a player who fails in
/// the opening loses the game.
fn open(cfg: &MatchConfig, table: &mut Table, game: &mut Game, record: &mut GameRecord) -> bool {
    if cfg.swap2 {
        record.opening = "swap2".to_string();
        let decided = swap2_opening(table, record.black_player, game);
        if !end_opening(record, &table.names, game, decided) {
            return false;
        }
    }
    if let Some(rule) = cfg.renju {
        let decided = renju_opening(table, rule, record.black_player, game);
        let named =
            gomoku_engine::renju::of_game(game).map_or(String::new(), |o| format!(":{}", o.id));
        record.opening = format!("{}{named}", rule.name());
        if !end_opening(record, &table.names, game, decided) {
            return false;
        }
    }
    true
}

/// Records the end of an opening rule: the player it gave Black (or, when a player failed in
/// it, that player as the losing Black) and its stones as the game's opening. Returns whether
/// the game goes on.
fn end_opening(
    record: &mut GameRecord,
    names: &[String; 2],
    game: &Game,
    decided: Result<usize, Failure>,
) -> bool {
    let black = match decided {
        Ok(b) => b,
        Err((loser, reason)) => {
            // the player who failed loses, whatever colour it would have had
            record.outcome = Outcome::White;
            record.reason = reason;
            loser
        }
    };
    record.black_player = black;
    record.black = names[black].clone();
    record.white = names[1 - black].clone();
    record.moves = game.board().moves().to_vec();
    record.opening_len = record.moves.len();
    record.reason.is_empty()
}

/// Plays the game on from `game` to its end and records its moves and their times. Returns
/// how it ended and why (a five, a full board, a foul, a forfeit), or nothing when a player
/// is not there to move.
fn play_out(
    table: &mut Table,
    game: &mut Game,
    record: &mut GameRecord,
) -> Option<(Outcome, String)> {
    let black = record.black_player;
    loop {
        if game.board().is_full() {
            return Some((Outcome::Draw, "board full".to_string()));
        }
        let color = game.board().to_move();
        let idx = if color == Color::Black {
            black
        } else {
            1 - black
        };
        let name = &table.names[idx];
        let lost = outcome_of(color.opponent());
        if only_forbidden_left(game.board()) {
            // whatever Black plays is a foul, and a foul loses (as under a Gomocup referee,
            // which has no pass)
            let reason = format!("{name} has only forbidden points left (a foul)");
            return Some((Outcome::White, reason));
        }
        let player = table.live[idx].as_mut()?;
        let t0 = Instant::now();
        let answer = player.get_move(game, table.clocks[idx]);
        let used = t0.elapsed().as_millis() as u64;
        let m = match answer {
            Ok(m) => m,
            Err(f) => return Some((lost, format!("{name} {}", f.0))),
        };
        if let Some(c) = table.clocks[idx].as_mut() {
            *c = c.saturating_sub(used);
        }
        record.times_ms.push(used);
        match judge_move(game, m, name) {
            Ok(end) => {
                record.moves.push(m);
                if end.is_some() {
                    return end;
                }
            }
            Err(illegal) => return Some((lost, illegal)),
        }
        // a game clock that ran out is a time forfeit even for internal players
        if table.clocks[idx] == Some(0) {
            return Some((lost, format!("{name} time forfeit (game time used up)")));
        }
    }
}

/// Plays the move `m` of the player `name` on `game`: how the game ended with it and why, if
/// it did.
///
/// # Errors
/// An illegal move, which the mover loses (the reason).
fn judge_move(game: &mut Game, m: Pos, name: &str) -> Result<Option<(Outcome, String)>, String> {
    match game.play(m) {
        Ok(Some(GameResult::Win { winner, foul, .. })) => {
            let reason = match foul {
                Some(k) => format!("{name} played a forbidden point ({})", k.name()),
                None => "five".to_string(),
            };
            Ok(Some((outcome_of(*winner), reason)))
        }
        Ok(Some(GameResult::Draw)) => Ok(Some((Outcome::Draw, "board full".to_string()))),
        Ok(None) => Ok(None),
        Err(e) => {
            let why = match e {
                GameError::Occupied { .. } => "occupied",
                GameError::OffBoard { .. } => "off the board",
                _ => "not playable",
            };
            let size = game.board().size();
            Err(format!(
                "{name} illegal move {} ({why})",
                format_pos(m, size)
            ))
        }
    }
}

/// The record of a game that is over: the players are told, and the moves written out.
fn close(mut record: GameRecord, table: Option<&mut Table>, size: usize) -> GameRecord {
    if let Some(t) = table {
        t.finish();
    }
    record.position = format_moves(&record.moves, size);
    record
}
