//! The commands behind the command line: each turns validated options into work and output.

use std::time::Instant;

use anyhow::{Context, Result};

use crate::cli::{BenchArgs, BestmoveArgs};
use crate::game::connect::notation::{board_from_record_moves, move_to_record};
use crate::game::connect::Rules;
use crate::player::load_weights;
use crate::search::{Engine, EngineConfig, Limits};

/// Middle-game positions searched by `bench` (record notation from the empty board).
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

/// Splits "j10 k11k9" into moves.
pub fn split_moves(text: &str) -> Vec<&str> {
    text.split(|c: char| c.is_whitespace() || c == ',').filter(|s| !s.is_empty()).collect()
}

pub fn bench(args: &BenchArgs) -> Result<()> {
    let rules = Rules::CONNECT6;
    let config = EngineConfig { search: args.search, eval: args.eval, ..EngineConfig::default() };
    let weights = args.eval.schema(rules).defaults();
    let mut engine = Engine::new(config, &weights);
    let limits = Limits::depth(args.depth);
    let mut total_nodes = 0u64;
    let start = Instant::now();
    for (i, text) in BENCH_POSITIONS.iter().enumerate() {
        let mut board = board_from_record_moves(rules, &split_moves(text)).context("bench position")?;
        engine.new_game(i as u64);
        let r = engine.search(&mut board, &limits);
        println!(
            "position {:>2}  best {:<8} score {:>8}  depth {}  nodes {:>9}  {:>7.1} ms",
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

pub fn bestmove(args: &BestmoveArgs) -> Result<()> {
    let rules = Rules::CONNECT6;
    let mut board = board_from_record_moves(rules, &split_moves(&args.moves)).context("--moves")?;
    if let Some(w) = board.winner() {
        anyhow::bail!("--moves: the game is already over ({} has six)", w.name());
    }
    if board.is_full() {
        anyhow::bail!("--moves: the board is full");
    }
    let (weights, _) = load_weights(&args.weights, args.engine.eval, rules)?;
    let mut engine = Engine::new(args.engine.engine_config(), &weights);
    engine.new_game(0);
    let r = engine.search(&mut board, &args.engine.limits_or(Limits::depth(3)));
    println!("bestmove {}", move_to_record(rules, r.best.stones()));
    let pv: Vec<String> = r.pv.iter().map(|m| move_to_record(rules, m.stones())).collect();
    println!(
        "info depth {} score {} nodes {} nps {:.0} ms {} pv {}",
        r.depth,
        r.score,
        r.nodes,
        r.nps(),
        r.elapsed.as_millis(),
        pv.join(" ")
    );
    Ok(())
}
