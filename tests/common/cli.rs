//! Running the `evotune` binary from the integration tests: a command that must succeed, one
//! that must fail cleanly (exit status 1, an `error:` line, no panic), and the bench signature.

use std::path::Path;
use std::process::{Command, Output};

pub const BIN: &str = env!("CARGO_BIN_EXE_evotune");

pub fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run evotune")
}

/// Runs a command that must succeed; its stdout and stderr.
pub fn ok(args: &[&str]) -> (String, String) {
    let out = run(args);
    let (stdout, stderr) =
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned());
    assert!(out.status.success(), "evotune {args:?} failed:\n{stderr}");
    (stdout, stderr)
}

/// Runs a command that must fail as a user error: exit status 1 and an `error:` message, never
/// a panic. Its stderr.
pub fn fails(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(out.status.code(), Some(1), "evotune {args:?} should fail cleanly");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

/// The node count of `evotune bench`'s last line, `bench nodes <N> nps <X> ms <T>`.
pub fn bench_nodes(stdout: &str) -> u64 {
    let last = stdout.lines().last().unwrap();
    let f: Vec<&str> = last.split(' ').collect();
    assert_eq!((f.len(), f[0], f[1], f[3], f[5]), (7, "bench", "nodes", "nps", "ms"), "{last}");
    assert!(f[4].parse::<u64>().is_ok() && f[6].parse::<u64>().is_ok(), "{last}");
    f[2].parse().unwrap()
}

/// A path as a command-line argument.
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}
