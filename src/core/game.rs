//! What a game is, to the engine and to the tuner: a [`Game`] names its rules, its notation and
//! its evaluations; a [`Position`] is one state of it, played and taken back move by move.
//!
//! The traits are static (associated types, no trait objects): the search is compiled once per
//! game, so nothing in its inner loop is dispatched at run time. What the tuner and the arena
//! see of a game is the object-safe [`crate::registry::AnyGame`], built from these traits.

use std::fmt::Debug;
use std::hash::Hash;

use serde::{Deserialize, Serialize};

use crate::core::weights::Schema;

/// The two players, in turn order. In Connect6 and Gomoku the first player is Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    #[inline]
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::First => "first",
            Side::Second => "second",
        }
    }
}

/// How a position stands. The reasons are the game's own words (`six`, `five`, `full`), as
/// game records write them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ongoing,
    Won { winner: Side, reason: &'static str },
    Draw { reason: &'static str },
}

impl Status {
    pub fn is_over(&self) -> bool {
        !matches!(self, Status::Ongoing)
    }
}

/// A move as the search handles it: small, copyable, with a "no move" value.
pub trait GameMove: Copy + Eq + Hash + Debug + Default + Send + Sync + 'static {
    /// The "no move" value (also `Default`).
    const NONE: Self;

    fn is_none(&self) -> bool {
        *self == Self::NONE
    }

    /// Small integers the history heuristic credits when this move cuts off (Connect: the
    /// cells of its stones). Each must be below the game's history size.
    fn history_keys(&self) -> &[u16];

    /// The move's ordering tier: the search tries higher tiers first and orders by history
    /// only within a tier (Surakarta: captures before steps, whatever the history says).
    /// Games whose generator already orders everything keep the default.
    fn order_tier(&self) -> u8 {
        0
    }

    /// The move in 40 bits, for the transposition table.
    fn pack(self) -> (u32, u8);

    /// The move [`pack`](Self::pack) wrote.
    fn unpack(word: u32, extra: u8) -> Self;
}

/// One state of a game. Moves are played and taken back in stack order; `play` takes a move
/// that is legal in the position (the game's move generator or `Game::play_checked` vouches
/// for it).
pub trait Position: Clone + Send + Sync + 'static {
    type Move: GameMove;
    /// What [`undo`](Self::undo) needs to take the move back.
    type Undo: Copy + Send;

    /// Whose turn it is.
    fn side_to_move(&self) -> Side;

    fn status(&self) -> Status;

    /// A hash of everything that decides the game from here (Zobrist).
    fn hash(&self) -> u64;

    fn play(&mut self, m: Self::Move) -> Self::Undo;

    fn undo(&mut self, undo: Self::Undo);

    /// Takes back the move `undo` stands for and plays m (legal in the position before it):
    /// the search's step from one sibling to the next. A game may do it with less work than
    /// the two steps, leaving the same position.
    #[inline]
    fn replay(&mut self, undo: Self::Undo, m: Self::Move) -> Self::Undo {
        self.undo(undo);
        self.play(m)
    }

    /// The chance hook of dice games: when the next event is a random draw rather than a
    /// player's choice, how many equally likely outcomes it has. Games without chance keep
    /// the default.
    fn chance(&self) -> Option<u32> {
        None
    }

    /// Applies outcome `0..n` of the pending random draw.
    fn resolve_chance(&mut self, outcome: u32) {
        let _ = outcome;
    }
}

/// A static evaluation: the score of a position for the side to move (positive is good for
/// it), read from a weight table.
pub trait Evaluate<P>: Clone + Send {
    fn evaluate(&self, pos: &P) -> i32;
}

/// One evaluation a game offers: its name (as `--eval` and `[meta] eval` write it), the weight
/// schema it reads, and whether the GA may tune it.
#[derive(Debug)]
pub struct Evaluation {
    pub name: &'static str,
    pub schema: &'static Schema,
    pub doc: &'static str,
    /// False for variants that read another evaluation's weights differently (a slower
    /// scanning of the same table): tuning them would tune the other evaluation.
    pub tunable: bool,
}

/// A game: rules, notation and evaluations. Implemented by a zero-sized type per game.
pub trait Game: Copy + Default + Send + Sync + 'static {
    type Position: Position;

    /// The name commands, configs, weight files and records use (`connect6`).
    const NAME: &'static str;
    /// The name for people and SGF's `GM[]` (`Connect6`).
    const TITLE: &'static str;

    /// The position before the first move.
    fn start(&self) -> Self::Position;

    /// Every legal move of the side to move (empty once the game is over).
    fn legal_moves(&self, pos: &Self::Position, out: &mut Vec<MoveOf<Self>>);

    /// Reads a move in record notation; checks the text, not the position's rules.
    fn parse_move(&self, pos: &Self::Position, text: &str) -> Result<MoveOf<Self>, String>;

    /// Writes a move of `pos` in record notation.
    fn format_move(&self, pos: &Self::Position, m: MoveOf<Self>) -> String;

    /// Plays `m` if it is legal in `pos`; on an error the position is unchanged.
    fn play_checked(&self, pos: &mut Self::Position, m: MoveOf<Self>) -> Result<(), String>;

    /// Whether a position could start a game from the opening: not over, and a whole move
    /// may be played (no half-played turn).
    fn at_move_boundary(&self, pos: &Self::Position) -> bool;

    /// The evaluations of this game, the default first.
    fn evaluations(&self) -> &'static [Evaluation];

    /// Replays record moves from the start, checking each.
    fn replay<S: AsRef<str>>(&self, moves: &[S]) -> Result<Self::Position, String> {
        let mut pos = self.start();
        for (i, text) in moves.iter().enumerate() {
            let text = text.as_ref();
            let m = self.parse_move(&pos, text).map_err(|e| format!("move {}: {e}", i + 1))?;
            self.play_checked(&mut pos, m).map_err(|e| format!("move {} `{text}`: {e}", i + 1))?;
        }
        Ok(pos)
    }
}

/// The move type of a game.
pub type MoveOf<G> = <<G as Game>::Position as Position>::Move;

/// Splits a game given as text, "j10 k11k9" (or "j10,k11k9"), into its moves.
pub fn split_moves(text: &str) -> Vec<&str> {
    text.split(|c: char| c.is_whitespace() || c == ',').filter(|s| !s.is_empty()).collect()
}
