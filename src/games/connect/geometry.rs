//! The rules of Connect(m,n,k,p,q) and the tables that depend only on them ([`Geometry`]: the
//! roads, the roads through each cell, Zobrist keys), built once per rule set and shared by
//! every board of those rules.

use std::sync::{Arc, OnceLock};

use super::board::{step_index, Board, Colour, RoadStep, LIVE_SINK, ROLES};

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
    /// The direction of each road (an index into [`DIRECTIONS`]).
    pub road_direction: Vec<u8>,
    /// Roads through cell c: `cell_roads[cell_road_start[c] .. cell_road_start[c+1]]`.
    pub cell_roads: Vec<u16>,
    pub cell_road_start: Vec<u32>,
    /// Cells within Chebyshev distance 2 of each cell (itself excluded).
    pub near_cells: Vec<Vec<Cell>>,
    /// [`near_cells`](Self::near_cells) and the cells on each cell's 4 lines within `k - 1`
    /// of it: those a stone there can share a road with or build beside (Gomoku's quiescence
    /// tries its fours among them, after the side's last stone).
    pub line_cells: Vec<Vec<Cell>>,
    /// The column and row of each cell.
    coords: Vec<[u8; 2]>,
    pub(super) zobrist: [Vec<u64>; 2],
    /// The roads through each cell, by direction.
    pub(super) lines: Vec<[LineThrough; 4]>,
    /// What a stone of each colour does to a road, by the road's counts before it
    /// (`road_steps[colour][step_index(counts)]`, see [`RoadStep`]): the board's update of a
    /// road as one table lookup.
    pub(super) road_steps: [[RoadStep; 256]; 2],
    /// Whose stone goes down next and how many stones are left in that turn, by the stones
    /// on the board (0 ..= cells): the turn order as a table, not a division.
    pub(super) turns: Vec<(Colour, u8)>,
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
        let mut road_direction = Vec::new();
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
                    road_direction.push(dir as u8);
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
        // Cells within `reach` of each cell (itself excluded) that `keep(dx, dy)` accepts.
        let cells_around = |reach: i32, keep: &dyn Fn(i32, i32) -> bool| -> Vec<Vec<Cell>> {
            (0..w * h)
                .map(|c| {
                    let (x, y) = (c % w, c / w);
                    let mut v = Vec::new();
                    for dy in -reach..=reach {
                        for dx in -reach..=reach {
                            let (nx, ny) = (x + dx, y + dy);
                            if (dx, dy) != (0, 0) && keep(dx, dy) && nx >= 0 && nx < w && ny >= 0 && ny < h {
                                v.push((nx + ny * w) as Cell);
                            }
                        }
                    }
                    v
                })
                .collect()
        };
        let near_cells = cells_around(2, &|_, _| true);
        let line_cells = cells_around(k - 1, &|dx, dy| {
            (dx.abs() <= 2 && dy.abs() <= 2) || dx == 0 || dy == 0 || dx.abs() == dy.abs()
        });
        // SplitMix64 from a fixed seed: the hash is the same in every run and on every machine.
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15 ^ ((w as u64) << 32 | (h as u64) << 16 | k as u64);
        let mut next = || {
            let (s, z) = crate::core::rng::splitmix(state);
            state = s;
            z
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
        let coords = (0..w * h).map(|c| [(c % w) as u8, (c / w) as u8]).collect();
        let road_steps = road_steps(rules);
        let turns = (0..=rules.cells())
            .map(|n| (Board::colour_of_stone(rules, n), Board::stones_left_after(rules, n) as u8))
            .collect();
        Geometry {
            rules,
            road_cells,
            road_direction,
            cell_roads,
            cell_road_start,
            near_cells,
            line_cells,
            coords,
            zobrist,
            lines,
            road_steps,
            turns,
        }
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

    /// The colour of the n-th stone (0-based) of a game (as [`Board::colour_of_stone`], by
    /// the table).
    #[inline]
    pub fn colour_of(&self, n: usize) -> Colour {
        self.turns[n].0
    }

    /// The column and row of cell c (as `Board::xy`, without a division).
    #[inline]
    pub fn coords(&self, c: Cell) -> [u8; 2] {
        self.coords[c as usize]
    }

    /// Whether some road holds both cells: they lie on one line (a row, a column or a
    /// diagonal) fewer than k cells apart.
    #[inline]
    pub fn share_a_road(&self, a: Cell, b: Cell) -> bool {
        let ([ax, ay], [bx, by]) = (self.coords[a as usize], self.coords[b as usize]);
        let (dx, dy) = (ax.abs_diff(bx), ay.abs_diff(by));
        (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) < self.rules.k
    }

    /// The roads holding both a and b (cells that [`share_a_road`](Self::share_a_road)), as
    /// an inclusive range of road numbers `lo..=hi` (empty when lo > hi) that holds no other
    /// road through a or b: so a road through either is in both when its number is in the
    /// range, two comparisons instead of a search. Roads are numbered by direction, then by
    /// their first cell in row order, so the roads of one direction through a cell are
    /// numbered in order along their line (backwards on the anti-diagonal), and the roads
    /// holding both, consecutive along the line, are the ones between the first and the last
    /// of them.
    #[inline]
    pub fn roads_holding_both(&self, a: Cell, b: Cell) -> (u16, u16) {
        debug_assert!(self.share_a_road(a, b));
        let ([ax, ay], [bx, by]) = (self.coords[a as usize], self.coords[b as usize]);
        let dir = if ay == by {
            0
        } else if ax == bx {
            1
        } else if (ax < bx) == (ay < by) {
            2
        } else {
            3
        };
        let line = &self.lines[a as usize][dir];
        let (a_at, b_at) = (line.offset_of(a), line.offset_of(b));
        let k = self.rules.k as usize;
        // Road j of the line holds cells j ..= j + k - 1.
        let from = (a_at.max(b_at) + 1).saturating_sub(k);
        let to = a_at.min(b_at).min(line.roads().len().wrapping_sub(1));
        if line.roads().is_empty() || from > to {
            return (1, 0);
        }
        let (r1, r2) = (line.roads[from], line.roads[to]);
        (r1.min(r2), r1.max(r2))
    }

    /// The roads through cell c, in increasing road order (move generation merges these
    /// lists).
    #[inline]
    pub fn roads_through(&self, c: Cell) -> &[u16] {
        let c = c as usize;
        &self.cell_roads[self.cell_road_start[c] as usize..self.cell_road_start[c + 1] as usize]
    }
}

