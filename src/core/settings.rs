//! The engine settings: one type for the command line (`clap`, flattened into every command
//! that plays), the GA and SPSA configs (`[engine]`, `serde`) and the engine itself.
//!
//! Three sets of defaults, on purpose:
//! - the command line's (`--tt-mib 16`, no limit: a command picks one by search kind);
//! - a config's `[engine]` keys left out (`depth = 2`, `tt_mib = 4`: many small games, two
//!   engines per game and a game per thread);
//! - [`EngineSettings::default`] for library users and tests: the command line's.
//!
//! Everything else (generator widths, threat-space search, UCT constant) has one default.

use serde::{Deserialize, Serialize};

use crate::core::limits::{Limits, MAX_DEPTH, MAX_NODES, MAX_TIME_MS, MAX_TT_MIB, MAX_WIDTH};

/// Which search a player uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum SearchKind {
    /// Principal variation search with iterative deepening, transposition table and history.
    #[default]
    Pvs,
    /// Plain alpha-beta: the same evaluation and generator, no PVS, table or history.
    Alphabeta,
    /// Alpha-beta without move ordering, the baseline of Wang 2021: as `alphabeta`, but every
    /// node (the root too, in every iteration) tries the generator's moves in board order,
    /// not best first.
    #[serde(rename = "alphabeta-unordered")]
    AlphabetaUnordered,
    /// UCT Monte-Carlo tree search with the same move generator.
    Mcts,
}

impl SearchKind {
    pub fn name(self) -> &'static str {
        match self {
            SearchKind::Pvs => "pvs",
            SearchKind::Alphabeta => "alphabeta",
            SearchKind::AlphabetaUnordered => "alphabeta-unordered",
            SearchKind::Mcts => "mcts",
        }
    }
}

/// The most moves the threat-space search may chain (`--vcdt-depth`, `[engine] vcdt_depth`).
pub const MAX_VCDT_DEPTH: u32 = 20;

fn depth_range() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH))
}

fn nodes_range() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(1..=MAX_NODES)
}

fn budget_range() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(0..=MAX_NODES)
}

fn time_range() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(1..=MAX_TIME_MS)
}

fn vcdt_range() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(0..=i64::from(MAX_VCDT_DEPTH))
}

/// A whole number in `lo..=hi`, for the `usize` options.
fn ranged(text: &str, lo: usize, hi: usize) -> Result<usize, String> {
    let v: usize = text.trim().parse().map_err(|_| format!("`{text}` is not a whole number"))?;
    if !(lo..=hi).contains(&v) {
        return Err(format!("{v} is not in {lo}..={hi}"));
    }
    Ok(v)
}

fn tt_mib_value(text: &str) -> Result<usize, String> {
    ranged(text, 1, MAX_TT_MIB)
}

fn width_value(text: &str) -> Result<usize, String> {
    ranged(text, 0, MAX_WIDTH)
}

fn uct_value(text: &str) -> Result<f64, String> {
    let v: f64 = text.trim().parse().map_err(|_| format!("`{text}` is not a number"))?;
    if !(v > 0.0 && v <= 100.0) {
        return Err(format!("{v} is not in (0, 100]"));
    }
    Ok(v)
}

fn config_depth() -> Option<u32> {
    Some(2)
}

fn config_tt_mib() -> usize {
    4
}

/// The generator widths a config gets for the keys it leaves out: the widths every config had
/// before the command line took the game's own (so that those runs stay as they were).
fn config_singles() -> usize {
    12
}

fn config_seconds() -> usize {
    6
}

fn config_width() -> usize {
    16
}

fn default_uct_c() -> f64 {
    0.7
}

fn default_vcdt_depth() -> u32 {
    10
}

/// A config's `vcdt_depth` when left out: the depth its runs were made with before the
/// command line's default went up.
fn config_vcdt_depth() -> u32 {
    4
}

fn default_refutation_nodes() -> u64 {
    1_000
}

