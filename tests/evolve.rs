//! `evotune evolve` end to end: a tiny real run, resume after a kill equals an uninterrupted
//! run (at every file-writing step), the thread count does not change the champion, a corrupt
//! checkpoint is refused, a run folder is used by one process at a time.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::cli::{s, BIN};
use common::runs::{evotune, micro_config, result_of, run_result, tiny_config};

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
    // trace.csv times every game of every generation, and each thread, on the run's threads;
    // `scaling` replays it and sets the other run's measurement beside its prediction.
    let trace = std::fs::read_to_string(two.join("results/tiny/trace.csv")).unwrap();
    let games: usize = history.lines().skip(1).map(|l| l.split(',').nth(8).unwrap().parse::<usize>().unwrap()).sum();
    assert_eq!(trace.lines().filter(|l| l.split(',').nth(2) == Some("game")).count(), games, "{trace}");
    assert_eq!(trace.lines().filter(|l| l.starts_with("3,2,worker,")).count(), 2, "{trace}");
    assert!(trace.lines().any(|l| l.starts_with("3,2,background-commit,")), "{trace}");
    let out = evotune(&["scaling", s(&results), "--threads", "1,2,64", "--against", s(&two.join("populations/tiny"))]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains(&format!("3 generations, {games} games")), "{report}");
    assert!(report.lines().any(|l| l.trim_start().starts_with("64 ")), "{report}");
    assert!(report.contains("measured") && report.contains("on 2 threads; predicted from"), "{report}");
    // The champion loads where weight files are expected.
    let champion = results.join("champion.toml");
    let out = evotune(&["bestmove", "--moves", "j10 k11k9", "--weights", s(&champion), "--depth", "1"]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("bestmove "));
    let out = evotune(&["export", "--weights", s(&champion), "--format", "c"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("static const int evotune_connect6_roads_weights"));
    // The champion carries the engine it was tuned with, and the README's way of measuring it
    // (`match --a RUN --b defaults` at the run's depth, no engine flags) plays the report's
    // validation games: the same result.
    let text = std::fs::read_to_string(&champion).unwrap();
    assert!(text.contains("[engine]") && text.contains("singles = 12") && text.contains("width = 16"), "{text}");
    let out = evotune(&["match", "--a", s(&results), "--b", "defaults", "--pairs", "4", "--depth", "1"]);
    let matched = String::from_utf8_lossy(&out.stdout);
    let wdl = |text: &str, from: &str| {
        let line = text
            .lines()
            .find(|l| l.contains(from) && l.contains(" W "))
            .unwrap_or_else(|| panic!("no `{from}` in {text}"));
        let at = line.find(" W ").unwrap();
        line[at..].split([',', '(']).next().unwrap().trim().to_string()
    };
    assert_eq!(wdl(&matched, " games, W "), wdl(&stderr, "validation vs defaults: "), "{matched}\n{stderr}");
    // A second run of the same config does not overwrite the first, and says so on its first
    // line and its last.
    let out = evotune(&["evolve", "--config", s(&config), "--out", s(&one), "--generations", "1", "--log"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first = stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("a new run, `tiny-2`") && first.contains("--resume") && first.contains("--force"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    assert!(last.ends_with("(a new run, `tiny-2`: `tiny` holds an earlier one)"), "{stdout}");
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

/// Errors found after the config parsed (a range, a missing anchor or suite file, a suite
/// too small for the pairs) name the file and the line of their key, as parse errors do;
/// nothing is written.
#[test]
fn config_errors_after_parsing_name_the_file_and_the_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("two.txt"), "j10\nk10\n").unwrap();
    let quick = std::fs::read_to_string("configs/quick.toml").unwrap();
    for (from, to, want) in [
        ("noise = 0.05 ", "noise = 7 ", "[init] noise = 7: a share of each weight's range"),
        ("anchors = [\"defaults\"]", "anchors = [\"nosuch.toml\"]", "[hall_of_fame] anchors: `nosuch.toml`"),
        ("# file = \"openings.txt\"", "file = \"nosuch.txt\"", "[openings] file: nosuch.txt: cannot read"),
        ("# file = \"openings.txt\"", "file = \"two.txt\"", "[openings] file: 2 openings, but a pairing plays"),
    ] {
        assert!(quick.contains(from), "configs/quick.toml has no `{from}`");
        let text = quick.replacen(from, to, 1);
        let line = text.lines().position(|l| l.contains(to)).unwrap() + 1;
        let path = dir.path().join("c.toml");
        std::fs::write(&path, &text).unwrap();
        let run = Command::new(BIN)
            .current_dir(dir.path())
            .args(["evolve", "--config", "c.toml", "--out", "o"])
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(1));
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(err.starts_with(&format!("error: c.toml:{line}: invalid config: {want}")), "{to}: {err}");
        assert!(!dir.path().join("o").exists(), "{to}: a folder was made");
    }
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
    assert_eq!(done.status.code(), Some(130), "a first Ctrl-C is a clean stop with its own status: {stderr}");
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

/// Temporary files of the atomic writer anywhere under `dir`.
fn temporary_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().map(|e| e.unwrap()) {
        if e.file_type().unwrap().is_dir() {
            found.extend(temporary_files(&e.path()));
        } else if e.file_name().to_string_lossy().contains(".tmp-") {
            found.push(e.path());
        }
    }
    found
}

/// The crash-point test: the run is killed (abort, as by `kill -9`) at every file-writing
/// step in turn, before the rename of each atomic write (`temp@N`) and after each completed
/// write (`write@N`), then resumed; the result must be the uninterrupted run's, with every
/// game record exactly once and no temporary file left.
#[cfg(unix)]
#[test]
fn a_run_killed_at_any_file_write_resumes_to_the_uninterrupted_result() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    let config = micro_config(dir.path(), 2);
    let whole = dir.path().join("whole");
    evotune(&["evolve", "--config", s(&config), "--out", s(&whole), "--log"]);
    let expected = run_result(&whole, "tiny");
    assert_eq!(expected.records.len() as u64, {
        let h = std::fs::read_to_string(whole.join("results/tiny/history.csv")).unwrap();
        h.lines().skip(1).map(|l| l.split(',').nth(8).unwrap().parse::<u64>().unwrap()).sum::<u64>()
    });
    let mut cases = 0;
    for kind in ["write", "temp"] {
        for n in 1.. {
            let out = dir.path().join(format!("{kind}-{n}"));
            let args = ["evolve", "--config", s(&config), "--out", s(&out), "--log"];
            let crashed =
                Command::new(BIN).args(args).env("EVOTUNE_FAILPOINT", format!("{kind}@{n}")).output().unwrap();
            if crashed.status.success() {
                // Past the last step of this kind.
                assert!(n > 5, "{kind}: only {n} steps");
                break;
            }
            let stderr = String::from_utf8_lossy(&crashed.stderr);
            assert_eq!(crashed.status.signal(), Some(6), "{kind}@{n}: not the failpoint's abort: {stderr}");
            assert!(stderr.contains(&format!("failpoint {kind}@{n}")), "{stderr}");
            let populations = out.join("populations/tiny");
            let resumed = if populations.join("gen-0000.json").exists() {
                Command::new(BIN).args(["evolve", "--resume", s(&populations), "--log"]).output().unwrap()
            } else {
                // Killed before its first checkpoint: the same command starts it again, in
                // the same folders (not in tiny-2).
                Command::new(BIN).args(args).output().unwrap()
            };
            let stderr = String::from_utf8_lossy(&resumed.stderr);
            assert!(resumed.status.success(), "{kind}@{n}: resume failed: {stderr}");
            assert!(!out.join("populations/tiny-2").exists(), "{kind}@{n}: moved to tiny-2: {stderr}");
            assert_eq!(run_result(&out, "tiny"), expected, "{kind}@{n}: the resumed run differs");
            assert_eq!(temporary_files(&out), Vec::<PathBuf>::new(), "{kind}@{n}");
            cases += 1;
        }
    }
    assert!(cases >= 15, "{cases} crash points");
}

