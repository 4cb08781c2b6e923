//! The 26 canonical renju openings: the shapes of the first three stones (Black on the centre,
//! White on one of its eight neighbours, Black again within the central 5x5 square), each with
//! its traditional name.
//!
//! With White beside Black (a *direct* opening, `D`) or diagonal to it (an *indirect* one,
//! `I`), the third stone has 23 free points of the 5x5 square; the mirror that keeps the first
//! two stones in place pairs them up, which leaves 13 shapes of each kind. The tables below
//! hold one point of each pair, with White above the centre (direct) or above and to the right
//! (indirect); `x` counts to the right and `y` upwards from the centre:
//!
//! ```text
//!   direct (W at 0,1)     indirect (W at 1,1)
//!   .  .  1  2  3        .  .  .  .  1
//!   .  .  W  4  5        .  .  .  W  2
//!   .  .  B  6  7        .  .  B  6  3
//!   .  .  8  9 10        . 11  9  7  4
//!   .  . 11 12 13       13 12 10  8  5
//! ```
//!
//! Numbers are the openings' numbers (`4D` is 花月 Kagetsu, `13I` 彗星 Suisei). A start is
//! named in any of the eight orientations of the board.

use crate::board::Board;
use crate::types::Pos;
use std::fmt;

/// Whether White's first stone is beside Black's or diagonal to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// White's stone beside the centre (`D`, 直接 / 直指).
    Direct,
    /// White's stone diagonal to the centre (`I`, 間接 / 斜指).
    Indirect,
}

/// One of the 26 openings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NamedOpening {
    /// Direct or indirect.
    pub kind: Kind,
    /// Its number among the openings of its kind, 1 to 13.
    pub number: u8,
    /// The Japanese name in Latin letters (`Shōgetsu`).
    pub romaji: &'static str,
    /// The same without accents, in lower case (`shogetsu`): for keys and file names.
    pub id: &'static str,
    /// The name in Japanese characters (`松月`).
    pub japanese: &'static str,
    /// The name in (simplified) Chinese characters (`松月`).
    pub chinese: &'static str,
    /// The third stone, from the centre (`x` right, `y` up), with White as in the tables.
    third: (i8, i8),
}

impl NamedOpening {
    /// `4D`, `13I`.
    #[must_use]
    pub fn code(&self) -> String {
        let k = match self.kind {
            Kind::Direct => 'D',
            Kind::Indirect => 'I',
        };
        format!("{}{k}", self.number)
    }

    /// The three stones of the opening on `board`'s centre, in the tables' orientation (White
    /// above the centre, or above and to its right); `None` on a board too small for them.
    #[must_use]
    pub fn stones(&self, board: &Board) -> Option<[Pos; 3]> {
        let c = board.centre();
        let white = match self.kind {
            Kind::Direct => (0, 1),
            Kind::Indirect => (1, 1),
        };
        let at = |(dx, dy): (i8, i8)| -> Option<Pos> {
            // y grows downwards on the board
            let x = c.x().checked_add_signed(isize::from(dx))?;
            let y = c.y().checked_add_signed(-isize::from(dy))?;
            board.pos(x, y)
        };
        Some([c, at(white)?, at(self.third)?])
    }
}

impl fmt::Display for NamedOpening {
    /// `Kagetsu 花月 (4D)`: the romanised name, the Chinese one and the code.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} ({})", self.romaji, self.chinese, self.code())
    }
}

const fn op(
    kind: Kind,
    number: u8,
    romaji: &'static str,
    id: &'static str,
    japanese: &'static str,
    chinese: &'static str,
    third: (i8, i8),
) -> NamedOpening {
    NamedOpening {
        kind,
        number,
        romaji,
        id,
        japanese,
        chinese,
        third,
    }
}

use Kind::{Direct as D, Indirect as I};

