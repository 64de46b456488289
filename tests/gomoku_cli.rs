//! What only Gomoku has, end to end: its bench signature, its tactics and errors in bestmove,
//! SGF records, its three evaluations in one match, the pbrain protocol. Every command with
//! every game: tests/games.rs.

use std::io::Write;
use std::process::{Command, Stdio};

mod common;
use common::cli::{bench_nodes, fails, ok, BIN};

/// The node signature of `evotune bench --game gomoku --depth 4`.
const GOMOKU_BENCH_DEPTH_4_NODES: u64 = 119666;

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
fn sgf_records_and_the_three_evaluations() {
    let dir = tempfile::tempdir().unwrap();
    let d = |f: &str| dir.path().join(f).to_str().unwrap().to_string();
    let (out, _) = ok(&[
        "match",
        "--game",
        "gomoku",
        "--a",
        "defaults",
        "--b",
        "random:2",
        "--pairs",
        "1",
        "--depth",
        "1",
        "--sgf",
        &d("m.sgf"),
    ]);
    assert!(out.contains("2 games"), "{out}");
    assert!(std::fs::read_to_string(d("m.sgf")).unwrap().contains("GM[4]SZ[15]"));
    // The three evaluations, by name, in a tournament and a match.
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
    let (out, _) = ok(&[
        "match", "--game", "gomoku", "--a", "defaults", "--b", "defaults", "--b-eval", "patterns", "--pairs", "1",
        "--depth", "1",
    ]);
    assert!(out.contains("2 games"), "{out}");
}

#[test]
fn play_keeps_to_the_managers_time_by_default() {
    // No --depth: the best table within the manager's INFO times (the budget of each search
    // is in its MESSAGE line), and a second a move when the manager gives none.
    let mut child = Command::new(BIN)
        .args(["play", "--game", "gomoku", "--verbose"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = "START 15\nINFO timeout_turn 200\nBEGIN\nINFO timeout_turn 0\nINFO timeout_match 60000\nINFO time_left 300\nTURN 7,8\nRESTART\nINFO time_left 2147483647\nINFO timeout_match 0\nBEGIN\nEND\n";
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let budgets: Vec<&str> =
        text.lines().filter(|l| l.starts_with("MESSAGE depth")).map(|l| l.rsplit(' ').next().unwrap()).collect();
    // 200 ms a turn, less the margin; a tenth of 300 ms left, less a fifth; no limit given.
    assert_eq!(budgets, ["160", "24", "1000"], "{text}");
    assert_eq!(text.lines().filter(|l| l.contains(',')).count(), 3, "{text}");
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
