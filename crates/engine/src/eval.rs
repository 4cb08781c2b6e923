//! Evaluation weights and the per-pcode tables built from them.
//!
//! Every weight lives in [`EvalParams`]: a tuner can build its own set and make boards that use
//! it ([`Tables::build`], [`Board::with_tables`](crate::Board::with_tables)). The board keeps, for
//! each colour, the sum of the values of every empty point incrementally, so the static
//! evaluation of a position is a subtraction.

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
    /// Weight (in 1/16) of the point-value difference now.
    pub basic_weight: i32,
    /// Weight (in 1/16) of the point-value difference one ply ago.
    pub previous_weight: i32,
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

// Named defaults. The point values and the threat terms (not the move-ordering scores) come
// from `gomoku tune-eval` (Texel tuning) over 12,000 self-play games at about 30,000 nodes a
// move, 4,000 per rule, in two rounds (the second round's games played with the first round's
// weights). Against the hand-set weights before them, at 100 ms a move over 400 games per rule
// from 200 random openings: freestyle +19 Elo, standard +17, renju +61 (docs/benchmark-log.md,
// forty-fourth session).
//
// In pattern order:
// Dead, Overline, DoubleFourLine, B1, F1, B2, F2, F2A, B3, F3, B4, F4, F5
const PATTERN_VALUE: [i32; NUM_PATTERNS] = [0, 0, 0, 0, -1, 1, 6, 5, 2, 5, 40, 51, 200];
// None, Forbid, Flex2, Block3, Flex2x2, Block3Plus, Flex3, Flex3Plus, Flex3x2, Block4,
// Block4Plus, Block4Flex3, Flex4, Five
const PATTERN4_VALUE: [i32; NUM_PATTERN4] = [0, 0, -8, 2, -13, 5, 6, 11, 3, -11, 10, 102, 68, 100];
const ATTACK_SCORE: [i32; NUM_PATTERN4] = [
    0, -10_000, 20, 16, 60, 70, 100, 240, 400, 120, 300, 1000, 2500, 10_000,
];
const DEFEND_SCORE: [i32; NUM_PATTERN4] =
    [0, 0, 12, 8, 40, 40, 60, 160, 240, 60, 160, 600, 1200, 5000];
const PATTERN_ATTACK_SCORE: [i32; NUM_PATTERNS] = [0, 0, 0, 1, 2, 3, 6, 8, 6, 12, 12, 40, 100];
const PATTERN_DEFEND_SCORE: [i32; NUM_PATTERNS] = [0, 0, 0, 0, 1, 2, 4, 5, 4, 8, 8, 20, 60];
const TEMPO: i32 = 10;
const BASIC_WEIGHT: i32 = 9;
const PREVIOUS_WEIGHT: i32 = 7;
const THREAT_SELF_FOUR_PLUS: i32 = 53;
const THREAT_SELF_FOUR: i32 = 4;
const THREAT_SELF_THREE_PLUS: i32 = 91;
const THREAT_SELF_THREE: i32 = 19;
const THREAT_OPPO_FLEX4: i32 = -46;
const THREAT_OPPO_FOUR_PLUS: i32 = -23;
const THREAT_OPPO_FOUR: i32 = 3;
const THREAT_OPPO_THREE_PLUS: i32 = -62;
const THREAT_OPPO_THREE: i32 = -9;

