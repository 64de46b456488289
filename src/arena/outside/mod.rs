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
//! A player with an outside engine is an ordinary [`Player`] holding its pool, so matches,
//! tournaments and the GA's anchors play it without knowing; the game loop
//! ([`crate::arena::game::play_game`]) asks its session instead of a search for its moves,
//! and checks every move against the rules as it checks its own engines'.

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

use crate::arena::player::Player;

/// Checks, before any game, that every outside player can start from every opening (the
/// plain competition protocol starts from the empty board only). The error names the player.
pub fn check_openings(players: &[&Player], openings: &[Vec<String>]) -> Result<(), String> {
    for p in players {
        if let Some(o) = &p.outside {
            for opening in openings {
                o.protocol().starts_from(opening).map_err(|e| format!("{}: {e}", p.name))?;
            }
        }
    }
    Ok(())
}

/// Starts one process of every outside engine among `players` and checks it answers, so that
/// a wrong command or protocol is an error before the first game. The error names the player.
pub fn warm_up(players: &[&Player], hang: std::time::Duration) -> Result<(), String> {
    for p in players {
        if let Some(o) = &p.outside {
            o.warm_up(hang).map_err(|e| format!("{} ({}): {e}", p.name, o.spec.command_line()))?;
        }
    }
    Ok(())
}

/// One line per distinct outside engine among `players`: what happened to it, where its log is.
pub fn summaries(players: &[&Player]) -> Vec<String> {
    let mut seen: Vec<*const OutsideEngine> = Vec::new();
    let mut lines = Vec::new();
    for p in players {
        if let Some(o) = &p.outside {
            if !seen.contains(&std::sync::Arc::as_ptr(o)) {
                seen.push(std::sync::Arc::as_ptr(o));
                lines.push(o.summary(&p.name));
            }
        }
    }
    lines
}
