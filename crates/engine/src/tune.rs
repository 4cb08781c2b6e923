//! Texel tuning of the evaluation weights: fit [`EvalParams`] so that the static evaluation of
//! positions from finished games predicts their results.
//!
//! The evaluation is linear in its weights (see [`evaluate`](crate::eval::evaluate)): the point
//! values are sums of line-pattern and threat-class values, blended over the position now and
//! one ply ago, plus one threat term per class of threat each side holds. So a position is a
//! vector of [`Features`] (how often each pattern and class occurs, for the side to move less
//! the opponent, and which threat terms apply), and its evaluation is their dot product with
//! the [`Weights`]. The tuner maps an evaluation `e` to an expected score `1 / (1 + exp(-e /
//! K))`, fits the scale `K` to the current weights once, then moves the weights by gradient
//! descent (Adam) on the mean squared error against the games' results (1 win, 0.5 draw, 0
//! loss for the side to move), with a pull towards the starting weights. Keeping `K` keeps the
//! evaluation's scale, which the search's margins are measured in.
//!
//! Positions where either side can make five are left out (the search settles them, not the
//! evaluation), as are the first plies of a game (its opening) and the last two.

use crate::eval::EvalParams;
use crate::pattern::{NUM_PATTERN4, NUM_PATTERNS};
use crate::types::{Color, Pos, Rule};
use crate::{Board, Pattern, Pattern4};

/// The threat terms after the line-pattern and class values, in [`Features`] order.
const THREAT_TERMS: [&str; 10] = [
    "tempo",
    "threat_self_four_plus",
    "threat_self_four",
    "threat_self_three_plus",
    "threat_self_three",
    "threat_oppo_flex4",
    "threat_oppo_four_plus",
    "threat_oppo_four",
    "threat_oppo_three_plus",
    "threat_oppo_three",
];

/// Number of tuned weights: a value per line pattern, per threat class, and the threat terms.
pub const NUM_WEIGHTS: usize = NUM_PATTERNS + NUM_PATTERN4 + THREAT_TERMS.len();

/// The weights of the evaluation as one vector, in [`weight_name`] order.
pub type Weights = [f64; NUM_WEIGHTS];

/// What the evaluation of one position counts, in [`weight_name`] order.
pub type Features = [f32; NUM_WEIGHTS];

/// The name of weight `i`: `pattern_value.B4`, `pattern4_value.Flex3`, `tempo`, ...
#[must_use]
pub fn weight_name(i: usize) -> String {
    // the names are the enums' own (`Debug`), indexed as the value tables are
    if i < NUM_PATTERNS {
        format!("pattern_value.{:?}", Pattern::from_u8(i as u8))
    } else if i < NUM_PATTERNS + NUM_PATTERN4 {
        format!(
            "pattern4_value.{:?}",
            Pattern4::from_u8((i - NUM_PATTERNS) as u8)
        )
    } else {
        THREAT_TERMS[i - NUM_PATTERNS - NUM_PATTERN4].to_string()
    }
}

/// Whether the tuner moves weight `i`. Fixed: the values of dead lines, overlines and double
/// fours on one line and of no class or a forbidden point (a baseline, or never counted), and
/// of five (left out of the samples).
#[must_use]
pub fn is_tuned(i: usize) -> bool {
    const FIXED_PATTERNS: [Pattern; 4] = [
        Pattern::Dead,
        Pattern::Overline,
        Pattern::DoubleFourLine,
        Pattern::F5,
    ];
    const FIXED_CLASSES: [Pattern4; 3] = [Pattern4::None, Pattern4::Forbid, Pattern4::Five];
    if i < NUM_PATTERNS {
        !FIXED_PATTERNS.iter().any(|&p| p as usize == i)
    } else if i < NUM_PATTERNS + NUM_PATTERN4 {
        !FIXED_CLASSES
            .iter()
            .any(|&c| c as usize == i - NUM_PATTERNS)
    } else {
        i < NUM_WEIGHTS
    }
}

fn threat_fields(p: &EvalParams) -> [i32; 10] {
    [
        p.tempo,
        p.threat_self_four_plus,
        p.threat_self_four,
        p.threat_self_three_plus,
        p.threat_self_three,
        p.threat_oppo_flex4,
        p.threat_oppo_four_plus,
        p.threat_oppo_four,
        p.threat_oppo_three_plus,
        p.threat_oppo_three,
    ]
}

