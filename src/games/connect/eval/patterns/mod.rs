//! Pattern (棋型) evaluation: each side's stones are read line by line as the stone patterns of
//! Li Guo 2007 §1.1, and the score is a weighted count of those patterns.
//!
//! # The classes
//!
//! Li Guo 2007 (J. Southwest Univ. 29(11):138-142, §1.1 "六子棋的棋型") defines, for
//! n stones of one colour on one line:
//! - 活五 A5 (live five): "the opponent must use two stones to stop it" from becoming six;
//!   眠五 S5 (sleep five): "one stone stops it"; 死五 D5 (dead five): it "can no longer become
//!   six". A4/S4/D4, A3/S3/D3, A2/S2/D2 "are defined alike".
//! - For the lower counts Connect6 training material spells "alike" out by what further stones
//!   make: 活二 A2 "two more stones make a live four", 眠二 S2 "two more stones can only make a
//!   sleep four"; so A3 is "one more stone makes a live four".
//! - 朦胧三 I3 (indistinct three): "one more stone can only make a sleep four, but two more make a
//!   live five".
//!
//! For freestyle Gomoku the same words give the usual classes: a live four has two
//! completion points, a sleep four one, a live three becomes a live four with one stone, and so
//! on. The code is written for Connect(m,n,k,p,q); A/S/D exist for 2..=k-1 stones, and I exists
//! only for the count one below the threat level when p >= 2 (I3 in Connect6, none in Gomoku).
//!
//! # How the definitions are made operational
//!
//! 1. **Lines and segments.** Every row, column, diagonal and anti-diagonal is a line. For one
//!    side, a line splits into *segments*: maximal runs of cells holding no enemy stone. The
//!    board edge ends a segment exactly like an enemy stone.
//! 2. **Windows.** A *window* is k consecutive cells inside a segment (a road with no enemy
//!    stone). A line of k can only ever be made inside a window.
//! 3. **Which stones form one pattern.** Two own stones of a segment belong to the same pattern
//!    when they are at most k-1 cells apart, i.e. when some window holds both, and patterns are
//!    closed under that relation (a chain). So every stone is in exactly one pattern per line,
//!    stones that share no window are separate patterns, and each pattern is classified as if
//!    the segment's other patterns were empty cells (no window can hold stones of two patterns).
//!    A chain longer than k (e.g. `XXX____XXX` in Connect6, gap 4 < k-1) is one pattern, read at
//!    its best; `XXX_____XXX` (gap 5) is two.
//! 4. **The count n** of a pattern is the largest number of its stones in one window; in a
//!    segment shorter than k (no window at all) it is the number of stones in the segment.
//!    Single stones (n = 1) are not a pattern; n >= k is a finished line (a win, scored by the
//!    search), not a pattern.
//! 5. **Dead** (D_n): the segment is shorter than k, so no stone of it can ever be part of k.
//! 6. **Threat level t = k - p** (4 in both games): a window with at least t own stones can be
//!    completed within one turn. For n >= t the pattern's *threat windows* are its windows with
//!    at least t own stones, and the opponent must fill cells so that every threat window holds
//!    an enemy stone. The fewest cells that do it is the minimum hitting set of the threat
//!    windows' empty cells; it is 1 exactly when one cell lies in all of them. So:
//!    **A_n** if no single empty cell is common to all threat windows (two or more stones needed),
//!    **S_n** if one is.
//! 7. **Below the threat level** (n < t) the class is read by looking ahead, as those definitions do:
//!    **A_n** if t-n more own stones can make an A_t; else **I_n** (only for n = t-1 and
//!    t < k-1) if k-1-n more stones can make an A_{k-1} (I3: two more make a live five); else
//!    **S_n** (the segment has a window, so the stones can still become k, only not as a live
//!    pattern). Only additions that raise the count by one each are tried: every stone of a
//!    completion that raises n to t lies in a window that held n stones, so no completion is
//!    missed. (A test checks all of this against the definitions applied by brute force, every
//!    blocking cell and every set of added stones tried, on every line of 10 cells.)
//!
//! # Choices where the definitions are silent or ambiguous
//! - The minimum hitting set is taken over all threat windows of the pattern, not only over the
//!   windows holding n stones. `XXXX_X` on an open line is therefore **A5**: one stone on the
//!   gap leaves `__XXXX`, so the opponent needs two stones, which is the paper's definition of
//!   live. With no space left of it (`OXXXX_X_`) it is S5.
//! - A pattern needing three or more blocking stones (e.g. `__XXXX_XXXX__` read as one chain)
//!   is still A: the paper has no class above "two stones".
//! - A two that cannot make a live four with two stones but could make a live five with three
//!   (`X___X` in the open) is S2: the paper defines the indistinct class for three stones only.
//! - Dead patterns have weights (so a GA can test whether they carry information) with default
//!   0: a dead pattern can never win that line, and what it blocks is already in the
//!   opponent's classes.
//! - Lines longer than 64 cells (only on boards larger than any game here) cut a chain whose
//!   cells of interest would exceed 64, so a pattern fits one 64-bit mask.
//!
//! # Score
//! For the side to move: the sum of `own_*` weights over its patterns minus the sum of `opp_*`
//! weights over the opponent's patterns, computed by scanning every line of the board. Nothing
//! is allocated per call: lines are read into a fixed buffer, a pattern is a 64-bit mask, and
//! the classes of recurring shapes are kept in a fixed-size per-thread memo (about 10 us for a
//! 60-stone Connect6 position in the test profile).
//!
//! ```
//! use evotune::games::connect::eval::patterns::{classify_line, parse_line, Pattern};
//! let counts = classify_line(&parse_line("______XXXX_X______").unwrap(), 6, 2);
//! assert_eq!(counts.get(Pattern::A5), 1);
//! let counts = classify_line(&parse_line("OXXXXX______").unwrap(), 6, 2);
//! assert_eq!(counts.get(Pattern::S5), 1);
//! ```

