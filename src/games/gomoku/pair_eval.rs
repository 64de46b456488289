//! The `cell-pairs` evaluation: the `cells` evaluation's line levels, and instead of its three
//! priced classes a weight for every *level pair* of an empty cell (its two strongest line
//! levels, [`cells::PAIRS`](super::cells::PAIRS) of them), for the side to move and for the
//! side that has just moved.
//!
//! Why: a class lumps shapes together (an open three with a closed two beside it counts as
//! much as a lone open three), so a fit of the `cells` table to a stronger engine's judgement
//! runs out of weights to move (its loss stalls). The 110 pair weights let a fit price every
//! combination of a cell's two best lines on its own. The hand table prices the pairs that
//! make the `cells` classes with those classes' weights and every other pair at 0, so it
//! scores every position as the `cells` hand table does.

use crate::core::game::Evaluate;
use crate::core::weights::{concat_specs, Schema, WeightSpec, Weights};
use crate::games::connect::board::Colour;
use crate::games::connect::game::ConnectPosition;
use crate::games::connect::movegen::GOMOKU_MOVE_ORDER;
use crate::games::gomoku::cell_eval::LEVEL_SPECS;
use crate::games::gomoku::cells::{CellPatterns, LEVELS, PAIRS};
use crate::games::gomoku::movegen::CELL_ORDER;
use crate::games::gomoku::GomokuBoard;

/// A pair weight: may turn negative in a fit (a pair worth less than its two levels say).
const fn p(name: &'static str, default: i32) -> WeightSpec {
    WeightSpec::new(name, default, -5_000, 25_000, "a cell whose two strongest lines are these levels (strongest first); own: the side to move, opp: the side that has just moved")
}

/// The pair weights, the side to move's 55 then the other side's, each in
/// [`pair_index`](super::cells::pair_index) order.
const PAIR_SPECS: [WeightSpec; 2 * PAIRS] = [
    p("own_dead_dead", 0),
    p("own_b1_dead", 0),
    p("own_b1_b1", 0),
    p("own_f1_dead", 0),
    p("own_f1_b1", 0),
    p("own_f1_f1", 0),
    p("own_b2_dead", 0),
    p("own_b2_b1", 0),
    p("own_b2_f1", 0),
    p("own_b2_b2", 0),
    p("own_f2_dead", 0),
    p("own_f2_b1", 0),
    p("own_f2_f1", 0),
    p("own_f2_b2", 0),
    p("own_f2_f2", 0),
    p("own_b3_dead", 0),
    p("own_b3_b1", 0),
    p("own_b3_f1", 0),
    p("own_b3_b2", 0),
    p("own_b3_f2", 0),
    p("own_b3_b3", 0),
    p("own_f3_dead", 0),
    p("own_f3_b1", 0),
    p("own_f3_f1", 0),
    p("own_f3_b2", 0),
    p("own_f3_f2", 0),
    p("own_f3_b3", 0),
    p("own_f3_f3", 600),
    p("own_b4_dead", 0),
    p("own_b4_b1", 0),
    p("own_b4_f1", 0),
    p("own_b4_b2", 0),
    p("own_b4_f2", 0),
    p("own_b4_b3", 0),
    p("own_b4_f3", 1500),
    p("own_b4_b4", 2000),
    p("own_f4_dead", 2000),
    p("own_f4_b1", 2000),
    p("own_f4_f1", 2000),
    p("own_f4_b2", 2000),
    p("own_f4_f2", 2000),
    p("own_f4_b3", 2000),
    p("own_f4_f3", 2000),
    p("own_f4_b4", 2000),
    p("own_f4_f4", 2000),
    p("own_f5_dead", 0),
    p("own_f5_b1", 0),
    p("own_f5_f1", 0),
    p("own_f5_b2", 0),
    p("own_f5_f2", 0),
    p("own_f5_b3", 0),
    p("own_f5_f3", 0),
    p("own_f5_b4", 0),
    p("own_f5_f4", 0),
    p("own_f5_f5", 0),
    p("opp_dead_dead", 0),
    p("opp_b1_dead", 0),
    p("opp_b1_b1", 0),
    p("opp_f1_dead", 0),
    p("opp_f1_b1", 0),
    p("opp_f1_f1", 0),
    p("opp_b2_dead", 0),
    p("opp_b2_b1", 0),
    p("opp_b2_f1", 0),
    p("opp_b2_b2", 0),
    p("opp_f2_dead", 0),
    p("opp_f2_b1", 0),
    p("opp_f2_f1", 0),
    p("opp_f2_b2", 0),
    p("opp_f2_f2", 0),
    p("opp_b3_dead", 0),
    p("opp_b3_b1", 0),
    p("opp_b3_f1", 0),
    p("opp_b3_b2", 0),
    p("opp_b3_f2", 0),
    p("opp_b3_b3", 0),
    p("opp_f3_dead", 0),
    p("opp_f3_b1", 0),
    p("opp_f3_f1", 0),
    p("opp_f3_b2", 0),
    p("opp_f3_f2", 0),
    p("opp_f3_b3", 0),
    p("opp_f3_f3", 250),
    p("opp_b4_dead", 0),
    p("opp_b4_b1", 0),
    p("opp_b4_f1", 0),
    p("opp_b4_b2", 0),
    p("opp_b4_f2", 0),
    p("opp_b4_b3", 0),
    p("opp_b4_f3", 400),
    p("opp_b4_b4", 300),
    p("opp_f4_dead", 300),
    p("opp_f4_b1", 300),
    p("opp_f4_f1", 300),
    p("opp_f4_b2", 300),
    p("opp_f4_f2", 300),
    p("opp_f4_b3", 300),
    p("opp_f4_f3", 300),
    p("opp_f4_b4", 300),
    p("opp_f4_f4", 300),
    p("opp_f5_dead", 0),
    p("opp_f5_b1", 0),
    p("opp_f5_f1", 0),
    p("opp_f5_b2", 0),
    p("opp_f5_f2", 0),
    p("opp_f5_b3", 0),
    p("opp_f5_f3", 0),
    p("opp_f5_b4", 0),
    p("opp_f5_f4", 0),
    p("opp_f5_f5", 0),
];

