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
use crate::ga::finale::{validate, validation_suite};
use crate::ga::fitness::FitnessMode;
use crate::game::connect::Rules;
use crate::player::Player;
use crate::report::history::HistoryRow;
use crate::report::progress::{format_duration, Progress, ProgressMode};
use crate::report::run_report::RunReport;
use crate::report::{history, plots};
use crate::rng::derive_seed;
use crate::weights::{Meta, Weights};

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
    let champion = pool.install(|| evolve(&config, state, &paths, mode, pool.current_num_threads(), &args.compare))?;
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

/// The run's openings: its suite file, or generated from the run's seed; either way without
/// the validation suite's openings, so that the validation match is out of sample.
pub fn opening_suite(config: &EvolveConfig) -> Result<OpeningSuite> {
    let rules = Rules::CONNECT6;
    let mut suite = match &config.openings.file {
        Some(f) => OpeningSuite::load(f, rules).context("[openings] file")?,
        None => OpeningSuite::generate(rules, &config.openings.generator(), derive_seed(&[config.seed, SUITE])),
    };
    if config.validation.pairs > 0 {
        suite.remove_all_of(&validation_suite(config, rules));
        anyhow::ensure!(!suite.is_empty(), "[openings]: every training opening is also a validation opening");
    }
    Ok(suite)
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
    compare: &[String],
) -> Result<Option<PathBuf>> {
    let suite = opening_suite(config)?;
    let referee = EngineReferee { settings: config.games };
    run_loop(config, &mut state, paths, &suite, &referee, mode, threads, true, compare)
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
    compare: &[String],
) -> Result<Option<PathBuf>> {
    let evolver = Evolver::new(config, suite, referee)?;
    // Validation opponents are loaded before any game, so that a bad path fails at once.
    let mut opponents = Vec::new();
    if config.validation.pairs > 0 {
        for spec in config.validation.opponents.iter().chain(compare) {
            let (w, _, _) = crate::player::load_weights(spec, Some(config.eval), suite.rules)
                .with_context(|| format!("validation opponent `{spec}`"))?;
            let name = crate::player::player_name(spec);
            opponents.push((evolver.player_with(name, w.values()), spec.clone()));
        }
    }
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
    let stagnation = config.diversity.stagnation;
    let stagnant = |state: &RunState| stagnation > 0 && Evolver::stagnant_generations(state) >= stagnation;
    while state.generation < config.generations && !stagnant(state) {
        let g = state.generation + 1;
        let progress =
            Progress::new(&format!("gen {g}/{}", config.generations), evolver.games_next(state) as u64, "games", mode);
        let result = evolver.play_generation(state, &progress)?;
        progress.finish();
        if let Some(w) = &mut records {
            for r in &result.records {
                w.write(r)?;
            }
        }
        checkpoint::save(&paths.populations, config, state, &config.output)?;
        write_results(config, state, &result, paths)?;
        if !quiet {
            let row = &result.row;
            let elapsed = run_start.elapsed().as_secs_f64();
            let done = state.generation.saturating_sub(config.generations - remaining);
            let eta = elapsed / f64::from(done.max(1)) * f64::from(config.generations - state.generation);
            progress.println(&generation_line(config, row, &result, eta));
            if result.immigrants > 0 {
                progress.println(&format!(
                    "  diversity {:.3} < {}: {} newcomers replace children",
                    result.bred_diversity, config.diversity.min, result.immigrants
                ));
            }
        }
        if stop.load(Ordering::SeqCst) > 0 {
            return Ok(None);
        }
    }
    let stopped_early = (state.generation < config.generations).then(|| {
        format!(
            "the best individual stayed the same for {stagnation} generations (`[diversity] stagnation`), at generation {}",
            state.generation
        )
    });
    if let (Some(why), false) = (&stopped_early, quiet) {
        eprintln!("stopping: {why}");
    }
    let champion = finish(&evolver, state, paths, mode, &opponents, stopped_early, run_start)?;
    Ok(Some(champion))
}

/// One line per generation, short enough for an 80-column terminal in the common case:
/// fitness, the best individual's record against the first anchor, rates, diversity, speed.
fn generation_line(config: &EvolveConfig, row: &HistoryRow, result: &GenerationResult, eta: f64) -> String {
    let fitness = match config.fitness.mode {
        FitnessMode::Rating | FitnessMode::Anchors => {
            format!("best #{} {:+.0}±{:.0}", row.champion, row.fmax, 1.96 * row.best_se)
        }
        FitnessMode::Li2007 => format!("best #{} f {}/{:.1}/{}", row.champion, row.fmax, row.favg, row.fmin),
    };
    let anchor = row
        .anchors
        .first()
        .map(|a| {
            let w = a.wdl();
            format!(" vs {} {:.0}% of {}", a.name, 100.0 * w.score(), w.games())
        })
        .unwrap_or_default();
    let _ = result;
    format!(
        "gen {}/{}: {fitness}{anchor}; Pm {:.2} div {:.3}; {:.0} games/s, ETA {}",
        row.generation,
        config.generations,
        row.pm_mean,
        row.diversity,
        row.games as f64 / row.wall_s.max(1e-9),
        format_duration(std::time::Duration::from_secs_f64(eta))
    )
}

