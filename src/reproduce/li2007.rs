//! Li Guo 2007, Fig. 1: the champions of generations 50, 100, ..., 300 and two random players
//! in one round robin, each pairing two games with colours swapped, +1 a win, −1 a loss, 0 a
//! draw. The paper reports that the score rises monotonically with generation and that the
//! random players almost never win; the generation-300 champion then beat the hand-set weights
//! "with a clearly higher win rate" (no numbers in the digest).
//!
//! Ours: the paper's GA on the paper's chromosome (the `transitions` evaluation), the same round
//! robin on the champions of a run of ours (`--run`, or a run made here from
//! `configs/li2007.toml`, shortened in the quick setting) but with more games a pairing (two
//! games cannot rank eight players: a pairing's result is then one of three values), the
//! Spearman rank correlation between generation and score as the measure of "rises
//! monotonically", the random players' wins, and a match of the last champion against
//! `defaults`.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::arena::openings::OpeningSuite;
use crate::arena::player::Player;
use crate::arena::tournament::play_tournament;
use crate::arena::tournament::{pairings, TournamentConfig, TournamentReport};
use crate::core::settings::EngineSettings;
use crate::core::weights::Weights;
use crate::ga::checkpoint;
use crate::ga::config::EvolveConfig;
use crate::ga::games::LocalGames;
use crate::ga::prepare::opening_suite;
use crate::ga::run;
use crate::player::random_weights;
use crate::registry::EngineReferee;
use crate::report::plots::{plot_series, Series};
use crate::report::progress::format_duration;
use crate::report::table::{elo, match_cells, signed, Table, MATCH_COLUMNS};
use crate::reproduce::{estimate_secs, game_ms, spearman, suite, Reproduction, Setup, GAME};
use crate::tuner::folder::{RunFolder, RunPaths};

/// The paper's GA settings (`configs/li2007.toml`), built in so that `reproduce` works from any
/// folder.
pub const LI2007_TOML: &str = include_str!("../../configs/li2007.toml");

/// The generations whose champions Fig. 1 compares.
pub const PAPER_GENERATIONS: [u32; 6] = [50, 100, 150, 200, 250, 300];

/// Purposes of the experiment's seeds.
const OPENINGS: u64 = 1;
const TOURNAMENT: u64 = 2;
const MATCH: u64 = 3;

/// Sizes of the experiment.
#[derive(Clone, Debug)]
pub struct Options {
    /// A run's results folder (`results/<run>`) whose champions to take; `None` to evolve one.
    pub run: Option<PathBuf>,
    /// The GA run made when `run` is `None` (it lives under the experiment's output folder).
    pub evolve: EvolveConfig,
    /// Game pairs per pairing of the round robin (the paper: one pair, i.e. two games; ours
    /// more, so that the scores rank the players).
    pub pairs: usize,
    /// Game pairs of the last champion against `defaults`.
    pub match_pairs: usize,
}

impl Options {
    /// The paper's 300-generation GA run; 50 game pairs a pairing (the paper played one),
    /// 200 pairs against `defaults`.
    pub fn full() -> Result<Options> {
        let evolve = EvolveConfig::parse(LI2007_TOML, "configs/li2007.toml (built in)")?;
        Ok(Options { run: None, evolve, pairs: 50, match_pairs: 200 })
    }

    /// Minutes on two cores: the same GA for 60 generations (milestones 10, 20, ..., 60), 25
    /// pairs a pairing, 50 pairs against `defaults`.
    pub fn quick() -> Result<Options> {
        let mut o = Options::full()?;
        o.evolve.name = "li2007-quick".into();
        o.evolve.generations = 60;
        o.evolve.output.keep_every = 10;
        o.pairs = 25;
        o.match_pairs = 50;
        Ok(o)
    }
}

