//! What a run shows and writes besides its checkpoints, as [`Observer`]s of its start, its
//! generations and its end: [`Terminal`] (progress lines), [`ResultFiles`] (`champions/`,
//! `champion.toml`, `history.csv`), [`WebPage`] (`report.html`) and [`Plots`].

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;

use crate::arena::game::Referee;
use crate::arena::openings::OpeningSuite;
use crate::core::weights::Schema;
use crate::ga::config::EvolveConfig;
use crate::ga::fitness::FitnessMode;
use crate::ga::run_folder::write_results;
use crate::ga::state::{GenerationResult, RunState};
use crate::report::history::HistoryRow;
use crate::report::plots;
use crate::report::progress::{format_duration, ProgressMode};
use crate::tuner::folder::RunPaths;
use crate::tuner::lineup::Lineup;

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

/// The line printed after a generation: short enough for an 80-column terminal in the common
/// case (the rest of the row, rates and diversity included, is in history.csv). With rated
/// fitness it shows the best's rating and its record against the first anchor.
pub(super) fn generation_line(mode: FitnessMode, row: &HistoryRow, generations: u32, eta_s: f64) -> String {
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
pub trait Observer: Send {
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

    /// Whether [`generation`](Self::generation) only writes files derived from the
    /// checkpoint, which a resumed run writes again: then it runs on a thread of its own
    /// while the next generation's games play, not between two generations, where every
    /// game thread would wait for it (the run waits for it before the next generation
    /// concludes, and before the play-off or when it stops).
    fn derives_files(&self) -> bool {
        false
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
            if !config.engine.is_deterministic() {
                eprintln!(
                    "note: [engine] time_ms makes games depend on the machine's load; this run is not reproducible \
                     (clock_nps counts the time in positions instead)"
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

    fn derives_files(&self) -> bool {
        true
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

    fn derives_files(&self) -> bool {
        true
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

#[cfg(test)]
mod tests {
    use super::*;

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
