//! The end of a run: a play-off among the best individuals that picks the champion, and a
//! validation match that measures it against fixed opponents on openings it never trained on.
//!
//! Both are pure functions of the final [`RunState`] and the config (their random choices come
//! from the run's seed), so a run resumed after its last checkpoint ends exactly as an
//! uninterrupted one.

use anyhow::{Context, Result};
use rand::Rng;

use crate::arena::game::{play_games, GameJob};
use crate::arena::player::Player;
use crate::core::rng::{derive_seed, stream};
use crate::ga::evolve::Evolver;
use crate::ga::fitness::{Contestant, Fitted};
use crate::ga::state::RunState;
use crate::report::progress::Progress;
use crate::report::run_report::{FinalistRow, PlayOffTable};
use crate::stats::Wdl;

/// Purpose tags of the play-off's random streams (after the generations' own).
const FINAL_OPENINGS: u64 = 16;
const FINAL_GAMES: u64 = 17;

/// One individual that reached the play-off.
#[derive(Clone, Debug, PartialEq)]
pub struct Finalist {
    pub id: u64,
    pub genes: Vec<i32>,
    /// The generation it was best of, if it ever was.
    pub generation: Option<u32>,
    /// Rating before and after the play-off (relative to the first anchor).
    pub before: Fitted,
    pub after: Fitted,
    /// Its record against each anchor over every remembered game, play-off included.
    pub vs_anchors: Vec<Wdl>,
    pub games: u64,
}

/// What the play-off decided.
#[derive(Clone, Debug)]
pub struct PlayOff {
    /// Best first: `finalists[0]` is the champion.
    pub finalists: Vec<Finalist>,
    /// Games played in the play-off.
    pub games: usize,
}

impl PlayOff {
    pub fn champion(&self) -> &Finalist {
        &self.finalists[0]
    }

    /// The play-off as `report.md` shows it.
    pub fn table(&self) -> PlayOffTable {
        let finalists = self
            .finalists
            .iter()
            .map(|f| FinalistRow {
                id: f.id,
                generation: f.generation,
                elo_before: f.before.elo,
                elo_after: f.after.elo,
                se_after: f.after.se,
                games: f.games,
                vs_anchors: f.vs_anchors.clone(),
            })
            .collect();
        PlayOffTable { games: self.games, finalists }
    }
}

/// The individuals whose genes the run still knows: the survivors that played the last
/// generation, and every generation's best.
fn known(state: &RunState) -> Vec<(u64, Vec<i32>, Option<u32>)> {
    let mut out: Vec<(u64, Vec<i32>, Option<u32>)> = Vec::new();
    for e in state.hall_of_fame.iter().rev() {
        if !out.iter().any(|k| k.0 == e.id) {
            out.push((e.id, e.genes.clone(), Some(e.generation)));
        }
    }
    for ind in &state.population {
        if !out.iter().any(|k| k.0 == ind.id) {
            out.push((ind.id, ind.genes.clone(), None));
        }
    }
    out
}

