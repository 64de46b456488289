//! A player: a weight table plus the evaluation, search and limits it plays with. Shared by
//! every command that plays games (bestmove, play, selfplay, match, tournament, evolve).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use rand::SeedableRng;

use crate::game::connect::eval::EvalKind;
use crate::game::connect::Rules;
use crate::search::{EngineConfig, Limits};
use crate::weights::{Meta, Weights};

/// Resolves a weight argument: a file path (TOML, or JSON as `export` writes it), a run's
/// folder (its champion), or a built-in name — `defaults` (the hand-set table of the
/// evaluation) or `random` / `random:SEED` (uniform in every weight's bounds).
///
/// `eval` is the evaluation asked for on the command line, if any. A file names its own in
/// `[meta] eval`; asking for another is an error, and asking for none takes the file's. The
/// result's evaluation is returned with the table.
pub fn load_weights(spec: &str, eval: Option<EvalKind>, rules: Rules) -> Result<(Weights, Meta, EvalKind)> {
    let builtin_eval = eval.unwrap_or(EvalKind::Roads);
    let schema = builtin_eval.schema(rules);
    if spec == "defaults" {
        return Ok((schema.defaults(), Meta::default(), builtin_eval));
    }
    if let Some(rest) = spec.strip_prefix("random") {
        let seed: u64 = match rest.strip_prefix(':') {
            Some(s) => s.parse().with_context(|| format!("`{spec}`: expected random:SEED with SEED a whole number"))?,
            None if rest.is_empty() => 1,
            None => bail!("`{spec}`: expected `random` or `random:SEED`"),
        };
        return Ok((random_weights(schema, seed), Meta::default(), builtin_eval));
    }
    let path = Path::new(spec);
    if !path.exists() {
        bail!("{spec}: no such weight file (or use the built-in names `defaults`, `random`, `random:SEED`)");
    }
    let file = if path.is_dir() { run_champion(path)? } else { path.to_path_buf() };
    let expected = eval.map(|e| e.schema(rules));
    let (weights, meta) = Weights::load(&file, expected)?;
    if weights.schema().game != rules.game_name() {
        bail!("{spec}: a {} weight table, but this command plays {}", weights.schema().game, rules.game_name());
    }
    let eval = eval.unwrap_or_else(|| EvalKind::of_schema(weights.schema()));
    Ok((weights, meta, eval))
}

/// The champion of a run folder: `results/<run>/champion.toml`, also when given the run's
/// `populations/<run>`.
fn run_champion(dir: &Path) -> Result<PathBuf> {
    let here = dir.join("champion.toml");
    if here.is_file() {
        return Ok(here);
    }
    let beside = dir
        .parent()
        .filter(|p| p.file_name().is_some_and(|n| n == "populations"))
        .and_then(Path::parent)
        .zip(dir.file_name())
        .map(|(root, name)| root.join("results").join(name).join("champion.toml"));
    match beside {
        Some(p) if p.is_file() => Ok(p),
        _ => bail!(
            "{}: a folder without champion.toml; give a weight file, or a run's folder (results/<run>) to take its champion",
            dir.display()
        ),
    }
}

/// A table with every weight drawn uniformly within its bounds.
pub fn random_weights(schema: &'static crate::weights::Schema, seed: u64) -> Weights {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let values = schema.specs.iter().map(|s| rand::Rng::random_range(&mut rng, s.min..=s.max)).collect();
    Weights::clamped(schema, values)
}

/// A named player for matches and tournaments.
#[derive(Clone, Debug)]
pub struct Player {
    pub name: String,
    pub weights: Weights,
    pub engine: EngineConfig,
    pub limits: Limits,
}

impl Player {
    pub fn new(name: impl Into<String>, weights: Weights, engine: EngineConfig, limits: Limits) -> Player {
        Player { name: name.into(), weights, engine, limits }
    }
}

/// A display name for a weight argument: the file stem, or the built-in name.
pub fn player_name(spec: &str) -> String {
    if Path::new(spec).exists() {
        Path::new(spec).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| spec.to_string())
    } else {
        spec.to_string()
    }
}
