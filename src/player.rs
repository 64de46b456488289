//! Players from the command line and configs: weight arguments (files, run folders, built-in
//! tables) resolved for one game of the registry.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use rand::SeedableRng;

use crate::arena::outside::params::Params;
use crate::arena::outside::spec::MAX_PACE_MS;
use crate::arena::outside::{is_outside, EngineSpec, OutsideEngine, SpecOptions};
use crate::arena::player::Player;
use crate::arena::validation::ValidationConfig;
use crate::core::limits::Limits;
use crate::core::settings::{EngineSettings, SearchKind};
use crate::core::weights::{Meta, Schema, Weights};
use crate::ga::config::EvolveConfig;
use crate::games::BuiltIn;
use crate::registry::GameRef;
use crate::spsa::SpsaConfig;
use crate::tuner::lineup::{Anchor, Lineup, Opponent};
use crate::tuner::outside::OutsideConfig;

/// Resolves a weight argument for `game`: a file path (TOML, or JSON as `export` writes it), a
/// run's folder (its champion), or a built-in name — `best` (the best table shipped for the
/// game, its [`Descriptor::best_weights`](crate::games::Descriptor::best_weights); with an
/// `eval` whose schema is not the shipped table's, that evaluation's hand table), `defaults`
/// (the hand-set table of the evaluation) or `random` / `random:SEED` (uniform in every
/// weight's bounds).
///
/// `eval` is the evaluation asked for on the command line, if any. A file names its own in
/// `[meta] eval`; asking for another is an error, and asking for none takes the file's. A file
/// of another game is an error. The evaluation played is returned with the table.
pub fn load_weights(spec: &str, eval: Option<&str>, game: GameRef) -> Result<(Weights, Meta, &'static str)> {
    let evaluation = match eval {
        Some(name) => game.evaluation(name)?,
        None => game.default_evaluation(),
    };
    if spec == "best" {
        let Some(BuiltIn { path: file, text }) = game.best_weights() else {
            return Ok((evaluation.schema.defaults(), Meta::default(), evaluation.name));
        };
        let (weights, meta) = Weights::parse(text, file, &schemas_of(game))?;
        return Ok(match eval {
            None => {
                let eval = evaluation_of(game, &weights);
                (weights, meta, eval)
            }
            Some(_) if std::ptr::eq(weights.schema(), evaluation.schema) => (weights, meta, evaluation.name),
            // The shipped table is another evaluation's: the best of the one asked for is its
            // hand table (`play --game gomoku --eval tuple6` plays as before the cell-pairs
            // table was shipped).
            Some(_) => (evaluation.schema.defaults(), Meta::default(), evaluation.name),
        });
    }
    if spec == "defaults" {
        return Ok((evaluation.schema.defaults(), Meta::default(), evaluation.name));
    }
    if let Some(rest) = spec.strip_prefix("random") {
        let seed: u64 = match rest.strip_prefix(':') {
            Some(s) => s.parse().with_context(|| format!("`{spec}`: expected random:SEED with SEED a whole number"))?,
            None if rest.is_empty() => 1,
            None => bail!("`{spec}`: expected `random` or `random:SEED`"),
        };
        return Ok((random_weights(evaluation.schema, seed), Meta::default(), evaluation.name));
    }
    let path = Path::new(spec);
    if !path.exists() {
        bail!("{spec}: no such weight file (or use the built-in names `best`, `defaults`, `random`, `random:SEED`)");
    }
    let file = if path.is_dir() { run_champion(path)? } else { path.to_path_buf() };
    let choices = match eval {
        Some(_) => vec![evaluation.schema],
        None => schemas_of(game),
    };
    let (weights, meta) = Weights::load(&file, &choices)?;
    let eval = match eval {
        Some(_) => evaluation.name,
        None => evaluation_of(game, &weights),
    };
    Ok((weights, meta, eval))
}

/// The evaluation of `game` whose schema a loaded table has.
fn evaluation_of(game: GameRef, weights: &Weights) -> &'static str {
    game.evaluations()
        .iter()
        .find(|e| std::ptr::eq(e.schema, weights.schema()))
        .map(|e| e.name)
        .expect("the table's schema is one of the game's")
}

/// The weight schemas of a game, the default evaluation's first, each once.
pub fn schemas_of(game: GameRef) -> Vec<&'static Schema> {
    let mut out: Vec<&'static Schema> = Vec::new();
    for e in game.evaluations() {
        if !out.iter().any(|s| std::ptr::eq(*s, e.schema)) {
            out.push(e.schema);
        }
    }
    out
}

/// A player of `game` from a weight argument or an outside engine's `cmd:...` (`NAME=SPEC`
/// names it) and engine settings; without limits in the settings it searches `default_limits`
/// of its search.
pub fn player_from(spec: &str, engine: &EngineSettings, game: GameRef) -> Result<Player> {
    player_with(spec, engine, &SpecOptions::default(), game)
}

