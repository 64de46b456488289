//! `evotune evolve`: a GA run from a config (or the game's built-in quick config), or resumed
//! from its checkpoints; the executor is `ga::run`, its games played here or, with
//! `--executor slurm|parallel`, as shards on other machines (`crate::cluster`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};

use crate::cluster::executor::{Backend, ShardCommand, Sharded};
use crate::cluster::parallel::Parallel;
use crate::cluster::slurm::Slurm;
use crate::commands::args::TuningRunArgs;
use crate::commands::{check_table_memory, thread_pool, CONFIG_TT_MIB};
use crate::ga::config::EvolveConfig;
use crate::ga::games::{Games, LocalGames};
use crate::ga::prepare::{self, NewRun, Prepared};
use crate::ga::run::{self, Options};
use crate::player::evolve_lineup;
use crate::registry::EngineReferee;
use crate::tuner::executor::Ended;
use crate::tuner::interrupted::Interrupted;
use crate::tuner::lineup::Lineup;

/// Where `evolve` plays a generation's games.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExecutorKind {
    /// On this machine's threads.
    Local,
    /// As a SLURM job array a generation (sbatch, squeue, scancel).
    Slurm,
    /// Through GNU parallel on the machines of --hosts (ssh).
    Parallel,
}

#[derive(Args, Debug)]
pub struct EvolveArgs {
    #[command(flatten)]
    pub run: TuningRunArgs,
    /// Override the config's number of generations (also to extend a resumed run).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::ga::config::MAX_GENERATIONS)))]
    pub generations: Option<u32>,
    /// At the end, print the run's summary (champion, validation, play-off) as one JSON
    /// document on stdout (docs/json.md; also written as results/<run>/summary.json).
    #[arg(long)]
    pub json: bool,
    /// Where the games of a generation are played: `local` (this machine's threads), `slurm`
    /// (a SLURM job array a generation) or `parallel` (GNU parallel over ssh to --hosts). The
    /// run folder must be on a file system every machine shares (docs/cluster.md); the
    /// result is the local run's. With slurm and parallel, --threads is each shard's, and
    /// Ctrl-C cancels the shards at once (the shards already played are kept for --resume).
    #[arg(long, value_enum, default_value = "local")]
    pub executor: ExecutorKind,
    /// slurm / parallel: split each generation into this many shards (default: 8 with slurm,
    /// one per host with parallel).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=crate::cluster::plan::MAX_SHARDS as i64))]
    pub shards: Option<u32>,
    /// slurm: the partition of the shards' jobs (default: the cluster's).
    #[arg(long)]
    pub partition: Option<String>,
    /// slurm: one more argument for sbatch, e.g. `--sbatch-arg=--time=1:00:00`. Repeatable.
    #[arg(long, value_name = "ARG", allow_hyphen_values = true)]
    pub sbatch_arg: Vec<String>,
    /// parallel: the hosts, one a line (`user@host`; `:` is this machine without ssh); a line
    /// `N/host` plays N shards at once on that host (`2/:` two here), a bare host one at a time.
    #[arg(long, value_name = "FILE")]
    pub hosts: Option<PathBuf>,
    /// slurm / parallel: start a failed or lost shard again up to this many times before the
    /// run stops (saved, to be resumed).
    #[arg(long, default_value_t = 2)]
    pub retries: usize,
    /// slurm / parallel: seconds between two looks at the queue and the shard files.
    #[arg(long, default_value_t = 5.0)]
    pub poll_seconds: f64,
    /// slurm / parallel: the evotune binary the shards run (default: this one); it must be
    /// at this path on every machine.
    #[arg(long, value_name = "PATH")]
    pub evotune: Option<PathBuf>,
    /// slurm / parallel, when the individuals are an outside engine (`[outside]`): the most of
    /// its processes a shard keeps alive (`cluster play --engine-processes`; default: one per
    /// individual plus one per thread, as one machine keeps).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub engine_processes: Option<u32>,
}

/// Shards of a generation under SLURM when `--shards` is not given.
const DEFAULT_SLURM_SHARDS: u32 = 8;

