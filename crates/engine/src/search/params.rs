//! Search parameters: every tunable of the search in one struct, with the defaults as named
//! constants. Depths are in 1/16 ply ([`PLY`]); margins in evaluation units.

use super::score::Score;
use crate::types::Rule;
use std::fmt;

/// One ply of search depth.
pub const PLY: i32 = 16;

/// Tunables of the search (see the field docs; [`SearchParams::default`] holds the defaults,
/// [`PARAMS`] the valid ranges).
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
    /// Singular extensions from this depth on: a hash move whose alternatives all fail low
    /// on a shallower search (with the hash move left out) is searched a ply deeper.
    pub singular_min_depth: i32,
    /// The hash entry of a singular test is at most this much shallower than the node.
    pub singular_tt_depth: i32,
    /// Margin of the singular test under the hash value: percent of a point per ply of
    /// depth (a point per ply more at former PV nodes).
    pub singular_margin_pct: i32,
    /// Reduction (a negative extension) of a hash move that is not singular but whose hash
    /// value reaches beta.
    pub singular_fail_high_reduction: i32,
    /// Fail-high reduction in freestyle and standard: at a cut node whose evaluation is at
    /// least beta plus [`SearchParams::fail_high_margin`], every move that makes no four is
    /// searched this much shallower (0: off).
    pub fail_high_reduction: i32,
    /// The fail-high reduction in renju.
    pub fail_high_reduction_renju: i32,
    /// Margin of the fail-high reduction: points at no depth.
    pub fail_high_margin_base: Score,
    /// Margin of the fail-high reduction: points per ply of depth.
    pub fail_high_margin_per_ply: Score,
    /// Margin of the fail-high reduction: points more when the opponent has a four.
    pub fail_high_margin_oppo4: Score,
    /// Policy reduction: a late move whose ordering score (the pcode tables of both colours)
    /// is more than `policy_lmr_offset` under the best of its node's list is reduced by a ply
    /// per `policy_lmr_unit` further below, at most this many sixteenths of a ply (0: off).
    pub policy_lmr_max: i32,
    /// See [`SearchParams::policy_lmr_max`]: ordering score units.
    pub policy_lmr_offset: i32,
    /// See [`SearchParams::policy_lmr_max`]: ordering score units per ply (at least 1).
    pub policy_lmr_unit: i32,
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
    /// The counter-move history (a history of each colour's moves by the opponent's move
    /// before them) in move ordering: percent of its value added to the history's (0: off).
    pub counter_history_pct: i32,
    /// The counter-move history in late move reductions: percent of its value added to the
    /// history's that moves the reduction (0: the history alone).
    pub counter_history_lmr_pct: i32,
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
    /// The network evaluates ([`crate::nnue`]) where the model in use has a network for the
    /// board's rule; elsewhere, and when off, the tables do.
    pub nnue: bool,
    /// The network evaluates in renju too (with [`SearchParams::nnue`] on); off, renju
    /// evaluates with the tables.
    pub nnue_renju: bool,
    /// With the network on, the share of its value in the static evaluation, in percent; the
    /// tables' value makes up the rest (100: the network's alone; 0: the tables evaluate and
    /// the network only orders and reduces moves).
    pub nnue_eval_pct: i32,
    /// The network's share (as [`SearchParams::nnue_eval_pct`]) in the iterations from
    /// [`SearchParams::nnue_eval_deep_to`] on; between [`SearchParams::nnue_eval_deep_from`]
    /// and that depth the share moves in even steps from `nnue_eval_pct` to this one. Equal to
    /// `nnue_eval_pct`, the share is the same at every depth.
    pub nnue_eval_pct_deep: i32,
    /// See [`SearchParams::nnue_eval_pct_deep`]: the last iteration depth at the shallow share.
    pub nnue_eval_deep_from: i32,
    /// See [`SearchParams::nnue_eval_pct_deep`]: the first iteration depth at the deep share.
    pub nnue_eval_deep_to: i32,
    /// Move ordering with the network: points of ordering score per unit of the policy's logit
    /// added to a move's score (0: the policy does not order).
    pub nnue_policy_weight: i32,
    /// Policy reduction with the network: a late move whose policy logit is under the best of
    /// its node's list is reduced by this many sixteenths of a ply per unit of logit (0: off),
    /// at most [`SearchParams::nnue_policy_lmr_max`].
    pub nnue_policy_lmr: i32,
    /// See [`SearchParams::nnue_policy_lmr`]: sixteenths of a ply.
    pub nnue_policy_lmr_max: i32,
}