/// A finished run that was killed between its last checkpoint and its result files: resuming
/// it writes them (it used to say "0 generations left" and leave them stale).
#[test]
fn resuming_a_finished_run_rewrites_its_result_files() {
    let dir = tempfile::tempdir().unwrap();
    let config = micro_config(dir.path(), 2);
    let out = dir.path().join("o");
    evotune(&["evolve", "--config", s(&config), "--out", s(&out), "--log"]);
    let expected = run_result(&out, "tiny");
    let results = out.join("results/tiny");
    std::fs::remove_file(results.join("champions/gen-0002.toml")).unwrap();
    std::fs::remove_file(results.join("champions/gen-0001.toml")).unwrap();
    let history = std::fs::read_to_string(results.join("history.csv")).unwrap();
    std::fs::write(results.join("history.csv"), history.lines().take(2).collect::<Vec<_>>().join("\n") + "\n").unwrap();
    let populations = out.join("populations/tiny");
    let done = evotune(&["evolve", "--resume", s(&populations), "--log"]);
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(stderr.contains("is complete (2 of 2 generations)"), "{stderr}");
    assert_eq!(run_result(&out, "tiny"), expected);
    // Asking for fewer generations than were done is an error, not "generation 2 of 1".
    let run = Command::new(BIN).args(["evolve", "--resume", s(&populations), "--generations", "1"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("--generations 1") && stderr.contains("2 generations"), "{stderr}");
}

/// What a crash before the first checkpoint used to leave (empty folders) is taken over by
/// the next run of the same name, instead of moving it to `<run>-2` with a `--resume` hint
/// that fails.
#[test]
fn empty_run_folders_do_not_hold_a_run() {
    let dir = tempfile::tempdir().unwrap();
    let config = micro_config(dir.path(), 1);
    let out = dir.path().join("o");
    std::fs::create_dir_all(out.join("populations/tiny")).unwrap();
    std::fs::create_dir_all(out.join("results/tiny/champions")).unwrap();
    let run = evotune(&["evolve", "--config", s(&config), "--out", s(&out), "--log"]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!stderr.contains("tiny-2") && !out.join("populations/tiny-2").exists(), "{stderr}");
    assert!(out.join("results/tiny/champion.toml").exists());
}

/// One process per run folder: a second run of the same name, a second resume, and a
/// `--force` while the run goes are refused; a run without --name moves to the next name.
#[test]
fn a_running_run_folder_is_locked() {
    let dir = tempfile::tempdir().unwrap();
    let config = micro_config(dir.path(), 100_000);
    let out = dir.path().join("o");
    let mut first = Command::new(BIN)
        .args(["evolve", "--config", s(&config), "--out", s(&out), "--log", "--threads", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let populations = out.join("populations/tiny");
    let started = populations.join("gen-0000.json");
    let start = Instant::now();
    while !started.exists() && start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(started.exists(), "the first run did not start");
    let refused = |args: &[&str]| {
        let run = Command::new(BIN).args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
        assert_eq!(run.status.code(), Some(1), "{args:?} was not refused: {stderr}");
        assert!(stderr.contains("in use by another evotune"), "{stderr}");
        assert!(stderr.contains(&first.id().to_string()), "the holder's process id: {stderr}");
    };
    let c = s(&config);
    let o = s(&out);
    refused(&["evolve", "--config", c, "--out", o, "--name", "tiny", "--generations", "1"]);
    refused(&["evolve", "--resume", s(&populations)]);
    refused(&["evolve", "--config", c, "--out", o, "--name", "tiny", "--force", "--generations", "1"]);
    assert!(started.exists(), "--force removed a running run's checkpoint");
    let other = evotune(&["evolve", "--config", c, "--out", o, "--generations", "1", "--log"]);
    assert!(String::from_utf8_lossy(&other.stderr).contains("`tiny-2`"));
    first.kill().unwrap();
    first.wait().unwrap();
    // The lock went with the process: the run resumes.
    let done = std::fs::read_dir(&populations)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_prefix("gen-")?.strip_suffix(".json")?.parse::<u32>().ok())
        .max()
        .unwrap();
    let more = (done + 1).to_string();
    evotune(&["evolve", "--resume", s(&populations), "--generations", &more, "--log"]);
}

/// Opening settings that give no usable suite (they used to panic on an empty suite) are an
/// error naming the setting to change, and nothing is created on disk.
#[test]
fn a_config_without_usable_openings_stops_before_any_folder() {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::read_to_string(tiny_config(dir.path(), 2)).unwrap();
    for (edit, want) in [
        ("method = \"random\"\nturns = 2", "[openings] balance"),
        ("method = \"random\"\nbalance = 0", "[openings] balance"),
        ("radius = 0", "[openings] radius = 0"),
        ("radius = 10", "[openings] radius = 10: between 1 and 9"),
        ("turns = 400", "[openings] turns = 400"),
        ("turns = 1\ncount = 64", "[openings] top"),
    ] {
        let mut text = String::new();
        for line in base.lines() {
            let key = line.split(" =").next().unwrap_or("");
            if ["method", "turns", "balance", "radius", "count"].contains(&key) && edit.contains(&format!("{key} =")) {
                continue;
            }
            text.push_str(line);
            text.push('\n');
            if line == "[openings]" {
                text.push_str(edit);
                text.push('\n');
            }
        }
        let config = dir.path().join("bad-openings.toml");
        std::fs::write(&config, text.replacen("\npairs = 1\n", "\npairs = 20\n", 1)).unwrap();
        let out = dir.path().join("o");
        let run = Command::new(BIN).args(["evolve", "--config", s(&config), "--out", s(&out)]).output().unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{edit}: {stderr}");
        assert!(stderr.contains(want) && !stderr.contains("panicked"), "{edit}: {stderr}");
        assert!(!out.exists(), "{edit}: folders were created");
    }
}

#[test]
fn the_wide_quick_config_is_the_quick_run_at_the_default_connect6_widths() {
    // configs/quick-wide.toml tunes for the engine the command line plays: the quick run with
    // only its name and the generator widths changed, to Connect6's defaults.
    let quick = evotune::ga::config::EvolveConfig::load(Path::new("configs/quick.toml")).unwrap();
    let wide = evotune::ga::config::EvolveConfig::load(Path::new("configs/quick-wide.toml")).unwrap();
    let game = evotune::games::connect::movegen::MoveGenConfig::for_rules(evotune::games::connect::Rules::CONNECT6);
    assert_eq!((wide.engine.singles, wide.engine.seconds, wide.engine.width), (game.singles, game.seconds, game.width));
    assert_eq!((quick.engine.singles, quick.engine.seconds, quick.engine.width), (12, 6, 16));
    let mut same = wide.clone();
    same.name.clone_from(&quick.name);
    same.engine = quick.engine.clone();
    assert_eq!(format!("{same:?}"), format!("{quick:?}"));
}

#[test]
fn the_refinement_configs_play_the_quick_wide_engine_against_the_table_they_start_from() {
    // configs/refine-wide*.toml start from the shipped table and anchor on it: the table must
    // exist, and the engine must be the one that table was tuned with (at depth 3 or 4).
    let wide = evotune::ga::config::EvolveConfig::load(Path::new("configs/quick-wide.toml")).unwrap();
    let start = Path::new("weights/connect6-quick-wide.toml");
    assert!(start.exists());
    for (config, depth) in [("configs/refine-wide.toml", 3), ("configs/refine-wide-d4.toml", 4)] {
        let refine = evotune::ga::config::EvolveConfig::load(Path::new(config)).unwrap();
        let engine = evotune::core::settings::EngineSettings { depth: Some(depth), ..wide.engine.clone() };
        assert_eq!(refine.engine, engine, "{config}");
        assert_eq!(refine.init.files, vec![start.to_path_buf()], "{config}");
        assert_eq!(refine.hall_of_fame.anchors, ["weights/connect6-quick-wide.toml", "defaults"], "{config}");
    }
}

#[test]
fn every_shipped_config_loads_and_the_refinements_chain_through_the_shipped_tables() {
    // A user runs `evolve --config configs/X.toml` for any file there, `spsa --config` for
    // the SPSA ones: each must load, and each refinement must start from a shipped table that
    // it also plays as its first anchor, so that "better" means better than that table.
    let mut spsa = 0;
    for entry in std::fs::read_dir("configs").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            if s(&path).contains("spsa") {
                evotune::spsa::SpsaConfig::load(&path).unwrap_or_else(|e| panic!("{}: {e:#}", path.display()));
                spsa += 1;
            } else {
                evotune::ga::config::EvolveConfig::load(&path).unwrap_or_else(|e| panic!("{}: {e:#}", path.display()));
            }
        }
    }
    assert!(spsa >= 2, "the SPSA configs (spsa-quick, cloudict-spsa) are checked too");
    let d4 = evotune::ga::config::EvolveConfig::load(Path::new("configs/refine-wide-d4.toml")).unwrap();
    for (config, start, depth) in [
        ("configs/refine-d5.toml", "weights/connect6-refine-d4.toml", 5),
        ("configs/versus-cloudict.toml", "weights/connect6-refine-d5.toml", 4),
    ] {
        let run = evotune::ga::config::EvolveConfig::load(Path::new(config)).unwrap();
        assert!(Path::new(start).exists(), "{start}");
        assert_eq!(run.init.files, vec![PathBuf::from(start)], "{config}");
        assert_eq!(run.hall_of_fame.anchors[0], start, "{config}");
        assert_eq!(run.engine.depth, Some(depth), "{config}");
        // The command line's generator widths, as the tables' matches play.
        let widths = |e: &evotune::core::settings::EngineSettings| (e.singles, e.seconds, e.width);
        assert_eq!(widths(&run.engine), widths(&d4.engine), "{config}");
    }
}

