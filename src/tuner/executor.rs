//! The executor of a tuning run, the same for the GA and SPSA: steps (generations, batches)
//! until the run is complete, stops early, is paused or gets a Ctrl-C, each step committed by
//! its checkpoint; then the champion, its files, the validation matches against the
//! lineup's opponents, `report.md`, `summary.json` and `report.html`.
//!
//! What a step is, how it is checkpointed and what the tuner shows or writes besides is the
//! tuner's ([`Tuner`]); the executor holds the run's folders (locked) and decides when to go
//! on.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::arena::game::Referee;
use crate::arena::validation::{self, ValidationConfig};
use crate::core::weights::{Meta, Weights};
use crate::export::Format;
use crate::registry::GameRef;
use crate::report::progress::{Progress, ProgressMode};
use crate::report::run_report::PlayOffTable;
use crate::report::run_report::RunReport;
use crate::tuner::folder::RunFolder;
use crate::tuner::lineup::Lineup;

/// The exit status of a run stopped by Ctrl-C (128 + SIGINT, as shells report it).
pub use crate::interrupt::EXIT_INTERRUPTED;

/// The champion of a run, as the tuner picked it.
pub struct Champion {
    pub weights: Weights,
    pub meta: Meta,
    /// The line said when it is known, e.g. `champion: #12 rated +40 ± 30 over 96 games`.
    pub line: String,
    /// Where it came from and how it rates, one sentence for the report.
    pub note: String,
    /// The GA's play-off that picked it.
    pub play_off: Option<PlayOffTable>,
}

/// A tuner as the executor drives it.
pub trait Tuner {
    /// What a step is called in messages: `generation`, `batch`.
    fn step_name(&self) -> &'static str;

    /// The command that runs and resumes it: `evolve`, `spsa`.
    fn command(&self) -> &'static str;

    /// Whether steps remain to be played (false when the run is complete or stops early).
    fn more(&self) -> bool;

    /// Why the run ended before its last step, if it did (the GA's stagnation).
    fn stopped_early(&self) -> Option<String> {
        None
    }

    /// Whether a first Ctrl-C cancels the step's games at once (they are played elsewhere,
    /// and waiting for them could take long) rather than letting the step finish.
    fn stops_at_once(&self) -> bool {
        false
    }

    /// Plays the next step, concludes it into the run's state and commits it: the
    /// checkpoint, then what derives from it. Ok(false) when a Ctrl-C (`stop` above 0)
    /// cancelled its games; nothing is committed then.
    fn step(&mut self, stop: &AtomicUsize) -> Result<bool>;

    /// After the last step: the champion (the GA plays its play-off here).
    fn champion(&mut self) -> Result<Champion>;

    /// The champion's files are written: draws what the run draws at its end (plots) and
    /// returns the files, for the report.
    fn finished(&mut self) -> Result<Vec<PathBuf>> {
        Ok(Vec::new())
    }

    /// The report's paragraph on the run (config, budget, time taken).
    fn summary(&self, elapsed: Duration) -> String;

    /// The command that replays the validation of the champion, written `champion` (its
    /// file, or the tuned outside engine reading its file), against the opponent written
    /// `opponent`.
    fn replay_command(&self, champion: &str, opponent: &str) -> String;

    /// A line about the run for the terminal (the champion, a validation match, ...).
    fn note(&mut self, line: &str);
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    /// All steps done (or an early stop): the champion's file.
    Champion(PathBuf),
    /// Stopped by Ctrl-C; the last checkpoint stands.
    Interrupted,
    /// Stopped after [`Run::pause_after`] steps, the run not complete.
    Paused,
}

