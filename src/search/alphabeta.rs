//! Plain alpha-beta: the baseline of the papers' "PVS vs alpha-beta" experiment. The same
//! evaluation, generator, tactics and horizon rule as PVS, but no null windows, no
//! transposition table and no history: moves are tried in the generator's order
//! (`alphabeta`), or in board order (`alphabeta-unordered`: Wang 2021's baseline, which its
//! PVS beats by sorting every node's moves; the same moves, so the same tree at a full
//! window, only fewer cut-offs).

use super::{Playouts, Tactics, TreeSearch, MATE};
use crate::core::game::{GameMove, MoveOf, Position};
use crate::core::settings::SearchKind;

/// Sorts moves into board order (by the cells they play), the order of a generator that
/// does not rank its moves.
pub(crate) fn board_order<M: GameMove>(moves: &mut [M]) {
    moves.sort_by(|a, b| a.history_keys().cmp(b.history_keys()));
}

impl<G: Playouts, T: Tactics<G>> TreeSearch<G, T> {
    pub(crate) fn alphabeta(
        &mut self,
        board: &mut G::Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        if let Err(score) = self.node_entry(board, depth, ply) {
            return score;
        }
        let mut moves = std::mem::take(&mut self.stack[ply]);
        self.generate(board, depth, &mut moves);
        if self.settings.search == SearchKind::AlphabetaUnordered {
            board_order::<MoveOf<G>>(&mut moves);
        }
        let mut best = -MATE;
        let child_depth = depth - 1;
        for &m in moves.iter() {
            let placed = board.play(m);
            let score = -self.alphabeta(board, child_depth, -beta, -alpha, ply + 1);
            board.undo(placed);
            if self.clock.stopped {
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