const ASPIRATION_MIN_DEPTH: i32 = 5;
// 64, not 16: the evaluation swings by 20-50 between iterations, and at 16 an iteration often
// takes four or five root searches (fail high, fail low, ...); at 64 the trees to depth 14 over
// 40 openings are 0.62 (freestyle) and 0.66 (standard) of their size at 16, for the same
// strength (+24 and +14 Elo, 72 games each at 100 ms per move).
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
// Off (past every depth): see the note at `Worker::singular_test` in `worker/node.rs`. At 106
// (6.6 plies), the test runs.
const SINGULAR_MIN_DEPTH: i32 = DEPTH_MAX;
const SINGULAR_TT_DEPTH: i32 = 2 * PLY;
const SINGULAR_MARGIN_PCT: i32 = 90;
const SINGULAR_FAIL_HIGH_REDUCTION: i32 = 24;
// Off. At a ply, against Rapfi at 1 s (`match.sh`): renju 47-48-1 in four runs of 24
// (64.6%, 54.2%, 33.3%, 45.8%; 49.5% over 96) where the search without it scored 45.8% over
// 72; freestyle 5-20-6 in a run stopped after 36 games (25.8% without Rapfi's 5 start-up
// forfeits; 29-60% for the search without it over the first 18 games of eight runs).
// Self-play at 200 ms a move: freestyle 60/120, renju 51/120 against the search without it.
// At a fixed depth it searches 17% fewer nodes. See docs/benchmarks.md.
const FAIL_HIGH_REDUCTION: i32 = 0;
const FAIL_HIGH_REDUCTION_RENJU: i32 = 0;
const FAIL_HIGH_MARGIN_BASE: Score = -9;
const FAIL_HIGH_MARGIN_PER_PLY: Score = 15;
const FAIL_HIGH_MARGIN_OPPO4: Score = 87;
// Off. At 32 (up to two plies more for a move 600 points or more under the best of its
// list, starting 300 under it): self-play at 200 ms a move 58/120 against the search without
// it (freestyle), and 17% fewer nodes at a fixed depth.
const POLICY_LMR_MAX: i32 = 0;
// On, blended half and half with the tables (`NNUE_EVAL_PCT`), in every rule. Self-play at
// 100 ms against the tables alone: freestyle 63.7% (+98, +54 .. +145) and standard 61.9% (+84,
// +42 .. +129) over 240 games, renju 63.8% (+99, +44 .. +159) over 152 (`NNUE_RENJU`, with the
// renju network of generation 0 and its threat rows; generation 1's scores 57.9% against that
// one); the network alone in freestyle at 200 ms 61.9%, policy ordering alone
// (`NNUE_EVAL_PCT` 0) 41.0%. Against Rapfi at 1 s, eval openings: freestyle 57.9% over 240
// games (the tables 50.3% over 159, the network alone 45.0% over 80), standard 66.9% over 80,
// renju 62.8% over 144 with generation 0's renju network and 62.0% over 96 with generation
// 1's (the tables 54.7% over 95). See docs/benchmarks.md.
const NNUE: bool = true;
const NNUE_RENJU: bool = true;
const NNUE_EVAL_PCT: i32 = 50;
// The same share at every depth: falling to 30% from depth 14 to 24 scored 45.9% against it in
// self-play at 600 ms (160 games, freestyle, -28, -79 .. +21), though the network's edge over
// the tables shrinks with time (docs/benchmarks.md, scaling).
const NNUE_EVAL_PCT_DEEP: i32 = NNUE_EVAL_PCT;
const NNUE_EVAL_DEEP_FROM: i32 = 14;
const NNUE_EVAL_DEEP_TO: i32 = 24;
const NNUE_POLICY_WEIGHT: i32 = 100;
const NNUE_POLICY_LMR: i32 = 0;
const NNUE_POLICY_LMR_MAX: i32 = 2 * PLY;
const POLICY_LMR_OFFSET: i32 = 300;
const POLICY_LMR_UNIT: i32 = 300;
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
const COUNTER_HISTORY_PCT: i32 = 0;
const COUNTER_HISTORY_LMR_PCT: i32 = 0;
const LMR_WHOLE_PLIES: bool = true;
// 0 is a full-depth re-search: see the note on the re-search in `worker/node.rs`.
const LMR_SHALLOWER_MARGIN: Score = 5;
// 0: everywhere. 6 raised the 2-thread bench ratio only by slowing one thread on the bench
// positions: see the note on the re-search in `worker/node.rs`.
const LMR_SHALLOWER_MIN_DEPTH: i32 = 0;
// 0 re-searches a fail-high at full depth: see the note on fail-highs in `worker/deepening.rs`.
const ASPIRATION_FAIL_HIGH_REDUCE: i32 = 1;
const YBWC_MAX_THREADS: usize = 2;
const SPLIT_MIN_DEPTH: i32 = 4;
// off, each thread has a history of its own: see the note at `History` in `worker/ordering.rs`.
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
            singular_min_depth: SINGULAR_MIN_DEPTH,
            singular_tt_depth: SINGULAR_TT_DEPTH,
            singular_margin_pct: SINGULAR_MARGIN_PCT,
            singular_fail_high_reduction: SINGULAR_FAIL_HIGH_REDUCTION,
            fail_high_reduction: FAIL_HIGH_REDUCTION,
            fail_high_reduction_renju: FAIL_HIGH_REDUCTION_RENJU,
            fail_high_margin_base: FAIL_HIGH_MARGIN_BASE,
            fail_high_margin_per_ply: FAIL_HIGH_MARGIN_PER_PLY,
            fail_high_margin_oppo4: FAIL_HIGH_MARGIN_OPPO4,
            policy_lmr_max: POLICY_LMR_MAX,
            policy_lmr_offset: POLICY_LMR_OFFSET,
            policy_lmr_unit: POLICY_LMR_UNIT,
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
            counter_history_pct: COUNTER_HISTORY_PCT,
            counter_history_lmr_pct: COUNTER_HISTORY_LMR_PCT,
            lmr_whole_plies: LMR_WHOLE_PLIES,
            lmr_shallower_margin: LMR_SHALLOWER_MARGIN,
            lmr_shallower_min_depth: LMR_SHALLOWER_MIN_DEPTH,
            ybwc_max_threads: YBWC_MAX_THREADS,
            split_min_depth: SPLIT_MIN_DEPTH,
            shared_history: SHARED_HISTORY,
            nnue: NNUE,
            nnue_renju: NNUE_RENJU,
            nnue_eval_pct: NNUE_EVAL_PCT,
            nnue_eval_pct_deep: NNUE_EVAL_PCT_DEEP,
            nnue_eval_deep_from: NNUE_EVAL_DEEP_FROM,
            nnue_eval_deep_to: NNUE_EVAL_DEEP_TO,
            nnue_policy_weight: NNUE_POLICY_WEIGHT,
            nnue_policy_lmr: NNUE_POLICY_LMR,
            nnue_policy_lmr_max: NNUE_POLICY_LMR_MAX,
        }
    }
}

