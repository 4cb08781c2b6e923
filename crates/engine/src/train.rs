//! Training of the learned evaluation ([`EvalModel`]) from self-play games.
//!
//! The evaluation of a position is linear in the model's tables: for the side to move `us`,
//!
//! ```text
//! eval = (9 * (S_now(us) - S_now(them)) + 7 * (S_prev(us) - S_prev(them))) / 16 + T[mask]
//! ```
//!
//! where `S(c)` sums the value table of colour `c` over the pcodes of its empty points (now and
//! one ply ago) and `T` is the threat table, indexed by which threat classes each side holds
//! ([`threat_mask`]). So a position is a sparse vector over the table entries ([`Dataset`]),
//! and training is logistic regression: the expected score `sigmoid(eval / K)` is fitted (mean
//! squared error) to a target that mixes the game's result with the search's value of the
//! position, by full-batch Adam with an L2 pull towards a prior model (the hand-set formula).
//! The scale `K` is fitted to the prior once and kept, so the search's margins, measured in
//! evaluation units, keep their meaning.
//!
//! Freestyle and standard share one value table and one threat table between the colours (the
//! patterns mean the same for both); renju has a table per colour. Every step is deterministic:
//! the same games, options and seed give the same model.

use crate::eval::{threat_mask, Entry, EvalModel, NUM_THREAT_MASKS};
use crate::pattern::{Pattern, Pattern4, NUM_PCODES};
use crate::types::{Color, Pos, Rule};
use crate::Board;

/// Weight (in sixteenths) of the position now in the evaluation's blend.
pub const NOW_WEIGHT: f32 = 9.0;
/// Weight (in sixteenths) of the position one ply ago.
pub const PREV_WEIGHT: f32 = 7.0;

/// How the trainable parameters of one rule are laid out in a flat vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The rule.
    pub rule: Rule,
    /// Whether the colours have tables of their own (renju) or share them.
    pub per_colour: bool,
}

impl Layout {
    /// The layout of `rule`.
    #[must_use]
    pub fn of(rule: Rule) -> Layout {
        Layout {
            rule,
            per_colour: per_colour(rule),
        }
    }

    fn colours(self) -> usize {
        copies(self.per_colour)
    }

    /// Number of parameters.
    #[must_use]
    pub fn len(self) -> usize {
        self.colours() * (NUM_PCODES + NUM_THREAT_MASKS)
    }

    /// Never empty.
    #[must_use]
    pub fn is_empty(self) -> bool {
        false
    }

    /// Index of the value of `pcode` for `colour`.
    #[must_use]
    pub fn value_index(self, colour: Color, pcode: usize) -> usize {
        copy_of(self.per_colour, colour) * NUM_PCODES + pcode
    }

    /// Index of the threat entry `mask` with `to_move` to move.
    #[must_use]
    pub fn threat_index(self, to_move: Color, mask: usize) -> usize {
        let c = copy_of(self.per_colour, to_move);
        self.colours() * NUM_PCODES + c * NUM_THREAT_MASKS + mask
    }

    /// Every entry of this rule's tables with its parameter index, colour by colour.
    fn entries(self) -> impl Iterator<Item = (usize, Entry)> {
        Color::BOTH.into_iter().flat_map(move |colour| {
            let values = (0..NUM_PCODES)
                .map(move |pcode| (self.value_index(colour, pcode), Entry::Value(colour, pcode)));
            let threats = (0..NUM_THREAT_MASKS)
                .map(move |mask| (self.threat_index(colour, mask), Entry::Threat(colour, mask)));
            values.chain(threats)
        })
    }

    /// The parameters of `model` for this rule, as a vector.
    #[must_use]
    pub fn params_of(self, model: &EvalModel) -> Vec<f64> {
        params_of(self.len(), self.rule, self.entries(), model)
    }

    /// Writes the parameters `w` into `model`'s tables of this rule (rounded, saturated).
    pub fn store(self, w: &[f64], model: &mut EvalModel) {
        store(w, self.rule, self.entries(), model);
    }
}

