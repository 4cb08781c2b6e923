//! The engine's analyses of positions: depth, value, the best moves with their values and
//! lines, nodes and time. One analysis is kept per position key (the deepest; a newer one of
//! the same depth replaces it), its points stored on the canonical image of the position, so
//! that it is found again in any orientation and after any move order.

use super::symmetry::{Keyed, SymHash};
use super::{now, Library, Result};
use gomoku_engine::notation::format_pos;
use gomoku_engine::Pos;
use rusqlite::{params, OptionalExtension};
use serde::{Deserialize, Serialize};

/// One candidate move of an analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The move.
    pub point: Pos,
    /// Its value for the side to move.
    pub score: i32,
    /// The depth of that value.
    pub depth: i32,
    /// The line starting with the move.
    pub pv: Vec<Pos>,
}

/// An analysis of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The depth of the search.
    pub depth: i32,
    /// The value of the position for the side to move.
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub time_ms: u64,
    /// The best moves, best first.
    pub best: Vec<Candidate>,
    /// Which engine.
    pub engine: String,
    /// When it was stored (seconds since 1970; 0 before it is).
    pub created: i64,
}

/// A candidate as stored: points as codes on the canonical position.
#[derive(Serialize, Deserialize)]
struct StoredCandidate {
    m: i64,
    s: i32,
    d: i32,
    #[serde(default)]
    pv: Vec<i64>,
}

/// An analysis as the API and the command line show it (points `h8` style, values for the
/// side to move).
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisView {
    /// The depth of the search.
    pub depth: i32,
    /// The value of the position for the side to move.
    pub score: i32,
    /// The value as text (`+35`, `win in 3`).
    pub eval: String,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub time_ms: u64,
    /// The best moves, best first.
    pub best: Vec<CandidateView>,
    /// Which engine.
    pub engine: String,
    /// When it was stored (seconds since 1970).
    pub created: i64,
}

/// A candidate as shown.
#[derive(Clone, Debug, Serialize)]
pub struct CandidateView {
    /// The move.
    #[serde(rename = "move")]
    pub point: String,
    /// Its value for the side to move.
    pub score: i32,
    /// The value as text.
    pub eval: String,
    /// The depth of that value.
    pub depth: i32,
    /// The line.
    pub pv: Vec<String>,
}

impl Analysis {
    /// As shown on a board of `size`.
    #[must_use]
    pub fn view(&self, size: usize) -> AnalysisView {
        use gomoku_engine::search::format_score;
        AnalysisView {
            depth: self.depth,
            score: self.score,
            eval: format_score(self.score),
            nodes: self.nodes,
            time_ms: self.time_ms,
            best: self
                .best
                .iter()
                .map(|c| CandidateView {
                    point: format_pos(c.point, size),
                    score: c.score,
                    eval: format_score(c.score),
                    depth: c.depth,
                    pv: c.pv.iter().map(|&p| format_pos(p, size)).collect(),
                })
                .collect(),
            engine: self.engine.clone(),
            created: self.created,
        }
    }
}

fn stored(keyed: &Keyed, a: &Analysis) -> String {
    let best: Vec<StoredCandidate> = a
        .best
        .iter()
        .map(|c| StoredCandidate {
            m: keyed.to_canonical(c.point),
            s: c.score,
            d: c.depth,
            pv: c.pv.iter().map(|&p| keyed.to_canonical(p)).collect(),
        })
        .collect();
    serde_json::to_string(&best).unwrap_or_else(|_| "[]".to_string())
}

fn shown(keyed: &Keyed, text: &str) -> Vec<Candidate> {
    let best: Vec<StoredCandidate> = serde_json::from_str(text).unwrap_or_default();
    best.into_iter()
        .filter_map(|c| {
            Some(Candidate {
                point: keyed.shown(c.m)?,
                score: c.s,
                depth: c.d,
                pv: c.pv.iter().filter_map(|&m| keyed.shown(m)).collect(),
            })
        })
        .collect()
}

