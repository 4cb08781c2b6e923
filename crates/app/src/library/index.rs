//! The position index: for each game, one row per position of its tree and move played there
//! (`key`, `next`), with the node it happens at, the game's outcome, and whether it is the
//! game's first row for that position (so that the explorer counts games without a `DISTINCT`).
//! A position where a line ends has a row with `next` = [`LEAF`].
//!
//! The table's primary key is `(key, next, game)`: the rows of a position are together in
//! the file, sorted by the move, which is how the explorer reads them. A game's rows are
//! written as a difference from what was there before ([`write()`]), so that a move on the board
//! writes a few rows, not the whole game.
//!
//! A game's *identity* ([`identity`]) is made of its rows (so of its positions and moves, in
//! any orientation and any order of lines) and of its players, date, event, round and name:
//! a game imported twice is recognised by it.

use super::game::{LibGame, NodeId};
use super::hot::{of_row, Counts};
use super::symmetry::{mix, SymHash};
use gomoku_engine::Color;
use rusqlite::{params, Transaction};
use std::collections::{HashMap, HashSet};

/// The `next` of a row where a line ends.
pub const LEAF: i64 = -1;

/// One row of a game in the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Row {
    /// The position's key.
    pub key: i64,
    /// The code of the move played there (canonical), or [`LEAF`].
    pub next: i64,
    /// The node of the position (the first one, when a game reaches it twice).
    pub node: NodeId,
    /// Whether this is the game's first row of the position.
    pub first: bool,
    /// The number of moves to the position from the start (not stored).
    pub depth: usize,
}

/// The symmetric hash of a game's start position (its set-up stones, its side to move).
#[must_use]
pub fn start(game: &LibGame) -> SymHash {
    let mut h = SymHash::new(game.size, game.rule);
    for &p in &game.black {
        h.put(p, Color::Black);
    }
    for &p in &game.white {
        h.put(p, Color::White);
    }
    h.set_to_move(game.to_move);
    h
}

/// The rows of a game: every position of its tree with each move played there.
#[must_use]
pub fn rows(game: &LibGame) -> Vec<Row> {
    let mut out = Vec::new();
    let mut seen: HashMap<(i64, i64), ()> = HashMap::new();
    let mut firsts: HashMap<i64, ()> = HashMap::new();
    // the hash of the position at each depth of the line being walked
    let mut line: Vec<SymHash> = Vec::new();
    for (id, depth) in game.tree.preorder() {
        let Some(node) = game.tree.get(id) else {
            continue;
        };
        line.truncate(depth);
        let here = match line.last() {
            Some(h) => h.after(node.point),
            None => start(game),
        };
        line.push(here);
        let keyed = here.keyed();
        let mut add = |next: i64| {
            if seen.insert((keyed.key, next), ()).is_none() {
                out.push(Row {
                    key: keyed.key,
                    next,
                    node: id,
                    first: firsts.insert(keyed.key, ()).is_none(),
                    depth,
                });
            }
        };
        if node.children.is_empty() {
            add(LEAF);
        }
        for &c in &node.children {
            if let Some(child) = game.tree.get(c) {
                add(keyed.canonical(child.point));
            }
        }
    }
    out
}

