//! `evotune cluster plan|play|reduce|status`: a generation's steps on machines that share the
//! run's folder; the work is `crate::cluster`'s.

use anyhow::{bail, Context, Result};

use crate::cli::{ClusterCommand, ClusterPlanArgs, ClusterPlayArgs, ClusterReduceArgs, ClusterStatusArgs};
use crate::cluster::executor::list;
use crate::cluster::plan::{play_shard, Played};
use crate::cluster::{self, Reduced};
use crate::commands::evolve::new_run;
use crate::commands::thread_pool;
use crate::ga::run::{self, Ended, LocalGames, Options, Prepared};
use crate::registry::EngineReferee;
use crate::report::progress::{Progress, ProgressMode};

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
    let mut prepared = match (&args.run, &args.config) {
        (Some(dir), _) => run::prepare_resume(dir, None, args.generations)?,
        (None, Some(config)) => {
            new_run(Some(config), None, args.seed, args.generations, args.name.clone(), args.out.clone(), args.force)?
        }
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
        compare: &[],
    };
    let Prepared { config, state, suite, folder } = &mut prepared;
    let ended = run::execute(config, state, folder, suite, &referee, &options, &mut [&mut run::ResultFiles])?;
    debug_assert_eq!(ended, Ended::Paused);
    let path = cluster::write_plan(&prepared, &referee, args.shards as usize)?;
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
    let pool = thread_pool(args.threads)?;
    let progress = Progress::new(
        &format!("gen {} shard {shard}/{shards}", plan.generation),
        plan.games_of(shard).count() as u64,
        "games",
        ProgressMode::Lines,
    );
    let played = pool.install(|| play_shard(&plan, &dir, shard, &referee, &progress))?;
    match played {
        Played::Wrote { path, games } => println!("played {games} games: {}", path.display()),
        Played::AlreadyDone(path) => println!("already played: {}", path.display()),
    }
    Ok(())
}

fn reduce(args: &ClusterReduceArgs) -> Result<()> {
    let mut prepared = run::prepare_resume(&args.run, args.out.clone(), None)?;
    let referee = referee(&prepared)?;
    let pool = thread_pool(args.threads)?;
    let options = Options {
        mode: ProgressMode::Lines,
        threads: pool.current_num_threads(),
        games: &LocalGames,
        pause_after: Some(1),
        handle_ctrl_c: false,
        compare: &[],
    };
    match pool.install(|| cluster::reduce(&mut prepared, &referee, &options))? {
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
