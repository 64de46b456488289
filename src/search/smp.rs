//! One search on several threads (Lazy SMP): the main thread's [`TreeSearch`] and its helpers,
//! each with its own generator, history, killers, move lists and clock, sharing one table.
//!
//! Two kinds of work are shared. The root's checks (the refutation checks before the main
//! search, the threat-space check of the chosen move after it) look at each root move on its
//! own: the threads take the moves one at a time from a shared counter, so that with a
//! clock more moves are checked in the same time, and without one the verdicts are those of
//! one thread. The iterative deepening runs on every thread over the same root moves into
//! the shared table; the move played is the main thread's, or a helper's when the helper
//! completed a deeper iteration than the main thread did or proved a win. A mate score
//! ends the search whichever thread finds it, as it ends a search on one thread.
//!
//! The helpers are threads started with the searcher and kept for its life
//! ([`pool`](super::pool)): the main thread hands them each piece of work and collects it.
//! On the wall clock it does not wait for a helper that has not started its piece by the
//! time the main thread is done with it (on a busy machine a thread may wait milliseconds
//! for a core); under limits counted in positions it does, so that the result does not
//! depend on the load.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::Arc;
use std::time::Instant;

use super::{Playouts, SearchResult, Tactics, TreeSearch, MATE_BOUND};
use crate::core::game::MoveOf;
use crate::core::limits::Limits;

type Move<G> = MoveOf<G>;

/// A helper's deepest completed iteration: its depth, score and best move.
type Completed<M> = (u32, i32, M);

/// What a helper thread hands back for a piece of work.
pub(super) enum HelperDone<M> {
    /// Its share of a root check: the verdicts it reached, its nodes and the work among them
    /// counted without visiting a position.
    Checked { share: Vec<(usize, bool)>, nodes: u64, charged: u64 },
    /// Its part of the iterative deepening: its nodes and its deepest completed iteration.
    Deepened { nodes: u64, completed: Option<Completed<M>> },
    /// It forgot its move-ordering memory (a new game).
    Forgot,
}

/// A helper thread of a search of `G` with tactics `T`.
pub(super) type HelperThread<G, T> = super::pool::Helper<TreeSearch<G, T>, HelperDone<MoveOf<G>>>;

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
                HelperDone::Checked { share, nodes: helper.clock.nodes, charged: helper.clock.charged }
            });
        }
        let mine = self.check_share(board, moves, &*refuted, &next, until_safe.then_some(&*first_safe));
        let mut most_nodes = self.clock.nodes - before;
        for (i, refuted) in mine {
            verdicts[i] = Some(refuted);
        }
        let take_back = self.clock.on_wall_clock();
        for helper in &self.helpers {
            if let Some(HelperDone::Checked { share, nodes, charged }) = helper.finish(take_back) {
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

    /// [`deepen`](Self::deepen) on this thread while the helpers search the same root moves
    /// on theirs, sharing the table, until this thread's search ends (their nodes go to
    /// `helper_nodes`). The helpers fill the table, which makes this thread's iterations
    /// cheaper and its cut-offs surer; when one of them completed a deeper iteration than
    /// this thread, its move and score are the result.
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
        // Raised by a helper whose completed iteration found a mate score: the search is
        // over, as it is when this thread finds one.
        let decided = Arc::new(AtomicBool::new(false));
        self.clock.stop = Some(Arc::clone(&decided));
        for (i, helper) in self.helpers.iter().enumerate() {
            let (mut board, mut moves, main_clock) = (board.clone(), root_moves.to_vec(), self.clock.clone());
            let decided = Arc::clone(&decided);
            helper.post(move |helper: &mut Self| {
                helper.clock.follow(&main_clock, budget);
                let (nodes, completed) = helper.help(&mut board, &mut moves, max_depth, i, &decided);
                HelperDone::Deepened { nodes, completed }
            });
        }
        self.deepen(board, root_moves, max_depth, limits, start, result);
        // Stopped by limits counted in positions (a node limit, or a clock counted in
        // positions), this thread leaves each helper to reach the same limits on its own: on
        // cores of their own the threads get there together, and on a loaded machine a
        // helper that had less of a core still does its share. On the wall clock, when the
        // main search ended early (a mate, its depth, its soft target), or when a helper
        // found a mate, the helpers stop now.
        let counted_limits = self.clock.counted.is_some() || self.clock.deadline.is_none();
        if !(self.clock.stopped && counted_limits) || decided.load(Relaxed) {
            self.stop_helpers.store(true, Relaxed);
        }
        let take_back = self.clock.on_wall_clock();
        self.clock.stop = None;
        let mut deepest: Option<Completed<Move<G>>> = None;
        for helper in &self.helpers {
            if let Some(HelperDone::Deepened { nodes, completed }) = helper.finish(take_back) {
                self.helper_nodes += nodes;
                if completed.is_some_and(|done| deepest.is_none_or(|d| plays_before(done, d))) {
                    deepest = completed;
                }
            }
        }
        if let Some((depth, score, best)) =
            deepest.filter(|&done| plays_before(done, (result.depth, result.score, result.best)))
        {
            (result.depth, result.score, result.best) = (depth, score, best);
        }
    }

    /// A helper thread's part of a search: iterative deepening over the root moves until
    /// `max_depth`, its clock's limits (the main thread's, see
    /// [`Clock::follow`](super::Clock::follow)), the main thread's stop, or a mate score,
    /// which raises `decided` to end the whole search; returns its nodes and its deepest
    /// completed iteration. Every other helper starts one depth deeper than the main thread,
    /// so that the threads do not all search the same tree at the same time.
    fn help(
        &mut self,
        board: &mut G::Position,
        root_moves: &mut [Move<G>],
        max_depth: u32,
        index: usize,
        decided: &AtomicBool,
    ) -> (u64, Option<Completed<Move<G>>>) {
        let first = if index.is_multiple_of(2) { 2 } else { 1 }.min(max_depth);
        let mut completed = None;
        for depth in first..=max_depth {
            let (score, best) = self.search_root(board, root_moves, depth as i32);
            if self.clock.stopped {
                break;
            }
            completed = Some((depth, score, best));
            if score.abs() > MATE_BOUND {
                decided.store(true, Relaxed);
                break;
            }
        }
        (self.clock.nodes, completed)
    }
}

