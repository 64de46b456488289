//! Named weight tables: a schema (name, default, min, max, step) declared once per evaluation,
//! and the values of one table, read from and written to TOML.
//!
//! A weight file looks like this (docs/weights.md):
//!
//! ```toml
//! [meta]
//! game = "connect6"
//! eval = "roads"
//! generation = 42
//!
//! [weights]
//! own1 = 17
//! # ... every weight of the schema, by name
//! ```
//!
//! Everything else (bounds for the GA, mutation steps, C-header names) is derived from the
//! schema, so a new weight is one line in its evaluation's schema.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// What part of the engine a weight steers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WeightGroup {
    /// The static evaluation at the search's horizon.
    Eval,
    /// The move generator's cheap stone score, which decides which moves a node searches and
    /// in what order. Tables written before these weights existed have none of them; such a
    /// file loads with the group's defaults (the engine's behaviour when it was written).
    MoveOrder,
    /// The rank by which Gomoku's `cells` players choose and order their quiet moves (the
    /// `order_*` weights). Like the move-order group, a table written before these weights
    /// existed loads with their defaults.
    CellOrder,
}

impl WeightGroup {
    /// Whether the group steers which moves a search tries (what `fit-order` fits).
    pub fn orders_moves(self) -> bool {
        matches!(self, WeightGroup::MoveOrder | WeightGroup::CellOrder)
    }
}

/// One tunable weight: its name in files, its hand-set default, its bounds and a mutation step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WeightSpec {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// Typical size of one mutation step (the standard deviation of Gaussian mutation).
    pub step: i32,
    pub doc: &'static str,
    pub group: WeightGroup,
}

impl WeightSpec {
    /// An evaluation weight whose mutation step is a twentieth of its range (at least 1).
    pub const fn new(name: &'static str, default: i32, min: i32, max: i32, doc: &'static str) -> Self {
        let step = (max - min) / 20;
        WeightSpec { name, default, min, max, step: if step < 1 { 1 } else { step }, doc, group: WeightGroup::Eval }
    }

    /// The same spec in another group.
    pub const fn in_group(self, group: WeightGroup) -> Self {
        WeightSpec { group, ..self }
    }
}

/// The specs of `a` followed by those of `b`, for schemas made of parts (an evaluation's
/// weights plus the move generator's). `N` must be `A + B`, checked at compile time.
pub const fn concat_specs<const A: usize, const B: usize, const N: usize>(
    a: [WeightSpec; A],
    b: [WeightSpec; B],
) -> [WeightSpec; N] {
    assert!(A + B == N, "concat_specs: N must be A + B");
    let mut out = [a[0]; N];
    let mut i = 0;
    while i < N {
        out[i] = if i < A { a[i] } else { b[i - A] };
        i += 1;
    }
    out
}

/// The weights of one evaluation of one game, in a fixed order.
#[derive(Debug, PartialEq, Eq)]
pub struct Schema {
    /// Game name as written in `[meta] game`, e.g. `connect6`.
    pub game: &'static str,
    /// Evaluation name as written in `[meta] eval`, e.g. `roads`.
    pub eval: &'static str,
    /// Where the default values come from.
    pub source: &'static str,
    pub specs: &'static [WeightSpec],
}

impl Schema {
    pub fn len(&self) -> usize {
        self.specs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.specs.is_empty()
    }

    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.specs.iter().position(|s| s.name == name)
    }

    /// The default table of this schema.
    pub fn defaults(&'static self) -> Weights {
        Weights { schema: self, values: self.specs.iter().map(|s| s.default).collect() }
    }
}

/// Values for every weight of a schema. Cheap to clone (a short vector).
#[derive(Clone, PartialEq, Eq)]
pub struct Weights {
    schema: &'static Schema,
    values: Vec<i32>,
}

impl std::hash::Hash for Weights {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.schema.game.hash(state);
        self.schema.eval.hash(state);
        self.values.hash(state);
    }
}

impl fmt::Debug for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Weights({}/{} ", self.schema.game, self.schema.eval)?;
        f.debug_map().entries(self.schema.specs.iter().map(|s| s.name).zip(&self.values)).finish()?;
        write!(f, ")")
    }
}

