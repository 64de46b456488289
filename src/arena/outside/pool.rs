//! An outside engine as players hold it: its spec, the processes not in a game right now, its
//! log and what has happened to it.
//!
//! A game takes a process from the pool (or starts one) and gives it back at its end, so a
//! process plays game after game, and every game played at the same time has a process of
//! its own. A process that crashed, hung or answered nonsense is not given back: the next
//! game starts a new one. The pool ends its processes when the last player holding it is
//! dropped.
//!
//! An engine whose parameters are tuned ([`OutsideEngine::tuned`]) plays every individual of
//! a run: each process was started for one individual's values (its `{weights}` file, its
//! environment, its parameter lines), and a game takes a process of its player's values, so
//! that an individual's processes are reused from game to game. A process for other values
//! is started when none waits, and the oldest waiting processes end to keep at most one per
//! individual of the games being played plus one per worker thread alive (at least two per
//! thread; fewer when capped, [`OutsideEngine::cap`]); when the values reach the engine by
//! protocol lines alone, a waiting process is told every value of the new individual instead
//! of being started again. The order the
//! games are played in ([`crate::arena::game::play_games`]) keeps an individual's games on
//! one thread, one after another; a cluster's shard plays them in its own order
//! ([`crate::cluster::steal`]) and finds an individual's process waiting in the pool
//! whichever thread ends up with its next game.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::arena::outside::params::{Params, ValuesFile};
use crate::arena::outside::process::{describe_exit, EngineProcess, ReadError};
use crate::arena::outside::protocol::{Heard, Protocol};
use crate::arena::outside::spec::EngineSpec;
use crate::arena::records::Reason;

/// How long an engine asked to quit has before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);
/// Once an engine has written a line that is not the answer awaited (not a move, not an
/// acknowledgement), how long the answer may still take: it is awake, and a wrong program
/// should fail soon rather than after the whole hang time.
const ANSWER_GRACE: Duration = Duration::from_secs(2);
/// The first word of an engine's refusal of a line (`error ...`, pbrain's `ERROR ...`).
pub(crate) const REFUSAL: &str = "error";
/// How long a new engine has to answer the protocol's greeting before the other form of it
/// is tried (Connect6: `name?`, then `name`).
const FALLBACK_AFTER: Duration = Duration::from_millis(1000);

/// Why an engine lost its game, as the record writes it: the reason and a line for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    pub reason: Reason,
    pub note: String,
}

/// What happened to an engine's processes so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub started: u64,
    pub crashed: u64,
    /// Killed for not answering in time.
    pub killed: u64,
    /// Lost for a reply that was a move of the protocol's notation but not a move of the game
    /// (off the board, a stone of the wrong count).
    pub bad_replies: u64,
    /// Lines that were not the answer awaited (`ERROR ...`, garbage), noted and skipped.
    pub skipped: u64,
    /// Games ended by the referee's exchange with the engine failing outside a move (an
    /// acknowledgement that never came), recorded as `aborted` and left out of the score.
    pub aborted: u64,
}

/// An outside engine and its processes.
pub struct OutsideEngine {
    pub spec: EngineSpec,
    /// How an individual's values reach the engine, when its parameters are tuned.
    params: Option<Params>,
    log_path: PathBuf,
    log: File,
    idle: Mutex<Vec<EngineProcess>>,
    /// A tuned engine's live processes, by process id: the values each was told, and the
    /// file it reads them from. (Locked after `idle` when both are.)
    told: Mutex<HashMap<u32, Told>>,
    /// How many individuals the games being played have ([`OutsideEngine::expect_players`]).
    players: AtomicUsize,
    /// The most live processes of a tuned engine, when capped ([`OutsideEngine::cap`]; 0:
    /// not capped).
    cap: AtomicUsize,
    started: AtomicU64,
    crashed: AtomicU64,
    killed: AtomicU64,
    bad_replies: AtomicU64,
    skipped: AtomicU64,
    aborted: AtomicU64,
}