impl Default for EvalParams {
    fn default() -> Self {
        EvalParams {
            pattern_value: PATTERN_VALUE,
            pattern4_value: PATTERN4_VALUE,
            attack_score: ATTACK_SCORE,
            defend_score: DEFEND_SCORE,
            pattern_attack_score: PATTERN_ATTACK_SCORE,
            pattern_defend_score: PATTERN_DEFEND_SCORE,
            tempo: TEMPO,
            basic_weight: BASIC_WEIGHT,
            previous_weight: PREVIOUS_WEIGHT,
            threat_self_four_plus: THREAT_SELF_FOUR_PLUS,
            threat_self_four: THREAT_SELF_FOUR,
            threat_self_three_plus: THREAT_SELF_THREE_PLUS,
            threat_self_three: THREAT_SELF_THREE,
            threat_oppo_flex4: THREAT_OPPO_FLEX4,
            threat_oppo_four_plus: THREAT_OPPO_FOUR_PLUS,
            threat_oppo_four: THREAT_OPPO_FOUR,
            threat_oppo_three_plus: THREAT_OPPO_THREE_PLUS,
            threat_oppo_three: THREAT_OPPO_THREE,
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
    /// Builds the tables of `rule` from `params`.
    #[must_use]
    pub fn build(rule: Rule, params: EvalParams) -> Tables {
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
                let line_sum: i32 = pats.iter().map(|&p| params.pattern_value[p as usize]).sum();
                value[c][code] = if class == Pattern4::Forbid {
                    0
                } else {
                    line_sum + params.pattern4_value[class as usize]
                };
                attack[c][code] = params.attack_score[class as usize]
                    + pats
                        .iter()
                        .map(|&p| params.pattern_attack_score[p as usize])
                        .sum::<i32>();
                defend[c][code] = if class == Pattern4::Forbid {
                    0
                } else {
                    params.defend_score[class as usize]
                        + pats
                            .iter()
                            .map(|&p| params.pattern_defend_score[p as usize])
                            .sum::<i32>()
                };
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
        Tables {
            rule,
            params,
            p4,
            value,
            attack,
            defend,
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
        T[rule.index()].get_or_init(|| Tables::build(rule, EvalParams::default()))
    }
}

/// Static evaluation of `board` for the side to move.
///
/// Three parts: the point values of both colours now (basic), the same one ply ago (blending
/// the two damps the odd/even swing of a sum that jumps with every stone), and a threat term
/// from which threat classes each side has (who holds the initiative).
#[inline]
#[must_use]
pub fn evaluate(board: &crate::Board) -> i32 {
    let us = board.to_move();
    let them = us.opponent();
    let p = &board.tables().params;
    let basic = board.value_sum(us) - board.value_sum(them);
    let previous = match (board.previous_value_sum(us), board.previous_value_sum(them)) {
        (Some(a), Some(b)) => a - b,
        _ => basic,
    };
    let v = (basic * p.basic_weight + previous * p.previous_weight) / 16 + threat_value(board, p);
    v.clamp(
        -crate::search::score::WIN_MIN + 1,
        crate::search::score::WIN_MIN - 1,
    )
}

/// The threat term of [`evaluate`]: for the side to move, which threat classes exist for each side.
#[inline]
fn threat_value(board: &crate::Board, p: &EvalParams) -> i32 {
    let us = board.to_move();
    let them = us.opponent();
    let has = |c: Color, a: Pattern4, b: Pattern4| {
        board.threat_count(c, a) + board.threat_count(c, b) > 0
    };
    let mut v = p.tempo;
    if has(us, Pattern4::Block4Flex3, Pattern4::Block4Plus) {
        v += p.threat_self_four_plus;
    } else if board.threat_count(us, Pattern4::Block4) > 0 {
        v += p.threat_self_four;
    }
    if has(us, Pattern4::Flex3x2, Pattern4::Flex3Plus) {
        v += p.threat_self_three_plus;
    } else if board.threat_count(us, Pattern4::Flex3) > 0 {
        v += p.threat_self_three;
    }
    if board.threat_count(them, Pattern4::Flex4) > 0 {
        v += p.threat_oppo_flex4;
    }
    if has(them, Pattern4::Block4Flex3, Pattern4::Block4Plus) {
        v += p.threat_oppo_four_plus;
    } else if board.threat_count(them, Pattern4::Block4) > 0 {
        v += p.threat_oppo_four;
    }
    if has(them, Pattern4::Flex3x2, Pattern4::Flex3Plus) {
        v += p.threat_oppo_three_plus;
    } else if board.threat_count(them, Pattern4::Flex3) > 0 {
        v += p.threat_oppo_three;
    }
    v
}
