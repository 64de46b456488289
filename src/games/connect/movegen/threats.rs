//! Threat roads and the sets of stones that block them.

use super::{Move, MAX_P};
use crate::games::connect::board::{Board, Cell, Colour};

/// The empty cells of every threat road of one side: what a defender must touch.
#[derive(Clone, Debug, Default)]
pub struct ThreatSet {
    roads: Vec<([Cell; MAX_P], u8)>,
}

impl ThreatSet {
    /// Collects the threat roads of `attacker` (cleared first).
    pub fn collect(&mut self, board: &Board, attacker: Colour) {
        self.roads.clear();
        for r in board.threat_roads(attacker) {
            let mut cells = [0; MAX_P];
            let mut n = 0;
            for c in board.empty_cells_of_road(r) {
                cells[n] = c;
                n += 1;
            }
            self.roads.push((cells, n as u8));
        }
    }

    /// Empties the set.
    pub fn clear(&mut self) {
        self.roads.clear();
    }

    /// Adds road r as a threat road after `stones` (not yet on the board) are placed: its
    /// empty cells but those stones.
    pub fn push_after(&mut self, board: &Board, r: usize, stones: &[Cell]) {
        // A plain loop over the road's cells: this runs for every road of every candidate
        // threat move.
        let none = Cell::MAX;
        let (a, b) = (stones.first().copied().unwrap_or(none), stones.get(1).copied().unwrap_or(none));
        let mut empty = [0; MAX_P];
        let mut len = 0;
        for &c in board.geometry().road(r) {
            if board.is_empty_cell(c) && c != a && c != b {
                debug_assert!(len < MAX_P, "road {r} is not a threat road after {stones:?}");
                empty[len] = c;
                len += 1;
            }
        }
        self.roads.push((empty, len as u8));
    }

    pub fn is_empty(&self) -> bool {
        self.roads.is_empty()
    }

    pub fn len(&self) -> usize {
        self.roads.len()
    }

    /// The first road none of `stones` touches.
    fn first_unhit(&self, stones: &[Cell]) -> Option<&[Cell]> {
        self.roads
            .iter()
            .map(|(cells, n)| &cells[..*n as usize])
            .find(|cells| !cells.iter().any(|c| stones.contains(c)))
    }

    /// The fewest stones that touch every road, or `cap + 1` when more than `cap` (at most
    /// [`MAX_P`]) are needed.
    pub fn blocks_needed(&self, cap: usize) -> usize {
        self.blocks_needed_from(0, cap)
    }

    /// [`blocks_needed`](Self::blocks_needed) where only counts of at least `floor` matter:
    /// `floor` when that many stones suffice (fewer may too), which spares testing the
    /// smaller budgets (a budget's search covers every smaller one).
    pub fn blocks_needed_from(&self, floor: usize, cap: usize) -> usize {
        assert!(cap <= MAX_P, "blocks are counted up to {MAX_P}, not {cap}");
        (floor.min(cap + 1)..=cap).find(|&budget| self.can_block(Chosen::default(), budget)).unwrap_or(cap + 1)
    }

    /// Whether at most `budget` (at most [`MAX_P`]) stones touch every road.
    pub fn can_block_with(&self, budget: usize) -> bool {
        assert!(budget <= MAX_P, "blocks are counted up to {MAX_P}, not {budget}");
        self.can_block(Chosen::default(), budget)
    }

    fn can_block(&self, chosen: Chosen, budget: usize) -> bool {
        let Some(road) = self.first_unhit(chosen.stones()) else { return true };
        if chosen.len == budget {
            return false;
        }
        road.iter().any(|&c| self.can_block(chosen.with(c), budget))
    }

    /// Every set of at most `budget` (at most [`MAX_P`]) stones that touches every road, each
    /// stone touching a road the others miss (minimal sets; a stone left over is free).
    /// Sorted, no duplicates.
    pub fn blocking_sets(&self, budget: usize, out: &mut Vec<Move>) {
        assert!(budget <= MAX_P, "blocking sets have at most {MAX_P} stones, not {budget}");
        out.clear();
        self.enumerate(Chosen::default(), budget, out);
        out.sort_unstable();
        out.dedup();
    }

    fn enumerate(&self, chosen: Chosen, budget: usize, out: &mut Vec<Move>) {
        let Some(road) = self.first_unhit(chosen.stones()) else {
            // Keep the set only if no stone in it is redundant.
            let minimal = (0..chosen.len).all(|skip| self.first_unhit(chosen.without(skip).stones()).is_some());
            if minimal {
                out.push(Move::from_stones(chosen.stones()));
            }
            return;
        };
        if chosen.len == budget {
            return;
        }
        for &c in road {
            self.enumerate(chosen.with(c), budget, out);
        }
    }

    /// How many roads each cell touches, for the best try in a lost position.
    pub(super) fn hits(&self, c: Cell) -> usize {
        self.roads.iter().filter(|(cells, n)| cells[..*n as usize].contains(&c)).count()
    }
}

/// The stones chosen so far while searching for blocks: at most a turn's worth, kept on the
/// stack (these searches run at most nodes of a game-tree search and must not allocate).
#[derive(Clone, Copy, Default)]
struct Chosen {
    cells: [Cell; MAX_P],
    len: usize,
}

impl Chosen {
    fn stones(&self) -> &[Cell] {
        &self.cells[..self.len]
    }

    /// These stones and c.
    fn with(mut self, c: Cell) -> Chosen {
        self.cells[self.len] = c;
        self.len += 1;
        self
    }

    /// These stones but the one at `skip`.
    fn without(mut self, skip: usize) -> Chosen {
        self.cells.copy_within(skip + 1..self.len, skip);
        self.len -= 1;
        self
    }
}
