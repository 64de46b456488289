//! Wins that the cells' classes prove without a search, asked at every node of the players
//! that keep cell patterns (`cells`, `tuple6-cells`, `cell-pairs`), as Gomocup engines do.
//!
//! With no four on the board, a side to move that has a cell of class [`FLEX4`] (an open
//! four or two fours) wins on its next turn but one: the opponent, without a four, cannot
//! make five first and one stone blocks one of the two fives. A cell of class [`FOUR_THREE`]
//! or [`DOUBLE_THREE`] wins one turn later, provided the opponent has no cell where a stone
//! makes a four:
//! - the four of a four-three has one cell that completes it, and the opponent must take it
//!   (its stone there makes no four, as it has no such cell); that cell lies on the four's
//!   line, not on the three's (two lines through a cell share no other), so the three still
//!   becomes an open four, which the opponent can neither block nor outrun without a four;
//! - of a double three the opponent's one stone blocks at most one line; the other becomes an
//!   open four.
//!
//! Each claim is exact for freestyle (five or more wins); the search's mate scores count the
//! plies to the five. The tests check every claim against a search of all replies.

use crate::games::connect::board::Colour;
use crate::games::gomoku::cells::{CellPatterns, DOUBLE_THREE, FIVE, FLEX4, FOUR, FOUR_THREE};

/// The plies to the side to move's five (1, 3 or 5) when its cells' classes prove a win; none
/// when they do not (they prove nothing about a loss: an opponent's threat may be answered).
#[inline]
pub fn proven_win(p: &CellPatterns, me: Colour) -> Option<i32> {
    let them = me.other();
    if p.class_count(me, FIVE) > 0 {
        return Some(1);
    }
    if p.class_count(them, FIVE) > 0 {
        // The opponent has a four: the side to move must block it first.
        return None;
    }
    if p.class_count(me, FLEX4) > 0 {
        return Some(3);
    }
    let makes_fours =
        |side: Colour| p.class_count(side, FOUR) + p.class_count(side, FOUR_THREE) + p.class_count(side, FLEX4) > 0;
    if (p.class_count(me, FOUR_THREE) > 0 || p.class_count(me, DOUBLE_THREE) > 0) && !makes_fours(them) {
        return Some(5);
    }
    None
}

#[cfg(test)]
mod tests;
