//! Line patterns of every empty cell, kept incrementally: the core of the `cells` evaluation
//! and of its move order.
//!
//! # Patterns
//! For an empty cell, a colour and one of the 4 directions, the *line level* says what a stone
//! of that colour on the cell would make along that line, judged from the 9 cells centred on
//! it (4 each side; a five through the cell lies within them): a five ([`F5`]), an open four
//! (two cells would then complete a five through it, [`F4`]), a four (one such cell, [`B4`]),
//! and below those, by what one more stone of the colour somewhere in the window could make:
//! an open three ([`F3`]: a further stone makes an open four), a closed three ([`B3`]: at
//! best a four), and likewise open and closed twos and ones. The opponent's stones and the
//! board's edge both block. The levels of the 8 neighbour cells' contents (empty, black,
//! white, edge: a 16-bit key) are one table lookup per colour, the table built once from the
//! definition by recursion over the 3^9 lines of one colour.
//!
//! A cell's 4 levels of one colour combine into its *class* ([`FIVE`], [`FLEX4`]: an open
//! four or two fours, [`FOUR_THREE`], [`DOUBLE_THREE`], [`FOUR`], [`THREE`], ...): what a
//! stone there threatens as a whole.
//!
//! # Incremental
//! A stone changes the keys of the cells within 4 of it on its 4 lines (at most 32), and only
//! the level of the line it shares with each; [`CellPatterns`] keeps every cell's keys, the
//! empty cells' levels and classes, and how many (cell, direction) pairs of each colour are
//! at each level, how many cells in each class and, for the `cell-pairs` evaluation only, of
//! each level pair (a cell's two strongest levels), so that the evaluation is a dot product.
//! [`CellPatterns::recount`] recomputes all of it from a board (the tests' oracle).

use std::sync::OnceLock;

use crate::games::connect::board::{Board, Cell, Colour, Rules};

/// Line levels, weakest first: no five can be made through the cell along the line.
pub const DEAD: u8 = 0;
pub const B1: u8 = 1;
pub const F1: u8 = 2;
pub const B2: u8 = 3;
pub const F2: u8 = 4;
pub const B3: u8 = 5;
pub const F3: u8 = 6;
pub const B4: u8 = 7;
pub const F4: u8 = 8;
pub const F5: u8 = 9;
/// Line levels.
pub const LEVELS: usize = 10;

/// Cell classes, weakest first.
pub const NONE: u8 = 0;
/// A one or a closed two at best.
pub const WEAK: u8 = 1;
/// An open two or a closed three.
pub const TWO: u8 = 2;
/// Two of those in two lines.
pub const TWO_TWO: u8 = 3;
/// One open three.
pub const THREE: u8 = 4;
/// One four (and no open three).
pub const FOUR: u8 = 5;
pub const DOUBLE_THREE: u8 = 6;
pub const FOUR_THREE: u8 = 7;
/// An open four, or two fours.
pub const FLEX4: u8 = 8;
pub const FIVE: u8 = 9;
/// Cell classes.
pub const CLASSES: usize = 10;

/// Level pairs: a cell's two strongest line levels of one colour (the strongest first), one of
/// the 55 pairs with `top >= second`, numbered by [`pair_index`]. Finer than the class: every
/// class from an open two up is a set of pairs, and each pair can be priced on its own.
pub const PAIRS: usize = LEVELS * (LEVELS + 1) / 2;

/// The number of a pair of levels, `top >= second`: the pairs ordered by their top level, then
/// their second.
pub const fn pair_index(top: u8, second: u8) -> usize {
    let (t, s) = (top as usize, second as usize);
    t * (t + 1) / 2 + s
}

/// The pair of a cell's 4 line levels: its two strongest.
pub fn pair_of(levels: [u8; 4]) -> usize {
    let mut l = levels;
    l.sort_unstable_by(|a, b| b.cmp(a));
    pair_index(l[0], l[1])
}

/// The 4 directions as (dx, dy).
const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Line cells for one colour: empty, own stone, blocked (opponent or edge).
const E: u8 = 0;
const X: u8 = 1;
const BLOCKED: u8 = 2;

