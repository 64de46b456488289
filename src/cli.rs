//! The command line. Doc comments here are the `--help` text.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::arena::openings::{MAX_COUNT, MAX_TOP, MAX_TURNS};
use crate::arena::outside::{Protocol, SpecOptions};
use crate::core::limits::{MAX_DEPTH, MAX_NODES, MAX_TIME_MS};
use crate::core::settings::{EngineOption, EngineSettings, SearchKind, SideOverrides, MAX_VCDT_DEPTH};
use crate::registry::GameRef;

fn depth_range() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH))
}

fn nodes_range() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(1..=MAX_NODES)
}

fn time_range() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(1..=MAX_TIME_MS)
}

/// evotune: tune the evaluation weights of Connect6, Gomoku, Surakarta and EinStein würfelt
/// nicht engines by evolution, and play and measure with them.
///
/// Start with `evotune evolve` (a short run on the built-in quick config), then
/// `evotune match --a results/<run>/champion.toml --b defaults` to see whether it is better.
/// Wherever a weight file is expected, `defaults` names the hand-set table, `random` /
/// `random:SEED` a uniformly random one, and a run's folder (results/<run>) its champion.
/// Weight files are TOML, or JSON as `export --format json` writes them. The commands that
/// play, search, or read weights or openings take `--game connect6|gomoku|surakarta|einstein`
/// (default connect6, or for `evolve` and `spsa` their config's game).
#[derive(Parser, Debug)]
#[command(name = "evotune", version, about, long_about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the genetic algorithm: grouped round-robin self-play, adaptive rates, a checkpoint
    /// every generation, the champion weight table at the end.
    ///
    /// Exit status: 0 when the run has all its generations, 130 when Ctrl-C stopped it (after
    /// saving the generation in flight; resume with --resume), 1 on an error.
    Evolve(EvolveArgs),
    /// Play on the competition protocol (stdin/stdout), e.g. under a tournament platform or GUI.
    Play(PlayArgs),
    /// Search one position given as record moves and print `bestmove <stones>`.
    Bestmove(BestmoveArgs),
    /// Search fixed positions at a fixed depth with the default weights; the last line is
    /// `bench nodes <N> nps <X> ms <T>`, N a deterministic signature of the search.
    Bench(BenchArgs),
    /// Play games between two players and write them as records (a match without the
    /// statistics fuss).
    Selfplay(SelfplayArgs),
    /// A match between two players: paired openings with colours swapped, Elo, LOS, SPRT.
    Match(MatchArgs),
    /// A round robin of many players with a score table and Elo ratings.
    Tournament(TournamentArgs),
    /// Compare players by their match records against one opponent on the same openings: the
    /// difference of their scores, paired by opening, with a 95% interval.
    ///
    /// Each file holds the games of one player against an opponent every file shares, e.g.
    /// `match --a weights/X.toml --b 'cloudict=cmd:...' --opening-seed 21 --records x.jsonl`
    /// and the same with `--a weights/Y.toml --records y.jsonl`: the same openings (the same
    /// --openings file or --opening-seed), each played twice with colours swapped. The
    /// opponent is the player found in every file, and each file's player the one who is not
    /// the opponent (--opponent and --player say otherwise, e.g. for a tournament's records).
    ///
    /// Games are paired by opening: an opening is its index in the suite together with its
    /// moves (the records' first `opening_moves` moves), or its moves alone in records without
    /// an index. Each NEW file is compared with BASE on the openings both played with the same
    /// number of games; the others are left out and counted under the table. Two files that
    /// give one opening index different moves were not played from the same suite: an error.
    ///
    /// Each file's row: its openings and games in common with BASE, W-D-L, score, and the score
    /// as first and as second player (openings often favour one side strongly). A NEW file's
    /// row adds diff, its score minus BASE's in percentage points (+15.0: 15 more points per
    /// 100 games), ± the half-width of its 95% interval and the interval itself, computed from
    /// the per-opening differences with Student's t (openings − 1 degrees of freedom; the
    /// standard error is s/√openings when every opening has the same number of games): an
    /// interval that leaves out 0 says the two players scored differently; z, diff in
    /// standard errors; and +/-/=, how many openings NEW scored more, less and the same on.
    /// Pairing by opening cancels the openings' bias, so this interval is narrower than that of
    /// two scores taken apart.
    Compare(CompareArgs),
    /// Fit a table's move-order weights to another player's moves: the generator then lists
    /// the moves that player made in recorded games (e.g. an outside engine's, from `match
    /// --records`) earlier, so that the search tries them.
    ///
    /// A search only tries the moves its generator lists (Connect6: 32 pairs of stones), so a
    /// strong player's move that the generator ranks low is one the search can neither play
    /// nor foresee as the opponent's answer. The fit tries each move-order weight in turn at
    /// a few multiples of its value and keeps the value that lists more of the player's moves
    /// (counting those among the first 8 a quarter more), round after round until nothing
    /// changes; the evaluation weights stay. Moves in positions decided before any search
    /// are left out. Prints the coverage before and after, on the training records and on
    /// --test records (hold some games out: a fit to few games can learn their positions),
    /// and writes the table to --out. Games decide whether the new table is better: measure
    /// it with `match` (docs/tuning.md, "Fitting the move order to a stronger player").
    FitOrder(FitOrderArgs),
    /// Reproduce a paper's experiment and print our numbers beside the paper's.
    Reproduce(ReproduceArgs),
    /// Convert a weight table for other engines: TOML, JSON or a C header.
    Export(ExportArgs),
    /// Tune by SPSA (the method of fishtest and OpenBench) on the same weights, engine and
    /// games as `evolve`, to compare the two at equal game budgets.
    Spsa(SpsaArgs),
    /// Redraw the plots of a run: fitness.png from its history.csv, genes.png from its
    /// champions/gen-NNNN.toml.
    Plot(PlotArgs),
    /// Write a generated opening suite to a file (to inspect it, edit it, or share it).
    Openings(OpeningsArgs),
    /// A GA run's generations as steps a batch system can drive on machines that share the
    /// run's folder: plan a generation, play its shards, reduce them (docs/cluster.md).
    /// `evolve --executor slurm|parallel` drives these steps itself.
    #[command(subcommand)]
    Cluster(ClusterCommand),
}

