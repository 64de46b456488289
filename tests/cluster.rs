//! A GA run across machines gives the local run's result: by hand with `evotune cluster
//! plan|play|reduce` (always run), and with `evolve --executor slurm` on a real SLURM and
//! `--executor parallel` through GNU parallel (`#[ignore]`d: they need the batch systems;
//! `.ci/run` starts a one-node SLURM with scripts/slurm-local.sh, installs GNU parallel, and
//! runs them with `--ignored`). Each compares everything the runs leave that does not depend
//! on the clock, also after a shard is killed half-way (`EVOTUNE_SHARD_CRASH`) and played
//! again.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::cli::{s, BIN};
use common::runs::{dial_config, evotune, micro_config, run_result, RunResult};

/// The local run of the micro config (4 players, records on), `generations` long.
fn local_run(dir: &Path, generations: u32) -> RunResult {
    let config = micro_config(dir, generations);
    let out = dir.join("local");
    evotune(&["evolve", "--config", s(&config), "--out", s(&out), "--log"]);
    run_result(&out, "tiny")
}

fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(BIN).args(args).envs(env.iter().copied()).output().expect("run evotune")
}

/// Starts evotune with these arguments and environment, its output piped.
fn spawn<S: AsRef<std::ffi::OsStr>>(args: &[S], env: &[(&str, &str)]) -> std::process::Child {
    Command::new(BIN)
        .args(args)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start evotune")
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// The dial.py run both outside-engine tests use ([`dial_config`]), told its values by a
/// file, named `dial`.
fn dial_by_file(dir: &Path, generations: u32) -> PathBuf {
    dial_config(
        dir,
        generations,
        "dial",
        "command = \"python3 tests/fixtures/engines/dial.py --weights {weights}\"\nformat = \"lines\"\n",
    )
}

/// The processes listed in `pids` (dial.py's `DIAL_PIDS`, one id a line) that still run
/// dial.py: not gone, not a zombie, and not a number taken since by another program.
fn still_running(pids: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(pids).unwrap_or_default();
    text.lines()
        .filter(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let command = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            !stat.is_empty() && !stat.contains(") Z ") && String::from_utf8_lossy(&command).contains("dial.py")
        })
        .map(String::from)
        .collect()
}

/// How many processes `pids` lists.
fn started(pids: &Path) -> usize {
    std::fs::read_to_string(pids).unwrap_or_default().lines().count()
}

/// A run whose players are an outside engine's processes steals as any other: a shard alone
/// plays its own games and takes every other shard's, three shards at once (one thread each,
/// at most two processes each) share them out; the result is the local run's, and no engine
/// process outlives the command that started it.
#[test]
fn outside_engine_shards_steal_give_the_local_result_and_leave_no_process() {
    let dir = tempfile::tempdir().unwrap();
    let config = dial_by_file(dir.path(), 2);
    let pids = dir.path().join("pids");
    let env = [("DIAL_PIDS", s(&pids))];
    let checked = |args: &[&str], what: &str| {
        let before = started(&pids);
        let done = run(args, &env);
        assert!(done.status.success(), "{what}: {}", text(&done));
        assert!(started(&pids) > before, "{what} started no engine process");
        assert_eq!(still_running(&pids), Vec::<String>::new(), "{what} left engine processes running");
        String::from_utf8_lossy(&done.stdout).into_owned()
    };
    let local = dir.path().join("local");
    checked(&["evolve", "--config", s(&config), "--out", s(&local), "--threads", "2", "--log"], "the local run");
    let expected = run_result(&local, "dial");

    let out = dir.path().join("hand");
    let populations = out.join("populations/dial");
    let pop = s(&populations);
    evotune(&["cluster", "plan", "--config", s(&config), "--out", s(&out), "--shards", "3"]);
    // Generation 1: shard 1 alone, on two threads, plays its games and steals the others'.
    let one = checked(&["cluster", "play", "--run", pop, "--shard", "1/3", "--threads", "2"], "shard 1");
    assert!(one.contains("(0 by other shards)") && !one.contains(" and 0 of other shards'"), "{one}");
    for shard in ["2/3", "3/3"] {
        let said =
            String::from_utf8_lossy(&evotune(&["cluster", "play", "--run", pop, "--shard", shard]).stdout).into_owned();
        assert!(said.starts_with("played 0 of the shard's"), "{said}");
    }
    let reduced = String::from_utf8_lossy(&evotune(&["cluster", "reduce", "--run", pop]).stdout).into_owned();
    assert!(reduced.starts_with("planned generation 2: "), "{reduced}");
    // Generation 2: the three shards at once.
    let before = started(&pids);
    let shards: Vec<_> = (1..=3)
        .map(|i| {
            let shard = format!("{i}/3");
            spawn(
                &["cluster", "play", "--run", pop, "--shard", &shard, "--threads", "1", "--engine-processes", "2"],
                &env,
            )
        })
        .collect();
    for shard in shards {
        let done = shard.wait_with_output().unwrap();
        assert!(done.status.success(), "{}", text(&done));
    }
    assert!(started(&pids) > before);
    assert_eq!(still_running(&pids), Vec::<String>::new(), "the shards left engine processes running");
    // The play-off and validation play the engine too.
    let champion = checked(&["cluster", "reduce", "--run", pop], "the last reduce");
    assert!(champion.starts_with("champion "), "{champion}");
    assert_eq!(run_result(&out, "dial"), expected);
}

