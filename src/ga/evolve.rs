//! The generational loop of Li Guo 2007: split the population at random into groups, play a
//! round robin in each, keep each group's champion, and breed the rest from the champions by
//! uniform crossover and mutation at adaptive rates.
//!
//! [`Evolver::play_generation`] is one step from one [`RunState`] to the next. Every random
//! choice of generation g is drawn on the calling thread from streams derived from (run seed,
//! g, purpose); the games run in parallel and come back in schedule order. So the next state
//! is a pure function of the previous one: the same whatever the thread count, and a run
//! resumed from a checkpoint continues exactly as it would have.

use std::time::Instant;

use anyhow::{Context, Result};
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::arena::game::{play_games, GameJob, Referee};
use crate::arena::openings::OpeningSuite;
use crate::arena::player::Player;
use crate::arena::records::{GameRecord, Outcome};
use crate::core::settings::EngineSettings;
use crate::ga::adaptive::{crossover_rate, mutation_rate};
use crate::ga::config::{CrossoverKind, EvolveConfig, PriorCenter};
use std::collections::BTreeMap;

use crate::core::rng::{derive_seed, stream};
use crate::core::weights::{Schema, Weights};
use crate::ga::fitness::{fit_ratings, Contestant, FitnessMode, Fitted, Ledger, Meeting};
use crate::ga::operators::{blend_crossover, crossover_mask, mutate, uniform_crossover};
use crate::ga::population::{diversity, hold, immigrant_genes, initial_genes, Individual};
use crate::ga::selection::{champion, round_robin, split_groups};
use crate::report::history::{AnchorRecord, HistoryRow};
use crate::report::progress::Progress;

/// Purposes of the random streams of a generation.
const INIT: u64 = 0;
const GROUPS: u64 = 1;
const OPENINGS: u64 = 2;
const TIES: u64 = 3;
const BREED: u64 = 4;
const GAMES: u64 = 5;
const IMMIGRANTS: u64 = 6;

/// A generation's best, kept for good.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HallEntry {
    pub generation: u32,
    pub id: u64,
    pub genes: Vec<i32>,
    pub fitness: f64,
    #[serde(default)]
    pub prior_elo: f64,
}

/// Everything a run needs to go on after a generation: what a checkpoint holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunState {
    /// Generations completed.
    pub generation: u32,
    /// The population that plays next.
    pub population: Vec<Individual>,
    pub next_id: u64,
    pub hall_of_fame: Vec<HallEntry>,
    pub history: Vec<HistoryRow>,
    /// The remembered games (`[fitness] mode = "rating"`; empty otherwise).
    #[serde(default)]
    pub ledger: Ledger,
}

/// What one generation did.
#[derive(Clone, Debug)]
pub struct GenerationResult {
    pub generation: u32,
    /// The individuals that played, and their fitness this generation.
    pub played: Vec<Individual>,
    pub fitness: Vec<f64>,
    /// Indices into `played` of the group champions, and of the best of them.
    pub champions: Vec<usize>,
    pub best: usize,
    /// Children replaced by newcomers because diversity fell below `[diversity] min`, and the
    /// bred population's diversity that decided it.
    pub immigrants: usize,
    pub bred_diversity: f64,
    pub row: HistoryRow,
    pub records: Vec<GameRecord>,
}

impl GenerationResult {
    pub fn best_individual(&self) -> &Individual {
        &self.played[self.best]
    }
}

/// One game of a [`Schedule`]: indices into its players, the opening's index in the run's
/// suite, and the game's seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduledGame {
    pub first: usize,
    pub second: usize,
    pub opening: usize,
    pub seed: u64,
}

