//! The generator's cheap stone score and its weights (the `move_*` weights of a table).

use crate::core::weights::{WeightGroup, WeightSpec, Weights};
use crate::games::connect::board::{Board, Cell, Colour, MAX_K};

/// What the generator's cheap score gives a stone for each road through it, by stone counts:
/// `own[n]` when the stone lifts an own road (no enemy stone) to n stones, `block[n]` when it
/// lands in an enemy road of n stones (no own stone), killing it. A stone completing k in a
/// row scores [`MoveScoring::WIN`]. The cheap score decides which stones and pairs a quiet
/// node searches at all (the best `singles`, `seconds` and `width` of them) and how blocks
/// are ordered, so these weights are tuned with the evaluation's (the `move_*` weights of a
/// table: [`CONNECT6_MOVE_ORDER`], [`GOMOKU_MOVE_ORDER`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveScoring {
    pub own: [i32; MAX_K + 1],
    pub block: [i32; MAX_K + 1],
}

/// The hand-set scores, by the stones a road still needs: after the stone for own roads
/// (0 = the stone completes it), before it for enemy roads.
const OWN_BY_NEED: [i32; MAX_K + 1] = [MoveScoring::WIN, 20_000, 400, 60, 14, 4, 1, 1, 1];
const BLOCK_BY_NEED: [i32; MAX_K + 1] = [0, 30_000, 3_000, 40, 10, 3, 1, 1, 1];

impl MoveScoring {
    /// The score of a stone that completes a line.
    pub const WIN: i32 = 1_000_000;

    /// The hand-set scores for lines of `k`.
    pub fn defaults(k: usize) -> MoveScoring {
        let mut s = MoveScoring { own: [0; MAX_K + 1], block: [0; MAX_K + 1] };
        for n in 1..=k {
            s.own[n] = OWN_BY_NEED[k - n];
            s.block[n] = BLOCK_BY_NEED[k - n];
        }
        s
    }

    /// The scores of a weight table: its `move_own{n}` and `move_block{n}` weights, the
    /// defaults for any it does not have (tables of schemas without move-order weights).
    pub fn from_weights(weights: &Weights, k: usize) -> MoveScoring {
        let mut s = MoveScoring::defaults(k);
        for (spec, &v) in weights.schema().specs.iter().zip(weights.values()) {
            if spec.group != WeightGroup::MoveOrder {
                continue;
            }
            let (table, n) = if let Some(n) = spec.name.strip_prefix("move_own") {
                (&mut s.own, n)
            } else if let Some(n) = spec.name.strip_prefix("move_block") {
                (&mut s.block, n)
            } else {
                panic!("move-order weight `{}` is neither move_own nor move_block", spec.name)
            };
            let n: usize = n.parse().expect("move-order weight names end in a stone count");
            assert!((1..k).contains(&n), "move-order weight `{}` out of 1..k", spec.name);
            table[n] = v;
        }
        s
    }

    /// What a road with `mine` own and `theirs` enemy stones gives a stone of "mine".
    pub(super) fn road_value(&self, k: usize, mine: usize, theirs: usize) -> i32 {
        if theirs == 0 && mine < k {
            self.own[mine + 1]
        } else if mine == 0 && theirs > 0 {
            self.block[theirs]
        } else {
            0
        }
    }
}

/// A scorer that ranks the generator's candidate stones in place of the cheap road score: an
/// evaluation that scores moves itself lends one to the generator (the `transitions`
/// evaluation, whose K function is Li Guo 2007's move scorer), so that its weights decide
/// which moves are searched. Threat moves and defences are still found by roads.
pub trait StoneScorer: std::fmt::Debug + Send + Sync {
    /// What a stone of `me` on the empty cell `c` is worth, with a stone of `me` also on
    /// `first` when given (a pair's second stone, scored after its first).
    fn stone_score(&self, board: &Board, me: Colour, c: Cell, first: Option<Cell>) -> i32;

    /// How far along a line a stone reads: a cell farther than this from `first`, or off its
    /// lines, scores the same with and without it.
    fn reach(&self) -> usize;
}

/// A move-order weight for lines of `K`: own roads of `n` stones (`block = false`) or enemy
/// roads of `n` (`block = true`), default from the hand-set table, bounds 0 to ten times it.
const fn move_spec<const K: usize>(name: &'static str, n: usize, block: bool, doc: &'static str) -> WeightSpec {
    let default = if block { BLOCK_BY_NEED[K - n] } else { OWN_BY_NEED[K - n] };
    WeightSpec::new(name, default, 0, 10 * default, doc).in_group(WeightGroup::MoveOrder)
}

/// Connect6's move-order weights (part of its road and pattern schemas).
pub const CONNECT6_MOVE_ORDER: [WeightSpec; 10] = [
    move_spec::<6>("move_own1", 1, false, "move order: a stone starting an own road"),
    move_spec::<6>("move_own2", 2, false, "move order: a stone making an own road of 2"),
    move_spec::<6>("move_own3", 3, false, "move order: a stone making an own road of 3"),
    move_spec::<6>("move_own4", 4, false, "move order: a stone making an own road of 4 (a threat)"),
    move_spec::<6>("move_own5", 5, false, "move order: a stone making an own road of 5 (a threat)"),
    move_spec::<6>("move_block1", 1, true, "move order: a stone in an enemy road of 1"),
    move_spec::<6>("move_block2", 2, true, "move order: a stone in an enemy road of 2"),
    move_spec::<6>("move_block3", 3, true, "move order: a stone in an enemy road of 3"),
    move_spec::<6>("move_block4", 4, true, "move order: a stone blocking an enemy road of 4"),
    move_spec::<6>("move_block5", 5, true, "move order: a stone blocking an enemy road of 5"),
];

/// Freestyle Gomoku's move-order weights (part of its road and pattern schemas).
pub const GOMOKU_MOVE_ORDER: [WeightSpec; 8] = [
    move_spec::<5>("move_own1", 1, false, "move order: a stone starting an own road"),
    move_spec::<5>("move_own2", 2, false, "move order: a stone making an own road of 2"),
    move_spec::<5>("move_own3", 3, false, "move order: a stone making an own road of 3"),
    move_spec::<5>("move_own4", 4, false, "move order: a stone making an own road of 4 (a threat)"),
    move_spec::<5>("move_block1", 1, true, "move order: a stone in an enemy road of 1"),
    move_spec::<5>("move_block2", 2, true, "move order: a stone in an enemy road of 2"),
    move_spec::<5>("move_block3", 3, true, "move order: a stone blocking an enemy road of 3"),
    move_spec::<5>("move_block4", 4, true, "move order: a stone blocking an enemy road of 4"),
];
