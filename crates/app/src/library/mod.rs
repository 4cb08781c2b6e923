//! The library: every game with its whole tree of lines, comments and labels, the engine's
//! analyses of positions, and an index of every position of every game (symmetric: a position
//! is found again in any of the 8 orientations and by any move order), kept in one SQLite file.
//!
//! The board's server writes each change as it happens (a move, a line, a comment, a label, an
//! analysis), the importers read collections (SGF, PSQ, RenLib `.lib`, position lines, folders
//! and zip files of them), the explorer answers what was played from a position, and the
//! exporter writes games back out as SGF.
//!
//! Modules, one concept each:
//! - `schema`: the file, its checks and numbered migrations;
//! - `game`: a game, its tags and its tree ([`LibGame`]);
//! - `symmetry`: the symmetric hash of a position ([`symmetry::SymHash`]);
//! - `index`: the position index rows of a game, and a game's identity;
//! - `store`: games in and out of the file (insert, update, load, list, delete, restore);
//! - `filter`: which games a list or an export takes ([`Filter`]);
//! - `explorer`: the moves played from a position, with their results and values;
//! - `hot`: the explorer's counts kept ready for the positions many games go through;
//! - `analyses`: the engine's analyses, stored and found again;
//! - `convert`: SGF, `.psq` and position lines to and from [`LibGame`];
//! - `renlib`: the RenLib `.lib` reader;
//! - `import`: files, folders and zip files in, a transaction per file;
//! - `export`: games out as an SGF collection;
//! - `bench`: the benchmark of imports and queries.

pub mod analyses;
pub mod bench;
pub mod convert;
pub mod explorer;
pub mod export;
pub mod filter;
pub mod game;
pub mod hot;
pub mod import;
pub mod index;
pub mod renlib;
pub mod schema;
pub mod store;
pub mod symmetry;

pub use filter::Filter;
pub use game::{GameTree, Label, LibGame, Note, Outcome, Tags};

use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// An open library: one connection, shared by the threads of a server.
pub struct Library {
    conn: Mutex<Connection>,
    path: PathBuf,
}

impl std::fmt::Debug for Library {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Library").field("path", &self.path).finish()
    }
}

/// A failure of the library, with a message for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LibraryError(pub String);

impl std::fmt::Display for LibraryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LibraryError {}

impl From<rusqlite::Error> for LibraryError {
    fn from(e: rusqlite::Error) -> Self {
        LibraryError(format!("library: {e}"))
    }
}

impl From<String> for LibraryError {
    fn from(e: String) -> Self {
        LibraryError(e)
    }
}

/// The result of a library operation.
pub type Result<T> = std::result::Result<T, LibraryError>;

/// The library file used when none is given: `library.sqlite` in the user's data directory
/// (`$XDG_DATA_HOME/gomoku` or `~/.local/share/gomoku` on Linux, `~/Library/Application
/// Support/gomoku` on macOS, `%APPDATA%\gomoku\data` on Windows), or in the current directory
/// when there is no home.
#[must_use]
pub fn default_path() -> PathBuf {
    directories::ProjectDirs::from("", "", "gomoku").map_or_else(
        || PathBuf::from("gomoku-library.sqlite"),
        |d| d.data_dir().join("library.sqlite"),
    )
}