impl Library {
    /// Stores an analysis of the position `at`, unless a deeper one is there; returns whether
    /// it was stored.
    ///
    /// # Errors
    /// An SQLite error.
    pub fn put_analysis(&self, at: &SymHash, a: &Analysis) -> Result<bool> {
        let keyed = at.keyed();
        let conn = self.conn();
        let n = conn.execute(
            "INSERT INTO analyses (key, depth, score, nodes, time_ms, best, engine, created) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) \
             ON CONFLICT(key) DO UPDATE SET depth = excluded.depth, score = excluded.score, \
             nodes = excluded.nodes, time_ms = excluded.time_ms, best = excluded.best, \
             engine = excluded.engine, created = excluded.created \
             WHERE excluded.depth >= analyses.depth",
            params![
                keyed.key,
                a.depth,
                a.score,
                a.nodes as i64,
                a.time_ms as i64,
                stored(&keyed, a),
                a.engine,
                now()
            ],
        )?;
        Ok(n > 0)
    }

    /// The stored analysis of the position `at`, its points in `at`'s orientation.
    ///
    /// # Errors
    /// An SQLite error.
    pub fn analysis(&self, at: &SymHash) -> Result<Option<Analysis>> {
        let keyed = at.keyed();
        let conn = self.conn();
        analysis_in(&conn, &keyed)
    }
}

/// The stored analysis of the position keyed `keyed`, on a connection.
pub(crate) fn analysis_in(conn: &rusqlite::Connection, keyed: &Keyed) -> Result<Option<Analysis>> {
    let row = conn
        .prepare_cached(
            "SELECT depth, score, nodes, time_ms, best, engine, created FROM analyses \
             WHERE key = ?1",
        )?
        .query_row([keyed.key], |r| {
            Ok((
                r.get::<_, i32>(0)?,
                r.get::<_, i32>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, i64>(6)?,
            ))
        })
        .optional()?;
    Ok(row.map(
        |(depth, score, nodes, ms, best, engine, created)| Analysis {
            depth,
            score,
            nodes: nodes.max(0) as u64,
            time_ms: ms.max(0) as u64,
            best: shown(keyed, &best),
            engine,
            created,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gomoku_engine::notation::parse_pos;
    use gomoku_engine::Rule;

    fn at(moves: &[&str]) -> SymHash {
        let mut h = SymHash::new(15, Rule::Renju);
        for m in moves {
            h.play(parse_pos(m, 15).unwrap());
        }
        h
    }

    fn p(s: &str) -> Pos {
        parse_pos(s, 15).unwrap()
    }

    #[test]
    fn an_analysis_is_found_again_in_a_mirror_image_and_another_move_order() {
        let dir = tempfile::tempdir().unwrap();
        let lib = Library::open(&dir.path().join("l.sqlite")).unwrap();
        let a = Analysis {
            depth: 12,
            score: 80,
            nodes: 1000,
            time_ms: 250,
            best: vec![Candidate {
                point: p("j10"),
                score: 80,
                depth: 12,
                pv: vec![p("j10"), p("k11")],
            }],
            engine: "pvs".into(),
            created: 0,
        };
        assert!(lib
            .put_analysis(&at(&["h8", "h9", "i8", "i9"]), &a)
            .unwrap());
        // the mirror image x -> 14 - x, another order
        let found = lib
            .analysis(&at(&["g8", "g9", "h8", "h9"]))
            .unwrap()
            .expect("found");
        assert_eq!(found.best[0].point, p("f10"));
        assert_eq!(found.best[0].pv, [p("f10"), p("e11")]);
        assert_eq!((found.depth, found.score), (12, 80));
        // a shallower one does not replace it; a deeper one does
        let shallow = Analysis {
            depth: 5,
            ..a.clone()
        };
        assert!(!lib
            .put_analysis(&at(&["h8", "h9", "i8", "i9"]), &shallow)
            .unwrap());
        assert!(lib.analysis(&at(&["h8", "h9"])).unwrap().is_none());
    }
}
