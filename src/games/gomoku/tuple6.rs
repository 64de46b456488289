//! The 6-tuple evaluation of a Gomoku blog (its "F function", in Chinese): every
//! window of 6 consecutive cells in the 4 directions, on the board padded with a border value,
//! is classified by a 4^6 lookup table into one of 16 types, and the score is the sum of the
//! types' weights over all windows.
//!
//! # The table
//! A window's cells are 0 empty, 1 black, 2 white, 3 border; its code is `Σ v_k·4^(5-k)`. The
//! seed fills the table from the point of view of the side that has just moved ("the AI,
//! white"), in this order, each entry set once:
//! 1. by hand: WIN (a five of the mover in the window, with or without a sixth stone or a
//!    border beside it), LOSE (the same for the opponent), FLEX4 `_XXXX_`, FLEX3 (`_XXX__`,
//!    `__XXX_`, `_X_XX_`, `_XX_X_`), FLEX2 (the six ways of two stones inside `_...._`), FLEX1
//!    (one stone inside `_...._`), and the same for the opponent (flex4, flex3, ...);
//! 2. by counting, for windows with no border cell in positions 2-5: in the left five cells
//!    (p1-p5) and the right five (p2-p6) the stones of each side; four of one side and none of
//!    the other in either five is BLOCK4 (block4 for the opponent), three BLOCK3, two BLOCK2,
//!    looked at in that order (fours before threes, the mover before the opponent). A border
//!    at one end counts only the five away from it; borders at both ends make nothing.
//!
//! Every other window is OTHER (weight 0).
//!
//! **A printing error, corrected here.** In the blog's right-border case (`p6 == 3`) the
//! threes and twos are swapped: a black three is labelled BLOCK3 (the white mover's) and a
//! white three block3, and likewise BLOCK2/block2, against the blog's own comments ("黑眠3",
//! black's sleep three) and against the left-border case. We label them as the comments and
//! the left border do, so that the table treats both sides and both ends alike (the test
//! `only_the_right_border_slip_differs_from_the_blog` compares with the printed code).
//!
//! # Perspective and score
//! The blog scores a position after the mover's move, for the mover: upper-case types (WIN,
//! FLEX4, ...) are the mover's, lower-case ones (LOSE, flex4, ...) the side to move's, and its
//! rule 1 makes the side to move's weights larger in magnitude, because it moves next. The
//! engine's evaluation is for the side to move, so it is the negation: `-F(mover)`. The names
//! of the weights keep the blog's pairs: `flex4` (its FLEX4, the mover's) and `opp_flex4`
//! (its flex4, the side to move's), and so on.
//!
//! # Incremental
//! A placed stone changes the codes of at most 24 windows (6 in each direction); the position
//! keeps every window's code and the count of each of the 16 types, so an evaluation is 16
//! multiply-adds. `evaluate_global` recounts from the board, as a test oracle.

use std::sync::{Arc, OnceLock};

use crate::core::game::Evaluate;
use crate::core::weights::{concat_specs, Schema, WeightSpec, Weights};
use crate::games::connect::board::{Board, Cell, Colour, Rules, DIRECTIONS};
use crate::games::connect::game::ConnectPosition;
use crate::games::connect::movegen::GOMOKU_MOVE_ORDER;
use crate::games::gomoku::GomokuBoard;

/// The blog's type indices (its `#define`s).
pub const OTHER: u8 = 0;
pub const WIN: u8 = 1;
pub const LOSE: u8 = 2;
pub const FLEX4: u8 = 3;
pub const FLEX4_OPP: u8 = 4;
pub const BLOCK4: u8 = 5;
pub const BLOCK4_OPP: u8 = 6;
pub const FLEX3: u8 = 7;
pub const FLEX3_OPP: u8 = 8;
pub const BLOCK3: u8 = 9;
pub const BLOCK3_OPP: u8 = 10;
pub const FLEX2: u8 = 11;
pub const FLEX2_OPP: u8 = 12;
pub const BLOCK2: u8 = 13;
pub const BLOCK2_OPP: u8 = 14;
pub const FLEX1: u8 = 15;
pub const FLEX1_OPP: u8 = 16;

/// Cell values of a window.
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const BORDER: u8 = 3;

/// Window codes: 4^6.
pub const CODES: usize = 4096;

/// The code of six cell values.
pub fn code(cells: [u8; 6]) -> usize {
    cells.iter().fold(0, |acc, &v| acc * 4 + v as usize)
}

/// The six cell values of a code.
pub fn cells(code: usize) -> [u8; 6] {
    let mut c = [0; 6];
    for (k, v) in c.iter_mut().enumerate() {
        *v = ((code >> (2 * (5 - k))) & 3) as u8;
    }
    c
}