impl Library {
    /// Opens the library at `path`, making it (and its folder) when it does not exist.
    ///
    /// # Errors
    /// A file that is not a library, a library of a newer schema, a folder that cannot be
    /// made, or an SQLite error; nothing is changed in a file that is refused.
    pub fn open(path: &Path) -> Result<Library> {
        schema::check_file(path)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| {
                LibraryError(format!("cannot make the folder {}: {e}", dir.display()))
            })?;
        }
        let mut conn = Connection::open(path)
            .map_err(|e| LibraryError(format!("cannot open {}: {e}", path.display())))?;
        schema::prepare(&mut conn, path)?;
        Ok(Library {
            conn: Mutex::new(conn),
            path: path.to_path_buf(),
        })
    }

    /// The file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The connection, for one operation (a panic elsewhere leaves it usable: every change is
    /// a transaction, rolled back if it did not commit).
    pub(crate) fn conn(&self) -> MutexGuard<'_, Connection> {
        self.conn
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Sets the connection up for a large import (`true`) or back for a server's writes
    /// (`false`, the default). For an import, a commit waits only until the system has the
    /// data (a crash of the program loses nothing, a power cut may lose the last files), and
    /// SQLite keeps up to 512 MB of the file in memory, so that the index's pages are not read
    /// again and again; otherwise every commit waits until the file is on the disk.
    ///
    /// # Errors
    /// An SQLite error.
    pub fn set_bulk(&self, bulk: bool) -> Result<()> {
        let sql = if bulk {
            "PRAGMA synchronous=NORMAL; PRAGMA cache_size=-524288;"
        } else {
            "PRAGMA synchronous=FULL; PRAGMA cache_size=-16384;"
        };
        self.conn().execute_batch(sql)?;
        Ok(())
    }

    /// Moves what the write-ahead log holds into the file and empties the log (after a large
    /// import, so that the file's size is its size).
    ///
    /// # Errors
    /// An SQLite error (a reader of another process holds the log: it is emptied later).
    pub fn checkpoint(&self) -> Result<()> {
        self.conn()
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok(())
    }

    /// The library's figures: games, moves, positions indexed, analyses, file size.
    ///
    /// # Errors
    /// An SQLite error.
    pub fn stats(&self) -> Result<Stats> {
        let conn = self.conn();
        let count = |sql: &str| -> Result<i64> { Ok(conn.query_row(sql, [], |r| r.get(0))?) };
        let games = count("SELECT count(*) FROM games WHERE deleted IS NULL")?;
        let deleted = count("SELECT count(*) FROM games WHERE deleted IS NOT NULL")?;
        let moves = count("SELECT coalesce(sum(moves), 0) FROM games WHERE deleted IS NULL")?;
        let positions = count("SELECT count(*) FROM positions")?;
        let analyses = count("SELECT count(*) FROM analyses")?;
        let hot = count("SELECT count(*) FROM hot_keys")?;
        let pages = count("PRAGMA page_count")?;
        let page_size = count("PRAGMA page_size")?;
        let wal = std::fs::metadata(wal_path(&self.path)).map_or(0, |m| m.len());
        Ok(Stats {
            path: self.path.display().to_string(),
            schema: schema::version(),
            games,
            deleted,
            moves,
            positions,
            analyses,
            hot,
            bytes: (pages * page_size) as u64 + wal,
        })
    }
}

/// The write-ahead log beside a library file.
fn wal_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push("-wal");
    PathBuf::from(s)
}

/// A library's figures ([`Library::stats`]).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Stats {
    /// The file.
    pub path: String,
    /// Its schema version.
    pub schema: i64,
    /// Games (deleted ones aside).
    pub games: i64,
    /// Deleted games that can still be restored.
    pub deleted: i64,
    /// Moves of the games, every line counted.
    pub moves: i64,
    /// Rows of the position index.
    pub positions: i64,
    /// Stored analyses.
    pub analyses: i64,
    /// Positions whose explorer counts are kept ready (they have many games).
    pub hot: i64,
    /// The file's size with its write-ahead log, in bytes.
    pub bytes: u64,
}

/// Seconds since 1970 (0 if the clock is before it).
pub(crate) fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_is_not_a_library_is_refused_and_left_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let text = dir.path().join("notes.txt");
        std::fs::write(&text, "some text, not a database\n").unwrap();
        let e = Library::open(&text).unwrap_err().0;
        assert!(e.contains("is not a gomoku library"), "{e}");
        assert_eq!(
            std::fs::read_to_string(&text).unwrap(),
            "some text, not a database\n"
        );
        // another program's database
        let other = dir.path().join("other.sqlite");
        Connection::open(&other)
            .unwrap()
            .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
            .unwrap();
        let e = Library::open(&other).unwrap_err().0;
        assert!(e.contains("another program"), "{e}");
        // a newer schema
        let newer = dir.path().join("newer.sqlite");
        drop(Library::open(&newer).unwrap());
        Connection::open(&newer)
            .unwrap()
            .execute_batch(&format!("PRAGMA user_version={}", schema::version() + 1))
            .unwrap();
        let e = Library::open(&newer).unwrap_err().0;
        assert!(e.contains("newer gomoku"), "{e}");
        // a folder
        assert!(Library::open(dir.path()).unwrap_err().0.contains("folder"));
    }

    #[test]
    fn a_new_library_is_made_with_its_folder_and_opens_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b/lib.sqlite");
        let lib = Library::open(&path).unwrap();
        assert_eq!(lib.stats().unwrap().games, 0);
        drop(lib);
        let lib = Library::open(&path).unwrap();
        assert_eq!(lib.stats().unwrap().schema, schema::version());
    }
}
