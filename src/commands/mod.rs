//! The commands behind the command line: each turns validated options into work and output.
//! Shared here: thread pools, opening suites and where a command's text goes.

pub mod args;
pub mod bench;
pub mod bestmove;
pub mod cluster;
pub mod compare;
pub mod completions;
pub mod evolve;
pub mod export;
pub mod fit_eval;
pub mod fit_order;
pub mod matches;
pub mod openings;
pub mod outputs;
pub mod play;
pub mod plot;
pub mod reproduce;
pub mod scaling;
pub mod schema;
pub mod serve;
pub mod spsa;
pub mod tournament;

use std::path::Path;

use anyhow::{Context, Result};

use crate::arena::game::GameSettings;
use crate::arena::openings::{OpeningSuite, Openings};
use crate::commands::args::OpeningArgs;
use crate::core::openings::OpeningConfig;
use crate::core::settings::EngineSettings;
use crate::registry::GameRef;
use crate::report::progress::Progress;

/// A rayon pool of `threads` workers (default: all cores), at most [`max_threads`].
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        check_threads(n, cores())?;
        b = b.num_threads(n);
    }
    b.build().context("cannot start worker threads")
}

/// The most worker threads a command takes, per core of the machine.
pub const THREADS_PER_CORE: usize = 4;
/// The most worker threads a command takes on any machine.
pub const MAX_THREADS: usize = 1024;

/// The cores this process may use.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |c| c.get())
}

/// The most worker threads on a machine of `cores` cores: more only wait for the cores
/// (the games do not run faster) while each holds two engines and their tables.
pub fn max_threads(cores: usize) -> usize {
    (THREADS_PER_CORE * cores).min(MAX_THREADS)
}

fn check_threads(n: usize, cores: usize) -> Result<()> {
    anyhow::ensure!(n >= 1, "--threads must be at least 1");
    let most = max_threads(cores);
    anyhow::ensure!(
        n <= most,
        "--threads {n}: at most {most} on this machine ({THREADS_PER_CORE} a core for its {cores} core(s), never more \
         than {MAX_THREADS}); more threads only wait for the cores"
    );
    Ok(())
}

/// Checks, before any game, that the transposition tables of the games played at once fit
/// in the memory available: each of `threads` workers plays one game at a time, two engines
/// each with its table (the largest of `engines`, the players' own engines; outside engines
/// have none). `key` says where the table's size is set, for the error.
pub fn check_table_memory(threads: usize, engines: &[&EngineSettings], key: &str) -> Result<()> {
    let Some(available) = available_mib() else { return Ok(()) };
    match table_memory_error(threads, engines, available, key) {
        Some(e) => anyhow::bail!(e),
        None => Ok(()),
    }
}

/// The engines of `players` that play in this process (outside engines keep their own).
pub fn own_engines<'a>(players: &[&'a crate::arena::player::Player]) -> Vec<&'a EngineSettings> {
    players.iter().filter(|p| p.outside.is_none()).map(|p| &p.engine).collect()
}

/// Where `match` and `tournament` set the tables' size, for [`check_table_memory`]'s error.
pub const CLI_TT_MIB: &str = "--tt-mib (one side's: --a-engine tt_mib=N)";
/// Where a run's config sets it.
pub const CONFIG_TT_MIB: &str = "[engine] tt_mib";

/// Why the tables do not fit in `available` MiB, if they do not.
fn table_memory_error(threads: usize, engines: &[&EngineSettings], available: u64, key: &str) -> Option<String> {
    let largest = engines.iter().map(|e| e.table_mib()).max()? as u64;
    let need = threads as u64 * 2 * largest;
    (need > available).then(|| {
        format!(
            "the transposition tables need up to {need} MiB (tt_mib {largest} MiB x 2 engines a game x {threads} \
             game(s) at once, one a thread) but only {available} MiB of memory is available: lower {key} or --threads"
        )
    })
}

/// A test hook: the memory available, in MiB, instead of the machine's.
pub const AVAILABLE_MIB_VAR: &str = "EVOTUNE_AVAILABLE_MIB";

/// The memory available to new allocations, in MiB: Linux's MemAvailable, less if the
/// process's control group (a container, a batch job) allows less; `None` where neither is
/// known.
fn available_mib() -> Option<u64> {
    if let Some(v) = std::env::var(AVAILABLE_MIB_VAR).ok().and_then(|v| v.parse().ok()) {
        return Some(v);
    }
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| {
        let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib / 1024)
    });
    let read = |name: &str| -> Option<u64> {
        std::fs::read_to_string(Path::new("/sys/fs/cgroup").join(name)).ok()?.trim().parse().ok()
    };
    // cgroup v2 at the root of the process's view ("max" when unlimited: no number).
    let cgroup = read("memory.max").map(|max| max.saturating_sub(read("memory.current").unwrap_or(0)) >> 20);
    match (meminfo, cgroup) {
        (Some(m), Some(c)) => Some(m.min(c)),
        (m, c) => m.or(c),
    }
}

