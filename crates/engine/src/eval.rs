//! The evaluation: the learned model, the move-ordering weights and the per-pcode tables
//! built from them.
//!
//! The values come from an [`EvalModel`]: per rule and colour, a value for every pcode (the
//! sorted four line patterns of an empty point) and a threat table indexed by which threat
//! classes each side holds ([`threat_mask`]). The model in use is trained by `gomoku train`
//! ([`crate::train`]) and compiled in from `weights/eval.bin`. [`EvalParams`] holds the
//! move-ordering scores and the hand-set formula that the training starts from
//! ([`EvalModel::from_params`]). The board keeps, for each colour, the sum of the values of
//! every empty point incrementally, so the static evaluation of a position is a subtraction
//! and one table lookup.

use crate::pattern::{
    combine, pcode_tables, Pattern, Pattern4, NUM_PATTERN4, NUM_PATTERNS, NUM_PCODES,
};
use crate::types::{Color, Rule};
use std::sync::OnceLock;

/// All evaluation and move-ordering weights.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalParams {
    /// Value of an empty point for a colour per line pattern (summed over the four directions).
    pub pattern_value: [i32; NUM_PATTERNS],
    /// Extra value of an empty point for its combined threat class.
    pub pattern4_value: [i32; NUM_PATTERN4],
    /// Move-ordering score of a point by the mover's own threat class.
    pub attack_score: [i32; NUM_PATTERN4],
    /// Move-ordering score of a point by the opponent's threat class there (blocking value).
    pub defend_score: [i32; NUM_PATTERN4],
    /// Move-ordering score per line pattern, own (summed over directions).
    pub pattern_attack_score: [i32; NUM_PATTERNS],
    /// Move-ordering score per line pattern, opponent's (summed over directions).
    pub pattern_defend_score: [i32; NUM_PATTERNS],
    /// Bonus of the side to move in the static evaluation.
    pub tempo: i32,
    /// Threat term: the side to move has a four that also makes a three (or more).
    pub threat_self_four_plus: i32,
    /// Threat term: the side to move has a plain four.
    pub threat_self_four: i32,
    /// Threat term: the side to move can make a free three plus another threat.
    pub threat_self_three_plus: i32,
    /// Threat term: the side to move can make a free three.
    pub threat_self_three: i32,
    /// Threat term: the opponent can make a straight four (a free three to answer now).
    pub threat_oppo_flex4: i32,
    /// Threat term: the opponent has a four that also makes a three (or more).
    pub threat_oppo_four_plus: i32,
    /// Threat term: the opponent has a plain four.
    pub threat_oppo_four: i32,
    /// Threat term: the opponent can make a free three plus another threat.
    pub threat_oppo_three_plus: i32,
    /// Threat term: the opponent can make a free three.
    pub threat_oppo_three: i32,
}

// The hand-set formula's weights: the prior of the learned model, and the model of the rules the
// model file does not hold. The point values and threat terms were fitted to 12,000 self-play
// games (Texel tuning of these 37 weights); against the hand-set weights before them they
// scored +19 Elo in freestyle, +17 in standard and +61 in renju (400 games per rule at 100 ms).
impl Default for EvalParams {
    fn default() -> Self {
        EvalParams {
            // Dead, Overline, DoubleFourLine, B1, F1, B2, F2, F2A, B3, F3, B4, F4, F5
            pattern_value: [0, 0, 0, 0, -1, 1, 6, 5, 2, 5, 40, 51, 200],
            // None, Forbid, Flex2, Block3, Flex2x2, Block3Plus, Flex3, Flex3Plus, Flex3x2,
            // Block4, Block4Plus, Block4Flex3, Flex4, Five
            pattern4_value: [0, 0, -8, 2, -13, 5, 6, 11, 3, -11, 10, 102, 68, 100],
            // per threat class, in the order of `pattern4_value`
            attack_score: [
                0, -10_000, 20, 16, 60, 70, 100, 240, 400, 120, 300, 1000, 2500, 10_000,
            ],
            defend_score: [0, 0, 12, 8, 40, 40, 60, 160, 240, 60, 160, 600, 1200, 5000],
            // per line pattern, in the order of `pattern_value`
            pattern_attack_score: [0, 0, 0, 1, 2, 3, 6, 8, 6, 12, 12, 40, 100],
            pattern_defend_score: [0, 0, 0, 0, 1, 2, 4, 5, 4, 8, 8, 20, 60],
            tempo: 10,
            threat_self_four_plus: 53,
            threat_self_four: 4,
            threat_self_three_plus: 91,
            threat_self_three: 19,
            threat_oppo_flex4: -46,
            threat_oppo_four_plus: -23,
            threat_oppo_four: 3,
            threat_oppo_three_plus: -62,
            threat_oppo_three: -9,
        }
    }
}

