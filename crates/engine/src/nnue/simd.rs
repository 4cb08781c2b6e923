//! The network's integer kernels behind one trait, [`Kernels`]: an AVX2 version
//! (`std::arch`) used when the CPU has it, and a portable one that gives the same numbers (the
//! tests compare them on random inputs). Callers are generic over the kernels and are
//! compiled once for each, the AVX2 copy inside a function with AVX2 enabled, so that the
//! kernels inline into them.

use super::{FEAT, QA};

/// The features of one point (or one shape's weights), aligned for 256-bit loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Row(pub [i16; FEAT]);

impl Row {
    /// All zero.
    pub const ZERO: Row = Row([0; FEAT]);
}

/// The pooled sum of the points' clamped features: 16-bit lanes read as unsigned (a sum of at
/// most 484 points of at most `QA` = 128 each is below 65,536), added with wrapping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Pooled(pub [u16; FEAT]);

const _: () = assert!(crate::types::MAX_SIZE * crate::types::MAX_SIZE * QA as usize <= 65_535);

/// Whether the CPU has AVX2.
#[inline]
#[must_use]
pub fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The kernels.
pub trait Kernels {
    /// `f += add - sub`, lane by lane (wrapping).
    fn update_row(f: &mut Row, add: &Row, sub: &Row);
    /// `pooled += clamp(new, 0, QA) - clamp(old, 0, QA)`, lane by lane (wrapping).
    fn pool_delta(pooled: &mut Pooled, new: &Row, old: &Row);
    /// `w x + b` for inputs of 0 to 127 and weights of one byte (`w` row-major, one row per
    /// output; `IN` a multiple of 32).
    fn dense<const IN: usize, const OUT: usize>(
        x: &[u8; IN],
        w: &[i8],
        b: &[i32; OUT],
    ) -> [i32; OUT];
    /// `sum over k of q[k] * clamp(a[k], 0, QA)`.
    fn dot(q: &[i16; FEAT], a: &Row) -> i32;
}

/// The kernels in plain Rust.
#[derive(Clone, Copy, Debug)]
pub struct Portable;

impl Kernels for Portable {
    #[inline(always)]
    fn update_row(f: &mut Row, add: &Row, sub: &Row) {
        for k in 0..FEAT {
            f.0[k] = f.0[k].wrapping_add(add.0[k]).wrapping_sub(sub.0[k]);
        }
    }

    #[inline(always)]
    fn pool_delta(pooled: &mut Pooled, new: &Row, old: &Row) {
        let q = QA as i16;
        for k in 0..FEAT {
            let d = new.0[k].clamp(0, q) - old.0[k].clamp(0, q);
            pooled.0[k] = pooled.0[k].wrapping_add(d as u16);
        }
    }

    #[inline(always)]
    fn dense<const IN: usize, const OUT: usize>(
        x: &[u8; IN],
        w: &[i8],
        b: &[i32; OUT],
    ) -> [i32; OUT] {
        debug_assert_eq!(w.len(), IN * OUT);
        let mut out = *b;
        for (o, row) in out.iter_mut().zip(w.chunks_exact(IN)) {
            *o += row
                .iter()
                .zip(x)
                .map(|(&wi, &xi)| i32::from(wi) * i32::from(xi))
                .sum::<i32>();
        }
        out
    }

    #[inline(always)]
    fn dot(q: &[i16; FEAT], a: &Row) -> i32 {
        let qa = QA as i16;
        q.iter()
            .zip(&a.0)
            .map(|(&qk, &ak)| i32::from(qk) * i32::from(ak.clamp(0, qa)))
            .sum()
    }
}

/// The kernels with AVX2 intrinsics, only for a CPU that has AVX2 ([`has_avx2`]).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct Avx2;

#[cfg(target_arch = "x86_64")]
impl Kernels for Avx2 {
    #[inline(always)]
    fn update_row(f: &mut Row, add: &Row, sub: &Row) {
        // Safety: `Avx2` is only used once the CPU is known to have AVX2.
        unsafe { avx2::update_row(f, add, sub) }
    }

    #[inline(always)]
    fn pool_delta(pooled: &mut Pooled, new: &Row, old: &Row) {
        // Safety: as above.
        unsafe { avx2::pool_delta(pooled, new, old) }
    }

    #[inline(always)]
    fn dense<const IN: usize, const OUT: usize>(
        x: &[u8; IN],
        w: &[i8],
        b: &[i32; OUT],
    ) -> [i32; OUT] {
        if IN % 32 != 0 {
            return Portable::dense(x, w, b);
        }
        // Safety: as above; the rows are whole 32-byte blocks.
        unsafe { avx2::dense(x, w, b) }
    }

    #[inline(always)]
    fn dot(q: &[i16; FEAT], a: &Row) -> i32 {
        // Safety: as above.
        unsafe { avx2::dot(q, a) }
    }
}

