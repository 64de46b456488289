//! The Connect(m,n,k,p,q) board: stones, make/unmake of single stones, a Zobrist hash, and the
//! stone counts of every road kept incrementally ("local scanning", Li Xuejun 2015).
//!
//! A *road* is any k consecutive cells on a line (924 on the 19x19 Connect6 board). For each
//! road the board keeps how many stones of each colour it holds, and for each colour a
//! histogram `live[c][n]`: how many roads hold exactly n stones of c and none of the other
//! colour. Road evaluation is then a dot product of that histogram with the weights, so the
//! board stays independent of any weight table.
//!
//! ```
//! use evotune::games::connect::{Board, Rules, Colour};
//! let mut b = Board::new(Rules::CONNECT6);
//! b.play(b.cell(9, 9)); // Black's single first stone at the centre (j10)
//! assert_eq!(b.to_move(), Colour::White);
//! assert_eq!(b.stones_left_in_turn(), 2);
//! b.undo();
//! assert!(b.is_empty());
//! ```

use std::sync::Arc;

pub use super::geometry::{Cell, Geometry, LineThrough, Rules, DIRECTIONS, MAX_K, MAX_P};

/// A stone colour. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    Black = 0,
    White = 1,
}

impl Colour {
    pub const BOTH: [Colour; 2] = [Colour::Black, Colour::White];

    #[inline]
    pub fn other(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Colour::Black => "black",
            Colour::White => "white",
        }
    }
}

/// A position: the stones on the board plus everything derived from them incrementally.
#[derive(Clone, Debug)]
pub struct Board {
    geo: Arc<Geometry>,
    /// 0 empty, 1 black, 2 white.
    cells: Vec<u8>,
    /// Stones of each colour in each road, packed as [`step_index`] packs them (the index
    /// of the road's next step).
    counts: Vec<u8>,
    /// The live-road histogram of both colours: `live[c * (MAX_K + 1) + n]` is the number of
    /// roads with exactly n stones of c and none of the other colour. A stone changes at most
    /// one entry down and one up for each road through it; a change that has no entry goes
    /// to [`LIVE_SINK`], which is never read, so that the update needs no branch. A slot is
    /// named by a byte, and the array has a slot for every byte, so that indexing it needs
    /// neither a bounds check nor a mask (only the first [`LIVE_USED`] are ever changed).
    live: [i32; LIVE_SLOTS],
    /// Bit sets of roads by colour and role, word `r / 64` of set `c * ROLES + role` at
    /// `sets[r / 64][c * ROLES + role]` (a road's sets side by side): role 0 the threat
    /// roads of c (>= k - p own stones, no enemy stone), role `need` (1 or 2) the roads
    /// `need` stones short of one (k - p - need stones of c, none of the other, at least
    /// one): where the threat-space search looks for its attacks.
    sets: Vec<[u64; 8]>,
    /// The threat roads of both colours in one number, black's plus 65,536 times white's
    /// (each count is at most the road count, below 65,536): a stone's change to both is one
    /// addition (see [`RoadStep::threat_change`]).
    threat_total: i32,

    hash: u64,
    history: Vec<Cell>,
}

impl Board {
    pub fn new(rules: Rules) -> Board {
        let geo = Geometry::of(rules);
        let roads = geo.road_count();
        let words = roads.div_ceil(64);
        Board {
            cells: vec![0; rules.cells()],
            counts: vec![0; roads],
            live: [0; LIVE_SLOTS],
            sets: vec![[0; 8]; words],
            threat_total: 0,
            hash: 0,
            history: Vec::with_capacity(rules.cells()),
            geo,
        }
    }

    #[inline]
    pub fn rules(&self) -> Rules {
        self.geo.rules
    }

    #[inline]
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    pub fn width(&self) -> usize {
        self.geo.rules.width as usize
    }

    pub fn height(&self) -> usize {
        self.geo.rules.height as usize
    }

    /// The cell at column x (from the left) and row y (from the bottom).
    #[inline]
    pub fn cell(&self, x: usize, y: usize) -> Cell {
        debug_assert!(x < self.width() && y < self.height());
        (x + y * self.width()) as Cell
    }

    #[inline]
    pub fn xy(&self, c: Cell) -> (usize, usize) {
        (c as usize % self.width(), c as usize / self.width())
    }

    #[inline]
    pub fn stone(&self, c: Cell) -> Option<Colour> {
        match self.cells[c as usize] {
            1 => Some(Colour::Black),
            2 => Some(Colour::White),
            _ => None,
        }
    }