/// The line levels B1..F5 for each side, then the level pairs for each, then Gomoku's
/// move-order weights, then the `cells` move order's.
pub static GOMOKU_CELL_PAIRS: Schema = Schema {
    game: "gomoku",
    eval: "cell-pairs",
    source: "hand-set: the cells table's line levels, its class weights on the level pairs that make those classes; hand-set move order",
    specs: &concat_specs::<136, 15, 151>(
        concat_specs::<128, 8, 136>(concat_specs::<18, 110, 128>(LEVEL_SPECS, PAIR_SPECS), GOMOKU_MOVE_ORDER),
        CELL_ORDER,
    ),
};

/// The `cell-pairs` evaluation of one table.
#[derive(Clone, Debug)]
pub struct CellPairEval {
    /// `[side][level]`: side 0 the side to move, 1 the one that has just moved.
    level: [[i64; LEVELS]; 2],
    pair: [[i64; PAIRS]; 2],
}

impl CellPairEval {
    /// Unpacks a table of [`GOMOKU_CELL_PAIRS`].
    pub fn new(weights: &Weights) -> CellPairEval {
        let v = weights.eval_values();
        assert_eq!(v.len(), 18 + 2 * PAIRS, "a cell-pairs table has 128 evaluation weights");
        let mut e = CellPairEval { level: [[0; LEVELS]; 2], pair: [[0; PAIRS]; 2] };
        for side in 0..2 {
            for l in 1..LEVELS {
                e.level[side][l] = v[side * 9 + l - 1];
            }
            for k in 0..PAIRS {
                e.pair[side][k] = v[18 + side * PAIRS + k];
            }
        }
        e
    }

    /// The score for the side to move.
    #[inline]
    pub fn score(&self, p: &CellPatterns, to_move: Colour) -> i32 {
        let mut s = 0i64;
        for (side, colour) in [(0, to_move), (1, to_move.other())] {
            let mut t = 0i64;
            for l in 1..LEVELS {
                t += self.level[side][l] * i64::from(p.count(colour, l as u8));
            }
            for k in 0..PAIRS {
                t += self.pair[side][k] * i64::from(p.pair_count(colour, k));
            }
            s += if side == 0 { t } else { -t };
        }
        s.clamp(-100_000_000, 100_000_000) as i32
    }
}

impl Evaluate<GomokuBoard> for CellPairEval {
    #[inline]
    fn evaluate(&self, pos: &GomokuBoard) -> i32 {
        self.score(&pos.cells_with_pairs(), pos.board().to_move())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gomoku::cell_eval::{CellEval, GOMOKU_CELLS};
    use crate::games::gomoku::cells::{pair_index, B4, F3, F4};

    /// Random positions of a few stones near the centre, the same for every run.
    fn positions() -> Vec<GomokuBoard> {
        let mut state = 99u64;
        let mut out = Vec::new();
        for _ in 0..200 {
            let mut pos = GomokuBoard::new();
            pos.keep_cells(true);
            for _ in 0..14 {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let (x, y) = (3 + (state >> 33) % 9, 3 + (state >> 45) % 9);
                let c = pos.board().cell(x as usize, y as usize);
                if pos.board().is_empty_cell(c) && !pos.board().is_over() {
                    pos.place(c);
                    out.push(pos.clone());
                }
            }
        }
        out
    }

    #[test]
    fn the_hand_table_scores_as_the_cells_hand_table() {
        let pairs = CellPairEval::new(&GOMOKU_CELL_PAIRS.defaults());
        let cells = CellEval::new(&GOMOKU_CELLS.defaults());
        let all = positions();
        assert!(all.len() > 2000);
        for pos in &all {
            assert_eq!(pairs.evaluate(pos), cells.evaluate(pos), "{:?}", pos.board().history());
        }
    }

    #[test]
    fn pair_weights_sit_where_their_names_say() {
        let d = GOMOKU_CELL_PAIRS.defaults();
        let at = |name: &str| 18 + GOMOKU_CELL_PAIRS.specs[18..].iter().position(|s| s.name == name).unwrap();
        assert_eq!(at("own_f3_f3"), 18 + pair_index(F3, F3));
        assert_eq!(at("own_b4_f3"), 18 + pair_index(B4, F3));
        assert_eq!(at("opp_f4_dead"), 18 + PAIRS + pair_index(F4, 0));
        assert_eq!(d.values()[at("own_b4_f3")], 1_500);
        assert_eq!(GOMOKU_CELL_PAIRS.specs.len(), 151);
    }
}
