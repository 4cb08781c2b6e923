//! Line patterns and per-point threat classes, looked up from tables built once.
//!
//! A *line pattern* describes what one colour gets on one line (one direction) by playing on an
//! empty point: look at the eleven points centred on it (five each side) and ask how close a stone
//! there brings that colour to a five *through the point*. The answer only depends on those
//! eleven points, so it is precomputed for every possible window (a 20-bit key: 2 bits for each of
//! the ten neighbours) and the board keeps the keys of every line up to date incrementally.
//!
//! The four directions of a point combine into a [`Pattern4`], the threat class used by move
//! generation, the threat search and the renju forbidden-point check.

use crate::types::{Color, Rule};
use std::sync::OnceLock;

/// Half the window length: a pattern depends on this many points each side.
pub const HALF: usize = 5;
/// Number of bits of a window key (ten neighbours, two bits each).
pub const KEY_BITS: u32 = 20;
/// Number of distinct window keys.
pub const NUM_KEYS: usize = 1 << KEY_BITS;

/// Two-bit point codes inside window keys.
pub(crate) const EMPTY_BITS: u32 = 0b00;
pub(crate) const BLACK_BITS: u32 = 0b01;
#[allow(dead_code)]
pub(crate) const WHITE_BITS: u32 = 0b10;
pub(crate) const WALL_BITS: u32 = 0b11;

/// Declares a field-less enum whose discriminants count up from 0 in the order written, with
/// `ALL` (every value in that order) and `from_u8`, so that the values are listed once.
macro_rules! counted_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident, )*
        }
    ) => {
        $(#[$meta])*
        #[repr(u8)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )*
        }

        impl $name {
            /// Every value, in the order of their discriminants.
            pub const ALL: [$name; [$(stringify!($variant)),*].len()] = [$($name::$variant),*];

            /// The value with the given discriminant. Panics when there is none.
            #[inline]
            #[must_use]
            pub fn from_u8(v: u8) -> $name {
                Self::ALL[v as usize]
            }
        }
    };
}

counted_enum! {
    /// What one colour gets on one line by playing a point, ordered from useless to winning.
    ///
    /// In the diagrams `O` is the colour's own stone, `X` the opponent (or the edge), `.` empty
    /// and `*` the point itself.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum Pattern {
        /// No five can ever go through the point on this line: `X.*..X`.
        Dead,
        /// Playing makes six or more in a row where that does not win (`OO*OOO`).
        Overline,
        /// Renju Black only: playing makes two fours on this one line (`O.O*O.O`), a forbidden
        /// point.
        DoubleFourLine,
        /// A blocked one: one more stone makes a [`Pattern::B2`].
        B1,
        /// A free one: one more stone makes a [`Pattern::F2`].
        F1,
        /// A blocked two: one more stone makes a blocked three (`XOO*..`).
        B2,
        /// A free two: one more stone makes a free three (`..O*..`).
        F2,
        /// A free two with three or more ways to become a free three (`..O*...` in the middle
        /// of space).
        F2A,
        /// A blocked three: one more stone makes a four (`XOO*..`).
        B3,
        /// A free three: one more stone makes a straight four (`..OO*..`).
        F3,
        /// A four: one point left to make five (`XOOO*.`).
        B4,
        /// A straight four: two points make five (`.OOO*.`), or for rules other than renju
        /// Black two fours on one line.
        F4,
        /// Playing makes five (exactly five where the rule says so).
        F5,
    }
}

/// Number of [`Pattern`] values.
pub const NUM_PATTERNS: usize = Pattern::ALL.len();

impl Pattern {
    /// Whether the pattern is a four of any kind (one or more points make five).
    #[inline]
    #[must_use]
    pub fn is_four(self) -> bool {
        matches!(self, Pattern::B4 | Pattern::F4 | Pattern::DoubleFourLine)
    }
}

