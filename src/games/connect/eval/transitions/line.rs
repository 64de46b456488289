//! The scanned line of the K function and what a stone does to the patterns on it: the 13 cells
//! through a candidate cell in one direction, their base-4 key, and the pattern state of each
//! side before and after the stone.

use crate::games::connect::board::{Board, Cell, Colour, DIRECTIONS};
use crate::games::connect::eval::patterns::{classify_line, Pattern, Point, Shape};

/// Connect6's k: six in a row wins.
pub const K: usize = 6;
/// Cells scanned on each side of the candidate: enough for every window of k through it plus
/// the cell that decides whether a five is open beyond it.
pub const REACH: usize = 6;
/// Cells of a scanned line; the candidate is cell [`REACH`] (the 7th).
pub const SPAN: usize = 2 * REACH + 1;

/// A cell's digit in a key: the paper's code (-1 off the board, 0 black, 1 white, 2 empty)
/// plus one.
pub const OFF: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;
pub const EMPTY: u8 = 3;

/// The pattern state of one side on a scanned line, ordered from weakest to strongest: no
/// pattern (fewer than two stones that share a window), the dead classes, then the live and
/// sleeping ones by how many blocking stones and how much time they leave the opponent, and a
/// finished line last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum State {
    None,
    D2,
    D3,
    D4,
    D5,
    S2,
    A2,
    S3,
    I3,
    A3,
    S4,
    S5,
    A4,
    A5,
    /// Six or more in a row (C6 and the long connection CL alike: both win).
    C6,
}

impl State {
    pub const ALL: [State; 15] = [
        State::None,
        State::D2,
        State::D3,
        State::D4,
        State::D5,
        State::S2,
        State::A2,
        State::S3,
        State::I3,
        State::A3,
        State::S4,
        State::S5,
        State::A4,
        State::A5,
        State::C6,
    ];

    fn of(p: Pattern) -> State {
        match (p.shape, p.stones) {
            (Shape::Dead, 2) => State::D2,
            (Shape::Dead, 3) => State::D3,
            (Shape::Dead, 4) => State::D4,
            (Shape::Dead, 5) => State::D5,
            (Shape::Sleep, 2) => State::S2,
            (Shape::Live, 2) => State::A2,
            (Shape::Sleep, 3) => State::S3,
            (Shape::Indistinct, 3) => State::I3,
            (Shape::Live, 3) => State::A3,
            (Shape::Sleep, 4) => State::S4,
            (Shape::Sleep, 5) => State::S5,
            (Shape::Live, 4) => State::A4,
            (Shape::Live, 5) => State::A5,
            other => unreachable!("no Connect6 pattern {other:?}"),
        }
    }

    /// The paper's symbol (`A5`, `I3`, `C6`; `-` for no pattern).
    pub fn symbol(self) -> &'static str {
        ["-", "D2", "D3", "D4", "D5", "S2", "A2", "S3", "I3", "A3", "S4", "S5", "A4", "A5", "C6"][self as usize]
    }

    /// Reads a symbol as [`State::symbol`] writes it, in either case.
    pub fn parse(text: &str) -> Option<State> {
        State::ALL.into_iter().find(|s| s.symbol().eq_ignore_ascii_case(text))
    }
}

/// What one stone does on one scanned line: the state of the mover's pattern through the cell
/// before and after it, and the state of the opponent's patterns it touches before and after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Change {
    pub own: (State, State),
    pub opp: (State, State),
}

/// The key of a scanned line: its 13 digits in base 4, the first cell most significant (the
/// paper's `value = value * 4 + code + 1`).
pub fn key_of(digits: &[u8; SPAN]) -> u32 {
    digits.iter().fold(0u32, |key, &d| key * 4 + u32::from(d))
}

/// The digits of a key.
pub fn digits_of(key: u32) -> [u8; SPAN] {
    std::array::from_fn(|i| ((key >> (2 * (SPAN - 1 - i))) & 3) as u8)
}

/// The scanned line through `c` in direction `dir` (an index into [`DIRECTIONS`]) with the
/// mover's stone on `c`, reading cells whose stone was placed at or after `hide_from` in the
/// board's history as empty (`usize::MAX` hides none): the position the stone was played in.
pub fn scan(board: &Board, c: Cell, dir: usize, mover: Colour, order: &[u16], hide_from: usize) -> [u8; SPAN] {
    read_line(board, c, dir, mover, |cell| board.stone(cell).filter(|_| (order[cell as usize] as usize) < hide_from))
}

