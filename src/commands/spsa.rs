//! `evotune spsa`: an SPSA run from a config, or resumed from its checkpoints; the run is
//! `spsa::run` on the tuners' shared executor, which writes the checkpoint, `spsa.csv` and
//! snapshots after every batch, and at the end the champion, its validation match and
//! `report.md`, as `evolve` does.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;

use crate::commands::args::TuningRunArgs;
use crate::commands::{check_table_memory, thread_pool, CONFIG_TT_MIB};
use crate::player::spsa_lineup;
use crate::registry::EngineReferee;
use crate::spsa::run::{self, Options, Prepared};
use crate::spsa::SpsaConfig;
use crate::tuner::executor::Ended;
use crate::tuner::interrupted::Interrupted;
use crate::tuner::lineup::Lineup;

#[derive(Args, Debug)]
pub struct SpsaArgs {
    #[command(flatten)]
    pub run: TuningRunArgs,
    /// Override the config's game budget (also to extend a resumed run).
    #[arg(long)]
    pub games: Option<u64>,
}

pub fn run(args: &SpsaArgs) -> Result<()> {
    let pool = thread_pool(args.run.threads)?;
    let (mut prepared, lineup) = prepare(args, pool.current_num_threads())?;
    let mode = args.run.progress_mode();
    let referee = EngineReferee { game: prepared.config.game()?, settings: prepared.config.settings() };
    let options = Options { mode, handle_ctrl_c: true };
    match pool.install(|| run::run(&mut prepared, &referee, &lineup, &options))? {
        Ended::Champion(path) => println!("champion {}", path.display()),
        Ended::Interrupted | Ended::Paused => {
            println!("stopped; resume with: evotune spsa --resume {}", prepared.folder.paths.populations.display());
            return Err(Interrupted.into());
        }
    }
    Ok(())
}

/// The config with the command line's overrides, the run's folders and its players.
/// The run to play on `threads` threads; a new one's tables are checked against the memory
/// before its folder is made.
fn prepare(args: &SpsaArgs, threads: usize) -> Result<(Prepared, Lineup)> {
    let games = args.games;
    let args = &args.run;
    if let Some(dir) = &args.resume {
        args.check_resume()?;
        let prepared = run::prepare_resume(dir, args.out.clone(), games)?;
        check_table_memory(threads, &[&prepared.config.engine], CONFIG_TT_MIB)?;
        let lineup = spsa_lineup(&prepared.config, &args.compare)?;
        return Ok((prepared, lineup));
    }
    let mut config = match &args.config {
        Some(p) => SpsaConfig::load(p)?,
        None => SpsaConfig::quick(),
    };
    if let Some(g) = &args.game {
        if g != config.game_name() {
            if args.config.is_some() {
                bail!("--game {g}: the config plays {}; give a config of {g}", config.game_name());
            }
            // The built-in config tunes the game's default evaluation.
            config.game = crate::spsa::GameKey::Name(g.clone());
            config.eval = crate::registry::find(g)?.default_evaluation().name.into();
            config.name = format!("spsa-{g}");
        }
    }
    if let Some(s) = args.seed {
        config.seed = s;
    }
    if let Some(g) = games {
        config.games = g;
    }
    if let Some(n) = &args.name {
        config.name = n.clone();
    }
    config.validate().context("invalid config after command-line overrides")?;
    check_table_memory(threads, &[&config.engine], CONFIG_TT_MIB)?;
    // The weight files and openings the config names are read here: an error about one
    // names the config's line too.
    let at_key = |e| crate::core::config_lines::at_key_of_file(e, args.config.as_deref());
    let lineup = spsa_lineup(&config, &args.compare).map_err(at_key)?;
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("."));
    Ok((run::prepare_new(config, &lineup, &out, args.force).map_err(at_key)?, lineup))
}