/// A generation's games before they are played: a pure function of (config, seed, state),
/// so that they can be played anywhere (threads here, shards on a cluster) and concluded
/// alike.
#[derive(Clone, Debug)]
pub struct Schedule {
    /// The generation these games decide.
    pub generation: u32,
    /// The groups of the population (indices), for the group champions.
    groups: Vec<Vec<usize>>,
    /// Who sits where in each game, for the fitness.
    seats: Vec<(Seat, Seat)>,
    /// Everyone who plays, each once.
    pub players: Vec<Player>,
    /// The games in schedule order: records come back in this order.
    pub games: Vec<ScheduledGame>,
}

impl Schedule {
    /// The games as jobs for [`play_games`], in schedule order.
    pub fn jobs<'a>(&'a self, suite: &'a OpeningSuite) -> Vec<GameJob<'a>> {
        self.games.iter().map(|g| self.job(g, suite)).collect()
    }

    /// One game as a job.
    pub fn job<'a>(&'a self, game: &ScheduledGame, suite: &'a OpeningSuite) -> GameJob<'a> {
        GameJob {
            first: &self.players[game.first],
            second: &self.players[game.second],
            opening: suite.get(game.opening),
            opening_index: game.opening,
            seed: game.seed,
        }
    }
}

/// The player of a run with these genes: the config's engine settings and evaluation. Every
/// player of a run is made here, so that a game played from a cluster's plan is the game the
/// local executor plays.
pub fn player_of(config: &EvolveConfig, schema: &'static Schema, name: String, genes: &[i32]) -> Player {
    let weights = Weights::clamped(schema, genes.to_vec());
    let c = &config.engine;
    Player::new(name, weights, EngineSettings { eval: Some(config.eval.clone()), ..c.clone() }, c.limits())
}

/// Who sits on one side of a scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Seat {
    Member(usize),
    Hall(usize),
    Anchor(usize),
}

/// One run's fixed inputs: config, schema, openings and the referee that plays the games.
pub struct Evolver<'a> {
    pub config: &'a EvolveConfig,
    pub schema: &'static Schema,
    pub suite: &'a OpeningSuite,
    pub referee: &'a dyn Referee,
    /// The fixed reference opponents of `[hall_of_fame] anchors`.
    anchors: Vec<Player>,
    /// Their names as given in the config, for reports.
    anchor_names: Vec<String>,
}

