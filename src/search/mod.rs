//! Game-tree search, generic over the game. A game says how it is searched by its
//! [`Searchable::Searcher`]: the generic [`TreeSearch`] (PVS with a transposition table and
//! the history heuristic, the engine of Wang et al. 2021; plain alpha-beta; UCT) for games
//! that offer its hooks, or a search of its own (EinStein's chance-aware searches).
//!
//! The tree searches ask a game only for the capabilities they use: [`TreeGame`] (the move
//! generator and the rules' verdict at a node, for PVS and alpha-beta), [`Playouts`] (UCT)
//! and [`Tactics`] (a threat-space search at the root, or [`NoTactics`]).
//!
//! An [`Engine`] owns everything one player needs (evaluation, generator scratch, table,
//! history) and nothing global, so any number of engines with different weights can play in
//! one process, one per thread. It is compiled once per game: the game's hooks are called
//! without dynamic dispatch.
//!
//! ```
//! use evotune::core::limits::Limits;
//! use evotune::core::settings::EngineSettings;
//! use evotune::games::connect::{notation::board_from_record_moves, Connect6, Rules};
//! use evotune::search::Engine;
//! let weights = evotune::games::connect::eval::CONNECT6_ROADS.defaults();
//! let mut engine = Engine::<Connect6>::new(EngineSettings::default(), &weights);
//! let mut board = board_from_record_moves(Rules::CONNECT6, &["j10", "k11k9"]).unwrap();
//! let result = engine.search(&mut board, &Limits::depth(2));
//! assert_eq!(result.best.stones().len(), 2);
//! ```

pub mod alphabeta;
pub mod mcts;
mod pool;
pub mod pvs;
mod smp;
pub mod tree;
pub mod tt;

pub use tree::{LateMoves, NoTactics, Playouts, Quiescence, Tactics, TreeGame, TreeSearch};

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::core::game::{Evaluate, Game, MoveOf, Position};
use crate::core::limits::Limits;
use crate::core::settings::EngineSettings;
use crate::core::weights::Weights;

/// Scores at or beyond this magnitude are wins or losses: `MATE - n` is a win at ply n.
pub const MATE: i32 = 1_000_000_000;
/// Any score above this is a forced win.
pub const MATE_BOUND: i32 = MATE - 10_000;
/// Deepest ply the search reaches, extensions included.
pub const MAX_PLY: usize = 96;

/// What is known at the root before any search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Root {
    /// The position is decided (a win now, a lost position, a full board): this is its exact
    /// score, which no search changes; the first generated move is the one to play.
    Decided(i32),
    /// There is something to search.
    Open,
}

/// What the exact situations of a game say about a leaf, for the side to move, in turns to
/// the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exact {
    Win(u16),
    Loss(u16),
    Draw,
}

/// A game the engine can search: its evaluation, and the searcher that searches it.
pub trait Searchable: Game {
    /// A player's evaluation, unpacked from its weight table.
    type Eval: Evaluate<Self::Position>;
    /// How a player of this game searches: [`TreeSearch`] over the game's [`TreeGame`]
    /// hooks, or the game's own search.
    type Searcher: Searcher<Self>;

    /// The evaluation named `eval` (one of [`Game::evaluations`], or a variant reading the
    /// same weights) of a table.
    fn evaluator(&self, eval: &str, weights: &Weights) -> Self::Eval;

    /// Readies a position for static evaluations by `eval` outside any search (`fit-eval`
    /// scores each position many times): a game whose evaluation needs more kept with the
    /// position than its rules do counts it here once. By default nothing.
    fn prepare_static(&self, _eval: &str, _pos: &mut Self::Position) {}

    /// Whether a static evaluation is a fair judge of this position, one where no tactics a
    /// search would resolve first are pending (Gomoku: neither side has a four). Positions
    /// where it says no are left out of `fit-eval`'s labels. By default every position.
    fn quiet_for_static(&self, _pos: &Self::Position) -> bool {
        true
    }
}

/// The working memory and the algorithms with which one player searches positions of `G`.
pub trait Searcher<G: Searchable>: Send + Sized {
    /// A player of `weights` (a table of one of the game's schemas) with the evaluation the
    /// settings name, or the table's own when they name none.
    fn new(settings: EngineSettings, weights: &Weights) -> Self;

    /// Forgets everything learnt in earlier games, so that a game is a pure function of its
    /// inputs whichever games this player played before. `seed` drives its random choices.
    fn new_game(&mut self, seed: u64);