    #[inline]
    pub fn is_empty_cell(&self, c: Cell) -> bool {
        self.cells[c as usize] == 0
    }

    pub fn is_empty(&self) -> bool {
        self.history.is_empty()
    }

    /// Stones placed so far, in order.
    pub fn history(&self) -> &[Cell] {
        &self.history
    }

    pub fn stone_count(&self) -> usize {
        self.history.len()
    }

    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Whose stone goes down next. Derived from the stone count: q stones for Black, then p
    /// stones a turn, White first.
    #[inline]
    pub fn to_move(&self) -> Colour {
        self.geo.turns[self.history.len()].0
    }

    /// The colour of the n-th stone (0-based) of a game under these rules.
    #[inline]
    pub fn colour_of_stone(rules: Rules, n: usize) -> Colour {
        let (p, q) = (rules.p as usize, rules.q as usize);
        if n < q {
            Colour::Black
        } else if ((n - q) / p).is_multiple_of(2) {
            Colour::White
        } else {
            Colour::Black
        }
    }

    /// Stones the side to move still places in this turn (1..=p, or q on the first turn).
    #[inline]
    pub fn stones_left_in_turn(&self) -> usize {
        self.geo.turns[self.history.len()].1 as usize
    }

    /// [`stones_left_in_turn`](Self::stones_left_in_turn) with n stones on the board,
    /// computed (the geometry keeps it in a table by n).
    pub(super) fn stones_left_after(rules: Rules, n: usize) -> usize {
        let (p, q) = (rules.p as usize, rules.q as usize);
        if n < q {
            q - n
        } else {
            p - (n - q) % p
        }
    }

    /// Stones in a full turn starting now (q on the first turn, p after).
    #[inline]
    pub fn turn_size(&self) -> usize {
        if self.history.len() < self.geo.rules.q as usize {
            self.geo.rules.q as usize
        } else {
            self.geo.rules.p as usize
        }
    }

    /// The colour with k in a row, if any.
    #[inline]
    pub fn winner(&self) -> Option<Colour> {
        let k = self.geo.rules.k as usize;
        Colour::BOTH.into_iter().find(|c| self.live[c.index() * (MAX_K + 1) + k] > 0)
    }

    /// True when the game is over: a line of k, or a full board.
    pub fn is_over(&self) -> bool {
        self.winner().is_some() || self.is_full()
    }

    pub fn is_full(&self) -> bool {
        self.history.len() == self.cells.len()
    }

    /// `live[c][n]` for n in 0..=k: roads holding exactly n stones of c and no enemy stone.
    #[inline]
    pub fn live_roads(&self, c: Colour) -> &[i32; MAX_K + 1] {
        let at = c.index() * (MAX_K + 1);
        self.live[at..at + MAX_K + 1].try_into().expect("a colour's histogram has MAX_K + 1 slots")
    }

    /// Stones of each colour in road r, indexed by colour.
    #[inline]
    pub fn road_counts(&self, r: usize) -> [u8; 2] {
        let n = self.counts[r];
        [n & 15, n >> 4]
    }

    /// The stones of each colour in road r packed in a byte, black in the low 4 bits: one
    /// number for tables by road counts.
    #[inline]
    pub fn road_state(&self, r: usize) -> u8 {
        self.counts[r]
    }

    /// Every road's [`road_state`](Self::road_state), by road: for scans over many roads.
    #[inline]
    pub fn road_states(&self) -> &[u8] {
        &self.counts
    }

    /// Number of threat roads of c: roads c completes within one turn of p stones.
    #[inline]
    pub fn threat_count(&self, c: Colour) -> u32 {
        let t = self.threat_total as u32;
        match c {
            Colour::Black => t & 0xFFFF,
            Colour::White => t >> 16,
        }
    }