/// [`player_from`], with options for an outside engine given beside its text
/// (`--a-protocol`, ...); they are an error for any other player.
pub fn player_with(spec: &str, engine: &EngineSettings, outside: &SpecOptions, game: GameRef) -> Result<Player> {
    player_keeping(spec, engine, outside, game, &[])
}

/// [`player_with`]; a table's `[engine]` (the settings it was tuned with) applies except the
/// settings given on the command line and those in `kept` (a side's own overrides).
pub fn player_keeping(
    spec: &str,
    engine: &EngineSettings,
    outside: &SpecOptions,
    game: GameRef,
    kept: &[&str],
) -> Result<Player> {
    let (name, spec) = split_name(spec);
    if is_outside(spec) {
        return outside_player(name, spec, engine, outside, game);
    }
    if !outside.is_empty() {
        bail!(
            "`{spec}` is not an outside engine (cmd:...): the protocol, directory, init and log options do not apply"
        );
    }
    let name = name.unwrap_or_else(|| player_name(spec));
    let (weights, meta, eval) = load_weights(spec, engine.eval.as_deref(), game)?;
    let engine = with_table_engine(engine, &meta, spec, kept)?;
    if engine.search_threads > 1 && engine.search != SearchKind::Pvs {
        bail!(
            "--search-threads {}: only the pvs search runs on several threads (this player's is {})",
            engine.search_threads,
            engine.search.name()
        );
    }
    let settings = EngineSettings { eval: Some(eval.to_string()), ..engine.clone() };
    let limits = engine.limits_or(default_limits(settings.search));
    Ok(Player::new(name, weights, settings, limits))
}

/// `engine` with a table's `[engine]` applied (the settings it was tuned and validated with),
/// except the settings given on the command line and those in `kept`.
pub fn with_table_engine(engine: &EngineSettings, meta: &Meta, spec: &str, kept: &[&str]) -> Result<EngineSettings> {
    let Some(table) = &meta.engine else { return Ok(engine.clone()) };
    let given = |key: &str| kept.contains(&key) || crate::core::settings::given_on_command_line(key);
    engine.with_table_engine(table, &given).map_err(|e| anyhow::anyhow!("{spec}: {e}"))
}

/// The `[engine]` of the table a player argument loads, if it is a table that has one.
pub fn table_engine_of(spec: &str, eval: Option<&str>, game: GameRef) -> Option<toml::Table> {
    let (_, spec) = split_name(spec);
    if is_outside_player(spec) || is_built_in(spec) {
        return None;
    }
    load_weights(spec, eval, game).ok()?.1.engine
}

/// Whether a player argument names a built-in table without settings of its own (`defaults`,
/// `random`, `random:SEED`).
pub fn is_built_in(spec: &str) -> bool {
    let (_, spec) = split_name(spec);
    spec == "defaults" || spec == "random" || spec.starts_with("random:")
}

/// A fixed opponent of a tuning run (an anchor, a validation opponent): a weight table played
/// with the run's engine settings and evaluation, or an outside engine (`cmd:...`), which
/// takes the settings' time per move and carries the evaluation's default table.
pub fn fixed_opponent(spec: &str, engine: &EngineSettings, eval: &str, game: GameRef) -> Result<Player> {
    let schema = game.evaluation(eval)?.schema;
    let settings = EngineSettings { eval: Some(eval.to_string()), ..engine.clone() };
    if is_outside_player(spec) {
        let p = player_with(spec, &settings, &SpecOptions::default(), game)?;
        return Ok(Player { weights: schema.defaults(), ..p });
    }
    let (w, meta, _) = load_weights(spec, Some(eval), game)?;
    // A table tuned with other engine settings plays with them (the run's limits stay).
    let settings = match &meta.engine {
        Some(table) => settings.with_table_engine(table, &|_| false).map_err(|e| anyhow::anyhow!("{spec}: {e}"))?,
        None => settings,
    };
    let limits = settings.limits();
    Ok(Player::new(player_name(spec), Weights::clamped(schema, w.values().to_vec()), settings, limits))
}

/// The players of a GA run: its individuals on the config's engine (or the outside engine
/// being tuned), its anchors and its validation opponents (`[validation] opponents`, then
/// `compare` from the command line), resolved from their texts before any game, so that a bad
/// one fails at once.
pub fn evolve_lineup(config: &EvolveConfig, compare: &[String]) -> Result<Lineup> {
    let anchors = &config.hall_of_fame.anchors;
    lineup(&evolve_tuned(config)?, anchors, Some((&config.validation, compare)))
}