/// The length of the run of own stones through the centre (index 4) of a 9-cell line.
fn run_through_centre(line: &[u8; 9]) -> usize {
    let left = line[..4].iter().rev().take_while(|&&v| v == X).count();
    let right = line[5..].iter().take_while(|&&v| v == X).count();
    1 + left + right
}

fn line_index(line: &[u8; 9]) -> usize {
    line.iter().fold(0, |acc, &v| acc * 3 + v as usize)
}

/// The level of a line whose centre holds an own stone, memoised by the line's base-3 index.
fn level_of(line: [u8; 9], memo: &mut [u8]) -> u8 {
    let i = line_index(&line);
    if memo[i] != u8::MAX {
        return memo[i];
    }
    let level = if run_through_centre(&line) >= 5 {
        F5
    } else {
        let mut fives = 0;
        let mut best = DEAD;
        for e in 0..9 {
            if line[e] != E {
                continue;
            }
            let mut next = line;
            next[e] = X;
            if run_through_centre(&next) >= 5 {
                fives += 1;
            } else {
                // One stone short of the next stone's level: an open four's line is an open
                // three here, a four's a closed three, and so on down to B1 (a one's is DEAD).
                best = best.max(level_of(next, memo).saturating_sub(2));
            }
        }
        match fives {
            0 => best,
            1 => B4,
            _ => F4,
        }
    };
    memo[i] = level;
    level
}

/// The level of a colour's stone on an empty cell from its neighbours' key: 2 bits each, in
/// the order of offsets -4, -3, -2, -1, +1, +2, +3, +4 (low bits first), 0 empty, 1 black,
/// 2 white, 3 edge.
fn levels_table() -> &'static [[u8; 1 << 16]; 2] {
    static TABLE: OnceLock<Box<[[u8; 1 << 16]; 2]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut memo = vec![u8::MAX; 3usize.pow(9)];
        let mut t = Box::new([[0u8; 1 << 16]; 2]);
        for key in 0..1usize << 16 {
            for colour in 0..2 {
                let own = colour as u8 + 1;
                let mut line = [E; 9];
                for (idx, slot) in [0, 1, 2, 3, 5, 6, 7, 8].into_iter().enumerate() {
                    let v = ((key >> (2 * idx)) & 3) as u8;
                    line[slot] = if v == 0 {
                        E
                    } else if v == own {
                        X
                    } else {
                        BLOCKED
                    };
                }
                line[4] = X;
                t[colour][key] = level_of(line, &mut memo);
            }
        }
        t
    })
}

/// The class of a cell from its 4 line levels of one colour.
pub fn class_of(levels: [u8; 4]) -> u8 {
    let mut n = [0u8; LEVELS];
    for l in levels {
        n[l as usize] += 1;
    }
    let (f5, f4, b4, f3) = (n[F5 as usize], n[F4 as usize], n[B4 as usize], n[F3 as usize]);
    let twos = n[F2 as usize] + n[B3 as usize];
    if f5 > 0 {
        FIVE
    } else if f4 > 0 || b4 >= 2 {
        FLEX4
    } else if b4 == 1 && f3 >= 1 {
        FOUR_THREE
    } else if f3 >= 2 {
        DOUBLE_THREE
    } else if b4 == 1 {
        FOUR
    } else if f3 == 1 {
        THREE
    } else if twos >= 2 {
        TWO_TWO
    } else if twos == 1 {
        TWO
    } else if levels.iter().any(|&l| l > DEAD) {
        WEAK
    } else {
        NONE
    }
}

/// The classes of every 4 line levels packed 4 bits each ([`pack`]): [`class_of`] once for
/// each, so that a level's change costs one lookup.
fn classes_table() -> &'static [u8; 1 << 16] {
    static TABLE: OnceLock<Box<[u8; 1 << 16]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([NONE; 1 << 16]);
        for (key, class) in t.iter_mut().enumerate() {
            let l = [0, 1, 2, 3].map(|d| ((key >> (4 * d)) & 15) as u8);
            if l.iter().all(|&v| (v as usize) < LEVELS) {
                *class = class_of(l);
            }
        }
        t
    })
}

