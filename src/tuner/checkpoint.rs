//! Checkpoints of a tuning run: `populations/<run>/<step>-NNNN.json`, one per step (a GA
//! generation, an SPSA batch), written atomically and verified when read.
//!
//! A checkpoint is a JSON document: `{"checksum":"<16 hex digits>","body":{...}}`, the body
//! holding the run's config (as TOML) and its state, the checksum the FNV-1a hash of the
//! body's bytes as written ([`with_checksum`]). A file cut short or changed fails the check
//! and is refused with a message that names it; it is never used or overwritten silently.
//! Checkpoints of earlier versions (the body, then a last line `checksum <hex>`) still load.
//!
//! The checkpoint is the run's commit point: everything else in the run's folders (the game
//! records, the champion files, the history) is derived from it. It records how long the
//! records file was when it was written, so that a resumed run cuts off the games of a step
//! that was played but never checkpointed instead of writing them twice.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::fsutil::{verify_checksum, with_checksum, write_atomic, ChecksumError};

/// A tuner's kind of checkpoint: its file names and format tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kind {
    /// `gen` for `gen-0007.json`.
    pub prefix: &'static str,
    /// The format tag inside, checked when read.
    pub format: &'static str,
}

/// The GA's: one per generation.
pub const GA: Kind = Kind { prefix: "gen", format: "evotune-checkpoint-2" };
/// SPSA's: one per batch.
pub const SPSA: Kind = Kind { prefix: "batch", format: "evotune-spsa-checkpoint-2" };
/// Every kind, for [`exists_in`].
const KINDS: [Kind; 2] = [GA, SPSA];

/// Which checkpoints are kept: the last `keep_last`, every `keep_every`-th (0: none of
/// those) and the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keep {
    pub keep_last: usize,
    pub keep_every: u32,
}

#[derive(Serialize, Deserialize)]
struct Body<S> {
    format: String,
    /// The config the run was started with, as TOML.
    config: String,
    /// The run's RNG state: every stream of step k is derived from (seed, k, purpose), so the
    /// seed and the state's step count are the whole of it.
    seed: u64,
    state: S,
    /// Bytes of the run's records file that belong to the steps done (None: the run keeps no
    /// records, or the checkpoint predates this field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    records_len: Option<u64>,
}

/// A checkpoint as read back, its config still text.
#[derive(Clone, Debug, PartialEq)]
pub struct Raw<S> {
    pub config: String,
    pub seed: u64,
    pub state: S,
    pub records_len: Option<u64>,
    pub path: PathBuf,
}

/// The checkpoint file of step `step`.
pub fn path_for(dir: &Path, kind: Kind, step: u64) -> PathBuf {
    dir.join(format!("{}-{step:04}.json", kind.prefix))
}

/// Writes the checkpoint after step `step` and prunes old ones as `keep` says.
#[allow(clippy::too_many_arguments)]
pub fn save<S: Serialize>(
    dir: &Path,
    kind: Kind,
    step: u64,
    config: String,
    seed: u64,
    state: &S,
    records_len: Option<u64>,
    keep: Keep,
) -> Result<PathBuf> {
    let body = Body { format: kind.format.into(), config, seed, state, records_len };
    let text = with_checksum(serde_json::to_string(&body).context("checkpoint to JSON")?);
    let path = path_for(dir, kind, step);
    write_atomic(&path, text.as_bytes()).with_context(|| format!("{}: cannot write checkpoint", path.display()))?;
    prune(dir, kind, step, keep)?;
    Ok(path)
}

fn prune(dir: &Path, kind: Kind, current: u64, keep: Keep) -> Result<()> {
    for (g, p) in list(dir, kind)? {
        let recent = current.saturating_sub(g) < keep.keep_last as u64;
        let milestone = keep.keep_every > 0 && g % u64::from(keep.keep_every) == 0;
        if !recent && !milestone && g != 0 {
            std::fs::remove_file(&p).with_context(|| format!("{}: cannot remove old checkpoint", p.display()))?;
        }
    }
    Ok(())
}

/// The checkpoints of a kind in a folder, by step.
pub fn list(dir: &Path, kind: Kind) -> Result<Vec<(u64, PathBuf)>> {
    let mut v = Vec::new();
    let prefix = format!("{}-", kind.prefix);
    for e in std::fs::read_dir(dir).with_context(|| format!("{}: cannot list checkpoints", dir.display()))? {
        let p = e?.path();
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if let Some(g) = name.strip_prefix(&prefix).and_then(|r| r.strip_suffix(".json")).and_then(|n| n.parse().ok()) {
            v.push((g, p));
        }
    }
    v.sort();
    Ok(v)
}

/// Reads and verifies a checkpoint's checksum and format; the caller checks its config.
pub fn load<S: DeserializeOwned>(path: &Path, kind: Kind) -> Result<Raw<S>> {
    let name = path.display();
    let bytes = std::fs::read(path).with_context(|| format!("{name}: cannot read checkpoint"))?;
    let text = String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{name}: corrupt checkpoint (not UTF-8 text)"))?;
    let body = match verify_checksum(&text) {
        Ok(body) => body,
        Err(ChecksumError::Missing) => bail!(
            "{name}: truncated or corrupt checkpoint (no checksum, or the file ends early); delete it to resume \
             from the one before"
        ),
        Err(ChecksumError::Mismatch) => {
            bail!("{name}: corrupt checkpoint (checksum mismatch); delete it to resume from the one before")
        }
    };
    let body: Body<S> = serde_json::from_str(body).with_context(|| format!("{name}: unreadable checkpoint"))?;
    if body.format != kind.format {
        bail!("{name}: checkpoint format `{}`, this evotune reads `{}`", body.format, kind.format);
    }
    Ok(Raw {
        config: body.config,
        seed: body.seed,
        state: body.state,
        records_len: body.records_len,
        path: path.to_path_buf(),
    })
}

/// The newest checkpoint of a kind in a run folder, verified.
pub fn load_latest<S: DeserializeOwned>(dir: &Path, kind: Kind) -> Result<Raw<S>> {
    let all = list(dir, kind)?;
    let Some((_, path)) = all.last() else {
        bail!(
            "{}: no checkpoints ({}-NNNN.json) here; give the run's populations/<run> folder",
            dir.display(),
            kind.prefix
        )
    };
    load(path, kind)
}

/// Whether the folder holds at least one checkpoint of any tuner (a run that can be resumed).
pub fn exists_in(dir: &Path) -> bool {
    KINDS.iter().any(|&k| list(dir, k).is_ok_and(|l| !l.is_empty()))
}
