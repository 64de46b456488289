//! A batch of games on the threads of the current rayon pool, by list scheduling: the games
//! are handed out one at a time, each to the first thread that is free, in the order a
//! hand-out policy ([`crate::dispatch`]) gives, and each game's times are kept (which thread,
//! when it started, its wall and CPU time).
//!
//! Handing out whole games one at a time, rather than splitting the batch into ranges up
//! front, leaves a thread idle only at the very end of the batch, for less than one game;
//! giving the longest games first makes that tail the length of a short game. The
//! times are what `evotune scaling` replays to predict the batch on more threads. Results
//! come back in the batch's own order whatever the thread count and hand-out order: a game
//! is a pure function of its job.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::dispatch::HandOut;

/// When and where one game of a batch was played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameTime {
    /// The game's index in the batch.
    pub game: usize,
    /// Its place in the hand-out order (0: handed out first).
    pub rank: usize,
    /// The pool thread that played it (0-based).
    pub worker: usize,
    /// When it started, after the batch started.
    pub start: Duration,
    /// Its wall time.
    pub wall: Duration,
    /// The CPU time its thread spent on it (zero where the system cannot tell).
    pub cpu: Duration,
}

/// When one thread of a batch took games, from its first to its last.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorkerTime {
    pub worker: usize,
    /// When it started taking games, after the batch started.
    pub start: Duration,
    /// Until it found none left.
    pub wall: Duration,
    /// Its CPU time meanwhile: its games' and the handing out's. Its wall time less its CPU
    /// time is time it did not run: waiting for a core on a loaded machine (the loop never
    /// waits for anything else but a lock held for an instant).
    pub cpu: Duration,
}

/// What a batch's threads did: each game's times (in hand-out order) and each thread's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BatchTimes {
    pub games: Vec<GameTime>,
    pub workers: Vec<WorkerTime>,
}

/// Plays `play(i)` for every `i < count`, each free thread of the current pool taking the game
/// `hand_out` gives next (and telling it the game's CPU time when it ends), and returns the
/// results in index order with the batch's times.
pub fn play_handed_out<T: Send>(
    count: usize,
    hand_out: &mut (dyn HandOut + Send),
    play: impl Fn(usize) -> T + Sync,
) -> (Vec<T>, BatchTimes) {
    // The policy and the number of games handed out so far (the next game's rank).
    let hand_out = Mutex::new((hand_out, 0usize));
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..count).map(|_| None).collect());
    let times: Mutex<Vec<GameTime>> = Mutex::new(Vec::with_capacity(count));
    let workers: Mutex<Vec<WorkerTime>> = Mutex::new(Vec::new());
    let start = Instant::now();
    let take_games = |worker: usize| loop {
        let (rank, game) = {
            let mut guard = hand_out.lock().unwrap_or_else(|e| e.into_inner());
            let (policy, handed) = &mut *guard;
            let Some(game) = policy.next() else { break };
            *handed += 1;
            (*handed - 1, game)
        };
        assert!(game < count, "a hand-out policy gave game {game} of a batch of {count}");
        let cpu0 = thread_cpu_time();
        let began = Instant::now();
        let result = play(game);
        let wall = began.elapsed();
        let cpu = thread_cpu_time().saturating_sub(cpu0);
        hand_out.lock().unwrap_or_else(|e| e.into_inner()).0.finished(game, cpu.as_secs_f64());
        results.lock().unwrap_or_else(|e| e.into_inner())[game] = Some(result);
        times.lock().unwrap_or_else(|e| e.into_inner()).push(GameTime {
            game,
            rank,
            worker,
            start: began - start,
            wall,
            cpu,
        });
    };
    let work = |worker: usize| {
        let (began, cpu0) = (Instant::now(), thread_cpu_time());
        take_games(worker);
        let cpu = thread_cpu_time().saturating_sub(cpu0);
        let w = WorkerTime { worker, start: began - start, wall: began.elapsed(), cpu };
        workers.lock().unwrap_or_else(|e| e.into_inner()).push(w);
    };
    if count > 0 {
        if rayon::current_num_threads() <= 1 || count == 1 {
            work(rayon::current_thread_index().unwrap_or(0));
        } else {
            rayon::broadcast(|ctx| work(ctx.index()));
        }
    }
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut games = times.into_inner().unwrap_or_else(|e| e.into_inner());
    games.sort_by_key(|t| t.rank);
    let mut workers = workers.into_inner().unwrap_or_else(|e| e.into_inner());
    workers.sort_by_key(|w| w.worker);
    (results.into_iter().map(|r| r.expect("every game is played")).collect(), BatchTimes { games, workers })
}

/// The CPU time of the calling thread so far (zero where the system cannot tell).
pub fn thread_cpu_time() -> Duration {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: clock_gettime writes the timespec it is given and nothing else.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32);
        }
    }
    Duration::ZERO
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::dispatch::InOrder;

    /// The games in `order` (empty: in turn).
    fn play_in_order<T: Send>(count: usize, order: &[usize], play: impl Fn(usize) -> T + Sync) -> (Vec<T>, BatchTimes) {
        let mut order = if order.is_empty() { InOrder::in_turn(count) } else { InOrder::new(order.to_vec()) };
        play_handed_out(count, &mut order, play)
    }

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
    }

    #[test]
    fn results_come_back_in_index_order_whatever_the_threads_and_order() {
        let square = |i: usize| i * i;
        let expected: Vec<usize> = (0..50).map(square).collect();
        let reversed: Vec<usize> = (0..50).rev().collect();
        for threads in [1, 3] {
            for order in [&[][..], &reversed[..]] {
                let (results, batch) = pool(threads).install(|| play_in_order(50, order, square));
                let times = batch.games;
                assert!(batch.workers.len() <= threads && batch.workers.iter().all(|w| w.worker < threads));
                assert_eq!(results, expected);
                // Every game once, listed in hand-out order, on a thread of the pool.
                assert_eq!(times.iter().map(|t| t.rank).collect::<Vec<_>>(), (0..50).collect::<Vec<_>>());
                let games: Vec<usize> = times.iter().map(|t| t.game).collect();
                let want: Vec<usize> = if order.is_empty() { (0..50).collect() } else { order.to_vec() };
                assert_eq!(games, want);
                assert!(times.iter().all(|t| t.worker < threads));
            }
        }
        let (none, batch) = pool(2).install(|| play_in_order(0, &[], square));
        assert!(none.is_empty() && batch.games.is_empty());
    }

    #[test]
    fn a_free_thread_takes_the_next_game_while_another_is_busy() {
        // Game 0 waits (up to 10 s) for game 1 to start: only a second thread can start it.
        let started = (Mutex::new(false), std::sync::Condvar::new());
        let play = |i: usize| {
            let (flag, cv) = &started;
            if i == 1 {
                *flag.lock().unwrap() = true;
                cv.notify_all();
                return true;
            }
            if i == 0 {
                let guard = flag.lock().unwrap();
                let (seen, _) = cv.wait_timeout_while(guard, Duration::from_secs(10), |s| !*s).unwrap();
                return *seen;
            }
            true
        };
        let (results, batch) = pool(2).install(|| play_in_order(6, &[], play));
        let times = batch.games;
        assert_eq!(batch.workers.len(), 2);
        assert!(results[0], "game 1 started while game 0 was being played");
        assert_ne!(times[0].worker, times[1].worker);
        assert!(times.iter().map(|t| t.cpu).sum::<Duration>() > Duration::ZERO, "CPU time is measured");
    }
}