fn default_quiet_refutation_nodes() -> u64 {
    3_000
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn default_vcdt_nodes() -> u64 {
    4_000
}

fn default_killers() -> usize {
    MAX_KILLERS
}

fn default_horizon_wins() -> bool {
    true
}

fn is_default_horizon_wins(on: &bool) -> bool {
    *on == default_horizon_wins()
}

/// Threads one search may use (`--search-threads`, `[engine] search_threads`).
pub const MAX_SEARCH_THREADS: usize = 256;

fn one_thread() -> usize {
    1
}

fn is_one_thread(n: &usize) -> bool {
    *n == 1
}

fn one_share() -> f64 {
    1.0
}

fn is_one_share(share: &f64) -> bool {
    *share == 1.0
}

fn share_value(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 1.0 => Ok(v),
        _ => Err(format!("`{text}`: expected a share of the time, more than 0 and at most 1")),
    }
}

fn search_threads_value(text: &str) -> Result<usize, String> {
    ranged(text, 1, MAX_SEARCH_THREADS)
}

/// Killer moves kept per ply (`--killers`, `[engine] killers`).
pub const MAX_KILLERS: usize = 2;

fn killers_value(text: &str) -> Result<usize, String> {
    ranged(text, 0, MAX_KILLERS)
}

/// Everything about a player except its weights: search, evaluation, limits, memory, move
/// generator widths and the threat-space search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, clap::Args)]
#[serde(deny_unknown_fields)]
pub struct EngineSettings {
    /// Search algorithm.
    #[arg(long, value_enum, default_value_t = SearchKind::Pvs)]
    #[serde(default)]
    pub search: SearchKind,
    /// Evaluation, one of the game's (connect6: roads, roads-global, patterns; gomoku: tuple6,
    /// roads, patterns, cells, cell-pairs, tuple6-cells). Default: the one the weight file names in its [meta].
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval: Option<String>,
    /// Stop iterative deepening after this many turns (deterministic).
    #[arg(long, value_parser = depth_range(), help_heading = "Limits")]
    // A config that names no limit at all gets depth 2 (`with_config_depth`), one that names
    // only nodes or time_ms searches by that alone.
    #[serde(default)]
    pub depth: Option<u32>,
    /// Stop after this many nodes (playouts for mcts); deterministic.
    #[arg(long, value_parser = nodes_range(), help_heading = "Limits")]
    #[serde(default)]
    pub nodes: Option<u64>,
    /// Milliseconds per move (not deterministic: depends on the machine's load).
    #[arg(long, value_parser = time_range(), help_heading = "Limits")]
    #[serde(default)]
    pub time_ms: Option<u64>,
    /// Transposition table size in MiB (one table per engine, i.e. per thread).
    #[arg(long, default_value_t = 16, value_parser = tt_mib_value)]
    #[serde(default = "config_tt_mib")]
    pub tt_mib: usize,
    /// Move generator: first stones considered in quiet positions (and single-stone moves
    /// kept); 0: the game's default (Connect6 20, Gomoku 12).
    #[arg(long, default_value_t = 0, value_parser = width_value)]
    #[serde(default = "config_singles")]
    pub singles: usize,
    /// Move generator: second stones tried per first stone (games of two-stone turns); 0: the
    /// game's default (Connect6 10).
    #[arg(long, default_value_t = 0, value_parser = width_value)]
    #[serde(default = "config_seconds")]
    pub seconds: usize,
    /// Two-stone moves searched per node in quiet positions (Connect6); 0: the game's default
    /// (32). A game of one stone a turn (Gomoku) searches its `--singles` cells instead.
    #[arg(long, default_value_t = 0, value_parser = width_value)]
    #[serde(default = "config_width")]
    pub width: usize,
    /// UCT exploration constant (mcts).
    #[arg(long, default_value_t = 0.7, value_parser = uct_value)]
    #[serde(default = "default_uct_c")]
    pub uct_c: f64,
    /// Threat-space search at the root (Connect6: continuous double threats; Gomoku:
    /// continuous fours): the most attacking moves looked for, 0 to turn it off (a config
    /// that leaves it out: 4).
    #[arg(long, default_value_t = default_vcdt_depth(), value_parser = vcdt_range())]
    #[serde(default = "config_vcdt_depth")]
    pub vcdt_depth: u32,
    /// Positions the threat-space search may visit, per search of it.
    #[arg(long, default_value_t = 4_000, value_parser = nodes_range())]
    #[serde(default = "default_vcdt_nodes")]
    pub vcdt_nodes: u64,
    /// Killer moves per ply: moves that cut off in a sibling position, tried before any move
    /// is generated (Connect6; 0 turns them off).
    #[arg(long, default_value_t = MAX_KILLERS, value_parser = killers_value)]
    #[serde(default = "default_killers")]
    pub killers: usize,
    /// At the search's horizon, a side that can leave threats its opponent cannot all block
    /// in one turn is scored as winning (an exact win two turns on, which the static
    /// evaluation cannot see); `false` scores such positions statically.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    // Left out of a written config at its default, so that earlier runs keep their hash.
    #[serde(default = "default_horizon_wins", skip_serializing_if = "is_default_horizon_wins")]
    pub horizon_wins: bool,
    /// Before the main search, every root move after which the opponent wins by the
    /// threat-space search within this many positions (and `vcdt_depth` attacking moves) is
    /// set aside, unless every move is; 0 turns this off (a config's default).
    #[arg(long, default_value_t = default_refutation_nodes(), value_parser = budget_range())]
    // Left out of a written config when off, so that earlier runs keep their hash.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub refutation_nodes: u64,
    /// Before the main search, every root move after which the opponent has a quiet move
    /// (one its generator lists) that leaves every answer lost to the threat-space search
    /// within this many positions each is set aside, unless every move is: the attacks that
    /// start with a building move, which the check above cannot see; the whole check visits
    /// at most 24 times this many positions; 0 turns this off (a config's default).
    #[arg(long, default_value_t = default_quiet_refutation_nodes(), value_parser = budget_range())]
    // Left out of a written config when off, so that earlier runs keep their hash.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub quiet_refutation_nodes: u64,
    /// Threads searching one position (PVS only): the threads share one table and share
    /// out each iteration's root moves, so that they complete each iteration together. With more
    /// than 1 a search's result depends on timing (not reproducible, even at a fixed depth);
    /// tuning runs search each game on one thread (parallel games scale better).
    #[arg(long, default_value_t = 1, value_parser = search_threads_value)]
    // Left out of a written config at 1, so that earlier runs keep their hash.
    #[serde(default = "one_thread", skip_serializing_if = "is_one_thread")]
    pub search_threads: usize,
    /// Count the time of a move (`time_ms`, and a game clock's share) in the positions each
    /// search thread visits, at this many a second, instead of on the wall clock: the search
    /// spends its time as it would on a core of its own at that speed, whatever the machine's
    /// load, and on one thread a timed search is then deterministic. The root checks'
    /// threat-space positions count twice and each move the check for quiet moves lists
    /// once, as they cost on a real core. A stand-in for time on free cores (2 threads at the same rate
    /// visit twice the positions of one in the same time); 0: the wall clock. The PVS,
    /// alpha-beta and UCT searches (UCT counts playouts).
    #[arg(long, default_value_t = 0, value_parser = budget_range(), help_heading = "Limits")]
    // Left out of a written config at 0, so that earlier runs keep their hash.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub clock_nps: u64,
    /// A plan for a fixed time per move (`time_ms` alone: no game clock, depth or node
    /// limit): every move of a game after its first ends at this share of the time, while the
    /// first (the first move after the opening) has all of it, and its check for quiet moves
    /// 8 times its usual positions. Against Cloudict the games are decided at the first moves
    /// after the opening, and most later moves end early on a proven result anyway, so at 3
    /// times the time and a share of 1/3 a game costs about what it did (docs/strength.md).
    /// 1 (the default): every move has the whole time.
    #[arg(long, default_value_t = 1.0, value_parser = share_value, help_heading = "Limits")]
    // Left out of a written config at 1, so that earlier runs keep their hash.
    #[serde(default = "one_share", skip_serializing_if = "is_one_share")]
    pub later_time_share: f64,
}

