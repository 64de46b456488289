//! The command line. Doc comments here are the `--help` text.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::game::connect::eval::EvalKind;
use crate::search::{EngineConfig, Limits, SearchKind};

/// evotune: tune Connect6 evaluation weights by evolution, and play with them.
#[derive(Parser, Debug)]
#[command(name = "evotune", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Search fixed positions at a fixed depth with the default weights and print a node-count
    /// signature (last line: `bench nodes <N> nps <X> ms <T>`).
    Bench(BenchArgs),
    /// Search one position given as record moves and print `bestmove <stones>`.
    Bestmove(BestmoveArgs),
}

/// How a player searches: evaluation, search algorithm, limits and memory.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// Evaluation: roads (incremental), roads-global (recount every node), patterns.
    #[arg(long, value_enum, default_value_t = EvalKind::Roads)]
    pub eval: EvalKind,
    /// Search algorithm.
    #[arg(long, value_enum, default_value_t = SearchKind::Pvs)]
    pub search: SearchKind,
    /// Stop iterative deepening after this many turns.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Stop after this many nodes (playouts for mcts). Deterministic.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Milliseconds per move (not deterministic).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16)]
    pub tt_mib: usize,
    /// Moves searched per node in quiet positions.
    #[arg(long)]
    pub width: Option<usize>,
}

impl EngineArgs {
    pub fn engine_config(&self) -> EngineConfig {
        let mut c =
            EngineConfig { search: self.search, eval: self.eval, tt_mib: self.tt_mib, ..EngineConfig::default() };
        if let Some(w) = self.width {
            c.movegen.width = w.max(1);
        }
        c
    }

    /// The limits given, or `default` when none was.
    pub fn limits_or(&self, default: Limits) -> Limits {
        let l = Limits { depth: self.depth, nodes: self.nodes, time_ms: self.time_ms };
        if l.is_unlimited() {
            default
        } else {
            l
        }
    }
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth of every bench search.
    #[arg(long, default_value_t = 3)]
    pub depth: u32,
    /// Search algorithm to bench.
    #[arg(long, value_enum, default_value_t = SearchKind::Pvs)]
    pub search: SearchKind,
    /// Evaluation to bench.
    #[arg(long, value_enum, default_value_t = EvalKind::Roads)]
    pub eval: EvalKind,
}

#[derive(Args, Debug)]
pub struct BestmoveArgs {
    /// The game so far in record notation, moves separated by spaces: "j10 k11k9 ...".
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Weight file, or `defaults`.
    #[arg(long, default_value = "defaults")]
    pub weights: String,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Where a weight file is written or read.
pub type WeightPath = PathBuf;
