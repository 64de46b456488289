//! Surakarta's evaluation (`features`): a weighted sum of the features Surakarta programs
//! score, each the side to move's count minus the opponent's unless said otherwise.
//!
//! - material: pieces left; and, as the no-capture limit nears, the same lead again scaled by
//!   how close it is (at the limit the side with more pieces wins, so a lead is worth more);
//! - mobility: step moves, and capture moves;
//! - attacks on each circuit: the distinct enemy pieces a flight along the outer (inner)
//!   circuit could take;
//! - the initiative: the side to move can capture now; a fork: the opponent attacks two or
//!   more of the side to move's pieces, which one move cannot all save;
//! - placement: pieces on points of the outer circuit only, of the inner only, where the two
//!   cross, where each circuit crosses itself (the outer's four centre points, the inner's four
//!   points next to the corners' diagonals), on the corners (off both circuits: never captured,
//!   never capturing), and pieces still on their own two starting rows.
//!
//! Scores are in the units of `piece` (1000 by default, so a piece is a 73% win to UCT's
//! logistic).

use crate::core::game::{Evaluate, Side};
use crate::core::weights::{Schema, WeightSpec, Weights};
use crate::games::surakarta::board::Board;
use crate::games::surakarta::geometry::{point_kind, row_col, PointKind, CELLS};

/// The weights of [`FeatureEval`], in schema order.
pub static SURAKARTA_FEATURES: Schema = Schema {
    game: "surakarta",
    eval: "features",
    source: "hand-set for evotune (material first, then attacks, mobility and placement)",
    specs: &[
        WeightSpec::new("piece", 1000, 200, 3000, "each piece left"),
        WeightSpec::new("quiet_lead", 300, 0, 2000, "each piece of lead, times moves since a capture / the limit"),
        WeightSpec::new("step", 8, 0, 100, "each step move"),
        WeightSpec::new("capture", 40, 0, 400, "each capture move"),
        WeightSpec::new("attack_outer", 120, 0, 800, "each enemy piece a flight on the outer circuit can take"),
        WeightSpec::new("attack_inner", 120, 0, 800, "each enemy piece a flight on the inner circuit can take"),
        WeightSpec::new("initiative", 400, 0, 1500, "the side to move can capture now (not a difference)"),
        WeightSpec::new(
            "fork",
            500,
            0,
            2000,
            "the opponent attacks two or more pieces of the side to move (a penalty)",
        ),
        WeightSpec::new("on_outer", 10, -200, 200, "each piece on a point of the outer circuit only"),
        WeightSpec::new("on_inner", 10, -200, 200, "each piece on a point of the inner circuit only"),
        WeightSpec::new("on_both", 30, -200, 200, "each piece where the two circuits cross"),
        WeightSpec::new("outer_cross", 20, -200, 200, "each piece where the outer circuit crosses itself (the centre)"),
        WeightSpec::new("inner_cross", 20, -200, 200, "each piece where the inner circuit crosses itself"),
        WeightSpec::new("corner", 15, -200, 200, "each piece on a corner (safe from capture)"),
        WeightSpec::new("home", -5, -100, 100, "each piece still on its own two starting rows"),
    ],
};

/// Indices of the weights.
mod w {
    pub const PIECE: usize = 0;
    pub const QUIET_LEAD: usize = 1;
    pub const STEP: usize = 2;
    pub const CAPTURE: usize = 3;
    pub const ATTACK_OUTER: usize = 4;
    pub const ATTACK_INNER: usize = 5;
    pub const INITIATIVE: usize = 6;
    pub const FORK: usize = 7;
    pub const ON_OUTER: usize = 8;
    pub const ON_INNER: usize = 9;
    pub const ON_BOTH: usize = 10;
    pub const OUTER_CROSS: usize = 11;
    pub const INNER_CROSS: usize = 12;
    pub const CORNER: usize = 13;
    pub const HOME: usize = 14;
    pub const COUNT: usize = 15;
}

/// The placement weight index of each point (or none).
fn placement_index(cell: usize) -> usize {
    match point_kind(cell) {
        PointKind::Corner => w::CORNER,
        PointKind::Outer => w::ON_OUTER,
        PointKind::Inner => w::ON_INNER,
        PointKind::Both => w::ON_BOTH,
        PointKind::OuterCross => w::OUTER_CROSS,
        PointKind::InnerCross => w::INNER_CROSS,
    }
}

/// One side's counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideFeatures {
    pub pieces: i32,
    pub steps: i32,
    pub captures: i32,
    /// Distinct enemy pieces attacked along the outer, the inner circuit.
    pub attacked: [i32; 2],
    /// Distinct enemy pieces attacked along either.
    pub targets: i32,
    /// Pieces by placement weight (indices of the schema; others zero).
    pub placed: [i32; w::COUNT],
}

