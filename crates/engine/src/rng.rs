//! Small deterministic pseudo-random generators for the tools, the tests and the tuning: the
//! same seed always gives the same numbers, on every machine. Not for cryptography.
//!
//! ```
//! use gomoku_engine::rng::{Rng, XorShift64};
//! let mut rng = XorShift64::new(7);
//! let mut items = [1, 2, 3, 4];
//! rng.shuffle(&mut items);
//! assert!(rng.below(6) < 6);
//! ```

/// A source of pseudo-random numbers.
pub trait Rng {
    /// The next 64 random bits.
    fn next_u64(&mut self) -> u64;

    /// A number below `n`, by remainder (the bias towards small numbers is negligible for
    /// the small `n` used here).
    ///
    /// # Panics
    /// When `n` is 0.
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Shuffles `items` (Fisher-Yates, from the last item down).
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// Marsaglia's xorshift64 (shifts 13, 7, 17): fast, and good enough to draw positions and
/// orders. A zero state stays zero: start from a non-zero one, or use
/// [`XorShift64::from_seed`].
#[derive(Clone, Debug)]
pub struct XorShift64(u64);

impl XorShift64 {
    /// The generator with this (non-zero) state.
    #[must_use]
    pub const fn new(state: u64) -> XorShift64 {
        XorShift64(state)
    }

    /// The generator of any seed, 0 included: the seed is spread over the bits (times the
    /// golden ratio) and made odd.
    #[must_use]
    pub const fn from_seed(seed: u64) -> XorShift64 {
        XorShift64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
}

impl Rng for XorShift64 {
    fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}

/// SplitMix64 (Steele, Lea and Flood): any seed, 0 included, gives a well-mixed sequence.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The generator of this seed.
    #[must_use]
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }
}

impl Rng for SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The seed of item `n` of a series whose seed is `seed` (a game of a self-play corpus, a
/// decision of a game): the series' seed spread over the bits, then the item's number mixed
/// in, so that the items of neighbouring series are unrelated.
#[must_use]
pub const fn mix(seed: u64, n: u64) -> u64 {
    seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_are_the_published_ones() {
        // xorshift64 from 1: 1082269761, then 1152992998833853505
        let mut x = XorShift64::new(1);
        assert_eq!(x.next_u64(), 1_082_269_761);
        assert_eq!(x.next_u64(), 1_152_992_998_833_853_505);
        // SplitMix64 from 0: the reference implementation's first output
        assert_eq!(SplitMix64::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn shuffles_are_reproducible_permutations() {
        let mut a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        XorShift64::from_seed(7).shuffle(&mut a);
        XorShift64::from_seed(7).shuffle(&mut b);
        assert_eq!(a, b);
        assert_ne!(a, (0..50).collect::<Vec<_>>());
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        let mut rng = SplitMix64::new(3);
        assert!((0..1000).all(|_| rng.below(7) < 7));
    }
}
