//! Game-tree search, generic over the game: PVS with a transposition table and the history
//! heuristic (the seed 003 engine), plain alpha-beta, and UCT, all sharing the game's move
//! generator and evaluation.
//!
//! An [`Engine`] owns everything one player needs (evaluation, generator scratch, table,
//! history) and nothing global, so any number of engines with different weights can play in
//! one process, one per thread. It is compiled once per game ([`Searchable`]): the game's
//! hooks (its tactics at node entry, its threat-space search at the root, its playouts) are
//! called without dynamic dispatch.
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
pub mod pvs;
pub mod tt;

use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;

use crate::core::game::{Evaluate, Game, GameMove, MoveOf, Position};
use crate::core::limits::Limits;
use crate::core::settings::{EngineSettings, SearchKind};
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

/// A game the engine can search: its evaluation and move generator, and the hooks that make
/// the search exact where the game's tactics allow.
pub trait Searchable: Game {
    /// A player's evaluation, unpacked from its weight table.
    type Eval: Evaluate<Self::Position>;
    /// The move generator and whatever working memory the game's hooks keep between calls.
    type Gen: Send;

    /// The evaluation named `eval` (one of [`Game::evaluations`], or a variant reading the
    /// same weights) of a table.
    fn evaluator(&self, eval: &str, weights: &Weights) -> Self::Eval;

    /// The move generator of a player with these settings and weights (move-order weights are
    /// part of a table).
    fn generator(&self, settings: &EngineSettings, weights: &Weights) -> Self::Gen;

    /// Entries of the history table: every [`GameMove::history_keys`] is below it.
    fn history_size(&self) -> usize;

    /// What the rules and the game's tactics decide at a node before any move is searched:
    /// the node's score (`Err`), or `Ok` to search it. `depth` is the depth left: at 0 or
    /// below the node is scored statically.
    fn node_entry(
        gen: &mut Self::Gen,
        eval: &Self::Eval,
        pos: &Self::Position,
        depth: i32,
        ply: usize,
    ) -> Result<(), i32>;

    /// The moves of an interior node with `depth` turns left, best first.
    fn generate(gen: &mut Self::Gen, pos: &Self::Position, depth: i32, out: &mut Vec<MoveOf<Self>>);

    /// The moves of the root, best first, and what is known before searching.
    fn root(gen: &mut Self::Gen, pos: &Self::Position, out: &mut Vec<MoveOf<Self>>) -> Root;

    /// Whether a move remembered from another position (the transposition table's) can be
    /// played here as it stands.
    fn playable(pos: &Self::Position, m: MoveOf<Self>) -> bool;

    /// Whether a killer (a move that cut off at the same ply in another position) may be tried
    /// here before any move is generated. A game turns killers on by allowing them where a
    /// move that is merely playable is also sensible (Connect: quiet positions, where any
    /// free pair is a real candidate); the default keeps them off.
    fn killer_playable(pos: &Self::Position, m: MoveOf<Self>) -> bool {
        let _ = (pos, m);
        false
    }

    /// Whether the principal variation may follow a table move here (a game may allow what
    /// [`playable`](Self::playable) refuses, e.g. a move cut short by its winning stone).
    fn replayable(pos: &Self::Position, m: MoveOf<Self>) -> bool {
        Self::playable(pos, m)
    }

    /// A proven win at the root (quiet, or facing threats to block) by the game's threat-space
    /// search, with its score, within the settings' budget (`clock` counts its nodes). The
    /// default: none.
    fn prove_win(
        gen: &mut Self::Gen,
        clock: &mut Clock,
        pos: &mut Self::Position,
        settings: &EngineSettings,
    ) -> Option<(MoveOf<Self>, i32)> {
        let _ = (gen, clock, pos, settings);
        None
    }

    /// Whether the side to move has a proven win by the same search (used after the main
    /// search to reject root moves that allow one). The default: never.
    fn has_proven_win(
        gen: &mut Self::Gen,
        clock: &mut Clock,
        pos: &mut Self::Position,
        settings: &EngineSettings,
    ) -> bool {
        let _ = (gen, clock, pos, settings);
        false
    }

    /// Games with chance events (dice) search with their own chance-aware searches: the result
    /// replaces the generic PVS / alpha-beta / UCT, which assume a player moves at every
    /// node. `seed` is the search's own random stream (from the game seed and the number of
    /// searches since), so a search limited by nodes or depth is a pure function of its
    /// inputs. The default: none (the generic searches run).
    fn chance_search(
        gen: &mut Self::Gen,
        eval: &Self::Eval,
        pos: &mut Self::Position,
        settings: &EngineSettings,
        limits: &Limits,
        clock: &mut Clock,
        seed: u64,
    ) -> Option<SearchResult<MoveOf<Self>>> {
        let _ = (gen, eval, pos, settings, limits, clock, seed);
        None
    }

    /// UCT: what the game's exact situations say at a leaf, if anything.
    fn exact(gen: &mut Self::Gen, pos: &Self::Position) -> Option<Exact>;

    /// UCT: plays a cheap seeded policy from the position for a few turns and returns the
    /// first player's reward in [0, 1]; the position is left as it was.
    fn playout(gen: &mut Self::Gen, eval: &Self::Eval, pos: &mut Self::Position, rng: &mut ChaCha8Rng) -> f64;
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
}

impl Clock {
    /// A clock without limits, at zero nodes.
    pub fn unlimited() -> Clock {
        Clock { nodes: 0, node_limit: u64::MAX, deadline: None, stopped: false }
    }

