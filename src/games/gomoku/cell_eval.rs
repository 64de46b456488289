//! The `cells` evaluation: every empty cell's line levels and classes ([`cells`](super::cells))
//! priced for the side to move and for the side that has just moved, summed.
//!
//! A cell's line level says what a stone there would make, so the sum prices each side's
//! potential: the side to move's open-four cells (it has an open three and moves next) are
//! worth far more than the same cells of the side that has just moved, which the side to
//! move can still block. On top of the line levels, the cells where one stone makes two
//! threats at once (an open four or two fours, a four and an open three, two open threes) are
//! priced by class. The weights are a table beside the 6-tuple one, tunable the same way;
//! the defaults are set by hand.

use crate::core::game::Evaluate;
use crate::core::weights::{concat_specs, Schema, WeightSpec, Weights};
use crate::games::connect::game::ConnectPosition;
use crate::games::connect::movegen::GOMOKU_MOVE_ORDER;
use crate::games::gomoku::cells::{CellPatterns, DOUBLE_THREE, FLEX4, FOUR_THREE, LEVELS};
use crate::games::gomoku::movegen::CELL_ORDER;
use crate::games::gomoku::GomokuBoard;

/// Bounds of a weight: 0 to ten times its default.
const fn w(name: &'static str, default: i32, doc: &'static str) -> WeightSpec {
    WeightSpec::new(name, default, 0, 10 * default, doc)
}

/// The classes priced on top of the line levels.
const PRICED_CLASSES: [u8; 3] = [DOUBLE_THREE, FOUR_THREE, FLEX4];

/// The line levels B1..F5 for the side to move, then for the side that has just moved: the
/// part the `cells` and `cell-pairs` evaluations share.
pub(super) const LEVEL_SPECS: [WeightSpec; 18] = [
    w("own_b1", 1, "a cell where the side to move would make a closed one"),
    w("own_f1", 3, "... an open one"),
    w("own_b2", 5, "... a closed two"),
    w("own_f2", 14, "... an open two"),
    w("own_b3", 16, "... a closed three"),
    w("own_f3", 45, "... an open three"),
    w("own_b4", 60, "... a four"),
    w("own_f4", 2_000, "... an open four (it has an open three and moves)"),
    w("own_f5", 8_000, "... a five (never scored: the search takes it)"),
    w("opp_b1", 1, "a cell where the side that has just moved would make a closed one"),
    w("opp_f1", 2, "... an open one"),
    w("opp_b2", 4, "... a closed two"),
    w("opp_f2", 10, "... an open two"),
    w("opp_b3", 12, "... a closed three"),
    w("opp_f3", 30, "... an open three"),
    w("opp_b4", 40, "... a four"),
    w("opp_f4", 220, "... an open four (an open three the side to move must answer)"),
    w("opp_f5", 4_000, "... a five (never scored: the search blocks it)"),
];

/// The line levels B1..F5 for the side to move, then for the side that has just moved, then
/// the classes for each, then Gomoku's move-order weights and the `cells` move order's.
pub static GOMOKU_CELLS: Schema = Schema {
    game: "gomoku",
    eval: "cells",
    source: "hand-set: line levels of every empty cell (Gomocup-style patterns); hand-set move order",
    specs: &concat_specs::<32, 15, 47>(
        concat_specs::<24, 8, 32>(
            concat_specs::<18, 6, 24>(
                LEVEL_SPECS,
                [
                    w("own_double_three", 600, "a cell where the side to move makes two open threes"),
                    w("own_four_three", 1_500, "... a four and an open three"),
                    w("own_flex4", 2_000, "... an open four or two fours"),
                    w("opp_double_three", 250, "a cell where the side that has just moved makes two open threes"),
                    w("opp_four_three", 400, "... a four and an open three"),
                    w("opp_flex4", 300, "... an open four or two fours"),
                ],
            ),
            GOMOKU_MOVE_ORDER,
        ),
        CELL_ORDER,
    ),
};

/// The `cells` evaluation of one table.
#[derive(Clone, Debug)]
pub struct CellEval {
    /// `[side][level]`: side 0 the side to move, 1 the one that has just moved.
    level: [[i64; LEVELS]; 2],
    class: [[i64; 3]; 2],
}

impl CellEval {
    /// Unpacks a table of [`GOMOKU_CELLS`].
    pub fn new(weights: &Weights) -> CellEval {
        let v = weights.eval_values();
        assert_eq!(v.len(), 24, "a cells table has 24 evaluation weights");
        let mut e = CellEval { level: [[0; LEVELS]; 2], class: [[0; 3]; 2] };
        for side in 0..2 {
            for l in 1..LEVELS {
                e.level[side][l] = v[side * 9 + l - 1];
            }
            for k in 0..3 {
                e.class[side][k] = v[18 + side * 3 + k];
            }
        }
        e
    }

    /// The score for the side to move.
    #[inline]
    pub fn score(&self, p: &CellPatterns, to_move: crate::games::connect::board::Colour) -> i32 {
        let mut s = 0i64;
        for (side, colour) in [(0, to_move), (1, to_move.other())] {
            let sign = if side == 0 { 1 } else { -1 };
            let mut t = 0i64;
            for l in 1..LEVELS {
                t += self.level[side][l] * i64::from(p.count(colour, l as u8));
            }
            for (k, &class) in PRICED_CLASSES.iter().enumerate() {
                t += self.class[side][k] * i64::from(p.class_count(colour, class));
            }
            s += sign * t;
        }
        s.clamp(-100_000_000, 100_000_000) as i32
    }
}

impl Evaluate<GomokuBoard> for CellEval {
    #[inline]
    fn evaluate(&self, pos: &GomokuBoard) -> i32 {
        self.score(&pos.cells(), pos.board().to_move())
    }
}
