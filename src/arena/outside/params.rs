//! How an engine being tuned is told an individual's values (`[outside]` of a tuning config):
//! a file of the values, written in a weight-table format, whose path replaces `{weights}`
//! in the command, the environment values and the init lines; an environment variable per
//! parameter; a protocol line per parameter, sent after the init lines.
//!
//! A process started for some values plays those values until it ends, unless the values
//! reach it by lines alone ([`Params::by_lines`]): then it can be told another individual's
//! values, every one of them, and play that individual.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use crate::arena::outside::spec::EngineSpec;
use crate::core::weights::{Meta, Schema, Weights};
use crate::export::Format;

/// What stands for the path of the values' file.
pub const WEIGHTS: &str = "{weights}";
/// What stands for a parameter's name and value in `param_line` and `param_env`.
pub const PARAM_NAME: &str = "{name}";
pub const PARAM_VALUE: &str = "{value}";

/// How values reach an engine.
#[derive(Debug)]
pub struct Params {
    /// The parameters, in the order of the values.
    pub schema: &'static Schema,
    /// The format of the values' file.
    pub format: Format,
    /// A line per parameter (`{name}`, `{value}`).
    pub line: Option<String>,
    /// An environment variable per parameter: its name (`{name}`).
    pub env: Option<String>,
    /// Whether `{weights}` appears in the engine's command, environment or init lines.
    uses_file: bool,
    /// Where the values' files go: made when the first is written, removed with `self`.
    dir: PathBuf,
    /// The files written, by values, while a process reads them.
    files: Mutex<HashMap<Vec<i32>, Weak<ValuesFile>>>,
    written: AtomicU64,
}

/// A file of values, removed when the last process started with it is gone.
#[derive(Debug)]
pub struct ValuesFile {
    path: PathBuf,
}

impl ValuesFile {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for ValuesFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

impl Params {
    /// How `schema`'s values reach the engine of `base` (whose command, environment and init
    /// lines may hold `{weights}`); `name` names the folder of the values' files.
    pub fn new(
        schema: &'static Schema,
        format: Format,
        line: Option<String>,
        env: Option<String>,
        base: &EngineSpec,
        name: &str,
    ) -> Params {
        let uses_file = base.command.iter().any(|w| w.contains(WEIGHTS))
            || base.env.iter().any(|(_, v)| v.contains(WEIGHTS))
            || base.init.iter().any(|l| l.contains(WEIGHTS));
        static RUNS: AtomicU64 = AtomicU64::new(0);
        let safe: String =
            name.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' }).collect();
        let dir = std::env::temp_dir().join(format!(
            "evotune-{}-{safe}-{}-values",
            std::process::id(),
            RUNS.fetch_add(1, Ordering::Relaxed)
        ));
        Params {
            schema,
            format,
            line,
            env,
            uses_file,
            dir,
            files: Mutex::new(HashMap::new()),
            written: AtomicU64::new(0),
        }
    }

    /// Whether the values reach the engine by protocol lines alone, so that a running process
    /// can be told another individual's values instead of being started again.
    pub fn by_lines(&self) -> bool {
        !self.uses_file && self.env.is_none()
    }

    /// The lines that tell a process `values` (`param_line` for every parameter).
    pub fn lines(&self, values: &[i32]) -> Vec<String> {
        let Some(line) = &self.line else { return Vec::new() };
        self.schema
            .specs
            .iter()
            .zip(values)
            .map(|(s, v)| line.replace(PARAM_NAME, s.name).replace(PARAM_VALUE, &v.to_string()))
            .collect()
    }

    /// The spec of a process that plays `values`: `{weights}` replaced by the path of their
    /// file (written if need be, and kept while the returned handle lives), the environment
    /// variables of the parameters added, and their lines after the init lines.
    pub fn spec_for(
        &self,
        base: &EngineSpec,
        values: &[i32],
    ) -> std::io::Result<(EngineSpec, Option<Arc<ValuesFile>>)> {
        let file = if self.uses_file { Some(self.file_for(values)?) } else { None };
        Ok((self.spec_reading(base, values, file.as_ref().map(|f| f.path())), file))
    }

    /// The spec of a process that plays `values`, with `{weights}` standing for `file`
    /// (which holds them in this format).
    pub fn spec_reading(&self, base: &EngineSpec, values: &[i32], file: Option<&Path>) -> EngineSpec {
        let path = file.map(|f| f.display().to_string()).unwrap_or_default();
        let fill = |s: &String| s.replace(WEIGHTS, &path);
        let mut spec = base.clone();
        spec.command = base.command.iter().map(fill).collect();
        spec.env = base.env.iter().map(|(k, v)| (k.clone(), fill(v))).collect();
        if let Some(var) = &self.env {
            spec.env.extend(
                self.schema.specs.iter().zip(values).map(|(s, v)| (var.replace(PARAM_NAME, s.name), v.to_string())),
            );
        }
        spec.init = base.init.iter().map(fill).collect();
        spec.init.extend(self.lines(values));
        spec
    }

