//! Every command with `--game gomoku`, end to end: bench (a deterministic signature), bestmove,
//! selfplay, match, tournament, openings, export, play (the pbrain protocol) and a tiny GA
//! run; and a table of one game refused by the other.

use std::io::Write;
use std::process::{Command, Stdio};

mod common;
use common::cli::{bench_nodes, fails, ok, run, s, BIN};

/// The node signature of `evotune bench --game gomoku --depth 4`.
const GOMOKU_BENCH_DEPTH_4_NODES: u64 = 62262;

#[test]
fn bench_and_bestmove() {
    let (out, _) = ok(&["bench", "--game", "gomoku", "--depth", "4"]);
    assert_eq!(
        bench_nodes(&out),
        GOMOKU_BENCH_DEPTH_4_NODES,
        "search behaviour changed: update the signature and say so"
    );
    // Black's four h8..k8 with g8 taken: l8 wins.
    let (out, _) = ok(&["bestmove", "--game", "gomoku", "--moves", "h8 g8 i8 a1 j8 a3 k8 a5", "--depth", "2"]);
    assert_eq!(out.lines().next(), Some("bestmove l8"), "{out}");
    let (out, _) = ok(&["bestmove", "--game", "gomoku", "--moves", "h8 h9", "--search", "mcts", "--nodes", "200"]);
    assert!(out.starts_with("bestmove "), "{out}");
    // A Connect6 pair is not a Gomoku move; a cell off the 15x15 board neither.
    assert!(fails(&["bestmove", "--game", "gomoku", "--moves", "h8 h9i9"]).contains("--moves"));
    assert!(fails(&["bestmove", "--game", "gomoku", "--moves", "s19"]).contains("s19"));
}

