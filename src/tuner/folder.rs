//! Where a tuning run lives on disk: `populations/<run>` (the lock and the checkpoints) and
//! `results/<run>` (records, champions, history, plots, the report), for the GA and SPSA
//! alike.
//!
//! One process at a time: [`RunFolder::lock`] takes an exclusive lock on
//! `populations/<run>/lock` for as long as the run goes, so a second run of the same name, a
//! second `--resume`, or a `--force` that would wipe it, is refused instead of mixing two
//! runs in one folder. The lock is the operating system's (`flock` on Unix): it goes with the
//! process, so a killed run never leaves a stale lock behind. [`claim`] picks and locks the
//! folders of a new run.

use std::fs::{self, File};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::tuner::checkpoint;

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
    /// The name asked for, when its folders held another run and this run took the next free
    /// name (`quick` for `quick-2`): said again in the run's last line.
    pub passed_over: Option<String>,
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
        Ok(RunFolder { paths, passed_over: None, _lock: file })
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

/// Locks the folders of a new run named `name` under `out`. A name whose folders hold an
/// earlier run is refused, unless `force` (its files are removed) or `auto_name` (the next
/// free name, `name-2`, ..., is taken and said). Returns the folders and the name taken.
pub fn claim(out: &Path, name: &str, auto_name: bool, force: bool) -> Result<(RunFolder, String)> {
    // Why the run's own name was passed over, for the message.
    let mut passed_over = None;
    let mut n = 1;
    loop {
        let taken = if n == 1 { name.to_string() } else { format!("{name}-{n}") };
        let paths = RunPaths::new(out, &taken);
        let why_not = |reason: String| if n == 1 { Some(reason) } else { None };
        // Looked at before locking so that a finished run's folder is not touched; checked
        // again under the lock, which settles a race with another new run.
        if auto_name && paths.holds_run() {
            passed_over = passed_over.or(why_not(occupied_message(&paths)));
            n += 1;
            continue;
        }
        let mut folder = match RunFolder::lock(paths.clone()) {
            Ok(f) => f,
            Err(e @ LockError::InUse { .. }) if auto_name => {
                passed_over = passed_over.or(why_not(e.to_string()));
                n += 1;
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        if paths.holds_run() {
            if force {
                folder.clear()?;
            } else if auto_name {
                passed_over = passed_over.or(why_not(occupied_message(&paths)));
                n += 1;
                continue;
            } else {
                bail!("{}", occupied_message(&paths));
            }
        }
        if let Some(why) = &passed_over {
            // The first line of the run, and said again in its last: a user who runs the
            // same command twice gets a second run, not the first one continued.
            eprintln!(
                "a new run, `{taken}` ({}), because {why} (or give this run a name with --name)",
                paths.results.display()
            );
            folder.passed_over = Some(name.to_string());
        }
        return Ok((folder, taken));
    }
}

/// What to say about folders that hold an earlier run.
fn occupied_message(paths: &RunPaths) -> String {
    if checkpoint::exists_in(&paths.populations) {
        format!(
            "{} already holds a run: continue it with --resume {}, or pass --force to replace it",
            paths.populations.display(),
            paths.populations.display()
        )
    } else {
        format!(
            "{} holds files of an earlier run (and {} no checkpoint to resume from): pass --force to replace them",
            paths.results.display(),
            paths.populations.display()
        )
    }
}

/// Locks the folders of the run whose checkpoints are in `dir` (`populations/<run>`), its
/// results in `results/<run>` under `out` (default: beside `populations/`). The lock comes
/// first: a checkpoint read while another process writes the next one would be stale the
/// moment it is read.
pub fn lock_existing(dir: &Path, out: Option<PathBuf>) -> Result<RunFolder> {
    if !dir.is_dir() {
        bail!("{}: no such run folder; give the run's populations/<run> folder", dir.display());
    }
    let out = match out {
        Some(o) => o,
        None => dir.parent().and_then(Path::parent).map(Path::to_path_buf).unwrap_or_default(),
    };
    let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    Ok(RunFolder::lock(RunPaths { populations: dir.to_path_buf(), results: out.join("results").join(&name) })?)
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