    /// Counts a node and checks the node and time limits; true when the search must stop.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.stopped = true;
        } else if self.nodes & 1023 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                }
            }
        }
        self.stopped
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
        if self.nodes < self.node_limit && self.deadline.is_none_or(|d| Instant::now() < d) {
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

/// One player: an evaluation of one weight table plus a searcher's working memory.
pub struct Engine<G: Searchable> {
    pub settings: EngineSettings,
    game: G,
    eval: G::Eval,
    gen: G::Gen,
    tt: tt::TranspositionTable<MoveOf<G>>,
    history: Vec<u32>,
    /// The last two moves that cut off at each ply, newest first.
    killers: Vec<[MoveOf<G>; 2]>,
    /// Move lists by ply, reused to avoid allocation.
    stack: Vec<Vec<MoveOf<G>>>,
    clock: Clock,
    /// The random stream of MCTS playouts, reset at every new game.
    rng_seed: u64,
    /// Generated moves before they join a node's list.
    gen_scratch: Vec<MoveOf<G>>,
    /// Searches since the last new game: each MCTS search draws its own stream from it.
    searches: u64,
    /// The MCTS node arena, reused by every search (bounded by its cap).
    tree: mcts::Tree<MoveOf<G>, UndoOf<G>>,
}

/// What taking back a move of a game needs.
pub type UndoOf<G> = <<G as Game>::Position as Position>::Undo;

impl<G: Searchable> Engine<G> {
    /// An engine playing `weights` (a table of one of the game's schemas) with the evaluation
    /// the settings name, or the table's own when they name none.
    pub fn new(settings: EngineSettings, weights: &Weights) -> Engine<G> {
        let game = G::default();
        let eval = settings.eval.as_deref().unwrap_or(weights.schema().eval);
        Engine {
            eval: game.evaluator(eval, weights),
            gen: game.generator(&settings, weights),
            tt: tt::TranspositionTable::new(if settings.search == SearchKind::Pvs { settings.tt_mib } else { 1 }),
            history: vec![0; game.history_size()],
            killers: vec![[MoveOf::<G>::NONE; 2]; MAX_PLY + 2],
            stack: vec![Vec::new(); MAX_PLY + 2],
            clock: Clock::unlimited(),
            rng_seed: 0,
            gen_scratch: Vec::new(),
            searches: 0,
            tree: mcts::Tree::default(),
            settings,
            game,
        }
    }

    pub fn game(&self) -> G {
        self.game
    }

    /// Forgets everything learnt in earlier games, so that a game is a pure function of its
    /// inputs whichever games this engine played before. `seed` drives MCTS playouts.
    pub fn new_game(&mut self, seed: u64) {
        self.tt.clear();
        self.history.fill(0);
        self.killers.fill([MoveOf::<G>::NONE; 2]);
        self.rng_seed = seed;
        self.searches = 0;
    }

    pub fn evaluator(&self) -> &G::Eval {
        &self.eval
    }

    /// Bytes of the transposition table (fixed at construction).
    pub fn table_bytes(&self) -> usize {
        self.tt.size_bytes()
    }

    /// Searches the position (which must be at the start of a turn and not over) and returns
    /// the best move found. The position is left as it was.
    pub fn search(&mut self, pos: &mut G::Position, limits: &Limits) -> SearchResult<MoveOf<G>> {
        let start = Instant::now();
        self.clock.nodes = 0;
        self.clock.stopped = false;
        self.clock.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.clock.deadline = limits.time_ms.map(|t| start + Duration::from_millis(t));
        self.searches += 1;
        let seed = mcts::stream_seed(self.rng_seed, self.searches);
        let chance = G::chance_search(&mut self.gen, &self.eval, pos, &self.settings, limits, &mut self.clock, seed);
        let mut result = match chance {
            Some(result) => result,
            None => match self.settings.search {
                SearchKind::Pvs | SearchKind::Alphabeta => self.iterative_deepening(pos, limits, start),
                SearchKind::Mcts => self.uct(pos, limits),
            },
        };
        result.elapsed = start.elapsed();
        result.nodes = self.clock.nodes;
        result
    }

    /// The static evaluation of a position for the side to move.
    pub fn evaluate(&self, pos: &G::Position) -> i32 {
        self.eval.evaluate(pos)
    }

    /// Counts a node and checks the node and time limits.
    #[inline]
    fn tick(&mut self) -> bool {
        self.clock.tick()
    }

    #[inline]
    fn node_entry(&mut self, pos: &G::Position, depth: i32, ply: usize) -> Result<(), i32> {
        G::node_entry(&mut self.gen, &self.eval, pos, depth, ply)
    }

    /// Generates the root's moves and the result as far as it is known before searching: the
    /// first move, and for a decided position its exact score.
    fn root(&mut self, pos: &G::Position, moves: &mut Vec<MoveOf<G>>) -> (Root, SearchResult<MoveOf<G>>) {
        let root = G::root(&mut self.gen, pos, moves);
        let best = moves.first().copied().unwrap_or(MoveOf::<G>::NONE);
        let score = match root {
            Root::Decided(s) => s,
            Root::Open => 0,
        };
        let pv = if best.is_none() { Vec::new() } else { vec![best] };
        (root, SearchResult { best, score, depth: 0, nodes: 0, elapsed: Duration::ZERO, pv })
    }

    #[inline]
    fn generate(&mut self, pos: &G::Position, depth: i32, moves: &mut Vec<MoveOf<G>>) {
        G::generate(&mut self.gen, pos, depth, moves);
    }
}
