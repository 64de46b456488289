//! Static evaluations of a Connect(m,n,k,p,q) position, all read from a weight table.

pub mod patterns;
pub mod roads;
pub mod transitions;

pub use patterns::{CONNECT6_PATTERNS, GOMOKU_PATTERNS};
pub use roads::{CONNECT6_ROADS, GOMOKU_ROADS};
pub use transitions::CONNECT6_TRANSITIONS;

use std::sync::Arc;

use crate::core::game::{Evaluate, Evaluation};
use crate::core::weights::Weights;
use crate::games::connect::board::Board;
use crate::games::connect::movegen::StoneScorer;

/// Connect6's evaluations, the default first.
pub static CONNECT6_EVALUATIONS: [Evaluation; 4] = [
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
    Evaluation {
        name: "transitions",
        schema: &CONNECT6_TRANSITIONS,
        doc: "Li Guo 2007's K function: each stone worth the pattern transitions it causes (li2007)",
        tunable: true,
    },
];

/// The stone scorer the evaluation of a table lends the move generator, if it scores moves
/// itself: the `transitions` evaluation's K function. `None` for every other table, whose
/// generator ranks stones by its `move_*` weights.
pub fn stone_scorer(weights: &Weights) -> Option<Arc<dyn StoneScorer>> {
    let schema = weights.schema();
    (schema.game == CONNECT6_TRANSITIONS.game && schema.eval == CONNECT6_TRANSITIONS.eval)
        .then(|| Arc::new(transitions::TransitionEval::new(weights)) as Arc<dyn StoneScorer>)
}

/// A ready-to-use Connect evaluation: the weights unpacked for speed.
#[derive(Clone, Debug)]
pub enum Evaluator {
    Roads(roads::RoadEval),
    Patterns(patterns::PatternEval),
    /// Boxed: its two transition tables are ten times the size of the other evaluations.
    Transitions(Box<transitions::TransitionEval>),
}

impl Evaluator {
    /// The evaluation `name` (`roads`, `roads-global`, `patterns`, `transitions`) of a table of
    /// its schema.
    /// Panics on another name: callers resolve names against the game's list first.
    pub fn new(name: &str, weights: &Weights) -> Evaluator {
        match name {
            "roads" => Evaluator::Roads(roads::RoadEval::new(weights)),
            "roads-global" => Evaluator::Roads(roads::RoadEval::new(weights).with_global_scanning()),
            "patterns" => Evaluator::Patterns(patterns::PatternEval::new(weights)),
            "transitions" => Evaluator::Transitions(Box::new(transitions::TransitionEval::new(weights))),
            other => panic!("no Connect evaluation `{other}`"),
        }
    }

    /// The static score of a position for the side to move (positive is good for it).
    #[inline]
    pub fn evaluate(&self, board: &Board) -> i32 {
        match self {
            Evaluator::Roads(e) => e.evaluate(board),
            Evaluator::Patterns(e) => e.evaluate(board),
            Evaluator::Transitions(e) => e.evaluate(board),
        }
    }
}

impl Evaluate<Board> for Evaluator {
    #[inline]
    fn evaluate(&self, board: &Board) -> i32 {
        Evaluator::evaluate(self, board)
    }
}