/// Metadata stored beside the weights. All fields are optional when reading.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eval: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generation: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fitness: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub config_hash: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Anything else a tool wrote there is kept, not rejected.
    #[serde(flatten)]
    pub extra: BTreeMap<String, toml::Value>,
    /// The file's `[engine]` table: the engine settings the table was tuned and validated
    /// with (`EngineSettings::table_engine`), applied by every command that loads it.
    #[serde(skip)]
    pub engine: Option<toml::Table>,
}

/// Why a weight table could not be used. Every variant names the file (or `<text>`).
#[derive(Debug, thiserror::Error)]
pub enum WeightsError {
    /// The I/O error is part of the message, not a `source` (an error chain would print it
    /// twice).
    #[error("{file}: cannot read: {error}")]
    Io { file: String, error: std::io::Error },
    #[error("{file}: not valid TOML: {message}")]
    Syntax { file: String, message: String },
    #[error("{file}: no [weights] table; a weight file has a [weights] table naming every weight ({expected})")]
    NoTable { file: String, expected: String },
    #[error("{file}{line}: unknown weight `{key}` for {game}/{eval}; the weights are: {expected}")]
    Unknown { file: String, line: LineRef, key: String, game: &'static str, eval: &'static str, expected: String },
    #[error("{file}: missing weight `{key}` (expected an integer in [{min}, {max}])")]
    Missing { file: String, key: String, min: i32, max: i32 },
    #[error("{file}{line}: weight `{key}` must be an integer in [{min}, {max}], found {found}")]
    BadValue { file: String, line: LineRef, key: String, min: i32, max: i32, found: String },
    #[error("{file}: [meta] {key} = \"{found}\" but {expected} was expected")]
    Mismatch { file: String, key: &'static str, found: String, expected: String },
    #[error("{file}: [meta] eval = \"{eval}\" is not an evaluation of {game}; its evaluations are: {known}")]
    UnknownSchema { file: String, game: String, eval: String, known: String },
    #[error("{file}: bad [meta] table: {message}")]
    BadMeta { file: String, message: String },
    #[error("{file}: the top level may hold only [meta], [engine] and [weights], found `{key}`")]
    Stray { file: String, key: String },
    /// A key of `[engine]` that is not an engine setting a table holds, or a value out of its
    /// range: `message` starts `[engine] KEY`.
    #[error("{file}{line}: {message}")]
    BadEngine { file: String, line: LineRef, message: String },
}

/// An optional ":line N" suffix for error messages.
#[derive(Debug, Clone, Copy)]
pub struct LineRef(pub Option<usize>);

impl fmt::Display for LineRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(n) => write!(f, ":{n}"),
            None => Ok(()),
        }
    }
}

/// Finds the 1-based line on which `key = ...` (TOML) or `"key": ...` (JSON) is written, for
/// error messages.
fn line_of_key(text: &str, key: &str) -> LineRef {
    let quoted = format!("\"{key}\"");
    LineRef(
        text.lines()
            .position(|l| {
                let l = l.trim_start();
                l.strip_prefix(key).is_some_and(|rest| rest.trim_start().starts_with('='))
                    || l.strip_prefix(&quoted).is_some_and(|rest| rest.trim_start().starts_with(':'))
            })
            .map(|i| i + 1),
    )
}

/// A table's `[engine]`, each key checked when the file is read (as a config's `[engine]`
/// key is), so that a mistake is named with its file and line before any game.
fn checked_engine(table: &toml::Table, text: &str, file: &str) -> Result<toml::Table, WeightsError> {
    let defaults = crate::core::settings::EngineSettings::default();
    for (key, value) in table {
        let one = toml::Table::from_iter([(key.clone(), value.clone())]);
        if let Err(message) = defaults.with_table_engine(&one, &|_| false) {
            let line = crate::core::config_lines::key_line(text, Some("engine"), Some(key))
                .or_else(|| line_of_key(text, key).0);
            return Err(WeightsError::BadEngine { file: file.into(), line: LineRef(line), message });
        }
    }
    Ok(table.clone())
}

