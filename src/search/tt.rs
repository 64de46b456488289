//! The transposition table: a fixed-size array of 16-byte entries indexed by Zobrist hash.
//! Its size is set once (MiB) and never grows, so an engine's memory is flat over a game and
//! across games.
//!
//! The threads of one search share one table without locks: an entry is two 64-bit atomic
//! words, the data and the key XOR-ed with the data, read and written with relaxed ordering
//! (plain loads and stores on x86-64 and AArch64, so one thread pays nothing for it). Two
//! threads writing one entry at once may leave one's data beside the other's key word; the
//! XOR then yields a key that matches neither hash, and the entry reads as a miss.
//!
//! A new game must not see the last one's entries, yet zeroing megabytes for every game of
//! a few milliseconds would cost a tenth of the game (and a fresh allocation's page faults
//! and its release's TLB shootdowns stall every thread of the process). So a table is
//! cleared by moving to the next *game epoch*, kept in each entry: an entry of another epoch
//! reads as empty, and the array is zeroed only when the 6-bit epoch wraps. A dropped
//! table's array goes to a small per-thread spare list that the thread's next table of the
//! same size takes (the GA plays game after game on each thread).
//!
//! A table of 2 MiB or more lies on huge pages where the system gives them on request
//! (Linux's transparent huge pages in `madvise` mode): its memory comes zeroed and untouched,
//! so a new 4 MiB table costs two page faults rather than 1024. An engine started for a few
//! short games (evotune run as an outside engine by its own tuner) spent 1.7 ms of its 4 ms
//! start writing and faulting in its 4 MiB table.

use std::cell::RefCell;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

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

/// One entry, as two words (all zero: empty).
///
/// `data`: bits 0-31 the score, bits 32-63 the best move packed ([`GameMove::pack`]).
/// `check`: `meta ^ data`, where `meta` holds bits 0-7 the depth, 8-15 the flags (bits 0-1
/// the bound, 0 = empty; bits 2-7 the game epoch it was stored in), 16-23 the search age,
/// 24-31 the move's extra byte, 32-63 the hash's upper 32 bits (its lower bits chose the
/// slot).
#[derive(Default)]
struct Entry {
    data: AtomicU64,
    check: AtomicU64,
}

const _: () = assert!(std::mem::size_of::<Entry>() == 16);

/// An entry's fields, unpacked from its two words.
#[derive(Clone, Copy)]
struct Fields {
    key: u32,
    score: i32,
    mv: u32,
    depth: i8,
    flags: u8,
    age: u8,
    mv_extra: u8,
}

impl Entry {
    #[inline]
    fn load(&self) -> Fields {
        let data = self.data.load(Relaxed);
        let meta = self.check.load(Relaxed) ^ data;
        Fields {
            key: (meta >> 32) as u32,
            score: data as u32 as i32,
            mv: (data >> 32) as u32,
            depth: meta as u8 as i8,
            flags: (meta >> 8) as u8,
            age: (meta >> 16) as u8,
            mv_extra: (meta >> 24) as u8,
        }
    }

    #[inline]
    fn save(&self, f: Fields) {
        let data = f.score as u32 as u64 | (f.mv as u64) << 32;
        let meta = f.depth as u8 as u64
            | (f.flags as u64) << 8
            | (f.age as u64) << 16
            | (f.mv_extra as u64) << 24
            | (f.key as u64) << 32;
        self.data.store(data, Relaxed);
        self.check.store(meta ^ data, Relaxed);
    }

    fn erase(&self) {
        self.data.store(0, Relaxed);
        self.check.store(0, Relaxed);
    }
}

/// A hit in the table.
#[derive(Clone, Copy, Debug)]
pub struct Probe<M> {
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    pub best: M,
}

/// The table of one search, shared by its threads (`&self` everywhere: a new game or a new
/// search is marked by the search's main thread while no other thread searches).
pub struct TranspositionTable<M> {
    /// The array; the table is `entries[first..first + mask + 1]` (the entries before it
    /// only align the table to a huge page).
    entries: Vec<Entry>,
    first: usize,
    mask: usize,
    age: AtomicU8,
    /// The game epoch (0-63): entries of other epochs are empty.
    epoch: AtomicU8,
    moves: PhantomData<fn() -> M>,
}

/// Game epochs before the array must be zeroed again.
const EPOCHS: u8 = 64;

/// Arrays a thread keeps for its next tables, with the epoch each was left at.
const SPARES: usize = 4;