/// Per-rule, per-colour tables indexed by pcode (the sorted four line patterns of a point).
#[derive(Debug)]
pub struct Tables {
    /// The rule the tables are for.
    pub rule: Rule,
    /// The weights they were built from.
    pub params: EvalParams,
    /// Threat class per colour and pcode.
    pub p4: [Vec<Pattern4>; 2],
    /// Point value per colour and pcode (summed by the board).
    pub value: [Vec<i32>; 2],
    /// Move-ordering score per colour and pcode when that colour plays there.
    pub attack: [Vec<i32>; 2],
    /// Move-ordering score per colour and pcode when the other colour plays there.
    pub defend: [Vec<i32>; 2],
    /// Threat value per colour to move and [`threat_mask`].
    pub threat: [Vec<i16>; 2],
    /// Value and threat class together, for the board's update loop, indexed by the four
    /// direction patterns as a base-13 number (no detour through the pcode).
    pub(crate) entry: [Vec<PcodeEntry>; 2],
}

/// What the board's update loop needs of a pcode, in one four-byte load (the two tables of a
/// rule, 28561 entries each, are hit at random by every move: at eight bytes an entry they
/// missed the cache twice as often).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(4))]
pub(crate) struct PcodeEntry {
    /// The point value, saturated to 16 bits (the default weights stay far below).
    pub(crate) value: i16,
    pub(crate) p4: Pattern4,
}

impl Tables {
    /// Builds the tables of `rule` from `params` alone: the hand-set formula's values.
    #[must_use]
    pub fn build(rule: Rule, params: EvalParams) -> Tables {
        let model = EvalModel::from_params(&params);
        Tables::build_with(rule, params, &model)
    }

    /// Builds the tables of `rule` with the values of `model` and the move ordering of
    /// `params`.
    #[must_use]
    pub fn build_with(rule: Rule, params: EvalParams, model: &EvalModel) -> Tables {
        let pc = pcode_tables();
        let mut p4 = [
            vec![Pattern4::None; NUM_PCODES],
            vec![Pattern4::None; NUM_PCODES],
        ];
        let mut value = [vec![0; NUM_PCODES], vec![0; NUM_PCODES]];
        let mut attack = [vec![0; NUM_PCODES], vec![0; NUM_PCODES]];
        let mut defend = [vec![0; NUM_PCODES], vec![0; NUM_PCODES]];
        for color in Color::BOTH {
            let c = color.index();
            for (code, pats) in pc.patterns.iter().enumerate() {
                let class = combine(rule, color, *pats);
                p4[c][code] = class;
                let all_dead = pats.iter().all(|&p| p == Pattern::Dead);
                if all_dead {
                    continue; // occupied points and dead points are worth nothing
                }
                value[c][code] = i32::from(model.value(rule, color, code));
                attack[c][code] = i32::from(model.attack(rule, color, code));
                defend[c][code] = i32::from(model.defend(rule, color, code));
            }
        }
        let entry = [0, 1].map(|c| {
            pc.index
                .iter()
                .map(|&code| PcodeEntry {
                    value: value[c][code as usize].clamp(i16::MIN.into(), i16::MAX.into()) as i16,
                    p4: p4[c][code as usize],
                })
                .collect()
        });
        let threat = [0, 1].map(|c| {
            (0..NUM_THREAT_MASKS)
                .map(|m| model.threat(rule, Color::BOTH[c], m))
                .collect()
        });
        Tables {
            rule,
            params,
            p4,
            value,
            attack,
            defend,
            threat,
            entry,
        }
    }

    /// The default tables of a rule (built once).
    #[must_use]
    pub fn default_for(rule: Rule) -> &'static Tables {
        static T: [OnceLock<Tables>; 5] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        T[rule.index()]
            .get_or_init(|| Tables::build_with(rule, EvalParams::default(), EvalModel::active()))
    }
}

