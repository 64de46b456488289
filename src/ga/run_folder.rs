//! Where a run lives on disk: `populations/<run>` (the lock and the checkpoints) and
//! `results/<run>` (records, champions, history, plots).
//!
//! One process at a time: [`RunFolder::lock`] takes an exclusive lock on
//! `populations/<run>/lock` for as long as the run goes, so a second `evolve` of the same run,
//! a second `--resume`, or a `--force` that would wipe it, is refused instead of mixing two
//! runs in one folder. The lock is the operating system's (`flock` on Unix): it goes with the
//! process, so a killed run never leaves a stale lock behind.
//!
//! Everything in `results/<run>` is derived from the newest checkpoint:
//! [`write_results`] (re)writes it from a [`RunState`], so a run killed between its
//! checkpoint and its result files is made whole again when resumed.

use std::fs::{self, File};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::core::weights::{Meta, Weights};
use crate::fsutil::write_atomic;
use crate::ga::checkpoint;
use crate::ga::config::EvolveConfig;
use crate::ga::state::{HallEntry, RunState};
use crate::report::history;

/// The file of the lock inside `populations/<run>`.
pub const LOCK_FILE: &str = "lock";

/// Where a run lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunPaths {
    pub populations: PathBuf,
    pub results: PathBuf,
}

impl RunPaths {
    pub fn new(out: &Path, name: &str) -> RunPaths {
        RunPaths { populations: out.join("populations").join(name), results: out.join("results").join(name) }
    }

    /// Whether these folders hold (part of) an earlier run: a checkpoint, or any file in
    /// `results/<run>`. Empty folders and a lone lock file do not count: they are what a run
    /// killed before its first checkpoint leaves, and a new run may take them over.
    pub fn holds_run(&self) -> bool {
        checkpoint::exists_in(&self.populations) || has_files(&self.results)
    }

    pub fn records(&self) -> PathBuf {
        self.results.join("games.jsonl")
    }

    pub fn champion(&self) -> PathBuf {
        self.results.join("champion.toml")
    }

    pub fn champion_of(&self, generation: u32) -> PathBuf {
        self.results.join("champions").join(format!("gen-{generation:04}.toml"))
    }
}

fn has_files(dir: &Path) -> bool {
    let Ok(entries) = fs::read_dir(dir) else { return false };
    entries.filter_map(|e| e.ok()).any(|e| match e.file_type() {
        Ok(t) if t.is_dir() => has_files(&e.path()),
        Ok(_) => true,
        Err(_) => true,
    })
}

/// Why a run folder could not be locked.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another process holds the lock: a run is going in this folder.
    #[error(
        "{} is in use by another evotune{}: wait for that run to finish or stop it; two runs must not \
         share a folder (give this one another --name or --out)",
        .dir.display(),
        .holder.as_ref().map(|p| format!(" (process {p})")).unwrap_or_default()
    )]
    InUse { dir: PathBuf, holder: Option<String> },
    #[error("{}: cannot {what}: {error}", .path.display())]
    Io { path: PathBuf, what: &'static str, error: std::io::Error },
}

/// A run's folders, locked by this process.
#[derive(Debug)]
pub struct RunFolder {
    pub paths: RunPaths,
    /// Held open for the lock's sake: closing it releases the lock.
    _lock: File,
}

impl RunFolder {
    /// Creates `populations/<run>` if needed and takes its lock. Fails at once, naming the
    /// folder and the process that holds it, when another process has it.
    pub fn lock(paths: RunPaths) -> Result<RunFolder, LockError> {
        let dir = &paths.populations;
        fn io<'a>(path: &'a Path, what: &'static str) -> impl FnOnce(std::io::Error) -> LockError + 'a {
            move |error| LockError::Io { path: path.to_path_buf(), what, error }
        }
        fs::create_dir_all(dir).map_err(io(dir, "create"))?;
        let path = dir.join(LOCK_FILE);
        let mut file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io(&path, "open the run's lock file"))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                let holder = Some(holder.trim().to_string()).filter(|h| !h.is_empty());
                return Err(LockError::InUse { dir: dir.clone(), holder });
            }
            Err(fs::TryLockError::Error(e)) => return Err(io(&path, "lock")(e)),
        }
        // Who holds the lock, for the message above; not needed for the lock itself.
        let _ = file.set_len(0).and_then(|_| file.rewind()).and_then(|_| writeln!(file, "{}", std::process::id()));
        Ok(RunFolder { paths, _lock: file })
    }

    /// Empties both folders for a new run (`--force`), keeping the lock.
    pub fn clear(&self) -> Result<()> {
        let dir = &self.paths.populations;
        for e in fs::read_dir(dir).with_context(|| format!("{}: cannot list", dir.display()))? {
            let e = e?;
            if e.file_name() == LOCK_FILE {
                continue;
            }
            let p = e.path();
            let removed = if e.file_type()?.is_dir() { fs::remove_dir_all(&p) } else { fs::remove_file(&p) };
            removed.with_context(|| format!("{}: cannot remove", p.display()))?;
        }
        let results = &self.paths.results;
        if results.exists() {
            fs::remove_dir_all(results).with_context(|| format!("{}: cannot remove", results.display()))?;
        }
        Ok(())
    }
}

/// The champion file's metadata for a hall-of-fame entry.
fn champion_meta(config: &EvolveConfig, entry: &HallEntry) -> Meta {
    Meta {
        name: Some(format!("{}-g{}", config.name, entry.generation)),
        generation: Some(u64::from(entry.generation)),
        fitness: Some(entry.fitness),
        seed: Some(config.seed),
        config_hash: Some(config.hash()),
        date: Some(humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()),
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
        weights.save(path, &champion_meta(config, entry)).with_context(|| format!("{}: cannot write", path.display()))
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
    write_atomic(&csv_path, csv.as_bytes()).with_context(|| format!("{}: cannot write", csv_path.display()))?;
    Ok(Some(champion))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_a_run_is_refused_until_the_first_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let paths = RunPaths::new(dir.path(), "r");
        let first = RunFolder::lock(paths.clone()).unwrap();
        let e = format!("{:#}", RunFolder::lock(paths.clone()).unwrap_err());
        assert!(e.contains("in use by another evotune") && e.contains(&std::process::id().to_string()), "{e}");
        drop(first);
        RunFolder::lock(paths).unwrap();
    }

    #[test]
    fn empty_folders_and_a_lock_do_not_make_a_run() {
        let dir = tempfile::tempdir().unwrap();
        let paths = RunPaths::new(dir.path(), "r");
        let folder = RunFolder::lock(paths.clone()).unwrap();
        fs::create_dir_all(paths.results.join("champions")).unwrap();
        assert!(!paths.holds_run());
        fs::write(paths.champion(), "x").unwrap();
        assert!(paths.holds_run());
        folder.clear().unwrap();
        assert!(!paths.holds_run());
        assert!(paths.populations.join(LOCK_FILE).exists());
    }
}
