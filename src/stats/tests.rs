//! Tests of the statistics against published formulas and brute force.

use super::ratings::ELO_PER_NAT;
use super::sample::PAIR_VALUES;
use super::GameScore::*;
use super::*;
use proptest::prelude::*;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn z95_is_the_normal_quantile() {
    use statrs::distribution::{ContinuousCDF, Normal};
    assert!(close(Normal::standard().inverse_cdf(0.975), Z95, 1e-9));
}

#[test]
fn logistic_elo_known_values() {
    // -400·log10(1/0.75 − 1) = 400·log10 3 = 190.8485.
    assert!(close(elo_from_score(0.75), 190.8485, 1e-4));
    assert!(close(elo_from_score(0.25), -190.8485, 1e-4));
    assert_eq!(score_from_elo(0.0), 0.5);
    assert_eq!(elo_from_score(0.5), 0.0);
    assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    assert_eq!(elo_from_score(1.0), f64::INFINITY);
    assert_eq!(score_from_elo(f64::INFINITY), 1.0);
    assert_eq!(score_from_elo(f64::NEG_INFINITY), 0.0);
    for elo in [-800.0, -35.5, 0.1, 400.0] {
        assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
    }
}

#[test]
fn wdl_elo_and_interval_by_hand() {
    // W=30, D=40, L=30 over n=100: s = 0.5, σ² = 0.3·0.25 + 0.4·0 + 0.3·0.25 = 0.15,
    // σ/√n = 0.0387298, half-width 1.959964·0.0387298 = 0.0759091, so the score interval is
    // [0.4240909, 0.5759091] and in Elo ±400·log10(0.5759091/0.4240909) = ±53.158.
    let wdl = Wdl::new(30, 40, 30);
    assert_eq!(wdl.games(), 100);
    assert_eq!(wdl.score(), 0.5);
    assert_eq!(wdl.elo(), 0.0);
    assert!(close(wdl.draw_ratio(), 0.4, 1e-12));
    let (lo, hi) = wdl.elo_ci95();
    assert!(close(hi, 53.158, 1e-3) && close(lo, -53.158, 1e-3), "{lo} {hi}");
    assert!(close(wdl.elo_error95(), 53.158, 1e-3));
}

#[test]
fn wdl_matches_published_cutechess_style_numbers() {
    // fastchess's Elo tests (cutechess-cli's formula), printed to two decimals: (W, L, D) ->
    // Elo, error. Elo must agree to the rounding; the error within 0.3%, because those
    // programs use an approximate Φ⁻¹ (their 1.957 against our 1.95996).
    for (w, l, d, elo, err) in
        [(0, 36, 14, -315.34, 95.43), (859, 772, 1329, 10.21, 9.28), (1164, 1267, 3049, -6.53, 6.12)]
    {
        let wdl = Wdl::new(w, d, l);
        assert!(close(wdl.elo(), elo, 0.01), "{wdl:?}: {}", wdl.elo());
        assert!(close(wdl.elo_error95() / err, 1.0, 0.003), "{wdl:?}: {}", wdl.elo_error95());
    }
}

#[test]
fn perfect_and_empty_results() {
    let all_wins = Wdl::new(10, 0, 0);
    assert_eq!(all_wins.elo(), f64::INFINITY);
    assert_eq!(all_wins.elo_ci95(), (f64::INFINITY, f64::INFINITY));
    assert_eq!(all_wins.elo_error95(), f64::INFINITY);
    let none = Wdl::default();
    assert_eq!((none.score(), none.elo(), none.los(), none.draw_ratio()), (0.5, 0.0, 0.5, 0.0));
    assert_eq!(none.elo_ci95(), (f64::NEG_INFINITY, f64::INFINITY));
    let all_draws = Wdl::new(0, 7, 0);
    assert_eq!((all_draws.elo(), all_draws.elo_error95()), (0.0, 0.0));
}

#[test]
fn los_known_values() {
    assert_eq!(Wdl::new(40, 100, 40).los(), 0.5);
    // Φ(20/√100) = Φ(2) = 0.97725.
    assert!(close(Wdl::new(60, 0, 40).los(), 0.97725, 1e-5));
    assert!(close(Wdl::new(40, 0, 60).los(), 1.0 - 0.97725, 1e-5));
}

