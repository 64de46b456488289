//! EinStein würfelt nicht's rules: the board, its moves, the setups and the die.
//!
//! Squares are numbered `row * 5 + col`, row 0 at the top, column 0 at the left; the record
//! names them `a5` (top-left) to `e1` (bottom-right), columns `a`..`e`, rows `5`..`1` from
//! the top. The first player (red) starts in the top-left triangle and moves right, down or
//! down-right; the second (blue) starts bottom-right and moves left, up or up-left.
//!
//! A game goes: red's setup, blue's setup, then turns of (roll, move). The roll is a chance
//! event ([`Position::chance`]): the die picks cube `d` if the mover still has it, else the
//! nearest cube above or below `d` that is left (either, when both exist). The cube moves one
//! step; whatever stands on the target square (own or enemy) is removed. A side wins when one
//! of its cubes reaches the far corner or when the opponent has no cubes left.

use crate::core::game::{GameMove, Position, Side, Status};
use crate::core::rng::splitmix;

/// Squares a side.
pub const SIDE: usize = 5;
/// Squares on the board.
pub const SQUARES: usize = SIDE * SIDE;
/// Cubes a side, numbered 1..=6.
pub const CUBES: usize = 6;
/// Distinct setups of one side: the orders of six cubes.
pub const SETUPS: u16 = 720;

/// A side's starting triangle, from its own corner outwards: the corner, its two neighbours,
/// then the three squares of the next diagonal. A setup lists cubes in this order.
pub const TRIANGLE: [[u8; CUBES]; 2] = [[0, 1, 5, 2, 6, 10], [24, 23, 19, 22, 18, 14]];

/// The corner a side must reach (the opponent's home corner).
pub const TARGET: [u8; 2] = [24, 0];

/// Step directions as (row, column) changes, per side: red right, down, down-right; blue
/// left, up, up-left.
const STEPS: [[(i8, i8); 3]; 2] = [[(0, 1), (1, 0), (1, 1)], [(0, -1), (-1, 0), (-1, -1)]];

/// What the position waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The side to move places its cubes.
    Setup,
    /// The die is to be rolled (a chance event).
    Roll,
    /// The side to move moves a cube the die `d` (1..=6) selects.
    Move(u8),
}

/// A move: a setup (a permutation of the cubes) or a step of a cube, with the die it was
/// played on (a record carries the roll with each step, so a record replays the game).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move {
    kind: u8,
    die: u8,
    from: u8,
    to: u8,
    setup: u16,
    key: [u16; 1],
}

const NONE_KIND: u8 = 0;
const STEP_KIND: u8 = 1;
const SETUP_KIND: u8 = 2;
const ROLL_KIND: u8 = 3;

impl Move {
    /// A step of the cube on `from` to `to`, on a roll of `die`.
    pub fn step(die: u8, from: u8, to: u8) -> Move {
        Move { kind: STEP_KIND, die, from, to, setup: 0, key: [from as u16 * SQUARES as u16 + to as u16] }
    }

    /// A setup: `index` of the 720 orders of the cubes ([`setup_cubes`]).
    pub fn setup(index: u16) -> Move {
        Move { kind: SETUP_KIND, die: 0, from: 0, to: 0, setup: index, key: [0] }
    }

    /// A roll of the die written as a move (`r4`): how a record or a position given as moves
    /// says what the die shows before a search. The searches never generate it.
    pub fn roll(die: u8) -> Move {
        Move { kind: ROLL_KIND, die, from: 0, to: 0, setup: 0, key: [0] }
    }

    pub fn is_roll(&self) -> bool {
        self.kind == ROLL_KIND
    }

    pub fn is_setup(&self) -> bool {
        self.kind == SETUP_KIND
    }

    pub fn is_step(&self) -> bool {
        self.kind == STEP_KIND
    }

    pub fn die(&self) -> u8 {
        self.die
    }

    pub fn from(&self) -> u8 {
        self.from
    }

    pub fn to(&self) -> u8 {
        self.to
    }

    pub fn setup_index(&self) -> u16 {
        self.setup
    }
}

impl GameMove for Move {
    const NONE: Move = Move { kind: NONE_KIND, die: 0, from: 0, to: 0, setup: 0, key: [0] };

    fn history_keys(&self) -> &[u16] {
        &self.key
    }

    fn pack(self) -> (u32, u8) {
        let word = self.kind as u32 | (self.die as u32) << 2 | (self.from as u32) << 5 | (self.to as u32) << 10;
        (word | (self.setup as u32) << 15, 0)
    }

