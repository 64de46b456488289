//! `evotune match` and `evotune selfplay`: two players, paired openings, colours swapped.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use clap::Args;

use crate::arena::game::GameSettings;
use crate::arena::matches::{play_match, played_pairs, standings, MatchConfig, MatchReport, PlayedPairs};
use crate::arena::outside::SpecOptions;
use crate::arena::player::{self, Player};
use crate::arena::records::{read_records_with_lines, GameRecord};
use crate::commands::args::{GameArg, OpeningArgs, SideArgs};
use crate::commands::outputs::{GameFileArgs, GameOutputs, OrderedOutputs};
use crate::commands::{check_table_memory, clocked, match_openings, own_engines, thread_pool, CLI_TT_MIB};
use crate::core::settings::{EngineSettings, SideOverrides};
use crate::player::is_outside_player;
use crate::registry::{EngineReferee, GameRef};
use crate::report::json;
use crate::report::progress::ProgressMode;
use crate::stats::Sprt;

#[derive(Args, Debug)]
pub struct MatchArgs {
    #[command(flatten, next_help_heading = "Players")]
    pub game: GameArg,
    /// Player A: a weight file, a run folder (its champion), `defaults`, `random` or
    /// `random:SEED`; or an outside engine, `cmd:"/path/engine args"` (with --a-protocol,
    /// --a-dir, --a-init, --a-log, or `;protocol=...;dir=...;init=...;log=...` after the
    /// command: docs/protocols.md).
    #[arg(long, help_heading = "Players")]
    pub a: String,
    /// Player B: as player A.
    #[arg(long, help_heading = "Players")]
    pub b: String,
    #[command(flatten, next_help_heading = "Engine of both players")]
    pub engine: EngineSettings,
    #[command(flatten, next_help_heading = "Player A or B alone (overrides the above)")]
    pub sides: SideArgs,
    #[command(flatten, next_help_heading = "Openings")]
    pub openings: OpeningArgs,
    /// Game pairs: each opening is played twice, colours swapped.
    #[arg(long, default_value_t = 50, help_heading = "Openings", value_parser = clap::value_parser!(u64).range(1..))]
    pub pairs: u64,
    /// Worker threads (default: all cores; at most 4 a core and 1024 in all; their engines' tables
    /// must fit in the memory available, checked before any game).
    /// Results do not depend on it.
    #[arg(long, help_heading = "Run")]
    pub threads: Option<usize>,
    /// Write every game as a JSON line to this file (as each game ends, in schedule order).
    #[arg(long, help_heading = "Output")]
    pub records: Option<PathBuf>,
    /// Continue the match whose records are in this file (a match stopped by Ctrl-C or a
    /// crash), given the same options: its whole pairs are kept, the others played, and the
    /// result is the uninterrupted match's. The games go on into the same file.
    #[arg(long, value_name = "RECORDS", help_heading = "Output")]
    pub resume: Option<PathBuf>,
    #[command(flatten)]
    pub files: GameFileArgs,
    /// Print the result as one JSON document on stdout (docs/json.md) instead of the text,
    /// which goes to stderr.
    #[arg(long, help_heading = "Output")]
    pub json: bool,
    /// Sequential probability ratio test: stop when A is shown to be at least ELO1 better
    /// (H1) or not better than ELO0 (H0), e.g. `--sprt 0,10`.
    #[arg(long, value_name = "ELO0,ELO1", help_heading = "SPRT")]
    pub sprt: Option<String>,
    /// SPRT false positive rate.
    #[arg(long, default_value_t = 0.05, help_heading = "SPRT")]
    pub alpha: f64,
    /// SPRT false negative rate.
    #[arg(long, default_value_t = 0.05, help_heading = "SPRT")]
    pub beta: f64,
    /// Seed of the match (game seeds derive from it).
    #[arg(long, default_value_t = 1, help_heading = "Run")]
    pub seed: u64,
}

