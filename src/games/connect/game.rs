//! Connect6 and freestyle Gomoku as [`Game`]s: the board is their [`Position`], a move of one
//! or two stones their move.

use crate::core::game::{Evaluation, Game, GameMove, MoveOf, Position, Side, Status};
use crate::core::weights::Schema;
use crate::games::connect::board::{Board, Cell, Colour, Rules};
use crate::games::connect::eval::CONNECT6_ROADS;
use crate::games::connect::movegen::Move;
use crate::games::connect::notation::{board_from_record_moves, move_to_record, parse_record_move, play_move};

/// Connect6: Connect(19,19,6,2,1). Black places one stone, then each side two a turn; six or
/// more in a row wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Connect6;

/// A game of the Connect family: its rules, and the road table that judges the balance of
/// its random openings.
pub trait ConnectGame: Game {
    const RULES: Rules;
    const ROADS: &'static Schema;
}

impl ConnectGame for Connect6 {
    const RULES: Rules = Rules::CONNECT6;
    const ROADS: &'static Schema = &CONNECT6_ROADS;
}

/// A position of the Connect family: its board, and stones placed and taken one at a time (a
/// position may keep more than the board does, incrementally; Gomoku's keeps its 6-cell
/// windows). The Connect hooks of the search are written against it.
pub trait ConnectPosition: Position<Move = Move, Undo = usize> {
    fn board(&self) -> &Board;
    /// Places the next stone for the side to move (an empty cell, the game not over).
    fn place(&mut self, c: Cell);
    /// Takes back the last stone.
    fn unplace(&mut self);
}

impl ConnectPosition for Board {
    #[inline]
    fn board(&self) -> &Board {
        self
    }

    #[inline]
    fn place(&mut self, c: Cell) {
        self.play(c)
    }

    #[inline]
    fn unplace(&mut self) {
        self.undo()
    }
}

/// The side of a colour: Black moves first.
#[inline]
pub fn side_of(c: Colour) -> Side {
    match c {
        Colour::Black => Side::First,
        Colour::White => Side::Second,
    }
}

/// The colour of a side.
#[inline]
pub fn colour_of(s: Side) -> Colour {
    match s {
        Side::First => Colour::Black,
        Side::Second => Colour::White,
    }
}

impl GameMove for Move {
    const NONE: Move = Move::NONE;

    #[inline]
    fn is_none(&self) -> bool {
        Move::is_none(self)
    }

    #[inline]
    fn history_keys(&self) -> &[u16] {
        self.stones()
    }

    #[inline]
    fn pack(self) -> (u32, u8) {
        let s = self.stones();
        let (a, b) = (s.first().copied().unwrap_or(0), s.get(1).copied().unwrap_or(0));
        (u32::from(a) | u32::from(b) << 16, s.len() as u8)
    }

    #[inline]
    fn unpack(word: u32, extra: u8) -> Move {
        let stones = [word as u16, (word >> 16) as u16];
        Move::from_stones(&stones[..(extra as usize).min(2)])
    }
}

impl Position for Board {
    type Move = Move;
    /// Stones placed (fewer than the move's when an early stone wins).
    type Undo = usize;

    #[inline]
    fn side_to_move(&self) -> Side {
        side_of(self.to_move())
    }