    fn unpack(word: u32, _extra: u8) -> Move {
        let kind = (word & 3) as u8;
        match kind {
            STEP_KIND => Move::step((word >> 2 & 7) as u8, (word >> 5 & 31) as u8, (word >> 10 & 31) as u8),
            SETUP_KIND => Move::setup((word >> 15) as u16),
            ROLL_KIND => Move::roll((word >> 2 & 7) as u8),
            _ => Move::NONE,
        }
    }
}

/// The cubes of setup `index` (0..720) in [`TRIANGLE`] order: the index-th permutation of
/// 1..=6 in lexicographic order (0 is `123456`, 719 is `654321`).
pub fn setup_cubes(index: u16) -> [u8; CUBES] {
    let mut left: Vec<u8> = (1..=CUBES as u8).collect();
    let mut rest = index as usize;
    let mut out = [0; CUBES];
    for (i, slot) in out.iter_mut().enumerate() {
        let block = factorial(CUBES - 1 - i);
        *slot = left.remove(rest / block);
        rest %= block;
    }
    out
}

/// The index of a setup given as its cubes in [`TRIANGLE`] order, if they are 1..=6 once each.
pub fn setup_index(cubes: &[u8]) -> Option<u16> {
    if cubes.len() != CUBES {
        return None;
    }
    let mut left: Vec<u8> = (1..=CUBES as u8).collect();
    let mut index = 0;
    for (i, c) in cubes.iter().enumerate() {
        let at = left.iter().position(|x| x == c)?;
        left.remove(at);
        index += at * factorial(CUBES - 1 - i);
    }
    Some(index as u16)
}

fn factorial(n: usize) -> usize {
    (1..=n).product()
}

/// Zobrist keys, from a fixed SplitMix64 stream: one per (square, cube code 1..=12), one per
/// die value and phase, one for the side to move.
struct Keys {
    cube: [[u64; 13]; SQUARES],
    phase: [u64; 8],
    second: u64,
}

const fn make_keys() -> Keys {
    let mut keys = Keys { cube: [[0; 13]; SQUARES], phase: [0; 8], second: 0 };
    let mut state = 0xE1A5_7E1A_u64;
    let mut sq = 0;
    while sq < SQUARES {
        let mut c = 1;
        while c < 13 {
            let (s, z) = splitmix(state);
            state = s;
            keys.cube[sq][c] = z;
            c += 1;
        }
        sq += 1;
    }
    let mut p = 0;
    while p < 8 {
        let (s, z) = splitmix(state);
        state = s;
        keys.phase[p] = z;
        p += 1;
    }
    keys.second = splitmix(state).1;
    keys
}

static KEYS: Keys = make_keys();

fn phase_slot(phase: Phase) -> usize {
    match phase {
        Phase::Setup => 0,
        Phase::Roll => 7,
        Phase::Move(d) => d as usize,
    }
}

/// A position. Cells hold 0 (empty), `k` (red cube k) or `6 + k` (blue cube k).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    cells: [u8; SQUARES],
    /// Square of each cube per side (index 1..=6), or [`GONE`].
    at: [[u8; CUBES + 1]; 2],
    /// Bit k set when the side still has cube k.
    alive: [u8; 2],
    to_move: Side,
    phase: Phase,
    hash: u64,
}

/// The square of a cube that was removed.
pub const GONE: u8 = u8::MAX;

/// What taking a move back needs.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    mv: Move,
    captured: u8,
    phase: Phase,
}

impl Board {
    /// The empty board, red to place its cubes.
    pub fn start() -> Board {
        let mut b = Board {
            cells: [0; SQUARES],
            at: [[GONE; CUBES + 1]; 2],
            alive: [0; 2],
            to_move: Side::First,
            phase: Phase::Setup,
            hash: 0,
        };
        b.hash = b.compute_hash();
        b
    }

    fn compute_hash(&self) -> u64 {
        let mut h = KEYS.phase[phase_slot(self.phase)];
        for (sq, &c) in self.cells.iter().enumerate() {
            if c != 0 {
                h ^= KEYS.cube[sq][c as usize];
            }
        }
        if self.to_move == Side::Second {
            h ^= KEYS.second;
        }
        h
    }

