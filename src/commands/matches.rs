//! `evotune match` and `evotune selfplay`: two players, paired openings, colours swapped.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;

use crate::arena::game::GameSettings;
use crate::arena::matches::{play_match, MatchConfig, MatchReport};
use crate::arena::outside::{self, SpecOptions};
use crate::arena::player::Player;
use crate::commands::args::{GameArg, OpeningArgs, SideArgs};
use crate::commands::outputs::{GameFileArgs, GameOutputs};
use crate::commands::{clocked, match_openings, thread_pool};
use crate::core::settings::{EngineSettings, SideOverrides};
use crate::player::{is_outside_player, player_with};
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
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, help_heading = "Run")]
    pub threads: Option<usize>,
    /// Write every game as a JSON line to this file.
    #[arg(long, help_heading = "Output")]
    pub records: Option<PathBuf>,
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
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seed (game seeds derive from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Players A and B: the shared engine options with each side's overrides, or outside engines
/// with their options.
pub fn players(a: &str, b: &str, engine: &EngineSettings, sides: &SideArgs, game: GameRef) -> Result<(Player, Player)> {
    let mut pa = side_player(a, engine, &sides.a(), &sides.a_outside(), game, 'a')?;
    let mut pb = side_player(b, engine, &sides.b(), &sides.b_outside(), game, 'b')?;
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
) -> Result<Player> {
    let which = format!("player {} (--{x})", x.to_ascii_uppercase());
    let settings = engine.with(own).map_err(|e| anyhow::anyhow!("{which}: --{x}-engine {e}"))?;
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
    player_with(spec, &settings, outside, game).with_context(|| which)
}

/// Before any game: every outside engine can start from the openings and answers when
/// started. `openings` are those known so far (a generated suite's are alike).
pub fn ready_outside(players: &[&Player], openings: &[Vec<String>], settings: &GameSettings) -> Result<()> {
    outside::check_openings(players, openings).map_err(anyhow::Error::msg)?;
    outside::warm_up(players, std::time::Duration::from_millis(settings.hang_ms)).map_err(anyhow::Error::msg)
}

/// Parses `--sprt ELO0,ELO1`.
pub fn parse_sprt(text: &str, alpha: f64, beta: f64) -> Result<Sprt> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let [e0, e1] = parts[..] else { bail!("--sprt {text}: expected ELO0,ELO1, e.g. 0,10") };
    let e0: f64 = e0.parse().with_context(|| format!("--sprt {text}: `{e0}` is not a number"))?;
    let e1: f64 = e1.parse().with_context(|| format!("--sprt {text}: `{e1}` is not a number"))?;
    Sprt::new(e0, e1, alpha, beta).map_err(|e| anyhow::anyhow!("--sprt: {e}"))
}

#[allow(clippy::too_many_arguments)]
fn play(
    game: GameRef,
    a: &Player,
    b: &Player,
    pairs: usize,
    openings: &crate::commands::args::OpeningArgs,
    threads: Option<usize>,
    seed: u64,
    sprt: Option<Sprt>,
    outputs: &mut GameOutputs,
    live: bool,
) -> Result<MatchReport> {
    let (mut openings, settings) = match_openings(openings, game, pairs)?;
    openings.ensure(1).map_err(|e| anyhow::anyhow!("openings: {e}"))?;
    ready_outside(&[a, b], &openings.suite().openings, &settings)?;
    let pool = thread_pool(threads)?;
    let referee = EngineReferee { game, settings };
    let config = MatchConfig { pairs, seed, sprt };
    pool.install(|| {
        play_match(&referee, a, b, &mut openings, &config, ProgressMode::Auto, live, &mut |g| outputs.write(g))
    })
}

pub fn run_match_command(args: &MatchArgs) -> Result<()> {
    let game = args.game.get()?;
    let (a, b) = players(&args.a, &args.b, &clocked(&args.engine, &args.openings), &args.sides, game)?;
    let sprt = args.sprt.as_deref().map(|s| parse_sprt(s, args.alpha, args.beta)).transpose()?;
    let mut outputs = GameOutputs::new(game, args.records.as_deref(), &args.files)?;
    let report = play(
        game,
        &a,
        &b,
        args.pairs as usize,
        &args.openings,
        args.threads,
        args.seed,
        sprt,
        &mut outputs,
        sprt.is_some(),
    )?;
    let mut text = report.summary(sprt.as_ref());
    text += &format!("time {:.1}s\n", report.elapsed.as_secs_f64());
    for line in outside::summaries(&[&a, &b]) {
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
    let mut outputs = GameOutputs::new(game, Some(&args.records), &args.files)?;
    let pairs = args.games.div_ceil(2) as usize;
    let report = play(game, &a, &b, pairs, &args.openings, args.threads, args.seed, None, &mut outputs, false)?;
    print!("{}", report.summary(None));
    println!("records {}", args.records.display());
    for line in outside::summaries(&[&a, &b]) {
        println!("{line}");
    }
    Ok(())
}