/// The steps of a generation on a cluster.
#[derive(Subcommand, Debug)]
pub enum ClusterCommand {
    /// Plan the next generation of a run (a new one from --config, or --run DIR): its games
    /// into populations/<run>/work/gen-NNNN/plan.json, split into --shards shards. Planning
    /// again writes the same plan and keeps the shards already played.
    Plan(ClusterPlanArgs),
    /// Play one shard of the planned generation and write its file (atomically). A shard
    /// whose file is already there is not played again, so a retried shard is harmless.
    Play(ClusterPlayArgs),
    /// Check every shard against the plan, commit the generation as `evolve` does (records,
    /// checkpoint, champion, history), and plan the next one; after the last generation, play
    /// the play-off and validation and write the report. Prints `planned generation G:
    /// PLAN, N shards` or `champion PATH`. Exit status 1 names the shards that are missing or
    /// not of the plan.
    Reduce(ClusterReduceArgs),
    /// Where a run's next generation stands: its shards done and missing.
    Status(ClusterStatusArgs),
}

#[derive(Args, Debug)]
pub struct ClusterPlanArgs {
    /// Start a new run from this TOML config (as `evolve --config`); give --run instead to
    /// plan the next generation of a run that exists.
    #[arg(long, conflicts_with = "run", required_unless_present = "run")]
    pub config: Option<PathBuf>,
    /// The run's folder of checkpoints (populations/<run>).
    #[arg(long)]
    pub run: Option<PathBuf>,
    /// Split the generation into this many shards (1 to 1000).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=crate::cluster::plan::MAX_SHARDS as i64))]
    pub shards: u32,
    /// With --config: put populations/ and results/ under this folder (default: the current one).
    #[arg(long, conflicts_with = "run")]
    pub out: Option<PathBuf>,
    /// With --config: the run's name (default: the config's).
    #[arg(long, conflicts_with = "run")]
    pub name: Option<String>,
    /// With --config: override the config's seed.
    #[arg(long, conflicts_with = "run", value_parser = clap::value_parser!(u64).range(0..=i64::MAX as u64))]
    pub seed: Option<u64>,
    /// Override the config's number of generations (with --run: extend the run).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::ga::config::MAX_GENERATIONS)))]
    pub generations: Option<u32>,
    /// With --config: replace a run already in the folders.
    #[arg(long, conflicts_with = "run")]
    pub force: bool,
}

