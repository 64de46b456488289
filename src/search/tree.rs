//! The generic tree searches (PVS, alpha-beta, UCT) and the capabilities they ask of a game:
//! [`TreeGame`] for the move generator and the rules' verdict at a node, [`Playouts`] for
//! UCT, and [`Tactics`] for a threat-space search at the root. A game whose
//! [`Searchable::Searcher`] is a [`TreeSearch`] implements the first two and names its
//! tactics (or [`NoTactics`]).

use std::marker::PhantomData;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;

use super::pool::Helper;
use super::smp::{HelperDone, HelperThread};
use super::{mcts, tt, Clock, Exact, MoveRank, Root, SearchResult, Searchable, Searcher, UndoOf, MAX_PLY};
use crate::core::game::{Evaluate, GameMove, MoveOf};
use crate::core::limits::Limits;
use crate::core::settings::{EngineSettings, SearchKind};
use crate::core::weights::Weights;

/// A game the tree searches can search: its move generator, and what the rules and its
/// tactics decide at a node.
pub trait TreeGame: Searchable {
    /// The move generator and whatever working memory the game's hooks keep between calls.
    type Gen: Send;

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

    /// The moves of an interior node in stages (0, 1, ...), best first within each: a game
    /// may list a few likely moves cheap to find first, so that a node cut off by one of them
    /// never pays for the rest. The stages together hold every move of
    /// [`generate`](Self::generate) (a move of an early stage may come again later, and a
    /// first stage may add a move `generate` leaves out). Returns whether a later stage
    /// follows. By default one stage: every move.
    fn generate_stage(
        gen: &mut Self::Gen,
        pos: &Self::Position,
        depth: i32,
        stage: usize,
        out: &mut Vec<MoveOf<Self>>,
    ) -> bool {
        debug_assert_eq!(stage, 0, "a single-stage generator asked for stage {stage}");
        Self::generate(gen, pos, depth, out);
        false
    }

    /// Readies a position for this generator's searches before each search starts: a game
    /// whose evaluation needs more kept with the position than its rules do asks for it here
    /// (Gomoku's `cells` patterns), so that no other player pays for it. By default nothing.
    fn prepare(gen: &Self::Gen, pos: &mut Self::Position) {
        let _ = (gen, pos);
    }

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

    /// How the search reduces and prunes the late quiet moves of the nodes
    /// [`reducible_node`](Self::reducible_node) allows. The default reduces and prunes
    /// nothing and never asks (Connect6 and the others).
    const LATE_MOVES: LateMoves = LateMoves::NONE;

    /// Whether the search may reduce (search shallower first) and prune the late quiet moves
    /// of this interior node: a node where a late quiet move is a choice the generator ranked
    /// low, not the one answer that must be tried (Gomoku: no side has a four). Asked at most
    /// once a node, before its first late move. The default, no, keeps a
    /// game's tree exactly as it was (Connect6 and the others).
    fn reducible_node(pos: &Self::Position) -> bool {
        let _ = pos;
        false
    }

    /// Whether `m`, just played (`pos` is the position after it), is a quiet move that a
    /// reducible node may search shallower first: one that makes no threat the opponent must
    /// answer. Asked only where [`reducible_node`](Self::reducible_node) said yes.
    fn quiet_move(pos: &Self::Position, m: MoveOf<Self>) -> bool {
        let _ = (pos, m);
        false
    }

    /// Whether the side to move faces no threat at all here, not even one a move away (in
    /// Gomoku: no four on the board and no three of the opponent's), so that the static score
    /// is a fair bound on what a quiet move can gain: where futility pruning
    /// ([`LateMoves::futility_margins`]) may skip quiet moves. Asked only where
    /// [`reducible_node`](Self::reducible_node) said yes. The default, no, prunes nothing.
    fn unthreatened_node(pos: &Self::Position) -> bool {
        let _ = pos;
        false
    }

    /// How many turns more than usual the moves of this interior node are searched with
    /// (1: its children keep the node's `depth` instead of `depth - 1`): a node whose moves
    /// are forced answers to a threat, so that a line of threats and their answers costs the
    /// attacker's turns only, as chess engines extend the answers to check (Gomoku: the block
    /// of a four). Asked once a node, after [`node_entry`](Self::node_entry) left it to the
    /// search; the search extends only up to its iteration's depth in plies. The
    /// default, none, keeps a game's tree exactly as it was (Connect6 and the others).
    fn extension(gen: &Self::Gen, pos: &Self::Position) -> i32 {
        let _ = (gen, pos);
        0
    }