/// After the last generation: the play-off picks the champion, the validation matches
/// measure it, and champion.toml, report.md and the plots are written.
fn finish(
    evolver: &Evolver,
    state: &RunState,
    paths: &RunPaths,
    mode: ProgressMode,
    opponents: &[(Player, String)],
    stopped_early: Option<String>,
    run_start: Instant,
) -> Result<PathBuf> {
    let config = evolver.config;
    let quiet = mode == ProgressMode::Hidden;
    let schema = evolver.schema;
    let progress = Progress::new("play-off", 0, "games", mode);
    let play_off = evolver.play_off(state, &progress)?;
    progress.finish();
    let champ = play_off.champion();
    let weights = Weights::clamped(schema, champ.genes.clone());
    let meta = Meta {
        name: Some(format!("{}-champion", config.name)),
        generation: champ.generation.map(u64::from).or(Some(u64::from(state.generation))),
        fitness: Some(champ.after.elo),
        seed: Some(config.seed),
        config_hash: Some(config.hash()),
        date: Some(humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()),
        ..Meta::default()
    };
    let champion_path = paths.results.join("champion.toml");
    weights.save(&champion_path, &meta).with_context(|| format!("{}: cannot write", champion_path.display()))?;
    if !quiet {
        eprintln!(
            "champion: #{} rated {:+.0} ± {:.0} over {} games{}",
            champ.id,
            champ.after.elo,
            1.96 * champ.after.se,
            champ.games,
            if play_off.games > 0 {
                format!(" (play-off of {} tables, {} games)", play_off.finalists.len(), play_off.games)
            } else {
                String::new()
            }
        );
    }

    let mut validation = Vec::new();
    if config.validation.pairs > 0 && !opponents.is_empty() {
        let suite = validation_suite(config, evolver.suite.rules);
        let champion = evolver.player_with(format!("{}-champion", config.name), &champ.genes);
        for (opponent, spec) in opponents {
            let progress = Progress::new(
                &format!("validation vs {}", opponent.name),
                2 * config.validation.pairs as u64,
                "games",
                mode,
            );
            let report = validate(evolver, &champion, opponent, &suite, &progress)?;
            progress.finish();
            if !quiet {
                let w = &report.wdl;
                let (lo, hi) = w.elo_ci95();
                eprintln!(
                    "validation vs {}: {} games, W {} D {} L {}, score {:.1}%, Elo {:+.0} ({:+.0} .. {:+.0}), LOS {:.1}%",
                    opponent.name,
                    w.games(),
                    w.wins,
                    w.draws,
                    w.losses,
                    100.0 * w.score(),
                    w.elo(),
                    lo,
                    hi,
                    100.0 * w.los()
                );
            }
            validation.push((report, replay_command(config, &champion_path, spec)));
        }
    }

    let mut plots_written = Vec::new();
    if config.output.plot {
        let mut drawn = Vec::new();
        if !state.history.is_empty() {
            drawn.push(plots::plot_history(&state.history, &paths.results, &format!("evotune run {}", config.name)));
        }
        if !state.hall_of_fame.is_empty() {
            let points: Vec<(u32, Vec<i32>)> =
                state.hall_of_fame.iter().map(|e| (e.generation, e.genes.clone())).collect();
            let title = format!("evotune run {}: the weights of each generation's best", config.name);
            drawn.push(plots::plot_genes(schema, &points, &paths.results, &title));
        }
        for result in drawn {
            match result {
                Ok(files) => {
                    for f in files {
                        if !quiet {
                            eprintln!("plot {}", f.display());
                        }
                        plots_written.push(f);
                    }
                }
                Err(e) => eprintln!("warning: no plot: {e:#}"),
            }
        }
    }
    let e = &config.engine;
    let summary = format!(
        "Seed {}, {} of {} generations, population {} in {} groups, {} pairs per pairing; fitness {}; \
         engine {} {}; {} fitness games; {} in all.",
        config.seed,
        state.generation,
        config.generations,
        config.population,
        config.groups,
        config.pairs,
        match config.fitness.mode {
            FitnessMode::Rating =>
                format!("`rating` (memory {}, prior {})", config.fitness.memory, config.fitness.prior),
            FitnessMode::Anchors =>
                format!("`anchors` (memory {}, prior {})", config.fitness.memory, config.fitness.prior),
            FitnessMode::Li2007 => "`li2007`".into(),
        },
        e.search.name(),
        e.limits().describe(),
        state.history.iter().map(|r| r.games).sum::<u64>(),
        format_duration(run_start.elapsed())
    );
    let report = RunReport {
        name: &config.name,
        summary,
        stopped_early,
        champion_path: champion_path.display().to_string(),
        champion: &weights,
        play_off: &play_off,
        anchor_names: evolver.anchor_names(),
        validation,
        plots: plots_written
            .iter()
            .filter(|p| p.extension().is_some_and(|x| x == "png"))
            .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect(),
    };
    let report_path = paths.results.join("report.md");
    crate::fsutil::write_atomic(&report_path, report.to_markdown().as_bytes())
        .with_context(|| format!("{}: cannot write", report_path.display()))?;
    if !quiet {
        eprintln!("report {}", report_path.display());
    }
    Ok(champion_path)
}

/// The `evotune match` command that plays the same validation games.
fn replay_command(config: &EvolveConfig, champion: &Path, opponent: &str) -> String {
    let e = &config.engine;
    let mut cmd = format!(
        "evotune match --a {} --b {} --pairs {} --search {} --tt-mib {} --max-turns {} --opening-seed {} --seed {}",
        champion.display(),
        opponent,
        config.validation.pairs,
        e.search.name(),
        e.tt_mib,
        config.games.max_turns,
        config.validation.opening_seed,
        config.validation.seed
    );
    let limits = [("--depth", e.depth.map(u64::from)), ("--nodes", e.nodes), ("--time-ms", e.time_ms)];
    for (flag, v) in limits {
        if let Some(v) = v {
            cmd += &format!(" {flag} {v}");
        }
    }
    if let Some([e0, e1]) = config.validation.sprt {
        cmd += &format!(" --sprt {e0},{e1}");
    }
    cmd
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
