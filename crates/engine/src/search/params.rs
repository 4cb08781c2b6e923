//! Search parameters: every tunable of the search in one struct, with the defaults as named
//! constants. Depths are in 1/16 ply ([`PLY`]); margins in evaluation units.

use super::score::Score;

/// One ply of search depth.
pub const PLY: i32 = 16;

/// Tunables of the search (see the field docs; [`SearchParams::default`] holds the defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// Iterations from which aspiration windows are used.
    pub aspiration_min_depth: i32,
    /// First aspiration half-width.
    pub aspiration_initial: Score,
    /// Plies less for each re-search of an iteration after a fail-high at the root.
    pub aspiration_fail_high_reduce: i32,
    /// Razoring applies below this depth.
    pub razor_max_depth: i32,
    /// Razoring margin: base.
    pub razor_base: Score,
    /// Razoring margin: per ply.
    pub razor_per_ply: Score,
    /// Reverse futility margin per ply.
    pub futility_per_ply: Score,
    /// Null move pruning from this depth on.
    pub null_move_min_depth: i32,
    /// Null move margin over beta: base, shrinking per ply down to the minimum.
    pub null_move_margin_base: Score,
    /// Null move margin shrink per ply.
    pub null_move_margin_per_ply: Score,
    /// Smallest null move margin.
    pub null_move_margin_min: Score,
    /// Null move reduction: base.
    pub null_move_reduction_base: i32,
    /// Null move reduction: percent of the depth added.
    pub null_move_reduction_pct: i32,
    /// Internal iterative reduction at PV nodes without a hash move.
    pub iir_pv: i32,
    /// Internal iterative reduction at deep nodes without a hash move: from this depth...
    pub iir_deep_depth: i32,
    /// ... by this much.
    pub iir_deep: i32,
    /// Moves with no threat class for either side are skipped below this depth.
    pub trivial_prune_depth: i32,
    /// Extension of the hash move at PV nodes.
    pub tt_move_ext_pv: i32,
    /// Extension of the hash move at other nodes.
    pub tt_move_ext_nonpv: i32,
    /// Extension of the forced block of a four.
    pub forced_block_ext: i32,
    /// Extra reduction of non-killer moves at cut nodes.
    pub cutnode_reduction: i32,
    /// Less reduction at nodes that are or were on the PV.
    pub ttpv_reduction: i32,
    /// Late move reductions: percent of the base factor (`ln(depth) * ln(move number)` plies).
    pub lmr_scale_pct: i32,
    /// Move count pruning: moves kept at depth d are `(base + d^exp) / (2 - improving)`.
    pub move_count_base: f32,
    /// Exponent of the move count.
    pub move_count_exp: f32,
    /// Threat quiescence: plain fours are tried while the level is at least this (levels are
    /// 0, -1, -2, ...); deeper, only fours that also make a three or two.
    pub qvcf_plain_depth: i32,
    /// Threat quiescence: deepest level.
    pub qvcf_max_depth: i32,
    /// Ordering bonus of killer moves.
    pub killer_bonus: i32,
    /// History scores are divided by this in move ordering.
    pub history_divisor: i32,
    /// Ordering bonus per step closer than three to the last move of either side.
    pub near_last_bonus: i32,
    /// Late move reductions in whole plies (rounded up) instead of sixteenths.
    pub lmr_whole_plies: bool,
    /// A late move whose reduced search fails high by less than this is re-searched a ply
    /// short of its full depth (0: always at full depth).
    pub lmr_shallower_margin: Score,
    /// The shorter re-search of `lmr_shallower_margin` applies only at nodes with at least this
    /// many plies left to search (nearer the leaves, the full re-search).
    pub lmr_shallower_min_depth: i32,
    /// Up to this many threads share the work by Young Brothers Wait (a node's first move is
    /// searched by one thread, the rest of its list shared with idle threads); more threads
    /// (or all, at 0 or 1) run Lazy SMP (each thread searches the whole tree, sharing only the
    /// table). Measured on this 2-core machine with 2 threads only.
    pub ybwc_max_threads: usize,
    /// Young Brothers Wait: nodes with at least this many plies left are shared.
    pub split_min_depth: i32,
    /// Young Brothers Wait: one history table for all threads. Off, each thread keeps its own
    /// and copies the owner's when it joins a shared node.
    pub shared_history: bool,
}

