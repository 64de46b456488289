//! SPSA (simultaneous perturbation stochastic approximation, Spall 1992), the tuner of
//! fishtest and OpenBench, on the same weight schemas, engine and games as the GA, so that
//! the two can be compared at equal game budgets.
//!
//! Every iteration k perturbs all weights at once by ±c_k steps (each sign a coin flip Δi),
//! plays θ + c_kΔ against θ − c_kΔ on `pairs` paired openings, and moves every weight by
//! a_k · y / (2 c_k Δi) steps along the result y ∈ [-1, 1] (the score of θ + c_kΔ, centred):
//! a noisy estimate of the gradient of the score from two players, whatever the number of
//! weights. a_k = a / (k + 1 + A)^α and c_k = c / (k + 1)^γ (α = 0.602, γ = 0.101, Spall's
//! recommended exponents). Weights move in units of their schema step (a twentieth of their
//! range), so one `c` and one `a` serve weights of any scale.
//!
//! A batch of `batch` iterations is played in parallel from the same θ, and their updates are
//! applied in iteration order: the result is the same on any number of threads.

pub mod checkpoint;
pub mod run;

use anyhow::{bail, Context, Result};
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::arena::game::{play_games, GameJob, GameSettings, Referee};
use crate::arena::matches::score_for;
use crate::arena::openings::OpeningSuite;
use crate::arena::player::Player;
use crate::arena::validation::ValidationConfig;
use crate::core::config_lines;
use crate::core::rng::{derive_seed, stream};
use crate::core::settings::EngineSettings;
use crate::core::weights::{Schema, Weights};
use crate::ga::config::{InitConfig, InitMode, OpeningsSection};
use crate::report::progress::Progress;
use crate::tuner::lineup::Lineup;
use crate::tuner::outside::OutsideConfig;

/// The built-in SPSA config (`configs/spsa-quick.toml`).
pub const QUICK_TOML: &str = include_str!("../../configs/spsa-quick.toml");

/// Purposes of the random streams of an iteration.
const SIGNS: u64 = 0;
const OPENINGS: u64 = 1;
const GAMES: u64 = 2;

/// An SPSA run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpsaConfig {
    /// The run's name: its folders are populations/<name> and results/<name>.
    pub name: String,
    pub seed: u64,
    /// The game played: `game = "gomoku"` (default connect6). Configs written before games
    /// had names held the referee's settings under this key (`[game] max_turns`); they still
    /// read, as Connect6 runs.
    #[serde(default)]
    pub game: GameKey,
    /// The evaluation whose weights are tuned, one of the game's. Left out with `[outside]`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub eval: String,
    /// The game budget: iterations = games / (2 pairs).
    pub games: u64,
    /// Game pairs per iteration (one opening, colours swapped, each).
    #[serde(default = "one")]
    pub pairs: usize,
    /// Iterations played in parallel from the same weights.
    #[serde(default = "sixteen")]
    pub batch: usize,
    #[serde(default)]
    pub spsa: SpsaGains,
    /// Where θ starts: `defaults`, `files` (the first file) or `random`.
    #[serde(default)]
    pub init: InitConfig,
    /// The engine both sides play with (only the weights differ).
    #[serde(default = "EngineSettings::config_default")]
    pub engine: EngineSettings,
    /// How games are refereed (`[referee] max_turns`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub referee: Option<GameSettings>,
    #[serde(default)]
    pub openings: OpeningsSection,
    #[serde(default)]
    pub validation: ValidationConfig,
    #[serde(default)]
    pub output: SpsaOutput,
    /// An outside engine whose own parameters are tuned (`tuner::outside`), as in a GA config.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outside: Option<OutsideConfig>,
}

fn one() -> usize {
    1
}

/// The `game` key of an SPSA config: the game's name, or the referee settings of configs
/// written before games had names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum GameKey {
    Name(String),
    Legacy(GameSettings),
}

impl Default for GameKey {
    fn default() -> Self {
        GameKey::Name(crate::registry::DEFAULT_GAME.into())
    }
}

fn sixteen() -> usize {
    16
}

/// The gain sequences a_k = a / (k + 1 + A)^α and c_k = c / (k + 1)^γ, in weight steps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SpsaGains {
    pub a: f64,
    pub c: f64,
    /// The stability constant A, as a share of the iterations (Spall: about 10%).
    pub big_a: f64,
    pub alpha: f64,
    pub gamma: f64,
}

impl Default for SpsaGains {
    fn default() -> Self {
        SpsaGains { a: 2.0, c: 1.0, big_a: 0.1, alpha: 0.602, gamma: 0.101 }
    }
}

/// What the run writes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SpsaOutput {
    /// Write θ to results/<run>/snapshots/games-NNNNNNN.toml every this many games (0: no
    /// snapshots), to measure how strength grows with games.
    pub snapshot_games: u64,
    pub plot: bool,
}

