//! evotune: a genetic-algorithm tuner for the evaluation weights of board-game engines,
//! Connect6 first. README.md is the guide; docs/ has the details.

pub mod arena;
pub mod cli;
pub mod cluster;
pub mod commands;
pub mod core;
pub mod dispatch;
pub mod eval_fit;
pub mod export;
pub mod fsutil;
pub mod ga;
pub mod games;
pub mod interrupt;
pub mod order;
pub mod player;
pub mod registry;
pub mod report;
pub mod reproduce;
pub mod search;
pub mod spsa;
pub mod stats;
pub mod tuner;
pub mod watch;
pub mod workers;

/// The version `--version` prints: the package's version and the commit it was built from
/// (`unknown` when the source came without one, see build.rs).
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("EVOTUNE_COMMIT"), ")");
