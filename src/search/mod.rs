//! Game-tree search over Connect(m,n,k,p,q) positions: PVS with a transposition table and
//! the history heuristic (the seed 003 engine), plain alpha-beta, and UCT, all sharing the
//! move generator and the evaluation.
//!
//! An [`Engine`] owns everything one player needs (evaluation, generator scratch, table,
//! history) and nothing global, so any number of engines with different weights can play in
//! one process, one per thread.
//!
//! ```
//! use evotune::game::connect::{notation::board_from_record_moves, Rules};
//! use evotune::game::connect::eval::EvalKind;
//! use evotune::search::{Engine, EngineConfig, Limits};
//! let weights = EvalKind::Roads.schema(Rules::CONNECT6).defaults();
//! let mut engine = Engine::new(EngineConfig::default(), &weights);
//! let mut board = board_from_record_moves(Rules::CONNECT6, &["j10", "k11k9"]).unwrap();
//! let result = engine.search(&mut board, &Limits::depth(2));
//! assert_eq!(result.best.stones().len(), 2);
//! ```

pub mod alphabeta;
pub mod mcts;
pub mod pvs;
pub mod tt;
pub mod vcdt;

use std::time::{Duration, Instant};

use crate::game::connect::eval::{EvalKind, Evaluator};
use crate::game::connect::movegen::{Move, MoveGen, MoveGenConfig, MoveScoring, Situation};
use crate::game::connect::{Board, Rules};
use crate::weights::Weights;

/// Scores at or beyond this magnitude are wins or losses: `MATE - n` is a win at ply n.
pub const MATE: i32 = 1_000_000_000;
/// Any score above this is a forced win.
pub const MATE_BOUND: i32 = MATE - 10_000;
/// Deepest ply the search reaches, extensions included.
pub const MAX_PLY: usize = 96;
/// Double-threat moves added to a node's moves, at most.
pub const THREAT_MOVES: usize = 8;

/// Which search a player uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum SearchKind {
    /// Principal variation search with iterative deepening, transposition table and history.
    Pvs,
    /// Plain alpha-beta: the same evaluation and generator, no PVS, table or history.
    Alphabeta,
    /// UCT Monte-Carlo tree search with the same move generator.
    Mcts,
}

impl SearchKind {
    pub fn name(self) -> &'static str {
        match self {
            SearchKind::Pvs => "pvs",
            SearchKind::Alphabeta => "alphabeta",
            SearchKind::Mcts => "mcts",
        }
    }
}

/// The ranges of the search settings, shared by the command line and GA configs so that both
/// refuse the same values: past these a game takes hours per move or memory runs out.
pub const MAX_DEPTH: u32 = 60;
pub const MAX_NODES: u64 = 1_000_000_000;
/// One hour per move.
pub const MAX_TIME_MS: u64 = 3_600_000;
/// Per engine; a game has two and every thread plays a game.
pub const MAX_TT_MIB: usize = 4096;
/// Moves kept per node by the move generator (`--width`, `[engine] width`).
pub const MAX_WIDTH: usize = 400;

/// When a search stops. Any combination; the first limit reached stops it. A search limited
/// only by depth or nodes is deterministic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Iterative deepening stops after this depth (in turns). For MCTS, a budget of
    /// [`mcts::PLAYOUTS_PER_DEPTH`] playouts per unit of depth.
    pub depth: Option<u32>,
    /// Nodes (PVS / alpha-beta) or playouts (MCTS).
    pub nodes: Option<u64>,
    /// Wall-clock milliseconds per move.
    pub time_ms: Option<u64>,
}

impl Limits {
    pub fn depth(d: u32) -> Limits {
        Limits { depth: Some(d), ..Limits::default() }
    }

    pub fn nodes(n: u64) -> Limits {
        Limits { nodes: Some(n), ..Limits::default() }
    }

    pub fn time_ms(t: u64) -> Limits {
        Limits { time_ms: Some(t), ..Limits::default() }
    }

    pub fn is_unlimited(&self) -> bool {
        self.depth.is_none() && self.nodes.is_none() && self.time_ms.is_none()
    }

