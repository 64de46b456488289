//! Opening suites. Deterministic engines replay the same game from the same position, so every
//! pairing starts from a set of short, varied, balanced openings, each played twice with
//! colours swapped.
//!
//! A suite is generated from a seed or read from a text file: one opening per line, its moves
//! in record notation separated by spaces (`j10 k11k9 l10h10`), `#` starting a comment.

use std::path::Path;

use anyhow::{bail, Context, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::arena::{ArenaGame, OpeningError};
use crate::core::openings::{Attempt, OpeningConfig, OpeningMaker, OpeningMethod};
use crate::report::progress::Progress;

/// A list of openings of one game, each a list of record moves from the start.
#[derive(Clone)]
pub struct OpeningSuite {
    pub game: &'static dyn ArenaGame,
    pub openings: Vec<Vec<String>>,
}

impl PartialEq for OpeningSuite {
    fn eq(&self, other: &OpeningSuite) -> bool {
        self.game.name() == other.game.name() && self.openings == other.openings
    }
}

impl std::fmt::Debug for OpeningSuite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpeningSuite").field("game", &self.game.name()).field("openings", &self.openings).finish()
    }
}

/// How a suite file writes the empty board as an opening.
pub const EMPTY_OPENING: &str = "-";

/// Consecutive attempts without a new opening after which the generator stops: at least
/// this many ...
const SATURATION_MIN_TRIES: usize = 10_000;
/// ... and at least this many per opening found. Past it the settings hold no more distinct
/// openings worth the search (the last ones need ever more tries); without it a suite asked
/// for more openings than exist ran its whole budget of 1000 tries per opening (minutes).
const SATURATION_TRIES_PER_OPENING: usize = 20;

/// Why a generated suite came out smaller than needed, with what was rejected, so that the
/// message can say which setting to change.
#[derive(Clone, Debug, PartialEq)]
pub struct Shortfall {
    pub found: usize,
    pub needed: usize,
    pub config: OpeningConfig,
    pub attempts: usize,
    /// Rejected attempts: a threat on the board, out of balance (`random`), a repeat.
    pub threats: usize,
    pub unbalanced: usize,
    pub repeats: usize,
    /// The smallest |evaluation| among the openings rejected for balance.
    pub closest: Option<i32>,
}

/// How a message names the generator's settings: as config keys or as command-line options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keys {
    /// `[openings] balance = 200`
    Config,
    /// `--balance 200`
    CommandLine,
}

impl Keys {
    fn key(self, k: &str) -> String {
        match self {
            Keys::Config => format!("[openings] {k}"),
            Keys::CommandLine => format!("--{k}"),
        }
    }

    fn set(self, k: &str, v: &str) -> String {
        match self {
            Keys::Config => format!("[openings] {k} = {v}"),
            Keys::CommandLine => format!("--{k} {v}"),
        }
    }

    fn word(self, w: &str) -> String {
        match self {
            Keys::Config => format!("\"{w}\""),
            Keys::CommandLine => w.to_string(),
        }
    }
}

impl Shortfall {
    /// The message, naming the settings to change as `keys` spells them.
    pub fn message(&self, keys: Keys) -> String {
        let c = &self.config;
        let head = if self.found == 0 {
            format!("no opening could be generated in {} attempts", self.attempts)
        } else {
            format!("only {} distinct openings could be generated, {} needed", self.found, self.needed)
        };
        let rejected = |n: usize| if n == self.attempts { format!("all {n}") } else { n.to_string() };
        let advice = if self.unbalanced >= self.threats && self.unbalanced >= self.repeats && self.unbalanced > 0 {
            let closest = self.closest.map(|v| format!(" (the closest was {v} from even)")).unwrap_or_default();
            format!(
                "{} rejected {} as unbalanced{closest}: raise {}, or use {}",
                keys.set("balance", &c.balance.to_string()),
                rejected(self.unbalanced),
                keys.key("balance"),
                keys.set("method", &keys.word("played"))
            )
        } else if self.threats >= self.repeats && self.threats > 0 {
            let radius = match c.method {
                OpeningMethod::Random => format!(" or a larger {}", keys.key("radius")),
                OpeningMethod::Played => String::new(),
            };
            format!(
                "{} had a threat on the board after {}: use fewer {}{radius}",
                rejected(self.threats),
                keys.set("turns", &c.turns.to_string()),
                keys.key("turns"),
            )
        } else {
            let wider = match c.method {
                OpeningMethod::Played => {
                    format!("{}, {} or {}", keys.key("top"), keys.key("turns"), keys.key("radius"))
                }
                OpeningMethod::Random => format!("{} or {}", keys.key("turns"), keys.key("radius")),
            };
            format!("these settings hold no more distinct openings (up to symmetry): raise {wider}, or ask for fewer")
        };
        format!("{head}; {advice}")
    }
}

impl std::fmt::Display for Shortfall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(Keys::Config))
    }
}

impl std::error::Error for Shortfall {}