impl SearchParams {
    /// Sets one parameter by name (`"futility_per_ply"`, ...) from text, for tuning tools. The
    /// value must lie in the parameter's range (see [`PARAMS`]); on any error the parameters
    /// are left unchanged.
    ///
    /// # Errors
    /// Unknown names, values that do not parse, values out of range (non-finite numbers too).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let param = PARAMS
            .iter()
            .find(|p| p.name == name)
            .ok_or_else(|| format!("unknown parameter '{name}'"))?;
        param.set(self, value)
    }

    /// Checks every parameter against its range (see [`PARAMS`]): parameters built field by
    /// field, rather than through [`SearchParams::set`], can be checked before a search.
    ///
    /// # Errors
    /// The first parameter out of range, as [`SearchParams::set`] words it.
    pub fn validate(&self) -> Result<(), String> {
        for p in PARAMS {
            let value = p.get(self);
            p.set(&mut self.clone(), &value)?;
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

    /// The singular test at a node of depth `d` (with `former_pv` when the node is not a PV
    /// node but was one): the margin under the hash value, and the depth of the test search
    /// (0.46 of the node's, a ply more at former PV nodes).
    #[must_use]
    pub fn singular_test(&self, d: i32, former_pv: bool) -> (Score, i32) {
        let pct = self.singular_margin_pct + 100 * i32::from(former_pv);
        let margin = pct * d / (100 * PLY);
        let depth = d * 46 / 100 + PLY * i32::from(former_pv);
        (margin, depth)
    }

    /// The fail-high reduction under `rule`.
    #[must_use]
    pub fn fail_high_reduction_for(&self, rule: Rule) -> i32 {
        if rule == Rule::Renju {
            self.fail_high_reduction_renju
        } else {
            self.fail_high_reduction
        }
    }

    /// The network's share of the static evaluation in percent in an iteration of nominal
    /// depth `depth` (see [`SearchParams::nnue_eval_pct_deep`]).
    #[must_use]
    pub fn nnue_eval_pct_at(&self, depth: i32) -> i32 {
        let (from, to) = (self.nnue_eval_deep_from, self.nnue_eval_deep_to);
        let (shallow, deep) = (self.nnue_eval_pct, self.nnue_eval_pct_deep);
        if depth <= from || shallow == deep {
            shallow
        } else if depth >= to {
            deep
        } else {
            shallow + (deep - shallow) * (depth - from) / (to - from)
        }
    }

    /// Whether the network evaluates (where the model has one) under `rule`.
    #[must_use]
    pub fn nnue_for(&self, rule: Rule) -> bool {
        self.nnue && (rule != Rule::Renju || self.nnue_renju)
    }

    /// The margin over beta of a cut node's evaluation at depth `d` (sixteenths of a ply) past
    /// which its moves get the fail-high reduction; `oppo4` when the opponent has a four.
    #[must_use]
    pub fn fail_high_margin(&self, d: i32, oppo4: bool) -> Score {
        self.fail_high_margin_base
            + self.fail_high_margin_per_ply * d / PLY
            + self.fail_high_margin_oppo4 * Score::from(oppo4)
    }

    /// The policy reduction (sixteenths of a ply) of a move whose ordering score is `below`
    /// under the best of its list.
    #[must_use]
    pub fn policy_reduction(&self, below: i32) -> i32 {
        let over = below.saturating_sub(self.policy_lmr_offset).max(0);
        (over.saturating_mul(PLY) / self.policy_lmr_unit.max(1)).min(self.policy_lmr_max)
    }

    /// Moves searched at depth `d` before the rest are skipped (move count pruning).
    #[must_use]
    pub fn move_count_limit(&self, d: i32, improving: bool) -> usize {
        let plies = (d / PLY).max(0) as f32;
        let n = self.move_count_base + plies.powf(self.move_count_exp);
        (n / if improving { 1.0 } else { 2.0 }) as usize
    }
}

/// The values a parameter accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Range {
    /// Whole numbers from the first to the second, both included.
    Int(i32, i32),
    /// Finite numbers from the first to the second, both included.
    Float(f32, f32),
    /// On or off: `1`/`true` or `0`/`false`.
    Switch,
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Range::Int(lo, hi) => write!(f, "{lo}..={hi}"),
            Range::Float(lo, hi) => write!(f, "{lo:?}..={hi:?}"),
            Range::Switch => f.write_str("0 or 1"),
        }
    }
}