    /// The threat roads of c, in increasing index order.
    pub fn threat_roads(&self, c: Colour) -> impl Iterator<Item = usize> + '_ {
        set_bits_of(self.sets.iter().map(move |w| w[c.index() * ROLES]))
    }

    /// The roads `need` (1 or 2) stones of c short of a threat road: k - p - need stones of c
    /// (at least one), none of the other; in increasing index order.
    pub fn near_threat_roads(&self, c: Colour, need: usize) -> impl Iterator<Item = usize> + '_ {
        debug_assert!((1..=2).contains(&need));
        set_bits_of(self.sets.iter().map(move |w| w[c.index() * ROLES + need]))
    }

    /// Whether a cell has a stone within distance 2 (the search's candidate area), counted
    /// now: the move generator keeps these counts incrementally for itself.
    pub fn has_stone_near(&self, c: Cell) -> bool {
        self.geo.near_cells[c as usize].iter().any(|&n| !self.is_empty_cell(n))
    }

    /// Places the next stone for the side to move. The cell must be empty and the game not
    /// over; `try_play` checks that for untrusted input.
    #[inline]
    pub fn play(&mut self, c: Cell) {
        debug_assert!(self.is_empty_cell(c) && self.winner().is_none());
        let colour = self.to_move();
        self.put(c, colour);
        self.history.push(c);
    }

    /// Places a stone after checking that the cell exists and is empty and the game is on.
    pub fn try_play(&mut self, c: Cell) -> Result<(), IllegalMove> {
        if c as usize >= self.cells.len() {
            return Err(IllegalMove::OffBoard);
        }
        if self.winner().is_some() {
            return Err(IllegalMove::GameOver);
        }
        if !self.is_empty_cell(c) {
            return Err(IllegalMove::Occupied);
        }
        self.play(c);
        Ok(())
    }

    /// Takes back the last stone.
    #[inline]
    pub fn undo(&mut self) {
        let c = self.history.pop().expect("undo on an empty board");
        let colour = self.stone(c).expect("history names an occupied cell");
        self.take(c, colour);
    }

    /// Replaces the last turn's two stones by the pair (a, b), placed in that order, when the
    /// two pairs share a stone: the shared stone stays, the other is taken back and the new
    /// one placed, which leaves the board as taking both back and placing a and b would
    /// (every count, set, histogram slot and the hash are functions of where the stones are,
    /// not of the order they came in; the history is written in the new order). Returns
    /// false, changing nothing, when the last two stones are not one turn's or the pairs
    /// share no stone. Siblings of a search often share a stone (pairs are in cell order,
    /// and a first stone is paired with several seconds), so this halves their road updates.
    /// (a, b) must be a pair the position before the last turn may play.
    #[inline]
    pub fn replace_pair(&mut self, a: Cell, b: Cell) -> bool {
        let n = self.history.len();
        if n < 2 || self.geo.turns[n - 2].1 != 2 {
            return false;
        }
        let (x, y) = (self.history[n - 2], self.history[n - 1]);
        let (gone, new) = if x == a {
            (y, b)
        } else if y == b {
            (x, a)
        } else if x == b {
            (y, a)
        } else if y == a {
            (x, b)
        } else {
            return false;
        };
        let colour = self.geo.turns[n - 2].0;
        self.take(gone, colour);
        debug_assert!(self.is_empty_cell(new));
        self.put(new, colour);
        self.history[n - 2] = a;
        self.history[n - 1] = b;
        true
    }

    /// Places a stone: for each road through it, one step of the table
    /// [`Geometry::road_steps`] by the road's counts before (a histogram entry down, one up,
    /// and the sets the road joins or leaves), with no branch but for the sets, which change
    /// at a few counts only.
    #[inline]
    fn put(&mut self, c: Cell, colour: Colour) {
        let me = colour.index();
        self.cells[c as usize] = me as u8 + 1;
        self.hash ^= self.geo.zobrist[me][c as usize];
        let geo = &*self.geo;
        let steps = &geo.road_steps[me];
        let one = STONE[me];
        for &r in geo.roads_through(c) {
            let r = r as usize;
            let n = count_mut(&mut self.counts, r);
            let step = steps[*n as usize];
            *n += one;
            self.live[step.down()] -= 1;
            self.live[step.up()] += 1;
            if step.flips() != 0 {
                flip_sets(&mut self.sets, r, step.flips());
                self.threat_total += step.threat_change();
            }
        }
    }

    /// Takes a stone back: the step [`put`](Self::put) took from the counts after, undone.
    #[inline]
    fn take(&mut self, c: Cell, colour: Colour) {
        let me = colour.index();
        self.cells[c as usize] = 0;
        self.hash ^= self.geo.zobrist[me][c as usize];
        let geo = &*self.geo;
        let steps = &geo.road_steps[me];
        let one = STONE[me];
        for &r in geo.roads_through(c) {
            let r = r as usize;
            let n = count_mut(&mut self.counts, r);
            *n -= one;
            let step = steps[*n as usize];
            self.live[step.up()] -= 1;
            self.live[step.down()] += 1;
            if step.flips() != 0 {
                flip_sets(&mut self.sets, r, step.flips());
                self.threat_total -= step.threat_change();
            }
        }
    }

    /// Recomputes the live-road histogram from scratch by scanning all roads: the "global
    /// scanning" of Li Xuejun 2015, kept for the local-vs-global experiment and as a test
    /// oracle for the incremental counts.
    pub fn live_roads_global(&self) -> [[i32; MAX_K + 1]; 2] {
        let mut live = [[0; MAX_K + 1]; 2];
        for r in 0..self.geo.road_count() {
            let mut n = [0usize; 2];
            for &c in self.geo.road(r) {
                match self.cells[c as usize] {
                    1 => n[0] += 1,
                    2 => n[1] += 1,
                    _ => {}
                }
            }
            for me in 0..2 {
                if n[me] > 0 && n[1 - me] == 0 {
                    live[me][n[me]] += 1;
                }
            }
        }
        live
    }

    /// The empty cells of road r.
    pub fn empty_cells_of_road(&self, r: usize) -> impl Iterator<Item = Cell> + '_ {
        self.geo.road(r).iter().copied().filter(|&c| self.is_empty_cell(c))
    }

    /// A text diagram, top row first, for debugging and `print`.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for y in (0..self.height()).rev() {
            s.push_str(&format!("{:>2} ", y + 1));
            for x in 0..self.width() {
                s.push(match self.stone(self.cell(x, y)) {
                    Some(Colour::Black) => 'X',
                    Some(Colour::White) => 'O',
                    None => '.',
                });
                s.push(' ');
            }
            s.push('\n');
        }
        s.push_str("   ");
        for x in 0..self.width() {
            s.push((b'a' + x as u8) as char);
            s.push(' ');
        }
        s.push('\n');
        s
    }
}