/// Why [`OutsideEngine::wait_for`] did not see its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NoAnswer {
    pub error: ReadError,
    /// The last line that was not the answer, if any came.
    pub last_other: Option<String>,
}

impl NoAnswer {
    /// What was seen, for a note: ` (its last line: `...`)`, or nothing.
    pub fn seen(&self) -> String {
        self.last_other.as_ref().map(|l| format!(" (its last line: `{}`)", clip(l))).unwrap_or_default()
    }
}

/// Why lines told to a process outside a game (init and parameter lines) did not take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Untold {
    /// The process ended or did not acknowledge the lines in time.
    Silent(NoAnswer),
    /// It answered `error ...` to the line (the `index`th told): it refused it.
    Refused { index: usize, line: String, answer: String },
}

/// The values a process of a tuned engine plays.
struct Told {
    values: Vec<i32>,
    /// Whether it was told them by lines that its protocol does not acknowledge, and has not
    /// moved since: an `error` before its first move is then its refusal of them.
    unconfirmed: bool,
    /// Kept while the process lives: it may read the file at any time.
    _file: Option<Arc<ValuesFile>>,
}

impl std::fmt::Debug for OutsideEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.debug_struct("OutsideEngine").field("spec", &self.spec).field("log", &self.log_path).finish()
    }
}

