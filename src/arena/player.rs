//! A player: a weight table plus the engine settings (evaluation, search, limits) it plays with.

use crate::core::limits::Limits;
use crate::core::settings::EngineSettings;
use crate::core::weights::Weights;

/// A named player for games, matches and tournaments.
#[derive(Clone, Debug)]
pub struct Player {
    pub name: String,
    pub weights: Weights,
    /// How it plays; its limits are the limits of every move.
    pub engine: EngineSettings,
}

impl Player {
    /// A player with these settings, searching every move within `limits` (which replace the
    /// settings' own).
    pub fn new(name: impl Into<String>, weights: Weights, engine: EngineSettings, limits: Limits) -> Player {
        Player { name: name.into(), weights, engine: engine.with_limits(limits) }
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

    /// Search, evaluation and limits, e.g. `pvs roads depth 3`.
    pub fn describe(&self) -> String {
        format!("{} {} {}", self.engine.search.name(), self.eval(), self.limits().describe())
    }
}