/// The blog's table of types for the mover = white (see the module documentation);
/// `printed_slip` keeps the blog's swapped right-border threes and twos.
pub fn blog_table(printed_slip: bool) -> [u8; CODES] {
    let mut t = [OTHER; CODES];
    let (w, b, e) = (WHITE, BLACK, EMPTY);
    let mut set = |cells: [u8; 6], ty: u8| t[code(cells)] = ty;
    for (me, five, four, three, two, one) in
        [(w, WIN, FLEX4, FLEX3, FLEX2, FLEX1), (b, LOSE, FLEX4_OPP, FLEX3_OPP, FLEX2_OPP, FLEX1_OPP)]
    {
        let other = if me == w { b } else { w };
        let x = me;
        set([x; 6], five);
        set([x, x, x, x, x, e], five);
        set([e, x, x, x, x, x], five);
        set([x, x, x, x, x, other], five);
        set([other, x, x, x, x, x], five);
        set([BORDER, x, x, x, x, x], five);
        set([x, x, x, x, x, BORDER], five);
        set([e, x, x, x, x, e], four);
        for c in [[e, x, x, x, e, e], [e, e, x, x, x, e], [e, x, e, x, x, e], [e, x, x, e, x, e]] {
            set(c, three);
        }
        for c in [
            [e, x, x, e, e, e],
            [e, x, e, x, e, e],
            [e, x, e, e, x, e],
            [e, e, x, x, e, e],
            [e, e, x, e, x, e],
            [e, e, e, x, x, e],
        ] {
            set(c, two);
        }
        for c in [[e, x, e, e, e, e], [e, e, x, e, e, e], [e, e, e, x, e, e], [e, e, e, e, x, e]] {
            set(c, one);
        }
    }
    for p1 in 0..4u8 {
        for p2 in 0..3u8 {
            for p3 in 0..3u8 {
                for p4 in 0..3u8 {
                    for p5 in 0..3u8 {
                        for p6 in 0..4u8 {
                            let p = [p1, p2, p3, p4, p5, p6];
                            let i = code(p);
                            if t[i] != OTHER {
                                continue;
                            }
                            // Stones of black (x) and white (y) in the left five, and in the
                            // right five (ix, iy).
                            let count = |cells: &[u8], v: u8| cells.iter().filter(|&&c| c == v).count();
                            let (x, y) = (count(&p[..5], BLACK), count(&p[..5], WHITE));
                            let (ix, iy) = (count(&p[1..], BLACK), count(&p[1..], WHITE));
                            // (white count, black count) of the fives that may count.
                            let fives: Vec<(usize, usize)> = match (p1 == BORDER, p6 == BORDER) {
                                (true, true) => Vec::new(),
                                (true, false) => vec![(iy, ix)],
                                (false, true) => vec![(y, x)],
                                (false, false) => vec![(y, x), (iy, ix)],
                            };
                            let slip = printed_slip && p6 == BORDER && p1 != BORDER;
                            let has = |white: usize, black: usize| fives.contains(&(white, black));
                            t[i] = if has(4, 0) {
                                BLOCK4
                            } else if has(0, 4) {
                                BLOCK4_OPP
                            } else if has(3, 0) {
                                if slip {
                                    BLOCK3_OPP
                                } else {
                                    BLOCK3
                                }
                            } else if has(0, 3) {
                                if slip {
                                    BLOCK3
                                } else {
                                    BLOCK3_OPP
                                }
                            } else if has(2, 0) {
                                if slip {
                                    BLOCK2_OPP
                                } else {
                                    BLOCK2
                                }
                            } else if has(0, 2) {
                                if slip {
                                    BLOCK2
                                } else {
                                    BLOCK2_OPP
                                }
                            } else {
                                OTHER
                            };
                        }
                    }
                }
            }
        }
    }
    t
}

/// What a window is, colour-neutral: 0 for OTHER, else `1 + colour·8 + level`, with levels
/// 0 five, 1 flex4, 2 block4, 3 flex3, 4 block3, 5 flex2, 6 block2, 7 flex1 and colours
/// 0 black, 1 white (the blog's upper case is white's, its lower case black's).
fn classes() -> &'static [u8; CODES] {
    static CLASSES: OnceLock<[u8; CODES]> = OnceLock::new();
    CLASSES.get_or_init(|| {
        let table = blog_table(false);
        let mut out = [0u8; CODES];
        for (o, &ty) in out.iter_mut().zip(table.iter()) {
            if ty != OTHER {
                let level = (ty - 1) / 2;
                let colour = if ty % 2 == 1 { 1 } else { 0 };
                *o = 1 + colour * 8 + level;
            }
        }
        out
    })
}

/// Levels of a class, the blog's pair order.
pub const LEVELS: usize = 8;

