//! A GA run across machines that share its folder: each generation in three steps that any
//! batch system can drive (`docs/cluster.md`).
//!
//! - **plan**: the generation's games (players, openings, seeds) into
//!   `populations/<run>/work/gen-NNNN/plan.json`, split into N shards ([`plan`]);
//! - **play** shard I of N: its games, played and written to its own file, atomically; a
//!   shard already played is not played again ([`plan::play_shard`]);
//! - **reduce**: every shard checked against the plan, then the generation concluded,
//!   checkpointed and written exactly as the local executor does it, and the next generation
//!   planned ([`reduce`]).
//!
//! The generation is scheduled and concluded by the GA's own code (`ga::evolve`); only where
//! the games are played differs. So a run on a cluster is the local run of the same seed:
//! the same champion, history, checkpoints and game records (apart from the clock's fields:
//! wall and thinking times, dates). `evolve --executor slurm|parallel` drives the three steps
//! from one process ([`executor::Sharded`] with [`slurm::Slurm`] or [`parallel::Parallel`]);
//! `scripts/slurm-chain.sh` drives them as a chain of batch jobs.

pub mod executor;
pub mod parallel;
pub mod plan;
pub mod slurm;
pub mod steal;

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::arena::game::Referee;
use crate::cluster::executor::{save_plan, FromShards};
use crate::cluster::plan::{missing_shards, work_dir, Plan, PLAN_FILE};
use crate::ga::checkpoint;
use crate::ga::evolve::Evolver;
use crate::ga::prepare::Prepared;
use crate::ga::run::{self, Options};
use crate::tuner::executor::Ended;
use crate::tuner::lineup::Lineup;

/// Writes the plan of the run's next generation in `shards` shards, keeping the plan and
/// shards already there if they are the same games in as many shards. Returns the plan's
/// path.
pub fn write_plan(prepared: &Prepared, referee: &dyn Referee, lineup: &Lineup, shards: usize) -> Result<PathBuf> {
    let Prepared { config, state, suite, folder } = prepared;
    let evolver = Evolver::new(config, suite, referee, lineup)?;
    let plan = Plan::new(config, &evolver.schedule(state), suite, shards);
    let dir = save_plan(&folder.paths.populations, &plan)?;
    Ok(dir.join(PLAN_FILE))
}

/// What `reduce` did.
#[derive(Debug, PartialEq)]
pub enum Reduced {
    /// The generation is committed and the next one planned: its plan.
    Planned { generation: u32, plan: PathBuf, shards: usize },
    /// The run is complete: its champion.
    Champion(PathBuf),
}

/// Commits the run's next generation from its shards (checked against the plan and the
/// run's newest checkpoint) as the local executor commits a generation: records, checkpoint,
/// result files; then plans the generation after it in as many shards, or, after the last,
/// plays the play-off and validation and writes the report.
pub fn reduce(prepared: &mut Prepared, referee: &dyn Referee, lineup: &Lineup, options: &Options) -> Result<Reduced> {
    let populations = prepared.folder.paths.populations.clone();
    let generation = prepared.state.generation + 1;
    if prepared.state.generation >= prepared.config.generations {
        bail!(
            "{}: the run is complete ({} of {} generations); nothing to reduce",
            populations.display(),
            prepared.state.generation,
            prepared.config.generations
        );
    }
    let plan_path = work_dir(&populations, generation).join(PLAN_FILE);
    let shards = Plan::load(&plan_path).map(|p| p.shards).ok();
    let gather = FromShards { populations: populations.clone() };
    let options = Options { games: &gather, pause_after: Some(1), ..*options };
    let Prepared { config, state, suite, folder } = prepared;
    match run::run(config, state, folder, suite, referee, lineup, &options)? {
        Ended::Champion(path) => Ok(Reduced::Champion(path)),
        Ended::Paused => {
            let shards = shards.context("the plan went away while it was reduced")?;
            let plan = write_plan(prepared, referee, lineup, shards)?;
            Ok(Reduced::Planned { generation: generation + 1, plan, shards })
        }
        Ended::Interrupted => Err(crate::tuner::interrupted::Interrupted.into()),
    }
}

/// Where the run's next generation stands.
#[derive(Debug, PartialEq)]
pub struct Status {
    /// Generations done (its newest checkpoint), and of the config.
    pub done: u32,
    pub generations: u32,
    /// The next generation's plan, if it is planned: its shard count and the shards that
    /// have no valid file yet.
    pub planned: Option<(usize, Vec<usize>)>,
}

/// Reads where the run in `populations` stands (no lock: it only reads).
pub fn status(populations: &Path) -> Result<Status> {
    let loaded = checkpoint::load_latest(populations)?;
    let next = loaded.state.generation + 1;
    let dir = work_dir(populations, next);
    let planned = match Plan::load(&dir.join(PLAN_FILE)) {
        Ok(plan) => Some((plan.shards, missing_shards(&plan, &dir)?)),
        Err(_) => None,
    };
    Ok(Status { done: loaded.state.generation, generations: loaded.config.generations, planned })
}

/// The plan a shard plays: the run's newest (a run plans one generation at a time).
pub fn current_plan(populations: &Path) -> Result<(Plan, PathBuf)> {
    let Some((_, dir)) = plan::work_dirs(populations).pop() else {
        bail!(
            "{}: no planned generation (no work/gen-NNNN/plan.json); plan one with `evotune cluster plan --run {}`",
            populations.display(),
            populations.display()
        )
    };
    let plan = Plan::load(&dir.join(PLAN_FILE))?;
    Ok((plan, dir))
}
