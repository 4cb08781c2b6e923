//! The measuring openings: the openings the matches against other engines start from
//! (`crates/app/data/measuring-openings/`, copies of the anchors' lists), which no training
//! game may start from. An opening is compared by its shape alone: its stones relative to the
//! board's centre, each coloured by the parity of its move, in the least of the 8 rotations
//! and reflections (as `../shared/anchors/check-openings.py` keys them).

use gomoku_engine::Pos;
use std::collections::HashSet;
use std::sync::OnceLock;

/// The 15x15 openings of the matches under freestyle and standard.
const EVAL_FREESTYLE: &str = include_str!("../../data/measuring-openings/eval-freestyle.txt");
/// The 15x15 openings of the matches under renju.
const EVAL_RENJU: &str = include_str!("../../data/measuring-openings/eval-renju.txt");
/// The 20x20 openings of the freestyle matches.
const FREESTYLE_20: &str = include_str!("../../data/measuring-openings/freestyle20-piskvork.txt");

/// The lists of measuring openings of each board size, with their file names. Every rule's
/// list applies to every rule of its size, as check-openings.py applies them.
pub const LISTS: [(usize, &str, &str); 3] = [
    (15, "eval-freestyle.txt", EVAL_FREESTYLE),
    (15, "eval-renju.txt", EVAL_RENJU),
    (20, "freestyle20-piskvork.txt", FREESTYLE_20),
];

/// The shape of a sequence of stones: per stone its doubled offsets from the centre and the
/// parity of its move, sorted, the least over the 8 orientations.
pub type Key = Vec<(i32, i32, u8)>;

/// The key of `stones` (played in this order, Black first) on a board of `size`.
#[must_use]
pub fn key(stones: &[Pos], size: usize) -> Key {
    let c = size as i32 - 1;
    let centred: Vec<(i32, i32, u8)> = stones
        .iter()
        .enumerate()
        .map(|(i, p)| (2 * p.x() as i32 - c, 2 * p.y() as i32 - c, (i % 2) as u8))
        .collect();
    (0..8)
        .map(|t| {
            let mut k: Key = centred
                .iter()
                .map(|&(x, y, colour)| {
                    let (x, y) = orient(x, y, t);
                    (x, y, colour)
                })
                .collect();
            k.sort_unstable();
            k
        })
        .min()
        .unwrap_or_default()
}

/// Orientation `t` (0..8) of an offset: `t % 4` quarter turns, mirrored when `t >= 4`.
#[must_use]
pub fn orient(x: i32, y: i32, t: usize) -> (i32, i32) {
    let (mut x, mut y) = (x, y);
    for _ in 0..t % 4 {
        (x, y) = (-y, x);
    }
    if t >= 4 {
        x = -x;
    }
    (x, y)
}

/// The stones of a line in pos notation: a column letter from `a`, then the row counted from
/// the top from 1 (`k5k8g6`). `None` for anything else, or a point off a board of `size`.
#[must_use]
pub fn parse_pos_notation(line: &str, size: usize) -> Option<Vec<Pos>> {
    let text: String = line.chars().filter(|c| !c.is_whitespace()).collect();
    let bytes = text.as_bytes();
    let mut stones = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let col = bytes[i].checked_sub(b'a')? as usize;
        i += 1;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let row: usize = text.get(start..i)?.parse().ok()?;
        if col >= size || row == 0 || row > size {
            return None;
        }
        stones.push(Pos::new(col, row - 1));
    }
    (!stones.is_empty()).then_some(stones)
}

/// The openings of one list, in its order (blank lines and `#` comments skipped).
///
/// # Panics
/// A line that is not pos notation on a board of `size`: the lists are compiled in, and a
/// unit test reads every line.
#[must_use]
pub fn openings(text: &str, size: usize) -> Vec<Vec<Pos>> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|l| {
            parse_pos_notation(l, size)
                .unwrap_or_else(|| panic!("measuring opening '{l}' is not pos notation"))
        })
        .collect()
}