    /// Whether this generator's searches go on past the horizon with a quiescence search
    /// ([`horizon`](Self::horizon)) instead of scoring the horizon statically. The default,
    /// no, keeps a game's tree exactly as it was (Connect6 and the others).
    fn quiesces(gen: &Self::Gen) -> bool {
        let _ = gen;
        false
    }

    /// What a node of the quiescence search (at or past the horizon, `qply` plies past it)
    /// is: decided or scored statically, a node that must answer a threat with one of the
    /// moves listed in `out`, or a node that may stand pat on its static score before trying
    /// its [`horizon_attacks`](Self::horizon_attacks). Asked only where
    /// [`quiesces`](Self::quiesces) says yes; by default the horizon's static score.
    fn horizon(
        gen: &mut Self::Gen,
        eval: &Self::Eval,
        pos: &Self::Position,
        ply: usize,
        qply: usize,
        out: &mut Vec<MoveOf<Self>>,
    ) -> Quiescence {
        let _ = (qply, out);
        match Self::node_entry(gen, eval, pos, 0, ply) {
            Err(score) => Quiescence::Score(score),
            Ok(()) => Quiescence::Score(eval.evaluate(pos)),
        }
    }

    /// The moves a quiescence node that did not stand pat tries, best first (Gomoku: the
    /// side to move's fours). By default none.
    fn horizon_attacks(gen: &mut Self::Gen, pos: &Self::Position, qply: usize, out: &mut Vec<MoveOf<Self>>) {
        let _ = (gen, pos, qply, out);
    }

    /// Whether the principal variation may follow a table move here (a game may allow what
    /// [`playable`](Self::playable) refuses, e.g. a move cut short by its winning stone).
    fn replayable(pos: &Self::Position, m: MoveOf<Self>) -> bool {
        Self::playable(pos, m)
    }
}

/// A quiescence node as the game sees it ([`TreeGame::horizon`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quiescence {
    /// The node's score: decided by the rules or tactics, or static where the search stops.
    Score(i32),
    /// The side to move faces a threat: it must play one of the listed moves (no stand-pat).
    Forced,
    /// The side to move may stand pat on this static score, or try its attacks.
    StandPat(i32),
}

/// A game's late-move reductions and move-count pruning ([`TreeGame::LATE_MOVES`]), for the
/// quiet moves of the nodes [`TreeGame::reducible_node`] allows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LateMoves {
    /// Nodes with fewer turns left than this reduce nothing.
    pub reduce_from_depth: i32,
    /// The `i`th move (from 1) of a node `d` turns from the horizon is searched first
    /// `1 + ln(d) ln(i) / log_divisor` turns shallower off the principal variation, one turn
    /// fewer (at least one) on it; the child keeps at least one turn, and a null-window
    /// search at full depth follows when the reduced one beats alpha.
    pub log_divisor: f64,
    /// Off the principal variation, the moves searched at all one, two and three turns from
    /// the horizon (the later quiet moves are skipped).
    pub prune_after: [usize; 3],
    /// Futility pruning one and two turns from the horizon, in the evaluation's units: off
    /// the principal variation, at a node [`TreeGame::unthreatened_node`] allows, a quiet move
    /// is skipped when the node's static score plus this margin does not reach alpha (the
    /// margin bounds what a quiet move and the replies left gain). `i32::MAX`: never.
    pub futility_margins: [i32; 2],
}

impl LateMoves {
    /// No reduction and no pruning.
    pub const NONE: LateMoves = LateMoves {
        reduce_from_depth: i32::MAX,
        log_divisor: 1.0,
        prune_after: [usize::MAX; 3],
        futility_margins: [i32::MAX; 2],
    };

    /// How many turns shallower the `index`th move (from 1) of a node `depth` turns from the
    /// horizon is searched first.
    pub fn reduction(&self, pv: bool, depth: i32, index: usize) -> i32 {
        let log = ((depth as f64).ln() * (index as f64).ln() / self.log_divisor) as i32;
        let r = if pv { (log - 1).max(1) } else { 1 + log };
        r.min(depth - 2).max(0)
    }