impl Default for EngineSettings {
    fn default() -> Self {
        EngineSettings {
            search: SearchKind::Pvs,
            eval: None,
            depth: None,
            nodes: None,
            time_ms: None,
            tt_mib: 16,
            singles: 0,
            seconds: 0,
            width: 0,
            uct_c: default_uct_c(),
            vcdt_depth: default_vcdt_depth(),
            vcdt_nodes: default_vcdt_nodes(),
            killers: default_killers(),
            horizon_wins: default_horizon_wins(),
            refutation_nodes: default_refutation_nodes(),
            quiet_refutation_nodes: default_quiet_refutation_nodes(),
            search_threads: 1,
            clock_nps: 0,
            later_time_share: one_share(),
        }
    }
}

/// One side's overrides of the shared settings in a two-player command (`--a-depth`, ...).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideOverrides {
    pub search: Option<SearchKind>,
    pub eval: Option<String>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub time_ms: Option<u64>,
    pub vcdt_depth: Option<u32>,
    /// Any other engine options, applied last.
    pub options: Vec<EngineOption>,
}

/// The engine options `--a-engine KEY=VALUE` may set: limits, search and evaluation have
/// flags of their own.
const OPTION_KEYS: [&str; 14] = [
    "tt_mib",
    "singles",
    "seconds",
    "width",
    "uct_c",
    "vcdt_depth",
    "vcdt_nodes",
    "killers",
    "horizon_wins",
    "refutation_nodes",
    "quiet_refutation_nodes",
    "search_threads",
    "clock_nps",
    "later_time_share",
];

