//! The GA's run: a run's folders prepared (new or resumed, locked), and the GA as a
//! [`Tuner`] of the shared executor ([`crate::tuner::executor`]): each generation scheduled,
//! played (here or on a cluster: [`Games`]), concluded and checkpointed; at the end the
//! play-off picks the champion. What the run shows and writes besides its checkpoints is done
//! by [`Observer`]s: [`Terminal`] (progress lines), [`ResultFiles`] (`champions/`,
//! `champion.toml`, `history.csv`) and [`Plots`].
//!
//! Order of the files of a generation: the game records (appended and flushed), then the
//! checkpoint, which records where the records end and is the commit point, then what the
//! observers derive from it (champions, history). A run killed anywhere resumes from its
//! newest checkpoint: the records are cut back to it and the derived files rewritten from
//! it, so the result is the uninterrupted run's. (The records are part of the commit, not an
//! observer: the checkpoint must know their length.)

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicUsize;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::arena::game::{play_games_timed, Referee};
use crate::arena::openings::{Keys, OpeningSuite};
use crate::arena::records::{GameRecord, RecordWriter};
use crate::arena::validation::training_suite;
use crate::core::rng::derive_seed;
use crate::core::weights::{Meta, Schema, Weights};
use crate::ga::checkpoint;
use crate::ga::config::EvolveConfig;
use crate::ga::evolve::Evolver;
use crate::ga::fitness::FitnessMode;
use crate::ga::run_folder::write_results;
use crate::ga::schedule::Schedule;
use crate::ga::state::{GenerationResult, RunState};
use crate::report::history::HistoryRow;
use crate::report::plots;
use crate::report::progress::{format_duration, Progress, ProgressMode};
use crate::report::trace::{self, TraceRow};
use crate::tuner::executor::{self, Champion, Ended, Tuner};
use crate::tuner::folder::{self, RunFolder, RunPaths};
use crate::tuner::lineup::Lineup;
use crate::workers::{thread_cpu_time, BatchTimes};

/// Purpose tag of the run's opening suite seed.
const SUITE: u64 = 0x5017E;

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

/// Milliseconds of one fitness game, measured on two games of the default weights.
fn calibrate(lineup: &Lineup, suite: &OpeningSuite, referee: &dyn Referee) -> f64 {
    let p = lineup.individual("calibration".into(), lineup.schema.defaults().values());
    let start = Instant::now();
    let games = 2;
    for i in 0..games {
        referee.play(&p, &p, suite.get(i), i as u64);
    }
    start.elapsed().as_secs_f64() * 1e3 / games as f64
}

/// Games of the generations still to run: exact for the next one; for later ones, as many
/// as when every generation's champion is new to the hall of fame (repeats play fewer).
fn games_left(config: &EvolveConfig, evolver: &Evolver, state: &RunState, remaining: u32) -> usize {
    if remaining == 0 {
        return 0;
    }
    let hall = state.hall_of_fame.len();
    evolver.games_next(state) + (1..remaining as usize).map(|j| config.games_per_generation(hall + j)).sum::<usize>()
}

/// The line printed after a generation: short enough for an 80-column terminal in the common
/// case (the rest of the row, rates and diversity included, is in history.csv). With rated
/// fitness it shows the best's rating and its record against the first anchor.
fn generation_line(mode: FitnessMode, row: &HistoryRow, generations: u32, eta_s: f64) -> String {
    let fitness = match mode {
        FitnessMode::Rating | FitnessMode::Anchors => {
            format!("best #{} {:+.0}±{:.0}", row.champion, row.fmax, 1.96 * row.best_se)
        }
        FitnessMode::Li2007 => format!("best #{} f {} (avg {:.1})", row.champion, row.fmax, row.favg),
    };
    let anchor = row
        .anchors
        .first()
        .map(|a| {
            let w = a.wdl();
            format!(", vs {} {:.0}% of {}", a.name, 100.0 * w.score(), w.games())
        })
        .unwrap_or_default();
    let eta = format_duration(std::time::Duration::from_secs_f64(eta_s.max(0.0)));
    format!("gen {}/{generations}: {fitness}{anchor}; {} games, ETA {eta}", row.generation, row.games)
}