/// Draws distinct openings one at a time from a seed: the same seed gives the same sequence,
/// however many are taken, so a suite can be generated whole or as a match needs it.
pub struct OpeningGenerator {
    config: OpeningConfig,
    rng: ChaCha8Rng,
    maker: Box<dyn OpeningMaker>,
    seen: std::collections::HashSet<Vec<u32>>,
    found: usize,
    attempts: usize,
    /// Attempts since the last new opening.
    misses: usize,
    threats: usize,
    unbalanced: usize,
    repeats: usize,
    closest: Option<i32>,
}

impl OpeningGenerator {
    pub fn new(game: &dyn ArenaGame, config: &OpeningConfig, seed: u64) -> OpeningGenerator {
        OpeningGenerator {
            config: *config,
            rng: ChaCha8Rng::seed_from_u64(seed),
            maker: game.opening_maker(config),
            seen: std::collections::HashSet::new(),
            found: 0,
            attempts: 0,
            misses: 0,
            threats: 0,
            unbalanced: 0,
            repeats: 0,
            closest: None,
        }
    }

    /// Whether the attempt budget is spent or the settings look exhausted.
    fn spent(&self) -> bool {
        let budget = self.config.count * 1000 + 1000;
        let saturated = self.misses >= SATURATION_MIN_TRIES.max(SATURATION_TRIES_PER_OPENING * self.found);
        self.found >= self.config.count || self.attempts >= budget || saturated
    }

    /// The next distinct opening (no two equal up to the board's symmetries, no threat on the
    /// board), or None once `count` are out or the settings give no more.
    pub fn next_opening(&mut self) -> Option<Vec<String>> {
        while !self.spent() {
            self.attempts += 1;
            self.misses += 1;
            match self.maker.attempt(&mut self.rng) {
                Attempt::Threat => self.threats += 1,
                Attempt::Unbalanced(v) => {
                    self.unbalanced += 1;
                    self.closest = Some(self.closest.map_or(v, |c| c.min(v)));
                }
                Attempt::Made { moves, key } => {
                    if !self.seen.insert(key) {
                        self.repeats += 1;
                        continue;
                    }
                    self.found += 1;
                    self.misses = 0;
                    return Some(moves);
                }
            }
        }
        None
    }

    /// What was rejected so far, for a message when fewer than `needed` came out.
    pub fn shortfall(&self, needed: usize) -> Shortfall {
        Shortfall {
            found: self.found,
            needed,
            config: self.config,
            attempts: self.attempts,
            threats: self.threats,
            unbalanced: self.unbalanced,
            repeats: self.repeats,
            closest: self.closest,
        }
    }
}

impl OpeningSuite {
    /// Generates up to `config.count` distinct openings from `seed` (see [`OpeningGenerator`]
    /// and [`OpeningMethod`]); an error when none can be made.
    ///
    /// Why `played` openings of three turns are the default (measured with `evotune match
    /// --a defaults --b defaults|random:3 --pairs 30..100` at several budgets): with uniformly
    /// random stones the side to move won 75-90% of the games between equal engines, so most
    /// game pairs split 1-1 whoever played better. Two played turns (Black to move) were fair
    /// at depth 3 (54%) but Black won 90% at 100 ms per move; three played turns gave the
    /// first player 60%, 37%, 51%, 45% and 36% at depth 2, 3, 4, 100 ms and 300 ms.
    pub fn generate(
        game: &'static dyn ArenaGame,
        config: &OpeningConfig,
        seed: u64,
    ) -> Result<OpeningSuite, Shortfall> {
        Self::generate_at_least(game, config, seed, 1, None)
    }

    /// As [`generate`](Self::generate), but fewer than `needed` openings is an error, and
    /// `progress` (if any) counts the openings as they come.
    pub fn generate_at_least(
        game: &'static dyn ArenaGame,
        config: &OpeningConfig,
        seed: u64,
        needed: usize,
        progress: Option<&Progress>,
    ) -> Result<OpeningSuite, Shortfall> {
        let (suite, short) = Self::generate_reporting(game, config, seed, progress);
        match short {
            Some(s) if suite.len() < needed.max(1) => Err(Shortfall { needed: needed.max(1), ..s }),
            _ => Ok(suite),
        }
    }

    /// Up to `config.count` openings, and when fewer came out, why (with `needed` = the
    /// count). The suite may be empty.
    pub fn generate_reporting(
        game: &'static dyn ArenaGame,
        config: &OpeningConfig,
        seed: u64,
        progress: Option<&Progress>,
    ) -> (OpeningSuite, Option<Shortfall>) {
        let mut generator = OpeningGenerator::new(game, config, seed);
        let mut openings = Vec::new();
        while let Some(o) = generator.next_opening() {
            openings.push(o);
            if let Some(p) = progress {
                p.inc(1);
            }
        }
        let short = (openings.len() < config.count).then(|| generator.shortfall(config.count));
        (OpeningSuite { game, openings }, short)
    }

