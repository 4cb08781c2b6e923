//! Analysis mode: while it is on, the engine analyses the position on the board whenever it
//! is idle, every candidate with its exact value, leaving out the points the person chose.

use super::{read_point, Purpose, Slot};
use crate::web::error::ApiError;
use gomoku_engine::notation::format_pos;
use gomoku_engine::Pos;
use serde::Deserialize;

/// The body of `POST /api/games/{id}/analyze` (optional).
#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AnalyzeRequest {
    /// Analysis on (the default) or off.
    pub on: bool,
    /// Empty points the analysis leaves out, replacing those left out before (`h8` or `x,y`);
    /// absent, they stay as they were. They hold for the position on the board only.
    pub exclude: Option<Vec<String>>,
}

impl Default for AnalyzeRequest {
    fn default() -> Self {
        AnalyzeRequest {
            on: true,
            exclude: None,
        }
    }
}

/// How long one analysis runs at most (a tab left open must not keep a core busy for ever).
pub const ANALYSIS_MS: u64 = 5 * 60 * 1000;

impl Slot {
    /// Turns analysis on or off. On, the engine analyses the position whenever it is idle: every
    /// candidate move gets an exact value, for at most [`ANALYSIS_MS`] per position (`stop`
    /// ends it early); turning it on again while idle analyses the position anew. Off, a
    /// running analysis stops and its result is dropped.
    ///
    /// # Errors
    /// 409 when turning it on in a game that is over.
    pub fn analyze(&mut self, req: &AnalyzeRequest) -> Result<(), ApiError> {
        self.touch();
        let analysing = self
            .job
            .as_ref()
            .is_some_and(|j| j.purpose == Purpose::Analysis);
        if req.on {
            self.refuse_if_over()?;
            let exclude = req
                .exclude
                .as_ref()
                .map(|points| self.check_exclude(points))
                .transpose()?;
            self.analyze = true;
            if let Some(points) = exclude {
                if points != self.excluded() {
                    // the analysis so far counted those points: it starts again without them
                    if analysing {
                        self.cancel_job();
                    }
                    self.analysis = None;
                }
                self.excluded = Some((self.game.board().position_string(), points));
            }
            if self.job.is_none() {
                self.analysis = None;
                self.maybe_analyze();
            }
        } else {
            self.analyze = false;
            if analysing {
                self.cancel_job();
            }
            self.analysis = None;
            self.excluded = None;
        }
        self.changed();
        Ok(())
    }

    /// The points the analysis of the position on the board leaves out.
    pub(super) fn excluded(&self) -> &[Pos] {
        match &self.excluded {
            Some((position, points)) if *position == self.game.board().position_string() => points,
            _ => &[],
        }
    }

    /// Reads the points an analysis is to leave out: empty points of the board, in order and
    /// without repeats, and at least one legal point left to analyse.
    fn check_exclude(&self, points: &[String]) -> Result<Vec<Pos>, ApiError> {
        let board = self.game.board();
        let size = board.size();
        let mut out = Vec::new();
        for text in points {
            let p = read_point(text, size)
                .map_err(|e| ApiError::bad_request("bad_point", format!("exclude: {e}")))?;
            if !board.is_empty(p) {
                return Err(ApiError::bad_request(
                    "bad_point",
                    format!("exclude: {} is not an empty point", format_pos(p, size)),
                ));
            }
            if !out.contains(&p) {
                out.push(p);
            }
        }
        if !board.clone().has_move_outside(&out) {
            return Err(ApiError::bad_request(
                "nothing_left",
                "exclude: no legal point would be left to analyse",
            ));
        }
        Ok(out)
    }
}