/// Runs the experiment; writes its tables and plots into `setup.out`.
pub fn run(options: &Options, setup: &Setup) -> Result<Reproduction> {
    let mut notes = Vec::new();
    let (run_dir, config, from) = match &options.run {
        Some(dir) => {
            let (config, from) = config_of_run(dir)?;
            (dir.clone(), config, from)
        }
        None => {
            let paths = RunPaths::new(&setup.out, &options.evolve.name);
            (paths.results.clone(), options.evolve.clone(), "made here".to_string())
        }
    };
    let gen_wanted = if options.run.is_none() { Some(options.evolve.generations) } else { None };
    let players_n = PAPER_GENERATIONS.len() + 2;
    let rr_games = 2 * options.pairs * pairings(players_n).len();
    let engine = EngineSettings { eval: Some(config.eval.clone()), ..config.engine.clone() };
    let limits = config.engine.limits();
    let schema = config.schema()?;
    let settings = config.games;
    let (match_suite, trained_on) = held_out_suite(options.match_pairs, setup.seed_for(OPENINGS), &config)?;
    if trained_on > 0 {
        notes.push(format!(
            "{trained_on} opening(s) of the match's suite were among the run's training openings and were left out"
        ));
    }

    // What will be played, and a rough cost from two timed games of the default weights.
    if !setup.quiet() {
        let defaults = Player::new("defaults", schema.defaults(), engine.clone(), limits);
        let ms = game_ms(&defaults, &defaults, &match_suite, &settings, 2);
        let evolve_games = gen_wanted.map_or(0, |g| g as usize * config.games_per_generation(0));
        let total = evolve_games + rr_games + 2 * options.match_pairs;
        let mut plan = String::new();
        if let Some(g) = gen_wanted {
            plan += &format!(
                "evolve `{}` ({} generations x {} games, {} {}; skipped where its checkpoints already are), then ",
                config.name,
                g,
                config.games_per_generation(0),
                engine.search.name(),
                limits.describe()
            );
        } else {
            plan += &format!("take the champions of {} ({}), then ", run_dir.display(), from);
        }
        plan += &format!(
            "a round robin of 6 champions + 2 random players ({} games), then the last champion vs defaults ({} games)",
            rr_games,
            2 * options.match_pairs
        );
        setup.say(&format!("li2007: {plan}"));
        setup.say(&format!(
            "estimate: {} games at about {:.0} ms each, {} on {} threads",
            total,
            ms,
            format_duration(std::time::Duration::from_secs_f64(estimate_secs(total, ms))),
            rayon::current_num_threads()
        ));
    }

    if options.run.is_none() {
        evolve_here(&config, setup)?;
    }
    let available = champion_generations(&run_dir)?;
    let (gens, note) = pick_generations(&available)?;
    if let Some(n) = note {
        setup.say(&format!("note: {n}"));
        notes.push(n);
    }

    // Players: the champions in generation order, then the two random players.
    let mut players = Vec::new();
    for &g in &gens {
        let path = gen_path(&run_dir, g);
        let (weights, _) =
            Weights::load(&path, &[schema]).with_context(|| format!("{}: cannot load the champion", path.display()))?;
        players.push(Player::new(format!("gen-{g}"), weights, engine.clone(), limits));
    }
    for k in 0..2 {
        let seed = setup.seed.wrapping_add(k);
        players.push(Player::new(format!("random:{seed}"), random_weights(schema, seed), engine.clone(), limits));
    }
    let referee = EngineReferee { game: GAME, settings };
    let rr_suite = suite(options.pairs, setup.seed_for(OPENINGS))?;
    let rr_config = TournamentConfig { pairs: options.pairs, seed: setup.seed_for(TOURNAMENT) };
    let report = play_tournament(&referee, &players, &rr_suite, &rr_config, setup.mode, &|_, _| ())?;

    let mut out = Reproduction::new(format!(
        "Li Guo 2007, Fig. 1: generation champions and random players, round robin ({} champions of {}, {} {}, {})",
        gens.len(),
        run_dir.display(),
        engine.search.name(),
        limits.describe(),
        config.eval
    ));
    let fig1 = fig1_table(&report, &gens, &notes);
    out.add("fig1", fig1);
    out.add("scores", report.score_table());
    out.add("ratings", report.rating_table());

    // The last champion against the hand-set weights.
    let last = players[gens.len() - 1].clone();
    let defaults = Player::new("defaults", schema.defaults(), engine.clone(), limits);
    let m = setup.play_match(&referee, &last, &defaults, &match_suite, options.match_pairs, MATCH, &|_, _| {})?;
    let mut mt = Table::new(
        format!("The last champion against the hand-set weights ({} pairs)", options.match_pairs),
        &[&["match"][..], &MATCH_COLUMNS, &["paper"]].concat(),
    );
    mt.set_align(9, crate::report::table::Align::Left);
    let mut cells = vec![format!("{} vs defaults", last.name)];
    cells.extend(match_cells(&m.wdl));
    cells.push("gen-300 beat the hand-set weights clearly (no numbers in the digest)".into());
    mt.row(cells);
    out.add("match", mt);

    out.write(&setup.out)?;
    match plot(&report, &gens, &setup.out) {
        Ok(files) => out.files.extend(files),
        Err(e) => setup.say(&format!("warning: no plot: {e:#}")),
    }
    Ok(out)
}