counted_enum! {
    /// Threat class of a point for one colour: the four line patterns combined. Ordered from
    /// weakest to strongest (`Forbid` sits at the bottom: the point cannot be played).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum Pattern4 {
        /// Nothing of note.
        None,
        /// Renju Black: overline or double four (always forbidden), or a double three that the
        /// board confirmed as forbidden. See [`Pattern4::Flex3x2`] for unconfirmed double
        /// threes.
        Forbid,
        /// A free two.
        Flex2,
        /// A blocked three (one line can become a four).
        Block3,
        /// Two free twos.
        Flex2x2,
        /// A blocked three and another two or three.
        Block3Plus,
        /// A free three (threatens a straight four).
        Flex3,
        /// A free three and another blocked three or free two.
        Flex3Plus,
        /// Two free threes. For renju Black any point with two free threes (even with a four)
        /// is in this class: it is forbidden if two of the threes are real, which the board
        /// decides ([`Board::resolved_threat`](crate::Board::resolved_threat)).
        Flex3x2,
        /// A four.
        Block4,
        /// A four and a blocked three or free two.
        Block4Plus,
        /// A four and a free three: wins unless the opponent can answer with fours.
        Block4Flex3,
        /// A straight four or two fours: wins unless the opponent makes five first.
        Flex4,
        /// Makes five.
        Five,
    }
}

/// Number of [`Pattern4`] values.
pub const NUM_PATTERN4: usize = Pattern4::ALL.len();

impl Pattern4 {
    /// Whether playing here makes at least a four (or five).
    #[inline]
    #[must_use]
    pub fn is_four_or_better(self) -> bool {
        self >= Pattern4::Block4
    }
}

/// How fives are judged for one colour under one rule: the table "kinds". Renju uses
/// `ExactRenjuBlack` for Black and `FiveOrMore` for White.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    FiveOrMore = 0,
    Exact = 1,
    ExactRenjuBlack = 2,
    Caro5 = 3,
    Caro6 = 4,
}

const NUM_KINDS: usize = 5;

impl Kind {
    fn of(rule: Rule, color: Color) -> Kind {
        match (rule, color) {
            (Rule::Freestyle, _) | (Rule::Renju, Color::White) => Kind::FiveOrMore,
            (Rule::Standard, _) => Kind::Exact,
            (Rule::Renju, Color::Black) => Kind::ExactRenjuBlack,
            (Rule::Caro5, _) => Kind::Caro5,
            (Rule::Caro6, _) => Kind::Caro6,
        }
    }
}

/// Point states in own-colour perspective, used while building tables.
const OWN: u8 = 1;
const OPP: u8 = 2;
const WALL: u8 = 3;

/// Window positions 0..=10; 5 is the centre. Key bit pairs: positions 0..5 are bits 0..10 and
/// positions 6..=10 are bits 10..20.
#[inline]
fn key_shift(i: usize) -> u32 {
    debug_assert!(i != HALF && i <= 2 * HALF);
    if i < HALF {
        2 * i as u32
    } else {
        2 * (i as u32 - 1)
    }
}