#[derive(Args, Debug)]
pub struct SelfplayArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Player A: a weight file, `defaults`, `random` or `random:SEED`, or an outside engine
    /// `cmd:"/path/engine args"` (as in `match`).
    #[arg(long)]
    pub a: String,
    /// Player B.
    #[arg(long)]
    pub b: String,
    /// Games to play (rounded up to an even number: openings are played with both colours).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// The records file (JSON lines).
    #[arg(long)]
    pub records: PathBuf,
    #[command(flatten)]
    pub files: GameFileArgs,
    #[command(flatten)]
    pub engine: EngineSettings,
    #[command(flatten)]
    pub sides: SideArgs,
    #[command(flatten)]
    pub openings: OpeningArgs,
    /// Worker threads (default: all cores; at most 4 a core and 1024 in all; their engines' tables
    /// must fit in the memory available, checked before any game).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seed (game seeds derive from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Players A and B: the shared engine options with each side's overrides, or outside engines
/// with their options.
///
/// A table that carries the engine settings it was tuned with (`[engine]`, docs/weights.md)
/// plays with them, except the settings given on the command line; a built-in table
/// (`defaults`, `random`) facing it plays with the same settings, so that `match --a
/// results/quick --b defaults` is the comparison the run validated.
pub fn players(a: &str, b: &str, engine: &EngineSettings, sides: &SideArgs, game: GameRef) -> Result<(Player, Player)> {
    let eval = engine.eval.as_deref();
    let inherited = |spec: &str, other: &str| {
        if crate::player::is_built_in(spec) {
            crate::player::table_engine_of(other, eval, game)
        } else {
            None
        }
    };
    let (from_b, from_a) = (inherited(a, b), inherited(b, a));
    let mut pa = side_player(a, engine, &sides.a(), &sides.a_outside(), game, 'a', from_b.as_ref())?;
    let mut pb = side_player(b, engine, &sides.b(), &sides.b_outside(), game, 'b', from_a.as_ref())?;
    if pa.name == pb.name {
        pa.name = format!("{}-A", pa.name);
        pb.name = format!("{}-B", pb.name);
    }
    Ok((pa, pb))
}

/// One side's player. The options of the other kind of player are refused by their flag: an
/// outside engine's search is its own business, and an engine of evotune's has no command.
fn side_player(
    spec: &str,
    engine: &EngineSettings,
    own: &SideOverrides,
    outside: &SpecOptions,
    game: GameRef,
    x: char,
    inherited: Option<&toml::Table>,
) -> Result<Player> {
    let which = format!("player {} (--{x})", x.to_ascii_uppercase());
    let settings = engine.with(own).map_err(|e| anyhow::anyhow!("{which}: --{x}-engine {e}"))?;
    // The side's own overrides stand against a table's settings, as the command line's do.
    let mut kept: Vec<&str> = own.options.iter().map(|o| o.key()).collect();
    kept.extend(own.search.map(|_| "search"));
    kept.extend(own.vcdt_depth.map(|_| "vcdt_depth"));
    let settings = match inherited {
        Some(table) => {
            let meta = crate::core::weights::Meta { engine: Some(table.clone()), ..Default::default() };
            crate::player::with_table_engine(&settings, &meta, "the other side's table", &kept)?
        }
        None => settings,
    };
    if is_outside_player(spec) {
        let given = [
            ("search", own.search.is_some()),
            ("eval", own.eval.is_some()),
            ("depth", own.depth.is_some()),
            ("nodes", own.nodes.is_some()),
            ("vcdt-depth", own.vcdt_depth.is_some()),
            ("engine", !own.options.is_empty()),
        ];
        if let Some((flag, _)) = given.iter().find(|(_, g)| *g) {
            bail!(
                "{which}: --{x}-{flag} sets evotune's own engine, not an outside engine; give the engine's options \
                 in its command or as --{x}-init lines"
            );
        }
    } else if !outside.is_empty() {
        bail!(
            "{which}: --{x}-protocol, --{x}-dir, --{x}-init and --{x}-log apply to an outside engine (--{x} cmd:...)"
        );
    }
    crate::player::player_keeping(spec, &settings, outside, game, &kept).with_context(|| which)
}

