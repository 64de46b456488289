//! The paired difference of two players' scores on the same openings against the same
//! opponent: what `evotune compare` reports.
//!
//! Each opening gives one difference, the second player's points minus the first's over the
//! same number of games. The openings are the independent samples, so the opening's bias
//! (openings often favour one side strongly) cancels within each difference instead of
//! widening the interval, as the pentanomial model does for the two games of a pair.

use statrs::distribution::{ContinuousCDF, StudentsT};

use super::sample::half_width;

/// Per-opening score differences (new − base) of two players on the same openings.
///
/// The mean difference per game is Σd / Σg over the openings (d the points difference of an
/// opening, g its games, the same for both players), which is the difference of the two
/// players' scores on those openings. Its standard error is the ratio estimator's,
/// √(n/(n−1)·Σ(d − mean·g)²) / Σg; when every opening has the same number of games, that is
/// the textbook s/√n of the per-opening differences per game. The 95% interval is
/// mean ± t(0.975, n−1)·se (Student's t with n − 1 degrees of freedom).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairedDiff {
    /// (points difference, games) of each opening.
    openings: Vec<(f64, u64)>,
}

impl PairedDiff {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one opening: each player's points over its `games` games (a win 1, a draw ½).
    pub fn add(&mut self, base_points: f64, new_points: f64, games: u64) {
        self.openings.push((new_points - base_points, games));
    }

    /// Number of openings.
    pub fn openings(&self) -> usize {
        self.openings.len()
    }

    /// Games of each player (saturating).
    pub fn games(&self) -> u64 {
        self.openings.iter().fold(0u64, |acc, &(_, g)| acc.saturating_add(g))
    }

    /// The difference of the scores, points per game (−1 to 1); 0 with no games.
    pub fn mean(&self) -> f64 {
        let games = self.games();
        if games == 0 {
            return 0.0;
        }
        self.openings.iter().map(|&(d, _)| d).sum::<f64>() / games as f64
    }

    /// Standard error of [`PairedDiff::mean`]; infinite with fewer than two openings.
    pub fn std_error(&self) -> f64 {
        let n = self.openings.len() as f64;
        let games = self.games() as f64;
        if n < 2.0 || games == 0.0 {
            return f64::INFINITY;
        }
        let mean = self.mean();
        let ss: f64 = self.openings.iter().map(|&(d, g)| (d - mean * g as f64).powi(2)).sum();
        (n / (n - 1.0) * ss).sqrt() / games
    }

    /// t(0.975, n − 1): the interval's half-width in standard errors; infinite with fewer
    /// than two openings.
    pub fn t95(&self) -> f64 {
        let df = self.openings.len().saturating_sub(1) as f64;
        match StudentsT::new(0.0, 1.0, df) {
            Ok(t) if df >= 1.0 => t.inverse_cdf(0.975),
            _ => f64::INFINITY,
        }
    }

    /// 95% interval of the mean difference (Student's t); (−∞, +∞) with fewer than two
    /// openings, a single point when every opening differs by the same amount.
    pub fn ci95(&self) -> (f64, f64) {
        let (mean, se) = (self.mean(), self.std_error());
        if se.is_infinite() {
            return (f64::NEG_INFINITY, f64::INFINITY);
        }
        let half = self.t95() * se;
        (mean - half, mean + half)
    }

    /// Half the width of [`PairedDiff::ci95`], the printed "±"; infinite when either end is.
    pub fn error95(&self) -> f64 {
        half_width(self.ci95())
    }

    /// The mean in standard errors (the t statistic); 0 for a mean of 0 or fewer than two
    /// openings, ±∞ when every opening differs by the same non-zero amount.
    pub fn z(&self) -> f64 {
        let (mean, se) = (self.mean(), self.std_error());
        if mean == 0.0 || se.is_infinite() {
            0.0
        } else if se == 0.0 {
            f64::INFINITY.copysign(mean)
        } else {
            mean / se
        }
    }

    /// Openings where the new player scored more, less, and the same.
    pub fn changes(&self) -> Changes {
        let mut c = Changes::default();
        for &(d, _) in &self.openings {
            match d.partial_cmp(&0.0) {
                Some(std::cmp::Ordering::Greater) => c.better += 1,
                Some(std::cmp::Ordering::Less) => c.worse += 1,
                _ => c.same += 1,
            }
        }
        c
    }
}

/// How many openings a paired difference found better, worse and unchanged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Changes {
    pub better: usize,
    pub worse: usize,
    pub same: usize,
}
