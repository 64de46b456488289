//! `evotune evolve` end to end: a tiny real run, resume after a kill equals an uninterrupted
//! run, the thread count does not change the champion, a corrupt checkpoint is refused.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_evotune");

/// A small real run of the quick config's kind: 8 individuals in 2 groups, depth 1, a handful
/// of generations, a short play-off and validation.
fn tiny_config(dir: &Path, generations: u32) -> PathBuf {
    let mut config: toml::Table = std::fs::read_to_string("configs/quick.toml").unwrap().parse().unwrap();
    let mut set = |path: &str, value: toml::Value| {
        let mut table = &mut config;
        let mut keys: Vec<&str> = path.split('.').collect();
        let last = keys.pop().unwrap();
        for k in keys {
            table = table.get_mut(k).and_then(|t| t.as_table_mut()).unwrap_or_else(|| panic!("no [{k}]"));
        }
        assert!(table.contains_key(last), "configs/quick.toml has no {path}");
        table.insert(last.into(), value);
    };
    set("name", "tiny".into());
    set("generations", i64::from(generations).into());
    set("population", 8.into());
    set("groups", 2.into());
    set("pairs", 1.into());
    set("engine.depth", 1.into());
    set("hall_of_fame.pairs", 1.into());
    set("openings.count", 200.into());
    set("final.candidates", 2.into());
    set("final.pairs", 2.into());
    set("validation.pairs", 4.into());
    set("output.keep_every", 2.into());
    set("output.plot", false.into());
    let path = dir.join("tiny.toml");
    std::fs::write(&path, toml::to_string(&config).unwrap()).unwrap();
    path
}