/// The settings a weight table's `[engine]` holds: the search and every engine option but the
/// machine's ([`MACHINE_KEYS`]); not its limits (how long it thinks is each command's) nor its
/// evaluation (the table's own).
pub fn table_engine_keys() -> impl Iterator<Item = &'static str> {
    std::iter::once("search").chain(OPTION_KEYS.into_iter().filter(|k| !MACHINE_KEYS.contains(k)))
}

/// The engine settings that describe the machine a search runs on, not the engine a table
/// was tuned with: its memory, its threads, and how it spends a move's time. A table does not carry them (the same table
/// plays on a laptop and on a cluster node); each command's options give them.
pub const MACHINE_KEYS: [&str; 4] = ["tt_mib", "search_threads", "clock_nps", "later_time_share"];

/// The engine settings given on the command line (by their `[engine]` names), which a weight
/// table's `[engine]` does not override. Set once by `main`; empty in tests of the library.
static GIVEN: std::sync::OnceLock<std::collections::BTreeSet<String>> = std::sync::OnceLock::new();

/// Notes which engine settings the command line gave explicitly (not by default), from the
/// innermost subcommand's matches.
pub fn note_command_line(matches: &clap::ArgMatches) {
    let mut m = matches;
    while let Some((_, sub)) = m.subcommand() {
        m = sub;
    }
    let given = m
        .ids()
        .filter(|id| m.value_source(id.as_str()) == Some(clap::parser::ValueSource::CommandLine))
        .map(|id| id.as_str().to_string())
        .collect();
    let _ = GIVEN.set(given);
}

/// Whether the engine setting `key` was given on the command line.
pub fn given_on_command_line(key: &str) -> bool {
    GIVEN.get().is_some_and(|g| g.contains(key))
}

/// One engine option as `KEY=VALUE` (`killers=0`), by its `[engine]` name; checked against
/// the option's range when parsed.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineOption {
    key: String,
    value: String,
}

impl std::str::FromStr for EngineOption {
    type Err = String;

    fn from_str(text: &str) -> Result<EngineOption, String> {
        let Some((key, value)) = text.split_once('=') else {
            return Err(format!("`{text}`: expected KEY=VALUE, like killers=0"));
        };
        let key = key.trim();
        if !OPTION_KEYS.contains(&key) {
            return Err(format!("`{key}` is not an engine option; the options are {}", OPTION_KEYS.join(", ")));
        }
        let option = EngineOption { key: key.to_string(), value: value.trim().to_string() };
        let mut checked = EngineSettings::config_default();
        option.apply(&mut checked)?;
        checked.check().map_err(|e| e.replace("[engine] ", ""))?;
        Ok(option)
    }
}

impl EngineOption {
    /// The option's `[engine]` name.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// Sets the option in `settings` (and nothing else: limits, search and evaluation stay).
    pub fn apply(&self, settings: &mut EngineSettings) -> Result<(), String> {
        fn number<T: std::str::FromStr>(option: &EngineOption) -> Result<T, String> {
            option.value.parse().map_err(|_| format!("{} = {}: not a number", option.key, option.value))
        }
        match self.key.as_str() {
            "tt_mib" => settings.tt_mib = number(self)?,
            "singles" => settings.singles = number(self)?,
            "seconds" => settings.seconds = number(self)?,
            "width" => settings.width = number(self)?,
            "uct_c" => settings.uct_c = number(self)?,
            "vcdt_depth" => settings.vcdt_depth = number(self)?,
            "vcdt_nodes" => settings.vcdt_nodes = number(self)?,
            "killers" => settings.killers = number(self)?,
            "refutation_nodes" => settings.refutation_nodes = number(self)?,
            "quiet_refutation_nodes" => settings.quiet_refutation_nodes = number(self)?,
            "search_threads" => settings.search_threads = number(self)?,
            "clock_nps" => settings.clock_nps = number(self)?,
            "later_time_share" => settings.later_time_share = share_value(&self.value)?,
            "horizon_wins" => {
                settings.horizon_wins =
                    self.value.parse().map_err(|_| format!("{} = {}: expected true or false", self.key, self.value))?
            }
            other => return Err(format!("`{other}` is not an engine option")),
        }
        Ok(())
    }
}

