//! The board: stones, side to move, history, Zobrist key, and the incrementally kept line
//! patterns and threat classes of every empty point.
//!
//! Layout: a padded `32 x 32` array (five wall points around the largest 22x22 board), so walking
//! up to five steps along any line from a board point never needs a bounds check. Each line of
//! each direction is also kept as a 64-bit word with two bits per point; the eleven-point window
//! around a point is a shift and a mask away, and indexes the pattern table of the rule.
//!
//! Make/unmake: a move changes the patterns of at most ten points on each of its four lines. The
//! old state of every point it changes goes on a stack, so unmake restores instead of
//! recomputing. Debug builds check the incremental state against a recomputation.

use crate::eval::{PcodeEntry, Tables};
use crate::notation::{check_size, format_pos, NotationError};
use crate::pattern::{
    pcode_tables, rule_table, Pattern, Pattern4, RuleTable, HALF, NUM_PATTERN4, NUM_PATTERNS,
};
use crate::types::{Cell, Color, Dir, Pos, Rule, DEFAULT_SIZE, NUM_CELLS, PAD, STRIDE};
use std::fmt;
use std::ops::ControlFlow;

mod forbidden;
pub use forbidden::ForbiddenKind;

const EMPTY: u8 = 0;
const WALL: u8 = 3;

/// Number of line words per direction (enough for the 63 diagonals of the padded array).
const LINE_IDS: usize = 64;

/// Per-point pattern state (for occupied points: all [`Pattern::Dead`]). Sixteen bytes, aligned,
/// so that saving and restoring it are single moves; it carries its own point index, so a saved
/// copy is all that unmake needs to put it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(16))]
struct PointInfo {
    /// Line pattern per direction and colour (both colours of a direction compare at once).
    pat: [[u8; 2]; 4],
    /// The four direction patterns per colour as a base-13 number (direction 0 most
    /// significant); indexes the pcode tables.
    code: [u16; 2],
    /// Threat class per colour.
    p4: [Pattern4; 2],
    /// Index of the point this is the state of.
    pos: u16,
}

impl PointInfo {
    /// The state of an occupied point (or a point without patterns) at index `i`.
    const fn neutral(i: usize) -> PointInfo {
        PointInfo {
            pat: [[0; 2]; 4],
            code: [0; 2],
            p4: [Pattern4::None; 2],
            pos: i as u16,
        }
    }
}

/// Entries of `Board::near_rows` before the one of board row 0.
const NEAR_ROW_PAD: usize = 3;
const _: () = assert!(crate::types::MAX_SIZE + 2 * NEAR_ROW_PAD <= STRIDE);

/// `0b01` in every two-bit field of a line word: the low bit of each point.
const LOW_BITS: u64 = 0x5555_5555_5555_5555;

/// Weight of each direction's pattern in a point's base-13 code.
const CODE_WEIGHT: [i32; 4] = [
    (NUM_PATTERNS * NUM_PATTERNS * NUM_PATTERNS) as i32,
    (NUM_PATTERNS * NUM_PATTERNS) as i32,
    NUM_PATTERNS as i32,
    1,
];

/// What one made move (or pass) changed, for unmake.
#[derive(Clone, Copy, Debug)]
struct PlyState {
    pos: Pos,
    color: Color,
    prev_to_move: Color,
    saved_start: u32,
    value: [i32; 2],
    rect: [u8; 4],
    p4_count: [[u16; NUM_PATTERN4]; 2],
    /// `near_rows` of the seven rows around the move, before it.
    near_saved: [u32; 7],
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The point is outside the board.
    OffBoard(Pos),
    /// The point already holds a stone.
    Occupied(Pos),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::OffBoard(p) => write!(f, "{p:?} is off the board"),
            MoveError::Occupied(p) => write!(f, "{p:?} is already occupied"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Zobrist keys: one per colour and padded point, plus the side to move. Built at compile time
/// from a fixed seed so node counts are reproducible.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const ZOBRIST: [[u64; NUM_CELLS]; 2] = {
    let mut t = [[0u64; NUM_CELLS]; 2];
    let mut s = 0x0123_4567_89AB_CDEFu64;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < NUM_CELLS {
            let (ns, v) = splitmix(s);
            s = ns;
            t[c][i] = v;
            i += 1;
        }
        c += 1;
    }
    t
};
const SIDE_KEY: u64 = splitmix(0xDEAD_BEEF).1;

/// Offsets of the neighbourhood that makes an empty point a move candidate: the 5x5 square and
/// the points three steps away on the four lines.
const NEAR_OFFSETS: [i32; 32] = {
    let mut t = [0i32; 32];
    let mut n = 0;
    let mut dy = -3i32;
    while dy <= 3 {
        let mut dx = -3i32;
        while dx <= 3 {
            let ax = if dx < 0 { -dx } else { dx };
            let ay = if dy < 0 { -dy } else { dy };
            let inner = ax <= 2 && ay <= 2;
            let line3 = (ax == 3 || ay == 3) && (ax == 0 || ay == 0 || ax == ay);
            if (inner || line3) && !(dx == 0 && dy == 0) {
                t[n] = dy * STRIDE as i32 + dx;
                n += 1;
            }
            dx += 1;
        }
        dy += 1;
    }
    t
};

