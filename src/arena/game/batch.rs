//! A batch of games with outside engines, played so that their processes are reused.
//!
//! An outside engine's process plays one player's games (a tuned engine's process holds one
//! individual's values), and starting one costs far more than a short game's moves: the
//! program's start, its tables, its greeting. Splitting the batch among the threads in job
//! order would send a player's games to every thread and mix each thread's players, so
//! processes would be started again and again. Here every thread takes, each time it is free,
//! the waiting game that keeps most of its last game's players, then the one whose players are
//! not in a game on another thread, then the first in job order: a player's games follow one
//! another on one thread, on the process it already has. Each tuned engine is also told how
//! many players of its own the batch has ([`OutsideEngine::expect_players`]), so that a
//! process waiting for its player's next game is not ended for another's.
//!
//! The order games are played in changes nothing else: a game is a function of its job, and
//! the records come back in job order.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::{GameJob, Referee};
use crate::arena::outside::OutsideEngine;
use crate::arena::records::GameRecord;
use crate::report::progress::Progress;

/// Whether a batch of games involves an outside engine (and is played by [`play_reusing`]).
pub(super) fn has_outside(jobs: &[GameJob]) -> bool {
    jobs.iter().any(|j| j.first.outside.is_some() || j.second.outside.is_some())
}

/// Plays every job on the current rayon pool, each thread taking the waiting game that best
/// reuses its engines' processes, and returns the records in job order.
pub(super) fn play_reusing(
    referee: &dyn Referee,
    jobs: &[GameJob],
    progress: &Progress,
    on_done: &(dyn Fn(usize, &GameRecord) + Sync),
) -> Vec<GameRecord> {
    let seats = Seats::of(jobs);
    for (engine, players) in &seats.tuned {
        engine.expect_players(*players);
    }
    let threads = rayon::current_num_threads().max(1);
    let queue = Mutex::new(Queue {
        waiting: (0..jobs.len()).collect(),
        last: vec![[None; 2]; threads],
        in_game: vec![0; seats.count],
    });
    let played: Vec<Vec<(usize, GameRecord)>> = rayon::broadcast(|ctx| {
        let worker = ctx.index();
        let mut mine = Vec::new();
        loop {
            let Some(i) = lock(&queue).take(worker, &seats.ids) else { break };
            let job = &jobs[i];
            let mut record = referee.play(job.first, job.second, job.opening, job.seed);
            record.opening = Some(job.opening_index);
            on_done(i, &record);
            progress.inc(1);
            lock(&queue).done(&seats.ids[i]);
            mine.push((i, record));
        }
        mine
    });
    let mut records: Vec<Option<GameRecord>> = (0..jobs.len()).map(|_| None).collect();
    for (i, record) in played.into_iter().flatten() {
        records[i] = Some(record);
    }
    records.into_iter().map(|r| r.expect("every job is taken by one thread")).collect()
}

fn lock(queue: &Mutex<Queue>) -> std::sync::MutexGuard<'_, Queue> {
    queue.lock().unwrap_or_else(|e| e.into_inner())
}

/// Who sits in each job: a number per distinct outside player (its engine, and its values
/// when the engine is tuned), `None` for evotune's own players, whose games start nothing.
struct Seats {
    ids: Vec<[Option<usize>; 2]>,
    count: usize,
    /// Each tuned engine of the batch, with the number of its distinct players.
    tuned: Vec<(Arc<OutsideEngine>, usize)>,
}

impl Seats {
    fn of<'a>(jobs: &[GameJob<'a>]) -> Seats {
        let mut numbers: HashMap<(*const OutsideEngine, &'a [i32]), usize> = HashMap::new();
        let mut tuned: Vec<(Arc<OutsideEngine>, usize)> = Vec::new();
        let mut ids = Vec::with_capacity(jobs.len());
        for job in jobs {
            let mut seat = [None; 2];
            for (side, player) in [job.first, job.second].into_iter().enumerate() {
                let Some(engine) = &player.outside else { continue };
                let is_tuned = engine.params().is_some();
                let values: &'a [i32] = if is_tuned { player.weights.values() } else { &[] };
                let next = numbers.len();
                let n = *numbers.entry((Arc::as_ptr(engine), values)).or_insert_with(|| {
                    if is_tuned {
                        match tuned.iter_mut().find(|(e, _)| Arc::ptr_eq(e, engine)) {
                            Some((_, count)) => *count += 1,
                            None => tuned.push((Arc::clone(engine), 1)),
                        }
                    }
                    next
                });
                seat[side] = Some(n);
            }
            ids.push(seat);
        }
        Seats { ids, count: numbers.len(), tuned }
    }
}

/// The games not yet taken, and who is where.
struct Queue {
    /// Job numbers, in job order.
    waiting: Vec<usize>,
    /// Each thread's last game's outside players.
    last: Vec<[Option<usize>; 2]>,
    /// How many games each outside player is in right now.
    in_game: Vec<u32>,
}