/// Reads the window of a key in own-colour perspective (`own` is the two-bit code of the colour),
/// with the centre set to an own stone.
fn decode(key: u32, own: u32) -> [u8; 11] {
    let mut cells = [0u8; 11];
    for (i, c) in cells.iter_mut().enumerate() {
        if i == HALF {
            *c = OWN;
            continue;
        }
        let v = (key >> key_shift(i)) & 3;
        *c = if v == EMPTY_BITS {
            0
        } else if v == WALL_BITS {
            WALL
        } else if v == own {
            OWN
        } else {
            OPP
        };
    }
    cells
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Run {
    None,
    Five,
    /// Six or more where that does not count, or a caro five blocked at both ends.
    Bad,
}

/// Judges the run of own stones through the centre.
fn run_through_centre(cells: &[u8; 11], kind: Kind) -> Run {
    let mut l = 0;
    while l < HALF && cells[HALF - 1 - l] == OWN {
        l += 1;
    }
    let mut r = 0;
    while r < HALF && cells[HALF + 1 + r] == OWN {
        r += 1;
    }
    let len = l + r + 1;
    if len < 5 {
        return Run::None;
    }
    // Blockers: the point past each end of the run, when it lies inside the window.
    let left_opp = HALF > l && cells[HALF - 1 - l] == OPP;
    let right_opp = HALF + 1 + r <= 2 * HALF && cells[HALF + 1 + r] == OPP;
    match kind {
        Kind::FiveOrMore => Run::Five,
        Kind::Exact | Kind::ExactRenjuBlack => {
            if len == 5 {
                Run::Five
            } else {
                Run::Bad
            }
        }
        Kind::Caro5 => {
            if len == 5 && !(left_opp && right_opp) {
                Run::Five
            } else {
                Run::Bad
            }
        }
        Kind::Caro6 => {
            // any five inside a longer run has one end on an own stone, so only an exact five
            // can be blocked at both ends
            if len == 5 && left_opp && right_opp {
                Run::Bad
            } else {
                Run::Five
            }
        }
    }
}

/// Builds the level table of one kind: for every key (centre taken as an own stone, own = Black
/// bits), the [`Pattern`] the centre stone has on that line.
struct KindTable {
    kind: Kind,
    lvl: Vec<u8>,
}

const UNKNOWN: u8 = 0xFF;

impl KindTable {
    fn build(kind: Kind) -> KindTable {
        let mut t = KindTable {
            kind,
            lvl: vec![UNKNOWN; NUM_KEYS],
        };
        for key in 0..NUM_KEYS as u32 {
            if valid_key(key) {
                t.level(key);
            } else {
                t.lvl[key as usize] = Pattern::Dead as u8;
            }
        }
        t
    }

    /// The pattern of an own stone at the centre of `key` (own = Black bits), memoised.
    fn level(&mut self, key: u32) -> u8 {
        let cached = self.lvl[key as usize];
        if cached != UNKNOWN {
            return cached;
        }
        let v = self.compute(key) as u8;
        self.lvl[key as usize] = v;
        v
    }

    fn compute(&mut self, key: u32) -> Pattern {
        let cells = decode(key, BLACK_BITS);
        match run_through_centre(&cells, self.kind) {
            Run::Five => return Pattern::F5,
            Run::Bad => {
                return if matches!(self.kind, Kind::Exact | Kind::ExactRenjuBlack | Kind::Caro5)
                    && run_len(&cells) >= 6
                {
                    Pattern::Overline
                } else {
                    Pattern::Dead
                }
            }
            Run::None => {}
        }
        // Count the points that complete a five through the centre.
        let mut fives = [0usize; 2];
        let mut n5 = 0;
        for i in 0..=2 * HALF {
            if cells[i] != 0 {
                continue;
            }
            let mut c2 = cells;
            c2[i] = OWN;
            if run_through_centre(&c2, self.kind) == Run::Five {
                if n5 < 2 {
                    fives[n5] = i;
                }
                n5 += 1;
            }
        }
        if n5 >= 2 {
            let straight = fives[1] - fives[0] == 5;
            return if straight || self.kind != Kind::ExactRenjuBlack {
                Pattern::F4
            } else {
                Pattern::DoubleFourLine
            };
        }
        if n5 == 1 {
            return Pattern::B4;
        }
        // One more stone: what is the best the line can become?
        let (mut f4, mut b4, mut f3, mut b3, mut f2, mut b2) =
            (false, false, 0, false, false, false);
        for i in 0..=2 * HALF {
            if cells[i] != 0 {
                continue;
            }
            let sub = Pattern::from_u8(self.level(key | (BLACK_BITS << key_shift(i))));
            match sub {
                Pattern::F4 => f4 = true,
                Pattern::B4 => b4 = true,
                Pattern::F3 => f3 += 1,
                Pattern::B3 => b3 = true,
                Pattern::F2 | Pattern::F2A => f2 = true,
                Pattern::B2 => b2 = true,
                _ => {}
            }
        }
        if f4 {
            Pattern::F3
        } else if b4 {
            Pattern::B3
        } else if f3 >= 3 {
            Pattern::F2A
        } else if f3 >= 1 {
            Pattern::F2
        } else if b3 {
            Pattern::B2
        } else if f2 {
            Pattern::F1
        } else if b2 {
            Pattern::B1
        } else {
            Pattern::Dead
        }
    }
}

fn run_len(cells: &[u8; 11]) -> usize {
    let mut n = 1;
    let mut i = HALF;
    while i > 0 && cells[i - 1] == OWN {
        n += 1;
        i -= 1;
    }
    let mut j = HALF;
    while j < 2 * HALF && cells[j + 1] == OWN {
        n += 1;
        j += 1;
    }
    n
}

/// Whether a key can occur on a board: walls only form an unbroken run from the far end of each
/// half-window.
fn valid_key(key: u32) -> bool {
    // left half: positions 0..5, far end is position 0
    let mut seen_non_wall = false;
    for i in 0..HALF {
        let w = (key >> key_shift(i)) & 3 == WALL_BITS;
        if w && seen_non_wall {
            return false;
        }
        seen_non_wall |= !w;
    }
    // right half: far end is position 10
    seen_non_wall = false;
    for i in (HALF + 1..=2 * HALF).rev() {
        let w = (key >> key_shift(i)) & 3 == WALL_BITS;
        if w && seen_non_wall {
            return false;
        }
        seen_non_wall |= !w;
    }
    true
}

/// Swaps the colours of a key (Black bits become White bits and back; walls stay).
#[inline]
#[must_use]
pub fn swap_colors(key: u32) -> u32 {
    ((key & 0x55555) << 1) | ((key & 0xAAAAA) >> 1)
}

fn kind_table(kind: Kind) -> &'static KindTable {
    static TABLES: [OnceLock<KindTable>; NUM_KINDS] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    TABLES[kind as usize].get_or_init(|| KindTable::build(kind))
}

