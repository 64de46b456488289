//! Principal variation search (as in Wang et al. 2021): iterative deepening; at every node the first move
//! gets the full window and the rest a null window (alpha, alpha+1), re-searched when they
//! fail high inside the window; a transposition table and the history heuristic order moves.
//!
//! Depth counts turns (a pair of stones is one move). Tactics are exact where it matters:
//! a side with a threat road wins at once and a side facing threats it cannot block loses,
//! at every node including the horizon (see `Engine::node_entry`).

use std::time::Instant;

use super::tt::Bound;
use super::{Playouts, Quiescence, Root, SearchResult, Tactics, TreeSearch, MATE, MATE_BOUND, MAX_PLY};
use crate::core::game::{Evaluate, GameMove, MoveOf, Position};
use crate::core::limits::Limits;
use crate::core::settings::{EngineSettings, SearchKind};

/// Root moves checked against the opponent's threat-space search, best first.
const SAFETY_MOVES: usize = 6;
/// The share of a move's time the main search may use when the threat-space check of the
/// root moves follows it (that check needs the rest: it is skipped once time is up).
const MAIN_SEARCH_SHARE: f64 = 0.85;
/// The share of a move's time the check for quiet moves that win by threats may use before
/// the main search (a few dozen milliseconds in most positions).
const QUIET_CHECK_SHARE: f64 = 0.3;
/// The share of a move's time by which the refutation check must end (a few milliseconds in
/// most positions). With the whole move it could, on a short or loaded clock, leave no time
/// for the main search, which then played the generator's first move unsearched.
const REFUTATION_CHECK_SHARE: f64 = 0.3;
/// Both checks' shares when helper threads search too. The threads split each check's moves,
/// so a smaller share still checks about as many, and the main search, where a second thread
/// pays most, starts sooner: two threads against one at 50 ms a move on two idle cores scored
/// pair Elo +55.0 (+43 .. +67) over 2,472 games with 0.15 and 0.15, against +38.4 over 1,236
/// with 0.3 and 0.3 (docs/performance.md). One thread keeps the shares above.
const CHECK_SHARE_WITH_HELPERS: f64 = 0.15;
/// The positions the whole check for quiet moves may visit, in units of its budget per
/// threat-space search: without a clock (fixed depth or nodes) nothing else bounds it, and
/// in sharp positions it visits hundreds of thousands. 24 searches of 3,000 positions take
/// about as long as the check's share of a 1 s move.
const QUIET_CHECK_SEARCHES: u64 = 24;
/// How many times its usual positions the check for quiet moves may visit at the first move
/// of a game under a time plan (`later_time_share`): the move has the most time of the game,
/// and the check's share of 3 s counted at 600,000 positions a second is 7.5 times its usual
/// budget, so its time rather than its positions bounds it there.
const FIRST_MOVE_QUIET_CHECK_FACTOR: u64 = 8;
/// Positions the root's two refutation checks may visit together at depth 1 of a
/// fixed-depth search, four times as many a depth deeper (the main search's own growth): at a
/// fixed depth nothing else bounds them, and at 3,000 positions a threat-space search they
/// took 250 times the depth-1 search's nodes (`evotune bench --depth 1`), so a depth-1 or
/// depth-3 game was slower than the same engine at 100 ms a move. From depth 5 the checks'
/// own budgets bind, as before.
const FIXED_DEPTH_CHECK_NODES: u64 = 1_000;
/// What a position of the root checks' threat-space searches costs on a clock counted in
/// positions, in positions of the main search: the counted rate is the main search's, and a
/// threat-space position took about twice its time (thread CPU time per position, one thread
/// at 25 ms a move on the balanced openings: main search 1,171 a ms, refutation check 517,
/// threat-space check after the search 600). Counted as one, the checks had about twice the
/// time on a counted clock that they had on the wall clock (docs/performance.md).
const THREAT_SPACE_POSITION_COST: u64 = 2;
/// What listing a move costs in the check for quiet moves on a clock counted in positions
/// (measured as above: about 0.9 positions of the main search).
const LISTED_MOVE_COST: u64 = 1;
/// How much longer than its soft target a move may think when its best move changed in the
/// last iteration, and how much shorter when it has stayed put for [`STABLE_ITERATIONS`].
pub(super) const UNSTABLE_FACTOR: f64 = 1.5;
pub(super) const STABLE_FACTOR: f64 = 0.6;
pub(super) const STABLE_ITERATIONS: u32 = 3;

