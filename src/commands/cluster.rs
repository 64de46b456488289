//! `evotune cluster plan|play|reduce|status`: a generation's steps on machines that share the
//! run's folder; the work is `crate::cluster`'s.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};

use crate::cluster::executor::list;
use crate::cluster::plan::{play_shard, Played};
use crate::cluster::{self, Reduced};
use crate::commands::evolve::new_run;
use crate::commands::{check_table_memory, thread_pool, CONFIG_TT_MIB};
use crate::ga::games::LocalGames;
use crate::ga::observers::ResultFiles;
use crate::ga::prepare::{self, Prepared};
use crate::ga::run::{self, Options};
use crate::player::{evolve_lineup, shard_lineup};
use crate::registry::EngineReferee;
use crate::report::progress::{Progress, ProgressMode};
use crate::tuner::executor::Ended;

/// The steps of a generation on a cluster.
#[derive(Subcommand, Debug)]
pub enum ClusterCommand {
    /// Plan the next generation of a run (a new one from --config, or --run DIR): its games
    /// into populations/<run>/work/gen-NNNN/plan.json, split into --shards shards. Planning
    /// again writes the same plan and keeps the shards already played.
    Plan(ClusterPlanArgs),
    /// Play one shard of the planned generation and write its file (atomically). A shard
    /// whose file is already there is not played again, so a retried shard is harmless.
    Play(ClusterPlayArgs),
    /// Check every shard against the plan, commit the generation as `evolve` does (records,
    /// checkpoint, champion, history), and plan the next one; after the last generation, play
    /// the play-off and validation and write the report. Prints `planned generation G:
    /// PLAN, N shards` or `champion PATH`. Exit status 1 names the shards that are missing or
    /// not of the plan.
    Reduce(ClusterReduceArgs),
    /// Where a run's next generation stands: its shards done and missing.
    Status(ClusterStatusArgs),
}

#[derive(Args, Debug)]
pub struct ClusterPlanArgs {
    /// Start a new run from this TOML config (as `evolve --config`); give --run instead to
    /// plan the next generation of a run that exists.
    #[arg(long, conflicts_with = "run", required_unless_present = "run")]
    pub config: Option<PathBuf>,
    /// The run's folder of checkpoints (populations/<run>).
    #[arg(long)]
    pub run: Option<PathBuf>,
    /// Split the generation into this many shards (1 to 1000).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=crate::cluster::plan::MAX_SHARDS as i64))]
    pub shards: u32,
    /// With --config: put populations/ and results/ under this folder (default: the current one).
    #[arg(long, conflicts_with = "run")]
    pub out: Option<PathBuf>,
    /// With --config: the run's name (default: the config's).
    #[arg(long, conflicts_with = "run")]
    pub name: Option<String>,
    /// With --config: override the config's seed.
    #[arg(long, conflicts_with = "run", value_parser = clap::value_parser!(u64).range(0..=i64::MAX as u64))]
    pub seed: Option<u64>,
    /// Override the config's number of generations (with --run: extend the run).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::ga::config::MAX_GENERATIONS)))]
    pub generations: Option<u32>,
    /// With --config: replace a run already in the folders.
    #[arg(long, conflicts_with = "run")]
    pub force: bool,
}

#[derive(Args, Debug)]
pub struct ClusterPlayArgs {
    /// The run's folder of checkpoints (populations/<run>), on a file system this machine
    /// shares with the others.
    #[arg(long)]
    pub run: PathBuf,
    /// Which shard: I/N, the I-th (1-based) of the plan's N. Under SLURM:
    /// `--shard $SLURM_ARRAY_TASK_ID/N`.
    #[arg(long, value_name = "I/N")]
    pub shard: String,
    /// Worker threads (default: all cores; at most 4 a core and 1024 in all; their engines' tables
    /// must fit in the memory available, checked before any game).
    #[arg(long)]
    pub threads: Option<usize>,
    /// When the individuals are an outside engine (`[outside]`): the most of its processes
    /// kept alive at once (default: one per individual of the plan plus one per thread, as
    /// one machine keeps, so that no individual's process is started twice). Lower it when
    /// the node's memory holds fewer: an individual whose process was ended starts another
    /// for its next game. Games in play each hold theirs whatever the cap.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub engine_processes: Option<u32>,
}