/// The pairs of every 4 line levels packed as for [`classes_table`].
fn pairs_table() -> &'static [u8; 1 << 16] {
    static TABLE: OnceLock<Box<[u8; 1 << 16]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([0u8; 1 << 16]);
        for (key, pair) in t.iter_mut().enumerate() {
            let l = [0, 1, 2, 3].map(|d| ((key >> (4 * d)) & 15) as u8);
            if l.iter().all(|&v| (v as usize) < LEVELS) {
                *pair = pair_of(l) as u8;
            }
        }
        t
    })
}

/// Both colours' levels of a key ([`levels_table`]) side by side: the incremental update reads
/// them with one memory access (the tables are too large for the first-level cache).
fn both_levels_table() -> &'static [[u8; 2]; 1 << 16] {
    static TABLE: OnceLock<Box<[[u8; 2]; 1 << 16]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let [black, white] = levels_table();
        let mut t = Box::new([[0u8; 2]; 1 << 16]);
        for (key, both) in t.iter_mut().enumerate() {
            *both = [black[key], white[key]];
        }
        t
    })
}

/// The class and the level pair of every 4 line levels packed as for [`classes_table`], side by
/// side, for the same reason.
fn class_pair_table() -> &'static [[u8; 2]; 1 << 16] {
    static TABLE: OnceLock<Box<[[u8; 2]; 1 << 16]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let (classes, pairs) = (classes_table(), pairs_table());
        let mut t = Box::new([[0u8; 2]; 1 << 16]);
        for (key, both) in t.iter_mut().enumerate() {
            *both = [classes[key], pairs[key]];
        }
        t
    })
}

/// 4 line levels packed 4 bits each, the first lowest.
#[inline]
fn pack(l: [u8; 4]) -> usize {
    l[0] as usize | (l[1] as usize) << 4 | (l[2] as usize) << 8 | (l[3] as usize) << 12
}

/// For every cell, the cells whose keys a stone there changes: (cell, direction, bit shift).
#[derive(Debug)]
struct Touch {
    cells: usize,
    touch: Vec<Vec<(u16, u8, u8)>>,
    /// Every cell's keys on the empty board (the edge's bits).
    empty_keys: Vec<[u16; 4]>,
}

impl Touch {
    fn build(rules: Rules) -> Touch {
        let (w, h) = (rules.width as i32, rules.height as i32);
        let inside = |x: i32, y: i32| (0..w).contains(&x) && (0..h).contains(&y);
        let cells = (w * h) as usize;
        let mut touch = vec![Vec::new(); cells];
        let mut empty_keys = vec![[0u16; 4]; cells];
        for y in 0..h {
            for x in 0..w {
                let p = (x + y * w) as usize;
                for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                    for (idx, off) in [-4, -3, -2, -1, 1, 2, 3, 4].into_iter().enumerate() {
                        let (qx, qy) = (x + dx * off, y + dy * off);
                        if inside(qx, qy) {
                            // p is at offset -off from q.
                            let q = (qx + qy * w) as u16;
                            let back = [-4, -3, -2, -1, 1, 2, 3, 4].iter().position(|&o| o == -off).unwrap();
                            touch[p].push((q, d as u8, (2 * back) as u8));
                        } else {
                            empty_keys[p][d] |= 3 << (2 * idx);
                        }
                    }
                }
            }
        }
        Touch { cells, touch, empty_keys }
    }

    fn of(rules: Rules) -> &'static Touch {
        static GO: OnceLock<Touch> = OnceLock::new();
        assert_eq!(rules, Rules::GOMOKU, "cell patterns are Gomoku's");
        GO.get_or_init(|| Touch::build(rules))
    }
}

/// A line level of an empty cell that a stone changed, with what it was: taking the stone
/// back puts these back, newest first, with no table lookup.
#[derive(Clone, Copy, Debug)]
struct LevelChange {
    cell: u16,
    dir: u8,
    colour: u8,
    /// The cell's level in that direction, its class and its level pair before the stone.
    level: u8,
    class: u8,
    pair: u8,
}

/// Every empty cell's levels by colour, the level counts, the class counts and the pair counts
/// (the shape the tests compare).
pub type Snapshot = (Vec<[[u8; 4]; 2]>, [[i32; LEVELS]; 2], [[i32; CLASSES]; 2], [[i32; PAIRS]; 2]);