/// The 26 openings: the 13 direct ones (1D to 13D), then the 13 indirect ones.
pub const OPENINGS: [NamedOpening; 26] = [
    op(D, 1, "Kansei", "kansei", "寒星", "寒星", (0, 2)),
    op(D, 2, "Keigetsu", "keigetsu", "渓月", "溪月", (1, 2)),
    op(D, 3, "Sosei", "sosei", "疎星", "疏星", (2, 2)),
    op(D, 4, "Kagetsu", "kagetsu", "花月", "花月", (1, 1)),
    op(D, 5, "Zangetsu", "zangetsu", "残月", "残月", (2, 1)),
    op(D, 6, "Ugetsu", "ugetsu", "雨月", "雨月", (1, 0)),
    op(D, 7, "Kinsei", "kinsei", "金星", "金星", (2, 0)),
    op(D, 8, "Shōgetsu", "shogetsu", "松月", "松月", (0, -1)),
    op(D, 9, "Kyūgetsu", "kyugetsu", "丘月", "丘月", (1, -1)),
    op(D, 10, "Shingetsu", "shingetsu", "新月", "新月", (2, -1)),
    op(D, 11, "Zuisei", "zuisei", "瑞星", "瑞星", (0, -2)),
    op(D, 12, "Sangetsu", "sangetsu", "山月", "山月", (1, -2)),
    op(D, 13, "Yūsei", "yusei", "遊星", "游星", (2, -2)),
    op(I, 1, "Chōsei", "chosei", "長星", "长星", (2, 2)),
    op(I, 2, "Kyōgetsu", "kyogetsu", "峡月", "峡月", (2, 1)),
    op(I, 3, "Kōsei", "kosei", "恒星", "恒星", (2, 0)),
    op(I, 4, "Suigetsu", "suigetsu", "水月", "水月", (2, -1)),
    op(I, 5, "Ryūsei", "ryusei", "流星", "流星", (2, -2)),
    op(I, 6, "Ungetsu", "ungetsu", "雲月", "云月", (1, 0)),
    op(I, 7, "Hogetsu", "hogetsu", "浦月", "浦月", (1, -1)),
    op(I, 8, "Rangetsu", "rangetsu", "嵐月", "岚月", (1, -2)),
    op(I, 9, "Gingetsu", "gingetsu", "銀月", "银月", (0, -1)),
    op(I, 10, "Myōjō", "myojo", "明星", "明星", (0, -2)),
    op(I, 11, "Shagetsu", "shagetsu", "斜月", "斜月", (-1, -1)),
    op(I, 12, "Meigetsu", "meigetsu", "名月", "名月", (-1, -2)),
    op(I, 13, "Suisei", "suisei", "彗星", "彗星", (-2, -2)),
];

/// The image of offset `(x, y)` under symmetry `t` of the square (0..8: bit 2 exchanges the
/// axes, bits 0 and 1 turn `x` and `y` round), as [`Board::transform`] numbers them.
const fn turn((x, y): (i8, i8), t: usize) -> (i8, i8) {
    let (x, y) = if t & 4 != 0 { (y, x) } else { (x, y) };
    let x = if t & 1 != 0 { -x } else { x };
    let y = if t & 2 != 0 { -y } else { y };
    (x, y)
}

/// The opening of three stones played in this order (Black, White, Black) on `board`'s centre,
/// in any orientation; `None` for any other start (the first stone off the centre, White not
/// beside it, the third stone outside the central 5x5 square, or a point used twice).
#[must_use]
pub fn identify(board: &Board, stones: [Pos; 3]) -> Option<&'static NamedOpening> {
    let c = board.centre();
    if stones[0] != c || stones.iter().any(|&p| !board.contains(p)) {
        return None;
    }
    // offsets from the centre, `y` upwards
    let off = |p: Pos| -> (i8, i8) {
        let dx = p.x() as isize - c.x() as isize;
        let dy = c.y() as isize - p.y() as isize;
        (dx.clamp(-9, 9) as i8, dy.clamp(-9, 9) as i8)
    };
    let (white, third) = (off(stones[1]), off(stones[2]));
    let ring = |(x, y): (i8, i8)| x.unsigned_abs().max(y.unsigned_abs());
    if ring(white) != 1 || ring(third) > 2 || third == (0, 0) || third == white {
        return None;
    }
    (0..8).find_map(|t| {
        let (kind, w) = match turn(white, t) {
            (0, 1) => (Kind::Direct, (0, 1)),
            (1, 1) => (Kind::Indirect, (1, 1)),
            _ => return None,
        };
        debug_assert_ne!(turn(third, t), w);
        let b = turn(third, t);
        OPENINGS.iter().find(|o| o.kind == kind && o.third == b)
    })
}

