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

use std::sync::{Arc, OnceLock};

/// The largest k supported (roads are at most this long).
pub const MAX_K: usize = 8;

/// The most stones a turn may place (p). Threat roads have at most this many empty cells.
pub const MAX_P: usize = 2;

/// A cell index, `x + y * width`.
pub type Cell = u16;

/// The roads through one cell in one direction, in order along the line: road j holds the
/// line's cells j .. j + k, so together they cover `roads + k - 1` cells from `first`,
/// `step` apart.
#[derive(Clone, Copy, Debug, Default)]
pub struct LineThrough {
    first: Cell,
    step: i16,
    len: u8,
    roads: [u16; MAX_K],
}

impl LineThrough {
    /// The roads, in order along the line.
    #[inline]
    pub fn roads(&self) -> &[u16] {
        &self.roads[..self.len as usize]
    }

    /// Where cell c of the line is among its cells (c must be one of them).
    #[inline]
    pub fn offset_of(&self, c: Cell) -> usize {
        ((c as isize - self.first as isize) / self.step as isize) as usize
    }

    /// The cells the roads cover, in order along the line: cell i is in roads
    /// `i - k + 1 ..= i` (those that exist).
    #[inline]
    pub fn cells(&self, k: usize) -> impl Iterator<Item = Cell> {
        let (first, step) = (self.first as isize, self.step as isize);
        (0..self.len as usize + k - 1).map(move |i| (first + i as isize * step) as Cell)
    }
}

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

/// The family Connect(m,n,k,p,q) of Wu I-Chen: an m x n board (`width` x `height`), k in a row
/// wins, p stones per turn, q stones on Black's first turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub width: u8,
    pub height: u8,
    pub k: u8,
    pub p: u8,
    pub q: u8,
}

impl Rules {
    /// Connect6: Connect(19,19,6,2,1).
    pub const CONNECT6: Rules = Rules { width: 19, height: 19, k: 6, p: 2, q: 1 };
    /// Freestyle Gomoku: Connect(15,15,5,1,1), overlines win.
    pub const GOMOKU: Rules = Rules { width: 15, height: 15, k: 5, p: 1, q: 1 };

    /// The word for a line of k stones, as records give it as the end of a game (`five`,
    /// `six`).
    pub fn line_word(&self) -> &'static str {
        ["two", "three", "four", "five", "six", "seven", "eight"][(self.k as usize).clamp(2, MAX_K) - 2]
    }

    pub fn cells(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Stones a road must hold for its owner to complete it within one turn.
    pub fn threat_level(&self) -> usize {
        (self.k - self.p) as usize
    }
}

/// Tables that depend only on the rules, shared by every board of those rules.
#[derive(Debug)]
pub struct Geometry {
    pub rules: Rules,
    /// Road r holds cells `road_cells[r*k .. r*k+k]`.
    pub road_cells: Vec<Cell>,
    /// Roads through cell c: `cell_roads[cell_road_start[c] .. cell_road_start[c+1]]`.
    pub cell_roads: Vec<u16>,
    pub cell_road_start: Vec<u32>,
    /// Cells within Chebyshev distance 2 of each cell (itself excluded).
    pub near_cells: Vec<Vec<Cell>>,
    zobrist: [Vec<u64>; 2],
    /// The roads through each cell, by direction.
    lines: Vec<[LineThrough; 4]>,
    /// For each stone count n of a live road, bit `need - 1` is set when n is `need` (1 or 2)
    /// stones short of a threat road (and n >= 1): the near-threat sets it belongs in.
    near_roles: [u8; MAX_K + 1],
}

/// The four line directions: horizontal, vertical, diagonal, anti-diagonal.
pub const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