impl EngineSettings {
    /// The settings of a config's `[engine]` when the table is left out.
    pub fn config_default() -> EngineSettings {
        EngineSettings {
            depth: config_depth(),
            tt_mib: config_tt_mib(),
            singles: config_singles(),
            seconds: config_seconds(),
            width: config_width(),
            vcdt_depth: config_vcdt_depth(),
            refutation_nodes: 0,
            quiet_refutation_nodes: 0,
            ..EngineSettings::default()
        }
    }

    /// A config's `[engine]` as read: depth 2 when it names no limit at all (what every config
    /// had before), and no depth when it names only `nodes` or `time_ms`, which would
    /// otherwise stop at depth 2 long before their budget.
    pub fn with_config_depth(mut self) -> EngineSettings {
        if self.limits().is_unlimited() {
            self.depth = config_depth();
        }
        self
    }

    /// The limits given (possibly none).
    pub fn limits(&self) -> Limits {
        Limits { depth: self.depth, nodes: self.nodes, time_ms: self.time_ms, soft_ms: None }
    }

    /// True when a search's result does not depend on the machine or its load: limited by
    /// depth or positions only, or timed on a clock counted in positions (`clock_nps`), and
    /// on one thread (threads share a table in whatever order they run).
    pub fn is_deterministic(&self) -> bool {
        self.search_threads <= 1 && (self.time_ms.is_none() || self.clock_nps > 0)
    }

    /// The limits given, or `default` when none was.
    pub fn limits_or(&self, default: Limits) -> Limits {
        let l = self.limits();
        if l.is_unlimited() {
            default
        } else {
            l
        }
    }

    /// The same settings with these limits.
    pub fn with_limits(mut self, limits: Limits) -> EngineSettings {
        (self.depth, self.nodes, self.time_ms) = (limits.depth, limits.nodes, limits.time_ms);
        self
    }

    /// These settings with one side's overrides applied; limits given for the side replace
    /// the shared ones as a whole.
    pub fn with(&self, side: &SideOverrides) -> Result<EngineSettings, String> {
        let mut e = self.clone();
        if let Some(s) = side.search {
            e.search = s;
        }
        if side.eval.is_some() {
            e.eval.clone_from(&side.eval);
        }
        if side.depth.is_some() || side.nodes.is_some() || side.time_ms.is_some() {
            (e.depth, e.nodes, e.time_ms) = (side.depth, side.nodes, side.time_ms);
        }
        if let Some(v) = side.vcdt_depth {
            e.vcdt_depth = v;
        }
        for option in &side.options {
            option.apply(&mut e)?;
        }
        Ok(e)
    }

    /// The transposition table an engine of these settings allocates, in MiB (`tt_mib` for
    /// the PVS search; the others keep a small one).
    pub fn table_mib(&self) -> usize {
        if self.search == SearchKind::Pvs {
            self.tt_mib
        } else {
            1
        }
    }

