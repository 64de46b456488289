//! Command-line pieces that several commands share: the game, where games start and how they
//! are refereed, per-player overrides of a two-player match, the ranges of limits and the
//! options of a tuning run. Each command's own arguments sit beside it in its file. Doc
//! comments here are `--help` text.

use std::path::PathBuf;

use clap::Args;

use crate::arena::outside::{Protocol, SpecOptions};
use crate::core::limits::{MAX_DEPTH, MAX_NODES, MAX_TIME_MS};
use crate::core::settings::{EngineOption, SearchKind, SideOverrides, MAX_VCDT_DEPTH};
use crate::registry::GameRef;
use crate::report::progress::ProgressMode;

fn depth_range() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH))
}

fn nodes_range() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(1..=MAX_NODES)
}

fn time_range() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(1..=MAX_TIME_MS)
}

/// Which game a command plays.
#[derive(Args, Debug, Clone)]
pub struct GameArg {
    /// The game: connect6 (19x19, six in a row, two stones a turn), gomoku (15x15, five or
    /// more in a row, freestyle), surakarta (6x6, captures along the circuits) or einstein
    /// (EinStein würfelt nicht: 5x5, six numbered cubes a side, a die picks the cube).
    #[arg(long, default_value = crate::registry::DEFAULT_GAME, value_parser = game_names())]
    pub game: String,
}

impl GameArg {
    /// The game named (checked by the parser).
    pub fn get(&self) -> anyhow::Result<GameRef> {
        crate::registry::find(&self.game)
    }
}

/// What the tuning commands (`evolve`, `spsa`) share: the run's config, game, folders, name
/// and seed, its threads, and how it reports.
#[derive(Args, Debug)]
pub struct TuningRunArgs {
    /// The run's TOML config (see configs/); default: the command's built-in quick config
    /// (configs/quick.toml, configs/gomoku-quick.toml, ..., configs/spsa-quick.toml), which
    /// finishes in minutes on 2 cores.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// The game (default: the config's `game`, connect6 without a config). With a config, it
    /// must be the config's game.
    #[arg(long, value_parser = game_names(), conflicts_with = "resume")]
    pub game: Option<String>,
    /// Worker threads (default: all cores; at most 4 a core and 1024 in all; their engines' tables
    /// must fit in the memory available, checked before any game).
    /// The result does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Put populations/ and results/ under this folder instead of the current one.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue the run whose checkpoints are in this folder (populations/<run>).
    #[arg(long, conflicts_with = "config")]
    pub resume: Option<PathBuf>,
    /// The run's name (folder under populations/ and results/); default: from the config.
    #[arg(long)]
    pub name: Option<String>,
    /// Override the config's seed.
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=i64::MAX as u64))]
    pub seed: Option<u64>,
    /// Start over even if the run's folders already hold a run (they are replaced).
    #[arg(long)]
    pub force: bool,
    /// Log lines instead of progress bars even on a terminal.
    #[arg(long)]
    pub log: bool,
    /// Also validate the result against this weight table at the end (e.g. the previous
    /// run's results/<run>/champion.toml), beside `[validation] opponents`. Repeatable.
    #[arg(long, value_name = "WEIGHTS")]
    pub compare: Vec<String>,
}

impl TuningRunArgs {
    /// With `--resume`: refuses the options that would change the run.
    pub fn check_resume(&self) -> anyhow::Result<()> {
        anyhow::ensure!(
            self.seed.is_none() && self.name.is_none() && !self.force,
            "--resume continues a run as it was: --seed, --name and --force do not apply"
        );
        Ok(())
    }

    /// Progress bars on a terminal, or log lines with `--log`.
    pub fn progress_mode(&self) -> ProgressMode {
        if self.log {
            ProgressMode::Lines
        } else {
            ProgressMode::Auto
        }
    }
}

pub(crate) fn game_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(crate::registry::names())
}

impl SideArgs {
    pub fn a(&self) -> SideOverrides {
        SideOverrides {
            search: self.a_search,
            eval: self.a_eval.clone(),
            depth: self.a_depth,
            nodes: self.a_nodes,
            time_ms: self.a_time_ms,
            vcdt_depth: self.a_vcdt_depth,
            options: self.a_engine.clone(),
        }
    }

