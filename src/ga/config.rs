//! The configuration of a GA run: one TOML file, every key documented in `configs/*.toml`
//! and validated on load. Unknown keys and bad values are errors that name the file, the key
//! and what is allowed.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use crate::arena::game::GameSettings;
use crate::arena::openings::{OpeningConfig, OpeningMethod};
use crate::arena::validation::ValidationConfig;
use crate::core::settings::EngineSettings;
use crate::core::weights::Schema;
use crate::ga::fitness::FitnessMode;
use crate::registry::{GameRef, DEFAULT_GAME};

/// The built-in default config (`configs/quick.toml`): minutes on 2 cores.
pub const QUICK_TOML: &str = include_str!("../../configs/quick.toml");
/// The built-in Gomoku config (`configs/gomoku-quick.toml`).
pub const GOMOKU_QUICK_TOML: &str = include_str!("../../configs/gomoku-quick.toml");
/// The built-in Surakarta config (`configs/surakarta-quick.toml`).
pub const SURAKARTA_QUICK_TOML: &str = include_str!("../../configs/surakarta-quick.toml");
/// The built-in EinStein config (`configs/einstein-quick.toml`).
pub const EINSTEIN_QUICK_TOML: &str = include_str!("../../configs/einstein-quick.toml");

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
    /// gomoku: tuple6, roads or patterns; surakarta: features).
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
}

/// How fitness is computed from the games (see `ga::fitness`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FitnessConfig {
    /// `anchors` (Bradley–Terry Elo over the remembered games against the anchors), `rating`
    /// (the same over every remembered game) or `li2007` (+1 / -1 / 0 over this generation's
    /// games, the paper's).
    pub mode: FitnessMode,
    /// rating: generations whose games are remembered (survivors keep their record).
    pub memory: u32,
    /// Virtual draws every individual plays against a player of its prior rating, so that a
    /// few lucky games do not make a champion.
    pub prior: f64,
    /// The prior rating: `anchor` (the first anchor's level, 0: a newcomer must prove itself)
    /// or `parents` (the mean fitness of its parents at its birth).
    pub prior_center: PriorCenter,
}

/// Where an individual's rating starts before its games count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PriorCenter {
    Anchor,
    Parents,
}

impl Default for FitnessConfig {
    fn default() -> Self {
        FitnessConfig { mode: FitnessMode::Rating, memory: 10, prior: 8.0, prior_center: PriorCenter::Anchor }
    }
}

/// What keeps the population from collapsing onto one table, and when to give up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DiversityConfig {
    /// The mutation probability never falls below this (the adaptive rates give champions'
    /// children Pm2, which with Pm2 = 0.001 stops variation within a few generations).
    pub pm_min: f64,
    /// When the bred population's gene diversity falls below `min`, `immigrants` children are
    /// replaced by newcomers made as the first generation was (`[init]`).
    pub min: f64,
    pub immigrants: usize,
    /// Stop the run when the best individual has stayed the same for this many generations
    /// (0: never stop early).
    pub stagnation: u32,
}

impl Default for DiversityConfig {
    fn default() -> Self {
        DiversityConfig { pm_min: 0.0, min: 0.0, immigrants: 0, stagnation: 0 }
    }
}

/// The play-off after the last generation: the best `candidates` distinct individuals (by
/// fitness) play `pairs` game pairs against each anchor (a round robin among themselves when
/// there is no anchor), and the best of them by rating over all their remembered games
/// becomes the champion. 0 candidates: the last generation's best is the champion.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FinalConfig {
    pub candidates: usize,
    pub pairs: usize,
}

impl Default for FinalConfig {
    fn default() -> Self {
        FinalConfig { candidates: 4, pairs: 20 }
    }
}

fn one() -> usize {
    1
}

fn default_game() -> String {
    DEFAULT_GAME.into()
}

/// How the first generation is made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct InitConfig {
    /// `random` (uniform within every weight's bounds), `defaults` (the hand-set table plus
    /// noise) or `files` (the tables listed in `files`, then noisy copies of them).
    pub mode: InitMode,
    /// Standard deviation of the noise, as a share of each weight's range.
    pub noise: f64,
    /// Weight files (or folders of them) for `mode = "files"`.
    pub files: Vec<PathBuf>,
    /// Weights held at their hand-set value in every table of the run (the first generation,
    /// children and newcomers): weights the run's engine never reads, which would otherwise
    /// drift unselected and make the champion's table misleading under another engine.
    /// Left out of the written config when empty, so that older runs keep their config hash.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hold: Vec<String>,
}

