//! Tuning an outside engine's own parameters (`[outside]`): evotune itself run as an outside
//! engine is tuned exactly as evotune's engine is in-process, by the GA and by SPSA, with the
//! same seed; a built-in schema written by `evotune schema` round-trips through a run to a
//! champion that loads as evotune's own table; and a small engine with parameters
//! (tests/fixtures/engines/dial.py) is told them by a file, the environment or protocol lines
//! alike, and an individual whose values make it crash loses its games while the run goes on;
//! one whose values the engine refuses (`error` to a parameter line, in each protocol that
//! tells values by lines) loses them too.

mod common;

use std::path::{Path, PathBuf};

use common::cli::{ok, s, BIN};
use common::runs::{dial_config, result_of, tiny_config, tiny_config_of, with_outside};
use evotune::ga::config::EvolveConfig;

const DIAL: &str = "tests/fixtures/engines/dial.py";

/// `evotune schema` for Connect6's roads into `dir/roads.toml`.
fn roads_schema(dir: &Path) -> PathBuf {
    let path = dir.join("roads.toml");
    ok(&["schema", "--game", "connect6", "--eval", "roads", "-o", s(&path)]);
    path
}

/// The outside command that plays as the in-process engine of `engine` settings: evotune
/// itself with the config's engine options.
fn evotune_command(engine: &evotune::core::settings::EngineSettings) -> String {
    format!("{BIN} play --weights {{weights}} {}", engine.cli_args(false).join(" "))
}

/// An `[outside]` table of evotune itself tuned on `schema`.
fn evotune_outside(engine: &evotune::core::settings::EngineSettings, schema: &Path) -> String {
    format!(
        "command = {}\nschema = {}\nformat = \"toml\"\n",
        toml::Value::String(evotune_command(engine)),
        toml::Value::String(s(schema).into())
    )
}

/// The same, its values told by `param` lines of the protocol (evotune started with the
/// schema's defaults, a process told one individual after another), its log in `log`.
fn evotune_outside_by_lines(engine: &evotune::core::settings::EngineSettings, schema: &Path, log: &Path) -> String {
    let command = format!("{BIN} play --weights defaults --eval roads {}", engine.cli_args(false).join(" "));
    format!(
        "command = {}\nschema = {}\nparam_line = \"param {{name}} {{value}}\"\nlog = {}\n",
        toml::Value::String(command),
        toml::Value::String(s(schema).into()),
        toml::Value::String(s(log).into())
    )
}

#[test]
fn the_ga_tunes_evotune_as_an_outside_engine_exactly_as_in_process() {
    let dir = tempfile::tempdir().unwrap();
    let schema = roads_schema(dir.path());
    let inside = tiny_config(dir.path(), 2);
    let config = EvolveConfig::load(&inside).unwrap();
    let text = std::fs::read_to_string(&inside).unwrap();
    let outside = dir.path().join("outside.toml");
    std::fs::write(&outside, with_outside(&text, "tiny-out", &evotune_outside(&config.engine, &schema))).unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    ok(&["evolve", "--config", s(&inside), "--out", s(&a), "--threads", "2", "--log"]);
    let (stdout, stderr) = ok(&["evolve", "--config", s(&outside), "--out", s(&b), "--threads", "2", "--log"]);
    assert!(stdout.contains("results/tiny-out/champion.toml"), "{stdout}");
    assert_eq!(result_of(&a, "tiny"), result_of(&b, "tiny-out"), "{stderr}");
    // The report replays the validation with the engine reading the champion's file.
    let report = std::fs::read_to_string(b.join("results/tiny-out/report.md")).unwrap();
    assert!(report.contains("evotune match --a 'cmd:") && report.contains("champion.toml"), "{report}");

    // A resumed outside run is the uninterrupted one: its checkpoints hold the parameters.
    // (Its values told by `param` lines this time, its processes reused for other
    // individuals: the same games.)
    let by_lines = dir.path().join("by-lines.toml");
    let log = dir.path().join("by-lines.log");
    let lines = evotune_outside_by_lines(&config.engine, &schema, &log);
    std::fs::write(&by_lines, with_outside(&text, "tiny-out", &lines)).unwrap();
    let c = dir.path().join("c");
    ok(&["evolve", "--config", s(&by_lines), "--out", s(&c), "--generations", "1", "--threads", "2", "--log"]);
    std::fs::remove_file(&schema).unwrap();
    let population = c.join("populations/tiny-out");
    ok(&["evolve", "--resume", s(&population), "--generations", "2", "--threads", "2", "--log"]);
    assert_eq!(result_of(&b, "tiny-out"), result_of(&c, "tiny-out"));
    let log = std::fs::read_to_string(&log).unwrap();
    // A process for each side of each thread's game, in each of the two invocations (by
    // file: one for each individual and anchor).
    let started = log.lines().filter(|l| l.contains(": started `")).count();
    assert!(started <= 2 * 2 * 2, "{started} processes started");
}

