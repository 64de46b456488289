//! Evaluation fitting (Texel's method): a table's evaluation weights set so that its static
//! score of many positions predicts a stronger engine's evaluation of them.
//!
//! The GA tunes weights by game results against other tables, which can only teach what
//! those tables' play shows; a stronger engine's evaluation of a position says directly how
//! good the position is. Both scores are turned into an expected result, sigmoid(score / K)
//! for ours and sigmoid(label / K') for the judge's (K' the judge's scale, `--label-scale`),
//! and the fit minimises the mean squared difference of the two over the labelled
//! positions. K is fitted first for the table as it is and then kept, so that the fitted
//! table keeps the scale of the one it started from (search margins such as Gomoku's
//! futility margins are written in its units).
//!
//! The weights are fitted by a local search over their integers that works for any
//! evaluation: each evaluation weight in turn is tried one step up and one step down (within
//! its bounds) and the better kept when it lowers the loss; a weight whose step finds
//! nothing halves its step. When every step has fallen below one the steps start again from
//! their first size if anything moved since they last did (a weight whose step ran out early
//! was last tried against other values of the weights it trades off with), and the fit ends
//! when a whole such pass moves nothing, or the rounds run out. Deterministic: the loss is
//! summed in fixed chunks, so any number of threads gives the same table.

pub mod labels;

use anyhow::{bail, Result};
use rayon::prelude::*;

use crate::core::weights::{best_single_change, WeightGroup, Weights};
use crate::registry::StaticPositions;

/// Positions summed in one piece of the loss: fixed, so that the sum does not depend on the
/// number of threads.
const LOSS_CHUNK: usize = 1024;

/// An engine's expected result from its score in units where `scale` is one "unit of
/// advantage".
pub fn expected(score: f64, scale: f64) -> f64 {
    1.0 / (1.0 + (-score / scale).exp())
}

/// Labelled positions ready to be scored: the positions and the judge's expected result for
/// each.
pub struct Labelled {
    pub positions: Box<dyn StaticPositions>,
    pub targets: Vec<f64>,
}

impl Labelled {
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// The mean squared difference between the expected results of `scores` at scale `k`
    /// and the targets.
    pub fn loss_of(&self, scores: &[i32], k: f64) -> f64 {
        if self.targets.is_empty() {
            return 0.0;
        }
        let sums: Vec<f64> = scores
            .par_chunks(LOSS_CHUNK)
            .zip(self.targets.par_chunks(LOSS_CHUNK))
            .map(|(s, t)| {
                s.iter()
                    .zip(t)
                    .map(|(&s, &t)| {
                        let d = expected(f64::from(s), k) - t;
                        d * d
                    })
                    .sum::<f64>()
            })
            .collect();
        sums.iter().sum::<f64>() / self.targets.len() as f64
    }

    /// The loss of a table at scale `k`.
    pub fn loss(&self, weights: &Weights, k: f64) -> f64 {
        self.loss_of(&self.positions.scores(weights), k)
    }
}

/// The scale K at which a table's scores best predict the targets: a scan of K over powers
/// of ten (1 to 10^8, twenty steps a decade), then a golden-section search between the best
/// one's neighbours.
pub fn fit_scale(data: &Labelled, weights: &Weights) -> f64 {
    let scores = data.positions.scores(weights);
    let loss = |log_k: f64| data.loss_of(&scores, 10f64.powf(log_k));
    let steps = 160;
    let at = |i: usize| i as f64 / 20.0;
    let best = (0..=steps).map(|i| (i, loss(at(i)))).fold((0, f64::INFINITY), |a, b| if b.1 < a.1 { b } else { a }).0;
    let (mut lo, mut hi) = (at(best.saturating_sub(1)), at((best + 1).min(steps)));
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (hi - phi * (hi - lo), lo + phi * (hi - lo));
    let (mut fa, mut fb) = (loss(a), loss(b));
    for _ in 0..40 {
        if fa < fb {
            hi = b;
            (b, fb) = (a, fa);
            a = hi - phi * (hi - lo);
            fa = loss(a);
        } else {
            lo = a;
            (a, fa) = (b, fb);
            b = lo + phi * (hi - lo);
            fb = loss(b);
        }
    }
    10f64.powf((lo + hi) / 2.0)
}

