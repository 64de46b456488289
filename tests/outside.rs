//! Outside engines in the arena: evotune itself as an outside program must play exactly the
//! moves of the in-process player on every protocol, and the small Python engine of
//! tests/fixtures/engines/mover.py loses its games with the right reason when it crashes,
//! hangs, answers late, answers nonsense or plays an illegal move, while the match goes on
//! and the engine is started again. The Gomoku engine of tests/fixtures/engines/brain.py
//! reproduces Rapfi's race (it drops the first word of a command that arrives just after its
//! move) and talks on its output: no game ends by a misunderstanding. Nothing an engine
//! started outlives the match, however it ends. Bad specs fail before any game.

mod common;

use std::path::Path;

use common::cli::{fails, ok, run, s, BIN};
use evotune::arena::records::{read_records, GameRecord};

const MOVER: &str = "tests/fixtures/engines/mover.py";
const BRAIN: &str = "tests/fixtures/engines/brain.py";

/// The Python engine in one of its modes, as a player's text.
fn mover(mode: &str) -> String {
    format!("cmd:python3 {MOVER} {mode}")
}

/// Plays a match of `a` against `b` with `extra` options, records into `dir/name.jsonl` (and
/// an outside B's log into `dir/name.log` unless `extra` names one); stdout and the records.
fn play(dir: &Path, name: &str, a: &str, b: &str, extra: &[&str]) -> (String, Vec<GameRecord>) {
    let records = dir.join(format!("{name}.jsonl"));
    let log = dir.join(format!("{name}.log"));
    let mut args = vec!["match", "--a", a, "--b", b, "--records", s(&records), "--threads", "2"];
    if b.starts_with("cmd:") && !extra.contains(&"--b-log") {
        args.extend(["--b-log", s(&log)]);
    }
    args.extend_from_slice(extra);
    let (stdout, _) = ok(&args);
    (stdout, read_records(&records).unwrap())
}

/// The numbers of the line `outside engine NAME: N process(es) started, C crashed, K killed
/// for time, B bad replies; log FILE`.
fn engine_stats(stdout: &str) -> [u64; 4] {
    let all = engine_counts(stdout);
    [all[0], all[1], all[2], all[3]]
}

/// All the numbers of that line: started, crashed, killed, bad replies, games aborted, lines
/// skipped.
fn engine_counts(stdout: &str) -> [u64; 6] {
    let line = stdout.lines().find(|l| l.starts_with("outside engine ")).unwrap_or_else(|| panic!("{stdout}"));
    let numbers: Vec<u64> =
        line.split([' ', ',', ';']).filter_map(|w| w.parse().ok()).collect::<Vec<u64>>().into_iter().take(6).collect();
    numbers.try_into().unwrap_or_else(|_| panic!("{line}"))
}

#[test]
fn evotune_as_an_outside_engine_plays_the_moves_of_the_in_process_player() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "-\n").unwrap();
    let pvs2: &[&str] = &["--search", "pvs", "--depth", "2"];
    let from_empty: &[&str] = &["--openings", s(&empty)];
    for (game, protocol, search, openings) in [
        ("connect6", "cloudict", &pvs2[2..], &[][..]),
        ("connect6", "connect6", &pvs2[2..], from_empty),
        ("gomoku", "pbrain", &pvs2[2..], &[]),
        ("surakarta", "line", &pvs2[2..], &[]),
        ("einstein", "line", pvs2, &[]),
    ] {
        let engine = format!("cmd:{BIN} play --game {game} --weights defaults {}", search.join(" "));
        let mut both = vec!["--game", game, "--pairs", "2", "--max-turns", "40"];
        both.extend_from_slice(search);
        both.extend_from_slice(openings);
        let name = format!("{game}-{protocol}");
        let (stdout, outside) =
            play(dir.path(), &name, "defaults", &engine, &[&both[..], &["--b-protocol", protocol]].concat());
        let (_, inside) = play(dir.path(), &format!("{name}-in"), "defaults", "defaults", &both);
        assert_eq!(outside.len(), 4, "{name}");
        for (o, i) in outside.iter().zip(&inside) {
            assert_eq!((&o.moves, o.result, &o.reason), (&i.moves, i.result, &i.reason), "{name}");
        }
        assert_eq!(engine_stats(&stdout)[1..], [0, 0, 0], "{name}: {stdout}");
    }
}