impl Geometry {
    fn build(rules: Rules) -> Geometry {
        let (w, h, k) = (rules.width as i32, rules.height as i32, rules.k as i32);
        assert!((2..=MAX_K as i32).contains(&k) && k <= w.max(h), "unsupported k");
        assert!((1..=MAX_P as u8).contains(&rules.p) && (1..=rules.p).contains(&rules.q), "unsupported p or q");
        assert!(w * h <= u16::MAX as i32, "board too large");
        let mut road_cells = Vec::new();
        // The road starting at a cell, by direction.
        let mut road_at = vec![[None::<u16>; 4]; (w * h) as usize];
        for (dir, (dx, dy)) in DIRECTIONS.into_iter().enumerate() {
            for y in 0..h {
                for x in 0..w {
                    let (ex, ey) = (x + dx * (k - 1), y + dy * (k - 1));
                    if ex < 0 || ex >= w || ey < 0 || ey >= h {
                        continue;
                    }
                    road_at[(x + y * w) as usize][dir] = Some((road_cells.len() / k as usize) as u16);
                    for i in 0..k {
                        road_cells.push(((x + dx * i) + (y + dy * i) * w) as Cell);
                    }
                }
            }
        }
        let n_roads = road_cells.len() / k as usize;
        let mut per_cell: Vec<Vec<u16>> = vec![Vec::new(); (w * h) as usize];
        for r in 0..n_roads {
            for &c in &road_cells[r * k as usize..(r + 1) * k as usize] {
                per_cell[c as usize].push(r as u16);
            }
        }
        let mut cell_roads = Vec::new();
        let mut cell_road_start = vec![0u32];
        for roads in &per_cell {
            cell_roads.extend_from_slice(roads);
            cell_road_start.push(cell_roads.len() as u32);
        }
        let near_cells = (0..w * h)
            .map(|c| {
                let (x, y) = (c % w, c / w);
                let mut v = Vec::new();
                for dy in -2..=2 {
                    for dx in -2..=2 {
                        let (nx, ny) = (x + dx, y + dy);
                        if (dx, dy) != (0, 0) && nx >= 0 && nx < w && ny >= 0 && ny < h {
                            v.push((nx + ny * w) as Cell);
                        }
                    }
                }
                v
            })
            .collect();
        // SplitMix64 from a fixed seed: the hash is the same in every run and on every machine.
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15 ^ ((w as u64) << 32 | (h as u64) << 16 | k as u64);
        let mut next = || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let zobrist = [(0..w * h).map(|_| next()).collect(), (0..w * h).map(|_| next()).collect()];
        let lines = (0..w * h)
            .map(|c| {
                let (x, y) = (c % w, c / w);
                DIRECTIONS.map(|(dx, dy)| {
                    let dir = DIRECTIONS.iter().position(|&d| d == (dx, dy)).expect("a direction");
                    let mut line = LineThrough { step: (dx + dy * w) as i16, ..LineThrough::default() };
                    // Roads starting furthest back along the line first.
                    for back in (0..k).rev() {
                        let (sx, sy) = (x - back * dx, y - back * dy);
                        if sx < 0 || sx >= w || sy < 0 || sy >= h {
                            continue;
                        }
                        if let Some(r) = road_at[(sx + sy * w) as usize][dir] {
                            if line.len == 0 {
                                line.first = (sx + sy * w) as Cell;
                            }
                            line.roads[line.len as usize] = r;
                            line.len += 1;
                        }
                    }
                    line
                })
            })
            .collect();
        let level = rules.threat_level();
        let near_roles = std::array::from_fn(|n| {
            (1..=2).filter(|&need| n >= 1 && n + need == level).map(|need| 1u8 << (need - 1)).sum()
        });
        Geometry { rules, road_cells, cell_roads, cell_road_start, near_cells, zobrist, lines, near_roles }
    }

    /// The shared geometry of a rule set (built once per process for each rule set).
    pub fn of(rules: Rules) -> Arc<Geometry> {
        static C6: OnceLock<Arc<Geometry>> = OnceLock::new();
        static GO: OnceLock<Arc<Geometry>> = OnceLock::new();
        match rules {
            Rules::CONNECT6 => C6.get_or_init(|| Arc::new(Geometry::build(rules))).clone(),
            Rules::GOMOKU => GO.get_or_init(|| Arc::new(Geometry::build(rules))).clone(),
            other => Arc::new(Geometry::build(other)),
        }
    }

    pub fn road_count(&self) -> usize {
        self.road_cells.len() / self.rules.k as usize
    }

    #[inline]
    pub fn road(&self, r: usize) -> &[Cell] {
        let k = self.rules.k as usize;
        &self.road_cells[r * k..(r + 1) * k]
    }

    /// The roads through cell c in each of the four directions.
    #[inline]
    pub fn lines_through(&self, c: Cell) -> &[LineThrough; 4] {
        &self.lines[c as usize]
    }

    /// The roads through cell c, in increasing road order (move generation merges these
    /// lists).
    #[inline]
    pub fn roads_through(&self, c: Cell) -> &[u16] {
        let c = c as usize;
        &self.cell_roads[self.cell_road_start[c] as usize..self.cell_road_start[c + 1] as usize]
    }
}

