//! UCT Monte-Carlo tree search (Kocsis & Szepesvári 2006): the "UCTS" opponent of Wang et al.
//! 2021's experiment (the paper plays PVS against it at equal time per move).
//!
//! The tree's moves are the game's generator's, as PVS gets them where two turns remain (in
//! Connect6 with the double-threat moves), so that PVS and UCT differ only in how they search. One iteration:
//! 1. **Selection** by UCB1, `Q + c·sqrt(ln N / n)` with `c = EngineSettings::uct_c`; rewards are
//!    in [0, 1] for the player who made the move into the node. Unvisited children come first,
//!    in the generator's order (best first), which acts as a cheap prior.
//! 2. **Expansion** on a node's second visit: every generated move becomes a child at once.
//!    A node is only expanded while the arena has room ([`MAX_TREE_NODES`]); after that the
//!    search goes on with playouts from the leaves.
//! 3. **Playout** from the leaf with the game's cheap seeded policy ([`Searchable::playout`];
//!    Connect: a few turns, then the evaluation through a logistic, [`EVAL_SCALE`]), so the
//!    evaluation's weights matter to this search as to PVS.
//! 4. **Backup** of the reward along the path, and of proofs (MCTS-solver, Winands et al.
//!    2008): the game's exact situations ([`Searchable::exact`]; Connect: a side with a threat
//!    road wins, a side facing threats it cannot block loses) make terminal nodes; a node with a winning child is lost
//!    for the player who moved into it, one whose children are all lost is won. As for PVS's
//!    mate scores, "all children" means all the generator's moves.
//!
//! Determinism: the playouts draw from a ChaCha8 stream seeded by the game seed
//! ([`Engine::new_game`](super::Engine::new_game)) and the number of searches since, so a search limited by playouts
//! (or by depth, which is a playout budget here) is a pure function of its inputs.
//!
//! The constants below were chosen by short matches against PVS at depth 2 from 6 openings,
//! both colours (12 games per setting; small samples, so only large effects count): playouts
//! of 4 turns won 11/12 at 1 s per move where 8 turns won 6/12, and at 300 ms 20 turns won
//! 3/12; generating threat moves only at the root won 3/12 at 300 ms against 7/12 with them at
//! every expansion, although each expansion then costs more.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Exact, Playouts, Root, SearchResult, Tactics, TreeSearch, UndoOf, MATE, MATE_BOUND};
use crate::core::game::{GameMove, MoveOf, Position, Side, Status};
use crate::core::limits::Limits;
use crate::core::rng::{splitmix_mix, SPLITMIX_GAMMA};

/// Nodes the arena may hold (32 bytes each for Connect moves: 32 MiB). A search adds about
/// 170 000 nodes per second on the middle-game position of the tests (measured, one core), so
/// the cap is reached after about 6 s: it keeps long searches from taking the machine's memory
/// without limiting the short ones matches play.
pub const MAX_TREE_NODES: usize = 1 << 20;
/// Logistic scale of the evaluation: a position scored `s` for the side to move is worth
/// `1 / (1 + exp(-s / EVAL_SCALE))` to it, so +1000 is a 73% win and +2300 a 91% win. With
/// the default Connect6 road table the median |score| at the end of a playout from the tests'
/// middle-game position is about 2300 (quartiles 1300 and 2800), so playouts still separate
/// clear leads from small ones; a scale of 2000 did no better in a 20-game test.
pub const EVAL_SCALE: f64 = 1000.0;
/// With only a depth limit, a search has this many playouts per unit of depth, so that
/// fixed-depth benches and matches work for MCTS too and stay deterministic.
pub const PLAYOUTS_PER_DEPTH: u64 = 1000;
/// The depth assumed when a search is given no limit at all (as iterative deepening does).
const DEFAULT_DEPTH: u32 = 4;
/// Longest principal variation reported.
const MAX_PV: usize = 32;
/// The depth left that tree expansions ask the generator for: "far from the horizon".
const EXPANSION_DEPTH: i32 = i32::MAX / 2;