/// Late-move reductions start after this many moves of a node (the first is searched at
/// full depth); how much and where is the game's ([`TreeGame::LATE_MOVES`](super::TreeGame::LATE_MOVES)).
const REDUCE_FROM_MOVE: usize = 1;

/// Extensions ([`TreeGame::extension`](super::TreeGame::extension)) stop at this many times
/// the iteration's depth in plies: up to the iteration's depth in plies a forced answer costs
/// nothing, past it every ply costs its turn again. Without a cap a line where every ply is
/// forced and extended (a block that makes a four, blocked by one that makes a four, ...)
/// would run to the ply cap at every iteration. Gomoku's extended blocks of fours on the
/// yardstick against Rapfi (docs/matches.md): with 1, +0.2 +- 4.6 points against no
/// extension, with 2, -0.8 +- 5.5. A count of the extensions per path would need one more
/// argument through every node; the ply is there already.
const EXTENSION_PLY_FACTOR: i32 = 1;

/// Node kinds as types (PV nodes may re-search; non-PV nodes use the table's cut-offs).
pub(crate) trait NodeKind {
    const PV: bool;
}
pub(crate) struct PvNode;
pub(crate) struct NonPv;
impl NodeKind for PvNode {
    const PV: bool = true;
}
impl NodeKind for NonPv {
    const PV: bool = false;
}

/// A mate score as stored in the table: relative to the node, not the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

type Move<G> = MoveOf<G>;

impl<G: Playouts, T: Tactics<G>> TreeSearch<G, T> {
    pub(crate) fn iterative_deepening(
        &mut self,
        board: &mut G::Position,
        limits: &Limits,
        start: Instant,
    ) -> SearchResult<Move<G>> {
        self.tt.new_search();
        let max_depth = limits.depth.unwrap_or(if limits.is_unlimited() { 4 } else { 64 }).max(1);
        let mut root_moves = Vec::new();
        let (root, mut result) = self.root(board, &mut root_moves);
        let Root::Open = root else {
            return result;
        };
        result.pv.clear();
        if self.settings.vcdt_depth > 0 {
            if let Some((m, score)) = T::prove_win(&mut self.gen, &mut self.clock, board, &self.settings) {
                result.best = m;
                result.score = score;
                result.pv = vec![m];
                return result;
            }
            if self.clock.stopped {
                return result;
            }
        }
        // At a fixed depth the two checks share a budget that grows with the depth;
        // the quiet check's move generation counts in it.
        let mut fixed_depth_left = fixed_depth_check_budget(limits);
        if self.settings.vcdt_depth > 0 && self.settings.refutation_nodes > 0 && root_moves.len() > 1 {
            let outer = self.clock.narrow(
                start,
                self.root_check_share(REFUTATION_CHECK_SHARE),
                fixed_depth_left.unwrap_or(u64::MAX),
            );
            let used = self.set_aside_refuted(board, &mut root_moves);
            self.clock.widen(outer);
            if self.clock.stopped {
                return result;
            }
            fixed_depth_left = fixed_depth_left.map(|left| left.saturating_sub(used));
            result.best = root_moves[0];
        }
        if self.settings.vcdt_depth > 0 && self.settings.quiet_refutation_nodes > 0 && root_moves.len() > 1 {
            // The check gets a share of the time under a clock and a budget of positions
            // always; the moves it has not reached when either runs out stay.
            let searches = if planned_time(&self.settings, limits) && self.searches == 1 {
                QUIET_CHECK_SEARCHES * FIRST_MOVE_QUIET_CHECK_FACTOR
            } else {
                QUIET_CHECK_SEARCHES
            };
            let budget = self.settings.quiet_refutation_nodes.saturating_mul(searches);
            let outer = self.clock.narrow(
                start,
                self.root_check_share(QUIET_CHECK_SHARE),
                budget.min(fixed_depth_left.unwrap_or(u64::MAX)),
            );
            self.set_aside_quietly_refuted(board, &mut root_moves, fixed_depth_left.is_some());
            self.clock.widen(outer);
            // The budget counted the move lists; the search reports the positions it visited.
            self.clock.take_back_charged();
            if self.clock.stopped {
                return result;
            }
            result.best = root_moves[0];
        }
        if self.settings.search == SearchKind::AlphabetaUnordered {
            super::alphabeta::board_order(&mut root_moves);
            result.best = root_moves[0];
        }
        if root_moves.len() == 1 && limits.depth.is_none() {
            // One legal answer: no need to think (only with a clock; fixed-depth searches
            // stay comparable).
            result.pv = vec![result.best];
            return result;
        }
        // A timed search leaves the last part of its time to the threat-space check below.
        let share = if self.settings.vcdt_depth > 0 { MAIN_SEARCH_SHARE } else { 1.0 };
        let outer = self.clock.narrow(start, share, u64::MAX);
        if self.helpers.is_empty() {
            self.deepen(board, &mut root_moves, max_depth, limits, start, &mut result);
        } else {
            self.deepen_with_helpers(board, &mut root_moves, max_depth, limits, start, &mut result);
        }
        // Stopped by the main search's share of the time only: the check may go on.
        self.clock.widen(outer);
        if self.settings.vcdt_depth > 0 && result.score.abs() <= MATE_BOUND && !self.clock.stopped {
            result.best = self.safe_root_move(board, result.best, &root_moves);
        }
        result.pv = self.principal_variation(board, result.best);
        result
    }

