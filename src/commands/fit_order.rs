//! `evotune fit-order`: a table's move-order weights fitted to another player's recorded
//! moves (see `crate::order`).

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;

use crate::arena::records::{read_records, GameRecord};
use crate::commands::args::GameArg;
use crate::core::settings::EngineSettings;
use crate::order::{coverage, fit, samples_of};
use crate::player::{is_outside_player, load_weights, player_from};

#[derive(Args, Debug)]
pub struct FitOrderArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// The table to start from (a weight file, `defaults`, or a run's folder); its evaluation
    /// weights are kept.
    #[arg(long, default_value = "defaults")]
    pub weights: String,
    /// Game records (JSON lines, as `match --records` writes them) holding the player's
    /// games.
    #[arg(long, value_name = "FILE", required = true, num_args = 1..)]
    pub records: Vec<PathBuf>,
    /// Records to measure the fitted table on without fitting to them.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub test: Vec<PathBuf>,
    /// The player whose moves are learnt, as the records name it (`cloudict`).
    #[arg(long)]
    pub player: String,
    /// Where to write the fitted table (TOML).
    #[arg(long)]
    pub out: PathBuf,
    /// Rounds over the move-order weights, at most (the fit stops early when a round changes
    /// nothing).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub rounds: u32,
    /// The generator's settings (its widths: --singles, --seconds, --width) are the engine's.
    #[command(flatten)]
    pub engine: EngineSettings,
}

pub fn run(args: &FitOrderArgs) -> Result<()> {
    let game = args.game.get()?;
    if is_outside_player(&args.weights) {
        bail!("--weights {}: a weight table to start from, not an outside engine", args.weights);
    }
    let player = player_from(&args.weights, &args.engine, game).context("--weights")?;
    let (_, mut meta, _) = load_weights(&args.weights, args.engine.eval.as_deref(), game)?;
    let (train, train_games) = read_all(&args.records, game.name())?;
    let samples = samples_of(game, &train, &args.player);
    if samples.is_empty() {
        bail!(
            "no move of `{}` in {} ({} games; the players found: {})",
            args.player,
            names(&args.records),
            train_games,
            players(&train).join(", ")
        );
    }
    println!("{} moves of {} in {train_games} games of {}", samples.len(), args.player, names(&args.records));
    let test = if args.test.is_empty() {
        None
    } else {
        let (records, games) = read_all(&args.test, game.name())?;
        let samples = samples_of(game, &records, &args.player);
        if samples.is_empty() {
            bail!("no move of `{}` in the --test records {}", args.player, names(&args.test));
        }
        Some((samples, games))
    };
    let test_before = match &test {
        Some((samples, _)) => Some(coverage(game, &player, samples)?),
        None => None,
    };
    let (weights, before, after) = fit(game, &player, &samples, args.rounds as usize, |step| {
        println!("round {}: {} {} -> {}: {}", step.round, step.weight, step.from, step.to, step.coverage);
    })?;
    println!("before: {before}");
    println!("after:  {after}");
    if let (Some((samples, games)), Some(was)) = (&test, test_before) {
        let mut fitted = player.clone();
        fitted.weights = weights.clone();
        let now = coverage(game, &fitted, samples)?;
        println!("test ({games} games of {}):", names(&args.test));
        println!("  before: {was}");
        println!("  after:  {now}");
    }
    meta.name = Some(format!("{}-order-{}", meta.name.as_deref().unwrap_or(&player.name), args.player));
    meta.extra.insert("order_fitted_to".into(), toml::Value::String(args.player.clone()));
    meta.extra.insert("order_records".into(), toml::Value::String(names(&args.records)));
    weights.save(&args.out, &meta).with_context(|| format!("{}: cannot write", args.out.display()))?;
    println!("wrote {}", args.out.display());
    Ok(())
}

/// Every record of the files, checked to be of `game`, and how many games they hold.
fn read_all(files: &[PathBuf], game: &str) -> Result<(Vec<GameRecord>, usize)> {
    let mut all = Vec::new();
    for f in files {
        let records = read_records(f)?;
        if let Some(r) = records.iter().find(|r| r.game != game) {
            bail!("{}: records of {}, not {game} (choose the game with --game)", f.display(), r.game);
        }
        all.extend(records);
    }
    let n = all.len();
    Ok((all, n))
}

fn names(files: &[PathBuf]) -> String {
    files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(" ")
}

fn players(records: &[GameRecord]) -> Vec<String> {
    let mut names: Vec<String> = records.iter().flat_map(|r| [r.first.clone(), r.second.clone()]).collect();
    names.sort();
    names.dedup();
    names
}
