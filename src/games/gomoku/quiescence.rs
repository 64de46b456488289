//! The quiescence search by fours past the horizon, for the players that keep cell patterns
//! (`cells`, `cell-pairs`, `tuple6-cells`), as Gomocup engines search beyond their depth.
//!
//! At a node past the horizon that the rules and the class wins leave undecided:
//! - a side to move facing the opponent's four (a cell where the opponent's stone makes five)
//!   must take that cell: it is the node's one move, and the node cannot stand pat (two such
//!   cells are a loss, which the node entry already scores);
//! - any other side to move may stand pat on its static score (the search cuts off at once
//!   when that reaches beta) or play one of its fours, each of which forces the opponent's
//!   block in turn.
//!
//! Most nodes end on the stand-pat or have no four, so the search costs little; what it buys
//! is the win by continuous fours that lies just past the horizon, and the refutation by
//! fours of a horizon move that the static score thought good. A five reached here is a real
//! win at its ply: every node on the way either chose its four or had only the one block.
//! After [`ConnectGen::quiescence_plies`] plies the node is scored statically.

use crate::core::game::Evaluate;
use crate::games::connect::board::Cell;
use crate::games::connect::game::ConnectPosition;
use crate::games::connect::movegen::Move;
use crate::games::connect::search::ConnectGen;
use crate::games::gomoku::cells::{self, CellPatterns};
use crate::games::gomoku::{Gomoku, GomokuBoard, GomokuEval};
use crate::search::{Quiescence, TreeGame};

/// Plies of the quiescence search past the horizon: five fours and their blocks, then the
/// static score (a longer win by fours is the root's threat-space search's to find).
pub const QUIESCENCE_PLIES: usize = 10;

/// See [`TreeGame::horizon`].
pub fn horizon(
    gen: &mut ConnectGen,
    eval: &GomokuEval,
    pos: &GomokuBoard,
    ply: usize,
    qply: usize,
    out: &mut Vec<Move>,
) -> Quiescence {
    // As an interior node: decided by the rules or the class wins, else searched (the node
    // entry scores statically at depth 0, and at the search's ply cap).
    if let Err(score) = <Gomoku as TreeGame>::node_entry(gen, eval, pos, 1, ply) {
        return Quiescence::Score(score);
    }
    let Some(p) = pos.kept_cells().filter(|_| qply < gen.quiescence_plies) else {
        return Quiescence::Score(eval.evaluate(pos));
    };
    let them = pos.board().to_move().other();
    if p.class_count(them, cells::FIVE) > 0 {
        out.extend(cells_of(p, |c| p.class(them, c) == cells::FIVE).map(Move::single));
        return Quiescence::Forced;
    }
    Quiescence::StandPat(eval.evaluate(pos))
}

/// See [`TreeGame::horizon_attacks`]: the side to move's fours, best first by the cells'
/// move order (the wins a five or an open four would be are decided before this is asked).
pub fn attacks(gen: &mut ConnectGen, pos: &GomokuBoard, out: &mut Vec<Move>) {
    let Some(p) = pos.kept_cells() else {
        return;
    };
    let me = pos.board().to_move();
    let fours = p.class_count(me, cells::FOUR) + p.class_count(me, cells::FOUR_THREE) + p.class_count(me, cells::FLEX4);
    if fours == 0 {
        return;
    }
    let mut ranked = std::mem::take(&mut gen.ranked_cells);
    ranked.clear();
    let rank = &gen.cell_rank;
    ranked.extend(cells_of(p, |c| makes_four(p.class(me, c))).map(|c| (rank.of(p, me, c), c)));
    ranked.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    out.extend(ranked.iter().map(|&(_, c)| Move::single(c)));
    gen.ranked_cells = ranked;
}

/// Whether a stone on a cell of this class makes a four (or more).
fn makes_four(class: u8) -> bool {
    matches!(class, cells::FOUR | cells::FOUR_THREE | cells::FLEX4 | cells::FIVE)
}

/// The empty cells for which `keep` holds, in board order.
fn cells_of<'a>(p: &'a CellPatterns, keep: impl Fn(Cell) -> bool + 'a) -> impl Iterator<Item = Cell> + 'a {
    (0..p.cells() as Cell).filter(move |&c| p.is_empty(c) && keep(c))
}

#[cfg(test)]
mod tests;
