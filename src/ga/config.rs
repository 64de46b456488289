//! The configuration of a GA run: one TOML file, every key documented in `configs/*.toml`
//! and validated on load. Unknown keys and bad values are errors that name the file, the key
//! and what is allowed.

use std::path::Path;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use crate::arena::game::GameSettings;
use crate::arena::validation::ValidationConfig;
use crate::core::config_lines;
use crate::core::settings::EngineSettings;
use crate::core::weights::Schema;
use crate::ga::fitness::FitnessMode;
use crate::registry::{GameRef, DEFAULT_GAME};
use crate::tuner::outside::OutsideConfig;

mod sections;
pub use sections::*;

/// A whole run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvolveConfig {
    /// The run's name: its folders are populations/<name> and results/<name>.
    pub name: String,
    /// The one seed every random choice of the run derives from.
    pub seed: u64,
    /// Generations to run.
    pub generations: u32,
    /// Individuals (m).
    pub population: usize,
    /// Groups (n): each plays a round robin, each group's best survives.
    pub groups: usize,
    /// Game pairs per pairing inside a group (each pair: one opening, colours swapped).
    #[serde(default = "one")]
    pub pairs: usize,
    /// The game played (`connect6`, `gomoku`, `surakarta`); configs written before games had
    /// names are Connect6's.
    #[serde(default = "default_game")]
    pub game: String,
    /// The evaluation whose weights are tuned, one of the game's (connect6: roads or patterns;
    /// gomoku: tuple6, roads, patterns or cells; surakarta: features). Left out with `[outside]`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub eval: String,
    #[serde(default)]
    pub init: InitConfig,
    #[serde(default)]
    pub crossover: CrossoverConfig,
    #[serde(default)]
    pub mutation: MutationConfig,
    #[serde(default)]
    pub rates: RatesConfig,
    /// The engine every individual plays with (only the weights differ).
    #[serde(default = "EngineSettings::config_default")]
    pub engine: EngineSettings,
    #[serde(default)]
    pub games: GameSettings,
    #[serde(default)]
    pub openings: OpeningsSection,
    #[serde(default)]
    pub hall_of_fame: HallOfFameConfig,
    #[serde(default)]
    pub fitness: FitnessConfig,
    #[serde(default)]
    pub diversity: DiversityConfig,
    /// The finalists' play-off that picks the run's champion.
    #[serde(default, rename = "final")]
    pub finals: FinalConfig,
    #[serde(default)]
    pub validation: ValidationConfig,
    #[serde(default)]
    pub output: OutputConfig,
    /// An outside engine whose own parameters are tuned, instead of an evaluation of
    /// evotune's (`tuner::outside`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outside: Option<OutsideConfig>,
}

fn one() -> usize {
    1
}

fn default_game() -> String {
    DEFAULT_GAME.into()
}

/// The largest population (a generation of it in one group is half a million pairings).
pub const MAX_POPULATION: usize = 1000;
/// The most game pairs per pairing, against each hall-of-fame opponent and anchor.
pub const MAX_PAIRS: usize = 1000;
/// The most hall-of-fame opponents and anchors.
pub const MAX_OPPONENTS: usize = 100;
pub const MAX_GENERATIONS: u32 = 1_000_000;
/// The most games one generation may play (at a few ms each, hours per generation).
pub const MAX_GAMES_PER_GENERATION: usize = 1_000_000;

/// `key = value: between lo and hi` unless `lo <= value <= hi`.
fn in_range<T: PartialOrd + std::fmt::Display>(key: &str, value: T, lo: T, hi: T) -> Result<()> {
    if value < lo || value > hi {
        bail!("{key} = {value}: between {lo} and {hi}");
    }
    Ok(())
}

/// A TOML error as `file:line: [section] key = value: what is wrong`, so that it names the
/// key even when the message alone does not (a wrong type says only what it expected).
fn toml_error(text: &str, file: &str, e: &toml::de::Error) -> String {
    let message = e.message().trim_end().replace('\n', " ");
    let Some(span) = e.span() else { return format!("{file}: {message}") };
    let start = span.start.min(text.len());
    let line_no = text[..start].matches('\n').count() + 1;
    let line = text.lines().nth(line_no - 1).unwrap_or("");
    let line = line.split(" #").next().unwrap_or(line).trim();
    let section = text[..start]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('[') && l.contains(']'))
        .map(|l| l[..=l.find(']').unwrap_or(0)].to_string() + " ")
        .unwrap_or_default();
    if line.is_empty() {
        format!("{file}:{line_no}: {message}")
    } else if line.starts_with('[') {
        // A table header: `[engine.depth]` names the key itself.
        format!("{file}:{line_no}: {line}: {message}")
    } else {
        format!("{file}:{line_no}: {section}{line}: {message}")
    }
}