    /// The main search's iterative deepening over the root moves, from depth 1 to
    /// `max_depth` or until the clock or the soft time target stops it; `result` takes each
    /// completed iteration's move and score.
    pub(super) fn deepen(
        &mut self,
        board: &mut G::Position,
        root_moves: &mut [Move<G>],
        max_depth: u32,
        limits: &Limits,
        start: Instant,
        result: &mut SearchResult<Move<G>>,
    ) {
        let mut stable = 0;
        for depth in 1..=max_depth {
            let (score, best) = self.search_root(board, root_moves, depth as i32);
            let changed = !best.is_none() && best != result.best;
            if !best.is_none() {
                result.best = best;
                result.score = score;
            }
            if self.clock.stopped {
                break;
            }
            result.depth = depth;
            if score.abs() > MATE_BOUND {
                break;
            }
            // Under a clock, the soft target decides whether another iteration starts; with
            // a fixed time per move the search goes on until the time is up, since time left
            // over is lost, and an iteration cut short still searched the best move first.
            stable = if changed { 0 } else { stable + 1 };
            if let Some(soft) = limits.soft_ms {
                let factor = if changed && depth > 1 {
                    UNSTABLE_FACTOR
                } else if stable >= STABLE_ITERATIONS {
                    STABLE_FACTOR
                } else {
                    1.0
                };
                let elapsed = self.clock.now().saturating_duration_since(start);
                if elapsed.as_secs_f64() * 1000.0 >= soft as f64 * factor {
                    break;
                }
            }
        }
    }

    /// Drops the root moves after which the opponent has a proven win by the threat-space
    /// search within `refutation_nodes` positions each, unless that would drop them all. The
    /// main search cannot see a forced win longer than its horizon, and most of the long ones
    /// that decide games are threat sequences the threat-space search proves in a few hundred
    /// positions.
    /// Returns the most positions one thread visited.
    pub(super) fn set_aside_refuted(&mut self, board: &mut G::Position, moves: &mut Vec<Move<G>>) -> u64 {
        let check = EngineSettings { vcdt_nodes: self.settings.refutation_nodes, ..self.settings.clone() };
        self.set_aside(board, moves, move |engine, board, m| engine.lets_opponent_win(board, m, &check))
    }

    /// Drops the root moves after which the opponent has a quiet move that leaves every
    /// answer lost to the threat-space search (`quiet_refutation_nodes` positions each),
    /// unless that would drop them all. Against a strong attacker most lost games are lost
    /// this way: a building move first, then continuous threats, longer than the horizon and
    /// invisible to a threat-space search at the root, which starts from threats only.
    /// With `charge_generation` (a search without a clock), each move the generator lists
    /// counts as a position: listing the opponent's answers to every reply costs about as much
    /// as the threat-space searches themselves, and a budget that ignored it did not bound the
    /// check's time.
    pub(super) fn set_aside_quietly_refuted(
        &mut self,
        board: &mut G::Position,
        moves: &mut Vec<Move<G>>,
        charge_generation: bool,
    ) {
        let check = EngineSettings { vcdt_nodes: self.settings.quiet_refutation_nodes, ..self.settings.clone() };
        self.set_aside(board, moves, move |engine, board, m| {
            let placed = board.play(m);
            let (mut replies, mut answers) = (Vec::new(), Vec::new());
            let refuted = engine.has_quiet_win(board, &check, &mut replies, &mut answers, charge_generation);
            board.undo(placed);
            refuted
        });
    }