#[derive(Args, Debug)]
pub struct ClusterReduceArgs {
    /// The run's folder of checkpoints (populations/<run>).
    #[arg(long)]
    pub run: PathBuf,
    /// Where results/ is (default: beside populations/).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads for the play-off and validation after the last generation (default:
    /// all cores; at most 4 a core and 1024 in all).
    #[arg(long)]
    pub threads: Option<usize>,
}

#[derive(Args, Debug)]
pub struct ClusterStatusArgs {
    /// The run's folder of checkpoints (populations/<run>).
    #[arg(long)]
    pub run: PathBuf,
    /// Print only the missing shards of the planned generation, comma-separated (an empty
    /// line when there are none), for scripts.
    #[arg(long)]
    pub missing: bool,
}

pub fn run(command: &ClusterCommand) -> Result<()> {
    match command {
        ClusterCommand::Plan(a) => plan(a),
        ClusterCommand::Play(a) => play(a),
        ClusterCommand::Reduce(a) => reduce(a),
        ClusterCommand::Status(a) => status(a),
    }
}

fn referee(prepared: &Prepared) -> Result<EngineReferee> {
    Ok(EngineReferee { game: prepared.config.game()?, settings: prepared.config.games })
}

fn plan(args: &ClusterPlanArgs) -> Result<()> {
    let (mut prepared, lineup) = match (&args.run, &args.config) {
        (Some(dir), _) => {
            let prepared = prepare::prepare_resume(dir, None, args.generations)?;
            let lineup = evolve_lineup(&prepared.config, &[])?;
            (prepared, lineup)
        }
        (None, Some(config)) => new_run(
            Some(config),
            None,
            args.seed,
            args.generations,
            args.name.clone(),
            args.out.clone(),
            args.force,
            &[],
            // The shards play it, each checking its own machine's memory.
            None,
        )?,
        (None, None) => bail!("give --config (a new run) or --run (a run that exists)"),
    };
    let referee = referee(&prepared)?;
    if prepared.state.generation >= prepared.config.generations {
        println!("complete {}", prepared.folder.paths.results.join("champion.toml").display());
        return Ok(());
    }
    // The folders settled as a run's start settles them (a new run's generation-0
    // checkpoint, a resumed one's records cut back), without playing a generation.
    let options = Options {
        mode: ProgressMode::Lines,
        threads: 1,
        games: &LocalGames,
        pause_after: Some(0),
        handle_ctrl_c: false,
    };
    let Prepared { config, state, suite, folder } = &mut prepared;
    let ended = run::execute(config, state, folder, suite, &referee, &lineup, &options, &mut [&mut ResultFiles])?;
    debug_assert_eq!(ended, Ended::Paused);
    let path = cluster::write_plan(&prepared, &referee, &lineup, args.shards as usize)?;
    println!("planned generation {}: {}, {} shards", prepared.state.generation + 1, path.display(), args.shards);
    Ok(())
}

/// `I/N` of `--shard`.
fn parse_shard(text: &str) -> Result<(usize, usize)> {
    let parsed = text.split_once('/').and_then(|(i, n)| Some((i.trim().parse().ok()?, n.trim().parse().ok()?)));
    match parsed {
        Some((i, n)) if i >= 1 && i <= n => Ok((i, n)),
        _ => bail!("--shard {text}: expected I/N with 1 <= I <= N, e.g. --shard 3/8"),
    }
}