/// [`NEAR_OFFSETS`] as a bit mask per row (dy = -3..=3), bit `dx + 3` set (the point itself
/// included: it is removed as occupied).
const NEAR_ROW_SHAPES: [u8; 7] = {
    let mut rows = [0u8; 7];
    let mut n = 0;
    while n < NEAR_OFFSETS.len() {
        let o = NEAR_OFFSETS[n] + 3 * STRIDE as i32 + 3;
        let (r, c) = (o / STRIDE as i32, o % STRIDE as i32);
        rows[r as usize] |= 1 << c;
        n += 1;
    }
    rows
};

#[inline]
fn line_id(d: usize, i: usize) -> (usize, u32) {
    let (x, y) = (i % STRIDE, i / STRIDE);
    match d {
        0 => (y, x as u32),
        1 => (x, y as u32),
        2 => (x + STRIDE - 1 - y, y as u32),
        _ => (x + y, y as u32),
    }
}

/// Where a new stone sits, for [`update_line`]: its index `i`, the direction `d` of the line,
/// its offset `off` in the line word, and how far along the line it changes patterns.
#[derive(Clone, Copy)]
struct LineMove {
    i: usize,
    d: usize,
    off: u32,
    reach: u32,
}

/// Looks up the new patterns of the empty points within reach of a new stone on its line word
/// `line`, and stores those that changed (their old state goes on `saved` first, and the threat
/// class counts follow). Returns the change of each colour's value sum.
///
/// A free function so that the tables, the point infos and the stacks are separate borrows: the
/// compiler then keeps their addresses in registers across the stores of the loop.
#[inline(always)]
fn update_line(
    info: &mut [PointInfo; NUM_CELLS],
    saved: &mut Vec<PointInfo>,
    p4_count: &mut [[u16; NUM_PATTERN4]; 2],
    table: &RuleTable,
    entry: &[&[PcodeEntry]; 2],
    line: u64,
    mv: LineMove,
) -> [i32; 2] {
    let LineMove { i, d, off, reach } = mv;
    let step = Dir::ALL[d].offset() as isize;
    // the index of the point at offset 0 of the line (off the board, but the sum is not)
    let base = i as isize - off as isize * step;
    let mut dv = [0i32; 2];
    // bit 2t set when the point at offset t is empty (walls and stones have a high bit set);
    // the points from off - reach to off + reach (board points are at offsets PAD or more)
    let empty = !(line | (line >> 1)) & LOW_BITS;
    let span = ((1u64 << (4 * reach + 2)) - 1) << (2 * (off - reach));
    let mut todo = empty & span;
    while todo != 0 {
        let b = todo.trailing_zeros();
        todo &= todo - 1;
        // the eleven points centred on offset t = b / 2 (t >= PAD, so the shift is in range),
        // without the centre
        let k22 = (line >> (b - 2 * HALF as u32)) as u32 & 0x3F_FFFF;
        let new = table.get((k22 & 0x3FF) | ((k22 >> 12) << 10));
        let q = (base + (b / 2) as isize * step) as usize;
        let inf = &mut info[q % NUM_CELLS];
        if inf.pat[d] == new {
            continue;
        }
        saved.push(*inf);
        for col in 0..2 {
            let (old_p, new_p) = (inf.pat[d][col], new[col]);
            if old_p != new_p {
                inf.pat[d][col] = new_p;
                let old_code = inf.code[col];
                let code = (i32::from(old_code)
                    + (i32::from(new_p) - i32::from(old_p)) * CODE_WEIGHT[d])
                    as u16;
                // Safety: codes are base-13 numbers of four patterns below 13, so below 13^4,
                // the length of the entry tables.
                let (e_new, e_old) = unsafe {
                    (
                        *entry[col].get_unchecked(code as usize),
                        *entry[col].get_unchecked(old_code as usize),
                    )
                };
                dv[col] += i32::from(e_new.value) - i32::from(e_old.value);
                inf.code[col] = code;
                if inf.p4[col] != e_new.p4 {
                    p4_count[col][inf.p4[col] as usize] -= 1;
                    p4_count[col][e_new.p4 as usize] += 1;
                    inf.p4[col] = e_new.p4;
                }
            }
        }
    }
    dv
}

/// A Gomoku/Renju board with incremental pattern bookkeeping.
#[derive(Clone)]
pub struct Board {
    size: usize,
    rule: Rule,
    tables: &'static Tables,
    entry: [&'static [PcodeEntry]; 2],
    pat_table: &'static RuleTable,
    pcode_index: &'static [u16],
    cells: [u8; NUM_CELLS],
    lines: [[u64; LINE_IDS]; 4],
    info: Box<[PointInfo; NUM_CELLS]>,
    key: u64,
    to_move: Color,
    moves: Vec<Pos>,
    plies: Vec<PlyState>,
    /// The old info of every point a ply changed (each knows its point).
    saved: Vec<PointInfo>,
    value: [i32; 2],
    stones: usize,
    /// Bounding rectangle (x0, y0, x1, y1, inclusive) of candidate points; x0 > x1 when empty.
    rect: [u8; 4],
    /// Per board row, bit x set when point (x, y) is near a stone (candidates are these bits
    /// minus the occupied ones). Row y is at `y + NEAR_ROW_PAD`, so that the seven rows around
    /// any stone are in the array; the rows off the board are never read.
    near_rows: [u32; STRIDE],
    /// Per board row, bit x set when point (x, y) holds a stone.
    stone_rows: [u32; STRIDE],
    /// Number of empty points of each threat class, per colour.
    p4_count: [[u16; NUM_PATTERN4]; 2],
    /// How far along a line a stone changes patterns: 4 in freestyle (fives or more count, so
    /// the point past a five is irrelevant), 5 under rules that judge overlines or blocked ends.
    reach: usize,
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Board({} {}x{}: {})",
            self.rule,
            self.size,
            self.size,
            self.position_string()
        )
    }
}