/// What is known for sure about a node, for the player who made the move into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Proof {
    Unknown,
    Win,
    Loss,
    Draw,
}

#[derive(Clone, Copy, Debug)]
struct Node<M> {
    mv: M,
    /// Children are `first .. first + children` in the arena; 0 children: not expanded.
    children: u16,
    first: u32,
    visits: u32,
    proof: Proof,
    /// For a proven node, turns from its position to the end of the game.
    end: u16,
    /// Sum of the rewards of the player who made `mv`.
    reward: f64,
}

impl<M: GameMove> Node<M> {
    fn new(mv: M) -> Node<M> {
        Node { mv, children: 0, first: 0, visits: 0, proof: Proof::Unknown, end: 0, reward: 0.0 }
    }

    fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            self.reward / self.visits as f64
        }
    }
}

/// The search tree and the scratch buffers of one engine, reused by every search so that
/// memory stays bounded by the arena's cap whatever the number of moves and games.
#[derive(Debug)]
pub(crate) struct Tree<M, U> {
    nodes: Vec<Node<M>>,
    max_nodes: usize,
    /// The current iteration's path: node index and the side of the player who moved into it.
    path: Vec<(u32, Side)>,
    /// What each move of the path needs to be taken back.
    placed: Vec<U>,
    moves: Vec<M>,
    /// Deepest node reached, in turns from the root.
    max_depth: u32,
    /// An expansion did not fit: later leaves are played out without generating their moves.
    full: bool,
}

impl<M, U> Default for Tree<M, U> {
    fn default() -> Tree<M, U> {
        Tree {
            nodes: Vec::new(),
            max_nodes: MAX_TREE_NODES,
            path: Vec::new(),
            placed: Vec::new(),
            moves: Vec::new(),
            max_depth: 0,
            full: false,
        }
    }
}

impl<M: GameMove, U> Tree<M, U> {
    /// Appends the children of `parent`; false when the arena is full (nothing is added).
    fn add_children(&mut self, parent: usize, moves: &[M]) -> bool {
        let (len, add) = (self.nodes.len(), moves.len().min(u16::MAX as usize));
        if add == 0 || len + add > self.max_nodes {
            self.full |= add > 0;
            return false;
        }
        if len + add > self.nodes.capacity() {
            // Grow by doubling but never past the cap, so the arena's memory is bounded by it.
            let target = (self.nodes.capacity() * 2).max(len + add).max(1024).min(self.max_nodes);
            self.nodes.reserve_exact(target - len);
        }
        self.nodes.extend(moves[..add].iter().map(|&m| Node::new(m)));
        let p = &mut self.nodes[parent];
        p.first = len as u32;
        p.children = add as u16;
        true
    }

    fn children(&self, node: usize) -> std::ops::Range<usize> {
        let n = &self.nodes[node];
        n.first as usize..n.first as usize + n.children as usize
    }

    /// The child the search recommends: a proven win, else the most visited child not proven
    /// lost (ties: the generator's order), else (all lost) the longest resistance.
    fn best_child(&self, node: usize) -> Option<usize> {
        let range = self.children(node);
        if let Some(i) =
            range.clone().filter(|&i| self.nodes[i].proof == Proof::Win).min_by_key(|&i| (self.nodes[i].end, i))
        {
            return Some(i);
        }
        let mut best: Option<usize> = None;
        for i in range.clone().filter(|&i| self.nodes[i].proof != Proof::Loss) {
            if best.is_none_or(|b| self.nodes[i].visits > self.nodes[b].visits) {
                best = Some(i);
            }
        }
        best.or_else(|| range.max_by_key(|&i| (self.nodes[i].end, self.nodes[i].visits, std::cmp::Reverse(i))))
    }

