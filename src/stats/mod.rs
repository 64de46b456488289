//! Match and tournament statistics: logistic Elo, confidence intervals, likelihood of
//! superiority, the pentanomial model of game pairs, the SPRT, Bradley–Terry ratings, and the
//! paired difference of two players' scores on the same openings.
//!
//! Engine authors compare these numbers with cutechess-cli, fastchess, fishtest, OpenBench and
//! BayesElo/Ordo, so every quantity follows a published formula, named in its doc comment. The
//! functions are pure: counts in, numbers out, nothing printed.
//!
//! Conventions shared by the whole module:
//! - "score" is the expected points per game of the first player, a win = 1, a draw = ½;
//! - "Elo" is logistic Elo, `score = 1 / (1 + 10^(-elo/400))`;
//! - 95% intervals use z = Φ⁻¹(0.975) ≈ 1.95996 (cutechess-cli and fastchess use an
//!   approximation of Φ⁻¹, so their printed error bars may differ from ours by about 0.2%);
//! - a score of exactly 0 or 1 has an Elo of -∞ or +∞ (not clamped), which Rust prints as
//!   `-inf` / `inf`; no function here returns NaN for any counts.
//!
//! ```
//! use evotune::stats::{Pentanomial, Sprt, Wdl, GameScore::*};
//!
//! let wdl = Wdl::new(60, 20, 40);
//! assert!((wdl.score() - 0.5833).abs() < 1e-4);
//! assert!((wdl.los() - 0.977).abs() < 1e-3);
//!
//! let pairs = Pentanomial::from_pairs([(Win, Draw), (Loss, Win), (Draw, Draw)]);
//! assert_eq!(pairs.0, [0, 0, 2, 1, 0]);
//!
//! let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).expect("valid SPRT parameters");
//! let llr = sprt.llr_pentanomial(&pairs);
//! assert_eq!(sprt.verdict(llr), None); // three pairs decide nothing
//! ```

mod elo;
mod paired;
mod ratings;
mod sample;
mod scores;
mod sprt;
#[cfg(test)]
mod tests;

pub use elo::{elo_from_score, score_from_elo};
pub use paired::{Changes, PairedDiff};
pub use ratings::{ratings, Rating, RatingsError};
pub use scores::{GameScore, Pentanomial, Wdl};
pub use sprt::{Hypothesis, Sprt, SprtError};

/// Φ⁻¹(0.975): the half-width of a two-sided 95% normal interval in standard deviations.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Ratings of a tournament are clipped to ±`RATING_CAP` Elo around the pool mean; a clipped
/// rating is only a bound and gets an infinite error bar.
pub const RATING_CAP: f64 = 1200.0;
