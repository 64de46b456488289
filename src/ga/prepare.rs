//! A GA run made ready: a new run's folders made and locked with its opening suite, or a
//! stopped run's read back from its newest checkpoint; then its folders settled in the state
//! that checkpoint describes.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::arena::openings::{Keys, OpeningSuite};
use crate::arena::records::RecordWriter;
use crate::arena::validation::training_suite;
use crate::core::rng::derive_seed;
use crate::ga::checkpoint;
use crate::ga::config::EvolveConfig;
use crate::ga::state::RunState;
use crate::report::progress::Progress;
use crate::report::trace;
use crate::tuner::folder::{self, RunFolder};

/// Purpose tag of the run's opening suite seed.
pub(super) const SUITE: u64 = 0x5017E;

/// A run ready to go: its config, starting state, openings and locked folders.
pub struct Prepared {
    pub config: EvolveConfig,
    pub state: RunState,
    pub suite: OpeningSuite,
    pub folder: RunFolder,
}

/// A new run: the config (overrides applied and validated) and where its folders go.
pub struct NewRun {
    pub config: EvolveConfig,
    /// Folder that holds `populations/` and `results/`.
    pub out: PathBuf,
    /// Take the next free name (`name-2`, ...) when the config's is in use.
    pub auto_name: bool,
    /// Replace a run already in the folders.
    pub force: bool,
}

/// Prepares a new run. Everything that can be wrong with the config, its openings or its
/// weight files is found before a folder is created or cleared (the caller resolves the
/// run's players, [`Lineup`], first).
pub fn prepare_new(run: NewRun) -> Result<Prepared> {
    let NewRun { mut config, out, auto_name, force } = run;
    let suite = opening_suite(&config)?;
    let state = crate::ga::evolve::initial_state(&config, config.schema()?)?;
    let (folder, name) = folder::claim(&out, &config.name, auto_name, force)?;
    config.name = name;
    Ok(Prepared { config, state, suite, folder })
}

/// Prepares to continue the run whose checkpoints are in `dir` (`populations/<run>`), with
/// its results under `out` (default: beside `populations/`) and, if given, a new number of
/// generations.
pub fn prepare_resume(dir: &Path, out: Option<PathBuf>, generations: Option<u32>) -> Result<Prepared> {
    let mut folder = folder::lock_existing(dir, out)?;
    let loaded = checkpoint::load_latest(dir)?;
    let mut config = loaded.config;
    let state = loaded.state;
    if let Some(g) = generations {
        if g < state.generation {
            bail!(
                "--generations {g}: the run has done {} generations already; give more to extend it",
                state.generation
            );
        }
        config.generations = g;
    }
    let results = folder.paths.results.parent().map(Path::to_path_buf).unwrap_or_default();
    folder.paths.results = results.join(&config.name);
    if state.generation >= config.generations {
        eprintln!(
            "{} is complete ({} of {} generations); its result files are checked and rewritten. \
             Pass --generations N to extend it.",
            config.name, state.generation, config.generations
        );
    } else {
        eprintln!(
            "resuming {} from {} (generation {} of {})",
            config.name,
            loaded.path.display(),
            state.generation,
            config.generations
        );
    }
    let suite = opening_suite(&config)?;
    Ok(Prepared { config, state, suite, folder })
}

/// The run's openings: its suite file, or generated from the run's seed; either way without
/// the validation suite's openings, so that the validation match is out of sample. Too few for
/// a pairing's game pairs (each pair its own opening) is an error that says what to change.
pub fn opening_suite(config: &EvolveConfig) -> Result<OpeningSuite> {
    let game = config.game()?.arena();
    let needed = config.openings_needed();
    let suite = match &config.openings.file {
        Some(f) => OpeningSuite::load(f, game).context("[openings] file")?,
        None => {
            let generator = config.openings.generator();
            let seed = derive_seed(&[config.seed, SUITE]);
            let progress = Progress::background("openings", generator.count as u64, "openings");
            let suite = OpeningSuite::generate_at_least(game, &generator, seed, needed, Some(&progress))
                .map_err(|e| anyhow::anyhow!("[openings]: {}", e.message(Keys::Config)))?;
            progress.finish();
            suite
        }
    };
    let suite = training_suite(suite, &config.validation)?;
    if suite.len() < needed {
        bail!(
            "[openings] file: {} openings, but a pairing plays {needed} game pairs, each from its own opening; \
             add openings or lower pairs",
            suite.len()
        );
    }
    Ok(suite)
}

/// Puts the run's folders in the state its newest checkpoint describes: stale temporary files
/// removed; the generation-0 checkpoint written for a new run (from then on the run can be
/// resumed); the records cut back to the checkpoint. Returns the records writer.
pub(super) fn settle(config: &EvolveConfig, state: &RunState, folder: &RunFolder) -> Result<Option<RecordWriter>> {
    let paths = &folder.paths;
    for dir in [&paths.populations, &paths.results] {
        crate::fsutil::remove_stale_temps(dir).with_context(|| format!("{}: cannot clean up", dir.display()))?;
    }
    let existing = checkpoint::list(&paths.populations)?.into_iter().find(|(g, _)| *g == state.generation);
    let records_len = match existing {
        Some((_, path)) => {
            let recorded = checkpoint::load(&path)?.records_len;
            let file = paths.records();
            let actual = std::fs::metadata(&file).map_or(0, |m| m.len());
            match recorded {
                Some(len) if config.output.records && actual < len => {
                    eprintln!(
                        "warning: {} has {actual} bytes where the checkpoint recorded {len}: games of earlier \
                         generations are missing from it; the run cuts it back to its last whole line and adds \
                         its new games after it",
                        file.display()
                    );
                    None
                }
                other => other,
            }
        }
        None => {
            // A new run: its records start empty. From this checkpoint on it can be resumed.
            let len = config.output.records.then_some(0);
            checkpoint::save(&paths.populations, config, state, &config.output, len)?;
            len
        }
    };
    let records = if config.output.records { Some(RecordWriter::resume(&paths.records(), records_len)?) } else { None };
    // The trace keeps the checkpoint's generations (timing only: nothing is derived from it).
    trace::cut_back(&paths.results.join(trace::TRACE_FILE), state.generation)?;
    Ok(records)
}
