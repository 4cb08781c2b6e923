//! Games in and out of the file: a new game ([`Library::insert`]), a game written again after
//! a change ([`Library::save`]: only what changed is written: the row of the game, the notes
//! that differ, the index rows that differ), a game read back ([`Library::load`]), its tags
//! changed, deleted (so that it can be restored) and restored.
//!
//! Every write is one immediate transaction: a change is either all in the file or not at all,
//! and another process writing the same file waits its turn.

use super::game::{GameTree, Label, LibGame, NodeId, Note, Tags};
use super::hot;
use super::index::{self, Row};
use super::{now, Library, LibraryError, Result};
use gomoku_engine::notation::{format_pos, parse_pos};
use gomoku_engine::{Color, Pos, Rule};
use rusqlite::{params, OptionalExtension, Transaction, TransactionBehavior};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};

/// A game as stored, with what the library knows about it besides the game.
#[derive(Clone, Debug)]
pub struct Stored {
    /// Its number in the library.
    pub id: i64,
    /// The game.
    pub game: LibGame,
    /// The board's id of a game played on the board.
    pub board_id: Option<String>,
    /// The board's state of such a game (players, level, the node shown), as JSON.
    pub board_state: Option<String>,
    /// When it was added and last changed (seconds since 1970).
    pub created: i64,
    /// When it was last changed.
    pub modified: i64,
    /// When it was deleted (`None`: it is not).
    pub deleted: Option<i64>,
}

/// The set-up stones of a game, as stored (`""` for none with Black to move).
#[derive(Debug, Default, Serialize, Deserialize)]
struct Setup {
    black: Vec<String>,
    white: Vec<String>,
    to_move: String,
}

fn setup_text(g: &LibGame) -> String {
    if g.black.is_empty() && g.white.is_empty() && g.to_move == Color::Black {
        return String::new();
    }
    let names = |ps: &[Pos]| ps.iter().map(|&p| format_pos(p, g.size)).collect();
    serde_json::to_string(&Setup {
        black: names(&g.black),
        white: names(&g.white),
        to_move: g.to_move.name().to_string(),
    })
    .unwrap_or_default()
}

fn read_setup(text: &str, g: &mut LibGame) -> std::result::Result<(), String> {
    if text.is_empty() {
        return Ok(());
    }
    let s: Setup = serde_json::from_str(text).map_err(|e| format!("set-up stones: {e}"))?;
    let points = |v: &[String]| -> std::result::Result<Vec<Pos>, String> {
        v.iter()
            .map(|t| parse_pos(t, g.size).map_err(|e| e.to_string()))
            .collect()
    };
    g.black = points(&s.black)?;
    g.white = points(&s.white)?;
    g.to_move = if s.to_move == "white" {
        Color::White
    } else {
        Color::Black
    };
    Ok(())
}

/// A node's labels as stored: `[["h8", "A"], ["i9", ""]]`.
pub(crate) fn labels_text(labels: &[Label], size: usize) -> String {
    if labels.is_empty() {
        return String::new();
    }
    let pairs: Vec<(String, &str)> = labels
        .iter()
        .map(|l| (format_pos(l.point, size), l.text.as_str()))
        .collect();
    serde_json::to_string(&pairs).unwrap_or_default()
}

pub(crate) fn read_labels(text: &str, size: usize) -> Vec<Label> {
    if text.is_empty() {
        return Vec::new();
    }
    let pairs: Vec<(String, String)> = serde_json::from_str(text).unwrap_or_default();
    pairs
        .into_iter()
        .filter_map(|(p, text)| parse_pos(&p, size).ok().map(|point| Label { point, text }))
        .collect()
}

/// The notes of a game's nodes, by node.
fn notes_of(g: &LibGame) -> HashMap<NodeId, &Note> {
    g.tree
        .nodes()
        .filter(|(_, n)| !n.note.is_empty())
        .map(|(id, n)| (id, &n.note))
        .collect()
}

/// The columns of the games row that a save writes.
const GAME_COLUMNS: &str = "size, rule, setup, name, black, white, event, round, date, place, \
     result, opening_rule, opening, source, moves, tree, identity";