const ASPIRATION_MIN_DEPTH: i32 = 5;
// 16 until the fifth session: the evaluation swings by 20-50 between iterations, and at 16 an
// iteration often took four or five root searches (fail high, fail low, ...); at 64 the trees to
// depth 14 over 40 openings are 0.62 (freestyle) and 0.66 (standard) of their size, and the
// strength held (+24 and +14 Elo, 72 games each at 100 ms per move).
const ASPIRATION_INITIAL: Score = 64;
const RAZOR_MAX_DEPTH: i32 = 42;
const RAZOR_BASE: Score = 20;
const RAZOR_PER_PLY: Score = 16;
const FUTILITY_PER_PLY: Score = 56;
const NULL_MOVE_MIN_DEPTH: i32 = 10 * PLY;
const NULL_MOVE_MARGIN_BASE: Score = 300;
const NULL_MOVE_MARGIN_PER_PLY: Score = 14;
const NULL_MOVE_MARGIN_MIN: Score = 140;
const NULL_MOVE_REDUCTION_BASE: i32 = 4 * PLY;
const NULL_MOVE_REDUCTION_PCT: i32 = 14;
const IIR_PV: i32 = 5;
const IIR_DEEP_DEPTH: i32 = 15 * PLY;
const IIR_DEEP: i32 = 11;
const TRIVIAL_PRUNE_DEPTH: i32 = 69;
const TT_MOVE_EXT_PV: i32 = 4;
const TT_MOVE_EXT_NONPV: i32 = 1;
const FORCED_BLOCK_EXT: i32 = 4;
const CUTNODE_REDUCTION: i32 = 29;
const TTPV_REDUCTION: i32 = 16;
const LMR_SCALE_PCT: i32 = 100;
const MOVE_COUNT_BASE: f32 = 3.0;
const MOVE_COUNT_EXP: f32 = 1.32;
const QVCF_PLAIN_DEPTH: i32 = -2;
const QVCF_MAX_DEPTH: i32 = -24;
const KILLER_BONUS: i32 = 300;
const HISTORY_DIVISOR: i32 = 64;
const NEAR_LAST_BONUS: i32 = 120;
const LMR_WHOLE_PLIES: bool = true;
// 0 (a full-depth re-search) until the tenth session: see the note in the worker's move loop.
const LMR_SHALLOWER_MARGIN: Score = 5;
// 0: everywhere. 6 raised the 2-thread bench ratio only by slowing one thread on the bench
// positions: see the note in the worker's move loop.
const LMR_SHALLOWER_MIN_DEPTH: i32 = 0;
// 0 until the thirteenth session: see the note in the worker's iteration loop.
const ASPIRATION_FAIL_HIGH_REDUCE: i32 = 1;
const YBWC_MAX_THREADS: usize = 2;
const SPLIT_MIN_DEPTH: i32 = 4;
// on until the fifteenth session: see the note at `History`.
const SHARED_HISTORY: bool = false;

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            aspiration_min_depth: ASPIRATION_MIN_DEPTH,
            aspiration_initial: ASPIRATION_INITIAL,
            aspiration_fail_high_reduce: ASPIRATION_FAIL_HIGH_REDUCE,
            razor_max_depth: RAZOR_MAX_DEPTH,
            razor_base: RAZOR_BASE,
            razor_per_ply: RAZOR_PER_PLY,
            futility_per_ply: FUTILITY_PER_PLY,
            null_move_min_depth: NULL_MOVE_MIN_DEPTH,
            null_move_margin_base: NULL_MOVE_MARGIN_BASE,
            null_move_margin_per_ply: NULL_MOVE_MARGIN_PER_PLY,
            null_move_margin_min: NULL_MOVE_MARGIN_MIN,
            null_move_reduction_base: NULL_MOVE_REDUCTION_BASE,
            null_move_reduction_pct: NULL_MOVE_REDUCTION_PCT,
            iir_pv: IIR_PV,
            iir_deep_depth: IIR_DEEP_DEPTH,
            iir_deep: IIR_DEEP,
            trivial_prune_depth: TRIVIAL_PRUNE_DEPTH,
            tt_move_ext_pv: TT_MOVE_EXT_PV,
            tt_move_ext_nonpv: TT_MOVE_EXT_NONPV,
            forced_block_ext: FORCED_BLOCK_EXT,
            cutnode_reduction: CUTNODE_REDUCTION,
            ttpv_reduction: TTPV_REDUCTION,
            lmr_scale_pct: LMR_SCALE_PCT,
            move_count_base: MOVE_COUNT_BASE,
            move_count_exp: MOVE_COUNT_EXP,
            qvcf_plain_depth: QVCF_PLAIN_DEPTH,
            qvcf_max_depth: QVCF_MAX_DEPTH,
            killer_bonus: KILLER_BONUS,
            history_divisor: HISTORY_DIVISOR,
            near_last_bonus: NEAR_LAST_BONUS,
            lmr_whole_plies: LMR_WHOLE_PLIES,
            lmr_shallower_margin: LMR_SHALLOWER_MARGIN,
            lmr_shallower_min_depth: LMR_SHALLOWER_MIN_DEPTH,
            ybwc_max_threads: YBWC_MAX_THREADS,
            split_min_depth: SPLIT_MIN_DEPTH,
            shared_history: SHARED_HISTORY,
        }
    }
}