/// Where a parameter lives in [`SearchParams`].
#[derive(Clone, Copy)]
enum Field {
    I32(Access<i32>),
    Usize(Access<usize>),
    F32(Access<f32>),
    Bool(Access<bool>),
}

/// The field of a parameter of type `T` in [`SearchParams`].
type Access<T> = fn(&mut SearchParams) -> &mut T;

/// One tunable of [`SearchParams`]: the name [`SearchParams::set`] knows it by and the values
/// it accepts.
#[derive(Clone, Copy)]
pub struct Param {
    /// The name, the same as the field's.
    pub name: &'static str,
    /// The values accepted.
    pub range: Range,
    field: Field,
}

impl fmt::Debug for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} in {}", self.name, self.range)
    }
}

impl Param {
    /// The parameter `name`, of `range`, in `field`.
    const fn new(name: &'static str, range: Range, field: Field) -> Param {
        Param { name, range, field }
    }

    /// The parameter's value in `params`, as text that [`Param::set`] reads back.
    #[must_use]
    pub fn get(&self, params: &SearchParams) -> String {
        let mut p = params.clone();
        match self.field {
            Field::I32(f) => f(&mut p).to_string(),
            Field::Usize(f) => f(&mut p).to_string(),
            Field::F32(f) => f(&mut p).to_string(),
            Field::Bool(f) => u8::from(*f(&mut p)).to_string(),
        }
    }

