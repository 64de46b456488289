//! What `match` says while it runs and what survives it: an SPRT's progress toward its
//! bounds (not an ETA to the pairs cap), the standings and the games on Ctrl-C, and a match
//! continued from its records.

use std::process::{Command, Stdio};

mod common;
use common::cli::{fails, ok, s, BIN};

/// An SPRT match stops at its verdict, usually long before its pairs run out: its progress
/// says how far the LLR has come toward a bound, never an ETA to the cap (which read 3h41m
/// for a test that ended in minutes).
#[test]
fn sprt_progress_is_the_llr_toward_its_bounds() {
    let (_, err) = ok(&[
        "match",
        "--a",
        "defaults",
        "--b",
        "random:2",
        "--pairs",
        "16",
        "--depth",
        "1",
        "--sprt",
        "0,10",
        "--threads",
        "2",
    ]);
    assert!(!err.contains("ETA"), "{err}");
    assert!(err.contains("LLR ") && err.contains("(-2.94, 2.94)") && err.contains("% of the way to H"), "{err}");
}

/// The moves and results of a records file, without the thinking times.
fn games(path: &std::path::Path) -> Vec<(Vec<String>, String, String)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let g: serde_json::Value = serde_json::from_str(l).unwrap();
            let moves = g["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
            (moves, g["result"].to_string(), g["first"].to_string())
        })
        .collect()
}

/// The summary without its time line.
fn result_lines(out: &str) -> String {
    out.lines().filter(|l| !l.starts_with("time ")).collect::<Vec<_>>().join("\n")
}

/// `match --resume RECORDS` continues a stopped match from its records (a lone game whose
/// partner was in flight is played again) and ends with the uninterrupted match's result and
/// games; records of another match are refused by line.
#[test]
fn a_match_resumed_from_its_records_ends_as_the_uninterrupted_one() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.jsonl");
    let cut = dir.path().join("cut.jsonl");
    let base = ["match", "--a", "defaults", "--b", "random:2", "--pairs", "12", "--depth", "1", "--threads", "2"];
    let (expected, _) = ok(&[&base[..], &["--records", s(&whole)]].concat());
    let text = std::fs::read_to_string(&whole).unwrap();
    let first: Vec<&str> = text.lines().take(9).collect();
    std::fs::write(&cut, first.join("\n") + "\n").unwrap();
    let (out, err) = ok(&[&base[..], &["--resume", s(&cut)]].concat());
    assert!(err.contains("resuming: 4 of 12 pairs played before"), "{err}");
    assert_eq!(result_lines(&out), result_lines(&expected));
    assert_eq!(games(&cut), games(&whole));
    let e =
        fails(&["match", "--a", "defaults", "--b", "random:2", "--pairs", "12", "--seed", "9", "--resume", s(&cut)]);
    assert!(e.contains("cut.jsonl: line 1: not one of this match's 12 pairs"), "{e}");
}

/// Ctrl-C during a match: the games finished are in the records, the standings of the whole
/// pairs are printed as the result would be (score, Elo, pentanomial), the way to continue is
/// said, and the exit status is 130.
#[test]
fn ctrl_c_prints_the_standings_and_keeps_the_games() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("games.jsonl");
    let mut child = Command::new(BIN)
        .args(["match", "--a", "defaults", "--b", "defaults", "--pairs", "5000", "--depth", "1", "--threads", "2"])
        .args(["--sprt", "0,10", "--alpha", "0.001", "--beta", "0.001", "--records", s(&records)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Some games in, the match far from over.
    while std::fs::read_to_string(&records).map_or(0, |t| t.lines().count()) < 6 {
        assert!(child.try_wait().unwrap().is_none(), "the match ended before Ctrl-C");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted: ") && stderr.contains("--resume"), "{stderr}");
    assert!(stdout.contains("pentanomial") && stdout.contains("Elo") && stdout.contains("SPRT"), "{stdout}");
    let kept = games(&records).len();
    let scored: usize = stdout.split(" games, W").next().unwrap().rsplit(' ').next().unwrap().parse().unwrap();
    assert!(scored >= 2 && scored <= kept && kept - scored <= 2 * 8, "{scored} scored, {kept} kept: {stdout}");
}
