//! EinStein's expectimax (`--search pvs` or `alphabeta`): iterative deepening of a
//! depth-limited expectimax, chance nodes averaging the six rolls, leaves scored by the hybrid
//! evaluation.

use std::time::Duration;

use super::board::{Board, Move, Phase, CUBES};
use super::eval::HybridEval;
use crate::core::game::{Position, Status};
use crate::core::limits::Limits;
use crate::search::{Clock, SearchResult, MATE};

/// Iterative deepening of expectimax; a depth that the clock cuts short is thrown away.
pub(super) fn expectimax(eval: &HybridEval, root: &Board, limits: &Limits, clock: &mut Clock) -> SearchResult<Move> {
    let Phase::Move(die) = root.phase() else { unreachable!("searched at a roll") };
    let mut moves = Vec::with_capacity(6);
    root.steps_for(die, &mut moves);
    let max_depth = limits.depth.unwrap_or(if limits.is_unlimited() { 3 } else { 40 }).max(1);
    let mut result =
        SearchResult { best: moves[0], score: 0, depth: 0, nodes: 0, elapsed: Duration::ZERO, pv: vec![moves[0]] };
    let mut board = root.clone();
    for depth in 1..=max_depth {
        let mut best = (i32::MIN, moves[0]);
        for &m in &moves {
            let u = board.play(m);
            let v = -chance_value(eval, &mut board, depth - 1, 1, clock);
            board.undo(u);
            if clock.stopped {
                break;
            }
            if v > best.0 {
                best = (v, m);
            }
        }
        if clock.stopped {
            break;
        }
        result = SearchResult { best: best.1, score: best.0, depth, pv: vec![best.1], ..result };
        if best.0.abs() > MATE / 2 && depth > 1 {
            break;
        }
    }
    result
}

/// The value for the side to move of a position waiting for its roll: the mean over the six
/// rolls of the best step.
pub(super) fn chance_value(eval: &HybridEval, board: &mut Board, depth: u32, ply: i32, clock: &mut Clock) -> i32 {
    match board.status() {
        Status::Won { winner, .. } if winner == board.to_move() => return MATE - ply,
        Status::Won { .. } => return -(MATE - ply),
        _ => {}
    }
    if depth == 0 {
        return eval.score(board);
    }
    let mut total: i64 = 0;
    let mut moves = Vec::with_capacity(6);
    for die in 1..=CUBES as u8 {
        board.roll(die);
        moves.clear();
        board.steps_for(die, &mut moves);
        let mut best = i32::MIN;
        for &m in &moves {
            if clock.tick() {
                board.unroll();
                return 0;
            }
            let u = board.play(m);
            let v = -chance_value(eval, board, depth - 1, ply + 1, clock);
            board.undo(u);
            best = best.max(v);
        }
        board.unroll();
        total += best as i64;
    }
    (total / CUBES as i64) as i32
}
