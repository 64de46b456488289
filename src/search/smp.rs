//! One search on several threads: the main thread's [`TreeSearch`] and its helpers, each with
//! its own generator, history, killers, move lists and clock, sharing one table.
//!
//! Two kinds of work are shared. The root's checks (the refutation checks before the main
//! search, the threat-space check of the chosen move after it) look at each root move on its
//! own: the threads take the moves one at a time from a shared counter, so that with a
//! clock more moves are checked in the same time, and without one the verdicts are those of
//! one thread. The iterative deepening shares out each iteration's root moves
//! ([`Iterations`]): the threads complete every iteration together, each root move searched
//! to the end by one of them, so that an iteration ends sooner than on one thread; the
//! move played is the last completed iteration's (or the best of the one in progress, as
//! on one thread). A mate score ends the search whichever thread finds it.
//!
//! The helpers are threads started with the searcher and kept for its life
//! ([`pool`](super::pool)): the main thread hands them each piece of work and collects it.
//! On the wall clock it does not wait for a helper that has not started its piece by the
//! time the main thread is done with it (on a busy machine a thread may wait milliseconds
//! for a core); under limits counted in positions it does, so that the result does not
//! depend on the load, and its counted clock then moves on to the helper's time
//! ([`Clock::catch_up`](super::Clock::catch_up)), as the wall clock would have.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use super::pvs::{NonPv, PvNode, STABLE_FACTOR, STABLE_ITERATIONS, UNSTABLE_FACTOR};
use super::tt::{Bound, TranspositionTable};
use super::{Playouts, SearchResult, Tactics, TreeSearch, MATE, MATE_BOUND};
use crate::core::game::{GameMove, MoveOf, Position};
use crate::core::limits::Limits;

type Move<G> = MoveOf<G>;

/// A completed iteration's score and best move.
type Completed<M> = (i32, M);

/// What a thread is told of the completed iterations (all of them, and the time now):
/// false ends the search.
type OnCompleted<'a, M> = dyn FnMut(&[Completed<M>], Instant) -> bool + 'a;

/// What a helper thread hands back for a piece of work.
pub(super) enum HelperDone {
    /// Its share of a root check: the verdicts it reached, its nodes and the work among them
    /// counted without visiting a position.
    Checked { share: Vec<(usize, bool)>, nodes: u64, charged: u64, end: Instant },
    /// Its part of the iterative deepening: its nodes.
    Deepened { nodes: u64, end: Instant },

    /// It forgot its move-ordering memory (a new game).
    Forgot,
}

/// A helper thread of a search of `G` with tactics `T`.
pub(super) type HelperThread<G, T> = super::pool::Helper<TreeSearch<G, T>, HelperDone>;

/// What the threads of a root check found: `verdicts[i]` is whether the check refuted root
/// move `i` (`None` when no thread finished checking it before its clock stopped).
pub(super) struct Verdicts {
    pub(super) verdicts: Vec<Option<bool>>,
    /// The most positions any one thread visited (the check's cost in time).
    pub(super) most_nodes: u64,
}

