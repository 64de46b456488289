//! Every command with `--game surakarta`, end to end: bench (a deterministic signature),
//! bestmove, selfplay, match, tournament, openings, export, play (the line protocol) and a tiny
//! GA run; and tables of other games refused.

use std::io::Write;
use std::process::{Command, Stdio};

mod common;
use common::cli::{bench_nodes, fails, ok, s, BIN};

/// The node signature of `evotune bench --game surakarta --depth 5`.
const SURAKARTA_BENCH_DEPTH_5_NODES: u64 = 151_292;

#[test]
fn bench_and_bestmove() {
    let (out, _) = ok(&["bench", "--game", "surakarta", "--depth", "5"]);
    assert_eq!(
        bench_nodes(&out),
        SURAKARTA_BENCH_DEPTH_5_NODES,
        "search behaviour changed: update the signature and say so"
    );
    // In the bench's 12-move position both sides can capture; the engine takes first.
    let twelve = "a2-b3 d5-d4 d2-e3 d6-d5 f2-f3 d5-c4 e1-d2 b5-b4 e3-f4 f5-e4 e2xe4 d4xf4";
    let (out, _) = ok(&["bestmove", "--game", "surakarta", "--moves", twelve, "--depth", "3"]);
    assert!(out.starts_with("bestmove ") && out.lines().next().unwrap().contains('x'), "{out}");
    let (out, _) =
        ok(&["bestmove", "--game", "surakarta", "--moves", "b2-b3 e5-e4", "--search", "mcts", "--nodes", "300"]);
    assert!(out.starts_with("bestmove "), "{out}");
    let (out, _) =
        ok(&["bestmove", "--game", "surakarta", "--moves", "b2-b3", "--search", "alphabeta", "--depth", "3"]);
    assert!(out.starts_with("bestmove "), "{out}");
    // A Connect6 move, a point off the board, an illegal move: errors naming the move.
    assert!(fails(&["bestmove", "--game", "surakarta", "--moves", "j10"]).contains("j10"));
    assert!(fails(&["bestmove", "--game", "surakarta", "--moves", "a1-a7"]).contains("a1-a7"));
    assert!(fails(&["bestmove", "--game", "surakarta", "--moves", "b2-b4"]).contains("not a step"));
    // A finished game cannot be searched.
    let e = fails(&["bestmove", "--game", "surakarta", "--moves", "b2-b3 e5-e4 b3-b2 e4-e5"]);
    assert!(e.contains("over") && e.contains("repetition"), "{e}");
}

#[test]
fn selfplay_match_tournament_and_openings() {
    let dir = tempfile::tempdir().unwrap();
    let d = |f: &str| dir.path().join(f).to_str().unwrap().to_string();
    ok(&["openings", "--game", "surakarta", "--count", "8", "--turns", "4", "-o", &d("o.txt")]);
    let suite = std::fs::read_to_string(d("o.txt")).unwrap();
    let lines: Vec<&str> = suite.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 8, "{suite}");
    assert!(lines.iter().all(|l| l.split_whitespace().count() == 4), "{suite}");
    let (out, _) = ok(&[
        "match",
        "--game",
        "surakarta",
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
    ]);
    assert!(out.contains("8 games, W ") && out.contains("Elo "), "{out}");
    let records = std::fs::read_to_string(d("m.jsonl")).unwrap();
    for line in records.lines() {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(r["game"], "surakarta");
        let reason = r["reason"].as_str().unwrap();
        assert!(["captured", "repetition", "no-capture", "blocked", "movecap"].contains(&reason), "{r}");
        // Every record replays.
        let moves: Vec<String> = r["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().into()).collect();
        evotune::core::game::Game::replay(&evotune::games::surakarta::Surakarta, &moves).unwrap();
    }
    let (out, _) = ok(&[
        "selfplay",
        "--game",
        "surakarta",
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
    assert!(out.contains("records "), "{out}");
    let (out, _) = ok(&["tournament", "--game", "surakarta", "defaults", "random:1", "--pairs", "1", "--depth", "1"]);
    assert!(out.contains("Ratings (Bradley-Terry"), "{out}");
}

#[test]
fn tables_name_their_game() {
    let dir = tempfile::tempdir().unwrap();
    let sk = dir.path().join("sk.toml");
    let go = dir.path().join("go.toml");
    ok(&["export", "--game", "surakarta", "--weights", "defaults", "-o", s(&sk)]);
    ok(&["export", "--game", "gomoku", "--weights", "defaults", "-o", s(&go)]);
    let text = std::fs::read_to_string(&sk).unwrap();
    assert!(
        text.contains("game = \"surakarta\"") && text.contains("eval = \"features\"") && text.contains("piece = 1000")
    );
    let e = fails(&["bestmove", "--weights", s(&sk), "--depth", "1"]);
    assert!(e.contains("sk.toml") && e.contains("connect6"), "{e}");
    let e = fails(&["bestmove", "--game", "surakarta", "--weights", s(&go), "--depth", "1"]);
    assert!(e.contains("go.toml") && e.contains("surakarta"), "{e}");
    let e = fails(&["bestmove", "--game", "surakarta", "--eval", "roads", "--depth", "1"]);
    assert!(e.contains("roads") && e.contains("features"), "{e}");
    let (header, _) = ok(&["export", "--game", "surakarta", "--weights", s(&sk), "--format", "c"]);
    assert!(header.contains("evotune_surakarta_features_weights"), "{header}");
}

#[test]
fn play_speaks_the_line_protocol() {
    let mut child = Command::new(BIN)
        .args(["play", "--game", "surakarta", "--depth", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"new\ngo\nmove e5-e4\nmove e5-e4\nhello\ngo\nquit\ngo\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "ok", "{text}");
    assert!(lines[1].starts_with("move "), "{text}");
    assert_eq!(lines[2], "ok", "{text}");
    assert!(lines[3].starts_with("error `e5-e4`: e5 is empty"), "{text}");
    assert!(lines[4].starts_with("error unknown command"), "{text}");
    assert!(lines[5].starts_with("move "), "{text}");
    assert_eq!(lines.len(), 6, "nothing after quit: {text}");
}

#[test]
fn a_tiny_surakarta_run_tunes_the_feature_table() {
    let dir = tempfile::tempdir().unwrap();
    let mut config: toml::Table = std::fs::read_to_string("configs/surakarta-quick.toml").unwrap().parse().unwrap();
    config.insert("generations".into(), 2.into());
    config.insert("population".into(), 8.into());
    config.insert("groups".into(), 2.into());
    let set = |config: &mut toml::Table, section: &str, key: &str, v: toml::Value| {
        config.get_mut(section).and_then(|t| t.as_table_mut()).unwrap().insert(key.into(), v);
    };
    set(&mut config, "engine", "depth", 1.into());
    set(&mut config, "hall_of_fame", "pairs", 1.into());
    set(&mut config, "openings", "count", 200.into());
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
    let champion = out.join("results/surakarta-quick/champion.toml");
    let text = std::fs::read_to_string(&champion).unwrap();
    assert!(text.contains("game = \"surakarta\"") && text.contains("eval = \"features\""), "{text}");
    ok(&["bestmove", "--game", "surakarta", "--weights", s(&champion), "--moves", "b2-b3", "--depth", "1"]);
    let e = fails(&["evolve", "--config", s(&path), "--game", "gomoku", "--out", s(&out)]);
    assert!(e.contains("--game gomoku") && e.contains("surakarta"), "{e}");
}
