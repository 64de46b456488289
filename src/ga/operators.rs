//! The genetic operators on integer chromosomes: uniform crossover and bounded mutation.

use rand::Rng;
use rand_distr::{Distribution, Normal};

use crate::core::weights::Schema;
use crate::ga::config::MutationKind;

/// A uniform-crossover mask: `true` takes the gene from the first parent, `false` from the
/// second, each with probability one half (Li Guo 2007 §2.3.2).
pub fn crossover_mask(rng: &mut impl Rng, len: usize) -> Vec<bool> {
    (0..len).map(|_| rng.random_bool(0.5)).collect()
}

/// The child of two parents under a mask.
pub fn uniform_crossover(first: &[i32], second: &[i32], mask: &[bool]) -> Vec<i32> {
    debug_assert!(first.len() == second.len() && first.len() == mask.len());
    first.iter().zip(second).zip(mask).map(|((&a, &b), &m)| if m { a } else { b }).collect()
}

/// Blend crossover (BLX-0): each gene a uniformly random point between the parents' values.
/// Where uniform crossover copies a gene from one parent, a blend averages them, so genes the
/// games cannot yet tell apart drift less, and the population moves like the mean of an
/// evolution strategy.
pub fn blend_crossover(first: &[i32], second: &[i32], rng: &mut impl Rng) -> Vec<i32> {
    debug_assert_eq!(first.len(), second.len());
    first
        .iter()
        .zip(second)
        .map(|(&a, &b)| {
            let (lo, hi) = (a.min(b), a.max(b));
            if lo == hi {
                lo
            } else {
                rng.random_range(lo..=hi)
            }
        })
        .collect()
}

/// Bits of the binary code of a gene with this range (values min..=max as offsets from min).
pub fn bits_for(min: i32, max: i32) -> u32 {
    let span = (i64::from(max) - i64::from(min)) as u64;
    64 - span.leading_zeros()
}

/// Mutates `genes` in place and returns how many genes changed. Every result stays within its
/// weight's bounds.
///
/// - `Gaussian`: with probability `pm` a gene gets N(0, sigma * step) added (rounded, at
///   least one step of 1 so that a mutation is never a no-op), then clamped.
/// - `Step`: with probability `pm` a gene gets a uniform integer in [-s, s] \ {0}, s = sigma * step.
/// - `Reset`: with probability `pm` a gene gets a new uniform value in its bounds.
/// - `Bitflip`: the paper's operator: each bit of the gene's binary code (its offset from the
///   minimum) flips with probability `pm`; a code beyond the maximum is clamped to it.
pub fn mutate(
    genes: &mut [i32],
    schema: &Schema,
    kind: MutationKind,
    sigma: f64,
    pm: f64,
    rng: &mut impl Rng,
) -> usize {
    let mut changed = 0;
    for (g, spec) in genes.iter_mut().zip(schema.specs) {
        let before = *g;
        let step = (f64::from(spec.step) * sigma).max(1.0);
        match kind {
            MutationKind::Bitflip => {
                let mut code = (i64::from(*g) - i64::from(spec.min)) as u64;
                for bit in 0..bits_for(spec.min, spec.max) {
                    if rng.random_bool(pm) {
                        code ^= 1 << bit;
                    }
                }
                let v = (i64::from(spec.min) + code as i64).min(i64::from(spec.max));
                *g = v as i32;
            }
            _ if !rng.random_bool(pm) => {}
            MutationKind::Gaussian => {
                let normal = Normal::new(0.0, step).expect("a positive standard deviation");
                let mut d = normal.sample(rng).round() as i64;
                if d == 0 {
                    d = if rng.random_bool(0.5) { 1 } else { -1 };
                }
                *g = (i64::from(*g) + d).clamp(i64::from(spec.min), i64::from(spec.max)) as i32;
            }
            MutationKind::Step => {
                let s = step.round() as i64;
                let mut d = rng.random_range(-s..=s - 1);
                if d >= 0 {
                    d += 1; // skip zero
                }
                *g = (i64::from(*g) + d).clamp(i64::from(spec.min), i64::from(spec.max)) as i32;
            }
            MutationKind::Reset => *g = rng.random_range(spec.min..=spec.max),
        }
        if *g != before {
            changed += 1;
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect::eval::roads::CONNECT6_ROADS;
    use proptest::prelude::{prop_assert, proptest};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn crossover_takes_each_gene_from_the_parent_the_mask_names() {
        let (a, b) = (vec![1, 2, 3, 4], vec![10, 20, 30, 40]);
        assert_eq!(uniform_crossover(&a, &b, &[true, false, false, true]), vec![1, 20, 30, 4]);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mask = crossover_mask(&mut rng, 10_000);
        let ones = mask.iter().filter(|&&m| m).count();
        assert!((4_700..5_300).contains(&ones), "{ones}");
    }

    #[test]
    fn bits_cover_the_range() {
        assert_eq!(bits_for(0, 1), 1);
        assert_eq!(bits_for(0, 200), 8);
        assert_eq!(bits_for(0, 255), 8);
        assert_eq!(bits_for(0, 256), 9);
        assert_eq!(bits_for(5, 5), 0);
    }

    #[test]
    fn rates_zero_and_one() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let defaults = CONNECT6_ROADS.defaults().values().to_vec();
        for kind in [MutationKind::Gaussian, MutationKind::Step, MutationKind::Reset, MutationKind::Bitflip] {
            let mut g = defaults.clone();
            assert_eq!(mutate(&mut g, &CONNECT6_ROADS, kind, 1.0, 0.0, &mut rng), 0, "{kind:?}");
            assert_eq!(g, defaults);
        }
        let mut g = defaults.clone();
        assert_eq!(mutate(&mut g, &CONNECT6_ROADS, MutationKind::Gaussian, 1.0, 1.0, &mut rng), g.len());
    }

    proptest! {
        #[test]
        fn mutation_stays_in_bounds(seed: u64, pm in 0.0f64..=1.0, sigma in 0.1f64..50.0, k in 0usize..4) {
            let kind = [MutationKind::Gaussian, MutationKind::Step, MutationKind::Reset, MutationKind::Bitflip][k];
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut g: Vec<i32> = CONNECT6_ROADS.specs.iter().map(|s| rng.random_range(s.min..=s.max)).collect();
            mutate(&mut g, &CONNECT6_ROADS, kind, sigma, pm, &mut rng);
            for (v, s) in g.iter().zip(CONNECT6_ROADS.specs) {
                prop_assert!(s.min <= *v && *v <= s.max, "{} = {} out of [{}, {}]", s.name, v, s.min, s.max);
            }
        }

        #[test]
        fn blended_genes_lie_between_the_parents(seed: u64) {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let a: Vec<i32> = (0..12).map(|_| rng.random_range(0..100)).collect();
            let b: Vec<i32> = (0..12).map(|_| rng.random_range(0..100)).collect();
            let c = blend_crossover(&a, &b, &mut rng);
            for i in 0..12 {
                prop_assert!(a[i].min(b[i]) <= c[i] && c[i] <= a[i].max(b[i]));
            }
        }

        #[test]
        fn crossover_child_genes_come_from_a_parent(seed: u64) {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let a: Vec<i32> = (0..12).map(|_| rng.random_range(0..100)).collect();
            let b: Vec<i32> = (0..12).map(|_| rng.random_range(0..100)).collect();
            let mask = crossover_mask(&mut rng, 12);
            let c = uniform_crossover(&a, &b, &mask);
            for i in 0..12 {
                prop_assert!(c[i] == a[i] || c[i] == b[i]);
            }
        }
    }
}
