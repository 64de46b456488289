//! A node's moves in two stages. Most interior nodes of a search are cut off by the first
//! move they search, so a first stage lists a few likely moves at a fraction of a whole
//! generation's cost, and the whole generation follows only when none of them cuts off:
//! - in a quiet position, the pairs of the best few first stones (of the whole list's
//!   first stones, with the same second stones), the best of them;
//! - under threat, every minimal block of two stones, and each one-stone block with the
//!   best free stones on its own lines, scored as the whole list scores them, without
//!   scoring every candidate cell of the board first.
//!
//! The second stage is the whole generation ([`MoveGen::generate`]); a first-stage move it
//! lists again is searched once (the search skips moves it has listed), and one it leaves
//! out (a free stone below the whole list's cut) is a real block all the same.

use super::generator::{best_few, MoveGen};
use super::ranked::RankedMove;
use super::Move;
use crate::games::connect::board::Board;

/// First stones whose pairs make a quiet position's first stage.
pub const FIRST_STAGE_FIRSTS: usize = 4;
/// Pairs a quiet position's first stage keeps, best first.
pub const FIRST_STAGE_WIDTH: usize = 8;
/// Free stones, on its own lines, tried with each one-stone block in the first stage.
pub const FIRST_STAGE_SECONDS: usize = 2;

impl MoveGen {
    /// The first stage of the moves of the side to move into `out` (cleared first), best
    /// first, or false when the position is not staged (its moves are generated whole in
    /// one stage): turns of one stone, a win or a loss on the board, a full or empty board,
    /// and generators ranking stones by an evaluation's scorer.
    pub fn first_stage(&mut self, board: &Board, out: &mut Vec<Move>) -> bool {
        out.clear();
        let me = board.to_move();
        if self.stone_scorer.is_some()
            || self.turn_stones(board) != 2
            || board.threat_count(me) > 0
            || board.is_empty()
            || board.is_full()
        {
            return false;
        }
        self.view.sync(board);
        self.pairs.clear();
        if board.threat_count(me.other()) == 0 {
            self.rank_candidates(board);
            let firsts = FIRST_STAGE_FIRSTS.min(self.config.singles);
            self.pair_firsts(board, firsts);
            self.save_stage(board, firsts);
            self.finish_pairs(out, FIRST_STAGE_WIDTH.min(self.config.width));
            return true;
        }
        self.threats.collect(board, me.other());
        let mut blocks = std::mem::take(&mut self.blocks);
        self.threats.blocking_sets(2, &mut blocks);
        let mut seconds = std::mem::take(&mut self.seconds);
        for b in &blocks {
            let base: i32 = b.stones().iter().map(|&c| self.cell_score(me, c)).sum();
            if b.stones().len() == 2 {
                self.pairs.push(RankedMove::new(base, *b));
                continue;
            }
            let a = b.stones()[0];
            seconds.clear();
            self.touched_seconds::<true>(board, a, &mut seconds);
            best_few(&mut seconds, FIRST_STAGE_SECONDS);
            for second in &seconds {
                self.pairs.push(RankedMove::new(base + second.score(), Move::pair(a, second.cell())));
            }
        }
        self.seconds = seconds;
        let staged = !blocks.is_empty();
        self.blocks = blocks;
        if staged {
            self.finish_pairs(out, usize::MAX);
        }
        staged
    }
}
