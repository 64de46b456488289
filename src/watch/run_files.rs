//! A run's results folder read back: the files are the source of truth for everything that
//! shows a run after the fact or from another process (`evotune plot`, `report.html`,
//! `evotune serve`): `history.csv`, `champions/gen-NNNN.toml`, `champion.toml`,
//! `summary.json` (written with `report.md` at the end) and `progress.json` (the work in
//! flight, rewritten every few seconds while a run plays).

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::{Context, Result};

use crate::core::weights::{Schema, Weights};
use crate::report::history::{self, HistoryRow};
use crate::report::progress::InFlight;

/// The generation champions' schema and their genes by generation.
pub type ChampionGenes = (&'static Schema, Vec<(u32, Vec<i32>)>);

/// Everything a results folder holds about its run.
#[derive(Clone, Debug)]
pub struct RunFiles {
    pub name: String,
    pub dir: PathBuf,
    pub history: Vec<HistoryRow>,
    /// The generation champions, None without champion files.
    pub genes: Option<ChampionGenes>,
    /// `summary.json` once the run has finished.
    pub summary: Option<serde_json::Value>,
    pub in_flight: Option<InFlight>,
    /// A stamp that changes whenever one of the files does (a page compares it to redraw).
    pub stamp: String,
}

/// Whether a folder is a run's results folder.
pub fn is_run(dir: &Path) -> bool {
    ["history.csv", "progress.json", "champion.toml", "champions"].iter().any(|f| dir.join(f).exists())
}

/// Size and modification time of a file or folder ("-" when absent).
fn file_stamp(path: &Path) -> String {
    match std::fs::metadata(path) {
        Ok(m) => {
            let t = m.modified().ok().and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok());
            format!("{}.{}", m.len(), t.map_or(0, |d| d.as_millis()))
        }
        Err(_) => "-".into(),
    }
}

/// The stamp of a results folder: the sizes and times of the files a page draws (not
/// `progress.json`, whose count a page shows without redrawing).
pub fn stamp(dir: &Path) -> String {
    ["history.csv", "champions", "champion.toml", "summary.json"]
        .iter()
        .map(|f| file_stamp(&dir.join(f)))
        .collect::<Vec<_>>()
        .join("/")
}

impl RunFiles {
    /// Reads a results folder. A file that is missing is left empty (a run that just
    /// started has no history yet); one that does not read is an error naming it.
    pub fn read(dir: &Path) -> Result<RunFiles> {
        let stamp = stamp(dir);
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "run".into());
        let csv = dir.join("history.csv");
        let history = if csv.exists() { history::read(&csv)? } else { Vec::new() };
        let genes = champion_genes(&dir.join("champions"), &mut |_| {})?;
        let summary = read_json(&dir.join("summary.json"))?;
        let in_flight = read_json(&dir.join("progress.json"))?.and_then(|v| serde_json::from_value(v).ok());
        Ok(RunFiles { name, dir: dir.to_path_buf(), history, genes, summary, in_flight, stamp })
    }

    /// The last generation with a history row.
    pub fn last_generation(&self) -> Option<u32> {
        self.history.last().map(|r| r.generation)
    }
}

fn read_json(path: &Path) -> Result<Option<serde_json::Value>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(serde_json::from_str(&text).with_context(|| format!("{}: not JSON", path.display()))?)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("{}: cannot read", path.display())),
    }
}

/// The genes of every `gen-NNNN.toml` in `dir`, by generation, and their schema (that of the
/// first file; a file of another schema, or one that does not load, is skipped and `skipped`
/// hears why). None when there is no such file.
pub fn champion_genes(dir: &Path, skipped: &mut dyn FnMut(String)) -> Result<Option<ChampionGenes>> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Ok(None) };
    let mut files: Vec<(u32, PathBuf)> = Vec::new();
    for entry in entries {
        let path = entry.with_context(|| format!("{}: cannot list", dir.display()))?.path();
        let generation = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_prefix("gen-")?.strip_suffix(".toml")?.parse::<u32>().ok());
        if let Some(g) = generation {
            files.push((g, path));
        }
    }
    files.sort();
    let mut schema: Option<&'static Schema> = None;
    let mut points = Vec::with_capacity(files.len());
    for (g, path) in files {
        let weights = match load_any_table(&path) {
            Ok(w) => w,
            Err(e) => {
                skipped(format!("{e:#}"));
                continue;
            }
        };
        let s = *schema.get_or_insert(weights.schema());
        if !std::ptr::eq(s, weights.schema()) {
            skipped(format!(
                "{}: {}/{} weights in a run of {}/{}",
                path.display(),
                weights.schema().game,
                weights.schema().eval,
                s.game,
                s.eval
            ));
            continue;
        }
        points.push((g, weights.values().to_vec()));
    }
    Ok(schema.map(|s| (s, points)))
}

/// Reads a weight table whose `[meta] game` names its game (a run's champions): whatever
/// game the run played.
fn load_any_table(path: &Path) -> Result<Weights> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))?;
    let table: toml::Table = text.parse().with_context(|| format!("{}: not valid TOML", path.display()))?;
    let Some(name) = table.get("meta").and_then(|m| m.get("game")).and_then(|g| g.as_str()) else {
        anyhow::bail!("{}: [meta] names no game", path.display());
    };
    let game = crate::registry::find(name).with_context(|| path.display().to_string())?;
    let schemas: Vec<&'static Schema> = game.evaluations().iter().map(|e| e.schema).collect();
    Ok(Weights::parse(&text, &path.display().to_string(), &schemas)?.0)
}

/// The runs under a results folder (its subfolders that are runs), by name; or the folder
/// itself when it is one run's.
pub fn list_runs(root: &Path) -> Vec<PathBuf> {
    if is_run(root) {
        return vec![root.to_path_buf()];
    }
    let mut runs: Vec<PathBuf> = std::fs::read_dir(root)
        .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir() && is_run(p)).collect())
        .unwrap_or_default();
    runs.sort();
    runs
}
