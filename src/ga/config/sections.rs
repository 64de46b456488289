//! The sections of a GA config (`[init]`, `[crossover]`, `[mutation]`, `[rates]`,
//! `[openings]`, `[hall_of_fame]`, `[fitness]`, `[diversity]`, `[final]`, `[output]`) and
//! their defaults. Each key is documented in `configs/quick.toml`.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::core::openings::{OpeningConfig, OpeningMethod};
use crate::ga::fitness::FitnessMode;

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