/// The tuned weights of `p` as a vector.
#[must_use]
pub fn weights_of(p: &EvalParams) -> Weights {
    let mut w = [0.0; NUM_WEIGHTS];
    for (k, &v) in p.pattern_value.iter().enumerate() {
        w[k] = f64::from(v);
    }
    for (k, &v) in p.pattern4_value.iter().enumerate() {
        w[NUM_PATTERNS + k] = f64::from(v);
    }
    for (k, v) in threat_fields(p).into_iter().enumerate() {
        w[NUM_PATTERNS + NUM_PATTERN4 + k] = f64::from(v);
    }
    w
}

/// `base` with its tuned weights replaced by `w`, rounded to whole numbers (the move-ordering
/// scores and the blend of now and one ply ago stay as they are).
#[must_use]
pub fn params_with(base: &EvalParams, w: &Weights) -> EvalParams {
    let r = |x: f64| x.round().clamp(-30_000.0, 30_000.0) as i32;
    let mut p = base.clone();
    for k in 0..NUM_PATTERNS {
        p.pattern_value[k] = r(w[k]);
    }
    for k in 0..NUM_PATTERN4 {
        p.pattern4_value[k] = r(w[NUM_PATTERNS + k]);
    }
    let t = &w[NUM_PATTERNS + NUM_PATTERN4..];
    p.tempo = r(t[0]);
    p.threat_self_four_plus = r(t[1]);
    p.threat_self_four = r(t[2]);
    p.threat_self_three_plus = r(t[3]);
    p.threat_self_three = r(t[4]);
    p.threat_oppo_flex4 = r(t[5]);
    p.threat_oppo_four_plus = r(t[6]);
    p.threat_oppo_four = r(t[7]);
    p.threat_oppo_three_plus = r(t[8]);
    p.threat_oppo_three = r(t[9]);
    p
}

/// Adds `sign` for every line pattern and threat class of `c` over the empty points that have
/// a value (as the board's value tables count them: no all-dead point, no forbidden one).
fn count_points(b: &Board, c: Color, sign: f32, pats: &mut [f32], classes: &mut [f32]) {
    let t = b.tables();
    for p in b.points() {
        if !b.is_empty(p) {
            continue;
        }
        let line = b.patterns(p, c);
        if line.iter().all(|&x| x == Pattern::Dead) {
            continue;
        }
        let class = t.p4[c.index()][b.pcode(p, c)];
        if class == Pattern4::Forbid {
            continue;
        }
        for x in line {
            pats[x as usize] += sign;
        }
        classes[class as usize] += sign;
    }
}

/// The counts of the side to move less the opponent's, of `b` as it is.
fn point_counts(b: &Board) -> ([f32; NUM_PATTERNS], [f32; NUM_PATTERN4]) {
    let us = b.to_move();
    let (mut pats, mut classes) = ([0.0; NUM_PATTERNS], [0.0; NUM_PATTERN4]);
    count_points(b, us, 1.0, &mut pats, &mut classes);
    count_points(b, us.opponent(), -1.0, &mut pats, &mut classes);
    (pats, classes)
}