#[test]
fn a_crashing_engine_loses_and_is_started_again_while_the_match_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("crash.log");
    let (stdout, records) =
        play(dir.path(), "crash", "defaults", &mover("crash 2"), &["--pairs", "3", "--depth", "1", "--b-log", s(&log)]);
    assert_eq!(records.len(), 6, "the match goes on");
    let crashes: Vec<&GameRecord> = records.iter().filter(|r| r.reason.as_str() == "crash").collect();
    assert!(crashes.len() >= 3, "{:?}", records.iter().map(|r| r.reason.as_str()).collect::<Vec<_>>());
    for r in &crashes {
        assert_eq!(r.player(winner(r)), "defaults");
        assert!(r.moves.last().unwrap().contains("exit status 3"), "{:?}", r.moves);
    }
    let [started, crashed, killed, bad] = engine_stats(&stdout);
    assert_eq!((crashed, killed, bad), (crashes.len() as u64, 0, 0), "{stdout}");
    // Every crash ends its process; the games after it had a new one.
    assert!(started >= crashed && started > 1, "{stdout}");
    let text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(text.matches("mover crash 2 started").count() as u64, started, "the engine's stderr is logged");
    assert!(text.contains("# evotune: engine") && text.contains("exit status 3"), "{text}");
}

/// The side that won a decided game.
fn winner(r: &GameRecord) -> evotune::core::game::Side {
    match r.result {
        evotune::arena::records::Outcome::First => evotune::core::game::Side::First,
        _ => evotune::core::game::Side::Second,
    }
}

#[test]
fn hangs_late_answers_garbage_refusals_and_illegal_moves_lose_with_their_reason() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "-\n").unwrap();
    // Time per move 200 ms and 100 ms of margin; without them (fixed depth), the hang time.
    let timed = ["--pairs", "1", "--depth", "1", "--b-time-ms", "200", "--time-margin-ms", "100"];
    let connect6 = ["--b-protocol", "connect6", "--openings", s(&empty)];
    for (mode, protocol, reason, note) in [
        ("hang 2", &[][..], "timeout", "did not answer `next` within 1500 ms; killed"),
        ("late 2", &[], "timeout", "did not answer `next` within 300 ms; killed"),
        // The competition protocol allows nothing but its replies ...
        // Anything but a move is skipped (and noted in the log): only the clock catches an
        // engine that never moves, whatever it says instead.
        ("garbage 1", &connect6, "timeout", "within 300 ms; killed"),
        ("garbage 1", &[], "timeout", "did not answer `next` within 300 ms; killed"),
        ("refuse 2", &[], "timeout", "did not answer `next` within 300 ms; killed"),
        ("illegal 2", &[], "illegal", "cell is occupied"),
    ] {
        let mut options = if mode.starts_with("hang") {
            vec!["--pairs", "1", "--depth", "1", "--hang-ms", "1500"]
        } else {
            timed.to_vec()
        };
        options.extend_from_slice(protocol);
        let name = format!("{}-{}", mode.replace(' ', "-"), protocol.len());
        let (stdout, records) = play(dir.path(), &name, "defaults", &mover(mode), &options);
        let lost: Vec<&GameRecord> = records.iter().filter(|r| r.reason.as_str() == reason).collect();
        assert!(!lost.is_empty(), "{mode}: {records:?}");
        for r in lost {
            assert_eq!(r.player(winner(r)), "defaults", "{mode}");
            assert!(r.moves.last().unwrap().contains(note), "{mode}: {:?}", r.moves);
        }
        let [started, crashed, killed, bad] = engine_stats(&stdout);
        assert_eq!(crashed, 0, "{mode}: {stdout}");
        let k = if reason == "timeout" { 1 } else { 0 };
        assert!(killed >= k && bad == 0 && started >= 1, "{mode}: {stdout}");
        // Both Connect6 protocols take anything but a move or an error for search statistics.
        if mode.starts_with("refuse") {
            let log = std::fs::read_to_string(dir.path().join(format!("{name}.log"))).unwrap();
            assert!(log.contains("skipped `error I would rather not`"), "{log}");
            assert!(engine_counts(&stdout)[5] >= 1, "{stdout}");
        }
    }
}