/// Number of half-windows (five points on one side) that can occur on a board: walls only
/// form an unbroken run from the far end. 243 + 81 + 27 + 9 + 3 + 1.
pub(crate) const NUM_HALVES: usize = 364;

/// Per-rule lookup table: for each window key, the pattern of the centre point for Black and
/// for White.
///
/// Stored compactly so that it stays in the L1 cache (a few kilobytes; the lookup is the inner
/// loop of every move made). Each half of the key (the five points on one side) maps to its
/// class: the halves that give the same patterns whatever the other side holds. There are 57 to
/// 67 classes per rule (119 for caro), out of the 364 half-windows that can occur on a board. The
/// pair of classes selects a byte that packs both colours' patterns (`black * 13 + white`). The
/// left class comes multiplied by the number of right classes (the start of its row of bytes).
pub(crate) struct RuleTable {
    pub(crate) left: [u16; 1024],
    pub(crate) right: [u16; 1024],
    pub(crate) packed: Vec<u8>,
    pub(crate) unpack: [[u8; 2]; NUM_PATTERNS * NUM_PATTERNS],
}

impl RuleTable {
    /// The patterns (Black, White) of the centre of `key`.
    #[inline(always)]
    pub(crate) fn get(&self, key: u32) -> [u8; 2] {
        let lo = (key & 0x3FF) as usize;
        let hi = ((key >> 10) & 0x3FF) as usize;
        // Safety: lo and hi are below 1024; a left row start plus a right class is below the
        // packed length (checked when the table is built); packed bytes are below 169.
        unsafe {
            let i = *self.left.get_unchecked(lo) as usize + *self.right.get_unchecked(hi) as usize;
            *self
                .unpack
                .get_unchecked(*self.packed.get_unchecked(i) as usize)
        }
    }
}