/// The players a shard of a GA run's generation needs: its individuals and anchors, not the
/// validation's opponents (which the machine playing it may not have).
pub fn shard_lineup(config: &EvolveConfig) -> Result<Lineup> {
    lineup(&evolve_tuned(config)?, &config.hall_of_fame.anchors, None)
}

/// The players of an SPSA run (no anchors), as [`evolve_lineup`].
pub fn spsa_lineup(config: &SpsaConfig, compare: &[String]) -> Result<Lineup> {
    let tuned = Tuned {
        game: config.game()?,
        eval: &config.eval,
        engine: &config.engine,
        outside: config.outside.as_ref(),
        hang: Duration::from_millis(config.settings().hang_ms),
    };
    lineup(&tuned, &[], Some((&config.validation, compare)))
}

/// What a tuning run tunes and how its individuals play.
struct Tuned<'a> {
    game: GameRef,
    /// The evaluation tuned (without `outside`).
    eval: &'a str,
    engine: &'a EngineSettings,
    /// The outside engine whose parameters are tuned.
    outside: Option<&'a OutsideConfig>,
    /// How long an outside engine has to answer at its start.
    hang: Duration,
}

fn evolve_tuned(config: &EvolveConfig) -> Result<Tuned<'_>> {
    Ok(Tuned {
        game: config.game()?,
        eval: &config.eval,
        engine: &config.engine,
        outside: config.outside.as_ref(),
        hang: Duration::from_millis(config.games.hang_ms),
    })
}

/// The players of a tuning run.
fn lineup(tuned: &Tuned, anchors: &[String], validation: Option<(&ValidationConfig, &[String])>) -> Result<Lineup> {
    let game = tuned.game;
    let mut lineup = match tuned.outside {
        None => {
            let schema = game.evaluation(tuned.eval)?.schema;
            Lineup::new(schema, EngineSettings { eval: Some(tuned.eval.to_string()), ..tuned.engine.clone() })
        }
        Some(o) => {
            let engine = tuned_engine(o, game)?;
            engine.warm_up(tuned.hang).map_err(|e| anyhow::anyhow!("[outside] `{}`: {e}", o.command))?;
            let time_ms = tuned.engine.time_ms.filter(|&t| t < crate::core::limits::MAX_TIME_MS);
            Lineup::outside(o.schema(game.name())?, engine, time_ms)
        }
    };
    for spec in anchors {
        let (player, _) =
            fixed_player(spec, &lineup, tuned).with_context(|| format!("[hall_of_fame] anchors: `{spec}`"))?;
        lineup.anchors.push(Anchor { name: player.name.clone(), player });
    }
    if let Some((validation, compare)) = validation.filter(|(v, _)| v.pairs > 0) {
        for spec in validation.opponents.iter().chain(compare) {
            let (player, values) =
                fixed_player(spec, &lineup, tuned).with_context(|| format!("validation opponent `{spec}`"))?;
            lineup.validation.push(Opponent { player, spec: spec.clone(), values });
        }
        // Outside engines must be able to start from the validation's openings.
        let champion = lineup.individual("champion".into(), lineup.schema.defaults().values());
        let players: Vec<&Player> = lineup.validation.iter().map(|o| &o.player).chain([&champion]).collect();
        if players.iter().any(|p| p.outside.is_some()) {
            let suite = validation.suite(game.arena())?;
            crate::arena::player::check_openings(&players, &suite.openings)
                .map_err(|e| anyhow::anyhow!("[validation] opponents: {e}"))?;
        }
    }
    Ok(lineup)
}

/// The outside engine of `[outside]`, its processes told each individual's values.
pub fn tuned_engine(o: &OutsideConfig, game: GameRef) -> Result<Arc<OutsideEngine>> {
    let schema = o.schema(game.name())?;
    let options = SpecOptions {
        protocol: Some(o.protocol(game.name())?),
        dir: o.dir.clone(),
        init: o.init.clone(),
        log: o.log.clone(),
        pace_ms: o.pace,
        env: o.env.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
    };
    if o.pace.is_some_and(|ms| ms > MAX_PACE_MS) {
        bail!("[outside] pace: expected at most {MAX_PACE_MS} (ms)");
    }
    let spec =
        EngineSpec::parse(&format!("{}{}", crate::arena::outside::spec::PREFIX, o.command), &options, game.name())
            .map_err(|e| anyhow::anyhow!("[outside] command: {e}"))?;
    let params = Params::new(schema, o.format, o.param_line.clone(), o.param_env.clone(), &spec, schema.eval);
    Ok(Arc::new(OutsideEngine::tuned(spec, params, schema.eval).map_err(anyhow::Error::msg)?))
}

