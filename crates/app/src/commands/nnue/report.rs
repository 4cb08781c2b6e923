//! The held-out report of a network: its losses on positions no training step saw, next to
//! the tables' on the same positions, and the integer network's agreement with the float one.

use super::data::{for_each_position, result_for, SampleOptions};
use crate::corpus::GameRecord;
use gomoku_engine::nnue::float::{FloatNet, Sample};
use gomoku_engine::nnue::{Accumulator, Network};
use gomoku_engine::search::movegen::gen_all;
use gomoku_engine::Color;
use serde::Serialize;

/// One held-out position: what the models said of it and what happened.
#[derive(Clone, Copy, Debug)]
struct Seen {
    /// The game's result for the side to move, 0 to 1.
    result: f64,
    /// The target's expected score (result and search mixed).
    target: f64,
    /// The tables' static evaluation.
    tables_eval: f64,
    /// The float network's expected score.
    nn: f64,
    /// The integer network's expected score.
    quantized: f64,
    /// The value cross-entropy of the float network against the target distribution.
    value_ce: f64,
    /// The policy's probability of the move played.
    policy_prob: f64,
    policy_top: bool,
    /// Whether the tables' best-ordered move is the move played.
    tables_top: bool,
}

/// The figures of a held-out set.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Report {
    /// Positions.
    pub positions: usize,
    /// Cross-entropy of the network's win/draw/loss against the mixed target.
    pub nn_value_ce: f64,
    /// Binary cross-entropy of the network's expected score against the results.
    pub nn_result_loss: f64,
    /// The same for the integer network.
    pub quantized_result_loss: f64,
    /// The same for the tables' static evaluation, at its best logistic scale.
    pub tables_result_loss: f64,
    /// The tables' scale (evaluation units per unit of logit) behind `tables_result_loss`.
    pub tables_scale: f64,
    /// Binary cross-entropy against the mixed target's expected score: the network.
    pub nn_mixed_loss: f64,
    /// The same for the tables, at their best scale for it.
    pub tables_mixed_loss: f64,
    /// Mean and largest difference of the integer network's expected score from the float's.
    pub quantized_mean_diff: f64,
    /// See `quantized_mean_diff`.
    pub quantized_max_diff: f64,
    /// Mean cross-entropy of the policy against the move played.
    pub policy_ce: f64,
    /// Share of positions where the policy's first choice is the move played.
    pub policy_top1: f64,
    /// The same for the tables' move ordering.
    pub tables_top1: f64,
}

