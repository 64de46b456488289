//! The commands behind the command line: each turns validated options into work and output.
//! Shared here: thread pools, players from command-line options, opening suites.

pub mod bench;
pub mod bestmove;
pub mod evolve;
pub mod export;
pub mod matches;
pub mod openings;
pub mod play;
pub mod plot;
pub mod reproduce;
pub mod spsa;
pub mod tournament;

use anyhow::{Context, Result};

use crate::arena::game::GameSettings;
use crate::arena::openings::{OpeningConfig, OpeningSuite, Openings};
use crate::cli::{EngineArgs, OpeningArgs};
use crate::game::connect::eval::EvalKind;
use crate::game::connect::Rules;
use crate::player::{load_weights, player_name, Player};
use crate::report::progress::Progress;
use crate::search::{Limits, SearchKind};

/// The budget of a game move when the command line gives none: depth 3 for the alpha-beta
/// searches (a fraction of a second per move), 2000 playouts for MCTS.
pub fn default_limits(search: SearchKind) -> Limits {
    match search {
        SearchKind::Mcts => Limits::nodes(2000),
        _ => Limits::depth(3),
    }
}

/// Splits "j10 k11k9" (or "j10,k11k9") into moves.
pub fn split_moves(text: &str) -> Vec<&str> {
    text.split(|c: char| c.is_whitespace() || c == ',').filter(|s| !s.is_empty()).collect()
}

/// A rayon pool of `threads` workers (default: all cores).
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        anyhow::ensure!(n >= 1, "--threads must be at least 1");
        b = b.num_threads(n);
    }
    b.build().context("cannot start worker threads")
}

/// A player from a weight argument (`NAME=SPEC` names it) and engine options.
pub fn player_from(spec: &str, engine: &EngineArgs, rules: Rules) -> Result<Player> {
    let (name, spec) = match spec.split_once('=') {
        Some((n, s)) if !n.is_empty() && !std::path::Path::new(spec).exists() => (n.to_string(), s),
        _ => (player_name(spec), spec),
    };
    let (weights, _, eval) = load_weights(spec, engine.eval, rules)?;
    let config = engine.engine_config(eval);
    Ok(Player::new(name, weights, config, engine.limits_or(default_limits(config.search))))
}

/// The opening suite and game settings of a command.
///
/// A generated suite has at least as many openings as the command plays pairs (fixed-depth
/// engines replay a repeated opening move for move, which would count one game many times),
/// or all there are when the generator's settings hold fewer.
pub fn openings_from(args: &OpeningArgs, rules: Rules, pairs: usize) -> Result<(OpeningSuite, GameSettings)> {
    let suite = match &args.openings {
        Some(path) => OpeningSuite::load(path, rules)?,
        None => {
            let config = generated_openings(pairs);
            let progress = Progress::background("openings", config.count as u64, "openings");
            let suite = OpeningSuite::generate(rules, &config, args.opening_seed)?;
            progress.finish();
            if suite.len() < pairs {
                eprintln!(
                    "note: only {} distinct openings for {pairs} pairs; some openings are played more than once",
                    suite.len()
                );
            }
            suite
        }
    };
    Ok((suite, GameSettings { max_turns: args.max_turns }))
}

/// The openings of a match: the suite file, or generated as the pairs need them (a long match
/// or an SPRT starts at once, and stops without generating openings it never plays).
pub fn match_openings(args: &OpeningArgs, rules: Rules, pairs: usize) -> Result<(Openings, GameSettings)> {
    let openings = match &args.openings {
        Some(path) => Openings::fixed(OpeningSuite::load(path, rules)?),
        None => Openings::generated(rules, &generated_openings(pairs), args.opening_seed),
    };
    Ok((openings, GameSettings { max_turns: args.max_turns }))
}

/// The generator settings of commands that play `pairs` game pairs.
fn generated_openings(pairs: usize) -> OpeningConfig {
    let min = OpeningConfig::default().count;
    OpeningConfig { count: pairs.clamp(min, crate::arena::openings::MAX_COUNT), ..OpeningConfig::default() }
}

/// The evaluation a command-line `--eval` names, for messages.
pub fn eval_name(eval: Option<EvalKind>) -> &'static str {
    eval.map_or("from the weight file", |e| e.name())
}

/// The exit status of a run stopped by Ctrl-C (128 + SIGINT, as shells report it), so that
/// scripts can tell an interrupted run from a finished one (0) and from an error (1).
pub const EXIT_INTERRUPTED: i32 = 130;

/// The error a command returns when Ctrl-C stopped it after saving its work; `main` exits with
/// [`EXIT_INTERRUPTED`] and prints nothing more (the command has said how to go on).
#[derive(Debug, thiserror::Error)]
#[error("interrupted")]
pub struct Interrupted;
