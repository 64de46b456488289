//! The move generator's road-class weights and their dot product with a cell's road-class
//! histogram: a cell's score, the generator's hottest function.

use super::view::ROAD_CLASSES;

/// Weights of the road classes, each split as `high * 2^15 + low` with both halves in i16,
/// so that the dot product with a histogram is two sums of i16 products (which x86's
/// baseline SSE2 does eight at a time, `pmaddwd`; it has no 32-bit vector multiply).
/// Exact for weights below 2^30 in magnitude, far beyond the schemas' bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ClassWeights {
    high: [i16; ROAD_CLASSES],
    low: [i16; ROAD_CLASSES],
}

impl ClassWeights {
    pub(super) fn new(w: [i32; ROAD_CLASSES]) -> ClassWeights {
        assert!(w.iter().all(|v| v.unsigned_abs() < 1 << 30), "a move-order weight beyond 2^30");
        ClassWeights { high: w.map(|v| (v >> 15) as i16), low: w.map(|v| (v & 0x7FFF) as i16) }
    }

    /// The weighted sum of a road-class histogram (its bytes, little-endian).
    #[inline]
    #[cfg(target_arch = "x86_64")]
    pub(super) fn dot(&self, counts: u128) -> i32 {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86_64 baseline, so these intrinsics exist on every
        // x86_64 CPU; the loads are unaligned loads of 16-byte arrays that are in bounds.
        unsafe {
            let load = |a: &[i16; ROAD_CLASSES], half: usize| _mm_loadu_si128(a[half * 8..].as_ptr().cast());
            let bytes = _mm_loadu_si128((&counts as *const u128).cast());
            let zero = _mm_setzero_si128();
            let (first, second) = (_mm_unpacklo_epi8(bytes, zero), _mm_unpackhi_epi8(bytes, zero));
            let high =
                _mm_add_epi32(_mm_madd_epi16(first, load(&self.high, 0)), _mm_madd_epi16(second, load(&self.high, 1)));
            let low =
                _mm_add_epi32(_mm_madd_epi16(first, load(&self.low, 0)), _mm_madd_epi16(second, load(&self.low, 1)));
            let sum = _mm_add_epi32(_mm_slli_epi32(high, 15), low);
            let sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0b01_00_11_10));
            let sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0b10_11_00_01));
            _mm_cvtsi128_si32(sum)
        }
    }

    /// The weighted sum of a road-class histogram (its bytes, little-endian).
    #[inline]
    #[cfg(not(target_arch = "x86_64"))]
    pub(super) fn dot(&self, counts: u128) -> i32 {
        self.dot_scalar(counts)
    }

    /// The same sum one product at a time: the portable version and the test oracle.
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    pub(super) fn dot_scalar(&self, counts: u128) -> i32 {
        let (mut high, mut low) = (0i32, 0i32);
        for ((&n, &h), &l) in counts.to_le_bytes().iter().zip(&self.high).zip(&self.low) {
            high += i32::from(h) * i32::from(n);
            low += i32::from(l) * i32::from(n);
        }
        (high << 15) + low
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn the_vector_dot_product_is_the_scalar_one() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..2000 {
            // Weights up to 2^22 and 24 roads a cell: sums within i32, as the schemas keep them.
            let w = ClassWeights::new(std::array::from_fn(|_| rng.random_range(-(1 << 22)..(1 << 22))));
            let counts = u128::from_le_bytes(std::array::from_fn(|_| rng.random_range(0..=24)));
            assert_eq!(w.dot(counts), w.dot_scalar(counts));
        }
    }
}
