//! What the search by threats has learnt about the positions it visited: the threat trees
//! of Gomoku transpose heavily (the attacker's threes a, b with their answers x, y reach the
//! same position as b, a with y, x), and without a table every order is searched again.
//!
//! A position's verdict depends only on its stones and the attacking moves left (the search
//! reads nothing else: no history, no move order learnt on the way), and it is monotone in
//! those moves: a win within d attacking moves is a win within more, and a position not won
//! within d is not won within fewer. So an entry keeps the fewest moves a win was proven
//! with and the most moves the attacker was proven not to win with; a position is the
//! attacker's to move (an attacking node) or the defender's (a defending node), which the
//! stone count fixes, so one table serves both. Only complete verdicts go in: a search cut
//! off by its budget proves nothing.

/// A verdict slot: the position's key and what is known of it.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// The fewest attacking moves a win was proven with, plus one (0: none).
    win: u8,
    /// The most attacking moves the attacker was proven not to win with, plus one (0: none).
    no_win: u8,
}

/// A fixed-size table of verdicts indexed by the position's hash; a newer position replaces
/// an older one in its slot.
pub(super) struct Known {
    slots: Vec<Entry>,
    mask: usize,
}

/// Fewest and most slots: a table sized to the search's budget of positions.
const MIN_SLOTS: usize = 1 << 10;
const MAX_SLOTS: usize = 1 << 20;

impl Known {
    /// A table for a search of about `positions` positions.
    pub(super) fn for_positions(positions: u64) -> Known {
        let n = usize::try_from(positions).unwrap_or(MAX_SLOTS).clamp(MIN_SLOTS, MAX_SLOTS).next_power_of_two();
        Known { slots: vec![Entry::default(); n], mask: n - 1 }
    }

    /// A table that keeps nothing.
    #[cfg(test)]
    pub(super) fn none() -> Known {
        Known { slots: Vec::new(), mask: 0 }
    }

    fn slot(&self, key: u64) -> Option<usize> {
        (!self.slots.is_empty()).then_some(key as usize & self.mask)
    }

    /// The verdict for the position `key` with `depth` attacking moves left, if known:
    /// `Some(true)` won, `Some(false)` not won.
    pub(super) fn verdict(&self, key: u64, depth: u32) -> Option<bool> {
        let e = &self.slots[self.slot(key)?];
        if e.key != key {
            return None;
        }
        if e.win != 0 && u32::from(e.win) - 1 <= depth {
            return Some(true);
        }
        if u32::from(e.no_win) > depth {
            return Some(false);
        }
        None
    }

    /// Records that the position `key` is won (`won`) or not within `depth` attacking moves.
    pub(super) fn record(&mut self, key: u64, depth: u32, won: bool) {
        let Some(i) = self.slot(key) else {
            return;
        };
        let e = &mut self.slots[i];
        if e.key != key {
            *e = Entry { key, ..Entry::default() };
        }
        let d = u8::try_from(depth + 1).unwrap_or(u8::MAX);
        if won {
            e.win = if e.win == 0 { d } else { e.win.min(d) };
        } else {
            e.no_win = e.no_win.max(d);
        }
    }
}