impl Evolver<'_> {
    /// Games the play-off will play, at most (fewer when fewer distinct tables are rated).
    pub fn play_off_games(&self, state: &RunState) -> usize {
        let n = self.config.finals.candidates.min(known(state).len());
        let meetings = if self.anchors().is_empty() { n * n.saturating_sub(1) / 2 } else { n * self.anchors().len() };
        2 * self.config.finals.pairs * meetings
    }

    /// Picks the run's champion. With `[final] candidates = 0`, or before any generation, it
    /// is the last generation's best. Otherwise the best `candidates` distinct tables by
    /// rating play `[final] pairs` game pairs against every anchor (a round robin among
    /// themselves without anchors), and the best rating over all their games wins.
    pub fn play_off(&self, state: &RunState, progress: &Progress) -> Result<PlayOff> {
        let config = self.config;
        let mut ledger = state.ledger.clone();
        let priors = self.priors(state);
        let ratings = self.ratings(&ledger, &priors);
        let rating = |id: u64| ratings.get(&Contestant::Individual(id)).copied();
        let last_best = state.hall_of_fame.last().map(|e| e.id);
        let mut pool: Vec<(u64, Vec<i32>, Option<u32>, Fitted)> = known(state)
            .into_iter()
            .filter_map(|(id, genes, generation)| rating(id).map(|r| (id, genes, generation, r)))
            .collect();
        // Best first; the last generation's best first among equals, then the younger.
        pool.sort_by(|x, y| {
            y.3.elo
                .total_cmp(&x.3.elo)
                .then((Some(y.0) == last_best).cmp(&(Some(x.0) == last_best)))
                .then(y.0.cmp(&x.0))
        });
        let mut distinct: Vec<(u64, Vec<i32>, Option<u32>, Fitted)> = Vec::new();
        for p in pool {
            if !distinct.iter().any(|d| d.1 == p.1) {
                distinct.push(p);
            }
        }
        let n = config.finals.candidates.min(distinct.len());
        let generation = state.generation + 1;
        let mut played = 0;
        if n >= 1 && !(n == 1 && self.anchors().is_empty()) {
            distinct.truncate(n);
            let players: Vec<Player> =
                distinct.iter().map(|(id, genes, _, _)| self.player_with(format!("final-i{id}"), genes)).collect();
            // Who meets whom: each finalist against each anchor, or a round robin.
            let mut meetings: Vec<(usize, Contestant)> = Vec::new();
            if self.anchors().is_empty() {
                for i in 0..n {
                    meetings.extend(distinct[i + 1..].iter().map(|d| (i, Contestant::Individual(d.0))));
                }
            } else {
                for i in 0..n {
                    meetings.extend((0..self.anchors().len()).map(|a| (i, Contestant::Anchor(a))));
                }
            }
            let g = u64::from(generation);
            let mut rng = stream(config.seed, &[g, FINAL_OPENINGS]);
            let mut seats: Vec<(usize, Contestant, bool, usize)> = Vec::new();
            for &(i, opp) in &meetings {
                let first = rng.random_range(0..self.suite.len());
                for p in 0..config.finals.pairs {
                    let opening = (first + p) % self.suite.len();
                    seats.push((i, opp, true, opening));
                    seats.push((i, opp, false, opening));
                }
            }
            let opponent = |c: Contestant| -> &Player {
                match c {
                    Contestant::Anchor(a) => &self.anchors()[a],
                    Contestant::Individual(id) => {
                        &players[distinct.iter().position(|d| d.0 == id).expect("a finalist")]
                    }
                }
            };
            let jobs: Vec<GameJob> = seats
                .iter()
                .enumerate()
                .map(|(k, &(i, opp, finalist_black, opening))| {
                    let (black, white) =
                        if finalist_black { (&players[i], opponent(opp)) } else { (opponent(opp), &players[i]) };
                    GameJob {
                        first: black,
                        second: white,
                        opening: self.suite.get(opening),
                        opening_index: opening,
                        seed: derive_seed(&[config.seed, g, FINAL_GAMES, k as u64]),
                    }
                })
                .collect();
            let records = play_games(self.referee, &jobs, progress);
            played = records.len();
            for (&(i, opp, finalist_black, _), r) in seats.iter().zip(&records) {
                let me = Contestant::Individual(distinct[i].0);
                if !r.is_scored() {
                    continue;
                }
                let score = crate::arena::matches::score_for(r.result, finalist_black);
                ledger.add(generation, me, opp, score.half_points() as f64 / 2.0);
            }
        }
        let after = self.ratings(&ledger, &priors);
        let mut finalists: Vec<Finalist> = distinct
            .into_iter()
            .take(n.max(1))
            .map(|(id, genes, generation, before)| {
                let me = Contestant::Individual(id);
                Finalist {
                    id,
                    genes,
                    generation,
                    before,
                    after: after.get(&me).copied().unwrap_or(before),
                    vs_anchors: (0..self.anchors().len()).map(|a| ledger.record(me, Contestant::Anchor(a))).collect(),
                    games: ledger.games_of(me),
                }
            })
            .collect();
        if finalists.is_empty() {
            // Nothing rated: a fitness that keeps no ratings (`li2007` scores each generation's
            // games alone), or no generation played yet. The last generation's best stands in,
            // as its generation's fitness picked it; before any generation, the first
            // individual.
            let unrated = Fitted { elo: 0.0, se: f64::INFINITY };
            let (id, genes, generation) = match state.hall_of_fame.last() {
                Some(e) => (e.id, e.genes.clone(), Some(e.generation)),
                None => {
                    let ind = state.population.first().context("an empty population has no champion")?;
                    (ind.id, ind.genes.clone(), None)
                }
            };
            finalists.push(Finalist {
                id,
                genes,
                generation,
                before: unrated,
                after: unrated,
                vs_anchors: vec![Wdl::default(); self.anchors().len()],
                games: 0,
            });
        }
        if config.finals.candidates == 0 {
            // The paper's champion: the last generation's best, whatever the ratings say.
            if let Some(i) = finalists.iter().position(|f| Some(f.id) == last_best) {
                finalists.swap(0, i);
            }
        } else {
            finalists.sort_by(|x, y| y.after.elo.total_cmp(&x.after.elo).then(y.id.cmp(&x.id)));
        }
        Ok(PlayOff { finalists, games: played })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ga::evolve::tests::mock_setup;
    use crate::ga::fitness::FitnessMode;
    use crate::report::progress::ProgressMode;

    fn played(candidates: usize) -> (PlayOff, RunState) {
        let (mut config, suite, referee) = mock_setup();
        config.fitness.mode = FitnessMode::Anchors;
        config.hall_of_fame.anchors = vec!["defaults".into()];
        config.finals.candidates = candidates;
        config.finals.pairs = 3;
        let lineup = crate::ga::evolve::tests::lineup(&config);
        let ev = Evolver::new(&config, &suite, &referee, &lineup).unwrap();
        let mut state = ev.initial_state().unwrap();
        let p = Progress::new("t", 0, "games", ProgressMode::Hidden);
        for _ in 0..4 {
            ev.play_generation(&mut state, &p).unwrap();
        }
        let off = ev.play_off(&state, &p).unwrap();
        assert_eq!(ev.play_off_games(&state), off.games, "the progress bar's total");
        (off, state)
    }

    #[test]
    fn the_play_off_replays_the_best_and_crowns_the_best_rated() {
        let (off, state) = played(3);
        assert_eq!(off.finalists.len(), 3);
        // Three finalists, one anchor, three pairs each.
        assert_eq!(off.games, 3 * 3 * 2);
        for f in &off.finalists {
            assert!(f.games > 0 && f.vs_anchors[0].games() >= 6, "{f:?}");
        }
        let best = off.finalists.iter().map(|f| f.after.elo).fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(off.champion().after.elo, best);
        // Distinct tables only, and each one the run knows.
        for (i, f) in off.finalists.iter().enumerate() {
            assert!(off.finalists[..i].iter().all(|g| g.genes != f.genes));
            assert!(state.hall_of_fame.iter().any(|e| e.id == f.id) || state.population.iter().any(|p| p.id == f.id));
        }
        // The same state gives the same play-off.
        let (again, _) = played(3);
        assert_eq!(again.finalists, off.finalists);
    }

    #[test]
    fn without_a_play_off_the_last_best_is_the_champion() {
        let (off, state) = played(0);
        assert_eq!(off.games, 0);
        assert_eq!(off.champion().id, state.hall_of_fame.last().unwrap().id);
    }

    /// `li2007` fitness keeps no ratings: the champion is the last generation's best by its
    /// score (configs/li2007.toml's champion was the population's first, never rated).
    #[test]
    fn without_ratings_the_last_generations_best_is_the_champion() {
        for candidates in [0, 3] {
            let (mut config, suite, referee) = mock_setup();
            assert_eq!(config.fitness.mode, FitnessMode::Li2007);
            config.finals.candidates = candidates;
            let lineup = crate::ga::evolve::tests::lineup(&config);
            let ev = Evolver::new(&config, &suite, &referee, &lineup).unwrap();
            let mut state = ev.initial_state().unwrap();
            let p = Progress::new("t", 0, "games", ProgressMode::Hidden);
            for _ in 0..3 {
                ev.play_generation(&mut state, &p).unwrap();
            }
            let best = state.hall_of_fame.last().unwrap();
            assert_ne!(best.id, state.population[0].id, "the test needs a best that is not the first");
            let off = ev.play_off(&state, &p).unwrap();
            let champ = off.champion();
            assert_eq!(
                (champ.id, &champ.genes, champ.generation),
                (best.id, &best.genes, Some(3)),
                "candidates {candidates}"
            );
        }
    }
}