/// The Fig. 1 table: one row per player with the paper's expectation beside ours, and the
/// summary (Spearman ρ, the random players' wins) as notes.
fn fig1_table(report: &TournamentReport, gens: &[u32], notes: &[String]) -> Table {
    let ratings = report.ratings();
    let mut t = Table::new(
        format!("Fig. 1: score by generation (+1 win, -1 loss, 0 draw; {} game pair(s) per pairing)", report.pairs),
        &["player", "generation", "score", "W", "D", "L", "BT Elo", "+/- 95%", "paper"],
    );
    t.set_align(8, crate::report::table::Align::Left);
    for (i, name) in report.players.iter().enumerate() {
        let w = report.wdl(i);
        let (generation, paper) = match gens.get(i) {
            Some(g) => (g.to_string(), "rises monotonically with generation"),
            None => ("random".to_string(), "almost never wins"),
        };
        t.row(vec![
            name.clone(),
            generation,
            signed(report.score(i)),
            w.wins.to_string(),
            w.draws.to_string(),
            w.losses.to_string(),
            elo(ratings[i].elo),
            elo(ratings[i].error95),
            paper.into(),
        ]);
    }
    let xs: Vec<f64> = gens.iter().map(|&g| f64::from(g)).collect();
    let ys: Vec<f64> = (0..gens.len()).map(|i| report.score(i) as f64).collect();
    let rho = spearman(&xs, &ys);
    let monotone = ys.windows(2).all(|w| w[1] > w[0]);
    t.note(format!(
        "Spearman rank correlation of generation and score: {} (paper: rises monotonically, i.e. 1); strictly rising: {}.",
        rho.map_or("undefined (all scores equal)".to_string(), |r| format!("{r:.3}")),
        if monotone { "yes" } else { "no" }
    ));
    let n = gens.len();
    let random: Vec<String> = (n..report.players.len())
        .map(|i| {
            let w = report.wdl(i);
            format!("{} won {} of {} games ({} draws)", report.players[i], w.wins, w.games(), w.draws)
        })
        .collect();
    t.note(format!("Random players: {} (paper: almost never win).", random.join("; ")));
    for n in notes {
        t.note(format!("Note: {n}"));
    }
    t
}

/// Score and Bradley–Terry Elo against generation; the random players as a horizontal line at
/// their mean.
fn plot(report: &TournamentReport, gens: &[u32], out: &Path) -> Result<Vec<PathBuf>> {
    let ratings = report.ratings();
    let n = gens.len();
    let (x0, x1) = (f64::from(gens[0]), f64::from(gens[n - 1]));
    let randoms = n..report.players.len();
    let mean = |f: &dyn Fn(usize) -> f64| randoms.clone().map(f).sum::<f64>() / randoms.len().max(1) as f64;
    let score = Series::new(
        "generation champions",
        gens.iter().enumerate().map(|(i, &g)| (f64::from(g), report.score(i) as f64, None)).collect(),
    );
    let random_score = mean(&|i| report.score(i) as f64);
    let mut files = plot_series(
        out,
        "fig1-score",
        "Li Guo 2007 Fig. 1 (ours): round-robin score by generation",
        "generation",
        "score (+1 win, -1 loss)",
        &[score, Series::new("random players (mean)", vec![(x0, random_score, None), (x1, random_score, None)])],
    )?;
    let elo_series = Series::new(
        "generation champions (95% error bars)",
        gens.iter()
            .enumerate()
            .map(|(i, &g)| (f64::from(g), ratings[i].elo, Some(ratings[i].error95).filter(|e| e.is_finite())))
            .collect(),
    );
    let random_elo = mean(&|i| ratings[i].elo);
    files.extend(plot_series(
        out,
        "fig1-elo",
        "Li Guo 2007 Fig. 1 (ours): Bradley-Terry Elo by generation",
        "generation",
        "Elo (pool mean 0)",
        &[elo_series, Series::new("random players (mean)", vec![(x0, random_elo, None), (x1, random_elo, None)])],
    )?);
    Ok(files)
}