impl Default for InitConfig {
    fn default() -> Self {
        InitConfig { mode: InitMode::Random, noise: 0.1, files: Vec::new(), hold: Vec::new() }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InitMode {
    Random,
    Defaults,
    Files,
}

/// How two champions' genes make a child.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CrossoverConfig {
    /// `uniform` (each gene from one parent, by a random mask: Li Guo 2007) or `blend` (each
    /// gene a random value between the parents').
    pub kind: CrossoverKind,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CrossoverKind {
    #[default]
    Uniform,
    Blend,
}

/// How genes mutate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MutationConfig {
    /// `gaussian` (add N(0, sigma * step), bounded), `step` (add a uniform integer in
    /// [-step, step]), `reset` (a new uniform value), or `bitflip` (the paper's: flip each bit
    /// of the gene's binary code with probability Pm).
    pub kind: MutationKind,
    /// Scale of the Gaussian / step size relative to each weight's schema step (a twentieth
    /// of its range).
    pub sigma: f64,
}

impl Default for MutationConfig {
    fn default() -> Self {
        MutationConfig { kind: MutationKind::Gaussian, sigma: 1.0 }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MutationKind {
    Gaussian,
    Step,
    Reset,
    Bitflip,
}

/// Crossover and mutation probabilities.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RatesConfig {
    /// `improved` (Li Guo 2007 as intended), `printed` (Li Guo 2007 as printed, (fmax - f) in
    /// the Pm numerator), `srinivas` (Srinivas & Patnaik 1994) or `fixed` (pc, pm).
    pub mode: RatesMode,
    pub pc1: f64,
    pub pc2: f64,
    pub pm1: f64,
    pub pm2: f64,
    /// Srinivas & Patnaik constants: Pc = k1 (fmax - f')/(fmax - favg) at or above average,
    /// k3 below; Pm = k2 (fmax - f)/(fmax - favg), k4 below.
    pub k1: f64,
    pub k2: f64,
    pub k3: f64,
    pub k4: f64,
    /// Fixed rates.
    pub pc: f64,
    pub pm: f64,
}

impl Default for RatesConfig {
    fn default() -> Self {
        RatesConfig {
            mode: RatesMode::Improved,
            pc1: 0.9,
            pc2: 0.6,
            pm1: 0.1,
            pm2: 0.001,
            k1: 1.0,
            k2: 0.5,
            k3: 1.0,
            k4: 0.5,
            pc: 0.8,
            pm: 0.05,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RatesMode {
    Improved,
    Printed,
    Srinivas,
    Fixed,
}

/// The opening suite of the run: generated from the run's seed, or read from a file.
///
/// The generator's fields are repeated here rather than flattened from [`OpeningConfig`]:
/// serde cannot combine `flatten` with `deny_unknown_fields`, and a misspelt key must be an
/// error.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OpeningsSection {
    /// An opening suite file; when absent the suite is generated.
    pub file: Option<PathBuf>,
    pub count: usize,
    pub turns: usize,
    pub radius: usize,
    pub balance: i32,
    pub method: OpeningMethod,
    pub top: usize,
}

impl Default for OpeningsSection {
    fn default() -> Self {
        let o = OpeningConfig::default();
        OpeningsSection {
            file: None,
            count: o.count,
            turns: o.turns,
            radius: o.radius,
            balance: o.balance,
            method: o.method,
            top: o.top,
        }
    }
}

impl OpeningsSection {
    pub fn generator(&self) -> OpeningConfig {
        OpeningConfig {
            count: self.count,
            turns: self.turns,
            radius: self.radius,
            balance: self.balance,
            method: self.method,
            top: self.top,
        }
    }
}

/// Earlier generations' champions as fixed opponents.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HallOfFameConfig {
    /// Each individual also plays the most recent `opponents` distinct champions (0: off).
    /// Group fitness is relative; fixed opponents anchor it across generations.
    pub opponents: usize,
    /// Game pairs against each of them, and against each anchor.
    pub pairs: usize,
    /// Fixed reference opponents every individual also plays, every generation: weight files,
    /// built-in tables (`defaults`, `random:SEED`) or outside engines
    /// (`cmd:COMMAND;protocol=...;init=...`, docs/protocols.md). They make fitness partly
    /// absolute.
    pub anchors: Vec<String>,
    /// Every individual plays an anchor from the same openings in a generation (common random
    /// numbers: differences between tables are measured on the same positions).
    pub common_openings: bool,
}

impl Default for HallOfFameConfig {
    fn default() -> Self {
        HallOfFameConfig { opponents: 0, pairs: 1, anchors: Vec::new(), common_openings: true }
    }
}

/// What the run writes besides the champion and history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OutputConfig {
    /// Checkpoints kept: the last `keep_last`, plus every `keep_every`-th generation.
    pub keep_last: usize,
    pub keep_every: u32,
    /// Write every fitness game to results/<run>/games.jsonl.
    pub records: bool,
    /// Draw the fitness plot at the end of the run.
    pub plot: bool,
}

impl Default for OutputConfig {
    fn default() -> Self {
        OutputConfig { keep_last: 3, keep_every: 50, records: false, plot: true }
    }
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
        let config: EvolveConfig =
            toml::from_str(text).map_err(|e| anyhow::anyhow!("{}", toml_error(text, file, &e)))?;
        config.validate().with_context(|| format!("{file}: invalid config"))?;
        Ok(config)
    }