/// Reads a game's row (columns in the order of [`GAME_COLUMNS`] after `id`, then
/// `board_id, board_state, created, modified, deleted`); its notes are read apart.
fn read_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<(Stored, Vec<u8>, String)> {
    let size: i64 = r.get(1)?;
    let rule: String = r.get(2)?;
    let size = size.clamp(5, 22) as usize;
    let rule = rule.parse::<Rule>().unwrap_or(Rule::Freestyle);
    let mut game = LibGame::new(size, rule);
    game.tags = Tags {
        name: r.get(4)?,
        black: r.get(5)?,
        white: r.get(6)?,
        event: r.get(7)?,
        round: r.get(8)?,
        date: r.get(9)?,
        place: r.get(10)?,
        result: r.get(11)?,
        opening_rule: r.get(12)?,
        opening: r.get(13)?,
        source: r.get(14)?,
    };
    let setup: String = r.get(3)?;
    let blob: Vec<u8> = r.get(16)?;
    Ok((
        Stored {
            id: r.get(0)?,
            game,
            board_id: r.get(18)?,
            board_state: r.get(19)?,
            created: r.get(20)?,
            modified: r.get(21)?,
            deleted: r.get(22)?,
        },
        blob,
        setup,
    ))
}

/// Reads game `id` in a transaction (or on the connection), whether deleted or not.
fn load_in(conn: &rusqlite::Connection, id: i64) -> Result<Option<Stored>> {
    let sql = format!(
        "SELECT id, {GAME_COLUMNS}, board_id, board_state, created, modified, deleted \
         FROM games WHERE id = ?1"
    );
    let Some((mut stored, blob, setup)) = conn.query_row(&sql, [id], read_row).optional()? else {
        return Ok(None);
    };
    let bad = |e: String| LibraryError(format!("game {id} of the library is damaged: {e}"));
    read_setup(&setup, &mut stored.game).map_err(bad)?;
    stored.game.tree = GameTree::decode(&blob, stored.game.size).map_err(bad)?;
    let mut q =
        conn.prepare_cached("SELECT node, comment, labels, engine FROM notes WHERE game = ?1")?;
    let size = stored.game.size;
    let notes = q.query_map([id], |r| {
        let node: i64 = r.get(0)?;
        let labels: String = r.get(2)?;
        Ok((
            node,
            Note {
                comment: r.get(1)?,
                labels: read_labels(&labels, size),
                engine: r.get(3)?,
            },
        ))
    })?;
    for n in notes {
        let (node, note) = n?;
        if let Some(n) = u32::try_from(node)
            .ok()
            .and_then(|node| stored.game.tree.get_mut(node))
        {
            n.note = note;
        }
    }
    Ok(Some(stored))
}

/// Writes the notes of `new` in place of those of `old`.
fn write_notes(tx: &Transaction<'_>, id: i64, old: Option<&LibGame>, new: &LibGame) -> Result<()> {
    let before = old.map(notes_of).unwrap_or_default();
    let after = notes_of(new);
    let mut del = tx.prepare_cached("DELETE FROM notes WHERE game = ?1 AND node = ?2")?;
    for node in before.keys() {
        if !after.contains_key(node) {
            del.execute(params![id, node])?;
        }
    }
    let mut put = tx.prepare_cached(
        "INSERT OR REPLACE INTO notes (game, node, comment, labels, engine) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for (node, note) in &after {
        if before.get(node) != Some(note) {
            put.execute(params![
                id,
                node,
                note.comment,
                labels_text(&note.labels, new.size),
                note.engine
            ])?;
        }
    }
    Ok(())
}

/// The game's columns as [`GAME_COLUMNS`] lists them.
fn columns(g: &LibGame, identity: i64) -> [rusqlite::types::Value; 17] {
    use rusqlite::types::Value;
    let t = &g.tags;
    let s = |v: &String| Value::Text(v.clone());
    [
        Value::Integer(g.size as i64),
        Value::Text(g.rule.name().to_string()),
        Value::Text(setup_text(g)),
        s(&t.name),
        s(&t.black),
        s(&t.white),
        s(&t.event),
        s(&t.round),
        s(&t.date),
        s(&t.place),
        s(&t.result),
        s(&t.opening_rule),
        s(&t.opening),
        s(&t.source),
        Value::Integer(g.tree.moves() as i64),
        Value::Blob(g.tree.encode()),
        Value::Integer(identity),
    ]
}

/// Adds a game in a transaction; returns its id.
pub(crate) fn insert_in(
    tx: &Transaction<'_>,
    hot: &HashSet<i64>,
    g: &LibGame,
    rows: &[Row],
    board_id: Option<&str>,
    board_state: Option<&str>,
) -> Result<i64> {
    let identity = index::identity(g, rows);
    let t = now();
    let mut q = tx.prepare_cached(&format!(
        "INSERT INTO games ({GAME_COLUMNS}, board_id, board_state, created, modified) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, \
         ?18, ?19, ?20, ?20)"
    ))?;
    let mut values: Vec<rusqlite::types::Value> = columns(g, identity).into();
    values.push(board_id.map_or(rusqlite::types::Value::Null, |s| s.to_string().into()));
    values.push(board_state.map_or(rusqlite::types::Value::Null, |s| s.to_string().into()));
    values.push(t.into());
    q.execute(rusqlite::params_from_iter(values))?;
    let id = tx.last_insert_rowid();
    write_notes(tx, id, None, g)?;
    index::write(tx, hot, id, (&[], 0), (rows, g.outcome().number()))?;
    Ok(id)
}