    /// UCB1 among the children not proven lost (there is one, or the node would be proven).
    fn select(&self, node: usize, c: f64) -> usize {
        let ln_n = (self.nodes[node].visits.max(1) as f64).ln();
        let mut best = usize::MAX;
        let mut best_value = f64::NEG_INFINITY;
        for i in self.children(node) {
            let child = &self.nodes[i];
            match child.proof {
                Proof::Loss => continue,
                Proof::Win => return i,
                _ if child.visits == 0 => return i,
                _ => {}
            }
            let n = child.visits as f64;
            let value = child.reward / n + c * (ln_n / n).sqrt();
            if value > best_value {
                best_value = value;
                best = i;
            }
        }
        debug_assert_ne!(best, usize::MAX, "a node whose children are all lost is proven");
        best
    }

    /// After `child` of `parent` was proven, proves `parent` if that settles it. Returns
    /// whether `parent` is now proven.
    fn prove_parent(&mut self, parent: usize, child: usize) -> bool {
        if self.nodes[parent].proof != Proof::Unknown {
            return false;
        }
        let c = self.nodes[child];
        let (proof, end) = match c.proof {
            Proof::Unknown => return false,
            // The player to move at `parent` has a winning move.
            Proof::Win => (Proof::Loss, c.end + 1),
            Proof::Loss | Proof::Draw => {
                let mut any_draw = false;
                let mut longest = 0;
                for i in self.children(parent) {
                    let n = &self.nodes[i];
                    match n.proof {
                        Proof::Unknown | Proof::Win => return false,
                        Proof::Draw => any_draw = true,
                        Proof::Loss => {}
                    }
                    longest = longest.max(n.end);
                }
                (if any_draw { Proof::Draw } else { Proof::Win }, longest + 1)
            }
        };
        let p = &mut self.nodes[parent];
        p.proof = proof;
        p.end = end;
        true
    }
}

/// Reward of a proven node for the first player, given the side of the player who moved into
/// it.
fn proof_reward(proof: Proof, mover: Side) -> f64 {
    let r = match proof {
        Proof::Win => 1.0,
        Proof::Loss => 0.0,
        Proof::Draw | Proof::Unknown => 0.5,
    };
    for_first(r, mover)
}

/// Converts a reward for `side` into a reward for the first player (and back: the map is its
/// own inverse).
#[inline]
pub fn for_first(r: f64, side: Side) -> f64 {
    if side == Side::First {
        r
    } else {
        1.0 - r
    }
}

/// The static score `s` of the side to move as a win probability (see [`EVAL_SCALE`]).
pub fn win_probability(s: i32) -> f64 {
    1.0 / (1.0 + (-(s as f64) / EVAL_SCALE).exp())
}

/// The inverse of [`win_probability`], clamped to stay clear of the mate scores.
pub(crate) fn score_of(p: f64) -> i32 {
    let p = p.clamp(1e-4, 1.0 - 1e-4);
    (EVAL_SCALE * (p / (1.0 - p)).ln()).round() as i32
}

/// The seed of one search's stream: SplitMix64 of the game seed and the search number, so
/// that nearby seeds give unrelated streams.
pub(crate) fn stream_seed(game_seed: u64, search: u64) -> u64 {
    splitmix_mix(game_seed ^ search.wrapping_mul(SPLITMIX_GAMMA))
}

/// The playout budget implied by the limits (depth as [`PLAYOUTS_PER_DEPTH`] playouts per
/// unit; no limit at all as [`DEFAULT_DEPTH`]), if any.
pub fn playout_budget(limits: &Limits) -> Option<u64> {
    let depth = match limits.depth {
        Some(d) => Some(d),
        None if limits.is_unlimited() => Some(DEFAULT_DEPTH),
        None => None,
    };
    depth.map(|d| PLAYOUTS_PER_DEPTH * d.max(1) as u64)
}