    /// Reads a suite; every opening must be a legal, unfinished game (a line `-`: the empty
    /// board). Errors name the line.
    pub fn load(path: &Path, game: &'static dyn ArenaGame) -> Result<OpeningSuite> {
        let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))?;
        Self::parse(&text, &path.display().to_string(), game)
    }

    pub fn parse(text: &str, file: &str, game: &'static dyn ArenaGame) -> Result<OpeningSuite> {
        let mut openings = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            // `-` is the empty board (for engines that cannot be given an opening).
            let moves: Vec<String> =
                if line == EMPTY_OPENING { Vec::new() } else { line.split_whitespace().map(str::to_string).collect() };
            match game.opening_key(&moves) {
                Ok(_) => {}
                Err(OpeningError::Illegal(e)) => bail!("{file}:{}: {e}", i + 1),
                Err(OpeningError::Decided) => bail!("{file}:{}: the opening is already decided", i + 1),
                Err(OpeningError::MidTurn) => bail!("{file}:{}: the opening stops in the middle of a turn", i + 1),
            }
            openings.push(moves);
        }
        if openings.is_empty() {
            bail!("{file}: no openings (one per line, record moves separated by spaces)");
        }
        Ok(OpeningSuite { game, openings })
    }

    pub fn to_text(&self) -> String {
        let mut s = String::from("# evotune opening suite: one opening per line, record notation\n");
        for o in &self.openings {
            s.push_str(if o.is_empty() { EMPTY_OPENING } else { "" });
            s.push_str(&o.join(" "));
            s.push('\n');
        }
        s
    }

    pub fn len(&self) -> usize {
        self.openings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.openings.is_empty()
    }

    /// The opening with this index, wrapping around.
    pub fn get(&self, i: usize) -> &[String] {
        &self.openings[i % self.openings.len()]
    }

    /// This suite without the openings of `other` (equal up to the board's symmetries), so
    /// that a test on `other` is out of sample for a player trained on this one. Returns how
    /// many were removed.
    pub fn remove_all_of(&mut self, other: &OpeningSuite) -> usize {
        let holds = other.membership();
        let before = self.openings.len();
        self.openings.retain(|o| !holds(o));
        before - self.openings.len()
    }

    /// A test of whether an opening is one of this suite's (equal up to the board's
    /// symmetries), its keys computed once for all the openings it is asked about.
    pub fn membership(&self) -> impl Fn(&[String]) -> bool + use<> {
        let game = self.game;
        let keys: std::collections::HashSet<Vec<u32>> =
            self.openings.iter().filter_map(|o| game.opening_key(o).ok()).collect();
        move |moves: &[String]| game.opening_key(moves).is_ok_and(|k| keys.contains(&k))
    }
}

/// The openings of a match: a fixed suite, or generated as the pairs need them, so that a
/// long match (or an SPRT that stops early) does not wait for openings it never plays.
/// Opening `i` is the same either way: the generator's sequence does not depend on how many
/// are drawn, and past the last one the indices wrap around as in [`OpeningSuite::get`].
pub struct Openings {
    suite: OpeningSuite,
    generator: Option<OpeningGenerator>,
    /// Openings the generated suite may grow to.
    count: usize,
}

impl Openings {
    pub fn fixed(suite: OpeningSuite) -> Openings {
        let count = suite.len();
        Openings { suite, generator: None, count }
    }

    pub fn generated(game: &'static dyn ArenaGame, config: &OpeningConfig, seed: u64) -> Openings {
        Openings {
            suite: OpeningSuite { game, openings: Vec::new() },
            generator: Some(OpeningGenerator::new(game, config, seed)),
            count: config.count,
        }
    }

    /// Makes openings `0..n` known (or all there are, when fewer). Returns the number of
    /// distinct openings when the generator has just run out short of `n`, for a note.
    pub fn ensure(&mut self, n: usize) -> Result<Option<usize>, Shortfall> {
        let mut ran_out = None;
        while self.suite.len() < n.min(self.count) {
            let Some(g) = &mut self.generator else { break };
            match g.next_opening() {
                Some(o) => self.suite.openings.push(o),
                None => {
                    if self.suite.is_empty() {
                        return Err(g.shortfall(1));
                    }
                    self.generator = None;
                    ran_out = Some(self.suite.len());
                }
            }
        }
        Ok(ran_out)
    }

    /// The openings known so far.
    pub fn suite(&self) -> &OpeningSuite {
        &self.suite
    }

    /// The openings `pairs` pairs will start from, for a header: `N openings`, or `up to N
    /// openings` while the generator has not yet shown that it holds them all. The first few
    /// (as many as a short match needs) are generated here, so a short match's count is exact.
    pub fn describe(&mut self, pairs: usize) -> Result<String, Shortfall> {
        self.ensure(pairs.min(OpeningConfig::default().count))?;
        let known = self.suite.len();
        Ok(match &self.generator {
            Some(_) if known < pairs.min(self.count) => format!("up to {} openings", pairs.min(self.count)),
            _ => format!("{} openings", pairs.min(known)),
        })
    }
}