/// The patterns of every cell of one position (see the module documentation).
#[derive(Clone, Debug)]
pub struct CellPatterns {
    touch: &'static Touch,
    keys: Vec<[u16; 4]>,
    /// 0 empty, 1 black, 2 white.
    occ: Vec<u8>,
    /// `levels[colour][cell]`, kept for empty cells.
    levels: [Vec<[u8; 4]>; 2],
    class: [Vec<u8>; 2],
    /// Whether the level pairs are kept: only the `cell-pairs` evaluation reads them, and the
    /// other players that keep patterns (`cells`, `tuple6-cells`) should not pay a second
    /// lookup and count per level change for them.
    keeps_pairs: bool,
    /// `pair[colour][cell]`, kept for empty cells when the pairs are (empty otherwise).
    pair: [Vec<u8>; 2],
    /// (empty cell, direction) pairs at each level, by colour.
    counts: [[i32; LEVELS]; 2],
    /// Empty cells in each class, by colour.
    class_counts: [[i32; CLASSES]; 2],
    /// Empty cells of each level pair, by colour (all 0 when the pairs are not kept).
    pair_counts: [[i32; PAIRS]; 2],
    /// The level changes of the stones on the board, stone after stone: stones come off in the
    /// reverse order they went on (the board's history), so each one's changes are the last.
    changes: Vec<LevelChange>,
    /// Where each stone's changes start in `changes`, by stone.
    marks: Vec<u32>,
}

/// Moves a cell from the bucket `*bucket` of `counts` to the bucket `now` (a class or a level
/// pair that a changed line level may change).
#[inline]
fn rebucket<const N: usize>(counts: &mut [i32; N], bucket: &mut u8, now: u8) {
    if *bucket != now {
        counts[*bucket as usize] -= 1;
        counts[now as usize] += 1;
        *bucket = now;
    }
}

impl CellPatterns {
    /// The empty board's patterns, with the level pairs if `keeps_pairs`.
    pub fn new(rules: Rules, keeps_pairs: bool) -> CellPatterns {
        let touch = Touch::of(rules);
        let n = touch.cells;
        let pair_cells = if keeps_pairs { n } else { 0 };
        let mut p = CellPatterns {
            touch,
            keys: touch.empty_keys.clone(),
            occ: vec![0; n],
            levels: [vec![[0; 4]; n], vec![[0; 4]; n]],
            class: [vec![0; n], vec![0; n]],
            keeps_pairs,
            pair: [vec![0; pair_cells], vec![0; pair_cells]],
            counts: [[0; LEVELS]; 2],
            class_counts: [[0; CLASSES]; 2],
            pair_counts: [[0; PAIRS]; 2],
            changes: Vec::new(),
            marks: Vec::new(),
        };
        for c in 0..n {
            p.enter(c);
        }
        p
    }

    /// The patterns of a board's position, with the level pairs if `keeps_pairs`.
    pub fn of_board(board: &Board, keeps_pairs: bool) -> CellPatterns {
        let mut p = CellPatterns::new(board.rules(), keeps_pairs);
        for &c in board.history() {
            p.add(c, board.stone(c).expect("history names occupied cells"));
        }
        p
    }

    /// Counts an empty cell's levels and classes in, from its keys.
    #[inline]
    fn enter(&mut self, c: usize) {
        for (col, table) in levels_table().iter().enumerate() {
            let mut l = [0u8; 4];
            for d in 0..4 {
                l[d] = table[self.keys[c][d] as usize];
                self.counts[col][l[d] as usize] += 1;
            }
            self.levels[col][c] = l;
            let k = class_of(l);
            self.class[col][c] = k;
            self.class_counts[col][k as usize] += 1;
            if self.keeps_pairs {
                let pair = pair_of(l);
                self.pair[col][c] = pair as u8;
                self.pair_counts[col][pair] += 1;
            }
        }
    }