impl<G: Playouts, T: Tactics<G>> TreeSearch<G, T> {
    /// Checks `moves` with `refuted` on this thread and its helpers, the moves handed out one
    /// at a time in order. Every helper gets this thread's limits: its deadline and the
    /// positions it has left. With `until_safe`, no move is started after one found not
    /// refuted (the check wants the first such move). On one thread this is the plain loop:
    /// the moves in order until the clock stops. On the wall clock a helper that has not
    /// started when this thread runs out of moves is not waited for.
    pub(super) fn check_root_moves<F>(
        &mut self,
        board: &mut G::Position,
        moves: &[Move<G>],
        refuted: F,
        until_safe: bool,
    ) -> Verdicts
    where
        F: Fn(&mut Self, &mut G::Position, Move<G>) -> bool + Send + Sync + 'static,
    {
        let next = Arc::new(AtomicUsize::new(0));
        let first_safe = Arc::new(AtomicUsize::new(usize::MAX));
        let mut verdicts = vec![None; moves.len()];
        let before = self.clock.nodes;
        if self.helpers.is_empty() {
            for (i, refuted) in self.check_share(board, moves, &refuted, &next, until_safe.then_some(&*first_safe)) {
                verdicts[i] = Some(refuted);
            }
            return Verdicts { verdicts, most_nodes: self.clock.nodes - before };
        }
        let refuted = Arc::new(refuted);
        let budget = self.clock.node_limit.saturating_sub(self.clock.nodes);
        self.stop_helpers.store(false, Relaxed);
        for helper in &self.helpers {
            let (mut board, moves, main_clock) = (board.clone(), moves.to_vec(), self.clock.clone());
            let (refuted, next, first_safe) = (Arc::clone(&refuted), Arc::clone(&next), Arc::clone(&first_safe));
            helper.post(move |helper: &mut Self| {
                helper.clock.follow(&main_clock, budget);
                let first_safe = until_safe.then_some(&*first_safe);
                let share = helper.check_share(&mut board, &moves, &*refuted, &next, first_safe);
                HelperDone::Checked {
                    share,
                    nodes: helper.clock.nodes,
                    charged: helper.clock.charged,
                    end: helper.clock.now(),
                }
            });
        }
        let mine = self.check_share(board, moves, &*refuted, &next, until_safe.then_some(&*first_safe));
        let mut most_nodes = self.clock.nodes - before;
        for (i, refuted) in mine {
            verdicts[i] = Some(refuted);
        }
        let take_back = self.clock.on_wall_clock();
        for helper in &self.helpers {
            if let Some(HelperDone::Checked { share, nodes, charged, end }) = helper.finish(take_back) {
                self.clock.catch_up(end);
                for (i, refuted) in share {
                    verdicts[i] = Some(refuted);
                }
                most_nodes = most_nodes.max(nodes);
                // Work the check counted without visiting a position is not reported.
                self.helper_nodes += nodes - charged;
            }
        }
        Verdicts { verdicts, most_nodes }
    }

    /// One thread's part of [`check_root_moves`](Self::check_root_moves): takes the next
    /// move to check until none is left or the clock stops (the move in flight then has no
    /// verdict).
    fn check_share<F>(
        &mut self,
        board: &mut G::Position,
        moves: &[Move<G>],
        refuted: &F,
        next: &AtomicUsize,
        first_safe: Option<&AtomicUsize>,
    ) -> Vec<(usize, bool)>
    where
        F: Fn(&mut Self, &mut G::Position, Move<G>) -> bool,
    {
        let mut share = Vec::new();
        loop {
            let i = next.fetch_add(1, Relaxed);
            if i >= moves.len() || first_safe.is_some_and(|safe| safe.load(Relaxed) < i) {
                break;
            }
            let is_refuted = refuted(self, board, moves[i]);
            if self.clock.stopped {
                break;
            }
            share.push((i, is_refuted));
            if let (Some(safe), false) = (first_safe, is_refuted) {
                safe.fetch_min(i, Relaxed);
            }
        }
        share
    }

