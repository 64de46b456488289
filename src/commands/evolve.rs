//! `evotune evolve`: a GA run from a config (or the game's built-in quick config), or resumed
//! from its checkpoints; the executor is `ga::run`.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};

use crate::cli::EvolveArgs;
use crate::commands::{thread_pool, Interrupted};
use crate::ga::config::EvolveConfig;
use crate::ga::run::{self, NewRun, Options, Prepared};
use crate::registry::EngineReferee;
use crate::report::progress::ProgressMode;

pub fn run(args: &EvolveArgs) -> Result<()> {
    let Prepared { config, mut state, suite, folder } = prepare(args)?;
    let pool = thread_pool(args.threads)?;
    let mode = if args.log { ProgressMode::Lines } else { ProgressMode::Auto };
    let referee = EngineReferee { game: config.game()?, settings: config.games };
    let options = Options { mode, threads: pool.current_num_threads(), handle_ctrl_c: true, compare: &args.compare };
    let champion = pool.install(|| run::run(&config, &mut state, &folder, &suite, &referee, &options))?;
    match champion {
        Some(path) => println!("champion {}", path.display()),
        None => {
            println!("stopped; resume with: evotune evolve --resume {}", folder.paths.populations.display());
            return Err(Interrupted.into());
        }
    }
    Ok(())
}

/// The config with the command line's overrides, and the run's folders.
fn prepare(args: &EvolveArgs) -> Result<Prepared> {
    if let Some(dir) = &args.resume {
        if args.seed.is_some() || args.name.is_some() || args.force {
            bail!("--resume continues a run as it was: --seed, --name and --force do not apply");
        }
        return run::prepare_resume(dir, args.out.clone(), args.generations);
    }
    let mut config = match &args.config {
        Some(p) => EvolveConfig::load(p)?,
        None => EvolveConfig::quick_for(args.game.as_deref().unwrap_or(crate::registry::DEFAULT_GAME))?,
    };
    if let Some(g) = &args.game {
        if *g != config.game {
            bail!("--game {g}: the config plays {} (`game = \"{}\"`); give a config of {g}", config.game, config.game);
        }
    }
    if let Some(s) = args.seed {
        config.seed = s;
    }
    if let Some(g) = args.generations {
        config.generations = g;
    }
    if let Some(n) = &args.name {
        config.name = n.clone();
    }
    config.validate().context("invalid config after command-line overrides")?;
    let referee = EngineReferee { game: config.game()?, settings: config.games };
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("."));
    let auto_name = args.name.is_none() && !args.force;
    run::prepare_new(NewRun { config, out, auto_name, force: args.force }, &referee)
}