impl<G: Playouts, T: Tactics<G>> TreeSearch<G, T> {
    /// UCT from the position; see the module documentation. `depth` in the result is the
    /// deepest tree node reached, in turns from the root; `nodes` counts iterations (each
    /// ends in one playout or one proven node); `score` is the root's best win rate mapped
    /// back through the evaluation's logistic, or a mate score when proven.
    pub(crate) fn uct(&mut self, board: &mut G::Position, limits: &Limits) -> SearchResult<MoveOf<G>> {
        if let Some(budget) = playout_budget(limits) {
            self.clock.node_limit = self.clock.node_limit.min(budget);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(stream_seed(self.rng_seed, self.searches));
        let mut tree = std::mem::take(&mut self.tree);
        let result = self.uct_search(&mut tree, board, &mut rng);
        self.tree = tree;
        result
    }

    fn uct_search(
        &mut self,
        tree: &mut Tree<MoveOf<G>, UndoOf<G>>,
        board: &mut G::Position,
        rng: &mut ChaCha8Rng,
    ) -> SearchResult<MoveOf<G>> {
        tree.nodes.clear();
        tree.max_depth = 0;
        tree.full = false;
        let mut moves = std::mem::take(&mut tree.moves);
        let (root, mut result) = self.root(board, &mut moves);
        result.pv.clear();
        if let Root::Open = root {
            tree.nodes.push(Node::new(MoveOf::<G>::NONE));
            tree.add_children(0, &moves);
        }
        tree.moves = moves;
        // With a single answer there is nothing to learn from playouts.
        if tree.nodes.is_empty() || tree.nodes[0].children <= 1 {
            result.pv = vec![result.best];
            return result;
        }
        while !self.clock.stopped && tree.nodes[0].proof == Proof::Unknown {
            self.iterate(tree, board, rng);
            self.tick_playout();
        }
        let Some(best) = tree.best_child(0) else { return result };
        let b = tree.nodes[best];
        result.best = b.mv;
        result.score = match b.proof {
            Proof::Win => MATE - (1 + b.end as i32),
            Proof::Loss => -(MATE - (1 + b.end as i32)),
            Proof::Draw => 0,
            Proof::Unknown => score_of(b.mean()),
        };
        debug_assert!(b.proof != Proof::Unknown || result.score.abs() < MATE_BOUND);
        result.depth = tree.max_depth;
        let mut node = best;
        result.pv.push(b.mv);
        while result.pv.len() < MAX_PV {
            match tree.best_child(node) {
                Some(c) if tree.nodes[c].visits > 0 || tree.nodes[c].proof != Proof::Unknown => {
                    result.pv.push(tree.nodes[c].mv);
                    node = c;
                }
                _ => break,
            }
        }
        result
    }

    /// Counts one iteration and checks the limits. Unlike [`Engine::tick`] it reads the clock
    /// every time: an iteration costs thousands of PVS nodes, so the check is free.
    fn tick_playout(&mut self) {
        let c = &mut self.clock;
        c.nodes += 1;
        if c.nodes >= c.node_limit {
            c.stopped = true;
        } else if let Some(d) = c.deadline {
            if c.now() >= d {
                c.stopped = true;
            }
        }
    }

    /// One selection - expansion - playout - backup.
    fn iterate(&mut self, tree: &mut Tree<MoveOf<G>, UndoOf<G>>, board: &mut G::Position, rng: &mut ChaCha8Rng) {
        tree.path.clear();
        tree.placed.clear();
        tree.path.push((0, board.side_to_move().other()));
        let mut node = 0;
        let mut newly_proven = false;
        let first = loop {
            let n = tree.nodes[node];
            let mover = tree.path.last().expect("the path holds the root").1;
            if n.proof != Proof::Unknown {
                break proof_reward(n.proof, mover);
            }
            if n.children == 0 {
                if n.visits == 0 {
                    // First visit: the exact situations end the game here.
                    // For the player who moved into the node, so the side to move's win is a loss.
                    let proof = G::exact(&mut self.gen, board).map(|e| match e {
                        Exact::Win(end) => (Proof::Loss, end),
                        Exact::Loss(end) => (Proof::Win, end),
                        Exact::Draw => (Proof::Draw, 0),
                    });
                    if let Some((proof, end)) = proof {
                        let n = &mut tree.nodes[node];
                        n.proof = proof;
                        n.end = end;
                        newly_proven = true;
                        break proof_reward(proof, mover);
                    }
                    break G::playout(&mut self.gen, &self.eval, board, rng);
                }
                if tree.full {
                    break G::playout(&mut self.gen, &self.eval, board, rng);
                }
                let mut moves = std::mem::take(&mut tree.moves);
                G::generate(&mut self.gen, board, EXPANSION_DEPTH, &mut moves);
                let expanded = tree.add_children(node, &moves);
                tree.moves = moves;
                if !expanded {
                    break G::playout(&mut self.gen, &self.eval, board, rng);
                }
            }
            let child = tree.select(node, self.settings.uct_c);
            let mover = board.side_to_move();
            tree.placed.push(board.play(tree.nodes[child].mv));
            tree.path.push((child as u32, mover));
            node = child;
            if matches!(board.status(), Status::Won { .. }) && tree.nodes[node].proof == Proof::Unknown {
                // Only the generator's winning move completes a line, and such nodes are
                // terminal before they are expanded; kept for safety.
                tree.nodes[node].proof = Proof::Win;
                newly_proven = true;
            }
        };
        tree.max_depth = tree.max_depth.max(tree.path.len() as u32 - 1);
        for i in (0..tree.path.len()).rev() {
            let (idx, mover) = tree.path[i];
            let n = &mut tree.nodes[idx as usize];
            n.visits += 1;
            n.reward += for_first(first, mover);
            if newly_proven && i > 0 {
                newly_proven = tree.prove_parent(tree.path[i - 1].0 as usize, idx as usize);
            }
        }
        for &placed in tree.placed.iter().rev() {
            board.undo(placed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::settings::{EngineSettings, SearchKind};
    use crate::games::connect::eval::CONNECT6_ROADS;
    use crate::games::connect::movegen::{Move, ThreatSet};
    use crate::games::connect::notation::{board_from_record_moves, parse_record_move};
    use crate::games::connect::{make_move, Board, Colour, Connect6, Rules};
    use crate::search::{Searchable, Searcher};

    const MIDGAME: [&str; 4] = ["j10", "k11k9", "l10h10", "j12j8"];

    /// Connect6's searcher itself, whose tree the tests look into.
    fn engine() -> <Connect6 as Searchable>::Searcher {
        let config = EngineSettings { search: SearchKind::Mcts, ..EngineSettings::default() };
        Searcher::new(config, &CONNECT6_ROADS.defaults())
    }

    fn board(moves: &[&str]) -> Board {
        board_from_record_moves(Rules::CONNECT6, moves).unwrap()
    }

    fn mv(text: &str) -> Move {
        Move::from_stones(&parse_record_move(Rules::CONNECT6, text).unwrap())
    }

    #[test]
    fn takes_an_immediate_win() {
        // Black has a4..d4: e4f4 makes six.
        let mut b = board(&["a4", "a10a11", "b4c4", "b10b12", "d4s19", "c12q19"]);
        let mut e = engine();
        e.new_game(1);
        let r = e.search(&mut b, &Limits::nodes(500));
        assert_eq!(r.best, mv("e4f4"));
        assert_eq!(r.score, MATE - 1);
    }

    #[test]
    fn blocks_an_open_four() {
        // White's open four f10..i10 has three threat roads; Black must touch all of them.
        let mut b = board(&["a1", "f10g10", "s1s2", "h10i10"]);
        let mut e = engine();
        e.new_game(1);
        let r = e.search(&mut b, &Limits::nodes(2000));
        make_move(&mut b, r.best);
        assert_eq!(b.threat_count(Colour::White), 0, "{:?} leaves a threat", r.best);
    }

    #[test]
    fn wins_in_two_with_an_unblockable_double_four() {
        // Black has open threes c5..e5 and c12..e12: a stone on each makes two open fours,
        // whose six threat roads need four White stones.
        let mut b = board(&["c5", "s1s3", "d5e5", "s5s7", "c12d12", "s9s11", "e12a19", "s13s15"]);
        assert_eq!(b.to_move(), Colour::Black);
        let mut e = engine();
        e.new_game(1);
        let r = e.search(&mut b, &Limits::nodes(2000));
        assert_eq!(r.score, MATE - 3, "proven win two turns ahead: {r:?}");
        assert!(r.nodes < 100, "the threat move is searched first and proven at once: {r:?}");
        make_move(&mut b, r.best);
        let mut t = ThreatSet::default();
        t.collect(&b, Colour::Black);
        assert!(t.blocks_needed(2) > 2, "{:?} can be blocked", r.best);
    }

    #[test]
    fn sees_a_lost_position() {
        // White's three separate fours need three stones: whatever Black does, it loses.
        let mut b = board(&[
            "a1", "c5d5", "s1s3", "e5f5", "s5s7", "c10d10", "s9s11", "e10f10", "s13s15", "c15d15", "s17s19", "e15f15",
        ]);
        let mut e = engine();
        e.new_game(1);
        let r = e.search(&mut b, &Limits::nodes(100));
        assert_eq!(r.score, -(MATE - 2));
    }

    #[test]
    fn node_budget_is_deterministic() {
        let search = |seed: u64| {
            let mut e = engine();
            e.new_game(seed);
            let mut b = board(&MIDGAME);
            let r = e.search(&mut b, &Limits::nodes(1500));
            assert_eq!(b.stone_count(), 7, "the board is left as it was");
            (r.best, r.nodes, r.score, r.pv)
        };
        let a = search(7);
        assert_eq!(a, search(7));
        assert_eq!(a.1, 1500);
        // Another seed runs another stream; it may or may not choose the same move.
        assert_eq!(search(8).1, 1500);
    }

    #[test]
    fn depth_is_a_playout_budget() {
        let mut e = engine();
        e.new_game(3);
        let r = e.search(&mut board(&MIDGAME), &Limits::depth(1));
        assert_eq!(r.nodes, PLAYOUTS_PER_DEPTH);
        assert!(r.depth >= 1 && !r.pv.is_empty() && r.pv[0] == r.best, "{r:?}");
        assert!(r.score.abs() < MATE_BOUND);
    }

    #[test]
    fn tree_stays_within_its_cap_across_searches() {
        let mut e = engine();
        e.tree.max_nodes = 3000;
        let mut b = board(&MIDGAME);
        for game in 0..2 {
            e.new_game(game);
            for _ in 0..3 {
                let r = e.search(&mut b, &Limits::nodes(2000));
                assert_eq!(r.nodes, 2000, "the search goes on with playouts once the arena is full");
                assert!(e.tree.nodes.len() <= 3000 && e.tree.nodes.capacity() <= 3000);
                make_move(&mut b, r.best);
            }
        }
    }

    #[test]
    fn time_limit_returns() {
        let mut e = engine();
        e.new_game(0);
        let mut b = board(&MIDGAME);
        let r = e.search(&mut b, &Limits::time_ms(30));
        assert!(r.nodes > 0);
        assert_eq!(r.best.stones().len(), 2);
        assert!(r.best.stones().iter().all(|&c| b.is_empty_cell(c)));
    }

    /// The arena's cap is in nodes; with Connect's moves a node is 32 bytes (see
    /// [`MAX_TREE_NODES`]).
    #[test]
    fn connect_nodes_are_32_bytes() {
        assert_eq!(std::mem::size_of::<Node<Move>>(), 32);
    }

    #[test]
    fn logistic_round_trips() {
        for s in [-3000, -200, 0, 150, 2500] {
            assert!((score_of(win_probability(s)) - s).abs() <= 1);
        }
        assert_eq!(win_probability(0), 0.5);
    }
}
