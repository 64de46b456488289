//! `evotune spsa` end to end: a tiny real run writes its champion, history, snapshots and
//! report, and the thread count does not change it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_evotune");

fn tiny_config(dir: &Path) -> PathBuf {
    let mut config: toml::Table = std::fs::read_to_string("configs/spsa-quick.toml").unwrap().parse().unwrap();
    let mut set = |path: &str, value: toml::Value| {
        let mut table = &mut config;
        let mut keys: Vec<&str> = path.split('.').collect();
        let last = keys.pop().unwrap();
        for k in keys {
            table = table.get_mut(k).and_then(|t| t.as_table_mut()).unwrap();
        }
        assert!(table.contains_key(last), "configs/spsa-quick.toml has no {path}");
        table.insert(last.into(), value);
    };
    set("name", "tiny".into());
    set("games", 96.into());
    set("batch", 8.into());
    set("engine.depth", 1.into());
    set("openings.count", 100.into());
    set("validation.pairs", 3.into());
    set("output.snapshot_games", 32.into());
    let path = dir.join("tiny-spsa.toml");
    std::fs::write(&path, toml::to_string(&config).unwrap()).unwrap();
    path
}

fn evotune(args: &[&str]) -> Output {
    let out = Command::new(BIN).args(args).output().expect("run evotune");
    assert!(out.status.success(), "evotune {args:?} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    out
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn tiny_spsa_run_writes_everything_and_threads_do_not_matter() {
    let dir = tempfile::tempdir().unwrap();
    let config = tiny_config(dir.path());
    let one = dir.path().join("one");
    let two = dir.path().join("two");
    let out = evotune(&["spsa", "--config", s(&config), "--out", s(&one), "--threads", "1", "--log"]);
    evotune(&["spsa", "--config", s(&config), "--out", s(&two), "--threads", "2", "--log"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("champion.toml"));
    let results = one.join("results/tiny");
    for f in ["champion.toml", "spsa.csv", "report.md", "snapshots/games-0000032.toml", "snapshots/games-0000096.toml"]
    {
        assert!(results.join(f).exists(), "{f} missing");
    }
    let csv = std::fs::read_to_string(results.join("spsa.csv")).unwrap();
    assert!(csv.starts_with("iteration,games,a_k,c_k,y_mean,wall_s,own1,"), "{csv}");
    assert_eq!(csv.lines().count(), 1 + 48 / 8);
    let report = std::fs::read_to_string(results.join("report.md")).unwrap();
    assert!(report.contains("| defaults | 6 |"), "{report}");
    let weights = |p: &Path| std::fs::read_to_string(p.join("results/tiny/champion.toml")).unwrap();
    let strip = |t: String| t.split("[weights]").nth(1).unwrap().to_string();
    assert_eq!(strip(weights(&one)), strip(weights(&two)));
    // The result loads where weight files are expected.
    let champion = results.join("champion.toml");
    let out = evotune(&["bestmove", "--moves", "j10 k11k9", "--weights", s(&champion), "--depth", "1"]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("bestmove "));
    // A second run into the same folder is refused, with the way out.
    let again = Command::new(BIN).args(["spsa", "--config", s(&config), "--out", s(&one)]).output().unwrap();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("--resume"));
}
