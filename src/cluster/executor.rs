//! The executors that play a generation as shards: [`Sharded`] plans the generation, has a
//! [`Backend`] (SLURM, GNU parallel) run the shards that have no file yet, waits for them
//! while it shows how many are done, running and failed, runs the failed or lost ones again
//! a bounded number of times, and gathers the records; [`FromShards`] only gathers (the
//! `cluster reduce` step, whose shards a batch system already ran).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::cluster::plan::{
    gather, missing_shards, played_elsewhere, shard_file_exists, work_dir, work_dirs, Plan, PLAN_FILE,
};
use crate::ga::evolve::Evolver;
use crate::ga::games::{Games, Played};
use crate::ga::schedule::Schedule;
use crate::report::progress::Progress;

/// Where the shards of a generation stand, as a backend sees them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Queue {
    /// Shards playing now.
    pub running: usize,
    /// Shards waiting for a machine.
    pub waiting: usize,
}

/// A batch of shards handed to a backend.
pub trait Submission: Send {
    /// Where the batch stands; None once every shard of it has ended (well or not).
    fn poll(&mut self) -> Result<Option<Queue>>;
    /// Stops the batch's shards (Ctrl-C).
    fn cancel(&mut self) -> Result<()>;
    /// Where a shard's output went, for the message when it fails.
    fn log_of(&self, shard: usize) -> Option<PathBuf>;
}

/// Runs shards on other machines: each shard is `evotune cluster play --run DIR --shard I/N`.
pub trait Backend: Sync {
    /// The executor's name, for messages (`slurm`, `parallel`).
    fn name(&self) -> &'static str;
    /// Starts these shards (1-based) of the plan in `work`, of the run in `run_dir`
    /// (`populations/<run>`, absolute).
    fn submit(&self, plan: &Plan, run_dir: &Path, work: &Path, shards: &[usize]) -> Result<Box<dyn Submission>>;
}

/// What every backend needs to start a shard.
#[derive(Clone, Debug)]
pub struct ShardCommand {
    /// The evotune binary the shards run (on the shared file system).
    pub program: PathBuf,
    /// Threads of each shard (None: all the cores it is given).
    pub threads: Option<usize>,
    /// The most processes of a tuned outside engine a shard keeps (None: its default).
    pub engine_processes: Option<u32>,
}

impl ShardCommand {
    /// The command line of one shard, with `shard` standing for the shard's number (a shell
    /// variable or a placeholder of the backend).
    pub fn args(&self, run_dir: &Path, shard: &str, shards: usize) -> Vec<String> {
        let mut args = vec![
            self.program.display().to_string(),
            "cluster".into(),
            "play".into(),
            "--run".into(),
            run_dir.display().to_string(),
            "--shard".into(),
            format!("{shard}/{shards}"),
        ];
        if let Some(t) = self.threads {
            args.extend(["--threads".into(), t.to_string()]);
        }
        if let Some(n) = self.engine_processes {
            args.extend(["--engine-processes".into(), n.to_string()]);
        }
        args
    }
}

/// The executor of `evolve --executor slurm|parallel`.
pub struct Sharded<'a> {
    pub backend: &'a dyn Backend,
    /// `populations/<run>`, absolute: the shards are told this path.
    pub populations: PathBuf,
    pub shards: usize,
    /// How many times a failed or lost shard is started again before the run stops.
    pub retries: usize,
    /// Seconds between two looks at the queue.
    pub poll: Duration,
    /// The removal of committed work folders, running beside the next generation.
    pub removing: Mutex<Option<std::thread::JoinHandle<()>>>,
    /// Batches whose shards have all written their files but that had not ended when the
    /// generation went on (processes exiting, jobs leaving the queue): looked at again before
    /// the next batch, and waited for when the run ends.
    pub ending: Mutex<Vec<Box<dyn Submission>>>,
}

/// How often the shard files are looked at between two looks at the queue: a generation is
/// done once every shard's file is there, whatever the batch system shows yet.
const FILES_PERIOD: Duration = Duration::from_millis(200);

/// The longest a run that ends waits for its last batches to leave the queue.
const ENDING_WAIT: Duration = Duration::from_secs(60);