    /// Counts a cell that is about to be occupied out. Its levels, class and pair stay as they
    /// are while it is occupied (the stones around it change only its keys): when the stone
    /// comes off, the stones placed since are off again, so they are its levels once more.
    #[inline]
    fn leave(&mut self, c: usize) {
        self.count_cell(c, -1);
    }

    /// Adds `by` to the counts of an empty cell's levels, class and pair.
    #[inline]
    fn count_cell(&mut self, c: usize, by: i32) {
        for col in 0..2 {
            for d in 0..4 {
                self.counts[col][self.levels[col][c][d] as usize] += by;
            }
            self.class_counts[col][self.class[col][c] as usize] += by;
            if self.keeps_pairs {
                self.pair_counts[col][self.pair[col][c] as usize] += by;
            }
        }
    }

    /// A stone of `colour` on the empty cell `c`.
    #[inline]
    pub fn add(&mut self, c: Cell, colour: Colour) {
        let c = c as usize;
        debug_assert_eq!(self.occ[c], 0);
        self.leave(c);
        let v = colour.index() as u16 + 1;
        self.occ[c] = v as u8;
        self.marks.push(self.changes.len() as u32);
        let levels = both_levels_table();
        let class_pair = class_pair_table();
        for &(q, d, bits) in &self.touch.touch[c] {
            let (q, d) = (q as usize, d as usize);
            let key = self.keys[q][d] + (v << bits);
            self.keys[q][d] = key;
            if self.occ[q] != 0 {
                continue;
            }
            let both = levels[key as usize];
            for (col, &new) in both.iter().enumerate() {
                let old = self.levels[col][q][d];
                if old != new {
                    let pair = if self.keeps_pairs { self.pair[col][q] } else { 0 };
                    self.changes.push(LevelChange {
                        cell: q as u16,
                        dir: d as u8,
                        colour: col as u8,
                        level: old,
                        class: self.class[col][q],
                        pair,
                    });
                    self.counts[col][old as usize] -= 1;
                    self.counts[col][new as usize] += 1;
                    self.levels[col][q][d] = new;
                    let [class, pair] = class_pair[pack(self.levels[col][q])];
                    rebucket(&mut self.class_counts[col], &mut self.class[col][q], class);
                    if self.keeps_pairs {
                        rebucket(&mut self.pair_counts[col], &mut self.pair[col][q], pair);
                    }
                }
            }
        }
    }

    /// The stone of `colour` on `c` taken away: the last stone added.
    #[inline]
    pub fn remove(&mut self, c: Cell, colour: Colour) {
        let c = c as usize;
        let v = colour.index() as u16 + 1;
        debug_assert_eq!(self.occ[c], v as u8);
        for &(q, d, bits) in &self.touch.touch[c] {
            self.keys[q as usize][d as usize] -= v << bits;
        }
        let start = self.marks.pop().expect("a stone to take back") as usize;
        for change in self.changes.drain(start..).rev() {
            let (q, d, col) = (change.cell as usize, change.dir as usize, change.colour as usize);
            let now = self.levels[col][q][d];
            self.counts[col][now as usize] -= 1;
            self.counts[col][change.level as usize] += 1;
            self.levels[col][q][d] = change.level;
            rebucket(&mut self.class_counts[col], &mut self.class[col][q], change.class);
            if self.keeps_pairs {
                rebucket(&mut self.pair_counts[col], &mut self.pair[col][q], change.pair);
            }
        }
        self.occ[c] = 0;
        self.count_cell(c, 1);
    }

    /// The levels of an empty cell's 4 lines for `colour`.
    #[inline]
    pub fn levels(&self, colour: Colour, c: Cell) -> [u8; 4] {
        self.levels[colour.index()][c as usize]
    }

    /// The class of an empty cell for `colour`.
    #[inline]
    pub fn class(&self, colour: Colour, c: Cell) -> u8 {
        self.class[colour.index()][c as usize]
    }

    /// (Empty cell, direction) pairs of `colour` at `level`.
    #[inline]
    pub fn count(&self, colour: Colour, level: u8) -> i32 {
        self.counts[colour.index()][level as usize]
    }

    /// Empty cells of `colour` in `class`.
    #[inline]
    pub fn class_count(&self, colour: Colour, class: u8) -> i32 {
        self.class_counts[colour.index()][class as usize]
    }

