//! Threat roads and the sets of stones that block them.

use super::{Move, MAX_P};
use crate::games::connect::board::{Board, Cell, Colour};

/// The empty cells of one threat road: at most [`MAX_P`] (a threat road holds at least
/// k - p stones), the missing ones [`NO_CELL`].
pub(super) type Gaps = [Cell; MAX_P];

/// No cell: fills a [`Gaps`] with fewer than [`MAX_P`] cells. Never a cell of a board (the
/// geometry keeps boards below `u16::MAX` cells).
pub(super) const NO_CELL: Cell = Cell::MAX;

// The block counts below are written for turns of at most two stones.
const _: () = assert!(MAX_P == 2, "ThreatSet's block counts assume at most 2 stones a turn");

/// Whether stone c (a cell, not [`NO_CELL`]) touches a road.
#[inline(always)]
fn hit(gaps: Gaps, c: Cell) -> bool {
    gaps[0] == c || gaps[1] == c
}

/// The empty cells of every threat road of one side: what a defender must touch.
#[derive(Clone, Debug, Default)]
pub struct ThreatSet {
    roads: Vec<Gaps>,
}

impl ThreatSet {
    /// Collects the threat roads of `attacker` (cleared first).
    pub fn collect(&mut self, board: &Board, attacker: Colour) {
        self.roads.clear();
        for r in board.threat_roads(attacker) {
            self.roads.push(gaps_after(board, r, NO_CELL, NO_CELL));
        }
    }

    /// Empties the set.
    pub fn clear(&mut self) {
        self.roads.clear();
    }

    /// Adds road r as a threat road after `stones` (not yet on the board) are placed: its
    /// empty cells but those stones.
    pub fn push_after(&mut self, board: &Board, r: usize, stones: &[Cell]) {
        let (a, b) = (stones.first().copied().unwrap_or(NO_CELL), stones.get(1).copied().unwrap_or(NO_CELL));
        self.roads.push(gaps_after(board, r, a, b));
    }

    pub fn is_empty(&self) -> bool {
        self.roads.is_empty()
    }

    pub fn len(&self) -> usize {
        self.roads.len()
    }

    /// The first road none of `stones` touches.
    fn first_unhit(&self, stones: &[Cell]) -> Option<&[Cell]> {
        self.roads.iter().find(|&&gaps| !stones.iter().any(|&c| hit(gaps, c))).map(cells_of)
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
        blocks_needed_from(&self.roads, floor, cap)
    }

    /// Whether at most `budget` (at most [`MAX_P`]) stones touch every road.
    pub fn can_block_with(&self, budget: usize) -> bool {
        assert!(budget <= MAX_P, "blocks are counted up to {MAX_P}, not {budget}");
        can_block(&self.roads, budget)
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
        self.roads.iter().filter(|&&gaps| hit(gaps, c)).count()
    }
}

/// The cells of a road's gaps (the [`NO_CELL`]s left out; they come last).
#[inline]
fn cells_of(gaps: &Gaps) -> &[Cell] {
    let n = gaps.iter().take_while(|&&c| c != NO_CELL).count();
    &gaps[..n]
}

/// The empty cells of threat road r but a and b (cells about to be placed, or
/// [`NO_CELL`]): a plain loop over the road's cells, which runs for every road of every
/// candidate threat move.
#[inline]
pub(super) fn gaps_after(board: &Board, r: usize, a: Cell, b: Cell) -> Gaps {
    let mut gaps = [NO_CELL; MAX_P];
    let mut n = 0;
    for &c in board.geometry().road(r) {
        if board.is_empty_cell(c) && c != a && c != b {
            debug_assert!(n < MAX_P, "road {r} is not a threat road after {a} {b}");
            // A road with more gaps than a threat road has is not one: its extra cells
            // are dropped rather than indexed out of range (never in a correct caller).
            if n < MAX_P {
                gaps[n] = c;
            }
            n += 1;
        }
    }
    gaps
}

