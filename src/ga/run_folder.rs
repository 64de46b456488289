//! The result files of a GA run, derived from its newest checkpoint: every generation's
//! champion (`champions/gen-NNNN.toml`), `champion.toml` and `history.csv`. [`write_results`]
//! (re)writes them from a [`RunState`], so a run killed between its checkpoint and its result
//! files is made whole again when resumed.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::core::weights::{Meta, Weights};
use crate::fsutil::replace;
use crate::ga::config::EvolveConfig;
use crate::ga::state::{HallEntry, RunState};
use crate::report::history;
use crate::tuner::folder::RunPaths;

/// The champion file's metadata for a hall-of-fame entry.
fn champion_meta(config: &EvolveConfig, entry: &HallEntry) -> Meta {
    Meta {
        name: Some(format!("{}-g{}", config.name, entry.generation)),
        generation: Some(u64::from(entry.generation)),
        fitness: Some(entry.fitness),
        seed: Some(config.seed),
        config_hash: Some(config.hash()),
        date: Some(humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()),
        engine: config.outside.is_none().then(|| config.engine.table_engine()),
        ..Meta::default()
    }
}

/// What the results folder holds after `state`'s generation: `champions/gen-NNNN.toml` of the
/// generation (and of any earlier one that is missing), `champion.toml` and `history.csv`.
/// `all = false` writes only the newest generation's champion file (the normal step after a
/// checkpoint); `all = true` also checks every earlier one (on resume). Returns the path of
/// `champion.toml`, or None before the first generation.
pub fn write_results(config: &EvolveConfig, state: &RunState, paths: &RunPaths, all: bool) -> Result<Option<PathBuf>> {
    let Some(last) = state.hall_of_fame.last() else { return Ok(None) };
    let schema = config.schema()?;
    let save = |entry: &HallEntry, path: &Path| -> Result<()> {
        let weights = Weights::clamped(schema, entry.genes.clone());
        // Derived from the checkpoint (a resume writes them again): replaced, not synced.
        replace(path, weights.to_toml(&champion_meta(config, entry)).as_bytes())
            .with_context(|| format!("{}: cannot write", path.display()))
    };
    if all {
        for entry in &state.hall_of_fame[..state.hall_of_fame.len() - 1] {
            let path = paths.champion_of(entry.generation);
            if !path.exists() {
                save(entry, &path)?;
            }
        }
    }
    save(last, &paths.champion_of(last.generation))?;
    let champion = paths.champion();
    save(last, &champion)?;
    let csv = history::to_csv(&state.history)?;
    let csv_path = paths.results.join("history.csv");
    replace(&csv_path, csv.as_bytes()).with_context(|| format!("{}: cannot write", csv_path.display()))?;
    Ok(Some(champion))
}
