//! `evotune bestmove`: one search from a position given as record moves.

use anyhow::{bail, Context, Result};

use crate::cli::BestmoveArgs;
use crate::commands::{default_limits, split_moves};
use crate::game::connect::notation::{board_from_record_moves, move_to_record};
use crate::game::connect::Rules;
use crate::player::load_weights;
use crate::search::Engine;

pub fn run(args: &BestmoveArgs) -> Result<()> {
    let rules = Rules::CONNECT6;
    let mut board = board_from_record_moves(rules, &split_moves(&args.moves)).context("--moves")?;
    if let Some(w) = board.winner() {
        bail!("--moves: the game is already over ({} has six)", w.name());
    }
    if board.is_full() {
        bail!("--moves: the board is full");
    }
    if board.stones_left_in_turn() != board.turn_size() {
        bail!("--moves: the last move is incomplete");
    }
    let (weights, _, eval) = load_weights(&args.weights, args.engine.eval, rules)?;
    let config = args.engine.engine_config(eval);
    let mut engine = Engine::new(config, &weights);
    engine.new_game(0);
    let r = engine.search(&mut board, &args.engine.limits_or(default_limits(config.search)));
    println!("bestmove {}", move_to_record(rules, r.best.stones()));
    let pv: Vec<String> = r.pv.iter().map(|m| move_to_record(rules, m.stones())).collect();
    let mate = r.mate_in().map(|n| format!(" mate {n}")).unwrap_or_default();
    println!(
        "info depth {} score {}{} nodes {} nps {:.0} ms {} pv {}",
        r.depth,
        r.score,
        mate,
        r.nodes,
        r.nps(),
        r.elapsed.as_millis(),
        pv.join(" ")
    );
    Ok(())
}