    /// The iterative deepening on this thread and its helpers together: the threads search
    /// each iteration's root moves between them ([`Iterations`]), so that an iteration ends
    /// sooner than on one thread, and `result` takes each completed iteration (whichever
    /// thread completed it) as in [`deepen`](Self::deepen), whose soft target decides here
    /// too whether another iteration starts.
    pub(super) fn deepen_with_helpers(
        &mut self,
        board: &mut G::Position,
        root_moves: &mut [Move<G>],
        max_depth: u32,
        limits: &Limits,
        start: Instant,
        result: &mut SearchResult<Move<G>>,
    ) {
        let budget = self.clock.node_limit.saturating_sub(self.clock.nodes);
        self.stop_helpers.store(false, Relaxed);
        let shared = Arc::new(Iterations::new(root_moves, max_depth, 1 + self.helpers.len()));
        for (i, helper) in self.helpers.iter().enumerate() {
            let (mut board, main_clock, shared) = (board.clone(), self.clock.clone(), Arc::clone(&shared));
            helper.post(move |helper: &mut Self| {
                helper.clock.follow(&main_clock, budget);
                helper.clock.abandon = Some(Arc::clone(&shared.abandon[i + 1]));
                helper.share_iterations(&mut board, &shared, i + 1, &mut |_, _| true);
                helper.clock.abandon = None;
                HelperDone::Deepened { nodes: helper.clock.nodes, end: helper.clock.now() }
            });
        }
        self.clock.abandon = Some(Arc::clone(&shared.abandon[0]));
        let mut progress = Progress { seen: 0, stable: 0 };
        self.share_iterations(board, &shared, 0, &mut |completed, now| {
            progress.take(completed, result, limits, start, now)
        });
        // Stopped by limits counted in positions (a node limit, or a clock counted in
        // positions), this thread leaves each helper to reach the same limits on its own: on
        // cores of their own the threads get there together. On the wall clock, or when the
        // search ended otherwise (a mate, its depth, its soft target), the helpers stop now.
        let counted_limits = self.clock.counted.is_some() || self.clock.deadline.is_none();
        if !(self.clock.stopped && counted_limits) {
            self.stop_helpers.store(true, Relaxed);
        }
        let take_back = self.clock.on_wall_clock();
        self.clock.abandon = None;
        for helper in &self.helpers {
            if let Some(HelperDone::Deepened { nodes, end }) = helper.finish(take_back) {
                self.clock.catch_up(end);
                self.helper_nodes += nodes;
            }
        }
        // What the helpers completed after this thread stopped, then the iteration in
        // progress as far as it went (its best move among those searched, as on one thread).
        let state = shared.lock();
        let _ = progress.take(&state.completed, result, limits, start, self.clock.now());
        root_moves.copy_from_slice(&state.order);
        if let Some((score, index)) = state.partial() {
            (result.best, result.score) = (root_moves[index], score);
            root_moves[..=index].rotate_right(1);
        }
    }

    /// One thread's part of the shared iterations ([`Iterations`]): takes a root move of the
    /// iteration in progress, searches it, hands in its score, until the iterations are over or
    /// the clock stops. `completed` is told of each completed iteration (with the time now)
    /// and ends the search by returning false.
    fn share_iterations(
        &mut self,
        board: &mut G::Position,
        shared: &Iterations<Move<G>>,
        me: usize,
        completed: &mut OnCompleted<'_, Move<G>>,
    ) {
        let mut seen = 0;
        let mut done: Option<(u32, usize, i32)> = None;
        loop {
            let work = {
                let mut state = shared.lock();
                if let Some((depth, index, score)) = done.take() {
                    state.hand_in(shared, me, depth, index, score, board.hash(), &self.tt);
                }
                if state.completed.len() > seen {
                    seen = state.completed.len();
                    if !completed(&state.completed, self.clock.now()) {
                        state.end(shared);
                    }
                }
                state.take(shared, me)
            };
            let Some((depth, index, m, alpha)) = work else {
                break;
            };
            let score = self.search_root_move(board, m, index == 0, alpha, depth as i32);
            if self.clock.stopped {
                shared.lock().leave(me, depth, index);
                if self.clock.resume_if_abandoned() {
                    continue;
                }
                break;
            }
            done = Some((depth, index, score));
        }
    }

    /// One root move's search at `depth` as [`search_root`](Self::search_root) searches it:
    /// the first move with the full window, the others with a null window above `alpha`
    /// and again with the full window when they beat it. Returns its score.
    fn search_root_move(&mut self, board: &mut G::Position, m: Move<G>, first: bool, alpha: i32, depth: i32) -> i32 {
        self.root_depth = depth;
        let placed = board.play(m);
        let score = if first {
            -self.pvs::<PvNode>(board, depth - 1, -MATE, MATE, 1)
        } else {
            let s = -self.pvs::<NonPv>(board, depth - 1, -alpha - 1, -alpha, 1);
            if s > alpha && !self.clock.stopped {
                -self.pvs::<PvNode>(board, depth - 1, -MATE, -alpha, 1)
            } else {
                s
            }
        };
        board.undo(placed);
        score
    }
}

/// What the main thread keeps of the completed iterations to decide, as
/// [`deepen`](TreeSearch::deepen) does, whether another starts.
struct Progress {
    seen: usize,
    stable: u32,
}