/// A fixed opponent of a tuning run (an anchor, a validation opponent), with its values
/// when it is one of the run's individuals.
///
/// Tuning an evaluation of evotune's: a table of it on the run's engine settings, or an
/// outside engine (`cmd:...`). Tuning an outside engine (`[outside]`): `defaults`,
/// `random[:SEED]` and tables of its parameters are that engine playing those values;
/// `cmd:...` another outside engine; any other weight table of the game is evotune's own
/// engine playing it with the run's engine settings.
fn fixed_player(spec: &str, lineup: &Lineup, tuned: &Tuned) -> Result<(Player, Option<Vec<i32>>)> {
    let game = tuned.game;
    let Some(_) = tuned.outside else {
        return Ok((fixed_opponent(spec, tuned.engine, tuned.eval, game)?, None));
    };
    let (name, text) = split_name(spec);
    if is_outside(text) {
        let p = player_with(spec, tuned.engine, &SpecOptions::default(), game)?;
        return Ok((p, None));
    }
    let schema = lineup.schema;
    let values: Option<Vec<i32>> = if text == "defaults" {
        Some(schema.defaults().values().to_vec())
    } else if let Some(rest) = text.strip_prefix("random") {
        let seed: u64 = match rest.strip_prefix(':') {
            Some(s) => s.parse().with_context(|| format!("`{text}`: expected random:SEED with SEED a whole number"))?,
            None if rest.is_empty() => 1,
            None => bail!("`{text}`: expected `random` or `random:SEED`"),
        };
        Some(random_weights(schema, seed).values().to_vec())
    } else {
        None
    };
    let name = name.unwrap_or_else(|| player_name(text));
    if let Some(values) = values {
        return Ok((lineup.individual(name, &values), Some(values)));
    }
    let path = Path::new(text);
    if !path.is_file() {
        bail!(
            "{text}: no such weight file (or use `defaults`, `random`, `random:SEED`, or an outside engine `cmd:...`)"
        );
    }
    // A table of the engine's own parameters, or else one of evotune's evaluations.
    match Weights::load(path, &[schema]) {
        Ok((w, _)) => Ok((lineup.individual(name, w.values()), Some(w.values().to_vec()))),
        Err(own) => {
            let engine = EngineSettings { eval: None, ..tuned.engine.clone() };
            player_with(spec, &engine, &SpecOptions::default(), game).map(|p| (p, None)).map_err(|evotune| {
                anyhow::anyhow!(
                    "neither a table of the tuned engine's parameters ({own}) nor one of evotune's ({evotune:#})"
                )
            })
        }
    }
}

/// Whether a player's text (`NAME=` or not) is an outside engine's.
pub fn is_outside_player(spec: &str) -> bool {
    is_outside(split_name(spec).1)
}

/// `NAME=SPEC` into its name and spec. A file whose name holds `=` is a spec, and an outside
/// engine's text starts with `cmd:`, its options after it holding `=`.
fn split_name(spec: &str) -> (Option<String>, &str) {
    if is_outside(spec) {
        return (None, spec);
    }
    match spec.split_once('=') {
        Some((n, s)) if !n.is_empty() && !Path::new(spec).exists() => (Some(n.to_string()), s),
        _ => (None, spec),
    }
}

/// A player whose moves an outside engine makes. Of the engine settings only the time per
/// move applies (the referee's budget); the stand-in for "as long as the clock allows" that a
/// command under a clock sets is no budget of its own (the clock bounds the move).
fn outside_player(
    name: Option<String>,
    spec: &str,
    engine: &EngineSettings,
    options: &SpecOptions,
    game: GameRef,
) -> Result<Player> {
    let spec = EngineSpec::parse(spec, options, game.name()).map_err(anyhow::Error::msg)?;
    let name = name.unwrap_or_else(|| spec.default_name());
    let pool = OutsideEngine::new(spec, &name).map_err(anyhow::Error::msg)?;
    let time_ms = engine.time_ms.filter(|&t| t < crate::core::limits::MAX_TIME_MS);
    Ok(Player::outside(name, Arc::new(pool), game.default_evaluation().schema.defaults(), time_ms))
}

/// The budget of a game move when the command line gives none: depth 3 for the alpha-beta
/// searches (a fraction of a second per move), 2000 playouts for MCTS.
pub fn default_limits(search: crate::core::settings::SearchKind) -> Limits {
    match search {
        crate::core::settings::SearchKind::Mcts => Limits::nodes(2000),
        _ => Limits::depth(3),
    }
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
pub fn random_weights(schema: &'static Schema, seed: u64) -> Weights {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let values = schema.specs.iter().map(|s| rand::Rng::random_range(&mut rng, s.min..=s.max)).collect();
    Weights::clamped(schema, values)
}

/// A display name for a weight argument: the file stem, or the built-in name.
pub fn player_name(spec: &str) -> String {
    if Path::new(spec).exists() {
        Path::new(spec).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| spec.to_string())
    } else {
        spec.to_string()
    }
}