/// Index of each valid half-window; `far_first` says which end of the ten bits is the far end.
fn half_indices(right_side: bool) -> ([u16; 1024], Vec<u32>) {
    let mut idx = [0u16; 1024];
    let mut halves = Vec::new();
    for h in 0..1024u32 {
        // point j of the half, counted from the far end
        let cell = |j: u32| {
            if right_side {
                (h >> (2 * (4 - j))) & 3
            } else {
                (h >> (2 * j)) & 3
            }
        };
        let mut ok = true;
        let mut seen_open = false;
        for j in 0..5 {
            let wall = cell(j) == WALL_BITS;
            if wall && seen_open {
                ok = false;
            }
            seen_open |= !wall;
        }
        if ok {
            idx[h as usize] = halves.len() as u16;
            halves.push(h);
        }
    }
    debug_assert_eq!(halves.len(), NUM_HALVES);
    (idx, halves)
}

/// The table of a rule, built on first use.
pub(crate) fn rule_table(rule: Rule) -> &'static RuleTable {
    static TABLES: [OnceLock<RuleTable>; 5] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    TABLES[rule.index()].get_or_init(|| {
        let kb = kind_table(Kind::of(rule, Color::Black));
        let kw = kind_table(Kind::of(rule, Color::White));
        let (left, left_halves) = half_indices(false);
        let (right, right_halves) = half_indices(true);
        let mut full = vec![0u8; NUM_HALVES * NUM_HALVES];
        for (li, &lh) in left_halves.iter().enumerate() {
            for (ri, &rh) in right_halves.iter().enumerate() {
                let k = lh | (rh << 10);
                let b = kb.lvl[k as usize];
                let w = kw.lvl[swap_colors(k) as usize];
                full[li * NUM_HALVES + ri] = b * NUM_PATTERNS as u8 + w;
            }
        }
        // halves whose rows (left) or columns (right) of the full table are equal are one class
        let row = |li: usize| full[li * NUM_HALVES..(li + 1) * NUM_HALVES].to_vec();
        let col = |ri: usize| -> Vec<u8> {
            (0..NUM_HALVES)
                .map(|li| full[li * NUM_HALVES + ri])
                .collect()
        };
        let (left_class, left_reps) = classes(NUM_HALVES, row);
        let (right_class, right_reps) = classes(NUM_HALVES, col);
        let width = right_reps.len();
        let mut packed = vec![0u8; left_reps.len() * width];
        for (lc, &li) in left_reps.iter().enumerate() {
            for (rc, &ri) in right_reps.iter().enumerate() {
                packed[lc * width + rc] = full[li * NUM_HALVES + ri];
            }
        }
        let mut unpack = [[0u8; 2]; NUM_PATTERNS * NUM_PATTERNS];
        for (i, u) in unpack.iter_mut().enumerate() {
            *u = [(i / NUM_PATTERNS) as u8, (i % NUM_PATTERNS) as u8];
        }
        let row_start = |class: u16| u16::try_from(usize::from(class) * width).expect("small");
        let table = RuleTable {
            left: left.map(|i| row_start(left_class[usize::from(i)])),
            right: right.map(|i| right_class[usize::from(i)]),
            packed,
            unpack,
        };
        // the unchecked lookups of `get` stay in bounds
        assert!(table
            .left
            .iter()
            .all(|&l| usize::from(l) + width <= table.packed.len()));
        assert!(table.right.iter().all(|&r| usize::from(r) < width));
        table
    })
}

/// Groups `n` items by the value of `f`: the class of each item (numbered in order of first
/// appearance) and the first item of each class.
fn classes<K: std::hash::Hash + Eq>(n: usize, f: impl Fn(usize) -> K) -> (Vec<u16>, Vec<usize>) {
    let mut seen = std::collections::HashMap::new();
    let mut reps = Vec::new();
    let class = (0..n)
        .map(|i| {
            *seen.entry(f(i)).or_insert_with(|| {
                reps.push(i);
                (reps.len() - 1) as u16
            })
        })
        .collect();
    (class, reps)
}

/// The pattern `color` gets on a line by playing the centre of the window `key`.
#[must_use]
pub fn lookup(rule: Rule, color: Color, key: u32) -> Pattern {
    Pattern::from_u8(rule_table(rule).get(key)[color.index()])
}