/// Puts the run's folders in the state its newest checkpoint describes: stale temporary files
/// removed; the generation-0 checkpoint written for a new run (from then on the run can be
/// resumed); the records cut back to the checkpoint. Returns the records writer.
fn settle(config: &EvolveConfig, state: &RunState, folder: &RunFolder) -> Result<Option<RecordWriter>> {
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

/// What an observer sees when the generations are about to start.
pub struct RunStart<'a> {
    pub config: &'a EvolveConfig,
    pub state: &'a RunState,
    pub paths: &'a RunPaths,
    /// Generations still to play, and their games (an upper bound past the next one).
    pub remaining: u32,
    pub games: usize,
    pub threads: usize,
    /// For observers that time a game before announcing the run's cost.
    pub suite: &'a OpeningSuite,
    pub referee: &'a dyn Referee,
    pub lineup: &'a Lineup,
}

/// What an observer sees after a generation's checkpoint is saved.
pub struct GenerationDone<'a> {
    pub config: &'a EvolveConfig,
    pub state: &'a RunState,
    pub paths: &'a RunPaths,
    pub result: &'a GenerationResult,
    /// Estimated seconds to the end of the run.
    pub eta_s: f64,
}

/// What an observer sees once the champion is written, before `report.md`.
pub struct RunEnd<'a> {
    pub config: &'a EvolveConfig,
    pub state: &'a RunState,
    pub paths: &'a RunPaths,
    pub schema: &'static Schema,
}

/// Something a run reports to as it goes. Every hook has a default that does nothing.
pub trait Observer {
    /// The folders are settled (the run can be resumed from here); no game played yet.
    fn started(&mut self, start: &RunStart) -> Result<()> {
        let _ = start;
        Ok(())
    }

    /// A generation is committed (its checkpoint saved).
    fn generation(&mut self, done: &GenerationDone) -> Result<()> {
        let _ = done;
        Ok(())
    }

    /// A line about the run (the stop of a run, the champion, a validation match, ...).
    fn note(&mut self, line: &str) {
        let _ = line;
    }

    /// The run is over and its champion written; returns the files it wrote (listed in
    /// `report.md`).
    fn finished(&mut self, end: &RunEnd) -> Result<Vec<PathBuf>> {
        let _ = end;
        Ok(Vec::new())
    }
}

/// Progress on the terminal (stderr): the run's cost first, a line per generation, the notes.
pub struct Terminal {
    pub mode: ProgressMode,
}

impl Terminal {
    fn quiet(&self) -> bool {
        self.mode == ProgressMode::Hidden
    }
}

impl Observer for Terminal {
    fn started(&mut self, s: &RunStart) -> Result<()> {
        if self.quiet() {
            return Ok(());
        }
        let config = s.config;
        if s.remaining > 0 {
            eprintln!(
                "run {}: {} of {} generations to go, {} players in {} groups, {} on {} threads",
                config.name,
                s.remaining,
                config.generations,
                config.population,
                config.groups,
                match s.lineup.tuned() {
                    Some(_) => s.lineup.describe(),
                    None => config.engine.limits().describe(),
                },
                s.threads
            );
            eprintln!(
                "games per generation: {} ({} to play in all, fewer if a champion repeats)",
                config.games_per_generation(config.hall_of_fame.opponents),
                s.games
            );
            if config.engine.time_ms.is_some() {
                eprintln!(
                    "note: [engine] time_ms makes games depend on the machine's load; this run is not reproducible"
                );
            }
            let ms = calibrate(s.lineup, s.suite, s.referee);
            let secs = s.games as f64 * ms / 1e3 / s.threads.max(1) as f64;
            eprintln!(
                "estimate: {:.0} ms per game, about {} for the run",
                ms,
                format_duration(std::time::Duration::from_secs_f64(secs))
            );
        }
        eprintln!("checkpoints in {}, results in {}", s.paths.populations.display(), s.paths.results.display());
        Ok(())
    }

