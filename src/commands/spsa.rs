//! `evotune spsa`: an SPSA run from a config, or resumed from its checkpoint. Writes the
//! checkpoint and `spsa.csv` after every batch, snapshots of the weights every so many games,
//! and at the end the champion, its validation match and `report.md`, as `evolve` does.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;

use crate::arena::game::Referee;
use crate::arena::openings::{Keys, OpeningSuite};
use crate::arena::validation::{self, training_suite};
use crate::commands::args::game_names;
use crate::commands::thread_pool;
use crate::core::rng::derive_seed;
use crate::core::weights::Meta;
use crate::fsutil::{fnv1a64, write_atomic};
use crate::ga::run_folder::RunPaths;
use crate::registry::EngineReferee;
use crate::report::progress::{format_duration, Progress, ProgressMode};
use crate::report::run_report::RunReport;
use crate::spsa::{Spsa, SpsaConfig, SpsaState};

#[derive(Args, Debug)]
pub struct SpsaArgs {
    /// The run's TOML config (see configs/spsa-quick.toml); default: the built-in one.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// The game (default: the config's `game`); with a config, it must be the config's game.
    #[arg(long, value_parser = game_names(), conflicts_with = "resume")]
    pub game: Option<String>,
    /// Worker threads (default: all cores). The result does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Put populations/ and results/ under this folder instead of the current one.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue the run whose checkpoint is in this folder (populations/<run>).
    #[arg(long, conflicts_with = "config")]
    pub resume: Option<PathBuf>,
    /// The run's name (folder under populations/ and results/); default: from the config.
    #[arg(long)]
    pub name: Option<String>,
    /// Override the config's seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Override the config's game budget (also to extend a resumed run).
    #[arg(long)]
    pub games: Option<u64>,
    /// Start over even if the run's folders already hold a run (they are replaced).
    #[arg(long)]
    pub force: bool,
    /// Log lines instead of progress bars even on a terminal.
    #[arg(long)]
    pub log: bool,
    /// Also validate the result against this weight table at the end. Repeatable.
    #[arg(long, value_name = "WEIGHTS")]
    pub compare: Vec<String>,
}

/// Purpose tag of the run's opening suite seed (the GA's, so that equal seeds train on the
/// same openings).
const SUITE: u64 = 0x5017E;
const FORMAT: &str = "evotune-spsa-checkpoint-1";
const CHECKPOINT: &str = "spsa.json";

pub fn run(args: &SpsaArgs) -> Result<()> {
    let (config, state, paths) = prepare(args)?;
    let pool = thread_pool(args.threads)?;
    let mode = if args.log { ProgressMode::Lines } else { ProgressMode::Auto };
    let suite = opening_suite(&config)?;
    let referee = EngineReferee { game: config.game()?, settings: config.settings() };
    let champion = pool.install(|| run_loop(&config, state, &paths, &suite, &referee, mode, true, &args.compare))?;
    match champion {
        Some(path) => println!("champion {}", path.display()),
        None => {
            println!("stopped; resume with: evotune spsa --resume {}", paths.populations.display());
            std::process::exit(130);
        }
    }
    Ok(())
}

fn prepare(args: &SpsaArgs) -> Result<(SpsaConfig, SpsaState, RunPaths)> {
    if let Some(dir) = &args.resume {
        if args.seed.is_some() || args.name.is_some() || args.force || args.config.is_some() {
            bail!("--resume continues a run as it was: --config, --seed, --name and --force do not apply");
        }
        let (mut config, state) = load_checkpoint(&dir.join(CHECKPOINT))?;
        if let Some(g) = args.games {
            config.games = g;
            config.validate().context("--games")?;
        }
        let out = match &args.out {
            Some(o) => o.clone(),
            None => dir.parent().and_then(Path::parent).map(Path::to_path_buf).unwrap_or_default(),
        };
        let paths = RunPaths { populations: dir.clone(), results: out.join("results").join(&config.name) };
        eprintln!(
            "resuming {} after {} of {} games",
            config.name,
            state.games,
            config.iterations() * 2 * config.pairs as u64
        );
        return Ok((config, state, paths));
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
    if let Some(g) = args.games {
        config.games = g;
    }
    if let Some(n) = &args.name {
        config.name = n.clone();
    }
    config.validate().context("invalid config after command-line overrides")?;
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("."));
    let paths = RunPaths::new(&out, &config.name);
    if paths.populations.join(CHECKPOINT).exists() || paths.results.join("spsa.csv").exists() {
        if !args.force {
            bail!(
                "{} already holds a run: continue it with --resume {}, pick another --name, or pass --force to replace it",
                paths.populations.display(),
                paths.populations.display()
            );
        }
        for d in [&paths.populations, &paths.results] {
            if d.exists() {
                std::fs::remove_dir_all(d).with_context(|| format!("{}: cannot remove", d.display()))?;
            }
        }
    }
    let suite = opening_suite(&config)?;
    let referee = EngineReferee { game: config.game()?, settings: config.settings() };
    let state = Spsa::new(&config, &suite, &referee).initial_state()?;
    Ok((config, state, paths))
}