impl Board {
    /// An empty board of `size` under `rule`, with the default evaluation tables.
    ///
    /// # Errors
    /// [`NotationError::SizeOutOfRange`] unless 5 <= size <= 22.
    pub fn new(size: usize, rule: Rule) -> Result<Board, NotationError> {
        Board::with_tables(size, Tables::default_for(rule))
    }

    /// An empty 15x15 board under `rule`.
    #[must_use]
    pub fn standard_size(rule: Rule) -> Board {
        Board::with_tables(DEFAULT_SIZE, Tables::default_for(rule)).expect("15 is a valid size")
    }

    /// An empty board using evaluation tables of the caller's (for tuning). The rule is the
    /// tables' rule.
    ///
    /// # Errors
    /// [`NotationError::SizeOutOfRange`] unless 5 <= size <= 22.
    pub fn with_tables(size: usize, tables: &'static Tables) -> Result<Board, NotationError> {
        check_size(size)?;
        let rule = tables.rule;
        let mut b = Board {
            size,
            rule,
            tables,
            entry: [&tables.entry[0], &tables.entry[1]],
            pat_table: rule_table(rule),
            pcode_index: &pcode_tables().index,
            cells: [WALL; NUM_CELLS],
            lines: [[u64::MAX; LINE_IDS]; 4],
            info: Box::new(std::array::from_fn(PointInfo::neutral)),
            key: 0,
            to_move: Color::Black,
            moves: Vec::with_capacity(size * size + 64),
            plies: Vec::with_capacity(size * size + 64),
            saved: Vec::with_capacity(48 * (size * size + 64)),
            value: [0; 2],
            stones: 0,
            rect: [u8::MAX, u8::MAX, 0, 0],
            near_rows: [0; STRIDE],
            stone_rows: [0; STRIDE],
            p4_count: [[0; NUM_PATTERN4]; 2],
            reach: if rule == Rule::Freestyle {
                HALF - 1
            } else {
                HALF
            },
        };
        for y in 0..size {
            for x in 0..size {
                let i = Pos::new(x, y).index();
                b.cells[i] = EMPTY;
                for d in 0..4 {
                    let (id, off) = line_id(d, i);
                    b.lines[d][id] &= !(3u64 << (2 * off));
                }
            }
        }
        b.recompute_all_points();
        Ok(b)
    }