/// The keys of the measuring openings of each board size.
fn keys() -> &'static [(usize, HashSet<Key>)] {
    static KEYS: OnceLock<Vec<(usize, HashSet<Key>)>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut by_size: Vec<(usize, HashSet<Key>)> = Vec::new();
        for (size, _, text) in LISTS {
            let set = match by_size.iter_mut().find(|(s, _)| *s == size) {
                Some((_, set)) => set,
                None => {
                    by_size.push((size, HashSet::new()));
                    &mut by_size.last_mut().expect("just pushed").1
                }
            };
            set.extend(openings(text, size).iter().map(|o| key(o, size)));
        }
        by_size
    })
}

/// Whether `stones` are a measuring opening of a board of `size`, in any orientation.
#[must_use]
pub fn is_measuring(stones: &[Pos], size: usize) -> bool {
    keys()
        .iter()
        .any(|(s, set)| *s == size && set.contains(&key(stones, size)))
}

/// Whether a game opening with `stones` starts from a measuring opening: all its stones, or
/// its first 3 or first 4, are one (in any orientation).
#[must_use]
pub fn starts_from_measuring(stones: &[Pos], size: usize) -> bool {
    is_measuring(stones, size)
        || [3, 4]
            .iter()
            .any(|&k| stones.len() > k && is_measuring(&stones[..k], size))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Applies orientation `t` to the points themselves (the board's own coordinates).
    fn oriented(stones: &[Pos], size: usize, t: usize) -> Vec<Pos> {
        let c = size as i32 - 1;
        stones
            .iter()
            .map(|p| {
                let (x, y) = orient(2 * p.x() as i32 - c, 2 * p.y() as i32 - c, t);
                Pos::new(((x + c) / 2) as usize, ((y + c) / 2) as usize)
            })
            .collect()
    }

    #[test]
    fn every_measuring_opening_in_every_orientation_is_refused() {
        let mut cases = 0;
        for (size, name, text) in LISTS {
            for (n, opening) in openings(text, size).iter().enumerate() {
                for t in 0..8 {
                    let o = oriented(opening, size, t);
                    assert!(
                        starts_from_measuring(&o, size),
                        "{name}:{} orientation {t} accepted",
                        n + 1
                    );
                    cases += 1;
                }
            }
        }
        assert_eq!(cases, 8 * (40 + 24 + 47));
    }

    #[test]
    fn an_opening_that_begins_with_a_measuring_one_is_refused() {
        // k5k8g6 (eval-freestyle.txt:1) then two more stones
        let mut o = parse_pos_notation("k5k8g6", 15).expect("pos notation");
        o.extend([Pos::new(0, 0), Pos::new(14, 14)]);
        assert!(starts_from_measuring(&o, 15));
        assert!(starts_from_measuring(&o[..4], 15));
        assert!(!is_measuring(&o, 15));
    }

    #[test]
    fn other_openings_are_accepted() {
        for (size, line) in [
            (15, "h8i9j10"),
            (15, "h8h9"),
            (15, "a1b2c3d4e5f6"),
            // a measuring opening with its colours swapped is another opening
            (15, "k8k5g6"),
            // a 15x15 opening on another board size
            (16, "k5k8g6"),
            (20, "k5k8g6"),
            (19, "k10l10l7"),
        ] {
            let o = parse_pos_notation(line, size).expect(line);
            assert!(!starts_from_measuring(&o, size), "{size} {line} refused");
        }
    }

    #[test]
    fn pos_notation_counts_rows_from_the_top() {
        let o = parse_pos_notation("a1 o15", 15).expect("pos notation");
        assert_eq!(o, vec![Pos::new(0, 0), Pos::new(14, 14)]);
        for bad in ["", "a", "a0", "p1", "a16", "1a", "A1"] {
            assert_eq!(parse_pos_notation(bad, 15), None, "{bad}");
        }
    }

    #[test]
    fn the_key_is_the_same_in_every_orientation_and_tells_colours_apart() {
        let o = parse_pos_notation("h8i9g10j7", 15).expect("pos notation");
        for t in 0..8 {
            assert_eq!(
                key(&oriented(&o, 15, t), 15),
                key(&o, 15),
                "orientation {t}"
            );
        }
        let swapped = [o[1], o[0], o[3], o[2]];
        assert_ne!(key(&swapped, 15), key(&o, 15));
    }
}
