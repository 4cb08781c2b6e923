//! The library file: checks before it is opened, the connection's settings, and the schema's
//! numbered migrations.
//!
//! A library is an SQLite database whose `application_id` is [`APPLICATION_ID`] and whose
//! `user_version` is the number of migrations applied. A file that is not an SQLite database,
//! a database of another program, or a library of a newer schema is refused with a message
//! that says so, and nothing in it is changed. The journal is a write-ahead log (WAL): a
//! change is in the file once its transaction commits, whatever happens to the process
//! afterwards, and readers never wait for a writer.
//!
//! Tables:
//! - `games`: one row per game: its tags, size, rule, set-up stones, its tree of moves as a
//!   blob ([`super::game::GameTree::encode`]), its identity (to recognise it again), the
//!   board's state of a game played on the board, and `deleted` (the time of a delete that
//!   can still be undone);
//! - `notes`: comments, labels and engine figures of a game's nodes, one row per node that
//!   has any;
//! - `positions`: the position index, one row per position of a game and move played there
//!   ([`super::index`]);
//! - `hot_keys`, `hot_moves`: the explorer's counts of the positions many games go through
//!   ([`super::hot`]);
//! - `analyses`: the engine's analyses of positions, one per position key
//!   ([`super::analyses`]).

use rusqlite::Connection;
use std::path::Path;

/// `PRAGMA application_id` of a library ("GmkL").
pub const APPLICATION_ID: i32 = 0x476d_6b4c;

/// The migrations, in order: migration `i` takes the schema from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    // 1: games, their nodes' notes, the position index and the analyses
    "CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        size INTEGER NOT NULL,
        rule TEXT NOT NULL,
        setup TEXT NOT NULL DEFAULT '',
        name TEXT NOT NULL DEFAULT '',
        black TEXT NOT NULL DEFAULT '',
        white TEXT NOT NULL DEFAULT '',
        event TEXT NOT NULL DEFAULT '',
        round TEXT NOT NULL DEFAULT '',
        date TEXT NOT NULL DEFAULT '',
        place TEXT NOT NULL DEFAULT '',
        result TEXT NOT NULL DEFAULT '',
        opening_rule TEXT NOT NULL DEFAULT '',
        opening TEXT NOT NULL DEFAULT '',
        source TEXT NOT NULL DEFAULT '',
        moves INTEGER NOT NULL DEFAULT 0,
        tree BLOB NOT NULL,
        identity INTEGER NOT NULL,
        board_id TEXT UNIQUE,
        board_state TEXT,
        created INTEGER NOT NULL,
        modified INTEGER NOT NULL,
        deleted INTEGER
    );
    CREATE INDEX games_identity ON games(identity);
    CREATE TABLE notes (
        game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        node INTEGER NOT NULL,
        comment TEXT NOT NULL DEFAULT '',
        labels TEXT NOT NULL DEFAULT '',
        engine TEXT,
        PRIMARY KEY (game, node)
    ) WITHOUT ROWID;
    CREATE TABLE positions (
        key INTEGER NOT NULL,
        next INTEGER NOT NULL,
        game INTEGER NOT NULL,
        node INTEGER NOT NULL,
        outcome INTEGER NOT NULL,
        first INTEGER NOT NULL,
        PRIMARY KEY (key, next, game)
    ) WITHOUT ROWID;
    CREATE TABLE hot_keys (key INTEGER PRIMARY KEY);
    CREATE TABLE hot_moves (
        key INTEGER NOT NULL,
        next INTEGER NOT NULL,
        c0 INTEGER NOT NULL, c1 INTEGER NOT NULL, c2 INTEGER NOT NULL, c3 INTEGER NOT NULL,
        c4 INTEGER NOT NULL, c5 INTEGER NOT NULL, c6 INTEGER NOT NULL, c7 INTEGER NOT NULL,
        c8 INTEGER NOT NULL, c9 INTEGER NOT NULL,
        PRIMARY KEY (key, next)
    ) WITHOUT ROWID;
    CREATE TABLE analyses (
        key INTEGER PRIMARY KEY,
        depth INTEGER NOT NULL,
        score INTEGER NOT NULL,
        nodes INTEGER NOT NULL,
        time_ms INTEGER NOT NULL,
        best TEXT NOT NULL,
        engine TEXT NOT NULL DEFAULT '',
        created INTEGER NOT NULL
    );",
];

/// The schema version this program writes (the number of migrations).
#[must_use]
pub fn version() -> i64 {
    MIGRATIONS.len() as i64
}

/// The first bytes of every SQLite database.
const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// Refuses a file that exists, is not empty and is no SQLite database, before SQLite opens
/// it (SQLite would only notice later, and a new database must not be made over it).
///
/// # Errors
/// The file cannot be read, or is no database.
pub fn check_file(path: &Path) -> Result<(), String> {
    use std::io::Read;
    let mut file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    if file
        .metadata()
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?
        .is_dir()
    {
        return Err(format!(
            "{} is a folder, not a library file",
            path.display()
        ));
    }
    let mut head = Vec::with_capacity(16);
    file.by_ref()
        .take(16)
        .read_to_end(&mut head)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if head.is_empty() || head.as_slice() == SQLITE_MAGIC {
        Ok(())
    } else {
        Err(format!(
            "{} is not a gomoku library (it is no SQLite database); nothing was changed",
            path.display()
        ))
    }
}

/// Sets the connection up (WAL, foreign keys, a wait for other writers) and brings the schema
/// up to date in one transaction.
///
/// # Errors
/// Another program's database, a newer schema, or an SQLite error.
pub fn prepare(conn: &mut Connection, path: &Path) -> Result<(), String> {
    let shown = path.display();
    let sql = |e: rusqlite::Error| format!("{shown}: {e}");
    conn.busy_timeout(std::time::Duration::from_secs(10))
        .map_err(sql)?;
    let app: i32 = conn
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .map_err(|e| match e {
            rusqlite::Error::SqliteFailure(f, _)
                if f.code == rusqlite::ErrorCode::NotADatabase =>
            {
                format!("{shown} is not a gomoku library (it is no SQLite database); nothing was changed")
            }
            e => sql(e),
        })?;
    let have: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(sql)?;
    let tables: i64 = conn
        .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
        .map_err(sql)?;
    if app != APPLICATION_ID && (app != 0 || tables > 0) {
        return Err(format!(
            "{shown} is an SQLite database of another program, not a gomoku library; nothing \
             was changed"
        ));
    }
    if have > version() {
        return Err(format!(
            "{shown} is a library of a newer gomoku (schema {have}; this one reads up to {}); \
             nothing was changed",
            version()
        ));
    }
    let mode: String = conn
        .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
        .map_err(sql)?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(format!(
            "{shown}: the journal cannot be a write-ahead log ({mode})"
        ));
    }
    conn.execute_batch(
        "PRAGMA foreign_keys=ON; PRAGMA synchronous=FULL; PRAGMA cache_size=-16384;",
    )
    .map_err(sql)?;
    if have < version() {
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(sql)?;
        // another process may have migrated it meanwhile
        let now: i64 = tx
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(sql)?;
        for (i, step) in MIGRATIONS.iter().enumerate().skip(now as usize) {
            tx.execute_batch(step)
                .map_err(|e| format!("{shown}: migration {}: {e}", i + 1))?;
        }
        tx.execute_batch(&format!(
            "PRAGMA application_id={APPLICATION_ID}; PRAGMA user_version={};",
            version()
        ))
        .map_err(sql)?;
        tx.commit().map_err(sql)?;
    }
    Ok(())
}