/// The Gomoku engine in one of its modes, as a player's text.
fn brain(mode: &str) -> String {
    format!("cmd:python3 {BRAIN} {mode}")
}

#[test]
fn an_engine_that_drops_commands_sent_just_after_its_move_plays_a_whole_match() {
    // Rapfi prints its move a moment before it stops thinking, and the first word of a
    // command that arrives in that moment is lost: `INFO timeout_turn 2000` becomes the
    // unknown commands `timeout_turn` and `2000`, each answered `ERROR`; a lost `RESTART` or
    // `TURN` is never answered. The referee paces its lines, so nothing is lost.
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("race.log");
    let options = ["--game", "gomoku", "--pairs", "3", "--depth", "1", "--b-time-ms", "5000", "--hang-ms", "5000"];
    let (stdout, records) =
        play(dir.path(), "race", "defaults", &brain("race 15"), &[&options[..], &["--b-log", s(&log)]].concat());
    assert_eq!(records.len(), 6);
    for r in &records {
        assert!(["five", "movecap"].contains(&r.reason.as_str()), "ended by a misunderstanding: {r:?}");
    }
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(!text.contains("dropped"), "a command arrived in the engine's window: {text}");
    assert_eq!(engine_counts(&stdout)[1..], [0, 0, 0, 0, 0], "{stdout}");
}

#[test]
fn lines_that_are_not_a_move_are_skipped_and_never_end_a_game() {
    // Before each move the engine writes MESSAGE, DEBUG, SUGGEST, ERROR and UNKNOWN lines.
    let dir = tempfile::tempdir().unwrap();
    let (stdout, records) = play(
        dir.path(),
        "noisy",
        "defaults",
        &brain("noisy"),
        &["--game", "gomoku", "--pairs", "1", "--depth", "1", "--b-time-ms", "5000"],
    );
    for r in &records {
        assert!(["five", "movecap"].contains(&r.reason.as_str()), "{r:?}");
    }
    let [started, crashed, killed, bad, aborted, skipped] = engine_counts(&stdout);
    assert_eq!((crashed, killed, bad, aborted), (0, 0, 0, 0), "{stdout}");
    assert!(started >= 1, "{stdout}");
    // ERROR and UNKNOWN before each of the engine's moves are noted; the rest is chatter.
    assert!(skipped >= 4, "{stdout}");
}

#[test]
fn the_competition_protocol_greets_an_engine_that_knows_only_name() {
    // Cloudict answers `name` but not the competition protocol's `name?`, and prints a banner.
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "-\n").unwrap();
    let (stdout, records) = play(
        dir.path(),
        "oldname",
        "defaults",
        &mover("oldname"),
        &["--pairs", "1", "--depth", "1", "--b-protocol", "connect6", "--openings", s(&empty), "--max-turns", "12"],
    );
    assert_eq!(records.len(), 2);
    for r in &records {
        assert!(["six", "movecap"].contains(&r.reason.as_str()), "{r:?}");
    }
    assert_eq!(engine_counts(&stdout)[1..5], [0, 0, 0, 0], "{stdout}");
    let log = std::fs::read_to_string(dir.path().join("oldname.log")).unwrap();
    assert!(log.contains("no answer to `name?`") && log.contains("asking `name` instead"), "{log}");
}

