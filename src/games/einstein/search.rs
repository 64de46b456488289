//! EinStein würfelt nicht's searches, which know the die: every move is followed by a roll.
//! Here the MCTS designs and the entry point; the playouts' policies are in `playouts.rs`, the
//! expectimax in `expectimax.rs`.
//!
//! - **MCTS** (`--search mcts`): UCT over a tree of decision nodes (a roll is known, the side
//!   to move picks a step) and chance nodes (after a step; the next roll is drawn uniformly
//!   from the search's stream on every descent). A new leaf is scored by one playout to the
//!   end of the game. With the `plain` evaluation a playout moves at random; with `hybrid` it
//!   skips moves the hybrid evaluation scores more than `prune` below the roll's best and
//!   always takes a win (the paper's pruning). The move played is the root's most visited
//!   step, ties to the better win rate. With `tree` the decision nodes keep only the steps the
//!   evaluation does not prune and the playouts are random.
//! - **The paper's Monte Carlo** (`--search mcts --eval paper|paper-plain|paper-root`): flat,
//!   `nodes` playouts for each step of the root, the best win rate played, as Song Yingjian
//!   et al. 2022 describe their "MCTS" (MC_CONSTANT simulations per step). `paper` drops the
//!   root steps the evaluation prunes and prunes its playouts, `paper-root` drops the root
//!   steps only, `paper-plain` does neither.
//! - **Lean playouts** (`--eval lean|paper-lean`): as `hybrid` and `paper`, the playouts'
//!   steps ranked by the evaluation without its capture-risk term (table lookups,
//!   [`HybridEval::lean_merits`]); `paper-lean` is the design that is both stronger than its
//!   plain counterpart and not slower (docs/einstein.md).
//!
//! Why both designs: the paper's hybrid used 73.5% of its plain search's time because its
//! budget is per root step, so a pruned step costs nothing; in UCT the budget is per move and
//! pruning saves no playouts, while a pruned playout, which scores every step of each roll,
//! always costs more than a random one (about four times, however cheap the evaluation is
//! made). At equal playouts per move UCT with pruned playouts (`hybrid`) is the stronger use
//! of the evaluation (docs/einstein.md has the matches), so it is the default and the paper's
//! design is kept as the faithful variant.
//! - **Expectimax** (`--search pvs` or `alphabeta`): iterative deepening of a depth-limited
//!   expectimax, chance nodes averaging the six rolls, leaves scored by the hybrid evaluation.
//!
//! Budgets: `nodes` counts playouts (MCTS) or decision nodes (expectimax); a depth limit is
//! [`crate::search::mcts::PLAYOUTS_PER_DEPTH`] playouts per unit for MCTS and plies for expectimax. Both are pure
//! functions of the position, the limits and the stream seed unless a time limit stops them.

use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::board::{Board, Move, Phase, CUBES, SETUPS};
use super::eval::HybridEval;
use super::expectimax::expectimax;
use super::playouts::{kept_steps, playout, Policy};
use crate::core::game::{GameMove, Position, Side, Status};
use crate::core::limits::Limits;
use crate::core::settings::{EngineSettings, SearchKind};
use crate::search::mcts::playout_budget;
use crate::search::{Clock, SearchResult};

