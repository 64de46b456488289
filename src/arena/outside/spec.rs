//! How an outside engine is written: `cmd:COMMAND[;key=value]...`, the same text after `--a`,
//! as a `tournament` entry and in `[hall_of_fame] anchors`.
//!
//! COMMAND is split into words as a shell would (quotes group words) but runs without a
//! shell: no pipes, variables or `~`. Its first word is the program: a path (relative to the
//! directory evotune runs in) or a name looked up on `PATH`. The options after it:
//! `protocol=connect6|cloudict|pbrain|line`, `dir=DIR` (the engine's working directory),
//! `init=LINE` (a line sent after every start of the engine, repeatable; one line, without
//! a line break), `log=FILE` (where its standard error goes), `pace=MS` (the shortest time
//! between the engine's last output and the next line sent to it: 30 ms on pbrain, whose
//! brains may drop a command that arrives as they finish a move, 0 on the others) and
//! `env=NAME=VALUE` (an environment variable of the engine, repeatable). `--a-protocol`,
//! `--a-dir`, `--a-init` and `--a-log` add the same
//! options on the command line. Everything is checked here, before any game: a program that
//! is not there, an unknown option or a protocol of another game is an error that says what
//! was expected.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::arena::outside::protocol::Protocol;

/// What starts an outside player's text.
pub const PREFIX: &str = "cmd:";

/// The options of a spec's text (`key=value`).
const KEYS: &str = "protocol, dir, init, log, pace, env";
/// The longest pace, in ms.
pub const MAX_PACE_MS: u64 = 10_000;

/// Whether a player's text names an outside engine.
pub fn is_outside(text: &str) -> bool {
    text.starts_with(PREFIX)
}

/// Options given beside the text (`--a-protocol`, `--a-dir`, `--a-init`, `--a-log`); they
/// replace the text's own, and init lines come after the text's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpecOptions {
    pub protocol: Option<Protocol>,
    pub dir: Option<PathBuf>,
    pub init: Vec<String>,
    pub log: Option<PathBuf>,
    pub pace_ms: Option<u64>,
    /// Environment variables, after the text's own.
    pub env: Vec<(String, String)>,
}

impl SpecOptions {
    pub fn is_empty(&self) -> bool {
        *self == SpecOptions::default()
    }
}

/// An outside engine, checked: its program exists, its directory too, its protocol plays the
/// game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The command's words as given (the program first), for messages and the spec's text.
    pub command: Vec<String>,
    /// The program to start: an absolute path, so that `dir` does not change what runs.
    pub program: PathBuf,
    pub protocol: Protocol,
    pub dir: Option<PathBuf>,
    pub init: Vec<String>,
    pub log: Option<PathBuf>,
    /// `pace=MS` when given; [`EngineSpec::pace`] is the pace in force.
    pub pace_ms: Option<u64>,
    /// Environment variables set for the engine, beside evotune's own.
    pub env: Vec<(String, String)>,
}

impl EngineSpec {
    /// Reads `cmd:COMMAND[;key=value]...` for `game`, with `extra` options on top. Errors say
    /// what is wrong and what was expected; the caller names the flag or key.
    pub fn parse(text: &str, extra: &SpecOptions, game: &str) -> Result<EngineSpec, String> {
        let Some(rest) = text.strip_prefix(PREFIX) else {
            return Err(format!("`{text}`: an outside engine is written `{PREFIX}COMMAND[;key=value]...`"));
        };
        let parts = split_unquoted(rest, ';');
        let mut parts = parts.iter().map(String::as_str);
        let command_text = parts.next().unwrap_or("").trim();
        let command =
            shlex::split(command_text).ok_or_else(|| format!("`{command_text}`: unbalanced quotes in the command"))?;
        if command.is_empty() {
            return Err(format!("`{text}`: no command after `{PREFIX}` (e.g. `{PREFIX}/path/to/engine --option`)"));
        }
        let mut options = SpecOptions::default();
        for part in parts {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let Some((key, value)) = part.split_once('=') else {
                return Err(format!("`{part}`: expected key=value after `;` (keys: {KEYS})"));
            };
            // A value may be quoted as the command's words are (`init='a;b'`).
            let value =
                shlex::split(value).map(|w| w.join(" ")).ok_or_else(|| format!("`{part}`: unbalanced quotes"))?;
            let value = value.as_str();
            match key.trim() {
                "protocol" => options.protocol = Some(Protocol::parse(value)?),
                "dir" => options.dir = Some(PathBuf::from(value)),
                "init" => options.init.push(value.to_string()),
                "log" => options.log = Some(PathBuf::from(value)),
                "pace" => {
                    options.pace_ms = match value.parse::<u64>() {
                        Ok(ms) if ms <= MAX_PACE_MS => Some(ms),
                        _ => return Err(format!("`{part}`: expected pace=MS with 0 <= MS <= {MAX_PACE_MS}")),
                    }
                }
                "env" => match value.split_once('=') {
                    Some((name, v)) if !name.is_empty() && !name.contains(char::is_whitespace) => {
                        options.env.push((name.to_string(), v.to_string()))
                    }
                    _ => return Err(format!("`{part}`: expected env=NAME=VALUE")),
                },
                other => return Err(format!("`{other}`: unknown option of an outside engine (keys: {KEYS})")),
            }
        }
        options.init.extend(extra.init.iter().cloned());
        if let Some(line) = options.init.iter().find(|l| l.contains(['\n', '\r'])) {
            return Err(format!(
                "init line `{}` holds a line break: each init is one protocol line (give one init per line)",
                line.escape_debug()
            ));
        }
        options.env.extend(extra.env.iter().cloned());
        let protocol = extra.protocol.or(options.protocol).unwrap_or_else(|| Protocol::default_for(game));
        if !protocol.plays(game) {
            return Err(format!(
                "protocol `{}` plays {}, not {game}; {game} engines speak {}",
                protocol.name(),
                protocol.games_text(),
                Protocol::for_game(game).iter().map(|p| p.name()).collect::<Vec<_>>().join(" or ")
            ));
        }
        let dir = extra.dir.clone().or(options.dir);
        if let Some(d) = &dir {
            if !d.is_dir() {
                return Err(format!("dir `{}`: no such directory", d.display()));
            }
        }
        let program = resolve_program(&command[0])?;
        let log = extra.log.clone().or(options.log);
        let pace_ms = extra.pace_ms.or(options.pace_ms);
        Ok(EngineSpec { command, program, protocol, dir, init: options.init, log, pace_ms, env: options.env })
    }

