//! SPSA's checkpoints: `populations/<run>/batch-NNNN.json`, one per batch, in the tuners'
//! checkpoint format ([`crate::tuner::checkpoint`]): the config as TOML and the
//! [`SpsaState`].

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use crate::spsa::{SpsaConfig, SpsaState};
use crate::tuner::checkpoint::{self as files, Keep, SPSA};

/// Checkpoints kept: the last two (a batch's state holds the whole history).
const KEEP: Keep = Keep { keep_last: 2, keep_every: 0 };

/// A checkpoint as read back.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    pub config: SpsaConfig,
    pub state: SpsaState,
    pub path: PathBuf,
}

/// Writes the checkpoint of `state` (after its `state.history.len()` batches).
pub fn save(dir: &Path, config: &SpsaConfig, state: &SpsaState) -> Result<PathBuf> {
    files::save(dir, SPSA, state.history.len() as u64, config.to_toml(), config.seed, state, None, KEEP)
}

/// The newest checkpoint of a run folder, verified: the checksum, the format, and that the
/// config inside is valid and matches the state.
pub fn load_latest(dir: &Path) -> Result<Loaded> {
    let raw: files::Raw<SpsaState> = files::load_latest(dir, SPSA)?;
    let name = raw.path.display();
    let config = SpsaConfig::parse(&raw.config, &format!("{name} (config inside)"))?;
    if config.seed != raw.seed || raw.state.theta.len() != config.schema()?.len() {
        bail!("{name}: the state does not match the config inside the checkpoint");
    }
    Ok(Loaded { config, state: raw.state, path: raw.path })
}
