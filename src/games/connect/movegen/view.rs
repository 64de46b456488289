//! The move generator's own view of a board: for every cell, a histogram of the roads through
//! it by class and how many stones lie near it. The generator scores a cell with one dot
//! product of its histogram ([`MoveScoring`](super::MoveScoring)'s weights by class) instead
//! of visiting its 24 roads.
//!
//! The view is kept apart from the board and brought up to date only when the generator is
//! asked for moves ([`BoardView::sync`]): most positions a search visits are leaves that are
//! evaluated and never generated, and they should not pay for it. Catching up compares the
//! board's stones with the ones the view last saw; in a depth-first search the two differ by
//! the few stones of the last moves, and only roads through those stones can have changed.

use crate::games::connect::board::{set_bits, Board, Cell, Colour, LineThrough, MAX_K};

/// Slots of a cell's road-class histogram: `CLASS_HALF` per colour.
pub const ROAD_CLASSES: usize = 2 * CLASS_HALF;
/// Slots per colour: roads holding n = 0..k-1 stones of it (k <= [`MAX_K`]).
pub const CLASS_HALF: usize = MAX_K;

/// How many of the roads through one cell are in each class: byte `colour * CLASS_HALF + n`
/// (little-endian) counts the roads holding n stones of that colour and none of the other,
/// for n below k (the empty roads, n = 0, appear in both halves). Dead roads (both colours)
/// and completed lines are in no byte.
///
/// The bytes are packed in one `u128` so that a road's change of class updates a cell with
/// one 128-bit addition of the change of all its bytes at once: every byte stays in 0..=24
/// (the roads through a cell) before and after, so the wrapping sum of the changes,
/// computed as one number, is exactly the new histogram.
pub type RoadClasses = u128;

/// See the module documentation.
#[derive(Clone, Debug)]
pub struct BoardView {
    k: usize,
    /// The stones the view reflects, in the order they were played.
    stones: Vec<Cell>,
    /// The stone counts of every road as the view last saw them (packed, as
    /// [`Board::road_state`] gives them).
    counts: Vec<u8>,
    classes: Vec<RoadClasses>,
    /// Stones within distance 2 of each cell: the candidate area.
    near: Vec<u8>,
    /// The cells with a stone near, as a bit set: the generator visits these instead of
    /// testing every cell of the board.
    near_set: Vec<u64>,
    /// The histogram bytes of a road by its packed counts ([`Board::road_state`]).
    class_bits: Box<[RoadClasses; 256]>,
}

impl BoardView {
    /// The view of an empty board of `board`'s rules (call [`sync`](Self::sync) before use).
    pub fn new(board: &Board) -> BoardView {
        let geo = board.geometry();
        let k = board.rules().k as usize;
        let mut class_bits = Box::new([0; 256]);
        for black in 0..=k {
            for white in 0..=k {
                class_bits[black | white << 4] = class_of(k, [black, white]);
            }
        }
        let cells = board.rules().cells();
        BoardView {
            k,
            stones: Vec::with_capacity(cells),
            counts: vec![0; geo.road_count()],
            classes: (0..cells as Cell).map(|c| geo.roads_through(c).len() as u128 * class_bits[0]).collect(),
            near: vec![0; cells],
            near_set: vec![0; cells.div_ceil(64)],
            class_bits,
        }
    }

    /// Brings the view up to date with `board` (of the rules it was made for).
    pub fn sync(&mut self, board: &Board) {
        let now = board.history();
        let same = common_prefix(&self.stones, now);
        if same == self.stones.len() && same == now.len() {
            return;
        }
        let geo = board.geometry();
        for &c in &self.stones[same..] {
            for &n in &geo.near_cells[c as usize] {
                let n = n as usize;
                self.near[n] -= 1;
                if self.near[n] == 0 {
                    self.near_set[n / 64] &= !(1 << (n % 64));
                }
            }
        }
        for &c in &now[same..] {
            for &n in &geo.near_cells[c as usize] {
                let n = n as usize;
                self.near[n] += 1;
                self.near_set[n / 64] |= 1 << (n % 64);
            }
        }
        // Every road whose counts changed passes through a stone taken back or placed; the
        // first such stone's line that reaches it updates it. (The list is taken out for the
        // loop rather than split, which would allocate at every node.)
        let mut stones = std::mem::take(&mut self.stones);
        for &c in stones[same..].iter().chain(&now[same..]) {
            for line in geo.lines_through(c) {
                self.sync_line(board, line);
            }
        }
        stones.truncate(same);
        stones.extend_from_slice(&now[same..]);
        self.stones = stones;
    }

