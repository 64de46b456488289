//! The scaling model of a GA run: its `trace.csv` replayed for N threads.
//!
//! A generation is its games, handed out one at a time in the executor's order to the first
//! free thread (list scheduling, as [`crate::workers`] does it), and its sequential
//! phases (scheduling, concluding, the checkpoint and result files), which no thread count
//! shortens. Replaying each recorded generation for N threads gives its time on N threads:
//! the last thread to finish its last game ends the games, then the sequential part. The
//! loss against N times one thread splits into the *barrier tail* (threads idle at the end of
//! the games, waiting for the last game) and the *sequential* part (N-1 threads idle).
//!
//! A game's time is its CPU time by default: what the game costs on a core of its own,
//! whatever else the machine was doing when it was recorded (its wall time on a loaded machine
//! includes waiting for a core); so is a sequential phase's, but for the waits for work on
//! other threads (`commit-wait`, `results-wait`), which take their wall time. The model leaves out what more threads cost the games
//! themselves (memory bandwidth, caches): validate it against measured runs
//! (`evotune scaling RUN --against OTHER_RUN`).

use std::collections::BTreeMap;

use crate::cluster::steal::SHARE_PERIOD;
use crate::dispatch::{deal_by_class, makespan, InOrder, LongestClassFirst, ShardOrder};
use crate::report::trace::{TraceRow, BACKGROUND_COMMIT, BACKGROUND_RESULTS, GAMES, WORKER};

/// Which of a game's recorded times the model replays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GameClock {
    /// The CPU time of the thread that played it (independent of the machine's load).
    Cpu,
    /// Its wall time (as the run saw it, load included).
    Wall,
}

/// The order the replay hands the games out in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Order {
    /// The order the run handed them out in.
    Recorded,
    /// Longest first by their recorded times: what knowing each game's length in advance
    /// would give (a bound for any order).
    Longest,
    /// As the executor hands them out ([`crate::dispatch::LongestClassFirst`]): the first
    /// game of each class, then the classes whose games took longest so far, replayed for the
    /// threads predicted (traces without classes: as recorded).
    ByClass,
}

/// One recorded generation.
#[derive(Clone, Debug, PartialEq)]
pub struct Generation {
    pub generation: u32,
    /// Threads it was played on.
    pub threads: usize,
    /// Each game's recorded (wall, cpu) seconds and its worker, in hand-out order.
    pub games: Vec<GameTimes>,
    /// Wall seconds of the generation's games (the `games` phase).
    pub games_wall_s: f64,
    /// Wall seconds of its sequential phases (every phase but the games).
    pub sequential_s: f64,
    /// What its sequential phases cost on a core of their own: their CPU time, and the
    /// waits for work on other threads (the checkpoint, the derived files: `*-wait`) at their
    /// wall time.
    pub sequential_cpu_s: f64,
    /// Each thread's (wall, cpu) seconds from its first game to its last.
    pub workers: Vec<(f64, f64)>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameTimes {
    /// Its index in the generation's schedule.
    pub game: usize,
    /// Its hand-out class, if the trace has one.
    pub class: Option<usize>,
    pub wall_s: f64,
    pub cpu_s: f64,
    pub worker: usize,
}

impl GameTimes {
    fn time(&self, clock: GameClock) -> f64 {
        match clock {
            GameClock::Cpu => self.cpu_s,
            GameClock::Wall => self.wall_s,
        }
    }
}

impl Generation {
    /// Its sequential phases' seconds by `clock`.
    pub fn sequential(&self, clock: GameClock) -> f64 {
        match clock {
            GameClock::Cpu => self.sequential_cpu_s,
            GameClock::Wall => self.sequential_s,
        }
    }

    /// Its measured wall seconds: games and sequential phases.
    pub fn wall_s(&self) -> f64 {
        self.games_wall_s + self.sequential_s
    }