    pub fn to_move(&self) -> Side {
        self.to_move
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The side and cube on a square, if any.
    pub fn at(&self, sq: usize) -> Option<(Side, u8)> {
        match self.cells[sq] {
            0 => None,
            c if c <= CUBES as u8 => Some((Side::First, c)),
            c => Some((Side::Second, c - CUBES as u8)),
        }
    }

    /// The raw cell code of a square: 0 empty, `k` red cube k, `6 + k` blue cube k.
    pub fn code_at(&self, sq: usize) -> u8 {
        self.cells[sq]
    }

    /// Whether a cube of `side`'s opponent stands on `sq`.
    pub fn holds_enemy_of(&self, side: Side, sq: u8) -> bool {
        let code = self.cells[sq as usize];
        code != 0 && (code > CUBES as u8) == (side == Side::First)
    }

    /// The square of a side's cube `k` (1..=6), or [`GONE`].
    pub fn square_of(&self, side: Side, k: u8) -> u8 {
        self.at[side.index()][k as usize]
    }

    /// Bit k set for each cube `k` the side still has.
    pub fn alive(&self, side: Side) -> u8 {
        self.alive[side.index()]
    }

    /// The cubes a roll of `die` lets `side` move: the cube itself, or the nearest below and
    /// the nearest above that are left. Returns up to two cube numbers (0 for none).
    pub fn movable(&self, side: Side, die: u8) -> [u8; 2] {
        let alive = self.alive[side.index()];
        if alive & (1 << die) != 0 {
            return [die, 0];
        }
        let below = (1..die).rev().find(|k| alive & (1 << k) != 0).unwrap_or(0);
        let above = (die + 1..=CUBES as u8).find(|k| alive & (1 << k) != 0).unwrap_or(0);
        [below, above]
    }

    /// The steps of `side`'s cube on `from`, in [`STEPS`] order, that stay on the board.
    pub fn steps_from(side: Side, from: u8) -> impl Iterator<Item = u8> {
        let (r, c) = ((from as usize / SIDE) as i8, (from as usize % SIDE) as i8);
        STEPS[side.index()].iter().filter_map(move |&(dr, dc)| {
            let (nr, nc) = (r + dr, c + dc);
            ((0..SIDE as i8).contains(&nr) && (0..SIDE as i8).contains(&nc))
                .then_some((nr as usize * SIDE + nc as usize) as u8)
        })
    }

    /// The moves of the position: setups while placing, steps after a roll, none before the
    /// roll or once the game is over.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.status().is_over() {
            return;
        }
        match self.phase {
            Phase::Setup => out.extend((0..SETUPS).map(Move::setup)),
            Phase::Roll => {}
            Phase::Move(die) => self.steps_for(die, out),
        }
    }

    /// The steps on a roll of `die` for the side to move (appended).
    pub fn steps_for(&self, die: u8, out: &mut Vec<Move>) {
        let side = self.to_move;
        for k in self.movable(side, die) {
            if k != 0 {
                let from = self.at[side.index()][k as usize];
                out.extend(Self::steps_from(side, from).map(|to| Move::step(die, from, to)));
            }
        }
    }

    /// Whether `m` is one of the position's moves.
    pub fn is_legal(&self, m: Move) -> bool {
        if self.status().is_over() {
            return false;
        }
        match (self.phase, m.kind) {
            (Phase::Setup, SETUP_KIND) => m.setup < SETUPS,
            (Phase::Roll, ROLL_KIND) => (1..=CUBES as u8).contains(&m.die),
            (Phase::Move(die), STEP_KIND) if m.die == die => {
                let mut moves = Vec::with_capacity(6);
                self.steps_for(die, &mut moves);
                moves.contains(&m)
            }
            _ => false,
        }
    }

    /// Sets the die to `die` (1..=6) at a roll.
    pub fn roll(&mut self, die: u8) {
        debug_assert_eq!(self.phase, Phase::Roll);
        debug_assert!((1..=CUBES as u8).contains(&die));
        self.set_phase(Phase::Move(die));
    }

    /// Takes a roll back (the position waits for the roll again).
    pub fn unroll(&mut self) {
        self.set_phase(Phase::Roll);
    }

    fn set_phase(&mut self, phase: Phase) {
        self.hash ^= KEYS.phase[phase_slot(self.phase)] ^ KEYS.phase[phase_slot(phase)];
        self.phase = phase;
    }

    fn put(&mut self, sq: u8, code: u8) {
        let (side, k) = if code <= CUBES as u8 { (0, code) } else { (1, code - CUBES as u8) };
        self.cells[sq as usize] = code;
        self.at[side][k as usize] = sq;
        self.alive[side] |= 1 << k;
        self.hash ^= KEYS.cube[sq as usize][code as usize];
    }

    fn take(&mut self, sq: u8) -> u8 {
        let code = self.cells[sq as usize];
        if code != 0 {
            let (side, k) = if code <= CUBES as u8 { (0, code) } else { (1, code - CUBES as u8) };
            self.cells[sq as usize] = 0;
            self.at[side][k as usize] = GONE;
            self.alive[side] &= !(1 << k);
            self.hash ^= KEYS.cube[sq as usize][code as usize];
        }
        code
    }

    fn code(side: Side, k: u8) -> u8 {
        k + if side == Side::First { 0 } else { CUBES as u8 }
    }

    fn flip_side(&mut self) {
        self.to_move = self.to_move.other();
        self.hash ^= KEYS.second;
    }
}

