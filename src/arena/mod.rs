//! The arena: games between players, matches with statistics, tournaments, records.
//!
//! The arena plays any game: a game is played by a [`game::Referee`] (the registry's engine
//! referee, or a test's mock), and what the arena needs of a game beyond that, to handle its
//! openings and records as text, is an [`ArenaGame`].

pub mod balance;
pub mod clock;
pub mod compare;
pub mod eval_judge;
pub mod formats;
pub mod game;
pub mod matches;
pub mod openings;
pub mod outside;
pub mod player;
pub mod records;
#[cfg(test)]
mod tests;
pub mod tournament;
pub mod validation;

use crate::core::game::Side;
use crate::core::openings::{OpeningBoard, OpeningConfig, OpeningMaker};
use crate::games::connect::sgf::SgfGame;

/// Why a list of record moves cannot start a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningError {
    /// A move is not legal (or not readable); the text says which and why.
    Illegal(String),
    /// The game is over after it.
    Decided,
    /// It stops in the middle of a turn.
    MidTurn,
}

/// What the arena needs of a game to handle it as text: its names, its openings (checked,
/// compared up to symmetry, generated) and who made each move of a record.
pub trait ArenaGame: OpeningBoard + Send + Sync {
    /// The name configs, weight files and records use (`connect6`).
    fn name(&self) -> &'static str;
    /// The name for people (`Connect6`).
    fn title(&self) -> &'static str;
    /// Checks that record moves make a legal, undecided game at the start of a turn, and
    /// returns a key equal for openings equal up to the board's symmetries.
    fn opening_key(&self, moves: &[String]) -> Result<Vec<u32>, OpeningError>;
    /// The game's maker of candidate openings for these settings.
    fn opening_maker(&self, config: &OpeningConfig) -> Box<dyn OpeningMaker>;
    /// Who made each move of a record (the first moves of a game that does not alternate
    /// belong to one side); moves that cannot be read are given to the side whose turn it is.
    fn movers(&self, moves: &[String]) -> Vec<Side>;
    /// Replays a record's moves (its `#` notes left out) and checks that they are legal and
    /// make its result: a game the rules ended (`six`, `five`, ...) ends so after its last
    /// move with that winner; a game the arena ended (`movecap`, `illegal`, `resign`, ...)
    /// is still undecided on the board, with no winner if nobody lost (`movecap`,
    /// `aborted`) and one if somebody did. The error says what does not match.
    fn check_record(&self, record: &records::GameRecord) -> Result<(), String>;
    /// How SGF writes the game's records, if it can (games of stones on a grid).
    fn sgf(&self) -> Option<SgfGame>;
}
