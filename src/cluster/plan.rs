//! A generation's games on disk, for machines that share the run folder: the plan
//! (`populations/<run>/work/gen-NNNN/plan.json`) and one file per shard of it
//! (`shard-IIII-of-NNNN.json`).
//!
//! The plan holds everything a game needs (the run's config for the engine settings, every
//! player's genes, the openings, each game's seed), so that a shard reads nothing else: not
//! the checkpoint, the anchors' weight files or the opening generator. It is a pure function
//! of the run's state, so planning twice writes the same file. The games are dealt to the N
//! shards class by class ([`deal_by_class`]: games alike in length, one opening with the
//! common player on one side), so that each shard gets its share of every class and no shard
//! gets only the long ones; a shard writes its games' records, in schedule order,
//! atomically: a shard's file is there whole or not at all, and playing a shard whose file
//! is already there does nothing. Which shard plays a game never changes its record.
//!
//! Both kinds of file carry their checksum inside the JSON
//! ([`crate::fsutil::with_checksum`]), and a shard names the hash of the plan it played, so that a shard of another plan is never mixed in.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use crate::arena::game::{GameJob, Referee};
use crate::arena::openings::OpeningSuite;
use crate::arena::player::Player;
use crate::arena::records::GameRecord;
use crate::cluster::steal::{hostname, Attempt, Tally};
use crate::dispatch::deal_by_class;
use crate::fsutil::{fnv1a64, verify_checksum, with_checksum, write_atomic};
use crate::ga::config::EvolveConfig;
use crate::ga::schedule::{Schedule, ScheduledGame};
use crate::report::progress::Progress;
use crate::tuner::lineup::Lineup;

const PLAN_FORMAT: &str = "evotune-plan-3";
const SHARD_FORMAT: &str = "evotune-shard-1";

/// The file of a plan inside its generation's work folder.
pub const PLAN_FILE: &str = "plan.json";

/// Most shards a generation can be split into (SLURM's default `MaxArraySize` is 1001).
pub const MAX_SHARDS: usize = 1000;

/// The folder of generation `generation`'s plan and shards.
pub fn work_dir(populations: &Path, generation: u32) -> PathBuf {
    populations.join("work").join(format!("gen-{generation:04}"))
}

/// The generations that have a work folder under `populations/<run>/work`, by number.
pub fn work_dirs(populations: &Path) -> Vec<(u32, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(populations.join("work")) else { return Vec::new() };
    let mut dirs: Vec<(u32, PathBuf)> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            Some((name.strip_prefix("gen-")?.parse().ok()?, e.path()))
        })
        .collect();
    dirs.sort();
    dirs
}

/// One player of a plan: an individual (a name and its genes, played as the run's lineup
/// plays individuals) or one of the run's anchors.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanPlayer {
    pub name: String,
    pub genes: Vec<i32>,
    /// The anchor it is, by its place in `[hall_of_fame] anchors`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchor: Option<usize>,
}

/// A generation's games, as the shards read them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    format: String,
    /// The run's name, for messages and job names.
    pub run: String,
    /// The generation these games decide.
    pub generation: u32,
    /// How many shards the games are split into.
    pub shards: usize,
    /// The run's config as TOML: the game, evaluation and engine settings of every game.
    pub config: String,
    pub players: Vec<PlanPlayer>,
    /// The openings the games start from, by their index in the run's suite.
    pub openings: BTreeMap<usize, Vec<String>>,
    /// Every game of the generation, in schedule order.
    pub games: Vec<ScheduledGame>,
    /// Each game's class (games alike in length share one), which deals them to the shards.
    pub classes: Vec<usize>,
}

