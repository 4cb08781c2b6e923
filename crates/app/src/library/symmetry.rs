//! The symmetric hash of a position: one 64-bit key for a position and its images under the
//! 8 symmetries of the square board (rotations and mirrors), whatever move order reached it.
//!
//! A position's stones are hashed once per symmetry `t` (Zobrist: the XOR of one random number
//! per stone, of its colour and of its point moved by `t`); the key is the smallest of the 8,
//! mixed with the board size, the rule and the side to move, so that a renju position and a
//! freestyle one with the same stones are different positions. The `t`s that give the smallest
//! hash map the position onto its *canonical* image; a point (a move played from the position,
//! a candidate of an analysis) is stored as its image there ([`Keyed::canonical`]) and shown
//! again in the orientation of whoever asks ([`Keyed::shown`]).
//!
//! The random numbers come from a fixed generator and seed: keys are written to libraries, so
//! these constants are part of the file format (changing them needs a migration that rebuilds
//! the index).

use gomoku_engine::{Color, Pos, Rule};

/// Points are coded `y * CODE_STRIDE + x` (any board size up to 22 fits).
pub const CODE_STRIDE: usize = 32;

/// The code of a pass (a move that puts no stone down).
pub const PASS_CODE: i64 = 1023;

/// A symmetry of the square board, 0..8: bit 2 exchanges x and y, then bit 0 mirrors x and
/// bit 1 mirrors y (the numbering of the engine's `Board::transform`).
pub type Sym = usize;

/// The image of `(x, y)` under symmetry `t` on a board of `size`.
#[must_use]
pub fn transform(p: Pos, t: Sym, size: usize) -> Pos {
    if !p.is_point() {
        return p;
    }
    let n = size - 1;
    let (x, y) = if t & 4 != 0 {
        (p.y(), p.x())
    } else {
        (p.x(), p.y())
    };
    let x = if t & 1 != 0 { n - x } else { x };
    let y = if t & 2 != 0 { n - y } else { y };
    Pos::new(x, y)
}

/// The symmetry that undoes `t`.
#[must_use]
pub fn inverse(t: Sym) -> Sym {
    // a swap followed by mirrors is undone by the mirrors exchanged, then the swap
    if t & 4 != 0 {
        4 | ((t & 1) << 1) | ((t & 2) >> 1)
    } else {
        t
    }
}

/// A point's code (`y * 32 + x`; a pass is [`PASS_CODE`]).
#[must_use]
pub fn code(p: Pos) -> i64 {
    if p.is_point() {
        (p.y() * CODE_STRIDE + p.x()) as i64
    } else {
        PASS_CODE
    }
}

/// The point of a code, if it is one of a board of `size` (a pass for [`PASS_CODE`]).
#[must_use]
pub fn point(code: i64, size: usize) -> Option<Pos> {
    if code == PASS_CODE {
        return Some(Pos::PASS);
    }
    let c = usize::try_from(code).ok()?;
    let (x, y) = (c % CODE_STRIDE, c / CODE_STRIDE);
    (x < size && y < size).then(|| Pos::new(x, y))
}

/// One step of SplitMix64: the fixed generator of the hash's numbers.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// The numbers of the hash: one per colour and point code, then per size, rule and side.
struct Numbers {
    stones: [[u64; CODE_STRIDE * CODE_STRIDE]; 2],
    sizes: [u64; 32],
    rules: [u64; 8],
    white_to_move: u64,
}

const fn numbers() -> Numbers {
    let mut n = Numbers {
        stones: [[0; CODE_STRIDE * CODE_STRIDE]; 2],
        sizes: [0; 32],
        rules: [0; 8],
        white_to_move: 0,
    };
    let mut state = 0x676f_6d6f_6b75_4c42; // "gomokuLB"
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CODE_STRIDE * CODE_STRIDE {
            let (s, v) = splitmix(state);
            state = s;
            n.stones[c][i] = v;
            i += 1;
        }
        c += 1;
    }
    let mut i = 0;
    while i < 32 {
        let (s, v) = splitmix(state);
        state = s;
        n.sizes[i] = v;
        i += 1;
    }
    let mut i = 0;
    while i < 8 {
        let (s, v) = splitmix(state);
        state = s;
        n.rules[i] = v;
        i += 1;
    }
    n.white_to_move = splitmix(state).1;
    n
}

static NUMBERS: Numbers = numbers();

/// A fixed mixing function of 64 bits (one step of SplitMix64's output).
#[must_use]
pub fn mix(x: u64) -> u64 {
    splitmix(x).1
}

/// The 8 hashes of a position's stones, one per symmetry, kept up to date stone by stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SymHash {
    size: usize,
    rule: Rule,
    hashes: [u64; 8],
    to_move: Color,
}

/// A position's key, with the symmetries that map it onto its canonical image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keyed {
    /// The key (as SQLite stores it: the bits of the `u64`).
    pub key: i64,
    /// Bit `t` is set when symmetry `t` maps the position onto its canonical image.
    syms: u8,
    size: usize,
}

