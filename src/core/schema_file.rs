//! Parameter schema files: a weight schema written as TOML, so that the parameters of an
//! engine evotune does not know (an outside engine being tuned) are declared as evotune's own
//! evaluations declare theirs: a name, a default, bounds and a mutation step each.
//!
//! ```toml
//! name = "cloudict-dna"      # the parameter set: [meta] eval of its weight tables
//! game = "connect6"          # optional: the game it plays
//! source = "Cloudict, src/evaluation.cc: int dna[16]"   # optional: where the defaults are
//!
//! [[param]]
//! name = "base_1"            # letters, digits, '_' and '-'
//! default = 2000
//! min = 500
//! max = 3500
//! step = 150                 # optional: the size of a mutation step (a twentieth of the range)
//! doc = "class score: ..."   # optional
//! ```
//!
//! `evotune schema --game G --eval E` writes a built-in schema in this form. A file is read
//! into a [`SchemaFile`], checked, and turned into the [`Schema`] the tuners use by
//! [`SchemaFile::schema`], once per distinct schema in a process (schemas live as long as the
//! program, as the built-in ones do).

use std::path::Path;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::core::weights::{Schema, WeightGroup, WeightSpec};

/// The most parameters a schema may have.
pub const MAX_PARAMS: usize = 10_000;

/// A parameter schema as written in a file.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchemaFile {
    /// The parameter set's name: `[meta] eval` of its weight tables.
    pub name: String,
    /// The game it plays, if the file says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// Where the defaults come from.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
    #[serde(rename = "param")]
    pub params: Vec<Param>,
}

/// One parameter.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Param {
    pub name: String,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// The size of a mutation step; a twentieth of the range (at least 1) when not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<i32>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub doc: String,
}

impl Param {
    fn step(&self) -> i32 {
        self.step.unwrap_or(((self.max - self.min) / 20).max(1))
    }
}

/// Whether `name` can name a parameter: it is written as a TOML key, a `NAME VALUE` line, an
/// environment variable's part and a C identifier's part.
fn good_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 100
        && !name.starts_with('-')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