/// Static evaluation of `board` for the side to move.
///
/// Two parts: the point values of both colours now and one ply ago (blending the two damps the
/// odd/even swing of a sum that jumps with every stone), and the threat table's entry for
/// which threat classes each side holds (who holds the initiative).
#[inline]
#[must_use]
pub fn evaluate(board: &crate::Board) -> i32 {
    let us = board.to_move();
    let them = us.opponent();
    let t = board.tables();
    let basic = board.value_sum(us) - board.value_sum(them);
    let previous = match (board.previous_value_sum(us), board.previous_value_sum(them)) {
        (Some(a), Some(b)) => a - b,
        _ => basic,
    };
    let threat = i32::from(t.threat[us.index()][threat_mask(board)]);
    let v = (basic * BLEND_NOW + previous * BLEND_PREVIOUS) / 16 + threat;
    v.clamp(
        -crate::search::score::WIN_MIN + 1,
        crate::search::score::WIN_MIN - 1,
    )
}

/// Weight (in sixteenths) of the point values now in [`evaluate`].
pub const BLEND_NOW: i32 = 9;
/// Weight (in sixteenths) of the point values one ply ago.
pub const BLEND_PREVIOUS: i32 = 7;

/// Number of bits of a [`threat_mask`].
pub const THREAT_BITS: usize = 12;
/// Number of entries of a threat table.
pub const NUM_THREAT_MASKS: usize = 1 << THREAT_BITS;

/// The threat classes behind each bit of a [`threat_mask`]: bits 0-5 for the side to move, bits
/// 6-11 for the opponent; a bit is set when the colour has an empty point of one of the classes.
pub const THREAT_BIT_CLASSES: [(bool, &[Pattern4]); THREAT_BITS] = [
    (true, &[Pattern4::Block4Flex3]),
    (true, &[Pattern4::Block4Plus]),
    (true, &[Pattern4::Block4]),
    (true, &[Pattern4::Flex3x2, Pattern4::Flex3Plus]),
    (true, &[Pattern4::Flex3]),
    (true, &[Pattern4::Block3Plus, Pattern4::Flex2x2]),
    (false, &[Pattern4::Flex4]),
    (false, &[Pattern4::Block4Flex3]),
    (false, &[Pattern4::Block4Plus]),
    (false, &[Pattern4::Block4]),
    (false, &[Pattern4::Flex3x2, Pattern4::Flex3Plus]),
    (false, &[Pattern4::Flex3]),
];

/// Which threat classes each side holds, as an index into a threat table (see
/// [`THREAT_BIT_CLASSES`]).
#[inline]
#[must_use]
pub fn threat_mask(board: &crate::Board) -> usize {
    let us = board.to_move();
    let them = us.opponent();
    let mut mask = 0;
    for (bit, &(own, classes)) in THREAT_BIT_CLASSES.iter().enumerate() {
        let c = if own { us } else { them };
        if classes.iter().any(|&k| board.threat_count(c, k) > 0) {
            mask |= 1 << bit;
        }
    }
    mask
}

/// The threat value of `mask` under the hand-set formula of `p`.
fn formula_threat(p: &EvalParams, mask: usize) -> i32 {
    let bit = |b: usize| mask & (1 << b) != 0;
    let mut v = p.tempo;
    if bit(0) || bit(1) {
        v += p.threat_self_four_plus;
    } else if bit(2) {
        v += p.threat_self_four;
    }
    if bit(3) {
        v += p.threat_self_three_plus;
    } else if bit(4) {
        v += p.threat_self_three;
    }
    if bit(6) {
        v += p.threat_oppo_flex4;
    }
    if bit(7) || bit(8) {
        v += p.threat_oppo_four_plus;
    } else if bit(9) {
        v += p.threat_oppo_four;
    }
    if bit(10) {
        v += p.threat_oppo_three_plus;
    } else if bit(11) {
        v += p.threat_oppo_three;
    }
    v
}

/// The rules a model file holds tables for, in file order; the other rules use the hand-set
/// formula.
pub const MODEL_RULES: [Rule; 3] = [Rule::Freestyle, Rule::Standard, Rule::Renju];

/// What a model file starts with.
const MODEL_MAGIC: &[u8; 8] = b"GMKEVAL1";

/// The learned evaluation and move ordering: per rule and colour a value for every pcode, a
/// threat table (per colour to move), and the move-ordering scores of every pcode for the
/// colour that plays there (attack) and for the colour whose point it takes (defence).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalModel {
    /// `[rule][colour][pcode]`, flattened.
    values: Vec<i16>,
    /// `[rule][colour to move][mask]`, flattened.
    threats: Vec<i16>,
    /// `[rule][colour][pcode]`, flattened.
    attack: Vec<i16>,
    /// `[rule][colour][pcode]`, flattened.
    defend: Vec<i16>,
}