#[derive(Args, Debug)]
pub struct ClusterPlayArgs {
    /// The run's folder of checkpoints (populations/<run>), on a file system this machine
    /// shares with the others.
    #[arg(long)]
    pub run: PathBuf,
    /// Which shard: I/N, the I-th (1-based) of the plan's N. Under SLURM:
    /// `--shard $SLURM_ARRAY_TASK_ID/N`.
    #[arg(long, value_name = "I/N")]
    pub shard: String,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

#[derive(Args, Debug)]
pub struct ClusterReduceArgs {
    /// The run's folder of checkpoints (populations/<run>).
    #[arg(long)]
    pub run: PathBuf,
    /// Where results/ is (default: beside populations/).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads for the play-off and validation after the last generation (default:
    /// all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

#[derive(Args, Debug)]
pub struct ClusterStatusArgs {
    /// The run's folder of checkpoints (populations/<run>).
    #[arg(long)]
    pub run: PathBuf,
    /// Print only the missing shards of the planned generation, comma-separated (an empty
    /// line when there are none), for scripts.
    #[arg(long)]
    pub missing: bool,
}

/// Where `evolve` plays a generation's games.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExecutorKind {
    /// On this machine's threads.
    Local,
    /// As a SLURM job array a generation (sbatch, squeue, scancel).
    Slurm,
    /// Through GNU parallel on the machines of --hosts (ssh).
    Parallel,
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

fn game_names() -> clap::builder::PossibleValuesParser {
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
        }
    }

    /// Player B's outside-engine options.
    pub fn b_outside(&self) -> SpecOptions {
        SpecOptions {
            protocol: self.b_protocol,
            dir: self.b_dir.clone(),
            init: self.b_init.clone(),
            log: self.b_log.clone(),
        }
    }
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Depth of every bench search.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// Search algorithm to bench.
    #[arg(long, value_enum, default_value_t = SearchKind::Pvs)]
    pub search: SearchKind,
    /// Evaluation to bench (default: the game's default evaluation).
    #[arg(long)]
    pub eval: Option<String>,
    /// Any other engine option, as `[engine]` names it: `--engine horizon_wins=false`
    /// benches the search without that feature (repeatable; options as `match --a-engine`).
    #[arg(long, value_name = "KEY=VALUE")]
    pub engine: Vec<EngineOption>,
}

#[derive(Args, Debug)]
pub struct BestmoveArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// The game so far in record notation, moves separated by spaces: "j10 k11k9 ...".
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Weight file, or `defaults`.
    #[arg(long, default_value = "defaults")]
    pub weights: String,
    #[command(flatten)]
    pub engine: EngineSettings,
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Weight file, or `defaults`.
    #[arg(long, default_value = "defaults")]
    pub weights: String,
    #[command(flatten)]
    pub engine: EngineSettings,
    /// Connect6: rows counted from the top in competition notation (`'S' - y`), as some
    /// platforms do.
    #[arg(long)]
    pub flip_rows: bool,
    /// Write `error ...` replies to stderr instead of stdout.
    #[arg(long)]
    pub errors_to_stderr: bool,
    /// Connect6: write a one-stone move as `JJ` instead of `JJ@@`.
    #[arg(long)]
    pub no_pad: bool,
    /// The engine's name (`name?`, `ABOUT`).
    #[arg(long, default_value = "evotune")]
    pub name: String,
    /// After every search, a `# depth .. score .. nodes .. pv ..` comment on stderr.
    #[arg(long)]
    pub verbose: bool,
}