impl SchemaFile {
    /// Reads and checks a schema file.
    pub fn load(path: &Path) -> Result<SchemaFile, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        Self::parse(&text, &path.display().to_string())
    }

    /// Parses and checks the text of a schema file; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<SchemaFile, String> {
        let schema: SchemaFile = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
            let at = line.map_or(String::new(), |l| format!(":{l}"));
            format!("{file}{at}: {}", e.message().trim_end().replace('\n', " "))
        })?;
        schema.check().map_err(|e| format!("{file}: {e}"))?;
        Ok(schema)
    }

    /// Checks what the types do not; the error names the parameter and says what is allowed.
    pub fn check(&self) -> Result<(), String> {
        if !good_name(&self.name) {
            return Err(format!("name = {:?}: up to 100 letters, digits, '_' and '-' (it names tables)", self.name));
        }
        if self.params.is_empty() || self.params.len() > MAX_PARAMS {
            return Err(format!("{} parameters; between 1 and {MAX_PARAMS} ([[param]] tables)", self.params.len()));
        }
        for (i, p) in self.params.iter().enumerate() {
            let at = format!("[[param]] {} (`{}`)", i + 1, p.name);
            if !good_name(&p.name) {
                return Err(format!("{at}: a name of up to 100 letters, digits, '_' and '-', not starting with '-'"));
            }
            if self.params[..i].iter().any(|q| q.name == p.name) {
                return Err(format!("{at}: the name is given twice"));
            }
            if !(p.min <= p.default && p.default <= p.max) {
                return Err(format!(
                    "{at}: min <= default <= max is required ({} <= {} <= {})",
                    p.min, p.default, p.max
                ));
            }
            // Ranges and steps are computed in i32 by the operators.
            if i64::from(p.max) - i64::from(p.min) > i64::from(i32::MAX) {
                return Err(format!("{at}: the range [{}, {}] is too wide", p.min, p.max));
            }
            if let Some(s) = p.step {
                if s < 1 || (p.max > p.min && s > p.max - p.min) {
                    return Err(format!("{at}: step = {s}: between 1 and max - min ({})", p.max - p.min));
                }
            }
        }
        Ok(())
    }

    /// The schema file of a built-in schema (every step written out).
    pub fn of(schema: &Schema) -> SchemaFile {
        SchemaFile {
            name: schema.eval.to_string(),
            game: Some(schema.game.to_string()),
            source: schema.source.to_string(),
            params: schema
                .specs
                .iter()
                .map(|s| Param {
                    name: s.name.into(),
                    default: s.default,
                    min: s.min,
                    max: s.max,
                    step: Some(s.step),
                    doc: s.doc.into(),
                })
                .collect(),
        }
    }

    /// The file's text, commented: what `evotune schema` prints.
    pub fn to_text(&self) -> String {
        let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
        let mut out = String::from(
            "# An evotune parameter schema: the tuned parameters of an engine, one [[param]] each\n\
             # (docs/outside-tuning.md). name: the parameter set ([meta] eval of its weight tables);\n\
             # per parameter: name, default, min and max (a tuner keeps it within them), step (the\n\
             # size of a mutation step; a twentieth of the range when left out) and doc.\n",
        );
        out += &format!("name = {}\n", quote(&self.name));
        if let Some(g) = &self.game {
            out += &format!("game = {}\n", quote(g));
        }
        if !self.source.is_empty() {
            out += &format!("source = {}\n", quote(&self.source));
        }
        for p in &self.params {
            out += &format!(
                "\n[[param]]\nname = {}\ndefault = {}\nmin = {}\nmax = {}\n",
                quote(&p.name),
                p.default,
                p.min,
                p.max
            );
            if let Some(s) = p.step {
                out += &format!("step = {s}\n");
            }
            if !p.doc.is_empty() {
                out += &format!("doc = {}\n", quote(&p.doc));
            }
        }
        out
    }

    /// The schema the tuners use, for `game`: made once per distinct schema in a process and
    /// kept for its lifetime, as the built-in schemas are.
    pub fn schema(&self, game: &'static str) -> &'static Schema {
        static MADE: Mutex<Vec<(&'static str, SchemaFile, &'static Schema)>> = Mutex::new(Vec::new());
        let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, _, s)) = made.iter().find(|(g, f, _)| *g == game && f == self) {
            return s;
        }
        let leak = |s: &str| -> &'static str { Box::leak(s.to_string().into_boxed_str()) };
        let specs: Vec<WeightSpec> = self
            .params
            .iter()
            .map(|p| WeightSpec {
                name: leak(&p.name),
                default: p.default,
                min: p.min,
                max: p.max,
                step: p.step(),
                doc: leak(&p.doc),
                group: WeightGroup::Eval,
            })
            .collect();
        let schema: &'static Schema = Box::leak(Box::new(Schema {
            game,
            eval: leak(&self.name),
            source: leak(&self.source),
            specs: Box::leak(specs.into_boxed_slice()),
        }));
        made.push((game, self.clone(), schema));
        schema
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect::eval::roads::CONNECT6_ROADS;

    #[test]
    fn a_built_in_schema_round_trips_through_its_file() {
        let file = SchemaFile::of(&CONNECT6_ROADS);
        let text = file.to_text();
        let back = SchemaFile::parse(&text, "roads.toml").unwrap();
        assert_eq!(back, file);
        let schema = back.schema("connect6");
        assert_eq!((schema.game, schema.eval, schema.source), ("connect6", "roads", CONNECT6_ROADS.source));
        let fields = |s: &WeightSpec| (s.name, s.default, s.min, s.max, s.step, s.doc);
        let built_in: Vec<_> = CONNECT6_ROADS.specs.iter().map(fields).collect();
        assert_eq!(schema.specs.iter().map(fields).collect::<Vec<_>>(), built_in);
        // Made once: the same schema again is the same object.
        assert!(std::ptr::eq(schema, SchemaFile::parse(&text, "again.toml").unwrap().schema("connect6")));
    }

    #[test]
    fn steps_default_to_a_twentieth_of_the_range() {
        let text = "name = \"e\"\n[[param]]\nname = \"a\"\ndefault = 5\nmin = 0\nmax = 100\n\
                    [[param]]\nname = \"b\"\ndefault = 1\nmin = 0\nmax = 3\n";
        let s = SchemaFile::parse(text, "e.toml").unwrap().schema("connect6");
        assert_eq!(s.specs.iter().map(|w| w.step).collect::<Vec<_>>(), vec![5, 1]);
    }

    #[test]
    fn bad_schemas_name_the_file_the_parameter_and_the_rule() {
        let ok = "name = \"e\"\n[[param]]\nname = \"a\"\ndefault = 5\nmin = 0\nmax = 10\n";
        for (text, want) in [
            (ok.replace("default = 5", "default = 11"), "[[param]] 1 (`a`): min <= default <= max"),
            (ok.replace("max = 10", "max = 10\nstep = 0"), "step = 0"),
            (ok.replace("name = \"a\"", "name = \"a b\""), "[[param]] 1 (`a b`): a name"),
            (format!("{ok}[[param]]\nname = \"a\"\ndefault = 1\nmin = 0\nmax = 1\n"), "given twice"),
            (ok.replace("name = \"e\"", "name = \"\""), "name = \"\""),
            ("name = \"e\"\nparam = []\n".to_string(), "0 parameters"),
            (ok.replace("default = 5", "default = \"five\""), "e.toml:4"),
            (ok.replace("max = 10", "max = 10\nmaximum = 3"), "maximum"),
        ] {
            let e = SchemaFile::parse(&text, "e.toml").unwrap_err();
            assert!(e.starts_with("e.toml") && e.contains(want), "{want}: {e}");
        }
    }
}