pub fn run(args: &EvolveArgs) -> Result<()> {
    let backend = backend(args)?;
    let pool = thread_pool(args.run.threads)?;
    let (Prepared { config, mut state, suite, folder }, lineup) = prepare(args, pool.current_num_threads())?;
    let mode = args.run.progress_mode();
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
                removing: Default::default(),
                ending: Default::default(),
            };
            (&sharded, shards * args.run.threads.unwrap_or(1))
        }
    };
    let options = Options { mode, threads, games, pause_after: None, handle_ctrl_c: true };
    let ended = pool.install(|| run::run(&config, &mut state, &folder, &suite, &referee, &lineup, &options))?;
    match ended {
        Ended::Champion(path) if args.json => {
            let summary = folder.paths.results.join("summary.json");
            let text =
                std::fs::read_to_string(&summary).with_context(|| format!("{}: cannot read", summary.display()))?;
            eprintln!("champion {}{}", path.display(), renamed(&folder, &config.name));
            print!("{text}");
        }
        Ended::Champion(path) => println!("champion {}{}", path.display(), renamed(&folder, &config.name)),
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
/// What the last line says of a run that took the next free name: ` (a new run, `quick-2`:
/// `quick` holds an earlier one)`.
fn renamed(folder: &crate::tuner::folder::RunFolder, name: &str) -> String {
    folder
        .passed_over
        .as_ref()
        .map(|asked| format!(" (a new run, `{name}`: `{asked}` holds an earlier one)"))
        .unwrap_or_default()
}

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
        if args.engine_processes.is_some() {
            bail!("--engine-processes is an option of --executor slurm or parallel (a shard's processes)");
        }
        return Ok(None);
    }
    let program = match &args.evotune {
        Some(p) => absolute(p)?,
        None => std::env::current_exe().context("cannot find this program's path; give --evotune PATH")?,
    };
    let shard = ShardCommand { program, threads: args.run.threads, engine_processes: args.engine_processes };
    Ok(Some(match args.executor {
        ExecutorKind::Slurm => (
            Box::new(Slurm { shard, partition: args.partition.clone(), sbatch_args: args.sbatch_arg.clone() }),
            args.shards.unwrap_or(DEFAULT_SLURM_SHARDS) as usize,
        ),
        ExecutorKind::Parallel => {
            let Some(hosts) = &args.hosts else {
                bail!("--executor parallel needs --hosts FILE (one host a line, `N/host` for N shards at once; `:` for this machine)")
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

/// The config with the command line's overrides, the run's folders and its players.
/// The run to play on `threads` threads (its tables checked against the memory).
fn prepare(args: &EvolveArgs, threads: usize) -> Result<(Prepared, Lineup)> {
    let run = &args.run;
    if let Some(dir) = &run.resume {
        run.check_resume()?;
        let prepared = prepare::prepare_resume(dir, run.out.clone(), args.generations)?;
        check_table_memory(threads, &[&prepared.config.engine], CONFIG_TT_MIB)?;
        let lineup = evolve_lineup(&prepared.config, &run.compare)?;
        return Ok((prepared, lineup));
    }
    new_run(
        run.config.as_deref(),
        run.game.as_deref(),
        run.seed,
        args.generations,
        run.name.clone(),
        run.out.clone(),
        run.force,
        &run.compare,
        Some(threads),
    )
}

/// A new run from a config (or the game's built-in quick config) with the command line's
/// overrides; without a name, the config's or the next free one (`name-2`, ...). Its players
/// (validated against `compare` too) are resolved, and when it is played here on `threads`
/// threads its tables checked against the memory, before any folder is touched.
#[allow(clippy::too_many_arguments)]
pub fn new_run(
    config: Option<&Path>,
    game: Option<&str>,
    seed: Option<u64>,
    generations: Option<u32>,
    name: Option<String>,
    out: Option<PathBuf>,
    force: bool,
    compare: &[String],
    threads: Option<usize>,
) -> Result<(Prepared, Lineup)> {
    let path = config;
    let mut config = match path {
        Some(p) => EvolveConfig::load(p)?,
        None => {
            let game = crate::registry::find(game.unwrap_or(crate::registry::DEFAULT_GAME))?;
            EvolveConfig::quick_for(game)?
        }
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
    if let Some(threads) = threads {
        check_table_memory(threads, &[&config.engine], CONFIG_TT_MIB)?;
    }
    // The anchors, weight files and openings the config names are read here: an error about
    // one names the config's line too.
    let at_key = |e| crate::core::config_lines::at_key_of_file(e, path);
    let lineup = evolve_lineup(&config, compare).map_err(at_key)?;
    let out = out.unwrap_or_else(|| PathBuf::from("."));
    Ok((prepare::prepare_new(NewRun { config, out, auto_name, force }).map_err(at_key)?, lineup))
}