/// Before any game: every outside engine can start from the openings and answers when
/// started. `openings` are those known so far (a generated suite's are alike).
pub fn ready_outside(players: &[&Player], openings: &[Vec<String>], settings: &GameSettings) -> Result<()> {
    player::check_openings(players, openings).map_err(anyhow::Error::msg)?;
    player::warm_up_outside(players, std::time::Duration::from_millis(settings.hang_ms)).map_err(anyhow::Error::msg)
}

/// Parses `--sprt ELO0,ELO1`.
pub fn parse_sprt(text: &str, alpha: f64, beta: f64) -> Result<Sprt> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let [e0, e1] = parts[..] else { bail!("--sprt {text}: expected ELO0,ELO1, e.g. 0,10") };
    let e0: f64 = e0.parse().with_context(|| format!("--sprt {text}: `{e0}` is not a number"))?;
    let e1: f64 = e1.parse().with_context(|| format!("--sprt {text}: `{e1}` is not a number"))?;
    Sprt::new(e0, e1, alpha, beta).map_err(|e| anyhow::anyhow!("--sprt: {e}"))
}

/// What `match` and `selfplay` play and where their games go.
struct Session<'a> {
    game: GameRef,
    a: &'a Player,
    b: &'a Player,
    config: MatchConfig,
    /// The pairs a resumed match has already played.
    played: PlayedPairs,
    outputs: Arc<OrderedOutputs>,
    /// The records file, if any, and how to continue the match from it (`match` only).
    records: Option<PathBuf>,
    resume_hint: Option<String>,
    json: bool,
}

impl Session<'_> {
    fn play(&self, openings: &OpeningArgs, threads: Option<usize>, live: bool) -> Result<MatchReport> {
        let game = self.game;
        let pairs = self.config.pairs;
        let (mut openings, settings) = match_openings(openings, game, pairs)?;
        openings.ensure(1).map_err(|e| anyhow::anyhow!("openings: {e}"))?;
        ready_outside(&[self.a, self.b], &openings.suite().openings, &settings)?;
        let pool = thread_pool(threads)?;
        check_table_memory(pool.current_num_threads(), &own_engines(&[self.a, self.b]), CLI_TT_MIB)?;
        let referee = EngineReferee { game, settings };
        if !self.played.is_empty() {
            eprintln!("resuming: {} of {pairs} pairs played before", self.played.len());
        }
        self.on_ctrl_c();
        let outputs = &self.outputs;
        let report = pool.install(|| {
            play_match(
                &referee,
                self.a,
                self.b,
                &mut openings,
                &self.config,
                &self.played,
                ProgressMode::Auto,
                live,
                &|k, g| outputs.finished(k, g),
            )
        })?;
        self.outputs.check()?;
        Ok(report)
    }

    /// On Ctrl-C (or SIGTERM, SIGHUP): the finished games are written, the standings of the
    /// whole pairs so far printed as the match's result would be, and the process exits with
    /// status 130 (its outside engines killed), as cutechess-cli and fastchess do.
    fn on_ctrl_c(&self) {
        let outputs = self.outputs.clone();
        let (game, a, b) = (self.game.name().to_string(), self.a.name.clone(), self.b.name.clone());
        let config = self.config.clone();
        let before: Vec<GameRecord> = self.played.values().flatten().cloned().collect();
        let (records, hint, json) = (self.records.clone(), self.resume_hint.clone(), self.json);
        crate::interrupt::on_signal(move |_| {
            let written = outputs.close();
            let all: Vec<(usize, GameRecord)> =
                before.iter().chain(written.iter().map(|(_, g)| g)).cloned().enumerate().collect();
            let played = played_pairs(&all, &game, &a, &b, &config).unwrap_or_default();
            let report = standings(&a, &b, &played, config.sprt.as_ref());
            eprintln!(
                "\ninterrupted: {} games finished; the standings of the {} whole pairs:",
                all.len(),
                played.len()
            );
            if json {
                let mut doc = report.json_document(config.sprt.as_ref());
                doc["interrupted"] = serde_json::Value::Bool(true);
                print!("{}", json::to_text(&doc));
            } else {
                print!("{}", report.summary(config.sprt.as_ref()));
            }
            match (&records, &hint) {
                (Some(path), Some(hint)) => eprintln!("records {} hold them; continue with:\n  {hint}", path.display()),
                (Some(path), None) => eprintln!("records {} hold them", path.display()),
                (None, _) => eprintln!("(without --records the games are not kept, and the match cannot be continued)"),
            }
            let _ = std::io::stdout().flush();
            crate::interrupt::exit(crate::interrupt::EXIT_INTERRUPTED);
        });
    }
}

