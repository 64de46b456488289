//! The generational loop of Li Guo 2007: split the population at random into groups, play a
//! round robin in each, keep each group's champion, and breed the rest from the champions by
//! uniform crossover and mutation at adaptive rates.
//!
//! [`Evolver::play_generation`] is one step from one [`RunState`] to the next: the
//! [`schedule`](crate::ga::schedule) of its games, the games, then [`Evolver::conclude`]
//! (fitness, champions, [`breed`](crate::ga::breed)). Every random choice of generation g is
//! drawn on the calling thread from streams derived from (run seed, g, purpose); the games run
//! in parallel and come back in schedule order. So the next state is a pure function of the
//! previous one: the same whatever the thread count, and a run resumed from a checkpoint
//! continues exactly as it would have.

use std::collections::BTreeMap;
use std::time::Instant;

use anyhow::Result;

use crate::arena::game::{play_games, Referee};
use crate::arena::openings::OpeningSuite;
use crate::arena::player::Player;
use crate::arena::records::{GameRecord, Outcome};
use crate::core::rng::stream;
use crate::core::weights::Schema;
use crate::ga::breed::{breed, bring_in_newcomers, Brood, Parents};
use crate::ga::config::EvolveConfig;
use crate::ga::fitness::{fit_ratings, Contestant, FitnessMode, Fitted, Ledger, Meeting};
use crate::ga::population::{diversity, initial_genes, Individual};
use crate::ga::schedule::{Draw, Schedule, Seat};
use crate::ga::selection::champion;
use crate::ga::state::{GenerationResult, HallEntry, RunState};
use crate::ga::streams::{BREED, IMMIGRANTS, INIT, TIES};
use crate::report::history::{AnchorRecord, HistoryRow};
use crate::report::progress::Progress;
use crate::tuner::lineup::Lineup;

/// One run's fixed inputs: config, schema, openings, players and the referee that plays the
/// games.
pub struct Evolver<'a> {
    pub config: &'a EvolveConfig,
    pub schema: &'static Schema,
    pub suite: &'a OpeningSuite,
    pub referee: &'a dyn Referee,
    /// How individuals become players, and the anchors.
    pub lineup: &'a Lineup,
    /// The fixed reference opponents of `[hall_of_fame] anchors`, named `anchor-NAME`.
    anchors: Vec<Player>,
    /// Their names as given in the config, for reports.
    anchor_names: Vec<String>,
}

/// Generation 0 of a run: the initial population, nothing played.
pub fn initial_state(config: &EvolveConfig, schema: &'static Schema) -> Result<RunState> {
    let mut rng = stream(config.seed, &[0, INIT]);
    let genes = initial_genes(schema, &config.init, config.population, &mut rng)?;
    let population: Vec<Individual> = genes
        .into_iter()
        .enumerate()
        .map(|(i, genes)| Individual { id: i as u64, genes, born: 1, parents: None, prior_elo: 0.0 })
        .collect();
    Ok(RunState {
        generation: 0,
        next_id: population.len() as u64,
        population,
        hall_of_fame: Vec::new(),
        history: Vec::new(),
        ledger: Ledger::default(),
    })
}