    /// The share of its threads' time that went into games while its games were played
    /// (busy time over threads x games' wall time; 1 is no thread ever idle).
    pub fn busy(&self) -> f64 {
        let busy: f64 = self.games.iter().map(|g| g.wall_s).sum();
        busy / (self.threads.max(1) as f64 * self.games_wall_s).max(1e-12)
    }
}

/// The generations of a trace, in order; generations without games (played elsewhere) are
/// left out.
pub fn generations(rows: &[TraceRow]) -> Vec<Generation> {
    let mut by_gen: BTreeMap<u32, Vec<&TraceRow>> = BTreeMap::new();
    for r in rows {
        by_gen.entry(r.generation).or_default().push(r);
    }
    by_gen
        .into_iter()
        .filter_map(|(generation, rows)| {
            let mut games: Vec<(usize, GameTimes)> = rows
                .iter()
                .filter(|r| r.is_game())
                .map(|r| {
                    let t = GameTimes {
                        game: r.game.unwrap_or(0),
                        class: r.class,
                        wall_s: r.wall_s,
                        cpu_s: r.cpu_s,
                        worker: r.worker.unwrap_or(0),
                    };
                    (r.rank.unwrap_or(0), t)
                })
                .collect();
            if games.is_empty() {
                return None;
            }
            games.sort_by_key(|&(rank, _)| rank);
            let games_wall_s = rows.iter().filter(|r| r.kind == GAMES).map(|r| r.wall_s).sum();
            let sequential_s = rows.iter().filter(|r| is_sequential(r)).map(|r| r.wall_s).sum();
            let sequential_cpu_s = rows
                .iter()
                .filter(|r| is_sequential(r))
                .map(|r| if r.kind.ends_with("-wait") { r.wall_s } else { r.cpu_s })
                .sum();
            let workers = rows.iter().filter(|r| r.kind == WORKER).map(|r| (r.wall_s, r.cpu_s)).collect();
            Some(Generation {
                generation,
                threads: rows[0].threads,
                games: games.into_iter().map(|(_, t)| t).collect(),
                games_wall_s,
                sequential_s,
                sequential_cpu_s,
                workers,
            })
        })
        .collect()
}

/// Whether a trace line is a sequential phase of its generation (no game, the span of the
/// games, a thread's line or a commit that overlapped the next generation's games).
fn is_sequential(r: &TraceRow) -> bool {
    !r.is_game() && ![GAMES, WORKER, BACKGROUND_COMMIT, BACKGROUND_RESULTS].contains(&r.kind.as_str())
}

/// The generations as a config with `times` times the game pairs would play them: each
/// generation's classes of alike games `times` times over, as new classes (games on other
/// openings, drawn alike), so that the games and their classes grow as the pairs do. The
/// sequential phases are kept as recorded.
pub fn repeated(gens: &[Generation], times: usize) -> Vec<Generation> {
    gens.iter()
        .map(|g| {
            let n = g.games.iter().map(|t| t.game + 1).max().unwrap_or(0);
            let classes = g.games.iter().filter_map(|t| t.class).map(|c| c + 1).max().unwrap_or(0);
            let games = (0..times.max(1))
                .flat_map(|copy| {
                    g.games.iter().map(move |t| GameTimes {
                        game: copy * n + t.game,
                        class: t.class.map(|c| copy * classes + c),
                        ..*t
                    })
                })
                .collect();
            Generation { games, ..g.clone() }
        })
        .collect()
}

/// Where `threads` threads' time goes over the replayed generations (seconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction {
    pub threads: usize,
    pub games: usize,
    /// The generations' time on `threads` threads.
    pub wall_s: f64,
    /// The same work on one thread: every game and the sequential phases.
    pub one_thread_s: f64,
    /// Thread-seconds idle at the end of the games (the barrier tail).
    pub tail_s: f64,
    /// Seconds of the sequential phases.
    pub sequential_s: f64,
}

impl Prediction {
    pub fn games_per_s(&self) -> f64 {
        self.games as f64 / self.wall_s.max(1e-12)
    }

    /// Time on one thread over `threads` times the time on `threads`.
    pub fn efficiency(&self) -> f64 {
        self.one_thread_s / (self.threads as f64 * self.wall_s).max(1e-12)
    }

    /// The share of the threads' time lost to the barrier tail.
    pub fn tail_loss(&self) -> f64 {
        self.tail_s / (self.threads as f64 * self.wall_s).max(1e-12)
    }

    /// The share lost while one thread does the sequential phases.
    pub fn sequential_loss(&self) -> f64 {
        (self.threads as f64 - 1.0) * self.sequential_s / (self.threads as f64 * self.wall_s).max(1e-12)
    }
}

/// The recorded generations replayed on `threads` threads.
pub fn predict(gens: &[Generation], threads: usize, clock: GameClock, order: Order) -> Prediction {
    predict_at(gens, threads, clock, order, 1.0)
}