    /// Sets the parameter in `params` from text.
    ///
    /// # Errors
    /// A value that does not parse or is out of range (`params` is then unchanged).
    pub fn set(&self, params: &mut SearchParams, value: &str) -> Result<(), String> {
        let name = self.name;
        let range = self.range;
        let out_of_range = || format!("{name} must be in {range}, got {value}");
        let not_valid =
            |what: &str| format!("'{value}' is not a valid value for {name} ({what} in {range})");
        match (self.field, range) {
            (Field::I32(_) | Field::Usize(_), Range::Int(lo, hi)) => {
                // as i64 first, so that a number too large for the field is out of range too
                let v: i64 = value.parse().map_err(|_| not_valid("a whole number"))?;
                if !(i64::from(lo)..=i64::from(hi)).contains(&v) {
                    return Err(out_of_range());
                }
                match self.field {
                    Field::I32(f) => *f(params) = v as i32,
                    Field::Usize(f) => *f(params) = v as usize,
                    _ => unreachable!("an integer field"),
                }
            }
            (Field::F32(f), Range::Float(lo, hi)) => {
                let v: f32 = value.parse().map_err(|_| not_valid("a number"))?;
                if !v.is_finite() {
                    return Err(format!(
                        "{name} must be a finite number in {range}, got {value}"
                    ));
                }
                if !(lo..=hi).contains(&v) {
                    return Err(out_of_range());
                }
                *f(params) = v;
            }
            (Field::Bool(f), Range::Switch) => {
                *f(params) = parse_switch(value).ok_or_else(|| not_valid("a switch"))?;
            }
            _ => unreachable!("{name}: the range does not fit the field"),
        }
        Ok(())
    }
}

/// Depth thresholds in 1/16 ply go up to 100 plies, past the deepest iteration
/// ([`MAX_DEPTH`](super::MAX_DEPTH), 99 plies): at the top a threshold is never (or always)
/// met.
const DEPTH_MAX: i32 = 100 * PLY;

