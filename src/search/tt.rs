//! The transposition table: a fixed-size array of 16-byte entries indexed by Zobrist hash.
//! Its size is set once (MiB) and never grows, so an engine's memory is flat over a game and
//! across games.

use std::marker::PhantomData;

use crate::core::game::GameMove;

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
    /// The best move, packed ([`GameMove::pack`]).
    mv: u32,
    depth: i8,
    /// bits 0-1: bound (0 = empty).
    flags: u8,
    age: u8,
    mv_extra: u8,
}

const _: () = assert!(std::mem::size_of::<Entry>() == 16);

/// A hit in the table.
#[derive(Clone, Copy, Debug)]
pub struct Probe<M> {
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    pub best: M,
}

pub struct TranspositionTable<M> {
    entries: Vec<Entry>,
    mask: usize,
    age: u8,
    moves: PhantomData<M>,
}

impl<M: GameMove> TranspositionTable<M> {
    /// A table of at most `mib` MiB (rounded down to a power-of-two entry count; at least
    /// 1024 entries).
    pub fn new(mib: usize) -> TranspositionTable<M> {
        let bytes = mib.max(1) << 20;
        let mut n = 1024usize;
        while n * 2 * std::mem::size_of::<Entry>() <= bytes {
            n *= 2;
        }
        TranspositionTable { entries: vec![Entry::default(); n], mask: n - 1, age: 0, moves: PhantomData }
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
    pub fn probe(&self, hash: u64) -> Option<Probe<M>> {
        let e = &self.entries[hash as usize & self.mask];
        if e.flags & 3 == 0 || e.key != (hash >> 32) as u32 {
            return None;
        }
        let bound = match e.flags & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Probe { score: e.score, depth: e.depth as i32, bound, best: M::unpack(e.mv, e.mv_extra) })
    }

    #[inline]
    pub fn store(&mut self, hash: u64, depth: i32, score: i32, bound: Bound, best: M) {
        let slot = &mut self.entries[hash as usize & self.mask];
        let key = (hash >> 32) as u32;
        let depth = depth.clamp(-100, 100) as i8;
        if slot.flags & 3 != 0 && slot.key == key && slot.age == self.age && slot.depth > depth {
            return;
        }
        let (mv, mv_extra) = best.pack();
        let b = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        *slot = Entry { key, score, mv, depth, flags: b, age: self.age, mv_extra };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect::movegen::Move;

    #[test]
    fn size_is_bounded_and_store_probe_round_trips() {
        let mut tt = TranspositionTable::<Move>::new(1);
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