/// The tags of a game the board writes: the board's own (result, opening) over `old`'s, the
/// person's (name, players, event, round, date, place, source) kept.
fn merge_board_tags(old: &Tags, new: &mut Tags) {
    let keep = |o: &String, n: &mut String| o.clone_into(n);
    keep(&old.name, &mut new.name);
    keep(&old.black, &mut new.black);
    keep(&old.white, &mut new.white);
    keep(&old.event, &mut new.event);
    keep(&old.round, &mut new.round);
    keep(&old.date, &mut new.date);
    keep(&old.place, &mut new.place);
    if !old.source.is_empty() {
        keep(&old.source, &mut new.source);
    }
    // a game that came from a file keeps the result and opening the file gave it while the
    // board finds none (a resignation, an opening the board does not name)
    let from_file = !old.source.is_empty() && old.source != "board";
    if from_file && new.result.is_empty() {
        keep(&old.result, &mut new.result);
    }
    if from_file && new.opening.is_empty() {
        keep(&old.opening, &mut new.opening);
    }
}

/// A tag a patch may change: a field of [`Tags`] (all but `source`), named as in JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TagName {
    /// `GN`.
    Name,
    /// `PB`.
    Black,
    /// `PW`.
    White,
    /// `EV`.
    Event,
    /// `RO`.
    Round,
    /// `DT`.
    Date,
    /// `PC`.
    Place,
    /// `RE`.
    Result,
    /// The opening rule.
    OpeningRule,
    /// `ON`.
    Opening,
}

impl TagName {
    /// The tag's field in `tags`, and its name.
    fn field(self, tags: &mut Tags) -> (&mut String, &'static str) {
        match self {
            TagName::Name => (&mut tags.name, "name"),
            TagName::Black => (&mut tags.black, "black"),
            TagName::White => (&mut tags.white, "white"),
            TagName::Event => (&mut tags.event, "event"),
            TagName::Round => (&mut tags.round, "round"),
            TagName::Date => (&mut tags.date, "date"),
            TagName::Place => (&mut tags.place, "place"),
            TagName::Result => (&mut tags.result, "result"),
            TagName::OpeningRule => (&mut tags.opening_rule, "opening_rule"),
            TagName::Opening => (&mut tags.opening, "opening"),
        }
    }
}

/// A change of a game's tags, as JSON an object of tag names: each tag given replaces the
/// tag (`null` leaves it as it is); a name that is no tag is refused.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(transparent)]
pub struct TagsPatch(pub BTreeMap<TagName, Option<String>>);

/// The longest tag accepted.
pub const TAG_MAX: usize = 1_000;

impl TagsPatch {
    /// Applies the patch to `tags`.
    ///
    /// # Errors
    /// A tag longer than [`TAG_MAX`] characters.
    pub fn apply(&self, tags: &mut Tags) -> std::result::Result<(), String> {
        for (&tag, value) in &self.0 {
            let Some(v) = value else { continue };
            let (field, name) = tag.field(tags);
            if v.chars().count() > TAG_MAX {
                return Err(format!("{name}: at most {TAG_MAX} characters"));
            }
            v.trim().clone_into(field);
        }
        Ok(())
    }
}

impl Library {
    /// Adds a game; returns its id.
    ///
    /// # Errors
    /// A game whose lines cannot be played ([`LibGame::check`]), or an SQLite error.
    pub fn insert(&self, g: &LibGame) -> Result<i64> {
        self.insert_board(g, None, None)
    }

    /// Adds a game played on the board, with the board's id and state.
    ///
    /// # Errors
    /// As [`Library::insert`].
    pub fn insert_board(
        &self,
        g: &LibGame,
        board_id: Option<&str>,
        board_state: Option<&str>,
    ) -> Result<i64> {
        g.check()?;
        let rows = index::rows(g);
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let hot = hot::keys(&tx)?;
        let id = insert_in(&tx, &hot, g, &rows, board_id, board_state)?;
        tx.commit()?;
        Ok(id)
    }