/// The features of `b` for the side to move, or `None` when the board has no previous ply
/// (the evaluation then counts the position now twice; the tuner takes no such position).
/// The board is left as it was.
#[must_use]
pub fn features(b: &mut Board) -> Option<Features> {
    let last = *b.moves().last()?;
    let (now_p, now_c) = point_counts(b);
    b.undo();
    // one ply ago, with the same colours as now: the side to move then is the opponent now
    let (before_p, before_c) = point_counts(b);
    if last.is_pass() {
        b.pass();
    } else {
        b.play_unchecked(last);
    }
    let p = b.tables().params.clone();
    let (bw, pw) = (p.basic_weight as f32, p.previous_weight as f32);
    let mut f = [0.0; NUM_WEIGHTS];
    // `before_*` are counted for the side to move one ply ago: negate them
    for k in 0..NUM_PATTERNS {
        f[k] = (bw * now_p[k] - pw * before_p[k]) / 16.0;
    }
    for k in 0..NUM_PATTERN4 {
        f[NUM_PATTERNS + k] = (bw * now_c[k] - pw * before_c[k]) / 16.0;
    }
    let us = b.to_move();
    let them = us.opponent();
    let has = |c: Color, a: Pattern4, x: Pattern4| b.threat_count(c, a) + b.threat_count(c, x) > 0;
    let t = &mut f[NUM_PATTERNS + NUM_PATTERN4..];
    t[0] = 1.0;
    if has(us, Pattern4::Block4Flex3, Pattern4::Block4Plus) {
        t[1] = 1.0;
    } else if b.threat_count(us, Pattern4::Block4) > 0 {
        t[2] = 1.0;
    }
    if has(us, Pattern4::Flex3x2, Pattern4::Flex3Plus) {
        t[3] = 1.0;
    } else if b.threat_count(us, Pattern4::Flex3) > 0 {
        t[4] = 1.0;
    }
    if b.threat_count(them, Pattern4::Flex4) > 0 {
        t[5] = 1.0;
    }
    if has(them, Pattern4::Block4Flex3, Pattern4::Block4Plus) {
        t[6] = 1.0;
    } else if b.threat_count(them, Pattern4::Block4) > 0 {
        t[7] = 1.0;
    }
    if has(them, Pattern4::Flex3x2, Pattern4::Flex3Plus) {
        t[8] = 1.0;
    } else if b.threat_count(them, Pattern4::Flex3) > 0 {
        t[9] = 1.0;
    }
    Some(f)
}

/// The evaluation the features and weights give (before the evaluation's rounding and clamp).
#[must_use]
pub fn eval_of(f: &Features, w: &Weights) -> f64 {
    f.iter().zip(w).map(|(&x, y)| f64::from(x) * y).sum()
}

/// One position of a finished game: its features and the result for the side to move.
#[derive(Clone, Debug)]
pub struct Sample {
    /// What the evaluation counts in the position.
    pub features: Features,
    /// 1 for a win of the side to move, 0.5 for a draw, 0 for a loss.
    pub result: f32,
}

/// The samples of one finished game: the positions after each move from ply `skip + 1` on,
/// but the last two, in which neither side can make five. `winner` is `None` for a draw.
/// Passes are taken as they come. A move that is not legal on the board ends the game's
/// samples there.
#[must_use]
pub fn game_samples(
    size: usize,
    rule: Rule,
    moves: &[Pos],
    winner: Option<Color>,
    skip: usize,
) -> Vec<Sample> {
    let mut out = Vec::new();
    let Ok(mut b) = Board::new(size, rule) else {
        return out;
    };
    let n = moves.len();
    for (i, &m) in moves.iter().enumerate() {
        if m.is_pass() {
            b.pass();
        } else if b.try_play(m).is_err() {
            break;
        }
        let ply = i + 1;
        if ply <= skip || ply + 2 >= n {
            continue;
        }
        let us = b.to_move();
        if b.threat_count(us, Pattern4::Five) > 0
            || b.threat_count(us.opponent(), Pattern4::Five) > 0
        {
            continue;
        }
        let Some(features) = features(&mut b) else {
            continue;
        };
        let result = match winner {
            None => 0.5,
            Some(c) if c == us => 1.0,
            Some(_) => 0.0,
        };
        out.push(Sample { features, result });
    }
    out
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of the expected scores `sigmoid(eval / k)` against the results.
#[must_use]
pub fn loss(samples: &[Sample], w: &Weights, k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let e = sigmoid(eval_of(&s.features, w) / k) - f64::from(s.result);
            e * e
        })
        .sum();
    sum / samples.len() as f64
}

