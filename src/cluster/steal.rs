//! Work stealing between the shards of a generation, through the run folder they share.
//!
//! A shard plays its own games first, handed out to its threads as the one-machine executor
//! does (the first game of every class, then the classes whose games took longest so far:
//! [`ShardOrder`]), then takes games of the other shards that nobody has taken yet, all of
//! them as one pool, long classes first (stealing from each victim's back in turn was
//! measured worse: the long games of shards still waiting for a machine came last), so that
//! a shard that ends early does not leave its machine idle while a straggler holds the
//! generation. The class times behind both orders are shared between the shards through
//! `times/shard-IIII` (hints for the order only, never a result). Two files a game, in the
//! generation's work folder:
//!
//! - `claims/game-KKKKK`: made with `create_new` (atomic on a shared file system) by the
//!   shard that plays the game; it names the shard, host, process and attempt. While the
//!   game is played the claim is rewritten every [`HEARTBEAT`], so its modification time says
//!   the player is alive.
//! - `games/game-KKKKK.json`: the game's record, written atomically with its checksum once
//!   it ends, by whichever shard played it.
//!
//! A shard ends once each of its own games has a record: it writes its shard file
//! (`shard-IIII-of-NNNN.json`, the records in schedule order), which is all `gather` reads, so
//! that which shard played a game never shows. A game of its own claimed by another shard it
//! waits for, unless the claim is stale: left by an earlier attempt of the same shard, by a
//! process of this host that is gone, or not refreshed for [`LEASE`] (a node that died). A
//! stale claim is taken over and the game played again: a game is a pure function of its
//! job, so playing it twice gives the same record (checked: two records of one game that
//! differ but for the clock are an error, never a silent pick).

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use crate::arena::game::{GameJob, Referee};
use crate::arena::records::GameRecord;
use crate::cluster::plan::Plan;
use crate::dispatch::ShardOrder;
use crate::fsutil::{verify_checksum, with_checksum, write_atomic};
use crate::report::progress::Progress;
use crate::workers::thread_cpu_time;

const GAME_FORMAT: &str = "evotune-game-1";

/// A claim not refreshed for this long is a dead player's: its game is played again.
pub const LEASE: Duration = Duration::from_secs(60);
/// How often a player refreshes the claims of the games it is playing.
pub const HEARTBEAT: Duration = Duration::from_secs(10);
/// How often a shard tells the others what its games of each class took, and reads what
/// theirs took (`times/shard-IIII`): the hand-out's predictions, never a result.
pub const SHARE_PERIOD: Duration = Duration::from_millis(200);
/// How often a shard looks again at its games that other shards are playing.
const POLL: Duration = Duration::from_millis(200);

/// The folder of the games' records in a generation's work folder.
pub const GAMES_DIR: &str = "games";
/// The folder of the games' claims.
pub const CLAIMS_DIR: &str = "claims";
/// The folder of what each shard's games of each class took ([`SHARE_PERIOD`]).
pub const TIMES_DIR: &str = "times";
const TIMES_FORMAT: &str = "evotune-class-times-1";

/// Shard `shard`'s file of class times in the work folder `dir`.
pub fn times_path(dir: &Path, shard: usize) -> PathBuf {
    dir.join(TIMES_DIR).join(format!("shard-{shard:04}"))
}

/// Game `game`'s record file in the work folder `dir`.
pub fn game_path(dir: &Path, game: usize) -> PathBuf {
    dir.join(GAMES_DIR).join(format!("game-{game:05}.json"))
}

/// Game `game`'s claim file in the work folder `dir`.
pub fn claim_path(dir: &Path, game: usize) -> PathBuf {
    dir.join(CLAIMS_DIR).join(format!("game-{game:05}"))
}

/// A game's record file.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct GameFile {
    format: String,
    /// The hash of the plan played.
    plan: String,
    generation: u32,
    /// The game's index in the plan.
    game: usize,
    /// The shard that played it (1-based), its host and times, for the logs.
    shard: usize,
    host: String,
    wall_s: f64,
    cpu_s: f64,
    record: GameRecord,
}