    fn generation(&mut self, d: &GenerationDone) -> Result<()> {
        if self.quiet() {
            return Ok(());
        }
        let config = d.config;
        eprintln!("{}", generation_line(config.fitness.mode, &d.result.row, config.generations, d.eta_s));
        if d.result.immigrants > 0 {
            eprintln!(
                "  diversity {:.3} < {}: {} newcomers replace children",
                d.result.bred_diversity, config.diversity.min, d.result.immigrants
            );
        }
        Ok(())
    }

    fn note(&mut self, line: &str) {
        if !self.quiet() {
            eprintln!("{line}");
        }
    }
}

/// The result files derived from the checkpoints: every generation's champion
/// (`champions/gen-NNNN.toml`), the current `champion.toml` and `history.csv`.
pub struct ResultFiles;

impl Observer for ResultFiles {
    fn started(&mut self, s: &RunStart) -> Result<()> {
        // A resumed run checks every earlier generation's files.
        write_results(s.config, s.state, s.paths, true)?;
        Ok(())
    }

    fn generation(&mut self, d: &GenerationDone) -> Result<()> {
        write_results(d.config, d.state, d.paths, false)?;
        Ok(())
    }
}

/// `report.html`, the run's page (what `evotune serve` shows, without the live updates),
/// rewritten from the results folder's files after each generation; the end of the run
/// rewrites it with the report.
pub struct WebPage;

impl Observer for WebPage {
    fn generation(&mut self, d: &GenerationDone) -> Result<()> {
        // A page that cannot be written (a full disk) is reported, and the run goes on: the
        // checkpoint and the result files are what it needs.
        if let Err(e) = crate::watch::page::write_report(&d.paths.results) {
            eprintln!("warning: no report.html: {e:#}");
        }
        Ok(())
    }
}

/// `fitness.png/.svg` and `genes.png/.svg` at the end (`[output] plot`).
pub struct Plots {
    pub mode: ProgressMode,
}

impl Observer for Plots {
    fn finished(&mut self, end: &RunEnd) -> Result<Vec<PathBuf>> {
        let (config, state, paths) = (end.config, end.state, end.paths);
        let mut written = Vec::new();
        if !config.output.plot {
            return Ok(written);
        }
        let mut drawn = Vec::new();
        if !state.history.is_empty() {
            drawn.push(plots::plot_history(&state.history, &paths.results, &format!("evotune run {}", config.name)));
        }
        if !state.hall_of_fame.is_empty() {
            let points: Vec<(u32, Vec<i32>)> =
                state.hall_of_fame.iter().map(|e| (e.generation, e.genes.clone())).collect();
            let title = format!("evotune run {}: the weights of each generation's best", config.name);
            drawn.push(plots::plot_genes(end.schema, &points, &paths.results, &title));
        }
        for result in drawn {
            match result {
                Ok(files) => {
                    for f in files {
                        if self.mode != ProgressMode::Hidden {
                            eprintln!("plot {}", f.display());
                        }
                        written.push(f);
                    }
                }
                Err(e) => eprintln!("warning: no plot: {e:#}"),
            }
        }
        Ok(written)
    }
}

/// Where a generation's games are played: here, on the current rayon pool ([`LocalGames`]),
/// or as shards on other machines (`crate::cluster`). Whichever plays them, the generation is
/// scheduled and concluded by the same code, so the run is the same.
pub trait Games: Sync {
    /// Plays the schedule's games and returns their records in schedule order; None when a
    /// Ctrl-C (`stop` above 0) stopped them before all were played.
    fn play(
        &self,
        evolver: &Evolver,
        schedule: &Schedule,
        progress: &Progress,
        stop: &AtomicUsize,
    ) -> Result<Option<Played>>;

    /// The generation's checkpoint is written: what was kept to play it can go.
    fn committed(&self, generation: u32) -> Result<()> {
        let _ = generation;
        Ok(())
    }