impl Plan {
    /// The plan of `schedule`'s games in `shards` shards.
    pub fn new(config: &EvolveConfig, schedule: &Schedule, suite: &OpeningSuite, shards: usize) -> Plan {
        let openings = schedule.games.iter().map(|g| (g.opening, suite.get(g.opening).to_vec())).collect();
        Plan {
            format: PLAN_FORMAT.into(),
            run: config.name.clone(),
            generation: schedule.generation,
            shards,
            config: config.to_toml(),
            players: schedule
                .players
                .iter()
                .zip(&schedule.anchor_of)
                .map(|(p, &anchor)| PlanPlayer { name: p.name.clone(), genes: p.weights.values().to_vec(), anchor })
                .collect(),
            openings,
            games: schedule.games.clone(),
            classes: schedule.classes(),
        }
    }

    /// The plan's text: a JSON document with its checksum inside.
    fn text(&self) -> Result<String> {
        Ok(with_checksum(serde_json::to_string(self).context("plan to JSON")?))
    }

    /// Writes the plan into `dir` (atomically) and returns its path.
    pub fn save(&self, dir: &Path) -> Result<PathBuf> {
        let path = dir.join(PLAN_FILE);
        write_atomic(&path, self.text()?.as_bytes()).with_context(|| format!("{}: cannot write", path.display()))?;
        Ok(path)
    }

    /// Reads and verifies a plan.
    pub fn load(path: &Path) -> Result<Plan> {
        let name = path.display();
        let text = std::fs::read_to_string(path).with_context(|| format!("{name}: cannot read the plan"))?;
        let body = verify_checksum(&text).map_err(|e| anyhow::anyhow!("{name}: {e}; plan the generation again"))?;
        let plan: Plan = serde_json::from_str(body).with_context(|| format!("{name}: unreadable plan"))?;
        if plan.format != PLAN_FORMAT {
            bail!("{name}: plan format `{}`, this evotune reads `{PLAN_FORMAT}`", plan.format);
        }
        if plan.shards == 0 || plan.shards > MAX_SHARDS {
            bail!("{name}: {} shards; between 1 and {MAX_SHARDS}", plan.shards);
        }
        if plan.classes.len() != plan.games.len() {
            bail!("{name}: {} classes for {} games", plan.classes.len(), plan.games.len());
        }
        Ok(plan)
    }

    /// The hash that shards name to say which plan they played.
    pub fn hash(&self) -> Result<String> {
        Ok(format!("{:016x}", fnv1a64(self.text()?.as_bytes())))
    }

    /// Whether two plans play the same games (they may split them into other shards).
    pub fn same_games(&self, other: &Plan) -> bool {
        Plan { shards: other.shards, ..self.clone() } == *other
    }

    /// The schedule indices of shard `shard`'s games (1-based shard), in schedule order.
    pub fn games_of(&self, shard: usize) -> impl Iterator<Item = usize> {
        let shard_of = self.shard_of();
        (0..self.games.len()).filter(move |&k| shard_of[k] + 1 == shard)
    }

    /// Each game's shard (0-based).
    fn shard_of(&self) -> Vec<usize> {
        deal_by_class(&self.classes, self.shards)
    }

    /// The path of shard `shard`'s file in `dir`.
    pub fn shard_path(&self, dir: &Path, shard: usize) -> PathBuf {
        dir.join(format!("shard-{shard:04}-of-{:04}.json", self.shards))
    }

    /// Whether `record` is game `k` of this plan: its players, seed and opening (a record
    /// read from a file another process wrote).
    pub fn check_record(&self, k: usize, record: &GameRecord) -> Result<()> {
        let g = &self.games[k];
        let (first, second) = (&self.players[g.first].name, &self.players[g.second].name);
        if record.first != *first
            || record.second != *second
            || record.seed != Some(g.seed)
            || record.opening != Some(g.opening)
        {
            bail!(
                "is {} vs {} (seed {:?}), where the plan has {first} vs {second} (seed {})",
                record.first,
                record.second,
                record.seed,
                g.seed
            );
        }
        Ok(())
    }

    /// The run's config, as the plan carries it.
    pub fn run_config(&self) -> Result<EvolveConfig> {
        EvolveConfig::parse(&self.config, &format!("the plan of {} generation {}", self.run, self.generation))
    }
}

