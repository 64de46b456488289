//! What `match` says while it runs and what survives it: an SPRT's progress toward its
//! bounds (not an ETA to the pairs cap), the standings and the games on Ctrl-C, and a match
//! continued from its records; a table plays with the engine settings it was tuned with.

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
        "--refutation-nodes",
        "0",
        "--quiet-refutation-nodes",
        "0",
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
    let base = ["match", "--a", "defaults", "--b", "random:2", "--pairs", "12", "--threads", "2"];
    let base = [&base[..], &QUICK].concat();
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

/// Starts evotune with `args`, waits until `records` holds `lines` games (the command is
/// still running: each test's command cannot end for many minutes), sends it Ctrl-C (SIGINT)
/// and returns its exit status, stdout and stderr.
fn interrupt_after(args: &[&str], records: &std::path::Path, lines: usize) -> (Option<i32>, String, String) {
    let mut child = Command::new(BIN).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    while std::fs::read_to_string(records).map_or(0, |t| t.lines().count()) < lines {
        assert!(child.try_wait().unwrap().is_none(), "{args:?} ended before Ctrl-C");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// Quick searches: these tests are about what survives a Ctrl-C, not about play.
const QUICK: [&str; 6] = ["--depth", "1", "--refutation-nodes", "0", "--quiet-refutation-nodes", "0"];

/// The number before ` games, W` in a match summary.
fn scored_games(stdout: &str) -> usize {
    stdout.split(" games, W").next().unwrap().rsplit(' ').next().unwrap().parse().unwrap()
}

/// Ctrl-C during a match: the games finished are in the records, the standings of the whole
/// pairs are printed as the result would be (score, Elo, pentanomial, SPRT state), the way to
/// continue is said, and the exit status is 130. The match cannot end before the signal: the
/// same deterministic engine plays both colours of each opening, so every pair scores 1-1,
/// and an SPRT between -10 and +10 Elo (symmetric about that score) keeps its LLR at 0.
#[test]
fn ctrl_c_prints_the_standings_and_keeps_the_games() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("games.jsonl");
    let args = [
        &["match", "--a", "defaults", "--b", "defaults", "--pairs", "5000", "--threads", "2", "--sprt=-10,10"][..],
        &QUICK,
        &["--records", s(&records)],
    ]
    .concat();
    let (code, stdout, stderr) = interrupt_after(&args, &records, 6);
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stderr.contains("interrupted: ") && stderr.contains("--resume"), "{stderr}");
    assert!(stdout.contains("pentanomial") && stdout.contains("Elo"), "{stdout}");
    assert!(stdout.contains("SPRT [-10, 10]") && stdout.contains("no verdict yet"), "{stdout}");
    let kept = games(&records).len();
    let scored = scored_games(&stdout);
    assert!(scored >= 2 && scored <= kept && kept - scored <= 2 * 8, "{scored} scored, {kept} kept: {stdout}");
}

/// Ctrl-C during selfplay: the games so far are in the records, their standings printed,
/// exit status 130.
#[test]
fn ctrl_c_during_selfplay_keeps_the_games_and_prints_the_standings() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("self.jsonl");
    let args = [
        &["selfplay", "--a", "defaults", "--b", "random:2", "--games", "20000", "--threads", "2"][..],
        &QUICK,
        &["--records", s(&records)],
    ]
    .concat();
    let (code, stdout, stderr) = interrupt_after(&args, &records, 4);
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stderr.contains("interrupted: ") && stdout.contains("pentanomial"), "{stdout}\n{stderr}");
    let (kept, scored) = (games(&records).len(), scored_games(&stdout));
    assert!(scored >= 4 && scored <= kept, "{scored} scored, {kept} kept: {stdout}");
}

