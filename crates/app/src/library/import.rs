//! Collections in: files, folders (walked through) and zip files of SGF records (`.sgf`, one
//! game or a collection), Piskvork records (`.psq`), RenLib libraries (`.lib`) and lines of
//! the common position format (`.txt`, one game a line).
//!
//! Each file is read whole before anything is written, then written in one transaction: a
//! file with an error adds nothing and is reported by name, and the other files go in. A game
//! already in the library (the same identity: [`super::index::identity`]) is counted and
//! skipped, not added twice.

use super::game::LibGame;
use super::{convert, hot, index, renlib, store, Library, Result};
use gomoku_engine::record::Record;
use gomoku_engine::Rule;
use rusqlite::TransactionBehavior;
use serde::Serialize;
use std::collections::HashMap;
use std::path::Path;

/// The largest file read (a zip file's members included).
pub const FILE_MAX: u64 = 512 << 20;

/// A file that was not imported.
#[derive(Clone, Debug, Serialize)]
pub struct Failed {
    /// The file (a zip member as `archive.zip/member`).
    pub file: String,
    /// Why.
    pub error: String,
}

/// What an import did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ImportReport {
    /// Files read (games in them or not).
    pub files: usize,
    /// Games added.
    pub added: usize,
    /// Games already in the library, not added again.
    pub duplicates: usize,
    /// Files with an error: nothing of them was added.
    pub failed: Vec<Failed>,
    /// Files passed over in folders and zip files: not game records by their names.
    pub skipped: usize,
    /// The ids of the games added (the first 1,000).
    pub ids: Vec<i64>,
    /// Index rows added per position, for the positions near the start (to count the busy
    /// ones after the import: [`super::hot`]).
    #[serde(skip)]
    shallow: HashMap<i64, u32>,
}

/// Positions this many moves from the start, or fewer, are watched for becoming busy.
const SHALLOW: usize = 12;

/// A position that got this many rows in an import is checked for becoming hot.
const BUSY: u32 = 64;

/// How a file is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Sgf,
    Psq,
    RenLib,
    Lines,
}

/// The format of a file by its name (`None`: not a game record).
fn format_of_name(name: &str) -> Option<Format> {
    let lower = name.to_ascii_lowercase();
    let ext = lower.rsplit_once('.').map_or("", |(_, e)| e);
    match ext {
        "sgf" => Some(Format::Sgf),
        "psq" => Some(Format::Psq),
        "lib" => Some(Format::RenLib),
        "txt" | "pos" => Some(Format::Lines),
        _ => None,
    }
}

/// The format of a file given by name on its own: by its name, else by its first bytes.
fn format_of(name: &str, bytes: &[u8]) -> Format {
    if let Some(f) = format_of_name(name) {
        return f;
    }
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(64)]);
    let head = head.trim_start_matches('\u{feff}').trim_start();
    if bytes.starts_with(&[0xff, b'R', b'e', b'n', b'L', b'i', b'b']) {
        Format::RenLib
    } else if head.starts_with('(') {
        Format::Sgf
    } else if head.to_ascii_lowercase().starts_with("piskvork") {
        Format::Psq
    } else {
        Format::Lines
    }
}