/// Whether `rule` has a table per colour (renju) or one that both share.
fn per_colour(rule: Rule) -> bool {
    rule == Rule::Renju
}

/// How many copies of each table a layout has: one per colour, or one for both.
fn copies(per_colour: bool) -> usize {
    if per_colour {
        2
    } else {
        1
    }
}

/// The copy of the tables that `colour` uses.
fn copy_of(per_colour: bool, colour: Color) -> usize {
    if per_colour {
        colour.index()
    } else {
        0
    }
}

/// The `len` parameters of a layout whose `entries` are given, read from `model`.
fn params_of(
    len: usize,
    rule: Rule,
    entries: impl Iterator<Item = (usize, Entry)>,
    model: &EvalModel,
) -> Vec<f64> {
    let mut w = vec![0.0; len];
    for (j, entry) in entries {
        w[j] = f64::from(model.get(rule, entry));
    }
    w
}

/// Writes the parameters `w` of a layout whose `entries` are given into `model` (rounded,
/// saturated), then fixes the model's constant entries.
fn store(
    w: &[f64],
    rule: Rule,
    entries: impl Iterator<Item = (usize, Entry)>,
    model: &mut EvalModel,
) {
    for (j, entry) in entries {
        model.set(rule, entry, w[j].round().clamp(-30_000.0, 30_000.0) as i16);
    }
    model.fix_constants();
}

/// Where each row of a table of variable-length rows starts in the table's entries, and
/// where the last one ends: one offset more than rows, and none before the first row.
#[derive(Clone, Debug, Default)]
pub struct Rows(Vec<u32>);

impl Rows {
    /// Number of rows.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len().saturating_sub(1)
    }

    /// Whether there is no row.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entries of row `i`.
    fn span(&self, i: usize) -> std::ops::Range<usize> {
        self.0[i] as usize..self.0[i + 1] as usize
    }

    /// Ends a row at entry `end` (the number of entries so far).
    fn end_row(&mut self, end: usize) {
        if self.0.is_empty() {
            self.0.push(0);
        }
        self.0.push(end as u32);
    }

    /// Appends the rows of `other`, whose entries follow the `base` entries so far.
    fn extend(&mut self, other: &Rows, base: usize) {
        if self.0.is_empty() {
            self.0.push(0);
        }
        self.0
            .extend(other.0.iter().skip(1).map(|&s| s + base as u32));
    }
}

/// Positions as sparse rows over a [`Layout`]'s parameters, with their targets.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Parameter index of each non-zero entry, row after row.
    pub index: Vec<u32>,
    /// Coefficient of each entry.
    pub coef: Vec<f32>,
    /// Where each row starts in `index`.
    pub rows: Rows,
    /// Result of the game for the side to move: 1, 0.5 or 0.
    pub result: Vec<f32>,
    /// The search's value of the position for the side to move, NaN when unknown.
    pub search: Vec<f32>,
}

impl Dataset {
    /// Number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether there is no position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The entries of row `i`.
    fn row(&self, i: usize) -> (&[u32], &[f32]) {
        let span = self.rows.span(i);
        (&self.index[span.clone()], &self.coef[span])
    }

    /// The model's evaluation of row `i` with the parameters `w`.
    #[must_use]
    pub fn eval(&self, i: usize, w: &[f64]) -> f64 {
        let (idx, coef) = self.row(i);
        idx.iter()
            .zip(coef)
            .map(|(&j, &c)| w[j as usize] * f64::from(c))
            .sum()
    }

    /// Appends the rows of `other`.
    pub fn extend(&mut self, other: &Dataset) {
        self.rows.extend(&other.rows, self.index.len());
        self.index.extend_from_slice(&other.index);
        self.coef.extend_from_slice(&other.coef);
        self.result.extend_from_slice(&other.result);
        self.search.extend_from_slice(&other.search);
    }