/// The indices of the set bits of a bit set, in increasing order.
pub(crate) fn set_bits(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    set_bits_of(words.iter().copied())
}

/// The indices of the set bits of a bit set given word by word, in increasing order.
fn set_bits_of(words: impl Iterator<Item = u64>) -> impl Iterator<Item = usize> {
    words.enumerate().flat_map(|(wi, word)| {
        let mut w = word;
        std::iter::from_fn(move || {
            if w == 0 {
                None
            } else {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(wi * 64 + b)
            }
        })
    })
}

/// Slots of [`Board`]'s live-road histogram: one for every byte (see `Board::live`).
const LIVE_SLOTS: usize = 256;
/// The slots in use: MAX_K + 1 per colour, then the sink.
const LIVE_USED: usize = 2 * (MAX_K + 1) + 1;
/// The histogram slot that takes the changes no count stands for (never read).
pub(super) const LIVE_SINK: usize = 2 * (MAX_K + 1);
/// Sets of roads per colour: its threat roads and the roads one and two stones short.
pub(super) const ROLES: usize = 3;

/// The index into a [`RoadStep`] table of a road holding these stones (by colour): the
/// board's packed counts (k is at most 8, so each count fits in 4 bits).
#[inline(always)]
pub(super) fn step_index([black, white]: [u8; 2]) -> usize {
    (black | white << 4) as usize
}

/// The packed change of the threat counts (see `Board::threat_total`) by a [`RoadStep`]'s
/// last byte, which holds each colour's change plus one in 2 bits (black low): a table by
/// the byte, so that its lookup needs no bounds check.
static THREAT_CHANGE: [i32; 256] = {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = ((i & 3) as i32 - 1) + ((i >> 2 & 3) as i32 - 1) * 65536;
        i += 1;
    }
    t
};

/// A stone of each colour in the packed counts of a road.
const STONE: [u8; 2] = [1, 16];

/// What a stone does to one road, by the road's counts before it (see
/// [`Geometry::road_steps`]): the histogram slot that loses the road, the one that gains it
/// (either may be [`LIVE_SINK`]), and the road sets it joins or leaves (bit `c * ROLES +
/// role`, see `Board::sets`). Taking the stone back undoes it: the same step with the slots'
/// roles swapped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoadStep([u8; 4]);

impl RoadStep {
    /// `threats`: how the stone changes each colour's count of threat roads (-1, 0 or 1).
    pub(super) fn new(down: usize, up: usize, flips: u8, threats: [i32; 2]) -> RoadStep {
        debug_assert!(down < LIVE_USED && up < LIVE_USED);
        let threats = threats.map(|t| (t + 1) as u8);
        RoadStep([down as u8, up as u8, flips, threats[0] | threats[1] << 2])
    }