/// The process ids a `fork` or `deaf` mover wrote.
fn pids_in(file: &Path) -> Vec<i32> {
    std::fs::read_to_string(file).unwrap_or_default().split_whitespace().map(|w| w.parse().unwrap()).collect()
}

/// Whether a process runs (a zombie waiting for its parent to reap it does not).
fn running(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat.rsplit(')').next().unwrap_or("").trim_start().starts_with('Z'),
        Err(_) => false,
    }
}

/// Waits (generously) for every process of `pids` to end; those still running then.
fn survivors(pids: &[i32]) -> Vec<i32> {
    for _ in 0..500 {
        if !pids.iter().any(|&p| running(p)) {
            return Vec::new();
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    pids.iter().copied().filter(|&p| running(p)).collect()
}

#[test]
fn what_an_engine_starts_does_not_outlive_the_match() {
    // One engine leaves a sleeper in its process group when it quits, the other ignores the
    // end of its input and `quit`: both are gone when the match is.
    let dir = tempfile::tempdir().unwrap();
    for mode in ["fork", "deaf"] {
        let file = dir.path().join(format!("{mode}.pids"));
        let engine = format!("{} 1 {}", mover(mode), s(&file));
        let (_, records) = play(dir.path(), mode, "defaults", &engine, &["--pairs", "1", "--depth", "1"]);
        assert_eq!(records.len(), 2);
        let pids = pids_in(&file);
        assert!(!pids.is_empty(), "{mode}: no process started");
        assert_eq!(survivors(&pids), Vec::<i32>::new(), "{mode}: left behind");
    }
}

#[test]
fn sigterm_and_sigint_end_the_engines_with_the_match() {
    let dir = tempfile::tempdir().unwrap();
    for (signal, name) in [(libc::SIGTERM, "term"), (libc::SIGINT, "int")] {
        let file = dir.path().join(format!("{name}.pids"));
        let engine = format!("{} 1 {}", mover("deaf"), s(&file));
        let records = dir.path().join(format!("{name}.jsonl"));
        let log = dir.path().join(format!("{name}.log"));
        let mut child = std::process::Command::new(BIN)
            .args(["match", "--a", "defaults", "--b", &engine, "--pairs", "500", "--depth", "2", "--threads", "2"])
            .args(["--records", s(&records), "--b-log", s(&log)])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Games are under way once both engines of the two threads have started.
        for _ in 0..1000 {
            if pids_in(&file).len() >= 2 || child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        // SAFETY: signalling the child started above, not yet waited for.
        unsafe { libc::kill(child.id() as i32, signal) };
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(130), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let pids = pids_in(&file);
        assert!(!pids.is_empty(), "{name}: no engine started");
        assert_eq!(survivors(&pids), Vec::<i32>::new(), "{name}: engines left behind");
    }
}

#[test]
fn an_engine_that_talks_like_cloudict_plays_its_games() {
    // Cloudict's own engine prints a banner mentioning `move XXXX`, statistics before every
    // move, and sometimes `We loss!` without a newline before its move: none of it is a move
    // or a fault.
    let dir = tempfile::tempdir().unwrap();
    let (stdout, records) = play(
        dir.path(),
        "chatty",
        "defaults",
        &mover("chatty 3"),
        &["--pairs", "2", "--depth", "1", "--b-time-ms", "2000"],
    );
    assert_eq!(records.len(), 4);
    for r in &records {
        assert!(["six", "max_turns"].contains(&r.reason.as_str()), "{r:?}");
    }
    assert_eq!(engine_stats(&stdout)[1..], [0, 0, 0], "{stdout}");
}

#[test]
fn the_referee_times_an_outside_move_from_request_to_reply() {
    let dir = tempfile::tempdir().unwrap();
    // A second late on its first move, with no time limit: the move stands, its time counted.
    // (The first move of each process: a game that finds the other game's process waiting
    // plays on it, without a late move.)
    let (_, records) = play(dir.path(), "slow", "defaults", &mover("late 1"), &["--pairs", "1", "--depth", "1"]);
    let ms = |r: &GameRecord| if r.first == "mover" { r.first_ms } else { r.second_ms };
    assert!(records.iter().any(|r| ms(r) >= 1000), "{records:?}");
    for r in &records {
        assert!(r.reason.as_str() != "timeout", "{r:?}");
    }
}

#[test]
fn outside_engines_play_tournaments_and_reuse_their_processes() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("t.jsonl");
    let py = format!("py={};log={}", mover("random"), s(&dir.path().join("py.log")));
    let (stdout, _) = ok(&[
        "tournament",
        "defaults",
        "random:1",
        &py,
        "--pairs",
        "2",
        "--depth",
        "1",
        "--max-turns",
        "16",
        "--threads",
        "2",
        "--records",
        s(&records),
    ]);
    assert!(stdout.contains("| py") || stdout.contains(" py "), "{stdout}");
    assert_eq!(read_records(&records).unwrap().len(), 12);
    let [started, crashed, killed, bad] = engine_stats(&stdout);
    // Eight games, at most two at a time: a process per game in play, each used again.
    assert!((1..=2).contains(&started) && (crashed, killed, bad) == (0, 0, 0), "{stdout}");
}

#[test]
fn an_outside_engine_is_a_ga_anchor() {
    let dir = tempfile::tempdir().unwrap();
    let config = common::runs::tiny_config(dir.path(), 1);
    let text = std::fs::read_to_string(&config).unwrap();
    let py = format!(
        "py=cmd:python3 {};log={}",
        std::fs::canonicalize(MOVER).unwrap().display(),
        s(&dir.path().join("py.log"))
    );
    let text = text.replace("anchors = [\"defaults\"]", &format!("anchors = [\"defaults\", {py:?}]"));
    assert!(text.contains("py=cmd:"), "tiny config has anchors = [\"defaults\"]");
    std::fs::write(&config, text).unwrap();
    ok(&["evolve", "--config", s(&config), "--out", s(dir.path()), "--log", "--threads", "2"]);
    let report = std::fs::read_to_string(dir.path().join("results/tiny/report.md")).unwrap();
    assert!(report.contains("vs py"), "{report}");
}

#[test]
fn bad_outside_engines_fail_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("sleep.log");
    for (args, wanted) in [
        (
            vec!["match", "--a", "defaults", "--b", "cmd:/no/such/engine"],
            "player B (--b): no program `/no/such/engine`",
        ),
        (vec!["match", "--a", "defaults", "--b", "cmd:python3 x;protocol=pbrain"], "`pbrain` plays gomoku"),
        (vec!["match", "--a", "cmd:python3 x;depth=3", "--b", "defaults"], "unknown option of an outside engine"),
        (
            vec!["match", "--a", "defaults", "--b", &format!("py={}", mover("random")), "--b-depth", "3"],
            "--b-depth sets evotune's own",
        ),
        (vec!["match", "--a", "defaults", "--b", "defaults", "--b-init", "depth 3"], "apply to an outside engine"),
        (
            vec!["match", "--a", "defaults", "--b", &mover("random"), "--b-protocol", "connect6", "--b-log", s(&log)],
            "from the empty board",
        ),
        (
            vec!["match", "--a", "defaults", "--b", "cmd:sleep 30", "--hang-ms", "300", "--b-log", s(&log)],
            "did not answer `name` with `name ...` within 300 ms",
        ),
        (vec!["tournament", "defaults", "cmd:no-such-engine-xyz"], "no program `no-such-engine-xyz` on PATH"),
    ] {
        let e = fails(&args);
        assert!(e.contains(wanted), "{args:?}: {e}");
    }
    let o = run(&["match", "--a", "defaults", "--b", &mover("random"), "--b-protocol", "uci"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("connect6, cloudict, pbrain, line"));
    let config = common::runs::tiny_config(dir.path(), 1);
    let text =
        std::fs::read_to_string(&config).unwrap().replace("anchors = [\"defaults\"]", "anchors = [\"cmd:/no/such\"]");
    std::fs::write(&config, &text).unwrap();
    let e = fails(&["evolve", "--config", s(&config), "--out", s(dir.path())]);
    assert!(e.contains("[hall_of_fame] anchors") && e.contains("/no/such"), "{e}");
    // A validation opponent on the plain competition protocol cannot start from its openings.
    let log = s(&dir.path().join("plain.log")).to_string();
    let plain = format!("opponents = [\"defaults\", \"{};protocol=connect6;log={log}\"]", mover("random"));
    let text = std::fs::read_to_string(&config).unwrap().replace("cmd:/no/such", "defaults");
    let text = text.replace("opponents = [\"defaults\"]", &plain);
    assert!(text.contains("protocol=connect6"), "tiny config has [validation] opponents = [\"defaults\"]");
    std::fs::write(&config, text).unwrap();
    let e = fails(&["evolve", "--config", s(&config), "--out", s(dir.path())]);
    assert!(e.contains("[validation] opponents") && e.contains("empty board"), "{e}");
}

#[test]
fn a_judge_keeps_only_the_openings_it_finds_even() {
    // brain.py's judge scores a position (x - 7) * 30 for the side to move, x the column of
    // Black's first stone (a = 0), and a forced win when x is 11 (column l). After three
    // stones White moves, so for Black the verdict is (7 - x) * 30: within 60 of even exactly
    // when the first stone is in columns f to j; a first stone in l is never even.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("even.txt");
    let judge = format!("{};log={}", brain("judge"), s(&dir.path().join("judge.log")));
    let args = [
        "openings",
        "--game",
        "gomoku",
        "--method",
        "random",
        "--radius",
        "5",
        "--balance",
        "100000",
        "--turns",
        "3",
        "--count",
        "12",
        "--seed",
        "3",
        "--eval-judge",
        &judge,
        "--eval-judge-margin",
        "60",
        "-o",
        s(&out),
    ];
    let (_, stderr) = ok(&args);
    let text = std::fs::read_to_string(&out).unwrap();
    let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(kept.len(), 12, "{text}");
    for line in &kept {
        let (moves, verdict) = line.split_once('#').unwrap();
        let x = i32::from(moves.trim().as_bytes()[0] - b'a');
        assert!((5..=9).contains(&x), "{line}");
        assert_eq!(verdict.trim(), format!("{:+}", (7 - x) * 30), "{line}");
    }
    // Counted on standard error: what was judged is what was kept and what was rejected.
    let line = stderr.lines().find(|l| l.starts_with("judged ")).unwrap_or_else(|| panic!("{stderr}"));
    let n: Vec<usize> = line.split([' ', '(', ')', ':', ',']).filter_map(|w| w.parse().ok()).collect();
    let [judged, kept_n, rejected, forced, uneven] = n[..5] else { panic!("{line}") };
    assert_eq!((kept_n, judged), (12, kept_n + rejected), "{line}");
    assert_eq!(rejected, forced + uneven, "{line}");
    assert!(forced >= 1 && uneven >= 1, "radius 5 around h8 reaches columns c to m: {line}");
    // The suite is a suite: a match reads it.
    let suite = evotune::arena::openings::OpeningSuite::load(&out, evotune::registry::find("gomoku").unwrap().arena());
    assert_eq!(suite.unwrap().len(), 12);
    // An engine that prints no evaluation cannot judge, and the error says so.
    let e = fails(&[
        "openings",
        "--game",
        "gomoku",
        "--method",
        "random",
        "--turns",
        "3",
        "--eval-judge",
        &brain("random"),
        "-o",
        s(&out),
    ]);
    assert!(e.contains("printed no evaluation"), "{e}");
}
