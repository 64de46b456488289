//! Grouped tournament selection (Li Guo 2007 §2.3.1): the population is split at random into
//! n groups, each plays a round robin, and each group's best is its champion.

use rand::seq::SliceRandom;
use rand::Rng;

/// A random partition of 0..m into n groups whose sizes differ by at most one.
pub fn split_groups(rng: &mut impl Rng, m: usize, n: usize) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..m).collect();
    order.shuffle(rng);
    let mut groups = vec![Vec::new(); n];
    for (i, ind) in order.into_iter().enumerate() {
        groups[i % n].push(ind);
    }
    for g in &mut groups {
        g.sort_unstable();
    }
    groups
}

/// Every pairing of a group once.
pub fn round_robin(group: &[usize]) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for (i, &a) in group.iter().enumerate() {
        v.extend(group[i + 1..].iter().map(|&b| (a, b)));
    }
    v
}

/// The member of `group` with the highest fitness; ties broken by a draw from `rng` (one draw
/// whether or not there is a tie, so the stream does not depend on the results' shape).
pub fn champion(group: &[usize], fitness: &[f64], rng: &mut impl Rng) -> usize {
    let best = group.iter().map(|&i| fitness[i]).fold(f64::NEG_INFINITY, f64::max);
    let tied: Vec<usize> = group.iter().copied().filter(|&i| fitness[i] == best).collect();
    let pick = rng.random_range(0..tied.len().max(1));
    tied[pick.min(tied.len() - 1)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn groups_partition_the_population() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for (m, n) in [(20, 5), (10, 3), (12, 3), (7, 1)] {
            let groups = split_groups(&mut rng, m, n);
            assert_eq!(groups.len(), n);
            let mut all: Vec<usize> = groups.concat();
            all.sort_unstable();
            assert_eq!(all, (0..m).collect::<Vec<_>>());
            let sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
            assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1, "{sizes:?}");
        }
        // Random: two different seeds give different groupings.
        let a = split_groups(&mut ChaCha8Rng::seed_from_u64(1), 20, 5);
        let b = split_groups(&mut ChaCha8Rng::seed_from_u64(2), 20, 5);
        assert_ne!(a, b);
    }

    #[test]
    fn round_robin_pairs_everyone_once() {
        let rr = round_robin(&[3, 5, 9, 11]);
        assert_eq!(rr, vec![(3, 5), (3, 9), (3, 11), (5, 9), (5, 11), (9, 11)]);
        // The paper's count: 5 groups of 4 play 30 pairings, a full round robin of 20 plays 190.
        assert_eq!(5 * rr.len(), 30);
        assert_eq!(round_robin(&(0..20).collect::<Vec<_>>()).len(), 190);
    }

    #[test]
    fn champion_is_the_best_and_ties_are_drawn_fairly() {
        let fitness = [1.0, 3.0, -2.0, 3.0, 0.0];
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        assert_eq!(champion(&[0, 2, 4], &fitness, &mut rng), 0);
        let mut counts = [0; 5];
        for _ in 0..2000 {
            counts[champion(&[0, 1, 2, 3, 4], &fitness, &mut rng)] += 1;
        }
        assert_eq!(counts[0] + counts[2] + counts[4], 0);
        assert!((850..1150).contains(&counts[1]), "{counts:?}");
        // The same seed gives the same pick.
        let a = champion(&[1, 3], &fitness, &mut ChaCha8Rng::seed_from_u64(9));
        let b = champion(&[1, 3], &fitness, &mut ChaCha8Rng::seed_from_u64(9));
        assert_eq!(a, b);
    }
}