impl Queue {
    /// The game `worker` plays next: the most of its last game's players kept, then the
    /// fewest players in a game elsewhere (another process each), then the first in order.
    fn take(&mut self, worker: usize, ids: &[[Option<usize>; 2]]) -> Option<usize> {
        let last = self.last[worker];
        let mut best: Option<(usize, (usize, u32))> = None;
        for (at, &job) in self.waiting.iter().enumerate() {
            let seats = ids[job].iter().flatten();
            let kept = seats.clone().filter(|&s| last.contains(&Some(*s))).count();
            let busy: u32 = seats.map(|&s| self.in_game[s].min(1)).sum();
            let score = (kept, u32::MAX - busy);
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((at, score));
                if kept == 2 && busy == 0 {
                    break;
                }
            }
        }
        let (at, _) = best?;
        let job = self.waiting.remove(at);
        for s in ids[job].iter().flatten() {
            self.in_game[*s] += 1;
        }
        self.last[worker] = ids[job];
        Some(job)
    }

    /// A game of these players has ended.
    fn done(&mut self, seats: &[Option<usize>; 2]) {
        for s in seats.iter().flatten() {
            self.in_game[*s] -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::arena::outside::params::{Params, WEIGHTS};
    use crate::arena::outside::{EngineSpec, Session, SpecOptions};
    use crate::arena::player::Player;
    use crate::core::game::Side;
    use crate::core::schema_file::SchemaFile;
    use crate::core::weights::Weights;
    use crate::export::Format;
    use crate::report::progress::ProgressMode;

    /// Seats both players' engines for a game and ends it: the processes a game takes.
    struct Seating;

    impl Referee for Seating {
        fn play(&self, first: &Player, second: &Player, opening: &[String], seed: u64) -> GameRecord {
            let hang = Duration::from_secs(20);
            for (p, side) in [(first, Side::First), (second, Side::Second)] {
                let o = p.outside.as_ref().unwrap();
                drop(Session::start(o, p.weights.values(), side, hang).unwrap());
            }
            GameRecord::start("connect6", &first.name, &second.name, opening, seed)
        }
    }

    /// A tuned engine (tests/fixtures/engines/dial.py reading its values from a file), its
    /// log in `dir`, and `n` individuals of it.
    fn individuals(dir: &std::path::Path, n: i32) -> (Arc<OutsideEngine>, Vec<Player>) {
        let text = "name = \"dial\"\n[[param]]\nname = \"seed\"\ndefault = 0\nmin = 0\nmax = 1000\n\
                    [[param]]\nname = \"crash\"\ndefault = 0\nmin = 0\nmax = 1\n";
        let schema = SchemaFile::parse(text, "dial.toml").unwrap().schema("connect6");
        let options = SpecOptions { log: Some(dir.join("dial.log")), ..SpecOptions::default() };
        let command = format!("cmd:python3 tests/fixtures/engines/dial.py --weights {WEIGHTS}");
        let spec = EngineSpec::parse(&command, &options, "connect6").unwrap();
        let params = Params::new(schema, Format::Lines, None, None, &spec, "dial");
        let engine = Arc::new(OutsideEngine::tuned(spec, params, "dial").unwrap());
        let players = (0..n)
            .map(|i| Player::outside(format!("#{i}"), Arc::clone(&engine), Weights::clamped(schema, vec![i, 0]), None))
            .collect();
        (engine, players)
    }

    #[test]
    fn an_individual_keeps_its_process_for_all_its_games() {
        let dir = tempfile::tempdir().unwrap();
        let (engine, players) = individuals(dir.path(), 5);
        // Two games of every pairing, in the order a schedule mixes them: a thread taking
        // them as they come would change both players at nearly every game.
        let opening: Vec<String> = Vec::new();
        let mut jobs = Vec::new();
        for round in 0..2 {
            for a in 0..players.len() {
                for b in a + 1..players.len() {
                    let (first, second) = if round == 0 { (a, b) } else { (b, a) };
                    let seed = jobs.len() as u64;
                    jobs.push(GameJob {
                        first: &players[first],
                        second: &players[second],
                        opening: &opening,
                        opening_index: 0,
                        seed,
                    });
                }
            }
        }
        let progress = Progress::new("games", jobs.len() as u64, "games", ProgressMode::Hidden);
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let records = one.install(|| play_reusing(&Seating, &jobs, &progress, &|_, _| ()));
        // In job order, whatever order they were played in.
        let order: Vec<u64> = records.iter().map(|r| r.seed.unwrap()).collect();
        assert_eq!(order, (0..jobs.len() as u64).collect::<Vec<_>>());
        assert_eq!(engine.stats().started, 5, "one process per individual on one thread");
        // On two threads an individual may be in two games at once: at most a process each.
        let (engine, players) = individuals(dir.path(), 5);
        let jobs: Vec<GameJob> = jobs
            .iter()
            .map(|j| GameJob {
                first: &players[j.first.name[1..].parse::<usize>().unwrap()],
                second: &players[j.second.name[1..].parse::<usize>().unwrap()],
                ..*j
            })
            .collect();
        let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        two.install(|| play_reusing(&Seating, &jobs, &progress, &|_, _| ()));
        assert!(engine.stats().started <= 10, "{} processes started", engine.stats().started);
    }
}