/// Why a model file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelError {
    /// The file does not start with the model's magic bytes.
    BadMagic,
    /// The file's table sizes are not this engine's.
    BadShape {
        /// Pcodes per table in the file.
        pcodes: u32,
        /// Threat entries per table in the file.
        masks: u32,
    },
    /// The file is shorter or longer than its tables.
    BadLength {
        /// Bytes expected.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelError::BadMagic => write!(f, "not an evaluation model (bad magic bytes)"),
            ModelError::BadShape { pcodes, masks } => write!(
                f,
                "model tables of {pcodes} pcodes and {masks} threat entries, expected \
                 {NUM_PCODES} and {NUM_THREAT_MASKS}"
            ),
            ModelError::BadLength { expected, found } => {
                write!(f, "model file of {found} bytes, expected {expected}")
            }
        }
    }
}

impl std::error::Error for ModelError {}

/// The model of the default tables, once chosen.
static INSTALLED: OnceLock<EvalModel> = OnceLock::new();

/// The compiled-in model's bytes.
static EMBEDDED_MODEL: &[u8] = include_bytes!("../weights/eval.bin");

/// One entry of a model's tables for a rule: which table, for which colour, at which index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// The value of an empty point with a pcode for the colour.
    Value(Color, usize),
    /// The threat value of a mask, with the colour to move.
    Threat(Color, usize),
    /// The move-ordering score of the colour playing on a point with a pcode.
    Attack(Color, usize),
    /// The move-ordering score of taking a point where the colour (the opponent of the
    /// mover) has a pcode.
    Defend(Color, usize),
}

impl EvalModel {
    fn value_at(rule: Rule, colour: Color, pcode: usize) -> usize {
        (rule.index() * 2 + colour.index()) * NUM_PCODES + pcode
    }

    fn threat_at(rule: Rule, to_move: Color, mask: usize) -> usize {
        (rule.index() * 2 + to_move.index()) * NUM_THREAT_MASKS + mask
    }

    /// The model of the hand-set formula of `p` (the prior of the training).
    #[must_use]
    pub fn from_params(p: &EvalParams) -> EvalModel {
        let pc = pcode_tables();
        let mut m = EvalModel {
            values: vec![0; Rule::ALL.len() * 2 * NUM_PCODES],
            threats: vec![0; Rule::ALL.len() * 2 * NUM_THREAT_MASKS],
            attack: vec![0; Rule::ALL.len() * 2 * NUM_PCODES],
            defend: vec![0; Rule::ALL.len() * 2 * NUM_PCODES],
        };
        let sat = |v: i32| v.clamp(-30_000, 30_000) as i16;
        for rule in Rule::ALL {
            for colour in Color::BOTH {
                for (code, pats) in pc.patterns.iter().enumerate() {
                    let class = combine(rule, colour, *pats);
                    let line_sum: i32 = pats.iter().map(|&q| p.pattern_value[q as usize]).sum();
                    let v = line_sum + p.pattern4_value[class as usize];
                    m.set(rule, Entry::Value(colour, code), sat(v));
                    let att: i32 = pats
                        .iter()
                        .map(|&q| p.pattern_attack_score[q as usize])
                        .sum();
                    let def: i32 = pats
                        .iter()
                        .map(|&q| p.pattern_defend_score[q as usize])
                        .sum();
                    let i = Self::value_at(rule, colour, code);
                    m.attack[i] = sat(p.attack_score[class as usize] + att);
                    m.defend[i] = sat(p.defend_score[class as usize] + def);
                }
                for mask in 0..NUM_THREAT_MASKS {
                    let v = formula_threat(p, mask).clamp(-30_000, 30_000) as i16;
                    m.set(rule, Entry::Threat(colour, mask), v);
                }
            }
        }
        m.fix_constants();
        m
    }