    /// The shortest time between the engine's last output and the next line sent to it.
    pub fn pace(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.pace_ms.unwrap_or_else(|| self.protocol.default_pace_ms()))
    }

    /// The command as one line, quoted where a word needs it.
    pub fn command_line(&self) -> String {
        shlex::try_join(self.command.iter().map(String::as_str)).unwrap_or_else(|_| self.command.join(" "))
    }

    /// A name for the engine when none is given: the program's file name, or for an
    /// interpreter (`python3 engine.py`) its script's.
    pub fn default_name(&self) -> String {
        let stem = |w: &str| Path::new(w).file_stem().map(|s| s.to_string_lossy().into_owned());
        let program = stem(&self.command[0]).unwrap_or_else(|| self.command[0].clone());
        let interpreter = ["python", "python3", "sh", "bash", "perl", "ruby", "node", "java"];
        let in_dir = |w: &String| self.dir.as_ref().map_or_else(|| PathBuf::from(w), |d| d.join(w));
        if interpreter.contains(&program.as_str()) {
            if let Some(script) = self.command[1..].iter().find(|w| in_dir(w).is_file()).and_then(|w| stem(w)) {
                return script;
            }
        }
        program
    }
}

impl fmt::Display for EngineSpec {
    /// The spec's text, which [`EngineSpec::parse`] reads back to the same spec.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{PREFIX}{};protocol={}", self.command_line(), self.protocol.name())?;
        if let Some(d) = &self.dir {
            write!(f, ";dir={}", d.display())?;
        }
        for line in &self.init {
            write!(f, ";init={}", quoted(line))?;
        }
        if let Some(l) = &self.log {
            write!(f, ";log={}", quoted(&l.display().to_string()))?;
        }
        if let Some(p) = self.pace_ms {
            write!(f, ";pace={p}")?;
        }
        for (name, value) in &self.env {
            write!(f, ";env={}", quoted(&format!("{name}={value}")))?;
        }
        Ok(())
    }
}

/// A value quoted for the spec's text when it needs it.
fn quoted(value: &str) -> String {
    shlex::try_quote(value).map_or_else(|_| value.to_string(), |q| q.into_owned())
}

/// Splits `text` at each `sep` outside quotes (`'...'`, `"..."`) and not escaped by `\`;
/// the quotes stay for the words' own reading.
fn split_unquoted(text: &str, sep: char) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in text.chars() {
        match (quote, c) {
            _ if escaped => escaped = false,
            (Some('\''), '\'') | (Some('"'), '"') => quote = None,
            (Some('"') | None, '\\') => escaped = true,
            (None, '\'' | '"') => quote = Some(c),
            (None, c) if c == sep => {
                parts.push(String::new());
                continue;
            }
            _ => {}
        }
        parts.last_mut().expect("one part at least").push(c);
    }
    parts
}

