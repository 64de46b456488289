//! What only EinStein has, end to end: its bench signature, the die in bestmove, a match whose
//! dice are shared within a pair, three-move openings, the line protocol with `roll`; and bad
//! positions refused with reasons. Every command with every game: tests/games.rs.

use std::io::Write;
use std::process::{Command, Stdio};

mod common;
use common::cli::{bench_nodes, fails, ok, s, BIN};

/// The node signature of `evotune bench --game einstein --depth 3` (expectimax).
const EINSTEIN_BENCH_DEPTH_3_NODES: u64 = 10_602;

#[test]
fn bench_and_bestmove() {
    let (out, _) = ok(&["bench", "--game", "einstein", "--depth", "3"]);
    assert_eq!(bench_nodes(&out), EINSTEIN_BENCH_DEPTH_3_NODES, "search behaviour changed: update the signature");
    // MCTS at a playout budget: the same moves every time.
    let moves =
        |out: &str| out.lines().filter(|l| l.starts_with("position")).map(|l| l[..24].to_string()).collect::<Vec<_>>();
    let (a, _) = ok(&["bench", "--game", "einstein", "--search", "mcts", "--depth", "1"]);
    let (b, _) = ok(&["bench", "--game", "einstein", "--search", "mcts", "--depth", "1"]);
    assert_eq!(moves(&a), moves(&b));
    assert_eq!(bench_nodes(&a), 6 * 1000, "depth 1 is 1000 playouts a position");
    // Red's cube 5 on d2 with a roll of 5: the corner e1 wins, and every search takes it.
    let win = "123456 654321 5:b4c3 1:e3d3 5:c3d2 1:d3c3 r5";
    for search in ["mcts", "pvs"] {
        let (out, _) = ok(&["bestmove", "--game", "einstein", "--moves", win, "--search", search, "--nodes", "500"]);
        assert!(out.starts_with("bestmove 5:d2e1"), "{search}: {out}");
    }
    // No roll given; a step the roll does not allow; a Connect6 move; a game that is over.
    let e = fails(&["bestmove", "--game", "einstein", "--moves", "123456 654321"]);
    assert!(e.contains("roll"), "{e}");
    let e = fails(&["bestmove", "--game", "einstein", "--moves", "123456 654321 2:b4c3 r1"]);
    assert!(e.contains("2:b4c3") && e.contains("the moves are"), "{e}");
    assert!(fails(&["bestmove", "--game", "einstein", "--moves", "j10"]).contains("j10"));
    let e = fails(&["bestmove", "--game", "einstein", "--moves", "123456 654321 5:b4c3 1:e3d3 5:c3d2 1:d3c3 5:d2e1"]);
    assert!(e.contains("over"), "{e}");
}

#[test]
fn a_match_shares_the_dice_within_each_pair() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("games.jsonl");
    // Plain MCTS against the hybrid evaluation's, 200 playouts a move, 6 pairs.
    let play = |records: &std::path::Path| {
        ok(&[
            "match",
            "--game",
            "einstein",
            "--a",
            "defaults",
            "--b",
            "defaults",
            "--b-eval",
            "plain",
            "--search",
            "mcts",
            "--nodes",
            "200",
            "--pairs",
            "6",
            "--records",
            s(records),
        ])
    };
    let (out, _) = play(&records);
    assert!(out.contains("12 games"), "{out}");
    let games: Vec<serde_json::Value> =
        std::fs::read_to_string(&records).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(games.len(), 12);
    let rolls = |g: &serde_json::Value| -> Vec<String> {
        g["moves"].as_array().unwrap().iter().skip(2).map(|m| m.as_str().unwrap()[..1].to_string()).collect()
    };
    for pair in games.chunks(2) {
        assert_eq!(pair[0]["opening"], pair[1]["opening"]);
        assert_eq!(pair[0]["seed"], pair[1]["seed"], "the pair's dice come from one seed");
        let (x, y) = (rolls(&pair[0]), rolls(&pair[1]));
        let n = x.len().min(y.len());
        assert_eq!(x[..n], y[..n], "the same rolls in the same order");
        assert!(["corner", "captured"].contains(&pair[0]["reason"].as_str().unwrap()));
    }
    // The same match again: the same games.
    let again = dir.path().join("again.jsonl");
    play(&again);
    let strip = |t: String| t.lines().map(|l| l.split("\"first_ms\"").next().unwrap().to_string()).collect::<Vec<_>>();
    assert_eq!(strip(std::fs::read_to_string(&records).unwrap()), strip(std::fs::read_to_string(&again).unwrap()));
}

#[test]
fn openings_and_the_line_protocol() {
    let dir = tempfile::tempdir().unwrap();
    let d = |f: &str| dir.path().join(f).to_str().unwrap().to_string();
    ok(&["openings", "--game", "einstein", "--count", "8", "--turns", "3", "-o", &d("o.txt")]);
    let suite = std::fs::read_to_string(d("o.txt")).unwrap();
    let lines: Vec<&str> = suite.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 8, "{suite}");
    assert!(lines.iter().all(|l| l.split_whitespace().count() == 3), "{suite}");

    let mut child = Command::new(BIN)
        .args(["play", "--game", "einstein", "--search", "mcts", "--nodes", "300"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"move 123456\ngo\nroll 3\ngo\nboard\nquit\n").unwrap();
    let out = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "ok");
    assert!(lines[1].starts_with("move ") && lines[1].len() == 11, "blue's setup: {out}");
    assert_eq!(lines[2], "ok");
    assert!(lines[3].starts_with("move 3:"), "{out}");
    assert!(out.contains("blue to roll"), "{out}");
}
