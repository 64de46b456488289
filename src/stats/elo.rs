//! Logistic Elo and expected score, both ways.

/// The logistic Elo difference whose expected score is `score`: -400·log10(1/s − 1).
///
/// Returns -∞ for `score <= 0` and +∞ for `score >= 1` (no clamping; the caller decides how
/// to show a perfect result). NaN in, NaN out.
///
/// ```
/// use evotune::stats::elo_from_score;
/// assert!((elo_from_score(0.75) - 190.849).abs() < 1e-3);
/// assert_eq!(elo_from_score(1.0), f64::INFINITY);
/// ```
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        // s / (1 − s) rather than 1/s − 1: the same number, one rounding fewer near s = 1.
        400.0 * (score / (1.0 - score)).log10()
    }
}

/// The expected score of a player `elo` logistic Elo stronger: 1 / (1 + 10^(-elo/400)).
/// ±∞ gives 1 or 0.
///
/// ```
/// use evotune::stats::score_from_elo;
/// assert_eq!(score_from_elo(0.0), 0.5);
/// ```
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}