/// A small SPSA config: 4 batches of 4 iterations at depth 1.
fn tiny_spsa(dir: &Path) -> PathBuf {
    let mut config: toml::Table = std::fs::read_to_string("configs/spsa-quick.toml").unwrap().parse().unwrap();
    config.insert("name".into(), "tiny".into());
    config.insert("games".into(), 32.into());
    config.insert("batch".into(), 4.into());
    let set = |config: &mut toml::Table, section: &str, key: &str, value: toml::Value| {
        config.get_mut(section).and_then(|t| t.as_table_mut()).unwrap().insert(key.into(), value);
    };
    set(&mut config, "engine", "depth", 1.into());
    set(&mut config, "openings", "count", 100.into());
    set(&mut config, "validation", "pairs", 2.into());
    set(&mut config, "output", "snapshot_games", 0.into());
    let path = dir.join("tiny-spsa.toml");
    std::fs::write(&path, toml::to_string(&config).unwrap()).unwrap();
    path
}

/// spsa.csv without its wall times, and the champion's weights.
fn spsa_result(out: &Path, run: &str) -> (String, String) {
    let results = out.join("results").join(run);
    let csv = std::fs::read_to_string(results.join("spsa.csv")).unwrap();
    let rows: Vec<String> = csv
        .lines()
        .map(|l| l.split(',').enumerate().filter(|&(i, _)| i != 5).map(|(_, c)| c).collect::<Vec<_>>().join(","))
        .collect();
    assert!(csv.starts_with("iteration,games,a_k,c_k,y_mean,wall_s,"), "{csv}");
    let champion = std::fs::read_to_string(results.join("champion.toml")).unwrap();
    (rows.join("\n"), champion.split("[weights]").nth(1).unwrap().to_string())
}

#[test]
fn spsa_tunes_evotune_as_an_outside_engine_exactly_as_in_process() {
    let dir = tempfile::tempdir().unwrap();
    let schema = roads_schema(dir.path());
    let inside = tiny_spsa(dir.path());
    let config = evotune::spsa::SpsaConfig::load(&inside).unwrap();
    let text = std::fs::read_to_string(&inside).unwrap();
    let outside = dir.path().join("outside.toml");
    std::fs::write(&outside, with_outside(&text, "tiny-out", &evotune_outside(&config.engine, &schema))).unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    ok(&["spsa", "--config", s(&inside), "--out", s(&a), "--threads", "2", "--log"]);
    ok(&["spsa", "--config", s(&outside), "--out", s(&b), "--threads", "2", "--log"]);
    assert_eq!(spsa_result(&a, "tiny"), spsa_result(&b, "tiny-out"));
}

#[test]
fn a_schema_round_trips_through_a_run_to_a_table_evotune_loads() {
    let dir = tempfile::tempdir().unwrap();
    let schema = roads_schema(dir.path());
    // The schema file is the built-in one, read back.
    let (printed, _) = ok(&["schema", "--game", "connect6", "--eval", "roads"]);
    assert_eq!(printed, std::fs::read_to_string(&schema).unwrap());
    // configs/outside-example.toml tunes the shipped copy, which must not go stale.
    assert_eq!(printed, std::fs::read_to_string("configs/schemas/connect6-roads.toml").unwrap());
    let base = tiny_config(dir.path(), 1);
    let config = EvolveConfig::load(&base).unwrap();
    let outside = dir.path().join("outside.toml");
    let text = std::fs::read_to_string(&base).unwrap().replace("pairs = 4", "pairs = 0");
    std::fs::write(&outside, with_outside(&text, "round", &evotune_outside(&config.engine, &schema))).unwrap();
    let out = dir.path().join("o");
    ok(&["evolve", "--config", s(&outside), "--out", s(&out), "--log"]);
    let champion = out.join("results/round/champion.toml");
    // The champion is a table of evotune's own roads evaluation ...
    let (stdout, _) = ok(&["bestmove", "--moves", "j10 k11k9", "--weights", s(&champion), "--depth", "1"]);
    assert!(stdout.starts_with("bestmove "), "{stdout}");
    // ... and, read with the schema, exports to the engine formats with its values.
    let (lines, _) = ok(&["export", "--weights", s(&champion), "--schema", s(&schema), "--format", "lines"]);
    let (toml_text, _) = ok(&["export", "--weights", s(&champion), "--format", "toml"]);
    let table: toml::Table = toml_text.parse().unwrap();
    let weights = table["weights"].as_table().unwrap();
    assert_eq!(lines.lines().count(), weights.len());
    for line in lines.lines() {
        let (name, value) = line.split_once(' ').unwrap();
        assert_eq!(weights[name].as_integer(), Some(value.parse().unwrap()), "{line}");
    }
    let (json, _) = ok(&["export", "--weights", s(&champion), "--schema", s(&schema), "--format", "json"]);
    assert!(json.contains("\"eval\": \"roads\""), "{json}");
}