/// [`ThreatSet::blocks_needed_from`] of these roads.
pub(super) fn blocks_needed_from(roads: &[Gaps], floor: usize, cap: usize) -> usize {
    assert!(cap <= MAX_P, "blocks are counted up to {MAX_P}, not {cap}");
    (floor.min(cap + 1)..=cap).find(|&budget| can_block(roads, budget)).unwrap_or(cap + 1)
}

/// Whether at most `budget` (at most 2) stones touch every road: a stone of the first road,
/// then, if a road is left untouched, a stone of the first such road (every smaller set of
/// stones that touches all roads is found this way too). Written out for two stones, with
/// the roads' gaps compared as numbers: this counts the blocks of every candidate threat
/// move of the horizon check and of the threat-space search.
pub(super) fn can_block(roads: &[Gaps], budget: usize) -> bool {
    let Some(&first) = roads.first() else { return true };
    if budget == 0 {
        return false;
    }
    for c in first {
        if c == NO_CELL {
            break;
        }
        let Some(j) = roads.iter().position(|&gaps| !hit(gaps, c)) else { return true };
        if budget < 2 {
            continue;
        }
        for d in roads[j] {
            if d == NO_CELL {
                break;
            }
            if roads[j + 1..].iter().all(|&gaps| hit(gaps, c) || hit(gaps, d)) {
                return true;
            }
        }
    }
    false
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The fewest cells of `universe` touching every road, by trying every set.
    fn brute_blocks(roads: &[Gaps], universe: Cell) -> usize {
        let touches = |set: &[Cell]| roads.iter().all(|&g| set.iter().any(|&c| hit(g, c)));
        if touches(&[]) {
            return 0;
        }
        if (0..universe).any(|c| touches(&[c])) {
            return 1;
        }
        if (0..universe).any(|c| (c + 1..universe).any(|d| touches(&[c, d]))) {
            return 2;
        }
        3
    }

    /// The minimal touching sets of at most `budget` cells of `universe`, by trying every set.
    fn brute_sets(roads: &[Gaps], universe: Cell, budget: usize) -> Vec<Move> {
        let touches = |set: &[Cell]| roads.iter().all(|&g| set.iter().any(|&c| hit(g, c)));
        let mut sets = Vec::new();
        if touches(&[]) {
            sets.push(Move::NONE);
        }
        for c in 0..universe {
            if budget >= 1 && touches(&[c]) && !touches(&[]) {
                sets.push(Move::single(c));
            }
            for d in c + 1..universe {
                if budget >= 2 && touches(&[c, d]) && !touches(&[c]) && !touches(&[d]) {
                    sets.push(Move::pair(c, d));
                }
            }
        }
        sets.sort_unstable();
        sets
    }

    /// The block counts and sets written out for two stones against every set of cells tried,
    /// on random roads of one or two gaps (a few with none) among a few cells, so that roads
    /// share cells often.
    #[test]
    fn block_counts_match_a_brute_force() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(32);
        let mut out = Vec::new();
        for _ in 0..20_000 {
            let universe: Cell = rng.random_range(2..8);
            let roads: Vec<Gaps> = (0..rng.random_range(0..7))
                .map(|_| match rng.random_range(0..20) {
                    0 => [NO_CELL, NO_CELL],
                    1..=6 => [rng.random_range(0..universe), NO_CELL],
                    _ => {
                        let c = rng.random_range(0..universe);
                        let d = (c + rng.random_range(1..universe)) % universe;
                        [c, d]
                    }
                })
                .collect();
            let set = ThreatSet { roads: roads.clone() };
            let need = brute_blocks(&roads, universe);
            for cap in 0..=MAX_P {
                for floor in 0..=cap + 1 {
                    let want = if need <= floor { floor.min(cap + 1) } else { need.min(cap + 1) };
                    assert_eq!(set.blocks_needed_from(floor, cap), want, "{roads:?} floor {floor} cap {cap}");
                }
                assert_eq!(set.can_block_with(cap), need <= cap, "{roads:?} budget {cap}");
                set.blocking_sets(cap, &mut out);
                assert_eq!(out, brute_sets(&roads, universe, cap), "{roads:?} budget {cap}");
            }
            for c in 0..universe {
                assert_eq!(set.hits(c), roads.iter().filter(|g| g.contains(&c)).count());
            }
        }
    }
}