fn play(args: &ClusterPlayArgs) -> Result<()> {
    let (shard, shards) = parse_shard(&args.shard)?;
    let (plan, dir) = cluster::current_plan(&args.run)?;
    if shards != plan.shards {
        bail!(
            "--shard {}: the plan of generation {} ({}) has {} shards, not {shards}",
            args.shard,
            plan.generation,
            dir.display(),
            plan.shards
        );
    }
    let config = plan.run_config()?;
    let referee = EngineReferee { game: config.game()?, settings: config.games };
    let lineup = shard_lineup(&config)?;
    if let (Some(engine), Some(n)) = (lineup.tuned(), args.engine_processes) {
        engine.cap(n as usize);
    }
    let pool = thread_pool(args.threads)?;
    check_table_memory(pool.current_num_threads(), &[&config.engine], CONFIG_TT_MIB)?;
    // Its own games, then other shards' (stolen): at most the generation's.
    let progress = Progress::capped(
        &format!("gen {} shard {shard}/{shards}", plan.generation),
        plan.games.len() as u64,
        "games",
        ProgressMode::Lines,
    );
    let played = pool.install(|| play_shard(&plan, &dir, shard, &referee, &lineup, &progress))?;
    match played {
        Played::Wrote { path, games, own, stolen } => println!(
            "played {own} of the shard's {games} games ({} by other shards) and {stolen} of other shards': {}",
            games.saturating_sub(own),
            path.display()
        ),
        Played::AlreadyDone(path) => println!("already played: {}", path.display()),
    }
    Ok(())
}

fn reduce(args: &ClusterReduceArgs) -> Result<()> {
    let mut prepared = prepare::prepare_resume(&args.run, args.out.clone(), None)?;
    let referee = referee(&prepared)?;
    let lineup = evolve_lineup(&prepared.config, &[])?;
    let pool = thread_pool(args.threads)?;
    check_table_memory(pool.current_num_threads(), &[&prepared.config.engine], CONFIG_TT_MIB)?;
    let options = Options {
        mode: ProgressMode::Lines,
        threads: pool.current_num_threads(),
        games: &LocalGames,
        pause_after: Some(1),
        handle_ctrl_c: false,
    };
    match pool.install(|| cluster::reduce(&mut prepared, &referee, &lineup, &options))? {
        Reduced::Planned { generation, plan, shards } => {
            println!("planned generation {generation}: {}, {shards} shards", plan.display())
        }
        Reduced::Champion(path) => println!("champion {}", path.display()),
    }
    Ok(())
}

fn status(args: &ClusterStatusArgs) -> Result<()> {
    let s = cluster::status(&args.run).with_context(|| format!("--run {}", args.run.display()))?;
    if args.missing {
        println!("{}", s.planned.map(|(_, missing)| list(&missing)).unwrap_or_default());
        return Ok(());
    }
    println!("generations done: {} of {}", s.done, s.generations);
    match s.planned {
        Some((shards, missing)) => {
            println!("generation {}: {} of {shards} shards played", s.done + 1, shards - missing.len());
            if !missing.is_empty() {
                println!("missing: {}", list(&missing));
            }
        }
        None if s.done >= s.generations => println!("complete"),
        None => println!("generation {}: not planned", s.done + 1),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_arguments() {
        assert_eq!(parse_shard("3/8").unwrap(), (3, 8));
        assert_eq!(parse_shard("1/1").unwrap(), (1, 1));
        for bad in ["0/8", "9/8", "3", "a/b", "3/", "/8"] {
            let e = format!("{:#}", parse_shard(bad).unwrap_err());
            assert!(e.contains(&format!("--shard {bad}")) && e.contains("I/N"), "{e}");
        }
    }

    #[test]
    fn a_missing_plan_says_how_to_make_one() {
        let dir = tempfile::tempdir().unwrap();
        let e = format!("{:#}", cluster::current_plan(dir.path()).unwrap_err());
        assert!(e.contains("no planned generation") && e.contains("evotune cluster plan --run"), "{e}");
    }
}
