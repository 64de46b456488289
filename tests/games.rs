//! Every registered game through every command, end to end: one conformance test over the
//! registry (`evotune::registry::GAMES`), so that a new game is held to what the others are
//! without a copy of this file (docs/architecture.md, "Add a game"). What only one game has
//! (its bench signature, its protocol, its dice) is tested in that game's own file.

use evotune::registry::{GameRef, GAMES};

mod common;
use common::cli::{bench_nodes, fails, ok, run, s};

/// The first of a game's bench positions, as `--moves` takes it.
fn a_position(game: GameRef) -> &'static str {
    game.bench_positions()[0]
}

/// Moves of a record or an opening suite's line, split.
fn moves(text: &str) -> Vec<String> {
    evotune::core::game::split_moves(text).into_iter().map(String::from).collect()
}

#[test]
fn bench_and_bestmove_answer_with_legal_moves() {
    for &game in GAMES {
        let name = game.name();
        let (a, _) = ok(&["bench", "--game", name, "--depth", "2"]);
        let (b, _) = ok(&["bench", "--game", name, "--depth", "2"]);
        assert_eq!(bench_nodes(&a), bench_nodes(&b), "{name}: bench is not deterministic");
        let position = a_position(game);
        for search in [&["--depth", "1"][..], &["--search", "mcts", "--nodes", "100"]] {
            let (out, _) = ok(&[&["bestmove", "--game", name, "--moves", position][..], search].concat());
            let answer = out.lines().next().and_then(|l| l.strip_prefix("bestmove ")).unwrap_or_else(|| {
                panic!("{name} {search:?}: no bestmove line: {out}");
            });
            let mut line = moves(position);
            line.push(answer.to_string());
            match game.arena().opening_key(&line) {
                Ok(_) | Err(evotune::arena::OpeningError::Decided) => {}
                Err(e) => panic!("{name} {search:?}: `{answer}` after `{position}`: {e:?}"),
            }
        }
        // A move of no game is refused, naming it.
        let e = fails(&["bestmove", "--game", name, "--moves", "zz99"]);
        assert!(e.contains("zz99"), "{name}: {e}");
    }
    // An unknown game is a command-line error (exit 2) listing the games.
    let out = run(&["bench", "--game", "chess"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(GAMES.iter().all(|g| stderr.contains(g.name())), "{stderr}");
}

#[test]
fn openings_match_selfplay_and_tournament() {
    for &game in GAMES {
        let name = game.name();
        let dir = tempfile::tempdir().unwrap();
        let d = |f: &str| dir.path().join(f).to_str().unwrap().to_string();
        ok(&["openings", "--game", name, "--count", "4", "-o", &d("o.txt")]);
        let suite = std::fs::read_to_string(d("o.txt")).unwrap();
        let lines: Vec<&str> = suite.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines.len(), 4, "{name}: {suite}");
        for l in &lines {
            game.arena().opening_key(&moves(l)).unwrap_or_else(|e| panic!("{name}: opening `{l}`: {e:?}"));
        }
        let (out, _) = ok(&[
            "match",
            "--game",
            name,
            "--a",
            "defaults",
            "--b",
            "random:2",
            "--pairs",
            "2",
            "--depth",
            "1",
            "--openings",
            &d("o.txt"),
            "--records",
            &d("m.jsonl"),
        ]);
        assert!(out.contains("4 games, W ") && out.contains("Elo "), "{name}: {out}");
        let records = std::fs::read_to_string(d("m.jsonl")).unwrap();
        assert_eq!(records.lines().count(), 4, "{name}");
        for line in records.lines() {
            let r: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(r["game"], name);
            assert!(!r["reason"].as_str().unwrap().is_empty(), "{name}: {r}");
            // Every record replays: its moves but the last make a legal game not yet over.
            let played: Vec<String> =
                r["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().into()).collect();
            let before_last = &played[..played.len() - 1];
            game.arena().opening_key(before_last).unwrap_or_else(|e| panic!("{name}: record {r}: {e:?}"));
        }
        let (out, _) = ok(&[
            "selfplay",
            "--game",
            name,
            "--a",
            "defaults",
            "--b",
            "defaults",
            "--games",
            "2",
            "--depth",
            "1",
            "--records",
            &d("s.jsonl"),
        ]);
        assert!(out.contains("records "), "{name}: {out}");
        let (out, _) = ok(&["tournament", "--game", name, "defaults", "random:1", "--pairs", "1", "--depth", "1"]);
        assert!(out.contains("Ratings (Bradley-Terry"), "{name}: {out}");
    }
}

#[test]
fn tables_name_their_game_and_evaluation() {
    let dir = tempfile::tempdir().unwrap();
    for (i, &game) in GAMES.iter().enumerate() {
        let (name, eval) = (game.name(), game.default_evaluation().name);
        let table = dir.path().join(format!("{name}.toml"));
        ok(&["export", "--game", name, "--weights", "defaults", "-o", s(&table)]);
        let text = std::fs::read_to_string(&table).unwrap();
        assert!(text.contains(&format!("game = \"{name}\"")) && text.contains(&format!("eval = \"{eval}\"")), "{text}");
        let (header, _) = ok(&["export", "--game", name, "--weights", s(&table), "--format", "c"]);
        assert!(header.contains(&format!("evotune_{name}_{eval}_weights")), "{header}");
        // Another game refuses the table, naming the file and the game it expected.
        let other = GAMES[(i + 1) % GAMES.len()].name();
        let e = fails(&["bestmove", "--game", other, "--weights", s(&table), "--depth", "1"]);
        assert!(e.contains(&format!("{name}.toml")) && e.contains(other), "{name} in {other}: {e}");
        // An evaluation the game does not have is refused, listing the game's.
        let e = fails(&["bestmove", "--game", name, "--eval", "no-such-eval", "--depth", "1"]);
        assert!(e.contains("no-such-eval") && e.contains(eval), "{name}: {e}");
    }
}

/// Sets `key` of `[section]` (or of the top level for "") in a config.
fn set(config: &mut toml::Table, section: &str, key: &str, value: toml::Value) {
    let table = if section.is_empty() {
        config
    } else {
        config.entry(section).or_insert_with(|| toml::Table::new().into()).as_table_mut().unwrap()
    };
    table.insert(key.into(), value);
}

/// Each game's built-in quick config, cut down to seconds, tunes a table of the game that
/// its engine then plays; the weights the config holds keep their hand-set values.
#[test]
fn a_tiny_run_of_each_quick_config() {
    for (i, &game) in GAMES.iter().enumerate() {
        let name = game.name();
        let dir = tempfile::tempdir().unwrap();
        let mut config: toml::Table = game.quick_config().text.parse().unwrap();
        set(&mut config, "", "name", "tiny".into());
        set(&mut config, "", "generations", 2.into());
        set(&mut config, "", "population", 4.into());
        set(&mut config, "", "groups", 2.into());
        set(&mut config, "engine", "depth", 1.into());
        set(&mut config, "engine", "vcdt_depth", 0.into());
        set(&mut config, "hall_of_fame", "pairs", 1.into());
        set(&mut config, "openings", "count", 100.into());
        set(&mut config, "final", "candidates", 2.into());
        set(&mut config, "final", "pairs", 1.into());
        set(&mut config, "validation", "pairs", 2.into());
        set(&mut config, "output", "plot", false.into());
        let eval = config.get("eval").and_then(|e| e.as_str()).unwrap_or(game.default_evaluation().name).to_string();
        let held: Vec<String> = config
            .get("init")
            .and_then(|t| t.get("hold"))
            .and_then(|h| h.as_array())
            .map(|h| h.iter().map(|v| v.as_str().unwrap().to_string()).collect())
            .unwrap_or_default();
        let path = dir.path().join("tiny.toml");
        std::fs::write(&path, toml::to_string(&config).unwrap()).unwrap();
        let run_dir = dir.path().join("out");
        let (stdout, stderr) = ok(&["evolve", "--config", s(&path), "--out", s(&run_dir), "--threads", "2", "--log"]);
        assert!(stdout.contains("champion "), "{name}: {stdout}");
        assert!(stderr.contains("validation vs defaults: 4 games"), "{name}: {stderr}");
        let results = run_dir.join("results/tiny");
        let champion = std::fs::read_to_string(results.join("champion.toml")).unwrap();
        assert!(champion.contains(&format!("game = \"{name}\"")), "{name}: {champion}");
        assert!(champion.contains(&format!("eval = \"{eval}\"")), "{name}: {champion}");
        let schema = game.evaluation(&eval).unwrap().schema;
        for h in &held {
            let spec = schema.specs.iter().find(|s| s.name == h).unwrap_or_else(|| panic!("{name}: no weight {h}"));
            assert!(champion.contains(&format!("\n{h} = {} ", spec.default)), "{name}: {h} moved: {champion}");
        }
        // The report's replay command names the game and the engine's settings.
        let report = std::fs::read_to_string(results.join("report.md")).unwrap();
        assert!(report.contains(&format!("--game {name}")) && report.contains("--vcdt-depth 0"), "{name}: {report}");
        let champion = results.join("champion.toml");
        let (out, _) =
            ok(&["bestmove", "--game", name, "--weights", s(&champion), "--moves", a_position(game), "--depth", "1"]);
        assert!(out.starts_with("bestmove "), "{name}: {out}");
        // --game must agree with the config's game.
        let other = GAMES[(i + 1) % GAMES.len()].name();
        let refused = run_dir.join("refused");
        let e = fails(&["evolve", "--config", s(&path), "--game", other, "--out", s(&refused)]);
        assert!(e.contains(&format!("--game {other}")) && e.contains(name), "{name}: {e}");
    }
}