impl Default for SpsaOutput {
    fn default() -> Self {
        SpsaOutput { snapshot_games: 2000, plot: true }
    }
}

impl SpsaConfig {
    pub fn parse(text: &str, file: &str) -> Result<SpsaConfig> {
        let mut config: SpsaConfig =
            toml::from_str(text).map_err(|e| anyhow::anyhow!("{file}: {}", e.to_string().trim_end()))?;
        config.engine = config.engine.clone().with_config_depth();
        if let Some(o) = &mut config.outside {
            o.read_schema().map_err(|e| config_lines::invalid(e, file, text))?;
        }
        config.validate().map_err(|e| config_lines::invalid(e, file, text))?;
        Ok(config)
    }

    pub fn load(path: &std::path::Path) -> Result<SpsaConfig> {
        let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))?;
        Self::parse(&text, &path.display().to_string())
    }

    /// The built-in quick config.
    pub fn quick() -> SpsaConfig {
        Self::parse(QUICK_TOML, "configs/spsa-quick.toml (built in)").expect("the built-in config is valid")
    }

    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a config serialises")
    }

    /// The name of the game played.
    pub fn game_name(&self) -> &str {
        match &self.game {
            GameKey::Name(n) => n,
            GameKey::Legacy(_) => crate::registry::DEFAULT_GAME,
        }
    }

    /// The game played.
    pub fn game(&self) -> Result<crate::registry::GameRef> {
        crate::registry::find(self.game_name()).map_err(|e| anyhow::anyhow!("game = {:?}: {e}", self.game_name()))
    }

    /// How games are refereed.
    pub fn settings(&self) -> GameSettings {
        match (&self.referee, &self.game) {
            (Some(s), _) | (None, GameKey::Legacy(s)) => *s,
            (None, GameKey::Name(_)) => GameSettings::default(),
        }
    }

    /// The weight schema tuned: the evaluation's, or the outside engine's parameters.
    pub fn schema(&self) -> Result<&'static crate::core::weights::Schema> {
        match &self.outside {
            Some(o) => o.schema(self.game()?.name()),
            None => crate::tuner::outside::evaluation_schema(self.game()?, &self.eval),
        }
    }

    /// Iterations the budget buys.
    pub fn iterations(&self) -> u64 {
        self.games / (2 * self.pairs as u64)
    }

    pub fn validate(&self) -> Result<()> {
        let name_ok = !self.name.is_empty()
            && self.name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
            && !self.name.starts_with('.');
        if !name_ok {
            bail!("name = {:?}: use letters, digits, '-', '_' and '.' (it names folders)", self.name);
        }
        if matches!(self.game, GameKey::Legacy(_)) && self.referee.is_some() {
            bail!("[game] and [referee]: the referee's settings are [referee]; `game` names the game");
        }
        let game = self.game()?;
        crate::tuner::outside::check_tuned(game, &self.eval, self.outside.as_ref())?;
        if !(1..=1_000).contains(&self.pairs) {
            bail!("pairs = {}: between 1 and 1000", self.pairs);
        }
        if !(2..=100_000_000).contains(&self.games) || self.iterations() == 0 {
            bail!("games = {}: between 2 * pairs and 100000000", self.games);
        }
        if !(1..=4096).contains(&self.batch) {
            bail!("batch = {}: between 1 and 4096 iterations", self.batch);
        }
        let g = &self.spsa;
        for (key, v) in [("a", g.a), ("c", g.c)] {
            if !(v > 0.0 && v <= 1000.0) {
                bail!("[spsa] {key} = {v}: more than 0 and at most 1000 (in weight steps)");
            }
        }
        if !(0.0..=10.0).contains(&g.big_a) {
            bail!("[spsa] big_a = {}: a share of the iterations, between 0 and 10", g.big_a);
        }
        for (key, v) in [("alpha", g.alpha), ("gamma", g.gamma)] {
            if !(0.0..=1.0).contains(&v) {
                bail!("[spsa] {key} = {v}: between 0 and 1");
            }
        }
        if self.init.mode == InitMode::Files && self.init.files.is_empty() {
            bail!("[init] mode = \"files\" needs files = [\"a.toml\"]");
        }
        self.engine.check().map_err(|e| anyhow::anyhow!("{e}"))?;
        self.engine.check_one_thread().map_err(|e| anyhow::anyhow!("{e}"))?;
        self.openings.generator().check(game.arena()).map_err(|e| anyhow::anyhow!("[openings] {e}"))?;
        self.validation.check()
    }
}

