//! `evotune evolve`: a GA run from a config, or resumed from its checkpoints. Writes a
//! checkpoint, the champion, the hall of fame and history.csv after every generation, so an
//! interrupted run loses at most the generation in flight.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Context, Result};

use crate::arena::game::{play_game, EngineReferee, Referee};
use crate::arena::openings::OpeningSuite;
use crate::arena::records::RecordWriter;
use crate::cli::EvolveArgs;
use crate::commands::thread_pool;
use crate::ga::checkpoint;
use crate::ga::config::EvolveConfig;
use crate::ga::evolve::{Evolver, GenerationResult, RunState};
use crate::game::connect::Rules;
use crate::player::Player;
use crate::report::progress::{format_duration, Progress, ProgressMode};
use crate::report::{history, plots};
use crate::rng::derive_seed;
use crate::weights::Meta;

/// Purpose tag of the run's opening suite seed.
const SUITE: u64 = 0x5017E;

/// Where a run lives.
pub struct RunPaths {
    pub populations: PathBuf,
    pub results: PathBuf,
}

impl RunPaths {
    pub fn new(out: &Path, name: &str) -> RunPaths {
        RunPaths { populations: out.join("populations").join(name), results: out.join("results").join(name) }
    }

    fn in_use(&self) -> bool {
        let non_empty = |p: &Path| std::fs::read_dir(p).map(|mut d| d.next().is_some()).unwrap_or(false);
        non_empty(&self.populations) || non_empty(&self.results)
    }
}

pub fn run(args: &EvolveArgs) -> Result<()> {
    let (config, state, paths) = prepare(args)?;
    let pool = thread_pool(args.threads)?;
    let mode = if args.log { ProgressMode::Lines } else { ProgressMode::Auto };
    let champion = pool.install(|| evolve(&config, state, &paths, mode, pool.current_num_threads()))?;
    match champion {
        Some(path) => println!("champion {}", path.display()),
        None => println!("stopped; resume with: evotune evolve --resume {}", paths.populations.display()),
    }
    Ok(())
}

/// The config, starting state and folders of a new or resumed run.
fn prepare(args: &EvolveArgs) -> Result<(EvolveConfig, RunState, RunPaths)> {
    if let Some(dir) = &args.resume {
        let (mut config, state, path) = checkpoint::load_latest(dir)?;
        if let Some(g) = args.generations {
            config.generations = g;
        }
        if args.seed.is_some() || args.name.is_some() || args.force {
            bail!("--resume continues a run as it was: --seed, --name and --force do not apply");
        }
        let out = match &args.out {
            Some(o) => o.clone(),
            None => dir.parent().and_then(Path::parent).map(Path::to_path_buf).unwrap_or_default(),
        };
        let paths = RunPaths { populations: dir.clone(), results: out.join("results").join(&config.name) };
        eprintln!(
            "resuming {} from {} (generation {} of {})",
            config.name,
            path.display(),
            state.generation,
            config.generations
        );
        return Ok((config, state, paths));
    }
    let mut config = match &args.config {
        Some(p) => EvolveConfig::load(p)?,
        None => EvolveConfig::quick(),
    };
    if let Some(s) = args.seed {
        config.seed = s;
    }
    if let Some(g) = args.generations {
        config.generations = g;
    }
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("."));
    if let Some(n) = &args.name {
        config.name = n.clone();
    }
    config.validate().context("invalid config after command-line overrides")?;
    let mut paths = RunPaths::new(&out, &config.name);
    if paths.in_use() {
        if args.force {
            for d in [&paths.populations, &paths.results] {
                if d.exists() {
                    std::fs::remove_dir_all(d).with_context(|| format!("{}: cannot remove", d.display()))?;
                }
            }
        } else if args.name.is_some() {
            bail!(
                "{} already holds a run: continue it with --resume {}, or pass --force to replace it",
                paths.populations.display(),
                paths.populations.display()
            );
        } else {
            let base = config.name.clone();
            let n = (2..).find(|i| !RunPaths::new(&out, &format!("{base}-{i}")).in_use()).unwrap_or(2);
            config.name = format!("{base}-{n}");
            eprintln!(
                "{} already holds a run (resume it with --resume {}); this one is `{}`",
                RunPaths::new(&out, &base).populations.display(),
                RunPaths::new(&out, &base).populations.display(),
                config.name
            );
            paths = RunPaths::new(&out, &config.name);
        }
    }
    let suite = opening_suite(&config)?;
    let referee = EngineReferee { settings: config.games };
    let state = Evolver::new(&config, &suite, &referee)?.initial_state()?;
    Ok((config, state, paths))
}