    /// Updates the roads of one line through a changed stone, and the histograms of the
    /// line's cells, each written once: cell i of the line is in roads i - k + 1 ..= i, a
    /// window of the roads' changes sliding along it.
    fn sync_line(&mut self, board: &Board, line: &LineThrough) {
        let mut change = [0 as RoadClasses; MAX_K];
        let mut any = 0;
        for (d, &r) in change.iter_mut().zip(line.roads()) {
            let r = r as usize;
            let (was, is) = (self.counts[r], board.road_state(r));
            if was != is {
                let bits = |n: u8| self.class_bits[n as usize];
                *d = bits(is).wrapping_sub(bits(was));
                any |= *d;
                self.counts[r] = is;
            }
        }
        if any == 0 {
            return;
        }
        // A line has at most k roads, so the window only grows over the first `roads`
        // cells, stays over the next k - roads, and only shrinks over the rest: three
        // loops without a test at each cell.
        let roads = line.roads().len();
        let classes = &mut self.classes;
        let mut window: RoadClasses = 0;
        let mut cells = line.cells(self.k);
        for (&add, c) in change[..roads].iter().zip(&mut cells) {
            window = window.wrapping_add(add);
            let h = &mut classes[c as usize];
            *h = h.wrapping_add(window);
        }
        for c in (&mut cells).take(self.k - roads) {
            let h = &mut classes[c as usize];
            *h = h.wrapping_add(window);
        }
        for (&drop, c) in change[..roads.saturating_sub(1)].iter().zip(&mut cells) {
            window = window.wrapping_sub(drop);
            let h = &mut classes[c as usize];
            *h = h.wrapping_add(window);
        }
    }

    /// The road-class histogram of a cell (see [`RoadClasses`]).
    #[inline]
    pub fn classes(&self, c: Cell) -> RoadClasses {
        self.classes[c as usize]
    }

    /// The cells with a stone within distance 2 (occupied ones too), in increasing order.
    pub fn cells_near_stones(&self) -> impl Iterator<Item = Cell> + '_ {
        set_bits(&self.near_set).map(|c| c as Cell)
    }

    /// Whether a cell has a stone within distance 2 (the search's candidate area).
    #[inline]
    pub fn is_near_stone(&self, c: Cell) -> bool {
        self.near[c as usize] > 0
    }
}

/// How many stones two histories have in common from the start. The view asks at every
/// generation, of histories of dozens of stones that differ in the last few: compared 8
/// stones at a time first.
fn common_prefix(a: &[Cell], b: &[Cell]) -> usize {
    const CHUNK: usize = 8;
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + CHUNK <= n && a[i..i + CHUNK] == b[i..i + CHUNK] {
        i += CHUNK;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// The slot of a road holding `n` stones of `colour` and none of the other, if it has one.
fn class_slot(colour: Colour, n: usize, k: usize) -> Option<usize> {
    (n < k).then_some(colour.index() * CLASS_HALF + n)
}

/// The histogram bytes of one road holding these stones (by colour).
fn class_of(k: usize, [black, white]: [usize; 2]) -> RoadClasses {
    let byte = |slot: Option<usize>| slot.map_or(0, |i| 1u128 << (8 * i));
    match (black, white) {
        (0, 0) => byte(class_slot(Colour::Black, 0, k)) | byte(class_slot(Colour::White, 0, k)),
        (n, 0) => byte(class_slot(Colour::Black, n, k)),
        (0, n) => byte(class_slot(Colour::White, n, k)),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect::Rules;
    use rand::{Rng, SeedableRng};

    /// The histogram of a cell counted from its roads.
    fn recount(board: &Board, c: Cell) -> RoadClasses {
        let k = board.rules().k as usize;
        board
            .geometry()
            .roads_through(c)
            .iter()
            .map(|&r| class_of(k, board.road_counts(r as usize).map(usize::from)))
            .sum()
    }

    #[test]
    fn common_prefix_is_the_stones_before_the_first_difference() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for _ in 0..2000 {
            let a: Vec<Cell> = (0..rng.random_range(0..40)).map(|_| rng.random_range(0..3)).collect();
            let mut b = a.clone();
            b.truncate(rng.random_range(0..=a.len()));
            b.extend((0..rng.random_range(0..10)).map(|_| rng.random_range(0..3)));
            let naive = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
            assert_eq!(common_prefix(&a, &b), naive, "{a:?} {b:?}");
            assert_eq!(common_prefix(&b, &a), naive);
        }
    }

    #[test]
    fn the_view_follows_the_board_through_plays_and_undos() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for rules in [Rules::CONNECT6, Rules::GOMOKU] {
            let mut board = Board::new(rules);
            let mut view = BoardView::new(&board);
            for step in 0..400 {
                // Mostly plays, some undos of one or several stones, syncs at random.
                if !board.is_empty() && (board.winner().is_some() || rng.random_bool(0.35)) {
                    for _ in 0..rng.random_range(1..=3.min(board.stone_count())) {
                        board.undo();
                    }
                } else {
                    let (w, h) = (board.width(), board.height());
                    let c = board.cell(rng.random_range(w / 2 - 4..w / 2 + 4), rng.random_range(h / 2 - 4..h / 2 + 4));
                    if board.is_empty_cell(c) {
                        board.play(c);
                    }
                }
                if rng.random_bool(0.5) {
                    view.sync(&board);
                    for c in 0..rules.cells() as Cell {
                        assert_eq!(view.classes(c), recount(&board, c), "{rules:?} step {step} cell {c}");
                        assert_eq!(view.is_near_stone(c), board.has_stone_near(c), "{rules:?} step {step} cell {c}");
                    }
                }
            }
        }
    }
}