/// The openings of the last champion's match against `defaults`, held out from the run's GA:
/// the suite's openings that the run's training suite holds (up to symmetry) are left out, so
/// that the match is out of sample. Returns the suite and how many were left out.
fn held_out_suite(pairs: usize, seed: u64, config: &EvolveConfig) -> Result<(OpeningSuite, usize)> {
    // Twice as many as the match plays: a few may be left out, and the generator's sequence
    // does not depend on how many are drawn.
    let mut match_suite = suite(2 * pairs, seed)?;
    let left_out = match_suite.remove_all_of(&opening_suite(config)?);
    if match_suite.len() < pairs {
        bail!(
            "only {} of the match's openings are not among the run's training openings; fewer pairs",
            match_suite.len()
        );
    }
    Ok((match_suite, left_out))
}

/// Evolves the experiment's own run under `setup.out`, continuing it from its checkpoints if
/// an earlier `reproduce` was interrupted.
fn evolve_here(config: &EvolveConfig, setup: &Setup) -> Result<()> {
    let suite = opening_suite(config)?;
    let referee = EngineReferee { game: config.game()?, settings: config.games };
    let lineup = crate::player::evolve_lineup(config, &[])?;
    let folder = RunFolder::lock(RunPaths::new(&setup.out, &config.name))?;
    let paths = &folder.paths;
    let mut state = if checkpoint::exists_in(&paths.populations) {
        let loaded = checkpoint::load_latest(&paths.populations)?;
        if loaded.config.hash() != config.hash() {
            bail!(
                "{} holds a run with another config; remove {} and {} or choose another --out",
                paths.populations.display(),
                paths.populations.display(),
                paths.results.display()
            );
        }
        if loaded.state.generation < config.generations {
            setup.say(&format!("continuing {} from {}", config.name, loaded.path.display()));
        } else {
            setup.say(&format!("reusing the finished run in {}", paths.results.display()));
        }
        loaded.state
    } else {
        crate::ga::evolve::initial_state(config, lineup.schema)?
    };
    if state.generation >= config.generations {
        return Ok(());
    }
    let options = run::Options {
        mode: setup.mode,
        threads: rayon::current_num_threads(),
        games: &LocalGames,
        pause_after: None,
        handle_ctrl_c: !setup.quiet(),
    };
    let done = run::run(config, &mut state, &folder, &suite, &referee, &lineup, &options)?;
    if !matches!(done, crate::tuner::executor::Ended::Champion(_)) {
        bail!("stopped during the GA run; run the same command again to continue it from its last checkpoint");
    }
    Ok(())
}

/// The config a results folder was made with: from its run's checkpoints
/// (`../../populations/<run>`) when they are there, else the paper's config, said so.
fn config_of_run(dir: &Path) -> Result<(EvolveConfig, String)> {
    if !dir.join("champions").is_dir() {
        bail!(
            "{}: no champions/ folder; give the results folder of an evolve run (results/<run>, holding champions/gen-NNNN.toml)",
            dir.display()
        );
    }
    let name = dir.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    let populations = dir.parent().and_then(Path::parent).map(|root| root.join("populations").join(&name));
    if let Some(p) = populations.filter(|p| p.is_dir()) {
        if let Ok(loaded) = checkpoint::load_latest(&p) {
            return Ok((loaded.config, format!("engine settings from {}", p.display())));
        }
    }
    let config = Options::full()?.evolve;
    Ok((config, "no checkpoints found beside it: playing with configs/li2007.toml's engine settings".into()))
}

fn gen_path(dir: &Path, g: u32) -> PathBuf {
    dir.join("champions").join(format!("gen-{g:04}.toml"))
}

/// The generations with a champion file in a results folder, ascending.
fn champion_generations(dir: &Path) -> Result<Vec<u32>> {
    let folder = dir.join("champions");
    let mut gens = Vec::new();
    for e in std::fs::read_dir(&folder).with_context(|| format!("{}: cannot list champions", folder.display()))? {
        let name = e?.file_name().to_string_lossy().into_owned();
        if let Some(g) = name.strip_prefix("gen-").and_then(|r| r.strip_suffix(".toml")).and_then(|n| n.parse().ok()) {
            gens.push(g);
        }
    }
    gens.sort_unstable();
    if gens.is_empty() {
        bail!("{}: no gen-NNNN.toml champions", folder.display());
    }
    Ok(gens)
}