/// The run's openings: its suite file, or generated from the run's seed.
pub fn opening_suite(config: &EvolveConfig) -> Result<OpeningSuite> {
    let rules = Rules::CONNECT6;
    match &config.openings.file {
        Some(f) => OpeningSuite::load(f, rules).context("[openings] file"),
        None => Ok(OpeningSuite::generate(rules, &config.openings.generator(), derive_seed(&[config.seed, SUITE]))),
    }
}

/// Milliseconds of one fitness game, measured on two games of the default weights.
fn calibrate(config: &EvolveConfig, suite: &OpeningSuite) -> f64 {
    let schema = config.eval.schema(suite.rules);
    let p =
        Player::new("calibration", schema.defaults(), config.engine.engine_config(config.eval), config.engine.limits());
    let start = Instant::now();
    let games = 2;
    for i in 0..games {
        play_game(&p, &p, suite.get(i), &config.games, i as u64);
    }
    start.elapsed().as_secs_f64() * 1e3 / games as f64
}

/// Runs generations until the config's count or a Ctrl-C. Returns the champion's path, or
/// None when stopped early.
pub fn evolve(
    config: &EvolveConfig,
    mut state: RunState,
    paths: &RunPaths,
    mode: ProgressMode,
    threads: usize,
) -> Result<Option<PathBuf>> {
    let suite = opening_suite(config)?;
    let referee = EngineReferee { settings: config.games };
    run_loop(config, &mut state, paths, &suite, &referee, mode, threads, true)
}