impl<'a> Evolver<'a> {
    /// Fails when an anchor is an outside engine that cannot start from the run's openings.
    pub fn new(
        config: &'a EvolveConfig,
        suite: &'a OpeningSuite,
        referee: &'a dyn Referee,
        lineup: &'a Lineup,
    ) -> Result<Evolver<'a>> {
        let anchors: Vec<Player> =
            lineup.anchors.iter().map(|a| Player { name: format!("anchor-{}", a.name), ..a.player.clone() }).collect();
        let seated: Vec<&Player> = anchors.iter().collect();
        crate::arena::player::check_openings(&seated, &suite.openings)
            .map_err(|e| anyhow::anyhow!("[hall_of_fame] anchors: {e}"))?;
        let individual = lineup.individual("individual".into(), lineup.schema.defaults().values());
        crate::arena::player::check_openings(&[&individual], &suite.openings)
            .map_err(|e| anyhow::anyhow!("[outside]: {e}"))?;
        Ok(Evolver {
            config,
            schema: lineup.schema,
            suite,
            referee,
            lineup,
            anchors,
            anchor_names: lineup.anchor_names(),
        })
    }

    /// Generation 0: the initial population, nothing played.
    pub fn initial_state(&self) -> Result<RunState> {
        initial_state(self.config, self.schema)
    }

    /// The anchors' names as the config gives them (file stems for files).
    pub fn anchor_names(&self) -> &[String] {
        &self.anchor_names
    }

    /// The players of the anchors.
    pub fn anchors(&self) -> &[Player] {
        &self.anchors
    }

    /// The player of an individual with these genes (the lineup's).
    pub fn player_with(&self, name: String, genes: &[i32]) -> Player {
        self.lineup.individual(name, genes)
    }

    /// The reference of ratings: the first anchor, if any.
    pub fn reference(&self) -> Option<Contestant> {
        (!self.anchors.is_empty()).then_some(Contestant::Anchor(0))
    }

    /// Where each individual's rating starts: its `prior_elo`, for the population that plays
    /// next and for every hall-of-fame entry (the individual it was).
    pub fn priors(&self, state: &RunState) -> BTreeMap<Contestant, f64> {
        let mut priors: BTreeMap<Contestant, f64> = BTreeMap::new();
        for e in &state.hall_of_fame {
            priors.insert(Contestant::Individual(e.id), e.prior_elo);
        }
        for ind in &state.population {
            priors.insert(Contestant::Individual(ind.id), ind.prior_elo);
        }
        priors
    }

    /// The ratings `[fitness] mode` asks for over `ledger`: every game (`rating`), or only the
    /// games against anchors (`anchors`; also what `li2007` reports).
    pub fn ratings(&self, ledger: &Ledger, priors: &BTreeMap<Contestant, f64>) -> BTreeMap<Contestant, Fitted> {
        let all_games = self.config.fitness.mode == FitnessMode::Rating;
        let counted =
            |m: &Meeting| all_games || matches!(m.b, Contestant::Anchor(_)) || matches!(m.a, Contestant::Anchor(_));
        fit_ratings(ledger, counted, self.reference(), self.config.fitness.prior, |c| {
            priors.get(&c).copied().unwrap_or(0.0)
        })
    }

    /// Generations in a row, up to the last one played, whose best individual was the same.
    pub fn stagnant_generations(state: &RunState) -> u32 {
        let Some(last) = state.hall_of_fame.last() else { return 0 };
        state.hall_of_fame.iter().rev().take_while(|e| e.id == last.id).count() as u32
    }

    /// What this run's generations are drawn from.
    fn draw(&self) -> Draw<'_> {
        Draw { config: self.config, lineup: self.lineup, openings: self.suite.len(), anchors: &self.anchors }
    }

    /// Games of the next generation, exactly as it will schedule them.
    pub fn games_next(&self, state: &RunState) -> usize {
        self.draw().games_next(state)
    }

    /// The games of generation `state.generation + 1` (see [`Draw::schedule`]).
    pub fn schedule(&self, state: &RunState) -> Schedule {
        self.draw().schedule(state)
    }

    /// Plays generation `state.generation + 1` here, on the current rayon pool, then breeds
    /// the next population into `state`: [`schedule`](Self::schedule), the games, and
    /// [`conclude`](Self::conclude). Fails only when `[init]` files needed for immigrants
    /// cannot be read.
    pub fn play_generation(&self, state: &mut RunState, progress: &Progress) -> Result<GenerationResult> {
        let start = Instant::now();
        let schedule = self.schedule(state);
        let games_start = Instant::now();
        let records = play_games(self.referee, &schedule.jobs(self.suite), progress);
        let games_wall_s = games_start.elapsed().as_secs_f64();
        self.conclude(state, &schedule, records, start, games_wall_s)
    }

    /// Ends generation `schedule.generation` from its games' records (in schedule order):
    /// fitness, the group champions, the next population bred into `state`, the history row.
    /// `start` is when the generation began and `games_wall_s` the wall time of its games,
    /// for the history. Fails when the records are not the schedule's, or when `[init]` files
    /// needed for immigrants cannot be read.
    pub fn conclude(
        &self,
        state: &mut RunState,
        schedule: &Schedule,
        records: Vec<GameRecord>,
        start: Instant,
        games_wall_s: f64,
    ) -> Result<GenerationResult> {
        let config = self.config;
        let generation = state.generation + 1;
        anyhow::ensure!(
            schedule.generation == generation && records.len() == schedule.games.len(),
            "the games of generation {} ({} records) are not the schedule of generation {generation} ({} games)",
            schedule.generation,
            records.len(),
            schedule.games.len()
        );
        let g = u64::from(generation);
        let seed = config.seed;
        let tally = tally(state, schedule, &records, generation);
        let memory = match config.fitness.mode {
            FitnessMode::Rating | FitnessMode::Anchors => config.fitness.memory,
            // The paper remembers nothing; one generation is kept for the reports.
            FitnessMode::Li2007 => 1,
        };
        state.ledger.forget_before(generation, memory);
        let priors = self.priors(state);
        let ratings = self.ratings(&state.ledger, &priors);
        let rating_of = |i: usize| ratings.get(&Contestant::Individual(state.population[i].id));
        let m = state.population.len();
        let fitness: Vec<f64> = match config.fitness.mode {
            FitnessMode::Li2007 => tally.points,
            _ => (0..m).map(|i| rating_of(i).map_or(state.population[i].prior_elo, |r| r.elo)).collect(),
        };
        let fmax = fitness.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let fmin = fitness.iter().copied().fold(f64::INFINITY, f64::min);
        let favg = fitness.iter().sum::<f64>() / m as f64;

        let mut ties = stream(seed, &[g, TIES]);
        let champions: Vec<usize> = schedule.groups.iter().map(|grp| champion(grp, &fitness, &mut ties)).collect();
        let best = champion(&champions, &fitness, &mut ties);

        let mut rng = stream(seed, &[g, BREED]);
        let parents = Parents { population: &state.population, fitness: &fitness, champions: &champions };
        let Brood { mut next, pc_mean, pm_mean } =
            breed(config, self.schema, &parents, generation, &mut state.next_id, &mut rng);
        let (immigrants, bred_diversity) =
            bring_in_newcomers(config, self.schema, &mut next, || stream(seed, &[g, IMMIGRANTS]))?;

        let played = std::mem::replace(&mut state.population, next);
        let best_id = Contestant::Individual(played[best].id);
        let anchors = self
            .anchor_names
            .iter()
            .enumerate()
            .map(|(a, name)| AnchorRecord::new(name, state.ledger.record(best_id, Contestant::Anchor(a))))
            .collect();
        let row = HistoryRow {
            generation,
            fmax,
            favg,
            fmin,
            champion: played[best].id as usize,
            pc_mean,
            pm_mean,
            diversity: diversity(self.schema, &played),
            games: records.len() as u64,
            first_wins: tally.first_wins,
            second_wins: tally.second_wins,
            draws: tally.draws,
            wall_s: start.elapsed().as_secs_f64(),
            games_wall_s,
            best_games: state.ledger.games_of(best_id),
            best_se: match config.fitness.mode {
                FitnessMode::Li2007 => 0.0,
                _ => ratings.get(&best_id).map_or(0.0, |r| r.se),
            },
            immigrants: immigrants as u64,
            anchors,
        };
        state.hall_of_fame.push(HallEntry {
            generation,
            id: played[best].id,
            genes: played[best].genes.clone(),
            fitness: fitness[best],
            prior_elo: played[best].prior_elo,
        });
        state.history.push(row.clone());
        state.generation = generation;
        Ok(GenerationResult { generation, played, fitness, champions, best, immigrants, bred_diversity, row, records })
    }
}