/// Where games start (a suite file, or one generated from a seed) and how they are refereed.
#[derive(Args, Debug, Clone)]
pub struct OpeningArgs {
    /// Opening suite file (one opening per line in record notation); default: generated.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Seed of the generated opening suite.
    #[arg(long, default_value_t = 1)]
    pub opening_seed: u64,
    /// A game undecided after this many turns is a draw (0: no cap).
    #[arg(long, default_value_t = 120)]
    pub max_turns: usize,
    /// A game clock, BASE+INC in seconds (`60+1`, `0.5+0.05`): each player has BASE for the
    /// game plus INC after each move, thinks for a share of what is left, and loses on time
    /// (`timeout`) if it runs out. Depth and node limits still apply.
    #[arg(long, value_name = "BASE+INC")]
    pub tc: Option<crate::arena::clock::TimeControl>,
    /// Resign adjudication: a game ends (`resign`) once both players' searches have judged the
    /// same side lost for N turns each in a row (0: never). Outside engines report no scores:
    /// their games are never adjudicated this way.
    #[arg(long, default_value_t = 0, value_name = "N",
          value_parser = clap::value_parser!(u32).range(0..=i64::from(crate::arena::game::MAX_RESIGN_TURNS)))]
    pub resign_turns: u32,
    /// The search score (for the side to move, in the evaluation's units) at or beyond which
    /// --resign-turns counts a side as lost; default: only a proven loss.
    #[arg(long, value_name = "SCORE", value_parser = clap::value_parser!(i32).range(1..))]
    pub resign_score: Option<i32>,
    /// Outside engines: how much later than its time for the move (--time-ms, --a-time-ms or
    /// the --tc clock) an engine may answer before it loses on time (`timeout`).
    #[arg(long, default_value_t = crate::arena::game::DEFAULT_TIME_MARGIN_MS, value_name = "MS",
          value_parser = clap::value_parser!(u64).range(0..=MAX_TIME_MS))]
    pub time_margin_ms: u64,
    /// Outside engines: the longest wait for an answer when the move has no time limit (fixed
    /// depth) and for the engine's start; the engine is then killed and loses (`timeout`).
    #[arg(long, default_value_t = crate::arena::game::DEFAULT_HANG_MS, value_name = "MS", value_parser = time_range())]
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
    /// vcdt_depth, vcdt_nodes, killers, horizon_wins).
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
    /// for connect6, pbrain for gomoku, line for surakarta and einstein).
    #[arg(long, value_enum, value_name = "PROTOCOL")]
    pub a_protocol: Option<Protocol>,
    /// The working directory of player A's outside engine.
    #[arg(long, value_name = "DIR")]
    pub a_dir: Option<PathBuf>,
    /// A line sent to player A's outside engine each time it starts, after the protocol's
    /// greeting (e.g. `depth 4` for Cloudict-style engines). Repeatable.
    #[arg(long, value_name = "LINE", allow_hyphen_values = true)]
    pub a_init: Vec<String>,
    /// Where player A's outside engine's standard error goes (appended), with the referee's
    /// notes on it (default: evotune-<pid>-<name>.log in the temporary directory).
    #[arg(long, value_name = "FILE")]
    pub a_log: Option<PathBuf>,
    /// The protocol of player B's outside engine (--b cmd:...).
    #[arg(long, value_enum, value_name = "PROTOCOL")]
    pub b_protocol: Option<Protocol>,
    /// The working directory of player B's outside engine.
    #[arg(long, value_name = "DIR")]
    pub b_dir: Option<PathBuf>,
    /// A line sent to player B's outside engine each time it starts. Repeatable.
    #[arg(long, value_name = "LINE", allow_hyphen_values = true)]
    pub b_init: Vec<String>,
    /// Where player B's outside engine's standard error goes.
    #[arg(long, value_name = "FILE")]
    pub b_log: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct MatchArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Player A: a weight file, a run folder (its champion), `defaults`, `random` or
    /// `random:SEED`; or an outside engine, `cmd:"/path/engine args"` (with --a-protocol,
    /// --a-dir, --a-init, --a-log, or `;protocol=...;dir=...;init=...;log=...` after the
    /// command: docs/protocols.md).
    #[arg(long)]
    pub a: String,
    /// Player B: as player A.
    #[arg(long)]
    pub b: String,
    /// Game pairs: each opening is played twice, colours swapped.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..))]
    pub pairs: u64,
    #[command(flatten)]
    pub engine: EngineSettings,
    #[command(flatten)]
    pub sides: SideArgs,
    #[command(flatten)]
    pub openings: OpeningArgs,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write every game as a JSON line to this file.
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// Write every game as SGF (Little Golem form), one per line, to this file.
    #[arg(long)]
    pub sgf: Option<PathBuf>,
    /// Sequential probability ratio test: stop when A is shown to be at least ELO1 better
    /// (H1) or not better than ELO0 (H0), e.g. `--sprt 0,10`.
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<String>,
    /// SPRT false positive rate.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// SPRT false negative rate.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Seed of the match (game seeds derive from it).
    #[arg(long, default_value_t = 1)]
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

