//! Pattern (棋型) evaluation — placeholder schema; the evaluation itself is being written.

use crate::weights::{Schema, WeightSpec};

pub static CONNECT6_PATTERNS: Schema = Schema {
    game: "connect6",
    eval: "patterns",
    source: "hand-set",
    specs: &[
        WeightSpec::new("own_a5", 5000, 0, 20000, "live five"),
        WeightSpec::new("opp_a5", 5000, 0, 20000, "live five"),
    ],
};

pub static GOMOKU_PATTERNS: Schema = Schema {
    game: "gomoku",
    eval: "patterns",
    source: "hand-set",
    specs: &[
        WeightSpec::new("own_a4", 5000, 0, 20000, "live four"),
        WeightSpec::new("opp_a4", 5000, 0, 20000, "live four"),
    ],
};

#[derive(Clone, Debug)]
pub struct PatternEval;
impl PatternEval {
    pub fn new(_w: &crate::weights::Weights) -> Self {
        PatternEval
    }
    pub fn evaluate(&self, _b: &crate::game::connect::Board) -> i32 {
        0
    }
}
