//! The `[outside]` table of a GA or SPSA config: the engine whose parameters are tuned is a
//! program of its own, played over its protocol as `match` plays outside engines, and every
//! individual is that program told the individual's values.
//!
//! ```toml
//! [outside]
//! command = "/opt/engine/engine --weights {weights}"  # {weights}: a file of the values
//! schema = "engine-params.toml"   # the parameters: name, default, min, max, step, doc
//! format = "lines"                # how {weights} is written: toml | json | lines | c
//! protocol = "cloudict"           # connect6 | cloudict | pbrain | line (default: the game's)
//! dir = "/opt/engine"             # the engine's working directory
//! init = ["depth 4"]              # lines sent after every start
//! param_line = "setoption name {name} value {value}"  # a line per parameter after init
//! param_env = "ENGINE_{name}"     # an environment variable per parameter
//! [outside.env]
//! ENGINE_WEIGHTS = "{weights}"    # environment variables ({weights} as in the command)
//! ```
//!
//! The values reach the engine by any of `{weights}` (in the command, an `env` value or an
//! init line), `param_line` and `param_env`; at least one must be given. The schema file is
//! read once, when the config is loaded: the config written into a run's checkpoints holds
//! the parameters themselves (`[outside.parameters]`), so that a resumed run tunes the
//! parameters it started with.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{bail, Result};
use serde::{Deserialize, Serialize};

use crate::arena::outside::params::{PARAM_NAME, PARAM_VALUE, WEIGHTS};
use crate::arena::outside::Protocol;
use crate::core::schema_file::SchemaFile;
use crate::core::weights::Schema;
use crate::export::Format;
use crate::registry::GameRef;

/// The schema of evotune's evaluation `eval` of `game` (a config without `[outside]`).
pub fn evaluation_schema(game: GameRef, eval: &str) -> Result<&'static Schema> {
    if eval.is_empty() {
        bail!("eval: missing; name the evaluation whose weights are tuned (or give an [outside] engine)");
    }
    Ok(game.evaluation(eval).map_err(|e| anyhow::anyhow!("eval = {eval:?}: {e}"))?.schema)
}

/// Checks what a tuning config tunes: an evaluation of evotune's that reads its own weights
/// (`eval`), or an outside engine's parameters (`[outside]`, without `eval`).
pub fn check_tuned(game: GameRef, eval: &str, outside: Option<&OutsideConfig>) -> Result<()> {
    if let Some(o) = outside {
        if !eval.is_empty() {
            bail!(
                "eval = {eval:?}: with [outside] the parameters tuned are the outside engine's ([outside] schema); \
                 leave eval out"
            );
        }
        return o.check(game.name());
    }
    evaluation_schema(game, eval)?;
    let evaluation = game.evaluation(eval)?;
    if !evaluation.tunable {
        let tunable: Vec<String> =
            game.evaluations().iter().filter(|e| e.tunable).map(|e| format!("\"{}\"", e.name)).collect();
        bail!("eval = {eval:?}: reads another evaluation's weights; tune {} instead", tunable.join(" or "));
    }
    Ok(())
}

/// The engine being tuned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutsideConfig {
    /// The engine's command line, split into words as a shell would (no shell runs it);
    /// `{weights}` stands for the path of the file of an individual's values.
    pub command: String,
    /// The parameter schema file (`evotune schema --game G --eval E` prints one to start
    /// from); relative paths are from the folder evotune runs in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<PathBuf>,
    /// How the file of `{weights}` is written.
    #[serde(default)]
    pub format: Format,
    /// The engine's protocol (default: the game's usual one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    /// The engine's working directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<PathBuf>,
    /// Lines sent after every start of the engine (`{weights}` allowed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub init: Vec<String>,
    /// A line sent for every parameter after the init lines, `{name}` and `{value}` filled
    /// in (UCI `setoption name {name} value {value}`, pbrain `INFO {name} {value}`). With
    /// nothing else carrying the values, a process is told another individual's values
    /// instead of being started again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub param_line: Option<String>,
    /// An environment variable for every parameter: its name, `{name}` filled in; its value
    /// the parameter's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub param_env: Option<String>,
    /// Where the engine's standard error goes (default: a file in the temporary folder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log: Option<PathBuf>,
    /// The shortest time in ms between the engine's last output and the next line sent to
    /// it (default: the protocol's, 30 on pbrain and 0 on the others).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pace: Option<u64>,
    /// Environment variables of the engine (`{weights}` allowed in values).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// The parameters: read from `schema` when the config is loaded, or given inline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<SchemaFile>,
}

impl OutsideConfig {
    /// Reads the schema file into `parameters`, unless they are there already (a run's
    /// config, or given inline). Errors name the key.
    pub fn read_schema(&mut self) -> Result<()> {
        if self.parameters.is_some() {
            return Ok(());
        }
        let Some(path) = &self.schema else {
            bail!("[outside] schema: missing; name the engine's parameter schema file (`evotune schema` prints one)")
        };
        self.parameters = Some(SchemaFile::load(path).map_err(|e| anyhow::anyhow!("[outside] schema: {e}"))?);
        Ok(())
    }

    /// The parameters (after [`read_schema`](Self::read_schema)).
    pub fn parameters(&self) -> Result<&SchemaFile> {
        match &self.parameters {
            Some(p) => Ok(p),
            None => bail!("[outside] schema: the parameters are not read yet"),
        }
    }