/// The scanned line through the empty cell `c` in direction `dir` as the board stands, with
/// the mover's stone on `c` and on `extra` (the first stone of a pair, when a second one is
/// scored).
pub fn scan_now(board: &Board, c: Cell, dir: usize, mover: Colour, extra: Option<Cell>) -> [u8; SPAN] {
    read_line(board, c, dir, mover, |cell| if Some(cell) == extra { Some(mover) } else { board.stone(cell) })
}

/// The 13 digits through `c`: the mover on `c`, `stone_at` for the other cells on the board.
#[inline]
fn read_line(
    board: &Board,
    c: Cell,
    dir: usize,
    mover: Colour,
    stone_at: impl Fn(Cell) -> Option<Colour>,
) -> [u8; SPAN] {
    let (w, h) = (board.width() as i32, board.height() as i32);
    let (x, y) = board.xy(c);
    let (dx, dy) = DIRECTIONS[dir];
    std::array::from_fn(|i| {
        if i == REACH {
            return digit(mover);
        }
        let d = i as i32 - REACH as i32;
        let (cx, cy) = (x as i32 + d * dx, y as i32 + d * dy);
        if cx < 0 || cx >= w || cy < 0 || cy >= h {
            return OFF;
        }
        stone_at(board.cell(cx as usize, cy as usize)).map_or(EMPTY, digit)
    })
}

fn digit(c: Colour) -> u8 {
    match c {
        Colour::Black => BLACK,
        Colour::White => WHITE,
    }
}

/// Cells of padding read beyond each end of the scanned line: what lies there is unknown to
/// the key, and taken as empty (or off the board, where the line already left it).
const PAD: usize = K - 1;
const PADDED: usize = SPAN + 2 * PAD;

/// The change a key describes (the mover is the colour of its middle digit).
pub fn change_of(digits: &[u8; SPAN]) -> Change {
    let me = digits[REACH];
    debug_assert!(me == BLACK || me == WHITE, "the middle of a key holds the mover's stone");
    let them = BLACK + WHITE - me;
    Change { own: own_change(digits, me), opp: opp_change(digits, them) }
}

/// One side's view of the line, padded: its stones, and enemy stones and the board's edge as
/// blocks.
fn view(digits: &[u8; SPAN], side: u8) -> [Point; PADDED] {
    let point = |d: u8| match d {
        EMPTY => Point::Empty,
        OFF => Point::Block,
        d if d == side => Point::Own,
        _ => Point::Block,
    };
    let left = if digits[0] == OFF { Point::Block } else { Point::Empty };
    let right = if digits[SPAN - 1] == OFF { Point::Block } else { Point::Empty };
    std::array::from_fn(|i| {
        if i < PAD {
            left
        } else if i >= PAD + SPAN {
            right
        } else {
            point(digits[i - PAD])
        }
    })
}

/// The strongest state of the patterns on a line holding only the given stones.
fn best(line: &[Point; PADDED], keep: u32, centre: Point) -> State {
    let mut only = *line;
    for (i, p) in only.iter_mut().enumerate() {
        if *p == Point::Own && keep & (1 << i) == 0 {
            *p = Point::Empty;
        }
    }
    only[PAD + REACH] = centre;
    if centre == Point::Own && run_through(&only, PAD + REACH) >= K {
        return State::C6;
    }
    classify_line(&only, K, 2).iter().map(|(p, _)| State::of(p)).max().unwrap_or(State::None)
}

/// Own stones in the unbroken run through cell i.
fn run_through(line: &[Point], i: usize) -> usize {
    let left = line[..i].iter().rev().take_while(|&&p| p == Point::Own).count();
    let right = line[i + 1..].iter().take_while(|&&p| p == Point::Own).count();
    left + 1 + right
}

/// The stones of `line` chained to the cells in `seeds` (a bit set): stones of the segment
/// around the middle cell (no block between), each less than k cells from the next.
fn chain(line: &[Point; PADDED], seeds: u32) -> u32 {
    let mid = PAD + REACH;
    let lo = (0..mid).rev().find(|&i| line[i] == Point::Block).map_or(0, |i| i + 1);
    let hi = (mid + 1..PADDED).find(|&i| line[i] == Point::Block).unwrap_or(PADDED);
    let mut set = seeds;
    // Grow outwards from the seeds: a stone joins when it is within k-1 cells of one in the set.
    loop {
        let mut grown = set;
        for (i, &p) in line.iter().enumerate().take(hi).skip(lo) {
            if p == Point::Own && grown & (1 << i) == 0 {
                let near = (i.saturating_sub(K - 1)..=(i + K - 1).min(hi - 1)).any(|j| grown & (1 << j) != 0);
                if near {
                    grown |= 1 << i;
                }
            }
        }
        if grown == set {
            return set;
        }
        set = grown;
    }
}