    /// True when the result does not depend on the clock.
    pub fn is_deterministic(&self) -> bool {
        self.time_ms.is_none()
    }

    /// A short description such as `depth 4` or `time 1000ms`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes {n}"));
        }
        if let Some(t) = self.time_ms {
            parts.push(format!("time {t}ms"));
        }
        if parts.is_empty() {
            "unlimited".into()
        } else {
            parts.join(", ")
        }
    }
}

/// Everything about a player except its weights and limits.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EngineConfig {
    pub search: SearchKind,
    pub eval: EvalKind,
    pub movegen: MoveGenConfig,
    /// Transposition table size in MiB (one table per engine, i.e. per thread).
    pub tt_mib: usize,
    /// UCT exploration constant.
    pub uct_c: f64,
    /// Threat-space search at the root: attacking moves of the longest forced win by
    /// continuous double threats looked for before the main search (0: off).
    pub vcdt_depth: u32,
    /// Positions the threat-space search may visit per move.
    pub vcdt_nodes: u64,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            search: SearchKind::Pvs,
            eval: EvalKind::Roads,
            movegen: MoveGenConfig::default(),
            tt_mib: 16,
            uct_c: 0.7,
            vcdt_depth: 4,
            vcdt_nodes: 4_000,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub best: Move,
    /// Score for the side to move (see [`MATE`]).
    pub score: i32,
    /// Last completed depth (PVS / alpha-beta); for MCTS the deepest tree node reached, in
    /// turns from the root.
    pub depth: u32,
    /// Nodes visited (PVS / alpha-beta) or playouts (MCTS).
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Move>,
}