    fn push_row(&mut self, entries: &mut Vec<(u32, f32)>, result: f32, search: f32) {
        entries.sort_unstable_by_key(|e| e.0);
        let mut last = u32::MAX;
        for &(j, c) in entries.iter() {
            if j == last {
                *self.coef.last_mut().expect("an entry was pushed") += c;
            } else {
                self.index.push(j);
                self.coef.push(c);
                last = j;
            }
        }
        self.rows.end_row(self.index.len());
        self.result.push(result);
        self.search.push(search);
        entries.clear();
    }
}

/// Adds the value entries of colour `c`'s empty points with coefficient `sign`.
fn add_points(b: &Board, layout: Layout, c: Color, sign: f32, out: &mut Vec<(u32, f32)>) {
    for p in b.points() {
        if !b.is_empty(p) {
            continue;
        }
        if is_constant(b, p, c) {
            continue;
        }
        out.push((layout.value_index(c, b.pcode(p, c)) as u32, sign));
    }
}

/// Whether the point's value is fixed at 0 (all lines dead, or a forbidden class).
fn is_constant(b: &Board, p: Pos, c: Color) -> bool {
    b.patterns(p, c).iter().all(|&x| x == Pattern::Dead)
        || b.tables().p4[c.index()][b.pcode(p, c)] == Pattern4::Forbid
}

/// The row of the position on `b` (for its side to move), or `None` at the first ply. The
/// board is left as it was.
#[must_use]
pub fn row_of(b: &mut Board, layout: Layout) -> Option<Vec<(u32, f32)>> {
    let last = *b.moves().last()?;
    let us = b.to_move();
    let them = us.opponent();
    let mut out = Vec::with_capacity(512);
    let now = NOW_WEIGHT / 16.0;
    let prev = PREV_WEIGHT / 16.0;
    add_points(b, layout, us, now, &mut out);
    add_points(b, layout, them, -now, &mut out);
    let mask = threat_mask(b);
    out.push((layout.threat_index(us, mask) as u32, 1.0));
    b.undo();
    add_points(b, layout, us, prev, &mut out);
    add_points(b, layout, them, -prev, &mut out);
    if last.is_pass() {
        b.pass();
    } else {
        b.play_unchecked(last);
    }
    Some(out)
}

/// One game of a corpus: its moves, where its opening ends, the winner (`None`: a draw) and
/// the search's value of each position from the end of the opening on, for the side to move
/// there (`None` where unknown; [`crate::search::score::WIN`] and its negation for proven
/// results).
#[derive(Clone, Debug)]
pub struct CorpusGame {
    /// Board size.
    pub size: usize,
    /// Every move, the opening's included.
    pub moves: Vec<Pos>,
    /// Number of opening moves.
    pub opening_len: usize,
    /// The winner.
    pub winner: Option<Color>,
    /// Search values of the positions after the opening.
    pub values: Vec<Option<i32>>,
}

/// The rows of one game: every position from the end of its opening on but the last two, in
/// which neither side can make five. A move that is not legal ends the game's rows there.
pub fn game_rows(g: &CorpusGame, layout: Layout, out: &mut Dataset) {
    let Ok(mut b) = Board::new(g.size, layout.rule) else {
        return;
    };
    let n = g.moves.len();
    let mut entries = Vec::new();
    for (i, &m) in g.moves.iter().enumerate() {
        // the position before move i
        if i >= g.opening_len.max(1) && i + 2 < n {
            let us = b.to_move();
            let quiet = b.threat_count(us, Pattern4::Five) == 0
                && b.threat_count(us.opponent(), Pattern4::Five) == 0;
            if quiet {
                if let Some(row) = row_of(&mut b, layout) {
                    entries.extend(row);
                    let result = match g.winner {
                        None => 0.5,
                        Some(c) if c == us => 1.0,
                        Some(_) => 0.0,
                    };
                    let search = match g.values.get(i - g.opening_len).copied().flatten() {
                        Some(v) => v as f32,
                        None => f32::NAN,
                    };
                    out.push_row(&mut entries, result, search);
                }
            }
        }
        if m.is_pass() {
            b.pass();
        } else if b.try_play(m).is_err() {
            break;
        }
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Settings of [`train`].
#[derive(Clone, Copy, Debug)]
pub struct TrainOptions {
    /// Full-batch gradient steps.
    pub iterations: usize,
    /// Adam's step size, in evaluation units.
    pub learning_rate: f64,
    /// Weight of the L2 pull towards the prior, per parameter (in evaluation units squared).
    pub regularization: f64,
    /// Share of the game's result in the target (the rest is the search's value).
    pub result_weight: f64,
    /// The scale of the expected score: `sigmoid(eval / k)`.
    pub k: f64,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            iterations: 400,
            learning_rate: 2.0,
            regularization: 1e-6,
            result_weight: 0.5,
            k: 125.0,
        }
    }
}