/// A position: the stones on the board plus everything derived from them incrementally.
#[derive(Clone, Debug)]
pub struct Board {
    geo: Arc<Geometry>,
    /// 0 empty, 1 black, 2 white.
    cells: Vec<u8>,
    /// Stones of each colour in each road.
    counts: Vec<[u8; 2]>,
    /// `live[c][n]`: roads with exactly n stones of c and none of the other colour.
    live: [[i32; MAX_K + 1]; 2],
    /// Per colour, a bit set of its threat roads (>= k - p own stones, no enemy stone).
    threats: [Vec<u64>; 2],
    threat_total: [u32; 2],
    /// Per colour, bit sets of the roads one or two stones short of a threat road
    /// (`near_threats[c][need - 1]`: k - p - need stones of c, none of the other, at least
    /// one): where the threat-space search looks for its attacks.
    near_threats: [[Vec<u64>; 2]; 2],

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
            counts: vec![[0, 0]; roads],
            live: [[0; MAX_K + 1]; 2],
            threats: [vec![0; words], vec![0; words]],
            threat_total: [0, 0],
            near_threats: std::array::from_fn(|_| std::array::from_fn(|_| vec![0; words])),
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
        Self::colour_of_stone(self.geo.rules, self.history.len())
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
        let (p, q) = (self.geo.rules.p as usize, self.geo.rules.q as usize);
        let n = self.history.len();
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
        Colour::BOTH.into_iter().find(|c| self.live[c.index()][k] > 0)
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
        &self.live[c.index()]
    }

    /// Stones of each colour in road r, indexed by colour.
    #[inline]
    pub fn road_counts(&self, r: usize) -> [u8; 2] {
        self.counts[r]
    }

    /// Number of threat roads of c: roads c completes within one turn of p stones.
    #[inline]
    pub fn threat_count(&self, c: Colour) -> u32 {
        self.threat_total[c.index()]
    }

    /// The threat roads of c, in increasing index order.
    pub fn threat_roads(&self, c: Colour) -> impl Iterator<Item = usize> + '_ {
        set_bits(&self.threats[c.index()])
    }

    /// The roads `need` (1 or 2) stones of c short of a threat road: k - p - need stones of c
    /// (at least one), none of the other; in increasing index order.
    pub fn near_threat_roads(&self, c: Colour, need: usize) -> impl Iterator<Item = usize> + '_ {
        debug_assert!((1..=2).contains(&need));
        set_bits(&self.near_threats[c.index()][need - 1])
    }

    /// Moves road r between the near-threat sets of a colour as its stone count goes from
    /// `from` to `to` (no enemy stone in it, or none any more). The sets change only when a
    /// road reaches or leaves a near-threat count, which a table lookup tells without a branch
    /// per set.
    #[inline(always)]
    fn move_near_threat(sets: &mut [Vec<u64>; 2], near: &[u8; MAX_K + 1], r: usize, from: usize, to: usize) {
        let changed = near[from] ^ near[to];
        if changed != 0 {
            let bit = 1u64 << (r % 64);
            for (need, set) in sets.iter_mut().enumerate() {
                if changed & (1 << need) != 0 {
                    set[r / 64] ^= bit;
                }
            }
        }
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

    fn put(&mut self, c: Cell, colour: Colour) {
        let me = colour.index();
        let them = 1 - me;
        let level = self.geo.rules.threat_level();
        self.cells[c as usize] = me as u8 + 1;
        self.hash ^= self.geo.zobrist[me][c as usize];
        for &r in self.geo.roads_through(c) {
            let r = r as usize;
            let [mine, theirs] = [self.counts[r][me] as usize, self.counts[r][them] as usize];
            if theirs == 0 {
                if mine > 0 {
                    self.live[me][mine] -= 1;
                }
                self.live[me][mine + 1] += 1;
                if mine + 1 == level {
                    self.threats[me][r / 64] |= 1 << (r % 64);
                    self.threat_total[me] += 1;
                }
                Self::move_near_threat(&mut self.near_threats[me], &self.geo.near_roles, r, mine, mine + 1);
            } else if mine == 0 {
                // The road was the opponent's; it is dead now.
                self.live[them][theirs] -= 1;
                if theirs >= level {
                    self.threats[them][r / 64] &= !(1 << (r % 64));
                    self.threat_total[them] -= 1;
                }
                Self::move_near_threat(&mut self.near_threats[them], &self.geo.near_roles, r, theirs, 0);
            }
            self.counts[r][me] += 1;
        }
    }

    fn take(&mut self, c: Cell, colour: Colour) {
        let me = colour.index();
        let them = 1 - me;
        let level = self.geo.rules.threat_level();
        self.cells[c as usize] = 0;
        self.hash ^= self.geo.zobrist[me][c as usize];
        for &r in self.geo.roads_through(c) {
            let r = r as usize;
            self.counts[r][me] -= 1;
            let [mine, theirs] = [self.counts[r][me] as usize, self.counts[r][them] as usize];
            if theirs == 0 {
                self.live[me][mine + 1] -= 1;
                if mine > 0 {
                    self.live[me][mine] += 1;
                }
                if mine + 1 == level {
                    self.threats[me][r / 64] &= !(1 << (r % 64));
                    self.threat_total[me] -= 1;
                }
                Self::move_near_threat(&mut self.near_threats[me], &self.geo.near_roles, r, mine + 1, mine);
            } else if mine == 0 {
                self.live[them][theirs] += 1;
                if theirs >= level {
                    self.threats[them][r / 64] |= 1 << (r % 64);
                    self.threat_total[them] += 1;
                }
                Self::move_near_threat(&mut self.near_threats[them], &self.geo.near_roles, r, 0, theirs);
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
    words.iter().enumerate().flat_map(|(wi, &word)| {
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

    #[test]
    fn undo_restores_everything() {
        let mut b = Board::new(Rules::CONNECT6);
        let empty = b.clone();
        let cells: Vec<Cell> = (0..80).map(|i| ((i * 37 + 11) % 361) as Cell).collect();
        let mut seen = std::collections::HashSet::new();
        for &c in &cells {
            if seen.insert(c) && b.winner().is_none() {
                b.play(c);
                assert_eq!(b.live, b.live_roads_global());
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
        assert_eq!(b.threats, empty.threats);
        assert_eq!(b.near_threats, empty.near_threats);
        assert_eq!(b.hash, 0);
    }
}
