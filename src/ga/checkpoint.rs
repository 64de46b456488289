//! The GA's checkpoints: `populations/<run>/gen-NNNN.json`, one per generation, in the
//! tuners' checkpoint format ([`crate::tuner::checkpoint`]): the config as TOML and the
//! [`RunState`], with the length of the game records at that generation.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use crate::ga::config::{EvolveConfig, OutputConfig};
use crate::ga::state::RunState;
use crate::tuner::checkpoint::{self as files, Keep, GA};

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
    files::path_for(dir, GA, u64::from(generation))
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
    let keep = Keep { keep_last: output.keep_last, keep_every: output.keep_every };
    files::save(dir, GA, u64::from(state.generation), config.to_toml(), config.seed, state, records_len, keep)
}

/// The checkpoints in a folder, by generation.
pub fn list(dir: &Path) -> Result<Vec<(u32, PathBuf)>> {
    Ok(files::list(dir, GA)?.into_iter().filter_map(|(g, p)| Some((u32::try_from(g).ok()?, p))).collect())
}

/// Reads and verifies a checkpoint: the checksum, the format, and that the config inside is
/// valid and matches the state.
pub fn load(path: &Path) -> Result<Loaded> {
    checked(files::load(path, GA)?)
}

fn checked(raw: files::Raw<RunState>) -> Result<Loaded> {
    let name = raw.path.display();
    let config = EvolveConfig::parse(&raw.config, &format!("{name} (config inside)"))?;
    if config.seed != raw.seed || raw.state.population.len() != config.population {
        bail!("{name}: the state does not match the config inside the checkpoint");
    }
    Ok(Loaded { config, state: raw.state, records_len: raw.records_len, path: raw.path })
}

/// The newest checkpoint of a run folder, verified.
pub fn load_latest(dir: &Path) -> Result<Loaded> {
    checked(files::load_latest(dir, GA)?)
}

/// Whether the folder holds at least one GA checkpoint (a run that can be resumed).
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
        let lineup = crate::ga::evolve::tests::lineup(&config);
        let ev = Evolver::new(&config, &suite, &referee, &lineup).unwrap();
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
        let lineup = crate::ga::evolve::tests::lineup(&config);
        let ev = Evolver::new(&config, &suite, &referee, &lineup).unwrap();
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

    /// `gen-NNNN.json` is JSON (its checksum inside), and checkpoints of the earlier form (a
    /// JSON line, then `checksum <hex>`) still load.
    #[test]
    fn checkpoints_are_json_and_earlier_ones_still_load() {
        let (config, suite, referee) = mock_setup();
        let lineup = crate::ga::evolve::tests::lineup(&config);
        let ev = Evolver::new(&config, &suite, &referee, &lineup).unwrap();
        let state = ev.initial_state().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = save(dir.path(), &config, &state, &OutputConfig::default(), Some(7)).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let doc: serde_json::Value = serde_json::from_str(&text).expect("a checkpoint is a JSON document");
        assert_eq!(doc["body"]["format"], "evotune-checkpoint-2");
        assert_eq!(doc["body"]["state"]["generation"], 0);
        assert!(doc["checksum"].is_string());
        let body = serde_json::to_string(&doc["body"]).unwrap();
        // What evotune wrote before: the same body, then a checksum line.
        let line = format!("{body}\n");
        let earlier = format!("{line}checksum {:016x}\n", crate::fsutil::fnv1a64(line.as_bytes()));
        std::fs::write(&path, earlier).unwrap();
        let l = load(&path).unwrap();
        assert_eq!((l.config, l.state, l.records_len), (config, state, Some(7)));
    }
}