/// What a shard's file holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct ShardFile {
    format: String,
    /// The hash of the plan played.
    plan: String,
    generation: u32,
    shard: usize,
    shards: usize,
    /// The machine that played it and how long it took, for the logs.
    host: String,
    wall_s: f64,
    /// The records of the shard's games, in schedule order.
    records: Vec<GameRecord>,
    /// The shard that played each of them (1-based): with stealing, not always this one.
    #[serde(default)]
    played_by: Vec<usize>,
}

/// What [`play_shard`] did.
#[derive(Clone, Debug, PartialEq)]
pub enum Played {
    /// Wrote this file of its `games` games, having played `own` of them and `stolen` games
    /// of other shards (the rest of its own were played by other shards).
    Wrote { path: PathBuf, games: usize, own: usize, stolen: usize },
    /// The shard's file was already there, valid: nothing to do.
    AlreadyDone(PathBuf),
}

/// A test hook, like `EVOTUNE_FAILPOINT`: `EVOTUNE_SHARD_CRASH=I` aborts shard I half-way
/// through its games (as a node failure or `kill -9` would stop it), once per generation:
/// the retry finds the marker the first attempt left in the work folder and plays through.
pub const SHARD_CRASH_VAR: &str = "EVOTUNE_SHARD_CRASH";

/// Plays shard `shard` (1-based) of `plan` and writes its file into `dir`, unless a valid
/// file of it is already there. `referee` plays the games (the engines, or a test's mock);
/// `lineup` is the run's, resolved from the plan's config.
pub fn play_shard(
    plan: &Plan,
    dir: &Path,
    shard: usize,
    referee: &dyn Referee,
    lineup: &Lineup,
    progress: &Progress,
) -> Result<Played> {
    if shard == 0 || shard > plan.shards {
        bail!(
            "shard {shard}/{}: the plan of generation {} has shards 1 to {}",
            plan.shards,
            plan.generation,
            plan.shards
        );
    }
    let hash = plan.hash()?;
    let path = plan.shard_path(dir, shard);
    if check_shard(plan, &hash, dir, shard).is_ok() {
        return Ok(Played::AlreadyDone(path));
    }
    let players = plan
        .players
        .iter()
        .map(|p| match p.anchor {
            Some(a) => match lineup.anchors.get(a) {
                Some(anchor) => Ok(Player { name: p.name.clone(), ..anchor.player.clone() }),
                None => bail!("the plan's player {} is anchor {a}; the run has {}", p.name, lineup.anchors.len()),
            },
            None => Ok(lineup.individual(p.name.clone(), &p.genes)),
        })
        .collect::<Result<Vec<Player>>>()?;
    let mine: Vec<usize> = plan.games_of(shard).collect();
    // Every game of the plan, by its index: a shard may play any of them.
    let jobs: Vec<GameJob> = plan
        .games
        .iter()
        .map(|g| GameJob {
            first: &players[g.first],
            second: &players[g.second],
            opening: &plan.openings[&g.opening],
            opening_index: g.opening,
            seed: g.seed,
        })
        .collect();
    let start = Instant::now();
    let games_of: Vec<Vec<usize>> = (1..=plan.shards).map(|s| plan.games_of(s).collect()).collect();
    // A shard may play any individual's games (its own, then stolen ones): a tuned outside
    // engine keeps a process for each of the plan's individuals, as the one-machine run
    // does, unless the shard capped it (`cluster play --engine-processes`). Processes start
    // when a game first needs them, whichever thread plays it, and end with the lineup.
    if let Some(engine) = lineup.tuned() {
        let tuned = players.iter().filter(|p| p.outside.as_ref().is_some_and(|e| std::sync::Arc::ptr_eq(e, engine)));
        engine.expect_players(tuned.map(|p| p.weights.values()).collect::<std::collections::BTreeSet<_>>().len());
    }
    let attempt = Attempt::new(plan, &hash, dir, shard);
    let crash = crash_test_marker(dir, shard).map(|marker| (mine.len() / 2, marker));
    let mut tally = Tally::default();
    for round in 0..2 {
        let t = attempt.run(referee, &jobs, &games_of, progress, crash.clone())?;
        tally = Tally { own: tally.own + t.own, stolen: tally.stolen + t.stolen };
        if let Some((_, marker)) = &crash {
            // Its games were played elsewhere before it reached half of them: it still dies
            // once, before its file, so that the retry is tested whatever the others did.
            std::fs::write(marker, b"crashed once\n").with_context(|| format!("{}", marker.display()))?;
            eprintln!("{SHARD_CRASH_VAR}: shard {shard} aborts after {} of its {} games", t.own, mine.len());
            std::process::abort();
        }
        match attempt.collect(&mine) {
            Ok((records, played_by)) => {
                let file = ShardFile {
                    format: SHARD_FORMAT.into(),
                    plan: hash.clone(),
                    generation: plan.generation,
                    shard,
                    shards: plan.shards,
                    host: hostname(),
                    wall_s: start.elapsed().as_secs_f64(),
                    records,
                    played_by,
                };
                let text = with_checksum(serde_json::to_string(&file).context("shard to JSON")?);
                write_atomic(&path, text.as_bytes()).with_context(|| format!("{}: cannot write", path.display()))?;
                return Ok(Played::Wrote { path, games: mine.len(), own: tally.own, stolen: tally.stolen });
            }
            // Damaged records were removed: played again once.
            Err(e) if round == 0 => eprintln!("shard {shard}: {e:#}"),
            Err(e) => return Err(e),
        }
    }
    unreachable!("the second round returns")
}

