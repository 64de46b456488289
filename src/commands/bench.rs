//! `evotune bench`: fixed positions, fixed depth, default weights. The node total is a
//! deterministic signature of the search: quote it in commits that change search behaviour.

use std::time::Instant;

use anyhow::{Context, Result};

use crate::cli::BenchArgs;
use crate::commands::split_moves;
use crate::game::connect::notation::{board_from_record_moves, move_to_record};
use crate::game::connect::Rules;
use crate::search::{Engine, EngineConfig, Limits};

/// Middle-game positions searched by `bench` (record notation from the empty board), taken
/// from self-play games of the default weights at depth 3 from generated openings: quiet
/// positions with no threat road on the board, White and Black to move.
pub const BENCH_POSITIONS: &[&str] = &[
    "j10 k11k9 l10h10 j12j8",
    "j10 k10k9 j9j11 l12i8 h10l10",
    "j10 i11k11 k9i9 j12h12 l10l8 m11g11",
    "j10 j11k11 i9k9 l10h10 m11l12 g11i12 h12n12",
    "j10 k11i9 h10k10 j9j12 l9k8 l12m13 h11g12 i10h8",
    "g7 h8h6 f6i9 j10e5 g9g6 f8h9 f7i7 e7h7",
    "k10 k11j11 l10m10 l12j10 i10j9 n9m9 l9l8 k12m12",
    "j10 k9i9 j8j9 k11h8 i10h11 k10l10 g10h10 k8k12 l11l12",
];

pub fn run(args: &BenchArgs) -> Result<()> {
    let rules = Rules::CONNECT6;
    let config = EngineConfig { search: args.search, eval: args.eval, ..EngineConfig::default() };
    let weights = args.eval.schema(rules).defaults();
    let mut engine = Engine::new(config, &weights);
    let limits = match args.search {
        crate::search::SearchKind::Mcts => Limits::nodes(1000 * u64::from(args.depth)),
        _ => Limits::depth(args.depth),
    };
    let mut total_nodes = 0u64;
    let start = Instant::now();
    for (i, text) in BENCH_POSITIONS.iter().enumerate() {
        let mut board = board_from_record_moves(rules, &split_moves(text)).context("bench position")?;
        engine.new_game(i as u64);
        let r = engine.search(&mut board, &limits);
        println!(
            "position {:>2}  best {:<8} score {:>11}  depth {:>2}  nodes {:>9}  {:>8.1} ms",
            i + 1,
            move_to_record(rules, r.best.stones()),
            r.score,
            r.depth,
            r.nodes,
            r.elapsed.as_secs_f64() * 1e3
        );
        total_nodes += r.nodes;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "bench nodes {} nps {} ms {}",
        total_nodes,
        (total_nodes as f64 / secs.max(1e-9)) as u64,
        (secs * 1e3).round() as u64
    );
    Ok(())
}
