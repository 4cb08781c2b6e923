//! Games out: one game, a filtered set or the whole library as an SGF collection, every game
//! with every line, its tags, comments and labels.

use super::convert::{to_sgf, APP};
use super::{Library, LibraryError, Result};
use std::io::Write;

impl Library {
    /// The SGF record of game `id` (deleted or not).
    ///
    /// # Errors
    /// No such game, or an SQLite error.
    pub fn export_game(&self, id: i64) -> Result<String> {
        let stored = self
            .load(id)?
            .ok_or_else(|| LibraryError(format!("no game {id} in the library")))?;
        Ok(crate::sgf::write(&to_sgf(&stored.game), APP))
    }

    /// Writes the games `ids` to `out` as one SGF collection, in that order; returns how many
    /// were written (ids of no game are passed over).
    ///
    /// # Errors
    /// An SQLite error, or `out` fails.
    pub fn export_to(&self, ids: &[i64], out: &mut impl Write) -> Result<usize> {
        let mut n = 0;
        for &id in ids {
            let Some(stored) = self.load(id)? else {
                continue;
            };
            out.write_all(crate::sgf::write(&to_sgf(&stored.game), APP).as_bytes())
                .map_err(|e| LibraryError(format!("cannot write the export: {e}")))?;
            n += 1;
        }
        Ok(n)
    }
}
