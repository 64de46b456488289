//! The game-neutral core: what every game, search and tuner shares. The traits of a game and
//! its positions, weight schemas and tables, the engine settings and search limits, and the
//! seeded random streams.

pub mod config_lines;
pub mod game;
pub mod limits;
pub mod openings;
pub mod rng;
pub mod schema_file;
pub mod settings;
pub mod weights;
