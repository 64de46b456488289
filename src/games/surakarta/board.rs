//! A Surakarta position: the pieces, the side to move, a Zobrist hash, and what the end rules
//! need (pieces left, moves since the last capture, the hashes of the positions since then).
//!
//! The first player's twelve pieces start on the bottom two rows (cells 24..35), the second
//! player's on the top two (cells 0..11); the first player moves first.

use crate::core::game::{GameMove, Position, Side, Status};
use crate::core::rng::splitmix;
use crate::games::surakarta::geometry::{crosses_arc, CELLS, CIRCUITS, LOOP, NEIGHBOURS, NO_CELL, STATIONS};

/// Moves without a capture after which the game ends (more pieces wins), by default.
pub const DEFAULT_NO_CAPTURE_LIMIT: u16 = 50;

/// A move: from one point to another, a step or a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// `36 * from + to`, also the history key; `u16::MAX` for no move.
    key: [u16; 1],
    capture: bool,
}

impl Move {
    pub fn step(from: usize, to: usize) -> Move {
        Move { key: [(from * CELLS + to) as u16], capture: false }
    }

    pub fn capture(from: usize, to: usize) -> Move {
        Move { key: [(from * CELLS + to) as u16], capture: true }
    }

    pub fn from(self) -> usize {
        self.key[0] as usize / CELLS
    }

    pub fn to(self) -> usize {
        self.key[0] as usize % CELLS
    }

    pub fn is_capture(self) -> bool {
        self.capture
    }
}

impl Default for Move {
    fn default() -> Self {
        Move::NONE
    }
}

impl GameMove for Move {
    const NONE: Move = Move { key: [u16::MAX], capture: false };

    fn history_keys(&self) -> &[u16] {
        &self.key
    }

    fn order_tier(&self) -> u8 {
        self.capture as u8
    }

    fn pack(self) -> (u32, u8) {
        (self.key[0] as u32, self.capture as u8)
    }

    fn unpack(word: u32, extra: u8) -> Move {
        Move { key: [word as u16], capture: extra != 0 }
    }
}

/// The Zobrist keys: one per (side, cell), and one for the second player to move.
struct Keys {
    pieces: [[u64; CELLS]; 2],
    second_to_move: u64,
}

const fn keys() -> Keys {
    let mut k = Keys { pieces: [[0; CELLS]; 2], second_to_move: 0 };
    let mut state = 0x5352_4B54_u64; // "SRKT"
    let mut side = 0;
    while side < 2 {
        let mut c = 0;
        while c < CELLS {
            let (s, v) = splitmix(state);
            state = s;
            k.pieces[side][c] = v;
            c += 1;
        }
        side += 1;
    }
    k.second_to_move = splitmix(state).1;
    k
}

static KEYS: Keys = keys();

/// What taking a move back needs.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    mv: Move,
    quiet: u16,
    repeated: bool,
}

/// A Surakarta position.
#[derive(Clone, Debug)]
pub struct Board {
    /// The owner of each point, if any.
    cells: [Option<Side>; CELLS],
    to_move: Side,
    /// Pieces left, by side.
    pieces: [u8; 2],
    hash: u64,
    /// Moves since the last capture (or the start).
    quiet: u16,
    /// The hash of the position before each move played, in order.
    history: Vec<u64>,
    /// Whether the current position already stood earlier in the game.
    repeated: bool,
    no_capture_limit: u16,
}

impl Default for Board {
    fn default() -> Self {
        Board::start()
    }
}

impl Board {
    /// The starting position, with the default no-capture limit.
    pub fn start() -> Board {
        Board::start_with_limit(DEFAULT_NO_CAPTURE_LIMIT)
    }

    /// The starting position; the game ends after `limit` moves without a capture (at least 1).
    pub fn start_with_limit(limit: u16) -> Board {
        let mut cells = [None; CELLS];
        for (c, cell) in cells.iter_mut().enumerate() {
            if c < 12 {
                *cell = Some(Side::Second);
            } else if c >= 24 {
                *cell = Some(Side::First);
            }
        }
        Board::from_cells(cells, Side::First, limit)
    }