#[test]
fn pentanomial_counts_and_elo() {
    let p = Pentanomial::from_pairs([(Win, Loss), (Draw, Draw), (Loss, Win), (Win, Draw), (Loss, Loss)]);
    assert_eq!(p.0, [1, 0, 3, 1, 0]);
    assert_eq!(p.pairs(), 5);
    assert_eq!(p.reversed().0, [0, 1, 3, 0, 1]);
    // Every pair scoring 1: score ½, Elo 0, and zero spread.
    let even = Pentanomial([0, 0, 12, 0, 0]);
    assert_eq!((even.score(), even.elo(), even.elo_error95()), (0.5, 0.0, 0.0));
    // [1, 2, 4, 2, 1] by hand: mean 0.5, σ² = (2·0.25 + 4·0.0625)/10 = 0.075, half-width of
    // the score interval 1.959964·√(0.0075) = 0.169738, Elo ±400·log10(0.669738/0.330262).
    let p = Pentanomial([1, 2, 4, 2, 1]);
    let expect = 400.0 * (0.669738f64 / 0.330262).log10();
    assert!(close(p.elo_error95(), expect, 0.01), "{} {expect}", p.elo_error95());
    assert_eq!(Pentanomial::default().elo_ci95(), (f64::NEG_INFINITY, f64::INFINITY));
}

#[test]
fn sprt_bounds() {
    let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).expect("valid");
    let (lo, hi) = sprt.bounds();
    assert!(close(lo, -2.944, 1e-3) && close(hi, 2.944, 1e-3));
    assert_eq!(sprt.verdict(3.0), Some(Hypothesis::H1));
    assert_eq!(sprt.verdict(-3.0), Some(Hypothesis::H0));
    assert_eq!(sprt.verdict(0.0), None);
    assert_eq!(sprt.verdict(f64::NAN), None);
    assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
    assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
    assert!(Sprt::new(0.0, f64::NAN, 0.05, 0.05).is_err());
}

#[test]
fn sprt_matches_published_fastchess_numbers() {
    // fastchess's SPRT tests with the logistic model, printed to two decimals, so the
    // tolerance is the rounding, 0.005. Trinomial: (W, L, D); pentanomial: fastchess lists
    // (LL, LD, WL, DD, WD, WW), and WL and DD both score one point per pair.
    let t = |w, l, d, e0, e1| Sprt::new(e0, e1, 0.05, 0.05).expect("valid").llr_trinomial(&Wdl::new(w, d, l));
    assert!(close(t(21404, 21184, 40708, 0.5, 2.5), -1.57, 0.005));
    assert!(close(t(57433, 57030, 106593, 0.0, 2.0), -2.59, 0.005));
    let p = |c, e0, e1| Sprt::new(e0, e1, 0.05, 0.05).expect("valid").llr_pentanomial(&Pentanomial(c));
    assert!(close(p([223, 9863, 20279 + 1000, 10037, 246], 0.5, 2.5), -3.07, 0.005));
    assert!(close(p([871, 26175, 55003 + 980, 26678, 821], 0.0, 2.0), -4.98, 0.005));
}

/// The exact generalized log-likelihood ratio, computed differently from the normal
/// approximation: for each hypothesis the multinomial maximum-likelihood distribution with
/// mean s is p_i = p̂_i / (1 + λ(a_i − s)), λ the root of Σ p̂_i (a_i − s)/(1 + λ(a_i − s)),
/// found here by bisection; LLR = N Σ p̂_i ln(p1_i / p0_i).
fn exact_llr(counts: &[f64], values: &[f64], elo0: f64, elo1: f64) -> f64 {
    let n: f64 = counts.iter().sum();
    let freq: Vec<f64> = counts.iter().map(|c| c / n).collect();
    let lambda = |s: f64| {
        let f = |x: f64| freq.iter().zip(values).map(|(p, a)| p * (a - s) / (1.0 + x * (a - s))).sum::<f64>();
        let (vmin, vmax) = (values[0], values[values.len() - 1]);
        let (mut lo, mut hi) = (-1.0 / (vmax - s) * (1.0 - 1e-12), 1.0 / (s - vmin) * (1.0 - 1e-12));
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if f(mid) > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    };
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    let (l0, l1) = (lambda(s0), lambda(s1));
    n * freq.iter().zip(values).map(|(p, a)| p * ((1.0 + l0 * (a - s0)) / (1.0 + l1 * (a - s1))).ln()).sum::<f64>()
}