#[derive(Args, Debug)]
pub struct TournamentArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Players: weight files or built-in names (`defaults`, `random`, `random:SEED`), or
    /// outside engines `cmd:COMMAND[;protocol=P][;dir=DIR][;init=LINE]...[;log=FILE]` (one
    /// argument: quote it); `NAME=SPEC` sets the name shown in the tables.
    #[arg(required = true, num_args = 2..)]
    pub players: Vec<String>,
    /// Game pairs per pairing (colours swapped within a pair).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
    pub pairs: u64,
    #[command(flatten)]
    pub engine: EngineSettings,
    #[command(flatten)]
    pub openings: OpeningArgs,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write every game as a JSON line to this file.
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// Write the score and rating tables (CSV and Markdown) into this folder.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Seed (game seeds derive from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Formats of `compare`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CompareFormat {
    /// A table with notes.
    Text,
    /// One line per row of the table, numbers only (percentages and percentage points).
    Csv,
    /// The rows as a JSON array (an unbounded interval end is null).
    Json,
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// The records (JSON lines) the others are compared with.
    #[arg(value_name = "BASE.jsonl")]
    pub base: PathBuf,
    /// Records of the players to compare with BASE, against the same opponent on the same
    /// openings (none: BASE's scores alone).
    #[arg(value_name = "NEW.jsonl", num_args = 0..)]
    pub new: Vec<PathBuf>,
    /// The player to compare in each file: once for every file, or once per file in order
    /// (BASE first). Default: the file's one player who is not the opponent.
    #[arg(long, value_name = "NAME")]
    pub player: Vec<String>,
    /// The opponent of every file's games. Default: the one player found in every file.
    #[arg(long, value_name = "NAME")]
    pub opponent: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CompareFormat::Text)]
    pub format: CompareFormat,
}

#[derive(Args, Debug)]
pub struct FitOrderArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// The table to start from (a weight file, `defaults`, or a run's folder); its evaluation
    /// weights are kept.
    #[arg(long, default_value = "defaults")]
    pub weights: String,
    /// Game records (JSON lines, as `match --records` writes them) holding the player's
    /// games.
    #[arg(long, value_name = "FILE", required = true, num_args = 1..)]
    pub records: Vec<PathBuf>,
    /// Records to measure the fitted table on without fitting to them.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub test: Vec<PathBuf>,
    /// The player whose moves are learnt, as the records name it (`cloudict`).
    #[arg(long)]
    pub player: String,
    /// Where to write the fitted table (TOML).
    #[arg(long)]
    pub out: PathBuf,
    /// Rounds over the move-order weights, at most (the fit stops early when a round changes
    /// nothing).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub rounds: u32,
    /// The generator's settings (its widths: --singles, --seconds, --width) are the engine's.
    #[command(flatten)]
    pub engine: EngineSettings,
}