/// The target of row `i`: the result, mixed with the search's value where known.
fn target(d: &Dataset, i: usize, opts: &TrainOptions) -> f64 {
    let r = f64::from(d.result[i]);
    let s = d.search[i];
    if s.is_nan() {
        r
    } else {
        let lambda = opts.result_weight;
        lambda * r + (1.0 - lambda) * sigmoid(f64::from(s) / opts.k)
    }
}

/// Mean squared error of the expected scores against the targets.
#[must_use]
pub fn loss(d: &Dataset, w: &[f64], opts: &TrainOptions) -> f64 {
    if d.is_empty() {
        return 0.0;
    }
    let sum: f64 = (0..d.len())
        .map(|i| {
            let e = sigmoid(d.eval(i, w) / opts.k) - target(d, i, opts);
            e * e
        })
        .sum();
    sum / d.len() as f64
}

/// The scale `k` (1 to 2000) under which `w` predicts the game results best.
#[must_use]
pub fn fit_scale(d: &Dataset, w: &[f64]) -> f64 {
    let at = |k: f64| {
        loss(
            d,
            w,
            &TrainOptions {
                k,
                result_weight: 1.0,
                ..TrainOptions::default()
            },
        )
    };
    golden_section(1.0, 2000.0, at)
}

/// The whole number in `lo..=hi` nearest to where the one-dipped function `f` is lowest, by
/// golden-section search down to an interval of 1.
fn golden_section(mut lo: f64, mut hi: f64, f: impl Fn(f64) -> f64) -> f64 {
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

/// Trains from `start` (also the prior of the L2 pull) on `d`, calling `progress` with the
/// iteration and the parameters every `every` iterations and after the last. Returns the
/// parameters found.
pub fn train(
    d: &Dataset,
    start: &[f64],
    opts: &TrainOptions,
    every: usize,
    progress: &mut dyn FnMut(usize, &[f64]),
) -> Vec<f64> {
    if d.is_empty() {
        return start.to_vec();
    }
    // a parameter never seen keeps its prior
    let mut seen = vec![false; start.len()];
    for &j in &d.index {
        seen[j as usize] = true;
    }
    let targets: Vec<f64> = (0..d.len()).map(|i| target(d, i, opts)).collect();
    let gradient = |w: &[f64], g: &mut [f64]| {
        for (i, &t) in targets.iter().enumerate() {
            let p = sigmoid(d.eval(i, w) / opts.k);
            let dl = 2.0 * (p - t) * p * (1.0 - p) / opts.k;
            let (idx, coef) = d.row(i);
            for (&j, &c) in idx.iter().zip(coef) {
                g[j as usize] += dl * f64::from(c);
            }
        }
    };
    adam(start, &seen, d.len(), opts, every, progress, gradient)
}

/// Full-batch Adam from `start`, with an L2 pull towards `start` of weight
/// `opts.regularization`: `gradient` adds the gradient of the loss summed over the `rows` at
/// the parameters into its second argument (zeroed before each call). Only the parameters
/// that are `seen` move. `progress` gets the iteration and the parameters every `every`
/// iterations and after the last.
fn adam(
    start: &[f64],
    seen: &[bool],
    rows: usize,
    opts: &TrainOptions,
    every: usize,
    progress: &mut dyn FnMut(usize, &[f64]),
    mut gradient: impl FnMut(&[f64], &mut [f64]),
) -> Vec<f64> {
    let n_params = start.len();
    let mut w = start.to_vec();
    let (mut m, mut v) = (vec![0.0; n_params], vec![0.0; n_params]);
    let (b1, b2) = (0.9f64, 0.999f64);
    let n = rows as f64;
    let mut g = vec![0.0; n_params];
    for it in 1..=opts.iterations {
        g.iter_mut().for_each(|x| *x = 0.0);
        gradient(&w, &mut g);
        let t = i32::try_from(it).unwrap_or(i32::MAX);
        let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
        for j in 0..n_params {
            if !seen[j] {
                continue;
            }
            let gj = g[j] / n + 2.0 * opts.regularization * (w[j] - start[j]);
            m[j] = b1 * m[j] + (1.0 - b1) * gj;
            v[j] = b2 * v[j] + (1.0 - b2) * gj * gj;
            w[j] -= opts.learning_rate * (m[j] / c1) / ((v[j] / c2).sqrt() + 1e-12);
        }
        if it % every.max(1) == 0 || it == opts.iterations {
            progress(it, &w);
        }
    }
    w
}

// ---------------------------------------------------------------------------------------------
// Move ordering.

/// How the move-ordering parameters of one rule are laid out: the attack scores, then the
/// defence scores, each per colour for renju and shared otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PolicyLayout {
    /// The rule.
    pub rule: Rule,
    /// Whether the colours have tables of their own.
    pub per_colour: bool,
}

