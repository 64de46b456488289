//! Static evaluations of a Connect(m,n,k,p,q) position, all read from a weight table.

pub mod patterns;
pub mod roads;

pub use patterns::{CONNECT6_PATTERNS, GOMOKU_PATTERNS};
pub use roads::{CONNECT6_ROADS, GOMOKU_ROADS};

use crate::core::game::{Evaluate, Evaluation};
use crate::core::weights::Weights;
use crate::games::connect::board::Board;

/// Connect6's evaluations, the default first.
pub static CONNECT6_EVALUATIONS: [Evaluation; 3] = [
    Evaluation {
        name: "roads",
        schema: &CONNECT6_ROADS,
        doc: "road (路) evaluation, incremental (\"local scanning\")",
        tunable: true,
    },
    Evaluation {
        name: "roads-global",
        schema: &CONNECT6_ROADS,
        doc: "the road evaluation recounting every road at every node (\"global scanning\", for li2015)",
        tunable: false,
    },
    Evaluation { name: "patterns", schema: &CONNECT6_PATTERNS, doc: "pattern (棋型) evaluation", tunable: true },
];

/// A ready-to-use Connect evaluation: the weights unpacked for speed.
#[derive(Clone, Debug)]
pub enum Evaluator {
    Roads(roads::RoadEval),
    Patterns(patterns::PatternEval),
}

impl Evaluator {
    /// The evaluation `name` (`roads`, `roads-global`, `patterns`) of a table of its schema.
    /// Panics on another name: callers resolve names against the game's list first.
    pub fn new(name: &str, weights: &Weights) -> Evaluator {
        match name {
            "roads" => Evaluator::Roads(roads::RoadEval::new(weights)),
            "roads-global" => Evaluator::Roads(roads::RoadEval::new(weights).with_global_scanning()),
            "patterns" => Evaluator::Patterns(patterns::PatternEval::new(weights)),
            other => panic!("no Connect evaluation `{other}`"),
        }
    }

    /// The static score of a position for the side to move (positive is good for it).
    #[inline]
    pub fn evaluate(&self, board: &Board) -> i32 {
        match self {
            Evaluator::Roads(e) => e.evaluate(board),
            Evaluator::Patterns(e) => e.evaluate(board),
        }
    }
}

impl Evaluate<Board> for Evaluator {
    #[inline]
    fn evaluate(&self, board: &Board) -> i32 {
        Evaluator::evaluate(self, board)
    }
}