/// A game's record and the shard that played it, read from its file and checked against the
/// plan.
pub struct Finished {
    pub record: GameRecord,
    pub shard: usize,
}

/// Reads game `k`'s record file; the error names the file and what is wrong with it.
pub fn read_game(plan: &Plan, hash: &str, dir: &Path, k: usize) -> Result<Finished> {
    let path = game_path(dir, k);
    let name = path.display();
    let text = std::fs::read_to_string(&path).with_context(|| format!("{name}: cannot read"))?;
    let body = verify_checksum(&text).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let file: GameFile = serde_json::from_str(body).with_context(|| format!("{name}: unreadable"))?;
    if file.format != GAME_FORMAT {
        bail!("{name}: format `{}`, this evotune reads `{GAME_FORMAT}`", file.format);
    }
    if file.plan != hash || file.generation != plan.generation || file.game != k {
        bail!("{name}: game {} of another plan (generation {}, plan {})", file.game, file.generation, file.plan);
    }
    plan.check_record(k, &file.record).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    Ok(Finished { record: file.record, shard: file.shard })
}

/// A record without what depends on the clock (thinking times) or on the build's name: what
/// two plays of one game must agree on.
fn timeless(r: &GameRecord) -> GameRecord {
    GameRecord { first_ms: 0, second_ms: 0, version: String::new(), ..r.clone() }
}

/// Who holds a claim, as its file says.
#[derive(Clone, Debug, PartialEq)]
pub struct Holder {
    shard: usize,
    host: String,
    pid: u32,
    /// The attempt: one `play_shard` call.
    token: String,
}

impl Holder {
    fn line(&self) -> String {
        format!("shard {} host {} pid {} attempt {}\n", self.shard, self.host, self.pid, self.token)
    }

    fn parse(text: &str) -> Option<Holder> {
        let w: Vec<&str> = text.split_whitespace().collect();
        match w.as_slice() {
            ["shard", shard, "host", host, "pid", pid, "attempt", token] => Some(Holder {
                shard: shard.parse().ok()?,
                host: host.to_string(),
                pid: pid.parse().ok()?,
                token: token.to_string(),
            }),
            _ => None,
        }
    }
}

/// What a worker thread does next.
enum Next {
    Play(usize),
    /// Every game it could take is taken; some of its own are still being played elsewhere.
    Wait,
    Done,
}

/// The games a shard can still take, shared by its threads.
struct Queue {
    /// Its own games not looked at yet and the other shards', in the order it takes them.
    order: ShardOrder,
    /// Its own games claimed by others, without a record yet.
    elsewhere: Vec<usize>,
}

/// One attempt at a shard: plays its games and the games it steals.
pub struct Attempt<'a> {
    pub plan: &'a Plan,
    pub hash: &'a str,
    pub dir: &'a Path,
    /// 1-based.
    pub shard: usize,
    me: Holder,
    /// Claims this attempt holds (refreshed by the heartbeat).
    held: Mutex<BTreeSet<usize>>,
    /// The lease after which a claim is stale.
    pub lease: Duration,
}

/// What an attempt played.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games it played: its own and other shards'.
    pub own: usize,
    pub stolen: usize,
}

/// The hostname, for claims and logs.
pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .or_else(|_| std::env::var("HOSTNAME"))
        .unwrap_or_default()
        .split_whitespace()
        .next()
        .unwrap_or("unknown")
        .to_string()
}