#[derive(Args, Debug)]
pub struct EvolveArgs {
    /// The run's TOML config (see configs/); default: the built-in quick config of the game
    /// (configs/quick.toml, configs/gomoku-quick.toml), which finishes in minutes on 2 cores.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// The game (default: the config's `game`, connect6 without a config). With a config, it
    /// must be the config's game.
    #[arg(long, value_parser = game_names(), conflicts_with = "resume")]
    pub game: Option<String>,
    /// Worker threads (default: all cores). The champion does not depend on it.
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
    /// Override the config's number of generations (also to extend a resumed run).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::ga::config::MAX_GENERATIONS)))]
    pub generations: Option<u32>,
    /// Start over even if the run's folders already hold a run (they are replaced).
    #[arg(long)]
    pub force: bool,
    /// Log lines instead of progress bars even on a terminal.
    #[arg(long)]
    pub log: bool,
    /// Also validate the champion against this weight table at the end (e.g. the previous
    /// run's results/<run>/champion.toml), beside `[validation] opponents`. Repeatable.
    #[arg(long, value_name = "WEIGHTS")]
    pub compare: Vec<String>,
    /// Where the games of a generation are played: `local` (this machine's threads), `slurm`
    /// (a SLURM job array a generation) or `parallel` (GNU parallel over ssh to --hosts). The
    /// run folder must be on a file system every machine shares (docs/cluster.md); the
    /// result is the local run's. With slurm and parallel, --threads is each shard's, and
    /// Ctrl-C cancels the shards at once (the shards already played are kept for --resume).
    #[arg(long, value_enum, default_value = "local")]
    pub executor: ExecutorKind,
    /// slurm / parallel: split each generation into this many shards (default: 8 with slurm,
    /// one per host with parallel).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=crate::cluster::plan::MAX_SHARDS as i64))]
    pub shards: Option<u32>,
    /// slurm: the partition of the shards' jobs (default: the cluster's).
    #[arg(long)]
    pub partition: Option<String>,
    /// slurm: one more argument for sbatch, e.g. `--sbatch-arg=--time=1:00:00`. Repeatable.
    #[arg(long, value_name = "ARG", allow_hyphen_values = true)]
    pub sbatch_arg: Vec<String>,
    /// parallel: GNU parallel's --sshloginfile, one host a line (`user@host`; `:` is this
    /// machine without ssh). Each host plays one shard at a time, on all its cores.
    #[arg(long, value_name = "FILE")]
    pub hosts: Option<PathBuf>,
    /// slurm / parallel: start a failed or lost shard again up to this many times before the
    /// run stops (saved, to be resumed).
    #[arg(long, default_value_t = 2)]
    pub retries: usize,
    /// slurm / parallel: seconds between two looks at the queue and the shard files.
    #[arg(long, default_value_t = 5.0)]
    pub poll_seconds: f64,
    /// slurm / parallel: the evotune binary the shards run (default: this one); it must be
    /// at this path on every machine.
    #[arg(long, value_name = "PATH")]
    pub evotune: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct SpsaArgs {
    /// The run's TOML config (see configs/spsa-quick.toml); default: the built-in one.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// The game (default: the config's `game`); with a config, it must be the config's game.
    #[arg(long, value_parser = game_names(), conflicts_with = "resume")]
    pub game: Option<String>,
    /// Worker threads (default: all cores). The result does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Put populations/ and results/ under this folder instead of the current one.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue the run whose checkpoint is in this folder (populations/<run>).
    #[arg(long, conflicts_with = "config")]
    pub resume: Option<PathBuf>,
    /// The run's name (folder under populations/ and results/); default: from the config.
    #[arg(long)]
    pub name: Option<String>,
    /// Override the config's seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Override the config's game budget (also to extend a resumed run).
    #[arg(long)]
    pub games: Option<u64>,
    /// Start over even if the run's folders already hold a run (they are replaced).
    #[arg(long)]
    pub force: bool,
    /// Log lines instead of progress bars even on a terminal.
    #[arg(long)]
    pub log: bool,
    /// Also validate the result against this weight table at the end. Repeatable.
    #[arg(long, value_name = "WEIGHTS")]
    pub compare: Vec<String>,
}

/// The papers' experiments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Paper {
    /// Li Guo 2007, Fig. 1: generation champions and random players in a round robin.
    Li2007,
    /// Wang Hongfei 2021: roads vs patterns, PVS vs alpha-beta, PVS vs UCT at equal time.
    Wang2021,
    /// Li Xuejun 2015: local (incremental) vs global road scanning.
    Li2015,
    /// Song Yingjian 2022: hybrid-evaluation MCTS vs plain MCTS in EinStein würfelt nicht,
    /// 5000 playouts, dice-paired games, in evotune's UCT and in the paper's flat Monte Carlo.
    Song2022,
}

