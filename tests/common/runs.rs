//! GA runs for the integration tests: small configs, running the binary, and what a run's
//! result is (everything it leaves that does not depend on the clock), to compare two runs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use super::cli::{s, BIN};

/// A small real run of the quick config's kind: 8 individuals in 2 groups, depth 1, a handful
/// of generations, a short play-off and validation.
pub fn tiny_config(dir: &Path, generations: u32) -> PathBuf {
    tiny_config_of("configs/quick.toml", dir, generations)
}

/// [`tiny_config`] made from another shipped config (`configs/gomoku-quick.toml`, ...).
pub fn tiny_config_of(base: &str, dir: &Path, generations: u32) -> PathBuf {
    let mut config: toml::Table = std::fs::read_to_string(base).unwrap().parse().unwrap();
    let mut set = |path: &str, value: toml::Value| {
        let mut table = &mut config;
        let mut keys: Vec<&str> = path.split('.').collect();
        let last = keys.pop().unwrap();
        for k in keys {
            table = table.get_mut(k).and_then(|t| t.as_table_mut()).unwrap_or_else(|| panic!("no [{k}]"));
        }
        assert!(table.contains_key(last), "{base} has no {path}");
        table.insert(last.into(), value);
    };
    set("name", "tiny".into());
    set("generations", i64::from(generations).into());
    set("population", 8.into());
    set("groups", 2.into());
    set("pairs", 1.into());
    set("engine.depth", 1.into());
    set("hall_of_fame.pairs", 1.into());
    set("openings.count", 200.into());
    set("final.candidates", 2.into());
    set("final.pairs", 2.into());
    set("validation.pairs", 4.into());
    // The training suite leaves out the validation's first 2,000 openings, generated at the
    // run's start: of one turn they take a tenth of the time of three (0.5 s against 2 s a
    // run), and the failpoint test starts some 90 runs.
    set("validation.turns", 1.into());
    set("output.keep_every", 2.into());
    set("output.plot", false.into());
    let path = dir.join("tiny.toml");
    std::fs::write(&path, toml::to_string(&config).unwrap()).unwrap();
    path
}