/// Window offsets (-5..=5, never 0) of the empty points that, played by `color` after the centre,
/// give the pattern `want` through the centre. With `want = F5` these are the points that complete
/// a four; with `want = F4` the points that turn a three into a straight four.
#[must_use]
pub fn completion_offsets(rule: Rule, color: Color, key: u32, want: Pattern) -> u16 {
    let t = kind_table(Kind::of(rule, color));
    let own_key = if color == Color::Black {
        key
    } else {
        swap_colors(key)
    };
    let mut mask = 0u16;
    for i in 0..=2 * HALF {
        if i == HALF || (own_key >> key_shift(i)) & 3 != EMPTY_BITS {
            continue;
        }
        let sub = own_key | (BLACK_BITS << key_shift(i));
        if t.lvl[sub as usize] == want as u8 {
            mask |= 1 << i;
        }
    }
    mask
}

/// Converts a bit of a [`completion_offsets`] mask to a signed offset along the line.
#[inline]
#[must_use]
pub fn mask_bit_offset(bit: u32) -> i32 {
    bit as i32 - HALF as i32
}

// ---------------------------------------------------------------------------------------------
// Combining four directions.

/// Number of distinct sorted combinations of four patterns (multisets of size 4 from 13).
pub const NUM_PCODES: usize = 1820;

/// Maps the four direction patterns (as a base-13 number) to the index of their sorted
/// combination ("pcode"), and each pcode back to its sorted patterns.
pub(crate) struct PcodeTables {
    pub(crate) index: Vec<u16>,
    pub(crate) patterns: Vec<[Pattern; 4]>,
}

pub(crate) fn pcode_tables() -> &'static PcodeTables {
    static T: OnceLock<PcodeTables> = OnceLock::new();
    T.get_or_init(|| {
        let n = NUM_PATTERNS;
        let mut patterns: Vec<[Pattern; 4]> = Vec::with_capacity(NUM_PCODES);
        let mut index = vec![0u16; n * n * n * n];
        let mut code_of = std::collections::HashMap::new();
        for a in 0..n {
            for b in a..n {
                for c in b..n {
                    for d in c..n {
                        code_of.insert([a, b, c, d], patterns.len() as u16);
                        patterns.push([a, b, c, d].map(|v| Pattern::from_u8(v as u8)));
                    }
                }
            }
        }
        debug_assert_eq!(patterns.len(), NUM_PCODES);
        for i in 0..n * n * n * n {
            let mut p = [i / (n * n * n), (i / (n * n)) % n, (i / n) % n, i % n];
            p.sort_unstable();
            index[i] = code_of[&p];
        }
        PcodeTables { index, patterns }
    })
}

/// The pcode of four direction patterns.
#[inline]
#[must_use]
pub fn pcode_of(p: [Pattern; 4]) -> u16 {
    let n = NUM_PATTERNS;
    let i = ((p[0] as usize * n + p[1] as usize) * n + p[2] as usize) * n + p[3] as usize;
    pcode_tables().index[i]
}

