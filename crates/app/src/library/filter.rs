//! Which games a list or an export takes ([`Filter`]), and a game's line in a list
//! ([`Summary`]).

use super::game::Outcome;
use super::{Library, LibraryError, Result};
use rusqlite::types::Value;
use serde::{Deserialize, Serialize};

/// The most games one list returns.
pub const LIST_MAX: usize = 1_000;

/// What games to take; every field given must hold (text fields match a part of the tag,
/// without regard to case).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Filter {
    /// The rule's name (`renju`, `freestyle`, ...).
    pub rule: Option<String>,
    /// The board size.
    pub size: Option<usize>,
    /// A part of Black's or White's name.
    pub player: Option<String>,
    /// A part of the opening's name or opening rule.
    pub opening: Option<String>,
    /// `black`, `white`, `draw` or `unknown`: who won.
    pub result: Option<String>,
    /// A part of the name, event, place, players or source.
    pub text: Option<String>,
    /// The deleted games (that can be restored) instead of the others.
    pub deleted: bool,
    /// At most this many (default 100, at most [`LIST_MAX`]; exports take them all).
    pub limit: Option<usize>,
    /// Skip this many first.
    pub offset: Option<usize>,
}

/// A game in a list.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Its number in the library.
    pub id: i64,
    /// `GN`.
    pub name: String,
    /// `PB`.
    pub black: String,
    /// `PW`.
    pub white: String,
    /// `EV`.
    pub event: String,
    /// `RO`.
    pub round: String,
    /// `DT`.
    pub date: String,
    /// `PC`.
    pub place: String,
    /// `RE`, as SGF writes it.
    pub result: String,
    /// Who won.
    pub outcome: Outcome,
    /// The rule.
    pub rule: String,
    /// The board size.
    pub size: usize,
    /// The opening rule.
    pub opening_rule: String,
    /// The opening's name.
    pub opening: String,
    /// Where it comes from (`board`, or a file).
    pub source: String,
    /// Its moves, every line counted.
    pub moves: i64,
    /// When it was added (seconds since 1970).
    pub created: i64,
    /// When it last changed.
    pub modified: i64,
    /// When it was deleted (absent unless it is).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deleted: Option<i64>,
}

/// `%part%` for LIKE, with its wildcards escaped.
fn like(part: &str) -> Value {
    let escaped = part
        .trim()
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_");
    Value::Text(format!("%{escaped}%"))
}

impl Filter {
    /// The SQL condition and its values.
    ///
    /// # Errors
    /// An unknown result or rule.
    pub fn condition(&self) -> Result<(String, Vec<Value>)> {
        let mut parts = vec![if self.deleted {
            "deleted IS NOT NULL".to_string()
        } else {
            "deleted IS NULL".to_string()
        }];
        let mut values: Vec<Value> = Vec::new();
        // each `?` of `sql` becomes the number of its value
        let mut add = |sql: &str, vs: Vec<Value>| {
            let mut s = String::new();
            let mut vs = vs.into_iter();
            for (i, piece) in sql.split('?').enumerate() {
                if i > 0 {
                    if let Some(v) = vs.next() {
                        values.push(v);
                    }
                    s.push_str(&format!("?{}", values.len()));
                }
                s.push_str(piece);
            }
            parts.push(s);
        };
        if let Some(rule) = self.rule.as_deref().filter(|r| !r.trim().is_empty()) {
            let rule: gomoku_engine::Rule = rule
                .parse()
                .map_err(|e: gomoku_engine::NotationError| LibraryError(e.to_string()))?;
            add("rule = ?", vec![Value::Text(rule.name().to_string())]);
        }
        if let Some(size) = self.size {
            add("size = ?", vec![Value::Integer(size as i64)]);
        }
        if let Some(p) = self.player.as_deref().filter(|p| !p.trim().is_empty()) {
            add(
                "(black LIKE ? ESCAPE '\\' OR white LIKE ? ESCAPE '\\')",
                vec![like(p), like(p)],
            );
        }
        if let Some(o) = self.opening.as_deref().filter(|o| !o.trim().is_empty()) {
            add(
                "(opening LIKE ? ESCAPE '\\' OR opening_rule LIKE ? ESCAPE '\\')",
                vec![like(o), like(o)],
            );
        }
        if let Some(t) = self.text.as_deref().filter(|t| !t.trim().is_empty()) {
            add(
                "(name LIKE ? ESCAPE '\\' OR event LIKE ? ESCAPE '\\' OR place LIKE ? ESCAPE '\\' \
                 OR black LIKE ? ESCAPE '\\' OR white LIKE ? ESCAPE '\\' OR source LIKE ? ESCAPE '\\')",
                vec![like(t), like(t), like(t), like(t), like(t), like(t)],
            );
        }
        if let Some(r) = self.result.as_deref().filter(|r| !r.trim().is_empty()) {
            let black = "(upper(result) LIKE 'B+%' OR upper(result) IN ('B', 'BLACK'))";
            let white = "(upper(result) LIKE 'W+%' OR upper(result) IN ('W', 'WHITE'))";
            let draw = "upper(result) IN ('0', 'DRAW', 'JIGO')";
            let sql = match r.trim().to_ascii_lowercase().as_str() {
                "black" | "b" => black.to_string(),
                "white" | "w" => white.to_string(),
                "draw" => draw.to_string(),
                "unknown" | "none" => format!("NOT ({black} OR {white} OR {draw})"),
                other => {
                    return Err(LibraryError(format!(
                        "'{other}': the results are black, white, draw and unknown"
                    )))
                }
            };
            add(&sql, Vec::new());
        }
        Ok((parts.join(" AND "), values))
    }
}