    pub fn load(path: &Path) -> Result<EvolveConfig> {
        let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))?;
        Self::parse(&text, &path.display().to_string())
    }

    /// The built-in quick config.
    pub fn quick() -> EvolveConfig {
        Self::parse(QUICK_TOML, "configs/quick.toml (built in)").expect("the built-in config is valid")
    }

    /// The built-in quick config of a game.
    pub fn quick_for(game: &str) -> Result<EvolveConfig> {
        match game {
            "connect6" => Ok(Self::quick()),
            "gomoku" => Self::parse(GOMOKU_QUICK_TOML, "configs/gomoku-quick.toml (built in)"),
            "surakarta" => Self::parse(SURAKARTA_QUICK_TOML, "configs/surakarta-quick.toml (built in)"),
            "einstein" => Self::parse(EINSTEIN_QUICK_TOML, "configs/einstein-quick.toml (built in)"),
            other => bail!("no built-in config for {other}; give one with --config"),
        }
    }

    /// The game of the run (checked by `validate`).
    pub fn game(&self) -> Result<GameRef> {
        crate::registry::find(&self.game).map_err(|e| anyhow::anyhow!("game = {:?}: {e}", self.game))
    }

    /// The weight schema of the tuned evaluation.
    pub fn schema(&self) -> Result<&'static Schema> {
        Ok(self.game()?.evaluation(&self.eval).map_err(|e| anyhow::anyhow!("eval = {:?}: {e}", self.eval))?.schema)
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
        let evaluation = game.evaluation(&self.eval).map_err(|e| anyhow::anyhow!("eval = {:?}: {e}", self.eval))?;
        if !evaluation.tunable {
            let tunable: Vec<String> =
                game.evaluations().iter().filter(|e| e.tunable).map(|e| format!("\"{}\"", e.name)).collect();
            bail!("eval = {:?}: reads another evaluation's weights; tune {} instead", self.eval, tunable.join(" or "));
        }
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
mod tests {
    use super::*;

    #[test]
    fn shipped_configs_are_valid() {
        let quick = EvolveConfig::quick();
        assert_eq!(quick.name, "quick");
        for f in [
            "configs/quick.toml",
            "configs/quick-random.toml",
            "configs/li2007.toml",
            "configs/overnight.toml",
            "configs/gomoku-quick.toml",
            "configs/surakarta-quick.toml",
            "configs/einstein-quick.toml",
            "configs/einstein-mcts.toml",
        ] {
            EvolveConfig::load(Path::new(f)).unwrap_or_else(|e| panic!("{e:#}"));
        }
        for game in crate::registry::names() {
            let c = EvolveConfig::quick_for(game).unwrap_or_else(|e| panic!("{game}: {e:#}"));
            assert_eq!(c.game, game);
        }
        let li = EvolveConfig::load(Path::new("configs/li2007.toml")).unwrap();
        assert_eq!((li.population, li.groups, li.generations), (20, 5, 300));
        assert_eq!((li.rates.pc1, li.rates.pc2, li.rates.pm1, li.rates.pm2), (0.9, 0.6, 0.1, 0.001));
        // The paper's count: 5 groups of 4 play 30 pairings.
        assert_eq!(li.games_per_generation(0), 2 * li.pairs * 30);
    }

    fn err(edit: &str) -> String {
        let text = format!("{QUICK_TOML}\n{edit}\n");
        format!("{:#}", EvolveConfig::parse(&text, "c.toml").unwrap_err())
    }

