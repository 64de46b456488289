//! `evotune tournament` and `evotune reproduce` from the command line: tables printed and
//! written, options checked before any game is played.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_evotune");

#[test]
fn tournament_prints_and_writes_both_tables() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let records = dir.path().join("games.jsonl");
    let o = Command::new(BIN)
        .args(["tournament", "defaults", "r1=random:1", "random:2", "--pairs", "1", "--depth", "1", "--threads", "2"])
        .arg("--out")
        .arg(&out)
        .arg("--records")
        .arg(&records)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout.contains("Scores: +1 win") && stdout.contains("Ratings (Bradley-Terry"), "{stdout}");
    assert!(stdout.contains("r1"), "NAME=SPEC names the player: {stdout}");
    for f in ["scores.csv", "scores.md", "ratings.csv", "ratings.md"] {
        assert!(out.join(f).exists(), "{f}");
    }
    assert_eq!(std::fs::read_to_string(&records).unwrap().lines().count(), 6);
}

#[test]
fn bad_options_fail_with_a_message() {
    let o = Command::new(BIN).args(["tournament", "defaults", "no-such-file.toml"]).output().unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no-such-file.toml"));
    let o = Command::new(BIN).args(["reproduce", "wang2021", "--run", "results/x"]).output().unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--run applies to li2007 only"));
}
