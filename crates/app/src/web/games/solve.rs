//! The search for a forced win (VCF, VCT or any proof) of the side to move, with the solver
//! of `gomoku solve`; its answer stays while the position does.

use super::jobs::WIN_LINE_NODES;
use super::{check_time, Purpose, Slot};
use crate::web::error::ApiError;
use gomoku_engine::notation::format_pos;
use gomoku_engine::solver::{SolveLimits, SolveTask, Solver};
use gomoku_engine::vcf::{complete_win, VcfSearcher};
use serde::{Deserialize, Serialize};
use std::sync::atomic::Ordering;

/// The body of `POST /api/games/{id}/solve` (optional).
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SolveRequest {
    /// `vcf` (fours only), `vct` (fours and threes, the default) or `win` (any proof, the
    /// main search's included).
    pub task: Option<String>,
    /// Milliseconds to look for it ([`SOLVE_MS`] by default, at most [`SOLVE_MAX_MS`]).
    pub time_ms: Option<u64>,
}

/// The time a solve takes by default.
pub const SOLVE_MS: u64 = 2000;

/// The longest solve (`stop` ends one sooner).
pub const SOLVE_MAX_MS: u64 = 30_000;

/// The answer of a solve.
#[derive(Clone, Debug, Serialize)]
pub struct SolutionView {
    /// `vcf`, `vct` or `win`: what was looked for.
    pub(super) task: &'static str,
    /// The side whose win was looked for (the side to move).
    pub(super) color: &'static str,
    /// Whether a win was proven.
    pub(super) solved: bool,
    /// Whether `stop` ended the solve before its time (and before it proved a win).
    pub(super) stopped: bool,
    /// Which search proved it: `vcf`, `vct` or `search`.
    pub(super) method: Option<&'static str>,
    /// The winning line, attacker and defender alternating (for a VCT, one branch).
    pub(super) line: Vec<String>,
    pub(super) nodes: u64,
    pub(super) time_ms: u64,
    /// The time it was given.
    pub(super) limit_ms: u64,
}

impl Slot {
    /// Looks for a forced win of the side to move (`task`: `vcf`, `vct` or `win`) with the
    /// solver of `gomoku solve`, for `time_ms`. The answer stays while the position does. A
    /// running hint or analysis is stopped for it (the analysis starts again afterwards);
    /// `stop` ends the solve early, with the answer marked `stopped`.
    ///
    /// # Errors
    /// 400 for a bad task or time; 409 when the game is over, in a swap2 opening or while the
    /// engine moves.
    pub fn solve(&mut self, req: &SolveRequest) -> Result<(), ApiError> {
        self.touch();
        let task_name = req
            .task
            .as_deref()
            .unwrap_or("vct")
            .trim()
            .to_ascii_lowercase();
        let (task, task_name) = match task_name.as_str() {
            "vcf" => (SolveTask::Vcf, "vcf"),
            "vct" => (SolveTask::Vct, "vct"),
            "win" => (SolveTask::Win, "win"),
            _ => {
                return Err(ApiError::bad_request(
                    "bad_task",
                    format!(
                        "task '{}': expected vcf, vct or win",
                        crate::pbrain::command::excerpt(&task_name)
                    ),
                ))
            }
        };
        let time_ms = check_time(req.time_ms.unwrap_or(SOLVE_MS))?;
        if time_ms > SOLVE_MAX_MS {
            return Err(ApiError::bad_request(
                "bad_settings",
                format!("time_ms {time_ms}: a solve takes at most {SOLVE_MAX_MS} ms"),
            ));
        }
        self.refuse_if_over()?;
        self.refuse_in_opening("solving")?;
        self.refuse_if_thinking()?;
        if self.game.board().is_full() {
            return Err(ApiError::conflict("board_full", "the board is full"));
        }
        self.cancel_job();
        self.hint = None;
        let board = self.game.board().clone();
        let color = board.to_move();
        let position = board.position_string();
        let size = self.size();
        let limits = SolveLimits {
            time_ms: self.node_limit.is_none().then_some(time_ms),
            nodes: self.node_limit,
            ..SolveLimits::default()
        };
        self.spawn_job(
            Purpose::Solve,
            move |_, stop| {
                let r = Solver::new().solve_stoppable(&board, task, limits, stop);
                // the solver's line stops at a four that cannot be stopped: on to the five
                let line = if r.solved() {
                    complete_win(&board, &r.line, &mut VcfSearcher::new(), WIN_LINE_NODES)
                } else {
                    Vec::new()
                };
                let view = SolutionView {
                    task: task_name,
                    color: color.name(),
                    solved: r.solved(),
                    stopped: !r.solved() && stop.load(Ordering::Relaxed),
                    method: r.method.map(|m| m.name()),
                    line: line.iter().map(|&p| format_pos(p, size)).collect(),
                    nodes: r.nodes,
                    time_ms: r.elapsed_ms,
                    limit_ms: time_ms,
                };
                (position, view)
            },
            Slot::finish_solve,
        )?;
        self.changed();
        Ok(())
    }

    /// Takes the answer of solve `job` (ignored if it was cancelled meanwhile).
    fn finish_solve(&mut self, job: u64, result: Option<(String, SolutionView)>) {
        if self.job.take_if(|j| j.id == job).is_none() {
            return;
        }
        match result {
            Some(r) => self.solution = Some(r),
            None => self.error = Some("the solver failed on this position".to_string()),
        }
        self.changed();
        self.maybe_start_engine();
        if self.job.is_some() {
            self.changed();
        }
    }
}
