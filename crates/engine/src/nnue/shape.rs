//! Line shapes: the nine points centred on a point along one line, as the network's input.
//!
//! A shape key has two bits per point, the point at offset `-4` in the lowest bits and the centre
//! in bits 8-9: 0 empty, 1 black, 2 white, 3 off the board (the encoding of the board's line
//! words, so a key is a shift and a mask of one). Off-board points can only come in runs from
//! the ends of the window, so of the `4^9` keys 43,923 can occur. A shape and its mirror image
//! along the line mean the same, and so do the four directions: the network gives all of them
//! one feature vector, which makes its evaluation the same on the eight images of a position.
//! [`shape_index`] maps a key to the dense index of its class.

use std::sync::OnceLock;

/// Points on each side of the centre.
pub const REACH: usize = 4;
/// Points of a shape.
pub const LEN: usize = 2 * REACH + 1;
/// Number of keys (`4^9`).
pub const NUM_KEYS: usize = 1 << (2 * LEN);
/// Number of shape classes (a shape and its mirror image are one).
pub const NUM_SHAPES: usize = 22_143;
/// The index of keys that cannot occur (an off-board centre, or an off-board point between
/// board points); never looked up for a real board.
pub const INVALID: u16 = u16::MAX;

const WALL: u32 = 3;

fn point(key: u32, j: usize) -> u32 {
    (key >> (2 * j)) & 3
}

/// Whether `key` can be the shape of a board point: the centre is on the board, and the
/// off-board points of each side form one run from the window's end.
#[must_use]
pub fn is_valid(key: u32) -> bool {
    if point(key, REACH) == WALL {
        return false;
    }
    // walking out from the centre, once off the board always off the board
    let side_ok = |points: &mut dyn Iterator<Item = usize>| {
        let mut off = false;
        for j in points {
            let wall = point(key, j) == WALL;
            if off && !wall {
                return false;
            }
            off |= wall;
        }
        true
    };
    side_ok(&mut (REACH + 1..LEN)) && side_ok(&mut (0..REACH).rev())
}

/// The key of the mirror image (the window read the other way).
#[must_use]
pub fn mirror(key: u32) -> u32 {
    (0..LEN).fold(0, |m, j| m | (point(key, j) << (2 * (LEN - 1 - j))))
}

/// The key with black and white swapped.
#[must_use]
pub fn swap_colours(key: u32) -> u32 {
    (0..LEN).fold(0, |m, j| {
        let v = match point(key, j) {
            1 => 2,
            2 => 1,
            v => v,
        };
        m | (v << (2 * j))
    })
}

/// The class of every key ([`shape_index`] as a table, for loops that look up many keys).
#[must_use]
pub fn table() -> &'static [u16] {
    static T: OnceLock<Vec<u16>> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = vec![INVALID; NUM_KEYS];
        let mut next = 0u16;
        for key in 0..NUM_KEYS as u32 {
            if !is_valid(key) {
                continue;
            }
            let m = mirror(key);
            if m < key {
                t[key as usize] = t[m as usize];
            } else {
                t[key as usize] = next;
                next += 1;
            }
        }
        debug_assert_eq!(usize::from(next), NUM_SHAPES);
        t
    })
}

/// The class of shape `key` (below [`NUM_SHAPES`]; [`INVALID`] for a key no board has).
#[inline]
#[must_use]
pub fn shape_index(key: u32) -> u16 {
    debug_assert!((key as usize) < NUM_KEYS);
    // Safety: the key is masked to 18 bits and the table has 4^9 entries.
    unsafe { *table().get_unchecked(key as usize & (NUM_KEYS - 1)) }
}

/// The key of a shape from its points, offset `-4` first (`b'.'` empty, `b'X'` black, `b'O'`
/// white, `b'#'` off the board); for tests and tools.
///
/// # Panics
/// On a string of another length or with other characters.
#[must_use]
pub fn key_of(text: &str) -> u32 {
    assert_eq!(text.len(), LEN, "a shape has {LEN} points: {text:?}");
    text.bytes().enumerate().fold(0, |k, (j, c)| {
        let v = match c {
            b'.' => 0,
            b'X' => 1,
            b'O' => 2,
            b'#' => 3,
            _ => panic!("bad shape point {:?} in {text:?}", c as char),
        };
        k | (v << (2 * j))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classes_are_counted_and_dense() {
        let t = table();
        let valid = (0..NUM_KEYS as u32).filter(|&k| is_valid(k)).count();
        assert_eq!(valid, 43_923);
        let max = t.iter().filter(|&&i| i != INVALID).max().copied();
        assert_eq!(max, Some(NUM_SHAPES as u16 - 1));
    }

    #[test]
    fn mirror_images_share_a_class_and_others_do_not() {
        let cases = [
            ("..XX.X...", "...X.XX..", true),
            ("##..X.O..", "..O.X..##", true),
            ("..XX.X...", "..XX.O...", false),
            ("....X....", "....O....", false),
            ("#...X...#", "#...X...#", true),
        ];
        for (a, b, same) in cases {
            let (ia, ib) = (shape_index(key_of(a)), shape_index(key_of(b)));
            assert_ne!(ia, INVALID, "{a}");
            assert_eq!(ia == ib, same, "{a} {b}");
        }
    }

    #[test]
    fn impossible_keys_are_invalid() {
        for s in ["....#....", ".#..X....", "....X..#.", "#.#.X...."] {
            assert_eq!(shape_index(key_of(s)), INVALID, "{s}");
        }
        for s in ["####X####", "###.X.O##", "........."] {
            assert_ne!(shape_index(key_of(s)), INVALID, "{s}");
        }
    }

    #[test]
    fn colour_swap_and_mirror_are_involutions() {
        for key in [key_of("#..XO.X.O"), key_of("..XXXX..."), 0] {
            assert_eq!(mirror(mirror(key)), key);
            assert_eq!(swap_colours(swap_colours(key)), key);
        }
        assert_eq!(swap_colours(key_of("#..XO.X.O")), key_of("#..OX.O.X"));
    }
}
