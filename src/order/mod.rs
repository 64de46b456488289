//! Move-order fitting: the move generator's weights (a table's move-order group) set so that
//! the moves another player made in recorded games come early in the generator's list.
//!
//! A search only ever tries the moves its generator lists (Connect6: 32 pairs of stones out
//! of tens of thousands), so a move the generator ranks low is invisible to it, for its own
//! play and, worse, as the opponent's answer it must foresee. The GA tunes these weights by
//! game results alone, which reward a generator for finding evotune's own best moves; the
//! games of a stronger engine say directly which moves a strong player makes. Against the
//! Olympiad-gold Connect6 engine Cloudict, evotune's tuned table listed 84% of Cloudict's
//! moves in quiet positions among its 32 (docs/strength.md, "Which moves the generator
//! sees").
//!
//! The fit is a coordinate search: each move-order weight in turn is tried at a few
//! multiples of its value (within its bounds) and the best value kept when it lists more of
//! the player's moves; rounds repeat until one changes nothing. The evaluation weights are
//! left as they are. Deterministic: the same records and table give the same result on any
//! number of threads.

use anyhow::{bail, Result};

use crate::arena::player::Player;
use crate::arena::records::GameRecord;
use crate::core::game::Side;
use crate::core::weights::{best_single_change, Weights};
use crate::registry::{GameRef, MoveSample};
use crate::search::MoveRank;

/// The first places of the list, where a well-ordered search finds its cut-offs: a move
/// listed there counts [`EARLY_WEIGHT`] more.
pub const EARLY: usize = 8;
/// The extra weight of a move listed among the first [`EARLY`].
pub const EARLY_WEIGHT: f64 = 0.25;
/// The multiples of a weight's value tried in each round.
const FACTORS: [f64; 4] = [0.5, 0.7, 1.4, 2.0];

/// How well a generator lists a player's moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Samples whose position was open (not decided before any search).
    pub open: usize,
    /// Samples in decided positions (not counted in the shares).
    pub decided: usize,
    /// Open samples whose move the generator lists ...
    pub listed: usize,
    /// ... among its first [`EARLY`] ...
    pub early: usize,
    /// ... and first.
    pub first: usize,
}

impl Coverage {
    pub fn of(ranks: &[MoveRank]) -> Coverage {
        let mut c = Coverage::default();
        for r in ranks {
            match *r {
                MoveRank::Decided => c.decided += 1,
                MoveRank::Unlisted => c.open += 1,
                MoveRank::Listed(i) => {
                    c.open += 1;
                    c.listed += 1;
                    c.early += usize::from(i < EARLY);
                    c.first += usize::from(i == 0);
                }
            }
        }
        c
    }

    fn share(&self, n: usize) -> f64 {
        if self.open == 0 {
            0.0
        } else {
            n as f64 / self.open as f64
        }
    }

    /// Share of the open samples listed at all.
    pub fn listed_share(&self) -> f64 {
        self.share(self.listed)
    }

    /// Share of the open samples listed among the first [`EARLY`].
    pub fn early_share(&self) -> f64 {
        self.share(self.early)
    }

    /// Share of the open samples listed first.
    pub fn first_share(&self) -> f64 {
        self.share(self.first)
    }

    /// What the fit maximises: the share listed plus [`EARLY_WEIGHT`] times the share listed
    /// early.
    pub fn objective(&self) -> f64 {
        self.listed_share() + EARLY_WEIGHT * self.early_share()
    }
}

impl std::fmt::Display for Coverage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:.1}% listed, {:.1}% among the first {EARLY}, {:.1}% first, of {} moves ({} in decided positions left out)",
            100.0 * self.listed_share(),
            100.0 * self.early_share(),
            100.0 * self.first_share(),
            self.open,
            self.decided
        )
    }
}

/// The moves `player` made in `records` after the openings, each with the moves before it.
/// Records without `player`, and `#` lines (what the arena wrote about a game it ended),
/// are skipped.
pub fn samples_of(game: GameRef, records: &[GameRecord], player: &str) -> Vec<MoveSample> {
    let mut samples = Vec::new();
    for r in records {
        let side = if r.first == player {
            Side::First
        } else if r.second == player {
            Side::Second
        } else {
            continue;
        };
        let moves: Vec<String> = r.moves.iter().filter(|m| !m.starts_with('#')).cloned().collect();
        let movers = game.movers(&moves);
        for (i, mover) in movers.iter().enumerate().skip(r.opening_moves) {
            if *mover == side {
                samples.push(MoveSample { before: moves[..i].to_vec(), played: moves[i].clone() });
            }
        }
    }
    samples
}

/// The coverage of `samples` by the generator of `player`.
pub fn coverage(game: GameRef, player: &Player, samples: &[MoveSample]) -> Result<Coverage> {
    Ok(Coverage::of(&game.move_ranks(player, samples).map_err(anyhow::Error::msg)?))
}

/// One accepted change of the fit.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub round: usize,
    pub weight: &'static str,
    pub from: i32,
    pub to: i32,
    pub coverage: Coverage,
}