impl EvolveConfig {
    /// Parses and validates a config; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<EvolveConfig> {
        let mut config: EvolveConfig =
            toml::from_str(text).map_err(|e| anyhow::anyhow!("{}", toml_error(text, file, &e)))?;
        config.engine = config.engine.clone().with_config_depth();
        if let Some(o) = &mut config.outside {
            o.read_schema().map_err(|e| config_lines::invalid(e, file, text))?;
        }
        config.validate().map_err(|e| config_lines::invalid(e, file, text))?;
        Ok(config)
    }

    pub fn load(path: &Path) -> Result<EvolveConfig> {
        let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))?;
        Self::parse(&text, &path.display().to_string())
    }

    /// The default game's built-in quick config (`configs/quick.toml`).
    pub fn quick() -> EvolveConfig {
        let game = crate::registry::find(DEFAULT_GAME).expect("the default game is registered");
        Self::quick_for(game).expect("the built-in config is valid")
    }

    /// The built-in quick config of a game.
    pub fn quick_for(game: GameRef) -> Result<EvolveConfig> {
        let config = game.quick_config();
        Self::parse(config.text, &format!("{} (built in)", config.path))
    }

    /// The game of the run (checked by `validate`).
    pub fn game(&self) -> Result<GameRef> {
        crate::registry::find(&self.game).map_err(|e| anyhow::anyhow!("game = {:?}: {e}", self.game))
    }

    /// The weight schema tuned: the evaluation's, or the outside engine's parameters.
    pub fn schema(&self) -> Result<&'static Schema> {
        match &self.outside {
            Some(o) => o.schema(self.game()?.name()),
            None => crate::tuner::outside::evaluation_schema(self.game()?, &self.eval),
        }
    }

    /// The config as TOML (stored in checkpoints; hashed for `[meta] config_hash`). Cannot
    /// fail for a validated config (its seed fits a TOML integer).
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a validated config serialises")
    }

    /// A stable hash of the config's content.
    pub fn hash(&self) -> String {
        format!("{:016x}", crate::fsutil::fnv1a64(self.to_toml().as_bytes()))
    }

    /// Openings a generated or given suite must hold: a pairing plays its game pairs from
    /// consecutive openings, and a repeated one would replay a game move for move.
    pub fn openings_needed(&self) -> usize {
        let fixed = self.hall_of_fame.opponents > 0 || !self.hall_of_fame.anchors.is_empty();
        self.pairs.max(if fixed { self.hall_of_fame.pairs } else { 1 })
    }

    /// Checks every value the types do not: each key's range, and the keys that depend on
    /// each other. The error names the key (`[section] key = value`) and what is allowed.
    pub fn validate(&self) -> Result<()> {
        let name_ok = !self.name.is_empty()
            && self.name.len() <= 100
            && self.name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
            && !self.name.starts_with('.');
        if !name_ok {
            bail!(
                "name = {:?}: up to 100 letters, digits, '-', '_' and '.', not starting with '.' (it names folders)",
                self.name
            );
        }
        // Checkpoints store the config as TOML, whose integers are signed 64-bit.
        in_range("seed", self.seed, 0, i64::MAX as u64)?;
        in_range("generations", self.generations, 1, MAX_GENERATIONS)?;
        in_range("population", self.population, 2, MAX_POPULATION)?;
        in_range("groups", self.groups, 1, MAX_POPULATION / 2)?;
        if self.population < 2 * self.groups {
            bail!(
                "population = {}: must be at least 2 * groups = {} (every group needs two players)",
                self.population,
                2 * self.groups
            );
        }
        if self.population == self.groups {
            bail!("population = groups: no room for children");
        }
        if self.pairs == 0 {
            if self.fitness.mode != FitnessMode::Anchors {
                bail!("pairs = 0: must be at least 1 (0 only with [fitness] mode = \"anchors\")");
            }
        } else {
            in_range("pairs", self.pairs, 1, MAX_PAIRS)?;
        }
        let game = self.game()?;
        crate::tuner::outside::check_tuned(game, &self.eval, self.outside.as_ref())?;
        let r = &self.rates;
        for (key, v) in [("pc1", r.pc1), ("pc2", r.pc2), ("pm1", r.pm1), ("pm2", r.pm2), ("pc", r.pc), ("pm", r.pm)] {
            if !(0.0..=1.0).contains(&v) {
                bail!("[rates] {key} = {v}: a probability, between 0 and 1");
            }
        }
        for (key, v) in [("k1", r.k1), ("k2", r.k2), ("k3", r.k3), ("k4", r.k4)] {
            if !(0.0..=1.0).contains(&v) {
                bail!("[rates] {key} = {v}: between 0 and 1");
            }
        }
        if r.pc1 < r.pc2 || r.pm1 < r.pm2 {
            bail!("[rates] pc1 >= pc2 and pm1 >= pm2 are required (the rate falls from the first to the second as fitness rises)");
        }
        if !(self.init.noise >= 0.0 && self.init.noise <= 1.0) {
            bail!("[init] noise = {}: a share of each weight's range, between 0 and 1", self.init.noise);
        }
        if self.init.mode == InitMode::Files && self.init.files.is_empty() {
            bail!("[init] mode = \"files\" needs files = [\"a.toml\", ...]");
        }
        let schema = self.schema()?;
        for name in &self.init.hold {
            if schema.index_of(name).is_none() {
                let names: Vec<&str> = schema.specs.iter().map(|s| s.name).collect();
                bail!(
                    "[init] hold: no weight {name:?} in {}'s {} table ({})",
                    schema.game,
                    schema.eval,
                    names.join(", ")
                );
            }
        }
        if !(self.mutation.sigma > 0.0 && self.mutation.sigma <= 100.0) {
            bail!("[mutation] sigma = {}: must be in (0, 100]", self.mutation.sigma);
        }
        self.engine.check().map_err(|e| anyhow::anyhow!("{e}"))?;
        self.engine.check_one_thread().map_err(|e| anyhow::anyhow!("{e}"))?;
        self.games.check("games").map_err(anyhow::Error::msg)?;
        self.openings.generator().check(game.arena()).map_err(|e| anyhow::anyhow!("[openings] {e}"))?;
        let h = &self.hall_of_fame;
        in_range("[hall_of_fame] opponents", h.opponents, 0, MAX_OPPONENTS)?;
        if h.anchors.len() > MAX_OPPONENTS {
            bail!("[hall_of_fame] anchors: {} given, at most {MAX_OPPONENTS}", h.anchors.len());
        }
        if h.opponents > 0 || !h.anchors.is_empty() {
            if h.pairs == 0 {
                bail!("[hall_of_fame] pairs = 0: must be at least 1 when opponents > 0 or anchors are given");
            }
            in_range("[hall_of_fame] pairs", h.pairs, 1, MAX_PAIRS)?;
        }
        let f = &self.fitness;
        if f.mode == FitnessMode::Anchors && self.hall_of_fame.anchors.is_empty() {
            bail!("[fitness] mode = \"anchors\" needs [hall_of_fame] anchors (e.g. [\"defaults\"])");
        }
        if f.mode != FitnessMode::Li2007 {
            if f.memory == 0 || f.memory > 1000 {
                bail!("[fitness] memory = {}: between 1 and 1000 generations", f.memory);
            }
            if !(f.prior > 0.0 && f.prior <= 1000.0) {
                bail!("[fitness] prior = {}: virtual draws, more than 0 and at most 1000", f.prior);
            }
        }
        let d = &self.diversity;
        if !(0.0..=1.0).contains(&d.pm_min) {
            bail!("[diversity] pm_min = {}: a probability, between 0 and 1", d.pm_min);
        }
        if !(0.0..=1.0).contains(&d.min) {
            bail!("[diversity] min = {}: a share of each weight's range, between 0 and 1", d.min);
        }
        let children = self.population - self.groups;
        if d.immigrants > children {
            bail!("[diversity] immigrants = {}: at most the {children} children of a generation", d.immigrants);
        }
        if self.finals.candidates > self.population {
            bail!("[final] candidates = {}: at most the population ({})", self.finals.candidates, self.population);
        }
        if self.finals.candidates > 0 && self.finals.pairs == 0 {
            bail!("[final] pairs = 0: must be at least 1 when candidates > 0");
        }
        self.validation.check()?;
        in_range("[output] keep_last", self.output.keep_last, 1, 100_000)?;
        let games = self.games_per_generation(h.opponents);
        if games > MAX_GAMES_PER_GENERATION {
            bail!(
                "population = {}, groups = {}, pairs = {} and [hall_of_fame] make {games} games a generation; \
                 at most {MAX_GAMES_PER_GENERATION}: use more groups, fewer pairs or a smaller population",
                self.population,
                self.groups,
                self.pairs
            );
        }
        Ok(())
    }

    /// Games of one generation at most: round robins in the groups, plus hall-of-fame and
    /// anchor games (a survivor skips its own hall-of-fame entry, so a few may not be played).
    pub fn games_per_generation(&self, hall_of_fame: usize) -> usize {
        let m = self.population;
        let n = self.groups;
        let (small, big) = (m / n, m / n + 1);
        let bigs = m % n;
        let pairings = (n - bigs) * small * (small - 1) / 2 + bigs * big * (big - 1) / 2;
        2 * self.pairs * pairings + self.games_per_generation_fixed(hall_of_fame)
    }

    /// The hall-of-fame and anchor part of [`games_per_generation`](Self::games_per_generation).
    pub fn games_per_generation_fixed(&self, hall_of_fame: usize) -> usize {
        let fixed = hall_of_fame.min(self.hall_of_fame.opponents) + self.hall_of_fame.anchors.len();
        2 * self.hall_of_fame.pairs * self.population * fixed
    }
}

#[cfg(test)]
mod tests;
