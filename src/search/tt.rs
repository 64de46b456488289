//! The transposition table: a fixed-size array of 16-byte entries indexed by Zobrist hash.
//! Its size is set once (MiB) and never grows, so an engine's memory is flat over a game and
//! across games.
//!
//! A new game must not see the last one's entries, yet zeroing megabytes for every game of
//! a few milliseconds would cost a tenth of the game (and a fresh allocation's page faults
//! and its release's TLB shootdowns stall every thread of the process). So a table is
//! cleared by moving to the next *game epoch*, kept in each entry: an entry of another epoch
//! reads as empty, and the array is zeroed only when the 6-bit epoch wraps. A dropped
//! table's array goes to a small per-thread spare list that the thread's next table of the
//! same size takes (the GA plays game after game on each thread).

use std::cell::RefCell;
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
    /// bits 0-1: bound (0 = empty); bits 2-7: the game epoch it was stored in.
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
    /// The game epoch (0-63): entries of other epochs are empty.
    epoch: u8,
    moves: PhantomData<M>,
}

/// Game epochs before the array must be zeroed again.
const EPOCHS: u8 = 64;

/// Arrays a thread keeps for its next tables, with the epoch each was left at.
const SPARES: usize = 4;

thread_local! {
    static SPARE: RefCell<Vec<(Vec<Entry>, u8)>> = const { RefCell::new(Vec::new()) };
}

impl<M> Drop for TranspositionTable<M> {
    fn drop(&mut self) {
        let entries = std::mem::take(&mut self.entries);
        let epoch = self.epoch;
        // During a thread's exit the spare list may be gone: the array is then freed.
        let _ = SPARE.try_with(|spare| {
            let mut spare = spare.borrow_mut();
            if spare.len() < SPARES {
                spare.push((entries, epoch));
            }
        });
    }
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
        let reused = SPARE
            .try_with(|spare| {
                let mut spare = spare.borrow_mut();
                let i = spare.iter().position(|(e, _)| e.len() == n)?;
                Some(spare.swap_remove(i))
            })
            .ok()
            .flatten();
        match reused {
            Some((entries, epoch)) => {
                let mut tt = TranspositionTable { entries, mask: n - 1, age: 0, epoch, moves: PhantomData };
                tt.clear();
                tt
            }
            None => TranspositionTable {
                entries: vec![Entry::default(); n],
                mask: n - 1,
                age: 0,
                epoch: 0,
                moves: PhantomData,
            },
        }
    }

    pub fn size_bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    /// Forgets everything (a new game: a game must not depend on the games before it).
    pub fn clear(&mut self) {
        self.epoch = (self.epoch + 1) % EPOCHS;
        if self.epoch == 0 {
            self.entries.fill(Entry::default());
        }
        self.age = 0;
    }

    /// Marks the start of a new search; older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    pub fn probe(&self, hash: u64) -> Option<Probe<M>> {
        let e = &self.entries[hash as usize & self.mask];
        if e.flags & 3 == 0 || e.flags >> 2 != self.epoch || e.key != (hash >> 32) as u32 {
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
        if slot.flags & 3 != 0
            && slot.flags >> 2 == self.epoch
            && slot.key == key
            && slot.age == self.age
            && slot.depth > depth
        {
            return;
        }
        let (mv, mv_extra) = best.pack();
        let b = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        *slot = Entry { key, score, mv, depth, flags: b | self.epoch << 2, age: self.age, mv_extra };
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

    /// A cleared table (a new game) forgets everything, through every epoch and its wrap,
    /// and so does a new table that takes a dropped one's array: a game never depends on
    /// the games before it.
    #[test]
    fn a_cleared_or_reused_table_is_empty() {
        let m = Move::pair(5, 3);
        let mut tt = TranspositionTable::<Move>::new(1);
        for game in 0..3 * EPOCHS as u64 {
            let hash = 0x1234_5678_0000_0100 + game;
            assert!(tt.probe(hash).is_none(), "game {game}");
            assert!(tt.probe(0xdead_beef_0000_0007).is_none(), "game {game}");
            tt.store(hash, 3, 10, Bound::Exact, m);
            // A deep entry of the same key stored earlier in this game keeps its place; one
            // of an earlier game does not.
            tt.store(0xdead_beef_0000_0007, 9, 1, Bound::Lower, m);
            tt.store(0xdead_beef_0000_0007, 2, 2, Bound::Upper, m);
            assert_eq!(tt.probe(0xdead_beef_0000_0007).unwrap().depth, 9);
            assert!(tt.probe(hash).is_some());
            tt.clear();
        }
        tt.store(0xdead_beef_0000_0007, 9, 1, Bound::Lower, m);
        let size = tt.size_bytes();
        drop(tt);
        let tt = TranspositionTable::<Move>::new(1);
        assert_eq!(tt.size_bytes(), size);
        assert!(tt.probe(0xdead_beef_0000_0007).is_none(), "a reused array starts empty");
    }
}
