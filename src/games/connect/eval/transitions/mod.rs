//! Li Guo 2007's K function as a Connect6 evaluation: each stone is worth the pattern
//! transitions it causes on the four lines through it, and a position is worth the stones of
//! the side to move minus the opponent's.
//!
//! # The K function
//! The paper scores a stone where it lands. It reads 13 cells through the stone in each of the
//! four directions (the stone is the 7th), codes each cell -1 off the board, 0 black, 1 white,
//! 2 empty, folds the 13 codes into one base-4 number (`value = value * 4 + code + 1`), and
//! looks that key up in a hash table of stepValues (0 for a key it does not hold). The stone's
//! score is the sum of its four stepValues.
//!
//! The paper fills that table by hand and ties its entries to the transitions between the
//! stone patterns of §1.1 (see `patterns`) that one stone causes, listed in §1.2 (A5 -> S5, C6,
//! A4 or S4; S5 -> ...; ...; D2 -> D3, A2 or S2), and takes the values of those transitions as
//! the chromosome. Here a key is read into the transitions it stands for, and each transition
//! is one gene ([`CONNECT6_TRANSITIONS`]):
//! - the mover's pattern through the cell: the mover's stones chained to the new stone (stones
//!   of the segment free of enemy stones, each less than six cells from the next), classified
//!   without the stone and with it ([`line::State`]: no pattern, D2..A5 as the pattern
//!   evaluation reads them, C6 for six or more);
//! - the opponent's patterns the stone touches: the opponent's stones of the cell's segment
//!   within five cells of it and those chained to them, classified before the stone and with
//!   the stone as a block. Where a cut leaves several pieces, the strongest counts.
//!
//! Cells beyond the 13 are unknown to the key and read as empty (as off the board where the
//! line has already left it). A key's stepValue is the gene of its own transition plus the
//! gene of its opponent transition; transitions without a gene are worth 0, as keys missing
//! from the paper's table are.
//!
//! # Which transitions have a gene
//! Reading every possible scanned line (each of the 12 other cells black, white or empty, and
//! the lines that leave the board) shows which transitions a stone can cause. Of the paper's
//! 54, 42 occur, and each of those has its gene; a stone only ever improves its own side's
//! pattern and only ever weakens the opponent's, so each transition belongs to one side, except
//! S5 -> S5 (a stone that leaves a sleep five as it was), which gets a gene for each side: 43
//! genes. The 12 the paper lists that no stone can cause are left out: a dead pattern never
//! comes alive (D5 -> S3, S4; D4 -> S3, S2, I3; D2 -> A2, S2), a dead five has no empty cell to
//! play on (D5 -> D3, D2), and S5 -> A4, S5 -> D2 and S3 -> D4 need more than one stone (the
//! test `the_genes_are_the_papers_transitions_that_a_stone_can_cause` checks all of this). The transitions that occur but are not listed (the commonest: a single stone becoming
//! a two, a sleep four blocked dead, a live three cut to an indistinct three) are worth 0.
//!
//! # From a stone's value to a position's
//! The search scores positions, not stones. A position here is worth the sum of the K values
//! of the stones the side to move has played minus those of the opponent's stones, each stone
//! valued in the position it was played in (the stones after it read as empty). With
//! stepValues that are differences of state values this is a pattern evaluation; with free
//! genes it is the paper's "sum of the move scores" of the game so far. It depends on the order
//! the stones were played in, so two transpositions may score differently; the search's
//! transposition table keeps whichever it met first.
//!
//! The values of the stones are kept per thread as a trail along the board's history: a call
//! reads only the stones played since the last call's position, and the classification of a
//! key is memoised, so an evaluation is one pass over the stones' 8 stored transitions.

pub mod line;
mod schema;
#[cfg(test)]
mod tests;

pub use schema::{value, CONNECT6_TRANSITIONS};

use std::cell::RefCell;

use crate::core::weights::{WeightGroup, Weights};
use crate::games::connect::board::{Board, Cell, Colour, Rules};
use crate::games::connect::movegen::StoneScorer;
use line::{change_of, key_of, scan, scan_now, Change, State};

const STATES: usize = State::ALL.len();

/// Scores stay well inside the search's mate range whatever the table.
const SCORE_LIMIT: i64 = 100_000_000;

/// The K function of one weight table: the stepValue of every transition, by side.
#[derive(Clone, Debug)]
pub struct TransitionEval {
    own: [[i32; STATES]; STATES],
    opp: [[i32; STATES]; STATES],
}

impl TransitionEval {
    /// Unpacks a table of [`CONNECT6_TRANSITIONS`] (`own_a3_a4`, `opp_a5_s5`, ...).
    pub fn new(weights: &Weights) -> TransitionEval {
        let mut e = TransitionEval { own: [[0; STATES]; STATES], opp: [[0; STATES]; STATES] };
        for (spec, &v) in weights.schema().specs.iter().zip(weights.values()) {
            if spec.group != WeightGroup::Eval {
                continue;
            }
            let (side, from, to) =
                parse_gene(spec.name).unwrap_or_else(|| panic!("`{}` is not a transition gene", spec.name));
            let table = if side == Side::Own { &mut e.own } else { &mut e.opp };
            table[from as usize][to as usize] = v;
        }
        e
    }