pub fn evotune(args: &[&str]) -> Output {
    let out = Command::new(BIN).args(args).output().expect("run evotune");
    if !out.status.success() {
        panic!("evotune {args:?} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    }
    out
}

/// The champion's weights and the history without wall times: what a run's result is.
pub fn result_of(out: &Path, run: &str) -> (String, String) {
    let champion = std::fs::read_to_string(out.join("results").join(run).join("champion.toml")).unwrap();
    let weights = champion.split("[weights]").nth(1).unwrap().to_string();
    let history = std::fs::read_to_string(out.join("results").join(run).join("history.csv")).unwrap();
    // Every column but the wall times.
    let header: Vec<&str> = history.lines().next().unwrap().split(',').collect();
    let timed: Vec<usize> = header.iter().enumerate().filter(|(_, h)| h.contains("wall_s")).map(|(i, _)| i).collect();
    assert_eq!(timed.len(), 2, "{header:?}");
    let history: Vec<String> = history
        .lines()
        .map(|l| {
            l.split(',').enumerate().filter(|(i, _)| !timed.contains(i)).map(|(_, c)| c).collect::<Vec<_>>().join(",")
        })
        .collect();
    (weights, history.join("\n"))
}

/// A smaller run still: 4 players in 2 groups, one hall-of-fame opponent, no anchor, game
/// records on; about a dozen depth-1 games a generation.
pub fn micro_config(dir: &Path, generations: u32) -> PathBuf {
    let text = std::fs::read_to_string(tiny_config(dir, generations))
        .unwrap()
        .replace("population = 8", "population = 4")
        .replace("opponents = 2 ", "opponents = 1 ")
        .replace("anchors = [\"defaults\"]", "anchors = []")
        // Without anchors, fitness is rated over every game (the group round robins).
        .replace("mode = \"anchors\"", "mode = \"rating\"")
        .replace("records = false", "records = true");
    let path = dir.join("micro.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// Everything a finished run leaves that does not depend on the clock: the champion's and
/// every generation champion's weights, the history without wall times, the newest
/// checkpoint's state without wall times, and the game records without thinking times.
#[derive(Debug, PartialEq)]
pub struct RunResult {
    pub champions: Vec<(String, String)>,
    pub history: String,
    pub checkpoints: Vec<String>,
    pub state: serde_json::Value,
    pub records: Vec<serde_json::Value>,
}

pub fn run_result(out: &Path, run: &str) -> RunResult {
    let results = out.join("results").join(run);
    let weights = |p: &Path| {
        let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        text.split("[weights]").nth(1).unwrap().to_string()
    };
    let mut champions = vec![("champion.toml".to_string(), weights(&results.join("champion.toml")))];
    let mut gens: Vec<_> = std::fs::read_dir(results.join("champions")).unwrap().map(|e| e.unwrap().path()).collect();
    gens.sort();
    champions.extend(gens.iter().map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), weights(p))));
    let (_, history) = result_of(out, run);
    let populations = out.join("populations").join(run);
    let mut checkpoints: Vec<String> = std::fs::read_dir(&populations)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    checkpoints.sort();
    let last = checkpoints.iter().rfind(|n| n.starts_with("gen-")).unwrap();
    let text = std::fs::read_to_string(populations.join(last)).unwrap();
    // A checkpoint is `{"checksum": ..., "body": {..., "state": ...}}`.
    let mut checkpoint: serde_json::Value = serde_json::from_str(&text).unwrap();
    let state = checkpoint["body"]["state"].take();
    let mut state = state;
    for row in state["history"].as_array_mut().unwrap() {
        row["wall_s"] = 0.into();
        row["games_wall_s"] = 0.into();
    }
    let records = std::fs::read_to_string(results.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
            v.as_object_mut().unwrap().retain(|k, _| !k.ends_with("_ms"));
            v
        })
        .collect();
    RunResult { champions, history, checkpoints, state, records }
}

/// `config` (a GA or SPSA config's text) with its evaluation replaced by an `[outside]` table
/// (`outside`, its text), the run named `name`.
pub fn with_outside(config: &str, name: &str, outside: &str) -> String {
    let mut table: toml::Table = config.parse().unwrap();
    table.remove("eval").expect("the config names its evaluation");
    table.insert("name".into(), name.into());
    table.insert("outside".into(), toml::Value::Table(outside.parse().unwrap()));
    toml::to_string(&table).unwrap()
}

/// A GA run whose individuals are tests/fixtures/engines/dial.py (two parameters: a seed, and
/// whether it crashes): the tiny config, 8 individuals drawn at random (about half of them
/// crash at their first move), games cut at 12 turns, the engine's defaults as the anchor,
/// records kept. Named `name`; `how` is the rest of its `[outside]` table (the command and
/// how the engine is told its values).
pub fn dial_config(dir: &Path, generations: u32, name: &str, how: &str) -> PathBuf {
    let schema = dir.join("dial-schema.toml");
    std::fs::write(
        &schema,
        "name = \"dial\"\ngame = \"connect6\"\n[[param]]\nname = \"seed\"\ndefault = 0\nmin = 0\nmax = 1000\n\
         [[param]]\nname = \"crash\"\ndefault = 0\nmin = 0\nmax = 1\nstep = 1\n",
    )
    .unwrap();
    let base = std::fs::read_to_string(tiny_config(dir, generations))
        .unwrap()
        .replace("mode = \"defaults\"", "mode = \"random\"")
        .replace("records = false", "records = true")
        .replace("max_turns = 120", "max_turns = 12");
    assert!(base.contains("max_turns = 12") && base.contains("mode = \"random\""), "{base}");
    let outside = format!("schema = {}\n{how}", toml::Value::String(s(&schema).into()));
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, with_outside(&base, name, &outside)).unwrap();
    path
}