impl<'a> Evolver<'a> {
    /// Fails only when an anchor's weight table cannot be loaded.
    pub fn new(config: &'a EvolveConfig, suite: &'a OpeningSuite, referee: &'a dyn Referee) -> Result<Evolver<'a>> {
        let game = config.game()?;
        let schema = config.schema()?;
        let mut ev = Evolver { config, schema, suite, referee, anchors: Vec::new(), anchor_names: Vec::new() };
        for spec in &config.hall_of_fame.anchors {
            let p = crate::player::fixed_opponent(spec, &config.engine, &config.eval, game)
                .with_context(|| format!("[hall_of_fame] anchors: `{spec}`"))?;
            ev.anchor_names.push(p.name.clone());
            ev.anchors.push(Player { name: format!("anchor-{}", p.name), ..p });
        }
        let anchors: Vec<&Player> = ev.anchors.iter().collect();
        crate::arena::outside::check_openings(&anchors, &suite.openings)
            .map_err(|e| anyhow::anyhow!("[hall_of_fame] anchors: {e}"))?;
        Ok(ev)
    }

    /// Generation 0: the initial population, nothing played.
    pub fn initial_state(&self) -> Result<RunState> {
        let mut rng = stream(self.config.seed, &[0, INIT]);
        let genes = initial_genes(self.schema, &self.config.init, self.config.population, &mut rng)?;
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

    /// The anchors' names as the config gives them (file stems for files).
    pub fn anchor_names(&self) -> &[String] {
        &self.anchor_names
    }

    /// The players of the anchors.
    pub fn anchors(&self) -> &[Player] {
        &self.anchors
    }

    /// A player of this run's engine settings with these genes.
    pub fn player_with(&self, name: String, genes: &[i32]) -> Player {
        self.player(name, genes)
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

    /// The hall-of-fame entries this generation plays against: the most recent distinct ones.
    fn opponents(&self, state: &RunState) -> Vec<usize> {
        let mut picked: Vec<usize> = Vec::new();
        for (i, e) in state.hall_of_fame.iter().enumerate().rev() {
            if picked.len() >= self.config.hall_of_fame.opponents {
                break;
            }
            if !picked.iter().any(|&j| state.hall_of_fame[j].genes == e.genes) {
                picked.push(i);
            }
        }
        picked
    }

    /// Games of the next generation, exactly as it will schedule them.
    pub fn games_next(&self, state: &RunState) -> usize {
        let hall = self.opponents(state);
        let against_hall: usize = state
            .population
            .iter()
            .map(|ind| hall.iter().filter(|&&h| state.hall_of_fame[h].genes != ind.genes).count())
            .sum();
        let inside = self.config.games_per_generation(0) - self.config.games_per_generation_fixed(0);
        inside + 2 * self.config.hall_of_fame.pairs * (against_hall + state.population.len() * self.anchors.len())
    }

    fn player(&self, name: String, genes: &[i32]) -> Player {
        player_of(self.config, self.schema, name, genes)
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

    /// The games of generation `state.generation + 1`, drawn before any is played: groups,
    /// pairings, openings and seeds, all from the run's streams of that generation.
    pub fn schedule(&self, state: &RunState) -> Schedule {
        let config = self.config;
        let generation = state.generation + 1;
        let g = u64::from(generation);
        let seed = config.seed;
        let m = state.population.len();

        let groups = split_groups(&mut stream(seed, &[g, GROUPS]), m, config.groups);
        let mut opening_rng = stream(seed, &[g, OPENINGS]);
        let mut seats: Vec<(Seat, Seat, usize)> = Vec::new();
        let n_openings = self.suite.len();
        let mut add_pairs = |a: Seat, b: Seat, pairs: usize, first: usize| {
            for p in 0..pairs {
                let opening = (first + p) % n_openings;
                seats.push((a, b, opening));
                seats.push((b, a, opening));
            }
        };
        for group in &groups {
            for (a, b) in round_robin(group) {
                add_pairs(Seat::Member(a), Seat::Member(b), config.pairs, opening_rng.random_range(0..n_openings));
            }
        }
        // Common openings: everyone meets an anchor on the same openings this generation, so
        // that two tables are compared on the same positions and the many games an opening
        // decides whoever plays it cancel out of the comparison.
        let anchor_first: Vec<usize> = (0..self.anchors.len())
            .map(|_| if config.hall_of_fame.common_openings { opening_rng.random_range(0..n_openings) } else { 0 })
            .collect();
        let opponents = self.opponents(state);
        for i in 0..m {
            // A survivor does not play its own hall-of-fame entry (nor any identical table).
            for &h in opponents.iter().filter(|&&h| state.hall_of_fame[h].genes != state.population[i].genes) {
                add_pairs(
                    Seat::Member(i),
                    Seat::Hall(h),
                    config.hall_of_fame.pairs,
                    opening_rng.random_range(0..n_openings),
                );
            }
            for (a, &common) in anchor_first.iter().enumerate() {
                let first =
                    if config.hall_of_fame.common_openings { common } else { opening_rng.random_range(0..n_openings) };
                add_pairs(Seat::Member(i), Seat::Anchor(a), config.hall_of_fame.pairs, first);
            }
        }

        // The players, each once, in the order they first sit down.
        let mut players: Vec<Player> = Vec::new();
        let mut index_of: BTreeMap<Seat, usize> = BTreeMap::new();
        let mut sit = |s: Seat| {
            *index_of.entry(s).or_insert_with(|| {
                players.push(match s {
                    Seat::Member(i) => {
                        let ind = &state.population[i];
                        self.player(format!("g{generation}-i{}", ind.id), &ind.genes)
                    }
                    Seat::Hall(h) => {
                        let e = &state.hall_of_fame[h];
                        self.player(format!("hof-g{}-i{}", e.generation, e.id), &e.genes)
                    }
                    Seat::Anchor(a) => self.anchors[a].clone(),
                });
                players.len() - 1
            })
        };
        let games = seats
            .iter()
            .enumerate()
            .map(|(k, &(b, w, opening))| ScheduledGame {
                first: sit(b),
                second: sit(w),
                opening,
                seed: derive_seed(&[seed, g, GAMES, k as u64]),
            })
            .collect();
        Schedule { generation, groups, seats: seats.iter().map(|&(b, w, _)| (b, w)).collect(), players, games }
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
        let m = state.population.len();
        let groups = &schedule.groups;
        let seats = &schedule.seats;

        // Results: the paper's +1 / -1 / 0 of this generation, and every game into the ledger.
        let contestant = |s: Seat| match s {
            Seat::Member(i) => Contestant::Individual(state.population[i].id),
            Seat::Hall(h) => Contestant::Individual(state.hall_of_fame[h].id),
            Seat::Anchor(a) => Contestant::Anchor(a),
        };
        let mut points = vec![0.0; m];
        let (mut first_wins, mut second_wins, mut draws) = (0, 0, 0);
        for (&(b, w), r) in seats.iter().zip(&records) {
            let (db, dw, black_score) = match r.result {
                Outcome::First => {
                    first_wins += 1;
                    (1.0, -1.0, 1.0)
                }
                Outcome::Second => {
                    second_wins += 1;
                    (-1.0, 1.0, 0.0)
                }
                Outcome::Draw => {
                    draws += 1;
                    (0.0, 0.0, 0.5)
                }
            };
            if let Seat::Member(i) = b {
                points[i] += db;
            }
            if let Seat::Member(i) = w {
                points[i] += dw;
            }
            state.ledger.add(generation, contestant(b), contestant(w), black_score);
        }
        let memory = match config.fitness.mode {
            FitnessMode::Rating | FitnessMode::Anchors => config.fitness.memory,
            // The paper remembers nothing; one generation is kept for the reports.
            FitnessMode::Li2007 => 1,
        };
        state.ledger.forget_before(generation, memory);
        let priors = self.priors(state);
        let ratings = self.ratings(&state.ledger, &priors);
        let rating_of = |i: usize| ratings.get(&Contestant::Individual(state.population[i].id));
        let fitness: Vec<f64> = match config.fitness.mode {
            FitnessMode::Li2007 => points,
            _ => (0..m).map(|i| rating_of(i).map_or(state.population[i].prior_elo, |r| r.elo)).collect(),
        };
        let fmax = fitness.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let fmin = fitness.iter().copied().fold(f64::INFINITY, f64::min);
        let favg = fitness.iter().sum::<f64>() / m as f64;

        let mut ties = stream(seed, &[g, TIES]);
        let champions: Vec<usize> = groups.iter().map(|grp| champion(grp, &fitness, &mut ties)).collect();
        let best = champion(&champions, &fitness, &mut ties);

        // Breeding: the champions survive; m - n children of two champions each.
        let mut rng = stream(seed, &[g, BREED]);
        let rates = &config.rates;
        let mut next: Vec<Individual> = champions.iter().map(|&c| state.population[c].clone()).collect();
        let (mut pc_sum, mut pm_sum) = (0.0, 0.0);
        let children = m - champions.len();
        for _ in 0..children {
            let (p1, p2) = if champions.len() >= 2 {
                let i = rng.random_range(0..champions.len());
                let mut j = rng.random_range(0..champions.len() - 1);
                if j >= i {
                    j += 1;
                }
                (champions[i], champions[j])
            } else {
                (champions[0], champions[0])
            };
            let f_prime = fitness[p1].max(fitness[p2]);
            let pc = crossover_rate(rates, f_prime, fmax, favg);
            let (a, b) = (&state.population[p1], &state.population[p2]);
            let mut genes = if p1 != p2 && rng.random_bool(pc) {
                match config.crossover.kind {
                    CrossoverKind::Uniform => {
                        let mask = crossover_mask(&mut rng, a.genes.len());
                        uniform_crossover(&a.genes, &b.genes, &mask)
                    }
                    CrossoverKind::Blend => blend_crossover(&a.genes, &b.genes, &mut rng),
                }
            } else {
                a.genes.clone()
            };
            // The child has not played: it mutates at the rate of the parent whose genes it
            // copies where no crossover happens (the first).
            let pm = mutation_rate(rates, fitness[p1], fmax, favg).max(config.diversity.pm_min);
            mutate(&mut genes, self.schema, config.mutation.kind, config.mutation.sigma, pm, &mut rng);
            hold(self.schema, &config.init, &mut genes);
            pc_sum += pc;
            pm_sum += pm;
            let prior_elo = match (config.fitness.mode, config.fitness.prior_center) {
                (FitnessMode::Li2007, _) | (_, PriorCenter::Anchor) => 0.0,
                (_, PriorCenter::Parents) => (fitness[p1] + fitness[p2]) / 2.0,
            };
            next.push(Individual {
                id: state.next_id,
                genes,
                born: generation + 1,
                parents: Some((a.id, b.id)),
                prior_elo,
            });
            state.next_id += 1;
        }

        // Newcomers when the population has converged (the champions stay).
        let mut immigrants = 0;
        let d = &config.diversity;
        let bred_diversity = diversity(self.schema, &next);
        if d.immigrants > 0 && bred_diversity < d.min {
            let mut rng = stream(seed, &[g, IMMIGRANTS]);
            let fresh = immigrant_genes(self.schema, &config.init, d.immigrants, &mut rng)?;
            let first = next.len() - fresh.len();
            for (slot, genes) in next[first..].iter_mut().zip(fresh) {
                slot.genes = genes;
                slot.parents = None;
                slot.prior_elo = 0.0;
            }
            immigrants = d.immigrants;
        }

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
            pc_mean: if children > 0 { pc_sum / children as f64 } else { 0.0 },
            pm_mean: if children > 0 { pm_sum / children as f64 } else { 0.0 },
            diversity: diversity(self.schema, &played),
            games: records.len() as u64,
            first_wins,
            second_wins,
            draws,
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::arena::records::Reason;
    use crate::report::progress::ProgressMode;

    /// A deterministic mock: the player whose genes are closer to a hidden target wins, with
    /// some seeded noise; equal distance draws. Lets the GA be tested in milliseconds.
    pub struct TargetReferee {
        pub target: Vec<i32>,
    }

    impl TargetReferee {
        fn distance(&self, w: &Weights) -> f64 {
            w.values()
                .iter()
                .zip(&self.target)
                .zip(w.schema().specs)
                .map(|((&v, &t), s)| (f64::from(v - t) / f64::from(s.max - s.min)).abs())
                .sum()
        }
    }

    impl Referee for TargetReferee {
        fn play(&self, first: &Player, second: &Player, opening: &[String], seed: u64) -> GameRecord {
            let noise = (seed % 1000) as f64 / 1000.0 * 0.3 - 0.15;
            let d = self.distance(&second.weights) - self.distance(&first.weights) + noise;
            let result = if d.abs() < 1e-9 {
                Outcome::Draw
            } else if d > 0.0 {
                Outcome::First
            } else {
                Outcome::Second
            };
            GameRecord {
                result,
                reason: Reason::Adjudicated,
                ..GameRecord::start("connect6", &first.name, &second.name, opening, seed)
            }
        }
    }

    pub fn mock_setup() -> (EvolveConfig, OpeningSuite, TargetReferee) {
        let mut config = EvolveConfig::quick();
        config.population = 20;
        config.groups = 5;
        config.generations = 40;
        config.hall_of_fame.opponents = 0;
        config.hall_of_fame.anchors.clear();
        config.pairs = 1;
        config.hall_of_fame.pairs = 1;
        // The paper's scheme and operators; the tests of the other modes set their own.
        config.fitness.mode = FitnessMode::Li2007;
        config.crossover = crate::ga::config::CrossoverConfig::default();
        config.mutation.sigma = 1.0;
        config.init.noise = 0.1;
        config.diversity = crate::ga::config::DiversityConfig::default();
        let suite = OpeningSuite { game: crate::registry::CONNECT6, openings: vec![vec!["j10".into()]] };
        let target: Vec<i32> = config.schema().unwrap().specs.iter().map(|s| (s.min + s.max) / 3).collect();
        (config, suite, TargetReferee { target })
    }

    fn run(
        config: &EvolveConfig,
        suite: &OpeningSuite,
        referee: &TargetReferee,
        gens: u32,
    ) -> (RunState, Vec<GenerationResult>) {
        let ev = Evolver::new(config, suite, referee).unwrap();
        let mut state = ev.initial_state().unwrap();
        let p = Progress::new("t", 0, "games", ProgressMode::Hidden);
        let results = (0..gens).map(|_| ev.play_generation(&mut state, &p).unwrap()).collect();
        (state, results)
    }

    #[test]
    fn a_generation_follows_the_paper() {
        let (config, suite, referee) = mock_setup();
        let (state, results) = run(&config, &suite, &referee, 1);
        let r = &results[0];
        // 5 groups of 4: 30 pairings, one pair of games each.
        assert_eq!(r.records.len(), 60);
        assert_eq!(r.champions.len(), 5);
        // Zero-sum games inside the population: the mean fitness is 0.
        assert!(r.row.favg.abs() < 1e-12);
        // Each champion is the best of its group, and survives unchanged.
        for &c in &r.champions {
            assert!(state.population.iter().any(|i| i.id == r.played[c].id && i.genes == r.played[c].genes));
        }
        assert_eq!(state.population.len(), 20);
        let new: Vec<_> = state.population.iter().filter(|i| i.born == 2).collect();
        assert_eq!(new.len(), 15);
        assert!(new.iter().all(|i| i.parents.is_some()));
        assert_eq!(state.hall_of_fame.len(), 1);
        assert_eq!(r.row.fmax, r.fitness[r.best]);
    }

    #[test]
    fn evolution_approaches_the_mock_target() {
        let (config, suite, referee) = mock_setup();
        let ev = Evolver::new(&config, &suite, &referee).unwrap();
        let start = ev.initial_state().unwrap();
        let first_best =
            start.population.iter().map(|i| referee.distance(&i.weights(ev.schema))).fold(f64::MAX, f64::min);
        let (state, results) = run(&config, &suite, &referee, 40);
        let champ = results.last().unwrap().best_individual();
        let d = referee.distance(&champ.weights(ev.schema));
        assert!(d < first_best * 0.7, "champion distance {d} vs best initial {first_best}");
        assert_eq!(state.history.len(), 40);
    }

    #[test]
    fn same_seed_same_run_and_other_seed_other_run() {
        let (config, suite, referee) = mock_setup();
        let (a, _) = run(&config, &suite, &referee, 5);
        let (b, _) = run(&config, &suite, &referee, 5);
        assert_eq!(a.population, b.population);
        assert_eq!(a.hall_of_fame, b.hall_of_fame);
        let mut other = config.clone();
        other.seed += 1;
        let (c, _) = run(&other, &suite, &referee, 5);
        assert_ne!(a.population, c.population);
    }

    #[test]
    fn threads_do_not_change_the_run() {
        let (config, suite, referee) = mock_setup();
        let on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let mut state = pool.install(|| run(&config, &suite, &referee, 6).0);
            state.history.iter_mut().for_each(|r| (r.wall_s, r.games_wall_s) = (0.0, 0.0));
            state
        };
        assert_eq!(on(1), on(3));
    }

    #[test]
    fn anchors_play_everyone_every_generation() {
        let (mut config, suite, referee) = mock_setup();
        config.hall_of_fame.anchors = vec!["defaults".into(), "random:3".into()];
        let (_, results) = run(&config, &suite, &referee, 2);
        for r in &results {
            assert_eq!(r.records.len(), 60 + 2 * 2 * 20);
            let vs_defaults =
                r.records.iter().filter(|g| g.first == "anchor-defaults" || g.second == "anchor-defaults");
            assert_eq!(vs_defaults.count(), 40);
        }
        config.hall_of_fame.anchors = vec!["no/such/file.toml".into()];
        let e = format!("{:#}", Evolver::new(&config, &suite, &referee).err().unwrap());
        assert!(e.contains("[hall_of_fame] anchors") && e.contains("no/such/file.toml"), "{e}");
    }

    #[test]
    fn hall_of_fame_opponents_join_the_schedule() {
        let (mut config, suite, referee) = mock_setup();
        config.hall_of_fame.opponents = 2;
        let ev = Evolver::new(&config, &suite, &referee).unwrap();
        let mut state = ev.initial_state().unwrap();
        let p = Progress::new("t", 0, "games", ProgressMode::Hidden);
        let mut results = Vec::new();
        for _ in 0..3 {
            let expected = ev.games_next(&state);
            let r = ev.play_generation(&mut state, &p).unwrap();
            assert_eq!(r.records.len(), expected, "games_next counts the schedule exactly");
            results.push(r);
        }
        assert_eq!(results[0].records.len(), 60);
        // The first generation's best survives and does not play its own hall-of-fame copy
        // (nor do children that copied it unchanged).
        assert!((60 + 2..=60 + 2 * 19).contains(&results[1].records.len()), "{}", results[1].records.len());
        assert!(results[2].records.iter().any(|r| r.second.starts_with("hof-") || r.first.starts_with("hof-")));
        for r in &results[2].records {
            let hof = [&r.first, &r.second].into_iter().find(|n| n.starts_with("hof-"));
            let member = [&r.first, &r.second].into_iter().find(|n| !n.starts_with("hof-"));
            if let (Some(h), Some(m)) = (hof, member) {
                assert_ne!(h.split("-i").nth(1), m.split("-i").nth(1), "{h} plays itself");
            }
        }
    }

    /// The quick config's kind of run on the mock: fitness against the anchors.
    fn anchors_setup() -> (EvolveConfig, OpeningSuite, TargetReferee) {
        let (mut config, suite, referee) = mock_setup();
        config.fitness.mode = FitnessMode::Anchors;
        config.hall_of_fame.anchors = vec!["defaults".into()];
        config.hall_of_fame.pairs = 3;
        config.fitness.prior = 8.0;
        config.fitness.prior_center = crate::ga::config::PriorCenter::Parents;
        config.population = 12;
        config.groups = 3;
        (config, suite, referee)
    }

    #[test]
    fn anchors_fitness_comes_from_the_anchor_games_and_survivors_keep_their_record() {
        let (config, suite, referee) = anchors_setup();
        let (state, results) = run(&config, &suite, &referee, 6);
        for r in &results {
            // Everyone's fitness is its rating against the anchor: the member that scored
            // best against `defaults` this generation, among those new to the ledger,
            // cannot have the lowest fitness.
            assert!(r.fitness.iter().all(|f| f.is_finite()));
            assert_eq!(r.row.anchors.len(), 1);
            assert_eq!(r.row.anchors[0].name, "defaults");
            assert!(r.row.best_se > 0.0);
        }
        // A champion that survives keeps its games: its record grows by 6 games a generation.
        let survivor = state.hall_of_fame.windows(2).find(|w| w[0].id == w[1].id);
        if let Some(w) = survivor {
            let g = w[1].generation as usize - 1;
            assert!(results[g].row.best_games > results[g - 1].row.best_games, "{:?}", results[g].row);
        }
        // Children start from their parents' mean fitness.
        let last = results.last().unwrap();
        for child in state.population.iter().filter(|i| i.born == last.generation + 1 && i.parents.is_some()) {
            let (a, b) = child.parents.unwrap();
            let f = |id: u64| last.played.iter().position(|p| p.id == id).map(|i| last.fitness[i]);
            if let (Some(fa), Some(fb)) = (f(a), f(b)) {
                assert!((child.prior_elo - (fa + fb) / 2.0).abs() < 1e-9);
            }
        }
        // Closer to the mock's target means stronger: the run's champion beats the anchor.
        let best = last.best_individual();
        assert!(last.fitness[last.best] > 0.0, "{:?}", best);
    }

    #[test]
    fn everyone_meets_the_anchor_on_the_same_openings() {
        let (mut config, _, referee) = anchors_setup();
        let openings: Vec<Vec<String>> =
            (0..50).map(|i| vec![format!("{}10", (b'a' + (i % 19) as u8) as char)]).collect();
        let suite = OpeningSuite { game: crate::registry::CONNECT6, openings };
        let vs_anchor = |config: &EvolveConfig| {
            let (_, results) = run(config, &suite, &referee, 2);
            let mut by_member: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
            for r in results[1].records.iter().filter(|r| r.first == "anchor-defaults" || r.second == "anchor-defaults")
            {
                let member = if r.first == "anchor-defaults" { &r.second } else { &r.first };
                by_member.entry(member.clone()).or_default().push(r.opening.unwrap());
            }
            by_member.into_values().collect::<Vec<_>>()
        };
        let common = vs_anchor(&config);
        assert_eq!(common.len(), config.population);
        assert!(common.iter().all(|o| o == &common[0]), "{common:?}");
        config.hall_of_fame.common_openings = false;
        let own = vs_anchor(&config);
        assert!(own.iter().any(|o| o != &own[0]), "{own:?}");
    }

    #[test]
    fn the_mutation_floor_keeps_children_varied() {
        let (mut config, suite, referee) = mock_setup();
        config.rates.mode = crate::ga::config::RatesMode::Fixed;
        config.rates.pc = 0.0;
        config.rates.pm = 0.0;
        let (state, _) = run(&config, &suite, &referee, 1);
        let champions: Vec<&Individual> = state.population.iter().filter(|i| i.born == 1).collect();
        let copies =
            state.population.iter().filter(|i| i.born == 2).filter(|c| champions.iter().any(|p| p.genes == c.genes));
        assert_eq!(copies.count(), 15, "without crossover or mutation every child is a copy");
        config.diversity.pm_min = 1.0;
        let (state, results) = run(&config, &suite, &referee, 1);
        let champions: Vec<&Individual> = state.population.iter().filter(|i| i.born == 1).collect();
        assert!(state.population.iter().filter(|i| i.born == 2).all(|c| champions.iter().all(|p| p.genes != c.genes)));
        assert_eq!(results[0].row.pm_mean, 1.0);
    }

    #[test]
    fn newcomers_arrive_when_diversity_falls_and_stagnation_is_counted() {
        let (mut config, suite, referee) = mock_setup();
        config.diversity.min = 1.0;
        config.diversity.immigrants = 3;
        let (state, results) = run(&config, &suite, &referee, 2);
        for r in &results {
            assert_eq!((r.immigrants, r.row.immigrants), (3, 3));
            assert!(r.bred_diversity < 1.0);
        }
        let newcomers = state.population.iter().filter(|i| i.born == 3 && i.parents.is_none());
        assert_eq!(newcomers.count(), 3);
        let mut s = state.clone();
        let e = s.hall_of_fame.last().unwrap().clone();
        s.hall_of_fame = vec![HallEntry { id: 99, ..e.clone() }, e.clone(), e.clone(), e];
        assert_eq!(Evolver::stagnant_generations(&s), 3);
        s.hall_of_fame.clear();
        assert_eq!(Evolver::stagnant_generations(&s), 0);
    }
}