impl Sharded<'_> {
    /// Forgets the ending batches that have ended; with `wait`, waits for the others (at
    /// most [`ENDING_WAIT`]).
    fn reap(&self, wait: bool) {
        let mut ending = self.ending.lock().unwrap_or_else(|e| e.into_inner());
        let start = std::time::Instant::now();
        loop {
            // A batch whose state cannot be read is forgotten: its shards' files are there.
            ending.retain_mut(|b| b.poll().is_ok_and(|q| q.is_some()));
            if ending.is_empty() || !wait || start.elapsed() >= ENDING_WAIT {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits for the work folders being removed.
    fn removed(&self) {
        let handle = self.removing.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(h) = handle {
            let _ = h.join();
        }
    }
}

impl Drop for Sharded<'_> {
    /// A run that ends leaves no work folder behind, as a local run leaves none.
    fn drop(&mut self) {
        self.reap(true);
        self.removed();
        // Fails, as it should, while a generation's work is there (a run stopped half-way).
        let _ = std::fs::remove_dir(self.populations.join("work"));
    }
}

/// The prefix of a committed work folder moved aside to be removed.
const REMOVED: &str = ".removed-";

/// Writes `plan` into its generation's work folder under `populations`, keeping a plan of
/// the same games in as many shards and its shard files (a resumed run plays only the shards
/// it lacks); anything else there, and the work folders of earlier generations, is stale and
/// removed. Returns the work folder.
pub fn save_plan(populations: &Path, plan: &Plan) -> Result<PathBuf> {
    remove_older_work(populations, plan.generation)?;
    let dir = work_dir(populations, plan.generation);
    if Plan::load(&dir.join(PLAN_FILE)).is_ok_and(|old| old == *plan) {
        return Ok(dir);
    }
    if dir.exists() {
        std::fs::remove_dir_all(&dir).with_context(|| format!("{}: cannot remove", dir.display()))?;
    }
    plan.save(&dir)?;
    Ok(dir)
}

impl Games for Sharded<'_> {
    fn play(
        &self,
        evolver: &Evolver,
        schedule: &Schedule,
        progress: &Progress,
        stop: &AtomicUsize,
    ) -> Result<Option<Played>> {
        let plan = Plan::new(evolver.config, schedule, evolver.suite, self.shards);
        let dir = save_plan(&self.populations, &plan)?;
        // Shards seen done (their games counted in the progress), by shard number.
        let mut counted = vec![false; plan.shards + 1];
        let count_done = |counted: &mut Vec<bool>| {
            for (s, seen) in counted.iter_mut().enumerate().skip(1) {
                if !*seen && shard_file_exists(&plan, &dir, s) {
                    *seen = true;
                    progress.inc(plan.games_of(s).count() as u64);
                }
            }
            counted.iter().filter(|&&c| c).count()
        };
        let g = plan.generation;
        let mut failed: Vec<usize> = Vec::new();
        for attempt in 0..=self.retries {
            let pending = missing_shards(&plan, &dir)?;
            if pending.is_empty() {
                break;
            }
            if attempt > 0 {
                progress.println(&format!(
                    "gen {g}: shards {} failed or were lost; starting them again ({} of {} retries)",
                    list(&pending),
                    attempt,
                    self.retries
                ));
            }
            self.reap(false);
            let mut batch = self.backend.submit(&plan, &self.populations, &dir, &pending)?;
            let mut last_line = String::new();
            let mut ended;
            loop {
                if stop.load(Ordering::SeqCst) > 0 {
                    batch.cancel()?;
                    progress.println(&format!(
                        "gen {g}: {} shards cancelled; the {} finished are kept in {} for --resume",
                        self.backend.name(),
                        count_done(&mut counted),
                        dir.display()
                    ));
                    return Ok(None);
                }
                let queue = batch.poll()?;
                let done = count_done(&mut counted);
                let (running, waiting) = queue.map_or((0, 0), |q| (q.running, q.waiting));
                let lost = pending.iter().filter(|&&s| !counted[s]).count().saturating_sub(running + waiting);
                let line = format!(
                    "gen {g}: shards {done}/{} done, {running} running, {waiting} waiting, {lost} failed",
                    plan.shards
                );
                if line != last_line {
                    progress.println(&line);
                    last_line = line;
                }
                ended = queue.is_none();
                // Every shard of the batch wrote its file: its games are done, whatever the
                // queue shows (a job leaves it a while after its process wrote the file).
                if ended || pending.iter().all(|&s| counted[s]) {
                    break;
                }
                // Until the next look at the queue, the shard files are looked at more often.
                let step = FILES_PERIOD.min(self.poll);
                let mut slept = Duration::ZERO;
                while slept < self.poll && stop.load(Ordering::SeqCst) == 0 {
                    sleep_unless_stopped(step.min(self.poll - slept), stop);
                    slept += step;
                    count_done(&mut counted);
                    if pending.iter().all(|&s| counted[s]) {
                        break;
                    }
                }
            }
            failed = missing_shards(&plan, &dir)?;
            if failed.is_empty() {
                if !ended {
                    self.ending.lock().unwrap_or_else(|e| e.into_inner()).push(batch);
                }
                break;
            }
            for s in &failed {
                if let Some(log) = batch.log_of(*s) {
                    progress.println(&format!("gen {g}: shard {s} failed; its output: {}", log.display()));
                }
            }
        }
        if !failed.is_empty() {
            bail!(
                "generation {g}: shards {} failed {} times (see their output above); the run is saved: fix the \
                 cause and resume it (the shards already played are kept)",
                list(&failed),
                self.retries + 1
            );
        }
        let records = gather(&plan, &dir)?;
        progress.println(&format!(
            "gen {g}: {} of {} games played by a shard other than their own (work stealing)",
            played_elsewhere(&plan, &dir),
            plan.games.len()
        ));
        Ok(Some(Played::untimed(records)))
    }

    fn committed(&self, generation: u32) -> Result<()> {
        // Its checkpoint is written: the generation's work folder goes. Removing its few
        // hundred files took 0.8 s on a loaded machine (docs/performance.md), every core
        // idle; moved aside (one rename), it is removed beside the next generation's games.
        self.removed();
        let work = self.populations.join("work");
        let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos();
        for (g, dir) in work_dirs(&self.populations) {
            if g <= generation {
                let aside = work.join(format!("{REMOVED}gen-{g:04}-{}-{stamp}", std::process::id()));
                std::fs::rename(&dir, &aside).with_context(|| format!("{}: cannot move aside", dir.display()))?;
            }
        }
        let handle = std::thread::Builder::new()
            .name("remove work".into())
            .spawn(move || {
                // Also what an earlier process left moved aside.
                let entries = std::fs::read_dir(&work).into_iter().flatten().flatten();
                for e in entries.filter(|e| e.file_name().to_string_lossy().starts_with(REMOVED)) {
                    let _ = std::fs::remove_dir_all(e.path());
                }
                // work/ itself goes when the run ends (`drop`): removed now, it could vanish
                // under the next generation's plan being written.
            })
            .context("cannot start the thread that removes the work folder")?;
        *self.removing.lock().unwrap_or_else(|e| e.into_inner()) = Some(handle);
        Ok(())
    }

    fn stops_at_once(&self) -> bool {
        true
    }

    fn commits_in_background(&self) -> bool {
        // The next generation's plan removes this one's shards: its checkpoint first.
        false
    }
}

