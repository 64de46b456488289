//! Crossover and mutation probabilities, fixed or adapted to fitness (§2.4 of Li Guo 2007).
//!
//! With fmax the best and favg the mean fitness of the generation, f' the larger fitness of
//! the two parents and f the fitness of the individual to mutate:
//! - **improved** (Li Guo 2007 as its text and the standard form intend):
//!   Pc = Pc1 - (Pc1 - Pc2)(f' - favg)/(fmax - favg) if f' >= favg, else Pc1;
//!   Pm = Pm1 - (Pm1 - Pm2)(f - favg)/(fmax - favg) if f >= favg, else Pm1.
//! - **printed**: as printed, with (fmax - f) in the Pm numerator, which gives the best
//!   individual the highest mutation rate; kept only to reproduce the print.
//! - **srinivas** (Srinivas & Patnaik, IEEE SMC 1994): Pc = k1 (fmax - f')/(fmax - favg) if
//!   f' >= favg, else k3; Pm = k2 (fmax - f)/(fmax - favg) if f >= favg, else k4.
//! - **fixed**: pc and pm.
//!
//! When fmax == favg (every individual scored the same: common with small groups and +-1
//! scores) the games carry no ranking, so every individual is treated as below average and
//! gets the exploring rates (Pc1 / Pm1, k3 / k4): selection cannot tell, so variation should
//! not shrink.

use crate::ga::config::{RatesConfig, RatesMode};

/// (f - favg)/(fmax - favg), or None when the generation's fitness has no spread or f is below
/// average.
fn above_average_share(f: f64, fmax: f64, favg: f64) -> Option<f64> {
    let spread = fmax - favg;
    if spread <= f64::EPSILON * fmax.abs().max(1.0) || f < favg {
        None
    } else {
        Some(((f - favg) / spread).clamp(0.0, 1.0))
    }
}

/// The crossover probability of two parents whose larger fitness is `f_prime`.
pub fn crossover_rate(c: &RatesConfig, f_prime: f64, fmax: f64, favg: f64) -> f64 {
    let share = above_average_share(f_prime, fmax, favg);
    match (c.mode, share) {
        (RatesMode::Fixed, _) => c.pc,
        (RatesMode::Improved | RatesMode::Printed, Some(s)) => c.pc1 - (c.pc1 - c.pc2) * s,
        (RatesMode::Improved | RatesMode::Printed, None) => c.pc1,
        (RatesMode::Srinivas, Some(s)) => c.k1 * (1.0 - s),
        (RatesMode::Srinivas, None) => c.k3,
    }
}

/// The mutation probability of an individual of fitness `f`.
pub fn mutation_rate(c: &RatesConfig, f: f64, fmax: f64, favg: f64) -> f64 {
    let share = above_average_share(f, fmax, favg);
    match (c.mode, share) {
        (RatesMode::Fixed, _) => c.pm,
        (RatesMode::Improved, Some(s)) => c.pm1 - (c.pm1 - c.pm2) * s,
        // (fmax - f)/(fmax - favg) = 1 - s.
        (RatesMode::Printed, Some(s)) => c.pm1 - (c.pm1 - c.pm2) * (1.0 - s),
        (RatesMode::Improved | RatesMode::Printed, None) => c.pm1,
        (RatesMode::Srinivas, Some(s)) => c.k2 * (1.0 - s),
        (RatesMode::Srinivas, None) => c.k4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(mode: RatesMode) -> RatesConfig {
        RatesConfig { mode, ..RatesConfig::default() }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn improved_at_its_edges() {
        let c = cfg(RatesMode::Improved);
        // Best individual: the low rates; average: the high ones; below average: the high ones.
        assert!(close(crossover_rate(&c, 6.0, 6.0, 0.0), 0.6));
        assert!(close(crossover_rate(&c, 0.0, 6.0, 0.0), 0.9));
        assert!(close(crossover_rate(&c, -3.0, 6.0, 0.0), 0.9));
        assert!(close(crossover_rate(&c, 3.0, 6.0, 0.0), 0.75));
        assert!(close(mutation_rate(&c, 6.0, 6.0, 0.0), 0.001));
        assert!(close(mutation_rate(&c, 0.0, 6.0, 0.0), 0.1));
        assert!(close(mutation_rate(&c, -6.0, 6.0, 0.0), 0.1));
        assert!(close(mutation_rate(&c, 3.0, 6.0, 0.0), 0.1 - 0.099 / 2.0));
    }

    #[test]
    fn printed_variant_inverts_the_mutation_rate() {
        let c = cfg(RatesMode::Printed);
        assert!(close(mutation_rate(&c, 6.0, 6.0, 0.0), 0.1), "the best gets the highest rate, as printed");
        assert!(close(mutation_rate(&c, 0.0, 6.0, 0.0), 0.001));
        assert!(close(crossover_rate(&c, 6.0, 6.0, 0.0), 0.6));
    }

    #[test]
    fn srinivas_protects_the_best() {
        let c = cfg(RatesMode::Srinivas);
        assert!(close(crossover_rate(&c, 6.0, 6.0, 0.0), 0.0));
        assert!(close(mutation_rate(&c, 6.0, 6.0, 0.0), 0.0));
        assert!(close(crossover_rate(&c, 0.0, 6.0, 0.0), 1.0));
        assert!(close(mutation_rate(&c, 0.0, 6.0, 0.0), 0.5));
        assert!(close(crossover_rate(&c, -1.0, 6.0, 0.0), c.k3));
        assert!(close(mutation_rate(&c, -1.0, 6.0, 0.0), c.k4));
    }

    #[test]
    fn no_spread_gives_exploring_rates_and_no_nan() {
        for mode in [RatesMode::Improved, RatesMode::Printed, RatesMode::Srinivas] {
            let c = cfg(mode);
            let pc = crossover_rate(&c, 2.0, 2.0, 2.0);
            let pm = mutation_rate(&c, 2.0, 2.0, 2.0);
            assert!(pc.is_finite() && pm.is_finite());
            let (want_pc, want_pm) = if mode == RatesMode::Srinivas { (c.k3, c.k4) } else { (c.pc1, c.pm1) };
            assert!(close(pc, want_pc) && close(pm, want_pm), "{mode:?}: {pc} {pm}");
        }
        let c = cfg(RatesMode::Fixed);
        assert_eq!((crossover_rate(&c, 1.0, 1.0, 1.0), mutation_rate(&c, 1.0, 1.0, 1.0)), (c.pc, c.pm));
    }
}