#[test]
fn sprt_approximation_agrees_with_exact_glr() {
    // Near-even results with narrow bounds, where the normal approximation is tight: its
    // error is of third order in the score differences; 1e-3 in LLR leaves a wide margin
    // over the ~5e-4 seen on these cases.
    let cases: [([u64; 5], f64, f64); 3] = [
        ([50, 300, 700, 320, 60], 0.0, 5.0),
        ([223, 9863, 21279, 10037, 246], 0.5, 2.5),
        ([871, 26175, 55983, 26678, 821], 0.0, 2.0),
    ];
    for (counts, e0, e1) in cases {
        let approx = Sprt::new(e0, e1, 0.05, 0.05).expect("valid").llr_pentanomial(&Pentanomial(counts));
        let exact = exact_llr(&counts.map(|c| c as f64), &PAIR_VALUES, e0, e1);
        assert!(close(approx, exact, 1e-3), "{counts:?}: {approx} vs {exact}");
    }
    let wdl = Wdl::new(4307, 8620, 4063);
    let approx = Sprt::new(0.0, 3.0, 0.05, 0.05).expect("valid").llr_trinomial(&wdl);
    let exact = exact_llr(&[4063.0, 8620.0, 4307.0], &[0.0, 0.5, 1.0], 0.0, 3.0);
    assert!(close(approx, exact, 1e-3), "{approx} vs {exact}");
}

#[test]
fn llr_sign_and_growth() {
    let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).expect("valid");
    // A 20 Elo edge (score ≈ 0.5288) favours H1; a 10 Elo deficit favours H0.
    let mut last = 0.0;
    for k in [1, 10, 100] {
        let llr = sprt.llr_trinomial(&Wdl::new(300 * k, 400 * k, 277 * k));
        assert!(llr > last, "{k}: {llr}");
        last = llr;
        assert!(sprt.llr_pentanomial(&Pentanomial([10 * k, 60 * k, 100 * k, 70 * k, 14 * k])) > 0.0);
        assert!(sprt.llr_trinomial(&Wdl::new(280 * k, 400 * k, 300 * k)) < 0.0);
    }
    assert_eq!(sprt.verdict(last), Some(Hypothesis::H1));
}

#[test]
fn llr_degenerate_samples() {
    let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).expect("valid");
    assert_eq!(sprt.llr_trinomial(&Wdl::default()), 0.0);
    assert_eq!(sprt.llr_pentanomial(&Pentanomial::default()), 0.0);
    // One-sided samples have no spread; regularisation must still give a verdict.
    assert_eq!(sprt.verdict(sprt.llr_trinomial(&Wdl::new(50, 0, 0))), Some(Hypothesis::H1));
    assert_eq!(sprt.verdict(sprt.llr_trinomial(&Wdl::new(0, 0, 50))), Some(Hypothesis::H0));
    assert_eq!(sprt.verdict(sprt.llr_pentanomial(&Pentanomial([0, 0, 0, 0, 30]))), Some(Hypothesis::H1));
    // All pairs even: the evidence points below elo0 = 0 < elo1, so toward H0.
    assert!(sprt.llr_pentanomial(&Pentanomial([0, 0, 100, 0, 0])) < 0.0);
}

fn rated(n: usize, results: &[(usize, usize, Wdl)]) -> Vec<Rating> {
    ratings(n, results).expect("valid tournament")
}

#[test]
fn ratings_of_a_balanced_cycle_are_zero() {
    let r = rated(3, &[(0, 1, Wdl::new(7, 3, 2)), (1, 2, Wdl::new(7, 3, 2)), (2, 0, Wdl::new(7, 3, 2))]);
    for x in &r {
        assert!(x.elo.abs() < 1e-6, "{r:?}");
        assert!(x.error95.is_finite() && x.error95 > 0.0);
    }
    assert!(close(r[0].error95, r[1].error95, 1e-6) && close(r[1].error95, r[2].error95, 1e-6));
}