    /// A root check's share of the move's time: smaller when helper threads split the check.
    fn root_check_share(&self, one_thread: f64) -> f64 {
        if self.helpers.is_empty() {
            one_thread
        } else {
            CHECK_SHARE_WITH_HELPERS
        }
    }

    /// Keeps the moves `refuted` does not refute, unless it refutes them all; the moves are
    /// checked on every thread of the search. When the clock stops, the moves not yet
    /// checked (those in flight included) stay. Returns the most positions one thread
    /// visited.
    fn set_aside(
        &mut self,
        board: &mut G::Position,
        moves: &mut Vec<Move<G>>,
        refuted: impl Fn(&mut Self, &mut G::Position, Move<G>) -> bool + Send + Sync + 'static,
    ) -> u64 {
        let checked = self.check_root_moves(board, moves, refuted, false);
        let safe: Vec<_> =
            moves.iter().zip(&checked.verdicts).filter(|(_, v)| **v != Some(true)).map(|(&m, _)| m).collect();
        if !safe.is_empty() {
            *moves = safe;
        }
        checked.most_nodes
    }

    /// Whether the side to move has a move, among those its generator lists, after which
    /// every move the generator lists for the opponent loses to the threat-space search.
    fn has_quiet_win(
        &mut self,
        board: &mut G::Position,
        check: &EngineSettings,
        replies: &mut Vec<Move<G>>,
        answers: &mut Vec<Move<G>>,
        charge_generation: bool,
    ) -> bool {
        let root = G::root(&mut self.gen, board, replies);
        if self.count_listed(replies.len(), charge_generation) {
            return false;
        }
        if let Root::Decided(score) = root {
            return score > 0;
        }
        for &reply in replies.iter() {
            let placed = board.play(reply);
            let root = G::root(&mut self.gen, board, answers);
            if self.count_listed(answers.len(), charge_generation) {
                board.undo(placed);
                return false;
            }
            let wins = match root {
                Root::Decided(score) => score < 0,
                Root::Open => answers.iter().all(|&a| !self.clock.stopped && self.lets_opponent_win(board, a, check)),
            };
            board.undo(placed);
            if wins || self.clock.stopped {
                return wins && !self.clock.stopped;
            }
        }
        false
    }

    /// Counts a move list of `listed` moves of the check for quiet moves: as positions with
    /// `charge_generation`, else as time on a clock counted in positions
    /// ([`LISTED_MOVE_COST`]). True when the search must stop.
    fn count_listed(&mut self, listed: usize, charge_generation: bool) -> bool {
        if charge_generation {
            self.clock.charge(listed as u64)
        } else {
            self.clock.spend(listed as u64 * LISTED_MOVE_COST)
        }
    }

    /// Whether the opponent has a proven win by the threat-space search (within `check`'s
    /// depth and positions) after `m`. A clock counted in positions counts the search's
    /// positions at their cost ([`THREAT_SPACE_POSITION_COST`]); a verdict reached after
    /// the deadline by that count is dropped, as the wall clock would have stopped the search.
    fn lets_opponent_win(&mut self, board: &mut G::Position, m: Move<G>, check: &EngineSettings) -> bool {
        let placed = board.play(m);
        let before = self.clock.nodes;
        let refuted = T::has_proven_win(&mut self.gen, &mut self.clock, board, check);
        self.clock.spend((self.clock.nodes - before) * (THREAT_SPACE_POSITION_COST - 1));
        board.undo(placed);
        refuted
    }

