//! The transposition table: a fixed-size array of 16-byte entries indexed by Zobrist hash.
//! Its size is set once (MiB) and never grows, so an engine's memory is flat over a game and
//! across games.

use crate::game::connect::movegen::Move;
use crate::game::connect::Cell;

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value (a PV node).
    Exact,
    /// The true value is at least this (a beta cut-off).
    Lower,
    /// The true value is at most this (no move raised alpha).
    Upper,
}

#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    /// The hash's upper 32 bits; the lower bits chose the slot.
    key: u32,
    score: i32,
    stones: [Cell; 2],
    depth: i8,
    /// bits 0-1: bound (0 = empty), bits 2-3: move length.
    flags: u8,
    age: u8,
    _pad: u8,
}

const _: () = assert!(std::mem::size_of::<Entry>() == 16);

/// A hit in the table.
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    pub best: Move,
}

pub struct TranspositionTable {
    entries: Vec<Entry>,
    mask: usize,
    age: u8,
}

impl TranspositionTable {
    /// A table of at most `mib` MiB (rounded down to a power-of-two entry count; at least
    /// 1024 entries).
    pub fn new(mib: usize) -> TranspositionTable {
        let bytes = mib.max(1) << 20;
        let mut n = 1024usize;
        while n * 2 * std::mem::size_of::<Entry>() <= bytes {
            n *= 2;
        }
        TranspositionTable { entries: vec![Entry::default(); n], mask: n - 1, age: 0 }
    }

    pub fn size_bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    /// Forgets everything (a new game: a game must not depend on the games before it).
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.age = 0;
    }

    /// Marks the start of a new search; older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    pub fn probe(&self, hash: u64) -> Option<Probe> {
        let e = &self.entries[hash as usize & self.mask];
        if e.flags & 3 == 0 || e.key != (hash >> 32) as u32 {
            return None;
        }
        let bound = match e.flags & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        let len = (e.flags >> 2) & 3;
        Some(Probe { score: e.score, depth: e.depth as i32, bound, best: Move::from_stones(&e.stones[..len as usize]) })
    }

    #[inline]
    pub fn store(&mut self, hash: u64, depth: i32, score: i32, bound: Bound, best: Move) {
        let slot = &mut self.entries[hash as usize & self.mask];
        let key = (hash >> 32) as u32;
        let depth = depth.clamp(-100, 100) as i8;
        if slot.flags & 3 != 0 && slot.key == key && slot.age == self.age && slot.depth > depth {
            return;
        }
        let mut stones = [0; 2];
        stones[..best.stones().len()].copy_from_slice(best.stones());
        let b = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        *slot =
            Entry { key, score, stones, depth, flags: b | ((best.stones().len() as u8) << 2), age: self.age, _pad: 0 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_is_bounded_and_store_probe_round_trips() {
        let mut tt = TranspositionTable::new(1);
        assert!(tt.size_bytes() <= 1 << 20);
        let m = Move::pair(5, 3);
        tt.store(0xdead_beef_1234_5678, 4, -77, Bound::Lower, m);
        let p = tt.probe(0xdead_beef_1234_5678).unwrap();
        assert_eq!((p.score, p.depth, p.bound, p.best), (-77, 4, Bound::Lower, m));
        assert!(tt.probe(0x1111_beef_1234_5678).is_none());
        tt.clear();
        assert!(tt.probe(0xdead_beef_1234_5678).is_none());
    }
}
