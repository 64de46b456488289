//! Outside engines: programs that play a game over a text protocol on their standard input
//! and output, refereed by evotune as cutechess-cli and fastchess referee chess engines.
//!
//! - [`spec`]: how one is written (`cmd:COMMAND;protocol=...;dir=...;init=...;log=...`);
//! - [`protocol`]: what the referee says in each protocol and how it reads the answers;
//! - [`process`]: a running engine, lines in and out with deadlines, killed with its children;
//! - [`pool`]: the processes of one engine, reused from game to game, one per game in play;
//! - [`session`]: one engine's side of one game, with the verdicts (`crash`, `timeout`,
//!   `illegal`) when it goes wrong.
//!
//! A player with an outside engine is an ordinary player holding its pool, so matches,
//! tournaments and the GA's anchors play it without knowing; the game loop
//! ([`crate::arena::game::play_game`]) asks its session instead of a search for its moves,
//! and checks every move against the rules as it checks its own engines'. What is asked of
//! every outside player of a match before its first game (can it start from these openings, does
//! it answer) is in `arena::player`, beside the player.

pub mod params;
pub mod pool;
pub mod process;
pub mod protocol;
pub mod session;
pub mod spec;

pub use pool::{Forfeit, OutsideEngine, Stats};
pub use protocol::Protocol;
pub use session::{Reply, Session, TurnTime};
pub use spec::{is_outside, EngineSpec, SpecOptions};