impl SymHash {
    /// The empty board of `size` under `rule`, Black to move.
    #[must_use]
    pub fn new(size: usize, rule: Rule) -> SymHash {
        SymHash {
            size,
            rule,
            hashes: [0; 8],
            to_move: Color::Black,
        }
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The side to move.
    #[must_use]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Puts a stone of `color` on `p` (a set-up stone: the side to move stays).
    pub fn put(&mut self, p: Pos, color: Color) {
        if !p.is_point() {
            return;
        }
        for (t, h) in self.hashes.iter_mut().enumerate() {
            let c = code(transform(p, t, self.size)) as usize;
            *h ^= NUMBERS.stones[color.index()][c];
        }
    }

    /// Sets the side to move.
    pub fn set_to_move(&mut self, color: Color) {
        self.to_move = color;
    }

    /// Plays `p` (a stone of the side to move, or a pass): the other side is to move.
    pub fn play(&mut self, p: Pos) {
        self.put(p, self.to_move);
        self.to_move = self.to_move.opponent();
    }

    /// The position after `p` is played.
    #[must_use]
    pub fn after(&self, p: Pos) -> SymHash {
        let mut h = *self;
        h.play(p);
        h
    }

    /// The key of the position, with its canonical symmetries.
    #[must_use]
    pub fn keyed(&self) -> Keyed {
        let salt = NUMBERS.sizes[self.size % 32]
            ^ NUMBERS.rules[self.rule.index() % 8]
            ^ if self.to_move == Color::White {
                NUMBERS.white_to_move
            } else {
                0
            };
        let mixed = self.hashes.map(|h| splitmix(h ^ salt).1);
        let best = mixed.iter().copied().min().unwrap_or(0);
        let syms = (0..8)
            .filter(|&t| mixed[t] == best)
            .fold(0u8, |acc, t| acc | (1 << t));
        Keyed {
            key: best as i64,
            syms,
            size: self.size,
        }
    }
}

impl Keyed {
    /// The first symmetry mapping the position onto its canonical image.
    fn first(&self) -> Sym {
        self.syms.trailing_zeros() as Sym
    }

    /// Whether the canonical image is the position itself (no symmetry moves it).
    #[must_use]
    pub fn is_identity(&self) -> bool {
        self.first() == 0
    }

    /// The code of point `p` of this position as stored: its image on the canonical position,
    /// the smallest of the images when the position is symmetric (so that moves a symmetry of
    /// the position makes equal are stored as one).
    #[must_use]
    pub fn canonical(&self, p: Pos) -> i64 {
        if !p.is_point() {
            return PASS_CODE;
        }
        (0..8)
            .filter(|t| self.syms & (1 << t) != 0)
            .map(|t| code(transform(p, t, self.size)))
            .min()
            .unwrap_or(PASS_CODE)
    }

    /// The code of point `p` on the canonical position under one fixed symmetry of those
    /// that map the position there (a line of moves keeps its shape; [`Keyed::shown`] undoes
    /// it).
    #[must_use]
    pub fn to_canonical(&self, p: Pos) -> i64 {
        code(transform(p, self.first(), self.size))
    }

    /// The point a stored code stands for in this position's orientation (`None` for a code
    /// that is no point of the board).
    #[must_use]
    pub fn shown(&self, stored: i64) -> Option<Pos> {
        let p = point(stored, self.size)?;
        Some(transform(p, inverse(self.first()), self.size))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gomoku_engine::notation::parse_pos;

    fn p(s: &str) -> Pos {
        parse_pos(s, 15).expect("a point")
    }

    fn play(rule: Rule, moves: &[&str]) -> SymHash {
        let mut h = SymHash::new(15, rule);
        for m in moves {
            h.play(p(m));
        }
        h
    }

    #[test]
    fn inverse_undoes_every_symmetry() {
        for t in 0..8 {
            for (x, y) in [(0, 0), (3, 11), (14, 2), (7, 7)] {
                let q = Pos::new(x, y);
                assert_eq!(transform(transform(q, t, 15), inverse(t), 15), q, "t={t}");
            }
        }
    }

    #[test]
    fn move_orders_and_mirror_images_share_a_key() {
        let a = play(Rule::Renju, &["h8", "h9", "i8", "i9"]).keyed();
        let b = play(Rule::Renju, &["i8", "i9", "h8", "h9"]).keyed();
        // the image of a under x -> 14 - x: h8 -> h8, h9 -> h9, i8 -> g8, i9 -> g9
        let c = play(Rule::Renju, &["h8", "h9", "g8", "g9"]).keyed();
        assert_eq!(a.key, b.key);
        assert_eq!(a.key, c.key);
        // another side to move, rule or size is another position
        let d = play(Rule::Renju, &["h8", "h9", "i8", "i9", "a1"]).keyed();
        assert_ne!(a.key, d.key);
        assert_ne!(
            a.key,
            play(Rule::Freestyle, &["h8", "h9", "i8", "i9"]).keyed().key
        );
        let mut e = SymHash::new(17, Rule::Renju);
        for m in ["h8", "h9", "i8", "i9"] {
            e.play(parse_pos(m, 17).unwrap());
        }
        assert_ne!(a.key, e.keyed().key);
        // a move stored from one orientation is shown in the other's
        let stored = a.canonical(p("j10"));
        assert_eq!(b.shown(stored), Some(p("j10")));
        assert_eq!(c.shown(stored), Some(p("f10")));
    }

    #[test]
    fn moves_a_symmetric_position_makes_equal_are_stored_as_one() {
        let empty = SymHash::new(15, Rule::Freestyle).keyed();
        let corners: Vec<i64> = ["a1", "o1", "a15", "o15"]
            .iter()
            .map(|m| empty.canonical(p(m)))
            .collect();
        assert!(corners.iter().all(|&c| c == corners[0]), "{corners:?}");
        assert_ne!(empty.canonical(p("h8")), corners[0]);
        assert_eq!(empty.shown(empty.canonical(p("h8"))), Some(p("h8")));
        assert_eq!(empty.canonical(Pos::PASS), PASS_CODE);
    }
}