/// The process that `pid` descends from among `roots`, if any (its parent, its parent's
/// parent, ...).
fn ancestor_among(pid: u32, roots: &[u32]) -> Option<u32> {
    let mut at = pid;
    for _ in 0..8 {
        let stat = std::fs::read_to_string(format!("/proc/{at}/stat")).ok()?;
        // `pid (command) state ppid ...`: the command may hold spaces and parentheses.
        let parent: u32 = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse().ok()?;
        if roots.contains(&parent) {
            return Some(parent);
        }
        at = parent;
    }
    None
}

/// Runs these `cluster play` shards at once and counts, every few milliseconds while they
/// run, the engine processes (dial.py, listed in `pids`) alive under each: the most seen at
/// once for each shard, in the order given, and each shard's output.
fn most_engines_alive(shards: &[Vec<String>], env: &[(&str, &str)], pids: &Path) -> Vec<(usize, String)> {
    let mut children: Vec<_> = shards.iter().map(|args| spawn(args, env)).collect();
    let roots: Vec<u32> = children.iter().map(|c| c.id()).collect();
    let mut most = vec![0; roots.len()];
    while children.iter_mut().any(|c| c.try_wait().unwrap().is_none()) {
        let mut alive = vec![0; roots.len()];
        for pid in still_running(pids) {
            if let Some(root) = ancestor_among(pid.parse().unwrap(), &roots) {
                alive[roots.iter().position(|&r| r == root).unwrap()] += 1;
            }
        }
        for (m, a) in most.iter_mut().zip(alive) {
            *m = (*m).max(a);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    children
        .into_iter()
        .zip(most)
        .map(|(c, m)| {
            let done = c.wait_with_output().unwrap();
            assert!(done.status.success(), "{}", text(&done));
            (m, String::from_utf8_lossy(&done.stdout).into_owned())
        })
        .collect()
}

/// `cluster play --engine-processes 2` keeps a shard's processes of the tuned engine to two
/// while it steals other shards' games (whose individuals it has no process for): counted
/// from outside while the shards run, a shard of one thread never has more than the two
/// tuned processes and the anchor's one of its game in play. Uncapped, a shard that plays
/// every individual keeps one process each (8 here).
#[test]
fn engine_processes_stay_capped_while_a_shard_steals() {
    let dir = tempfile::tempdir().unwrap();
    let config = dial_by_file(dir.path(), 2);
    let pids = dir.path().join("pids");
    let env = [("DIAL_PIDS", s(&pids))];
    let out = dir.path().join("hand");
    let populations = out.join("populations/dial");
    let pop = s(&populations).to_string();
    evotune(&["cluster", "plan", "--config", s(&config), "--out", s(&out), "--shards", "3"]);
    let shard = |i: usize, cap: &str| -> Vec<String> {
        let args = ["cluster", "play", "--run", &pop, "--shard", &format!("{i}/3"), "--threads", "1"];
        let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        if !cap.is_empty() {
            args.extend(["--engine-processes".to_string(), cap.to_string()]);
        }
        args
    };
    // Generation 1: shard 1 alone plays its games and steals all the others'.
    let alone = most_engines_alive(&[shard(1, "2")], &env, &pids);
    let (most, said) = &alone[0];
    assert!(!said.contains(" and 0 of other shards'"), "shard 1 stole nothing: {said}");
    assert!((1..=3).contains(most), "shard 1 had {most} engine processes at once (cap 2, plus the anchor's): {said}");
    for i in [2, 3] {
        let said =
            String::from_utf8_lossy(&evotune(&["cluster", "play", "--run", &pop, "--shard", &format!("{i}/3")]).stdout)
                .into_owned();
        assert!(said.starts_with("played 0 of the shard's"), "{said}");
    }
    evotune(&["cluster", "reduce", "--run", &pop]);
    // Generation 2: the three shards at once, stealing from each other.
    let together = most_engines_alive(&[shard(1, "2"), shard(2, "2"), shard(3, "2")], &env, &pids);
    for (i, (most, said)) in together.iter().enumerate() {
        assert!(*most <= 3, "shard {} had {most} engine processes at once (cap 2, plus the anchor's): {said}", i + 1);
    }
    assert_eq!(still_running(&pids), Vec::<String>::new(), "the shards left engine processes running");
}

#[test]
fn plan_play_reduce_by_hand_equals_a_local_run() {
    let dir = tempfile::tempdir().unwrap();
    let expected = local_run(dir.path(), 2);
    let config = micro_config(dir.path(), 2);
    let out = dir.path().join("hand");
    let populations = out.join("populations/tiny");
    let pop = s(&populations);
    let planned = evotune(&["cluster", "plan", "--config", s(&config), "--out", s(&out), "--shards", "3"]);
    assert!(String::from_utf8_lossy(&planned.stdout).starts_with("planned generation 1: "), "{}", text(&planned));
    for generation in 1..=2 {
        // Shard 2 is killed half-way through its games; reduce refuses and names it. One
        // thread, so that it dies holding the claim of its own next game only (on two, the
        // other thread may have stolen a game of shard 1 by then, which shard 1 then replays).
        let crashed = run(
            &["cluster", "play", "--run", pop, "--shard", "2/3", "--threads", "1"],
            &[("EVOTUNE_SHARD_CRASH", "2")],
        );
        assert!(!crashed.status.success() && text(&crashed).contains("aborts after"), "{}", text(&crashed));
        evotune(&["cluster", "play", "--run", pop, "--shard", "3/3"]);
        let status = evotune(&["cluster", "status", "--run", pop, "--missing"]);
        assert_eq!(String::from_utf8_lossy(&status.stdout), "1,2\n");
        if generation == 1 {
            let refused = run(&["cluster", "reduce", "--run", pop], &[]);
            assert_eq!(refused.status.code(), Some(1), "{}", text(&refused));
            let why = text(&refused);
            assert!(why.contains("shard-0001-of-0003.json: missing") && why.contains("for I in 1,2"), "{why}");
        }
        // Shard 3 played its games and took every game nobody had: shard 1's, and shard 2's
        // but the one its killed process held. Shard 1 finds its games played; shard 2's
        // retry plays only the game of the stale claim: the games played before the kill are
        // kept.
        let one = evotune(&["cluster", "play", "--run", pop, "--shard", "1/3"]);
        assert!(String::from_utf8_lossy(&one.stdout).starts_with("played 0 of the shard's"), "{}", text(&one));
        let two = evotune(&["cluster", "play", "--run", pop, "--shard", "2/3"]);
        assert!(String::from_utf8_lossy(&two.stdout).starts_with("played 1 of the shard's"), "{}", text(&two));
        evotune(&["cluster", "play", "--run", pop, "--shard", "3/3"]);
        let again = evotune(&["cluster", "play", "--run", pop, "--shard", "3/3"]);
        assert!(String::from_utf8_lossy(&again.stdout).starts_with("already played"), "{}", text(&again));
        let reduced = evotune(&["cluster", "reduce", "--run", pop]);
        let said = String::from_utf8_lossy(&reduced.stdout).into_owned();
        if generation < 2 {
            assert!(said.starts_with("planned generation 2: ") && said.contains("3 shards"), "{said}");
        } else {
            assert!(said.starts_with("champion "), "{said}");
        }
    }
    assert_eq!(run_result(&out, "tiny"), expected);
    let status = evotune(&["cluster", "status", "--run", pop]);
    assert!(String::from_utf8_lossy(&status.stdout).contains("complete"), "{}", text(&status));
}

/// The machine's SLURM must answer: these tests run where scripts/slurm-local.sh (or a real
/// cluster) set it up, and say so loudly otherwise.
fn require_slurm() {
    let ok = Command::new("sinfo").args(["-h", "-o", "%T"]).output();
    match ok {
        Ok(o) if o.status.success() && !o.stdout.is_empty() => {}
        Ok(o) => panic!(
            "SLURM does not answer (sinfo: {}): run scripts/slurm-local.sh as root first",
            String::from_utf8_lossy(&o.stderr).trim()
        ),
        Err(e) => panic!("no SLURM here (sinfo: {e}): run scripts/slurm-local.sh as root first"),
    }
}

/// SLURM's jobs of this run (by the job name the executor gives them).
fn jobs_of_run(dir: &Path) -> Vec<String> {
    let out = Command::new("squeue").args(["-h", "-o", "%i %j %o"]).output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.contains(dir.to_str().unwrap()))
        .map(str::to_string)
        .collect()
}

#[test]
#[ignore = "needs SLURM: scripts/slurm-local.sh, then cargo test --release --test cluster -- --ignored"]
fn slurm_executor_equals_a_local_run_after_a_killed_shard() {
    require_slurm();
    let dir = tempfile::tempdir().unwrap();
    let expected = local_run(dir.path(), 2);
    let config = micro_config(dir.path(), 2);
    let out = dir.path().join("slurm");
    let args = ["evolve", "--config", s(&config), "--out", s(&out), "--log", "--executor", "slurm", "--shards", "3"];
    let done = run(&[&args[..], &["--poll-seconds", "0.3"]].concat(), &[("EVOTUNE_SHARD_CRASH", "2")]);
    let said = text(&done);
    assert!(done.status.success(), "{said}");
    assert!(said.contains("played by a shard other than their own (work stealing)"), "{said}");
    assert!(said.contains("gen 1: shards 2 failed or were lost; starting them again (1 of 2 retries)"), "{said}");
    assert!(said.contains("gen 1: shards 3/3 done"), "{said}");
    assert_eq!(run_result(&out, "tiny"), expected);
    assert!(jobs_of_run(dir.path()).is_empty());
}

#[test]
#[ignore = "needs SLURM: scripts/slurm-local.sh, then cargo test --release --test cluster -- --ignored"]
fn slurm_ctrl_c_cancels_the_array_and_the_run_resumes_to_the_local_result() {
    require_slurm();
    let dir = tempfile::tempdir().unwrap();
    let expected = local_run(dir.path(), 3);
    let config = micro_config(dir.path(), 3);
    let out = dir.path().join("slurm");
    // Held in the queue, the shards cannot finish before the Ctrl-C.
    let child = Command::new(BIN)
        .args(["evolve", "--config", s(&config), "--out", s(&out), "--log", "--executor", "slurm"])
        .args(["--shards", "2", "--poll-seconds", "0.3", "--sbatch-arg=--hold"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while jobs_of_run(dir.path()).is_empty() && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(!jobs_of_run(dir.path()).is_empty(), "no job array was submitted");
    let sent = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    let stopped = child.wait_with_output().unwrap();
    let said = text(&stopped);
    assert_eq!(stopped.status.code(), Some(130), "{said}");
    assert!(said.contains("slurm shards cancelled") && said.contains("--executor slurm"), "{said}");
    let start = Instant::now();
    while !jobs_of_run(dir.path()).is_empty() && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(jobs_of_run(dir.path()).is_empty(), "the array was not cancelled: {:?}", jobs_of_run(dir.path()));
    let populations = out.join("populations/tiny");
    let resumed = run(
        &[
            "evolve",
            "--resume",
            s(&populations),
            "--log",
            "--executor",
            "slurm",
            "--shards",
            "2",
            "--poll-seconds",
            "0.3",
        ],
        &[],
    );
    assert!(resumed.status.success(), "{}", text(&resumed));
    assert_eq!(run_result(&out, "tiny"), expected);
}

#[test]
#[ignore = "needs SLURM: scripts/slurm-local.sh, then cargo test --release --test cluster -- --ignored"]
fn the_sbatch_chain_runs_a_whole_run_to_the_local_result() {
    require_slurm();
    let dir = tempfile::tempdir().unwrap();
    let expected = local_run(dir.path(), 2);
    let config = micro_config(dir.path(), 2);
    let out = dir.path().join("chain");
    let started =
        Command::new("scripts/slurm-chain.sh").args([s(&config), s(&out), "2"]).env("EVOTUNE", BIN).output().unwrap();
    assert!(started.status.success(), "{}", text(&started));
    // The chain goes on in SLURM's jobs: wait for the report of its last step.
    let report = out.join("results/tiny/report.md");
    let start = Instant::now();
    while !report.exists() && start.elapsed() < Duration::from_secs(300) {
        std::thread::sleep(Duration::from_millis(300));
    }
    let logs = || {
        let dir = out.join("chain-logs/tiny");
        let mut all = String::new();
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            all += &format!("== {}\n{}", e.path().display(), std::fs::read_to_string(e.path()).unwrap_or_default());
        }
        all
    };
    assert!(report.exists(), "the chain did not finish:\n{}", logs());
    // The last reduce job may still be writing its log after the report.
    while !jobs_of_run(dir.path()).is_empty() && start.elapsed() < Duration::from_secs(330) {
        std::thread::sleep(Duration::from_millis(300));
    }
    assert_eq!(run_result(&out, "tiny"), expected, "{}", logs());
}

#[test]
#[ignore = "needs GNU parallel (apt-get install parallel), then cargo test --release --test cluster -- --ignored"]
fn parallel_executor_equals_a_local_run_after_a_killed_shard() {
    let found = Command::new("parallel").arg("--version").output();
    assert!(found.is_ok_and(|o| o.status.success()), "GNU parallel is not installed here: apt-get install -y parallel");
    let dir = tempfile::tempdir().unwrap();
    let expected = local_run(dir.path(), 2);
    let config = micro_config(dir.path(), 2);
    let hosts = dir.path().join("hosts");
    // This machine, two shards at a time, without ssh.
    std::fs::write(&hosts, "# two slots on this machine\n2/:\n").unwrap();
    let out = dir.path().join("parallel");
    let done = run(
        &[
            "evolve",
            "--config",
            s(&config),
            "--out",
            s(&out),
            "--log",
            "--executor",
            "parallel",
            "--hosts",
            s(&hosts),
            "--shards",
            "3",
            "--poll-seconds",
            "0.3",
        ],
        &[("EVOTUNE_SHARD_CRASH", "2")],
    );
    let said = text(&done);
    assert!(done.status.success(), "{said}");
    assert!(said.contains("gen 2: shards 2 failed or were lost; starting them again"), "{said}");
    assert_eq!(run_result(&out, "tiny"), expected);
}

/// `cluster reduce` replays every shard game: a shard whose results its moves do not make
/// (every result flipped, or a 4-move game marked won by six; the checksum recomputed, as an
/// edit would) is refused, naming the file and the game, and nothing is concluded from it.
#[test]
fn a_shard_whose_results_its_moves_do_not_make_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let config = micro_config(dir.path(), 1);
    let out = dir.path().join("run");
    let populations = out.join("populations/tiny");
    let pop = s(&populations);
    evotune(&["cluster", "plan", "--config", s(&config), "--out", s(&out), "--shards", "1"]);
    evotune(&["cluster", "play", "--run", pop, "--shard", "1/1"]);
    let shard = populations.join("work/gen-0001/shard-0001-of-0001.json");
    let original = std::fs::read_to_string(&shard).unwrap();
    let body = evotune::fsutil::verify_checksum(&original).unwrap();
    let file: serde_json::Value = serde_json::from_str(body).unwrap();
    let tampered = |edit: &dyn Fn(&mut Vec<serde_json::Value>)| {
        let mut file = file.clone();
        edit(file["records"].as_array_mut().unwrap());
        std::fs::write(&shard, evotune::fsutil::with_checksum(file.to_string())).unwrap();
        let refused = run(&["cluster", "reduce", "--run", pop], &[]);
        assert_eq!(refused.status.code(), Some(1), "{}", text(&refused));
        text(&refused)
    };
    let why = tampered(&|records| {
        for r in records {
            let flipped = match r["result"].as_str().unwrap() {
                "first" => "second",
                "second" => "first",
                _ => "first",
            };
            r["result"] = flipped.into();
        }
    });
    assert!(why.contains("shard-0001-of-0001.json: game 0 (") && why.contains("its moves leave the game"), "{why}");
    let why = tampered(&|records| {
        let r = &mut records[1];
        r["moves"].as_array_mut().unwrap().truncate(4);
        r["result"] = "first".into();
        r["reason"] = "six".into();
    });
    assert!(
        why.contains("game 1 (") && why.contains("undecided, but the record says won by the first player (six)"),
        "{why}"
    );
    assert!(!out.join("results/tiny/champion.toml").exists());
    // The file as it was played: reduced.
    std::fs::write(&shard, &original).unwrap();
    let reduced = evotune(&["cluster", "reduce", "--run", pop]);
    assert!(String::from_utf8_lossy(&reduced.stdout).starts_with("champion "), "{}", text(&reduced));
}