    /// A byte: the histogram has a slot for each, so indexing it needs no bounds check.
    #[inline(always)]
    fn down(self) -> usize {
        self.0[0] as usize
    }

    #[inline(always)]
    fn up(self) -> usize {
        self.0[1] as usize
    }

    #[inline(always)]
    fn flips(self) -> u8 {
        self.0[2]
    }

    /// The change of both colours' threat roads, packed as `Board::threat_total` packs
    /// them (meaningful only when [`flips`](Self::flips) is not 0).
    #[inline(always)]
    fn threat_change(self) -> i32 {
        THREAT_CHANGE[self.0[3] as usize]
    }
}

/// The packed counts of road r (`Board::counts`), which `put` and `take` reach once per road
/// through a stone: r comes from the geometry's roads through a cell, all below its road
/// count, which is the length of `counts` (set in [`Board::new`] and never changed), so the
/// bounds check of the indexing is left out.
#[inline(always)]
fn count_mut(counts: &mut [u8], r: usize) -> &mut u8 {
    debug_assert!(r < counts.len());
    // SAFETY: r < road_count == counts.len() (see above).
    unsafe { counts.get_unchecked_mut(r) }
}

/// Flips road r in the sets of `flips` (bit `c * ROLES + role`, see `Board::sets`).
#[inline(always)]
fn flip_sets(sets: &mut [[u64; 8]], r: usize, flips: u8) {
    debug_assert!(r / 64 < sets.len());
    // SAFETY: r < road_count (a road through a cell), and `sets` holds
    // road_count.div_ceil(64) words from Board::new on, so r / 64 is in range.
    let words = unsafe { sets.get_unchecked_mut(r / 64) };
    let bit = 1u64 << (r % 64);
    let mut f = flips;
    while f != 0 {
        words[f.trailing_zeros() as usize % 8] ^= bit;
        f &= f - 1;
    }
}