/// A JSON value as TOML, for weight tables exported as JSON; `null`s are left out (TOML has
/// none, and in `[meta]` they mean "not given").
fn json_to_toml(v: &serde_json::Value) -> Option<toml::Value> {
    use serde_json::Value as J;
    Some(match v {
        J::Null => return None,
        J::Bool(b) => toml::Value::Boolean(*b),
        J::Number(n) => match n.as_i64() {
            Some(i) => toml::Value::Integer(i),
            None => toml::Value::Float(n.as_f64()?),
        },
        J::String(s) => toml::Value::String(s.clone()),
        J::Array(a) => toml::Value::Array(a.iter().filter_map(json_to_toml).collect()),
        J::Object(o) => toml::Value::Table(o.iter().filter_map(|(k, v)| Some((k.clone(), json_to_toml(v)?))).collect()),
    })
}

impl Weights {
    pub fn schema(&self) -> &'static Schema {
        self.schema
    }

    pub fn values(&self) -> &[i32] {
        &self.values
    }

    /// The evaluation's weights (group `Eval`, not the move order's), in schema order, widened
    /// for sums that may pass `i32`.
    pub fn eval_values(&self) -> Vec<i64> {
        self.schema
            .specs
            .iter()
            .zip(&self.values)
            .filter(|(s, _)| s.group == WeightGroup::Eval)
            .map(|(_, &v)| i64::from(v))
            .collect()
    }

    /// Builds a table from values in schema order, clamping nothing: values out of bounds
    /// are an error naming the weight.
    pub fn from_values(schema: &'static Schema, values: Vec<i32>) -> Result<Self, WeightsError> {
        assert_eq!(values.len(), schema.len(), "value count must match the schema");
        for (spec, &v) in schema.specs.iter().zip(&values) {
            if v < spec.min || v > spec.max {
                return Err(WeightsError::BadValue {
                    file: "<values>".into(),
                    line: LineRef(None),
                    key: spec.name.into(),
                    min: spec.min,
                    max: spec.max,
                    found: v.to_string(),
                });
            }
        }
        Ok(Weights { schema, values })
    }

    /// Builds a table from values in schema order, clamping each into its bounds. For the GA,
    /// whose operators may step outside.
    pub fn clamped(schema: &'static Schema, mut values: Vec<i32>) -> Self {
        assert_eq!(values.len(), schema.len(), "value count must match the schema");
        for (spec, v) in schema.specs.iter().zip(values.iter_mut()) {
            *v = (*v).clamp(spec.min, spec.max);
        }
        Weights { schema, values }
    }

    /// The value of a weight by name.
    pub fn get(&self, name: &str) -> Option<i32> {
        self.schema.index_of(name).map(|i| self.values[i])
    }

    /// Reads a weight file of one game. `choices` are the schemas the caller accepts, all of
    /// one game, the default first: the file's `[meta] eval` picks one of them (none: the
    /// first), and a `[meta] game` or `eval` the caller does not accept is an error, never a
    /// guess.
    pub fn load(path: &Path, choices: &[&'static Schema]) -> Result<(Self, Meta), WeightsError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|error| WeightsError::Io { file: file.clone(), error })?;
        Self::parse(&text, &file, choices)
    }

    /// Parses the text of a weight file; `file` names it in errors. Besides evotune's TOML it
    /// reads what `evotune export --format json` writes: `{"game", "eval", "meta": {..},
    /// "weights": {name: value, ..}}`.
    pub fn parse(text: &str, file: &str, choices: &[&'static Schema]) -> Result<(Self, Meta), WeightsError> {
        let root = if text.trim_start().starts_with('{') {
            Self::json_root(text, file)?
        } else {
            text.parse().map_err(|e: toml::de::Error| WeightsError::Syntax {
                file: file.into(),
                message: e.to_string().trim().replace('\n', " "),
            })?
        };
        Self::from_root(root, text, file, choices)
    }

    /// The JSON export as the TOML file's two tables; its top-level `game` and `eval` go
    /// into `[meta]` (where they must agree with the ones there, if any).
    fn json_root(text: &str, file: &str) -> Result<toml::Table, WeightsError> {
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| WeightsError::Syntax { file: file.into(), message: format!("not valid JSON: {e}") })?;
        let Some(toml::Value::Table(mut top)) = json_to_toml(&value) else {
            return Err(WeightsError::Syntax { file: file.into(), message: "a JSON weight table is an object".into() });
        };
        let mut meta = match top.remove("meta") {
            Some(toml::Value::Table(t)) => t,
            None => toml::Table::new(),
            Some(other) => {
                return Err(WeightsError::BadMeta {
                    file: file.into(),
                    message: format!("`meta` is a {}", other.type_str()),
                })
            }
        };
        for key in ["game", "eval"] {
            if let Some(v) = top.remove(key) {
                match meta.get(key) {
                    Some(m) if m != &v => {
                        return Err(WeightsError::BadMeta {
                            file: file.into(),
                            message: format!("`{key}` is {v} at the top but {m} in `meta`"),
                        })
                    }
                    _ => {
                        meta.insert(key.into(), v);
                    }
                }
            }
        }
        top.insert("meta".into(), toml::Value::Table(meta));
        Ok(top)
    }

    fn from_root(
        root: toml::Table,
        text: &str,
        file: &str,
        choices: &[&'static Schema],
    ) -> Result<(Self, Meta), WeightsError> {
        for key in root.keys() {
            if key != "meta" && key != "weights" && key != "engine" {
                return Err(WeightsError::Stray { file: file.into(), key: key.clone() });
            }
        }
        let meta: Meta = match root.get("meta") {
            Some(v) => v.clone().try_into().map_err(|e: toml::de::Error| WeightsError::BadMeta {
                file: file.into(),
                message: e.to_string().trim().replace('\n', " "),
            })?,
            None => Meta::default(),
        };
        let mut meta = meta;
        meta.engine = match root.get("engine") {
            None => None,
            Some(toml::Value::Table(t)) => Some(checked_engine(t, text, file)?),
            Some(other) => {
                return Err(WeightsError::BadEngine {
                    file: file.into(),
                    line: LineRef(crate::core::config_lines::key_line(text, None, Some("engine"))),
                    message: format!("`engine` is a {}, expected a table of engine settings", other.type_str()),
                })
            }
        };
        let schema = resolve_schema(&meta, file, choices)?;
        let names = || schema.specs.iter().map(|s| s.name).collect::<Vec<_>>().join(", ");
        let table = match root.get("weights") {
            Some(toml::Value::Table(t)) => t,
            _ => return Err(WeightsError::NoTable { file: file.into(), expected: names() }),
        };
        for key in table.keys() {
            if schema.index_of(key).is_none() {
                return Err(WeightsError::Unknown {
                    file: file.into(),
                    line: line_of_key(text, key),
                    key: key.clone(),
                    game: schema.game,
                    eval: schema.eval,
                    expected: names(),
                });
            }
        }
        // A table with none of a move-order group's weights predates them: it keeps their
        // defaults (each group was added at its own time).
        let legacy = |group: WeightGroup| {
            group.orders_moves() && !schema.specs.iter().any(|s| s.group == group && table.contains_key(s.name))
        };
        let mut values = Vec::with_capacity(schema.len());
        for spec in schema.specs {
            if legacy(spec.group) {
                values.push(spec.default);
                continue;
            }
            let bad = |found: String| WeightsError::BadValue {
                file: file.into(),
                line: line_of_key(text, spec.name),
                key: spec.name.into(),
                min: spec.min,
                max: spec.max,
                found,
            };
            match table.get(spec.name) {
                None => {
                    return Err(WeightsError::Missing {
                        file: file.into(),
                        key: spec.name.into(),
                        min: spec.min,
                        max: spec.max,
                    })
                }
                Some(toml::Value::Integer(v)) => {
                    let v = i32::try_from(*v).map_err(|_| bad(v.to_string()))?;
                    if v < spec.min || v > spec.max {
                        return Err(bad(v.to_string()));
                    }
                    values.push(v);
                }
                Some(other) => return Err(bad(format!("{} `{other}`", other.type_str()))),
            }
        }
        Ok((Weights { schema, values }, meta))
    }

    /// The TOML text of this table. `meta.game` and `meta.eval` are always written from the
    /// schema so that the file can be loaded without naming its evaluation.
    pub fn to_toml(&self, meta: &Meta) -> String {
        let mut meta = meta.clone();
        meta.game = Some(self.schema.game.into());
        meta.eval = Some(self.schema.eval.into());
        let mut out = String::from("# evotune weight table (load with --weights FILE)\n[meta]\n");
        out.push_str(&toml::to_string(&meta).unwrap_or_default());
        if let Some(engine) = &meta.engine {
            out.push_str("\n# the engine this table was tuned and validated with: every command that loads the\n");
            out.push_str("# table plays it so, unless a setting is given on the command line (docs/weights.md)\n");
            out.push_str("[engine]\n");
            out.push_str(&toml::to_string(engine).unwrap_or_default());
        }
        out.push_str("\n[weights]\n");
        for (spec, v) in self.schema.specs.iter().zip(&self.values) {
            out.push_str(&format!("{} = {}  # [{}, {}] {}\n", spec.name, v, spec.min, spec.max, spec.doc));
        }
        out
    }

    /// Writes the table atomically.
    pub fn save(&self, path: &Path, meta: &Meta) -> std::io::Result<()> {
        crate::fsutil::write_atomic(path, self.to_toml(meta).as_bytes())
    }
}

/// The schema among `choices` (one game's, the default first) that a file's `[meta]` names.
fn resolve_schema(meta: &Meta, file: &str, choices: &[&'static Schema]) -> Result<&'static Schema, WeightsError> {
    let first = *choices.first().expect("a caller accepts at least one schema");
    if let Some(g) = &meta.game {
        if g != first.game {
            return Err(WeightsError::Mismatch {
                file: file.into(),
                key: "game",
                found: g.clone(),
                expected: format!("\"{}\" (choose the game with --game or `game = ...`)", first.game),
            });
        }
    }
    let Some(e) = &meta.eval else { return Ok(first) };
    if let Some(s) = choices.iter().find(|s| s.eval == e) {
        return Ok(s);
    }
    if choices.len() == 1 {
        return Err(WeightsError::Mismatch {
            file: file.into(),
            key: "eval",
            found: e.clone(),
            expected: format!("\"{}\" (choose the evaluation with --eval)", first.eval),
        });
    }
    Err(WeightsError::UnknownSchema {
        file: file.into(),
        game: first.game.to_string(),
        eval: e.clone(),
        known: choices.iter().map(|s| s.eval).collect::<Vec<_>>().join(", "),
    })
}

/// One step of a coordinate search over a table's values (`fit-order`, `fit-eval`): each of
/// `tries` put in place of value `i`, measured in parallel, and the best of them by `better`
/// (`better(a, b)`: a beats b), the first of equals so that ties never move a weight; `None`
/// when there is nothing to try.
pub fn best_single_change<M: Send>(
    values: &[i32],
    i: usize,
    tries: &[i32],
    measure: impl Fn(&[i32]) -> anyhow::Result<M> + Sync,
    better: impl Fn(&M, &M) -> bool,
) -> anyhow::Result<Option<(i32, M)>> {
    use rayon::prelude::*;
    let measured: Vec<(i32, M)> = tries
        .par_iter()
        .map(|&v| {
            let mut t = values.to_vec();
            t[i] = v;
            measure(&t).map(|m| (v, m))
        })
        .collect::<anyhow::Result<_>>()?;
    Ok(measured.into_iter().reduce(|best, x| if better(&x.1, &best.1) { x } else { best }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect::eval::roads::CONNECT6_ROADS;
    use crate::games::connect::eval::{CONNECT6_PATTERNS, CONNECT6_TRANSITIONS, GOMOKU_PATTERNS, GOMOKU_ROADS};

    /// Connect6's schemas, the default first, as a command of that game accepts them.
    const C6: &[&Schema] = &[&CONNECT6_ROADS, &CONNECT6_PATTERNS];

    #[test]
    fn every_schema_is_consistent() {
        for s in [&CONNECT6_ROADS, &CONNECT6_PATTERNS, &CONNECT6_TRANSITIONS, &GOMOKU_ROADS, &GOMOKU_PATTERNS] {
            let mut names: Vec<_> = s.specs.iter().map(|w| w.name).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), s.len(), "duplicate names in {}/{}", s.game, s.eval);
            for w in s.specs {
                assert!(w.min <= w.default && w.default <= w.max, "{} default out of bounds", w.name);
                assert!(w.step >= 1);
            }
        }
    }

    #[test]
    fn round_trip_through_toml() {
        let w = CONNECT6_ROADS.defaults();
        let meta = Meta { generation: Some(7), fitness: Some(3.0), ..Meta::default() };
        let text = w.to_toml(&meta);
        let (back, m) = Weights::parse(&text, "x.toml", C6).unwrap();
        assert_eq!(back, w);
        assert_eq!(m.generation, Some(7));
        assert_eq!(m.eval.as_deref(), Some("roads"));
    }

    fn err(text: &str) -> String {
        Weights::parse(text, "w.toml", &[&CONNECT6_ROADS]).unwrap_err().to_string()
    }

    fn full_table_with(replace: &str, with: &str) -> String {
        let text = CONNECT6_ROADS.defaults().to_toml(&Meta::default());
        let mut out = String::new();
        for line in text.lines() {
            if line.starts_with(&format!("{replace} =")) {
                if !with.is_empty() {
                    out.push_str(with);
                    out.push('\n');
                }
            } else {
                out.push_str(line);
                out.push('\n');
            }
        }
        out
    }

    #[test]
    fn errors_name_file_key_and_range() {
        let e = err(&full_table_with("own3", "own3 = 99999999"));
        assert!(e.contains("w.toml:") && e.contains("own3") && e.contains("[0,"), "{e}");
        let e = err(&full_table_with("own3", "own3 = \"high\""));
        assert!(e.contains("own3") && e.contains("string"), "{e}");
        let e = err(&full_table_with("own3", ""));
        assert!(e.contains("missing weight `own3`"), "{e}");
        let e = err(&full_table_with("own3", "own3 = 1\nbogus = 2"));
        assert!(e.contains("unknown weight `bogus`") && e.contains("own1"), "{e}");
        let e = err("[weights\n");
        assert!(e.contains("not valid TOML"), "{e}");
        let e = err("[meta]\neval = \"patterns\"\n[weights]\n");
        assert!(e.contains("eval") && e.contains("roads"), "{e}");
        let e = err("x = 1\n");
        assert!(e.contains("`x`"), "{e}");
    }

    #[test]
    fn tables_older_than_the_move_order_weights_load_with_their_defaults() {
        let mut text = String::from("[meta]\neval = \"roads\"\n[weights]\n");
        for s in CONNECT6_ROADS.specs.iter().filter(|s| s.group == WeightGroup::Eval) {
            text.push_str(&format!("{} = {}\n", s.name, s.default + 1));
        }
        let (w, _) = Weights::parse(&text, "old.toml", C6).unwrap();
        for (s, &v) in CONNECT6_ROADS.specs.iter().zip(w.values()) {
            let want = if s.group == WeightGroup::Eval { s.default + 1 } else { s.default };
            assert_eq!(v, want, "{}", s.name);
        }
        // Some move-order weights but not all: the rest are missing, not defaulted.
        text.push_str("move_own3 = 10\n");
        let e = Weights::parse(&text, "half.toml", C6).unwrap_err().to_string();
        assert!(e.contains("missing weight `move_own1`"), "{e}");
    }

    #[test]
    fn json_exports_load_back() {
        let w = CONNECT6_ROADS.defaults();
        let meta = Meta { generation: Some(7), fitness: Some(3.5), ..Meta::default() };
        let text = crate::export::to_json(&w, &meta);
        let (back, m) = Weights::parse(&text, "w.json", C6).unwrap();
        assert_eq!(back, w);
        assert_eq!((m.generation, m.fitness, m.eval.as_deref()), (Some(7), Some(3.5), Some("roads")));
        let (back, _) = Weights::parse(&text, "w.json", &[&CONNECT6_ROADS]).unwrap();
        assert_eq!(back, w);
        let e = Weights::parse(&text.replace("\"own3\": 141", "\"own3\": -7"), "w.json", C6).unwrap_err().to_string();
        let line = text.lines().position(|l| l.contains("\"own3\"")).unwrap() + 1;
        assert!(e.contains(&format!("w.json:{line}:")) && e.contains("own3"), "{e}");
        let e = Weights::parse("{\"weights\": ", "w.json", C6).unwrap_err().to_string();
        assert!(e.contains("w.json") && e.contains("JSON"), "{e}");
        let e = Weights::parse(&text.replacen("\"roads\"", "\"patterns\"", 1), "w.json", &[&CONNECT6_ROADS])
            .unwrap_err()
            .to_string();
        assert!(e.contains("eval"), "{e}");
    }

    /// A table's `[engine]` (the settings it was tuned with) survives the TOML file and the
    /// JSON export; a table without one has none; a wrong key or value is named with its file
    /// and line when the file is read.
    #[test]
    fn the_engine_a_table_was_tuned_with_round_trips_and_is_checked() {
        let w = CONNECT6_ROADS.defaults();
        let engine: toml::Table = "search = \"pvs\"\nwidth = 16\nuct_c = 0.7\nhorizon_wins = false\n".parse().unwrap();
        let meta = Meta { engine: Some(engine.clone()), ..Meta::default() };
        let text = w.to_toml(&meta);
        assert_eq!(Weights::parse(&text, "w.toml", C6).unwrap().1.engine.as_ref(), Some(&engine), "{text}");
        let json = crate::export::to_json(&w, &meta);
        assert_eq!(Weights::parse(&json, "w.json", C6).unwrap().1.engine.as_ref(), Some(&engine), "{json}");
        assert_eq!(Weights::parse(&w.to_toml(&Meta::default()), "w.toml", C6).unwrap().1.engine, None);
        let line = |t: &str, key: &str| t.lines().position(|l| l.trim_start().starts_with(key)).unwrap() + 1;
        let bad = text.replace("width = 16", "widht = 16");
        let e = err(&bad);
        assert!(e.starts_with(&format!("w.toml:{}: [engine] widht", line(&bad, "widht"))), "{e}");
        let bad = text.replace("width = 16", "width = 100000");
        let e = err(&bad);
        assert!(e.starts_with(&format!("w.toml:{}: [engine]", line(&bad, "width"))) && e.contains("width"), "{e}");
        let e = Weights::parse(&json.replace("\"width\": 16", "\"width\": -1"), "w.json", C6).unwrap_err().to_string();
        assert!(e.starts_with(&format!("w.json:{}: [engine]", line(&json, "\"width\""))), "{e}");
        // The machine's resources are each command's, never the table's.
        for key in ["tt_mib = 4", "search_threads = 2"] {
            let bad = text.replace("width = 16", key);
            let e = err(&bad);
            let name = key.split(' ').next().unwrap();
            assert!(
                e.starts_with(&format!("w.toml:{}: [engine] {name}: describes the machine", line(&bad, name))),
                "{e}"
            );
        }
        let e = err(&format!("engine = 3\n{}", w.to_toml(&Meta::default())));
        assert!(e.starts_with("w.toml:1: `engine` is a integer"), "{e}");
    }

    /// A table names its game: loading it for another game is an error, never a guess; a
    /// table naming no game or evaluation is the caller's game and default evaluation.
    #[test]
    fn the_game_and_evaluation_are_checked() {
        let text = CONNECT6_ROADS.defaults().to_toml(&Meta::default());
        let e = Weights::parse(&text, "c6.toml", &[&GOMOKU_ROADS, &GOMOKU_PATTERNS]).unwrap_err().to_string();
        assert!(e.contains("c6.toml") && e.contains("game") && e.contains("gomoku"), "{e}");
        let e = Weights::parse(&text.replace("eval = \"roads\"", "eval = \"magic\""), "m.toml", C6)
            .unwrap_err()
            .to_string();
        assert!(e.contains("magic") && e.contains("roads, patterns"), "{e}");
        let bare: String =
            text.lines().filter(|l| !l.starts_with("game") && !l.starts_with("eval")).collect::<Vec<_>>().join("\n");
        let (w, _) = Weights::parse(&bare, "bare.toml", C6).unwrap();
        assert_eq!(w.schema().eval, "roads");
    }

    #[test]
    fn error_points_at_the_line() {
        let text = full_table_with("own2", "own2 = -5");
        let line = text.lines().position(|l| l.starts_with("own2")).unwrap() + 1;
        let e = err(&text);
        assert!(e.contains(&format!("w.toml:{line}:")), "{e}");
    }
}