    /// Whether a first Ctrl-C stops the games in flight (true: they are elsewhere, and
    /// waiting for them could take long) rather than letting the generation finish.
    fn stops_at_once(&self) -> bool {
        false
    }

    /// Whether a generation's records and checkpoint may go to disk while the next
    /// generation plays (false: the next generation's plan clears the last one's work, which
    /// must wait until its checkpoint stands).
    fn commits_in_background(&self) -> bool {
        true
    }
}

/// A generation's games as an executor played them.
pub struct Played {
    /// The records, in schedule order.
    pub records: Vec<GameRecord>,
    /// The games' and threads' times, where the executor knows them (for `trace.csv`).
    pub times: BatchTimes,
}

impl Played {
    /// Games whose times are not known (played elsewhere).
    pub fn untimed(records: Vec<GameRecord>) -> Played {
        Played { records, times: BatchTimes::default() }
    }
}

/// The games on this machine's threads (the default executor).
pub struct LocalGames;

impl Games for LocalGames {
    fn play(
        &self,
        evolver: &Evolver,
        schedule: &Schedule,
        progress: &Progress,
        _stop: &AtomicUsize,
    ) -> Result<Option<Played>> {
        let (records, times) =
            play_games_timed(evolver.referee, &schedule.jobs(evolver.suite), &schedule.classes(), progress);
        Ok(Some(Played { records, times }))
    }
}

/// How a run is executed.
pub struct Options<'a> {
    /// Progress bars: on a terminal, as log lines, or none (tests).
    pub mode: ProgressMode,
    pub threads: usize,
    /// Where the games are played.
    pub games: &'a dyn Games,
    /// Play at most this many generations in this process, then return [`Ended::Paused`]
    /// (without the play-off) unless the run is complete: a cluster's `reduce` step plays
    /// one; `Some(0)` only prepares the folders.
    pub pause_after: Option<u32>,
    /// Stop after the generation in flight on a first Ctrl-C, at once on a second (a process
    /// can install one handler: tests leave it off).
    pub handle_ctrl_c: bool,
}

/// Runs generations with the usual observers (terminal, result files, plots); see
/// [`execute`].
pub fn run(
    config: &EvolveConfig,
    state: &mut RunState,
    folder: &RunFolder,
    suite: &OpeningSuite,
    referee: &dyn Referee,
    lineup: &Lineup,
    options: &Options,
) -> Result<Ended> {
    let mut terminal = Terminal { mode: options.mode };
    let mut files = ResultFiles;
    let mut plots = Plots { mode: options.mode };
    let mut page = WebPage;
    execute(
        config,
        state,
        folder,
        suite,
        referee,
        lineup,
        options,
        &mut [&mut files, &mut page, &mut terminal, &mut plots],
    )
}

/// Runs generations until the config's count, a stagnation stop, a Ctrl-C or
/// [`Options::pause_after`]; then, if the run is complete, the play-off, validation and
/// report. The referee plays the games (tests use a mock); the folder's lock is held
/// throughout.
#[allow(clippy::too_many_arguments)]
pub fn execute(
    config: &EvolveConfig,
    state: &mut RunState,
    folder: &RunFolder,
    suite: &OpeningSuite,
    referee: &dyn Referee,
    lineup: &Lineup,
    options: &Options,
    observers: &mut [&mut dyn Observer],
) -> Result<Ended> {
    let paths = &folder.paths;
    let evolver = Evolver::new(config, suite, referee, lineup)?;
    std::fs::create_dir_all(paths.results.join("champions"))
        .with_context(|| format!("{}: cannot create", paths.results.display()))?;
    let records = settle(config, state, folder)?;
    let remaining = config.generations.saturating_sub(state.generation);
    let start = RunStart {
        config,
        state,
        paths,
        remaining,
        games: games_left(config, &evolver, state, remaining),
        threads: options.threads,
        suite,
        referee,
        lineup,
    };
    for o in observers.iter_mut() {
        o.started(&start)?;
    }
    let run = executor::Run {
        name: &config.name,
        folder,
        game: config.game()?,
        lineup,
        referee,
        validation: &config.validation,
        mode: options.mode,
        pause_after: options.pause_after,
        handle_ctrl_c: options.handle_ctrl_c,
    };
    let mut ga = GaRun {
        evolver,
        state,
        paths,
        games: options.games,
        threads: options.threads,
        commit: None,
        mode: options.mode,
        observers,
        records,
        first_generation: config.generations - remaining,
        run_start: Instant::now(),
    };
    executor::execute(&mut ga, &run)
}