    /// The schema the tuner sees for `game`.
    pub fn schema(&self, game: &'static str) -> Result<&'static Schema> {
        Ok(self.parameters()?.schema(game))
    }

    /// The protocol spoken, for `game`.
    pub fn protocol(&self, game: &str) -> Result<Protocol> {
        let protocol = match &self.protocol {
            Some(p) => Protocol::parse(p).map_err(|e| anyhow::anyhow!("[outside] protocol = {p:?}: {e}"))?,
            None => Protocol::default_for(game),
        };
        if !protocol.plays(game) {
            bail!("[outside] protocol = {:?}: plays {}, not {game}", protocol.name(), protocol.games_text());
        }
        Ok(protocol)
    }

    /// Whether `{weights}` appears where the engine reads it: the command, an environment
    /// value or an init line.
    pub fn uses_file(&self) -> bool {
        self.command.contains(WEIGHTS)
            || self.env.values().any(|v| v.contains(WEIGHTS))
            || self.init.iter().any(|l| l.contains(WEIGHTS))
    }

    /// Checks what the types do not, for a run of `game`; errors name the key. The program
    /// itself is looked for when the run's players are made, not here: a config can be
    /// checked where the engine is not installed.
    pub fn check(&self, game: &str) -> Result<()> {
        let words = shlex::split(&self.command)
            .ok_or_else(|| anyhow::anyhow!("[outside] command = {:?}: unbalanced quotes", self.command))?;
        if words.is_empty() {
            bail!(
                "[outside] command = \"\": give the engine's command line, e.g. \"/path/engine --weights {WEIGHTS}\""
            );
        }
        if words[0].contains(WEIGHTS) {
            bail!("[outside] command = {:?}: the first word is the program, not {WEIGHTS}", self.command);
        }
        self.protocol(game)?;
        let parameters = self.parameters()?;
        if let Some(g) = &parameters.game {
            if g != game {
                bail!("[outside] schema: the parameters are {g}'s (its `game`), the run plays {game}");
            }
        }
        if !self.uses_file() && self.param_line.is_none() && self.param_env.is_none() {
            bail!(
                "[outside]: the engine is never told the parameters; put {WEIGHTS} in the command (or an env \
                 value or init line), or give param_line or param_env"
            );
        }
        if let Some(line) = &self.param_line {
            if !line.contains(PARAM_VALUE) {
                bail!("[outside] param_line = {line:?}: must hold {PARAM_VALUE} (and {PARAM_NAME} for the name)");
            }
        }
        if let Some(var) = &self.param_env {
            if !var.contains(PARAM_NAME) {
                bail!("[outside] param_env = {var:?}: must hold {PARAM_NAME}, the parameter's name");
            }
            if var.contains('=') || var.contains(char::is_whitespace) {
                bail!("[outside] param_env = {var:?}: a variable name, without '=' or spaces");
            }
        }
        for name in self.env.keys() {
            if name.is_empty() || name.contains('=') || name.contains(char::is_whitespace) {
                bail!("[outside.env] {name:?}: a variable name, without '=' or spaces");
            }
        }
        for line in self.init.iter().chain(&self.param_line) {
            if line.contains(['\n', '\r']) {
                bail!("[outside] init / param_line {:?}: one protocol line each, without a line break", line);
            }
        }
        if let Some(d) = &self.dir {
            if d.as_os_str().is_empty() {
                bail!("[outside] dir = \"\": give a folder or leave dir out");
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(extra: &str) -> Result<OutsideConfig> {
        let text = format!(
            "command = \"engine --w {{weights}}\"\n{extra}\n[parameters]\nname = \"e\"\n\
             [[parameters.param]]\nname = \"a\"\ndefault = 1\nmin = 0\nmax = 9\n"
        );
        let c: OutsideConfig = toml::from_str(&text)?;
        c.check("connect6")?;
        Ok(c)
    }

    #[test]
    fn a_config_checks_how_the_values_reach_the_engine() {
        let c = config("format = \"lines\"").unwrap();
        assert!(c.uses_file());
        assert_eq!(c.protocol("connect6").unwrap(), Protocol::Cloudict);
        for (extra, want) in [
            ("protocol = \"pbrain\"", "plays gomoku"),
            ("protocol = \"uci\"", "[outside] protocol = \"uci\""),
            ("param_line = \"set {name}\"", "must hold {value}"),
            ("param_env = \"X\"", "must hold {name}"),
            ("[env]\n\"A=B\" = \"1\"", "[outside.env]"),
        ] {
            let e = format!("{:#}", config(extra).unwrap_err());
            assert!(e.contains(want), "{extra}: {e}");
        }
        let text = "command = \"engine\"\nparam_line = \"set {name} {value}\"\n[parameters]\nname = \"e\"\n\
                    [[parameters.param]]\nname = \"a\"\ndefault = 1\nmin = 0\nmax = 9\n";
        let c: OutsideConfig = toml::from_str(text).unwrap();
        c.check("connect6").unwrap();
        let silent: OutsideConfig = toml::from_str(&text.replace("param_line = \"set {name} {value}\"\n", "")).unwrap();
        let e = format!("{:#}", silent.check("connect6").unwrap_err());
        assert!(e.contains("never told the parameters"), "{e}");
    }
}