/// What the executor needs besides the tuner.
pub struct Run<'a> {
    /// The run's name, for the report.
    pub name: &'a str,
    pub folder: &'a RunFolder,
    pub game: GameRef,
    /// The players: the champion of the validation is one of its individuals, against its
    /// validation opponents.
    pub lineup: &'a Lineup,
    pub referee: &'a dyn Referee,
    pub validation: &'a ValidationConfig,
    pub mode: ProgressMode,
    /// Play at most this many steps in this process, then return [`Ended::Paused`] unless
    /// the run is complete (a cluster's `reduce` plays one; `Some(0)` plays none).
    pub pause_after: Option<u32>,
    /// Stop after the step in flight on a first Ctrl-C, at once on a second (a process can
    /// install one handler: tests leave it off).
    pub handle_ctrl_c: bool,
}

/// Runs `tuner` to its end, or until a Ctrl-C or the pause.
pub fn execute(tuner: &mut dyn Tuner, run: &Run) -> Result<Ended> {
    let stop = Arc::new(AtomicUsize::new(0));
    let finale = Arc::new(AtomicBool::new(false));
    if run.handle_ctrl_c {
        let resume = format!("evotune {} --resume {}", tuner.command(), run.folder.paths.populations.display());
        let signals = Signals { stop: stop.clone(), finale: finale.clone(), step: tuner.step_name(), resume };
        install_ctrl_c(signals, tuner.stops_at_once());
    }
    let run_start = Instant::now();
    let mut played_here = 0;
    while tuner.more() {
        if run.pause_after.is_some_and(|n| played_here >= n) {
            return Ok(Ended::Paused);
        }
        if !tuner.step(&stop)? {
            return Ok(Ended::Interrupted);
        }
        played_here += 1;
        if stop.load(Ordering::SeqCst) > 0 {
            return Ok(Ended::Interrupted);
        }
    }
    // From here on a signal stops at once: every step is saved, and the champion, its
    // validation and the report are made again from the last checkpoint by a resume. A
    // signal that came during the last step stops here, as after any step.
    finale.store(true, Ordering::SeqCst);
    if stop.load(Ordering::SeqCst) > 0 {
        return Ok(Ended::Interrupted);
    }
    let stopped_early = tuner.stopped_early();
    if let Some(why) = &stopped_early {
        tuner.note(&format!("stopping: {why}"));
    }
    finish(tuner, run, stopped_early, run_start).map(Ended::Champion)
}

/// What a signal reaches.
struct Signals {
    /// Signals received during the steps.
    stop: Arc<AtomicUsize>,
    /// Set once the steps are done (the play-off, validation and report).
    finale: Arc<AtomicBool>,
    /// A step's name, for the messages.
    step: &'static str,
    /// The command that resumes the run.
    resume: String,
}

/// On a first Ctrl-C during the steps, `stop` is raised (the step in flight ends, or is
/// cancelled when the tuner's games stop at once); on a second the process exits. After the
/// steps (the play-off, validation and report, which a resume makes again from the last
/// checkpoint) the first exits at once.
fn install_ctrl_c(signals: Signals, at_once: bool) {
    // The process's one handler (crate::interrupt) calls this while the run goes; tests
    // install no handler.
    let Signals { stop, finale, step, resume } = signals;
    crate::interrupt::on_signal(move |_| {
        if finale.load(Ordering::SeqCst) {
            eprintln!(
                "\nstopped before the run's end: every {step} is saved; the champion, its validation and the \
                 report are made again by a resume"
            );
            println!("stopped; resume with: {resume}");
            crate::interrupt::exit(EXIT_INTERRUPTED);
        }
        if stop.fetch_add(1, Ordering::SeqCst) == 0 {
            if at_once {
                eprintln!("\nstopping: cancelling the {step}'s games (the last checkpoint stands)");
            } else {
                eprintln!("\nstopping after this {step} (its checkpoint will be saved); Ctrl-C again to stop now");
            }
        } else {
            eprintln!("\nstopped; the {step} in flight is lost, the last checkpoint stands");
            crate::interrupt::exit(EXIT_INTERRUPTED);
        }
    });
}