#[test]
fn selfplay_match_tournament_and_openings() {
    let dir = tempfile::tempdir().unwrap();
    let d = |f: &str| dir.path().join(f).to_str().unwrap().to_string();
    ok(&["openings", "--game", "gomoku", "--count", "8", "-o", &d("o.txt")]);
    let suite = std::fs::read_to_string(d("o.txt")).unwrap();
    assert_eq!(suite.lines().filter(|l| !l.starts_with('#')).count(), 8);
    let (out, _) = ok(&[
        "match",
        "--game",
        "gomoku",
        "--a",
        "defaults",
        "--b",
        "random:2",
        "--pairs",
        "4",
        "--depth",
        "2",
        "--openings",
        &d("o.txt"),
        "--records",
        &d("m.jsonl"),
        "--sgf",
        &d("m.sgf"),
    ]);
    assert!(out.contains("8 games, W ") && out.contains("Elo "), "{out}");
    let records = std::fs::read_to_string(d("m.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(records.lines().next().unwrap()).unwrap();
    assert_eq!(first["game"], "gomoku");
    assert!(["five", "full", "movecap"].contains(&first["reason"].as_str().unwrap()), "{first}");
    assert!(std::fs::read_to_string(d("m.sgf")).unwrap().starts_with("(;FF[4]GM[Gomoku]"));
    let (out, _) = ok(&[
        "selfplay",
        "--game",
        "gomoku",
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
    assert!(out.contains("records "));
    let (out, _) = ok(&[
        "tournament",
        "--game",
        "gomoku",
        "defaults",
        "random:1",
        "roads=defaults",
        "--pairs",
        "1",
        "--depth",
        "1",
    ]);
    assert!(out.contains("Ratings (Bradley-Terry"), "{out}");
    // The three evaluations, by name, in a match.
    let (out, _) = ok(&[
        "match", "--game", "gomoku", "--a", "defaults", "--b", "defaults", "--b-eval", "patterns", "--pairs", "1",
        "--depth", "1",
    ]);
    assert!(out.contains("2 games"), "{out}");
}

#[test]
fn tables_name_their_game() {
    let dir = tempfile::tempdir().unwrap();
    let go = dir.path().join("go.toml");
    let c6 = dir.path().join("c6.toml");
    ok(&["export", "--game", "gomoku", "--weights", "defaults", "-o", s(&go)]);
    ok(&["export", "--weights", "defaults", "-o", s(&c6)]);
    let text = std::fs::read_to_string(&go).unwrap();
    assert!(
        text.contains("game = \"gomoku\"") && text.contains("eval = \"tuple6\"") && text.contains("opp_flex3 = -8000")
    );
    // Each game refuses the other's table, naming the file and the game.
    let e = fails(&["bestmove", "--weights", s(&go), "--depth", "1"]);
    assert!(e.contains("go.toml") && e.contains("game") && e.contains("connect6"), "{e}");
    let e = fails(&["bestmove", "--game", "gomoku", "--weights", s(&c6), "--depth", "1"]);
    assert!(e.contains("c6.toml") && e.contains("gomoku"), "{e}");
    // An evaluation the game does not have.
    let e = fails(&["bestmove", "--game", "gomoku", "--eval", "roads-global", "--depth", "1"]);
    assert!(e.contains("roads-global") && e.contains("tuple6"), "{e}");
    let (header, _) = ok(&["export", "--game", "gomoku", "--weights", s(&go), "--format", "c"]);
    assert!(header.contains("evotune_gomoku_tuple6_weights"), "{header}");
    // An unknown game is a command-line error (exit 2) listing the games.
    let out = run(&["bench", "--game", "chess"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("gomoku"));
}

#[test]
fn play_speaks_pbrain() {
    let mut child = Command::new(BIN)
        .args(["play", "--game", "gomoku", "--depth", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"ABOUT\nSTART 15\nBEGIN\nTURN 7,8\nTURN 99,1\nEND\nABOUT\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("name=\"evotune\""), "{text}");
    assert_eq!(lines[1], "OK");
    assert_eq!(lines[2], "7,7");
    assert!(lines[3].contains(','), "{text}");
    assert!(lines[4].starts_with("ERROR"), "{text}");
    assert_eq!(lines.len(), 5, "nothing after END: {text}");
}

#[test]
fn a_tiny_gomoku_run_tunes_the_six_tuple_table() {
    let dir = tempfile::tempdir().unwrap();
    let mut config: toml::Table = std::fs::read_to_string("configs/gomoku-quick.toml").unwrap().parse().unwrap();
    config.insert("generations".into(), 2.into());
    config.insert("population".into(), 8.into());
    config.insert("groups".into(), 2.into());
    let set = |config: &mut toml::Table, section: &str, key: &str, v: toml::Value| {
        config.get_mut(section).and_then(|t| t.as_table_mut()).unwrap().insert(key.into(), v);
    };
    set(&mut config, "engine", "depth", 1.into());
    set(&mut config, "engine", "vcdt_depth", 0.into());
    set(&mut config, "hall_of_fame", "pairs", 1.into());
    set(&mut config, "openings", "count", 300.into());
    set(&mut config, "final", "candidates", 2.into());
    set(&mut config, "final", "pairs", 2.into());
    set(&mut config, "validation", "pairs", 4.into());
    set(&mut config, "output", "plot", false.into());
    let path = dir.path().join("g.toml");
    std::fs::write(&path, toml::to_string(&config).unwrap()).unwrap();
    let out = dir.path().join("out");
    let (stdout, stderr) = ok(&["evolve", "--config", s(&path), "--out", s(&out), "--log"]);
    assert!(stdout.contains("champion "), "{stdout}");
    assert!(stderr.contains("validation vs defaults: 8 games"), "{stderr}");
    let champion = out.join("results/gomoku-quick/champion.toml");
    let text = std::fs::read_to_string(&champion).unwrap();
    assert!(text.contains("game = \"gomoku\"") && text.contains("eval = \"tuple6\""), "{text}");
    let report = std::fs::read_to_string(out.join("results/gomoku-quick/report.md")).unwrap();
    assert!(report.contains("--game gomoku") && report.contains("--vcdt-depth 0"), "{report}");
    // The champion plays where a Gomoku table is expected, and --game must match a config.
    ok(&["bestmove", "--game", "gomoku", "--weights", s(&champion), "--moves", "h8", "--depth", "1"]);
    let e = fails(&["evolve", "--config", s(&path), "--game", "connect6", "--out", s(&out)]);
    assert!(e.contains("--game connect6") && e.contains("gomoku"), "{e}");
}