#[test]
fn two_players_agree_with_elo_from_score() {
    for wdl in [Wdl::new(30, 10, 20), Wdl::new(99, 0, 1), Wdl::new(3, 50, 1)] {
        let r = rated(2, &[(1, 0, wdl)]);
        assert!(close(r[1].elo - r[0].elo, wdl.elo(), 1e-6), "{wdl:?}: {r:?}");
        assert!(close(r[0].elo + r[1].elo, 0.0, 1e-9));
        // Binomial information n·s(1−s) for the difference; each rating carries half of it.
        let n = wdl.games() as f64;
        let s = wdl.score();
        let expect = Z95 * ELO_PER_NAT / (n * s * (1.0 - s)).sqrt() / 2.0;
        assert!(close(r[0].error95, expect, 1e-6 * expect), "{} {expect}", r[0].error95);
    }
    // The order of the pairing and of repeated entries does not matter.
    let a = rated(2, &[(0, 1, Wdl::new(5, 2, 3)), (1, 0, Wdl::new(1, 0, 4))]);
    let b = rated(2, &[(0, 1, Wdl::new(9, 2, 4))]);
    assert!(close(a[0].elo, b[0].elo, 1e-9));
}

#[test]
fn ratings_recover_known_strengths() {
    // Expected-score counts from known ratings (mean 0), 20 000 games per pairing, so the
    // only error is rounding the counts: a few hundredths of an Elo.
    let truth = [-300.0, -120.0, 0.0, 170.0, 250.0];
    let mut results = Vec::new();
    for i in 0..truth.len() {
        for j in i + 1..truth.len() {
            let n = 20_000u64;
            let wins = (n as f64 * score_from_elo(truth[i] - truth[j])).round() as u64;
            results.push((i, j, Wdl::new(wins, 0, n - wins)));
        }
    }
    let r = rated(truth.len(), &results);
    for (got, want) in r.iter().zip(truth) {
        assert!(close(got.elo, want, 0.5), "{r:?}");
        assert!(got.error95 < 10.0);
    }
}

#[test]
fn perfect_scores_are_capped_not_infinite() {
    // Player 0 won everything; 1 and 2 split; the MLE of player 0 is infinite.
    let r = rated(3, &[(0, 1, Wdl::new(100, 0, 0)), (0, 2, Wdl::new(100, 0, 0)), (1, 2, Wdl::new(5, 2, 5))]);
    assert!(r.iter().all(|x| x.elo.is_finite() && !x.error95.is_nan()), "{r:?}");
    assert!(r[0].elo > 500.0 && r[0].elo <= RATING_CAP);
    assert!(close(r[1].elo, r[2].elo, 1e-6));
    // A huge perfect score hits the cap.
    let r = rated(2, &[(0, 1, Wdl::new(10_000_000, 0, 0))]);
    assert_eq!((r[0].elo, r[1].elo), (RATING_CAP, -RATING_CAP));
    assert_eq!(r[0].error95, f64::INFINITY);
    // A group that beat another group every time, with a real order inside each group.
    let r = rated(
        4,
        &[
            (0, 1, Wdl::new(6, 0, 4)),
            (2, 3, Wdl::new(6, 0, 4)),
            (0, 2, Wdl::new(10, 0, 0)),
            (0, 3, Wdl::new(10, 0, 0)),
            (1, 2, Wdl::new(10, 0, 0)),
            (1, 3, Wdl::new(10, 0, 0)),
        ],
    );
    assert!(r[0].elo > r[1].elo && r[1].elo > r[2].elo && r[2].elo > r[3].elo, "{r:?}");
}

#[test]
fn ratings_of_players_without_games_and_of_separate_groups() {
    let r = rated(5, &[(0, 1, Wdl::new(6, 0, 4)), (3, 4, Wdl::new(2, 0, 8))]);
    assert_eq!(r[2], Rating { elo: 0.0, error95: f64::INFINITY });
    assert!(close(r[0].elo + r[1].elo, 0.0, 1e-9) && close(r[3].elo + r[4].elo, 0.0, 1e-9));
    assert!(close(r[0].elo - r[1].elo, Wdl::new(6, 0, 4).elo(), 1e-6));
    assert!(rated(0, &[]).is_empty());
}

