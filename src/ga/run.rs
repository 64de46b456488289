//! The GA's run: a run's folders prepared (new or resumed, locked), and the GA as a
//! [`Tuner`] of the shared executor ([`crate::tuner::executor`]): each generation scheduled,
//! played (here or on a cluster: [`Games`]), concluded and checkpointed; at the end the
//! play-off picks the champion. The folders are made ready in [`crate::ga::prepare`]; what the
//! run shows and writes besides its checkpoints is done by the [`Observer`]s of
//! [`crate::ga::observers`].
//!
//! Order of the files of a generation: the game records (appended and flushed), then the
//! checkpoint, which records where the records end and is the commit point, then what the
//! observers derive from it (champions, history). A run killed anywhere resumes from its
//! newest checkpoint: the records are cut back to it and the derived files rewritten from
//! it, so the result is the uninterrupted run's. (The records are part of the commit, not an
//! observer: the checkpoint must know their length.)

use std::path::PathBuf;
use std::sync::atomic::AtomicUsize;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::arena::game::Referee;
use crate::arena::openings::OpeningSuite;
use crate::arena::records::{GameRecord, RecordWriter};
use crate::core::weights::{Meta, Weights};
use crate::ga::checkpoint;
use crate::ga::config::EvolveConfig;
use crate::ga::evolve::Evolver;
use crate::ga::fitness::FitnessMode;
use crate::ga::games::{Games, Played};
use crate::ga::observers::{GenerationDone, Observer, Plots, ResultFiles, RunEnd, RunStart, Terminal, WebPage};
use crate::ga::prepare::settle;
use crate::ga::state::{GenerationResult, RunState};
use crate::report::progress::{format_duration, Progress, ProgressMode};
use crate::report::trace::{self, TraceRow};
use crate::tuner::executor::{self, Champion, Ended, Tuner};
use crate::tuner::folder::{RunFolder, RunPaths};
use crate::tuner::lineup::Lineup;
use crate::workers::thread_cpu_time;

/// Games of the generations still to run: exact for the next one; for later ones, as many
/// as when every generation's champion is new to the hall of fame (repeats play fewer).
fn games_left(config: &EvolveConfig, evolver: &Evolver, state: &RunState, remaining: u32) -> usize {
    if remaining == 0 {
        return 0;
    }
    let hall = state.hall_of_fame.len();
    evolver.games_next(state) + (1..remaining as usize).map(|j| config.games_per_generation(hall + j)).sum::<usize>()
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
        derived: None,
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
    /// The last generation's result files, written while the next generation plays.
    derived: Option<DerivedFiles>,
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

/// A generation whose files derived from its checkpoint (the observers that
/// [derive files](Observer::derives_files)) are still to be written.
struct DerivedFiles {
    result: GenerationResult,
    eta_s: f64,
    generation_start: Instant,
}

impl DerivedFiles {
    /// Runs the observers that derive files for this generation, `state` being the state it
    /// left (the next generation has not concluded yet); returns the outcome and the
    /// trace line of the work.
    fn write(
        &self,
        observers: &mut [&mut dyn Observer],
        config: &EvolveConfig,
        state: &RunState,
        paths: &RunPaths,
        threads: usize,
    ) -> (Result<()>, TraceRow) {
        let (began, cpu0) = (Instant::now(), thread_cpu_time());
        let done = GenerationDone { config, state, paths, result: &self.result, eta_s: self.eta_s };
        let written = observers.iter_mut().filter(|o| o.derives_files()).try_for_each(|o| o.generation(&done));
        let row = TraceRow::phase(
            self.result.generation,
            threads,
            trace::BACKGROUND_RESULTS,
            (began - self.generation_start).as_secs_f64(),
            began.elapsed().as_secs_f64(),
            thread_cpu_time().saturating_sub(cpu0).as_secs_f64(),
        );
        (written, row)
    }
}

impl GaRun<'_, '_> {
    /// Writes the last generation's derived files if they are still to be written, on
    /// this thread.
    fn write_derived(&mut self) -> Result<()> {
        let Some(derived) = self.derived.take() else { return Ok(()) };
        let (written, row) = derived.write(self.observers, self.evolver.config, self.state, self.paths, self.threads);
        trace::append(&self.paths.results.join(trace::TRACE_FILE), &[row])?;
        written
    }

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
    /// A run that stops (Ctrl-C, a pause, an error) keeps the checkpoint in flight, and
    /// writes the files derived from the last one.
    fn drop(&mut self) {
        if let Err(e) = self.wait_for_commit() {
            eprintln!("error: {e:#}");
        }
        if let Err(e) = self.write_derived() {
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
        // The last generation's derived files are written while this one's games play.
        let derived = self.derived.take();
        let (threads, paths, state) = (self.threads, self.paths, &*self.state);
        let (games, evolver, observers) = (self.games, &self.evolver, &mut *self.observers);
        let (played, games_wall_s, games_offset, derived) = std::thread::scope(|scope| {
            let writing = derived.map(|d| {
                std::thread::Builder::new()
                    .name(format!("results gen {}", d.result.generation))
                    .spawn_scoped(scope, move || d.write(observers, config, state, paths, threads))
            });
            let played = games.play(evolver, &schedule, &progress, stop);
            let games_wall_s = games_start.elapsed().as_secs_f64();
            progress.finish();
            let games_offset = phases.end(trace::GAMES);
            let derived = writing.map(|w| {
                let w = w.context("cannot start the thread that writes the result files")?;
                w.join()
                    .map_err(|_| anyhow::anyhow!("generation {}: the thread writing its result files failed", g - 1))
            });
            (played, games_wall_s, games_offset, derived)
        });
        let derived_row = match derived.transpose()? {
            Some((written, row)) => {
                written?;
                Some(row)
            }
            None => None,
        };
        phases.end("results-wait");
        let Some(Played { records: played, times }) = played? else {
            if let Some(row) = derived_row {
                trace::append(&self.paths.results.join(trace::TRACE_FILE), &[row])?;
            }
            return Ok(false);
        };
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
        for o in self.observers.iter_mut().filter(|o| !o.derives_files()) {
            o.generation(&done)?;
        }
        self.derived = Some(DerivedFiles { result, eta_s, generation_start: started });
        phases.end("results");
        let mut rows = phases.rows;
        rows.extend(derived_row);
        let classes = schedule.classes();
        rows.extend(times.games.iter().map(|t| TraceRow::game(g, self.threads, games_offset, t, classes[t.game])));
        rows.extend(times.workers.iter().map(|w| TraceRow::worker(g, self.threads, games_offset, w)));
        trace::append(&self.paths.results.join(trace::TRACE_FILE), &rows)?;
        Ok(true)
    }

    fn champion(&mut self) -> Result<Champion> {
        self.wait_for_commit()?;
        self.write_derived()?;
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
            // The engine it was tuned and validated with, which every command loading it uses.
            engine: config.outside.is_none().then(|| config.engine.table_engine()),
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
}