    /// Board size (the board is `size x size`).
    #[inline]
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The rule.
    #[inline]
    #[must_use]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The evaluation tables in use.
    #[inline]
    #[must_use]
    pub fn tables(&self) -> &'static Tables {
        self.tables
    }

    /// The side to move.
    #[inline]
    #[must_use]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The 64-bit Zobrist key of stones and side to move.
    #[inline]
    #[must_use]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key the board would have after the side to move plays `p` (without playing it).
    #[inline]
    #[must_use]
    pub fn key_after(&self, p: Pos) -> u64 {
        self.key ^ ZOBRIST[self.to_move.index()][p.index()] ^ SIDE_KEY
    }

    /// Moves played so far (passes included), in order.
    #[inline]
    #[must_use]
    pub fn moves(&self) -> &[Pos] {
        &self.moves
    }

    /// Number of moves (and passes) played.
    #[inline]
    #[must_use]
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Number of stones on the board.
    #[inline]
    #[must_use]
    pub fn stone_count(&self) -> usize {
        self.stones
    }

    /// Whether every point is occupied.
    #[inline]
    #[must_use]
    pub fn is_full(&self) -> bool {
        self.stones == self.size * self.size
    }

    /// The last move played (not a pass), if any.
    #[must_use]
    pub fn last_move(&self) -> Option<Pos> {
        self.moves.iter().rev().find(|p| p.is_point()).copied()
    }

    /// The point at column `x`, row `y` (0-based, `y` from the top), if on the board.
    #[must_use]
    pub fn pos(&self, x: usize, y: usize) -> Option<Pos> {
        (x < self.size && y < self.size).then(|| Pos::new(x, y))
    }

    /// Whether `p` is a point of this board.
    #[inline]
    #[must_use]
    pub fn contains(&self, p: Pos) -> bool {
        p.is_point() && p.index() < NUM_CELLS && self.cells[p.index()] != WALL
    }

    /// All points of the board, row by row from the top.
    pub fn points(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.size).flat_map(move |y| (0..self.size).map(move |x| Pos::new(x, y)))
    }

    /// The image of `p` under the board symmetry `t` (0..8: the identity, the mirrors and
    /// the rotations of the square board about its centre).
    #[must_use]
    pub fn transform(&self, p: Pos, t: usize) -> Pos {
        let n = self.size - 1;
        let (x, y) = (p.x(), p.y());
        let (x, y) = if t & 4 != 0 { (y, x) } else { (x, y) };
        let x = if t & 1 != 0 { n - x } else { x };
        let y = if t & 2 != 0 { n - y } else { y };
        Pos::new(x, y)
    }

    /// The symmetries of the square board (as numbers for [`Board::transform`]) that map every
    /// stone onto a stone of the same colour: positions related by them have the same value,
    /// under every rule. Always holds the identity, 0.
    #[must_use]
    pub fn symmetries(&self) -> Vec<usize> {
        // the stones are the points of the moves played (passes aside)
        let stones = || self.moves.iter().filter(|p| p.is_point());
        (0..8)
            .filter(|&t| stones().all(|&p| self.cell(self.transform(p, t)) == self.cell(p)))
            .collect()
    }

    /// What is on point `p`.
    #[inline]
    #[must_use]
    pub fn cell(&self, p: Pos) -> Cell {
        match self.cells[p.index()] {
            EMPTY => Cell::Empty,
            1 => Cell::Stone(Color::Black),
            2 => Cell::Stone(Color::White),
            _ => Cell::Wall,
        }
    }

    /// Whether `p` is an empty point of the board.
    #[inline]
    #[must_use]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.cells[p.index()] == EMPTY
    }

    /// The line pattern `color` would get by playing the empty point `p`, in direction `d`.
    #[inline]
    #[must_use]
    pub fn pattern(&self, p: Pos, color: Color, d: Dir) -> Pattern {
        Pattern::from_u8(self.info[p.index()].pat[d.index()][color.index()])
    }

    /// The four line patterns of `color` at `p`.
    #[inline]
    #[must_use]
    pub fn patterns(&self, p: Pos, color: Color) -> [Pattern; 4] {
        self.info[p.index()]
            .pat
            .map(|pair| Pattern::from_u8(pair[color.index()]))
    }

    /// The threat class of `p` for `color` (see [`Pattern4`]). For renju Black, unconfirmed
    /// double threes are [`Pattern4::Flex3x2`]; [`Board::is_forbidden`] decides them.
    #[inline]
    #[must_use]
    pub fn threat(&self, p: Pos, color: Color) -> Pattern4 {
        self.info[p.index()].p4[color.index()]
    }

    /// The pcode (index of the sorted four patterns) of `p` for `color`.
    #[inline]
    #[must_use]
    pub fn pcode(&self, p: Pos, color: Color) -> usize {
        self.pcode_index[self.info[p.index()].code[color.index()] as usize] as usize
    }

    /// Number of empty points where `color` has threat class `class` (kept incrementally).
    #[inline]
    #[must_use]
    pub fn threat_count(&self, color: Color, class: Pattern4) -> u32 {
        u32::from(self.p4_count[color.index()][class as usize])
    }

    /// Number of empty points where `color` has a threat class of at least `class`.
    #[inline]
    #[must_use]
    pub fn threat_count_at_least(&self, color: Color, class: Pattern4) -> u32 {
        self.p4_count[color.index()][class as usize..]
            .iter()
            .map(|&n| u32::from(n))
            .sum()
    }

    /// Sum of the point values of `color` over all empty points (kept incrementally).
    #[inline]
    #[must_use]
    pub fn value_sum(&self, color: Color) -> i32 {
        self.value[color.index()]
    }

    /// The value sums before the last move (or pass), if any: the board one ply ago.
    #[inline]
    #[must_use]
    pub fn previous_value_sum(&self, color: Color) -> Option<i32> {
        self.plies.last().map(|st| st.value[color.index()])
    }

    /// The last move of `color` (not a pass), if any.
    #[must_use]
    pub fn last_move_of(&self, color: Color) -> Option<Pos> {
        self.plies
            .iter()
            .rev()
            .find(|st| st.color == color && st.pos.is_point())
            .map(|st| st.pos)
    }

    /// The move (or pass) played `back` plies ago (0 = the last one).
    #[inline]
    #[must_use]
    pub fn move_back(&self, back: usize) -> Option<Pos> {
        self.moves
            .len()
            .checked_sub(back + 1)
            .map(|i| self.moves[i])
    }

    /// Whether `p` is an empty point near some stone.
    #[inline]
    #[must_use]
    pub fn is_candidate(&self, p: Pos) -> bool {
        self.cells[p.index()] == EMPTY && self.near_rows[p.y() + NEAR_ROW_PAD] & (1 << p.x()) != 0
    }

    /// The window key (ten neighbours, two bits each) of point `p` in direction `d`.
    #[inline]
    #[must_use]
    pub fn window_key(&self, p: Pos, d: Dir) -> u32 {
        let (id, off) = line_id(d.index(), p.index());
        let k22 = (self.lines[d.index()][id] >> (2 * (off - HALF as u32))) as u32 & 0x3F_FFFF;
        (k22 & 0x3FF) | ((k22 >> 12) << 10)
    }

    /// The shape key of the nine points centred on `p` along `d`: two bits a point (0 empty,
    /// 1 black, 2 white, 3 off the board), the point four steps back in the lowest bits (the
    /// network's input, [`crate::nnue::shape`]).
    #[inline]
    #[must_use]
    pub fn shape_key(&self, p: Pos, d: Dir) -> u32 {
        let (id, off) = line_id(d.index(), p.index());
        (self.lines[d.index()][id] >> (2 * (off - crate::nnue::shape::REACH as u32))) as u32
            & (crate::nnue::shape::NUM_KEYS as u32 - 1)
    }

    /// Calls `f` for every empty point near a stone (the move candidates). On an empty board
    /// there are none; callers usually play the centre then.
    #[inline]
    pub fn for_each_candidate(&self, mut f: impl FnMut(Pos)) {
        let _: ControlFlow<()> = self.try_for_each_candidate(|p| {
            f(p);
            ControlFlow::Continue(())
        });
    }

    /// Calls `f` for the move candidates in the order of [`Board::for_each_candidate`] until it
    /// breaks, and returns the break.
    #[inline]
    pub fn try_for_each_candidate<B>(
        &self,
        mut f: impl FnMut(Pos) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let [x0, y0, x1, y1] = self.rect;
        if x0 > x1 {
            return ControlFlow::Continue(());
        }
        for y in y0 as usize..=y1 as usize {
            let mut bits = self.near_rows[y + NEAR_ROW_PAD] & !self.stone_rows[y];
            let row = (y + PAD) * STRIDE + PAD;
            while bits != 0 {
                let x = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                f(Pos((row + x) as u16))?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The centre point (where the first move usually goes).
    #[must_use]
    pub fn centre(&self) -> Pos {
        Pos::new(self.size / 2, self.size / 2)
    }

    // -----------------------------------------------------------------------------------------
    // Playing moves.

    /// Plays a stone of the side to move on `p`.
    ///
    /// # Panics
    /// If `p` is off the board or occupied. See [`Board::try_play`] for the fallible version and
    /// [`Board::play_unchecked`] for the search hot path.
    pub fn play(&mut self, p: Pos) {
        if let Err(e) = self.try_play(p) {
            panic!("illegal move: {e}");
        }
    }

    /// Plays a stone of the side to move on `p`, or says why it cannot be played. This checks
    /// the point only: game-level rules (game over, renju fouls) live in [`crate::Game`].
    ///
    /// # Errors
    /// [`MoveError::OffBoard`] or [`MoveError::Occupied`]; the board is unchanged then.
    pub fn try_play(&mut self, p: Pos) -> Result<(), MoveError> {
        if !self.contains(p) {
            return Err(MoveError::OffBoard(p));
        }
        if !self.is_empty(p) {
            return Err(MoveError::Occupied(p));
        }
        self.play_unchecked(p);
        Ok(())
    }

    /// Plays a stone of the side to move on `p` without checks (the search hot path). `p` must be
    /// an empty point of the board (checked by a debug assertion). See [`Board::play`].
    #[inline]
    pub fn play_unchecked(&mut self, p: Pos) {
        debug_assert!(
            self.contains(p) && self.is_empty(p),
            "play_unchecked on {p:?}"
        );
        self.put(p, self.to_move);
    }

    /// Passes: the other side is to move (used to set up diagrams).
    pub fn pass(&mut self) {
        let color = self.to_move;
        self.plies.push(PlyState {
            pos: Pos::PASS,
            color,
            prev_to_move: color,
            saved_start: self.saved.len() as u32,
            value: self.value,
            rect: self.rect,
            p4_count: self.p4_count,
            near_saved: [0; 7],
        });
        self.moves.push(Pos::PASS);
        self.to_move = color.opponent();
        self.key ^= SIDE_KEY;
    }

    /// Takes back the last move or pass, returning it (`None` at the start).
    pub fn undo(&mut self) -> Option<Pos> {
        let st = self.plies.pop()?;
        self.moves.pop();
        if st.pos.is_pass() {
            self.to_move = st.prev_to_move;
            self.key ^= SIDE_KEY;
            return Some(st.pos);
        }
        self.take(st);
        Some(st.pos)
    }

    /// Places a stone of `color` on the empty point `p` and updates everything. The side to move
    /// becomes `color`'s opponent.
    fn put(&mut self, p: Pos, color: Color) {
        let i = p.index();
        let c = color.index();
        let prev_to_move = self.to_move;
        self.plies.push(PlyState {
            pos: p,
            color,
            prev_to_move,
            saved_start: self.saved.len() as u32,
            value: self.value,
            rect: self.rect,
            p4_count: self.p4_count,
            near_saved: self.near_rows_around(p.y()),
        });
        self.moves.push(p);

        // The point itself leaves the evaluation.
        let old = self.info[i];
        self.saved.push(old);
        self.value[0] -= i32::from(self.entry[0][old.code[0] as usize].value);
        self.value[1] -= i32::from(self.entry[1][old.code[1] as usize].value);
        self.info[i] = PointInfo::neutral(i);
        self.p4_count[0][old.p4[0] as usize] -= 1;
        self.p4_count[1][old.p4[1] as usize] -= 1;

        let bits = c as u64 + 1;
        self.cells[i] = bits as u8;
        self.key ^= ZOBRIST[c][i];
        let next = color.opponent();
        if next != prev_to_move {
            self.key ^= SIDE_KEY;
        }
        self.to_move = next;
        self.stones += 1;

        // Update the four line words and the patterns of the empty points around the move on
        // each line.
        let mut dv = [0i32; 2];
        for d in 0..4 {
            let (id, off) = line_id(d, i);
            self.lines[d][id] |= bits << (2 * off);
            let dvd = update_line(
                &mut self.info,
                &mut self.saved,
                &mut self.p4_count,
                self.pat_table,
                &self.entry,
                self.lines[d][id],
                LineMove {
                    i,
                    d,
                    off,
                    reach: self.reach as u32,
                },
            );
            dv[0] += dvd[0];
            dv[1] += dvd[1];
        }
        self.value[0] += dv[0];
        self.value[1] += dv[1];
        self.mark_near_rows(p);
        self.grow_rect(p);
        #[cfg(debug_assertions)]
        self.debug_check_local(p);
    }

    /// Removes the stone of the last ply (the inverse of [`Board::put`]).
    fn take(&mut self, st: PlyState) {
        let i = st.pos.index();
        let c = st.color.index();
        // each point is saved at most once per ply, so the order of restoring does not matter
        let start = st.saved_start as usize;
        for inf in &self.saved[start..] {
            // a sixteen-byte block copy (a plain assignment is split into field moves)
            std::slice::from_mut(&mut self.info[usize::from(inf.pos) % NUM_CELLS])
                .copy_from_slice(std::slice::from_ref(inf));
        }
        self.saved.truncate(start);
        self.value = st.value;
        self.rect = st.rect;
        self.restore_near_rows(st.pos.y(), st.near_saved);
        self.stone_rows[st.pos.y()] &= !(1 << st.pos.x());
        self.p4_count = st.p4_count;
        let bits = c as u64 + 1;
        self.cells[i] = EMPTY;
        for d in 0..4 {
            let (id, off) = line_id(d, i);
            self.lines[d][id] &= !(bits << (2 * off));
        }
        self.key ^= ZOBRIST[c][i];
        if st.prev_to_move != self.to_move {
            self.key ^= SIDE_KEY;
        }
        self.to_move = st.prev_to_move;
        self.stones -= 1;
        #[cfg(debug_assertions)]
        self.debug_check_local(st.pos);
    }

    /// The `near_rows` entries of board rows `y - 3..=y + 3`.
    fn near_rows_around(&self, y: usize) -> [u32; 7] {
        // row y - 3 is at index y - 3 + NEAR_ROW_PAD = y
        self.near_rows[y..y + 7]
            .try_into()
            .expect("seven rows around a board row")
    }

    fn restore_near_rows(&mut self, y: usize, saved: [u32; 7]) {
        self.near_rows[y..y + 7].copy_from_slice(&saved);
    }

    /// Marks the neighbourhood of a new stone as near, and the point as occupied.
    fn mark_near_rows(&mut self, p: Pos) {
        let (x, y) = (p.x(), p.y());
        let width = (1u64 << self.size) - 1;
        // board row y + k - 3 is at index y + k
        for (row, &shape) in self.near_rows[y..y + 7].iter_mut().zip(&NEAR_ROW_SHAPES) {
            // shape bit j is dx = j - 3
            *row |= (((u64::from(shape) << x) >> 3) & width) as u32;
        }
        self.stone_rows[y] |= 1 << x;
    }

    fn grow_rect(&mut self, p: Pos) {
        let m = self.size as i32 - 1;
        let (x, y) = (p.x() as i32, p.y() as i32);
        let x0 = (x - 3).max(0) as u8;
        let y0 = (y - 3).max(0) as u8;
        let x1 = (x + 3).min(m) as u8;
        let y1 = (y + 3).min(m) as u8;
        if self.rect[0] > self.rect[2] {
            self.rect = [x0, y0, x1, y1];
        } else {
            self.rect[0] = self.rect[0].min(x0);
            self.rect[1] = self.rect[1].min(y0);
            self.rect[2] = self.rect[2].max(x1);
            self.rect[3] = self.rect[3].max(y1);
        }
    }

    /// The pattern info of an empty point computed from scratch.
    fn fresh_info(&self, i: usize) -> PointInfo {
        let mut inf = PointInfo::neutral(i);
        if self.cells[i] != EMPTY {
            return inf;
        }
        let p = Pos(i as u16);
        for d in Dir::ALL {
            inf.pat[d.index()] = self.pat_table.get(self.window_key(p, d));
        }
        for col in 0..2 {
            let code: i32 = (0..4)
                .map(|d| i32::from(inf.pat[d][col]) * CODE_WEIGHT[d])
                .sum();
            inf.code[col] = code as u16;
            inf.p4[col] = self.entry[col][code as usize].p4;
        }
        inf
    }

    fn recompute_all_points(&mut self) {
        self.value = [0; 2];
        self.p4_count = [[0; NUM_PATTERN4]; 2];
        for i in 0..NUM_CELLS {
            let inf = self.fresh_info(i);
            self.info[i] = inf;
            if self.cells[i] == EMPTY {
                self.p4_count[0][inf.p4[0] as usize] += 1;
                self.p4_count[1][inf.p4[1] as usize] += 1;
            }
            for col in 0..2 {
                self.value[col] += i32::from(self.entry[col][inf.code[col] as usize].value);
            }
        }
    }

    /// Debug builds: after each make/unmake, the points on the four lines through the move must
    /// match a recomputation; every 256th ply, the whole board is checked.
    #[cfg(debug_assertions)]
    fn debug_check_local(&self, p: Pos) {
        for d in Dir::ALL {
            for k in -(HALF as i32)..=(HALF as i32) {
                let q = p.step(d, k).index();
                debug_assert_eq!(
                    self.info[q],
                    self.fresh_info(q),
                    "pattern drift at {q} after {p:?}"
                );
            }
        }
        if self.moves.len() % 256 == 0 {
            if let Err(e) = self.validate() {
                panic!("incremental state drifted: {e}");
            }
        }
    }

    /// Checks every incrementally kept quantity (line words, patterns, threat classes, value
    /// sums, Zobrist key, candidate counts) against a board rebuilt from the stones alone.
    ///
    /// # Errors
    /// A description of the first difference found.
    pub fn validate(&self) -> Result<(), String> {
        let fresh = self.rebuilt();
        if fresh.key != self.key {
            return Err(format!(
                "zobrist key differs: {:x} vs {:x}",
                self.key, fresh.key
            ));
        }
        if self.lines != fresh.lines {
            return Err("line words differ".into());
        }
        for i in 0..NUM_CELLS {
            let a = self.info[i];
            let b = self.fresh_info(i);
            if a != b {
                return Err(format!(
                    "point {:?}: incremental {a:?} vs fresh {b:?}",
                    Pos(i as u16)
                ));
            }
        }
        let mut sums = [0i32; 2];
        for i in 0..NUM_CELLS {
            for (col, s) in sums.iter_mut().enumerate() {
                *s += i32::from(self.entry[col][self.info[i].code[col] as usize].value);
            }
        }
        if sums != self.value {
            return Err(format!(
                "value sums {:?} vs recomputed {sums:?}",
                self.value
            ));
        }
        let board_rows = NEAR_ROW_PAD..NEAR_ROW_PAD + self.size;
        if self.near_rows[board_rows.clone()] != fresh.near_rows[board_rows]
            || self.stone_rows[..self.size] != fresh.stone_rows[..self.size]
        {
            return Err("candidate rows differ".into());
        }
        if self.stones != fresh.stones {
            return Err("stone count differs".into());
        }
        Ok(())
    }

    /// A board with the same stones and side to move, every derived quantity computed from
    /// scratch (no history).
    fn rebuilt(&self) -> Board {
        let mut b = Board::with_tables(self.size, self.tables).expect("size already checked");
        for i in 0..NUM_CELLS {
            let v = self.cells[i];
            if v == EMPTY || v == WALL {
                continue;
            }
            let c = v as usize - 1;
            b.cells[i] = v;
            b.key ^= ZOBRIST[c][i];
            b.stones += 1;
            for d in 0..4 {
                let (id, off) = line_id(d, i);
                b.lines[d][id] |= (v as u64) << (2 * off);
            }
            b.mark_near_rows(Pos(i as u16));
        }
        b.to_move = self.to_move;
        if b.to_move == Color::White {
            b.key ^= SIDE_KEY;
        }
        b.recompute_all_points();
        b
    }

    // -----------------------------------------------------------------------------------------
    // Rules.

    /// Whether `color` playing the empty point `p` makes a winning five under the rule.
    #[inline]
    #[must_use]
    pub fn makes_five(&self, p: Pos, color: Color) -> bool {
        self.threat(p, color) == Pattern4::Five
    }

    /// If the stone on `p` is part of a winning five (per the rule), the points of that line in
    /// order; otherwise `None`.
    #[must_use]
    pub fn winning_line(&self, p: Pos) -> Option<Vec<Pos>> {
        let Cell::Stone(color) = self.cell(p) else {
            return None;
        };
        let own = color.index() as u8 + 1;
        for d in Dir::ALL {
            let mut a = p;
            while self.cells[a.step(d, -1).index()] == own {
                a = a.step(d, -1);
            }
            let mut b = p;
            while self.cells[b.step(d, 1).index()] == own {
                b = b.step(d, 1);
            }
            let len = ((b.index() - a.index()) as i32 / d.offset()) as usize + 1;
            if len < 5 {
                continue;
            }
            let opp = |q: Pos| {
                let v = self.cells[q.index()];
                v != EMPTY && v != WALL && v != own
            };
            let blocked_both = opp(a.step(d, -1)) && opp(b.step(d, 1));
            let wins = match (self.rule, color) {
                (Rule::Freestyle, _) | (Rule::Renju, Color::White) => true,
                (Rule::Standard, _) | (Rule::Renju, Color::Black) => len == 5,
                (Rule::Caro5, _) => len == 5 && !blocked_both,
                (Rule::Caro6, _) => len > 5 || !blocked_both,
            };
            if wins {
                return Some((0..len as i32).map(|k| a.step(d, k)).collect());
            }
        }
        None
    }

    /// Whether the side to move has a legal point outside `excluded` (an empty point, not
    /// renju-forbidden for Black): whether a search told to leave those out has a move.
    pub fn has_move_outside(&mut self, excluded: &[Pos]) -> bool {
        let black = self.to_move == Color::Black;
        let points: Vec<Pos> = self.points().collect();
        points
            .into_iter()
            .any(|p| self.is_empty(p) && !excluded.contains(&p) && !(black && self.is_forbidden(p)))
    }

    // -----------------------------------------------------------------------------------------
    // Text.

    /// The moves as a position string (`h8 i9 -- j10`).
    #[must_use]
    pub fn position_string(&self) -> String {
        crate::notation::format_moves(&self.moves, self.size)
    }

    /// The board drawn as text: column letters, row numbers from the bottom, `X` Black, `O`
    /// White, the last move in brackets, and optional marks on empty points.
    #[must_use]
    pub fn to_text(&self, marks: &[(Pos, char)]) -> String {
        let mut s = String::new();
        let header: String = (0..self.size)
            .map(|x| format!(" {}", (b'a' + x as u8) as char))
            .collect();
        s.push_str("   ");
        s.push_str(&header);
        s.push('\n');
        let last = self.last_move();
        for y in 0..self.size {
            let row = self.size - y;
            s.push_str(&format!("{row:>2} "));
            for x in 0..self.size {
                let p = Pos::new(x, y);
                let ch = match self.cell(p) {
                    Cell::Stone(Color::Black) => 'X',
                    Cell::Stone(Color::White) => 'O',
                    _ => marks.iter().find(|(q, _)| *q == p).map_or('.', |m| m.1),
                };
                let is_last = last == Some(p);
                let prev_last = x > 0 && last == Some(Pos::new(x - 1, y));
                s.push(if is_last {
                    '['
                } else if prev_last {
                    ']'
                } else {
                    ' '
                });
                s.push(ch);
            }
            s.push(if last == Some(Pos::new(self.size - 1, y)) {
                ']'
            } else {
                ' '
            });
            s.push_str(&format!("{row:>2}\n"));
        }
        s.push_str("   ");
        s.push_str(&header);
        s.push('\n');
        s
    }

    /// Formats a point of this board in `h8` style.
    #[must_use]
    pub fn fmt_pos(&self, p: Pos) -> String {
        format_pos(p, self.size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_moves;

    fn board(rule: Rule, moves: &str) -> Board {
        let mut b = Board::new(15, rule).unwrap();
        for p in parse_moves(moves, 15).unwrap() {
            if p.is_pass() {
                b.pass();
            } else {
                b.play(p);
            }
        }
        b
    }

    #[test]
    fn symmetries_are_those_that_map_the_stones_onto_themselves() {
        let cases = [
            ("", 8),
            ("h8", 8),
            ("h8 i9", 2),
            ("h8 h9", 2),
            ("h8 i9 j10", 2),
            ("h8 h7 j6 i7 f7", 1),
            ("a1", 2),
            ("h8 i8 h9 g8", 2),
            ("h8 i8 g8 h9", 1),
        ];
        for (moves, n) in cases {
            let b = board(Rule::Freestyle, moves);
            let sym = b.symmetries();
            assert_eq!(sym.len(), n, "{moves}: {sym:?}");
            assert_eq!(sym[0], 0, "the identity comes first");
            for &t in &sym {
                for p in b.points() {
                    let q = b.transform(p, t);
                    assert_eq!(b.cell(q), b.cell(p), "{moves}: {p:?} -> {q:?} under {t}");
                }
            }
        }
        // every transform is a bijection of the board
        let b = board(Rule::Renju, "");
        for t in 0..8 {
            let mut seen = std::collections::HashSet::new();
            for p in b.points() {
                assert!(b.contains(b.transform(p, t)));
                assert!(seen.insert(b.transform(p, t)));
            }
        }
    }

    #[test]
    fn make_unmake_restores_everything() {
        let mut b = Board::new(15, Rule::Renju).unwrap();
        let empty = b.clone();
        for p in parse_moves("h8 i9 j10 h9 -- g7 a1 o15", 15).unwrap() {
            if p.is_pass() {
                b.pass();
            } else {
                b.play(p);
            }
            b.validate().unwrap();
        }
        while b.undo().is_some() {
            b.validate().unwrap();
        }
        assert_eq!(b.key(), empty.key());
        assert_eq!(b.value, empty.value);
        assert_eq!(b.info, empty.info);
        assert_eq!(b.to_move(), Color::Black);
    }

    #[test]
    fn try_play_errors_leave_board_unchanged() {
        let mut b = board(Rule::Freestyle, "h8");
        let key = b.key();
        assert_eq!(
            b.try_play(Pos::new(7, 7)),
            Err(MoveError::Occupied(Pos::new(7, 7)))
        );
        assert!(matches!(
            b.try_play(Pos::new(15, 3)),
            Err(MoveError::OffBoard(_))
        ));
        assert!(matches!(b.try_play(Pos::PASS), Err(MoveError::OffBoard(_))));
        assert_eq!(b.key(), key);
        assert_eq!(b.ply(), 1);
    }

    #[test]
    #[should_panic(expected = "illegal move")]
    fn play_panics_on_occupied() {
        let mut b = board(Rule::Freestyle, "h8");
        b.play(Pos::new(7, 7));
    }

    #[test]
    fn transposition_same_key() {
        let a = board(Rule::Freestyle, "h8 i9 j10 k11");
        let b = board(Rule::Freestyle, "j10 k11 h8 i9");
        assert_eq!(a.key(), b.key());
        let c = board(Rule::Freestyle, "h8 i9 j10 k11 --");
        assert_ne!(a.key(), c.key());
    }

    #[test]
    fn five_detection() {
        let b = board(Rule::Freestyle, "h8 a1 i8 a2 j8 a3 k8 a4");
        assert!(b.makes_five(Pos::new(11, 7), Color::Black));
        assert!(b.makes_five(Pos::new(6, 7), Color::Black));
        assert_eq!(b.threat(Pos::new(0, 10), Color::White), Pattern4::Five);
    }

    #[test]
    fn text_marks_last_move() {
        let b = board(Rule::Freestyle, "h8 i9");
        let t = b.to_text(&[]);
        assert!(t.contains("[O]"), "{t}");
        assert!(t.starts_with("    a b c"), "{t}");
    }
}