/// What a generation's games say before any rating: the paper's +1 / -1 / 0 points of each
/// member, and the wins by colour.
struct Tally {
    points: Vec<f64>,
    first_wins: u64,
    second_wins: u64,
    draws: u64,
}

/// Counts the games of `schedule` and adds each to the ledger of `state`.
fn tally(state: &mut RunState, schedule: &Schedule, records: &[GameRecord], generation: u32) -> Tally {
    let mut t = Tally { points: vec![0.0; state.population.len()], first_wins: 0, second_wins: 0, draws: 0 };
    for (&(b, w), r) in schedule.seats.iter().zip(records) {
        // A game the referee aborted (an outside anchor's exchange failed) counts for nobody.
        if !r.is_scored() {
            continue;
        }
        let (db, dw, black_score) = match r.result {
            Outcome::First => {
                t.first_wins += 1;
                (1.0, -1.0, 1.0)
            }
            Outcome::Second => {
                t.second_wins += 1;
                (-1.0, 1.0, 0.0)
            }
            Outcome::Draw => {
                t.draws += 1;
                (0.0, 0.0, 0.5)
            }
        };
        if let Seat::Member(i) = b {
            t.points[i] += db;
        }
        if let Seat::Member(i) = w {
            t.points[i] += dw;
        }
        let (cb, cw) = (contestant(state, b), contestant(state, w));
        state.ledger.add(generation, cb, cw, black_score);
    }
    t
}

/// Who a seat is in the ledger.
fn contestant(state: &RunState, seat: Seat) -> Contestant {
    match seat {
        Seat::Member(i) => Contestant::Individual(state.population[i].id),
        Seat::Hall(h) => Contestant::Individual(state.hall_of_fame[h].id),
        Seat::Anchor(a) => Contestant::Anchor(a),
    }
}

#[cfg(test)]
pub(crate) mod tests;