/// The executor of `cluster reduce`: the generation's shards were played by a batch system;
/// it checks its plan against the run's state and gathers them.
pub struct FromShards {
    pub populations: PathBuf,
}

impl Games for FromShards {
    fn play(
        &self,
        evolver: &Evolver,
        schedule: &Schedule,
        progress: &Progress,
        _stop: &AtomicUsize,
    ) -> Result<Option<Played>> {
        let dir = work_dir(&self.populations, schedule.generation);
        let path = dir.join(PLAN_FILE);
        if !path.exists() {
            bail!(
                "{}: no plan of generation {}; make it with `evotune cluster plan --run {}`",
                path.display(),
                schedule.generation,
                self.populations.display()
            );
        }
        let plan = Plan::load(&path)?;
        let expected = Plan::new(evolver.config, schedule, evolver.suite, plan.shards);
        if plan != expected {
            bail!(
                "{}: not the plan of the run's next generation (generation {}, from its newest checkpoint); \
                 plan it again with `evotune cluster plan --run {}` and play its shards",
                path.display(),
                schedule.generation,
                self.populations.display()
            );
        }
        let records = gather(&plan, &dir)?;
        progress.inc(records.len() as u64);
        Ok(Some(Played::untimed(records)))
    }

    fn committed(&self, generation: u32) -> Result<()> {
        remove_older_work(&self.populations, generation + 1)
    }
}

