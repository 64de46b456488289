//! `trace.csv`: where a GA run's time went, a line per game and per phase of each
//! generation, written beside `history.csv` after each generation (what `evotune scaling`
//! replays to predict the run on more threads).
//!
//! Columns: `generation`, `threads` (the generation's worker threads), `kind` (`game`,
//! `worker`, `background-commit`, `background-results`, or a phase: `schedule`, `games`,
//! `results-wait`, `conclude`, `commit-wait`, `commit`, `results`), then for a game its index in the generation's schedule (`game`), its place in
//! the order the games were handed to the threads (`rank`) and the thread that played it
//! (`worker`) and its class (`class`: games expected alike in length, which the threads
//! take by class, see `crate::dispatch`); for every line `start_s` (seconds after the generation started), `wall_s` and
//! `cpu_s` (the CPU time of the thread that did it: for a game, what the game cost whatever
//! else the machine was doing). A `worker` line is a thread from its first game to its last:
//! its wall time less its CPU time is time it waited for a core. The phases run one after
//! another on one thread: `games` spans the games, the others are the sequential parts of a
//! generation. A generation's records and checkpoint (`background-commit`, written after
//! its own lines) go to disk while the next generation plays, which waits for them after
//! its games (`commit-wait`); on a cluster they are written in turn (`commit`). So do the
//! files derived from its checkpoint (`background-results`, in the next generation's lines;
//! `results-wait` is the time the next generation waited for them after its games; the
//! phase `results` is what is left: the progress line).
//!
//! The file is timing, not results: it differs from run to run. A resumed run drops the
//! lines of generations after its checkpoint and of a line cut short.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::workers::{GameTime, WorkerTime};

/// The trace's file name in a run's results folder.
pub const TRACE_FILE: &str = "trace.csv";

/// The kind of a game's line.
pub const GAME: &str = "game";
/// The phase that spans the games.
pub const GAMES: &str = "games";
/// The kind of a thread's line: from its first game to its last.
pub const WORKER: &str = "worker";
/// A generation's records and checkpoint written while the next generation plays (not a
/// sequential phase: the phase `commit-wait` is the time the next generation waited for it).
pub const BACKGROUND_COMMIT: &str = "background-commit";
/// A generation's files derived from its checkpoint (champions, `history.csv`,
/// `report.html`) written while the next generation plays (not a sequential phase: the
/// phase `results-wait` is the time the next generation waited for them after its games).
pub const BACKGROUND_RESULTS: &str = "background-results";

/// One line of the trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceRow {
    pub generation: u32,
    pub threads: usize,
    pub kind: String,
    pub game: Option<usize>,
    pub rank: Option<usize>,
    pub worker: Option<usize>,
    pub start_s: f64,
    pub wall_s: f64,
    pub cpu_s: f64,
    /// A game's class for the hand-out order (games alike in length share one); traces
    /// before this column have none.
    #[serde(default)]
    pub class: Option<usize>,
}

impl TraceRow {
    /// A phase of a generation.
    pub fn phase(generation: u32, threads: usize, kind: &str, start_s: f64, wall_s: f64, cpu_s: f64) -> TraceRow {
        TraceRow {
            generation,
            threads,
            kind: kind.into(),
            game: None,
            rank: None,
            worker: None,
            start_s,
            wall_s,
            cpu_s,
            class: None,
        }
    }

    /// A game of a generation whose games started `offset_s` after the generation, of the
    /// hand-out class `class`.
    pub fn game(generation: u32, threads: usize, offset_s: f64, t: &GameTime, class: usize) -> TraceRow {
        TraceRow {
            generation,
            threads,
            kind: GAME.into(),
            game: Some(t.game),
            rank: Some(t.rank),
            worker: Some(t.worker),
            start_s: offset_s + t.start.as_secs_f64(),
            wall_s: t.wall.as_secs_f64(),
            cpu_s: t.cpu.as_secs_f64(),
            class: Some(class),
        }
    }

    /// A thread of a generation's games, whose games started `offset_s` after the generation.
    pub fn worker(generation: u32, threads: usize, offset_s: f64, w: &WorkerTime) -> TraceRow {
        TraceRow {
            generation,
            threads,
            kind: WORKER.into(),
            game: None,
            rank: None,
            worker: Some(w.worker),
            start_s: offset_s + w.start.as_secs_f64(),
            wall_s: w.wall.as_secs_f64(),
            cpu_s: w.cpu.as_secs_f64(),
            class: None,
        }
    }

