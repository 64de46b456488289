//! UCT Monte-Carlo tree search (placeholder until written).
use super::{Engine, Limits, SearchResult};
use crate::game::connect::Board;
impl Engine {
    pub(crate) fn uct(&mut self, board: &mut Board, limits: &Limits) -> SearchResult {
        self.iterative_deepening(board, limits, std::time::Instant::now())
    }
}
