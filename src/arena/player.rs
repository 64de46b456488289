//! A player: a weight table plus the engine settings (evaluation, search, limits) it plays with,
//! or an outside engine (a program the arena referees over its protocol).

use std::sync::Arc;
use std::time::Duration;

use crate::arena::clock::TimeControl;
use crate::arena::outside::OutsideEngine;
use crate::core::limits::{Limits, MAX_TIME_MS};
use crate::core::settings::EngineSettings;
use crate::core::weights::Weights;

/// A named player for games, matches and tournaments.
#[derive(Clone, Debug)]
pub struct Player {
    pub name: String,
    /// Its weight table; an outside player carries its game's default table, unused, so that
    /// code that reads every player's table (schedules, plans, mock referees) need not ask.
    pub weights: Weights,
    /// How it plays; its limits are the limits of every move. An outside player's time limit
    /// is its budget per move; its other settings are unused.
    pub engine: EngineSettings,
    /// The outside engine that plays its moves, shared by its clones (one pool of processes).
    pub outside: Option<Arc<OutsideEngine>>,
}

impl Player {
    /// A player with these settings, searching every move within `limits` (which replace the
    /// settings' own).
    pub fn new(name: impl Into<String>, weights: Weights, engine: EngineSettings, limits: Limits) -> Player {
        Player { name: name.into(), weights, engine: engine.with_limits(limits), outside: None }
    }

    /// A player whose moves an outside engine makes, with `time_ms` per move if given (the
    /// referee's budget: the engine loses a move that takes longer, beyond a margin).
    /// `weights`: the game's default table (see [`Player::weights`]).
    pub fn outside(
        name: impl Into<String>,
        engine: Arc<OutsideEngine>,
        weights: Weights,
        time_ms: Option<u64>,
    ) -> Player {
        let limits = Limits { time_ms, ..Limits::default() };
        Player { outside: Some(engine), ..Player::new(name, weights, EngineSettings::default(), limits) }
    }

    /// The limits of every move.
    pub fn limits(&self) -> Limits {
        self.engine.limits()
    }

    /// The game of its weight table.
    pub fn game(&self) -> &'static str {
        self.weights.schema().game
    }

    /// The evaluation it plays: the settings', else its table's own.
    pub fn eval(&self) -> &str {
        self.engine.eval.as_deref().unwrap_or(self.weights.schema().eval)
    }

    /// Search, evaluation and limits, e.g. `pvs roads depth 3`; for an outside engine its
    /// command and protocol, e.g. `cmd engine -t 1 (cloudict), time 100ms`.
    pub fn describe(&self) -> String {
        self.describe_under(None)
    }

    /// As [`Player::describe`], in games under `clock`: the clock is said as match runners
    /// write it, `pvs roads tc 60+1`, and a player with no limit of its own (which thinks as
    /// long as the clock allows: its time per move is only the cap that stands for "the
    /// clock's") says nothing else; one with limits of its own says both (`pvs roads depth
    /// 4, tc 60+1`).
    pub fn describe_under(&self, clock: Option<TimeControl>) -> String {
        let mut limits = self.limits();
        if clock.is_some() && limits.time_ms == Some(MAX_TIME_MS) {
            limits.time_ms = None;
        }
        let mut text = match &self.outside {
            Some(o) => {
                let time = if limits.is_unlimited() { String::new() } else { format!(", {}", limits.describe()) };
                format!("cmd {} ({}){time}", o.spec.command_line(), o.protocol())
            }
            None if clock.is_some() && limits.is_unlimited() => {
                format!("{} {}", self.engine.search.name(), self.eval())
            }
            None => format!("{} {} {}", self.engine.search.name(), self.eval(), limits.describe()),
        };
        if let Some(tc) = clock {
            let sep = if self.outside.is_none() && limits.is_unlimited() { " " } else { ", " };
            text += &format!("{sep}tc {tc}");
        }
        text
    }
}

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
pub fn warm_up_outside(players: &[&Player], hang: Duration) -> Result<(), String> {
    for p in players {
        if let Some(o) = &p.outside {
            o.warm_up(hang).map_err(|e| format!("{} ({}): {e}", p.name, o.spec.command_line()))?;
        }
    }
    Ok(())
}

/// One line per distinct outside engine among `players`: what happened to it, where its log is.
pub fn outside_summaries(players: &[&Player]) -> Vec<String> {
    let mut seen: Vec<*const OutsideEngine> = Vec::new();
    let mut lines = Vec::new();
    for p in players {
        if let Some(o) = &p.outside {
            if !seen.contains(&Arc::as_ptr(o)) {
                seen.push(Arc::as_ptr(o));
                lines.push(o.summary(&p.name));
            }
        }
    }
    lines
}