/// Reads a [`Summary`] from the columns `SUMMARY_COLUMNS` lists.
pub(crate) fn read_summary(r: &rusqlite::Row<'_>) -> rusqlite::Result<Summary> {
    let result: String = r.get(8)?;
    Ok(Summary {
        id: r.get(0)?,
        name: r.get(1)?,
        black: r.get(2)?,
        white: r.get(3)?,
        event: r.get(4)?,
        round: r.get(5)?,
        date: r.get(6)?,
        place: r.get(7)?,
        outcome: Outcome::of_result(&result),
        result,
        rule: r.get(9)?,
        size: r.get::<_, i64>(10)?.max(0) as usize,
        opening_rule: r.get(11)?,
        opening: r.get(12)?,
        source: r.get(13)?,
        moves: r.get(14)?,
        created: r.get(15)?,
        modified: r.get(16)?,
        deleted: r.get(17)?,
    })
}

/// The columns of a [`Summary`].
pub(crate) const SUMMARY_COLUMNS: &str = "id, name, black, white, event, round, date, place, \
     result, rule, size, opening_rule, opening, source, moves, created, modified, deleted";

impl Library {
    /// The games `filter` takes, the last changed first, and how many it takes in all.
    ///
    /// # Errors
    /// A bad filter, or an SQLite error.
    pub fn list(&self, filter: &Filter) -> Result<(Vec<Summary>, usize)> {
        let (cond, values) = filter.condition()?;
        let limit = filter.limit.unwrap_or(100).min(LIST_MAX);
        let offset = filter.offset.unwrap_or(0);
        let conn = self.conn();
        let total: i64 = conn.query_row(
            &format!("SELECT count(*) FROM games WHERE {cond}"),
            rusqlite::params_from_iter(values.iter()),
            |r| r.get(0),
        )?;
        let mut q = conn.prepare(&format!(
            "SELECT {SUMMARY_COLUMNS} FROM games WHERE {cond} \
             ORDER BY modified DESC, id DESC LIMIT {limit} OFFSET {offset}"
        ))?;
        let list = q
            .query_map(rusqlite::params_from_iter(values.iter()), read_summary)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok((list, total.max(0) as usize))
    }

    /// The ids of every game `filter` takes (no limit), oldest first.
    ///
    /// # Errors
    /// A bad filter, or an SQLite error.
    pub fn ids(&self, filter: &Filter) -> Result<Vec<i64>> {
        let (cond, values) = filter.condition()?;
        let conn = self.conn();
        let mut q = conn.prepare(&format!("SELECT id FROM games WHERE {cond} ORDER BY id"))?;
        let ids = q
            .query_map(rusqlite::params_from_iter(values.iter()), |r| r.get(0))?
            .collect::<rusqlite::Result<Vec<i64>>>()?;
        Ok(ids)
    }

    /// The summary of game `id`, deleted or not.
    ///
    /// # Errors
    /// An SQLite error.
    pub fn summary(&self, id: i64) -> Result<Option<Summary>> {
        use rusqlite::OptionalExtension;
        Ok(self
            .conn()
            .query_row(
                &format!("SELECT {SUMMARY_COLUMNS} FROM games WHERE id = ?1"),
                [id],
                read_summary,
            )
            .optional()?)
    }
}
