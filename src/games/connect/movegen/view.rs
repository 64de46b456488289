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

use crate::games::connect::board::{set_bits, Board, Cell, Colour, Geometry, LineThrough, MAX_K};

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
        // The indexing below is unchecked: every index comes from the geometry (its cells,
        // its roads), and the view's lists are as long as the geometry has cells and roads
        // (checked here once, so that a board of other rules cannot reach past them).
        assert!(
            self.classes.len() == board.rules().cells()
                && self.near.len() == board.rules().cells()
                && self.counts.len() == geo.road_count(),
            "a board view synced with a board of other rules"
        );
        // A stone taken back and placed again in the same colour (siblings' moves share it:
        // pairs are in cell order) changes neither a road nor a neighbourhood: only the
        // stones that changed a cell's content are caught up with.
        // (The list is taken out for the loops rather than borrowed, which would hold the
        // whole view.)
        let mut stones = std::mem::take(&mut self.stones);
        let (gone, new) = changed_stones(geo, &stones, now, same);
        for &c in gone.stones() {
            for &n in &geo.near_cells[c as usize] {
                let n = n as usize;
                // SAFETY: n is a cell of the geometry (see above).
                let near = unsafe { self.near.get_unchecked_mut(n) };
                *near -= 1;
                if *near == 0 {
                    // SAFETY: near_set has a bit for every cell (n / 64 < cells.div_ceil(64)).
                    unsafe { *self.near_set.get_unchecked_mut(n / 64) &= !(1 << (n % 64)) };
                }
            }
        }
        for &c in new.stones() {
            for &n in &geo.near_cells[c as usize] {
                let n = n as usize;
                // SAFETY: as above.
                unsafe {
                    *self.near.get_unchecked_mut(n) += 1;
                    *self.near_set.get_unchecked_mut(n / 64) |= 1 << (n % 64);
                }
            }
        }
        // Every road whose counts changed passes through a stone taken back or placed; the
        // first such stone's line that reaches it updates it.
        for &c in gone.stones().iter().chain(new.stones()) {
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
    /// window of the roads' changes sliding along it. The line's roads and cells are the
    /// geometry's, whose counts [`sync`](Self::sync) checked against the view's lists.
    #[inline]
    fn sync_line(&mut self, board: &Board, line: &LineThrough) {
        let mut change = [0 as RoadClasses; MAX_K];
        let mut any = 0;
        let states = board.road_states();
        debug_assert_eq!(states.len(), self.counts.len());
        for (d, &r) in change.iter_mut().zip(line.roads()) {
            let r = r as usize;
            debug_assert!(r < self.counts.len());
            // SAFETY: r is a road of the geometry, below its road count, the length of both
            // lists (see `sync`).
            let (was, is) = unsafe { (self.counts.get_unchecked_mut(r), *states.get_unchecked(r)) };
            if *was != is {
                let bits = |n: u8| self.class_bits[n as usize];
                *d = bits(is).wrapping_sub(bits(*was));
                any |= *d;
                *was = is;
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
        let mut add_at = |c: Cell, window: RoadClasses| {
            debug_assert!((c as usize) < classes.len());
            // SAFETY: c is a cell of the geometry, below the length of `classes` (see `sync`).
            let h = unsafe { classes.get_unchecked_mut(c as usize) };
            *h = h.wrapping_add(window);
        };
        let mut window: RoadClasses = 0;
        let mut cells = line.cells(self.k);
        for (&add, c) in change[..roads].iter().zip(&mut cells) {
            window = window.wrapping_add(add);
            add_at(c, window);
        }
        for c in (&mut cells).take(self.k - roads) {
            add_at(c, window);
        }
        for (&drop, c) in change[..roads.saturating_sub(1)].iter().zip(&mut cells) {
            window = window.wrapping_sub(drop);
            add_at(c, window);
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

/// The stones of one side of a catch-up, on the stack: at most this many (more, and the
/// view catches up with every stone of that side).
const FEW_STONES: usize = 8;

/// A short list of stones (see [`changed_stones`]).
struct Stones<'a> {
    few: [Cell; FEW_STONES],
    len: usize,
    /// All the stones, when there are more than [`FEW_STONES`] of them.
    many: Option<&'a [Cell]>,
}

impl Stones<'_> {
    fn stones(&self) -> &[Cell] {
        self.many.unwrap_or(&self.few[..self.len])
    }
}

/// The stones taken back (`was[same..]`) and placed (`now[same..]`) but those that are in
/// both in the same colour (their cells hold what they held): the stones whose cells changed.
fn changed_stones<'a>(geo: &Geometry, was: &'a [Cell], now: &'a [Cell], same: usize) -> (Stones<'a>, Stones<'a>) {
    let (gone, new) = (&was[same..], &now[same..]);
    if gone.len() > FEW_STONES || new.len() > FEW_STONES {
        let all = |s| Stones { few: [0; FEW_STONES], len: 0, many: Some(s) };
        return (all(gone), all(new));
    }
    let colour = |i: usize| geo.colour_of(same + i);
    let mut kept = [false; FEW_STONES];
    let mut left = Stones { few: [0; FEW_STONES], len: 0, many: None };
    for (i, &c) in gone.iter().enumerate() {
        match new.iter().enumerate().position(|(j, &d)| d == c && !kept[j] && colour(j) == colour(i)) {
            Some(j) => kept[j] = true,
            None => {
                left.few[left.len] = c;
                left.len += 1;
            }
        }
    }
    let mut placed = Stones { few: [0; FEW_STONES], len: 0, many: None };
    for (j, &d) in new.iter().enumerate() {
        if !kept[j] {
            placed.few[placed.len] = d;
            placed.len += 1;
        }
    }
    (left, placed)
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

    /// The stones a catch-up visits against the cells whose content changed, and the view
    /// after it against a recount, when the last stones are taken back and some of them
    /// placed again (in another order, so sometimes in the other colour) with new ones, as
    /// siblings of a search do.
    #[test]
    fn a_catch_up_skips_only_the_stones_placed_again_as_they_were() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
        for rules in [Rules::CONNECT6, Rules::GOMOKU] {
            let geo = Geometry::of(rules);
            let (mut replayed_same, mut replayed_other) = (0, 0);
            for round in 0..300 {
                let mut board = Board::new(rules);
                let mut view = BoardView::new(&board);
                let (w, h) = (board.width(), board.height());
                let random_cell = |board: &Board, rng: &mut rand_chacha::ChaCha8Rng| loop {
                    let c = board.cell(rng.random_range(w / 2 - 4..w / 2 + 4), rng.random_range(h / 2 - 4..h / 2 + 4));
                    if board.is_empty_cell(c) {
                        return c;
                    }
                };
                for _ in 0..rng.random_range(2..20) {
                    let c = random_cell(&board, &mut rng);
                    board.play(c);
                    if board.winner().is_some() {
                        board.undo();
                    }
                }
                view.sync(&board);
                let before = board.clone();
                let back = rng.random_range(1..=board.stone_count().min(2 * FEW_STONES));
                let mut taken: Vec<Cell> = (0..back).map(|_| board.history()[board.stone_count() - 1]).collect();
                for _ in 0..back {
                    board.undo();
                }
                taken.reverse();
                let same = board.stone_count();
                // Some of the stones again, in a shuffled order, and new ones.
                let mut again: Vec<Cell> = taken.iter().copied().filter(|_| rng.random_bool(0.6)).collect();
                for i in (1..again.len()).rev() {
                    again.swap(i, rng.random_range(0..=i));
                }
                for _ in 0..rng.random_range(0..3) {
                    again.insert(rng.random_range(0..=again.len()), random_cell(&board, &mut rng));
                }
                for &c in &again {
                    if board.is_empty_cell(c) && board.winner().is_none() {
                        board.play(c);
                    }
                }
                let (gone, new) = changed_stones(&geo, before.history(), board.history(), same);
                let mut visited: Vec<Cell> = gone.stones().iter().chain(new.stones()).copied().collect();
                visited.sort_unstable();
                visited.dedup();
                let changed: Vec<Cell> =
                    (0..rules.cells() as Cell).filter(|&c| before.stone(c) != board.stone(c)).collect();
                // Every changed cell is visited, and no other (but with more stones than a
                // short list holds on a side, when every stone is).
                if before.stone_count() - same <= FEW_STONES && board.stone_count() - same <= FEW_STONES {
                    assert_eq!(visited, changed, "{rules:?} round {round}");
                } else {
                    assert!(changed.iter().all(|c| visited.contains(c)), "{rules:?} round {round}");
                }
                for &c in &before.history()[same..] {
                    if board.history()[same..].contains(&c) {
                        if before.stone(c) == board.stone(c) {
                            replayed_same += 1;
                        } else {
                            replayed_other += 1;
                        }
                    }
                }
                view.sync(&board);
                for c in 0..rules.cells() as Cell {
                    assert_eq!(view.classes(c), recount(&board, c), "{rules:?} round {round} cell {c}");
                    assert_eq!(view.is_near_stone(c), board.has_stone_near(c), "{rules:?} round {round} cell {c}");
                }
            }
            // Both kinds of stones placed again were met.
            assert!(replayed_same > 50 && replayed_other > 50, "{rules:?} {replayed_same} {replayed_other}");
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