    pub fn b(&self) -> SideOverrides {
        SideOverrides {
            search: self.b_search,
            eval: self.b_eval.clone(),
            depth: self.b_depth,
            nodes: self.b_nodes,
            time_ms: self.b_time_ms,
            vcdt_depth: self.b_vcdt_depth,
            options: self.b_engine.clone(),
        }
    }

    /// Player A's outside-engine options.
    pub fn a_outside(&self) -> SpecOptions {
        SpecOptions {
            protocol: self.a_protocol,
            dir: self.a_dir.clone(),
            init: self.a_init.clone(),
            log: self.a_log.clone(),
            ..SpecOptions::default()
        }
    }

    /// Player B's outside-engine options.
    pub fn b_outside(&self) -> SpecOptions {
        SpecOptions {
            protocol: self.b_protocol,
            dir: self.b_dir.clone(),
            init: self.b_init.clone(),
            log: self.b_log.clone(),
            ..SpecOptions::default()
        }
    }
}

/// Where games start (a suite file, or one generated from a seed) and how they are refereed.
#[derive(Args, Debug, Clone)]
pub struct OpeningArgs {
    /// Opening suite file (one opening per line in record notation); default: generated.
    #[arg(long, help_heading = "Openings")]
    pub openings: Option<PathBuf>,
    /// Seed of the generated opening suite.
    #[arg(long, default_value_t = 1, help_heading = "Openings")]
    pub opening_seed: u64,
    /// A game undecided after this many turns is a draw (0: no cap).
    #[arg(long, default_value_t = 120, help_heading = "Adjudication")]
    pub max_turns: usize,
    /// A game clock, BASE+INC in seconds (`60+1`, `0.5+0.05`): each player has BASE for the
    /// game plus INC after each move, thinks for a share of what is left, and loses on time
    /// (`timeout`) if it runs out. Depth and node limits still apply.
    #[arg(long, value_name = "BASE+INC", help_heading = "Limits")]
    pub tc: Option<crate::arena::clock::TimeControl>,
    /// Resign adjudication: a game ends (`resign`) once both players' searches have judged the
    /// same side lost for N turns each in a row (0: never). Outside engines report no scores:
    /// their games are never adjudicated this way.
    #[arg(long, default_value_t = 0, value_name = "N", help_heading = "Adjudication",
          value_parser = clap::value_parser!(u32).range(0..=i64::from(crate::arena::game::MAX_RESIGN_TURNS)))]
    pub resign_turns: u32,
    /// The search score (for the side to move, in the evaluation's units) at or beyond which
    /// --resign-turns counts a side as lost; default: only a proven loss.
    #[arg(long, value_name = "SCORE", help_heading = "Adjudication", value_parser = clap::value_parser!(i32).range(1..))]
    pub resign_score: Option<i32>,
    /// Outside engines: how much later than its time for the move (--time-ms, --a-time-ms or
    /// the --tc clock) an engine may answer before it loses on time (`timeout`).
    #[arg(long, default_value_t = crate::arena::game::DEFAULT_TIME_MARGIN_MS, value_name = "MS", help_heading = "Limits",
          value_parser = clap::value_parser!(u64).range(0..=MAX_TIME_MS))]
    pub time_margin_ms: u64,
    /// Outside engines: the longest wait for an answer when the move has no time limit (fixed
    /// depth) and for the engine's start; the engine is then killed and loses (`timeout`).
    #[arg(long, default_value_t = crate::arena::game::DEFAULT_HANG_MS, value_name = "MS", help_heading = "Limits", value_parser = time_range())]
    pub hang_ms: u64,
}

impl OpeningArgs {
    /// How the games of the command are refereed.
    pub fn settings(&self) -> crate::arena::game::GameSettings {
        crate::arena::game::GameSettings {
            max_turns: self.max_turns,
            clock: self.tc,
            resign_turns: self.resign_turns,
            resign_score: self.resign_score,
            time_margin_ms: self.time_margin_ms,
            hang_ms: self.hang_ms,
        }
    }
}

