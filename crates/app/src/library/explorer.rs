//! The opening explorer: for a position, the games that went through it (in any orientation,
//! by any move order), and the moves played there: how often each, how the games went on, and
//! the stored engine value of each.
//!
//! One query reads the index rows of the position's key, grouped by move (they are stored in
//! that order, so no sort is needed); the games listed and the values are small look-ups
//! after it.

use super::analyses::{analysis_in, AnalysisView};
use super::filter::{read_summary, Summary, SUMMARY_COLUMNS};
use super::hot;
use super::index::LEAF;
use super::symmetry::SymHash;
use super::{Library, Result};
use gomoku_engine::notation::format_pos;
use gomoku_engine::search::format_score;
use gomoku_engine::Pos;
use serde::Serialize;
use std::collections::HashMap;

/// How the games went on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Results {
    /// Games Black won.
    pub black: i64,
    /// Games White won.
    pub white: i64,
    /// Draws.
    pub draw: i64,
    /// Games without a known result.
    pub unknown: i64,
}

/// A stored engine value of a move, for the side that plays it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveValue {
    /// The value.
    pub score: i32,
    /// As text (`+35`, `win in 3`).
    pub eval: String,
    /// The depth it comes from.
    pub depth: i32,
}

/// A move played from the position.
#[derive(Clone, Debug, Serialize)]
pub struct MoveStat {
    /// The move, in the orientation asked about (`--` for a pass).
    #[serde(rename = "move")]
    pub point: String,
    /// Games that played it.
    pub games: i64,
    /// How those games went on.
    pub results: Results,
    /// The stored engine value of the move, if any: from an analysis of the position, else
    /// from one of the position after it.
    pub value: Option<MoveValue>,
}

/// A game that went through the position.
#[derive(Clone, Debug, Serialize)]
pub struct GameAt {
    /// The game.
    #[serde(flatten)]
    pub game: Summary,
    /// The node of its tree where the position is.
    pub node: u32,
    /// A move it played there (`null` where its line ends).
    pub next: Option<String>,
}

/// What the explorer says about a position.
#[derive(Clone, Debug, Serialize)]
pub struct Explored {
    /// The position's key (hexadecimal).
    pub key: String,
    /// Games that went through it.
    pub games: i64,
    /// How they went on.
    pub results: Results,
    /// Lines that end at the position.
    pub ended: i64,
    /// The moves played from it, the most played first.
    pub moves: Vec<MoveStat>,
    /// Some of the games (at most the limit asked for), with the node of the position.
    pub list: Vec<GameAt>,
    /// The stored analysis of the position, if any.
    pub analysis: Option<AnalysisView>,
}

/// The counts of one move: games, outcomes, and of them the games' first rows.
#[derive(Default)]
struct Counts {
    rows: i64,
    by: [i64; 4],
    first: i64,
    first_by: [i64; 4],
}

impl Library {
    /// Explores the position `at`: the games through it and the moves played from it;
    /// `limit` games are listed (after the first `offset`).
    ///
    /// # Errors
    /// An SQLite error.
    pub fn explore(&self, at: &SymHash, limit: usize, offset: usize) -> Result<Explored> {
        let keyed = at.keyed();
        let size = at.size();
        let conn = self.conn();
        let by_move = match hot::counted(&conn, keyed.key)? {
            Some(counts) => counts,
            None => {
                let counts = hot::scan(&conn, keyed.key)?;
                if counts.iter().map(|(_, c)| c[0]).sum::<i64>() >= hot::HOT_ROWS {
                    // a busy position: its counts are kept from now on (if this fails, the
                    // next query tries again)
                    let _ = rusqlite::Transaction::new_unchecked(
                        &conn,
                        rusqlite::TransactionBehavior::Immediate,
                    )
                    .and_then(|tx| {
                        hot::promote(&tx, keyed.key)?;
                        tx.commit()
                    });
                }
                counts
            }
        };
        let by_move: Vec<(i64, Counts)> = by_move
            .into_iter()
            .map(|(next, c)| {
                (
                    next,
                    Counts {
                        rows: c[0],
                        by: [c[1], c[2], c[3], c[4]],
                        first: c[5],
                        first_by: [c[6], c[7], c[8], c[9]],
                    },
                )
            })
            .collect();
        let results = |by: [i64; 4]| Results {
            unknown: by[0],
            black: by[1],
            white: by[2],
            draw: by[3],
        };
        let mut total = [0; 4];
        let mut games = 0;
        let mut ended = 0;
        for (next, c) in &by_move {
            games += c.first;
            for o in 0..4 {
                total[o] += c.first_by[o];
            }
            if *next == LEAF {
                ended = c.rows;
            }
        }
        let analysis = analysis_in(&conn, &keyed)?;
        // the values the analysis gives its candidates, by the move's stored code
        let mut values: HashMap<i64, MoveValue> = HashMap::new();
        if let Some(a) = &analysis {
            for c in &a.best {
                values.entry(keyed.canonical(c.point)).or_insert(MoveValue {
                    score: c.score,
                    eval: format_score(c.score),
                    depth: c.depth,
                });
            }
        }
        let mut moves = Vec::new();
        for (next, c) in by_move.iter().filter(|(n, _)| *n != LEAF) {
            let Some(p) = keyed.shown(*next) else {
                continue;
            };
            let value = match values.get(next) {
                Some(v) => Some(v.clone()),
                None => analysis_in(&conn, &at.after(p).keyed())?.map(|a| MoveValue {
                    score: -a.score,
                    eval: format_score(-a.score),
                    depth: a.depth,
                }),
            };
            moves.push(MoveStat {
                point: format_pos(p, size),
                games: c.rows,
                results: results(c.by),
                value,
            });
        }
        moves.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.point.cmp(&b.point)));
        let list = games_at(&conn, &keyed, size, limit, offset)?;
        Ok(Explored {
            key: format!("{:016x}", keyed.key as u64),
            games,
            results: results(total),
            ended,
            moves,
            list,
            analysis: analysis.map(|a| a.view(size)),
        })
    }
}

/// Up to `limit` games through the position (after `offset`), with their nodes there.
fn games_at(
    conn: &rusqlite::Connection,
    keyed: &super::symmetry::Keyed,
    size: usize,
    limit: usize,
    offset: usize,
) -> Result<Vec<GameAt>> {
    let found: Vec<(i64, u32, i64)> = conn
        .prepare_cached(
            "SELECT game, node, next FROM positions WHERE key = ?1 AND first = 1 \
             LIMIT ?2 OFFSET ?3",
        )?
        .query_map(
            rusqlite::params![keyed.key, limit as i64, offset as i64],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?
        .collect::<rusqlite::Result<_>>()?;
    let mut q = conn.prepare_cached(&format!(
        "SELECT {SUMMARY_COLUMNS} FROM games WHERE id = ?1"
    ))?;
    let mut out = Vec::with_capacity(found.len());
    for (game, node, next) in found {
        let summary = q.query_row([game], read_summary)?;
        let next = (next != LEAF)
            .then(|| keyed.shown(next))
            .flatten()
            .map(|p: Pos| format_pos(p, size));
        out.push(GameAt {
            game: summary,
            node,
            next,
        });
    }
    Ok(out)
}
