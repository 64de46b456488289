//! The games evotune tunes, one folder each, and what a game folder implements to join the
//! registry ([`crate::registry`]): [`crate::core::game::Game`] (rules and notation),
//! [`crate::search::Searchable`] (its evaluations and how it is searched) and [`Descriptor`]
//! (everything else the tool needs of it: openings, bench positions, its built-in config and
//! best table, its engine protocol).

pub mod connect;
pub mod einstein;
pub mod gomoku;
pub mod line_protocol;
pub mod param_lines;
pub mod surakarta;

use std::io::{BufRead, Write};

use crate::core::limits::Limits;
use crate::core::openings::{OpeningConfig, OpeningMaker};
use crate::games::connect::sgf::SgfGame;
use crate::search::{Engine, Searchable};

/// The time of a move in `evotune play` when neither the user (`--depth`, `--nodes`,
/// `--time-ms`) nor the protocol (Gomocup's `INFO`) limits it.
pub const DEFAULT_MOVE_MS: u64 = 1000;

/// How a protocol front end talks (each game's protocol reads what applies to it).
#[derive(Clone, Debug, PartialEq)]
pub struct ProtocolOptions {
    /// The engine's name (`name?`, `ABOUT`).
    pub name: String,
    /// Limits of every search (a protocol may change them: `depth d`, `INFO timeout_turn`).
    pub limits: Limits,
    /// Connect6: rows counted from the top (`'S'-y`) in both directions.
    pub flip_rows: bool,
    /// Write error lines on the error stream instead of the output.
    pub errors_to_stderr: bool,
    /// Connect6: write a one-stone move as `JJ@@` rather than `JJ`.
    pub pad_single: bool,
    /// After each search, a comment with depth, score, nodes, time and PV.
    pub verbose: bool,
    /// Connect6: the search's comment (as `verbose` writes it) on the output, just before
    /// the move, as Cloudict prints its search's: an engine reading the output (`fit-eval`'s
    /// judge) reads the score there.
    pub verbose_stdout: bool,
}

impl Default for ProtocolOptions {
    fn default() -> Self {
        ProtocolOptions {
            name: "evotune".into(),
            limits: Limits::default(),
            flip_rows: false,
            errors_to_stderr: false,
            pad_single: true,
            verbose: false,
            verbose_stdout: false,
        }
    }
}

/// A built-in text file of a game: its path in the repository (for messages) and its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltIn {
    pub path: &'static str,
    pub text: &'static str,
}

/// What a game offers the arena and the command line beyond its rules and its search:
/// openings, bench positions, its built-in GA config and its engine protocol.
pub trait Descriptor: Searchable {
    /// Columns and rows of the board.
    fn board_size(&self) -> (usize, usize);
    /// Stones (or pieces moved) in an opening of `turns` turns.
    fn stones_in_turns(&self, turns: usize) -> usize;
    /// A key of a position equal for positions equal up to the board's symmetries.
    fn symmetric_key(&self, pos: &Self::Position) -> Vec<u32>;
    /// The game's maker of candidate openings.
    fn opening_maker(&self, config: &OpeningConfig) -> Box<dyn OpeningMaker>;
    /// Fixed positions (record moves, space-separated) that `evotune bench` searches.
    fn bench_positions(&self) -> &'static [&'static str];
    /// The GA config `evotune evolve --game NAME` runs without `--config` (a quick run: minutes
    /// on two cores), one of `configs/`.
    fn quick_config(&self) -> BuiltIn;
    /// The best weight table shipped for the game, one of `weights/` built into the binary
    /// (what `best` plays), when one beats the hand table; `None`: the hand table is its best.
    fn best_weights(&self) -> Option<BuiltIn> {
        None
    }
    /// Whether the game's engine protocol brings its own clock (Gomocup's `INFO` times): `play`
    /// then hands it the user's limits as they are instead of a second a move.
    fn protocol_keeps_time(&self) -> bool {
        false
    }
    /// How SGF (and, for Gomoku's family, Piskvork's `.psq`) writes the game's records: games
    /// of stones on a grid; `None` for games that move pieces.
    fn sgf(&self) -> Option<SgfGame> {
        None
    }
    /// Runs the game's engine protocol on `input` until it ends.
    fn play_protocol(
        &self,
        engine: &mut Engine<Self>,
        options: &ProtocolOptions,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> std::io::Result<()>;
}