/// Writes a table of values in `format`.
fn write_values(path: &Path, format: Format, weights: &Weights, meta: &Meta) -> Result<()> {
    crate::fsutil::write_atomic(path, format.render(weights, meta).as_bytes())
        .with_context(|| format!("{}: cannot write", path.display()))
}

/// After the last step: the champion and its file, the validation matches, the tuner's
/// closing files and `report.md`. Returns the champion's path.
fn finish(tuner: &mut dyn Tuner, run: &Run, stopped_early: Option<String>, run_start: Instant) -> Result<PathBuf> {
    let paths = &run.folder.paths;
    let lineup = run.lineup;
    let champion = tuner.champion()?;
    let champion_path = paths.champion();
    champion
        .weights
        .save(&champion_path, &champion.meta)
        .with_context(|| format!("{}: cannot write", champion_path.display()))?;
    // For a tuned outside engine, also in the format it reads (the TOML is one already).
    let format = lineup.engine_format().unwrap_or_default();
    let engine_file = paths.results.join(format!("champion.{}", format.extension()));
    if format != Format::Toml {
        write_values(&engine_file, format, &champion.weights, &champion.meta)?;
        tuner.note(&format!("champion for the engine ({} format): {}", format.name(), engine_file.display()));
    }
    tuner.note(&champion.line);

    let mut validation = Vec::new();
    let v = run.validation;
    if v.pairs > 0 && !lineup.validation.is_empty() {
        let suite = v.suite(run.game.arena())?;
        let player = lineup.individual(format!("{}-champion", run.name), champion.weights.values());
        let champion_text = lineup
            .engine_text(champion.weights.values(), &engine_file)
            .unwrap_or_else(|| champion_path.display().to_string());
        for opponent in &lineup.validation {
            let name = &opponent.player.name;
            let progress = Progress::new(&format!("validation vs {name}"), 2 * v.pairs as u64, "games", run.mode)
                .mirrored(paths.results.join("progress.json"));
            let report = v.play(run.referee, &player, &opponent.player, &suite, &progress)?;
            progress.finish();
            tuner.note(&validation::summary_line(name, &report.wdl));
            // An opponent that is the tuned engine playing some values is replayed from a
            // file of them.
            let opponent_text = match &opponent.values {
                Some(values) => {
                    let file = paths.results.join("opponents").join(format!("{name}.{}", format.extension()));
                    write_values(&file, format, &Weights::clamped(lineup.schema, values.clone()), &Meta::default())?;
                    lineup.engine_text(values, &file).unwrap_or_else(|| opponent.spec.clone())
                }
                None => opponent.spec.clone(),
            };
            validation.push(report.validation_row(tuner.replay_command(&champion_text, &opponent_text)));
        }
    }

    let drawn = tuner.finished()?;
    let report = RunReport {
        name: run.name,
        summary: tuner.summary(run_start.elapsed()),
        stopped_early,
        champion_path: champion_path.display().to_string(),
        champion: &champion.weights,
        champion_note: champion.note.clone(),
        play_off: champion.play_off.clone(),
        anchor_names: &lineup.anchor_names(),
        validation,
        plots: drawn
            .iter()
            .filter(|p| p.extension().is_some_and(|x| x == "png"))
            .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect(),
    };
    let report_path = paths.results.join("report.md");
    crate::fsutil::write_atomic(&report_path, report.to_markdown().as_bytes())
        .with_context(|| format!("{}: cannot write", report_path.display()))?;
    let summary_path = paths.results.join("summary.json");
    crate::fsutil::write_atomic(&summary_path, crate::report::json::to_text(&report.to_json()).as_bytes())
        .with_context(|| format!("{}: cannot write", summary_path.display()))?;
    let page = crate::watch::page::write_report(&paths.results)?;
    tuner.note(&format!("report {} and {}", report_path.display(), page.display()));
    Ok(champion_path)
}