#[test]
fn a_tuned_engine_is_told_its_values_and_its_crashes_are_its_losses() {
    let dir = tempfile::tempdir().unwrap();
    let command = format!("command = \"python3 {DIAL}");
    let ways = [
        ("by-file", format!("{command} --weights {{weights}}\"\nformat = \"lines\"\n")),
        ("by-env", format!("{command}\"\nparam_env = \"DIAL_{{name}}\"\n")),
        ("by-lines", format!("{command}\"\nparam_line = \"set {{name}} {{value}}\"\n")),
    ];
    let mut results = Vec::new();
    for (name, how) in &ways {
        let config = dial_config(dir.path(), 1, name, how);
        let out = dir.path().join(name);
        ok(&["evolve", "--config", s(&config), "--out", s(&out), "--threads", "2", "--log"]);
        let records =
            evotune::arena::records::read_records(&out.join("results").join(name).join("games.jsonl")).unwrap();
        let crashes: Vec<_> = records.iter().filter(|r| r.reason.as_str() == "crash").collect();
        assert!(!crashes.is_empty(), "{name}: random values crash some individuals");
        for r in &crashes {
            // The crashing side lost; never the anchor, whose values do not crash.
            let loser = if r.result == evotune::arena::records::Outcome::First { &r.second } else { &r.first };
            assert!(!loser.starts_with("anchor-"), "{name}: {loser} crashed");
            assert!(r.moves.last().unwrap().contains("exit status 3"), "{:?}", r.moves);
        }
        // The GA learns not to crash.
        let champion = std::fs::read_to_string(out.join("results").join(name).join("champion.toml")).unwrap();
        assert!(champion.contains("crash = 0"), "{name}: {champion}");
        let (_, history) = result_of(&out, name);
        results.push(history);
    }
    // However the values reach the engine, it plays the same games.
    assert_eq!(results[0], results[1]);
    assert_eq!(results[0], results[2]);
}

/// Each protocol's parameter lines reach evotune's own engine (Connect6's and the line
/// protocol's `param`, pbrain's `INFO`), and an individual whose value the engine refuses
/// (the schema's range wider than the engine's own bounds, answered `error`/`ERROR`) loses
/// its games as `illegal`, the refusal in its record; the anchor, at the defaults, never.
#[test]
fn an_engine_that_refuses_an_individuals_values_loses_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let runs = [
        ("connect6", "configs/quick.toml", "roads", "param {name} {value}"),
        ("gomoku", "configs/gomoku-quick.toml", "tuple6", "INFO {name} {value}"),
        ("surakarta", "configs/surakarta-quick.toml", "features", "param {name} {value}"),
    ];
    for (game, base, eval, param_line) in runs {
        let here = dir.path().join(game);
        std::fs::create_dir(&here).unwrap();
        // The schema the tuner sees: the first parameter's range twice the engine's.
        let schema = here.join("schema.toml");
        ok(&["schema", "--game", game, "--eval", eval, "-o", s(&schema)]);
        let mut table: toml::Table = std::fs::read_to_string(&schema).unwrap().parse().unwrap();
        let first = table["param"].as_array_mut().unwrap()[0].as_table_mut().unwrap();
        let (min, max) = (first["min"].as_integer().unwrap(), first["max"].as_integer().unwrap());
        first.insert("max".into(), (2 * max - min).into());
        std::fs::write(&schema, toml::to_string(&table).unwrap()).unwrap();

        let inside = tiny_config_of(base, &here, 1);
        let config = EvolveConfig::load(&inside).unwrap();
        let text = std::fs::read_to_string(&inside)
            .unwrap()
            .replace("mode = \"defaults\"", "mode = \"random\"")
            .replace("records = false", "records = true");
        let command = format!(
            "{BIN} play --game {game} --weights defaults --eval {eval} {}",
            config.engine.cli_args(false).join(" ")
        );
        let outside = format!(
            "command = {}\nschema = {}\nparam_line = {}\n",
            toml::Value::String(command),
            toml::Value::String(s(&schema).into()),
            toml::Value::String(param_line.into())
        );
        let path = here.join("refused.toml");
        std::fs::write(&path, with_outside(&text, "refused", &outside)).unwrap();
        ok(&["evolve", "--config", s(&path), "--out", s(&here), "--threads", "2", "--log"]);

        let records = evotune::arena::records::read_records(&here.join("results/refused/games.jsonl")).unwrap();
        let refused: Vec<_> =
            records.iter().filter(|r| r.moves.last().is_some_and(|m| m.contains("refused"))).collect();
        assert!(!refused.is_empty(), "{game}: random values beyond the engine's bounds are refused");
        assert!(refused.len() < records.len(), "{game}: the other individuals play");
        for r in &refused {
            assert_eq!(r.reason.as_str(), "illegal", "{game}: {:?}", r.moves);
            let loser = if r.result == evotune::arena::records::Outcome::First { &r.second } else { &r.first };
            assert!(!loser.starts_with("anchor-"), "{game}: {loser} refused its values");
        }
    }
}
