//! The players of a tuning run, made before the tuner starts: how an individual's values
//! become a player (the run's own engine with those weights, or the outside engine being
//! tuned told those values), and the fixed opponents the config names (anchors, validation
//! opponents), already resolved from their texts by the caller (`crate::player`). The tuners
//! never read a player's text themselves.

use std::path::Path;
use std::sync::Arc;

use crate::arena::outside::OutsideEngine;
use crate::arena::player::Player;
use crate::core::settings::EngineSettings;
use crate::core::weights::{Schema, Weights};
use crate::export::Format;

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
    /// Its values, when it is the tuned outside engine playing them (`defaults`, a table of
    /// its parameters): the replay command needs them in a file.
    pub values: Option<Vec<i32>>,
}

/// How an individual plays.
#[derive(Clone, Debug)]
enum Individuals {
    /// evotune's engine with these settings (their evaluation reads the schema).
    Engine(EngineSettings),
    /// The outside engine being tuned, told each individual's values, with this time per
    /// move (the referee's budget) if any.
    Outside { engine: Arc<OutsideEngine>, time_ms: Option<u64> },
}

/// The players of a run.
#[derive(Clone, Debug)]
pub struct Lineup {
    /// The weights tuned.
    pub schema: &'static Schema,
    individuals: Individuals,
    pub anchors: Vec<Anchor>,
    pub validation: Vec<Opponent>,
}

impl Lineup {
    /// Individuals that play with `engine` (whose `eval` reads `schema`), and no fixed
    /// opponents yet.
    pub fn new(schema: &'static Schema, engine: EngineSettings) -> Lineup {
        Lineup { schema, individuals: Individuals::Engine(engine), anchors: Vec::new(), validation: Vec::new() }
    }

    /// Individuals that are the outside `engine` told their values of `schema` (its
    /// parameters), with `time_ms` per move if given; no fixed opponents yet.
    pub fn outside(schema: &'static Schema, engine: Arc<OutsideEngine>, time_ms: Option<u64>) -> Lineup {
        let individuals = Individuals::Outside { engine, time_ms };
        Lineup { schema, individuals, anchors: Vec::new(), validation: Vec::new() }
    }

    /// The player of an individual: these values, clamped into their bounds, on the run's
    /// engine. Every individual of a run is made here, so that a game played from a
    /// cluster's plan is the game the local executor plays.
    pub fn individual(&self, name: String, values: &[i32]) -> Player {
        let weights = Weights::clamped(self.schema, values.to_vec());
        match &self.individuals {
            Individuals::Engine(engine) => Player::new(name, weights, engine.clone(), engine.limits()),
            Individuals::Outside { engine, time_ms } => Player::outside(name, Arc::clone(engine), weights, *time_ms),
        }
    }

    /// The outside engine whose parameters are tuned, if the individuals are one's.
    pub fn tuned(&self) -> Option<&Arc<OutsideEngine>> {
        match &self.individuals {
            Individuals::Outside { engine, .. } => Some(engine),
            Individuals::Engine(_) => None,
        }
    }

    /// The format the tuned outside engine reads its values in.
    pub fn engine_format(&self) -> Option<Format> {
        Some(self.tuned()?.params()?.format)
    }

    /// The text of the tuned outside engine playing `values` read from `file` (as `match
    /// --a` takes it), to replay a game of an individual.
    pub fn engine_text(&self, values: &[i32], file: &Path) -> Option<String> {
        let engine = self.tuned()?;
        Some(engine.params()?.spec_reading(&engine.spec, values, Some(file)).to_string())
    }

    /// How the individuals play, for reports: `pvs depth 3`, or the outside engine's command.
    pub fn describe(&self) -> String {
        match &self.individuals {
            Individuals::Engine(engine) => format!("{} {}", engine.search.name(), engine.limits().describe()),
            Individuals::Outside { engine, time_ms } => {
                let time = time_ms.map_or(String::new(), |t| format!(", {t} ms a move"));
                format!("`{}` ({}){time}", engine.spec.command_line(), engine.protocol())
            }
        }
    }

    /// The anchors' names as the config gives them.
    pub fn anchor_names(&self) -> Vec<String> {
        self.anchors.iter().map(|a| a.name.clone()).collect()
    }
}