    #[test]
    fn bad_configs_name_the_key() {
        let e =
            format!("{:#}", EvolveConfig::parse(&QUICK_TOML.replace("population", "populaton"), "c.toml").unwrap_err());
        assert!(e.contains("c.toml") && e.contains("populaton"), "{e}");
        let e = format!(
            "{:#}",
            EvolveConfig::parse(&QUICK_TOML.replace("eval = \"roads\"", "eval = \"magic\""), "c.toml").unwrap_err()
        );
        assert!(e.contains("magic") && e.contains("roads") && e.contains("patterns"), "{e}");
        let e = format!(
            "{:#}",
            EvolveConfig::parse(&QUICK_TOML.replace("pairs = 6  ", "pairs = 0  "), "c.toml").unwrap_err()
        );
        assert!(e.contains("[hall_of_fame] pairs = 0"), "{e}");
        let e = err("[extra]\nx = 1");
        assert!(e.contains("extra"), "{e}");
        let e = format!(
            "{:#}",
            EvolveConfig::parse(&QUICK_TOML.replace("generations = ", "generations = 0 #"), "c.toml").unwrap_err()
        );
        assert!(e.contains("generations = 0"), "{e}");
    }

    #[test]
    fn games_per_generation_handles_uneven_groups() {
        let mut c = EvolveConfig::quick();
        c.population = 10;
        c.groups = 3; // groups of 4, 3, 3: 6 + 3 + 3 pairings
        c.pairs = 1;
        c.hall_of_fame.pairs = 1;
        c.hall_of_fame.opponents = 0;
        c.hall_of_fame.anchors.clear();
        assert_eq!(c.games_per_generation(0), 24);
        c.hall_of_fame.opponents = 2;
        assert_eq!(c.games_per_generation(5), 24 + 2 * 10 * 2);
        assert_eq!(c.games_per_generation(1), 24 + 2 * 10);
        c.hall_of_fame.anchors = vec!["defaults".into()];
        assert_eq!(c.games_per_generation(1), 24 + 2 * 10 * 2);
    }

    /// The settings the issue found accepted (and panicking or never ending later): each is an
    /// error naming the key and its range, as the command line's options are.
    #[test]
    fn out_of_range_keys_are_refused_like_the_command_line() {
        for (edit, want) in [
            ("[engine]\ndepth = 61", "[engine] depth = 61: between 1 and 60"),
            ("[engine]\nnodes = 10000000000000", "[engine] nodes"),
            ("[engine]\ntime_ms = 999999999", "[engine] time_ms"),
            ("[engine]\ntt_mib = 100000", "[engine] tt_mib = 100000: between 1 and 4096"),
            ("[engine]\nwidth = 100000", "[engine] width"),
            ("[openings]\nradius = 10", "[openings] radius = 10: between 1 and 9"),
            ("[openings]\nradius = 1000000000000", "[openings] radius"),
            ("[openings]\nradius = 0", "[openings] radius = 0"),
            ("[openings]\nturns = 400", "[openings] turns = 400"),
            ("[openings]\ncount = 100000000", "[openings] count"),
            ("[openings]\nbalance = -5", "[openings] balance"),
            ("[hall_of_fame]\npairs = 1000000", "[hall_of_fame] pairs"),
            ("[output]\nkeep_last = 0", "[output] keep_last = 0"),
            ("[init]\nhold = [\"own1\", \"prune\"]", "[init] hold: no weight \"prune\" in connect6's roads table"),
        ] {
            let (section, line) = edit.split_once('\n').unwrap();
            let text = replace_key(QUICK_TOML, section, line);
            let e = format!("{:#}", EvolveConfig::parse(&text, "c.toml").unwrap_err());
            assert!(e.contains("c.toml") && e.contains(want), "{edit}: {e}");
        }
        for (line, want) in [
            ("pairs = 100000", "pairs = 100000: between 1 and 1000"),
            ("population = 100000", "population = 100000"),
            ("seed = -1", "seed = -1"),
        ] {
            let text = replace_key(QUICK_TOML, "", line);
            let e = format!("{:#}", EvolveConfig::parse(&text, "c.toml").unwrap_err());
            assert!(e.contains(want), "{line}: {e}");
        }
        // A seed from the command line that TOML (and so a checkpoint) cannot hold.
        let mut c = EvolveConfig::quick();
        c.seed = u64::MAX;
        assert!(format!("{:#}", c.validate().unwrap_err()).contains("seed"));
        // Too many games a generation, from keys that are each in range.
        let mut c = EvolveConfig::quick();
        (c.population, c.groups, c.pairs) = (1000, 1, 10);
        let e = format!("{:#}", c.validate().unwrap_err());
        assert!(e.contains("population = 1000") && e.contains("groups = 1"), "{e}");
    }

