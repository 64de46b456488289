//! A generation's games before they are played: who meets whom, on which opening, with which
//! seed. Drawn on the calling thread from the run's streams of that generation, so a schedule
//! is a pure function of (config, seed, state) and can be played anywhere.

use std::collections::BTreeMap;

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::arena::game::GameJob;
use crate::arena::openings::OpeningSuite;
use crate::arena::player::Player;
use crate::core::rng::{derive_seed, stream};
use crate::ga::config::EvolveConfig;
use crate::ga::selection::{round_robin, split_groups};
use crate::ga::state::RunState;
use crate::ga::streams::{GAMES, GROUPS, OPENINGS};
use crate::tuner::lineup::Lineup;

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
    pub(crate) groups: Vec<Vec<usize>>,
    /// Who sits where in each game, for the fitness.
    pub(crate) seats: Vec<(Seat, Seat)>,
    /// Everyone who plays, each once.
    pub players: Vec<Player>,
    /// For each player, the anchor it is (by its index in the lineup), if it is one.
    pub anchor_of: Vec<Option<usize>>,
    /// The games in schedule order: records come back in this order.
    pub games: Vec<ScheduledGame>,
}

impl Schedule {
    /// The games as jobs for [`play_games`], in schedule order.
    pub fn jobs<'a>(&'a self, suite: &'a OpeningSuite) -> Vec<GameJob<'a>> {
        self.games.iter().map(|g| self.job(g, suite)).collect()
    }

    /// Each game's class for the hand-out order of its threads ([`crate::dispatch`]): games
    /// on one opening with the same anchor or hall-of-fame entry on the same side (everyone
    /// meets an anchor on the same openings) are alike in length; a game between two members
    /// shares a class only with games on its opening with the same colours' kind.
    pub fn classes(&self) -> Vec<usize> {
        let outsider = |s: Seat| match s {
            Seat::Member(_) => None,
            other => Some(other),
        };
        let mut ids: BTreeMap<(usize, Option<Seat>, Option<Seat>), usize> = BTreeMap::new();
        self.games
            .iter()
            .zip(&self.seats)
            .map(|(game, &(first, second))| {
                let n = ids.len();
                *ids.entry((game.opening, outsider(first), outsider(second))).or_insert(n)
            })
            .collect()
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

/// Who sits on one side of a scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Seat {
    Member(usize),
    Hall(usize),
    Anchor(usize),
}

/// What a generation's games are drawn from besides the run's state: its config, the lineup
/// that makes its individuals players, the size of its opening suite and its anchors.
pub struct Draw<'a> {
    pub config: &'a EvolveConfig,
    pub lineup: &'a Lineup,
    pub openings: usize,
    pub anchors: &'a [Player],
}

impl Draw<'_> {
    /// The hall-of-fame entries this generation plays against: the most recent distinct ones.
    pub fn opponents(&self, state: &RunState) -> Vec<usize> {
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
        let n_openings = self.openings;
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
        let mut anchor_of: Vec<Option<usize>> = Vec::new();
        let mut index_of: BTreeMap<Seat, usize> = BTreeMap::new();
        let mut sit = |s: Seat| {
            *index_of.entry(s).or_insert_with(|| {
                anchor_of.push(match s {
                    Seat::Anchor(a) => Some(a),
                    _ => None,
                });
                players.push(match s {
                    Seat::Member(i) => {
                        let ind = &state.population[i];
                        self.lineup.individual(format!("g{generation}-i{}", ind.id), &ind.genes)
                    }
                    Seat::Hall(h) => {
                        let e = &state.hall_of_fame[h];
                        self.lineup.individual(format!("hof-g{}-i{}", e.generation, e.id), &e.genes)
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
        Schedule {
            generation,
            groups,
            seats: seats.iter().map(|&(b, w, _)| (b, w)).collect(),
            players,
            anchor_of,
            games,
        }
    }
}