    /// Searches the position (at the start of a turn and not over) and returns the best move
    /// found. The position is left as it was.
    fn search(&mut self, pos: &mut G::Position, limits: &Limits) -> SearchResult<MoveOf<G>>;

    fn evaluator(&self) -> &G::Eval;

    /// Bytes of its tables (fixed at construction).
    fn table_bytes(&self) -> usize;

    /// Whether a principal variation may follow `m` in `pos` (a variation may hold moves
    /// from a table, which a position need not allow).
    fn replayable(pos: &G::Position, m: MoveOf<G>) -> bool;

    /// Where this player's move generator lists each sample's move (the moves it makes for
    /// the sample's position at the root), or `None` when its searches order no such list.
    fn root_ranks(&mut self, samples: &[(G::Position, MoveOf<G>)]) -> Option<Vec<MoveRank>> {
        let _ = samples;
        None
    }
}

/// Where a generator lists a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveRank {
    /// The position is decided before any search (a win in one, a loss, a full board): the
    /// generator's order does not matter there.
    Decided,
    /// At this place of the list (0: first).
    Listed(usize),
    /// Not in the list: a search with this generator never tries the move.
    Unlisted,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    pub best: M,
    /// Score for the side to move (see [`MATE`]).
    pub score: i32,
    /// Last completed depth (PVS / alpha-beta); for MCTS the deepest tree node reached, in
    /// turns from the root.
    pub depth: u32,
    /// Nodes visited (PVS / alpha-beta) or playouts (MCTS).
    pub nodes: u64,
    /// The time the search took by its own clock: the wall clock, or the positions its main
    /// thread visited when it counts time in positions (`clock_nps`).
    pub elapsed: Duration,
    pub pv: Vec<M>,
}

impl<M> SearchResult<M> {
    /// Nodes per second of this search.
    pub fn nps(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Turns to a forced win (positive) or loss (negative), if the score is a mate score.
    pub fn mate_in(&self) -> Option<i32> {
        if self.score > MATE_BOUND {
            Some((MATE - self.score + 1) / 2)
        } else if self.score < -MATE_BOUND {
            Some(-(MATE + self.score) / 2)
        } else {
            None
        }
    }
}

/// The node counter and the limits of one search, shared with the game's hooks so that their
/// own searches count against the same budget.
#[derive(Clone, Debug)]
pub struct Clock {
    pub nodes: u64,
    pub node_limit: u64,
    pub deadline: Option<Instant>,
    pub stopped: bool,
    /// A helper thread's stop signal from its search's main thread (none on a main thread).
    pub stop: Option<Arc<AtomicBool>>,
    /// On several threads, the signal to give up the root move this thread searches (another
    /// thread finished it): it stops the search as `stop` does, but only for that move (see
    /// [`Clock::resume_if_abandoned`]).
    pub abandon: Option<Arc<AtomicBool>>,
    /// Of `nodes`, the work [`Clock::charge`] counted that visited no position: it counts
    /// against the limits but is taken back out of the nodes a search reports.
    pub charged: u64,
    /// Time counted in positions instead of read from the wall clock (`clock_nps`).
    pub counted: Option<CountedTime>,
}

/// A clock whose time is the positions visited at a fixed rate: a thread that has visited n
/// positions since `before` stands at `start + (before + n) / nps` seconds. The search then
/// spends its time as it would on a core of its own at that speed, whatever the machine's
/// load; on one thread it is deterministic.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CountedTime {
    pub start: Instant,
    /// Positions a second on each thread.
    pub nps: u64,
    /// Positions' worth of time counted besides this thread's own positions: before its
    /// clock started (a helper thread joins its main thread's search at the main thread's
    /// time), waiting for a helper ([`Clock::catch_up`]), and the work [`Clock::spend`]
    /// counts.
    pub before: u64,
}

impl Clock {
    /// A clock without limits, at zero nodes.
    pub fn unlimited() -> Clock {
        Clock {
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stopped: false,
            stop: None,
            abandon: None,
            charged: 0,
            counted: None,
        }
    }

    /// Starts a search at `start` under `limits`: no nodes yet, not stopped; its time read
    /// from the wall clock, or with `clock_nps` > 0 counted in positions at that rate.
    pub fn start(&mut self, limits: &Limits, start: Instant, clock_nps: u64) {
        self.nodes = 0;
        self.charged = 0;
        self.stopped = false;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.time_ms.map(|t| start + Duration::from_millis(t));
        self.counted = (clock_nps > 0).then_some(CountedTime { start, nps: clock_nps, before: 0 });
    }

