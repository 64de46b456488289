//! What every engine-side protocol of evotune does with a value of its table told by a line
//! (Connect6's and the line protocol's `param NAME VALUE`, pbrain's `INFO NAME VALUE`): the
//! value checked against the table's schema, and the table so set played from the next game
//! or search on, the engine made again as a new process of that table would start. A tuner
//! then tells one process one individual after another (docs/outside-tuning.md).

use crate::core::weights::Weights;
use crate::games::line_protocol::clip;
use crate::search::{Engine, Searchable};

/// The table lines have set since the engine last took one, if they set any.
#[derive(Default)]
pub struct ParamLines {
    values: Option<Weights>,
}

impl ParamLines {
    /// Whether `name` is a parameter of the engine's table.
    pub fn knows<G: Searchable>(engine: &Engine<G>, name: &str) -> bool {
        engine.weights().schema().index_of(name).is_some()
    }

    /// Sets the parameter `name` to `value` (text as the line gave it) in the table set so
    /// far (at first the engine's own); an unknown name or a value that is not an integer
    /// within the parameter's bounds is an error that changes nothing.
    pub fn set<G: Searchable>(&mut self, engine: &Engine<G>, name: &str, value: &str) -> Result<(), String> {
        let table = self.values.as_ref().unwrap_or_else(|| engine.weights());
        let schema = table.schema();
        let Some(i) = schema.index_of(name) else {
            return Err(format!(
                "unknown parameter `{}` of the {} table (`evotune schema --game {} --eval {}` lists them)",
                clip(name),
                schema.eval,
                schema.game,
                schema.eval
            ));
        };
        let spec = &schema.specs[i];
        let value = match value.parse::<i32>() {
            Ok(v) if (spec.min..=spec.max).contains(&v) => v,
            _ => return Err(format!("`{}`: {name} takes an integer from {} to {}", clip(value), spec.min, spec.max)),
        };
        let mut values = table.values().to_vec();
        values[i] = value;
        self.values = Some(Weights::clamped(schema, values));
        Ok(())
    }

    /// Makes the engine play the table set since, if lines set one.
    pub fn apply<G: Searchable>(&mut self, engine: &mut Engine<G>) {
        if let Some(weights) = self.values.take() {
            engine.set_weights(weights);
        }
    }
}