/// One accepted change of the fit.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub round: usize,
    pub weight: &'static str,
    pub from: i32,
    pub to: i32,
    pub loss: f64,
}

/// Fits the evaluation weights of `start` to `data` at scale `k` (at most `rounds` rounds
/// over the weights); returns the fitted table and the loss before and after. `on_step`
/// hears every accepted change, `on_round` the end of each round (its number, how many
/// weights still search).
pub fn fit(
    data: &Labelled,
    start: &Weights,
    k: f64,
    rounds: usize,
    mut on_step: impl FnMut(&Step),
    mut on_round: impl FnMut(usize, usize),
) -> Result<(Weights, f64, f64)> {
    let schema = start.schema();
    let fitted: Vec<usize> = (0..schema.len()).filter(|&i| schema.specs[i].group == WeightGroup::Eval).collect();
    if fitted.is_empty() {
        bail!("{}/{} tables have no evaluation weights to fit", schema.game, schema.eval);
    }
    if data.is_empty() {
        bail!("no labelled positions to fit to");
    }
    let loss_of = |values: &[i32]| -> Result<f64> { Ok(data.loss(&Weights::from_values(schema, values.to_vec())?, k)) };
    let mut values = start.values().to_vec();
    let before = loss_of(&values)?;
    let mut best = before;
    // A quarter of the value first (a weight at 0 starts from its mutation step).
    let first_steps = |values: &[i32]| -> Vec<i32> {
        values
            .iter()
            .zip(schema.specs)
            .map(|(&v, spec)| if v == 0 { spec.step.max(1) } else { (v.unsigned_abs() / 4).max(1) as i32 })
            .collect()
    };
    let mut steps = first_steps(&values);
    // Whether a weight moved since the steps last started from their first size.
    let mut moved = false;
    for round in 1..=rounds {
        let mut searching = 0;
        for &i in &fitted {
            if steps[i] == 0 {
                continue;
            }
            let spec = &schema.specs[i];
            let tries: Vec<i32> = [values[i].saturating_add(steps[i]), values[i].saturating_sub(steps[i])]
                .into_iter()
                .map(|v| v.clamp(spec.min, spec.max))
                .filter(|&v| v != values[i])
                .collect();
            // The better try; the first (up) of equals.
            match best_single_change(&values, i, &tries, loss_of, |a, b| a < b)? {
                Some((v, l)) if l < best => {
                    on_step(&Step { round, weight: spec.name, from: values[i], to: v, loss: l });
                    values[i] = v;
                    best = l;
                    moved = true;
                }
                _ => steps[i] /= 2,
            }
            searching += usize::from(steps[i] > 0);
        }
        if searching == 0 && moved {
            // A weight whose step ran out was last tried before others moved, and the loss
            // trades weights off against each other (a position's roads of 1, 2 and 3
            // stones grow together): what was its best value may be no longer. Search
            // again from the first steps; a pass that moves nothing ends the fit.
            steps = first_steps(&values);
            moved = false;
            searching = fitted.len();
        }
        on_round(round, searching);
        if searching == 0 {
            break;
        }
    }
    Ok((Weights::from_values(schema, values)?, before, best))
}