    /// The file of `values`: the one a running process reads, or a new one.
    fn file_for(&self, values: &[i32]) -> std::io::Result<Arc<ValuesFile>> {
        let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = files.get(values).and_then(Weak::upgrade) {
            return Ok(f);
        }
        files.retain(|_, f| f.strong_count() > 0);
        let n = self.written.fetch_add(1, Ordering::Relaxed);
        let path = self.dir.join(format!("values-{n}.{}", self.format.extension()));
        let weights = Weights::clamped(self.schema, values.to_vec());
        crate::fsutil::write_atomic(&path, self.format.render(&weights, &Meta::default()).as_bytes())?;
        let file = Arc::new(ValuesFile { path });
        files.insert(values.to_vec(), Arc::downgrade(&file));
        Ok(file)
    }
}

impl Drop for Params {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::outside::pool::OutsideEngine;
    use crate::arena::outside::spec::SpecOptions;
    use crate::core::schema_file::SchemaFile;
    use std::time::Duration;

    const DIAL: &str = "cmd:python3 tests/fixtures/engines/dial.py";

    fn schema() -> &'static Schema {
        let text = "name = \"dial\"\n[[param]]\nname = \"seed\"\ndefault = 0\nmin = 0\nmax = 1000\n\
                    [[param]]\nname = \"crash\"\ndefault = 0\nmin = 0\nmax = 1\n";
        SchemaFile::parse(text, "dial.toml").unwrap().schema("connect6")
    }

    /// dial.py tuned with its values passed as `how` says (`file`, `env`, `lines`), its log
    /// in `dir`.
    fn dial(how: &str, dir: &Path) -> OutsideEngine {
        let text = if how == "file" { format!("{DIAL} --weights {WEIGHTS}") } else { DIAL.to_string() };
        let options = SpecOptions { log: Some(dir.join(format!("{how}.log"))), ..SpecOptions::default() };
        let spec = EngineSpec::parse(&text, &options, "connect6").unwrap();
        let line = (how == "lines").then(|| format!("set {PARAM_NAME} {PARAM_VALUE}"));
        let env = (how == "env").then(|| format!("DIAL_{PARAM_NAME}"));
        let params = Params::new(schema(), Format::Lines, line, env, &spec, "dial");
        OutsideEngine::tuned(spec, params, "dial").unwrap()
    }

    fn log(dir: &Path, how: &str) -> String {
        std::fs::read_to_string(dir.join(format!("{how}.log"))).unwrap()
    }

    #[test]
    fn the_values_reach_the_engine_every_way() {
        let dir = tempfile::tempdir().unwrap();
        let p = Params::new(
            schema(),
            Format::Lines,
            None,
            None,
            &EngineSpec::parse(DIAL, &SpecOptions::default(), "connect6").unwrap(),
            "t",
        );
        assert!(p.by_lines());
        for how in ["file", "env", "lines"] {
            let engine = dial(how, dir.path());
            let p = engine.checkout(&[7, 0], Duration::from_secs(10)).unwrap();
            engine.checkin(p);
            drop(engine);
            let text = log(dir.path(), how);
            // Lines come after the start, which has the engine's own defaults.
            let started = if how == "lines" { "seed=0" } else { "seed=7" };
            assert!(text.contains(&format!("dial started {started} crash=0")), "{how}: {text}");
            assert_eq!(text.contains("dial set seed=7"), how == "lines", "{how}: {text}");
        }
    }

    #[test]
    fn a_process_plays_one_individual_unless_lines_can_retell_it() {
        let dir = tempfile::tempdir().unwrap();
        let hang = Duration::from_secs(10);
        // By file: a process per values; an individual's process is reused.
        let engine = dial("file", dir.path());
        let a = engine.checkout(&[1, 0], hang).unwrap();
        let a_id = a.id();
        engine.checkin(a);
        let b = engine.checkout(&[2, 0], hang).unwrap();
        assert_ne!(b.id(), a_id, "other values, another process");
        engine.checkin(b);
        let a = engine.checkout(&[1, 0], hang).unwrap();
        assert_eq!(a.id(), a_id, "the individual's own process again");
        engine.checkin(a);
        // At most two processes a worker thread stay alive: the oldest waiting ones end.
        let bound = 2 * rayon::current_num_threads();
        for v in 0..bound as i32 + 3 {
            let p = engine.checkout(&[10 + v, 0], hang).unwrap();
            engine.checkin(p);
            assert!(engine.live() <= bound, "{} processes", engine.live());
        }
        // By lines: a waiting process is told the next individual's values.
        let engine = dial("lines", dir.path());
        let a = engine.checkout(&[1, 0], hang).unwrap();
        let a_id = a.id();
        engine.checkin(a);
        let b = engine.checkout(&[2, 0], hang).unwrap();
        assert_eq!(b.id(), a_id, "one process, told new values");
        engine.checkin(b);
        assert_eq!(engine.stats().started, 1);
        drop(engine);
        assert!(log(dir.path(), "lines").contains("dial set seed=2"));
    }
}