impl Progress {
    /// Takes the iterations completed since the last call into `result`; false when the
    /// soft target says no other iteration starts.
    fn take<M: Copy + PartialEq>(
        &mut self,
        completed: &[Completed<M>],
        result: &mut SearchResult<M>,
        limits: &Limits,
        start: Instant,
        now: Instant,
    ) -> bool {
        let mut more = true;
        for &(score, best) in &completed[self.seen.min(completed.len())..] {
            self.seen += 1;
            let changed = best != result.best;
            (result.best, result.score, result.depth) = (best, score, self.seen as u32);
            self.stable = if changed { 0 } else { self.stable + 1 };
            if let Some(soft) = limits.soft_ms {
                let factor = if changed && self.seen > 1 {
                    UNSTABLE_FACTOR
                } else if self.stable >= STABLE_ITERATIONS {
                    STABLE_FACTOR
                } else {
                    1.0
                };
                more &= now.saturating_duration_since(start).as_secs_f64() * 1000.0 < soft as f64 * factor;
            }
        }
        more
    }
}

/// The iterations of one search on several threads: each iteration's root moves shared out
/// between the threads. The first move (the last iteration's best) is searched by every
/// thread at once (Lazy SMP: they share the table) until one has its score, which is the
/// bound the others are searched against; then each thread takes the next move no thread has
/// taken, and when none is left joins a move another thread is still searching. The first
/// thread to finish a move hands in its score and the others searching it give it up
/// ([`Clock::abandon`](super::Clock::abandon)). When every move has its score the iteration
/// is complete: its best move goes first in the next.
pub(super) struct Iterations<M> {
    state: Mutex<IterationState<M>>,
    /// Each thread's signal to give up the move it searches.
    abandon: Vec<Arc<AtomicBool>>,
}

pub(super) struct IterationState<M> {
    max_depth: u32,
    /// The iteration in progress.
    depth: u32,
    /// The root moves in this iteration's order.
    order: Vec<M>,
    /// Whether each move has its score.
    scored: Vec<bool>,
    /// How many threads search each move.
    searching: Vec<u32>,
    /// The move each thread searches.
    working: Vec<Option<usize>>,
    /// Moves without a score.
    left: usize,
    /// The best score so far and its move, once the first move has its score.
    best: Option<(i32, usize)>,
    /// Each completed iteration's score and best move (depth 1 first).
    pub(super) completed: Vec<Completed<M>>,
    over: bool,
}

impl<M: Copy> Iterations<M> {
    fn new(moves: &[M], max_depth: u32, threads: usize) -> Iterations<M> {
        let state = IterationState {
            max_depth,
            depth: 1,
            order: moves.to_vec(),
            scored: vec![false; moves.len()],
            searching: vec![0; moves.len()],
            working: vec![None; threads],
            left: moves.len(),
            best: None,
            completed: Vec::new(),
            over: moves.is_empty() || max_depth == 0,
        };
        Iterations { state: Mutex::new(state), abandon: (0..threads).map(|_| Arc::default()).collect() }
    }

    fn lock(&self) -> MutexGuard<'_, IterationState<M>> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl<M: Copy> IterationState<M> {
    /// The next move for thread `me`: the iteration, the move's index and the move, and the
    /// bound to search it against. None when the iterations are over.
    fn take(&mut self, shared: &Iterations<M>, me: usize) -> Option<(u32, usize, M, i32)> {
        shared.abandon[me].store(false, Relaxed);
        if self.over {
            return None;
        }
        let index = match self.best {
            None => 0,
            Some(_) => (0..self.order.len())
                .filter(|&i| !self.scored[i])
                .min_by_key(|&i| (self.searching[i], i))
                .expect("an iteration with every move scored is complete"),
        };
        self.searching[index] += 1;
        self.working[me] = Some(index);
        Some((self.depth, index, self.order[index], self.best.map_or(-MATE, |(alpha, _)| alpha)))
    }

    /// Thread `me` no longer searches move `index` of iteration `depth`.
    fn leave(&mut self, me: usize, depth: u32, index: usize) {
        if depth == self.depth && self.working[me] == Some(index) {
            self.searching[index] -= 1;
        }
        self.working[me] = None;
    }

