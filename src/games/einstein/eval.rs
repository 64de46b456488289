//! The dynamic hybrid evaluation of EinStein würfelt nicht (after Song Yingjian et al. 2022):
//! each cube is worth what its distance to the target corner makes it, times how likely the
//! die is to let it move; a side's attack value is the sum over its cubes, the opponent's the
//! threat; cubes the opponent can step onto are at risk.
//!
//! For a cube `k` of side `s`:
//! - selection probability `p(k)`: the die faces (of six) that let `s` move `k` — its own
//!   face, and the faces of removed cubes for which `k` is the nearest cube left above or
//!   below. It grows as neighbours are removed, which is what makes piece values dynamic;
//! - distance `d(k)`: steps to the target corner (the larger of the row and column gaps,
//!   since a diagonal step closes both);
//! - value `v(k) = dist_d + edge` where `dist_d` is the weight of distance `d` and `edge` is
//!   added for a cube at distance 2 on the target's row or column (its one or two steps to
//!   the corner cannot be blocked by a diagonal detour; the paper's sharp gain of edge pieces).
//!
//! `V(s) = Σ_k (piece + v(k) · p(k))` minus, for each cube an enemy cube could take next, `hit`
//! percent of its value times that enemy cube's selection probability. The score for the side
//! to move is `attack% · V(me) − threat% · V(opponent)`.
//!
//! The MCTS uses the evaluation in its playouts to prune clearly bad moves: a move scoring
//! more than `prune` below the best move of the roll is not played (a winning move is always
//! taken). The weights are a table the GA tunes like any other.

use crate::core::game::{Evaluate, Side};
use crate::core::weights::{Schema, WeightSpec, Weights};
use crate::games::einstein::board::{Board, CUBES, GONE, SIDE, TARGET};

/// The weights of [`HybridEval`], in schema order.
pub static EINSTEIN_HYBRID: Schema = Schema {
    game: "einstein",
    eval: "hybrid",
    source: "hand-set for evotune after Song Yingjian et al. 2022 (distance values, edge bonus, attack and threat)",
    specs: &[
        WeightSpec::new("piece", 100, 0, 1000, "each cube left"),
        WeightSpec::new(
            "dist1",
            1200,
            0,
            5000,
            "a cube one step from the target corner, times its selection probability",
        ),
        WeightSpec::new("dist2", 600, 0, 5000, "a cube two steps away, times its selection probability"),
        WeightSpec::new("dist3", 300, 0, 5000, "a cube three steps away, times its selection probability"),
        WeightSpec::new("dist4", 150, 0, 5000, "a cube four steps away, times its selection probability"),
        WeightSpec::new("edge", 300, 0, 3000, "a cube two steps away on the target corner's row or column"),
        WeightSpec::new("hit", 50, 0, 200, "percent of a cube's value lost when an enemy cube can step onto it"),
        WeightSpec::new("attack", 100, 0, 300, "percent: weight of the side to move's own value"),
        WeightSpec::new("threat", 100, 0, 300, "percent: weight of the opponent's value"),
        WeightSpec::new("prune", 100, 0, 5000, "MCTS playouts skip moves scoring this far below the roll's best"),
    ],
};

/// Indices of the weights.
mod w {
    pub const PIECE: usize = 0;
    pub const DIST1: usize = 1;
    pub const EDGE: usize = 5;
    pub const HIT: usize = 6;
    pub const ATTACK: usize = 7;
    pub const THREAT: usize = 8;
    pub const PRUNE: usize = 9;
}

/// The hybrid evaluation of one weight table.
#[derive(Clone, Debug)]
pub struct HybridEval {
    piece: i32,
    /// Value by distance 0..=4 (0: the cube is on the corner; the game is won then).
    dist: [i32; 5],
    edge: i32,
    hit: i32,
    attack: i32,
    threat: i32,
    /// The playout pruning margin.
    pub prune: i32,
}

impl HybridEval {
    pub fn new(weights: &Weights) -> HybridEval {
        let v = weights.values();
        let d = |i: usize| v[w::DIST1 + i];
        HybridEval {
            piece: v[w::PIECE],
            dist: [d(0) * 2, d(0), d(1), d(2), d(3)],
            edge: v[w::EDGE],
            hit: v[w::HIT],
            attack: v[w::ATTACK],
            threat: v[w::THREAT],
            prune: v[w::PRUNE],
        }
    }

    /// Sixths of the die that let `side` move each cube (index 1..=6; 0 for removed cubes).
    pub fn selection_sixths(board: &Board, side: Side) -> [i32; CUBES + 1] {
        let mut sixths = [0; CUBES + 1];
        for face in 1..=CUBES as u8 {
            for k in board.movable(side, face) {
                if k != 0 {
                    sixths[k as usize] += 1;
                }
            }
        }
        sixths
    }

    /// `V(side)` of the module documentation, in points times 6 (sixths of the die).
    /// `sixths` and `enemy` are the selection sixths of `side` and of its opponent.
    fn side_value(&self, board: &Board, side: Side, sixths: &[i32; CUBES + 1], enemy: &[i32; CUBES + 1]) -> i32 {
        let me = side.index();
        let target = TARGET[me] as usize;
        let (tr, tc) = (target / SIDE, target % SIDE);
        let mut total = 0;
        for k in 1..=CUBES as u8 {
            let sq = board.square_of(side, k);
            if sq == GONE {
                continue;
            }
            let (r, c) = (sq as usize / SIDE, sq as usize % SIDE);
            let d = r.abs_diff(tr).max(c.abs_diff(tc));
            let mut value = self.dist[d];
            if d == 2 && (r == tr || c == tc) {
                value += self.edge;
            }
            let mut worth = 6 * self.piece + value * sixths[k as usize];
            // Enemy cubes one of whose steps lands here: the chance the die lets one move.
            let at_risk: i32 = Board::steps_from(side, sq)
                .filter_map(|n| match board.at(n as usize) {
                    // An enemy step from n onto sq is the reverse of one of our steps from sq.
                    Some((owner, j)) if owner != side => Some(enemy[j as usize]),
                    _ => None,
                })
                .max()
                .unwrap_or(0);
            worth -= worth * at_risk * self.hit / (100 * 6);
            total += worth;
        }
        total
    }

    /// The score for the side to move (points; see the module documentation).
    pub fn score(&self, board: &Board) -> i32 {
        let me = board.to_move();
        let mine = Self::selection_sixths(board, me);
        let theirs = Self::selection_sixths(board, me.other());
        let attack = self.side_value(board, me, &mine, &theirs);
        let threat = self.side_value(board, me.other(), &theirs, &mine);
        (self.attack * attack - self.threat * threat) / 600
    }
}

impl Evaluate<Board> for HybridEval {
    fn evaluate(&self, pos: &Board) -> i32 {
        self.score(pos)
    }
}