    /// A position with these pieces and this side to move, as if no move had been played.
    pub fn from_cells(cells: [Option<Side>; CELLS], to_move: Side, limit: u16) -> Board {
        let mut pieces = [0; 2];
        let mut hash = if to_move == Side::Second { KEYS.second_to_move } else { 0 };
        for (c, owner) in cells.iter().enumerate() {
            if let Some(s) = owner {
                pieces[s.index()] += 1;
                hash ^= KEYS.pieces[s.index()][c];
            }
        }
        Board {
            cells,
            to_move,
            pieces,
            hash,
            quiet: 0,
            history: Vec::new(),
            repeated: false,
            no_capture_limit: limit.max(1),
        }
    }

    #[inline]
    pub fn at(&self, cell: usize) -> Option<Side> {
        self.cells[cell]
    }

    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Pieces `side` has left.
    #[inline]
    pub fn pieces(&self, side: Side) -> usize {
        self.pieces[side.index()] as usize
    }

    /// Moves since the last capture.
    pub fn quiet_moves(&self) -> u16 {
        self.quiet
    }

    pub fn no_capture_limit(&self) -> u16 {
        self.no_capture_limit
    }

    /// Moves played since this position was set up.
    pub fn moves_played(&self) -> usize {
        self.history.len()
    }

    /// Every capture the piece on `from` can make (its owner's, whoever is to move), each
    /// target once, in the order the flights find them: circuit by circuit, each of the
    /// piece's stations, forward then backward. `on_circuit(c, target)` is told the circuit of
    /// each flight that ends on an enemy (a target reached on both circuits is told twice).
    #[inline]
    pub fn captures_from(&self, from: usize, mut on_circuit: impl FnMut(usize, usize)) -> u64 {
        let Some(me) = self.cells[from] else { return 0 };
        let mut targets = 0u64;
        for (circuit, start) in STATIONS[from].iter() {
            let path = &CIRCUITS[circuit];
            for forward in [true, false] {
                let mut i = start;
                let mut arcs = false;
                // Every other position of the loop at most once: after LOOP - 1 steps the
                // flight would be back where it took off.
                for _ in 1..LOOP {
                    arcs |= crosses_arc(i, forward);
                    i = if forward { (i + 1) % LOOP } else { (i + LOOP - 1) % LOOP };
                    let cell = path[i] as usize;
                    if cell == from {
                        // The piece's own start point is empty while it flies.
                        continue;
                    }
                    match self.cells[cell] {
                        None => continue,
                        Some(owner) if owner != me && arcs => {
                            targets |= 1 << cell;
                            on_circuit(circuit, cell);
                            break;
                        }
                        Some(_) => break,
                    }
                }
            }
        }
        targets
    }

    /// The empty neighbours of `from`, as a bit set.
    #[inline]
    pub fn steps_from(&self, from: usize) -> u64 {
        let mut out = 0u64;
        for &n in &NEIGHBOURS[from] {
            if n == NO_CELL {
                break;
            }
            if self.cells[n as usize].is_none() {
                out |= 1 << n;
            }
        }
        out
    }

