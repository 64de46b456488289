//! `evotune fit-eval`: positions of recorded games labelled by an outside engine into a file
//! that grows and resumes, then a table's evaluation fitted to the labels, end to end through
//! the command line.

mod common;
use common::cli::{fails, ok, s};

/// The test engine that judges (tests/fixtures/engines/brain.py `judge`): its evaluation
/// depends on the first stone's column, a forced win when it is in column l.
const JUDGE: &str = "cmd:python3 tests/fixtures/engines/brain.py judge";

fn lines(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path).unwrap().lines().map(str::to_string).collect()
}

#[test]
fn fit_eval_labels_resumes_and_writes_a_loadable_table() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("games.jsonl");
    ok(&[
        "selfplay",
        "--game",
        "gomoku",
        "--a",
        "defaults",
        "--b",
        "random:3",
        "--games",
        "4",
        "--depth",
        "1",
        "--threads",
        "1",
        "--records",
        s(&records),
    ]);
    let labels = dir.path().join("labels.jsonl");
    let label = |extra: &[&str]| {
        let mut args = vec!["fit-eval", "--game", "gomoku", "--labels", s(&labels), "--records", s(&records)];
        args.extend(["--judge", JUDGE]);
        args.extend(extra);
        ok(&args).0
    };
    // An interrupted run: three positions labelled, the rest left for the next run.
    let first = label(&["--max-labels", "3"]);
    assert!(first.contains("labelled 3 positions"), "{first}");
    assert_eq!(lines(&labels).len(), 3);
    let second = label(&[]);
    let total = lines(&labels);
    assert!(total.len() > 3, "{second}");
    assert!(second.contains(&format!("labelled {} positions", total.len() - 3)), "{second}");
    // Every position once; a third run has nothing left to label.
    let mut moves: Vec<String> = total.iter().map(|l| l.split("\"eval\"").next().unwrap().to_string()).collect();
    moves.sort();
    moves.dedup();
    assert_eq!(moves.len(), total.len());
    let third = label(&[]);
    assert!(third.contains(": 0 to label"), "{third}");
    assert_eq!(lines(&labels).len(), total.len());
    // The fit writes a table that plays, and prints the loss before and after.
    let out = dir.path().join("fitted.toml");
    let (text, _) = ok(&[
        "fit-eval",
        "--game",
        "gomoku",
        "--labels",
        s(&labels),
        "--mates",
        "result",
        "--holdout",
        "0",
        "--out",
        s(&out),
    ]);
    assert!(text.contains("loss, fitted positions:"), "{text}");
    let table = std::fs::read_to_string(&out).unwrap();
    assert!(table.contains("eval_fitted_to"), "{table}");
    ok(&["bestmove", "--game", "gomoku", "--weights", s(&out), "--moves", "h8", "--depth", "1"]);
}

#[test]
fn fit_eval_errors_name_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let labels = dir.path().join("labels.jsonl");
    let out = dir.path().join("x.toml");
    std::fs::write(&labels, "{\"moves\":[\"h8\",\"i9\"],\"eval\":\"+20\"}\n{\"moves\":[\"h8\"],\"eval\":\"good\"}\n")
        .unwrap();
    let e = fails(&["fit-eval", "--game", "gomoku", "--labels", s(&labels), "--out", s(&out)]);
    assert!(e.contains(&format!("{}:2: eval `good`", labels.display())), "{e}");
    let records = dir.path().join("games.jsonl");
    std::fs::write(&records, "{\"game\":\"gomoku\"}\n").unwrap();
    let fresh = dir.path().join("new.jsonl");
    let e = fails(&["fit-eval", "--game", "gomoku", "--labels", s(&fresh), "--records", s(&records), "--judge", JUDGE]);
    assert!(e.contains(&format!("{}:1: not a game record", records.display())), "{e}");
    let e = fails(&["fit-eval", "--game", "gomoku", "--labels", s(&dir.path().join("none.jsonl")), "--out", s(&out)]);
    assert!(e.contains("none.jsonl: no such label file"), "{e}");
    assert!(!out.exists());
}