thread_local! {
    static SPARE: RefCell<Vec<Spare>> = const { RefCell::new(Vec::new()) };
}

/// A dropped table's array, kept for the thread's next table of its size.
struct Spare {
    entries: Vec<Entry>,
    first: usize,
    /// How many entries the table has.
    n: usize,
    epoch: u8,
}

/// The size of a huge page (x86-64, and AArch64 with 4 KiB pages): tables this big or
/// bigger are laid on huge pages.
const HUGE_PAGE: usize = 2 << 20;

/// A zeroed array for a table of `n` entries, and where the table starts in it: at a huge
/// page's start when the table fills one or more, the system asked to back it by huge
/// pages. The memory is taken zeroed (calloc), not written: its pages are faulted in as the
/// search first touches them.
fn zeroed_array(n: usize) -> (Vec<Entry>, usize) {
    let size = std::mem::size_of::<Entry>();
    let pad = if n * size >= HUGE_PAGE { HUGE_PAGE / size } else { 0 };
    let len = n + pad;
    let layout = std::alloc::Layout::array::<Entry>(len).expect("a table smaller than the address space");
    // SAFETY: the layout is that of `len` entries (not zero-sized: len >= 1024), allocated by
    // the global allocator as Vec::from_raw_parts requires, with length and capacity `len`;
    // an entry is two atomic integers, for which all-zero bytes are a valid value (the
    // default, an empty entry).
    let entries = unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut Entry;
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Vec::from_raw_parts(ptr, len, len)
    };
    if pad == 0 {
        return (entries, 0);
    }
    // Both addresses are multiples of the entry's size (the allocation is aligned to it).
    let start = entries.as_ptr() as usize;
    let first = (start.next_multiple_of(HUGE_PAGE) - start) / size;
    #[cfg(target_os = "linux")]
    // SAFETY: madvise(2) on whole pages inside the allocation (its start aligned to a huge
    // page, `n * size` bytes before the allocation's end); MADV_HUGEPAGE changes how the
    // memory is backed, never what it holds. Where huge pages are off it fails, harmlessly.
    unsafe {
        libc::madvise(entries.as_ptr().add(first) as *mut libc::c_void, n * size, libc::MADV_HUGEPAGE);
    }
    (entries, first)
}

