//! The arena: games between players, matches with statistics, tournaments, records.

pub mod stats;