/// The scale `K` (1 to 2000, in whole steps) under which the weights `w` predict the results
/// best.
#[must_use]
pub fn fit_scale(samples: &[Sample], w: &Weights) -> f64 {
    // the loss is smooth and has one minimum in K: golden-section search, then whole numbers
    let (mut lo, mut hi) = (1.0f64, 2000.0f64);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    while hi - lo > 2.0 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if loss(samples, w, a) <= loss(samples, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    let mut best = lo.floor().max(1.0);
    let mut best_loss = loss(samples, w, best);
    let mut k = best + 1.0;
    while k <= hi.ceil() {
        let l = loss(samples, w, k);
        if l < best_loss {
            best = k;
            best_loss = l;
        }
        k += 1.0;
    }
    best
}

/// Settings of [`tune`].
#[derive(Clone, Copy, Debug)]
pub struct TuneOptions {
    /// Gradient steps over the whole sample set.
    pub iterations: usize,
    /// Adam's step size, in evaluation units.
    pub learning_rate: f64,
    /// Weight of the pull towards the starting weights (`lambda * sum (w - w0)^2`).
    pub regularization: f64,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            iterations: 2000,
            learning_rate: 0.5,
            regularization: 1e-7,
        }
    }
}

/// Tunes the weights from `start` on the samples with the scale `k`, calling `progress` with
/// the iteration and the weights every 100 iterations (and after the last); returns the
/// weights found. Only the weights of [`is_tuned`] move.
pub fn tune(
    samples: &[Sample],
    start: &Weights,
    k: f64,
    opts: &TuneOptions,
    progress: &mut dyn FnMut(usize, &Weights),
) -> Weights {
    let mut w = *start;
    if samples.is_empty() {
        return w;
    }
    let (mut m, mut v) = ([0.0; NUM_WEIGHTS], [0.0; NUM_WEIGHTS]);
    let (b1, b2) = (0.9f64, 0.999f64);
    let n = samples.len() as f64;
    for it in 1..=opts.iterations {
        let mut g = [0.0; NUM_WEIGHTS];
        for s in samples {
            let p = sigmoid(eval_of(&s.features, &w) / k);
            let d = 2.0 * (p - f64::from(s.result)) * p * (1.0 - p) / k;
            for (gj, &fj) in g.iter_mut().zip(&s.features) {
                *gj += d * f64::from(fj);
            }
        }
        let t = i32::try_from(it).unwrap_or(i32::MAX);
        for j in 0..NUM_WEIGHTS {
            if !is_tuned(j) {
                continue;
            }
            let gj = g[j] / n + 2.0 * opts.regularization * (w[j] - start[j]);
            m[j] = b1 * m[j] + (1.0 - b1) * gj;
            v[j] = b2 * v[j] + (1.0 - b2) * gj * gj;
            let mh = m[j] / (1.0 - b1.powi(t));
            let vh = v[j] / (1.0 - b2.powi(t));
            w[j] -= opts.learning_rate * mh / (vh.sqrt() + 1e-12);
        }
        if it % 100 == 0 || it == opts.iterations {
            progress(it, &w);
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;

    /// A game of pseudo-random moves near the stones played, stopped before a five.
    fn random_game(rule: Rule, seed: u64, plies: usize) -> Vec<Pos> {
        let mut b = Board::new(15, rule).expect("board");
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut moves = vec![Pos::new(7, 7)];
        b.play(Pos::new(7, 7));
        while moves.len() < plies {
            let mut cands = Vec::new();
            b.for_each_candidate(|p| cands.push(p));
            let us = b.to_move();
            cands.retain(|&p| b.threat(p, us) != Pattern4::Five);
            if cands.is_empty() {
                break;
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let m = cands[(x % cands.len() as u64) as usize];
            if us == Color::Black && rule == Rule::Renju && b.is_forbidden(m) {
                continue;
            }
            b.play(m);
            moves.push(m);
        }
        moves
    }

    #[test]
    fn the_features_reproduce_the_evaluation_in_every_rule() {
        let w = weights_of(&EvalParams::default());
        let mut checked = 0;
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            for seed in 1..=12 {
                let moves = random_game(rule, seed, 40);
                let mut b = Board::new(15, rule).expect("board");
                for &m in &moves {
                    b.play(m);
                    let Some(f) = features(&mut b) else { continue };
                    let model = eval_of(&f, &w);
                    let e = f64::from(evaluate(&b));
                    // the evaluation divides by 16 in whole numbers
                    assert!(
                        (model - e).abs() <= 1.0,
                        "{rule:?} {moves:?}: {model} vs {e}"
                    );
                    checked += 1;
                }
                assert_eq!(b.moves(), &moves[..], "the board is left as it was");
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn weights_and_params_convert_both_ways() {
        let p = EvalParams::default();
        assert_eq!(params_with(&p, &weights_of(&p)), p);
        let mut w = weights_of(&p);
        w[Pattern::B4 as usize] = 41.4;
        w[NUM_WEIGHTS - 1] = -7.6;
        let q = params_with(&p, &w);
        assert_eq!(q.pattern_value[Pattern::B4 as usize], 41);
        assert_eq!(q.threat_oppo_three, -8);
        assert_eq!(q.attack_score, p.attack_score, "move ordering untouched");
        assert_eq!(weight_name(Pattern::B4 as usize), "pattern_value.B4");
        assert_eq!(
            weight_name(NUM_PATTERNS + Pattern4::Flex3 as usize),
            "pattern4_value.Flex3"
        );
        assert_eq!(weight_name(NUM_WEIGHTS - 1), "threat_oppo_three");
        assert!(!is_tuned(Pattern::Dead as usize) && is_tuned(Pattern::F3 as usize));
        assert!(!is_tuned(NUM_PATTERNS + Pattern4::Five as usize));
    }

    #[test]
    fn game_samples_skip_the_opening_the_end_and_fives() {
        let moves = random_game(Rule::Freestyle, 5, 30);
        let all = game_samples(15, Rule::Freestyle, &moves, Some(Color::Black), 0);
        let later = game_samples(15, Rule::Freestyle, &moves, Some(Color::Black), 6);
        assert!(!all.is_empty() && all.len() <= moves.len() - 3);
        assert!(later.len() + 6 >= all.len() && later.len() < all.len());
        // results alternate with the side to move; a draw is a half everywhere
        assert!(all.iter().all(|s| s.result == 0.0 || s.result == 1.0));
        let draws = game_samples(15, Rule::Freestyle, &moves, None, 0);
        assert!(draws.iter().all(|s| s.result == 0.5));
        // a game with an illegal move keeps the samples before it
        let mut bad = moves.clone();
        bad[10] = bad[3];
        let cut = game_samples(15, Rule::Freestyle, &bad, None, 0);
        assert!(cut.len() <= 10, "{}", cut.len());
    }

    #[test]
    fn tuning_recovers_weights_that_made_the_results() {
        // results drawn from known weights: the tuner, started from other ones, must fit
        // them better than those do and move towards them
        let mut base = weights_of(&EvalParams::default());
        base[Pattern::B4 as usize] = 14.0;
        base[Pattern::F3 as usize] = 12.0;
        let mut truth = base;
        truth[Pattern::B4 as usize] = 40.0;
        truth[Pattern::F3 as usize] = 4.0;
        let k = 100.0;
        let mut samples = Vec::new();
        for rule in [Rule::Freestyle, Rule::Standard] {
            for seed in 1..=40 {
                let moves = random_game(rule, seed, 36);
                for mut s in game_samples(15, rule, &moves, None, 4) {
                    s.result = sigmoid(eval_of(&s.features, &truth) / k) as f32;
                    samples.push(s);
                }
            }
        }
        let before = loss(&samples, &base, k);
        let opts = TuneOptions {
            iterations: 600,
            learning_rate: 1.0,
            regularization: 0.0,
        };
        let mut calls = 0;
        let w = tune(&samples, &base, k, &opts, &mut |_, _| calls += 1);
        assert_eq!(calls, 6);
        let after = loss(&samples, &w, k);
        assert!(after < before / 4.0, "{before} -> {after}");
        // more than half the way from 14 to 40, and from 12 to 4
        assert!(
            w[Pattern::B4 as usize] > 27.0,
            "{}",
            w[Pattern::B4 as usize]
        );
        assert!(w[Pattern::F3 as usize] < 8.0, "{}", w[Pattern::F3 as usize]);
        for j in (0..NUM_WEIGHTS).filter(|&j| !is_tuned(j)) {
            assert_eq!(w[j], base[j], "{} is fixed", weight_name(j));
        }
        // the scale is found again from the soft results
        let fitted = fit_scale(&samples, &truth);
        assert!((fitted - k).abs() <= 5.0, "{fitted}");
    }
}