    /// The futility margin of a node off the principal variation `depth` turns from the
    /// horizon, if such nodes prune by it.
    pub fn futility_margin(&self, depth: i32) -> Option<i32> {
        let margin = match depth {
            1 => self.futility_margins[0],
            2 => self.futility_margins[1],
            _ => i32::MAX,
        };
        (margin != i32::MAX).then_some(margin)
    }

    /// The moves of a node off the principal variation searched at all `depth` turns from
    /// the horizon (every move beyond three turns).
    pub fn move_count_limit(&self, depth: i32) -> usize {
        match depth {
            ..=1 => self.prune_after[0],
            2 => self.prune_after[1],
            3 => self.prune_after[2],
            _ => usize::MAX,
        }
    }
}

/// What UCT needs of a game beyond its generator.
pub trait Playouts: TreeGame {
    /// What the game's exact situations say at a leaf, if anything.
    fn exact(gen: &mut Self::Gen, pos: &Self::Position) -> Option<Exact>;

    /// Plays a cheap seeded policy from the position for a few turns and returns the first
    /// player's reward in [0, 1]; the position is left as it was.
    fn playout(gen: &mut Self::Gen, eval: &Self::Eval, pos: &mut Self::Position, rng: &mut ChaCha8Rng) -> f64;
}

/// A threat-space search the tree searches use at the root: to play a proven win, and to set
/// aside moves that let the opponent start one. Within the settings' budget; `clock` counts
/// its nodes.
pub trait Tactics<G: TreeGame>: 'static {
    /// A proven win of the side to move (quiet, or facing threats to block), with its score.
    fn prove_win(
        gen: &mut G::Gen,
        clock: &mut Clock,
        pos: &mut G::Position,
        settings: &EngineSettings,
    ) -> Option<(MoveOf<G>, i32)>;

    /// Whether the side to move has a proven win.
    fn has_proven_win(gen: &mut G::Gen, clock: &mut Clock, pos: &mut G::Position, settings: &EngineSettings) -> bool;
}

/// The tactics of a game without a threat-space search: nothing is ever proven.
pub struct NoTactics;

impl<G: TreeGame> Tactics<G> for NoTactics {
    fn prove_win(_: &mut G::Gen, _: &mut Clock, _: &mut G::Position, _: &EngineSettings) -> Option<(MoveOf<G>, i32)> {
        None
    }

    fn has_proven_win(_: &mut G::Gen, _: &mut Clock, _: &mut G::Position, _: &EngineSettings) -> bool {
        false
    }
}

/// The tree searches' working memory for one player of `G`, with the game's tactics `T`:
/// PVS, alpha-beta or UCT as the settings say.
pub struct TreeSearch<G: TreeGame, T = NoTactics> {
    /// The helper threads (`search_threads` - 1 for PVS, else none), kept for the searcher's
    /// life, each owning a searcher with its own generator, history, killers, move stacks and
    /// clock, and this one's table. First, so that they are dropped (their threads ended)
    /// before this searcher's table (see the drop of `pool::Helper`).
    pub(super) helpers: Vec<HelperThread<G, T>>,
    pub(super) settings: EngineSettings,
    pub(super) eval: G::Eval,
    pub(super) gen: G::Gen,
    /// Shared with the helper threads of a search on several threads.
    pub(super) tt: Arc<tt::TranspositionTable<MoveOf<G>>>,
    pub(super) history: Vec<u32>,
    /// The last two moves that cut off at each ply, newest first.
    pub(super) killers: Vec<[MoveOf<G>; 2]>,
    /// Move lists by ply, reused to avoid allocation.
    pub(super) stack: Vec<Vec<MoveOf<G>>>,
    pub(super) clock: Clock,
    /// The random stream of MCTS playouts, reset at every new game.
    pub(super) rng_seed: u64,
    /// Generated moves before they join a node's list.
    pub(super) gen_scratch: Vec<MoveOf<G>>,
    /// Searches since the last new game: each MCTS search draws its own stream from it.
    pub(super) searches: u64,
    /// The MCTS node arena, reused by every search (bounded by its cap).
    pub(super) tree: mcts::Tree<MoveOf<G>, UndoOf<G>>,
    /// Raised by this (the main) thread when its helpers must stop.
    pub(super) stop_helpers: Arc<AtomicBool>,
    /// Nodes the helpers visited in the current search.
    pub(super) helper_nodes: u64,
    /// The depth of the iteration this thread is searching (0 before any): extensions
    /// ([`TreeGame::extension`]) stop at that many plies.
    pub(super) root_depth: i32,
    tactics: PhantomData<fn() -> T>,
}