impl PolicyLayout {
    /// The layout of `rule`.
    #[must_use]
    pub fn of(rule: Rule) -> PolicyLayout {
        PolicyLayout {
            rule,
            per_colour: per_colour(rule),
        }
    }

    /// Number of parameters.
    #[must_use]
    pub fn len(self) -> usize {
        2 * copies(self.per_colour) * NUM_PCODES
    }

    /// Never empty.
    #[must_use]
    pub fn is_empty(self) -> bool {
        false
    }

    /// Index of the attack score of `colour` (the mover) at `pcode`.
    #[must_use]
    pub fn attack_index(self, colour: Color, pcode: usize) -> usize {
        copy_of(self.per_colour, colour) * NUM_PCODES + pcode
    }

    /// Index of the defence score against `colour` (the mover's opponent) at `pcode`.
    #[must_use]
    pub fn defend_index(self, colour: Color, pcode: usize) -> usize {
        (copies(self.per_colour) + copy_of(self.per_colour, colour)) * NUM_PCODES + pcode
    }

    /// Every entry of this rule's ordering tables with its parameter index, colour by colour.
    fn entries(self) -> impl Iterator<Item = (usize, Entry)> {
        Color::BOTH.into_iter().flat_map(move |colour| {
            (0..NUM_PCODES).flat_map(move |pcode| {
                [
                    (
                        self.attack_index(colour, pcode),
                        Entry::Attack(colour, pcode),
                    ),
                    (
                        self.defend_index(colour, pcode),
                        Entry::Defend(colour, pcode),
                    ),
                ]
            })
        })
    }

    /// The move-ordering parameters of `model` for this rule.
    #[must_use]
    pub fn params_of(self, model: &EvalModel) -> Vec<f64> {
        params_of(self.len(), self.rule, self.entries(), model)
    }

    /// Writes the parameters `w` into `model`'s ordering tables of this rule.
    pub fn store(self, w: &[f64], model: &mut EvalModel) {
        store(w, self.rule, self.entries(), model);
    }
}

/// Positions with their candidate moves (each as its attack and defence parameters) and the
/// move the search chose.
#[derive(Clone, Debug, Default)]
pub struct PolicyData {
    /// Attack parameter of each candidate, position after position.
    pub attack: Vec<u16>,
    /// Defence parameter of each candidate.
    pub defend: Vec<u16>,
    /// Where each position's candidates start.
    pub rows: Rows,
    /// Index of the chosen move among the position's candidates.
    pub chosen: Vec<u32>,
}

