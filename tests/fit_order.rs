//! `evotune fit-order`: a table's move-order weights fitted to another player's recorded
//! moves, end to end through the command line.

mod common;
use common::cli::{fails, ok, s};

#[test]
fn fit_order_learns_a_players_moves_and_writes_a_loadable_table() {
    let dir = tempfile::tempdir().unwrap();
    let train = dir.path().join("train.jsonl");
    let test = dir.path().join("test.jsonl");
    // The hand table's moves at depth 1, against a random table, on two opening suites;
    // without the check for quiet moves, which would take most of the test's time and is
    // not what it is about.
    for (file, seed) in [(&train, "1"), (&test, "2")] {
        ok(&[
            "selfplay",
            "--quiet-refutation-nodes",
            "0",
            "--a",
            "defaults",
            "--b",
            "random:3",
            "--games",
            "12",
            "--depth",
            "1",
            "--threads",
            "1",
            "--opening-seed",
            seed,
            "--records",
            s(file),
        ]);
    }
    let out = dir.path().join("fitted.toml");
    // A start far from the hand table's move order: the uniform random table of seed 5.
    let (text, _) = ok(&[
        "fit-order",
        "--weights",
        "random:5",
        "--records",
        s(&train),
        "--test",
        s(&test),
        "--player",
        "defaults",
        "--out",
        s(&out),
    ]);
    let share = |prefix: &str| -> f64 {
        let line = text.lines().find(|l| l.trim_start().starts_with(prefix)).unwrap_or_else(|| panic!("{text}"));
        let value = line.split(':').nth(1).unwrap().trim();
        value.split('%').next().unwrap().parse().unwrap()
    };
    assert!(text.contains("moves of defaults in 12 games"), "{text}");
    assert!(share("after:") > share("before:"), "{text}");
    assert!(text.contains("test (12 games of"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("round 1: move_")), "{text}");
    // The table loads, names what it was fitted to, and keeps the start's evaluation weights.
    let table = std::fs::read_to_string(&out).unwrap();
    assert!(table.contains("order_fitted_to = \"defaults\""), "{table}");
    ok(&["bestmove", "--weights", s(&out), "--moves", "j10", "--depth", "1"]);
    let random = dir.path().join("random.toml");
    ok(&["export", "--weights", "random:5", "--format", "toml", "--output", s(&random)]);
    let evals = |t: &str| -> Vec<String> {
        t.lines().filter(|l| l.starts_with("own") || l.starts_with("opp")).map(str::to_string).collect()
    };
    assert_eq!(evals(&table), evals(&std::fs::read_to_string(&random).unwrap()));
}

#[test]
fn fit_order_errors_name_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("games.jsonl");
    ok(&["selfplay", "--a", "defaults", "--b", "random:3", "--games", "2", "--depth", "1", "--records", s(&records)]);
    let out = dir.path().join("x.toml");
    let e = fails(&["fit-order", "--records", s(&records), "--player", "cloudict", "--out", s(&out)]);
    assert!(e.contains("no move of `cloudict`") && e.contains("defaults, random:3"), "{e}");
    let e = fails(&["fit-order", "--records", s(&dir.path().join("none.jsonl")), "--player", "x", "--out", s(&out)]);
    assert!(e.contains("none.jsonl"), "{e}");
    let e =
        fails(&["fit-order", "--game", "gomoku", "--records", s(&records), "--player", "defaults", "--out", s(&out)]);
    assert!(e.contains("records of connect6, not gomoku"), "{e}");
    assert!(!out.exists());
}