/// The phases of a generation as they end, timed for `trace.csv`.
struct Phases {
    generation: u32,
    threads: usize,
    start: Instant,
    /// Where the phase in progress started: seconds after `start`, and the CPU time.
    last_s: f64,
    last_cpu: Duration,
    rows: Vec<TraceRow>,
}

impl Phases {
    fn new(generation: u32, threads: usize) -> Phases {
        Phases {
            generation,
            threads,
            start: Instant::now(),
            last_s: 0.0,
            last_cpu: thread_cpu_time(),
            rows: Vec::new(),
        }
    }

    /// Ends the phase in progress as `kind`; returns when it started (seconds).
    fn end(&mut self, kind: &str) -> f64 {
        let now = self.start.elapsed().as_secs_f64();
        let cpu = thread_cpu_time();
        let started = self.last_s;
        let cpu_s = cpu.saturating_sub(self.last_cpu).as_secs_f64();
        self.rows.push(TraceRow::phase(self.generation, self.threads, kind, started, now - started, cpu_s));
        (self.last_s, self.last_cpu) = (now, cpu);
        started
    }
}

/// The GA as the executor steps it: one generation a step.
struct GaRun<'a, 'o> {
    evolver: Evolver<'a>,
    state: &'a mut RunState,
    paths: &'a RunPaths,
    games: &'a dyn Games,
    /// Threads that play a generation's games (for the trace).
    threads: usize,
    /// The last generation's commit, writing while the next generation plays.
    commit: Option<CommitHandle>,
    mode: ProgressMode,
    observers: &'a mut [&'o mut dyn Observer],
    records: Option<RecordWriter>,
    /// The generation the run started from in this process, and when, for the ETA.
    first_generation: u32,
    run_start: Instant,
}

/// A generation's commit: its records appended and flushed, then its checkpoint (the commit
/// point), written while the next generation's games play: the disk's flushes no longer hold
/// up every thread between two generations.
struct CommitJob {
    records: Option<RecordWriter>,
    batch: Vec<GameRecord>,
    populations: PathBuf,
    config: EvolveConfig,
    state: RunState,
    generation: u32,
    threads: usize,
    generation_start: Instant,
}

/// A commit in flight: its generation, and the writer, outcome and trace line it gives back.
type CommitHandle = (u32, std::thread::JoinHandle<(Option<RecordWriter>, Result<()>, TraceRow)>);

impl CommitJob {
    fn run(mut self) -> (Option<RecordWriter>, Result<()>, TraceRow) {
        let (began, cpu0) = (Instant::now(), thread_cpu_time());
        let done = (|| {
            let records_len = match &mut self.records {
                Some(w) => {
                    w.write_all(&self.batch)?;
                    Some(w.sync()?)
                }
                None => None,
            };
            checkpoint::save(&self.populations, &self.config, &self.state, &self.config.output, records_len)?;
            Ok(())
        })();
        let row = TraceRow::phase(
            self.generation,
            self.threads,
            trace::BACKGROUND_COMMIT,
            (began - self.generation_start).as_secs_f64(),
            began.elapsed().as_secs_f64(),
            thread_cpu_time().saturating_sub(cpu0).as_secs_f64(),
        );
        (self.records, done, row)
    }
}

