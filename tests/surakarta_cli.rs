//! What only Surakarta has, end to end: its bench signature, its captures and errors in
//! bestmove, its line protocol. Every command with every game: tests/games.rs.

use std::io::Write;
use std::process::{Command, Stdio};

mod common;
use common::cli::{bench_nodes, fails, ok, BIN};

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