fn bce(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The scale in `lo..hi` that minimises `f` (golden-section search to within 1).
#[must_use]
pub fn golden_section(mut lo: f64, mut hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    while hi - lo > 1.0 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if f(a) <= f(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).round()
}

/// The logistic scale under which the search's values of `games` predict their results best
/// (evaluation units per unit of logit).
#[must_use]
pub fn fit_value_scale(games: &[GameRecord]) -> f64 {
    let pairs: Vec<(f64, f64)> = games
        .iter()
        .flat_map(|g| {
            g.values.iter().enumerate().filter_map(move |(i, &v)| {
                let ply = g.opening_plies + i;
                let r = result_for(g.result, Color::BOTH[ply % 2]);
                (v.abs() < crate::corpus::PROVEN)
                    .then(|| (f64::from(v), (f64::from(r) + 1.0) / 2.0))
            })
        })
        .collect();
    if pairs.is_empty() {
        return 160.0;
    }
    golden_section(10.0, 3000.0, |k| {
        pairs.iter().map(|&(v, r)| bce(sigmoid(v / k), r)).sum()
    })
}

/// The report of `net` (and its integer form `quantized`) on `games`.
#[must_use]
pub fn report(
    net: &FloatNet,
    quantized: &'static Network,
    games: &[GameRecord],
    opts: SampleOptions,
    policy_weight: f32,
) -> Report {
    let mut seen = Vec::new();
    let mut sample = Sample::default();
    let mut list = Vec::new();
    for g in games {
        let _ = for_each_position(g, 0, false, opts, &mut sample, |board, s| {
            let out = net.accumulate(s, policy_weight, None);
            let to_move = board.to_move();
            let acc = Accumulator::new(quantized, board);
            let q = acc.wdl(to_move);
            let r = result_for(g.result, to_move);
            let mut b = board.clone();
            gen_all(&mut b, to_move, &mut list);
            let best = list.iter().max_by_key(|m| m.score).map(|m| m.pos);
            let target = s.target.map(|t| super::data::point_of(g.size, t));
            let value_ce: f64 = (0..3)
                .map(|i| -f64::from(s.value[i]) * f64::from(out.wdl[i]).max(1e-12).ln())
                .sum();
            seen.push(Seen {
                result: (f64::from(r) + 1.0) / 2.0,
                target: f64::from(s.value[0]) + f64::from(s.value[1]) / 2.0,
                tables_eval: f64::from(gomoku_engine::eval::evaluate(board)),
                nn: f64::from(out.wdl[0]) + f64::from(out.wdl[1]) / 2.0,
                quantized: f64::from(q[0]) + f64::from(q[1]) / 2.0,
                value_ce,
                policy_prob: f64::from(out.target_prob),
                policy_top: out.target_top,
                tables_top: best.is_some() && best == target,
            });
        });
    }
    summarise(&seen)
}

fn summarise(seen: &[Seen]) -> Report {
    let n = seen.len();
    if n == 0 {
        return Report::default();
    }
    let mean = |f: &dyn Fn(&Seen) -> f64| seen.iter().map(f).sum::<f64>() / n as f64;
    let tables = |k: f64, y: &dyn Fn(&Seen) -> f64| {
        seen.iter()
            .map(|s| bce(sigmoid(s.tables_eval / k), y(s)))
            .sum::<f64>()
            / n as f64
    };
    let k_result = golden_section(10.0, 3000.0, |k| tables(k, &|s| s.result));
    let k_mixed = golden_section(10.0, 3000.0, |k| tables(k, &|s| s.target));
    let diffs: Vec<f64> = seen.iter().map(|s| (s.quantized - s.nn).abs()).collect();
    Report {
        positions: n,
        nn_value_ce: mean(&|s| s.value_ce),
        nn_result_loss: mean(&|s| bce(s.nn, s.result)),
        quantized_result_loss: mean(&|s| bce(s.quantized, s.result)),
        tables_result_loss: tables(k_result, &|s| s.result),
        tables_scale: k_result,
        nn_mixed_loss: mean(&|s| bce(s.nn, s.target)),
        tables_mixed_loss: tables(k_mixed, &|s| s.target),
        quantized_mean_diff: diffs.iter().sum::<f64>() / n as f64,
        quantized_max_diff: diffs.iter().copied().fold(0.0, f64::max),
        policy_ce: mean(&|s| -s.policy_prob.max(1e-12).ln()),
        policy_top1: mean(&|s| f64::from(u8::from(s.policy_top))),
        tables_top1: mean(&|s| f64::from(u8::from(s.tables_top))),
    }
}

impl Report {
    /// The report as lines of text.
    #[must_use]
    pub fn lines(&self, what: &str) -> Vec<String> {
        vec![
            format!("{what}: {} held-out positions", self.positions),
            format!(
                "  value, against the results:  network {:.4}  integer network {:.4}  tables {:.4} (scale {})",
                self.nn_result_loss, self.quantized_result_loss, self.tables_result_loss, self.tables_scale
            ),
            format!(
                "  value, against the mixed target:  network {:.4}  tables {:.4}  (network's win/draw/loss cross-entropy {:.4})",
                self.nn_mixed_loss, self.tables_mixed_loss, self.nn_value_ce
            ),
            format!(
                "  integer against float expected score: mean difference {:.5}, largest {:.4}",
                self.quantized_mean_diff, self.quantized_max_diff
            ),
            format!(
                "  policy: cross-entropy {:.3}, first choice is the move played {:.1}% (tables' ordering {:.1}%)",
                self.policy_ce,
                100.0 * self.policy_top1,
                100.0 * self.tables_top1
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_scale_is_found() {
        let k = golden_section(10.0, 3000.0, |k| (k - 437.0).powi(2));
        assert!((k - 437.0).abs() <= 1.0);
    }

    #[test]
    fn an_empty_set_reports_nothing() {
        assert_eq!(summarise(&[]), Report::default());
    }
}