/// The opening of `board`'s game: its first three moves (Black, White, Black), when they are
/// stones and form one of the 26 openings.
#[must_use]
pub fn of_moves(board: &Board, moves: &[Pos]) -> Option<&'static NamedOpening> {
    match moves {
        [a, b, c, ..] if [a, b, c].iter().all(|p| p.is_point()) => identify(board, [*a, *b, *c]),
        _ => None,
    }
}

/// The opening of a renju game: its first three moves when it started from the empty board
/// (a set-up position has no opening, nor has a game under another rule).
#[must_use]
pub fn of_game(game: &crate::game::Game) -> Option<&'static NamedOpening> {
    if game.start_ply() > 0 || game.board().rule() != crate::types::Rule::Renju {
        return None;
    }
    of_moves(game.board(), game.board().moves())
}

/// The opening called `name`: its code (`4d`, `13I`), romanised name with or without accents
/// (`Kagetsu`, `shogetsu`, `Shōgetsu`), or Japanese or Chinese name.
#[must_use]
pub fn by_name(name: &str) -> Option<&'static NamedOpening> {
    let n = name.trim();
    let lower = n.to_lowercase();
    OPENINGS.iter().find(|o| {
        o.code().to_lowercase() == lower
            || o.id == lower
            || o.romaji.to_lowercase() == lower
            || o.japanese == n
            || o.chinese == n
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::notation::parse_moves;
    use crate::types::Rule;

    /// Every opening in the tables' orientation, as moves on 15x15 (`h8` the centre, rows
    /// counted upwards), with its name: a table written apart from [`OPENINGS`], from the
    /// diagrams of the openings.
    const CASES: [(&str, &str); 26] = [
        ("h8 h9 h10", "Kansei"),
        ("h8 h9 i10", "Keigetsu"),
        ("h8 h9 j10", "Sosei"),
        ("h8 h9 i9", "Kagetsu"),
        ("h8 h9 j9", "Zangetsu"),
        ("h8 h9 i8", "Ugetsu"),
        ("h8 h9 j8", "Kinsei"),
        ("h8 h9 h7", "Shōgetsu"),
        ("h8 h9 i7", "Kyūgetsu"),
        ("h8 h9 j7", "Shingetsu"),
        ("h8 h9 h6", "Zuisei"),
        ("h8 h9 i6", "Sangetsu"),
        ("h8 h9 j6", "Yūsei"),
        ("h8 i9 j10", "Chōsei"),
        ("h8 i9 j9", "Kyōgetsu"),
        ("h8 i9 j8", "Kōsei"),
        ("h8 i9 j7", "Suigetsu"),
        ("h8 i9 j6", "Ryūsei"),
        ("h8 i9 i8", "Ungetsu"),
        ("h8 i9 i7", "Hogetsu"),
        ("h8 i9 i6", "Rangetsu"),
        ("h8 i9 h7", "Gingetsu"),
        ("h8 i9 h6", "Myōjō"),
        ("h8 i9 g7", "Shagetsu"),
        ("h8 i9 g6", "Meigetsu"),
        ("h8 i9 f6", "Suisei"),
    ];

    fn board() -> Board {
        Board::new(15, Rule::Renju).expect("size")
    }

    fn three(text: &str) -> [Pos; 3] {
        let m = parse_moves(text, 15).expect("moves");
        [m[0], m[1], m[2]]
    }

    #[test]
    fn every_opening_is_named_in_all_eight_orientations() {
        let b = board();
        for (i, (text, name)) in CASES.iter().enumerate() {
            let stones = three(text);
            for t in 0..8 {
                let turned = stones.map(|p| b.transform(p, t));
                let found = identify(&b, turned).map(|o| o.romaji);
                assert_eq!(found, Some(*name), "{text} turned by {t}: {turned:?}");
                assert_eq!(OPENINGS[i].romaji, *name, "the table's order");
            }
            assert_eq!(OPENINGS[i].stones(&b), Some(stones), "{name}");
        }
    }

    #[test]
    fn every_legal_start_has_exactly_one_name() {
        // all 8 x 23 starts: the 26 openings cover them
        let b = board();
        let c = b.centre();
        let mut count = [0usize; 26];
        for p in b.points() {
            for q in b.points() {
                let near = |p: Pos, r: usize| p.x().abs_diff(c.x()).max(p.y().abs_diff(c.y())) <= r;
                if p == c || q == c || p == q || !near(p, 1) || !near(q, 2) {
                    continue;
                }
                let o = identify(&b, [c, p, q]).expect("a legal start has a name");
                count[OPENINGS.iter().position(|x| x == o).expect("in the table")] += 1;
            }
        }
        // White has 4 places of each kind; for each, an opening's third stone has 1 place when
        // it lies on the mirror line through the first two stones, else 2
        for (o, n) in OPENINGS.iter().zip(count) {
            let on_axis = match o.kind {
                Kind::Direct => o.third.0 == 0,
                Kind::Indirect => o.third.0 == o.third.1,
            };
            assert_eq!(n, if on_axis { 4 } else { 8 }, "{o}");
        }
        assert_eq!(count.iter().sum::<usize>(), 8 * 23);
    }

    #[test]
    fn other_starts_have_no_name() {
        let b = board();
        for text in [
            "g8 h9 h10", // the first stone off the centre
            "h8 h10 h9", // White not beside Black
            "h8 j10 i9", // White two points away
            "h8 h9 h11", // the third stone outside the 5x5 square
            "h8 i9 k10", // the same, indirect
            "h8 i9 e5",  // far away
        ] {
            assert_eq!(identify(&b, three(text)), None, "{text}");
        }
        // fewer than three moves, a pass, a set-up position
        let g = Game::from_position(15, Rule::Renju, "h8 h9").expect("game");
        assert_eq!(of_game(&g), None);
        let g = Game::from_position(15, Rule::Renju, "h8 -- i9").expect("game");
        assert_eq!(of_game(&g), None);
        let stones = three("h8 h9 i9");
        let g = Game::from_stones(
            15,
            Rule::Renju,
            &[stones[0], stones[2]],
            &[stones[1]],
            crate::Color::White,
        )
        .expect("set-up");
        assert_eq!(of_game(&g), None);
        // a game that goes on keeps its opening's name; only renju games have one
        let g = Game::from_position(15, Rule::Renju, "h8 h9 i9 j10 g7 f6").expect("game");
        assert_eq!(of_game(&g).map(|o| o.code()), Some("4D".to_string()));
        let g = Game::from_position(15, Rule::Freestyle, "h8 h9 i9").expect("game");
        assert_eq!(of_game(&g), None);
    }

    #[test]
    fn names_read_back() {
        for o in &OPENINGS {
            for name in [
                o.code(),
                o.id.to_string(),
                o.romaji.to_string(),
                o.chinese.to_string(),
            ] {
                assert_eq!(by_name(&name), Some(o), "{name}");
            }
        }
        assert_eq!(by_name("4d").map(|o| o.romaji), Some("Kagetsu"));
        assert_eq!(by_name("Myojo").map(|o| o.code()), Some("10I".to_string()));
        assert_eq!(by_name("nothing"), None);
        assert_eq!(OPENINGS[3].to_string(), "Kagetsu 花月 (4D)");
    }
}
