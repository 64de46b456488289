//! The arena: games between players, matches with statistics, tournaments, records.

pub mod game;
pub mod matches;
pub mod openings;
pub mod records;
pub mod stats;
pub mod tournament;
pub mod validation;