impl<G: Playouts, T: Tactics<G>> Searcher<G> for TreeSearch<G, T> {
    fn new(settings: EngineSettings, weights: &Weights) -> Self {
        let tt = Arc::new(tt::TranspositionTable::new(settings.table_mib()));
        let stop_helpers = Arc::new(AtomicBool::new(false));
        let helpers = if settings.search == SearchKind::Pvs { settings.search_threads.max(1) - 1 } else { 0 };
        let helpers = (0..helpers)
            .map(|_| {
                let mut helper = TreeSearch::sharing(settings.clone(), weights, Arc::clone(&tt), Vec::new());
                helper.clock.stop = Some(Arc::clone(&stop_helpers));
                Helper::start(helper, Arc::clone(&stop_helpers))
            })
            .collect();
        TreeSearch { stop_helpers, ..TreeSearch::sharing(settings, weights, tt, helpers) }
    }

    fn new_game(&mut self, seed: u64) {
        self.tt.clear();
        self.forget_moves();
        for helper in &self.helpers {
            helper.post(|helper: &mut Self| {
                helper.forget_moves();
                HelperDone::Forgot
            });
        }
        for helper in &self.helpers {
            helper.finish(false);
        }
        self.rng_seed = seed;
        self.searches = 0;
    }

    fn search(&mut self, pos: &mut G::Position, limits: &Limits) -> SearchResult<MoveOf<G>> {
        let start = Instant::now();
        G::prepare(&self.gen, pos);
        self.clock.start(limits, start, self.settings.clock_nps);
        self.searches += 1;
        if super::pvs::planned_time(&self.settings, limits) && self.searches > 1 {
            // Every move after the game's first ends at its share of the time; the whole
            // search keeps the shorter time, so the narrower limits never go back.
            let _shorter = self.clock.narrow(start, self.settings.later_time_share, u64::MAX);
        }
        self.helper_nodes = 0;
        let mut result = match self.settings.search {
            SearchKind::Pvs | SearchKind::Alphabeta | SearchKind::AlphabetaUnordered => {
                self.iterative_deepening(pos, limits, start)
            }
            SearchKind::Mcts => self.uct(pos, limits),
        };
        // The time by the search's clock: counted in positions, the main thread's.
        result.elapsed = self.clock.now().saturating_duration_since(start);
        result.nodes = self.clock.nodes + self.helper_nodes;
        result
    }

    fn evaluator(&self) -> &G::Eval {
        &self.eval
    }

    fn table_bytes(&self) -> usize {
        self.tt.size_bytes()
    }

    fn replayable(pos: &G::Position, m: MoveOf<G>) -> bool {
        G::replayable(pos, m)
    }

    fn root_ranks(&mut self, samples: &[(G::Position, MoveOf<G>)]) -> Option<Vec<MoveRank>> {
        let mut moves = Vec::new();
        let ranks = samples
            .iter()
            .map(|(pos, played)| match G::root(&mut self.gen, pos, &mut moves) {
                Root::Open => moves.iter().position(|m| m == played).map_or(MoveRank::Unlisted, MoveRank::Listed),
                Root::Decided(_) => MoveRank::Decided,
            })
            .collect();
        Some(ranks)
    }
}