    /// Writes game `id` again as `g` (and the board's state, when given): only the notes and
    /// index rows that changed are written.
    ///
    /// # Errors
    /// No such game, a game whose lines cannot be played, or an SQLite error.
    pub fn save(&self, id: i64, g: &LibGame, board_state: Option<&str>) -> Result<()> {
        self.save_with(id, g, board_state, false)
    }

    /// Writes game `id` again as the board has it, with the board's state: as
    /// [`Library::save`], but the tags a person gives in the library (name, players, event,
    /// round, date, place) stay as they are there, and so do the result and opening when the
    /// board has none.
    ///
    /// # Errors
    /// As [`Library::save`].
    pub fn save_board(&self, id: i64, g: &LibGame, board_state: &str) -> Result<()> {
        self.save_with(id, g, Some(board_state), true)
    }

    fn save_with(
        &self,
        id: i64,
        g: &LibGame,
        board_state: Option<&str>,
        keep_tags: bool,
    ) -> Result<()> {
        g.check()?;
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let old = load_in(&tx, id)?
            .ok_or_else(|| LibraryError(format!("no game {id} in the library")))?;
        let merged;
        let g = if keep_tags {
            let mut m = g.clone();
            merge_board_tags(&old.game.tags, &mut m.tags);
            merged = m;
            &merged
        } else {
            g
        };
        let new_rows = index::rows(g);
        if old.deleted.is_none() {
            let old_rows = index::rows(&old.game);
            index::write(
                &tx,
                &hot::keys(&tx)?,
                id,
                (&old_rows, old.game.outcome().number()),
                (&new_rows, g.outcome().number()),
            )?;
        }
        write_notes(&tx, id, Some(&old.game), g)?;
        let identity = index::identity(g, &new_rows);
        let mut values: Vec<rusqlite::types::Value> = columns(g, identity).into();
        values.push(now().into());
        values.push(id.into());
        let sets: Vec<String> = GAME_COLUMNS
            .split(", ")
            .enumerate()
            .map(|(i, c)| format!("{c} = ?{}", i + 1))
            .collect();
        tx.prepare_cached(&format!(
            "UPDATE games SET {}, modified = ?18 WHERE id = ?19",
            sets.join(", ")
        ))?
        .execute(rusqlite::params_from_iter(values))?;
        if let Some(state) = board_state {
            tx.execute(
                "UPDATE games SET board_state = ?1 WHERE id = ?2",
                params![state, id],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Game `id`, deleted or not.
    ///
    /// # Errors
    /// A damaged game, or an SQLite error.
    pub fn load(&self, id: i64) -> Result<Option<Stored>> {
        load_in(&self.conn(), id)
    }

    /// The game played on the board under the board's id `board_id`, if it is in the library
    /// (and not deleted).
    ///
    /// # Errors
    /// As [`Library::load`].
    pub fn find_board_game(&self, board_id: &str) -> Result<Option<Stored>> {
        let conn = self.conn();
        let id: Option<i64> = conn
            .query_row(
                "SELECT id FROM games WHERE board_id = ?1 AND deleted IS NULL",
                [board_id],
                |r| r.get(0),
            )
            .optional()?;
        match id {
            Some(id) => load_in(&conn, id),
            None => Ok(None),
        }
    }

    /// Changes the tags of game `id`; returns the game.
    ///
    /// # Errors
    /// No such game, a tag too long, or an SQLite error.
    pub fn set_tags(&self, id: i64, patch: &TagsPatch) -> Result<Stored> {
        let stored = self
            .load(id)?
            .ok_or_else(|| LibraryError(format!("no game {id} in the library")))?;
        let mut g = stored.game.clone();
        patch.apply(&mut g.tags)?;
        self.save(id, &g, None)?;
        self.load(id)?
            .ok_or_else(|| LibraryError(format!("no game {id} in the library")))
    }

    /// Deletes game `id` so that it can be restored: it leaves the lists and the explorer.
    /// Returns false when there is no such game, or it is deleted already.
    ///
    /// # Errors
    /// An SQLite error.
    pub fn delete(&self, id: i64) -> Result<bool> {
        self.set_deleted(id, true)
    }

    /// Restores deleted game `id`. Returns false when there is no such deleted game.
    ///
    /// # Errors
    /// An SQLite error.
    pub fn restore(&self, id: i64) -> Result<bool> {
        self.set_deleted(id, false)
    }

    /// Deletes (`deleted`) or restores game `id`: its positions leave the index or come back
    /// to it. False when the game is not there or is that way already.
    fn set_deleted(&self, id: i64, deleted: bool) -> Result<bool> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let Some(old) = load_in(&tx, id)?.filter(|s| s.deleted.is_some() != deleted) else {
            return Ok(false);
        };
        let rows = index::rows(&old.game);
        let indexed = (&rows[..], old.game.outcome().number());
        let (before, after) = if deleted {
            (indexed, (&[][..], 0))
        } else {
            ((&[][..], 0), indexed)
        };
        let hot = hot::keys(&tx)?;
        index::write(&tx, &hot, id, before, after)?;
        let when = deleted.then(now);
        tx.execute(
            "UPDATE games SET deleted = ?1 WHERE id = ?2",
            params![when, id],
        )?;
        tx.commit()?;
        Ok(true)
    }

    /// Removes the games deleted more than `age_s` seconds ago for good; returns how many.
    ///
    /// # Errors
    /// An SQLite error.
    pub fn purge(&self, age_s: i64) -> Result<usize> {
        let conn = self.conn();
        Ok(conn.execute(
            "DELETE FROM games WHERE deleted IS NOT NULL AND deleted <= ?1",
            [now() - age_s],
        )?)
    }

    /// The id of a game (not deleted) with this identity, if there is one.
    pub(crate) fn find_identity(tx: &Transaction<'_>, identity: i64) -> Result<Option<i64>> {
        Ok(tx
            .prepare_cached("SELECT id FROM games WHERE identity = ?1 AND deleted IS NULL LIMIT 1")?
            .query_row([identity], |r| r.get(0))
            .optional()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::game::ROOT;

    fn lib() -> (tempfile::TempDir, Library) {
        let dir = tempfile::tempdir().unwrap();
        let lib = Library::open(&dir.path().join("lib.sqlite")).unwrap();
        (dir, lib)
    }

    fn count(lib: &Library, sql: &str) -> i64 {
        lib.conn().query_row(sql, [], |r| r.get(0)).unwrap()
    }

    #[test]
    fn a_game_goes_in_changes_and_comes_back_whole() {
        let (_dir, lib) = lib();
        let mut g = LibGame::new(15, Rule::Renju);
        g.tags.black = "Ann".into();
        g.white = vec![Pos::new(0, 0)];
        g.to_move = Color::Black;
        let a = g.tree.add(ROOT, Pos::new(7, 7)).unwrap();
        let b = g.tree.add(a, Pos::new(7, 8)).unwrap();
        g.tree.get_mut(b).unwrap().note = Note {
            comment: "a comment".into(),
            labels: vec![Label {
                point: Pos::new(8, 8),
                text: "A".into(),
            }],
            engine: None,
        };
        let id = lib.insert(&g).unwrap();
        let back = lib.load(id).unwrap().unwrap();
        assert_eq!(back.game, g);
        assert_eq!(count(&lib, "SELECT count(*) FROM positions"), 3);
        // a new line, a comment gone, a result
        let c = g.tree.add(a, Pos::new(6, 6)).unwrap();
        g.tree.get_mut(b).unwrap().note.comment.clear();
        g.tree.get_mut(c).unwrap().note.comment = "better".into();
        g.tags.result = "B+".into();
        lib.save(id, &g, Some("{}")).unwrap();
        let back = lib.load(id).unwrap().unwrap();
        assert_eq!(back.game, g);
        assert_eq!(back.board_state.as_deref(), Some("{}"));
        assert_eq!(count(&lib, "SELECT count(*) FROM positions"), 5);
        assert_eq!(
            count(&lib, "SELECT count(*) FROM positions WHERE outcome = 1"),
            5
        );
        assert_eq!(count(&lib, "SELECT count(*) FROM notes"), 2);
        // deleted: out of the index; restored: back in
        assert!(lib.delete(id).unwrap());
        assert!(!lib.delete(id).unwrap());
        assert_eq!(count(&lib, "SELECT count(*) FROM positions"), 0);
        assert!(lib.restore(id).unwrap());
        assert_eq!(count(&lib, "SELECT count(*) FROM positions"), 5);
        let s = lib
            .set_tags(
                id,
                &TagsPatch([(TagName::Name, Some(" Final ".into()))].into()),
            )
            .unwrap();
        assert_eq!(s.game.tags.name, "Final");
        assert_eq!(s.game.tags.black, "Ann");
    }

    #[test]
    fn a_game_with_a_move_on_a_stone_is_refused() {
        let (_dir, lib) = lib();
        let mut g = LibGame::new(15, Rule::Freestyle);
        let a = g.tree.add(ROOT, Pos::new(7, 7)).unwrap();
        g.tree.add(a, Pos::new(7, 7)).unwrap();
        assert!(lib.insert(&g).unwrap_err().0.contains("on a stone"));
        assert_eq!(count(&lib, "SELECT count(*) FROM games"), 0);
    }
}
