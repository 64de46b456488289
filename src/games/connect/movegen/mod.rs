//! Move generation for turns of one or two stones.
//!
//! In order of priority:
//! 1. **Win**: the side to move has a threat road (at least k - p own stones, no enemy stone):
//!    the move that completes it is the only move generated.
//! 2. **Defend**: the opponent has threat roads. Only moves whose stones touch every one of
//!    them are generated (all of them: pruning a defence could hide the only one that holds);
//!    when more than the stones of this turn would be needed the position is **Lost**.
//! 3. **Quiet**: single stones near existing stones are ranked by a cheap score (what the
//!    stone adds to its own roads and takes from the opponent's), and pairs are built from the
//!    best first stones and, for each, the best second stones re-scored after the first.
//!
//! The generator is shared by every evaluation and search, as in Li Guo 2007 where only the
//! evaluation's parameters are tuned; an evaluation that scores moves itself may lend the
//! generator a [`StoneScorer`] that ranks the quiet candidates in place of the cheap score
//! (the `transitions` evaluation's K function, the paper's move scorer). It is a pure function of the position: ties are broken
//! by cell index, so a fixed-depth search is deterministic.

mod class_weights;
mod generator;
mod ranked;
mod scoring;
mod staged;
#[cfg(test)]
mod tests;
mod threat_moves;
mod threats;
mod view;

pub use generator::MoveGen;
pub use scoring::{MoveScoring, StoneScorer, CONNECT6_MOVE_ORDER, GOMOKU_MOVE_ORDER};
pub use threats::ThreatSet;

pub use super::board::MAX_P;
use super::board::{Cell, Rules};

/// One move: one or two stones (sorted, so that a pair has one spelling).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move {
    stones: [Cell; MAX_P],
    len: u8,
}

impl Move {
    pub const NONE: Move = Move { stones: [0; MAX_P], len: 0 };

    pub fn single(c: Cell) -> Move {
        Move { stones: [c, 0], len: 1 }
    }

    pub fn pair(a: Cell, b: Cell) -> Move {
        debug_assert_ne!(a, b);
        Move { stones: [a.min(b), a.max(b)], len: 2 }
    }

    /// A move from 0, 1 or 2 stones.
    pub fn from_stones(stones: &[Cell]) -> Move {
        match stones {
            [] => Move::NONE,
            [a] => Move::single(*a),
            [a, b, ..] => Move::pair(*a, *b),
        }
    }

    #[inline]
    pub fn stones(&self) -> &[Cell] {
        &self.stones[..self.len as usize]
    }

    pub fn is_none(&self) -> bool {
        self.len == 0
    }

    pub fn contains(&self, c: Cell) -> bool {
        self.stones().contains(&c)
    }
}

/// What the generator found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Situation {
    /// The single generated move wins now.
    Win,
    /// The opponent wins next turn whatever we do; one move (the best try) is generated.
    Lost,
    /// The opponent has threats; every generated move blocks all of them.
    Defend,
    /// No threats on either side.
    Quiet,
    /// No empty cell is left.
    Full,
}

/// Generator widths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MoveGenConfig {
    /// First stones considered in quiet positions (and single-stone moves kept).
    pub singles: usize,
    /// Second stones tried for each first stone, and free stones added to a one-stone block.
    pub seconds: usize,
    /// Quiet moves kept after ranking, best first.
    pub width: usize,
}

impl Default for MoveGenConfig {
    fn default() -> Self {
        MoveGenConfig { singles: 12, seconds: 6, width: 16 }
    }
}

impl MoveGenConfig {
    /// The widths a player of these rules gets by default. Two-stone turns are searched wider
    /// than the one-stone default: in Connect6 at 100 and 300 ms a move, 20 first stones, 10
    /// second stones and 32 moves a node beat 12, 6 and 16 by about +95 pair Elo, and score
    /// 11.5 points more against the Olympiad engine Cloudict at 1 s a move; in Gomoku the
    /// wider search was worse (-42 ± 34 pair Elo at 300 ms). See docs/strength.md.
    pub fn for_rules(rules: Rules) -> MoveGenConfig {
        if rules.p == 2 {
            MoveGenConfig { singles: 20, seconds: 10, width: 32 }
        } else {
            MoveGenConfig::default()
        }
    }

    /// These widths with each 0 replaced by the rules' default.
    pub fn resolved(self, rules: Rules) -> MoveGenConfig {
        let game = MoveGenConfig::for_rules(rules);
        let or = |v: usize, d: usize| if v == 0 { d } else { v };
        MoveGenConfig {
            singles: or(self.singles, game.singles),
            seconds: or(self.seconds, game.seconds),
            width: or(self.width, game.width),
        }
    }
}