    fn status(&self) -> Status {
        if let Some(w) = self.winner() {
            Status::Won { winner: side_of(w), reason: self.rules().line_word() }
        } else if self.is_full() {
            Status::Draw { reason: "full" }
        } else {
            Status::Ongoing
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        Board::hash(self)
    }

    #[inline]
    fn play(&mut self, m: Move) -> usize {
        make_move(self, m)
    }

    #[inline]
    fn undo(&mut self, placed: usize) {
        unmake_move(self, placed)
    }

    #[inline]
    fn replay(&mut self, placed: usize, m: Move) -> usize {
        replace_move(self, placed, m)
    }
}

/// Takes back the `placed` stones of the last move and plays m: when both are pairs that
/// share a stone, by moving the other stone only ([`Board::replace_pair`]). A pair that
/// wins is played again stone by stone, since [`make_move`] stops at a first stone that
/// wins on its own.
#[inline]
pub fn replace_move(board: &mut Board, placed: usize, m: Move) -> usize {
    if let [a, b] = *m.stones() {
        if placed == 2 && board.replace_pair(a, b) {
            if board.winner().is_none() {
                return 2;
            }
            unmake_move(board, 2);
            return make_move(board, m);
        }
    }
    unmake_move(board, placed);
    make_move(board, m)
}

/// Plays a move's stones; returns how many were placed (fewer if an early stone won).
#[inline]
pub fn make_move(board: &mut Board, m: Move) -> usize {
    let mut placed = 0;
    for &c in m.stones() {
        board.play(c);
        placed += 1;
        if board.winner().is_some() {
            break;
        }
    }
    placed
}

/// Takes back `placed` stones.
#[inline]
pub fn unmake_move(board: &mut Board, placed: usize) {
    for _ in 0..placed {
        board.undo();
    }
}

/// Every legal move of a Connect position: the single stones of a one-stone turn, or every
/// pair of empty cells of a two-stone turn, a pair holding a stone that wins on its own
/// cut short to that stone (the game ends on it).
pub fn legal_moves(board: &Board, out: &mut Vec<Move>) {
    out.clear();
    if board.winner().is_some() || board.is_full() {
        return;
    }
    let empty: Vec<Cell> = (0..board.rules().cells() as Cell).filter(|&c| board.is_empty_cell(c)).collect();
    let turn = board.stones_left_in_turn().min(empty.len());
    if turn == 1 {
        out.extend(empty.iter().map(|&c| Move::single(c)));
        return;
    }
    let mut probe = board.clone();
    let wins: Vec<bool> = empty
        .iter()
        .map(|&c| {
            probe.play(c);
            let w = probe.winner().is_some();
            probe.undo();
            w
        })
        .collect();
    for (i, &a) in empty.iter().enumerate() {
        if wins[i] {
            out.push(Move::single(a));
            continue;
        }
        for (j, &b) in empty.iter().enumerate().skip(i + 1) {
            if !wins[j] {
                out.push(Move::pair(a, b));
            }
        }
    }
}

/// Reads a move in record notation (a pair of two different cells, or one stone).
pub fn parse(rules: Rules, text: &str) -> Result<Move, String> {
    let stones = parse_record_move(rules, text).map_err(|e| e.to_string())?;
    if let [a, b] = stones[..] {
        if a == b {
            return Err(format!("`{text}`: the same cell twice"));
        }
    }
    Ok(Move::from_stones(&stones))
}

/// Plays a whole move with the checks of [`play_move`].
fn play_checked(board: &mut Board, m: Move) -> Result<(), String> {
    play_move(board, m.stones())
}

impl Game for Connect6 {
    type Position = Board;
    const NAME: &'static str = "connect6";
    const TITLE: &'static str = "Connect6";

    fn start(&self) -> Board {
        Board::new(Self::RULES)
    }

    fn legal_moves(&self, pos: &Board, out: &mut Vec<MoveOf<Self>>) {
        legal_moves(pos, out)
    }

    fn parse_move(&self, _pos: &Board, text: &str) -> Result<Move, String> {
        parse(Self::RULES, text)
    }

    fn format_move(&self, _pos: &Board, m: Move) -> String {
        move_to_record(Self::RULES, m.stones())
    }

    fn play_checked(&self, pos: &mut Board, m: Move) -> Result<(), String> {
        play_checked(pos, m)
    }

    fn at_move_boundary(&self, pos: &Board) -> bool {
        !pos.is_over() && pos.stones_left_in_turn() == pos.turn_size()
    }

    fn evaluations(&self) -> &'static [Evaluation] {
        &crate::games::connect::eval::CONNECT6_EVALUATIONS
    }

    /// The stones of each move go down in the order the record writes them.
    fn replay<S: AsRef<str>>(&self, moves: &[S]) -> Result<Board, String> {
        board_from_record_moves(Self::RULES, moves).map_err(|e| e.to_string())
    }
}