impl SearchParams {
    /// Sets one parameter by name (`"futility_per_ply"`, ...) from text, for tuning tools.
    ///
    /// # Errors
    /// Unknown names and values that do not parse.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let bad = || format!("'{value}' is not a valid value for {name}");
        match name {
            "aspiration_min_depth" => {
                self.aspiration_min_depth = value.parse().map_err(|_| bad())?
            }
            "aspiration_initial" => self.aspiration_initial = value.parse().map_err(|_| bad())?,
            "aspiration_fail_high_reduce" => {
                self.aspiration_fail_high_reduce = value.parse().map_err(|_| bad())?
            }
            "razor_max_depth" => self.razor_max_depth = value.parse().map_err(|_| bad())?,
            "razor_base" => self.razor_base = value.parse().map_err(|_| bad())?,
            "razor_per_ply" => self.razor_per_ply = value.parse().map_err(|_| bad())?,
            "futility_per_ply" => self.futility_per_ply = value.parse().map_err(|_| bad())?,
            "null_move_min_depth" => self.null_move_min_depth = value.parse().map_err(|_| bad())?,
            "null_move_margin_base" => {
                self.null_move_margin_base = value.parse().map_err(|_| bad())?
            }
            "null_move_margin_per_ply" => {
                self.null_move_margin_per_ply = value.parse().map_err(|_| bad())?
            }
            "null_move_margin_min" => {
                self.null_move_margin_min = value.parse().map_err(|_| bad())?
            }
            "null_move_reduction_base" => {
                self.null_move_reduction_base = value.parse().map_err(|_| bad())?
            }
            "null_move_reduction_pct" => {
                self.null_move_reduction_pct = value.parse().map_err(|_| bad())?
            }
            "iir_pv" => self.iir_pv = value.parse().map_err(|_| bad())?,
            "iir_deep_depth" => self.iir_deep_depth = value.parse().map_err(|_| bad())?,
            "iir_deep" => self.iir_deep = value.parse().map_err(|_| bad())?,
            "trivial_prune_depth" => self.trivial_prune_depth = value.parse().map_err(|_| bad())?,
            "tt_move_ext_pv" => self.tt_move_ext_pv = value.parse().map_err(|_| bad())?,
            "tt_move_ext_nonpv" => self.tt_move_ext_nonpv = value.parse().map_err(|_| bad())?,
            "forced_block_ext" => self.forced_block_ext = value.parse().map_err(|_| bad())?,
            "cutnode_reduction" => self.cutnode_reduction = value.parse().map_err(|_| bad())?,
            "ttpv_reduction" => self.ttpv_reduction = value.parse().map_err(|_| bad())?,
            "lmr_scale_pct" => self.lmr_scale_pct = value.parse().map_err(|_| bad())?,
            "move_count_base" => self.move_count_base = value.parse().map_err(|_| bad())?,
            "move_count_exp" => self.move_count_exp = value.parse().map_err(|_| bad())?,
            "qvcf_plain_depth" => self.qvcf_plain_depth = value.parse().map_err(|_| bad())?,
            "qvcf_max_depth" => self.qvcf_max_depth = value.parse().map_err(|_| bad())?,
            "killer_bonus" => self.killer_bonus = value.parse().map_err(|_| bad())?,
            "history_divisor" => self.history_divisor = value.parse().map_err(|_| bad())?,
            "near_last_bonus" => self.near_last_bonus = value.parse().map_err(|_| bad())?,
            "lmr_shallower_margin" => {
                self.lmr_shallower_margin = value.parse().map_err(|_| bad())?
            }
            "lmr_shallower_min_depth" => {
                self.lmr_shallower_min_depth = value.parse().map_err(|_| bad())?
            }
            "split_min_depth" => self.split_min_depth = value.parse().map_err(|_| bad())?,
            "lmr_whole_plies" => self.lmr_whole_plies = parse_switch(value).ok_or_else(bad)?,
            "ybwc_max_threads" => self.ybwc_max_threads = value.parse().map_err(|_| bad())?,
            "shared_history" => self.shared_history = parse_switch(value).ok_or_else(bad)?,
            _ => return Err(format!("unknown search parameter '{name}'")),
        }
        Ok(())
    }

    /// Whether a search on `threads` threads uses Young Brothers Wait (else Lazy SMP).
    #[must_use]
    pub fn uses_ybwc(&self, threads: usize) -> bool {
        (2..=self.ybwc_max_threads).contains(&threads)
    }

    /// First aspiration half-width (`prev_delta == 0`), then the next wider one.
    #[must_use]
    pub fn aspiration_delta(&self, prev_value: Score, prev_delta: Score) -> Score {
        if prev_delta == 0 {
            self.aspiration_initial
        } else {
            prev_delta * (6 + prev_value.abs() / 512) / 4 + 6
        }
    }

    /// Razoring margin at depth `d`.
    #[must_use]
    pub fn razor_margin(&self, d: i32) -> Score {
        self.razor_base + self.razor_per_ply * d / PLY
    }

    /// Reverse futility margin at depth `d`.
    #[must_use]
    pub fn futility_margin(&self, d: i32, improving: bool) -> Score {
        (self.futility_per_ply * (d - if improving { PLY } else { 0 }) / PLY).max(0)
    }

    /// Null move margin over beta at depth `d`.
    #[must_use]
    pub fn null_move_margin(&self, d: i32) -> Score {
        (self.null_move_margin_base - self.null_move_margin_per_ply * d / PLY)
            .max(self.null_move_margin_min)
    }

    /// Null move depth reduction at depth `d`.
    #[must_use]
    pub fn null_move_reduction(&self, d: i32) -> i32 {
        self.null_move_reduction_base + d * self.null_move_reduction_pct / 100
    }

    /// Moves searched at depth `d` before the rest are skipped (move count pruning).
    #[must_use]
    pub fn move_count_limit(&self, d: i32, improving: bool) -> usize {
        let plies = (d / PLY).max(0) as f32;
        let n = self.move_count_base + plies.powf(self.move_count_exp);
        (n / if improving { 1.0 } else { 2.0 }) as usize
    }
}