impl<'a> Attempt<'a> {
    pub fn new(plan: &'a Plan, hash: &'a str, dir: &'a Path, shard: usize) -> Attempt<'a> {
        let since = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default();
        let pid = std::process::id();
        // Unique among attempts: the process and the nanosecond it started this one.
        let token = format!("{pid}.{}.{}", since.as_secs(), since.subsec_nanos());
        Attempt {
            plan,
            hash,
            dir,
            shard,
            me: Holder { shard, host: hostname(), pid, token },
            held: Mutex::new(BTreeSet::new()),
            lease: LEASE,
        }
    }

    /// Tries to claim game `k`: true if this attempt now holds it.
    fn claim(&self, k: usize) -> Result<bool> {
        let path = claim_path(self.dir, k);
        let dir = path.parent().expect("a claim is in a folder");
        std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))?;
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(mut f) => {
                f.write_all(self.me.line().as_bytes()).with_context(|| format!("{}: cannot write", path.display()))?;
                self.held.lock().unwrap_or_else(|e| e.into_inner()).insert(k);
                Ok(true)
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(e).with_context(|| format!("{}: cannot create", path.display())),
        }
    }

    /// Whether game `k`'s claim is stale: its holder is an earlier attempt of this shard, a
    /// process of this host that is gone, or silent for longer than the lease. A claim that
    /// went away is stale too (taken over, then claimed again below if still free).
    fn stale(&self, k: usize) -> bool {
        let path = claim_path(self.dir, k);
        let Ok(meta) = std::fs::metadata(&path) else { return true };
        let holder = std::fs::read_to_string(&path).ok().as_deref().and_then(Holder::parse);
        if let Some(h) = &holder {
            if h.token == self.me.token {
                return false;
            }
            // One attempt of a shard runs at a time: the others ended.
            if h.shard == self.shard {
                return true;
            }
            if h.host == self.me.host
                && Path::new("/proc/self").exists()
                && !Path::new(&format!("/proc/{}", h.pid)).exists()
            {
                return true;
            }
        }
        let Ok(modified) = meta.modified() else { return false };
        // The file system's clock, not this host's: a file written now.
        let now = self.fs_now().unwrap_or_else(SystemTime::now);
        now.duration_since(modified).is_ok_and(|age| age > self.lease)
    }

    /// The file system's time now: the modification time of a file written now.
    fn fs_now(&self) -> Option<SystemTime> {
        let path = self.dir.join(CLAIMS_DIR).join(format!(".now-{}", self.me.token));
        std::fs::write(&path, b"").ok()?;
        let t = std::fs::metadata(&path).ok()?.modified().ok();
        let _ = std::fs::remove_file(&path);
        t
    }

    /// Takes over game `k`'s stale claim: true if this attempt now holds it.
    fn take_over(&self, k: usize) -> Result<bool> {
        match std::fs::remove_file(claim_path(self.dir, k)) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e).with_context(|| format!("{}: cannot remove", claim_path(self.dir, k).display())),
        }
        self.claim(k)
    }

    fn has_record(&self, k: usize) -> bool {
        game_path(self.dir, k).exists()
    }

    fn next(&self, queue: &Mutex<Queue>) -> Result<Next> {
        let mut q = queue.lock().unwrap_or_else(|e| e.into_inner());
        while let Some(k) = q.order.next_own() {
            if self.has_record(k) {
                continue;
            }
            if self.claim(k)? || (self.stale(k) && self.take_over(k)?) {
                return Ok(Next::Play(k));
            }
            q.elsewhere.push(k);
        }
        while let Some(k) = q.order.next_stolen() {
            if !self.has_record(k) && self.claim(k)? {
                return Ok(Next::Play(k));
            }
        }
        let waiting = std::mem::take(&mut q.elsewhere);
        q.elsewhere = waiting.into_iter().filter(|&k| !self.has_record(k)).collect();
        for i in 0..q.elsewhere.len() {
            let k = q.elsewhere[i];
            if self.stale(k) && self.take_over(k)? {
                q.elsewhere.remove(i);
                return Ok(Next::Play(k));
            }
        }
        Ok(if q.elsewhere.is_empty() { Next::Done } else { Next::Wait })
    }

    /// Writes game `k`'s record, unless an equal one is already there (played twice).
    fn write(&self, k: usize, record: GameRecord, wall_s: f64, cpu_s: f64) -> Result<()> {
        let path = game_path(self.dir, k);
        if path.exists() {
            if let Ok(there) = read_game(self.plan, self.hash, self.dir, k) {
                if timeless(&there.record) != timeless(&record) {
                    bail!(
                        "{}: game {k} played twice gave two records (shard {} and shard {}): a game must be a \
                         function of its job; this is a bug",
                        path.display(),
                        there.shard,
                        self.shard
                    );
                }
                return Ok(());
            }
        }
        let file = GameFile {
            format: GAME_FORMAT.into(),
            plan: self.hash.to_string(),
            generation: self.plan.generation,
            game: k,
            shard: self.shard,
            host: self.me.host.clone(),
            wall_s,
            cpu_s,
            record,
        };
        let text = with_checksum(serde_json::to_string(&file).context("game to JSON")?);
        write_atomic(&path, text.as_bytes()).with_context(|| format!("{}: cannot write", path.display()))
    }

    /// Writes what this shard's games of each class took (`times/shard-IIII`, replaced whole,
    /// not flushed: a hint for the others' hand-out, never a result).
    fn tell_times(&self, own: &[(u32, f64)]) {
        let mut text = format!("{TIMES_FORMAT} {}\n", self.hash);
        for (n, s) in own {
            text += &format!("{n} {s}\n");
        }
        let _ = crate::fsutil::replace(&times_path(self.dir, self.shard), text.as_bytes());
    }

    /// What the other shards' games of each class took, summed from their `times/` files
    /// (files of another plan, unreadable or half-written ones count none).
    fn read_times(&self, classes: usize) -> Vec<(u32, f64)> {
        let mut sum = vec![(0u32, 0.0f64); classes];
        let Ok(entries) = std::fs::read_dir(self.dir.join(TIMES_DIR)) else { return sum };
        let mine = times_path(self.dir, self.shard);
        for e in entries.flatten() {
            let path = e.path();
            // Temporary files of a write in progress start with a dot.
            if path == mine || !e.file_name().to_string_lossy().starts_with("shard-") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            let mut lines = text.lines();
            if lines.next() != Some(&format!("{TIMES_FORMAT} {}", self.hash)) {
                continue;
            }
            let parsed: Option<Vec<(u32, f64)>> = lines
                .map(|l| {
                    let (n, s) = l.split_once(' ')?;
                    Some((n.parse().ok()?, s.parse().ok().filter(|s: &f64| s.is_finite() && *s >= 0.0)?))
                })
                .collect();
            if let Some(times) = parsed.filter(|t| t.len() == classes) {
                for (slot, (n, s)) in sum.iter_mut().zip(times) {
                    slot.0 = slot.0.saturating_add(n);
                    slot.1 += s;
                }
            }
        }
        sum
    }

    /// Rewrites the claims this attempt holds, so that others see it alive.
    fn heartbeat(&self) {
        let held: Vec<usize> = self.held.lock().unwrap_or_else(|e| e.into_inner()).iter().copied().collect();
        for k in held {
            let _ = std::fs::write(claim_path(self.dir, k), self.me.line());
        }
    }

    /// Plays, on the current rayon pool's threads, the shard's own games that have no
    /// record, then other shards' games nobody has taken, and waits for its own games that
    /// others are playing. `jobs[k]` is game k of the plan. `crash_after`: the test hook of
    /// [`crate::cluster::plan::SHARD_CRASH_VAR`]: the process aborts, holding the claim of
    /// its next own game, once it has played that many of its own.
    pub fn run(
        &self,
        referee: &dyn Referee,
        jobs: &[GameJob],
        games_of: &[Vec<usize>],
        progress: &Progress,
        crash_after: Option<(usize, PathBuf)>,
    ) -> Result<Tally> {
        let queue = Mutex::new(Queue {
            order: ShardOrder::new(&self.plan.classes, games_of, self.shard - 1),
            elsewhere: Vec::new(),
        });
        let tally = Mutex::new(Tally::default());
        let failed: Mutex<Option<anyhow::Error>> = Mutex::new(None);
        let stop = AtomicBool::new(false);
        let owner = |k: usize| games_of.iter().position(|g| g.binary_search(&k).is_ok()).map_or(0, |s| s + 1);
        let work = || loop {
            if stop.load(Ordering::SeqCst) {
                return;
            }
            let next = match self.next(&queue) {
                Ok(n) => n,
                Err(e) => {
                    failed.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                    stop.store(true, Ordering::SeqCst);
                    return;
                }
            };
            let k = match next {
                Next::Done => return,
                Next::Wait => {
                    std::thread::sleep(POLL);
                    continue;
                }
                Next::Play(k) => k,
            };
            let mine = owner(k) == self.shard;
            if let Some((after, marker)) = &crash_after {
                if mine && tally.lock().unwrap_or_else(|e| e.into_inner()).own >= *after {
                    let _ = std::fs::write(marker, b"crashed once\n");
                    eprintln!(
                        "{}: shard {} aborts after {after} of its {} games",
                        crate::cluster::plan::SHARD_CRASH_VAR,
                        self.shard,
                        games_of[self.shard - 1].len()
                    );
                    std::process::abort();
                }
            }
            let job = &jobs[k];
            let (began, cpu0) = (Instant::now(), thread_cpu_time());
            let mut record = referee.play(job.first, job.second, job.opening, job.seed);
            record.opening = Some(job.opening_index);
            let cpu_s = thread_cpu_time().saturating_sub(cpu0).as_secs_f64();
            queue.lock().unwrap_or_else(|e| e.into_inner()).order.finished(k, cpu_s);
            let written = self.write(k, record, began.elapsed().as_secs_f64(), cpu_s);
            self.held.lock().unwrap_or_else(|e| e.into_inner()).remove(&k);
            if let Err(e) = written {
                failed.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                stop.store(true, Ordering::SeqCst);
                return;
            }
            progress.inc(1);
            let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
            if mine {
                t.own += 1;
            } else {
                t.stolen += 1;
            }
        };
        let playing = AtomicBool::new(true);
        // Class times are worth sharing only between shards.
        let share = games_of.len() > 1;
        let classes = self.plan.classes.iter().collect::<BTreeSet<_>>().len();
        let own_times = || queue.lock().unwrap_or_else(|e| e.into_inner()).order.own_times().to_vec();
        if share {
            // What the shards before it learned, from its first game on.
            let others = self.read_times(classes);
            queue.lock().unwrap_or_else(|e| e.into_inner()).order.set_shared(&others);
        }
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let (mut since, mut shared) = (Instant::now(), Instant::now());
                while playing.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(50));
                    if since.elapsed() >= HEARTBEAT {
                        self.heartbeat();
                        since = Instant::now();
                    }
                    if share && shared.elapsed() >= SHARE_PERIOD {
                        self.tell_times(&own_times());
                        let others = self.read_times(classes);
                        queue.lock().unwrap_or_else(|e| e.into_inner()).order.set_shared(&others);
                        shared = Instant::now();
                    }
                }
            });
            if rayon::current_num_threads() <= 1 {
                work();
            } else {
                rayon::broadcast(|_| work());
            }
            playing.store(false, Ordering::SeqCst);
        });
        if share {
            // For the shards that start after it.
            self.tell_times(&own_times());
        }
        if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(e);
        }
        Ok(tally.into_inner().unwrap_or_else(|e| e.into_inner()))
    }

    /// The records of the shard's own games in schedule order and the shard that played
    /// each, from their files; a damaged or foreign file is removed with its claim (so that
    /// the game is played again) and named in the error.
    pub fn collect(&self, games: &[usize]) -> Result<(Vec<GameRecord>, Vec<usize>)> {
        let mut records = Vec::with_capacity(games.len());
        let mut played_by = Vec::with_capacity(games.len());
        let mut bad = Vec::new();
        for &k in games {
            match read_game(self.plan, self.hash, self.dir, k) {
                Ok(f) => {
                    records.push(f.record);
                    played_by.push(f.shard);
                }
                Err(e) => {
                    let _ = std::fs::remove_file(game_path(self.dir, k));
                    let _ = std::fs::remove_file(claim_path(self.dir, k));
                    bad.push(format!("{e:#}"));
                }
            }
        }
        if !bad.is_empty() {
            bail!("{} game records removed, to be played again:\n  {}", bad.len(), bad.join("\n  "));
        }
        Ok((records, played_by))
    }
}

#[cfg(test)]
impl Attempt<'_> {
    pub fn write_for_test(&self, k: usize, record: GameRecord) -> Result<()> {
        self.write(k, record, 0.0, 0.0)
    }
}