    /// The legal moves of the side to move, captures first (by piece, then target), then
    /// steps; none once the game is over.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.status().is_over() {
            return;
        }
        self.pseudo_moves(out);
    }

    /// The moves of the side to move by the movement rules alone (whether or not the game is
    /// over): captures first, then steps.
    pub fn pseudo_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let me = self.to_move;
        for from in 0..CELLS {
            if self.cells[from] == Some(me) {
                let mut t = self.captures_from(from, |_, _| {});
                while t != 0 {
                    out.push(Move::capture(from, t.trailing_zeros() as usize));
                    t &= t - 1;
                }
            }
        }
        for from in 0..CELLS {
            if self.cells[from] == Some(me) {
                let mut t = self.steps_from(from);
                while t != 0 {
                    out.push(Move::step(from, t.trailing_zeros() as usize));
                    t &= t - 1;
                }
            }
        }
    }

    /// Whether the side to move has any move by the movement rules.
    fn can_move(&self) -> bool {
        let me = self.to_move;
        (0..CELLS).any(|c| self.cells[c] == Some(me) && self.steps_from(c) != 0)
            || (0..CELLS).any(|c| self.cells[c] == Some(me) && self.captures_from(c, |_, _| {}) != 0)
    }

    /// Whether `m` is a move of the side to move here by the movement rules (its capture
    /// flag included).
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        if m.is_none() || self.cells[m.from()] != Some(self.to_move) {
            return false;
        }
        let bit = 1u64 << m.to();
        if m.is_capture() {
            self.captures_from(m.from(), |_, _| {}) & bit != 0
        } else {
            self.steps_from(m.from()) & bit != 0
        }
    }

    /// The winner by pieces left, or a draw, with this reason.
    fn by_pieces(&self, reason: &'static str) -> Status {
        let (first, second) = (self.pieces[0], self.pieces[1]);
        if first > second {
            Status::Won { winner: Side::First, reason }
        } else if second > first {
            Status::Won { winner: Side::Second, reason }
        } else {
            Status::Draw { reason }
        }
    }

    /// Whether the game has ended: one side has no pieces (`captured`); a position came back
    /// (`repetition`), or `no_capture_limit` moves passed without a capture (`no-capture`),
    /// or the side to move cannot move (`blocked`) — each decided by pieces left.
    pub fn status(&self) -> Status {
        let me = self.to_move;
        if self.pieces[me.index()] == 0 {
            return Status::Won { winner: me.other(), reason: "captured" };
        }
        if self.repeated {
            return self.by_pieces("repetition");
        }
        if self.quiet >= self.no_capture_limit {
            return self.by_pieces("no-capture");
        }
        if !self.can_move() {
            return self.by_pieces("blocked");
        }
        Status::Ongoing
    }

    /// Plays a move of the movement rules (see [`Board::is_pseudo_legal`]).
    pub fn play(&mut self, m: Move) -> Undo {
        let undo = Undo { mv: m, quiet: self.quiet, repeated: self.repeated };
        let (from, to) = (m.from(), m.to());
        let me = self.to_move;
        self.history.push(self.hash);
        if m.is_capture() {
            let them = me.other();
            debug_assert_eq!(self.cells[to], Some(them));
            self.pieces[them.index()] -= 1;
            self.hash ^= KEYS.pieces[them.index()][to];
            self.quiet = 0;
        } else {
            self.quiet += 1;
        }
        self.cells[from] = None;
        self.cells[to] = Some(me);
        self.hash ^= KEYS.pieces[me.index()][from] ^ KEYS.pieces[me.index()][to] ^ KEYS.second_to_move;
        self.to_move = me.other();
        // Only positions since the last capture can come back (a capture is never undone);
        // the same side is to move in every second one of them.
        let n = self.history.len();
        let since = (self.quiet as usize).min(n);
        self.repeated = (2..=since).step_by(2).any(|back| self.history[n - back] == self.hash);
        undo
    }

    pub fn undo(&mut self, u: Undo) {
        let m = u.mv;
        let (from, to) = (m.from(), m.to());
        self.to_move = self.to_move.other();
        let me = self.to_move;
        self.cells[to] = None;
        self.cells[from] = Some(me);
        if m.is_capture() {
            let them = me.other();
            self.cells[to] = Some(them);
            self.pieces[them.index()] += 1;
        }
        self.hash = self.history.pop().expect("a move to take back");
        self.quiet = u.quiet;
        self.repeated = u.repeated;
    }

    /// The hash recomputed from the pieces and the side to move (a test oracle of the
    /// incremental one).
    pub fn hash_from_scratch(&self) -> u64 {
        Board::from_cells(self.cells, self.to_move, self.no_capture_limit).hash
    }

    /// The pieces as text, the top row first: `x` the first player, `o` the second, `.` empty.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for row in 0..6 {
            s.push_str(&format!("{} ", 6 - row));
            for col in 0..6 {
                s.push(match self.cells[row * 6 + col] {
                    Some(Side::First) => 'x',
                    Some(Side::Second) => 'o',
                    None => '.',
                });
            }
            s.push('\n');
        }
        s.push_str("  abcdef\n");
        s
    }
}

impl Position for Board {
    type Move = Move;
    type Undo = Undo;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn status(&self) -> Status {
        Board::status(self)
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    fn play(&mut self, m: Move) -> Undo {
        Board::play(self, m)
    }

    #[inline]
    fn undo(&mut self, u: Undo) {
        Board::undo(self, u)
    }
}