    /// The first of the best root moves after which the opponent has no forced win by
    /// continuous double threats: the main search sees only the threats inside its horizon,
    /// the threat-space search sees the long ones. If every candidate loses, the search's
    /// choice stands.
    pub(super) fn safe_root_move(&mut self, board: &mut G::Position, best: Move<G>, moves: &[Move<G>]) -> Move<G> {
        let candidates: Vec<_> =
            std::iter::once(best).chain(moves.iter().copied().filter(|&m| m != best)).take(SAFETY_MOVES).collect();
        let check = self.settings.clone();
        let checked = self.check_root_moves(
            board,
            &candidates,
            move |engine, board, m| engine.lets_opponent_win(board, m, &check),
            true,
        );
        // The first candidate not refuted, unless the clock stopped a check before it.
        for (&m, verdict) in candidates.iter().zip(&checked.verdicts) {
            match verdict {
                Some(true) => continue,
                Some(false) => return m,
                None => break,
            }
        }
        best
    }

    /// Searches every root move at `depth`; returns the best score and move. On a stop, the
    /// move is the best among those fully searched (NONE if none was).
    pub(super) fn search_root(&mut self, board: &mut G::Position, moves: &mut [Move<G>], depth: i32) -> (i32, Move<G>) {
        let pvs = self.settings.search == SearchKind::Pvs;
        let mut alpha = -MATE;
        let beta = MATE;
        let mut best = Move::<G>::NONE;
        let mut best_index = 0;
        self.root_depth = depth;
        for (i, &m) in moves.iter().enumerate() {
            let placed = board.play(m);
            let score = if !pvs {
                -self.alphabeta(board, depth - 1, -beta, -alpha, 1)
            } else if i == 0 {
                -self.pvs::<PvNode>(board, depth - 1, -beta, -alpha, 1)
            } else {
                let s = -self.pvs::<NonPv>(board, depth - 1, -alpha - 1, -alpha, 1);
                if s > alpha && !self.clock.stopped {
                    -self.pvs::<PvNode>(board, depth - 1, -beta, -alpha, 1)
                } else {
                    s
                }
            };
            board.undo(placed);
            if self.clock.stopped {
                break;
            }
            if score > alpha || best.is_none() {
                alpha = alpha.max(score);
                best = m;
                best_index = i;
            }
        }
        // The best move goes first in the next iteration; the others keep their order (in
        // board order without ordering: each iteration searches the root as the first did).
        if !best.is_none() && self.settings.search != SearchKind::AlphabetaUnordered {
            moves[..=best_index].rotate_right(1);
            if pvs {
                self.tt.store(board.hash(), depth, alpha, Bound::Exact, best);
            }
        }
        (alpha, best)
    }