impl PolicyData {
    /// Number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether there is no position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The position of `b` with the chosen move `m`, unless `m` is not among its candidates
    /// or a side can make five (the search settles those).
    fn push(&mut self, b: &Board, layout: PolicyLayout, m: Pos) {
        let us = b.to_move();
        let them = us.opponent();
        if b.threat_count(us, Pattern4::Five) > 0 || b.threat_count(them, Pattern4::Five) > 0 {
            return;
        }
        let at = self.attack.len();
        let mut chosen = None;
        b.for_each_candidate(|p| {
            if b.threat(p, us) == Pattern4::Forbid {
                return;
            }
            if p == m {
                chosen = Some((self.attack.len() - at) as u32);
            }
            self.attack
                .push(layout.attack_index(us, b.pcode(p, us)) as u16);
            self.defend
                .push(layout.defend_index(them, b.pcode(p, them)) as u16);
        });
        match chosen {
            Some(c) if self.attack.len() - at >= 2 => {
                self.rows.end_row(self.attack.len());
                self.chosen.push(c);
            }
            _ => {
                self.attack.truncate(at);
                self.defend.truncate(at);
            }
        }
    }

    /// Cross-entropy of the chosen moves under the ordering scores `w` divided by `scale`,
    /// and its gradient (into `grad`, when given).
    fn cross_entropy(&self, w: &[f64], scale: f64, mut grad: Option<&mut [f64]>) -> f64 {
        let mut total = 0.0;
        let mut z = Vec::new();
        for i in 0..self.len() {
            let span = self.rows.span(i);
            z.clear();
            z.extend(
                span.clone()
                    .map(|j| (w[self.attack[j] as usize] + w[self.defend[j] as usize]) / scale),
            );
            let max = z.iter().copied().fold(f64::MIN, f64::max);
            let sum: f64 = z.iter().map(|x| (x - max).exp()).sum();
            let c = self.chosen[i] as usize;
            total += sum.ln() + max - z[c];
            if let Some(g) = grad.as_deref_mut() {
                for (k, j) in span.clone().enumerate() {
                    let p = (z[k] - max).exp() / sum;
                    let d = (p - if k == c { 1.0 } else { 0.0 }) / scale;
                    g[self.attack[j] as usize] += d;
                    g[self.defend[j] as usize] += d;
                }
            }
        }
        total / self.len().max(1) as f64
    }

    /// Share of positions whose chosen move has the highest score.
    #[must_use]
    pub fn top1(&self, w: &[f64]) -> f64 {
        let mut hits = 0;
        for i in 0..self.len() {
            let span = self.rows.span(i);
            let score = |j: usize| w[self.attack[j] as usize] + w[self.defend[j] as usize];
            let first = span.start;
            let best = span.map(score).fold(f64::MIN, f64::max);
            if score(first + self.chosen[i] as usize) >= best {
                hits += 1;
            }
        }
        f64::from(hits) / self.len().max(1) as f64
    }
}

/// The positions of one game for the move ordering: every position after the opening, with
/// the move played.
pub fn game_policy(g: &CorpusGame, layout: PolicyLayout, out: &mut PolicyData) {
    let Ok(mut b) = Board::new(g.size, layout.rule) else {
        return;
    };
    for (i, &m) in g.moves.iter().enumerate() {
        if m.is_pass() {
            b.pass();
            continue;
        }
        if i >= g.opening_len {
            out.push(&b, layout, m);
        }
        if b.try_play(m).is_err() {
            break;
        }
    }
}

/// Cross-entropy of the chosen moves (see [`PolicyData`]).
#[must_use]
pub fn policy_loss(d: &PolicyData, w: &[f64], scale: f64) -> f64 {
    d.cross_entropy(w, scale, None)
}

/// The scale (score units per unit of log-probability, 1 to 5000) under which the ordering
/// scores `w` predict the chosen moves best.
#[must_use]
pub fn fit_policy_scale(d: &PolicyData, w: &[f64]) -> f64 {
    golden_section(1.0, 5000.0, |scale| policy_loss(d, w, scale))
}