/// Everything a run needs to go on: what a checkpoint holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaState {
    /// Iterations done.
    pub iteration: u64,
    /// The weights, unrounded, in schema order.
    pub theta: Vec<f64>,
    /// Games played so far.
    pub games: u64,
    /// One row per batch.
    pub history: Vec<SpsaRow>,
}

/// The statistics of one batch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaRow {
    /// Iterations and games done after the batch.
    pub iteration: u64,
    pub games: u64,
    /// The gains of the batch's first iteration.
    pub a_k: f64,
    pub c_k: f64,
    /// Mean result y of the batch (the + side's score, centred, in [-1, 1]).
    pub y_mean: f64,
    pub wall_s: f64,
    /// The weights after the batch, unrounded.
    pub theta: Vec<f64>,
}

/// θ before the first iteration of a run of `config`, over `schema`'s weights.
pub fn initial_state(config: &SpsaConfig, schema: &'static Schema) -> Result<SpsaState> {
    let theta: Vec<i32> = match config.init.mode {
        InitMode::Defaults => schema.defaults().values().to_vec(),
        InitMode::Random => {
            let mut rng = stream(config.seed, &[u64::MAX, SIGNS]);
            schema.specs.iter().map(|s| rng.random_range(s.min..=s.max)).collect()
        }
        InitMode::Files => {
            let f = &config.init.files[0];
            let (w, _) = Weights::load(f, &[schema]).context("[init] files")?;
            w.values().to_vec()
        }
    };
    Ok(SpsaState { iteration: 0, theta: theta.into_iter().map(f64::from).collect(), games: 0, history: Vec::new() })
}

/// One run's fixed inputs.
pub struct Spsa<'a> {
    pub config: &'a SpsaConfig,
    pub schema: &'static Schema,
    pub suite: &'a OpeningSuite,
    pub referee: &'a dyn Referee,
    /// How θ becomes a player.
    pub lineup: &'a Lineup,
}