/// [`predict`] on a machine where each thread gets `share` of a core (the games and the
/// sequential phases take 1/share as long).
pub fn predict_at(gens: &[Generation], threads: usize, clock: GameClock, order: Order, share: f64) -> Prediction {
    let mut p = Prediction { threads, games: 0, wall_s: 0.0, one_thread_s: 0.0, tail_s: 0.0, sequential_s: 0.0 };
    for g in gens {
        let mut times: Vec<f64> = g.games.iter().map(|t| t.time(clock) / share.max(1e-6)).collect();
        let by_class = order == Order::ByClass && g.games.iter().all(|t| t.class.is_some());
        let span = if by_class {
            // By game index, as the executor sees the batch.
            let mut games: Vec<&GameTimes> = g.games.iter().collect();
            games.sort_by_key(|t| t.game);
            times = games.iter().map(|t| t.time(clock) / share.max(1e-6)).collect();
            let classes: Vec<usize> = games.iter().filter_map(|t| t.class).collect();
            makespan(&times, threads, &mut LongestClassFirst::new(&classes))
        } else {
            if order == Order::Longest {
                times.sort_by(|a, b| b.total_cmp(a));
            }
            makespan(&times, threads, &mut InOrder::in_turn(times.len()))
        };
        let work: f64 = times.iter().sum();
        let sequential = g.sequential(clock) / share.max(1e-6);
        p.games += times.len();
        p.wall_s += span + sequential;
        p.one_thread_s += work + sequential;
        p.tail_s += threads as f64 * span - work;
        p.sequential_s += sequential;
    }
    p
}

/// A cluster run's layout (`--executor slurm|parallel`): each generation's games split into
/// `shards` shards as the plan deals them ([`deal_by_class`]), each shard handing out its
/// games on `threads` threads as the one-machine executor does (long classes first,
/// [`ShardOrder`]), the shards started in order on `nodes` machines, each taking the next
/// shard when its last one ends (a job array with at most `nodes` tasks running). With
/// `steal` (what `evotune cluster play` does), a shard's thread that finds no game of its own
/// left takes a game nobody has taken of the shards after its own (each one's games from the
/// back of its order), and the shard ends once its own games taken by others have ended;
/// without, each shard plays its fixed list. `shard_start` seconds pass between a machine
/// taking a shard and the shard's first game (the process's start, reading the plan,
/// building the players); `generation_start` seconds are added to each generation (planning,
/// starting the batch, seeing it end, gathering the shards).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cluster {
    pub shards: usize,
    pub threads: usize,
    pub nodes: usize,
    pub steal: bool,
    pub shard_start: f64,
    pub generation_start: f64,
}

impl Cluster {
    /// `shards` shards of `threads` threads on `nodes` machines, with stealing and no fixed
    /// costs.
    pub fn new(shards: usize, threads: usize, nodes: usize) -> Cluster {
        Cluster { shards, threads, nodes, steal: true, shard_start: 0.0, generation_start: 0.0 }
    }
}

/// The recorded generations replayed as a cluster run laid out as `cluster`: a
/// [`Prediction`] for its `nodes` x `threads` cores, whose barrier tail is every core idle
/// before the generation's last shard ends (inside a shard waiting for its last game, a
/// machine with no shard left, a shard starting) and during the generation's fixed cost. The
/// sequential phases are the recorded run's.
pub fn predict_cluster(gens: &[Generation], cluster: Cluster, clock: GameClock) -> Prediction {
    predict_cluster_stolen(gens, cluster, clock).0
}

