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
/// from self-play games of the default weights at depth 3 from generated openings (turns 6 to
/// 10): no threat road on the board and no forced win within a depth-4 search, so that the
/// bench measures the main search rather than the threat-space search; White and Black to
/// move.
pub const BENCH_POSITIONS: &[&str] = &[
    "h10 m8l8 m12i13 k8n8 i8o8 l7l9",
    "k10 i8j8 j7l13 k8n8 l8l10 h8i9 g8l9",
    "h11 j11j12 k11m9 j9j14 j10l12 j13m13 l13j15 k14l14",
    "m7 j10k11 j13j8 h8m13 k7i9 h10l12 l6n14 n4l10 l7n7",
    "l11 g12h11 i12h10 l7i10 j9k10 f11f13",
    "i11 g13g12 l10k7 g8g11 g10i10 h13g14 k10g15",
    "h9 h10i11 m13l8 g9l14 k13l13 f8g11 e7j13 i13n13",
    "h10 i8i9 m7j9 i6i7 i5i10 j8k8 g10j10 f10l10 l8k9",
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