/// One Ctrl-C after the last generation (here in the validation) stops at once, as in a
/// generation: exit 130, the games left unplayed, every generation saved. `--resume` makes
/// the champion, its validation and the report again: the uninterrupted run's.
#[cfg(unix)]
#[test]
fn ctrl_c_after_the_generations_stops_at_once_and_resume_finishes_the_run() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let mut config: toml::Table = std::fs::read_to_string(tiny_config(dir.path(), 1)).unwrap().parse().unwrap();
    // A validation long enough to be interrupted: 400 depth-1 games.
    config["validation"].as_table_mut().unwrap().insert("pairs".into(), 200.into());
    config["output"].as_table_mut().unwrap().insert("records".into(), true.into());
    let config_path = dir.path().join("long.toml");
    std::fs::write(&config_path, toml::to_string(&config).unwrap()).unwrap();
    let validation_line =
        |stderr: &str| stderr.lines().find(|l| l.starts_with("validation vs defaults: 400 games")).map(str::to_string);
    let whole = dir.path().join("whole");
    let done = evotune(&["evolve", "--config", s(&config_path), "--out", s(&whole), "--log", "--threads", "1"]);
    let expected = validation_line(&String::from_utf8_lossy(&done.stderr)).expect("the whole validation");

    let cut = dir.path().join("cut");
    let mut child = Command::new(BIN)
        .args(["evolve", "--config", s(&config_path), "--out", s(&cut), "--log", "--threads", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = String::new();
    let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
    for line in lines.by_ref() {
        let line = line.unwrap();
        stderr += &line;
        stderr.push('\n');
        // Said when the play-off has picked the champion, before its validation.
        if line.starts_with("champion: #") {
            let sent = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
            assert!(sent.success());
            break;
        }
    }
    for line in lines {
        stderr += &line.unwrap();
        stderr.push('\n');
    }
    let done = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&done.stdout);
    assert_eq!(done.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("stopped before the run's end: every generation is saved"), "{stderr}");
    assert_eq!(validation_line(&stderr), None, "the validation went on: {stderr}");
    assert!(stdout.contains("resume with: evotune evolve --resume "), "{stdout}");
    assert!(!cut.join("results/tiny/report.md").exists());
    let resumed = evotune(&["evolve", "--resume", s(&cut.join("populations/tiny")), "--log", "--threads", "1"]);
    assert_eq!(validation_line(&String::from_utf8_lossy(&resumed.stderr)), Some(expected));
    assert!(cut.join("results/tiny/report.md").exists());
    assert_eq!(run_result(&cut, "tiny"), run_result(&whole, "tiny"));
}
