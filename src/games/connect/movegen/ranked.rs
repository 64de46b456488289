//! Candidate cells and moves packed into integers whose order is the generator's order, so
//! that sorting and deduplicating them are integer sorts.

use super::Move;
use crate::games::connect::board::Cell;

/// A candidate cell and its score, packed so that integer order is the generator's order:
/// the higher score first, ties by the lower cell (a position's moves do not depend on how
/// they were found).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Ranked(u64);

impl Ranked {
    /// Ordered after every cell with a score (their top 16 bits are always 0).
    pub(super) const WORST: Ranked = Ranked(u64::MAX);

    #[inline]
    pub(super) fn new(score: i32, c: Cell) -> Ranked {
        Ranked(((i32::MAX as i64 - score as i64) as u64) << 16 | c as u64)
    }

    #[inline]
    pub(super) fn score(self) -> i32 {
        (i32::MAX as i64 - (self.0 >> 16) as i64) as i32
    }

    #[inline]
    pub(super) fn cell(self) -> Cell {
        self.0 as Cell
    }
}

/// A move of one or two stones and its score, packed so that integer order is "best first,
/// ties by move": the score's rank in the high 32 bits, the move in the low 32 (first stone,
/// then second, 0 for none: a pair's second stone is never 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct RankedMove(u64);

impl RankedMove {
    #[inline]
    pub(super) fn new(score: i32, m: Move) -> RankedMove {
        let rank = (i32::MAX as i64 - score as i64) as u64;
        let stones = m.stones();
        let bits = (stones[0] as u64) << 16 | stones.get(1).map_or(0, |&b| b as u64);
        RankedMove(rank << 32 | bits)
    }

    /// The move.
    #[inline]
    pub(super) fn get(self) -> Move {
        let (a, b) = ((self.0 >> 16) as Cell, self.0 as Cell);
        if b == 0 {
            Move::single(a)
        } else {
            Move::pair(a, b)
        }
    }
}

/// A pair of stones packed as one integer ordered like [`Move`]s: the lower stone first.
#[inline]
pub(super) fn pack_pair(a: Cell, b: Cell) -> u32 {
    (u32::from(a.min(b)) << 16) | u32::from(a.max(b))
}

/// The move of [`pack_pair`] (or of a single stone `a << 16`: a pair's second stone is
/// never 0).
#[inline]
pub(super) fn unpack_move(packed: u32) -> Move {
    let (a, b) = ((packed >> 16) as Cell, packed as Cell);
    if b == 0 {
        Move::single(a)
    } else {
        Move::pair(a, b)
    }
}

/// Keeps the `want` best candidates in `best`, best first.
#[inline]
pub(super) fn keep_best(best: &mut Vec<Ranked>, want: usize, r: Ranked) {
    if best.len() == want {
        if best.last().is_none_or(|&last| r >= last) {
            return;
        }
        best.pop();
    }
    best.push(r);
    let mut i = best.len() - 1;
    while i > 0 && best[i - 1] > r {
        best.swap(i - 1, i);
        i -= 1;
    }
}