/// The command line that continues this match from `records`: the one given, its
/// `--records` and `--resume` replaced by `--resume RECORDS`.
fn resume_command(records: &Path) -> String {
    let mut words = vec!["evotune".to_string()];
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--records" | "--resume" => {
                args.next();
            }
            a if a.starts_with("--records=") || a.starts_with("--resume=") => {}
            a => words.push(a.to_string()),
        }
    }
    words.push("--resume".into());
    words.push(records.display().to_string());
    words.iter().map(|w| shell_word(w)).collect::<Vec<_>>().join(" ")
}

/// A word as a POSIX shell reads it back.
fn shell_word(w: &str) -> String {
    if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c)) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

pub fn run_match_command(args: &MatchArgs) -> Result<()> {
    let game = args.game.get()?;
    let (a, b) = players(&args.a, &args.b, &clocked(&args.engine, &args.openings), &args.sides, game)?;
    let sprt = args.sprt.as_deref().map(|s| parse_sprt(s, args.alpha, args.beta)).transpose()?;
    let config = MatchConfig { pairs: args.pairs as usize, seed: args.seed, sprt };
    let (records, played, outputs) = match &args.resume {
        Some(path) => {
            if args.records.as_ref().is_some_and(|r| r != path) {
                bail!("--resume {}: the games go on into that file; leave out --records", path.display());
            }
            let lines = read_records_with_lines(path)?;
            let played = played_pairs(&lines, game.name(), &a.name, &b.name, &config).map_err(|e| {
                anyhow::anyhow!("--resume {}: {e}; give the options of the match that wrote it", path.display())
            })?;
            let kept: Vec<GameRecord> = played.values().flatten().cloned().collect();
            let outputs = GameOutputs::continuing(game, path, &kept, &args.files)?;
            (Some(path.clone()), played, outputs)
        }
        None => {
            let outputs = GameOutputs::new(game, args.records.as_deref(), &args.files)?;
            (args.records.clone(), PlayedPairs::new(), outputs)
        }
    };
    let session = Session {
        game,
        a: &a,
        b: &b,
        config,
        played,
        outputs: Arc::new(OrderedOutputs::new(outputs)),
        resume_hint: records.as_deref().map(resume_command),
        records,
        json: args.json,
    };
    let report = session.play(&args.openings, args.threads, sprt.is_some())?;
    let mut text = report.summary(sprt.as_ref());
    text += &format!("time {:.1}s\n", report.elapsed.as_secs_f64());
    for line in player::outside_summaries(&[&a, &b]) {
        text += &format!("{line}\n");
    }
    if args.json {
        eprint!("{text}");
        print!("{}", json::to_text(&report.json_document(sprt.as_ref())));
    } else {
        print!("{text}");
    }
    Ok(())
}

pub fn run_selfplay(args: &SelfplayArgs) -> Result<()> {
    let game = args.game.get()?;
    let (a, b) = players(&args.a, &args.b, &clocked(&args.engine, &args.openings), &args.sides, game)?;
    let outputs = GameOutputs::new(game, Some(&args.records), &args.files)?;
    let session = Session {
        game,
        a: &a,
        b: &b,
        config: MatchConfig { pairs: args.games.div_ceil(2) as usize, seed: args.seed, sprt: None },
        played: PlayedPairs::new(),
        outputs: Arc::new(OrderedOutputs::new(outputs)),
        records: Some(args.records.clone()),
        resume_hint: None,
        json: false,
    };
    let report = session.play(&args.openings, args.threads, false)?;
    print!("{}", report.summary(None));
    println!("records {}", args.records.display());
    for line in player::outside_summaries(&[&a, &b]) {
        println!("{line}");
    }
    Ok(())
}