/// The paper's generations when the run has them all; otherwise six evenly spaced generations
/// ending at the last one (each the nearest available), with a note saying so.
pub fn pick_generations(available: &[u32]) -> Result<(Vec<u32>, Option<String>)> {
    let Some(&last) = available.iter().max() else { bail!("the run has no champions") };
    if PAPER_GENERATIONS.iter().all(|g| available.contains(g)) {
        return Ok((PAPER_GENERATIONS.to_vec(), None));
    }
    let mut picked: Vec<u32> = Vec::new();
    for k in 1..=6u32 {
        let target = ((f64::from(last) * f64::from(k) / 6.0).round() as u32).max(1);
        let nearest = available.iter().copied().min_by_key(|&g| (g.abs_diff(target), g)).unwrap_or(last);
        if !picked.contains(&nearest) {
            picked.push(nearest);
        }
    }
    picked.sort_unstable();
    let note = format!(
        "the run's champions end at generation {last}, not the paper's 300: using generations {} (six evenly spaced, ending at the last{})",
        picked.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
        if picked.len() < 6 { "; fewer where the run is shorter than six generations" } else { "" }
    );
    Ok((picked, Some(note)))
}

/// A tiny version of the experiment's GA run, for tests.
#[cfg(test)]
pub(crate) fn tiny_options() -> Options {
    let mut o = Options::quick().unwrap();
    let e = &mut o.evolve;
    e.name = "li2007-tiny".into();
    e.generations = 2;
    e.population = 4;
    e.groups = 2;
    e.engine.depth = Some(1);
    e.engine.tt_mib = 1;
    e.openings.count = 8;
    e.output.plot = false;
    o.pairs = 1;
    o.match_pairs = 1;
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::progress::ProgressMode;

    #[test]
    fn the_papers_generations_or_six_evenly_spaced() {
        let all: Vec<u32> = (1..=300).collect();
        assert_eq!(pick_generations(&all).unwrap(), (PAPER_GENERATIONS.to_vec(), None));
        let sixty: Vec<u32> = (1..=60).collect();
        let (g, note) = pick_generations(&sixty).unwrap();
        assert_eq!(g, vec![10, 20, 30, 40, 50, 60]);
        assert!(note.unwrap().contains("generation 60"));
        let (g, _) = pick_generations(&[1, 2]).unwrap();
        assert_eq!(g, vec![1, 2]);
        // Gaps: the nearest available generation stands in for each of 20, 40, ..., 120
        // (a tie goes to the earlier one), and repeats are dropped.
        let (g, _) = pick_generations(&[3, 9, 31, 60, 61, 120]).unwrap();
        assert_eq!(g, vec![9, 31, 60, 61, 120]);
        assert!(pick_generations(&[]).is_err());
    }

    #[test]
    fn tiny_experiment_runs_end_to_end() {
        let dir = tempfile::tempdir().unwrap();
        let setup = Setup { out: dir.path().to_path_buf(), seed: 1, mode: ProgressMode::Hidden };
        let options = tiny_options();
        let r = run(&options, &setup).unwrap();
        let stems: Vec<&str> = r.tables.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(stems, ["fig1", "scores", "ratings", "match"]);
        let fig1 = &r.tables[0].1;
        assert_eq!(fig1.rows.len(), 4, "generations 1 and 2 plus two random players");
        assert_eq!(fig1.rows[0][..2], ["gen-1", "1"]);
        assert_eq!(fig1.rows[3][1], "random");
        let total: i64 = fig1.rows.iter().map(|r| r[2].parse::<i64>().unwrap()).sum();
        assert_eq!(total, 0, "scores sum to zero");
        for f in [
            "fig1.csv",
            "fig1.md",
            "scores.csv",
            "ratings.md",
            "match.csv",
            "report.md",
            "fig1-score.png",
            "fig1-elo.svg",
        ] {
            assert!(dir.path().join(f).exists(), "{f} missing");
        }
        assert!(dir.path().join("results/li2007-tiny/champions/gen-0002.toml").exists());
        // A second run reuses the finished GA run instead of evolving again.
        let again = run(&options, &setup).unwrap();
        assert_eq!(again.tables[0].1.rows.len(), 4);
        // And --run takes the champions of an existing results folder.
        let from_run = Options { run: Some(dir.path().join("results/li2007-tiny")), ..options };
        let out2 = tempfile::tempdir().unwrap();
        let setup2 = Setup { out: out2.path().to_path_buf(), ..setup };
        let r = run(&from_run, &setup2).unwrap();
        assert!(r.tables[0].1.notes.iter().any(|n| n.contains("ending at the last")));
        assert!(r.title.contains("depth 1"), "the run's engine settings are used: {}", r.title);
    }
}
