//! The Surakarta board: 36 points, row-major from the top-left (cell `6 * row + col`), and its
//! two circuits.
//!
//! Each circuit is a closed loop of 24 steps: four straight lines of six points joined at the
//! corners by quarter-circle arcs. The outer circuit runs along rows 2 and 3 and columns 2 and
//! 3 (arcs of radius 2 around the corners), the inner one along rows 1 and 4 and columns 1 and
//! 4 (arcs of radius 1). The loop lists every point in the order a flying piece meets them, so
//! points where a circuit crosses itself appear twice. An arc joins the last point of one line
//! of six to the first of the next: between positions 5|6, 11|12, 17|18 and 23|0.

/// Points on the board.
pub const CELLS: usize = 36;
/// Points per side of the board.
pub const SIDE: usize = 6;
/// Steps around one circuit.
pub const LOOP: usize = 24;

/// The outer circuit (rows 2, 3; columns 2, 3), as a flying piece meets its points.
pub const OUTER: [u8; LOOP] =
    [12, 13, 14, 15, 16, 17, 3, 9, 15, 21, 27, 33, 23, 22, 21, 20, 19, 18, 32, 26, 20, 14, 8, 2];
/// The inner circuit (rows 1, 4; columns 1, 4).
pub const INNER: [u8; LOOP] = [6, 7, 8, 9, 10, 11, 4, 10, 16, 22, 28, 34, 29, 28, 27, 26, 25, 24, 31, 25, 19, 13, 7, 1];

/// The two circuits, by index (0 outer, 1 inner).
pub const CIRCUITS: [[u8; LOOP]; 2] = [OUTER, INNER];

/// Whether stepping from loop position `from` to the next one in direction `forward` crosses
/// an arc.
#[inline]
pub fn crosses_arc(from: usize, forward: bool) -> bool {
    if forward {
        (from + 1).is_multiple_of(6)
    } else {
        from.is_multiple_of(6)
    }
}

/// Where a point lies on the circuits: up to two (circuit, loop position) entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stations {
    pub len: u8,
    pub at: [(u8, u8); 2],
}

impl Stations {
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.at[..self.len as usize].iter().map(|&(c, i)| (c as usize, i as usize))
    }
}

const fn stations() -> [Stations; CELLS] {
    let mut out = [Stations { len: 0, at: [(0, 0); 2] }; CELLS];
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < LOOP {
            let cell = CIRCUITS[c][i] as usize;
            let n = out[cell].len as usize;
            out[cell].at[n] = (c as u8, i as u8);
            out[cell].len += 1;
            i += 1;
        }
        c += 1;
    }
    out
}

/// Every point's places on the circuits (none for the four corners).
pub static STATIONS: [Stations; CELLS] = stations();

/// The eight neighbours of each point, `NO_CELL`-padded.
pub const NO_CELL: u8 = u8::MAX;

const fn neighbours() -> [[u8; 8]; CELLS] {
    let mut out = [[NO_CELL; 8]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (r, c) = ((cell / SIDE) as i32, (cell % SIDE) as i32);
        let mut n = 0;
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nr, nc) = (r + dr, c + dc);
                if (dr != 0 || dc != 0) && nr >= 0 && nr < SIDE as i32 && nc >= 0 && nc < SIDE as i32 {
                    out[cell][n] = (nr * SIDE as i32 + nc) as u8;
                    n += 1;
                }
                dc += 1;
            }
            dr += 1;
        }
        cell += 1;
    }
    out
}

/// The king-step neighbours of each point.
pub static NEIGHBOURS: [[u8; 8]; CELLS] = neighbours();

/// What kind of point a cell is, for the evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointKind {
    /// The four corners: on no circuit, so no piece there can be captured or capture.
    Corner,
    /// On the outer circuit only, once.
    Outer,
    /// On the inner circuit only, once.
    Inner,
    /// Where the two circuits cross (once on each).
    Both,
    /// Where the outer circuit crosses itself (the four centre points).
    OuterCross,
    /// Where the inner circuit crosses itself.
    InnerCross,
}

/// The kind of a point.
pub fn point_kind(cell: usize) -> PointKind {
    let s = STATIONS[cell];
    match s.len {
        0 => PointKind::Corner,
        1 if s.at[0].0 == 0 => PointKind::Outer,
        1 => PointKind::Inner,
        _ if s.at[0].0 != s.at[1].0 => PointKind::Both,
        _ if s.at[0].0 == 0 => PointKind::OuterCross,
        _ => PointKind::InnerCross,
    }
}

/// Row (0 at the top) and column of a point.
#[inline]
pub fn row_col(cell: usize) -> (usize, usize) {
    (cell / SIDE, cell % SIDE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_fall_into_the_documented_kinds() {
        let count = |k: PointKind| (0..CELLS).filter(|&c| point_kind(c) == k).count();
        assert_eq!(count(PointKind::Corner), 4);
        assert_eq!(count(PointKind::Both), 8);
        assert_eq!(count(PointKind::OuterCross), 4);
        assert_eq!(count(PointKind::InnerCross), 4);
        assert_eq!(count(PointKind::Outer), 8);
        assert_eq!(count(PointKind::Inner), 8);
        for corner in [0, 5, 30, 35] {
            assert_eq!(point_kind(corner), PointKind::Corner);
        }
        for centre in [14, 15, 20, 21] {
            assert_eq!(point_kind(centre), PointKind::OuterCross);
        }
    }

    #[test]
    fn each_line_of_a_circuit_is_straight_and_each_arc_turns_a_corner() {
        for circuit in CIRCUITS {
            for i in 0..LOOP {
                let (a, b) = (row_col(circuit[i] as usize), row_col(circuit[(i + 1) % LOOP] as usize));
                let step = a.0.abs_diff(b.0) + a.1.abs_diff(b.1);
                if crosses_arc(i, true) {
                    // Both ends of an arc are on the border.
                    let border = |(r, c): (usize, usize)| r == 0 || c == 0 || r == SIDE - 1 || c == SIDE - 1;
                    assert!(border(a) && border(b), "{a:?} {b:?}");
                } else {
                    assert_eq!(step, 1, "{a:?} {b:?}");
                }
            }
        }
    }
}