/// Whether a position goes to the held-out part: decided by its first `prefix` moves, so
/// that the positions of one game (which share them) all fall on the same side.
pub fn held_out(moves: &[String], prefix: usize, percent: u32) -> bool {
    let text = moves[..prefix.min(moves.len())].join(" ");
    crate::fsutil::fnv1a64(text.as_bytes()) % 100 < u64::from(percent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::{self, GameRef};

    /// Positions of short random-ish Gomoku games, quiet ones only.
    fn positions(game: GameRef, count: usize) -> Vec<Vec<String>> {
        let mut out = Vec::new();
        let letters = "abcdefghijklmno".as_bytes();
        let mut state = 12345u64;
        while out.len() < count {
            let mut moves: Vec<String> = Vec::new();
            let mut taken = std::collections::HashSet::new();
            for _ in 0..30 {
                // Stones near the centre, so that shapes form.
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let x = 4 + (state >> 33) % 7;
                let y = 4 + (state >> 45) % 7;
                if !taken.insert((x, y)) {
                    continue;
                }
                moves.push(format!("{}{}", letters[x as usize] as char, y + 1));
                match game.quiet_for_static(&moves) {
                    Ok(true) => out.push(moves.clone()),
                    Ok(false) => break,
                    Err(_) => unreachable!("free cells only"),
                }
            }
        }
        out.truncate(count);
        out
    }

    /// Labels made by a known table's own static scores.
    fn labelled_by(game: GameRef, teacher: &Weights, positions: &[Vec<String>], k: f64) -> Labelled {
        let eval = teacher.schema().eval;
        let set = game.static_positions(eval, positions).unwrap();
        let targets = set.scores(teacher).iter().map(|&s| expected(f64::from(s), k)).collect();
        Labelled { positions: set, targets }
    }

    #[test]
    fn a_known_table_is_fitted_back_from_another_start() {
        let game: GameRef = registry::GOMOKU;
        let schema = game.default_evaluation().schema;
        let teacher = schema.defaults();
        let data = labelled_by(game, &teacher, &positions(game, 3000), 300.0);
        assert!((data.loss(&teacher, 300.0)).abs() < 1e-12);
        // The teacher's scale is found.
        let k = fit_scale(&data, &teacher);
        assert!((k - 300.0).abs() < 3.0, "{k}");
        // A pupil off by a third on the shapes the positions hold (no fours: they are left
        // out; the fives' weights are never met).
        let mut values = teacher.values().to_vec();
        let moved = ["flex3", "opp_flex3", "block3", "flex2", "opp_flex2", "block2", "opp_block2", "flex1"];
        for name in moved {
            let i = schema.index_of(name).unwrap();
            values[i] = if name.starts_with("opp") { values[i] * 2 / 3 } else { values[i] * 4 / 3 };
        }
        let pupil = Weights::from_values(schema, values).unwrap();
        let (fitted, before, after) = fit(&data, &pupil, 300.0, 200, |_| {}, |_, _| {}).unwrap();
        assert!(before > 1e-4 && after < before / 100.0, "{before} -> {after}");
        for name in moved {
            let (want, got) = (teacher.get(name).unwrap(), fitted.get(name).unwrap());
            assert!((got - want).abs() <= want.abs() / 20 + 2, "{name}: {want} fitted as {got}");
        }
        // The same table on one thread and on two.
        let on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| fit(&data, &pupil, 300.0, 5, |_| {}, |_, _| {}).unwrap())
        };
        let (one, two) = (on(1), on(2));
        assert_eq!(one.0.values(), two.0.values());
        assert_eq!(one.2.to_bits(), two.2.to_bits());
    }

    /// Positions of random-ish Connect6 games (one stone, then two a turn, near the centre),
    /// quiet ones only: a game stops at its first threat road.
    fn connect6_positions(count: usize) -> Vec<Vec<String>> {
        let game: GameRef = registry::CONNECT6;
        let mut out = Vec::new();
        let mut state = 777u64;
        let mut cell = |taken: &mut std::collections::HashSet<(u64, u64)>| loop {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let (x, y) = (5 + (state >> 33) % 9, 5 + (state >> 45) % 9);
            if taken.insert((x, y)) {
                return format!("{}{}", (b'a' + x as u8) as char, y + 1);
            }
        };
        while out.len() < count {
            let mut taken = std::collections::HashSet::new();
            let mut moves = vec![cell(&mut taken)];
            for _ in 0..14 {
                let (a, b) = (cell(&mut taken), cell(&mut taken));
                moves.push(format!("{a}{b}"));
                match game.quiet_for_static(&moves) {
                    Ok(true) => out.push(moves.clone()),
                    Ok(false) => break,
                    Err(e) => unreachable!("free cells only: {e}"),
                }
            }
        }
        out.truncate(count);
        out
    }

    #[test]
    fn a_known_connect6_table_is_fitted_back_from_another_start() {
        let game: GameRef = registry::CONNECT6;
        // A threat road (four of a colour's stones in a window of six, none of the other's)
        // is not quiet.
        let four: Vec<String> = ["j10", "a1b1", "k10l10", "a3b3", "m10n12"].map(String::from).to_vec();
        assert_eq!(game.quiet_for_static(&four[..4]), Ok(true));
        assert_eq!(game.quiet_for_static(&four), Ok(false));
        let schema = game.default_evaluation().schema;
        let teacher = schema.defaults();
        let data = labelled_by(game, &teacher, &connect6_positions(3000), 500.0);
        let k = fit_scale(&data, &teacher);
        assert!((k - 500.0).abs() < 5.0, "{k}");
        // Quiet positions hold roads of up to 3 stones: those weights are off by a third.
        let mut values = teacher.values().to_vec();
        let moved = ["own1", "own2", "own3", "opp1", "opp2", "opp3"];
        for name in moved {
            let i = schema.index_of(name).unwrap();
            values[i] = if name.starts_with("opp") { values[i] * 2 / 3 } else { values[i] * 4 / 3 };
        }
        let pupil = Weights::from_values(schema, values).unwrap();
        let (fitted, before, after) = fit(&data, &pupil, 500.0, 200, |_| {}, |_, _| {}).unwrap();
        // The fitted table predicts the teacher's expected results to within 0.017 (root mean
        // square; the start's were 0.6 off): the loss falls by more than a thousand times.
        assert!(before > 0.3 && after < before / 1000.0, "{before} -> {after}");
        // The weights come back only as far as the positions tell them apart. A quiet
        // position holds some 80 roads of one stone a side but one or two of three stones,
        // and its roads of 1, 2 and 3 stones grow together: the loss's curvature differs
        // ten thousand times between its directions (own1 - opp1 the stiffest, own3 and
        // opp3 together the weakest). The fit stops where no weight's step of one lowers
        // the loss (own1 12, own2 68, own3 128, opp1 13, opp2 68, opp3 124), its distance
        // from the teacher almost all along the weak directions, where 25 units of own3 and
        // opp3 together cost a loss of 1e-4. So: each weight comes back at least half way
        // from where it started, to within a fifth of the teacher's (a third for the
        // 1-stone weights, whose single step moves a score by a sixth of K).
        for name in moved {
            let (want, start, got) = (teacher.get(name).unwrap(), pupil.get(name).unwrap(), fitted.get(name).unwrap());
            let slack = if name.ends_with('1') { want / 3 } else { want / 5 };
            assert!((got - want).abs() <= slack, "{name}: {want} fitted as {got} (from {start})");
            if !name.ends_with('1') {
                assert!(
                    (got - want).abs() * 2 <= (start - want).abs(),
                    "{name}: {want} fitted as {got} (from {start})"
                );
            }
        }
    }

    #[test]
    fn held_out_positions_follow_their_first_moves() {
        let a: Vec<String> = ["h8", "i9", "j10", "k11"].map(String::from).to_vec();
        let b: Vec<String> = ["h8", "i9", "j10", "k11", "a1", "b2"].map(String::from).to_vec();
        assert_eq!(held_out(&a, 4, 30), held_out(&b, 4, 30));
        assert!(!held_out(&a, 4, 0));
        assert!(held_out(&a, 4, 100));
    }
}
