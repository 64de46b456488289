//! Fitness from game results.
//!
//! Two ways, chosen by `[fitness] mode`:
//! - **li2007** (Li Guo 2007 §2.3): +1 for a win, -1 for a loss, 0 for a draw, summed over this
//!   generation's games only. Every generation starts from nothing, so a champion's fitness
//!   rests on the couple of dozen games it just played.
//! - **rating**: a Bradley–Terry rating (Elo scale) fitted to every game of the last `memory`
//!   generations, with a prior that pulls each rating towards the first anchor's level (0).
//!   An individual's genes never change, so its old games stay valid evidence: a survivor
//!   keeps its record and adds to it every generation, and a newcomer must beat a
//!   well-measured champion on the evidence, not on one lucky generation. Ratings are relative
//!   to the first `[hall_of_fame]` anchor (rating 0), so they mean the same thing in every
//!   generation and read directly as "Elo above the hand-set table" when that anchor is
//!   `defaults`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::stats::Wdl;

/// Logistic Elo per natural-log unit of strength.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// How fitness is computed from games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FitnessMode {
    /// +1 / -1 / 0 summed over this generation's games (the paper).
    Li2007,
    /// Bradley–Terry Elo over every remembered game, relative to the first anchor.
    Rating,
    /// Bradley–Terry Elo over the remembered games against the anchors only: the fixed
    /// opponents, so that fitness measures what the user asks for and cannot drift with the
    /// population (individuals that beat each other in circles).
    Anchors,
}

/// Who played a game: an individual of the run (a hall-of-fame entry is the individual it
/// was) or a fixed anchor, by its index in `[hall_of_fame] anchors`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Contestant {
    Individual(u64),
    Anchor(usize),
}

/// The results of one pairing in one generation, from `a`'s side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meeting {
    pub generation: u32,
    pub a: Contestant,
    pub b: Contestant,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Meeting {
    pub fn wdl(&self) -> Wdl {
        Wdl::new(self.wins, self.draws, self.losses)
    }

    /// The record of `who` in this meeting, if it played.
    pub fn wdl_of(&self, who: Contestant) -> Option<Wdl> {
        if self.a == who {
            Some(self.wdl())
        } else if self.b == who {
            Some(self.wdl().reversed())
        } else {
            None
        }
    }
}

/// The games a run remembers: every meeting of the last `memory` generations.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Ledger {
    pub meetings: Vec<Meeting>,
}

impl Ledger {
    /// Adds one game's result for `a` against `b` in `generation`.
    pub fn add(&mut self, generation: u32, a: Contestant, b: Contestant, score_a: f64) {
        let (a, b, score) = if a <= b { (a, b, score_a) } else { (b, a, 1.0 - score_a) };
        let i = match self.meetings.iter().rposition(|m| m.generation == generation && m.a == a && m.b == b) {
            Some(i) => i,
            None => {
                self.meetings.push(Meeting { generation, a, b, wins: 0, draws: 0, losses: 0 });
                self.meetings.len() - 1
            }
        };
        let m = &mut self.meetings[i];
        if score > 0.75 {
            m.wins += 1;
        } else if score < 0.25 {
            m.losses += 1;
        } else {
            m.draws += 1;
        }
    }

    /// Forgets meetings older than `memory` generations before `current` (kept: generations
    /// `current - memory + 1 ..= current`).
    pub fn forget_before(&mut self, current: u32, memory: u32) {
        let first = current.saturating_sub(memory.max(1) - 1);
        self.meetings.retain(|m| m.generation >= first);
    }

    /// Everything `who` scored against `opponent` in the remembered games.
    pub fn record(&self, who: Contestant, opponent: Contestant) -> Wdl {
        let mut total = Wdl::default();
        for m in &self.meetings {
            if (m.a == who && m.b == opponent) || (m.b == who && m.a == opponent) {
                let w = m.wdl_of(who).unwrap_or_default();
                total = Wdl::new(total.wins + w.wins, total.draws + w.draws, total.losses + w.losses);
            }
        }
        total
    }