/// The [`RoadStep`] of a stone of each colour on a road of each count it can hold: the
/// road's histogram slot and sets before and after (a road of one colour's n stones is in
/// that colour's slot n, its threat set from k - p stones, its near-threat sets one and two
/// stones short of that; a road of both colours or none is in no slot and no set).
fn road_steps(rules: Rules) -> [[RoadStep; 256]; 2] {
    let (k, level) = (rules.k as usize, rules.threat_level());
    let slot = |n: [usize; 2]| match n {
        [b, 0] if b > 0 => b,
        [0, w] if w > 0 => MAX_K + 1 + w,
        _ => LIVE_SINK,
    };
    let roles = |n: [usize; 2]| -> u8 {
        let of = |c: usize, mine: usize| -> u8 {
            let mut bits = 0;
            if mine >= level {
                bits |= 1;
            }
            for need in 1..=2 {
                if mine >= 1 && mine + need == level {
                    bits |= 1 << need;
                }
            }
            bits << (c * ROLES)
        };
        match n {
            [b, 0] if b > 0 => of(0, b),
            [0, w] if w > 0 => of(1, w),
            _ => 0,
        }
    };
    let mut steps = [[RoadStep::default(); 256]; 2];
    for (me, table) in steps.iter_mut().enumerate() {
        for b in 0..=k {
            for w in 0..=k - b {
                let before = [b, w];
                let mut after = before;
                after[me] += 1;
                if after[0] + after[1] > k {
                    continue;
                }
                let index = step_index([b as u8, w as u8]);
                let threat = |n: [usize; 2], c: usize| i32::from(roles(n) >> (c * ROLES) & 1);
                let threats = [0, 1].map(|c| threat(after, c) - threat(before, c));
                table[index] = RoadStep::new(slot(before), slot(after), roles(before) ^ roles(after), threats);
            }
        }
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair of cells sharing a road, on the Connect6 and Gomoku boards and a small
    /// board with short diagonals: a road through either cell is numbered in
    /// `roads_holding_both` exactly when it holds both.
    #[test]
    fn the_roads_holding_two_cells_are_a_range_of_numbers() {
        let small = Rules { width: 7, height: 5, k: 5, p: 2, q: 1 };
        for rules in [Rules::CONNECT6, Rules::GOMOKU, small] {
            let g = Geometry::of(rules);
            let cells = rules.cells() as Cell;
            let mut shared = 0;
            for a in 0..cells {
                for b in (0..cells).filter(|&b| b != a && g.share_a_road(a, b)) {
                    let (lo, hi) = g.roads_holding_both(a, b);
                    for &r in g.roads_through(a).iter().chain(g.roads_through(b)) {
                        let both = g.road(r as usize).contains(&a) && g.road(r as usize).contains(&b);
                        assert_eq!((lo..=hi).contains(&r), both, "{rules:?}: cells {a} and {b}, road {r}");
                        shared += usize::from(both);
                    }
                }
            }
            assert!(shared > 0);
        }
    }

    /// A Gomoku cell away from the edges has 24 cells within 2 and 16 more on its lines at
    /// 3 and 4; a corner keeps only those on the board.
    #[test]
    fn line_cells_are_the_near_cells_and_the_lines_within_k_minus_one() {
        let g = Geometry::of(Rules::GOMOKU);
        let centre = 7 + 7 * 15;
        assert_eq!(g.near_cells[centre].len(), 24);
        assert_eq!(g.line_cells[centre].len(), 40);
        assert!(g.near_cells[centre].iter().all(|c| g.line_cells[centre].contains(c)));
        // The corner a1: 8 within 2, then 2 along each of its 3 lines.
        assert_eq!(g.line_cells[0].len(), 8 + 3 * 2);
    }
}