    /// Checks the ranges the types do not (for configs; the command line checks its own).
    /// The error names the key as `[engine] key = value` and says what is allowed.
    pub fn check(&self) -> Result<(), String> {
        fn in_range<T: PartialOrd + std::fmt::Display>(key: &str, v: T, lo: T, hi: T) -> Result<(), String> {
            if v < lo || v > hi {
                return Err(format!("[engine] {key} = {v}: between {lo} and {hi}"));
            }
            Ok(())
        }
        if self.depth.is_none() && self.nodes.is_none() && self.time_ms.is_none() {
            return Err("[engine]: give at least one of depth, nodes, time_ms".into());
        }
        if let Some(d) = self.depth {
            in_range("depth", d, 1, MAX_DEPTH)?;
        }
        if let Some(n) = self.nodes {
            in_range("nodes", n, 1, MAX_NODES)?;
        }
        if let Some(t) = self.time_ms {
            in_range("time_ms", t, 1, MAX_TIME_MS)?;
        }
        in_range("tt_mib", self.tt_mib, 1, MAX_TT_MIB)?;
        // 0: the game's default.
        in_range("singles", self.singles, 0, MAX_WIDTH)?;
        in_range("seconds", self.seconds, 0, MAX_WIDTH)?;
        in_range("width", self.width, 0, MAX_WIDTH)?;
        if !(self.uct_c > 0.0 && self.uct_c <= 100.0) {
            return Err(format!("[engine] uct_c = {}: more than 0 and at most 100", self.uct_c));
        }
        in_range("vcdt_depth", self.vcdt_depth, 0, MAX_VCDT_DEPTH)?;
        in_range("vcdt_nodes", self.vcdt_nodes, 1, MAX_NODES)?;
        in_range("killers", self.killers, 0, MAX_KILLERS)?;
        in_range("search_threads", self.search_threads, 1, MAX_SEARCH_THREADS)?;
        in_range("clock_nps", self.clock_nps, 0, MAX_NODES)?;
        if !(self.later_time_share > 0.0 && self.later_time_share <= 1.0) {
            return Err(format!("[engine] later_time_share = {}: more than 0 and at most 1", self.later_time_share));
        }
        if self.search_threads > 1 && self.search != SearchKind::Pvs {
            return Err(format!(
                "[engine] search_threads = {}: only the pvs search runs on several threads (this one is {})",
                self.search_threads,
                self.search.name()
            ));
        }
        if self.eval.is_some() {
            return Err("[engine] eval: the evaluation is the top-level `eval` key".into());
        }
        Ok(())
    }

    /// Refuses more than one thread a search in a tuning run: its games are searched on one
    /// thread each, since games played in parallel use the cores better and keep every
    /// game reproducible.
    pub fn check_one_thread(&self) -> Result<(), String> {
        if self.search_threads != 1 {
            return Err(format!(
                "[engine] search_threads = {}: a tuning run searches each game on one thread (its games \
                 run in parallel, which scales better and keeps them reproducible: use --threads for \
                 more games at once)",
                self.search_threads
            ));
        }
        Ok(())
    }

    /// These settings as the command line's flags (`--search pvs --tt-mib 4 --depth 3 ...`):
    /// the search, table size and limits always, the other options all of them, or with
    /// `only_changed` those that differ from the command line's defaults. The evaluation is
    /// left to the caller.
    pub fn cli_args(&self, only_changed: bool) -> Vec<String> {
        let mut args =
            vec!["--search".to_string(), self.search.name().into(), "--tt-mib".into(), self.tt_mib.to_string()];
        let limits = [("--depth", self.depth.map(u64::from)), ("--nodes", self.nodes), ("--time-ms", self.time_ms)];
        for (flag, v) in limits {
            if let Some(v) = v {
                args.extend([flag.to_string(), v.to_string()]);
            }
        }
        let d = EngineSettings::default();
        let options = [
            ("--singles", self.singles.to_string(), d.singles.to_string()),
            ("--seconds", self.seconds.to_string(), d.seconds.to_string()),
            ("--width", self.width.to_string(), d.width.to_string()),
            ("--vcdt-depth", self.vcdt_depth.to_string(), d.vcdt_depth.to_string()),
            ("--vcdt-nodes", self.vcdt_nodes.to_string(), d.vcdt_nodes.to_string()),
            ("--killers", self.killers.to_string(), d.killers.to_string()),
            ("--refutation-nodes", self.refutation_nodes.to_string(), d.refutation_nodes.to_string()),
            ("--quiet-refutation-nodes", self.quiet_refutation_nodes.to_string(), d.quiet_refutation_nodes.to_string()),
            ("--horizon-wins", self.horizon_wins.to_string(), d.horizon_wins.to_string()),
            ("--uct-c", self.uct_c.to_string(), d.uct_c.to_string()),
            ("--search-threads", self.search_threads.to_string(), d.search_threads.to_string()),
            ("--clock-nps", self.clock_nps.to_string(), d.clock_nps.to_string()),
            ("--later-time-share", self.later_time_share.to_string(), d.later_time_share.to_string()),
        ];
        for (flag, v, default) in options {
            if !only_changed || v != default {
                args.extend([flag.to_string(), v]);
            }
        }
        args
    }

