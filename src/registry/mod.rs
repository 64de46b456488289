//! The games evotune plays: the one list that the GA, the arena's callers, the reproductions
//! and the commands see. `--game NAME` and `game = "NAME"` resolve here.
//!
//! A game is a folder under `games/` implementing [`Game`](crate::core::game::Game) (rules
//! and notation), [`Searchable`](crate::search::Searchable) (its evaluations and how it is
//! searched) and [`Descriptor`](crate::games::Descriptor) (openings, bench positions, built-in
//! config, engine protocol), and one line in [`GAMES`] (docs/architecture.md).

mod any_game;

pub use any_game::{AnyGame, EngineReferee, GameRef, MoveSample, Registered, Searched, StaticPositions};

use anyhow::{bail, Result};

use crate::games::connect::Connect6;
use crate::games::einstein::Einstein;
use crate::games::gomoku::Gomoku;
use crate::games::surakarta::Surakarta;

/// Connect6, as the registry holds it.
pub static CONNECT6: &Registered<Connect6> = &Registered(Connect6);
/// Freestyle Gomoku, as the registry holds it.
pub static GOMOKU: &Registered<Gomoku> = &Registered(Gomoku);
/// Surakarta, as the registry holds it.
pub static SURAKARTA: &Registered<Surakarta> = &Registered(Surakarta);
/// EinStein würfelt nicht, as the registry holds it.
pub static EINSTEIN: &Registered<Einstein> = &Registered(Einstein);

/// Every game, the default first.
pub static GAMES: &[GameRef] = &[CONNECT6, GOMOKU, SURAKARTA, EINSTEIN];

/// The default game of every command and config.
pub const DEFAULT_GAME: &str = "connect6";

/// The game of this name, or an error listing the games.
pub fn find(name: &str) -> Result<GameRef> {
    match GAMES.iter().find(|g| g.name() == name) {
        Some(g) => Ok(*g),
        None => {
            bail!("no game `{name}`; the games are: {}", GAMES.iter().map(|g| g.name()).collect::<Vec<_>>().join(", "))
        }
    }
}

/// The names of the games, for `--help` and messages.
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name()).collect()
}

#[cfg(test)]
mod tests;
