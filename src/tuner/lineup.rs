//! The players of a tuning run, made before the tuner starts: how an individual's values
//! become a player (the run's own engine with those weights), and the fixed opponents the
//! config names (anchors, validation opponents), already resolved from their texts by the
//! caller (`crate::player`). The tuners never read a player's text themselves.

use crate::arena::player::Player;
use crate::core::settings::EngineSettings;
use crate::core::weights::{Schema, Weights};

/// A fixed reference opponent of every individual (`[hall_of_fame] anchors`).
#[derive(Clone, Debug)]
pub struct Anchor {
    /// Its name as the config gives it (a file's stem, `defaults`, an engine's name), for
    /// history.csv and the report.
    pub name: String,
    pub player: Player,
}

/// An opponent of the champion's validation match.
#[derive(Clone, Debug)]
pub struct Opponent {
    pub player: Player,
    /// Its text as given (`defaults`, a file, `cmd:...`), for the command that replays the
    /// match.
    pub spec: String,
}

/// The players of a run.
#[derive(Clone, Debug)]
pub struct Lineup {
    /// The weights tuned.
    pub schema: &'static Schema,
    /// The engine every individual plays with, its evaluation set: only the weights differ.
    engine: EngineSettings,
    pub anchors: Vec<Anchor>,
    pub validation: Vec<Opponent>,
}

impl Lineup {
    /// Individuals that play with `engine` (whose `eval` reads `schema`), and no fixed
    /// opponents yet.
    pub fn new(schema: &'static Schema, engine: EngineSettings) -> Lineup {
        Lineup { schema, engine, anchors: Vec::new(), validation: Vec::new() }
    }

    /// The player of an individual: these values, clamped into their bounds, on the run's
    /// engine. Every individual of a run is made here, so that a game played from a
    /// cluster's plan is the game the local executor plays.
    pub fn individual(&self, name: String, values: &[i32]) -> Player {
        let weights = Weights::clamped(self.schema, values.to_vec());
        Player::new(name, weights, self.engine.clone(), self.engine.limits())
    }

    /// The anchors' names as the config gives them.
    pub fn anchor_names(&self) -> Vec<String> {
        self.anchors.iter().map(|a| a.name.clone()).collect()
    }
}