impl Position for Board {
    type Move = Move;
    type Undo = Undo;

    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn status(&self) -> Status {
        if self.phase == Phase::Setup {
            return Status::Ongoing;
        }
        for side in Side::BOTH {
            let target = TARGET[side.index()] as usize;
            if let Some((owner, _)) = self.at(target) {
                if owner == side {
                    return Status::Won { winner: side, reason: "corner" };
                }
            }
            if self.alive[side.other().index()] == 0 {
                return Status::Won { winner: side, reason: "captured" };
            }
        }
        Status::Ongoing
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn play(&mut self, m: Move) -> Undo {
        let undo = Undo { mv: m, captured: 0, phase: self.phase };
        let side = self.to_move;
        if m.is_roll() {
            self.roll(m.die);
            return undo;
        }
        if m.is_setup() {
            let cubes = setup_cubes(m.setup);
            for (i, &k) in cubes.iter().enumerate() {
                self.put(TRIANGLE[side.index()][i], Self::code(side, k));
            }
            // Red places, then blue; then red rolls first.
            self.set_phase(if side == Side::First { Phase::Setup } else { Phase::Roll });
            self.flip_side();
            return undo;
        }
        let code = self.take(m.from);
        let captured = self.take(m.to);
        self.put(m.to, code);
        self.set_phase(Phase::Roll);
        self.flip_side();
        Undo { captured, ..undo }
    }

    fn undo(&mut self, undo: Undo) {
        if undo.mv.is_roll() {
            self.set_phase(undo.phase);
            return;
        }
        self.flip_side();
        self.set_phase(undo.phase);
        let m = undo.mv;
        if m.is_setup() {
            for &sq in &TRIANGLE[self.to_move.index()] {
                self.take(sq);
            }
            return;
        }
        let code = self.take(m.to);
        self.put(m.from, code);
        if undo.captured != 0 {
            self.put(m.to, undo.captured);
        }
    }

    fn chance(&self) -> Option<u32> {
        (self.phase == Phase::Roll && !self.status().is_over()).then_some(CUBES as u32)
    }

    fn resolve_chance(&mut self, outcome: u32) {
        self.roll(outcome as u8 + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_indices_round_trip() {
        for i in 0..SETUPS {
            assert_eq!(setup_index(&setup_cubes(i)), Some(i));
        }
        assert_eq!(setup_cubes(0), [1, 2, 3, 4, 5, 6]);
        assert_eq!(setup_cubes(719), [6, 5, 4, 3, 2, 1]);
        assert_eq!(setup_index(&[1, 1, 2, 3, 4, 5]), None);
    }

    #[test]
    fn play_and_undo_restore_everything() {
        let mut b = Board::start();
        let start = b.clone();
        let u1 = b.play(Move::setup(17));
        let u2 = b.play(Move::setup(400));
        assert_eq!(b.phase(), Phase::Roll);
        let before = b.clone();
        b.roll(3);
        let mut moves = Vec::new();
        b.legal_moves(&mut moves);
        for &m in &moves {
            let mut c = b.clone();
            let u = c.play(m);
            assert_eq!(c.hash(), c.compute_hash());
            c.undo(u);
            assert_eq!(c, b);
        }
        b.unroll();
        assert_eq!(b, before);
        b.undo(u2);
        b.undo(u1);
        assert_eq!(b, start);
    }

    #[test]
    fn packs_round_trip() {
        for m in [Move::step(6, 24, 18), Move::setup(719), Move::roll(4), Move::NONE] {
            let (w, e) = m.pack();
            assert_eq!(Move::unpack(w, e), m);
        }
    }
}