#[test]
fn ratings_reject_bad_indices() {
    assert_eq!(
        ratings(2, &[(0, 2, Wdl::new(1, 0, 0))]),
        Err(RatingsError::PlayerOutOfRange { index: 2, n_players: 2 })
    );
    assert_eq!(ratings(2, &[(1, 1, Wdl::new(1, 0, 0))]), Err(RatingsError::SelfPairing { index: 1 }));
}

fn wdl_strategy() -> impl Strategy<Value = Wdl> {
    (0u64..1_000_000_000, 0u64..1_000_000_000, 0u64..1_000_000_000).prop_map(|(w, d, l)| Wdl::new(w, d, l))
}

fn small_wdl() -> impl Strategy<Value = Wdl> {
    (0u64..50, 0u64..50, 0u64..50).prop_map(|(w, d, l)| Wdl::new(w, d, l))
}

#[test]
fn paired_difference_by_hand() {
    // Five openings of two games each; the new player's points minus the base player's:
    // 1, 2, 0, -0.5, 1, that is 0.5, 1, 0, -0.25, 0.5 a game. Mean 0.35; deviations 0.15,
    // 0.65, -0.35, -0.6, 0.15, squares summing to 0.95; s² = 0.95 / 4 = 0.2375, se =
    // √(0.2375 / 5) = 0.2179449; t(0.975, 4) = 2.7764451, half-width 0.6051122; z = 1.6059101.
    let mut p = PairedDiff::new();
    for (base, new) in [(1.0, 2.0), (0.0, 2.0), (1.5, 1.5), (1.0, 0.5), (0.5, 1.5)] {
        p.add(base, new, 2);
    }
    assert_eq!((p.openings(), p.games()), (5, 10));
    assert!(close(p.mean(), 0.35, 1e-12));
    assert!(close(p.std_error(), 0.217_944_947, 1e-9));
    assert!(close(p.t95(), 2.776_445_105, 1e-8));
    assert!(close(p.error95(), 0.605_112_182, 1e-8));
    let (lo, hi) = p.ci95();
    assert!(close(lo, -0.255_112_182, 1e-8) && close(hi, 0.955_112_182, 1e-8), "{lo} {hi}");
    assert!(close(p.z(), 1.605_910_137, 1e-8));
    assert_eq!(p.changes(), Changes { better: 3, worse: 1, same: 1 });
}

#[test]
fn paired_difference_weighs_openings_by_their_games() {
    // Openings of 4, 2 and 2 games with points differences 2, 0, -1: the mean is the
    // difference of the scores, 1/8; the ratio estimator's residuals d - mean·g are 1.5,
    // -0.25, -1.25 (squares 3.875), se = √(3/2 · 3.875) / 8 = 0.3013641.
    let mut p = PairedDiff::new();
    p.add(1.0, 3.0, 4);
    p.add(1.0, 1.0, 2);
    p.add(2.0, 1.0, 2);
    assert_eq!(p.mean(), 0.125);
    assert!(close(p.std_error(), 0.301_364_086, 1e-9));
    assert_eq!(p.changes(), Changes { better: 1, worse: 1, same: 1 });
}

#[test]
fn paired_difference_t_quantiles() {
    // Student's t tables: t(0.975) with 1, 3, 5 and 99 degrees of freedom; the normal's z
    // in the limit.
    for (openings, t) in [(2, 12.706_204_736), (4, 3.182_446_305), (6, 2.570_581_836), (100, 1.984_216_952)] {
        let mut p = PairedDiff::new();
        for k in 0..openings {
            p.add(0.0, (k % 3) as f64 / 2.0, 2);
        }
        assert!(close(p.t95(), t, 1e-6), "{openings}: {}", p.t95());
    }
    let mut p = PairedDiff::new();
    for k in 0..100_000 {
        p.add(0.0, (k % 2) as f64, 2);
    }
    assert!(close(p.t95(), Z95, 1e-4));
}