/// Text of a file: UTF-8, else Latin-1 (each byte a character).
fn text_of(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// The games of one file, read whole; `rule` is the rule of records that name none.
fn games_of(name: &str, bytes: &[u8], rule: Rule) -> std::result::Result<Vec<LibGame>, String> {
    let stem = Path::new(name)
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let mut games = match format_of(name, bytes) {
        Format::RenLib => {
            let mut g = renlib::read(bytes)?;
            g.tags.name = stem;
            vec![g]
        }
        Format::Psq => vec![convert::from_psq(&text_of(bytes), rule)?],
        Format::Sgf => crate::sgf::read_all(&text_of(bytes))?
            .iter()
            .enumerate()
            .map(|(i, rec)| {
                convert::from_sgf(rec, rule).map_err(|e| format!("game {}: {e}", i + 1))
            })
            .collect::<std::result::Result<Vec<_>, _>>()?,
        Format::Lines => {
            let text = text_of(bytes);
            let mut out = Vec::new();
            for (n, line) in text.lines().enumerate() {
                if Record::is_blank(line) {
                    continue;
                }
                out.push(
                    convert::from_record_line(line).map_err(|e| format!("line {}: {e}", n + 1))?,
                );
            }
            out
        }
    };
    for (i, g) in games.iter_mut().enumerate() {
        g.check().map_err(|e| {
            if i == 0 {
                e
            } else {
                format!("game {}: {e}", i + 1)
            }
        })?;
        g.tags.source = name.to_string();
    }
    Ok(games)
}

impl ImportReport {
    fn fail(&mut self, file: &str, error: impl Into<String>) {
        self.failed.push(Failed {
            file: file.to_string(),
            error: error.into(),
        });
    }
}

impl Library {
    /// Imports files, folders and zip files; `rule` is the rule of records that name none.
    /// A file that cannot be read or has an error is reported and adds nothing.
    ///
    /// # Errors
    /// An SQLite error that stops everything (the disk is full, the file is locked too long);
    /// the files imported before it stay.
    pub fn import_paths(&self, paths: &[std::path::PathBuf], rule: Rule) -> Result<ImportReport> {
        let mut report = ImportReport::default();
        for path in paths {
            self.import_path(path, true, rule, &mut report)?;
        }
        self.count_busy(&mut report)?;
        Ok(report)
    }

    fn import_path(
        &self,
        path: &Path,
        named: bool,
        rule: Rule,
        report: &mut ImportReport,
    ) -> Result<()> {
        let shown = path.display().to_string();
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) => {
                report.fail(&shown, format!("cannot read it: {e}"));
                return Ok(());
            }
        };
        if meta.is_dir() {
            let mut entries: Vec<_> = match std::fs::read_dir(path) {
                Ok(d) => d.filter_map(|e| e.ok().map(|e| e.path())).collect(),
                Err(e) => {
                    report.fail(&shown, format!("cannot read the folder: {e}"));
                    return Ok(());
                }
            };
            entries.sort();
            for e in entries {
                self.import_path(&e, false, rule, report)?;
            }
            return Ok(());
        }
        let is_zip = shown.to_ascii_lowercase().ends_with(".zip");
        if !named && !is_zip && format_of_name(&shown).is_none() {
            report.skipped += 1;
            return Ok(());
        }
        if meta.len() > FILE_MAX {
            report.fail(&shown, format!("larger than {} MB", FILE_MAX >> 20));
            return Ok(());
        }
        match std::fs::read(path) {
            Ok(bytes) => self.import_bytes_into(&shown, &bytes, rule, report),
            Err(e) => {
                report.fail(&shown, format!("cannot read it: {e}"));
                Ok(())
            }
        }
    }

    /// Imports one file's bytes (a zip file's members each as a file), under the name `name`.
    ///
    /// # Errors
    /// As [`Library::import_paths`].
    pub fn import_bytes(&self, name: &str, bytes: &[u8], rule: Rule) -> Result<ImportReport> {
        let mut report = ImportReport::default();
        self.import_bytes_into(name, bytes, rule, &mut report)?;
        self.count_busy(&mut report)?;
        Ok(report)
    }

    fn import_bytes_into(
        &self,
        name: &str,
        bytes: &[u8],
        rule: Rule,
        report: &mut ImportReport,
    ) -> Result<()> {
        if bytes.starts_with(b"PK\x03\x04") || name.to_ascii_lowercase().ends_with(".zip") {
            return self.import_zip(name, bytes, rule, report);
        }
        report.files += 1;
        match games_of(name, bytes, rule) {
            Ok(games) => self.write_file(&games, report),
            Err(e) => {
                report.fail(name, e);
                Ok(())
            }
        }
    }

    fn import_zip(
        &self,
        name: &str,
        bytes: &[u8],
        rule: Rule,
        report: &mut ImportReport,
    ) -> Result<()> {
        let mut zip = match zip::ZipArchive::new(std::io::Cursor::new(bytes)) {
            Ok(z) => z,
            Err(e) => {
                report.fail(name, format!("not a readable zip file: {e}"));
                return Ok(());
            }
        };
        for i in 0..zip.len() {
            let mut member = match zip.by_index(i) {
                Ok(m) => m,
                Err(e) => {
                    report.fail(
                        &format!("{name}/#{}", i + 1),
                        format!("cannot read it: {e}"),
                    );
                    continue;
                }
            };
            if member.is_dir() {
                continue;
            }
            let inner = format!("{name}/{}", member.name());
            if format_of_name(&inner).is_none() {
                report.skipped += 1;
                continue;
            }
            if member.size() > FILE_MAX {
                report.fail(&inner, format!("larger than {} MB", FILE_MAX >> 20));
                continue;
            }
            let mut data = Vec::new();
            use std::io::Read;
            if let Err(e) = member.by_ref().take(FILE_MAX).read_to_end(&mut data) {
                report.fail(&inner, format!("cannot unpack it: {e}"));
                continue;
            }
            drop(member);
            report.files += 1;
            match games_of(&inner, &data, rule) {
                Ok(games) => self.write_file(&games, report)?,
                Err(e) => report.fail(&inner, e),
            }
        }
        Ok(())
    }

    /// Makes the positions the import added many rows to hot, when they have enough rows.
    fn count_busy(&self, report: &mut ImportReport) -> Result<()> {
        let busy: Vec<i64> = std::mem::take(&mut report.shallow)
            .into_iter()
            .filter(|&(_, n)| n >= BUSY)
            .map(|(k, _)| k)
            .collect();
        if busy.is_empty() {
            return Ok(());
        }
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        for key in busy {
            hot::promote(&tx, key)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Writes the games of one file in one transaction, passing over those already there.
    fn write_file(&self, games: &[LibGame], report: &mut ImportReport) -> Result<()> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let hot = hot::keys(&tx)?;
        let mut added = Vec::new();
        let mut duplicates = 0;
        let mut shallow: HashMap<i64, u32> = HashMap::new();
        for g in games {
            let rows = index::rows(g);
            if Library::find_identity(&tx, index::identity(g, &rows))?.is_some() {
                duplicates += 1;
                continue;
            }
            added.push(store::insert_in(&tx, &hot, g, &rows, None, None)?);
            for r in rows
                .iter()
                .filter(|r| r.depth <= SHALLOW && !hot.contains(&r.key))
            {
                *shallow.entry(r.key).or_default() += 1;
            }
        }
        tx.commit()?;
        for (k, n) in shallow {
            *report.shallow.entry(k).or_default() += n;
        }
        report.added += added.len();
        report.duplicates += duplicates;
        let room = 1_000usize.saturating_sub(report.ids.len());
        report.ids.extend(added.into_iter().take(room));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_name_and_by_content() {
        assert_eq!(format_of("a.SGF", b""), Format::Sgf);
        assert_eq!(format_of("x", b"\xefbb(;GM[4])"), Format::Lines);
        assert_eq!(format_of("x", b"  (;GM[4])"), Format::Sgf);
        assert_eq!(format_of("x", b"Piskvorky 15x15, 1:1, 0"), Format::Psq);
        assert_eq!(format_of("x", b"\xffRenLib\xff"), Format::RenLib);
        assert_eq!(format_of("games", b"15 renju h8"), Format::Lines);
    }
}
