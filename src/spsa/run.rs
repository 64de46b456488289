//! An SPSA run: its folders prepared (new or resumed, locked) and SPSA as a [`Tuner`] of
//! the shared executor ([`crate::tuner::executor`]), one batch a step: the batch played, the
//! checkpoint saved, then what derives from it (`spsa.csv`, snapshots of θ every so many
//! games). At the end, as for the GA, the champion, its validation and `report.md`.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicUsize;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::arena::game::Referee;
use crate::arena::openings::{Keys, OpeningSuite};
use crate::arena::validation::training_suite;
use crate::core::rng::derive_seed;
use crate::core::weights::Meta;
use crate::fsutil::{fnv1a64, write_atomic};
use crate::report::progress::{format_duration, Progress, ProgressMode};
use crate::spsa::{checkpoint, Spsa, SpsaConfig, SpsaState};
use crate::tuner::executor::{self, Champion, Ended, Tuner};
use crate::tuner::folder::{self, RunFolder, RunPaths};
use crate::tuner::lineup::Lineup;

/// Purpose tag of the run's opening suite seed (the GA's, so that equal seeds train on the
/// same openings).
const SUITE: u64 = 0x5017E;

/// A run ready to go: its config, starting state, openings and locked folders.
pub struct Prepared {
    pub config: SpsaConfig,
    pub state: SpsaState,
    pub suite: OpeningSuite,
    pub folder: RunFolder,
}

/// Prepares a new run under `out`, replacing an earlier run of the same name if `force`
/// (refused otherwise). The caller resolves the run's players first, so that a bad one
/// fails before a folder is touched.
pub fn prepare_new(config: SpsaConfig, lineup: &Lineup, out: &Path, force: bool) -> Result<Prepared> {
    let suite = opening_suite(&config)?;
    let state = crate::spsa::initial_state(&config, lineup.schema)?;
    let (folder, _) = folder::claim(out, &config.name, false, force)?;
    Ok(Prepared { config, state, suite, folder })
}

/// Prepares to continue the run whose checkpoints are in `dir` (`populations/<run>`), its
/// results under `out` (default: beside `populations/`), with a new game budget if given.
pub fn prepare_resume(dir: &Path, out: Option<PathBuf>, games: Option<u64>) -> Result<Prepared> {
    let folder = folder::lock_existing(dir, out)?;
    let loaded = checkpoint::load_latest(dir)?;
    let mut config = loaded.config;
    if let Some(g) = games {
        config.games = g;
        config.validate().context("--games")?;
        if config.iterations() < loaded.state.iteration {
            bail!("--games {g}: the run has played {} games already; give more to extend it", loaded.state.games);
        }
    }
    eprintln!(
        "resuming {} from {} after {} of {} games",
        config.name,
        loaded.path.display(),
        loaded.state.games,
        config.iterations() * 2 * config.pairs as u64
    );
    let suite = opening_suite(&config)?;
    Ok(Prepared { config, state: loaded.state, suite, folder })
}

/// The run's training openings (without the validation suite's).
pub fn opening_suite(config: &SpsaConfig) -> Result<OpeningSuite> {
    let game = config.game()?.arena();
    let suite = match &config.openings.file {
        Some(f) => OpeningSuite::load(f, game).context("[openings] file")?,
        None => OpeningSuite::generate(game, &config.openings.generator(), derive_seed(&[config.seed, SUITE]))
            .map_err(|e| anyhow::anyhow!("[openings]: {}", e.message(Keys::Config)))?,
    };
    training_suite(suite, &config.validation)
}

/// How a run is executed.
pub struct Options {
    pub mode: ProgressMode,
    /// Stop after the batch in flight on a first Ctrl-C, at once on a second.
    pub handle_ctrl_c: bool,
}

/// Runs the prepared run's batches until the budget is spent or a Ctrl-C, then its
/// champion, validation and report.
pub fn run(prepared: &mut Prepared, referee: &dyn Referee, lineup: &Lineup, options: &Options) -> Result<Ended> {
    let Prepared { config, state, suite, folder } = prepared;
    let paths = &folder.paths;
    for d in [&paths.populations, &paths.results.join("snapshots")] {
        std::fs::create_dir_all(d).with_context(|| format!("{}: cannot create", d.display()))?;
    }
    crate::fsutil::remove_stale_temps(&paths.populations)
        .with_context(|| format!("{}: cannot clean up", paths.populations.display()))?;
    let spsa = Spsa::new(config, suite, referee, lineup);
    let quiet = options.mode == ProgressMode::Hidden;
    let total = config.iterations();
    if state.history.is_empty() {
        // From this checkpoint on the run can be resumed.
        checkpoint::save(&paths.populations, config, state)?;
    }
    // Files a run killed after its checkpoint did not write.
    write_derived(&spsa, state, paths, true)?;
    if !quiet {
        eprintln!(
            "spsa {}: {} weights, {} iterations of {} pair(s) ({} games, {} done), batches of {}, {} on {} threads",
            config.name,
            spsa.schema.len(),
            total,
            config.pairs,
            total * 2 * config.pairs as u64,
            state.games,
            config.batch,
            match lineup.tuned() {
                Some(_) => lineup.describe(),
                None => config.engine.limits().describe(),
            },
            rayon::current_num_threads()
        );
        eprintln!("checkpoints in {}, results in {}", paths.populations.display(), paths.results.display());
    }
    let progress = Progress::new("spsa", (total - state.iteration) * 2 * config.pairs as u64, "games", options.mode);
    let run = executor::Run {
        name: &config.name,
        folder,
        game: config.game()?,
        lineup,
        referee,
        validation: &config.validation,
        mode: options.mode,
        pause_after: None,
        handle_ctrl_c: options.handle_ctrl_c,
    };
    let mut tuner = SpsaRun { spsa, state, paths, progress, quiet };
    let ended = executor::execute(&mut tuner, &run);
    tuner.progress.finish();
    ended
}