/// Per-player overrides for a two-player match; anything not given comes from the shared
/// engine options.
#[derive(Args, Debug, Clone, Default)]
pub struct SideArgs {
    /// Search of player A.
    #[arg(long, value_enum)]
    pub a_search: Option<SearchKind>,
    /// Evaluation of player A (its weight file must be of that evaluation).
    #[arg(long)]
    pub a_eval: Option<String>,
    /// Depth limit of player A.
    #[arg(long, value_parser = depth_range())]
    pub a_depth: Option<u32>,
    /// Node limit of player A.
    #[arg(long, value_parser = nodes_range())]
    pub a_nodes: Option<u64>,
    /// Milliseconds per move of player A.
    #[arg(long, value_parser = time_range())]
    pub a_time_ms: Option<u64>,
    /// Threat-space search depth of player A (0: off).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_VCDT_DEPTH)))]
    pub a_vcdt_depth: Option<u32>,
    /// Any other engine option of player A, as `[engine]` names it: `--a-engine killers=0
    /// --a-engine singles=8` (repeatable; options: tt_mib, singles, seconds, width, uct_c,
    /// vcdt_depth, vcdt_nodes, killers, horizon_wins, refutation_nodes,
    /// quiet_refutation_nodes, search_threads, clock_nps, later_time_share; docs/config.md
    /// explains them).
    #[arg(long, value_name = "KEY=VALUE")]
    pub a_engine: Vec<EngineOption>,
    /// Search of player B.
    #[arg(long, value_enum)]
    pub b_search: Option<SearchKind>,
    /// Evaluation of player B.
    #[arg(long)]
    pub b_eval: Option<String>,
    /// Depth limit of player B.
    #[arg(long, value_parser = depth_range())]
    pub b_depth: Option<u32>,
    /// Node limit of player B.
    #[arg(long, value_parser = nodes_range())]
    pub b_nodes: Option<u64>,
    /// Milliseconds per move of player B.
    #[arg(long, value_parser = time_range())]
    pub b_time_ms: Option<u64>,
    /// Threat-space search depth of player B (0: off).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_VCDT_DEPTH)))]
    pub b_vcdt_depth: Option<u32>,
    /// Any other engine option of player B (see `--a-engine`).
    #[arg(long, value_name = "KEY=VALUE")]
    pub b_engine: Vec<EngineOption>,
    /// The protocol of player A's outside engine (--a cmd:...); default: the game's (cloudict
    /// for connect6, pbrain for gomoku, line for the others).
    #[arg(long, value_enum, value_name = "PROTOCOL", help_heading = "Outside engines")]
    pub a_protocol: Option<Protocol>,
    /// The working directory of player A's outside engine.
    #[arg(long, value_name = "DIR", help_heading = "Outside engines")]
    pub a_dir: Option<PathBuf>,
    /// A line sent to player A's outside engine each time it starts, after the protocol's
    /// greeting (e.g. `depth 4` for Cloudict-style engines). Repeatable.
    #[arg(long, value_name = "LINE", allow_hyphen_values = true, help_heading = "Outside engines")]
    pub a_init: Vec<String>,
    /// Where player A's outside engine's standard error goes (appended), with the referee's
    /// notes on it (default: evotune-<pid>-<name>.log in the temporary directory).
    #[arg(long, value_name = "FILE", help_heading = "Outside engines")]
    pub a_log: Option<PathBuf>,
    /// The protocol of player B's outside engine (--b cmd:...).
    #[arg(long, value_enum, value_name = "PROTOCOL", help_heading = "Outside engines")]
    pub b_protocol: Option<Protocol>,
    /// The working directory of player B's outside engine.
    #[arg(long, value_name = "DIR", help_heading = "Outside engines")]
    pub b_dir: Option<PathBuf>,
    /// A line sent to player B's outside engine each time it starts. Repeatable.
    #[arg(long, value_name = "LINE", allow_hyphen_values = true, help_heading = "Outside engines")]
    pub b_init: Vec<String>,
    /// Where player B's outside engine's standard error goes.
    #[arg(long, value_name = "FILE", help_heading = "Outside engines")]
    pub b_log: Option<PathBuf>,
}