/// Whether a completed iteration's result is played rather than `other`: a forced win
/// (the shorter one when both win), whatever the depths; otherwise the deeper iteration,
/// unless `other` is a forced win.
fn plays_before<M>(done: Completed<M>, other: Completed<M>) -> bool {
    let ((depth, score, _), (other_depth, other_score, _)) = (done, other);
    if score > MATE_BOUND || other_score > MATE_BOUND {
        score > other_score
    } else {
        depth > other_depth
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

    /// A helper's forced win is played over the main thread's deeper iteration that did not
    /// see it, the shorter of two wins over the longer; otherwise the deeper iteration is
    /// played, and a forced win is never replaced by a deeper iteration without one.
    #[test]
    fn a_proven_win_is_played_before_a_deeper_iteration() {
        use super::plays_before;
        use crate::search::MATE;
        let win_in = |turns: i32| MATE - (2 * turns - 1);
        assert!(plays_before((3, win_in(2), 'h'), (6, 120, 'm')));
        assert!(!plays_before((6, 120, 'm'), (3, win_in(2), 'h')));
        assert!(plays_before((5, win_in(2), 'h'), (5, win_in(3), 'm')));
        assert!(!plays_before((7, win_in(3), 'h'), (5, win_in(2), 'm')));
        assert!(plays_before((7, -40, 'h'), (6, 300, 'm')));
        assert!(!plays_before((6, 300, 'h'), (6, -40, 'm')));
        assert!(plays_before((7, -MATE + 4, 'h'), (6, 0, 'm')), "a deeper proven loss is a deeper iteration");
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
    /// stops at its time's worth of positions (40 ms at 250,000 a second: 10,000), whatever
    /// the machine's load; on two threads each thread has its own time's worth, so the
    /// search visits about twice the positions.
    #[test]
    fn a_clock_counted_in_positions_gives_each_thread_its_times_worth() {
        let one = counted_search(1);
        assert_eq!(counted_search(1), one, "deterministic on one thread");
        assert!((8_000..=11_000).contains(&one.0), "{one:?}");
        assert!(one.3 <= std::time::Duration::from_millis(44), "the time by its clock: {one:?}");
        let two = counted_search(2);
        assert!(two.0 as f64 > 1.6 * one.0 as f64 && (two.0 as f64) < 2.4 * one.0 as f64, "{two:?} vs {one:?}");
        assert!(two.3 <= std::time::Duration::from_millis(44), "the main thread's time: {two:?}");
    }
}