/// [`predict_cluster`] and the games a shard other than their own plays, a generation on
/// average.
pub fn predict_cluster_stolen(gens: &[Generation], cluster: Cluster, clock: GameClock) -> (Prediction, f64) {
    let (shards, threads, nodes) = (cluster.shards.max(1), cluster.threads.max(1), cluster.nodes.max(1));
    let cores = nodes * threads;
    let mut p = Prediction { threads: cores, games: 0, wall_s: 0.0, one_thread_s: 0.0, tail_s: 0.0, sequential_s: 0.0 };
    let mut stolen = 0;
    for g in gens {
        let mut games: Vec<&GameTimes> = g.games.iter().collect();
        games.sort_by_key(|t| t.game);
        let times: Vec<f64> = games.iter().map(|t| t.time(clock)).collect();
        let classes: Vec<usize> = games.iter().map(|t| t.class.unwrap_or(0)).collect();
        let shard_of = deal_by_class(&classes, shards);
        let games_of: Vec<Vec<usize>> =
            (0..shards).map(|s| (0..times.len()).filter(|&k| shard_of[k] == s).collect()).collect();
        let layout = Cluster { shards, threads, nodes, ..cluster };
        let (span, n) = replay_shards(&times, &classes, &games_of, layout);
        stolen += n;
        let work: f64 = times.iter().sum();
        let sequential = g.sequential(clock);
        // Every core waits while the generation starts and ends: idle, as in the tail.
        let fixed = cluster.generation_start;
        p.games += times.len();
        p.wall_s += span + fixed + sequential;
        p.one_thread_s += work + sequential;
        p.tail_s += cores as f64 * (span + fixed) - work;
        p.sequential_s += sequential;
    }
    (p, stolen as f64 / gens.len().max(1) as f64)
}

/// One generation of a cluster run, event by event: `games_of[s]` is shard s+1's games in
/// schedule order, `times[k]` game k's time, `classes[k]` its class. Each free thread (the
/// first machine's, the first thread's of equals) takes its shard's next game
/// ([`ShardOrder`]), told first of the games its shard's threads ended by then and of the
/// other shards' games that ended [`SHARE_PERIOD`] before (the shards tell each other their
/// class times that often); else, with stealing, the next game nobody has taken of the other
/// shards; else it waits for the shard's games others play. Returns when the last shard ends
/// and how many games a shard other than their own played.
fn replay_shards(times: &[f64], classes: &[usize], games_of: &[Vec<usize>], cluster: Cluster) -> (f64, usize) {
    let Cluster { shards, threads, nodes, steal, shard_start, .. } = cluster;
    let share_s = SHARE_PERIOD.as_secs_f64();
    let mut owner = vec![0; times.len()];
    for (s, mine) in games_of.iter().enumerate() {
        for &k in mine {
            owner[k] = s;
        }
    }
    // Each game taken: when it ends and the shard that plays it.
    let mut taken: Vec<Option<(f64, usize)>> = vec![None; times.len()];
    // A machine: its shard, its order, each thread's time free (None: the thread has ended)
    // and the game it plays.
    struct Machine {
        shard: usize,
        order: ShardOrder,
        free: Vec<Option<f64>>,
        playing: Vec<Option<usize>>,
        ended: f64,
    }
    let start = |shard: usize, at: f64| Machine {
        shard,
        order: ShardOrder::new(classes, games_of, shard),
        free: vec![Some(at + shard_start); threads],
        playing: vec![None; threads],
        ended: at,
    };
    let mut next_shard = 0;
    let mut machines: Vec<Machine> = Vec::new();
    while machines.len() < nodes && next_shard < shards {
        machines.push(start(next_shard, 0.0));
        next_shard += 1;
    }
    let class_count = classes.iter().collect::<std::collections::BTreeSet<_>>().len();
    let mut stolen = 0;
    let mut last = 0.0f64;
    loop {
        // The thread free first (ties: the first machine, the first thread).
        let mut pick: Option<(usize, usize, f64)> = None;
        for (m, machine) in machines.iter().enumerate() {
            for (t, free) in machine.free.iter().enumerate() {
                if let Some(at) = *free {
                    if pick.is_none_or(|(_, _, best)| at < best) {
                        pick = Some((m, t, at));
                    }
                }
            }
        }
        let Some((m, t, now)) = pick else { break };
        let machine = &mut machines[m];
        let s = machine.shard;
        // The games its threads ended by now, in the order they ended, as the executor
        // reports them before handing out the next.
        let mut ended: Vec<(f64, usize)> = (0..threads)
            .filter(|&j| machine.playing[j].is_some() && machine.free[j].is_some_and(|f| f <= now))
            .map(|j| (machine.free[j].unwrap_or(now), j))
            .collect();
        ended.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (_, j) in ended {
            let game = machine.playing[j].take().expect("a game in play");
            machine.order.finished(game, times[game]);
        }
        if steal && shards > 1 {
            let mut shared = vec![(0u32, 0.0f64); class_count];
            for (k, t) in taken.iter().enumerate() {
                if let Some((end, by)) = *t {
                    if by != s && end + share_s <= now {
                        let c = &mut shared[machine.order.class(k)];
                        c.0 += 1;
                        c.1 += times[k];
                    }
                }
            }
            machine.order.set_shared(&shared);
        }
        let mut take = None;
        while let Some(k) = machine.order.next_own() {
            if taken[k].is_none() {
                take = Some(k);
                break;
            }
        }
        while take.is_none() && steal {
            let Some(k) = machine.order.next_stolen() else { break };
            if taken[k].is_none() {
                take = Some(k);
                stolen += usize::from(owner[k] != s);
            }
        }
        match take {
            Some(k) => {
                let end = now + times[k];
                taken[k] = Some((end, s));
                machine.free[t] = Some(end);
                machine.playing[t] = Some(k);
                last = last.max(end);
            }
            None => {
                // Nothing left to take: the thread waits for the shard's games others play.
                let own_end = games_of[s].iter().filter_map(|&k| taken[k].map(|t| t.0)).fold(0.0, f64::max);
                machine.free[t] = None;
                machine.ended = machine.ended.max(now).max(own_end);
                if machine.free.iter().all(Option::is_none) {
                    last = last.max(machine.ended);
                    if next_shard < shards {
                        *machine = start(next_shard, machine.ended);
                        next_shard += 1;
                    }
                }
            }
        }
    }
    (last, stolen)
}