/// An on/off parameter: `1`/`true` or `0`/`false`.
fn parse_switch(value: &str) -> Option<bool> {
    match value {
        "1" | "true" => Some(true),
        "0" | "false" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_parses_values_and_rejects_bad_ones_without_changing_anything() {
        let mut p = SearchParams::default();
        p.set("lmr_whole_plies", "0").expect("0 is a valid switch");
        assert!(!p.lmr_whole_plies);
        p.set("lmr_whole_plies", "true")
            .expect("true is a valid switch");
        assert!(p.lmr_whole_plies);
        p.set("killer_bonus", "250").expect("a number");
        assert_eq!(p.killer_bonus, 250);
        p.set("lmr_shallower_margin", "0").expect("a number");
        assert_eq!(p.lmr_shallower_margin, 0);
        p.set("lmr_shallower_min_depth", "4").expect("a number");
        assert_eq!(p.lmr_shallower_min_depth, 4);
        p.set("aspiration_fail_high_reduce", "0").expect("a number");
        assert_eq!(p.aspiration_fail_high_reduce, 0);
        // Young Brothers Wait on 2 threads by default, Lazy SMP beyond or when switched off
        assert!(p.uses_ybwc(2) && !p.uses_ybwc(1) && !p.uses_ybwc(3));
        p.set("ybwc_max_threads", "0").expect("a number");
        assert!(!p.uses_ybwc(2));
        p.set("shared_history", "1").expect("1 is a valid switch");
        assert!(p.shared_history);
        let before = p.clone();
        for (name, value) in [
            ("lmr_whole_plies", "yes"),
            ("killer_bonus", "many"),
            ("ybwc_max_threads", "-1"),
            ("shared_history", "on"),
            ("aspiration_fail_high_reduce", "1.5"),
            ("no_such_parameter", "1"),
        ] {
            let err = p.set(name, value).expect_err("bad input is an error");
            assert!(err.contains(name) || err.contains(value), "{err}");
            assert_eq!(p, before);
        }
    }
}