    /// The compiled-in model (the tables of [`MODEL_RULES`] from `weights/eval.bin`, the
    /// formula's for the others).
    ///
    /// # Panics
    /// If the compiled-in file is not a model of this engine's shape (a unit test reads it).
    #[must_use]
    pub fn embedded() -> &'static EvalModel {
        static M: OnceLock<EvalModel> = OnceLock::new();
        M.get_or_init(|| {
            EvalModel::from_bytes(EMBEDDED_MODEL, &EvalParams::default())
                .expect("the compiled-in evaluation model is valid")
        })
    }

    /// The model of the default tables: the one given to [`EvalModel::install`], else the
    /// compiled-in one.
    #[must_use]
    pub fn active() -> &'static EvalModel {
        INSTALLED.get_or_init(|| EvalModel::embedded().clone())
    }

    /// Makes `model` the model of the default tables ([`Tables::default_for`]), for a program
    /// that trains or compares models. It must come before the first board is made; once the
    /// default model is in use, the model is given back.
    ///
    /// # Errors
    /// The model, when the default one is already in use.
    pub fn install(model: EvalModel) -> Result<(), EvalModel> {
        INSTALLED.set(model)
    }

    /// Reads a model file; the rules it does not hold get the formula of `base`.
    ///
    /// # Errors
    /// A file of another format or shape.
    pub fn from_bytes(bytes: &[u8], base: &EvalParams) -> Result<EvalModel, ModelError> {
        let header = MODEL_MAGIC.len() + 8;
        if bytes.len() < header || &bytes[..MODEL_MAGIC.len()] != MODEL_MAGIC {
            return Err(ModelError::BadMagic);
        }
        let word = |i: usize| {
            let o = MODEL_MAGIC.len() + 4 * i;
            u32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]])
        };
        let (pcodes, masks) = (word(0), word(1));
        if pcodes as usize != NUM_PCODES || masks as usize != NUM_THREAT_MASKS {
            return Err(ModelError::BadShape { pcodes, masks });
        }
        let expected = header + MODEL_RULES.len() * 2 * (3 * NUM_PCODES + NUM_THREAT_MASKS) * 2;
        if bytes.len() != expected {
            return Err(ModelError::BadLength {
                expected,
                found: bytes.len(),
            });
        }
        let mut m = EvalModel::from_params(base);
        let mut words = bytes[header..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        for rule in MODEL_RULES {
            for colour in Color::BOTH {
                for code in 0..NUM_PCODES {
                    let v = words.next().unwrap_or(0);
                    m.set(rule, Entry::Value(colour, code), v);
                }
                for mask in 0..NUM_THREAT_MASKS {
                    let v = words.next().unwrap_or(0);
                    m.set(rule, Entry::Threat(colour, mask), v);
                }
                for code in 0..NUM_PCODES {
                    m.attack[Self::value_at(rule, colour, code)] = words.next().unwrap_or(0);
                }
                for code in 0..NUM_PCODES {
                    m.defend[Self::value_at(rule, colour, code)] = words.next().unwrap_or(0);
                }
            }
        }
        m.fix_constants();
        Ok(m)
    }

    /// The model file of this model (the tables of [`MODEL_RULES`]).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MODEL_MAGIC.to_vec();
        out.extend_from_slice(&(NUM_PCODES as u32).to_le_bytes());
        out.extend_from_slice(&(NUM_THREAT_MASKS as u32).to_le_bytes());
        for rule in MODEL_RULES {
            for colour in Color::BOTH {
                for code in 0..NUM_PCODES {
                    out.extend_from_slice(&self.value(rule, colour, code).to_le_bytes());
                }
                for mask in 0..NUM_THREAT_MASKS {
                    out.extend_from_slice(&self.threat(rule, colour, mask).to_le_bytes());
                }
                for code in 0..NUM_PCODES {
                    out.extend_from_slice(&self.attack(rule, colour, code).to_le_bytes());
                }
                for code in 0..NUM_PCODES {
                    out.extend_from_slice(&self.defend(rule, colour, code).to_le_bytes());
                }
            }
        }
        out
    }

    /// The table and the index in it of `entry` under `rule`.
    fn slot(&self, rule: Rule, entry: Entry) -> (&[i16], usize) {
        match entry {
            Entry::Value(c, i) => (&self.values, Self::value_at(rule, c, i)),
            Entry::Threat(c, i) => (&self.threats, Self::threat_at(rule, c, i)),
            Entry::Attack(c, i) => (&self.attack, Self::value_at(rule, c, i)),
            Entry::Defend(c, i) => (&self.defend, Self::value_at(rule, c, i)),
        }
    }

    /// The value of `entry` under `rule`.
    #[must_use]
    pub fn get(&self, rule: Rule, entry: Entry) -> i16 {
        let (table, i) = self.slot(rule, entry);
        table[i]
    }

    /// Sets `entry` under `rule` to `v`.
    pub fn set(&mut self, rule: Rule, entry: Entry, v: i16) {
        let (table, i) = match entry {
            Entry::Value(c, i) => (&mut self.values, Self::value_at(rule, c, i)),
            Entry::Threat(c, i) => (&mut self.threats, Self::threat_at(rule, c, i)),
            Entry::Attack(c, i) => (&mut self.attack, Self::value_at(rule, c, i)),
            Entry::Defend(c, i) => (&mut self.defend, Self::value_at(rule, c, i)),
        };
        table[i] = v;
    }

    /// The value of an empty point with `pcode` for `colour`.
    #[must_use]
    pub fn value(&self, rule: Rule, colour: Color, pcode: usize) -> i16 {
        self.get(rule, Entry::Value(colour, pcode))
    }

    /// The threat value of `mask` with `to_move` to move.
    #[must_use]
    pub fn threat(&self, rule: Rule, to_move: Color, mask: usize) -> i16 {
        self.get(rule, Entry::Threat(to_move, mask))
    }

    /// The move-ordering score of `colour` playing on a point with its `pcode`.
    #[must_use]
    pub fn attack(&self, rule: Rule, colour: Color, pcode: usize) -> i16 {
        self.get(rule, Entry::Attack(colour, pcode))
    }

    /// The move-ordering score of taking a point where `colour` (the opponent of the mover)
    /// has `pcode`.
    #[must_use]
    pub fn defend(&self, rule: Rule, colour: Color, pcode: usize) -> i16 {
        self.get(rule, Entry::Defend(colour, pcode))
    }

    /// Sets the values that are fixed whatever the training says: 0 for a point whose lines
    /// are all dead (as every occupied point) and for a forbidden point, whose ordering
    /// scores are fixed too.
    pub fn fix_constants(&mut self) {
        let pc = pcode_tables();
        for rule in Rule::ALL {
            for colour in Color::BOTH {
                for (code, pats) in pc.patterns.iter().enumerate() {
                    let dead = pats.iter().all(|&q| q == Pattern::Dead);
                    let forbid = combine(rule, colour, *pats) == Pattern4::Forbid;
                    if dead || forbid {
                        self.set(rule, Entry::Value(colour, code), 0);
                    }
                    let i = Self::value_at(rule, colour, code);
                    if dead {
                        self.attack[i] = 0;
                        self.defend[i] = 0;
                    }
                    if forbid {
                        // taking a point the opponent may not play gains nothing
                        self.defend[i] = 0;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_model_reads_and_writes_back() {
        let m = EvalModel::embedded();
        let again = EvalModel::from_bytes(&m.to_bytes(), &EvalParams::default()).expect("model");
        assert_eq!(&again, m);
    }

    #[test]
    fn bad_model_files_are_refused() {
        let p = EvalParams::default();
        assert_eq!(EvalModel::from_bytes(b"", &p), Err(ModelError::BadMagic));
        assert_eq!(
            EvalModel::from_bytes(b"GMKEVAL0........", &p),
            Err(ModelError::BadMagic)
        );
        let mut bytes = EvalModel::embedded().to_bytes();
        bytes.pop();
        assert!(matches!(
            EvalModel::from_bytes(&bytes, &p),
            Err(ModelError::BadLength { .. })
        ));
        bytes[8..12].copy_from_slice(&7u32.to_le_bytes());
        assert!(matches!(
            EvalModel::from_bytes(&bytes, &p),
            Err(ModelError::BadShape { pcodes: 7, .. })
        ));
    }

    #[test]
    fn the_formula_model_keeps_the_formula() {
        // the formula's tables: a point's value is its lines' values plus its class's
        let p = EvalParams::default();
        let t = Tables::build(Rule::Freestyle, p.clone());
        let pc = pcode_tables();
        for (code, pats) in pc.patterns.iter().enumerate() {
            if pats.iter().all(|&q| q == Pattern::Dead) {
                continue;
            }
            let class = combine(Rule::Freestyle, Color::Black, *pats);
            let want: i32 = pats
                .iter()
                .map(|&q| p.pattern_value[q as usize])
                .sum::<i32>()
                + p.pattern4_value[class as usize];
            assert_eq!(t.value[0][code], want);
        }
        assert_eq!(usize::from(t.threat[0][0] as u16), p.tempo as usize);
    }
}