/// Every parameter of [`SearchParams`] with its valid range: what [`SearchParams::set`] (and
/// with it `--set` and a match player's `set=`) accepts.
///
/// The ranges reach well past the defaults for tuning, and keep the search safe: no value in
/// them makes it panic, overflow or run away. Depths are in 1/16 ply unless the name says
/// plies. The ranges that are not simply "0 to about ten times the default":
/// - `aspiration_initial` from 1: a window of 0 would never widen (an endless loop);
/// - the extensions (`tt_move_ext_*`, `forced_block_ext`) up to half a ply: at a ply or more a
///   line could go on without losing depth, and the tree would grow to the ply limit;
/// - the internal iterative reductions and the null move reduction are never negative (a
///   negative one extends, with the same effect);
/// - `history_divisor` from 1 (a division);
/// - `cutnode_reduction` and `ttpv_reduction` may be negative: they only adjust a late move
///   reduction, which never goes below zero;
/// - the threat quiescence levels go down to -64: each level is a four and its block, two
///   plies, and lines end at [`MAX_PLY`](super::MAX_PLY) (128) anyway;
/// - ply thresholds (`aspiration_min_depth`, `lmr_shallower_min_depth`, `split_min_depth`)
///   go to 100, which no iteration reaches (never);
/// - `ybwc_max_threads` up to 256, the most threads the command line accepts.
#[rustfmt::skip]
pub const PARAMS: &[Param] = &[
    // name                            min       max        field
    int("aspiration_min_depth",        1,        100,       |p| &mut p.aspiration_min_depth),
    int("aspiration_initial",          1,        1000,      |p| &mut p.aspiration_initial),
    int("aspiration_fail_high_reduce", 0,        10,        |p| &mut p.aspiration_fail_high_reduce),
    int("razor_max_depth",             0,        DEPTH_MAX, |p| &mut p.razor_max_depth),
    int("razor_base",                  0,        1000,      |p| &mut p.razor_base),
    int("razor_per_ply",               0,        500,       |p| &mut p.razor_per_ply),
    int("futility_per_ply",            0,        1000,      |p| &mut p.futility_per_ply),
    int("null_move_min_depth",         0,        DEPTH_MAX, |p| &mut p.null_move_min_depth),
    int("null_move_margin_base",       0,        3000,      |p| &mut p.null_move_margin_base),
    int("null_move_margin_per_ply",    0,        300,       |p| &mut p.null_move_margin_per_ply),
    int("null_move_margin_min",        0,        3000,      |p| &mut p.null_move_margin_min),
    int("null_move_reduction_base",    0,        10 * PLY,  |p| &mut p.null_move_reduction_base),
    int("null_move_reduction_pct",     0,        100,       |p| &mut p.null_move_reduction_pct),
    int("iir_pv",                      0,        4 * PLY,   |p| &mut p.iir_pv),
    int("iir_deep_depth",              0,        DEPTH_MAX, |p| &mut p.iir_deep_depth),
    int("iir_deep",                    0,        4 * PLY,   |p| &mut p.iir_deep),
    int("trivial_prune_depth",         0,        DEPTH_MAX, |p| &mut p.trivial_prune_depth),
    int("tt_move_ext_pv",              0,        PLY / 2,   |p| &mut p.tt_move_ext_pv),
    int("tt_move_ext_nonpv",           0,        PLY / 2,   |p| &mut p.tt_move_ext_nonpv),
    int("forced_block_ext",            0,        PLY / 2,   |p| &mut p.forced_block_ext),
    int("singular_min_depth",          0,        DEPTH_MAX, |p| &mut p.singular_min_depth),
    int("singular_tt_depth",           0,        DEPTH_MAX, |p| &mut p.singular_tt_depth),
    int("singular_margin_pct",         0,        10000,     |p| &mut p.singular_margin_pct),
    int("singular_fail_high_reduction", 0,       4 * PLY,   |p| &mut p.singular_fail_high_reduction),
    int("fail_high_reduction",         0,        4 * PLY,   |p| &mut p.fail_high_reduction),
    int("fail_high_reduction_renju",   0,        4 * PLY,   |p| &mut p.fail_high_reduction_renju),
    int("fail_high_margin_base",       -1000,    1000,      |p| &mut p.fail_high_margin_base),
    int("fail_high_margin_per_ply",    0,        500,       |p| &mut p.fail_high_margin_per_ply),
    int("fail_high_margin_oppo4",      0,        2000,      |p| &mut p.fail_high_margin_oppo4),
    int("policy_lmr_max",              0,        8 * PLY,   |p| &mut p.policy_lmr_max),
    int("policy_lmr_offset",           0,        5000,      |p| &mut p.policy_lmr_offset),
    int("policy_lmr_unit",             1,        5000,      |p| &mut p.policy_lmr_unit),
    int("cutnode_reduction",           -4 * PLY, 10 * PLY,  |p| &mut p.cutnode_reduction),
    int("ttpv_reduction",              -4 * PLY, 10 * PLY,  |p| &mut p.ttpv_reduction),
    int("lmr_scale_pct",               0,        1000,      |p| &mut p.lmr_scale_pct),
    float("move_count_base",           0.0,      64.0,      |p| &mut p.move_count_base),
    float("move_count_exp",            0.0,      4.0,       |p| &mut p.move_count_exp),
    int("qvcf_plain_depth",            -64,      0,         |p| &mut p.qvcf_plain_depth),
    int("qvcf_max_depth",              -64,      0,         |p| &mut p.qvcf_max_depth),
    int("killer_bonus",                0,        3000,      |p| &mut p.killer_bonus),
    int("history_divisor",             1,        1024,      |p| &mut p.history_divisor),
    int("near_last_bonus",             0,        1200,      |p| &mut p.near_last_bonus),
    int("counter_history_pct",         0,        400,       |p| &mut p.counter_history_pct),
    int("counter_history_lmr_pct",     0,        400,       |p| &mut p.counter_history_lmr_pct),
    switch("lmr_whole_plies",                               |p| &mut p.lmr_whole_plies),
    int("lmr_shallower_margin",        0,        200,       |p| &mut p.lmr_shallower_margin),
    int("lmr_shallower_min_depth",     0,        100,       |p| &mut p.lmr_shallower_min_depth),
    count("ybwc_max_threads",          0,        256,       |p| &mut p.ybwc_max_threads),
    int("split_min_depth",             1,        100,       |p| &mut p.split_min_depth),
    switch("shared_history",                                |p| &mut p.shared_history),
    switch("nnue",                                          |p| &mut p.nnue),
    switch("nnue_renju",                                    |p| &mut p.nnue_renju),
    int("nnue_eval_pct",               0,        100,       |p| &mut p.nnue_eval_pct),
    int("nnue_eval_pct_deep",          0,        100,       |p| &mut p.nnue_eval_pct_deep),
    int("nnue_eval_deep_from",         1,        200,       |p| &mut p.nnue_eval_deep_from),
    int("nnue_eval_deep_to",           1,        200,       |p| &mut p.nnue_eval_deep_to),
    int("nnue_policy_weight",          0,        10_000,    |p| &mut p.nnue_policy_weight),
    int("nnue_policy_lmr",             0,        8 * PLY,   |p| &mut p.nnue_policy_lmr),
    int("nnue_policy_lmr_max",         0,        8 * PLY,   |p| &mut p.nnue_policy_lmr_max),
];