impl GaRun<'_, '_> {
    /// Waits for the commit in flight, if any: its checkpoint stands once this returns Ok.
    fn wait_for_commit(&mut self) -> Result<()> {
        let Some((g, handle)) = self.commit.take() else { return Ok(()) };
        let (records, done, row) =
            handle.join().map_err(|_| anyhow::anyhow!("generation {g}: the thread writing its checkpoint failed"))?;
        self.records = records;
        done.with_context(|| format!("generation {g}: its checkpoint was not written"))?;
        self.games.committed(g)?;
        trace::append(&self.paths.results.join(trace::TRACE_FILE), &[row])?;
        Ok(())
    }

    fn stagnant(&self) -> bool {
        let stagnation = self.evolver.config.diversity.stagnation;
        stagnation > 0 && Evolver::stagnant_generations(self.state) >= stagnation
    }
}

impl Drop for GaRun<'_, '_> {
    /// A run that stops (Ctrl-C, a pause, an error) keeps the checkpoint in flight.
    fn drop(&mut self) {
        if let Err(e) = self.wait_for_commit() {
            eprintln!("error: {e:#}");
        }
    }
}

impl Tuner for GaRun<'_, '_> {
    fn step_name(&self) -> &'static str {
        "generation"
    }

    fn command(&self) -> &'static str {
        "evolve"
    }

    fn more(&self) -> bool {
        self.state.generation < self.evolver.config.generations && !self.stagnant()
    }

    fn stopped_early(&self) -> Option<String> {
        let config = self.evolver.config;
        (self.state.generation < config.generations).then(|| {
            format!(
                "the best individual stayed the same for {} generations (`[diversity] stagnation`), at generation {}",
                config.diversity.stagnation, self.state.generation
            )
        })
    }

    fn stops_at_once(&self) -> bool {
        self.games.stops_at_once()
    }

    fn step(&mut self, stop: &AtomicUsize) -> Result<bool> {
        let config = self.evolver.config;
        let g = self.state.generation + 1;
        let mut phases = Phases::new(g, self.threads);
        let started = phases.start;
        let schedule = self.evolver.schedule(self.state);
        phases.end("schedule");
        let progress =
            Progress::new(&format!("gen {g}/{}", config.generations), schedule.games.len() as u64, "games", self.mode)
                .mirrored(self.paths.results.join("progress.json"));
        let games_start = Instant::now();
        let Some(Played { records: played, times }) = self.games.play(&self.evolver, &schedule, &progress, stop)?
        else {
            progress.finish();
            return Ok(false);
        };
        let games_wall_s = games_start.elapsed().as_secs_f64();
        progress.finish();
        let games_offset = phases.end(trace::GAMES);
        let result = self.evolver.conclude(self.state, &schedule, played, started, games_wall_s)?;
        phases.end("conclude");
        // The last generation's records and checkpoint go to disk before this one's.
        self.wait_for_commit()?;
        phases.end("commit-wait");
        let job = CommitJob {
            records: self.records.take(),
            batch: result.records.clone(),
            populations: self.paths.populations.clone(),
            config: config.clone(),
            state: self.state.clone(),
            generation: g,
            threads: self.threads,
            generation_start: started,
        };
        if self.games.commits_in_background() {
            let handle = std::thread::Builder::new()
                .name(format!("commit gen {g}"))
                .spawn(move || job.run())
                .context("cannot start the thread that writes the checkpoint")?;
            self.commit = Some((g, handle));
        } else {
            let (records, done, _) = job.run();
            self.records = records;
            done?;
            self.games.committed(g)?;
            phases.end("commit");
        }
        let elapsed = self.run_start.elapsed().as_secs_f64();
        let done = self.state.generation.saturating_sub(self.first_generation);
        let eta_s = elapsed / f64::from(done.max(1)) * f64::from(config.generations - self.state.generation);
        let done = GenerationDone { config, state: self.state, paths: self.paths, result: &result, eta_s };
        for o in self.observers.iter_mut() {
            o.generation(&done)?;
        }
        phases.end("results");
        let mut rows = phases.rows;
        let classes = schedule.classes();
        rows.extend(times.games.iter().map(|t| TraceRow::game(g, self.threads, games_offset, t, classes[t.game])));
        rows.extend(times.workers.iter().map(|w| TraceRow::worker(g, self.threads, games_offset, w)));
        trace::append(&self.paths.results.join(trace::TRACE_FILE), &rows)?;
        Ok(true)
    }

    fn champion(&mut self) -> Result<Champion> {
        self.wait_for_commit()?;
        let (config, schema, state) = (self.evolver.config, self.evolver.schema, &*self.state);
        let progress = Progress::new("play-off", self.evolver.play_off_games(state) as u64, "games", self.mode)
            .mirrored(self.paths.results.join("progress.json"));
        let play_off = self.evolver.play_off(state, &progress)?;
        progress.finish();
        let champ = play_off.champion();
        let rated = champ.after.se.is_finite();
        // Unrated (`li2007` fitness scores each generation's games alone): its generation's
        // fitness.
        let fitness = state.hall_of_fame.iter().rev().find(|e| e.id == champ.id).map(|e| e.fitness);
        let meta = Meta {
            name: Some(format!("{}-champion", config.name)),
            generation: champ.generation.map(u64::from).or(Some(u64::from(state.generation))),
            fitness: if rated { Some(champ.after.elo) } else { fitness },
            seed: Some(config.seed),
            config_hash: Some(config.hash()),
            date: Some(humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()),
            ..Meta::default()
        };
        let best_of = champ.generation.map_or(String::new(), |g| format!(", best of generation {g}"));
        let (line, note) = if rated {
            let line = format!(
                "champion: #{} rated {:+.0} ± {:.0} over {} games{}",
                champ.id,
                champ.after.elo,
                1.96 * champ.after.se,
                champ.games,
                if play_off.games > 0 {
                    format!(" (play-off of {} tables, {} games)", play_off.finalists.len(), play_off.games)
                } else {
                    String::new()
                }
            );
            let note = format!(
                "individual #{}{best_of}; rating {} ± {:.0} Elo over {} remembered games.",
                champ.id,
                crate::report::table::elo(champ.after.elo),
                1.96 * champ.after.se,
                champ.games
            );
            (line, note)
        } else {
            let score = fitness.map_or(String::new(), |f| format!(" (fitness {f:+})"));
            let why = if config.fitness.mode == FitnessMode::Li2007 {
                "`li2007` fitness keeps no ratings"
            } else {
                "no games played"
            };
            let line = format!("champion: #{}{best_of}{score}; not rated ({why})", champ.id);
            let note = format!("individual #{}{best_of}{score}; the run keeps no ratings.", champ.id);
            (line, note)
        };
        let weights = Weights::clamped(schema, champ.genes.clone());
        // Without ratings the play-off table would only say "+0 ± inf".
        Ok(Champion { weights, meta, line, note, play_off: rated.then(|| play_off.table()) })
    }

    fn finished(&mut self) -> Result<Vec<PathBuf>> {
        let end =
            RunEnd { config: self.evolver.config, state: self.state, paths: self.paths, schema: self.evolver.schema };
        let mut written = Vec::new();
        for o in self.observers.iter_mut() {
            written.extend(o.finished(&end)?);
        }
        Ok(written)
    }

    fn summary(&self, elapsed: Duration) -> String {
        let (config, state) = (self.evolver.config, &*self.state);
        format!(
            "Seed {}, {} of {} generations, population {} in {} groups, {} pairs per pairing; fitness {}; \
             engine {}; {} fitness games; {} in all.",
            config.seed,
            state.generation,
            config.generations,
            config.population,
            config.groups,
            config.pairs,
            match config.fitness.mode {
                FitnessMode::Rating =>
                    format!("`rating` (memory {}, prior {})", config.fitness.memory, config.fitness.prior),
                FitnessMode::Anchors =>
                    format!("`anchors` (memory {}, prior {})", config.fitness.memory, config.fitness.prior),
                FitnessMode::Li2007 => "`li2007`".into(),
            },
            self.evolver.lineup.describe(),
            state.history.iter().map(|r| r.games).sum::<u64>(),
            format_duration(elapsed)
        )
    }

    fn replay_command(&self, champion: &str, spec: &str) -> String {
        let config = self.evolver.config;
        config.validation.replay_command(&config.game, &config.engine, config.games.max_turns, champion, spec)
    }

    fn note(&mut self, line: &str) {
        for o in self.observers.iter_mut() {
            o.note(line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ga::evolve::tests::mock_setup;

    /// The announced total is the games the generations play (it counted every generation
    /// with the full hall of fame, 24 games too many for the quick run); only a champion that
    /// wins again, and so is not a new opponent, makes it fewer.
    #[test]
    fn the_announced_games_are_the_games_played() {
        let (mut config, suite, referee) = mock_setup();
        config.hall_of_fame.opponents = 2;
        config.generations = 6;
        let mut exact = 0;
        for seed in 1..=20 {
            config.seed = seed;
            let lineup = crate::ga::evolve::tests::lineup(&config);
            let evolver = Evolver::new(&config, &suite, &referee, &lineup).unwrap();
            let mut state = evolver.initial_state().unwrap();
            let announced = games_left(&config, &evolver, &state, config.generations);
            let p = Progress::new("t", 0, "games", ProgressMode::Hidden);
            let played: usize =
                (0..config.generations).map(|_| evolver.play_generation(&mut state, &p).unwrap().records.len()).sum();
            let mut distinct = state.hall_of_fame.iter().map(|e| e.genes.clone()).collect::<Vec<_>>();
            distinct.sort();
            distinct.dedup();
            // Survivors skip their own hall-of-fame entries, which the estimate of later
            // generations cannot know: it is exact for one generation, an upper bound after.
            assert!(played <= announced, "seed {seed}: {played} vs {announced}");
            if config.generations == 1 || distinct.len() == state.hall_of_fame.len() {
                exact += usize::from(played == announced);
            }
            assert_eq!(games_left(&config, &evolver, &state, 0), 0);
        }
        let _ = exact;
        // The next generation alone is announced exactly.
        let lineup = crate::ga::evolve::tests::lineup(&config);
        let evolver = Evolver::new(&config, &suite, &referee, &lineup).unwrap();
        let mut state = evolver.initial_state().unwrap();
        let p = Progress::new("t", 0, "games", ProgressMode::Hidden);
        for _ in 0..4 {
            let announced = games_left(&config, &evolver, &state, 1);
            assert_eq!(evolver.play_generation(&mut state, &p).unwrap().records.len(), announced);
        }
    }

    #[test]
    fn generation_lines_fit_a_terminal() {
        let row = HistoryRow {
            generation: 1234,
            fmax: 123.0,
            favg: -0.123_456,
            fmin: -123.0,
            champion: 123_456,
            pc_mean: 0.123_456_789,
            pm_mean: 0.000_123_456,
            diversity: 0.123_456,
            games: 123_456,
            first_wins: 1,
            second_wins: 1,
            draws: 1,
            wall_s: 12_345.678,
            games_wall_s: 12_000.0,
            best_games: 123_456,
            best_se: 123.4,
            immigrants: 0,
            anchors: vec![crate::report::history::AnchorRecord::new(
                "defaults",
                crate::stats::Wdl::new(100_000, 0, 23_456),
            )],
        };
        let line = generation_line(FitnessMode::Li2007, &row, 3000, 1e6);
        assert!(line.len() <= 100, "{} chars: {line}", line.len());
        assert_eq!(
            line,
            "gen 1234/3000: best #123456 f 123 (avg -0.1), vs defaults 81% of 123456; 123456 games, ETA 277h46m"
        );
        let line = generation_line(FitnessMode::Anchors, &row, 3000, 1e6);
        assert!(line.len() <= 100, "{} chars: {line}", line.len());
        assert!(line.starts_with("gen 1234/3000: best #123456 +123±242, vs defaults 81% of 123456;"), "{line}");
    }
}
