//! A player: a weight table plus the evaluation, search and limits it plays with. Shared by
//! every command that plays games (bestmove, play, selfplay, match, tournament, evolve).

use std::path::Path;

use anyhow::{bail, Context, Result};
use rand::SeedableRng;

use crate::game::connect::eval::EvalKind;
use crate::game::connect::Rules;
use crate::search::{EngineConfig, Limits};
use crate::weights::{Meta, Weights};

/// Resolves a weight argument: a file path, or a built-in name — `defaults` (the hand-set
/// table of the evaluation) or `random` / `random:SEED` (uniform in every weight's bounds).
pub fn load_weights(spec: &str, eval: EvalKind, rules: Rules) -> Result<(Weights, Meta)> {
    let schema = eval.schema(rules);
    if spec == "defaults" {
        return Ok((schema.defaults(), Meta::default()));
    }
    if let Some(rest) = spec.strip_prefix("random") {
        let seed: u64 = match rest.strip_prefix(':') {
            Some(s) => s.parse().with_context(|| format!("`{spec}`: expected random:SEED with SEED a whole number"))?,
            None if rest.is_empty() => 1,
            None => bail!("`{spec}`: expected `random` or `random:SEED`"),
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let values = schema.specs.iter().map(|s| rand::Rng::random_range(&mut rng, s.min..=s.max)).collect();
        return Ok((Weights::clamped(schema, values), Meta::default()));
    }
    let path = Path::new(spec);
    if !path.exists() {
        bail!("{spec}: no such weight file (or use the built-in names `defaults`, `random`, `random:SEED`)");
    }
    Ok(Weights::load(path, Some(schema))?)
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
    Path::new(spec).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| spec.to_string())
}
