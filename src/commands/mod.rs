//! The commands behind the command line: each turns validated options into work and output.
//! Shared here: thread pools and opening suites.

pub mod args;
pub mod bench;
pub mod bestmove;
pub mod cluster;
pub mod compare;
pub mod completions;
pub mod evolve;
pub mod export;
pub mod fit_order;
pub mod matches;
pub mod openings;
pub mod outputs;
pub mod play;
pub mod plot;
pub mod reproduce;
pub mod scaling;
pub mod schema;
pub mod serve;
pub mod spsa;
pub mod tournament;

use anyhow::{Context, Result};

use crate::arena::game::GameSettings;
use crate::arena::openings::{OpeningSuite, Openings};
use crate::commands::args::OpeningArgs;
use crate::core::openings::OpeningConfig;
use crate::core::settings::EngineSettings;
use crate::registry::GameRef;
use crate::report::progress::Progress;

/// A rayon pool of `threads` workers (default: all cores).
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        anyhow::ensure!(n >= 1, "--threads must be at least 1");
        b = b.num_threads(n);
    }
    b.build().context("cannot start worker threads")
}

/// The opening suite and game settings of a command.
///
/// A generated suite has at least as many openings as the command plays pairs (fixed-depth
/// engines replay a repeated opening move for move, which would count one game many times),
/// or all there are when the generator's settings hold fewer.
pub fn openings_from(args: &OpeningArgs, game: GameRef, pairs: usize) -> Result<(OpeningSuite, GameSettings)> {
    let suite = match &args.openings {
        Some(path) => OpeningSuite::load(path, game.arena())?,
        None => {
            let config = generated_openings(pairs);
            let progress = Progress::background("openings", config.count as u64, "openings");
            let suite = OpeningSuite::generate(game.arena(), &config, args.opening_seed)?;
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
    Ok((suite, args.settings()))
}

/// The engine settings of players under a game clock: with no limits of their own, they think
/// as long as the clock allows (the clock's budget caps every move), rather than searching the
/// default depth of a command without a clock.
pub fn clocked(engine: &EngineSettings, args: &OpeningArgs) -> EngineSettings {
    let mut e = engine.clone();
    if args.tc.is_some() && e.limits().is_unlimited() {
        e.time_ms = Some(crate::core::limits::MAX_TIME_MS);
    }
    e
}

/// The openings of a match: the suite file, or generated as the pairs need them (a long match
/// or an SPRT starts at once, and stops without generating openings it never plays).
pub fn match_openings(args: &OpeningArgs, game: GameRef, pairs: usize) -> Result<(Openings, GameSettings)> {
    let openings = match &args.openings {
        Some(path) => Openings::fixed(OpeningSuite::load(path, game.arena())?),
        None => Openings::generated(game.arena(), &generated_openings(pairs), args.opening_seed),
    };
    Ok((openings, args.settings()))
}

/// The generator settings of commands that play `pairs` game pairs.
fn generated_openings(pairs: usize) -> OpeningConfig {
    let min = OpeningConfig::default().count;
    OpeningConfig { count: pairs.clamp(min, crate::core::openings::MAX_COUNT), ..OpeningConfig::default() }
}