fn evotune(args: &[&str]) -> Output {
    let out = Command::new(BIN).args(args).output().expect("run evotune");
    if !out.status.success() {
        panic!("evotune {args:?} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    }
    out
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The champion's weights and the history without wall times: what a run's result is.
fn result_of(out: &Path, run: &str) -> (String, String) {
    let champion = std::fs::read_to_string(out.join("results").join(run).join("champion.toml")).unwrap();
    let weights = champion.split("[weights]").nth(1).unwrap().to_string();
    let history = std::fs::read_to_string(out.join("results").join(run).join("history.csv")).unwrap();
    // Every column but the wall times.
    let header: Vec<&str> = history.lines().next().unwrap().split(',').collect();
    let timed: Vec<usize> = header.iter().enumerate().filter(|(_, h)| h.contains("wall_s")).map(|(i, _)| i).collect();
    assert_eq!(timed.len(), 2, "{header:?}");
    let history: Vec<String> = history
        .lines()
        .map(|l| {
            l.split(',').enumerate().filter(|(i, _)| !timed.contains(i)).map(|(_, c)| c).collect::<Vec<_>>().join(",")
        })
        .collect();
    (weights, history.join("\n"))
}

#[test]
fn tiny_run_writes_everything_and_threads_do_not_matter() {
    let dir = tempfile::tempdir().unwrap();
    let config = tiny_config(dir.path(), 3);
    let one = dir.path().join("one");
    let two = dir.path().join("two");
    let out1 = evotune(&["evolve", "--config", s(&config), "--out", s(&one), "--threads", "1", "--log"]);
    evotune(&["evolve", "--config", s(&config), "--out", s(&two), "--threads", "2", "--log"]);
    let stdout = String::from_utf8_lossy(&out1.stdout);
    assert!(stdout.contains("champion ") && stdout.contains("champion.toml"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out1.stderr);
    assert!(stderr.contains("games per generation"), "the cost is printed first: {stderr}");
    let results = one.join("results/tiny");
    for f in ["champion.toml", "history.csv", "report.md", "champions/gen-0001.toml", "champions/gen-0003.toml"] {
        assert!(results.join(f).exists(), "{f} missing");
    }
    // The report holds the validation match against the hand-set table, and how to replay it.
    let report = std::fs::read_to_string(results.join("report.md")).unwrap();
    assert!(report.contains("## Validation") && report.contains("| defaults | 8 |"), "{report}");
    assert!(report.contains("evotune match --a ") && report.contains("--pairs 4"), "{report}");
    assert!(stderr.contains("validation vs defaults: 8 games"), "{stderr}");
    // history.csv has the best individual's record against the anchor.
    let history = std::fs::read_to_string(results.join("history.csv")).unwrap();
    assert!(history.lines().next().unwrap().contains("vs_defaults_wins"), "{history}");
    assert!(one.join("populations/tiny/gen-0003.json").exists());
    assert_eq!(result_of(&one, "tiny"), result_of(&two, "tiny"), "1 and 2 threads give different runs");
    // The champion loads where weight files are expected.
    let champion = results.join("champion.toml");
    let out = evotune(&["bestmove", "--moves", "j10 k11k9", "--weights", s(&champion), "--depth", "1"]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("bestmove "));
    let out = evotune(&["export", "--weights", s(&champion), "--format", "c"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("static const int evotune_connect6_roads_weights"));
    // A second run of the same config does not overwrite the first.
    let out = evotune(&["evolve", "--config", s(&config), "--out", s(&one), "--generations", "1", "--log"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("tiny-2"));
    assert!(one.join("results/tiny-2/champion.toml").exists());
}

#[test]
fn killed_and_resumed_run_equals_an_uninterrupted_one() {
    let dir = tempfile::tempdir().unwrap();
    let generations = 8;
    let config = tiny_config(dir.path(), generations);
    let whole = dir.path().join("whole");
    let cut = dir.path().join("cut");
    evotune(&["evolve", "--config", s(&config), "--out", s(&whole), "--log"]);

    // Kill the second run mid-way (after some checkpoint, usually inside a generation).
    let mut child = Command::new(BIN)
        .args(["evolve", "--config", s(&config), "--out", s(&cut), "--log", "--threads", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let checkpoint = cut.join("populations/tiny/gen-0002.json");
    let start = Instant::now();
    while !checkpoint.exists() && start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(checkpoint.exists(), "no checkpoint was written");
    let finished = cut.join("results/tiny/champions").join(format!("gen-{generations:04}.toml"));
    assert!(!finished.exists(), "the run finished before it could be killed; make the test run longer");

    evotune(&["evolve", "--resume", s(&cut.join("populations/tiny")), "--log"]);
    assert_eq!(result_of(&whole, "tiny"), result_of(&cut, "tiny"));
}

#[test]
fn corrupt_checkpoint_is_refused_not_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let config = tiny_config(dir.path(), 2);
    let out = dir.path().join("o");
    evotune(&["evolve", "--config", s(&config), "--out", s(&out), "--log"]);
    let last = out.join("populations/tiny/gen-0002.json");
    let bytes = std::fs::read(&last).unwrap();
    std::fs::write(&last, &bytes[..bytes.len() - 30]).unwrap();
    let run = Command::new(BIN)
        .args(["evolve", "--resume", s(&out.join("populations/tiny")), "--generations", "3", "--log"])
        .output()
        .unwrap();
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("gen-0002.json") && (err.contains("truncated") || err.contains("corrupt")), "{err}");
    assert_eq!(std::fs::read(&last).unwrap(), &bytes[..bytes.len() - 30], "the bad file was touched");
    assert!(!out.join("populations/tiny/gen-0003.json").exists());
}

#[test]
fn bad_config_names_file_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.toml");
    std::fs::write(&path, std::fs::read_to_string("configs/quick.toml").unwrap().replace("groups = ", "grups = "))
        .unwrap();
    let run = Command::new(BIN).args(["evolve", "--config", s(&path), "--out", s(dir.path())]).output().unwrap();
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("bad.toml") && err.contains("grups"), "{err}");
}

#[test]
fn ctrl_c_saves_the_generation_in_flight_and_stops_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let config = tiny_config(dir.path(), 40);
    let out = dir.path().join("o");
    let child = Command::new(BIN)
        .args(["evolve", "--config", s(&config), "--out", s(&out), "--log", "--threads", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let checkpoint = out.join("populations/tiny/gen-0002.json");
    let start = Instant::now();
    while !checkpoint.exists() && start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(5));
    }
    let sent = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    let done = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&done.stdout);
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(done.status.success(), "a first Ctrl-C is a clean stop: {stderr}");
    assert!(stderr.contains("stopping after this generation"), "{stderr}");
    assert!(stdout.contains("evotune evolve --resume"), "{stdout}");
    // The last checkpoint, the history and the champion agree on where the run stopped.
    let checkpoints: Vec<u32> = std::fs::read_dir(out.join("populations/tiny"))
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_prefix("gen-")?.strip_suffix(".json")?.parse().ok())
        .collect();
    let last = *checkpoints.iter().max().unwrap();
    assert!((2..40).contains(&last), "stopped at {last}");
    let history = std::fs::read_to_string(out.join("results/tiny/history.csv")).unwrap();
    assert_eq!(history.lines().count() as u32, last + 1);
    let champion = std::fs::read_to_string(out.join("results/tiny/champion.toml")).unwrap();
    assert!(champion.contains(&format!("generation = {last}")), "{champion}");
}