/// A whole-number parameter of an `i32` field, from `lo` to `hi`.
const fn int(name: &'static str, lo: i32, hi: i32, f: Access<i32>) -> Param {
    Param::new(name, Range::Int(lo, hi), Field::I32(f))
}

/// A whole-number parameter of a `usize` field, from `lo` to `hi`.
const fn count(name: &'static str, lo: i32, hi: i32, f: Access<usize>) -> Param {
    Param::new(name, Range::Int(lo, hi), Field::Usize(f))
}

/// A parameter of an `f32` field, from `lo` to `hi`.
const fn float(name: &'static str, lo: f32, hi: f32, f: Access<f32>) -> Param {
    Param::new(name, Range::Float(lo, hi), Field::F32(f))
}

/// An on/off parameter of a `bool` field.
const fn switch(name: &'static str, f: Access<bool>) -> Param {
    Param::new(name, Range::Switch, Field::Bool(f))
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

    #[test]
    fn the_networks_share_moves_from_shallow_to_deep_in_even_steps() {
        // (shallow, deep, from, to) and the share at some depths
        type Row = ((i32, i32, i32, i32), &'static [(i32, i32)]);
        let rows: &[Row] = &[
            ((50, 50, 14, 24), &[(1, 50), (20, 50), (60, 50)]),
            (
                (50, 30, 14, 24),
                &[(1, 50), (14, 50), (19, 40), (24, 30), (40, 30)],
            ),
            ((40, 80, 10, 12), &[(10, 40), (11, 60), (12, 80)]),
            ((50, 0, 20, 20), &[(20, 50), (21, 0)]),
        ];
        for &((shallow, deep, from, to), want) in rows {
            let p = SearchParams {
                nnue_eval_pct: shallow,
                nnue_eval_pct_deep: deep,
                nnue_eval_deep_from: from,
                nnue_eval_deep_to: to,
                ..SearchParams::default()
            };
            for &(depth, share) in want {
                assert_eq!(
                    p.nnue_eval_pct_at(depth),
                    share,
                    "{shallow}..{deep} at {depth}"
                );
            }
        }
    }

    #[test]
    fn the_network_evaluates_renju_only_when_both_switches_are_on() {
        // (nnue, nnue_renju) -> freestyle, standard, renju
        for (nnue, renju, want) in [
            (false, false, [false; 3]),
            (false, true, [false; 3]),
            (true, false, [true, true, false]),
            (true, true, [true; 3]),
        ] {
            let p = SearchParams {
                nnue,
                nnue_renju: renju,
                ..SearchParams::default()
            };
            let got = [Rule::Freestyle, Rule::Standard, Rule::Renju].map(|r| p.nnue_for(r));
            assert_eq!(got, want, "nnue {nnue}, nnue_renju {renju}");
        }
    }

    /// The field names of `SearchParams`, read from its `Debug` output.
    fn field_names() -> Vec<String> {
        format!("{:#?}", SearchParams::default())
            .lines()
            .filter_map(|l| l.trim().split_once(": ").map(|(name, _)| name.to_string()))
            .collect()
    }

    #[test]
    fn every_parameter_has_a_range_and_the_defaults_lie_in_them() {
        let names: Vec<&str> = PARAMS.iter().map(|p| p.name).collect();
        assert_eq!(field_names(), names, "one entry per field, in field order");
        let d = SearchParams::default();
        d.validate().expect("the defaults are in range");
        for p in PARAMS {
            // a name `set` accepts is one of the table's, and only those
            let mut q = d.clone();
            q.set(p.name, &p.get(&d)).expect("the default reads back");
            assert_eq!(q, d, "{p:?}");
            match p.range {
                Range::Int(lo, hi) => {
                    assert!(lo < hi, "{p:?}");
                    if matches!(p.field, Field::Usize(_)) {
                        assert!(lo >= 0, "{p:?}");
                    }
                }
                Range::Float(lo, hi) => assert!(lo < hi && lo.is_finite() && hi.is_finite()),
                Range::Switch => assert!(matches!(p.field, Field::Bool(_)), "{p:?}"),
            }
        }
        let mut q = d.clone();
        let err = q.set("no_such_parameter", "1").expect_err("unknown");
        assert!(err.contains("no_such_parameter"), "{err}");
    }

    #[test]
    fn fail_high_margins_and_policy_reductions_follow_their_parameters() {
        let mut p = SearchParams::default();
        (p.fail_high_margin_base, p.fail_high_margin_per_ply) = (-9, 15);
        p.fail_high_margin_oppo4 = 87;
        assert_eq!(p.fail_high_margin(4 * PLY, false), 51);
        assert_eq!(p.fail_high_margin(4 * PLY + PLY / 2, true), 51 + 7 + 87);
        (p.fail_high_reduction, p.fail_high_reduction_renju) = (3, 16);
        assert_eq!(p.fail_high_reduction_for(Rule::Renju), 16);
        assert_eq!(p.fail_high_reduction_for(Rule::Freestyle), 3);
        assert_eq!(p.fail_high_reduction_for(Rule::Standard), 3);
        (p.policy_lmr_offset, p.policy_lmr_unit, p.policy_lmr_max) = (300, 300, 2 * PLY);
        // within the offset of the best move, none; then a ply per unit, up to the cap
        assert_eq!(p.policy_reduction(0), 0);
        assert_eq!(p.policy_reduction(300), 0);
        assert_eq!(p.policy_reduction(450), PLY / 2);
        assert_eq!(p.policy_reduction(600), PLY);
        assert_eq!(p.policy_reduction(100_000), 2 * PLY);
        assert_eq!(p.policy_reduction(i32::MAX), 2 * PLY);
        p.policy_lmr_max = 0;
        assert_eq!(p.policy_reduction(100_000), 0, "off");
    }

    #[test]
    fn the_bounds_are_accepted_and_values_past_them_refused_with_the_range() {
        let d = SearchParams::default();
        for p in PARAMS {
            let (ok, bad): (Vec<String>, Vec<String>) = match p.range {
                Range::Int(lo, hi) => (
                    vec![lo.to_string(), hi.to_string()],
                    vec![
                        (i64::from(lo) - 1).to_string(),
                        (i64::from(hi) + 1).to_string(),
                        i64::MAX.to_string(),
                        i64::MIN.to_string(),
                    ],
                ),
                Range::Float(lo, hi) => (
                    vec![lo.to_string(), hi.to_string()],
                    vec![
                        (lo - 1.0).to_string(),
                        (hi + 1.0).to_string(),
                        "NaN".into(),
                        "inf".into(),
                        "-inf".into(),
                        "1e39".into(),
                    ],
                ),
                Range::Switch => (
                    vec!["0".into(), "1".into(), "false".into(), "true".into()],
                    vec!["-1".into(), "2".into()],
                ),
            };
            for v in &ok {
                let mut q = d.clone();
                q.set(p.name, v)
                    .unwrap_or_else(|e| panic!("{p:?} = {v}: {e}"));
                assert_eq!(
                    p.get(&q),
                    match v.as_str() {
                        "true" => "1",
                        "false" => "0",
                        v => v,
                    },
                    "{p:?}"
                );
                q.validate().expect("in range");
                // the value went to this parameter's field and no other
                for o in PARAMS.iter().filter(|o| o.name != p.name) {
                    assert_eq!(o.get(&q), o.get(&d), "{p:?} = {v} changed {o:?}");
                }
            }
            for v in &bad {
                let mut q = d.clone();
                let err = q.set(p.name, v).expect_err(v);
                assert!(err.contains(p.name), "{p:?} = {v}: {err}");
                assert!(err.contains(&p.range.to_string()), "{p:?} = {v}: {err}");
                assert_eq!(q, d, "{p:?} = {v} changed the parameters");
            }
        }
        let mut q = d.clone();
        assert_eq!(
            q.set("split_min_depth", "999999999"),
            Err("split_min_depth must be in 1..=100, got 999999999".into())
        );
        assert_eq!(
            q.set("move_count_exp", "inf"),
            Err("move_count_exp must be a finite number in 0.0..=4.0, got inf".into())
        );
        // a field set directly is checked by `validate`
        q.history_divisor = 0;
        let err = q.validate().expect_err("out of range");
        assert!(err.contains("history_divisor must be in 1..=1024"), "{err}");
    }
}