    #[test]
    fn type_errors_name_file_line_and_key() {
        let text = replace_key(QUICK_TOML, "[engine]", "depth = \"deep\"");
        let line = text.lines().position(|l| l.starts_with("depth = \"deep\"")).unwrap() + 1;
        let e = format!("{:#}", EvolveConfig::parse(&text, "c.toml").unwrap_err());
        assert!(e.starts_with(&format!("c.toml:{line}: [engine] depth = \"deep\": ")), "{e}");
        assert!(!e.contains('\n'), "one line: {e}");
    }

    /// `text` with the key of `line` (`key = value`) set in `section` ("" for the top level).
    fn replace_key(text: &str, section: &str, line: &str) -> String {
        let mut table: toml::Table = text.parse().unwrap();
        let new: toml::Table = line.parse().unwrap();
        let target = if section.is_empty() {
            &mut table
        } else {
            let name = section.trim_matches(|c| c == '[' || c == ']');
            table.get_mut(name).and_then(toml::Value::as_table_mut).unwrap()
        };
        target.extend(new);
        toml::to_string(&table).unwrap()
    }

    /// Every (section, key) of the shipped quick config, top-level keys with section "".
    fn known_keys() -> Vec<(String, String)> {
        let table: toml::Table = QUICK_TOML.parse().unwrap();
        let mut keys = Vec::new();
        for (k, v) in &table {
            keys.push((String::new(), k.clone()));
            if let toml::Value::Table(t) = v {
                keys.extend(t.keys().map(|inner| (k.clone(), inner.clone())));
            }
        }
        // Keys the quick config leaves at their defaults.
        keys.extend(
            [("engine", "nodes"), ("engine", "time_ms"), ("openings", "file")].map(|(s, k)| (s.into(), k.into())),
        );
        keys
    }

    fn any_value() -> impl proptest::strategy::Strategy<Value = toml::Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            any::<i64>().prop_map(toml::Value::Integer),
            (-3i64..1100).prop_map(toml::Value::Integer),
            any::<f64>().prop_map(toml::Value::Float),
            (-0.5f64..1.5).prop_map(toml::Value::Float),
            any::<bool>().prop_map(toml::Value::Boolean),
            "[a-z_.-]{0,12}".prop_map(toml::Value::String),
            prop::sample::select(vec![
                "roads",
                "patterns",
                "roads-global",
                "random",
                "played",
                "files",
                "defaults",
                "gaussian",
                "bitflip",
                "fixed",
                "srinivas",
                "pvs",
                "mcts",
                "alphabeta",
                "random:3",
                "quick",
            ])
            .prop_map(|s| toml::Value::String(s.into())),
        ];
        leaf.prop_recursive(2, 8, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(toml::Value::Array),
                prop::collection::btree_map("[a-z]{1,6}", inner, 0..3)
                    .prop_map(|m| toml::Value::Table(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// Any value of any type under any key, known or not: never a panic, and an error
        /// names the key (a config that passes is one the run can use).
        #[test]
        fn any_key_and_value_is_valid_or_an_error_naming_the_key(
            pick in proptest::prelude::any::<proptest::sample::Index>(),
            unknown in "[a-z_]{1,10}",
            use_unknown in proptest::prelude::any::<bool>(),
            value in any_value(),
        ) {
            let keys = known_keys();
            let (section, key) = if use_unknown {
                let (section, _) = &keys[pick.index(keys.len())];
                (section.clone(), unknown)
            } else {
                keys[pick.index(keys.len())].clone()
            };
            let mut table: toml::Table = QUICK_TOML.parse().unwrap();
            let target = if section.is_empty() {
                &mut table
            } else {
                table.get_mut(&section).and_then(toml::Value::as_table_mut).unwrap()
            };
            target.insert(key.clone(), value);
            let text = toml::to_string(&table).unwrap();
            match EvolveConfig::parse(&text, "c.toml") {
                Ok(c) => {
                    // What the run does with a config must not panic either.
                    let _ = c.to_toml();
                    let _ = c.games_per_generation(c.hall_of_fame.opponents);
                    let _ = c.openings_needed();
                    proptest::prop_assert!(c.openings.generator().check(crate::registry::CONNECT6).is_ok());
                }
                Err(e) => {
                    let e = format!("{e:#}");
                    proptest::prop_assert!(e.contains("c.toml"), "{}", e);
                    proptest::prop_assert!(e.contains(&key), "key `{}` not named: {}", key, e);
                }
            }
        }
    }
}