/// The run's training openings (without the validation suite's).
pub fn opening_suite(config: &SpsaConfig) -> Result<OpeningSuite> {
    let game = config.game()?.arena();
    let suite = match &config.openings.file {
        Some(f) => OpeningSuite::load(f, game).context("[openings] file")?,
        None => OpeningSuite::generate(game, &config.openings.generator(), derive_seed(&[config.seed, SUITE]))
            .map_err(|e| anyhow::anyhow!("[openings]: {}", e.message(Keys::Config)))?,
    };
    training_suite(suite, &config.validation)
}

/// The checkpoint: the config and state as JSON, then `checksum <fnv1a64 hex>`.
fn save_checkpoint(path: &Path, config: &SpsaConfig, state: &SpsaState) -> Result<()> {
    let body = serde_json::json!({ "format": FORMAT, "config": config.to_toml(), "state": state });
    let mut text = serde_json::to_string(&body).context("checkpoint to JSON")?;
    text.push('\n');
    let sum = fnv1a64(text.as_bytes());
    text.push_str(&format!("checksum {sum:016x}\n"));
    write_atomic(path, text.as_bytes()).with_context(|| format!("{}: cannot write checkpoint", path.display()))
}

fn load_checkpoint(path: &Path) -> Result<(SpsaConfig, SpsaState)> {
    let name = path.display();
    let text = std::fs::read_to_string(path).with_context(|| format!("{name}: cannot read checkpoint"))?;
    let body_len = text.trim_end_matches('\n').rfind('\n').map(|i| i + 1).unwrap_or(0);
    let (body, last) = text.split_at(body_len);
    match last.trim().strip_prefix("checksum ") {
        Some(sum) if format!("{:016x}", fnv1a64(body.as_bytes())) == sum => {}
        _ => bail!("{name}: truncated or corrupt checkpoint (checksum missing or wrong)"),
    }
    #[derive(serde::Deserialize)]
    struct Body {
        format: String,
        config: String,
        state: SpsaState,
    }
    let body: Body = serde_json::from_str(body).with_context(|| format!("{name}: unreadable checkpoint"))?;
    if body.format != FORMAT {
        bail!("{name}: checkpoint format `{}`, this evotune reads `{FORMAT}`", body.format);
    }
    let config = SpsaConfig::parse(&body.config, &format!("{name} (config inside)"))?;
    if body.state.theta.len() != config.schema()?.len() {
        bail!("{name}: the weights do not match the config's evaluation");
    }
    Ok((config, body.state))
}

/// `spsa.csv`: one row per batch with the weights after it.
fn history_csv(spsa: &Spsa, state: &SpsaState) -> Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header: Vec<String> =
        ["iteration", "games", "a_k", "c_k", "y_mean", "wall_s"].iter().map(|s| s.to_string()).collect();
    header.extend(spsa.schema.specs.iter().map(|s| s.name.to_string()));
    w.write_record(&header)?;
    for r in &state.history {
        let mut row =
            vec![r.iteration.to_string(), r.games.to_string(), format!("{:.6}", r.a_k), format!("{:.4}", r.c_k)];
        row.push(format!("{:.4}", r.y_mean));
        row.push(format!("{:.3}", r.wall_s));
        row.extend(r.theta.iter().map(|t| format!("{t:.2}")));
        w.write_record(&row)?;
    }
    Ok(String::from_utf8(w.into_inner().map_err(|e| e.into_error())?)?)
}