    /// The `[engine]` table a tuner writes into its champion's file: every setting of
    /// [`table_engine_keys`], as a config's `[engine]` names them.
    pub fn table_engine(&self) -> toml::Table {
        let mut t = toml::Table::new();
        t.insert("search".into(), toml::Value::String(self.search.name().into()));
        let int = |v: u64| toml::Value::Integer(i64::try_from(v).unwrap_or(i64::MAX));
        t.insert("singles".into(), int(self.singles as u64));
        t.insert("seconds".into(), int(self.seconds as u64));
        t.insert("width".into(), int(self.width as u64));
        t.insert("uct_c".into(), toml::Value::Float(self.uct_c));
        t.insert("vcdt_depth".into(), int(u64::from(self.vcdt_depth)));
        t.insert("vcdt_nodes".into(), int(self.vcdt_nodes));
        t.insert("killers".into(), int(self.killers as u64));
        t.insert("horizon_wins".into(), toml::Value::Boolean(self.horizon_wins));
        t.insert("refutation_nodes".into(), int(self.refutation_nodes));
        t.insert("quiet_refutation_nodes".into(), int(self.quiet_refutation_nodes));
        t
    }

    /// These settings with a table's `[engine]` applied, except the settings `given` says
    /// were chosen by the user. Every key is checked as a config's `[engine]` key is.
    pub fn with_table_engine(
        &self,
        table: &toml::Table,
        given: &dyn Fn(&str) -> bool,
    ) -> Result<EngineSettings, String> {
        let mut out = self.clone();
        for (key, value) in table {
            if MACHINE_KEYS.contains(&key.as_str()) {
                return Err(format!(
                    "[engine] {key}: describes the machine, not the tuned engine, so a weight table does not \
                     hold it; give it on the command line (--{})",
                    key.replace('_', "-")
                ));
            }
            if !table_engine_keys().any(|k| k == key) {
                return Err(format!(
                    "[engine] {key}: not a setting a weight table holds; they are {}",
                    table_engine_keys().collect::<Vec<_>>().join(", ")
                ));
            }
            if given(key) {
                continue;
            }
            let text = match value {
                toml::Value::String(s) => s.clone(),
                toml::Value::Integer(_) | toml::Value::Float(_) | toml::Value::Boolean(_) => value.to_string(),
                other => return Err(format!("[engine] {key}: a {} is not a setting's value", other.type_str())),
            };
            if key == "search" {
                out.search = <SearchKind as clap::ValueEnum>::from_str(&text, true)
                    .map_err(|_| format!("[engine] search = {text}: expected pvs, alphabeta or mcts"))?;
            } else {
                let option: EngineOption = format!("{key}={text}").parse().map_err(|e| format!("[engine] {e}"))?;
                option.apply(&mut out).map_err(|e| format!("[engine] {e}"))?;
            }
        }
        Ok(out)
    }