impl<'a> Spsa<'a> {
    pub fn new(
        config: &'a SpsaConfig,
        suite: &'a OpeningSuite,
        referee: &'a dyn Referee,
        lineup: &'a Lineup,
    ) -> Spsa<'a> {
        Spsa { config, schema: lineup.schema, suite, referee, lineup }
    }

    /// θ before the first iteration.
    pub fn initial_state(&self) -> Result<SpsaState> {
        initial_state(self.config, self.schema)
    }

    /// The current weights, rounded into their bounds.
    pub fn weights(&self, theta: &[f64]) -> Weights {
        Weights::clamped(self.schema, theta.iter().map(|&v| v.round() as i32).collect())
    }

    pub fn player(&self, name: String, theta: &[f64]) -> Player {
        self.lineup.individual(name, self.weights(theta).values())
    }

    fn gains(&self, k: u64) -> (f64, f64) {
        let g = &self.config.spsa;
        let big_a = g.big_a * self.config.iterations() as f64;
        let a_k = g.a / (k as f64 + 1.0 + big_a).powf(g.alpha);
        let c_k = g.c / (k as f64 + 1.0).powf(g.gamma);
        (a_k, c_k)
    }

    /// Plays the next batch (fewer iterations at the end of the budget) and updates `state`.
    pub fn play_batch(&self, state: &mut SpsaState, progress: &Progress) -> SpsaRow {
        let start = std::time::Instant::now();
        let config = self.config;
        let seed = config.seed;
        let first = state.iteration;
        let n = (config.batch as u64).min(config.iterations() - first);
        let steps: Vec<f64> = self.schema.specs.iter().map(|s| f64::from(s.step)).collect();
        // Per iteration: the signs, the two players, and the openings of its pairs.
        let mut plans = Vec::new();
        for k in first..first + n {
            let mut rng = stream(seed, &[k, SIGNS]);
            let delta: Vec<f64> = steps.iter().map(|_| if rng.random_bool(0.5) { 1.0 } else { -1.0 }).collect();
            let (a_k, c_k) = self.gains(k);
            let side = |sign: f64| -> Vec<f64> {
                state.theta.iter().zip(&delta).zip(&steps).map(|((&t, &d), &s)| t + sign * c_k * d * s).collect()
            };
            let plus = self.player(format!("spsa-k{k}-plus"), &side(1.0));
            let minus = self.player(format!("spsa-k{k}-minus"), &side(-1.0));
            let first_opening = stream(seed, &[k, OPENINGS]).random_range(0..self.suite.len());
            plans.push((k, delta, a_k, c_k, plus, minus, first_opening));
        }
        let mut jobs = Vec::new();
        for (k, _, _, _, plus, minus, first_opening) in &plans {
            for p in 0..config.pairs {
                let opening = (first_opening + p) % self.suite.len();
                for (j, (black, white)) in [(plus, minus), (minus, plus)].into_iter().enumerate() {
                    jobs.push(GameJob {
                        first: black,
                        second: white,
                        opening: self.suite.get(opening),
                        opening_index: opening,
                        seed: derive_seed(&[seed, *k, GAMES, (2 * p + j) as u64]),
                    });
                }
            }
        }
        let records = play_games(self.referee, &jobs, progress);
        let per_iteration = 2 * config.pairs;
        let mut y_sum = 0.0;
        let mut update = vec![0.0; steps.len()];
        for ((_, delta, a_k, c_k, ..), games) in plans.iter().zip(records.chunks(per_iteration)) {
            // The + side's points, game by game: Black in the even games.
            // Aborted games (none between two inside players) are left out.
            let scored = games.iter().filter(|r| r.is_scored()).count().max(1);
            let points: f64 = games
                .iter()
                .enumerate()
                .filter(|(_, r)| r.is_scored())
                .map(|(j, r)| score_for(r.result, j % 2 == 0).half_points() as f64 / 2.0)
                .sum();
            let y = 2.0 * points / scored as f64 - 1.0;
            y_sum += y;
            for ((u, &d), &s) in update.iter_mut().zip(delta).zip(&steps) {
                *u += a_k * y / (2.0 * c_k * d) * s;
            }
        }
        for ((t, u), spec) in state.theta.iter_mut().zip(update).zip(self.schema.specs) {
            *t = (*t + u).clamp(f64::from(spec.min), f64::from(spec.max));
        }
        let (a_k, c_k) = self.gains(first);
        state.iteration += n;
        state.games += records.len() as u64;
        let row = SpsaRow {
            iteration: state.iteration,
            games: state.games,
            a_k,
            c_k,
            y_mean: y_sum / n.max(1) as f64,
            wall_s: start.elapsed().as_secs_f64(),
            theta: state.theta.clone(),
        };
        state.history.push(row.clone());
        row
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ga::evolve::tests::TargetReferee;
    use crate::report::progress::ProgressMode;

    fn setup() -> (SpsaConfig, OpeningSuite, TargetReferee) {
        let mut config = SpsaConfig::quick();
        config.games = 4000;
        config.validation.pairs = 0;
        let suite =
            OpeningSuite { game: crate::registry::CONNECT6, openings: vec![vec!["j10".into()], vec!["k10".into()]] };
        let schema = config.schema().unwrap();
        let target = schema.specs.iter().map(|s| s.min + (s.max - s.min) / 3).collect();
        (config, suite, TargetReferee { target })
    }

    fn distance(schema: &Schema, theta: &[f64], target: &[i32]) -> f64 {
        theta
            .iter()
            .zip(target)
            .zip(schema.specs)
            .map(|((&t, &g), s)| (t - f64::from(g)).abs() / f64::from(s.max - s.min))
            .sum()
    }

    #[test]
    fn spsa_climbs_towards_the_mock_target_and_keeps_its_budget() {
        let (config, suite, referee) = setup();
        let lineup = crate::player::spsa_lineup(&config, &[]).unwrap();
        let spsa = Spsa::new(&config, &suite, &referee, &lineup);
        let mut state = spsa.initial_state().unwrap();
        let before = distance(spsa.schema, &state.theta, &referee.target);
        let p = Progress::new("t", 0, "games", ProgressMode::Hidden);
        while state.iteration < config.iterations() {
            spsa.play_batch(&mut state, &p);
        }
        assert_eq!(state.games, 4000);
        assert_eq!(state.iteration, 2000);
        let after = distance(spsa.schema, &state.theta, &referee.target);
        assert!(after < 0.7 * before, "distance {before} -> {after}");
        for (t, s) in state.theta.iter().zip(spsa.schema.specs) {
            assert!(f64::from(s.min) <= *t && *t <= f64::from(s.max));
        }
    }

    #[test]
    fn batches_and_threads_do_not_change_the_run() {
        let (mut config, suite, referee) = setup();
        config.games = 640;
        let lineup = crate::player::spsa_lineup(&config, &[]).unwrap();
        let run = |threads: usize| {
            let spsa = Spsa::new(&config, &suite, &referee, &lineup);
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| {
                let mut state = spsa.initial_state().unwrap();
                let p = Progress::new("t", 0, "games", ProgressMode::Hidden);
                while state.iteration < config.iterations() {
                    spsa.play_batch(&mut state, &p);
                }
                state.history.iter_mut().for_each(|r| r.wall_s = 0.0);
                state
            })
        };
        assert_eq!(run(1), run(3));
    }

    #[test]
    fn bad_gains_name_the_key() {
        let e = format!("{:#}", SpsaConfig::parse(&QUICK_TOML.replace("a = 2.0", "a = -1.0"), "s.toml").unwrap_err());
        assert!(e.contains("s.toml") && e.contains("[spsa] a = -1"), "{e}");
    }
}