/// A command's text output: written atomically to `path` (and said so on stderr), or printed
/// on stdout without one.
pub fn write_output(path: Option<&Path>, text: &str) -> Result<()> {
    match path {
        Some(path) => {
            crate::fsutil::write_atomic(path, text.as_bytes())
                .with_context(|| format!("{}: cannot write", path.display()))?;
            eprintln!("wrote {}", path.display());
        }
        None => print!("{text}"),
    }
    Ok(())
}

/// The opening suite and game settings of a command.
///
/// A generated suite has at least as many openings as the command plays pairs (fixed-depth
/// engines replay a repeated opening move for move, which would count one game many times),
/// or all there are when the generator's settings hold fewer.
pub fn openings_from(args: &OpeningArgs, game: GameRef, pairs: usize) -> Result<(OpeningSuite, GameSettings)> {
    let suite = match &args.openings {
        Some(path) => OpeningSuite::load(path, game.arena())?,
        None => {
            let config = generated_openings(pairs);
            let progress = Progress::background("openings", config.count as u64, "openings");
            let suite = OpeningSuite::generate(game.arena(), &config, args.opening_seed)?;
            progress.finish();
            if suite.len() < pairs {
                eprintln!(
                    "note: only {} distinct openings for {pairs} pairs; some openings are played more than once",
                    suite.len()
                );
            }
            suite
        }
    };
    Ok((suite, args.settings()))
}

/// The engine settings of players under a game clock: with no limits of their own, they think
/// as long as the clock allows (the clock's budget caps every move), rather than searching the
/// default depth of a command without a clock.
pub fn clocked(engine: &EngineSettings, args: &OpeningArgs) -> EngineSettings {
    let mut e = engine.clone();
    if args.tc.is_some() && e.limits().is_unlimited() {
        e.time_ms = Some(crate::core::limits::MAX_TIME_MS);
    }
    e
}

/// The openings of a match: the suite file, or generated as the pairs need them (a long match
/// or an SPRT starts at once, and stops without generating openings it never plays).
pub fn match_openings(args: &OpeningArgs, game: GameRef, pairs: usize) -> Result<(Openings, GameSettings)> {
    let openings = match &args.openings {
        Some(path) => Openings::fixed(OpeningSuite::load(path, game.arena())?),
        None => Openings::generated(game.arena(), &generated_openings(pairs), args.opening_seed),
    };
    Ok((openings, args.settings()))
}

/// The generator settings of commands that play `pairs` game pairs.
fn generated_openings(pairs: usize) -> OpeningConfig {
    let min = OpeningConfig::default().count;
    OpeningConfig { count: pairs.clamp(min, crate::core::openings::MAX_COUNT), ..OpeningConfig::default() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::settings::SearchKind;

    #[test]
    fn tables_that_do_not_fit_are_refused_up_front() {
        let big = EngineSettings { tt_mib: 4096, ..EngineSettings::default() };
        let small = EngineSettings { tt_mib: 16, ..EngineSettings::default() };
        let e = table_memory_error(4, &[&small, &big], 8000, "[engine] tt_mib").unwrap();
        assert!(e.starts_with("the transposition tables need up to 32768 MiB (tt_mib 4096 MiB x 2 engines"), "{e}");
        assert!(e.ends_with("lower [engine] tt_mib or --threads"), "{e}");
        assert!(e.contains("only 8000 MiB of memory is available"), "{e}");
        assert_eq!(table_memory_error(4, &[&small, &big], 40_000, "tt_mib"), None);
        let mcts = EngineSettings { search: SearchKind::Mcts, ..big.clone() };
        assert_eq!(table_memory_error(4, &[&mcts], 100, "tt_mib"), None, "MCTS keeps no table of tt_mib");
        assert_eq!(table_memory_error(4, &[], 1, "tt_mib"), None, "outside engines only");
    }

    #[test]
    fn threads_are_bounded_by_the_cores() {
        assert_eq!(max_threads(2), 8);
        assert_eq!(max_threads(512), MAX_THREADS);
        let e = format!("{:#}", check_threads(100_000, 2).unwrap_err());
        assert!(e.starts_with("--threads 100000: at most 8 on this machine"), "{e}");
        assert!(check_threads(0, 2).is_err());
        assert!(check_threads(8, 2).is_ok());
        assert!(thread_pool(Some(100_000)).is_err());
        assert_eq!(thread_pool(Some(2)).unwrap().current_num_threads(), 2);
    }
}
