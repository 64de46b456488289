//! Static evaluations of a Connect(m,n,k,p,q) position, all read from a weight table.

pub mod patterns;
pub mod roads;

use crate::game::connect::board::{Board, Rules};
use crate::weights::{Schema, Weights};

/// Which evaluation a player uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum EvalKind {
    /// Road (路) evaluation, incremental ("local scanning").
    Roads,
    /// Road evaluation recounting every road at every node ("global scanning", for li2015).
    RoadsGlobal,
    /// Pattern (棋型) evaluation.
    Patterns,
}

impl EvalKind {
    /// The weight schema of this evaluation for a game.
    pub fn schema(self, rules: Rules) -> &'static Schema {
        let gomoku = rules == Rules::GOMOKU;
        match (self, gomoku) {
            (EvalKind::Roads | EvalKind::RoadsGlobal, false) => &roads::CONNECT6_ROADS,
            (EvalKind::Roads | EvalKind::RoadsGlobal, true) => &roads::GOMOKU_ROADS,
            (EvalKind::Patterns, false) => &patterns::CONNECT6_PATTERNS,
            (EvalKind::Patterns, true) => &patterns::GOMOKU_PATTERNS,
        }
    }

    /// The evaluation a weight schema belongs to (road tables default to local scanning).
    pub fn of_schema(schema: &Schema) -> EvalKind {
        if schema.eval == "patterns" {
            EvalKind::Patterns
        } else {
            EvalKind::Roads
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            EvalKind::Roads => "roads",
            EvalKind::RoadsGlobal => "roads-global",
            EvalKind::Patterns => "patterns",
        }
    }
}

/// A ready-to-use evaluation: the weights unpacked for speed.
#[derive(Clone, Debug)]
pub enum Evaluator {
    Roads(roads::RoadEval),
    Patterns(patterns::PatternEval),
}

impl Evaluator {
    /// Builds the evaluator of `kind` from a table of that kind's schema.
    pub fn new(kind: EvalKind, weights: &Weights) -> Evaluator {
        match kind {
            EvalKind::Roads => Evaluator::Roads(roads::RoadEval::new(weights)),
            EvalKind::RoadsGlobal => Evaluator::Roads(roads::RoadEval::new(weights).with_global_scanning()),
            EvalKind::Patterns => Evaluator::Patterns(patterns::PatternEval::new(weights)),
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