/// FNV-1a of a text (a fixed function: identities are stored).
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The identity of a game with these rows: the same for the same tree in any orientation and
/// order of lines, with the same players, date, event, round and name (compared without case
/// and spaces around).
#[must_use]
pub fn identity(game: &LibGame, rows: &[Row]) -> i64 {
    let mut h: u64 = rows.iter().fold(0u64, |acc, r| {
        let x = (r.key as u64) ^ (r.next as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        acc.wrapping_add(mix(x))
    });
    let t = &game.tags;
    for (i, text) in [&t.black, &t.white, &t.date, &t.event, &t.round, &t.name]
        .iter()
        .enumerate()
    {
        let v = text.trim().to_lowercase();
        h = h.rotate_left(7) ^ fnv(&format!("{i}:{v}"));
    }
    h as i64
}

/// Writes the rows of game `id`: `new` in place of `old` (both as [`rows`] made them), each row
/// with the game's outcome (`outcome`, the number stored; `old_outcome` the one stored before).
/// The counts of the hot positions among them (`hot`: [`super::hot::keys`]) follow.
///
/// # Errors
/// An SQLite error.
pub fn write(
    tx: &Transaction<'_>,
    hot: &HashSet<i64>,
    id: i64,
    old: (&[Row], i64),
    new: (&[Row], i64),
) -> rusqlite::Result<()> {
    let ((old, old_outcome), (new, outcome)) = (old, new);
    let same = |a: &Row, b: &Row| a.node == b.node && a.first == b.first;
    let before: HashMap<(i64, i64), &Row> = old.iter().map(|r| ((r.key, r.next), r)).collect();
    let after: HashMap<(i64, i64), &Row> = new.iter().map(|r| ((r.key, r.next), r)).collect();
    let kept = |r: &Row, other: &HashMap<(i64, i64), &Row>| {
        old_outcome == outcome && other.get(&(r.key, r.next)).is_some_and(|o| same(o, r))
    };
    let mut deltas: HashMap<(i64, i64), Counts> = HashMap::new();
    let mut count = |r: &Row, o: i64, sign: i64| {
        if hot.contains(&r.key) {
            let d = deltas.entry((r.key, r.next)).or_default();
            for (a, b) in d.iter_mut().zip(of_row(o, r.first)) {
                *a += sign * b;
            }
        }
    };
    let mut del =
        tx.prepare_cached("DELETE FROM positions WHERE key = ?1 AND next = ?2 AND game = ?3")?;
    for r in old.iter().filter(|r| !kept(r, &after)) {
        del.execute(params![r.key, r.next, id])?;
        count(r, old_outcome, -1);
    }
    let mut ins = tx.prepare_cached(
        "INSERT INTO positions (key, next, game, node, outcome, first) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for r in new.iter().filter(|r| !kept(r, &before)) {
        ins.execute(params![r.key, r.next, id, r.node, outcome, r.first])?;
        count(r, outcome, 1);
    }
    if !deltas.is_empty() {
        super::hot::adjust(tx, &deltas)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::game::ROOT;
    use gomoku_engine::notation::parse_pos;
    use gomoku_engine::{Pos, Rule};

    fn line(g: &mut LibGame, moves: &[&str]) {
        let mut at = ROOT;
        for m in moves {
            at = g.tree.add(at, parse_pos(m, 15).unwrap()).unwrap();
        }
    }

    #[test]
    fn a_game_has_a_row_per_position_and_move() {
        let mut g = LibGame::new(15, Rule::Renju);
        line(&mut g, &["h8", "h9", "i8"]);
        line(&mut g, &["h8", "i9"]);
        let r = rows(&g);
        // root->h8, h8->h9, h8->i9, h9->i8, i8 end, i9 end
        assert_eq!(r.len(), 6);
        assert_eq!(r.iter().filter(|r| r.next == LEAF).count(), 2);
        // the position after h8 has two rows, one of them first
        let after_h8 = r[1].key;
        let of_h8: Vec<&Row> = r.iter().filter(|x| x.key == after_h8).collect();
        assert_eq!(of_h8.len(), 2);
        assert_eq!(of_h8.iter().filter(|x| x.first).count(), 1);
    }

    #[test]
    fn identity_ignores_orientation_and_the_order_of_lines_but_not_players() {
        let mut a = LibGame::new(15, Rule::Renju);
        line(&mut a, &["h8", "h9", "i8"]);
        line(&mut a, &["h8", "i9"]);
        let mut b = LibGame::new(15, Rule::Renju);
        // the mirror image x -> 14 - x, lines the other way round
        line(&mut b, &["h8", "g9"]);
        line(&mut b, &["h8", "h9", "g8"]);
        let id = |g: &LibGame| identity(g, &rows(g));
        assert_eq!(id(&a), id(&b));
        b.tags.black = "Someone".into();
        assert_ne!(id(&a), id(&b));
        a.tags.black = " someone ".into();
        assert_eq!(id(&a), id(&b));
        let mut c = a.clone();
        c.tree.add(ROOT, Pos::new(0, 0)).unwrap();
        assert_ne!(id(&a), id(&c));
    }
}