/// The program a command starts: a path with a `/` as it is (made absolute), a bare name
/// from `PATH`. It must be an executable file.
fn resolve_program(word: &str) -> Result<PathBuf, String> {
    let found = if word.contains('/') {
        let p = PathBuf::from(word);
        let p = if p.is_absolute() { p } else { std::env::current_dir().map(|d| d.join(&p)).unwrap_or(p) };
        p.is_file().then_some(p)
    } else {
        std::env::var_os("PATH")
            .map(|paths| std::env::split_paths(&paths).map(|d| d.join(word)).find(|p| is_executable(p)))
            .unwrap_or(None)
    };
    match found {
        Some(p) if is_executable(&p) => Ok(p),
        Some(p) => Err(format!("`{}` is not executable (chmod +x, or start it with its interpreter)", p.display())),
        None if word.contains('/') => Err(format!("no program `{word}`: no such file")),
        None => Err(format!("no program `{word}` on PATH (give its path)")),
    }
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str, game: &str) -> Result<EngineSpec, String> {
        EngineSpec::parse(text, &SpecOptions::default(), game)
    }

    #[test]
    fn reads_command_options_and_defaults() {
        let s = parse("cmd:sh -c 'echo hi';protocol=connect6;init=depth 4;init=vcf", "connect6").unwrap();
        assert_eq!(s.command, ["sh", "-c", "echo hi"]);
        assert!(s.program.is_absolute() && s.program.ends_with("sh"), "{:?}", s.program);
        assert_eq!((s.protocol, s.init.clone()), (Protocol::Connect6, vec!["depth 4".to_string(), "vcf".into()]));
        assert_eq!(s.default_name(), "sh");
        let s = parse("cmd:sh -c 'a; b';init='x; y';log=/tmp/a b.log", "connect6").unwrap();
        assert_eq!((s.command[2].as_str(), s.init[0].as_str()), ("a; b", "x; y"));
        assert_eq!(s.log.as_deref(), Some(Path::new("/tmp/a b.log")));
        // The text reads back to the same spec.
        assert_eq!(parse(&s.to_string(), "connect6").unwrap(), s);
        let s = parse("cmd:sh;init=depth 4;dir=.;pace=5", "connect6").unwrap();
        assert_eq!(parse(&s.to_string(), "connect6").unwrap(), s);
        assert_eq!(s.pace(), std::time::Duration::from_millis(5));
        assert_eq!(parse("cmd:sh", "gomoku").unwrap().pace(), std::time::Duration::from_millis(30));
        assert_eq!(parse("cmd:sh", "connect6").unwrap().pace(), std::time::Duration::ZERO);
        let s = parse("cmd:sh;env=A=1;env='B=x y'", "connect6").unwrap();
        assert_eq!(s.env, vec![("A".to_string(), "1".to_string()), ("B".into(), "x y".into())]);
        assert_eq!(parse(&s.to_string(), "connect6").unwrap(), s);
        assert_eq!(parse("cmd:sh", "gomoku").unwrap().protocol, Protocol::Pbrain);
        assert_eq!(parse("cmd:sh", "connect6").unwrap().protocol, Protocol::Cloudict);
        assert_eq!(parse("cmd:sh", "einstein").unwrap().protocol, Protocol::Line);
        let extra =
            SpecOptions { protocol: Some(Protocol::Connect6), init: vec!["x".into()], ..SpecOptions::default() };
        let s = EngineSpec::parse("cmd:sh;init=a", &extra, "connect6").unwrap();
        assert_eq!((s.protocol, s.init), (Protocol::Connect6, vec!["a".to_string(), "x".into()]));
    }

    #[test]
    fn interpreters_are_named_after_their_script() {
        let s = parse("cmd:sh -e tests/fixtures/engines/mover.py", "connect6").unwrap();
        assert_eq!(s.default_name(), "mover");
    }

    #[test]
    fn bad_specs_say_what_was_expected() {
        for (text, game, wanted) in [
            ("cmd:", "connect6", "no command"),
            ("cmd:/no/such/engine", "connect6", "no such file"),
            ("cmd:no-such-engine-xyz", "connect6", "on PATH"),
            ("cmd:sh;protocol=uci", "connect6", "connect6, cloudict, pbrain, line"),
            ("cmd:sh;protocol=pbrain", "connect6", "connect6 engines speak connect6 or cloudict"),
            ("cmd:sh;depth=3", "connect6", "keys: protocol, dir, init, log, pace, env"),
            ("cmd:sh;pace=fast", "connect6", "pace=MS"),
            ("cmd:sh;init='depth 3\nquit'", "connect6", "holds a line break"),
            ("cmd:sh;env=X", "connect6", "env=NAME=VALUE"),
            ("cmd:sh;dir", "connect6", "key=value"),
            ("cmd:sh;dir=/no/such/dir", "connect6", "no such directory"),
            ("cmd:sh 'open", "connect6", "unbalanced quotes"),
            ("cmd:./Cargo.toml", "connect6", "not executable"),
        ] {
            let e = parse(text, game).unwrap_err();
            assert!(e.contains(wanted), "{text}: {e}");
        }
    }
}