impl<G: Playouts, T: Tactics<G>> TreeSearch<G, T> {
    /// A searcher with `tt` as its table and these helpers.
    fn sharing(
        settings: EngineSettings,
        weights: &Weights,
        tt: Arc<tt::TranspositionTable<MoveOf<G>>>,
        helpers: Vec<HelperThread<G, T>>,
    ) -> Self {
        let game = G::default();
        let eval = settings.eval.as_deref().unwrap_or(weights.schema().eval);
        TreeSearch {
            eval: game.evaluator(eval, weights),
            gen: game.generator(&settings, weights),
            tt,
            history: vec![0; game.history_size()],
            killers: vec![[MoveOf::<G>::NONE; 2]; MAX_PLY + 2],
            stack: vec![Vec::new(); MAX_PLY + 2],
            clock: Clock::unlimited(),
            rng_seed: 0,
            gen_scratch: Vec::new(),
            searches: 0,
            tree: mcts::Tree::default(),
            helpers,
            stop_helpers: Arc::new(AtomicBool::new(false)),
            helper_nodes: 0,
            root_depth: 0,
            settings,
            tactics: PhantomData,
        }
    }

    /// The game's move generator and its settings, for a test or a tool that changes one
    /// of them (Gomoku's quiescence plies) between searches.
    pub fn generator_mut(&mut self) -> &mut G::Gen {
        &mut self.gen
    }

    /// Forgets the move-ordering memory of earlier games (history and killers).
    fn forget_moves(&mut self) {
        self.history.fill(0);
        self.killers.fill([MoveOf::<G>::NONE; 2]);
    }

    /// Counts a node and checks the node and time limits.
    #[inline]
    pub(super) fn tick(&mut self) -> bool {
        self.clock.tick()
    }

    #[inline]
    pub(super) fn node_entry(&mut self, pos: &G::Position, depth: i32, ply: usize) -> Result<(), i32> {
        G::node_entry(&mut self.gen, &self.eval, pos, depth, ply)
    }

    /// Generates the root's moves and the result as far as it is known before searching: the
    /// first move, and for a decided position its exact score.
    pub(super) fn root(&mut self, pos: &G::Position, moves: &mut Vec<MoveOf<G>>) -> (Root, SearchResult<MoveOf<G>>) {
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
    pub(super) fn generate(&mut self, pos: &G::Position, depth: i32, moves: &mut Vec<MoveOf<G>>) {
        G::generate(&mut self.gen, pos, depth, moves);
    }

    #[inline]
    pub(super) fn generate_stage(
        &mut self,
        pos: &G::Position,
        depth: i32,
        stage: usize,
        moves: &mut Vec<MoveOf<G>>,
    ) -> bool {
        G::generate_stage(&mut self.gen, pos, depth, stage, moves)
    }
}

#[cfg(test)]
mod late_moves_tests {
    use super::LateMoves;

    const GOMOKU_LIKE: LateMoves =
        LateMoves { reduce_from_depth: 3, log_divisor: 1.0, prune_after: [4, 6, 8], futility_margins: [300, 600] };

    #[test]
    fn reductions_grow_with_depth_and_index_and_leave_the_child_a_turn() {
        let l = GOMOKU_LIKE;
        // ln 3 ln 1 = 0: one turn off the PV, one on it.
        assert_eq!(l.reduction(false, 3, 1), 1);
        assert_eq!(l.reduction(true, 3, 1), 1);
        // ln 10 ln 8 = 4.79: 5 off the PV, 3 on it.
        assert_eq!(l.reduction(false, 10, 8), 5);
        assert_eq!(l.reduction(true, 10, 8), 3);
        // At depth 4 the child (3 turns) keeps at least one: at most 2.
        assert_eq!(l.reduction(false, 4, 11), 2);
        // Two turns from the horizon nothing is left to reduce.
        assert_eq!(l.reduction(false, 2, 11), 0);
    }

    #[test]
    fn move_counts_prune_up_to_three_turns_from_the_horizon() {
        let l = GOMOKU_LIKE;
        assert_eq!([0, 1, 2, 3, 4].map(|d| l.move_count_limit(d)), [4, 4, 6, 8, usize::MAX]);
        assert_eq!([1, 2, 3].map(|d| LateMoves::NONE.move_count_limit(d)), [usize::MAX; 3]);
        assert_eq!(LateMoves::NONE.reduce_from_depth, i32::MAX);
    }

    #[test]
    fn futility_margins_apply_one_and_two_turns_from_the_horizon_only() {
        let l = GOMOKU_LIKE;
        assert_eq!([1, 2, 3].map(|d| l.futility_margin(d)), [Some(300), Some(600), None]);
        assert_eq!([1, 2].map(|d| LateMoves::NONE.futility_margin(d)), [None, None]);
    }
}