    pub fn is_game(&self) -> bool {
        self.kind == GAME
    }
}

/// The trace of the run whose results (or checkpoints, with results beside them) are in
/// `dir`: `dir/trace.csv`, else `results/<run>/trace.csv` of `populations/<run>`.
pub fn find(dir: &Path) -> Result<PathBuf> {
    if dir.is_file() {
        return Ok(dir.to_path_buf());
    }
    let here = dir.join(TRACE_FILE);
    if here.exists() {
        return Ok(here);
    }
    if let (Some(name), Some(root)) = (dir.file_name(), dir.parent().and_then(Path::parent)) {
        let beside = root.join("results").join(name).join(TRACE_FILE);
        if beside.exists() {
            return Ok(beside);
        }
    }
    anyhow::bail!(
        "{}: no {TRACE_FILE} (a run writes it in results/<run>/ from its first generation; runs before \
         this version have none)",
        dir.display()
    )
}

/// Reads a trace; a line that cannot be read (cut short by a kill) is an error naming it.
pub fn read(path: &Path) -> Result<Vec<TraceRow>> {
    let mut r = csv::Reader::from_path(path).with_context(|| format!("{}: cannot open", path.display()))?;
    let mut rows = Vec::new();
    for (i, row) in r.deserialize().enumerate() {
        rows.push(row.with_context(|| format!("{}: line {} is not a trace line", path.display(), i + 2))?);
    }
    Ok(rows)
}

/// Appends a generation's lines (the header first if the file is new or empty), flushed.
pub fn append(path: &Path, rows: &[TraceRow]) -> Result<()> {
    let fresh = std::fs::metadata(path).map_or(true, |m| m.len() == 0);
    let mut w = csv::WriterBuilder::new().has_headers(fresh).from_writer(Vec::new());
    for row in rows {
        w.serialize(row)?;
    }
    let bytes = w.into_inner().context("trace lines")?;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("{}: cannot open", path.display()))?;
    f.write_all(&bytes).with_context(|| format!("{}: cannot write", path.display()))?;
    Ok(())
}

/// Keeps the lines of generations up to `generation` (the run's checkpoint) and drops any
/// other line, rewriting the file atomically; a missing file stays missing.
pub fn cut_back(path: &Path, generation: u32) -> Result<()> {
    let Ok(text) = std::fs::read_to_string(path) else { return Ok(()) };
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let kept: Vec<TraceRow> =
        r.deserialize::<TraceRow>().filter_map(|row| row.ok()).filter(|row| row.generation <= generation).collect();
    let mut w = csv::Writer::from_writer(Vec::new());
    for row in &kept {
        w.serialize(row)?;
    }
    let bytes = w.into_inner().context("trace lines")?;
    if bytes.as_slice() != text.as_bytes() {
        crate::fsutil::write_atomic(path, &bytes).with_context(|| format!("{}: cannot write", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn lines_round_trip_and_a_resume_cuts_back_to_its_checkpoint() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(TRACE_FILE);
        let t = GameTime {
            game: 3,
            rank: 0,
            worker: 1,
            start: Duration::from_millis(5),
            wall: Duration::from_millis(20),
            cpu: Duration::from_millis(19),
        };
        let gen =
            |g: u32| vec![TraceRow::phase(g, 2, "schedule", 0.0, 0.001, 0.001), TraceRow::game(g, 2, 0.001, &t, 4)];
        append(&path, &gen(1)).unwrap();
        append(&path, &gen(2)).unwrap();
        let rows = read(&path).unwrap();
        assert_eq!(rows, [gen(1), gen(2)].concat());
        assert_eq!((rows[1].game, rows[1].worker), (Some(3), Some(1)));
        assert!((rows[1].start_s - 0.006).abs() < 1e-9);
        // A line cut short by a kill, and a generation after the checkpoint, go.
        let mut f = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"3,2,game,1").unwrap();
        assert!(read(&path).is_err());
        cut_back(&path, 1).unwrap();
        assert_eq!(read(&path).unwrap(), gen(1));
        append(&path, &gen(2)).unwrap();
        assert_eq!(read(&path).unwrap(), [gen(1), gen(2)].concat());
        assert_eq!(find(dir.path()).unwrap(), path);
        cut_back(&dir.path().join("none.csv"), 1).unwrap();
        assert!(!dir.path().join("none.csv").exists());
    }
}
