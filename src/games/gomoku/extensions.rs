//! Gomoku's search extensions ([`TreeGame::extension`](crate::search::TreeGame::extension)):
//! which nodes' moves are forced answers that should cost the search no turn.
//!
//! In a search where every ply costs a turn, a four and its one block cost two, and an open
//! three and its answers two more: a line of the opponent's threes and fours five attacks long
//! takes ten turns of a thirteen-turn search, and those lines are how evotune loses to Rapfi
//! (docs/matches.md). Extending the forced answers lets the same turns see the attacker's
//! moves only.
//!
//! The players that keep cell patterns extend the blocks of fours ([`Extensions::Fours`]): on
//! the yardstick against Rapfi that neither gained nor lost (+0.2 +- 4.6 points) while it sees
//! lines of fours deeper. Extending the answers to threes too cost half the nominal depth at
//! 300 ms (threes are on the board at most nodes of a middle game) and lost about 3 points
//! (docs/matches.md, "Search extensions").

use crate::games::connect::board::Board;
use crate::games::gomoku::movegen;

/// Which nodes a Gomoku search extends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Extensions {
    /// None: every ply costs a turn.
    #[default]
    None,
    /// The block of a four: a node where the side to move faces the opponent's four (and,
    /// being past the node entry, has no five and one cell that blocks).
    Fours,
    /// The block of a four, and the answers to a three: a node where neither side has a four
    /// and the opponent has a three (the generator lists only its answers there: the three's
    /// cells and ends, and the side to move's fours).
    FoursAndThrees,
    /// As [`FoursAndThrees`](Self::FoursAndThrees), but the answers to a three only where the
    /// side to move cannot make a four: there every move is a block.
    FoursAndBlockedThrees,
}

impl Extensions {
    /// The turns a node's moves are extended by (0 or 1).
    #[inline]
    pub fn of(self, board: &Board) -> i32 {
        if self == Extensions::None {
            return 0;
        }
        let me = board.to_move();
        let them = me.other();
        if board.threat_count(them) > 0 {
            return 1;
        }
        let threes = match self {
            Extensions::None | Extensions::Fours => false,
            Extensions::FoursAndThrees => !movegen::no_three_against(board),
            Extensions::FoursAndBlockedThrees => {
                // A window of five with three of mine and none of theirs: one more stone makes a four.
                let three = board.rules().threat_level() - 1;
                !movegen::no_three_against(board) && board.live_roads(me)[three] == 0
            }
        };
        i32::from(threes && board.threat_count(me) == 0)
    }
}

#[cfg(test)]
mod tests;