/// Which Monte-Carlo search an evaluation name selects (`--eval`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// `plain`: UCT, random playouts.
    Plain,
    /// `hybrid`: UCT, playouts pruned by the evaluation (evotune's reading, the default).
    Hybrid,
    /// `tree`: UCT whose decision nodes only get the steps the evaluation does not prune
    /// (scored once, when the node is created), random playouts.
    Tree,
    /// `paper`: the paper's Monte Carlo as it describes it: `nodes` playouts for each step
    /// of the root that the evaluation does not prune, playouts pruned the same way.
    Paper,
    /// `paper-plain`: `nodes` random playouts for every step of the root.
    PaperPlain,
    /// `paper-root`: `nodes` random playouts for each step of the root that the evaluation
    /// does not prune (the evaluation at the root only).
    PaperRoot,
    /// `guard`: UCT whose decision nodes keep only the steps the evaluation does not prune
    /// (as `tree`), playouts by [`Policy::Guard`].
    Guard,
    /// `paper-guard`: the paper's Monte Carlo with the evaluation where it removes playouts:
    /// `nodes` playouts for each root step it keeps, playouts by [`Policy::Guard`].
    PaperGuard,
    /// `lean`: UCT, playouts by [`Policy::Lean`] (the hybrid pruning without the capture-risk
    /// term, by table lookups).
    Lean,
    /// `paper-lean`: the paper's Monte Carlo (`nodes` playouts for each root step the full
    /// evaluation keeps), playouts by [`Policy::Lean`].
    PaperLean,
}

impl Variant {
    /// The variant of an evaluation name (`hybrid` for anything unknown or absent).
    pub fn of(eval: Option<&str>) -> Variant {
        match eval {
            Some("plain") => Variant::Plain,
            Some("tree") => Variant::Tree,
            Some("paper") => Variant::Paper,
            Some("paper-plain") => Variant::PaperPlain,
            Some("paper-root") => Variant::PaperRoot,
            Some("guard") => Variant::Guard,
            Some("paper-guard") => Variant::PaperGuard,
            Some("lean") => Variant::Lean,
            Some("paper-lean") => Variant::PaperLean,
            _ => Variant::Hybrid,
        }
    }

    /// How the variant's playouts move.
    pub fn policy(self) -> Policy {
        match self {
            Variant::Hybrid | Variant::Paper => Policy::Hybrid,
            Variant::Plain | Variant::Tree | Variant::PaperPlain | Variant::PaperRoot => Policy::Random,
            Variant::Guard | Variant::PaperGuard => Policy::Guard,
            Variant::Lean | Variant::PaperLean => Policy::Lean,
        }
    }

    /// Whether decision nodes drop the steps the evaluation prunes.
    fn prunes_steps(self) -> bool {
        matches!(
            self,
            Variant::Tree
                | Variant::Paper
                | Variant::PaperRoot
                | Variant::Guard
                | Variant::PaperGuard
                | Variant::PaperLean
        )
    }

    /// Whether the search is the paper's flat Monte Carlo (a budget per root step).
    fn flat(self) -> bool {
        matches!(
            self,
            Variant::Paper | Variant::PaperPlain | Variant::PaperRoot | Variant::PaperGuard | Variant::PaperLean
        )
    }
}

/// Working memory of the searches, reused between searches.
#[derive(Debug)]
pub struct Searcher {
    pub variant: Variant,
    pub policy: Policy,
    nodes: Vec<Node>,
    moves: Vec<Move>,
}

impl Searcher {
    pub fn new(variant: Variant) -> Searcher {
        Searcher { variant, policy: variant.policy(), nodes: Vec::new(), moves: Vec::with_capacity(8) }
    }
}

/// A tree node. A step node (the step into it; a chance node below) has up to six roll
/// children, created together; a roll node (the roll into it; the mover picks) has one step
/// child per legal step, created on its first visit.
#[derive(Clone, Copy, Debug)]
struct Node {
    mv: Move,
    first: u32,
    children: u8,
    visits: u32,
    /// Sum of the rewards of the player who made the step into the node.
    reward: f64,
}

impl Node {
    fn new(mv: Move) -> Node {
        Node { mv, first: 0, children: 0, visits: 0, reward: 0.0 }
    }
}

/// The reward in [0, 1] of `side` for a finished game.
fn reward_for(status: Status, side: Side) -> f64 {
    match status {
        Status::Won { winner, .. } if winner == side => 1.0,
        Status::Won { .. } => 0.0,
        _ => 0.5,
    }
}