    /// Games `who` played in the remembered meetings.
    pub fn games_of(&self, who: Contestant) -> u64 {
        self.meetings.iter().filter_map(|m| m.wdl_of(who)).map(|w| w.games()).sum()
    }
}

/// A fitted rating: Elo relative to the reference, and its standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fitted {
    pub elo: f64,
    /// One standard error of `elo`, from the games alone (the prior not counted).
    pub se: f64,
}

/// Bradley–Terry ratings of every contestant of the `counted` meetings of `ledger`, by
/// maximum a posteriori.
///
/// P(i beats j) = γi / (γi + γj), a draw half a win each. `reference` (the first anchor, if
/// it played) is fixed at rating 0; every other contestant c also plays `prior` virtual draws
/// against a virtual player rated `center(c)`. That keeps ratings finite after perfect
/// scores and shrinks the rating of a contestant with few games towards where it was
/// expected to be (for a child, its parents' rating): with `prior = 8` and centre 0, a
/// newcomer that won 6 of 8 games is rated about +90, not the +190 its raw score says. The
/// fit is Hunter's (2004) MM iteration.
pub fn fit_ratings(
    ledger: &Ledger,
    counted: impl Fn(&Meeting) -> bool,
    reference: Option<Contestant>,
    prior: f64,
    center: impl Fn(Contestant) -> f64,
) -> BTreeMap<Contestant, Fitted> {
    let meetings: Vec<&Meeting> = ledger.meetings.iter().filter(|m| counted(m)).collect();
    let mut index: BTreeMap<Contestant, usize> = BTreeMap::new();
    for m in &meetings {
        for c in [m.a, m.b] {
            let n = index.len();
            index.entry(c).or_insert(n);
        }
    }
    let n = index.len();
    // games[i][j] and points[i][j] (points of i against j), dense: a window holds a few
    // hundred contestants at most.
    let mut games = vec![0.0; n * n];
    let mut points = vec![0.0; n * n];
    for m in &meetings {
        let (i, j) = (index[&m.a], index[&m.b]);
        let w = m.wdl();
        let g = w.games() as f64;
        games[i * n + j] += g;
        games[j * n + i] += g;
        points[i * n + j] += w.points();
        points[j * n + i] += w.reversed().points();
    }
    let fixed = reference.and_then(|r| index.get(&r).copied());
    let prior = prior.max(1e-6);
    let won: Vec<f64> = (0..n).map(|i| (0..n).map(|j| points[i * n + j]).sum::<f64>() + prior / 2.0).collect();
    // The virtual opponent of each contestant, and the starting point of the iteration.
    let mut virtual_gamma = vec![1.0f64; n];
    for (&c, &i) in &index {
        virtual_gamma[i] = (center(c) / ELO_PER_NAT).exp();
    }
    let mut gamma = virtual_gamma.clone();
    if let Some(f) = fixed {
        gamma[f] = 1.0;
    }
    for _ in 0..10_000 {
        let mut change = 0.0f64;
        for i in 0..n {
            if Some(i) == fixed {
                continue;
            }
            let mut denom = prior / (gamma[i] + virtual_gamma[i]);
            for j in 0..n {
                let g = games[i * n + j];
                if g > 0.0 {
                    denom += g / (gamma[i] + gamma[j]);
                }
            }
            let next = won[i] / denom;
            change = change.max((next.ln() - gamma[i].ln()).abs());
            gamma[i] = next;
        }
        if change < 1e-9 {
            break;
        }
    }
    index
        .into_iter()
        .map(|(c, i)| {
            let info: f64 = (0..n)
                .map(|j| {
                    let g = games[i * n + j];
                    let p = gamma[i] / (gamma[i] + gamma[j]);
                    g * p * (1.0 - p)
                })
                .sum();
            let se = if info > 0.0 { ELO_PER_NAT / info.sqrt() } else { f64::INFINITY };
            (c, Fitted { elo: ELO_PER_NAT * gamma[i].ln(), se })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::elo_from_score;

    const A: Contestant = Contestant::Anchor(0);
    const X: Contestant = Contestant::Individual(1);
    const Y: Contestant = Contestant::Individual(2);

    fn games(ledger: &mut Ledger, generation: u32, a: Contestant, b: Contestant, wins: u64, losses: u64) {
        for _ in 0..wins {
            ledger.add(generation, a, b, 1.0);
        }
        for _ in 0..losses {
            ledger.add(generation, a, b, 0.0);
        }
    }

    #[test]
    fn ratings_are_relative_to_the_reference_and_match_the_score() {
        let mut l = Ledger::default();
        games(&mut l, 1, X, A, 300, 100);
        let r = fit_ratings(&l, |_| true, Some(A), 1e-9, |_| 0.0);
        assert_eq!(r[&A].elo, 0.0);
        assert!((r[&X].elo - elo_from_score(0.75)).abs() < 0.01, "{:?}", r[&X]);
        // The standard error of a 400-game score near 75%: about 20 Elo.
        assert!((15.0..25.0).contains(&r[&X].se), "{:?}", r[&X]);
    }

    #[test]
    fn the_prior_shrinks_small_samples_and_keeps_perfect_scores_finite() {
        let mut l = Ledger::default();
        games(&mut l, 1, X, A, 8, 0);
        games(&mut l, 1, Y, A, 80, 20);
        let r = fit_ratings(&l, |_| true, Some(A), 8.0, |_| 0.0);
        assert!(r[&X].elo.is_finite() && r[&X].elo > 100.0);
        // 8-0 is less convincing than 80-20.
        assert!(r[&X].elo < r[&Y].elo, "{:?} vs {:?}", r[&X], r[&Y]);
        assert!(r[&Y].elo < elo_from_score(0.8) && r[&Y].elo > elo_from_score(0.75));
    }

    #[test]
    fn the_prior_pulls_towards_each_contestants_own_centre() {
        let mut l = Ledger::default();
        games(&mut l, 1, X, A, 5, 5);
        games(&mut l, 1, Y, A, 5, 5);
        let centre = |c: Contestant| if c == Y { 200.0 } else { 0.0 };
        let r = fit_ratings(&l, |_| true, Some(A), 10.0, centre);
        assert!(r[&X].elo.abs() < 1e-6, "{:?}", r[&X]);
        // Half of its evidence says +200: it sits between.
        assert!(r[&Y].elo > 60.0 && r[&Y].elo < 140.0, "{:?}", r[&Y]);
        // Only the counted meetings enter the fit.
        games(&mut l, 1, X, Y, 10, 0);
        let only_anchor = fit_ratings(&l, |m| m.b == A || m.a == A, Some(A), 10.0, centre);
        assert_eq!(only_anchor[&Y].elo, r[&Y].elo);
        assert!(!only_anchor.contains_key(&Contestant::Individual(3)));
    }

    #[test]
    fn ratings_chain_through_common_opponents() {
        // X beats A 3:1; Y beats X 3:1; so Y should be about twice X's rating above A.
        let mut l = Ledger::default();
        games(&mut l, 1, X, A, 300, 100);
        games(&mut l, 1, Y, X, 300, 100);
        let r = fit_ratings(&l, |_| true, Some(A), 1e-9, |_| 0.0);
        let step = elo_from_score(0.75);
        assert!((r[&Y].elo - 2.0 * step).abs() < 1.0, "{:?}", r[&Y]);
    }

    #[test]
    fn the_ledger_merges_pairings_and_forgets_old_generations() {
        let mut l = Ledger::default();
        l.add(1, X, A, 1.0);
        l.add(1, A, X, 1.0);
        l.add(1, X, A, 0.5);
        l.add(2, X, A, 1.0);
        assert_eq!(l.meetings.len(), 2);
        assert_eq!(l.record(X, A), Wdl::new(2, 1, 1));
        assert_eq!(l.record(A, X), Wdl::new(1, 1, 2));
        assert_eq!(l.games_of(X), 4);
        l.forget_before(3, 2);
        assert_eq!(l.record(X, A), Wdl::new(1, 0, 0));
    }
}