    /// A short description such as `pvs roads depth 3` (`pvs roads time 100ms 2 threads` on
    /// several threads), with the evaluation resolved by the caller.
    pub fn describe(&self, eval: &str, limits: &Limits) -> String {
        let threads = if self.search_threads > 1 { format!(" {} threads", self.search_threads) } else { String::new() };
        let counted = if self.clock_nps > 0 { format!(" counted at {} nps", self.clock_nps) } else { String::new() };
        format!("{} {} {}{counted}{threads}", self.search.name(), eval, limits.describe())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `[engine]` a tuner writes holds exactly the keys a table may hold, and reads back.
    #[test]
    fn a_tables_engine_is_written_with_exactly_its_keys() {
        let settings = EngineSettings::default();
        let table = settings.table_engine();
        let mut written: Vec<&str> = table.keys().map(String::as_str).collect();
        let mut keys: Vec<&str> = table_engine_keys().collect();
        written.sort_unstable();
        keys.sort_unstable();
        assert_eq!(written, keys);
        let read = settings.with_table_engine(&table, &|_| false).unwrap();
        assert_eq!(read.table_engine(), table);
    }

    #[test]
    fn an_engine_option_sets_its_field_and_nothing_else() {
        let timed = EngineSettings { time_ms: Some(100), ..EngineSettings::default() };
        let option: EngineOption = "killers=0".parse().unwrap();
        let mut e = timed.clone();
        option.apply(&mut e).unwrap();
        assert_eq!(e, EngineSettings { killers: 0, ..timed.clone() });
        // Every listed option can be set, to a value in its range.
        for (key, value) in OPTION_KEYS.iter().zip(["8", "6", "3", "10", "0.5", "0", "100", "1", "false"]) {
            let option: EngineOption = format!("{key}={value}").parse().unwrap();
            let mut e = timed.clone();
            option.apply(&mut e).unwrap();
            assert_ne!(e, timed, "{key}");
            assert_eq!(e.limits(), timed.limits(), "{key} leaves the limits alone");
        }
    }

    #[test]
    fn bad_engine_options_are_refused_with_the_reason() {
        for (text, says) in [
            ("killers", "expected KEY=VALUE"),
            ("killer=0", "not an engine option"),
            ("depth=3", "not an engine option"),
            ("killers=7", "between 0 and 2"),
            ("singles=x", "not a number"),
            ("search_threads=0", "between 1 and 256"),
        ] {
            let e = text.parse::<EngineOption>().unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
    }

    /// `search_threads` is an engine option (one side of a match may search on two threads),
    /// refused for the searches that do not run on several threads and in tuning runs.
    #[test]
    fn search_threads_is_set_and_refused_where_it_does_not_apply() {
        let option: EngineOption = "search_threads=2".parse().unwrap();
        let mut e = EngineSettings::config_default();
        option.apply(&mut e).unwrap();
        assert_eq!(e.search_threads, 2);
        assert!(e.check().is_ok());
        assert!(e.cli_args(true).windows(2).any(|w| w == ["--search-threads", "2"]));
        assert!(e.check_one_thread().unwrap_err().contains("one thread"));
        for search in [SearchKind::Mcts, SearchKind::Alphabeta] {
            let err = EngineSettings { search, ..e.clone() }.check().unwrap_err();
            assert!(err.contains("only the pvs search"), "{err}");
        }
        assert!(EngineSettings::config_default().check_one_thread().is_ok());
        let written = toml::to_string(&EngineSettings::config_default()).unwrap();
        assert!(!written.contains("search_threads"), "a config at one thread keeps its hash: {written}");
    }

    /// A timed search is deterministic on a clock counted in positions, on one thread; on
    /// the wall clock, or on several threads even at a fixed depth, it is not.
    #[test]
    fn which_searches_are_deterministic() {
        let d = EngineSettings::default;
        let timed = EngineSettings { time_ms: Some(100), ..d() };
        let counted = EngineSettings { clock_nps: 600_000, ..timed.clone() };
        assert!(EngineSettings { depth: Some(4), ..d() }.is_deterministic());
        assert!(EngineSettings { nodes: Some(1000), ..d() }.is_deterministic());
        assert!(counted.is_deterministic());
        assert!(!timed.is_deterministic());
        assert!(!EngineSettings { depth: Some(4), search_threads: 2, ..d() }.is_deterministic());
        assert!(!EngineSettings { search_threads: 2, ..counted }.is_deterministic());
    }

    /// `clock_nps` is an engine option of the machine (a table does not hold it), shown in
    /// the engine's description and its flags, and left out of a written config at 0.
    #[test]
    fn clock_nps_is_an_option_of_the_machine() {
        let option: EngineOption = "clock_nps=600000".parse().unwrap();
        let mut e = EngineSettings { time_ms: Some(300), ..EngineSettings::config_default() };
        option.apply(&mut e).unwrap();
        assert_eq!(e.clock_nps, 600_000);
        assert!(e.check().is_ok());
        assert!(e.cli_args(true).windows(2).any(|w| w == ["--clock-nps", "600000"]));
        assert!(e.describe("roads", &e.limits()).contains("counted at 600000 nps"));
        let table: toml::Table = toml::from_str("clock_nps = 600000").unwrap();
        let err = EngineSettings::config_default().with_table_engine(&table, &|_| false).unwrap_err();
        assert!(err.contains("describes the machine"), "{err}");
        assert!(!table_engine_keys().any(|k| k == "clock_nps"));
        let written = toml::to_string(&EngineSettings::config_default()).unwrap();
        assert!(!written.contains("clock_nps"), "a config on the wall clock keeps its hash: {written}");
        assert!("clock_nps=x".parse::<EngineOption>().unwrap_err().contains("not a number"));
    }
}