/// The mover's pattern through the cell: the stones chained to the new stone, read without it
/// and with it.
fn own_change(digits: &[u8; SPAN], me: u8) -> (State, State) {
    let line = view(digits, me);
    let mid = PAD + REACH;
    let stones = chain(&line, 1 << mid);
    (best(&line, stones, Point::Empty), best(&line, stones, Point::Own))
}

/// The opponent's patterns the stone touches: its stones of the cell's segment within k-1
/// cells of the cell and those chained to them, read before the stone and with the stone as a
/// block.
fn opp_change(digits: &[u8; SPAN], them: u8) -> (State, State) {
    let mut before = view(digits, them);
    let mid = PAD + REACH;
    before[mid] = Point::Empty;
    let lo = (0..mid).rev().find(|&i| before[i] == Point::Block).map_or(0, |i| i + 1);
    let hi = (mid + 1..PADDED).find(|&i| before[i] == Point::Block).unwrap_or(PADDED);
    let mut seeds = 0u32;
    for (i, &p) in before.iter().enumerate().take(hi.min(mid + K)).skip(lo.max(mid + 1 - K)) {
        if p == Point::Own {
            seeds |= 1 << i;
        }
    }
    if seeds == 0 {
        return (State::None, State::None);
    }
    let stones = chain(&before, seeds);
    (best(&before, stones, Point::Empty), best(&before, stones, Point::Block))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line from text: `X` the mover, `O` the opponent, `_` empty, `#` off the board; the
    /// middle character is the new stone and must be `X`.
    pub(crate) fn line(text: &str) -> [u8; SPAN] {
        let chars: Vec<char> = text.chars().collect();
        assert_eq!(chars.len(), SPAN, "{text}");
        assert_eq!(chars[REACH], 'X', "{text}");
        std::array::from_fn(|i| match chars[i] {
            'X' => BLACK,
            'O' => WHITE,
            '_' => EMPTY,
            '#' => OFF,
            c => panic!("{c}"),
        })
    }

    fn change(text: &str) -> (&'static str, &'static str, &'static str, &'static str) {
        let c = change_of(&line(text));
        (c.own.0.symbol(), c.own.1.symbol(), c.opp.0.symbol(), c.opp.1.symbol())
    }

    #[test]
    fn the_papers_example_key_is_a_live_three_becoming_a_live_four() {
        // The paper's example: {2,2,2,0,0,0,0,2,2,2,2,2,2}, black A3 -> A4.
        let digits = [3, 3, 3, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3];
        assert_eq!(digits_of(key_of(&digits)), digits);
        let c = change_of(&digits);
        assert_eq!(c.own, (State::A3, State::A4));
        assert_eq!(c.opp, (State::None, State::None));
    }

    #[test]
    fn own_and_opponent_changes() {
        assert_eq!(change("_XXXXXX______"), ("A5", "C6", "-", "-"));
        assert_eq!(change("OXXXXXX______"), ("S5", "C6", "-", "-"));
        assert_eq!(change("______X______"), ("-", "-", "-", "-"));
        assert_eq!(change("_____XX______"), ("-", "A2", "-", "-"));
        // Blocking: the opponent's live five becomes a sleep five, its live four a sleep four.
        assert_eq!(change("_OOOOOX______"), ("-", "-", "A5", "S5"));
        assert_eq!(change("__OOOOX______"), ("-", "-", "A4", "S4"));
        // A stone on the gap of the opponent's three leaves a two and a single stone.
        assert_eq!(change("____OOXO_____"), ("-", "-", "A3", "S2"));
        // Both at once: makes a two (asleep: one empty cell, then the opponent) and blocks a three.
        assert_eq!(change("__OOO_XX_____"), ("-", "S2", "A3", "I3"));
        // The board's edge is a block.
        assert_eq!(change("##XXXXX______"), ("S4", "S5", "-", "-"));
    }
}