/// The windows of a board: for every cell, the windows through it and the cell's place value
/// in each, and every window's code on the empty board (its border cells).
#[derive(Debug)]
pub struct Windows {
    /// `(window, 4^(5-k))` for the cell at position k of each window through it.
    through: Vec<Vec<(u16, u16)>>,
    empty_codes: Vec<u16>,
}

impl Windows {
    /// Every 6-cell window, in the 4 directions, of the board padded by one border cell on
    /// each side that holds at least one cell of the board (windows of border cells only are
    /// OTHER whatever happens).
    fn build(rules: Rules) -> Windows {
        let (w, h) = (rules.width as i32, rules.height as i32);
        let inside = |x: i32, y: i32| (0..w).contains(&x) && (0..h).contains(&y);
        let mut through = vec![Vec::new(); (w * h) as usize];
        let mut empty_codes = Vec::new();
        for (dx, dy) in DIRECTIONS {
            // Padded coordinates run from -1 to w (and h).
            for y0 in -1..=h {
                for x0 in -1..=w {
                    let cells: Vec<(i32, i32)> = (0..6).map(|k| (x0 + dx * k, y0 + dy * k)).collect();
                    let padded = |(x, y): (i32, i32)| (-1..=w).contains(&x) && (-1..=h).contains(&y);
                    if !cells.iter().all(|&c| padded(c)) || !cells.iter().any(|&(x, y)| inside(x, y)) {
                        continue;
                    }
                    let id = empty_codes.len() as u16;
                    let mut code = 0u16;
                    for (k, &(x, y)) in cells.iter().enumerate() {
                        let place = 1u16 << (2 * (5 - k));
                        if inside(x, y) {
                            through[(x + y * w) as usize].push((id, place));
                        } else {
                            code += u16::from(BORDER) * place;
                        }
                    }
                    empty_codes.push(code);
                }
            }
        }
        Windows { through, empty_codes }
    }

    /// The windows of a rule set (built once per process for freestyle Gomoku).
    pub fn of(rules: Rules) -> Arc<Windows> {
        static GO: OnceLock<Arc<Windows>> = OnceLock::new();
        if rules == Rules::GOMOKU {
            GO.get_or_init(|| Arc::new(Windows::build(rules))).clone()
        } else {
            Arc::new(Windows::build(rules))
        }
    }

    pub fn len(&self) -> usize {
        self.empty_codes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.empty_codes.is_empty()
    }
}

/// The windows' codes of one position and how many windows of each class it has.
#[derive(Clone, Debug)]
pub struct WindowCounts {
    windows: Arc<Windows>,
    codes: Vec<u16>,
    /// `counts[colour * 8 + level]`.
    counts: [i32; 2 * LEVELS],
}

impl WindowCounts {
    /// The counts of the empty board.
    pub fn new(rules: Rules) -> WindowCounts {
        let windows = Windows::of(rules);
        let codes = windows.empty_codes.clone();
        let mut counts = [0; 2 * LEVELS];
        let classes = classes();
        for &c in &codes {
            let k = classes[c as usize];
            if k != 0 {
                counts[k as usize - 1] += 1;
            }
        }
        WindowCounts { windows, codes, counts }
    }

    /// The counts of a board's position.
    pub fn of_board(board: &Board) -> WindowCounts {
        let mut w = WindowCounts::new(board.rules());
        for &c in board.history() {
            w.add(c, board.stone(c).expect("history names occupied cells"));
        }
        w
    }

    /// A stone of `colour` on `c`.
    #[inline]
    pub fn add(&mut self, c: Cell, colour: Colour) {
        let v = colour.index() as u16 + 1;
        self.update(c, |code, place| code + v * place);
    }

    /// The stone of `colour` on `c` taken away.
    #[inline]
    pub fn remove(&mut self, c: Cell, colour: Colour) {
        let v = colour.index() as u16 + 1;
        self.update(c, |code, place| code - v * place);
    }

    #[inline]
    fn update(&mut self, c: Cell, change: impl Fn(u16, u16) -> u16) {
        let classes = classes();
        for &(w, place) in &self.windows.through[c as usize] {
            let old = self.codes[w as usize];
            let new = change(old, place);
            self.codes[w as usize] = new;
            let (a, b) = (classes[old as usize], classes[new as usize]);
            if a != b {
                if a != 0 {
                    self.counts[a as usize - 1] -= 1;
                }
                if b != 0 {
                    self.counts[b as usize - 1] += 1;
                }
            }
        }
    }

    /// Windows of `colour` at `level` (0 five .. 7 flex1).
    pub fn count(&self, colour: Colour, level: usize) -> i32 {
        self.counts[colour.index() * LEVELS + level]
    }