impl OutsideEngine {
    /// The engine of `spec`, its stderr and the referee's notes appended to the spec's log
    /// file, or to `evotune-<pid>-<name>.log` in the temporary directory. Starts nothing.
    pub fn new(spec: EngineSpec, name: &str) -> Result<OutsideEngine, String> {
        let log_path = spec.log.clone().unwrap_or_else(|| default_log(name));
        if let Some(dir) = log_path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("log {}: {e}", dir.display()))?;
        }
        let log = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log_path)
            .map_err(|e| format!("log {}: {e}", log_path.display()))?;
        Ok(OutsideEngine {
            spec,
            params: None,
            log_path,
            log,
            idle: Mutex::new(Vec::new()),
            told: Mutex::new(HashMap::new()),
            players: AtomicUsize::new(0),
            cap: AtomicUsize::new(0),
            started: AtomicU64::new(0),
            crashed: AtomicU64::new(0),
            killed: AtomicU64::new(0),
            bad_replies: AtomicU64::new(0),
            skipped: AtomicU64::new(0),
            aborted: AtomicU64::new(0),
        })
    }

    /// The engine of `spec` whose parameters are tuned: each process plays the values of one
    /// individual at a time, told them as `params` says.
    pub fn tuned(spec: EngineSpec, params: Params, name: &str) -> Result<OutsideEngine, String> {
        let mut engine = OutsideEngine::new(spec, name)?;
        engine.params = Some(params);
        Ok(engine)
    }

    /// How values reach the engine, if its parameters are tuned.
    pub fn params(&self) -> Option<&Params> {
        self.params.as_ref()
    }

    pub fn protocol(&self) -> Protocol {
        self.spec.protocol
    }

    pub fn log_path(&self) -> &Path {
        &self.log_path
    }

    pub fn stats(&self) -> Stats {
        Stats {
            started: self.started.load(Ordering::Relaxed),
            crashed: self.crashed.load(Ordering::Relaxed),
            killed: self.killed.load(Ordering::Relaxed),
            bad_replies: self.bad_replies.load(Ordering::Relaxed),
            skipped: self.skipped.load(Ordering::Relaxed),
            aborted: self.aborted.load(Ordering::Relaxed),
        }
    }

    /// Starts a process and checks that it speaks its protocol, so that a wrong command fails
    /// before the first game rather than as a lost game. The process waits in the pool for
    /// that game. `hang` bounds the wait for its answer.
    pub fn warm_up(&self, hang: Duration) -> Result<(), String> {
        let defaults = self.params.as_ref().map(|p| p.schema.defaults().values().to_vec()).unwrap_or_default();
        let p = self.checkout(&defaults, hang).map_err(|f| f.note)?;
        self.checkin(p);
        Ok(())
    }

    /// A process for a game of a player with `values` (ignored unless the engine's
    /// parameters are tuned): one waiting in the pool, or a new one, started, greeted and
    /// sent the init lines.
    pub fn checkout(&self, values: &[i32], hang: Duration) -> Result<EngineProcess, Forfeit> {
        if let Some(params) = &self.params {
            return self.checkout_tuned(params, values, hang);
        }
        loop {
            let Some(mut p) = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop() else { break };
            // An engine may have ended while it waited (it exits after `end`, or was killed):
            // that is no game's fault.
            if p.exit_status(Duration::ZERO).is_none() {
                self.discard_pending(&mut p);
                return Ok(p);
            }
            self.note(p.id(), "ended while waiting for a game; starting another");
        }
        self.start(None, hang)
    }

    /// [`checkout`](Self::checkout) for a tuned engine: the newest waiting process of these
    /// values; else, when values reach the engine by lines alone, the oldest waiting process
    /// told them; else a new process, the oldest waiting ones ended first while the live
    /// processes are at the bound.
    fn checkout_tuned(&self, params: &Params, values: &[i32], hang: Duration) -> Result<EngineProcess, Forfeit> {
        let bound = self.bound();
        loop {
            let mut ended = Vec::new();
            let taken = {
                let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
                let told = self.told.lock().unwrap_or_else(|e| e.into_inner());
                let same = idle.iter().rposition(|p| told.get(&p.id()).is_some_and(|t| t.values == values));
                match same {
                    Some(i) => Some((idle.remove(i), false)),
                    None if params.by_lines() && !idle.is_empty() => Some((idle.remove(0), true)),
                    None => {
                        while !idle.is_empty() && told.len() - ended.len() >= bound {
                            ended.push(idle.remove(0));
                        }
                        None
                    }
                }
            };
            for p in ended {
                self.discard(p);
            }
            let Some((mut p, retell)) = taken else { return self.start(Some(values), hang) };
            if p.exit_status(Duration::ZERO).is_some() {
                self.note(p.id(), "ended while waiting for a game; starting another");
                self.discard(p);
                continue;
            }
            self.discard_pending(&mut p);
            if retell {
                // In one write: a line a write would wake the engine for each value.
                match self.tell(&mut p, &params.lines(values), Instant::now() + hang) {
                    Ok(()) => {}
                    Err(Untold::Refused { line, answer, .. }) => return Err(self.refused(p, Some(&line), &answer)),
                    Err(Untold::Silent(_)) => {
                        self.note(p.id(), "ended while it was told another individual's values; starting another");
                        self.discard(p);
                        continue;
                    }
                }
                if let Some(t) = self.told.lock().unwrap_or_else(|e| e.into_inner()).get_mut(&p.id()) {
                    t.values = values.to_vec();
                    t.unconfirmed = self.protocol().line_ack().is_none();
                }
            }
            return Ok(p);
        }
    }

    /// Tells a tuned engine that the games being played now have `players` individuals of
    /// its own (a generation's population and anchors), so that each may keep a process
    /// waiting for its next game.
    pub fn expect_players(&self, players: usize) {
        self.players.store(players, Ordering::Relaxed);
    }

    /// Caps the processes of a tuned engine alive at once at `most` (a shard's
    /// `--engine-processes`, for a machine whose memory holds fewer than one process per
    /// individual): waiting processes are ended to keep to it, so that an individual whose
    /// process was ended starts another for its next game. Processes in a game are never
    /// ended: games played at once need one each, however low the cap.
    pub fn cap(&self, most: usize) {
        self.cap.store(most, Ordering::Relaxed);
    }

    /// The most processes of a tuned engine alive at once: one per individual of the games
    /// being played plus one per worker thread (an individual in games on two threads at
    /// once needs two), and never fewer than two per thread; at most the cap, if one is set.
    fn bound(&self) -> usize {
        let threads = rayon::current_num_threads().max(1);
        let bound = (self.players.load(Ordering::Relaxed) + threads).max(2 * threads);
        match self.cap.load(Ordering::Relaxed) {
            0 => bound,
            cap => bound.min(cap),
        }
    }

    /// The processes of a tuned engine alive now, waiting or in a game.
    pub fn live(&self) -> usize {
        self.told.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Ends a process that is not given back, and forgets what it was told.
    pub(crate) fn discard(&self, p: EngineProcess) {
        self.told.lock().unwrap_or_else(|e| e.into_inner()).remove(&p.id());
        drop(p);
    }

    /// Gives a process back after a game it finished in order.
    pub fn checkin(&self, p: EngineProcess) {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).push(p);
    }

    /// Starts a process, of these values for a tuned engine.
    fn start(&self, values: Option<&[i32]>, hang: Duration) -> Result<EngineProcess, Forfeit> {
        let (spec, file) = match (&self.params, values) {
            (Some(params), Some(v)) => params
                .spec_for(&self.spec, v)
                .map_err(|e| self.lost_start(Reason::Crash, format!("cannot write the file of its values: {e}")))?,
            _ => (self.spec.clone(), None),
        };
        let stderr = self.log.try_clone().map_err(|e| self.lost_start(Reason::Crash, format!("log: {e}")))?;
        let mut p = EngineProcess::spawn(&spec, stderr)
            .map_err(|e| self.lost_start(Reason::Crash, format!("cannot start `{}`: {e}", spec.command_line())))?;
        if let (Some(params), Some(v)) = (&self.params, values) {
            let unconfirmed = params.by_lines() && self.protocol().line_ack().is_none();
            let told = Told { values: v.to_vec(), unconfirmed, _file: file };
            self.told.lock().unwrap_or_else(|e| e.into_inner()).insert(p.id(), told);
        }
        self.started.fetch_add(1, Ordering::Relaxed);
        self.note(p.id(), &format!("started `{}` ({})", spec.command_line(), spec.protocol));
        let (hello, answer) = self.protocol().hello();
        let deadline = Instant::now() + hang;
        let mut greeted = p.send(hello).map_err(|_| NoAnswer { error: ReadError::Closed, last_other: None }).and_then(
            |()| match self.protocol().fallback_hello() {
                Some(_) => self.wait_for(&mut p, answer, deadline.min(Instant::now() + FALLBACK_AFTER)),
                None => self.wait_for(&mut p, answer, deadline),
            },
        );
        if let (Err(NoAnswer { error: ReadError::Timeout, .. }), Some(other)) =
            (&greeted, self.protocol().fallback_hello())
        {
            self.note(
                p.id(),
                &format!("no answer to `{hello}` within {} ms; asking `{other}` instead", FALLBACK_AFTER.as_millis()),
            );
            greeted = p
                .send(other)
                .map_err(|_| NoAnswer { error: ReadError::Closed, last_other: None })
                .and_then(|()| self.wait_for(&mut p, answer, deadline));
        }
        match greeted {
            Ok(()) => {}
            Err(n @ NoAnswer { error: ReadError::Timeout, .. }) => {
                return Err(self.lost(
                    p,
                    Reason::Aborted,
                    format!("did not answer `{hello}` with `{answer} ...` within {} ms{}", hang.as_millis(), n.seen()),
                ))
            }
            Err(NoAnswer { error: ReadError::Closed, .. }) => {
                return Err(self.lost(p, Reason::Crash, format!("ended before answering `{hello}`")))
            }
        }
        // The parameter lines come after the config's own init lines: refusing one of those
        // is the individual's fault, refusing the config's is nobody's.
        let own_init = self.spec.init.len();
        match self.tell(&mut p, &spec.init, deadline) {
            Ok(()) => Ok(p),
            Err(Untold::Refused { index, line, answer }) if index >= own_init => {
                Err(self.refused(p, Some(&line), &answer))
            }
            Err(Untold::Refused { line, answer, .. }) => {
                let what = format!("refused its init line `{}`: `{}`", clip(&line), clip(&answer));
                Err(self.lost(p, Reason::Aborted, what))
            }
            Err(Untold::Silent(n @ NoAnswer { error: ReadError::Timeout, .. })) => {
                let what =
                    format!("did not acknowledge its init lines (the first `{}`){}", clip(&spec.init[0]), n.seen());
                Err(self.lost(p, Reason::Aborted, what))
            }
            Err(Untold::Silent(NoAnswer { error: ReadError::Closed, .. })) => Err(self.lost(
                p,
                Reason::Crash,
                format!("ended at its init lines (the first `{}`)", clip(&spec.init[0])),
            )),
        }
    }

    /// Sends lines outside a game (init and parameter lines) in one write, and waits until
    /// `deadline` for the answer to each where the protocol answers every line (`ok`, or
    /// `error ...` for a line the engine refuses).
    fn tell(&self, p: &mut EngineProcess, lines: &[String], deadline: Instant) -> Result<(), Untold> {
        if lines.is_empty() {
            return Ok(());
        }
        p.send_lines(lines).map_err(|_| Untold::Silent(NoAnswer { error: ReadError::Closed, last_other: None }))?;
        if let Some(ack) = self.protocol().line_ack() {
            for (index, line) in lines.iter().enumerate() {
                let answer = self.wait_for_either(p, ack, REFUSAL, deadline).map_err(Untold::Silent)?;
                if is_refusal(&answer) {
                    return Err(Untold::Refused { index, line: line.clone(), answer });
                }
            }
        }
        Ok(())
    }

    /// A tuned engine's process refused a line of its individual's values (`error ...`): the
    /// individual loses the game, as for any reply its protocol does not allow, and the
    /// process ends (it holds some of the values and not others).
    /// (`line`: the line refused, when the protocol tells which.)
    pub(crate) fn refused(&self, p: EngineProcess, line: Option<&str>, answer: &str) -> Forfeit {
        let to = line.map(|l| format!(" to `{}`", clip(l))).unwrap_or_default();
        self.lost(p, Reason::Illegal, format!("refused its values: `{}`{to}", clip(answer)))
    }

    /// Whether an `error` from this process before its first move is its refusal of the
    /// values it was told by lines its protocol does not acknowledge.
    pub(crate) fn awaits_refusal(&self, p: &EngineProcess) -> bool {
        self.told.lock().unwrap_or_else(|e| e.into_inner()).get(&p.id()).is_some_and(|t| t.unconfirmed)
    }

    /// The process moved after being told its values: it took them.
    pub(crate) fn confirmed(&self, p: &EngineProcess) {
        if let Some(t) = self.told.lock().unwrap_or_else(|e| e.into_inner()).get_mut(&p.id()) {
            t.unconfirmed = false;
        }
    }

    /// Reads until a line whose first word is `word`. Other lines are skipped (those that are
    /// not chatter noted in the log); after one of those the answer must come within
    /// [`ANSWER_GRACE`].
    pub(crate) fn wait_for(&self, p: &mut EngineProcess, word: &str, deadline: Instant) -> Result<(), NoAnswer> {
        self.wait_for_either(p, word, word, deadline).map(drop)
    }

    /// [`wait_for`](Self::wait_for) either of two first words; the line that came.
    pub(crate) fn wait_for_either(
        &self,
        p: &mut EngineProcess,
        word: &str,
        or: &str,
        deadline: Instant,
    ) -> Result<String, NoAnswer> {
        let mut deadline = deadline;
        let mut last_other = None;
        loop {
            let line = p.read_line(deadline).map_err(|error| NoAnswer { error, last_other: last_other.clone() })?;
            let first = line.split_whitespace().next().unwrap_or("");
            if first.eq_ignore_ascii_case(word) || first.eq_ignore_ascii_case(or) {
                return Ok(line);
            }
            if self.protocol().classify(&line) != Heard::Chatter {
                self.skipped(p.id(), &line, &format!("`{word}` awaited"));
                deadline = deadline.min(Instant::now() + ANSWER_GRACE);
                last_other = Some(line);
            }
        }
    }

    /// Notes a line that was not what the referee waited for, and counts it.
    pub(crate) fn skipped(&self, pid: u32, line: &str, awaited: &str) {
        self.skipped.fetch_add(1, Ordering::Relaxed);
        self.note(pid, &format!("skipped `{}` ({awaited})", clip(line)));
    }

    /// Ends a process that has lost its game: counts it, writes the note in the log, reaps it.
    pub(crate) fn lost(&self, mut p: EngineProcess, reason: Reason, what: String) -> Forfeit {
        self.told.lock().unwrap_or_else(|e| e.into_inner()).remove(&p.id());
        let what = match reason {
            Reason::Crash => format!("{what} ({})", describe_exit(p.exit_status(Duration::from_millis(200)))),
            Reason::Timeout | Reason::Aborted => format!("{what}; killed"),
            _ => format!("{what}; stopped"),
        };
        self.note(p.id(), &what);
        drop(p);
        self.lost_start(reason, what)
    }

    /// Counts a lost game and says why, in the record's words.
    fn lost_start(&self, reason: Reason, what: String) -> Forfeit {
        let counter = match reason {
            Reason::Crash => &self.crashed,
            Reason::Timeout => &self.killed,
            Reason::Aborted => &self.aborted,
            _ => &self.bad_replies,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        Forfeit { reason, note: format!("the engine {what}") }
    }

    /// Lines the engine wrote that nobody asked for (after a game, say), noted and dropped;
    /// those that are not chatter are returned.
    pub(crate) fn discard_pending(&self, p: &mut EngineProcess) -> Vec<String> {
        let mut unasked = Vec::new();
        for line in p.pending_lines() {
            if self.protocol().classify(&line) != Heard::Chatter {
                self.note(p.id(), &format!("unasked output dropped: `{}`", clip(&line)));
                unasked.push(line);
            }
        }
        unasked
    }

    /// A line of the referee's in the engine's log, beside its stderr.
    pub(crate) fn note(&self, pid: u32, text: &str) {
        let _ = (&self.log).write_all(format!("# evotune: engine {pid}: {text}\n").as_bytes());
    }

    /// One line for the end of a match: what happened to the engine, where its log is.
    pub fn summary(&self, name: &str) -> String {
        let s = self.stats();
        format!(
            "outside engine {name}: {} process(es) started, {} crashed, {} killed for time, {} bad replies, \
             {} games aborted, {} lines skipped; log {}",
            s.started,
            s.crashed,
            s.killed,
            s.bad_replies,
            s.aborted,
            s.skipped,
            self.log_path.display()
        )
    }
}