/// What the recorded run measured itself (wall seconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    /// The threads of its generations (the first's; a resumed run may differ).
    pub threads: usize,
    pub games: usize,
    pub wall_s: f64,
    pub games_wall_s: f64,
    /// Thread time in games over threads x the games' wall time.
    pub busy: f64,
    /// The games' CPU time over their wall time: below 1 when they waited for a core.
    pub cpu_share: f64,
    /// The threads' CPU time over their wall time from their first game to their last: the
    /// share of a core each got (1 on a quiet machine), if the trace has the threads' lines.
    pub ran: Option<f64>,
    /// The games' CPU time over the CPU time the threads could have had during the games
    /// (threads x the games' wall time x `ran`): the executor's efficiency with the load
    /// taken out (1: every CPU second a thread got while the games ran went into a game).
    pub cpu_efficiency: Option<f64>,
}

impl Measured {
    pub fn of(gens: &[Generation]) -> Measured {
        let games: usize = gens.iter().map(|g| g.games.len()).sum();
        let wall_s: f64 = gens.iter().map(Generation::wall_s).sum();
        let games_wall_s: f64 = gens.iter().map(|g| g.games_wall_s).sum();
        let threads = gens.first().map_or(1, |g| g.threads);
        let busy_s: f64 = gens.iter().flat_map(|g| &g.games).map(|t| t.wall_s).sum();
        let cpu_s: f64 = gens.iter().flat_map(|g| &g.games).map(|t| t.cpu_s).sum();
        let thread_s: f64 = gens.iter().map(|g| g.threads as f64 * g.games_wall_s).sum();
        let (loop_wall, loop_cpu) =
            gens.iter().flat_map(|g| &g.workers).fold((0.0, 0.0), |a, w| (a.0 + w.0, a.1 + w.1));
        let ran = (loop_wall > 0.0).then(|| loop_cpu / loop_wall);
        Measured {
            ran,
            cpu_efficiency: ran.map(|r| cpu_s / (thread_s * r).max(1e-12)),
            threads,
            games,
            wall_s,
            games_wall_s,
            busy: busy_s / thread_s.max(1e-12),
            cpu_share: cpu_s / busy_s.max(1e-12),
        }
    }

