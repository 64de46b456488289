//! Checkpoints: `populations/<run>/gen-NNNN.json`, one per generation, written atomically and
//! verified when read.
//!
//! A checkpoint is the run's config (as TOML) and its [`RunState`] as JSON, followed by a last
//! line `checksum <16 hex digits>`: the FNV-1a hash of every byte before that line. A file cut
//! short loses its checksum line or fails it, and is refused with a message that names it;
//! it is never used or overwritten silently.
//!
//! The checkpoint is the run's commit point: everything else in the run's folders (the game
//! records, the champion files, history.csv) is derived from it. It records how long the
//! records file was when it was written, so that a resumed run cuts off the games of a
//! generation that was played but never checkpointed instead of writing them twice.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use crate::fsutil::{verify_checksum, with_checksum, write_atomic, ChecksumError};
use crate::ga::config::{EvolveConfig, OutputConfig};
use crate::ga::state::RunState;

const FORMAT: &str = "evotune-checkpoint-2";

#[derive(Serialize, Deserialize)]
struct Body {
    format: String,
    /// The config the run was started with, as TOML.
    config: String,
    /// The run's RNG state: every stream of generation g is derived from (seed, g, purpose),
    /// so the seed and `state.generation` are the whole of it.
    seed: u64,
    state: RunState,
    /// Bytes of `results/<run>/games.jsonl` that belong to the generations done (None: the
    /// run keeps no records, or the checkpoint predates this field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    records_len: Option<u64>,
}

/// A checkpoint as read back.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    pub config: EvolveConfig,
    pub state: RunState,
    pub records_len: Option<u64>,
    pub path: PathBuf,
}

/// The checkpoint file of the run after `generation` generations.
pub fn path_for(dir: &Path, generation: u32) -> PathBuf {
    dir.join(format!("gen-{generation:04}.json"))
}

/// Writes the checkpoint of `state` and prunes old ones (keeping the last `keep_last` and
/// every `keep_every`-th). `records_len`: the length of the run's records file, already
/// flushed to disk.
pub fn save(
    dir: &Path,
    config: &EvolveConfig,
    state: &RunState,
    output: &OutputConfig,
    records_len: Option<u64>,
) -> Result<PathBuf> {
    let body =
        Body { format: FORMAT.into(), config: config.to_toml(), seed: config.seed, state: state.clone(), records_len };
    let text = with_checksum(serde_json::to_string(&body).context("checkpoint to JSON")?);
    let path = path_for(dir, state.generation);
    write_atomic(&path, text.as_bytes()).with_context(|| format!("{}: cannot write checkpoint", path.display()))?;
    prune(dir, state.generation, output)?;
    Ok(path)
}

fn prune(dir: &Path, current: u32, output: &OutputConfig) -> Result<()> {
    for (g, p) in list(dir)? {
        let recent = current.saturating_sub(g) < output.keep_last as u32;
        let milestone = output.keep_every > 0 && g % output.keep_every == 0;
        if !recent && !milestone && g != 0 {
            std::fs::remove_file(&p).with_context(|| format!("{}: cannot remove old checkpoint", p.display()))?;
        }
    }
    Ok(())
}

/// The checkpoints in a folder, by generation.
pub fn list(dir: &Path) -> Result<Vec<(u32, PathBuf)>> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir).with_context(|| format!("{}: cannot list checkpoints", dir.display()))? {
        let p = e?.path();
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if let Some(g) = name.strip_prefix("gen-").and_then(|r| r.strip_suffix(".json")).and_then(|n| n.parse().ok()) {
            v.push((g, p));
        }
    }
    v.sort();
    Ok(v)
}

/// Reads and verifies a checkpoint: the checksum, the format, and that the config inside is
/// valid and matches the state.
pub fn load(path: &Path) -> Result<Loaded> {
    let name = path.display();
    let bytes = std::fs::read(path).with_context(|| format!("{name}: cannot read checkpoint"))?;
    let text = String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{name}: corrupt checkpoint (not UTF-8 text)"))?;
    let body = match verify_checksum(&text) {
        Ok(body) => body,
        Err(ChecksumError::Missing) => bail!(
            "{name}: truncated or corrupt checkpoint (no checksum line at the end); delete it to resume from the one before"
        ),
        Err(ChecksumError::Mismatch) => {
            bail!("{name}: corrupt checkpoint (checksum mismatch); delete it to resume from the one before")
        }
    };
    let body: Body = serde_json::from_str(body).with_context(|| format!("{name}: unreadable checkpoint"))?;
    if body.format != FORMAT {
        bail!("{name}: checkpoint format `{}`, this evotune reads `{FORMAT}`", body.format);
    }
    let config = EvolveConfig::parse(&body.config, &format!("{name} (config inside)"))?;
    if config.seed != body.seed || body.state.population.len() != config.population {
        bail!("{name}: the state does not match the config inside the checkpoint");
    }
    Ok(Loaded { config, state: body.state, records_len: body.records_len, path: path.to_path_buf() })
}

/// The newest checkpoint of a run folder, verified.
pub fn load_latest(dir: &Path) -> Result<Loaded> {
    let all = list(dir)?;
    let Some((_, path)) = all.last() else {
        bail!("{}: no checkpoints (gen-NNNN.json) here; give the run's populations/<run> folder", dir.display())
    };
    load(path)
}

/// Whether the folder holds at least one checkpoint (a run that can be resumed).
pub fn exists_in(dir: &Path) -> bool {
    list(dir).is_ok_and(|l| !l.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ga::evolve::tests::mock_setup;
    use crate::ga::evolve::Evolver;
    use crate::report::progress::{Progress, ProgressMode};

    #[test]
    fn round_trip_and_pruning() {
        let (config, suite, referee) = mock_setup();
        let ev = Evolver::new(&config, &suite, &referee).unwrap();
        let mut state = ev.initial_state().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let output = OutputConfig { keep_last: 2, keep_every: 3, ..OutputConfig::default() };
        let p = Progress::new("t", 0, "games", ProgressMode::Hidden);
        for _ in 0..7 {
            ev.play_generation(&mut state, &p).unwrap();
            save(dir.path(), &config, &state, &output, Some(u64::from(state.generation) * 10)).unwrap();
        }
        let kept: Vec<u32> = list(dir.path()).unwrap().into_iter().map(|(g, _)| g).collect();
        assert_eq!(kept, vec![3, 6, 7]);
        let l = load_latest(dir.path()).unwrap();
        assert_eq!((l.config, l.state, l.records_len), (config, state, Some(70)));
        assert!(l.path.ends_with("gen-0007.json"));
    }

    #[test]
    fn corrupt_and_truncated_checkpoints_are_refused() {
        let (config, suite, referee) = mock_setup();
        let ev = Evolver::new(&config, &suite, &referee).unwrap();
        let state = ev.initial_state().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = save(dir.path(), &config, &state, &OutputConfig::default(), None).unwrap();
        let good = std::fs::read(&path).unwrap();
        std::fs::write(&path, &good[..good.len() / 2]).unwrap();
        let e = format!("{:#}", load(&path).unwrap_err());
        assert!(e.contains("gen-0000.json") && (e.contains("truncated") || e.contains("corrupt")), "{e}");
        let mut flipped = good.clone();
        flipped[40] ^= 1;
        std::fs::write(&path, &flipped).unwrap();
        let e = format!("{:#}", load(&path).unwrap_err());
        assert!(e.contains("checksum mismatch"), "{e}");
        std::fs::write(&path, b"").unwrap();
        assert!(load(&path).is_err());
        std::fs::write(&path, &good).unwrap();
        assert!(load(&path).is_ok());
    }
}