mod classify;
mod schema;
#[cfg(test)]
mod tests;

pub use classify::{
    classify_line, parse_line, pattern_counts, patterns_of, Pattern, PatternCounts, Point, Shape, CLASSES,
};
pub use schema::{CONNECT6_PATTERNS, GOMOKU_PATTERNS};

use crate::core::weights::{WeightGroup, Weights};
use crate::games::connect::board::{Board, Colour};

/// Scores are kept well inside the search's mate range whatever the table.
const SCORE_LIMIT: i64 = 100_000_000;

/// The pattern evaluation of one weight table, unpacked into arrays indexed by class.
#[derive(Clone, Debug)]
pub struct PatternEval {
    own: [i32; CLASSES],
    opp: [i32; CLASSES],
}

impl PatternEval {
    /// Unpacks a pattern table (`own_a5`, ..., `opp_d2`). Classes the table does not name
    /// weigh 0.
    pub fn new(weights: &Weights) -> PatternEval {
        let mut own = [0; CLASSES];
        let mut opp = [0; CLASSES];
        for (spec, &v) in weights.schema().specs.iter().zip(weights.values()) {
            if spec.group != WeightGroup::Eval {
                continue;
            }
            let (table, class) = if let Some(c) = spec.name.strip_prefix("own_") {
                (&mut own, c)
            } else if let Some(c) = spec.name.strip_prefix("opp_") {
                (&mut opp, c)
            } else {
                panic!("pattern schema has a weight `{}` that is neither own_ nor opp_", spec.name)
            };
            let class =
                Pattern::parse(class).unwrap_or_else(|| panic!("pattern weight `{}` does not name a class", spec.name));
            table[class.index()] = v;
        }
        PatternEval { own, opp }
    }

    /// The weight of a class for the side to move (`own = true`) or the opponent.
    pub fn weight(&self, class: Pattern, own: bool) -> i32 {
        if own {
            self.own[class.index()]
        } else {
            self.opp[class.index()]
        }
    }

    /// The score for the side to move, given both sides' pattern counts.
    pub fn score(&self, counts: &[PatternCounts; 2], to_move: Colour) -> i32 {
        let mine = counts[to_move.index()].as_array();
        let theirs = counts[to_move.other().index()].as_array();
        let mut s = 0i64;
        for i in 0..CLASSES {
            s += self.own[i] as i64 * mine[i] as i64 - self.opp[i] as i64 * theirs[i] as i64;
        }
        s.clamp(-SCORE_LIMIT, SCORE_LIMIT) as i32
    }

    /// The score for the side to move (a full-board scan).
    pub fn evaluate(&self, board: &Board) -> i32 {
        self.score(&pattern_counts(board), board.to_move())
    }
}