/// The loop, with the referee given (tests use a mock).
#[allow(clippy::too_many_arguments)]
pub fn run_loop(
    config: &EvolveConfig,
    state: &mut RunState,
    paths: &RunPaths,
    suite: &OpeningSuite,
    referee: &dyn Referee,
    mode: ProgressMode,
    threads: usize,
    handle_ctrl_c: bool,
) -> Result<Option<PathBuf>> {
    let evolver = Evolver::new(config, suite, referee)?;
    std::fs::create_dir_all(&paths.populations)
        .with_context(|| format!("{}: cannot create", paths.populations.display()))?;
    std::fs::create_dir_all(paths.results.join("champions"))
        .with_context(|| format!("{}: cannot create", paths.results.display()))?;
    let remaining = config.generations.saturating_sub(state.generation);
    let per_gen = evolver.games_next(state);
    let full_per_gen = config.games_per_generation(config.hall_of_fame.opponents);
    let total = per_gen + full_per_gen * remaining.saturating_sub(1) as usize;
    let quiet = mode == ProgressMode::Hidden;
    if !quiet {
        eprintln!(
            "run {}: {} generations left of {}, population {} in {} groups, {} games per generation ({} in all), {} on {} threads",
            config.name,
            remaining,
            config.generations,
            config.population,
            config.groups,
            full_per_gen,
            total,
            config.engine.limits().describe(),
            threads
        );
        if config.engine.time_ms.is_some() {
            eprintln!("note: [engine] time_ms makes games depend on the machine's load; this run is not reproducible");
        }
        if remaining > 0 {
            let ms = calibrate(config, suite);
            let secs = total as f64 * ms / 1e3 / threads.max(1) as f64;
            eprintln!(
                "estimate: {:.0} ms per game, about {} for the run",
                ms,
                format_duration(std::time::Duration::from_secs_f64(secs))
            );
        }
        eprintln!("checkpoints in {}, results in {}", paths.populations.display(), paths.results.display());
    }
    let stop = Arc::new(AtomicUsize::new(0));
    if handle_ctrl_c {
        let s = stop.clone();
        // A second handler cannot be installed in the same process; tests run the loop
        // without one.
        let _ = ctrlc::set_handler(move || {
            if s.fetch_add(1, Ordering::SeqCst) == 0 {
                eprintln!("\nstopping after this generation (its checkpoint will be saved); Ctrl-C again to stop now");
            } else {
                eprintln!("\nstopped; the generation in flight is lost, the last checkpoint stands");
                std::process::exit(130);
            }
        });
    }
    let mut records = if config.output.records {
        let path = paths.results.join("games.jsonl");
        Some(RecordWriter::append(&path)?)
    } else {
        None
    };
    let run_start = Instant::now();
    let mut champion = None;
    while state.generation < config.generations {
        let g = state.generation + 1;
        let progress =
            Progress::new(&format!("gen {g}/{}", config.generations), evolver.games_next(state) as u64, "games", mode);
        let result = evolver.play_generation(state, &progress);
        progress.finish();
        if let Some(w) = &mut records {
            for r in &result.records {
                w.write(r)?;
            }
        }
        checkpoint::save(&paths.populations, config, state, &config.output)?;
        champion = Some(write_results(config, state, &result, paths)?);
        if !quiet {
            let row = &result.row;
            let elapsed = run_start.elapsed().as_secs_f64();
            let done = state.generation.saturating_sub(config.generations - remaining);
            let eta = elapsed / f64::from(done.max(1)) * f64::from(config.generations - state.generation);
            progress.println(&format!(
                "gen {}/{}: fmax {} favg {:.2} fmin {} champion #{} Pc {:.3} Pm {:.4} diversity {:.3}; {} games in {:.1}s ({:.1}/s, {:.1}% of the time outside games), run ETA {}",
                row.generation,
                config.generations,
                row.fmax,
                row.favg,
                row.fmin,
                row.champion,
                row.pc_mean,
                row.pm_mean,
                row.diversity,
                row.games,
                row.wall_s,
                row.games as f64 / row.wall_s.max(1e-9),
                100.0 * (1.0 - row.games_wall_s / row.wall_s.max(1e-9)),
                format_duration(std::time::Duration::from_secs_f64(eta))
            ));
        }
        if stop.load(Ordering::SeqCst) > 0 {
            return Ok(None);
        }
    }
    if config.output.plot && !state.history.is_empty() {
        match plots::plot_history(&state.history, &paths.results, &format!("evotune run {}", config.name)) {
            Ok(files) if !quiet => files.iter().for_each(|f| eprintln!("plot {}", f.display())),
            Ok(_) => {}
            Err(e) => eprintln!("warning: no plot: {e:#}"),
        }
    }
    Ok(champion.or_else(|| Some(paths.results.join("champion.toml")).filter(|p| p.exists())))
}

/// champion.toml, champions/gen-NNNN.toml and history.csv after a generation.
fn write_results(
    config: &EvolveConfig,
    state: &RunState,
    result: &GenerationResult,
    paths: &RunPaths,
) -> Result<PathBuf> {
    let schema = config.eval.schema(Rules::CONNECT6);
    let best = result.best_individual();
    let meta = Meta {
        name: Some(format!("{}-g{}", config.name, result.generation)),
        generation: Some(u64::from(result.generation)),
        fitness: Some(result.fitness[result.best]),
        seed: Some(config.seed),
        config_hash: Some(config.hash()),
        date: Some(humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()),
        ..Meta::default()
    };
    let weights = best.weights(schema);
    let gen_path = paths.results.join("champions").join(format!("gen-{:04}.toml", result.generation));
    weights.save(&gen_path, &meta).with_context(|| format!("{}: cannot write", gen_path.display()))?;
    let champion = paths.results.join("champion.toml");
    weights.save(&champion, &meta).with_context(|| format!("{}: cannot write", champion.display()))?;
    let csv = history::to_csv(&state.history)?;
    let csv_path = paths.results.join("history.csv");
    crate::fsutil::write_atomic(&csv_path, csv.as_bytes())
        .with_context(|| format!("{}: cannot write", csv_path.display()))?;
    Ok(champion)
}