/// The AVX2 bodies of the kernels.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use super::{Pooled, Row, FEAT, QA};
    use std::arch::x86_64::*;

    const LANES: usize = 16;
    const _: () = assert!(FEAT % LANES == 0);

    /// See [`super::Kernels::update_row`].
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn update_row(f: &mut Row, add: &Row, sub: &Row) {
        for k in (0..FEAT).step_by(LANES) {
            // Safety: the rows are aligned and hold FEAT lanes.
            unsafe {
                let pf = f.0.as_mut_ptr().add(k).cast::<__m256i>();
                let v = _mm256_load_si256(pf);
                let a = _mm256_load_si256(add.0.as_ptr().add(k).cast());
                let s = _mm256_load_si256(sub.0.as_ptr().add(k).cast());
                _mm256_store_si256(pf, _mm256_sub_epi16(_mm256_add_epi16(v, a), s));
            }
        }
    }

    /// See [`super::Kernels::pool_delta`].
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn pool_delta(pooled: &mut Pooled, new: &Row, old: &Row) {
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(QA as i16);
        for k in (0..FEAT).step_by(LANES) {
            // Safety: the rows and the pooled sum are aligned and hold FEAT lanes.
            unsafe {
                let n = _mm256_load_si256(new.0.as_ptr().add(k).cast());
                let o = _mm256_load_si256(old.0.as_ptr().add(k).cast());
                let n = _mm256_min_epi16(_mm256_max_epi16(n, zero), top);
                let o = _mm256_min_epi16(_mm256_max_epi16(o, zero), top);
                let p = pooled.0.as_mut_ptr().add(k).cast::<__m256i>();
                let v = _mm256_load_si256(p);
                _mm256_store_si256(p, _mm256_add_epi16(v, _mm256_sub_epi16(n, o)));
            }
        }
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn hsum(v: __m256i) -> i32 {
        let s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    }

    /// See [`super::Kernels::dense`]; `IN` is a multiple of 32.
    ///
    /// # Safety
    /// The CPU must have AVX2; `w` holds `IN * OUT` weights.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn dense<const IN: usize, const OUT: usize>(
        x: &[u8; IN],
        w: &[i8],
        b: &[i32; OUT],
    ) -> [i32; OUT] {
        debug_assert_eq!(w.len(), IN * OUT);
        let ones = _mm256_set1_epi16(1);
        let mut out = *b;
        for (o, row) in out.iter_mut().zip(w.chunks_exact(IN)) {
            let mut acc = _mm256_setzero_si256();
            for k in (0..IN).step_by(32) {
                // Safety: both hold IN bytes, IN a multiple of 32.
                let (xv, wv) = unsafe {
                    (
                        _mm256_loadu_si256(x.as_ptr().add(k).cast()),
                        _mm256_loadu_si256(row.as_ptr().add(k).cast()),
                    )
                };
                // inputs are at most 127, so the pair sums of maddubs never saturate
                let pairs = _mm256_maddubs_epi16(xv, wv);
                acc = _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, ones));
            }
            *o += hsum(acc);
        }
        out
    }

    /// See [`super::Kernels::dot`].
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn dot(q: &[i16; FEAT], a: &Row) -> i32 {
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(QA as i16);
        let mut acc = _mm256_setzero_si256();
        for k in (0..FEAT).step_by(LANES) {
            // Safety: both hold FEAT lanes; the row is aligned.
            let (qv, av) = unsafe {
                (
                    _mm256_loadu_si256(q.as_ptr().add(k).cast()),
                    _mm256_load_si256(a.0.as_ptr().add(k).cast()),
                )
            };
            let av = _mm256_min_epi16(_mm256_max_epi16(av, zero), top);
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(qv, av));
        }
        hsum(acc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Rng, SplitMix64};

    fn row(rng: &mut SplitMix64, span: i32) -> Row {
        Row(std::array::from_fn(|_| {
            (rng.below(2 * span as usize + 1) as i32 - span) as i16
        }))
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_avx2_kernels_give_the_portable_numbers() {
        if !has_avx2() {
            return;
        }
        let mut rng = SplitMix64::new(7);
        for _ in 0..500 {
            let (f, a, s) = (
                row(&mut rng, 9000),
                row(&mut rng, 9000),
                row(&mut rng, 9000),
            );
            let (mut f1, mut f2) = (f, f);
            Portable::update_row(&mut f1, &a, &s);
            Avx2::update_row(&mut f2, &a, &s);
            assert_eq!(f1, f2);

            let mut p1 = Pooled(std::array::from_fn(|k| (k as u16).wrapping_mul(2000)));
            let mut p2 = p1;
            Portable::pool_delta(&mut p1, &a, &s);
            Avx2::pool_delta(&mut p2, &a, &s);
            assert_eq!(p1, p2);

            let q: [i16; FEAT] = row(&mut rng, 30_000).0;
            assert_eq!(Portable::dot(&q, &a), Avx2::dot(&q, &a));

            let x: [u8; 64] = std::array::from_fn(|_| rng.below(128) as u8);
            let w: Vec<i8> = (0..64 * 5)
                .map(|_| (rng.below(256) as i32 - 128) as i8)
                .collect();
            let b: [i32; 5] = std::array::from_fn(|k| k as i32 * 77 - 100);
            assert_eq!(
                Portable::dense::<64, 5>(&x, &w, &b),
                Avx2::dense::<64, 5>(&x, &w, &b)
            );
        }
    }

    #[test]
    fn the_portable_kernels_compute_what_they_say() {
        let mut f = Row([5; FEAT]);
        Portable::update_row(&mut f, &Row([3; FEAT]), &Row([1; FEAT]));
        assert_eq!(f, Row([7; FEAT]));
        let mut p = Pooled([0; FEAT]);
        Portable::pool_delta(&mut p, &Row([300; FEAT]), &Row([-5; FEAT]));
        assert_eq!(p, Pooled([QA as u16; FEAT]));
        Portable::pool_delta(&mut p, &Row([0; FEAT]), &Row([300; FEAT]));
        assert_eq!(p, Pooled([0; FEAT]));
        let q = [2i16; FEAT];
        assert_eq!(Portable::dot(&q, &Row([-3; FEAT])), 0);
        assert_eq!(Portable::dot(&q, &Row([10; FEAT])), 20 * FEAT as i32);
        let d = Portable::dense::<2, 2>(&[1, 2], &[3, 4, -5, 6], &[10, 20]);
        assert_eq!(d, [10 + 3 + 8, 20 - 5 + 12]);
    }
}