/// The searches' entry point: the search the settings name, from a position at a roll or a
/// setup. `None` only for a position waiting for its roll (no player is to move).
pub fn search(
    searcher: &mut Searcher,
    eval: &HybridEval,
    pos: &Board,
    settings: &EngineSettings,
    limits: &Limits,
    clock: &mut Clock,
    seed: u64,
) -> SearchResult<Move> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let none = SearchResult { best: Move::NONE, score: 0, depth: 0, nodes: 0, elapsed: Duration::ZERO, pv: Vec::new() };
    match pos.phase() {
        // A setup is the player's choice; the searches here do not rank setups, so the engine
        // draws one from its stream (games of the arena start from openings that hold both).
        Phase::Setup => {
            let best = Move::setup(rng.random_range(0..SETUPS));
            SearchResult { best, pv: vec![best], ..none }
        }
        Phase::Roll => none,
        Phase::Move(_) if pos.status().is_over() => none,
        Phase::Move(_) => match settings.search {
            SearchKind::Mcts if searcher.variant.flat() => flat(searcher, eval, pos, limits, clock, &mut rng),
            SearchKind::Mcts => uct(searcher, eval, pos, settings.uct_c, limits, clock, &mut rng),
            SearchKind::Pvs | SearchKind::Alphabeta | SearchKind::AlphabetaUnordered => {
                expectimax(eval, pos, limits, clock)
            }
        },
    }
}

fn uct(
    s: &mut Searcher,
    eval: &HybridEval,
    root_pos: &Board,
    c: f64,
    limits: &Limits,
    clock: &mut Clock,
    rng: &mut ChaCha8Rng,
) -> SearchResult<Move> {
    if let Some(budget) = playout_budget(limits) {
        clock.node_limit = clock.node_limit.min(budget);
    }
    s.nodes.clear();
    s.nodes.push(Node::new(Move::NONE));
    let mut path: Vec<usize> = Vec::with_capacity(64);
    let mut deepest = 0;
    loop {
        let mut board = root_pos.clone();
        path.clear();
        let mut node = 0;
        path.push(node);
        let status = loop {
            // `node` is a roll node: the board has its roll.
            if s.nodes[node].children == 0 {
                expand_roll_node(s, eval, &mut board, node);
            }
            let step = select(&s.nodes, node, c);
            board.play(s.nodes[step].mv);
            path.push(step);
            let status = board.status();
            if status.is_over() {
                break status;
            }
            if s.nodes[step].visits == 0 {
                break playout(s.policy, eval, &mut board, &mut s.moves, rng);
            }
            if s.nodes[step].children == 0 {
                let first = s.nodes.len() as u32;
                s.nodes.extend((0..CUBES).map(|_| Node::new(Move::NONE)));
                s.nodes[step].first = first;
                s.nodes[step].children = CUBES as u8;
            }
            let die = rng.random_range(1..=CUBES as u8);
            board.roll(die);
            node = s.nodes[step].first as usize + die as usize - 1;
            path.push(node);
        };
        deepest = deepest.max(path.len() / 2);
        // Backup: a step node keeps the reward of the player who made its step.
        // The path alternates roll nodes (even places) and step nodes (odd places), whose
        // movers alternate from the root's side to move.
        for (i, &n) in path.iter().enumerate() {
            let node = &mut s.nodes[n];
            node.visits += 1;
            if i % 2 == 1 {
                let mover = if (i / 2) % 2 == 0 { root_pos.to_move() } else { root_pos.to_move().other() };
                node.reward += reward_for(status, mover);
            }
        }
        if clock.tick() {
            break;
        }
    }
    let root = s.nodes[0];
    let range = root.first as usize..root.first as usize + root.children as usize;
    let best = range
        .clone()
        .max_by(|&a, &b| {
            let (x, y) = (&s.nodes[a], &s.nodes[b]);
            x.visits
                .cmp(&y.visits)
                .then((x.reward / x.visits.max(1) as f64).total_cmp(&(y.reward / y.visits.max(1) as f64)))
        })
        .expect("a roll node of an open game has steps");
    let rate = s.nodes[best].reward / s.nodes[best].visits.max(1) as f64;
    let mv = s.nodes[best].mv;
    SearchResult {
        best: mv,
        score: crate::search::mcts::score_of(rate),
        depth: deepest as u32,
        nodes: 0,
        elapsed: Duration::ZERO,
        pv: vec![mv],
    }
}