    /// The stepValue of one scanned line.
    #[inline]
    pub fn step_value(&self, c: Change) -> i32 {
        self.own[c.own.0 as usize][c.own.1 as usize] + self.opp[c.opp.0 as usize][c.opp.1 as usize]
    }

    /// The K value of stone number `index` of the board's history, in the position it was
    /// played in.
    pub fn stone_value(&self, board: &Board, index: usize) -> i32 {
        let order = order_of(board);
        stone_changes(board, index, &order).iter().map(|&c| self.step_value(c)).sum()
    }

    /// The score for the side to move.
    pub fn evaluate(&self, board: &Board) -> i32 {
        assert_eq!(board.rules(), Rules::CONNECT6, "the K function is Connect6's");
        let me = board.to_move();
        TRAIL.with(|trail| {
            let mut trail = trail.borrow_mut();
            trail.follow(board);
            let mut s = 0i64;
            for (i, changes) in trail.changes.iter().enumerate() {
                let v: i32 = changes.iter().map(|&c| self.step_value(c)).sum();
                if Board::colour_of_stone(Rules::CONNECT6, i) == me {
                    s += i64::from(v);
                } else {
                    s -= i64::from(v);
                }
            }
            s.clamp(-SCORE_LIMIT, SCORE_LIMIT) as i32
        })
    }
}

/// The K function ranks the move generator's candidates, as it ranks moves in the paper: the
/// table's genes decide which moves are searched, not only how the positions they reach
/// score. A pair's second stone is scored with its first on the board.
impl StoneScorer for TransitionEval {
    fn stone_score(&self, board: &Board, me: Colour, c: Cell, first: Option<Cell>) -> i32 {
        (0..4).map(|dir| self.step_value(memo_change(key_of(&scan_now(board, c, dir, me, first))))).sum()
    }

    fn reach(&self) -> usize {
        line::REACH
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    Own,
    Opp,
}

/// Reads a gene name `own_a3_a4` / `opp_a5_s5`.
fn parse_gene(name: &str) -> Option<(Side, State, State)> {
    let mut parts = name.split('_');
    let side = match parts.next()? {
        "own" => Side::Own,
        "opp" => Side::Opp,
        _ => return None,
    };
    let from = State::parse(parts.next()?)?;
    let to = State::parse(parts.next()?)?;
    parts.next().is_none().then_some((side, from, to))
}

/// For each cell, the index in the board's history of the stone on it (stale for empty cells).
fn order_of(board: &Board) -> Vec<u16> {
    let mut order = vec![u16::MAX; board.rules().cells()];
    for (i, &c) in board.history().iter().enumerate() {
        order[c as usize] = i as u16;
    }
    order
}

/// The changes stone `index` made on its four lines.
fn stone_changes(board: &Board, index: usize, order: &[u16]) -> [Change; 4] {
    let c: Cell = board.history()[index];
    let mover = Board::colour_of_stone(board.rules(), index);
    std::array::from_fn(|dir| memo_change(key_of(&scan(board, c, dir, mover, order, index))))
}

/// Slots of the per-thread memo of [`change_of`] (a power of two).
const MEMO_BITS: u32 = 15;

/// The stones' changes along one board's history, kept per thread.
struct Trail {
    cells: Vec<Cell>,
    changes: Vec<[Change; 4]>,
    order: Vec<u16>,
    memo: Vec<(u32, Change)>,
}

thread_local! {
    static TRAIL: RefCell<Trail> = RefCell::new(Trail {
        cells: Vec::new(),
        changes: Vec::new(),
        order: vec![u16::MAX; Rules::CONNECT6.cells()],
        memo: Vec::new(),
    });
}

impl Trail {
    /// Brings the trail to the board's history: keeps the common prefix, reads the rest.
    fn follow(&mut self, board: &Board) {
        let history = board.history();
        let common = self.cells.iter().zip(history).take_while(|(a, b)| a == b).count();
        self.cells.truncate(common);
        self.changes.truncate(common);
        for (i, &c) in history.iter().enumerate().skip(common) {
            self.order[c as usize] = i as u16;
        }
        for (i, &c) in history.iter().enumerate().skip(common) {
            let mover = Board::colour_of_stone(Rules::CONNECT6, i);
            let changes = std::array::from_fn(|dir| {
                let key = key_of(&scan(board, c, dir, mover, &self.order, i));
                self.memo(key)
            });
            self.cells.push(c);
            self.changes.push(changes);
        }
    }

    fn memo(&mut self, key: u32) -> Change {
        if self.memo.is_empty() {
            self.memo = vec![
                (u32::MAX, Change { own: (State::None, State::None), opp: (State::None, State::None) });
                1 << MEMO_BITS
            ];
        }
        let slot = (key.wrapping_mul(0x9E37_79B1) >> (32 - MEMO_BITS)) as usize;
        if self.memo[slot].0 != key {
            self.memo[slot] = (key, change_of(&line::digits_of(key)));
        }
        self.memo[slot].1
    }
}

/// [`change_of`] of a key through the thread's memo.
fn memo_change(key: u32) -> Change {
    TRAIL.with(|t| t.borrow_mut().memo(key))
}
