//! Road (路) evaluation: the sum over roads holding stones of one colour only of a weight for
//! their stone count, the side to move's roads counted with the `own` weights and the
//! opponent's with the `opp` weights (Li Xuejun 2015; Wang Hongfei 2021).
//!
//! The board keeps the live-road histogram incrementally, so an evaluation is 2(k-1)
//! multiply-adds. `global = true` recounts every road instead ("global scanning"), for the
//! local-vs-global experiment.

use crate::core::weights::{concat_specs, Schema, WeightGroup, WeightSpec, Weights};
use crate::games::connect::board::{Board, MAX_K};
use crate::games::connect::movegen::{CONNECT6_MOVE_ORDER, GOMOKU_MOVE_ORDER};

/// Connect6 road weights. Defaults: the widely copied GA-tuned table
/// `{0, 17, 78, 141, 788, 1030, 10000}` for 0..6 stones (its source could not be located),
/// used for both sides. A road of 6 is a win and is scored by the search, not by a weight.
pub static CONNECT6_ROADS: Schema = Schema {
    game: "connect6",
    eval: "roads",
    source: "widely copied road table {0,17,78,141,788,1030,10000}; hand-set move order",
    specs: &concat_specs::<10, 10, 20>(
        [
            WeightSpec::new("own1", 17, 0, 200, "side to move, road of 1 stone"),
            WeightSpec::new("own2", 78, 0, 1000, "side to move, road of 2 stones"),
            WeightSpec::new("own3", 141, 0, 3000, "side to move, road of 3 stones"),
            WeightSpec::new("own4", 788, 0, 10000, "side to move, road of 4 stones"),
            WeightSpec::new("own5", 1030, 0, 20000, "side to move, road of 5 stones"),
            WeightSpec::new("opp1", 17, 0, 200, "opponent, road of 1 stone"),
            WeightSpec::new("opp2", 78, 0, 1000, "opponent, road of 2 stones"),
            WeightSpec::new("opp3", 141, 0, 3000, "opponent, road of 3 stones"),
            WeightSpec::new("opp4", 788, 0, 10000, "opponent, road of 4 stones"),
            WeightSpec::new("opp5", 1030, 0, 20000, "opponent, road of 5 stones"),
        ],
        CONNECT6_MOVE_ORDER,
    ),
};

/// Freestyle Gomoku road (5-cell window) weights. Hand-set defaults following the Gomoku blog's
/// design rules: neighbouring levels roughly 10-20x apart, opponent levels weighted like own.
pub static GOMOKU_ROADS: Schema = Schema {
    game: "gomoku",
    eval: "roads",
    source: "hand-set, levels ~10-20x apart (the Gomoku blog's design rules); hand-set move order",
    specs: &concat_specs::<8, 8, 16>(
        [
            WeightSpec::new("own1", 4, 0, 100, "side to move, road of 1 stone"),
            WeightSpec::new("own2", 60, 0, 1000, "side to move, road of 2 stones"),
            WeightSpec::new("own3", 800, 0, 10000, "side to move, road of 3 stones"),
            WeightSpec::new("own4", 8000, 0, 100000, "side to move, road of 4 stones"),
            WeightSpec::new("opp1", 4, 0, 100, "opponent, road of 1 stone"),
            WeightSpec::new("opp2", 60, 0, 1000, "opponent, road of 2 stones"),
            WeightSpec::new("opp3", 800, 0, 10000, "opponent, road of 3 stones"),
            WeightSpec::new("opp4", 8000, 0, 100000, "opponent, road of 4 stones"),
        ],
        GOMOKU_MOVE_ORDER,
    ),
};

/// The road evaluation of one weight table, unpacked into arrays indexed by stone count.
#[derive(Clone, Debug)]
pub struct RoadEval {
    own: [i32; MAX_K + 1],
    opp: [i32; MAX_K + 1],
    global: bool,
}

impl RoadEval {
    /// Unpacks a road table (`own1..own{k-1}`, `opp1..opp{k-1}`).
    pub fn new(weights: &Weights) -> RoadEval {
        let mut own = [0; MAX_K + 1];
        let mut opp = [0; MAX_K + 1];
        for (spec, &v) in weights.schema().specs.iter().zip(weights.values()) {
            if spec.group != WeightGroup::Eval {
                continue;
            }
            let (table, n) = if let Some(n) = spec.name.strip_prefix("own") {
                (&mut own, n)
            } else if let Some(n) = spec.name.strip_prefix("opp") {
                (&mut opp, n)
            } else {
                panic!("road schema has a weight `{}` that is neither own nor opp", spec.name)
            };
            let n: usize = n.parse().expect("road weight names end in a stone count");
            table[n] = v;
        }
        RoadEval { own, opp, global: false }
    }

    /// The same weights evaluated by recounting every road at every call.
    pub fn with_global_scanning(mut self) -> RoadEval {
        self.global = true;
        self
    }

    /// The score for the side to move.
    #[inline]
    pub fn evaluate(&self, board: &Board) -> i32 {
        let me = board.to_move();
        let k = board.rules().k as usize;
        let (mine, theirs);
        let global;
        if self.global {
            global = board.live_roads_global();
            mine = &global[me.index()];
            theirs = &global[me.other().index()];
        } else {
            mine = board.live_roads(me);
            theirs = board.live_roads(me.other());
        }
        let mut s = 0i32;
        for n in 1..k {
            s += self.own[n] * mine[n] - self.opp[n] * theirs[n];
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect::notation::board_from_record_moves;
    use crate::games::connect::Rules;

    #[test]
    fn single_stone_scores_its_roads() {
        let w = CONNECT6_ROADS.defaults();
        let e = RoadEval::new(&w);
        let b = board_from_record_moves(Rules::CONNECT6, &["j10"]).unwrap();
        // White to move; Black's centre stone lies on 24 roads of one stone.
        assert_eq!(e.evaluate(&b), -24 * 17);
        assert_eq!(e.clone().with_global_scanning().evaluate(&b), -24 * 17);
    }

    #[test]
    fn local_equals_global() {
        let w = CONNECT6_ROADS.defaults();
        let local = RoadEval::new(&w);
        let global = local.clone().with_global_scanning();
        let b = board_from_record_moves(Rules::CONNECT6, &["j10", "k11k9", "l10h10", "j12j8"]).unwrap();
        assert_eq!(local.evaluate(&b), global.evaluate(&b));
    }

    #[test]
    fn names_map_to_the_right_counts() {
        let mut values = CONNECT6_ROADS.defaults().values().to_vec();
        values[CONNECT6_ROADS.index_of("opp3").unwrap()] = 999;
        let w = Weights::from_values(&CONNECT6_ROADS, values).unwrap();
        let e = RoadEval::new(&w);
        assert_eq!(e.opp[3], 999);
        assert_eq!(e.own[3], 141);
    }
}