/// Creates the step children of a roll node: every step, or (`tree`) those the evaluation
/// keeps.
fn expand_roll_node(s: &mut Searcher, eval: &HybridEval, board: &mut Board, node: usize) {
    let Phase::Move(die) = board.phase() else { unreachable!("a roll node's board has its roll") };
    s.moves.clear();
    board.steps_for(die, &mut s.moves);
    let mut keep = [true; 8];
    if s.variant.prunes_steps() && s.moves.len() > 1 {
        kept_steps(eval, board, &s.moves, &mut keep, &mut [0; 8]);
    }
    let first = s.nodes.len() as u32;
    for (&m, _) in s.moves.iter().zip(keep).filter(|(_, k)| *k) {
        s.nodes.push(Node::new(m));
    }
    s.nodes[node].first = first;
    s.nodes[node].children = (s.nodes.len() - first as usize) as u8;
}

/// The paper's flat Monte Carlo: the root's steps (all, or those the evaluation keeps) each
/// get `nodes` playouts, dealt round by round so that a time limit leaves them even; the step
/// with the most wins is played, ties to the first.
fn flat(
    s: &mut Searcher,
    eval: &HybridEval,
    root_pos: &Board,
    limits: &Limits,
    clock: &mut Clock,
    rng: &mut ChaCha8Rng,
) -> SearchResult<Move> {
    let Phase::Move(die) = root_pos.phase() else { unreachable!("searched at a roll") };
    let mut board = root_pos.clone();
    let mut steps = Vec::with_capacity(8);
    board.steps_for(die, &mut steps);
    let mut keep = [true; 8];
    if s.variant.prunes_steps() && steps.len() > 1 {
        kept_steps(eval, &mut board, &steps, &mut keep, &mut [0; 8]);
    }
    let candidates: Vec<Move> = steps.iter().zip(keep).filter(|(_, k)| *k).map(|(&m, _)| m).collect();
    let per_step = limits.nodes.or_else(|| playout_budget(limits)).unwrap_or(u64::MAX);
    // The budget is per step (the paper's MC_CONSTANT), so a pruned step saves its playouts.
    if per_step != u64::MAX {
        clock.node_limit = per_step.saturating_mul(candidates.len() as u64);
    }
    let me = root_pos.to_move();
    let mut wins = vec![0.0f64; candidates.len()];
    let mut played = vec![0u32; candidates.len()];
    'rounds: loop {
        for (i, &m) in candidates.iter().enumerate() {
            let u = board.play(m);
            let status = board.status();
            let end = if status.is_over() {
                status
            } else {
                let mut b = board.clone();
                playout(s.policy, eval, &mut b, &mut s.moves, rng)
            };
            board.undo(u);
            wins[i] += reward_for(end, me);
            played[i] += 1;
            if clock.tick() {
                break 'rounds;
            }
        }
    }
    // Most wins; a round cut short by the clock leaves some steps one playout behind, so
    // compare rates then.
    let rate = |i: usize| wins[i] / played[i].max(1) as f64;
    let best = (0..candidates.len()).fold(0, |b, i| if rate(i) > rate(b) { i } else { b });
    let rate = rate(best);
    SearchResult {
        best: candidates[best],
        score: crate::search::mcts::score_of(rate),
        depth: 1,
        nodes: 0,
        elapsed: Duration::ZERO,
        pv: vec![candidates[best]],
    }
}