/// The marker of [`SHARD_CRASH_VAR`] when this shard is to crash now.
fn crash_test_marker(dir: &Path, shard: usize) -> Option<PathBuf> {
    let wanted: usize = std::env::var(SHARD_CRASH_VAR).ok()?.parse().ok()?;
    let marker = dir.join(format!("crashed-{shard}"));
    (wanted == shard && !marker.exists()).then_some(marker)
}

/// The records of shard `shard` from its file, checked against the plan: the plan's hash,
/// the shard's number and count, and each record's players, opening and seed. The error
/// names the file and what is wrong.
pub fn check_shard(plan: &Plan, hash: &str, dir: &Path, shard: usize) -> Result<Vec<GameRecord>> {
    let path = plan.shard_path(dir, shard);
    let name = path.display();
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!("{name}: missing"),
        Err(e) => bail!("{name}: cannot read: {e}"),
    };
    let body = verify_checksum(&text).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let file: ShardFile = serde_json::from_str(body).with_context(|| format!("{name}: unreadable"))?;
    if file.format != SHARD_FORMAT {
        bail!("{name}: format `{}`, this evotune reads `{SHARD_FORMAT}`", file.format);
    }
    if file.plan != hash || file.generation != plan.generation {
        bail!("{name}: played from another plan (generation {}, plan {})", file.generation, file.plan);
    }
    if (file.shard, file.shards) != (shard, plan.shards) {
        bail!("{name}: holds shard {}/{}", file.shard, file.shards);
    }
    let mine: Vec<usize> = plan.games_of(shard).collect();
    if file.records.len() != mine.len() {
        bail!("{name}: {} games where the plan gives the shard {}", file.records.len(), mine.len());
    }
    let game = plan.run_config()?.game()?.arena();
    for (&k, r) in mine.iter().zip(&file.records) {
        plan.check_record(k, r).map_err(|e| anyhow::anyhow!("{name}: game {k} {e}"))?;
        // Every game replayed (cheap beside playing it): a result its moves do not make, or
        // an illegal move, is a damaged or edited file, never a score.
        game.check_record(r).map_err(|e| anyhow::anyhow!("{name}: game {k} ({} vs {}): {e}", r.first, r.second))?;
    }
    Ok(file.records)
}

