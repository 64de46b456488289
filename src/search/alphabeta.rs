//! Plain alpha-beta: the baseline of the papers' "PVS vs alpha-beta" experiment. The same
//! evaluation, generator, tactics and horizon rule as PVS, but no null windows, no
//! transposition table and no history: moves are tried in the generator's order.

use super::{make_move, unmake_move, Engine, MATE, MAX_PLY};
use crate::game::connect::movegen::Situation;
use crate::game::connect::Board;

impl Engine {
    pub(crate) fn alphabeta(&mut self, board: &mut Board, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.tick() {
            return 0;
        }
        if board.winner().is_some() {
            return -(MATE - ply as i32);
        }
        let mut moves = std::mem::take(&mut self.stack[ply]);
        let situation = self.movegen.generate(board, &mut moves);
        let early = match situation {
            Situation::Win => Some(MATE - (ply as i32 + 1)),
            Situation::Lost => Some(-(MATE - (ply as i32 + 2))),
            Situation::Full => Some(0),
            Situation::Quiet if depth <= 0 || ply >= MAX_PLY => Some(self.evaluator.evaluate(board)),
            Situation::Defend if ply >= MAX_PLY => Some(self.evaluator.evaluate(board)),
            _ => None,
        };
        if let Some(score) = early {
            self.stack[ply] = moves;
            return score;
        }
        let mut best = -MATE;
        let child_depth = depth.max(1) - 1;
        for &m in moves.iter() {
            let placed = make_move(board, m);
            let score = -self.alphabeta(board, child_depth, -beta, -alpha, ply + 1);
            unmake_move(board, placed);
            if self.stopped {
                break;
            }
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        self.stack[ply] = moves;
        best
    }
}