    /// Thread `me` hands in the score of move `index` of iteration `depth`: the first score
    /// of a move counts, and the other threads searching it give it up. The last move's
    /// completes the iteration, which goes into the table at the root (`root_hash`).
    #[allow(clippy::too_many_arguments)]
    fn hand_in(
        &mut self,
        shared: &Iterations<M>,
        me: usize,
        depth: u32,
        index: usize,
        score: i32,
        root_hash: u64,
        tt: &TranspositionTable<M>,
    ) where
        M: GameMove,
    {
        self.leave(me, depth, index);
        if self.over || depth != self.depth || self.scored[index] {
            return;
        }
        self.scored[index] = true;
        self.left -= 1;
        if self.best.is_none_or(|(alpha, _)| score > alpha) {
            self.best = Some((score, index));
        }
        for (thread, working) in self.working.iter().enumerate() {
            if *working == Some(index) {
                shared.abandon[thread].store(true, Relaxed);
            }
        }
        if self.left > 0 {
            return;
        }
        let (alpha, best) = self.best.take().expect("a complete iteration has a best move");
        self.completed.push((alpha, self.order[best]));
        self.order[..=best].rotate_right(1);
        tt.store(root_hash, depth as i32, alpha, Bound::Exact, self.order[0]);
        if alpha.abs() > MATE_BOUND || depth >= self.max_depth {
            self.over = true;
        } else {
            self.depth += 1;
            self.scored.fill(false);
            self.searching.fill(0);
            self.left = self.order.len();
        }
    }

    /// Ends the iterations: every thread gives up its move.
    fn end(&mut self, shared: &Iterations<M>) {
        self.over = true;
        for abandon in &shared.abandon {
            abandon.store(true, Relaxed);
        }
    }

    /// The best score of the iteration in progress and its move's index, once its first
    /// move is scored.
    fn partial(&self) -> Option<(i32, usize)> {
        self.best.filter(|_| !self.over)
    }
}

#[cfg(test)]
mod tests {
    use crate::core::game::MoveOf;
    use crate::core::settings::EngineSettings;
    use crate::games::connect::notation::{board_from_record_moves, move_to_record};
    use crate::games::connect::{Connect6, Rules};
    use crate::search::{Searchable, Searcher};

    /// What the root's three checks keep of the root moves on `threads` threads, without a
    /// clock: the moves the refutation check keeps, those the quiet check keeps after it, the
    /// move the threat-space check after the search picks among refuted moves and others;
    /// and the positions the helpers visited. The position is one where both refutation
    /// checks set moves aside (tests/search.rs).
    fn root_checks(threads: usize) -> (Vec<String>, Vec<String>, String, u64) {
        let connect6 = crate::registry::find("connect6").unwrap();
        let table = crate::player::load_weights("weights/connect6-versus-cloudict.toml", None, connect6).unwrap().0;
        let settings =
            EngineSettings { search_threads: threads, quiet_refutation_nodes: 300, ..EngineSettings::default() };
        let mut search = <Connect6 as Searchable>::Searcher::new(settings, &table);
        let mut board = board_from_record_moves(Rules::CONNECT6, &["m7", "k7k8", "l8j10", "j9k9"]).unwrap();
        let mut moves = Vec::new();
        search.root(&board, &mut moves);
        let all = moves.clone();
        let record = |m: &MoveOf<Connect6>| move_to_record(Rules::CONNECT6, m.stones());
        search.set_aside_refuted(&mut board, &mut moves);
        let refuted: Vec<_> = moves.iter().map(record).collect();
        search.set_aside_quietly_refuted(&mut board, &mut moves, false);
        let quiet: Vec<_> = moves.iter().map(record).collect();
        // Three moves the refutation check set aside, then the others: the first three
        // candidates are refuted, and the first move kept is the fourth.
        let lost: Vec<_> = all.iter().filter(|m| !refuted.contains(&record(m))).take(3).collect();
        let candidates: Vec<_> =
            lost.iter().copied().chain(all.iter().filter(|m| !lost.contains(m))).copied().collect();
        let safe = search.safe_root_move(&mut board, candidates[0], &candidates);
        (refuted, quiet, record(&safe), search.helper_nodes)
    }