impl SearchResult {
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

/// One player: an evaluation of one weight table plus a searcher's working memory.
pub struct Engine {
    pub config: EngineConfig,
    rules: Rules,
    evaluator: Evaluator,
    movegen: MoveGen,
    tt: tt::TranspositionTable,
    history: Vec<u32>,
    /// Move lists by ply, reused to avoid allocation.
    stack: Vec<Vec<Move>>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// The random stream of MCTS playouts, reset at every new game.
    rng_seed: u64,
    /// Generated moves before they join a node's list.
    gen_scratch: Vec<Move>,
    /// Attack lists of the threat-space search, by ply.
    vcdt_scratch: Vec<Vec<(usize, Move)>>,
    /// Searches since the last new game: each MCTS search draws its own stream from it.
    searches: u64,
    /// The MCTS node arena, reused by every search (bounded by its cap).
    tree: mcts::Tree,
}

impl Engine {
    /// An engine for `weights`, which must belong to `config.eval`'s schema; the game is the
    /// schema's.
    pub fn new(config: EngineConfig, weights: &Weights) -> Engine {
        let rules = Rules::for_game(weights.schema().game).expect("every schema names a known game");
        let board = Board::new(rules);
        Engine {
            rules,
            evaluator: Evaluator::new(config.eval, weights),
            movegen: MoveGen::with_scoring(
                config.movegen,
                MoveScoring::from_weights(weights, rules.k as usize),
                &board,
            ),
            tt: tt::TranspositionTable::new(if config.search == SearchKind::Pvs { config.tt_mib } else { 1 }),
            history: vec![0; rules.cells()],
            stack: vec![Vec::new(); MAX_PLY + 2],
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stopped: false,
            rng_seed: 0,
            gen_scratch: Vec::new(),
            vcdt_scratch: vec![Vec::new(); 32],
            searches: 0,
            tree: mcts::Tree::default(),
            config,
        }
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Forgets everything learnt in earlier games, so that a game is a pure function of its
    /// inputs whichever games this engine played before. `seed` drives MCTS playouts.
    pub fn new_game(&mut self, seed: u64) {
        self.tt.clear();
        self.history.fill(0);
        self.rng_seed = seed;
        self.searches = 0;
    }

    pub fn evaluator(&self) -> &Evaluator {
        &self.evaluator
    }

    /// Bytes of the transposition table (fixed at construction).
    pub fn table_bytes(&self) -> usize {
        self.tt.size_bytes()
    }

    /// Searches the position (which must be at the start of a turn and not over) and returns
    /// the best move found. The board is left as it was.
    pub fn search(&mut self, board: &mut Board, limits: &Limits) -> SearchResult {
        let start = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.time_ms.map(|t| start + Duration::from_millis(t));
        let mut result = match self.config.search {
            SearchKind::Pvs | SearchKind::Alphabeta => self.iterative_deepening(board, limits, start),
            SearchKind::Mcts => self.uct(board, limits),
        };
        result.elapsed = start.elapsed();
        result.nodes = self.nodes;
        result
    }

    /// The static evaluation of a position for the side to move.
    pub fn evaluate(&self, board: &Board) -> i32 {
        self.evaluator.evaluate(board)
    }

    /// Counts a node and checks the node and time limits.
    #[inline]
    fn tick(&mut self) -> bool {
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

    /// What the rules and the threats decide at a node before any move is searched: the
    /// node's score (`Err`), or the situation to search (`Ok`). Shared by PVS and
    /// alpha-beta, so that the two differ only in how they search, as the papers compare them.
    ///
    /// A side with a threat road wins at once; a side facing threats it cannot block in one
    /// turn loses; otherwise the horizon scores the position statically, threats included
    /// (the opponent's roads of 4 and 5 are what the `opp4` / `opp5` weights price). Searching
    /// blocks beyond the horizon was tried and explodes: every block with a free stone can
    /// make a counter-threat, and chains of them grow exponentially; deep forcing lines are
    /// the threat-space search's job.
    #[inline]
    fn node_entry(&mut self, board: &Board, depth: i32, ply: usize) -> Result<Situation, i32> {
        if board.winner().is_some() {
            // The previous move completed a line: the side to move has lost.
            return Err(-(MATE - ply as i32));
        }
        match self.movegen.situation(board) {
            Situation::Win => Err(MATE - (ply as i32 + 1)),
            Situation::Lost => Err(-(MATE - (ply as i32 + 2))),
            Situation::Full => Err(0),
            _ if depth <= 0 || ply >= MAX_PLY => Err(self.evaluator.evaluate(board)),
            s => Ok(s),
        }
    }

    /// Generates the root's moves (double threats included) and the result as far as it is
    /// known before searching: the first move, and for a position already decided (a win
    /// now, a lost position, a full board) its exact score, which no search changes.
    fn root(&mut self, board: &mut Board, moves: &mut Vec<Move>) -> (Situation, SearchResult) {
        let situation = self.movegen.generate_with_threats(board, THREAT_MOVES, moves);
        let best = moves.first().copied().unwrap_or(Move::NONE);
        let score = match situation {
            Situation::Win => MATE - 1,
            Situation::Lost => -(MATE - 2),
            _ => 0,
        };
        let pv = if best.is_none() { Vec::new() } else { vec![best] };
        (situation, SearchResult { best, score, depth: 0, nodes: 0, elapsed: Duration::ZERO, pv })
    }

    /// The moves of an interior node. Where at least two turns remain, moves making double
    /// threats are added: one making three threats wins, and the child's node entry sees it.
    #[inline]
    fn generate(&mut self, board: &mut Board, depth: i32, moves: &mut Vec<Move>) {
        if depth >= 2 {
            self.movegen.generate_with_threats(board, THREAT_MOVES, moves);
        } else {
            self.movegen.generate(board, moves);
        }
    }

    fn past_deadline_fraction(&self, start: Instant, fraction: f64) -> bool {
        match self.deadline {
            Some(d) => {
                let total = d.saturating_duration_since(start).as_secs_f64();
                start.elapsed().as_secs_f64() >= total * fraction
            }
            None => false,
        }
    }
}

/// Plays a move's stones; returns how many were placed (fewer if an early stone won).
#[inline]
pub fn make_move(board: &mut Board, m: Move) -> usize {
    let mut placed = 0;
    for &c in m.stones() {
        board.play(c);
        placed += 1;
        if board.winner().is_some() {
            break;
        }
    }
    placed
}

#[inline]
pub fn unmake_move(board: &mut Board, placed: usize) {
    for _ in 0..placed {
        board.undo();
    }
}