/// Why a stone cannot be placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("cell is off the board")]
    OffBoard,
    #[error("cell is occupied")]
    Occupied,
    #[error("the game is already over")]
    GameOver,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connect6_has_924_roads() {
        let g = Geometry::of(Rules::CONNECT6);
        assert_eq!(g.road_count(), 266 + 266 + 196 + 196);
        // A centre cell lies on 6 roads per direction; a corner on 3 (one per direction but
        // the anti-diagonal, which is too short).
        let b = Board::new(Rules::CONNECT6);
        assert_eq!(g.roads_through(b.cell(9, 9)).len(), 24);
        assert_eq!(g.roads_through(b.cell(0, 0)).len(), 3);
        assert_eq!(Geometry::of(Rules::GOMOKU).road_count(), 4 * 11 * 15 / 2 + 2 * 11 * 11);
        for c in 0..361 {
            assert!(g.roads_through(c).windows(2).all(|w| w[0] < w[1]), "roads through {c} are sorted");
        }
    }

    #[test]
    fn turn_structure() {
        let mut b = Board::new(Rules::CONNECT6);
        let expect = [
            (Colour::Black, 1),
            (Colour::White, 2),
            (Colour::White, 1),
            (Colour::Black, 2),
            (Colour::Black, 1),
            (Colour::White, 2),
        ];
        for (i, &(c, left)) in expect.iter().enumerate() {
            assert_eq!((b.to_move(), b.stones_left_in_turn()), (c, left), "stone {i}");
            b.play(i as Cell * 3);
        }
        let mut g = Board::new(Rules::GOMOKU);
        for i in 0..6 {
            assert_eq!(g.to_move(), if i % 2 == 0 { Colour::Black } else { Colour::White });
            assert_eq!(g.stones_left_in_turn(), 1);
            g.play(i * 7);
        }
    }

    /// Every part of two boards, the history included.
    fn assert_same(a: &Board, b: &Board, what: &str) {
        assert_eq!(a.cells, b.cells, "{what}: cells");
        assert_eq!(a.counts, b.counts, "{what}: road counts");
        assert_eq!(a.live, b.live, "{what}: live-road histogram");
        assert_eq!(a.sets, b.sets, "{what}: road sets");
        assert_eq!(a.threat_total, b.threat_total, "{what}: threat counts");
        assert_eq!(a.hash, b.hash, "{what}: hash");
        assert_eq!(a.history, b.history, "{what}: history");
    }

    /// `replace_move` (through `replace_pair` when the pairs share a stone) against taking
    /// the last move back and playing the next stone by stone, on random crowded positions
    /// (stones near the centre, so that lines and wins come up), every pair of the next turn
    /// that shares a stone with the last one, and a few that share none.
    #[test]
    fn replacing_a_pair_leaves_the_board_playing_it_would() {
        use crate::games::connect::game::{make_move, replace_move, unmake_move};
        use crate::games::connect::movegen::Move;
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(32);
        let (mut shared, mut wins, mut disjoint) = (0, 0, 0);
        for _ in 0..200 {
            let mut b = Board::new(Rules::CONNECT6);
            let stones = 1 + 2 * rng.random_range(0..20);
            while b.stone_count() < stones && b.winner().is_none() {
                let c = b.cell(rng.random_range(5..14), rng.random_range(5..14));
                if b.is_empty_cell(c) {
                    b.play(c);
                }
            }
            if b.winner().is_some() || b.stones_left_in_turn() != 2 {
                continue;
            }
            let near: Vec<Cell> = (0..361).filter(|&c| b.is_empty_cell(c) && b.has_stone_near(c)).collect();
            let x = near[rng.random_range(0..near.len())];
            let y = near[rng.random_range(0..near.len())];
            if x == y {
                continue;
            }
            let last = Move::pair(x.min(y), x.max(y));
            for &keep in &[x, y] {
                for &c in &near {
                    if c == keep {
                        continue;
                    }
                    let next = Move::pair(keep.min(c), keep.max(c));
                    let mut fast = b.clone();
                    let placed = make_move(&mut fast, last);
                    let placed = replace_move(&mut fast, placed, next);
                    let mut slow = b.clone();
                    let want = make_move(&mut slow, next);
                    assert_eq!(placed, want, "{last:?} -> {next:?}");
                    assert_same(&fast, &slow, &format!("{last:?} -> {next:?}"));
                    unmake_move(&mut fast, placed);
                    assert_same(&fast, &b, &format!("{last:?} -> {next:?} taken back"));
                    shared += 1;
                    wins += usize::from(slow.winner().is_some());
                }
            }
            // Pairs sharing no stone: replace_pair declines and changes nothing.
            let (c, d) = (near[0], near[near.len() - 1]);
            if ![x, y].contains(&c) && ![x, y].contains(&d) && c != d {
                let mut fast = b.clone();
                make_move(&mut fast, last);
                let before = fast.clone();
                assert!(!fast.replace_pair(c, d));
                assert_same(&fast, &before, "no stone shared");
                disjoint += 1;
            }
        }
        assert!(shared > 1000 && wins > 10 && disjoint > 10, "shared {shared}, wins {wins}, disjoint {disjoint}");
    }

    #[test]
    fn undo_restores_everything() {
        let mut b = Board::new(Rules::CONNECT6);
        let empty = b.clone();
        let cells: Vec<Cell> = (0..80).map(|i| ((i * 37 + 11) % 361) as Cell).collect();
        let mut seen = std::collections::HashSet::new();
        for &c in &cells {
            if seen.insert(c) && b.winner().is_none() {
                b.play(c);
                let global = b.live_roads_global();
                for colour in Colour::BOTH {
                    assert_eq!(b.live_roads(colour), &global[colour.index()]);
                    let threats = (0..b.geometry().road_count())
                        .filter(|&r| {
                            let n = b.road_counts(r);
                            n[colour.other().index()] == 0 && n[colour.index()] as usize >= b.rules().threat_level()
                        })
                        .count();
                    assert_eq!(b.threat_count(colour) as usize, threats);
                    assert_eq!(b.threat_roads(colour).count(), threats);
                }
                for colour in Colour::BOTH {
                    for need in 1..=2 {
                        let want: Vec<usize> = (0..b.geometry().road_count())
                            .filter(|&r| {
                                let n = b.road_counts(r);
                                let (mine, theirs) = (n[colour.index()] as usize, n[colour.other().index()] as usize);
                                theirs == 0 && mine >= 1 && mine + need == b.rules().threat_level()
                            })
                            .collect();
                        let have: Vec<usize> = b.near_threat_roads(colour, need).collect();
                        assert_eq!(have, want, "{colour:?} need {need} after {} stones", b.stone_count());
                    }
                }
            }
        }
        while !b.is_empty() {
            b.undo();
        }
        assert_eq!(b.cells, empty.cells);
        assert_eq!(b.counts, empty.counts);
        assert_eq!(b.live, empty.live);
        assert_eq!(b.sets, empty.sets);
        assert_eq!(b.threat_total, empty.threat_total);
        assert_eq!(b.hash, 0);
    }
}