    /// The threads share the root moves of each check, and without a clock they set aside
    /// exactly the moves one thread does (and the threat-space check picks the same move).
    #[test]
    fn the_root_checks_on_several_threads_keep_what_one_thread_keeps() {
        let one = root_checks(1);
        assert!(one.0.len() < 32 && one.1.len() < one.0.len(), "{one:?}");
        assert_eq!(one.2, one.0[0]);
        for threads in [2, 3] {
            let many = root_checks(threads);
            assert_eq!((&many.0, &many.1, &many.2), (&one.0, &one.1, &one.2), "{threads} threads");
            assert!(many.3 > 0, "the helpers checked no move on {threads} threads");
        }
        assert_eq!(one.3, 0);
    }

    /// With helper threads the root checks get a smaller share of the move
    /// (`CHECK_SHARE_WITH_HELPERS`, 15%) and still catch a known losing move: in the position
    /// of the search tests' quiet refutation (a game against Cloudict, its table), two threads
    /// at 600 ms counted at 1,140,000 positions a second play `l9k10` without the check for
    /// quiet moves and set it aside with it (in 90 ms of checks). Each thread's time is its
    /// positions, but which thread checks which move depends on the scheduler: 200 ms (30 ms
    /// of checks) caught the move on free cores and missed it once in the whole test suite,
    /// where a busy thread checked fewer moves; 600 ms passed every run with both threads
    /// pinned to one core and with three busy processes beside them.
    #[test]
    fn two_threads_set_aside_a_quietly_refuted_move_within_their_smaller_share() {
        const TIME_MS: u64 = 600;
        let connect6 = crate::registry::find("connect6").unwrap();
        let table = crate::player::load_weights("weights/connect6-versus-cloudict.toml", None, connect6).unwrap().0;
        let best = |quiet_refutation_nodes: u64| {
            let settings = EngineSettings {
                search_threads: 2,
                clock_nps: 1_140_000,
                quiet_refutation_nodes,
                ..EngineSettings::default()
            };
            let mut engine = crate::search::Engine::<Connect6>::new(settings, &table);
            let mut board = board_from_record_moves(Rules::CONNECT6, &["m7", "k7k8", "l8j10", "j9k9"]).unwrap();
            let result = engine.search(&mut board, &crate::core::limits::Limits::time_ms(TIME_MS));
            move_to_record(Rules::CONNECT6, result.best.stones())
        };
        assert_eq!(best(0), "l9k10");
        for _ in 0..3 {
            assert_ne!(best(3_000), "l9k10");
        }
    }

    /// A timed search on a clock counted in positions: `(nodes, move, depth, elapsed)`.
    fn counted_search(threads: usize) -> (u64, String, u32, std::time::Duration) {
        let weights = crate::games::connect::eval::CONNECT6_ROADS.defaults();
        let settings = EngineSettings { search_threads: threads, clock_nps: 250_000, ..EngineSettings::default() };
        let mut engine = crate::search::Engine::<Connect6>::new(settings, &weights);
        let mut board = board_from_record_moves(Rules::CONNECT6, &["j10", "k11k9", "h10i9"]).unwrap();
        let result = engine.search(&mut board, &crate::core::limits::Limits::time_ms(40));
        (result.nodes, move_to_record(Rules::CONNECT6, result.best.stones()), result.depth, result.elapsed)
    }

    /// On a clock counted in positions a timed search on one thread is deterministic and
    /// stops at its time's worth of positions (40 ms at 250,000 a second: 10,000, of which
    /// the root checks' threat-space positions count twice), whatever the machine's load; on
    /// two threads each thread has its own time's worth, so the search visits about twice the
    /// positions.
    #[test]
    fn a_clock_counted_in_positions_gives_each_thread_its_times_worth() {
        let one = counted_search(1);
        assert_eq!(counted_search(1), one, "deterministic on one thread");
        assert!((6_000..=10_000).contains(&one.0), "{one:?}");
        assert!(one.3 <= std::time::Duration::from_millis(44), "the time by its clock: {one:?}");
        let two = counted_search(2);
        assert!(two.0 as f64 > 1.6 * one.0 as f64 && (two.0 as f64) < 2.4 * one.0 as f64, "{two:?} vs {one:?}");
        assert!(two.3 <= std::time::Duration::from_millis(44), "the main thread's time: {two:?}");
    }
}