/// Trains the ordering scores from `start` (also the prior of the L2 pull, whose weight is
/// `opts.regularization`) with the fixed `scale`, by full-batch Adam; `progress` as in
/// [`train`].
pub fn train_policy(
    d: &PolicyData,
    start: &[f64],
    scale: f64,
    opts: &TrainOptions,
    every: usize,
    progress: &mut dyn FnMut(usize, &[f64]),
) -> Vec<f64> {
    if d.is_empty() {
        return start.to_vec();
    }
    let mut seen = vec![false; start.len()];
    for (&a, &b) in d.attack.iter().zip(&d.defend) {
        seen[a as usize] = true;
        seen[b as usize] = true;
    }
    let gradient = |w: &[f64], g: &mut [f64]| {
        d.cross_entropy(w, scale, Some(g));
    };
    adam(start, &seen, d.len(), opts, every, progress, gradient)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;
    use crate::rng::Rng;

    fn random_game(rule: Rule, seed: u64, plies: usize) -> Vec<Pos> {
        let mut b = Board::new(15, rule).expect("board");
        let mut rng = crate::rng::XorShift64::from_seed(seed);
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
            let m = cands[rng.below(cands.len())];
            if us == Color::Black && rule == Rule::Renju && b.is_forbidden(m) {
                continue;
            }
            b.play(m);
            moves.push(m);
        }
        moves
    }

    #[test]
    fn rows_reproduce_the_evaluation_in_every_rule() {
        let mut checked = 0;
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            let layout = Layout::of(rule);
            let w = layout.params_of(EvalModel::embedded());
            for seed in 1..=10 {
                let moves = random_game(rule, seed, 40);
                let mut b = Board::new(15, rule).expect("board");
                let mut d = Dataset::default();
                for &m in &moves {
                    b.play(m);
                    let Some(mut row) = row_of(&mut b, layout) else {
                        continue;
                    };
                    d.push_row(&mut row, 0.5, f32::NAN);
                    let model = d.eval(d.len() - 1, &w);
                    let e = f64::from(evaluate(&b));
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
    fn training_fits_results_drawn_from_a_known_model() {
        // results drawn from a model with other threat values: training from the embedded
        // model must fit them better and be deterministic
        let layout = Layout::of(Rule::Freestyle);
        let start = layout.params_of(EvalModel::embedded());
        let mut truth = start.clone();
        for mask in 0..NUM_THREAT_MASKS {
            truth[layout.threat_index(Color::Black, mask)] += ((mask * 37) % 200) as f64 - 100.0;
        }
        let opts = TrainOptions {
            iterations: 150,
            learning_rate: 4.0,
            regularization: 0.0,
            result_weight: 0.0,
            k: 100.0,
        };
        let mut d = Dataset::default();
        for seed in 1..=60 {
            let moves = random_game(Rule::Freestyle, seed, 36);
            let g = CorpusGame {
                size: 15,
                moves,
                opening_len: 2,
                winner: None,
                values: Vec::new(),
            };
            game_rows(&g, layout, &mut d);
        }
        for i in 0..d.len() {
            d.search[i] = d.eval(i, &truth) as f32;
        }
        let before = loss(&d, &start, &opts);
        let mut calls = 0;
        let w = train(&d, &start, &opts, 50, &mut |_, _| calls += 1);
        assert_eq!(calls, 3);
        let after = loss(&d, &w, &opts);
        assert!(after < before / 3.0, "{before} -> {after}");
        let again = train(&d, &start, &opts, 50, &mut |_, _| {});
        assert_eq!(w, again, "deterministic");
    }

    #[test]
    fn layouts_round_trip_through_a_model() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            let layout = Layout::of(rule);
            let w = layout.params_of(EvalModel::embedded());
            let mut m = EvalModel::embedded().clone();
            layout.store(&w, &mut m);
            assert_eq!(&m, EvalModel::embedded());
        }
    }
}