/// Batches until the budget is spent or a Ctrl-C, then the champion, its validation and the
/// report. Returns the champion's path, or None when stopped early.
#[allow(clippy::too_many_arguments)]
pub fn run_loop(
    config: &SpsaConfig,
    mut state: SpsaState,
    paths: &RunPaths,
    suite: &OpeningSuite,
    referee: &dyn Referee,
    mode: ProgressMode,
    handle_ctrl_c: bool,
    compare: &[String],
) -> Result<Option<PathBuf>> {
    let spsa = Spsa::new(config, suite, referee);
    let opponents =
        crate::player::validation_opponents(&config.validation, compare, &config.engine, &config.eval, config.game()?)?;
    for d in [&paths.populations, &paths.results.join("snapshots")] {
        std::fs::create_dir_all(d).with_context(|| format!("{}: cannot create", d.display()))?;
    }
    let quiet = mode == ProgressMode::Hidden;
    let total = config.iterations();
    if !quiet {
        eprintln!(
            "spsa {}: {} weights, {} iterations of {} pair(s) ({} games, {} done), batches of {}, {} on {} threads",
            config.name,
            spsa.schema.len(),
            total,
            config.pairs,
            total * 2 * config.pairs as u64,
            state.games,
            config.batch,
            config.engine.limits().describe(),
            rayon::current_num_threads()
        );
        eprintln!("checkpoint in {}, results in {}", paths.populations.display(), paths.results.display());
    }
    let stop = Arc::new(AtomicUsize::new(0));
    if handle_ctrl_c {
        let s = stop.clone();
        let _ = ctrlc::set_handler(move || {
            if s.fetch_add(1, Ordering::SeqCst) == 0 {
                eprintln!("\nstopping after this batch (its checkpoint will be saved); Ctrl-C again to stop now");
            } else {
                eprintln!("\nstopped; the batch in flight is lost, the last checkpoint stands");
                std::process::exit(130);
            }
        });
    }
    let run_start = Instant::now();
    let progress = Progress::new("spsa", (total - state.iteration) * 2 * config.pairs as u64, "games", mode);
    while state.iteration < total {
        let before = state.games;
        let row = spsa.play_batch(&mut state, &progress);
        // Snapshots at every multiple of snapshot_games the batch crossed (or reached).
        if config.output.snapshot_games > 0 {
            let every = config.output.snapshot_games;
            for g in (before / every + 1)..=(state.games / every) {
                let path = paths.results.join("snapshots").join(format!("games-{:07}.toml", g * every));
                let meta = Meta { name: Some(format!("{}-{}games", config.name, g * every)), ..Meta::default() };
                spsa.weights(&state.theta)
                    .save(&path, &meta)
                    .with_context(|| format!("{}: cannot write", path.display()))?;
            }
        }
        save_checkpoint(&paths.populations.join(CHECKPOINT), config, &state)?;
        let csv = history_csv(&spsa, &state)?;
        write_atomic(&paths.results.join("spsa.csv"), csv.as_bytes())
            .with_context(|| format!("{}: cannot write", paths.results.join("spsa.csv").display()))?;
        progress.set_message(format!("k {} y {:+.2}", row.iteration, row.y_mean));
        if stop.load(Ordering::SeqCst) > 0 {
            progress.finish();
            return Ok(None);
        }
    }
    progress.finish();

    let weights = spsa.weights(&state.theta);
    let meta = Meta {
        name: Some(format!("{}-champion", config.name)),
        seed: Some(config.seed),
        config_hash: Some(format!("{:016x}", fnv1a64(config.to_toml().as_bytes()))),
        date: Some(humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()),
        ..Meta::default()
    };
    let champion_path = paths.results.join("champion.toml");
    weights.save(&champion_path, &meta).with_context(|| format!("{}: cannot write", champion_path.display()))?;
    let mut validation = Vec::new();
    if config.validation.pairs > 0 {
        let vsuite = config.validation.suite(suite.game)?;
        let champion = spsa.player(format!("{}-champion", config.name), &state.theta);
        for (opponent, spec) in &opponents {
            let p = Progress::new(
                &format!("validation vs {}", opponent.name),
                2 * config.validation.pairs as u64,
                "games",
                mode,
            );
            let report = config.validation.play(referee, &champion, opponent, &vsuite, &p)?;
            p.finish();
            if !quiet {
                eprintln!("{}", validation::summary_line(&opponent.name, &report.wdl));
            }
            let game = config.game()?.name();
            let replay = config.validation.replay_command(
                game,
                &config.engine,
                config.settings().max_turns,
                &champion_path,
                spec,
            );
            validation.push((report, replay));
        }
    }
    let g = &config.spsa;
    let report = RunReport {
        name: &config.name,
        summary: format!(
            "SPSA, seed {}, {} iterations of {} pair(s) in batches of {}; a {} c {} A {}·iterations alpha {} gamma {}; \
             engine {} {}; {} games; {} in all.",
            config.seed,
            state.iteration,
            config.pairs,
            config.batch,
            g.a,
            g.c,
            g.big_a,
            g.alpha,
            g.gamma,
            config.engine.search.name(),
            config.engine.limits().describe(),
            state.games,
            format_duration(run_start.elapsed())
        ),
        stopped_early: None,
        champion_path: champion_path.display().to_string(),
        champion: &weights,
        champion_note: format!("the weights after {} iterations ({} games), rounded.", state.iteration, state.games),
        play_off: None,
        anchor_names: &[],
        validation,
        plots: Vec::new(),
    };
    let report_path = paths.results.join("report.md");
    write_atomic(&report_path, report.to_markdown().as_bytes())
        .with_context(|| format!("{}: cannot write", report_path.display()))?;
    if !quiet {
        eprintln!("report {}", report_path.display());
    }
    Ok(Some(champion_path))
}
