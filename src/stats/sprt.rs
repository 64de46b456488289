//! The sequential probability ratio test of fishtest and OpenBench on game or pair counts.

use super::elo::score_from_elo;
use super::sample::{Sample, PAIR_VALUES};
use super::scores::{Pentanomial, Wdl};

/// fishtest's regularisation: an empty outcome class counts as 1e-3 observations, so that a
/// sample with a single outcome (say, all wins) still has a positive variance and the SPRT
/// can stop on it instead of running forever.
const LLR_EMPTY_CLASS: f64 = 1e-3;

/// Which hypothesis an SPRT accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hypothesis {
    /// The Elo difference is at most `elo0`.
    H0,
    /// The Elo difference is at least `elo1`.
    H1,
}

/// Why SPRT parameters were refused.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum SprtError {
    #[error("SPRT error rates must lie strictly between 0 and 1 (got alpha = {alpha}, beta = {beta})")]
    ErrorRate { alpha: f64, beta: f64 },
    #[error("SPRT needs finite Elo bounds with elo0 < elo1 (got elo0 = {elo0}, elo1 = {elo1}), e.g. --sprt 0,5")]
    EloBounds { elo0: f64, elo1: f64 },
}

/// A sequential probability ratio test of H0: Elo = `elo0` against H1: Elo = `elo1` (logistic
/// Elo), with false-positive rate `alpha` and false-negative rate `beta`.
///
/// Build it with [`Sprt::new`], which checks the parameters; the methods never panic, but on
/// unchecked parameters their numbers mean nothing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Sprt {
    /// Checks 0 < alpha, beta < 1 and finite elo0 < elo1.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        let rate_ok = |x: f64| x > 0.0 && x < 1.0;
        if !rate_ok(alpha) || !rate_ok(beta) {
            return Err(SprtError::ErrorRate { alpha, beta });
        }
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtError::EloBounds { elo0, elo1 });
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// Wald's stopping bounds on the log-likelihood ratio: (ln(β/(1−α)), ln((1−β)/α)),
    /// ±2.944 for α = β = 0.05.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// Log-likelihood ratio of H1 over H0 from game pairs (the model fishtest, OpenBench and
    /// fastchess use by default). See [`Sprt::llr_trinomial`] for the formula; here the sample is
    /// one value per pair, pair score / 2.
    pub fn llr_pentanomial(&self, pairs: &Pentanomial) -> f64 {
        self.gsprt_llr(pairs.0, PAIR_VALUES)
    }

    /// Log-likelihood ratio of H1 over H0 from single games.
    ///
    /// Michel Van den Bergh's generalized SPRT for logistic Elo bounds, in the normal
    /// approximation that fishtest, OpenBench and fastchess use: with s0, s1 the expected scores
    /// of elo0, elo1 and x̄, σ² the mean and variance of the per-sample score over N samples,
    /// LLR ≈ N·(s1 − s0)·(2x̄ − s0 − s1) / (2σ²).
    ///
    /// As fishtest does, an outcome class never observed counts as 1e-3 observations, so that
    /// a one-sided sample (say, all wins) has a positive variance and still reaches a verdict.
    /// No games gives 0.
    pub fn llr_trinomial(&self, wdl: &Wdl) -> f64 {
        self.gsprt_llr([wdl.losses, wdl.draws, wdl.wins], [0.0, 0.5, 1.0])
    }

    fn gsprt_llr<const K: usize>(&self, counts: [u64; K], values: [f64; K]) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let regularised = counts.map(|c| if c == 0 { LLR_EMPTY_CLASS } else { c as f64 });
        let sample = Sample::of(regularised, values);
        if sample.var <= 0.0 {
            // Cannot happen after regularisation with distinct values; kept so that no input
            // can divide by zero.
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        sample.n * (s1 - s0) * (2.0 * sample.mean - s0 - s1) / (2.0 * sample.var)
    }

    /// H1 once `llr` reaches the upper bound, H0 once it reaches the lower, `None` to go on
    /// playing (also for a NaN `llr`).
    /// How far the test has come, as fishtest and OpenBench show it: the LLR between its
    /// bounds and the share of the way to the bound it leans toward, e.g. `LLR 1.23 (-2.94,
    /// 2.94), 42% of the way to H1`.
    pub fn progress(&self, llr: f64) -> String {
        let (lower, upper) = self.bounds();
        let (share, toward) = if llr >= 0.0 { (llr / upper, "H1") } else { (llr / lower, "H0") };
        format!("LLR {llr:.2} ({lower:.2}, {upper:.2}), {:.0}% of the way to {toward}", 100.0 * share.clamp(0.0, 1.0))
    }

    pub fn verdict(&self, llr: f64) -> Option<Hypothesis> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Hypothesis::H1)
        } else if llr <= lower {
            Some(Hypothesis::H0)
        } else {
            None
        }
    }
}
