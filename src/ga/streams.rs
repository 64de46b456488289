//! The purposes of a generation's random streams: each is `stream(seed, &[generation,
//! PURPOSE])`, so that adding a draw for one purpose never shifts another's.

pub const INIT: u64 = 0;
pub const GROUPS: u64 = 1;
pub const OPENINGS: u64 = 2;
pub const TIES: u64 = 3;
pub const BREED: u64 = 4;
pub const GAMES: u64 = 5;
pub const IMMIGRANTS: u64 = 6;