#[derive(Args, Debug)]
pub struct ReproduceArgs {
    /// The game: each experiment plays its paper's game (song2022 EinStein, the others
    /// Connect6), whatever this says.
    #[command(flatten)]
    pub game: GameArg,
    /// Which experiment.
    #[arg(value_enum)]
    pub paper: Paper,
    /// The paper's sizes (hours) instead of the quick setting (minutes).
    #[arg(long)]
    pub full: bool,
    /// li2007: the run whose champions to use (a results/<run> folder); default: run
    /// configs/li2007.toml (or its quick version) first.
    #[arg(long)]
    pub run: Option<PathBuf>,
    /// Folder for tables and plots (default results/reproduce-<paper>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Override the experiment's game pairs per pairing.
    #[arg(long)]
    pub pairs: Option<u64>,
    /// Override the time per move in milliseconds (wang2021, li2015).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Formats of `export`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    Toml,
    Json,
    /// A C header: a `static const int` array with the names in comments and a `#define`
    /// per weight index.
    C,
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Weight file (its [meta] says which evaluation), or `defaults`.
    #[arg(long)]
    pub weights: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ExportFormat::Toml)]
    pub format: ExportFormat,
    /// Evaluation of `defaults` / `random` (files name their own in [meta]).
    #[arg(long)]
    pub eval: Option<String>,
    /// Write to this file instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct PlotArgs {
    /// A run's results folder (results/<run>) or its history.csv.
    pub run: PathBuf,
}

#[derive(Args, Debug)]
pub struct OpeningsArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Openings to generate (fewer when the settings hold fewer distinct ones).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=MAX_COUNT as u64))]
    pub count: u64,
    /// Turns per opening.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=MAX_TURNS as u64))]
    pub turns: u64,
    /// `played`: Black's first stone, `random`: every stone, within this distance of the
    /// centre (1 to 9 on the 19x19 board, 1 to 7 on 15x15). Default: 3, or the board's
    /// largest radius when that is smaller (2 on Surakarta's 6x6, where it is unused).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=9))]
    pub radius: Option<u64>,
    /// `played` (the move generator's best moves, drawn at random) or `random` (stones
    /// uniformly near the centre).
    #[arg(long, value_enum, default_value_t = crate::arena::openings::OpeningMethod::Played)]
    pub method: crate::arena::openings::OpeningMethod,
    /// `played`: how many of the generator's best moves each turn draws from.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=MAX_TOP as u64))]
    pub top: u64,
    /// `random`: keep openings whose static evaluation (the game's default road weights,
    /// side to move) is within this of even.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(0..=i64::from(i32::MAX)))]
    pub balance: u32,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output file (default stdout).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}
