//! The counts of busy positions: for a position many games go through (the empty board, the
//! first moves), the explorer's counts per move are kept ready (`hot_moves`), so that a query
//! reads a few rows instead of one per game.
//!
//! A position becomes *hot* when it has [`HOT_ROWS`] index rows or more: the explorer makes it
//! so when it meets one, and an import does for the positions it added many rows to. From then
//! on every write of index rows of a hot position ([`super::index::write`]) changes its counts
//! in the same transaction. Counts per move: the rows, the rows by outcome (unknown, Black,
//! White, draw), the games' first rows, and those by outcome.

use rusqlite::{params, Connection, Transaction};
use std::collections::{HashMap, HashSet};

/// Positions with at least this many index rows are kept counted.
pub const HOT_ROWS: i64 = 1_000;

/// The counts of one move: rows, rows by outcome (4), first rows, first rows by outcome (4).
pub type Counts = [i64; 10];

/// The counts of a row with `outcome` (0..4), first or not: what it adds.
#[must_use]
pub fn of_row(outcome: i64, first: bool) -> Counts {
    let o = outcome.clamp(0, 3) as usize;
    let mut c = [0; 10];
    c[0] = 1;
    c[1 + o] = 1;
    if first {
        c[5] = 1;
        c[6 + o] = 1;
    }
    c
}

/// The hot positions (read at the start of a write, in its transaction).
///
/// # Errors
/// An SQLite error.
pub fn keys(tx: &Transaction<'_>) -> rusqlite::Result<HashSet<i64>> {
    let mut q = tx.prepare_cached("SELECT key FROM hot_keys")?;
    let keys = q.query_map([], |r| r.get(0))?;
    keys.collect()
}

/// Adds `deltas` to the counts of (position, move).
///
/// # Errors
/// An SQLite error.
pub fn adjust(tx: &Transaction<'_>, deltas: &HashMap<(i64, i64), Counts>) -> rusqlite::Result<()> {
    let mut q = tx.prepare_cached(
        "INSERT INTO hot_moves (key, next, c0, c1, c2, c3, c4, c5, c6, c7, c8, c9) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) \
         ON CONFLICT(key, next) DO UPDATE SET c0 = c0 + excluded.c0, c1 = c1 + excluded.c1, \
         c2 = c2 + excluded.c2, c3 = c3 + excluded.c3, c4 = c4 + excluded.c4, \
         c5 = c5 + excluded.c5, c6 = c6 + excluded.c6, c7 = c7 + excluded.c7, \
         c8 = c8 + excluded.c8, c9 = c9 + excluded.c9",
    )?;
    for (&(key, next), c) in deltas {
        q.execute(params![
            key, next, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9]
        ])?;
    }
    Ok(())
}

/// The counts per move of a position from its index rows.
///
/// # Errors
/// An SQLite error.
pub fn scan(conn: &Connection, key: i64) -> rusqlite::Result<Vec<(i64, Counts)>> {
    // the rows are stored in the order of `next`: no sort
    let mut q = conn.prepare_cached(
        "SELECT next, count(*), sum(outcome = 0), sum(outcome = 1), sum(outcome = 2), \
         sum(outcome = 3), sum(first), sum(first AND outcome = 0), sum(first AND outcome = 1), \
         sum(first AND outcome = 2), sum(first AND outcome = 3) FROM positions WHERE key = ?1 \
         GROUP BY next",
    )?;
    let mut rows = q.query([key])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        let mut c = [0; 10];
        for (i, v) in c.iter_mut().enumerate() {
            *v = r.get(1 + i)?;
        }
        out.push((r.get(0)?, c));
    }
    Ok(out)
}

/// The kept counts per move of a hot position (`None` when it is not hot).
///
/// # Errors
/// An SQLite error.
pub fn counted(conn: &Connection, key: i64) -> rusqlite::Result<Option<Vec<(i64, Counts)>>> {
    let hot: Option<i64> = conn
        .prepare_cached("SELECT key FROM hot_keys WHERE key = ?1")?
        .query_row([key], |r| r.get(0))
        .ok();
    if hot.is_none() {
        return Ok(None);
    }
    let mut q = conn.prepare_cached(
        "SELECT next, c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 FROM hot_moves \
         WHERE key = ?1 AND c0 > 0",
    )?;
    let mut rows = q.query([key])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        let mut c = [0; 10];
        for (i, v) in c.iter_mut().enumerate() {
            *v = r.get(1 + i)?;
        }
        out.push((r.get(0)?, c));
    }
    Ok(Some(out))
}

/// Makes position `key` hot, counting its rows as they are, if it has [`HOT_ROWS`] or more
/// and is not hot yet; returns whether it did.
///
/// # Errors
/// An SQLite error.
pub fn promote(tx: &Transaction<'_>, key: i64) -> rusqlite::Result<bool> {
    let already: Option<i64> = tx
        .prepare_cached("SELECT key FROM hot_keys WHERE key = ?1")?
        .query_row([key], |r| r.get(0))
        .ok();
    let rows: i64 = tx
        .prepare_cached("SELECT count(*) FROM (SELECT 1 FROM positions WHERE key = ?1 LIMIT ?2)")?
        .query_row(params![key, HOT_ROWS], |r| r.get(0))?;
    if already.is_some() || rows < HOT_ROWS {
        return Ok(false);
    }
    let counts: HashMap<(i64, i64), Counts> = scan(tx, key)?
        .into_iter()
        .map(|(next, c)| ((key, next), c))
        .collect();
    tx.execute("DELETE FROM hot_moves WHERE key = ?1", [key])?;
    adjust(tx, &counts)?;
    tx.execute("INSERT INTO hot_keys (key) VALUES (?1)", [key])?;
    Ok(true)
}