#[test]
fn paired_difference_of_too_few_or_equal_openings() {
    let empty = PairedDiff::new();
    assert_eq!((empty.mean(), empty.z(), empty.games()), (0.0, 0.0, 0));
    assert_eq!(empty.ci95(), (f64::NEG_INFINITY, f64::INFINITY));
    assert_eq!(empty.error95(), f64::INFINITY);
    let mut one = PairedDiff::new();
    one.add(0.0, 2.0, 2);
    assert_eq!((one.mean(), one.z(), one.std_error()), (1.0, 0.0, f64::INFINITY));
    assert_eq!(one.error95(), f64::INFINITY);
    // Every opening one point better: no spread, a one-point interval, z infinite.
    let mut same = PairedDiff::new();
    for _ in 0..3 {
        same.add(0.5, 1.5, 2);
    }
    assert_eq!((same.mean(), same.std_error(), same.ci95(), same.error95()), (0.5, 0.0, (0.5, 0.5), 0.0));
    assert_eq!(same.z(), f64::INFINITY);
    let mut none = PairedDiff::new();
    none.add(1.0, 1.0, 2);
    none.add(2.0, 2.0, 2);
    assert_eq!((none.mean(), none.z(), none.ci95()), (0.0, 0.0, (0.0, 0.0)));
    assert_eq!(none.changes(), Changes { better: 0, worse: 0, same: 2 });
}

proptest! {
    #[test]
    fn wdl_numbers_are_never_nan(wdl in wdl_strategy(), e0 in -50.0f64..50.0, width in 0.5f64..50.0) {
        let (lo, hi) = wdl.elo_ci95();
        prop_assert!(!wdl.score().is_nan() && !wdl.elo().is_nan());
        prop_assert!(!lo.is_nan() && !hi.is_nan() && lo <= hi);
        prop_assert!(!wdl.elo_error95().is_nan());
        prop_assert!((0.0..=1.0).contains(&wdl.los()));
        prop_assert!((0.0..=1.0).contains(&wdl.draw_ratio()));
        let sprt = Sprt::new(e0, e0 + width, 0.05, 0.05).expect("valid");
        prop_assert!(sprt.llr_trinomial(&wdl).is_finite());
    }

    #[test]
    fn pentanomial_numbers_are_never_nan(
        counts in proptest::array::uniform5(0u64..1_000_000_000),
        e0 in -50.0f64..50.0,
        width in 0.5f64..50.0,
    ) {
        let p = Pentanomial(counts);
        let (lo, hi) = p.elo_ci95();
        prop_assert!(!p.elo().is_nan() && !lo.is_nan() && !hi.is_nan() && lo <= hi);
        prop_assert!(!p.elo_error95().is_nan());
        let sprt = Sprt::new(e0, e0 + width, 0.05, 0.05).expect("valid");
        prop_assert!(sprt.llr_pentanomial(&p).is_finite());
    }

    #[test]
    fn paired_difference_is_never_nan(openings in proptest::collection::vec((0u8..=4, 0u8..=4, 1u64..3), 0..40)) {
        let mut p = PairedDiff::new();
        let (mut base, mut new, mut games) = (0.0, 0.0, 0);
        for &(b, n, g) in &openings {
            // Half-points out of 2 games, scaled to the opening's games.
            let (b, n) = (f64::from(b) / 4.0 * g as f64, f64::from(n) / 4.0 * g as f64);
            p.add(b, n, g);
            base += b;
            new += n;
            games += g;
        }
        let (lo, hi) = p.ci95();
        prop_assert!(!p.mean().is_nan() && !p.z().is_nan() && !p.std_error().is_nan());
        prop_assert!(lo <= p.mean() && p.mean() <= hi, "{} {} {}", lo, p.mean(), hi);
        prop_assert!(!p.error95().is_nan() && p.error95() >= 0.0);
        if games > 0 {
            prop_assert!(close(p.mean(), (new - base) / games as f64, 1e-12));
        }
        let c = p.changes();
        prop_assert_eq!(c.better + c.worse + c.same, openings.len());
    }

    #[test]
    fn ratings_are_never_nan(
        n in 1usize..6,
        games in proptest::collection::vec((0usize..6, 0usize..6, small_wdl()), 0..15),
    ) {
        let results: Vec<_> = games.into_iter().filter(|&(i, j, _)| i < n && j < n && i != j).collect();
        let r = rated(n, &results);
        prop_assert_eq!(r.len(), n);
        let mean = r.iter().map(|x| x.elo).sum::<f64>() / n as f64;
        for x in &r {
            prop_assert!(x.elo.is_finite() && x.elo.abs() <= RATING_CAP);
            prop_assert!(!x.error95.is_nan() && x.error95 >= 0.0);
        }
        prop_assert!(mean.abs() <= RATING_CAP);
    }
}
