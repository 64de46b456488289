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
//! The fours tried are those near the side's last stone, and from its third four on only
//! fours that make more than a four ([`attacks`]): a win by continuous fours is a chain of
//! fours each building on the last. With every four at every node the main search reached 2-3
//! turns less at 300 ms; with these, about one turn less at the same positions (and a
//! quiescence position costs less than one of the main search, docs/matches.md).
//!
//! Most nodes end on the stand-pat or have no four, so the search costs little; what it buys
//! is the win by continuous fours that lies just past the horizon, and the refutation by
//! fours of a horizon move that the static score thought good. A five reached here is a real
//! win at its ply: every node on the way either chose its four or had only the one block.
//! After [`ConnectGen::quiescence_plies`] plies the node is scored statically. The table is
//! not used here.

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

/// See [`TreeGame::horizon_attacks`]: the side to move's fours near its last stone, best
/// first by the cells' move order (the wins a five or an open four would be are decided
/// before this is asked). Near: within 2 cells either way, or on a line within 4 of it
/// (`Geometry::line_cells`). A win by continuous fours is a chain of fours each building on
/// the last; a four elsewhere only spends a threat, and searching every four at every ply
/// cost the main search 2-3 turns.
/// From the side's third four on (`qply` plies past the horizon), only fours that make more
/// than a four: a plain four then rarely starts anything a static score does not see.
pub fn attacks(gen: &mut ConnectGen, pos: &GomokuBoard, qply: usize, out: &mut Vec<Move>) {
    let Some(p) = pos.kept_cells() else {
        return;
    };
    let board = pos.board();
    let me = board.to_move();
    let fours = p.class_count(me, cells::FOUR) + p.class_count(me, cells::FOUR_THREE) + p.class_count(me, cells::FLEX4);
    let history = board.history();
    if fours == 0 || history.len() < 2 {
        return;
    }
    let last = history[history.len() - 2];
    let plain_fours = qply < 4;
    let attacking = |c: Cell| {
        let class = p.class(me, c);
        makes_four(class) && (plain_fours || class != cells::FOUR || second_level(p.levels(me, c)) >= cells::F2)
    };
    let mut ranked = std::mem::take(&mut gen.ranked_cells);
    ranked.clear();
    let rank = &gen.cell_rank;
    for &c in &board.geometry().line_cells[last as usize] {
        if p.is_empty(c) && attacking(c) {
            ranked.push((rank.of(p, me, c), c));
        }
    }
    ranked.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    out.extend(ranked.iter().map(|&(_, c)| Move::single(c)));
    gen.ranked_cells = ranked;
}

/// The second strongest of a cell's 4 line levels.
fn second_level(levels: [u8; 4]) -> u8 {
    let mut l = levels;
    l.sort_unstable_by(|a, b| b.cmp(a));
    l[1]
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