    pub fn games_per_s(&self) -> f64 {
        self.games as f64 / self.wall_s.max(1e-12)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gen(times: &[f64], sequential_s: f64) -> Generation {
        gen_classes(times, &vec![0; times.len()], sequential_s)
    }

    fn gen_classes(times: &[f64], classes: &[usize], sequential_s: f64) -> Generation {
        Generation {
            generation: 1,
            threads: 1,
            games: times
                .iter()
                .zip(classes)
                .enumerate()
                .map(|(game, (&t, &class))| GameTimes { game, class: Some(class), wall_s: t, cpu_s: t, worker: 0 })
                .collect(),
            games_wall_s: times.iter().sum(),
            sequential_s,
            sequential_cpu_s: sequential_s,
            workers: vec![(times.iter().sum(), times.iter().sum())],
        }
    }

    #[test]
    fn by_class_replays_the_executors_policy_for_the_threads_predicted() {
        // Short games first, then a class of long ones: recorded, two threads wait at the end
        // for the last long game; by class, the long class opens at once.
        let gens = [gen_classes(&[1.0, 1.0, 1.0, 1.0, 1.0, 4.0, 4.0, 4.0], &[0, 0, 0, 0, 0, 1, 1, 1], 0.0)];
        assert_eq!(predict(&gens, 2, GameClock::Cpu, Order::Recorded).wall_s, 10.0);
        assert_eq!(predict(&gens, 2, GameClock::Cpu, Order::ByClass).wall_s, 9.0);
        assert_eq!(predict(&gens, 1, GameClock::Cpu, Order::ByClass).wall_s, 17.0);
        // A trace without classes replays its recorded order.
        let mut old = gens.clone();
        old[0].games.iter_mut().for_each(|t| t.class = None);
        assert_eq!(predict(&old, 2, GameClock::Cpu, Order::ByClass).wall_s, 10.0);
    }

    #[test]
    fn a_cluster_run_replays_interleaved_shards_on_its_machines() {
        // Games 0..8 of 4, 1, 1, ... seconds, one class: shard s plays games s, s + shards, ...
        let gens = [gen(&[4.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], 0.0)];
        let cluster = |shards, threads, nodes| {
            predict_cluster(&gens, Cluster { steal: false, ..Cluster::new(shards, threads, nodes) }, GameClock::Cpu)
        };
        // Two shards of one thread on two machines: 4+1+1+1 and 4 seconds.
        let two = cluster(2, 1, 2);
        assert_eq!((two.wall_s, two.threads, two.tail_s), (7.0, 2, 3.0));
        // Four shards (5, 2, 2, 2 s) on two machines: the second machine plays three in turn.
        assert_eq!(cluster(4, 1, 2).wall_s, 6.0);
        // A shard on two threads waits for its long game: 4 s, the other shard 2 s.
        let threaded = cluster(2, 2, 2);
        assert_eq!((threaded.wall_s, threaded.threads), (4.0, 4));
        assert!((threaded.efficiency() - 11.0 / 16.0).abs() < 1e-12);
        // One shard on one thread is the one-thread run.
        assert_eq!(cluster(1, 1, 1).wall_s, predict(&gens, 1, GameClock::Cpu, Order::Recorded).wall_s);
    }

    #[test]
    fn with_stealing_a_shard_out_of_games_takes_the_others_from_their_end() {
        // Games 0..8 of 4, 1, 1, ... seconds, one class: shard 1 has 0, 2, 4, 6 (4+1+1+1 s),
        // shard 2 has 1, 3, 5, 7 (4 x 1 s).
        let gens = [gen(&[4.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], 0.0)];
        let steal = |shards, threads, nodes| {
            predict_cluster_stolen(&gens, Cluster::new(shards, threads, nodes), GameClock::Cpu)
        };
        // Two machines of one thread: shard 2 ends its games at 4 s, then takes shard 1's
        // last (game 6, 4..5 s); shard 1 plays 0, 2, 4 (0..6 s): 6 s where fixed lists take 7.
        let (two, stolen) = steal(2, 1, 2);
        assert_eq!((two.wall_s, stolen), (6.0, 1.0));
        // One machine for two shards: shard 1 plays all 8 games (11 s); shard 2 then finds
        // them played.
        assert_eq!(steal(2, 1, 1), (predict(&gens, 1, GameClock::Cpu, Order::Recorded), 4.0));
        // Two threads a shard: shard 1 plays 0 and 2, 4, 6 (4 s); shard 2's two threads play
        // its 4 games by 2 s, then nothing is left to take: 4 s, as without stealing.
        assert_eq!(steal(2, 2, 2).0.wall_s, 4.0);
        // Eight shards of one game on two machines: the second machine plays shard 2's game
        // and steals the short games after it, the first steals what is left after its long
        // game: 6 s (11 s of games on 2 cores, one of 4 s).
        assert_eq!(steal(8, 1, 2).0.wall_s, 6.0);
    }

    #[test]
    fn repeated_generations_have_their_classes_again_as_new_classes() {
        let gens = [gen_classes(&[1.0, 2.0, 3.0], &[0, 1, 0], 0.5)];
        let three = repeated(&gens, 3);
        let g = &three[0];
        let seen: Vec<(usize, Option<usize>, f64)> = g.games.iter().map(|t| (t.game, t.class, t.cpu_s)).collect();
        assert_eq!(
            seen,
            vec![
                (0, Some(0), 1.0),
                (1, Some(1), 2.0),
                (2, Some(0), 3.0),
                (3, Some(2), 1.0),
                (4, Some(3), 2.0),
                (5, Some(2), 3.0),
                (6, Some(4), 1.0),
                (7, Some(5), 2.0),
                (8, Some(4), 3.0),
            ]
        );
        assert_eq!(g.sequential_cpu_s, 0.5);
        // On one thread: three times the games, the sequential phase once.
        assert_eq!(predict(&three, 1, GameClock::Cpu, Order::ByClass).wall_s, 18.5);
        assert_eq!(repeated(&gens, 1), gens.to_vec());
    }

    #[test]
    fn the_loss_splits_into_tail_and_sequential_parts() {
        let gens = [gen(&[1.0, 1.0, 1.0, 3.0], 0.5)];
        let one = predict(&gens, 1, GameClock::Cpu, Order::Recorded);
        assert_eq!((one.wall_s, one.efficiency(), one.tail_s), (6.5, 1.0, 0.0));
        let two = predict(&gens, 2, GameClock::Cpu, Order::Recorded);
        assert_eq!(two.wall_s, 4.5);
        assert_eq!(two.tail_s, 2.0);
        let total = two.efficiency() + two.tail_loss() + two.sequential_loss();
        assert!((total - 1.0).abs() < 1e-12, "{total}");
        let longest = predict(&gens, 2, GameClock::Cpu, Order::Longest);
        assert_eq!(longest.wall_s, 3.5);
        // Ten threads for four games: the longest game is the generation.
        let ten = predict(&gens, 10, GameClock::Cpu, Order::Recorded);
        assert_eq!(ten.wall_s, 3.5);
        assert!((ten.efficiency() - 6.5 / 35.0).abs() < 1e-12);
    }

    #[test]
    fn a_trace_reads_as_generations_in_hand_out_order() {
        use crate::workers::{GameTime, WorkerTime};
        use std::time::Duration;
        let t = |game, rank, ms| GameTime {
            game,
            rank,
            worker: rank % 2,
            start: Duration::ZERO,
            wall: Duration::from_millis(ms),
            cpu: Duration::from_millis(ms / 2),
        };
        let rows = vec![
            TraceRow::phase(1, 2, "schedule", 0.0, 0.25, 0.125),
            TraceRow::phase(1, 2, GAMES, 0.25, 2.0, 1.0),
            TraceRow::game(1, 2, 0.25, &t(1, 1, 3000), 0),
            TraceRow::game(1, 2, 0.25, &t(0, 0, 1000), 0),
            TraceRow::phase(1, 2, "commit-wait", 2.25, 0.5, 0.0),
            TraceRow::phase(1, 2, BACKGROUND_COMMIT, 2.75, 0.5, 0.0),
            TraceRow::worker(
                1,
                2,
                0.25,
                &WorkerTime {
                    worker: 0,
                    start: Duration::ZERO,
                    wall: Duration::from_secs(2),
                    cpu: Duration::from_secs(1),
                },
            ),
            TraceRow::worker(
                1,
                2,
                0.25,
                &WorkerTime {
                    worker: 1,
                    start: Duration::ZERO,
                    wall: Duration::from_secs(2),
                    cpu: Duration::from_secs(1),
                },
            ),
            TraceRow::phase(2, 2, "schedule", 0.0, 0.1, 0.1),
        ];
        let gens = generations(&rows);
        assert_eq!(gens.len(), 1, "a generation without games is left out");
        let g = &gens[0];
        assert_eq!(g.games.iter().map(|t| t.wall_s).collect::<Vec<_>>(), vec![1.0, 3.0]);
        assert_eq!((g.games_wall_s, g.sequential_s, g.threads), (2.0, 0.75, 2));
        // On a core of their own: the schedule's CPU time, the wait for the commit as it was.
        assert_eq!(g.sequential(GameClock::Cpu), 0.625);
        assert_eq!(g.busy(), 1.0);
        let m = Measured::of(&gens);
        assert_eq!((m.games, m.wall_s, m.cpu_share), (2, 2.75, 0.5));
        // The threads ran half the time; the games had all the CPU time the threads got.
        assert_eq!((m.ran, m.cpu_efficiency), (Some(0.5), Some(1.0)));
    }
}