/// Ctrl-C during a tournament: the games so far are in the records, the score and rating
/// tables of the whole pairs printed (the JSON document marked interrupted with `--json`),
/// exit status 130.
#[test]
fn ctrl_c_during_a_tournament_keeps_the_games_and_prints_the_tables() {
    let dir = tempfile::tempdir().unwrap();
    for json in [false, true] {
        let records = dir.path().join(format!("rr-{json}.jsonl"));
        let mut args = [
            &["tournament", "defaults", "random:1", "random:2", "--pairs", "3000", "--threads", "2"][..],
            &QUICK,
            &["--records", s(&records)],
        ]
        .concat();
        if json {
            args.push("--json");
        }
        let (code, stdout, stderr) = interrupt_after(&args, &records, 6);
        assert_eq!(code, Some(130), "{stderr}");
        assert!(stderr.contains("interrupted: ") && stderr.contains("whole pairs"), "{stderr}");
        let kept = games(&records).len();
        let scored: u64 = if json {
            let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
            assert_eq!(doc["interrupted"], true, "{stdout}");
            doc["games"].as_u64().unwrap()
        } else {
            assert!(stdout.contains("defaults") && stdout.contains("Elo"), "{stdout}");
            kept as u64
        };
        assert!(scored >= 2 && scored as usize <= kept, "{scored} scored, {kept} kept: {stdout}");
    }
}

/// A weight table with the engine settings it was tuned with, written as the tuners write
/// their champions.
fn table_with_engine(path: &std::path::Path, engine: Option<&str>) {
    use evotune::core::weights::Meta;
    let weights = evotune::player::random_weights(&evotune::games::connect::eval::CONNECT6_ROADS, 3);
    let engine = engine.map(|e| e.parse::<toml::Table>().unwrap());
    std::fs::write(path, weights.to_toml(&Meta { engine, ..Meta::default() })).unwrap();
}

/// The champion plays with the engine it was tuned with: a table's `[engine]` applies in
/// `match` (and to the built-in table it meets, so that the comparison is the run's), and in
/// `bestmove`, unless the command line gives a setting; the games are those of the same
/// weights with the settings typed out. (A table with `[engine]` was refused before.)
#[test]
fn a_tables_engine_settings_are_the_ones_it_plays_with() {
    let dir = tempfile::tempdir().unwrap();
    let (tuned, plain) = (dir.path().join("tuned.toml"), dir.path().join("plain.toml"));
    let engine = "singles = 3\nseconds = 2\nwidth = 4\nrefutation_nodes = 0\nquiet_refutation_nodes = 0\n";
    table_with_engine(&tuned, Some(engine));
    table_with_engine(&plain, None);
    let text = std::fs::read_to_string(&tuned).unwrap();
    assert!(text.contains("[engine]") && text.contains("width = 4"), "{text}");
    let typed = ["--singles", "3", "--seconds", "2", "--width", "4", "--refutation-nodes", "0"];
    let typed = [&typed[..], &["--quiet-refutation-nodes", "0"]].concat();
    let play = |a: &std::path::Path, flags: &[&str], name: &str| {
        let records = dir.path().join(name);
        let base = ["match", "--a", s(a), "--b", "defaults", "--pairs", "2", "--depth", "2", "--threads", "2"];
        ok(&[&base[..], flags, &["--records", s(&records)]].concat());
        // Moves and results (the tables' names differ).
        games(&records).into_iter().map(|(moves, result, _)| (moves, result)).collect::<Vec<_>>()
    };
    let as_tuned = play(&tuned, &[], "tuned.jsonl");
    assert_eq!(as_tuned, play(&plain, &typed, "typed.jsonl"), "the table's settings, on both sides");
    // A setting on the command line wins over the table's (and makes a difference here).
    let wider = [&typed[..4], &["--width", "9"], &typed[6..]].concat();
    let as_typed9 = play(&plain, &wider, "typed9.jsonl");
    assert_ne!(as_tuned, as_typed9, "the width makes no difference here");
    assert_eq!(play(&tuned, &["--width", "9"], "tuned9.jsonl"), as_typed9);
    // So does a side's own: A at width 9, the defaults it meets at the table's 4.
    let a9 = ["--a-engine", "width=9"];
    assert_eq!(play(&tuned, &a9, "tuned-a9.jsonl"), play(&plain, &[&typed[..], &a9[..]].concat(), "typed-a9.jsonl"));
    // bestmove (as play, through the same loader).
    let best = |w: &std::path::Path, flags: &[&str]| {
        let base = ["bestmove", "--moves", "j10 k11k9 h8l12", "--weights", s(w), "--depth", "2"];
        ok(&[&base[..], flags].concat()).0.lines().next().unwrap_or_default().to_string()
    };
    assert_eq!(best(&tuned, &[]), best(&plain, &typed));
}