/// Combines four line patterns of one colour into its threat class under `rule`.
///
/// Renju Black's double threes come out as [`Pattern4::Flex3x2`]: whether the threes are real
/// (can become straight fours on points that are themselves not forbidden) depends on the rest of
/// the board, so [`Board::is_forbidden`](crate::Board::is_forbidden) decides.
#[must_use]
pub fn combine(rule: Rule, color: Color, p: [Pattern; 4]) -> Pattern4 {
    let count = |want: Pattern| p.iter().filter(|&&x| x == want).count();
    let renju_black = rule == Rule::Renju && color == Color::Black;
    let n5 = count(Pattern::F5);
    let nf4 = count(Pattern::F4);
    let nd4 = count(Pattern::DoubleFourLine);
    let nb4 = count(Pattern::B4);
    let nf3 = count(Pattern::F3);
    let nb3 = count(Pattern::B3);
    let nf2 = count(Pattern::F2) + count(Pattern::F2A);
    if n5 > 0 {
        return Pattern4::Five;
    }
    if renju_black && (count(Pattern::Overline) > 0 || nf4 + nb4 + 2 * nd4 >= 2) {
        return Pattern4::Forbid;
    }
    if renju_black && nf3 >= 2 {
        // two free threes (whatever else): forbidden if two are real; the board decides
        return Pattern4::Flex3x2;
    }
    let fours = nf4 + nb4 + nd4;
    if nf4 > 0 || nd4 > 0 || fours >= 2 {
        return Pattern4::Flex4;
    }
    if nb4 > 0 {
        if nf3 > 0 {
            // renju Black with a four and two threes may be forbidden: leave it to the board
            return if renju_black && nf3 >= 2 {
                Pattern4::Flex3x2
            } else {
                Pattern4::Block4Flex3
            };
        }
        if nb3 > 0 || nf2 > 0 {
            return Pattern4::Block4Plus;
        }
        return Pattern4::Block4;
    }
    if nf3 >= 2 {
        return Pattern4::Flex3x2;
    }
    if nf3 == 1 {
        if nb3 > 0 || nf2 > 0 {
            return Pattern4::Flex3Plus;
        }
        return Pattern4::Flex3;
    }
    if nb3 >= 2 || (nb3 == 1 && nf2 > 0) {
        return Pattern4::Block3Plus;
    }
    if nf2 >= 2 {
        return Pattern4::Flex2x2;
    }
    if nb3 == 1 {
        return Pattern4::Block3;
    }
    if nf2 == 1 {
        return Pattern4::Flex2;
    }
    Pattern4::None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a key from a picture of the eleven window points, centre `*`:
    /// `O` black, `X` white, `#` wall, `.` empty.
    pub(crate) fn key_of(pic: &str) -> u32 {
        let chars: Vec<char> = pic.chars().collect();
        assert_eq!(chars.len(), 11, "{pic}");
        assert_eq!(chars[HALF], '*', "{pic}");
        let mut key = 0;
        for (i, ch) in chars.iter().enumerate() {
            if i == HALF {
                continue;
            }
            let v = match ch {
                '.' => EMPTY_BITS,
                'O' => BLACK_BITS,
                'X' => WHITE_BITS,
                '#' => WALL_BITS,
                _ => panic!("bad char in {pic}"),
            };
            key |= v << key_shift(i);
        }
        key
    }

    macro_rules! pattern_cases {
        ($($name:ident: $rule:ident, $pic:expr => $black:ident, $white:ident;)*) => {$(
            #[test]
            fn $name() {
                let key = key_of($pic);
                assert_eq!(lookup(Rule::$rule, Color::Black, key), Pattern::$black, "black {}", $pic);
                assert_eq!(lookup(Rule::$rule, Color::White, key), Pattern::$white, "white {}", $pic);
            }
        )*};
    }

    pattern_cases! {
        empty_line: Freestyle, ".....*....." => F1, F1;
        five_free: Freestyle, "...OO*OO..." => F5, Dead;
        six_free: Freestyle, "..OOO*OO..." => F5, Dead;
        six_standard: Standard, "..OOO*OO..." => Overline, Dead;
        six_renju_white_wins: Renju, "..XXX*XX..." => Dead, F5;
        six_renju_black_overline: Renju, "..OOO*OO..." => Overline, Dead;
        straight_four: Freestyle, "...OO*O...." => F4, Dead;
        blocked_four: Freestyle, "..XOO*O...." => B4, Dead;
        double_four_line_free: Freestyle, "..O.O*O.O.." => F4, Dead;
        double_four_line_renju: Renju, "..O.O*O.O.." => DoubleFourLine, Dead;
        free_three: Freestyle, "....O*O...." => F3, Dead;
        split_three: Freestyle, "...O.*O...." => F3, Dead;
        blocked_three: Freestyle, "...XO*O...." => B3, Dead;
        wall_blocks: Freestyle, "#####*OO..." => B3, Dead;
        edge_four: Freestyle, "####O*OO..." => B4, Dead;
        renju_three_to_overline: Renju, "O.OO.*....." => B3, F1;
        caro5_blocked_five: Caro5, "XOOOO*X...." => Dead, B2;
        caro5_open_five: Caro5, ".OOOO*X...." => F5, B2;
        caro6_six: Caro6, "..OOO*OO..." => F5, Dead;
    }

    #[test]
    fn renju_black_three_needs_exact_five() {
        // O.OO.*: the gap left of the centre would make six for renju Black, so only a blocked
        // three; in freestyle it is a free three.
        let key = key_of("O.OO.*.....");
        assert_eq!(lookup(Rule::Renju, Color::Black, key), Pattern::B3);
        assert_eq!(lookup(Rule::Freestyle, Color::Black, key), Pattern::F3);
    }

    #[test]
    fn completion_points() {
        // straight four completions for a free three: playing centre gives ..OO*.. -> .OOO.
        let key = key_of("....O*O....");
        let m = completion_offsets(Rule::Freestyle, Color::Black, key, Pattern::F4);
        let offs: Vec<i32> = (0..11)
            .filter(|b| m & (1 << b) != 0)
            .map(mask_bit_offset)
            .collect();
        assert_eq!(offs, vec![-2, 2]);
        let key = key_of("..XOO*O....");
        let m = completion_offsets(Rule::Freestyle, Color::Black, key, Pattern::F5);
        let offs: Vec<i32> = (0..11)
            .filter(|b| m & (1 << b) != 0)
            .map(mask_bit_offset)
            .collect();
        assert_eq!(offs, vec![2]);
    }

    #[test]
    fn combine_classes() {
        use Pattern::*;
        use Rule::{Freestyle, Renju};
        for (rule, color, lines, class) in [
            (
                Freestyle,
                Color::Black,
                [F5, Dead, Dead, Dead],
                Pattern4::Five,
            ),
            (
                Freestyle,
                Color::Black,
                [B4, B4, Dead, Dead],
                Pattern4::Flex4,
            ),
            (Renju, Color::Black, [B4, B4, Dead, Dead], Pattern4::Forbid),
            (Renju, Color::White, [B4, B4, Dead, Dead], Pattern4::Flex4),
            (
                Renju,
                Color::Black,
                [F5, Overline, Dead, Dead],
                Pattern4::Five,
            ),
            (Renju, Color::Black, [F3, F3, Dead, Dead], Pattern4::Flex3x2),
            (
                Renju,
                Color::Black,
                [B4, F3, Dead, Dead],
                Pattern4::Block4Flex3,
            ),
            (
                Freestyle,
                Color::White,
                [F2, B3, Dead, Dead],
                Pattern4::Block3Plus,
            ),
        ] {
            assert_eq!(
                combine(rule, color, lines),
                class,
                "{rule} {color} {lines:?}"
            );
        }
    }

    #[test]
    fn pcodes_are_dense_and_symmetric() {
        let t = pcode_tables();
        assert_eq!(t.patterns.len(), NUM_PCODES);
        use Pattern::*;
        assert_eq!(pcode_of([F3, B4, Dead, F1]), pcode_of([Dead, F1, F3, B4]));
    }

    #[test]
    fn compact_rule_tables_agree_with_the_kind_tables_on_every_board_window() {
        let (_, left_halves) = half_indices(false);
        let (_, right_halves) = half_indices(true);
        for rule in Rule::ALL {
            let t = rule_table(rule);
            let kb = kind_table(Kind::of(rule, Color::Black));
            let kw = kind_table(Kind::of(rule, Color::White));
            for &lh in &left_halves {
                for &rh in &right_halves {
                    let k = lh | (rh << 10);
                    let want = [kb.lvl[k as usize], kw.lvl[swap_colors(k) as usize]];
                    assert_eq!(t.get(k), want, "{rule:?} key {k:#x}");
                }
            }
            // at most 16 KB (caro has the most classes), so that it stays in the L1 cache
            assert!(
                t.packed.len() <= 128 * 128,
                "{rule:?}: {} bytes",
                t.packed.len()
            );
        }
    }
}