/// SPSA as the executor steps it: one batch a step.
struct SpsaRun<'a> {
    spsa: Spsa<'a>,
    state: &'a mut SpsaState,
    paths: &'a RunPaths,
    /// One bar for the whole run.
    progress: Progress,
    quiet: bool,
}

impl Tuner for SpsaRun<'_> {
    fn step_name(&self) -> &'static str {
        "batch"
    }

    fn command(&self) -> &'static str {
        "spsa"
    }

    fn more(&self) -> bool {
        self.state.iteration < self.spsa.config.iterations()
    }

    fn step(&mut self, _stop: &AtomicUsize) -> Result<bool> {
        let row = self.spsa.play_batch(self.state, &self.progress);
        checkpoint::save(&self.paths.populations, self.spsa.config, self.state)?;
        write_derived(&self.spsa, self.state, self.paths, false)?;
        self.progress.set_message(format!("k {} y {:+.2}", row.iteration, row.y_mean));
        Ok(true)
    }

    fn champion(&mut self) -> Result<Champion> {
        self.progress.finish();
        let config = self.spsa.config;
        let state = &*self.state;
        let meta = Meta {
            name: Some(format!("{}-champion", config.name)),
            seed: Some(config.seed),
            config_hash: Some(format!("{:016x}", fnv1a64(config.to_toml().as_bytes()))),
            date: Some(humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()),
            engine: config.outside.is_none().then(|| config.engine.table_engine()),
            ..Meta::default()
        };
        Ok(Champion {
            weights: self.spsa.weights(&state.theta),
            meta,
            line: format!("champion: the weights after {} iterations ({} games)", state.iteration, state.games),
            note: format!("the weights after {} iterations ({} games), rounded.", state.iteration, state.games),
            play_off: None,
        })
    }

    fn summary(&self, elapsed: Duration) -> String {
        let (config, state) = (self.spsa.config, &*self.state);
        let g = &config.spsa;
        format!(
            "SPSA, seed {}, {} iterations of {} pair(s) in batches of {}; a {} c {} A {}·iterations alpha {} gamma {}; \
             engine {}; {} games; {} in all.",
            config.seed,
            state.iteration,
            config.pairs,
            config.batch,
            g.a,
            g.c,
            g.big_a,
            g.alpha,
            g.gamma,
            self.spsa.lineup.describe(),
            state.games,
            format_duration(elapsed)
        )
    }

    fn replay_command(&self, champion: &str, spec: &str) -> String {
        let config = self.spsa.config;
        let game = config.game_name();
        config.validation.replay_command(game, &config.engine, config.settings().max_turns, champion, spec)
    }

    fn note(&mut self, line: &str) {
        if !self.quiet {
            eprintln!("{line}");
        }
    }
}

/// What derives from the checkpoint: `spsa.csv`, and the snapshot of θ at every multiple of
/// `snapshot_games` a batch crossed (or reached): the newest batch's (`all`: every batch's
/// that is missing, on resume).
fn write_derived(spsa: &Spsa, state: &SpsaState, paths: &RunPaths, all: bool) -> Result<()> {
    let config = spsa.config;
    if let Some(every) = std::num::NonZeroU64::new(config.output.snapshot_games) {
        let rows = if all { &state.history[..] } else { &state.history[state.history.len().saturating_sub(1)..] };
        for (i, row) in rows.iter().enumerate() {
            let index = state.history.len() - rows.len() + i;
            let before = if index == 0 { 0 } else { state.history[index - 1].games };
            for g in (before / every + 1)..=(row.games / every) {
                let games = g * every.get();
                let path = paths.results.join("snapshots").join(format!("games-{games:07}.toml"));
                if all && path.exists() {
                    continue;
                }
                let meta = Meta { name: Some(format!("{}-{games}games", config.name)), ..Meta::default() };
                spsa.weights(&row.theta)
                    .save(&path, &meta)
                    .with_context(|| format!("{}: cannot write", path.display()))?;
            }
        }
    }
    let csv = history_csv(spsa, state)?;
    let path = paths.results.join("spsa.csv");
    write_atomic(&path, csv.as_bytes()).with_context(|| format!("{}: cannot write", path.display()))
}

/// `spsa.csv`: one row per batch with the weights after it.
fn history_csv(spsa: &Spsa, state: &SpsaState) -> Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header: Vec<String> =
        ["iteration", "games", "a_k", "c_k", "y_mean", "wall_s"].iter().map(|s| s.to_string()).collect();
    header.extend(spsa.schema.specs.iter().map(|s| s.name.to_string()));
    w.write_record(&header)?;
    for r in &state.history {
        let mut row =
            vec![r.iteration.to_string(), r.games.to_string(), format!("{:.6}", r.a_k), format!("{:.4}", r.c_k)];
        row.push(format!("{:.4}", r.y_mean));
        row.push(format!("{:.3}", r.wall_s));
        row.extend(r.theta.iter().map(|t| format!("{t:.2}")));
        w.write_record(&row)?;
    }
    Ok(String::from_utf8(w.into_inner().map_err(|e| e.into_error())?)?)
}
