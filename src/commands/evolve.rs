//! `evotune evolve`: a GA run from a config (or the game's built-in quick config), or resumed
//! from its checkpoints; the executor is `ga::run`, its games played here or, with
//! `--executor slurm|parallel`, as shards on other machines (`crate::cluster`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::cli::{EvolveArgs, ExecutorKind};
use crate::cluster::executor::{Backend, ShardCommand, Sharded};
use crate::cluster::parallel::Parallel;
use crate::cluster::slurm::Slurm;
use crate::commands::{thread_pool, Interrupted};
use crate::ga::config::EvolveConfig;
use crate::ga::run::{self, Ended, Games, LocalGames, NewRun, Options, Prepared};
use crate::registry::EngineReferee;
use crate::report::progress::ProgressMode;

/// Shards of a generation under SLURM when `--shards` is not given.
const DEFAULT_SLURM_SHARDS: u32 = 8;

pub fn run(args: &EvolveArgs) -> Result<()> {
    let backend = backend(args)?;
    let Prepared { config, mut state, suite, folder } = prepare(args)?;
    let pool = thread_pool(args.threads)?;
    let mode = if args.log { ProgressMode::Lines } else { ProgressMode::Auto };
    let referee = EngineReferee { game: config.game()?, settings: config.games };
    let sharded;
    let (games, threads): (&dyn Games, usize) = match &backend {
        None => (&LocalGames, pool.current_num_threads()),
        Some((backend, shards)) => {
            sharded = Sharded {
                backend: backend.as_ref(),
                // As the shards will see it: absolute, the same on every machine that mounts
                // the shared file system at the same place.
                populations: absolute(&folder.paths.populations)?,
                shards: *shards,
                retries: args.retries,
                poll: Duration::from_secs_f64(args.poll_seconds.clamp(0.05, 3600.0)),
            };
            (&sharded, shards * args.threads.unwrap_or(1))
        }
    };
    let options = Options { mode, threads, games, pause_after: None, handle_ctrl_c: true, compare: &args.compare };
    let ended = pool.install(|| run::run(&config, &mut state, &folder, &suite, &referee, &options))?;
    match ended {
        Ended::Champion(path) => println!("champion {}", path.display()),
        Ended::Interrupted | Ended::Paused => {
            let again = match args.executor {
                ExecutorKind::Local => String::new(),
                other => format!(" --executor {}", format!("{other:?}").to_lowercase()),
            };
            println!("stopped; resume with: evotune evolve --resume {}{again}", folder.paths.populations.display());
            return Err(Interrupted.into());
        }
    }
    Ok(())
}

/// The backend of `--executor slurm|parallel` and its shard count, checked before any
/// folder is touched; None for the local executor.
fn backend(args: &EvolveArgs) -> Result<Option<(Box<dyn Backend>, usize)>> {
    if args.executor == ExecutorKind::Local && args.shards.is_some() {
        bail!("--shards is an option of --executor slurm or parallel");
    }
    if args.executor != ExecutorKind::Slurm && (args.partition.is_some() || !args.sbatch_arg.is_empty()) {
        bail!("--partition and --sbatch-arg are options of --executor slurm");
    }
    if args.executor != ExecutorKind::Parallel && args.hosts.is_some() {
        bail!("--hosts is an option of --executor parallel");
    }
    if args.executor == ExecutorKind::Local {
        return Ok(None);
    }
    let program = match &args.evotune {
        Some(p) => absolute(p)?,
        None => std::env::current_exe().context("cannot find this program's path; give --evotune PATH")?,
    };
    let shard = ShardCommand { program, threads: args.threads };
    Ok(Some(match args.executor {
        ExecutorKind::Slurm => (
            Box::new(Slurm { shard, partition: args.partition.clone(), sbatch_args: args.sbatch_arg.clone() }),
            args.shards.unwrap_or(DEFAULT_SLURM_SHARDS) as usize,
        ),
        ExecutorKind::Parallel => {
            let Some(hosts) = &args.hosts else {
                bail!("--executor parallel needs --hosts FILE (one host a line; `:` for this machine)")
            };
            let p = Parallel::new(shard, absolute(hosts)?)?;
            let shards = args.shards.map_or(p.host_count(), |s| s as usize);
            (Box::new(p), shards)
        }
        ExecutorKind::Local => unreachable!("returned above"),
    }))
}

fn absolute(p: &Path) -> Result<PathBuf> {
    std::path::absolute(p).with_context(|| format!("{}: cannot make the path absolute", p.display()))
}

/// The config with the command line's overrides, and the run's folders.
fn prepare(args: &EvolveArgs) -> Result<Prepared> {
    if let Some(dir) = &args.resume {
        if args.seed.is_some() || args.name.is_some() || args.force {
            bail!("--resume continues a run as it was: --seed, --name and --force do not apply");
        }
        return run::prepare_resume(dir, args.out.clone(), args.generations);
    }
    new_run(
        args.config.as_deref(),
        args.game.as_deref(),
        args.seed,
        args.generations,
        args.name.clone(),
        args.out.clone(),
        args.force,
    )
}

/// A new run from a config (or the game's built-in quick config) with the command line's
/// overrides; without a name, the config's or the next free one (`name-2`, ...).
pub fn new_run(
    config: Option<&Path>,
    game: Option<&str>,
    seed: Option<u64>,
    generations: Option<u32>,
    name: Option<String>,
    out: Option<PathBuf>,
    force: bool,
) -> Result<Prepared> {
    let mut config = match config {
        Some(p) => EvolveConfig::load(p)?,
        None => EvolveConfig::quick_for(game.unwrap_or(crate::registry::DEFAULT_GAME))?,
    };
    if let Some(g) = game {
        if *g != config.game {
            bail!("--game {g}: the config plays {} (`game = \"{}\"`); give a config of {g}", config.game, config.game);
        }
    }
    if let Some(s) = seed {
        config.seed = s;
    }
    if let Some(g) = generations {
        config.generations = g;
    }
    let auto_name = name.is_none() && !force;
    if let Some(n) = name {
        config.name = n;
    }
    config.validate().context("invalid config after command-line overrides")?;
    let referee = EngineReferee { game: config.game()?, settings: config.games };
    let out = out.unwrap_or_else(|| PathBuf::from("."));
    run::prepare_new(NewRun { config, out, auto_name, force }, &referee)
}