    /// Whether the level pairs are kept (without them [`CellPatterns::pair_count`] has nothing to
    /// read: [`GomokuBoard::cells_with_pairs`](super::GomokuBoard::cells_with_pairs) counts them).
    #[inline]
    pub fn keeps_pairs(&self) -> bool {
        self.keeps_pairs
    }

    /// Empty cells of `colour` whose two strongest levels are the pair numbered `pair`
    /// ([`pair_index`]); kept only by patterns made with the pairs.
    #[inline]
    pub fn pair_count(&self, colour: Colour, pair: usize) -> i32 {
        debug_assert!(self.keeps_pairs, "the level pairs are not kept");
        self.pair_counts[colour.index()][pair]
    }

    /// Whether the cell is empty.
    #[inline]
    pub fn is_empty(&self, c: Cell) -> bool {
        self.occ[c as usize] == 0
    }

    /// Cells on the board.
    pub fn cells(&self) -> usize {
        self.occ.len()
    }

    /// Everything recomputed from the board by reading each empty cell's 4 lines: levels,
    /// classes and counts, the pair counts only if `keeps_pairs` (all 0 otherwise, as patterns
    /// kept without them have them): the tests' oracle, independent of the keys.
    pub fn recount(board: &Board, keeps_pairs: bool) -> Snapshot {
        let (w, h) = (board.width() as i32, board.height() as i32);
        let table = levels_table();
        let mut per_cell = vec![[[0u8; 4]; 2]; (w * h) as usize];
        let mut counts = [[0; LEVELS]; 2];
        let mut classes = [[0; CLASSES]; 2];
        let mut pairs = [[0; PAIRS]; 2];
        for y in 0..h {
            for x in 0..w {
                let c = board.cell(x as usize, y as usize);
                if !board.is_empty_cell(c) {
                    continue;
                }
                for (col, table) in table.iter().enumerate() {
                    let mut l = [0u8; 4];
                    for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                        let mut key = 0usize;
                        for (idx, off) in [-4, -3, -2, -1, 1, 2, 3, 4].into_iter().enumerate() {
                            let (qx, qy) = (x + dx * off, y + dy * off);
                            let v = if (0..w).contains(&qx) && (0..h).contains(&qy) {
                                match board.stone(board.cell(qx as usize, qy as usize)) {
                                    None => 0,
                                    Some(s) => s.index() + 1,
                                }
                            } else {
                                3
                            };
                            key |= v << (2 * idx);
                        }
                        l[d] = table[key];
                        counts[col][l[d] as usize] += 1;
                    }
                    per_cell[c as usize][col] = l;
                    classes[col][class_of(l) as usize] += 1;
                    if keeps_pairs {
                        pairs[col][pair_of(l)] += 1;
                    }
                }
            }
        }
        (per_cell, counts, classes, pairs)
    }

    /// The incremental state in the oracle's shape (for the tests).
    pub fn snapshot(&self) -> Snapshot {
        let per_cell = (0..self.cells())
            .map(|c| if self.occ[c] == 0 { [self.levels[0][c], self.levels[1][c]] } else { [[0; 4]; 2] })
            .collect();
        (per_cell, self.counts, self.class_counts, self.pair_counts)
    }
}

/// The level of a line given as text from one colour's view, centre included (for the tests):
/// `x` own, `o` opponent, `|` edge, `.` empty; the centre (index 4) must be `.` and is where
/// the stone goes.
pub fn level_of_text(line: &str) -> u8 {
    let cells: Vec<u8> = line.bytes().collect();
    assert_eq!(cells.len(), 9, "{line}: 9 cells");
    assert_eq!(cells[4], b'.', "{line}: the centre is empty");
    let mut key = 0usize;
    for (idx, slot) in [0, 1, 2, 3, 5, 6, 7, 8].into_iter().enumerate() {
        let v = match cells[slot] {
            b'.' => 0,
            b'x' => 1,
            b'o' => 2,
            b'|' => 3,
            other => panic!("{line}: cell {}", other as char),
        };
        key |= v << (2 * idx);
    }
    levels_table()[0][key]
}

#[cfg(test)]
mod tests;