/// Counts `side`'s features.
pub fn side_features(board: &Board, side: Side) -> SideFeatures {
    let mut f = SideFeatures { pieces: board.pieces(side) as i32, ..SideFeatures::default() };
    let mut on = [0u64; 2];
    let mut all = 0u64;
    for cell in 0..CELLS {
        if board.at(cell) != Some(side) {
            continue;
        }
        f.steps += board.steps_from(cell).count_ones() as i32;
        let t = board.captures_from(cell, |circuit, target| on[circuit] |= 1 << target);
        f.captures += t.count_ones() as i32;
        all |= t;
        f.placed[placement_index(cell)] += 1;
        let (row, _) = row_col(cell);
        let home = match side {
            Side::First => row >= 4,
            Side::Second => row <= 1,
        };
        f.placed[w::HOME] += home as i32;
    }
    f.attacked = [on[0].count_ones() as i32, on[1].count_ones() as i32];
    f.targets = all.count_ones() as i32;
    f
}

/// The feature evaluation of one table.
#[derive(Clone, Debug)]
pub struct FeatureEval {
    w: [i32; w::COUNT],
}

impl FeatureEval {
    pub fn new(weights: &Weights) -> FeatureEval {
        assert_eq!(weights.schema(), &SURAKARTA_FEATURES, "a Surakarta features table");
        let mut w = [0; w::COUNT];
        w.copy_from_slice(weights.values());
        FeatureEval { w }
    }

    /// The score of `board` for the side to move.
    pub fn score(&self, board: &Board) -> i32 {
        let me = board.to_move();
        let (a, b) = (side_features(board, me), side_features(board, me.other()));
        let w = &self.w;
        let lead = a.pieces - b.pieces;
        let mut s = w[w::PIECE] * lead;
        s += w[w::QUIET_LEAD] * lead * board.quiet_moves() as i32 / board.no_capture_limit() as i32;
        s += w[w::STEP] * (a.steps - b.steps);
        s += w[w::CAPTURE] * (a.captures - b.captures);
        s += w[w::ATTACK_OUTER] * (a.attacked[0] - b.attacked[0]);
        s += w[w::ATTACK_INNER] * (a.attacked[1] - b.attacked[1]);
        if a.captures > 0 {
            s += w[w::INITIATIVE];
        }
        if b.targets >= 2 {
            s -= w[w::FORK];
        }
        for i in [w::ON_OUTER, w::ON_INNER, w::ON_BOTH, w::OUTER_CROSS, w::INNER_CROSS, w::CORNER, w::HOME] {
            s += w[i] * (a.placed[i] - b.placed[i]);
        }
        s
    }
}

impl Evaluate<Board> for FeatureEval {
    #[inline]
    fn evaluate(&self, pos: &Board) -> i32 {
        self.score(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::surakarta::board::Move;

    #[test]
    fn the_start_is_even_and_a_piece_up_is_about_a_piece() {
        let e = FeatureEval::new(&SURAKARTA_FEATURES.defaults());
        let start = Board::start();
        assert_eq!(e.score(&start), 0, "the start is symmetric");
        let f = side_features(&start, Side::First);
        assert_eq!((f.pieces, f.captures, f.targets, f.placed[w::HOME]), (12, 0, 0, 12));
        // Cells 24..35: a1..f2. Corners a1 and f1 are two of them.
        assert_eq!(f.placed[w::CORNER], 2);
        let mut cells = [None; CELLS];
        cells[30] = Some(Side::First);
        cells[35] = Some(Side::First);
        cells[0] = Some(Side::Second);
        let b = Board::from_cells(cells, Side::Second, 50);
        let s = e.score(&b);
        assert!((-1300..=-700).contains(&s), "{s}");
    }

    #[test]
    fn attacks_are_counted_per_circuit() {
        // A first-player piece on c4 (cell 14, an outer self-crossing) and a second-player
        // piece on c1 (cell 32, the outer circuit's bottom end of column c): along column c
        // downward there is no arc before c1, but the flight the other way round the loop
        // reaches it over arcs.
        let mut cells = [None; CELLS];
        cells[14] = Some(Side::First);
        cells[32] = Some(Side::Second);
        let b = Board::from_cells(cells, Side::First, 50);
        let f = side_features(&b, Side::First);
        assert_eq!(f.attacked, [1, 0]);
        let mut moves = Vec::new();
        b.legal_moves(&mut moves);
        assert!(moves.contains(&Move::capture(14, 32)), "{moves:?}");
    }
}