    /// Starts a helper thread's part of the search whose main thread's clock is `main`: no
    /// nodes yet, not stopped, the main thread's deadline, at most `node_limit` positions,
    /// and a counted clock standing at the main thread's time.
    pub fn follow(&mut self, main: &Clock, node_limit: u64) {
        (self.nodes, self.charged, self.stopped) = (0, 0, false);
        (self.node_limit, self.deadline) = (node_limit, main.deadline);
        self.counted = main.counted.map(|c| CountedTime { before: c.before + main.nodes, ..c });
    }

    /// After this (the main) thread waited for a helper whose clock reached `end`: a
    /// counted clock moves on to `end` (as the wall clock did while it waited), so that the
    /// time a thread spends waiting for another is spent on the counted clock too.
    pub fn catch_up(&mut self, end: Instant) {
        let now = self.now();
        if let Some(c) = self.counted.as_mut() {
            let behind = end.saturating_duration_since(now).as_nanos();
            c.before += (behind * u128::from(c.nps) / 1_000_000_000) as u64;
        }
    }

    /// The time now: the wall clock's, or the positions visited at the counted rate.
    pub fn now(&self) -> Instant {
        match self.counted {
            None => Instant::now(),
            Some(c) => {
                let positions = u128::from(c.before + self.nodes);
                c.start + Duration::from_nanos((positions * 1_000_000_000 / u128::from(c.nps)) as u64)
            }
        }
    }

