//! What a run carries from one generation to the next (the checkpoint's content), and what one
//! generation did.

use serde::{Deserialize, Serialize};

use crate::arena::records::GameRecord;
use crate::ga::fitness::Ledger;
use crate::ga::population::Individual;
use crate::report::history::HistoryRow;

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
