//! A sample of scores summarised by its size, mean and variance: what the intervals of game
//! and pair counts and the SPRT's log-likelihood ratio are computed from.

use super::elo::elo_from_score;
use super::Z95;

/// Per-game score of each pentanomial class: pair score / 2.
pub(super) const PAIR_VALUES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Count, mean and (population) variance of a sample given as counts per value.
#[derive(Clone, Copy, Debug)]
pub(super) struct Sample {
    pub(super) n: f64,
    pub(super) mean: f64,
    pub(super) var: f64,
}

impl Sample {
    pub(super) fn of<const K: usize>(counts: [f64; K], values: [f64; K]) -> Sample {
        let n: f64 = counts.iter().sum();
        if n <= 0.0 {
            return Sample { n: 0.0, mean: 0.5, var: 0.0 };
        }
        let mean = counts.iter().zip(values).map(|(c, v)| c * v).sum::<f64>() / n;
        let var = counts.iter().zip(values).map(|(c, v)| c * (v - mean) * (v - mean)).sum::<f64>() / n;
        // Rounding can leave a mean a hair outside [0, 1] or a variance a hair below 0.
        Sample { n, mean: mean.clamp(0.0, 1.0), var: var.max(0.0) }
    }

    pub(super) fn elo_ci95(&self) -> (f64, f64) {
        if self.n <= 0.0 {
            return (f64::NEG_INFINITY, f64::INFINITY);
        }
        let half = Z95 * (self.var / self.n).sqrt();
        (elo_from_score(self.mean - half), elo_from_score(self.mean + half))
    }
}

pub(super) fn half_width((lo, hi): (f64, f64)) -> f64 {
    if lo.is_finite() && hi.is_finite() {
        (hi - lo) / 2.0
    } else {
        f64::INFINITY
    }
}