    /// Counts a node and checks the node and time limits; true when the search must stop.
    /// The clock is read every 1024 nodes, a stop signal every 256: the main thread waits for
    /// its helpers to stop, and 1024 nodes took a helper a millisecond to reach.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.stopped = true;
        } else if self.nodes & 255 == 0 {
            if self.nodes & 1023 == 0 {
                if let Some(d) = self.deadline {
                    if self.now() >= d {
                        self.stopped = true;
                    }
                }
            }
            if self.stop.as_ref().is_some_and(|stop| stop.load(Ordering::Relaxed))
                || self.abandon.as_ref().is_some_and(|abandon| abandon.load(Ordering::Relaxed))
            {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// After a search stopped: when none of the search's own limits stopped it (its nodes,
    /// its deadline, its stop signal), only [`Clock::abandon`] did, and the clock runs on;
    /// returns whether it does.
    pub fn resume_if_abandoned(&mut self) -> bool {
        let limited = self.nodes >= self.node_limit
            || self.deadline.is_some_and(|d| self.now() >= d)
            || self.stop.as_ref().is_some_and(|stop| stop.load(Ordering::Relaxed));
        if !limited {
            self.stopped = false;
        }
        !limited
    }

    /// Whether the search's time is the wall clock's (a deadline, not counted in positions):
    /// its result then depends on timing anyway, and the main thread need not wait for a
    /// helper to start work it has finished alone.
    pub fn on_wall_clock(&self) -> bool {
        self.deadline.is_some() && self.counted.is_none()
    }

    /// Counts `n` positions' worth of work done outside the nodes (a move list) against the
    /// node limit, until [`Clock::take_back_charged`]; true when the search must stop.
    pub fn charge(&mut self, n: u64) -> bool {
        self.nodes = self.nodes.saturating_add(n);
        self.charged = self.charged.saturating_add(n);
        if self.nodes >= self.node_limit {
            self.stopped = true;
        }
        self.stopped
    }

    /// Counts `n` positions' worth of time on a clock counted in positions, for work that
    /// costs more time than its positions (a threat-space search's positions) or visits none
    /// (a move list); the wall clock sees that time anyway. The nodes and the node limit are
    /// not touched. True when the search must stop (its deadline has passed).
    pub fn spend(&mut self, n: u64) -> bool {
        if let Some(c) = self.counted.as_mut() {
            c.before = c.before.saturating_add(n);
            if self.deadline.is_some_and(|d| self.now() >= d) {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Takes the work [`Clock::charge`] counted back out of the nodes (after the part of
    /// the search it bounded).
    pub fn take_back_charged(&mut self) {
        self.nodes -= std::mem::take(&mut self.charged);
    }

    /// Narrows the limits for one part of a search that started at `start`: `time_share` of
    /// its time (when it has a deadline; 1.0 keeps it) and at most `node_budget` more nodes.
    /// [`Clock::widen`] puts the returned limits back.
    pub fn narrow(&mut self, start: Instant, time_share: f64, node_budget: u64) -> OuterLimits {
        let outer = OuterLimits { node_limit: self.node_limit, deadline: self.deadline };
        if let (Some(d), true) = (self.deadline, time_share < 1.0) {
            self.deadline = Some(start + d.saturating_duration_since(start).mul_f64(time_share));
        }
        self.node_limit = self.node_limit.min(self.nodes.saturating_add(node_budget));
        outer
    }

    /// Puts back the limits [`Clock::narrow`] narrowed. A stop that only the narrower limits
    /// caused is lifted: the rest of the search may go on.
    pub fn widen(&mut self, outer: OuterLimits) {
        (self.node_limit, self.deadline) = (outer.node_limit, outer.deadline);
        if self.nodes < self.node_limit && self.deadline.is_none_or(|d| self.now() < d) {
            self.stopped = false;
        }
    }
}

/// The limits of a whole search while a part of it runs under narrower ones.
#[must_use = "the limits go back with Clock::widen"]
pub struct OuterLimits {
    node_limit: u64,
    deadline: Option<Instant>,
}

/// One player: an evaluation of one weight table plus its searcher's working memory.
pub struct Engine<G: Searchable> {
    searcher: G::Searcher,
    /// What the engine was made of, to make it again with other values.
    settings: EngineSettings,
    weights: Weights,
}

/// What taking back a move of a game needs.
pub type UndoOf<G> = <<G as Game>::Position as Position>::Undo;

impl<G: Searchable> Engine<G> {
    /// An engine playing `weights` (a table of one of the game's schemas) with the evaluation
    /// the settings name, or the table's own when they name none.
    pub fn new(settings: EngineSettings, weights: &Weights) -> Engine<G> {
        Engine { searcher: G::Searcher::new(settings.clone(), weights), settings, weights: weights.clone() }
    }

    /// The table the engine plays.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Plays `weights` (a table of the same game) from now on: the engine is made again as
    /// [`Engine::new`] makes it with its settings, so it is the engine a new process of
    /// these values would be, having forgotten everything learnt before.
    pub fn set_weights(&mut self, weights: Weights) {
        self.searcher = G::Searcher::new(self.settings.clone(), &weights);
        self.weights = weights;
    }

    pub fn game(&self) -> G {
        G::default()
    }

    /// Forgets everything learnt in earlier games (see [`Searcher::new_game`]).
    pub fn new_game(&mut self, seed: u64) {
        self.searcher.new_game(seed);
    }

    pub fn evaluator(&self) -> &G::Eval {
        self.searcher.evaluator()
    }

    /// Bytes of the engine's tables (fixed at construction).
    pub fn table_bytes(&self) -> usize {
        self.searcher.table_bytes()
    }

    /// Searches the position (which must be at the start of a turn and not over) and returns
    /// the best move found. The position is left as it was.
    pub fn search(&mut self, pos: &mut G::Position, limits: &Limits) -> SearchResult<MoveOf<G>> {
        self.searcher.search(pos, limits)
    }

    /// The static evaluation of a position for the side to move.
    pub fn evaluate(&self, pos: &G::Position) -> i32 {
        self.searcher.evaluator().evaluate(pos)
    }

    /// Where this engine's move generator lists each sample's move at the root, if its
    /// searches order one list of moves (see [`Searcher::root_ranks`]).
    pub fn root_ranks(&mut self, samples: &[(G::Position, MoveOf<G>)]) -> Option<Vec<MoveRank>> {
        self.searcher.root_ranks(samples)
    }
}

#[cfg(test)]
mod tests {
    use super::Clock;
    use crate::core::limits::Limits;
    use std::time::{Duration, Instant};

    /// On a clock counted in positions, work spent moves the time on by its positions' worth
    /// (1,000 at 100,000 a second: 10 ms) and stops the search past its deadline, without
    /// touching the nodes; the wall clock's time is its own.
    #[test]
    fn spent_work_moves_only_a_counted_clock_on() {
        let start = Instant::now();
        let mut counted = Clock::unlimited();
        counted.start(&Limits::time_ms(25), start, 100_000);
        assert!(!counted.spend(1_000));
        assert_eq!(counted.now(), start + Duration::from_millis(10));
        assert_eq!(counted.nodes, 0);
        assert!(!counted.spend(1_000), "20 ms of 25");
        assert!(counted.spend(500), "25 ms of 25");
        assert!(counted.stopped);

        let mut wall = Clock::unlimited();
        wall.start(&Limits::time_ms(25), start, 0);
        assert!(!wall.spend(1_000_000));
        assert!(wall.now() < start + Duration::from_secs(1));
        assert_eq!((wall.nodes, wall.charged), (0, 0));
    }
}