/// UCB1 among a roll node's steps; unvisited steps first, in generation order.
fn select(nodes: &[Node], node: usize, c: f64) -> usize {
    let parent = nodes[node];
    let range = parent.first as usize..parent.first as usize + parent.children as usize;
    let log_n = (parent.visits.max(1) as f64).ln();
    let mut best = range.start;
    let mut best_value = f64::NEG_INFINITY;
    for i in range {
        let n = &nodes[i];
        if n.visits == 0 {
            return i;
        }
        let value = n.reward / n.visits as f64 + c * (log_n / n.visits as f64).sqrt();
        if value > best_value {
            best_value = value;
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::einstein::eval::EINSTEIN_HYBRID;
    use crate::games::einstein::notation::parse_move;
    use crate::games::einstein::playouts::{self, policy_step};

    const ALL: [Variant; 10] = [
        Variant::Plain,
        Variant::Hybrid,
        Variant::Tree,
        Variant::Paper,
        Variant::PaperPlain,
        Variant::PaperRoot,
        Variant::Guard,
        Variant::PaperGuard,
        Variant::Lean,
        Variant::PaperLean,
    ];

    fn board(moves: &[&str]) -> Board {
        let mut b = Board::start();
        for t in moves {
            let m = parse_move(t).unwrap();
            if b.phase() == Phase::Roll {
                b.roll(m.die());
            }
            b.play(m);
        }
        b
    }

    fn run(kind: SearchKind, variant: Variant, b: &Board, limits: Limits, seed: u64) -> SearchResult<Move> {
        let eval = HybridEval::new(&EINSTEIN_HYBRID.defaults());
        let settings = EngineSettings { search: kind, ..EngineSettings::default() };
        let mut clock = Clock::unlimited();
        clock.node_limit = limits.nodes.unwrap_or(u64::MAX);
        search(&mut Searcher::new(variant), &eval, b, &settings, &limits, &mut clock, seed)
    }

    #[test]
    fn every_search_takes_a_win_on_the_corner() {
        // Red's cube 5 walks b4-c3-d2 (taking blue's cube 2) while blue shuffles cube 1; on a
        // roll of 5 it can step right, down, or onto the corner e1.
        let mut b = board(&["123456", "654321", "5:b4c3", "1:e3d3", "5:c3d2", "1:d3c3"]);
        b.roll(5);
        let mut moves = Vec::new();
        b.legal_moves(&mut moves);
        assert_eq!(moves.len(), 3);
        for kind in [SearchKind::Mcts, SearchKind::Pvs] {
            for variant in ALL {
                let r = run(kind, variant, &b, Limits::nodes(300), 1);
                assert_eq!(r.best, Move::step(5, 18, 24), "{kind:?} {variant:?}");
            }
        }
    }

    #[test]
    fn the_papers_budget_is_per_root_step_and_pruned_steps_get_none() {
        let eval = HybridEval::new(&EINSTEIN_HYBRID.defaults());
        let settings = EngineSettings { search: SearchKind::Mcts, ..EngineSettings::default() };
        let playouts = |variant: Variant, b: &Board| {
            let mut clock = Clock::unlimited();
            clock.node_limit = 100;
            search(&mut Searcher::new(variant), &eval, b, &settings, &Limits::nodes(100), &mut clock, 1);
            clock.nodes
        };
        let mut pruned = 0;
        for text in crate::games::einstein::EINSTEIN_BENCH {
            let moves: Vec<&str> = text.split_whitespace().collect();
            let mut b = board(&moves[..moves.len() - 1]);
            b.roll(moves[moves.len() - 1][1..].parse().unwrap());
            let mut steps = Vec::new();
            b.legal_moves(&mut steps);
            let kept = kept_steps(&eval, &mut b, &steps, &mut [false; 8], &mut [0; 8]);
            assert_eq!(playouts(Variant::PaperPlain, &b), 100 * steps.len() as u64, "{text}");
            assert_eq!(playouts(Variant::Paper, &b), 100 * kept as u64, "{text}");
            assert_eq!(playouts(Variant::PaperRoot, &b), 100 * kept as u64, "{text}");
            assert_eq!(playouts(Variant::PaperGuard, &b), 100 * kept as u64, "{text}");
            // UCT's budget is per move, whatever it prunes.
            assert_eq!(playouts(Variant::Tree, &b), 100, "{text}");
            assert_eq!(playouts(Variant::Guard, &b), 100, "{text}");
            pruned += steps.len() - kept;
        }
        assert!(pruned > 0, "the evaluation prunes some root step of the bench positions");
    }

    #[test]
    fn guarded_playouts_take_a_win_and_spare_their_own_cubes() {
        let eval = HybridEval::new(&EINSTEIN_HYBRID.defaults());
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        // Red's cube 5 on d2, a roll of 5: the corner e1 wins.
        let mut b = board(&["123456", "654321", "5:b4c3", "1:e3d3", "5:c3d2", "1:d3c3"]);
        b.roll(5);
        let mut moves = Vec::new();
        b.legal_moves(&mut moves);
        for _ in 0..20 {
            assert_eq!(policy_step(Policy::Guard, &eval, &mut b, &moves, &mut rng), Move::step(5, 18, 24));
        }
        // From the start, a roll whose cube can step onto its own cubes or onto empty squares:
        // the guard always takes an empty one.
        let start = board(&["123456", "654321"]);
        let mut mixed = 0;
        for die in 1..=CUBES as u8 {
            let mut b = start.clone();
            b.roll(die);
            b.legal_moves(&mut moves);
            let own = moves.iter().filter(|m| b.code_at(m.to() as usize) != 0).count();
            if own == 0 || own == moves.len() {
                continue;
            }
            mixed += 1;
            for _ in 0..20 {
                let m = policy_step(Policy::Guard, &eval, &mut b, &moves, &mut rng);
                assert_eq!(b.code_at(m.to() as usize), 0, "{m:?}");
            }
        }
        assert!(mixed > 0, "some roll of the start mixes own and empty squares");
    }

    #[test]
    fn lean_playouts_take_a_win_and_only_steps_near_the_best() {
        let eval = HybridEval::new(&EINSTEIN_HYBRID.defaults());
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let mut b = board(&["123456", "654321", "5:b4c3", "1:e3d3", "5:c3d2", "1:d3c3"]);
        b.roll(5);
        let mut moves = Vec::new();
        b.legal_moves(&mut moves);
        for _ in 0..20 {
            assert_eq!(policy_step(Policy::Lean, &eval, &mut b, &moves, &mut rng), Move::step(5, 18, 24));
        }
        // Along random games: the step played is within `prune` points of the roll's best,
        // and a roll whose steps are far apart is decided without a draw.
        let (mut rolls, mut pruned) = (0, 0);
        for _ in 0..50 {
            let mut b = board(&["351624", "246135"]);
            while !b.status().is_over() {
                b.roll(rng.random_range(1..=CUBES as u8));
                b.legal_moves(&mut moves);
                let mut merits = [0; 8];
                eval.lean_merits(&b, &moves, &mut merits);
                let best = merits[..moves.len()].iter().copied().max().unwrap();
                let m = policy_step(Policy::Lean, &eval, &mut b, &moves, &mut rng);
                let i = moves.iter().position(|&x| x == m).unwrap();
                if playouts::winning_step(&b, &moves).is_none() {
                    assert!(merits[i] >= best - 600 * eval.prune, "{m:?} of {moves:?}: {merits:?}");
                    pruned += merits[..moves.len()].iter().filter(|&&x| x < best - 600 * eval.prune).count();
                }
                rolls += 1;
                b.play(m);
            }
        }
        assert!(rolls > 500 && pruned > 100, "{rolls} {pruned}");
    }

    #[test]
    fn searches_with_node_budgets_are_deterministic() {
        let mut b = board(&["351624", "246135"]);
        b.roll(4);
        for kind in [SearchKind::Mcts, SearchKind::Pvs] {
            for variant in ALL {
                let a = run(kind, variant, &b, Limits::nodes(2000), 7);
                let c = run(kind, variant, &b, Limits::nodes(2000), 7);
                assert_eq!(a, c);
            }
        }
    }
}