impl<M> Drop for TranspositionTable<M> {
    fn drop(&mut self) {
        let entries = std::mem::take(&mut self.entries);
        let (first, n, epoch) = (self.first, self.mask + 1, *self.epoch.get_mut());
        // During a thread's exit the spare list may be gone: the array is then freed.
        let _ = SPARE.try_with(|spare| {
            let mut spare = spare.borrow_mut();
            if spare.len() < SPARES {
                spare.push(Spare { entries, first, n, epoch });
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
                let i = spare.iter().position(|s| s.n == n)?;
                Some(spare.swap_remove(i))
            })
            .ok()
            .flatten();
        let (entries, first, epoch, reused) = match reused {
            Some(Spare { entries, first, epoch, .. }) => (entries, first, epoch, true),
            None => {
                let (entries, first) = zeroed_array(n);
                (entries, first, 0, false)
            }
        };
        let tt = TranspositionTable {
            entries,
            first,
            mask: n - 1,
            age: AtomicU8::new(0),
            epoch: AtomicU8::new(epoch),
            moves: PhantomData,
        };
        if reused {
            tt.clear();
        }
        tt
    }

    pub fn size_bytes(&self) -> usize {
        (self.mask + 1) * std::mem::size_of::<Entry>()
    }

    /// The table's entries.
    fn table(&self) -> &[Entry] {
        &self.entries[self.first..self.first + self.mask + 1]
    }

    /// The entry of `hash`.
    #[inline]
    fn slot(&self, hash: u64) -> &Entry {
        &self.entries[self.first + (hash as usize & self.mask)]
    }

    /// Forgets everything (a new game: a game must not depend on the games before it).
    /// Called while no thread searches with the table.
    pub fn clear(&self) {
        let epoch = (self.epoch.load(Relaxed) + 1) % EPOCHS;
        self.epoch.store(epoch, Relaxed);
        if epoch == 0 {
            self.table().iter().for_each(Entry::erase);
        }
        self.age.store(0, Relaxed);
    }

    /// Marks the start of a new search; older entries become preferred victims. Called
    /// while no thread searches with the table.
    pub fn new_search(&self) {
        self.age.store(self.age.load(Relaxed).wrapping_add(1), Relaxed);
    }

    #[inline]
    pub fn probe(&self, hash: u64) -> Option<Probe<M>> {
        let e = self.slot(hash).load();
        if e.flags & 3 == 0 || e.flags >> 2 != self.epoch.load(Relaxed) || e.key != (hash >> 32) as u32 {
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
    pub fn store(&self, hash: u64, depth: i32, score: i32, bound: Bound, best: M) {
        let slot = self.slot(hash);
        let key = (hash >> 32) as u32;
        let depth = depth.clamp(-100, 100) as i8;
        let (epoch, age) = (self.epoch.load(Relaxed), self.age.load(Relaxed));
        let old = slot.load();
        if old.flags & 3 != 0 && old.flags >> 2 == epoch && old.key == key && old.age == age && old.depth > depth {
            return;
        }
        let (mv, mv_extra) = best.pack();
        let b = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        slot.save(Fields { key, score, mv, depth, flags: b | epoch << 2, age, mv_extra });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect::movegen::Move;

    #[test]
    fn size_is_bounded_and_store_probe_round_trips() {
        let tt = TranspositionTable::<Move>::new(1);
        assert!(tt.size_bytes() <= 1 << 20);
        let m = Move::pair(5, 3);
        tt.store(0xdead_beef_1234_5678, 4, -77, Bound::Lower, m);
        let p = tt.probe(0xdead_beef_1234_5678).unwrap();
        assert_eq!((p.score, p.depth, p.bound, p.best), (-77, 4, Bound::Lower, m));
        assert!(tt.probe(0x1111_beef_1234_5678).is_none());
        tt.clear();
        assert!(tt.probe(0xdead_beef_1234_5678).is_none());
    }

    /// Two writes to one slot that interleave leave one's data beside the other's key word:
    /// such an entry must read as a miss for both keys, never as either's hit with the
    /// other's score or move.
    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt = TranspositionTable::<Move>::new(1);
        let (a, b) = (0x1111_2222_0000_0040u64, 0x3333_4444_0000_0040u64);
        tt.store(a, 5, 111, Bound::Exact, Move::pair(1, 2));
        let slot = tt.slot(a);
        let data_a = slot.data.load(Relaxed);
        tt.store(b, 6, -222, Bound::Lower, Move::pair(3, 4));
        assert_eq!(tt.probe(b).unwrap().score, -222);
        slot.data.store(data_a, Relaxed);
        assert!(tt.probe(a).is_none() && tt.probe(b).is_none());
    }

    /// Threads storing and probing one table at once, four keys to each of a few slots so
    /// that they collide: every hit is an entry stored for that very key (its score and move
    /// are functions of the key here).
    #[test]
    fn threads_sharing_a_table_read_only_whole_entries() {
        let tt = TranspositionTable::<Move>::new(1);
        let key = |i: u64| (i % 4 + 1) << 40 | (i / 4 % 8);
        let score_of = |hash: u64| (hash >> 40) as i32 * 1000 + (hash & 7) as i32;
        let move_of = |hash: u64| Move::pair((hash >> 40) as _, (hash & 7) as _);
        let hits = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let (tt, hits) = (&tt, &hits);
                scope.spawn(move || {
                    for i in 0..40_000u64 {
                        let mine = key(i * 7 + t);
                        tt.store(mine, 3, score_of(mine), Bound::Exact, move_of(mine));
                        let other = key(i * 13 + t * 5);
                        if let Some(p) = tt.probe(other) {
                            assert_eq!((p.score, p.best), (score_of(other), move_of(other)));
                            hits.fetch_add(1, Relaxed);
                        }
                    }
                });
            }
        });
        assert!(hits.load(Relaxed) > 0);
    }

    /// A cleared table (a new game) forgets everything, through every epoch and its wrap,
    /// and so does a new table that takes a dropped one's array: a game never depends on
    /// the games before it.
    #[test]
    fn a_cleared_or_reused_table_is_empty() {
        // (A new table, small or on huge pages: empty in every slot, a big one's slots from
        // a huge page's start.)
        for mib in [1, 4] {
            let tt = TranspositionTable::<Move>::new(mib);
            let n = tt.mask + 1;
            assert_eq!(tt.size_bytes(), mib << 20);
            assert!(tt.first + n <= tt.entries.len());
            assert!((0..n as u64).all(|i| tt.probe(i).is_none()), "{mib} MiB");
            if mib >= 2 {
                assert_eq!(tt.table().as_ptr() as usize % HUGE_PAGE, 0);
            }
        }

        let m = Move::pair(5, 3);
        let tt = TranspositionTable::<Move>::new(1);
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