/// Fits `player`'s move-order weights to `samples` (at most `rounds` rounds); returns the
/// fitted table and the coverage before and after. `on_step` hears every accepted change.
pub fn fit(
    game: GameRef,
    player: &Player,
    samples: &[MoveSample],
    rounds: usize,
    mut on_step: impl FnMut(&Step),
) -> Result<(Weights, Coverage, Coverage)> {
    let schema = player.weights.schema();
    let order: Vec<usize> = (0..schema.specs.len()).filter(|&i| schema.specs[i].group.orders_moves()).collect();
    if order.is_empty() {
        bail!("{}/{} tables have no move-order weights to fit", schema.game, schema.eval);
    }
    let measure = |values: &[i32]| -> Result<Coverage> {
        let mut p = player.clone();
        p.weights = Weights::from_values(schema, values.to_vec())?;
        coverage(game, &p, samples)
    };
    let mut values = player.weights.values().to_vec();
    let before = measure(&values)?;
    let mut best = before;
    for round in 1..=rounds {
        let mut changed = false;
        for &i in &order {
            let spec = &schema.specs[i];
            let mut tries: Vec<i32> = FACTORS
                .iter()
                .map(|f| {
                    // A weight at 0 has no multiples: try its mutation step instead.
                    let v = if values[i] == 0 { (spec.step as f64 * f).round() } else { values[i] as f64 * f };
                    (v.round() as i32).clamp(spec.min, spec.max)
                })
                .filter(|&v| v != values[i])
                .collect();
            tries.dedup();
            // The best try; the first of equals (the order of FACTORS), so ties never move.
            let top = best_single_change(&values, i, &tries, measure, |a, b| a.objective() > b.objective())?;
            if let Some((v, c)) = top {
                if c.objective() > best.objective() {
                    on_step(&Step { round, weight: spec.name, from: values[i], to: v, coverage: c });
                    values[i] = v;
                    best = c;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    Ok((Weights::from_values(schema, values)?, before, best))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::settings::EngineSettings;
    use crate::core::weights::WeightGroup;
    use crate::registry;

    fn player(weights: Weights) -> Player {
        Player::new("p", weights, EngineSettings::default(), crate::core::limits::Limits::depth(1))
    }

    /// Moves that a generator with a known table lists first are learnt back by a generator
    /// that starts elsewhere: its coverage rises, and the fit is deterministic.
    #[test]
    fn fit_learns_the_moves_of_another_table() {
        let game: registry::GameRef = registry::CONNECT6;
        let schema = game.default_evaluation().schema;
        let teacher = schema.defaults();
        // The teacher's moves: its generator's first move, from a few short games' positions.
        let teacher_player = player(teacher.clone());
        let mut samples = Vec::new();
        for start in [["j10", "k11k9"], ["j10", "j11k11"], ["j10", "i9k11"], ["j10", "k10l10"]] {
            let mut moves: Vec<String> = start.iter().map(|s| s.to_string()).collect();
            for _ in 0..8 {
                let searched = game
                    .search_positions(
                        &teacher_player,
                        std::slice::from_ref(&moves),
                        &crate::core::limits::Limits::depth(1),
                    )
                    .unwrap()
                    .0;
                let best = searched[0].best.clone();
                samples.push(MoveSample { before: moves.clone(), played: best.clone() });
                moves.push(best);
            }
        }
        // A pupil whose move-order weights are far from the teacher's.
        let mut values = teacher.values().to_vec();
        for (v, spec) in values.iter_mut().zip(schema.specs) {
            if spec.group == WeightGroup::MoveOrder {
                *v = if spec.name.starts_with("move_block") { spec.max } else { spec.min };
            }
        }
        let pupil = player(Weights::from_values(schema, values).unwrap());
        let (fitted, before, after) = fit(game, &pupil, &samples, 3, |_| {}).unwrap();
        assert!(after.objective() > before.objective(), "{before} -> {after}");
        assert!(after.early > before.early, "{before} -> {after}");
        let again = fit(game, &pupil, &samples, 3, |_| {}).unwrap();
        assert_eq!(again.0.values(), fitted.values());
        // Evaluation weights are left alone.
        for ((a, b), spec) in fitted.values().iter().zip(pupil.weights.values()).zip(schema.specs) {
            if spec.group == WeightGroup::Eval {
                assert_eq!(a, b, "{}", spec.name);
            }
        }
    }

    #[test]
    fn coverage_counts_ranks() {
        let c = Coverage::of(&[
            MoveRank::Listed(0),
            MoveRank::Listed(7),
            MoveRank::Listed(8),
            MoveRank::Unlisted,
            MoveRank::Decided,
        ]);
        assert_eq!(c, Coverage { open: 4, decided: 1, listed: 3, early: 2, first: 1 });
        assert!((c.objective() - (0.75 + EARLY_WEIGHT * 0.5)).abs() < 1e-12);
        assert_eq!(Coverage::default().objective(), 0.0);
    }

    #[test]
    fn samples_are_the_players_moves_after_the_opening() {
        let game: registry::GameRef = registry::CONNECT6;
        let record = GameRecord {
            moves: ["j10", "k11k9", "l10l9", "m10m9", "h10h9", "# out of time"].map(String::from).to_vec(),
            opening_moves: 1,
            ..GameRecord::start("connect6", "a", "b", &[], 0)
        };
        let a = samples_of(game, std::slice::from_ref(&record), "a");
        assert_eq!(a.iter().map(|s| s.played.as_str()).collect::<Vec<_>>(), ["l10l9", "h10h9"]);
        assert_eq!(a[1].before.len(), 4);
        let b = samples_of(game, std::slice::from_ref(&record), "b");
        assert_eq!(b.iter().map(|s| s.played.as_str()).collect::<Vec<_>>(), ["k11k9", "m10m9"]);
        assert!(samples_of(game, &[record], "c").is_empty());
    }
}