/// Removes the work folders of generations before `generation` (their checkpoints are
/// written: nothing in them is needed any more), and `work/` itself once it is empty, so that
/// a finished run's folder is a local run's.
pub fn remove_older_work(populations: &Path, generation: u32) -> Result<()> {
    for (g, dir) in work_dirs(populations) {
        if g < generation {
            std::fs::remove_dir_all(&dir).with_context(|| format!("{}: cannot remove", dir.display()))?;
        }
    }
    // Fails, as it should, when a generation's work is still there.
    let _ = std::fs::remove_dir(populations.join("work"));
    Ok(())
}

/// `1,2,5`.
pub fn list(shards: &[usize]) -> String {
    shards.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(",")
}

/// Sleeps `d`, waking early on a Ctrl-C.
fn sleep_unless_stopped(d: Duration, stop: &AtomicUsize) {
    let step = Duration::from_millis(100);
    let mut slept = Duration::ZERO;
    while slept < d && stop.load(Ordering::SeqCst) == 0 {
        std::thread::sleep(step.min(d - slept));
        slept += step;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::game::Referee;
    use crate::arena::records::GameRecord;
    use crate::cluster::plan::play_shard;
    use crate::ga::evolve::tests::{mock_setup, TargetReferee};
    use crate::report::progress::ProgressMode;
    use std::sync::Mutex;

    /// A backend that plays the shards in this process, losing the ones it is told to lose
    /// on their first `lose_times` submissions (as a dead node loses them).
    struct InProcess<'r> {
        referee: &'r TargetReferee,
        lineup: &'r crate::tuner::lineup::Lineup,
        lose: Vec<usize>,
        lose_times: usize,
        submitted: Mutex<Vec<Vec<usize>>>,
    }

    struct Done;
    impl Submission for Done {
        fn poll(&mut self) -> Result<Option<Queue>> {
            Ok(None)
        }
        fn cancel(&mut self) -> Result<()> {
            Ok(())
        }
        fn log_of(&self, _: usize) -> Option<PathBuf> {
            None
        }
    }

    impl Backend for InProcess<'_> {
        fn name(&self) -> &'static str {
            "test"
        }
        fn submit(&self, plan: &Plan, _: &Path, work: &Path, shards: &[usize]) -> Result<Box<dyn Submission>> {
            let mut submitted = self.submitted.lock().unwrap();
            let round = submitted.len();
            submitted.push(shards.to_vec());
            let p = Progress::new("t", 0, "games", ProgressMode::Hidden);
            for &s in shards {
                if !(self.lose.contains(&s) && round < self.lose_times) {
                    play_shard(plan, work, s, self.referee as &dyn Referee, self.lineup, &p)?;
                }
            }
            Ok(Box::new(Done))
        }
    }

    fn run(lose: Vec<usize>, lose_times: usize, retries: usize) -> (Result<Option<Vec<GameRecord>>>, Vec<Vec<usize>>) {
        let (config, suite, referee) = mock_setup();
        let lineup = crate::ga::evolve::tests::lineup(&config);
        let ev = Evolver::new(&config, &suite, &referee, &lineup).unwrap();
        let state = ev.initial_state().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let backend =
            InProcess { referee: &referee, lineup: &lineup, lose, lose_times, submitted: Mutex::new(Vec::new()) };
        let sharded = Sharded {
            backend: &backend,
            populations: dir.path().to_path_buf(),
            shards: 5,
            retries,
            poll: Duration::ZERO,
            removing: Default::default(),
            ending: Default::default(),
        };
        let p = Progress::new("t", 0, "games", ProgressMode::Hidden);
        let result = sharded.play(&ev, &ev.schedule(&state), &p, &AtomicUsize::new(0)).map(|r| r.map(|p| p.records));
        if result.is_ok() {
            sharded.committed(1).unwrap();
            assert!(work_dirs(dir.path()).is_empty(), "the work folder goes once committed");
        }
        // Ending, the run waits for the removal and leaves no work folder.
        let ended_well = result.is_ok();
        drop(sharded);
        if ended_well {
            assert!(!dir.path().join("work").exists(), "the work folder goes once committed");
        }
        let local = ev.play_generation(&mut state.clone(), &p).unwrap().records;
        if let Ok(Some(records)) = &result {
            assert_eq!(*records, local);
        }
        (result, backend.submitted.into_inner().unwrap())
    }

    /// A batch whose shards all wrote their files but that stays in the queue for `left`
    /// more looks (a job leaving it late).
    struct Lingering(std::sync::Arc<AtomicUsize>);
    impl Submission for Lingering {
        fn poll(&mut self) -> Result<Option<Queue>> {
            let left = self.0.load(Ordering::SeqCst);
            if left == 0 {
                return Ok(None);
            }
            self.0.store(left - 1, Ordering::SeqCst);
            Ok(Some(Queue { running: 1, waiting: 0 }))
        }
        fn cancel(&mut self) -> Result<()> {
            Ok(())
        }
        fn log_of(&self, _: usize) -> Option<PathBuf> {
            None
        }
    }

    struct PlaysAndLingers<'r> {
        referee: &'r TargetReferee,
        lineup: &'r crate::tuner::lineup::Lineup,
        left: std::sync::Arc<AtomicUsize>,
    }

    impl Backend for PlaysAndLingers<'_> {
        fn name(&self) -> &'static str {
            "test"
        }
        fn submit(&self, plan: &Plan, _: &Path, work: &Path, shards: &[usize]) -> Result<Box<dyn Submission>> {
            let p = Progress::new("t", 0, "games", ProgressMode::Hidden);
            for &s in shards {
                play_shard(plan, work, s, self.referee as &dyn Referee, self.lineup, &p)?;
            }
            Ok(Box::new(Lingering(self.left.clone())))
        }
    }

    #[test]
    fn a_generation_ends_once_every_shard_file_is_there_and_the_run_waits_for_its_batches_at_its_end() {
        let (config, suite, referee) = mock_setup();
        let lineup = crate::ga::evolve::tests::lineup(&config);
        let ev = Evolver::new(&config, &suite, &referee, &lineup).unwrap();
        let state = ev.initial_state().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let left = std::sync::Arc::new(AtomicUsize::new(5));
        let backend = PlaysAndLingers { referee: &referee, lineup: &lineup, left: left.clone() };
        let sharded = Sharded {
            backend: &backend,
            populations: dir.path().to_path_buf(),
            shards: 3,
            retries: 0,
            // Waiting for the queue would take five looks: the files end the generation at
            // the first.
            poll: Duration::from_millis(10),
            removing: Default::default(),
            ending: Default::default(),
        };
        let p = Progress::new("t", 0, "games", ProgressMode::Hidden);
        let played = sharded.play(&ev, &ev.schedule(&state), &p, &AtomicUsize::new(0)).unwrap().unwrap();
        let local = ev.play_generation(&mut state.clone(), &p).unwrap().records;
        assert_eq!(played.records, local);
        // One look at the queue, which still showed the batch: it is kept, not waited for.
        assert_eq!(left.load(Ordering::SeqCst), 4);
        assert_eq!(sharded.ending.lock().unwrap().len(), 1);
        // The next batch's submission looks at it again, once, without waiting.
        sharded.reap(false);
        assert_eq!((left.load(Ordering::SeqCst), sharded.ending.lock().unwrap().len()), (3, 1));
        // The run's end waits until it has left the queue.
        drop(sharded);
        assert_eq!(left.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn lost_shards_are_started_again_a_bounded_number_of_times() {
        let (result, submitted) = run(vec![], 0, 2);
        assert!(result.unwrap().is_some());
        assert_eq!(submitted, vec![vec![1, 2, 3, 4, 5]]);
        let (result, submitted) = run(vec![2, 4], 2, 2);
        assert!(result.unwrap().is_some());
        assert_eq!(submitted, vec![vec![1, 2, 3, 4, 5], vec![2, 4], vec![2, 4]]);
        let (result, submitted) = run(vec![4], 3, 2);
        let e = format!("{:#}", result.unwrap_err());
        assert!(e.contains("shards 4 failed 3 times"), "{e}");
        assert_eq!(submitted.len(), 3);
    }
}