/// The shards (1-based) without a valid file in `dir`.
pub fn missing_shards(plan: &Plan, dir: &Path) -> Result<Vec<usize>> {
    let hash = plan.hash()?;
    Ok((1..=plan.shards).filter(|&s| check_shard(plan, &hash, dir, s).is_err()).collect())
}

/// How many games of the generation a shard other than their own played (work stealing),
/// from the shards' files (those that cannot be read count none): for the logs.
pub fn played_elsewhere(plan: &Plan, dir: &Path) -> usize {
    (1..=plan.shards)
        .filter_map(|shard| {
            let text = std::fs::read_to_string(plan.shard_path(dir, shard)).ok()?;
            let file: ShardFile = serde_json::from_str(verify_checksum(&text).ok()?).ok()?;
            Some(file.played_by.iter().filter(|&&by| by != shard).count())
        })
        .sum()
}

/// Whether shard `shard`'s file is there (not checked: a cheap test while waiting).
pub fn shard_file_exists(plan: &Plan, dir: &Path, shard: usize) -> bool {
    plan.shard_path(dir, shard).exists()
}

/// Every game's record in schedule order, from all the shards' files. Fails naming every
/// shard that is missing or does not match the plan, and how to play them again.
pub fn gather(plan: &Plan, dir: &Path) -> Result<Vec<GameRecord>> {
    let hash = plan.hash()?;
    let mut by_shard = Vec::with_capacity(plan.shards);
    let mut problems = Vec::new();
    for shard in 1..=plan.shards {
        match check_shard(plan, &hash, dir, shard) {
            Ok(records) => by_shard.push(records.into_iter()),
            Err(e) => problems.push((shard, format!("{e:#}"))),
        }
    }
    if !problems.is_empty() {
        let list: Vec<String> = problems.iter().map(|(_, why)| format!("  {why}")).collect();
        let shards: Vec<String> = problems.iter().map(|(s, _)| s.to_string()).collect();
        bail!(
            "generation {} of {}: {} of {} shards missing, damaged or not of this plan:\n{}\nplay them (again) with \
             `evotune cluster play --run <populations/run> --shard I/{}` for I in {}",
            plan.generation,
            plan.run,
            problems.len(),
            plan.shards,
            list.join("\n"),
            plan.shards,
            shards.join(",")
        );
    }
    // Each shard holds its games in schedule order: deal them back.
    let mut records = Vec::with_capacity(plan.games.len());
    for shard in plan.shard_of() {
        let next = by_shard[shard].next();
        records.push(next.context("a shard ran out of records")?);
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ga::evolve::tests::mock_setup;
    use crate::ga::evolve::Evolver;
    use crate::report::progress::ProgressMode;

    fn hidden() -> Progress {
        Progress::new("t", 0, "games", ProgressMode::Hidden)
    }

    /// Plan, shards and gather give the records of the local executor, in its order, for any
    /// number of shards; the concluded generation is the local one.
    #[test]
    fn shards_gathered_are_the_local_generation() {
        let (mut config, suite, referee) = mock_setup();
        config.hall_of_fame.anchors = vec!["defaults".into()];
        config.hall_of_fame.opponents = 1;
        let lineup = crate::ga::evolve::tests::lineup(&config);
        let ev = Evolver::new(&config, &suite, &referee, &lineup).unwrap();
        let mut local = ev.initial_state().unwrap();
        let local_result = ev.play_generation(&mut local, &hidden()).unwrap();
        let local_next = ev.play_generation(&mut local.clone(), &hidden()).unwrap();
        // 64 shards: more than the 60 games, so that some shards are empty.
        for shards in [1, 3, 64] {
            let mut state = ev.initial_state().unwrap();
            for expected in [&local_result, &local_next] {
                let dir = tempfile::tempdir().unwrap();
                let schedule = ev.schedule(&state);
                let plan = Plan::new(&config, &schedule, &suite, shards);
                let path = plan.save(dir.path()).unwrap();
                let plan = Plan::load(&path).unwrap();
                // Every shard gets its share of every class, give or take one game.
                for class in plan.classes.iter().collect::<std::collections::BTreeSet<_>>() {
                    let counts: Vec<usize> =
                        (1..=shards).map(|s| plan.games_of(s).filter(|&k| plan.classes[k] == *class).count()).collect();
                    let spread = counts.iter().max().unwrap() - counts.iter().min().unwrap();
                    assert!(spread <= 1, "{shards} shards, class {class}: {counts:?}");
                }
                assert_eq!(missing_shards(&plan, dir.path()).unwrap(), (1..=shards).collect::<Vec<_>>());
                for shard in (1..=shards).rev() {
                    let played = play_shard(&plan, dir.path(), shard, &referee, &lineup, &hidden()).unwrap();
                    assert!(matches!(played, Played::Wrote { .. }), "{played:?}");
                }
                let records = gather(&plan, dir.path()).unwrap();
                assert_eq!(records, expected.records, "{shards} shards");
                let result = ev.conclude(&mut state, &schedule, records, Instant::now(), 0.0).unwrap();
                assert_eq!(result.played, expected.played);
                assert_eq!(result.fitness, expected.fitness);
            }
        }
    }

    #[test]
    fn planning_twice_gives_the_same_file_and_a_shard_is_played_once() {
        let (config, suite, referee) = mock_setup();
        let lineup = crate::ga::evolve::tests::lineup(&config);
        let ev = Evolver::new(&config, &suite, &referee, &lineup).unwrap();
        let state = ev.initial_state().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let plan = Plan::new(&config, &ev.schedule(&state), &suite, 4);
        let path = plan.save(dir.path()).unwrap();
        let first = std::fs::read(&path).unwrap();
        Plan::new(&config, &ev.schedule(&state), &suite, 4).save(dir.path()).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), first);
        let Played::Wrote { path: shard, games, own, stolen } =
            play_shard(&plan, dir.path(), 2, &referee, &lineup, &hidden()).unwrap()
        else {
            panic!("not played")
        };
        // Alone, it played its own games and took every other shard's.
        assert_eq!((games, own), (plan.games_of(2).count(), plan.games_of(2).count()));
        assert_eq!(stolen, plan.games.len() - own);
        let written = std::fs::read(&shard).unwrap();
        assert_eq!(
            play_shard(&plan, dir.path(), 2, &referee, &lineup, &hidden()).unwrap(),
            Played::AlreadyDone(shard.clone())
        );
        assert_eq!(std::fs::read(&shard).unwrap(), written);
        let e = format!("{:#}", play_shard(&plan, dir.path(), 5, &referee, &lineup, &hidden()).unwrap_err());
        assert!(e.contains("shard 5/4") && e.contains("shards 1 to 4"), "{e}");
        // Another split of the same games is the same games.
        assert!(Plan::new(&config, &ev.schedule(&state), &suite, 9).same_games(&plan));
    }

    /// A missing shard, a shard of another plan, a damaged one and one with other games are
    /// named, each with what is wrong; nothing is concluded from them.
    #[test]
    fn gather_names_missing_and_mismatched_shards() {
        let (config, suite, referee) = mock_setup();
        let lineup = crate::ga::evolve::tests::lineup(&config);
        let ev = Evolver::new(&config, &suite, &referee, &lineup).unwrap();
        let mut state = ev.initial_state().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let plan = Plan::new(&config, &ev.schedule(&state), &suite, 4);
        for shard in 1..=4 {
            play_shard(&plan, dir.path(), shard, &referee, &lineup, &hidden()).unwrap();
        }
        assert!(gather(&plan, dir.path()).is_ok());
        std::fs::remove_file(plan.shard_path(dir.path(), 3)).unwrap();
        let e = format!("{:#}", gather(&plan, dir.path()).unwrap_err());
        assert!(e.contains("shard-0003-of-0004.json: missing") && e.contains("1 of 4 shards"), "{e}");
        assert!(e.contains("--shard I/4` for I in 3"), "{e}");
        assert_eq!(missing_shards(&plan, dir.path()).unwrap(), vec![3]);

        // Shard 2 of the next generation's plan, copied over this one's.
        let next_dir = tempfile::tempdir().unwrap();
        ev.play_generation(&mut state, &hidden()).unwrap();
        let next = Plan::new(&config, &ev.schedule(&state), &suite, 4);
        play_shard(&next, next_dir.path(), 2, &referee, &lineup, &hidden()).unwrap();
        std::fs::copy(next.shard_path(next_dir.path(), 2), plan.shard_path(dir.path(), 2)).unwrap();
        // Shard 1 cut short.
        let one = plan.shard_path(dir.path(), 1);
        let bytes = std::fs::read(&one).unwrap();
        std::fs::write(&one, &bytes[..bytes.len() - 40]).unwrap();
        let e = format!("{:#}", gather(&plan, dir.path()).unwrap_err());
        assert!(e.contains("3 of 4 shards"), "{e}");
        assert!(e.contains("shard-0001-of-0004.json: truncated or corrupt"), "{e}");
        assert!(e.contains("shard-0002-of-0004.json: played from another plan (generation 2"), "{e}");
        assert!(e.contains("for I in 1,2,3"), "{e}");
        // A shard file of the right plan whose games are not the plan's (hand-edited).
        let four = plan.shard_path(dir.path(), 4);
        let text = std::fs::read_to_string(&four).unwrap();
        let body = verify_checksum(&text).unwrap();
        let mut file: ShardFile = serde_json::from_str(body).unwrap();
        file.records.swap(0, 1);
        std::fs::write(&four, with_checksum(serde_json::to_string(&file).unwrap())).unwrap();
        let e = format!("{:#}", check_shard(&plan, &plan.hash().unwrap(), dir.path(), 4).unwrap_err());
        assert!(e.contains("shard-0004-of-0004.json: game 3 is"), "{e}");
        // Played again, the shards are whole and the generation can be concluded.
        for shard in 1..=4 {
            play_shard(&plan, dir.path(), shard, &referee, &lineup, &hidden()).unwrap();
        }
        assert_eq!(gather(&plan, dir.path()).unwrap().len(), plan.games.len());
    }

    /// Shards played at once on threads of one process steal each other's games; the records
    /// gathered are the local generation's whatever shard played which game.
    #[test]
    fn shards_playing_at_once_steal_and_gather_the_local_generation() {
        let (config, suite, referee) = mock_setup();
        let lineup = crate::ga::evolve::tests::lineup(&config);
        let ev = Evolver::new(&config, &suite, &referee, &lineup).unwrap();
        let state = ev.initial_state().unwrap();
        let local = ev.play_generation(&mut state.clone(), &hidden()).unwrap().records;
        for shards in [2, 5] {
            let dir = tempfile::tempdir().unwrap();
            let plan = Plan::new(&config, &ev.schedule(&state), &suite, shards);
            let played: Vec<Played> = std::thread::scope(|scope| {
                let handles: Vec<_> = (1..=shards)
                    .map(|s| {
                        let (plan, dir, referee, lineup) = (&plan, dir.path(), &referee, &lineup);
                        scope.spawn(move || play_shard(plan, dir, s, referee, lineup, &hidden()).unwrap())
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            // Each game played once: claims are exclusive.
            let total: usize = played
                .iter()
                .map(|p| match p {
                    Played::Wrote { own, stolen, .. } => own + stolen,
                    Played::AlreadyDone(_) => 0,
                })
                .sum();
            assert_eq!(total, plan.games.len(), "{played:?}");
            assert_eq!(gather(&plan, dir.path()).unwrap(), local, "{shards} shards");
        }
    }

    /// An own game claimed by a player that is gone (an earlier attempt of the shard, a
    /// process of this host that ended, a claim not refreshed for the lease) is played again;
    /// a game with a record is not, and a record of the game that differs is an error.
    #[test]
    fn stale_claims_are_played_again_and_records_are_kept_once() {
        let (config, suite, referee) = mock_setup();
        let lineup = crate::ga::evolve::tests::lineup(&config);
        let ev = Evolver::new(&config, &suite, &referee, &lineup).unwrap();
        let state = ev.initial_state().unwrap();
        let local = ev.play_generation(&mut state.clone(), &hidden()).unwrap().records;
        let dir = tempfile::tempdir().unwrap();
        let plan = Plan::new(&config, &ev.schedule(&state), &suite, 2);
        // Shard 2 first: it plays every game but the three of shard 1 claimed below.
        let one: Vec<usize> = plan.games_of(1).collect();
        let claims = dir.path().join(crate::cluster::steal::CLAIMS_DIR);
        std::fs::create_dir_all(&claims).unwrap();
        let claim = |k: usize, text: String| {
            let path = crate::cluster::steal::claim_path(dir.path(), k);
            std::fs::write(&path, text).unwrap();
            path
        };
        let host = crate::cluster::steal::hostname();
        // An earlier attempt of shard 1.
        claim(one[0], format!("shard 1 host {host} pid {} attempt 1.2.3\n", std::process::id()));
        // A process of this host that has ended.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        claim(one[1], format!("shard 2 host {host} pid {dead} attempt {dead}.0.0\n"));
        // Another host's shard, silent for two hours.
        let old = claim(one[2], "shard 2 host elsewhere pid 1 attempt 1.0.0\n".into());
        let two_hours_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
        std::fs::File::options().write(true).open(&old).unwrap().set_modified(two_hours_ago).unwrap();
        let Played::Wrote { own, stolen, .. } = play_shard(&plan, dir.path(), 2, &referee, &lineup, &hidden()).unwrap()
        else {
            panic!("not played")
        };
        assert_eq!((own, stolen), (plan.games_of(2).count(), one.len() - 3));
        let Played::Wrote { own, stolen, games, .. } =
            play_shard(&plan, dir.path(), 1, &referee, &lineup, &hidden()).unwrap()
        else {
            panic!("not played")
        };
        assert_eq!((games, own, stolen), (one.len(), 3, 0));
        assert_eq!(gather(&plan, dir.path()).unwrap(), local);

        // A record of game one[0] that is not the game's: playing the game again refuses it.
        let hash = plan.hash().unwrap();
        let path = crate::cluster::steal::game_path(dir.path(), one[0]);
        let text = std::fs::read_to_string(&path).unwrap();
        let mut file: serde_json::Value = serde_json::from_str(verify_checksum(&text).unwrap()).unwrap();
        file["record"]["result"] = if file["record"]["result"] == "first" { "second" } else { "first" }.into();
        std::fs::write(&path, with_checksum(file.to_string())).unwrap();
        let e = crate::cluster::steal::Attempt::new(&plan, &hash, dir.path(), 1)
            .write_for_test(one[0], local[one[0]].clone())
            .unwrap_err();
        assert!(format!("{e:#}").contains("played twice gave two records"), "{e:#}");
    }

    #[test]
    fn a_damaged_plan_is_refused() {
        let (config, suite, referee) = mock_setup();
        let lineup = crate::ga::evolve::tests::lineup(&config);
        let ev = Evolver::new(&config, &suite, &referee, &lineup).unwrap();
        let state = ev.initial_state().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = Plan::new(&config, &ev.schedule(&state), &suite, 2).save(dir.path()).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replacen("g1-i0", "g1-i9", 1)).unwrap();
        let e = format!("{:#}", Plan::load(&path).unwrap_err());
        assert!(e.contains("plan.json: corrupt (checksum mismatch)"), "{e}");
    }
}