impl Drop for OutsideEngine {
    /// Asks every waiting process to quit, all at once, then gives each a moment before it is
    /// killed.
    fn drop(&mut self) {
        let idle = std::mem::take(self.idle.get_mut().unwrap_or_else(|e| e.into_inner()));
        let quit = self.protocol().quit();
        let mut asked: Vec<EngineProcess> =
            idle.into_iter().filter_map(|mut p| p.send(quit).ok().map(|()| p)).collect();
        let deadline = Instant::now() + QUIT_GRACE;
        for p in &mut asked {
            p.exit_status(deadline.saturating_duration_since(Instant::now()));
        }
    }
}

/// The log of an engine named `name` when its spec names none.
fn default_log(name: &str) -> PathBuf {
    let safe: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' }).collect();
    std::env::temp_dir().join(format!("evotune-{}-{safe}.log", std::process::id()))
}

/// Whether an engine's line refuses what it was told: `error ...` (any case).
pub(crate) fn is_refusal(line: &str) -> bool {
    line.split_whitespace().next().is_some_and(|w| w.eq_ignore_ascii_case(REFUSAL))
}

/// An engine's line quoted in a note, cut short.
pub(crate) fn clip(line: &str) -> String {
    const MAX: usize = 60;
    let printable: String = line.chars().map(|c| if c.is_control() { '?' } else { c }).collect();
    if printable.chars().count() <= MAX {
        printable
    } else {
        printable.chars().take(MAX).collect::<String>() + "..."
    }
}