    /// Every window's count recomputed from the codes of a board (the oracle of the tests).
    pub fn recount(board: &Board) -> [i32; 2 * LEVELS] {
        let windows = Windows::of(board.rules());
        let classes = classes();
        let mut counts = [0; 2 * LEVELS];
        for (w, &empty) in windows.empty_codes.iter().enumerate() {
            let mut code = empty;
            for (c, list) in windows.through.iter().enumerate() {
                for &(id, place) in list {
                    if id as usize == w {
                        if let Some(s) = board.stone(c as Cell) {
                            code += (s.index() as u16 + 1) * place;
                        }
                    }
                }
            }
            let k = classes[code as usize];
            if k != 0 {
                counts[k as usize - 1] += 1;
            }
        }
        counts
    }

    /// The raw counts, `[colour * 8 + level]`.
    pub fn counts(&self) -> &[i32; 2 * LEVELS] {
        &self.counts
    }
}

/// Bounds of a 6-tuple weight: from 0 to ten times the blog's value, on its side of 0.
const fn t6(name: &'static str, default: i32, doc: &'static str) -> WeightSpec {
    if default >= 0 {
        WeightSpec::new(name, default, 0, 10 * default, doc)
    } else {
        WeightSpec::new(name, default, 10 * default, 0, doc)
    }
}

/// The 16 weights of the blog's final table (its `weight[17]` without OTHER), in its pair
/// order, then Gomoku's move-order weights.
pub static GOMOKU_TUPLE6: Schema = Schema {
    game: "gomoku",
    eval: "tuple6",
    source: "a Gomoku blog's final 6-tuple table (its F function); hand-set move order",
    specs: &concat_specs::<16, 8, 24>(
        [
            t6("win", 1_000_000, "WIN: a five of the side that has just moved (never scored: the game is over)"),
            t6("lose", -10_000_000, "LOSE: a five of the side to move (never scored: the game is over)"),
            t6("flex4", 50_000, "FLEX4: a live four of the side that has just moved"),
            t6("opp_flex4", -100_000, "flex4: a live four of the side to move"),
            t6("block4", 400, "BLOCK4: a sleep four of the side that has just moved"),
            t6("opp_block4", -100_000, "block4: a sleep four of the side to move"),
            t6("flex3", 400, "FLEX3: a live three of the side that has just moved"),
            t6("opp_flex3", -8_000, "flex3: a live three of the side to move"),
            t6("block3", 20, "BLOCK3: a sleep three of the side that has just moved"),
            t6("opp_block3", -50, "block3: a sleep three of the side to move"),
            t6("flex2", 20, "FLEX2: a live two of the side that has just moved"),
            t6("opp_flex2", -50, "flex2: a live two of the side to move"),
            t6("block2", 1, "BLOCK2: a sleep two of the side that has just moved"),
            t6("opp_block2", -3, "block2: a sleep two of the side to move"),
            t6("flex1", 1, "FLEX1: a live one of the side that has just moved"),
            t6("opp_flex1", -3, "flex1: a live one of the side to move"),
        ],
        GOMOKU_MOVE_ORDER,
    ),
};

/// Scores are kept well inside the search's mate range whatever the table.
const SCORE_LIMIT: i64 = 100_000_000;

/// The 6-tuple evaluation of one table: the weights of the mover's and the side to move's
/// classes by level.
#[derive(Clone, Debug)]
pub struct Tuple6Eval {
    mover: [i64; LEVELS],
    to_move: [i64; LEVELS],
}

impl Tuple6Eval {
    /// Unpacks a table of [`GOMOKU_TUPLE6`] (its first 16 weights, in the blog's order).
    pub fn new(weights: &Weights) -> Tuple6Eval {
        let eval = weights.eval_values();
        assert_eq!(eval.len(), 2 * LEVELS, "a 6-tuple table has 16 evaluation weights");
        let mut e = Tuple6Eval { mover: [0; LEVELS], to_move: [0; LEVELS] };
        for level in 0..LEVELS {
            e.mover[level] = eval[2 * level];
            e.to_move[level] = eval[2 * level + 1];
        }
        e
    }

    /// The score for the side to move: minus the blog's F for the side that has just moved.
    #[inline]
    pub fn score(&self, counts: &WindowCounts, to_move: Colour) -> i32 {
        let mover = to_move.other();
        let mut f = 0i64;
        for level in 0..LEVELS {
            f += self.mover[level] * i64::from(counts.count(mover, level))
                + self.to_move[level] * i64::from(counts.count(to_move, level));
        }
        (-f).clamp(-SCORE_LIMIT, SCORE_LIMIT) as i32
    }

    /// The same score from counts recomputed from the board (the tests' oracle).
    pub fn evaluate_global(&self, board: &Board) -> i32 {
        let counts = WindowCounts::of_board(board);
        self.score(&counts, board.to_move())
    }
}

impl Evaluate<GomokuBoard> for Tuple6Eval {
    #[inline]
    fn evaluate(&self, pos: &GomokuBoard) -> i32 {
        self.score(&pos.windows(), pos.board().to_move())
    }
}

#[cfg(test)]
mod tests;