    pub(crate) fn pvs<N: NodeKind>(
        &mut self,
        board: &mut G::Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if depth <= 0 && G::quiesces(&self.gen) {
            return self.quiesce(board, alpha, beta, ply, 0);
        }
        if self.tick() {
            return 0;
        }
        if let Err(score) = self.node_entry(board, depth, ply) {
            return score;
        }
        let hash = board.hash();
        let mut tt_move = Move::<G>::NONE;
        if let Some(p) = self.tt.probe(hash) {
            tt_move = p.best;
            let score = from_tt(p.score, ply);
            if !N::PV && p.depth >= depth {
                let cut = match p.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }
        let alpha_orig = alpha;
        let mut best_score = -MATE;
        let mut best = Move::<G>::NONE;
        let child_depth = depth - 1 + self.extension(board, ply);
        let mut moves = std::mem::take(&mut self.stack[ply]);
        moves.clear();
        // The table's move and the killers are searched before any generation: when one
        // cuts off, as one does at most nodes of a well-ordered search, the generator is
        // never called.
        if !tt_move.is_none() && G::playable(board, tt_move) {
            moves.push(tt_move);
        }
        for k in self.killers[ply].into_iter().take(self.settings.killers) {
            if !k.is_none() && !moves.contains(&k) && G::killer_playable(board, k) {
                moves.push(k);
            }
        }
        // Then the generator's stages, each ordered by history: a first stage of a few likely
        // moves, cheap to find, and the rest only if none of those cuts off.
        let mut stage = 0;
        let mut more = true;
        let mut i = 0;
        let late_moves = G::LATE_MOVES;
        let mut reducible = None;
        // Futility, asked once before any move, with the node's own position on the board (off
        // the principal variation alpha stays put until a move cuts the node off): the bound
        // the node's quiet moves are taken to score, when they are futile.
        let futile = match late_moves.futility_margin(depth).filter(|_| !N::PV) {
            Some(margin) => {
                let quiet_node = G::reducible_node(board);
                reducible = Some(quiet_node);
                self.futility_bound(board, quiet_node, margin, alpha)
            }
            None => None,
        };
        // The last move searched stays on the board until the next one replaces it
        // (`Position::replay`: Connect6's siblings often share a stone, which then stays put),
        // or until the node reads its own position again or returns.
        let mut on_board = None;
        loop {
            while i == moves.len() && more {
                if let Some(placed) = on_board.take() {
                    board.undo(placed);
                }
                let mut rest = std::mem::take(&mut self.gen_scratch);
                more = self.generate_stage(board, depth, stage, &mut rest);
                stage += 1;
                self.order(&mut rest);
                let listed = moves.len();
                for &m in &rest {
                    if !moves[..listed].contains(&m) {
                        moves.push(m);
                    }
                }
                self.gen_scratch = rest;
            }
            if i == moves.len() {
                break;
            }
            let m = moves[i];
            // A late move of a quiet node: asked once a node whether it may be reduced.
            let prunable = !N::PV && i >= late_moves.move_count_limit(depth);
            let reduces = i >= REDUCE_FROM_MOVE && depth >= late_moves.reduce_from_depth;
            if (reduces || prunable) && reducible.is_none() {
                if let Some(placed) = on_board.take() {
                    board.undo(placed);
                }
                reducible = Some(G::reducible_node(board));
            }
            let late = reducible == Some(true) && reduces;
            let placed = match on_board.take() {
                Some(last) => board.replay(last, m),
                None => board.play(m),
            };
            let skippable = prunable || late || futile.is_some();
            let quiet = skippable && reducible == Some(true) && G::quiet_move(board, m);
            if quiet && prunable && best_score > -MATE_BOUND {
                on_board = Some(placed);
                i += 1;
                continue;
            }
            if let (true, Some(bound)) = (quiet, futile) {
                // Taken to score at most the bound, which does not reach alpha: the node's
                // upper bound includes it.
                best_score = best_score.max(bound);
                on_board = Some(placed);
                i += 1;
                continue;
            }
            let reduction = if late && quiet { late_moves.reduction(N::PV, depth, i) } else { 0 };
            let score = if i == 0 {
                -self.pvs::<N>(board, child_depth, -beta, -alpha, ply + 1)
            } else {
                let mut s = alpha + 1;
                if reduction > 0 {
                    s = -self.pvs::<NonPv>(board, child_depth - reduction, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && !self.clock.stopped {
                    s = -self.pvs::<NonPv>(board, child_depth, -alpha - 1, -alpha, ply + 1);
                }
                if N::PV && s > alpha && s < beta && !self.clock.stopped {
                    -self.pvs::<PvNode>(board, child_depth, -beta, -alpha, ply + 1)
                } else {
                    s
                }
            };
            on_board = Some(placed);
            i += 1;
            if self.clock.stopped {
                board.undo(placed);
                self.stack[ply] = moves;
                return 0;
            }
            if score > best_score {
                best_score = score;
                best = m;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        let bonus = (depth.max(1) * depth.max(1)) as u32;
                        for &c in m.history_keys() {
                            self.history[c as usize] = self.history[c as usize].saturating_add(bonus);
                        }
                        let killers = &mut self.killers[ply];
                        if self.settings.killers > 0 && killers[0] != m {
                            *killers = [m, killers[0]];
                        }
                        break;
                    }
                }
            }
        }
        if let Some(placed) = on_board {
            board.undo(placed);
        }
        self.stack[ply] = moves;
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(hash, depth, to_tt(best_score, ply), bound, best);
        best_score
    }

    /// How many turns more this node's children get ([`TreeGame::extension`](super::TreeGame::extension)):
    /// the game's extension up to [`EXTENSION_PLY_FACTOR`] times the iteration's depth in
    /// plies, and never where the child would reach the ply cap of the search's arrays (the node
    /// entry scores a node there statically anyway).
    #[inline]
    fn extension(&self, board: &G::Position, ply: usize) -> i32 {
        // The cap first: past it the game's reading of the board is not needed.
        let within = (ply as i32) < EXTENSION_PLY_FACTOR * self.root_depth && ply + 1 < MAX_PLY;
        if within {
            G::extension(&self.gen, board).max(0)
        } else {
            0
        }
    }

    /// The quiescence search past the horizon, `qply` plies past it, for a game that
    /// [`quiesces`](super::TreeGame::quiesces): a node facing a threat must answer it (its
    /// forced moves, no stand-pat); any other may stand pat on its static score, which cuts
    /// off at once when it reaches beta, and otherwise tries its attacks (Gomoku: its fours)
    /// with the window narrowed by that score. Every node counts on the clock; the table is
    /// neither read nor written (the nodes are cheap and most end on the stand-pat).
    fn quiesce(&mut self, board: &mut G::Position, mut alpha: i32, beta: i32, ply: usize, qply: usize) -> i32 {
        if self.tick() {
            return 0;
        }
        let mut moves = std::mem::take(&mut self.stack[ply]);
        moves.clear();
        let mut best = match G::horizon(&mut self.gen, &self.eval, board, ply, qply, &mut moves) {
            Quiescence::Score(score) => {
                self.stack[ply] = moves;
                return score;
            }
            Quiescence::Forced => -MATE,
            Quiescence::StandPat(score) => {
                if score >= beta {
                    self.stack[ply] = moves;
                    return score;
                }
                alpha = alpha.max(score);
                G::horizon_attacks(&mut self.gen, board, qply, &mut moves);
                score
            }
        };
        for &m in &moves {
            let placed = board.play(m);
            let score = -self.quiesce(board, -beta, -alpha, ply + 1, qply + 1);
            board.undo(placed);
            if self.clock.stopped {
                self.stack[ply] = moves;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.stack[ply] = moves;
        best
    }

    /// Futility pruning at a node off the principal variation near the horizon: when the
    /// node is reducible, faces no threat ([`TreeGame::unthreatened_node`](super::TreeGame::unthreatened_node)) and its static
    /// score plus `margin` does not reach a non-mate alpha, the bound its quiet moves are
    /// taken to score (and skipped); else none.
    fn futility_bound(&self, board: &G::Position, reducible: bool, margin: i32, alpha: i32) -> Option<i32> {
        if !reducible || alpha.abs() >= MATE_BOUND || !G::unthreatened_node(board) {
            return None;
        }
        let bound = self.eval.evaluate(board).saturating_add(margin);
        (bound <= alpha).then_some(bound)
    }

    /// Sorts by tier, then by history (stable: ties keep the generator's order).
    fn order(&self, moves: &mut [Move<G>]) {
        let key = |m: &Move<G>| -> (u8, u32) {
            (m.order_tier(), m.history_keys().iter().map(|&c| self.history[c as usize]).sum())
        };
        moves.sort_by_key(|m| std::cmp::Reverse(key(m)));
    }

    /// Follows table moves from the root to show the expected line.
    fn principal_variation(&mut self, board: &mut G::Position, first: Move<G>) -> Vec<Move<G>> {
        let mut pv = Vec::new();
        let mut placed = Vec::new();
        let mut m = first;
        while !m.is_none() && pv.len() < 16 && !board.status().is_over() && G::replayable(board, m) {
            pv.push(m);
            placed.push(board.play(m));
            m = self.tt.probe(board.hash()).map(|p| p.best).unwrap_or(Move::<G>::NONE);
        }
        for n in placed.into_iter().rev() {
            board.undo(n);
        }
        pv
    }
}

/// Whether a search of `limits` follows the time plan of `later_time_share`: a fixed time per
/// move alone (under a game clock the time manager plans, and depth or node limits are
/// not time).
pub(super) fn planned_time(settings: &EngineSettings, limits: &Limits) -> bool {
    settings.later_time_share < 1.0
        && limits.time_ms.is_some()
        && limits.soft_ms.is_none()
        && limits.depth.is_none()
        && limits.nodes.is_none()
}

/// The positions the root's refutation checks may visit together in a search of `limits`:
/// [`FIXED_DEPTH_CHECK_NODES`] times 4^(depth - 1) at a fixed depth, with or without a clock
/// as well (a fixed-depth player under a generous game clock plays the games it plays
/// without one); none (their own budgets only) under a clock or a node limit alone.
fn fixed_depth_check_budget(limits: &Limits) -> Option<u64> {
    let depth = limits.depth?;
    let growth = 4u64.saturating_pow(depth.max(1) - 1);
    Some(FIXED_DEPTH_CHECK_NODES.saturating_mul(growth))
}
