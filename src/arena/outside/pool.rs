//! An outside engine as players hold it: its spec, the processes not in a game right now, its
//! log and what has happened to it.
//!
//! A game takes a process from the pool (or starts one) and gives it back at its end, so a
//! process plays game after game, and every game played at the same time has a process of
//! its own. A process that crashed, hung or answered nonsense is not given back: the next
//! game starts a new one. The pool ends its processes when the last player holding it is
//! dropped.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

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
    log_path: PathBuf,
    log: File,
    idle: Mutex<Vec<EngineProcess>>,
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
            log_path,
            log,
            idle: Mutex::new(Vec::new()),
            started: AtomicU64::new(0),
            crashed: AtomicU64::new(0),
            killed: AtomicU64::new(0),
            bad_replies: AtomicU64::new(0),
            skipped: AtomicU64::new(0),
            aborted: AtomicU64::new(0),
        })
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
        let p = self.checkout(hang).map_err(|f| f.note)?;
        self.checkin(p);
        Ok(())
    }

    /// A process for a game: one waiting in the pool, or a new one, started, greeted and
    /// sent the init lines.
    pub fn checkout(&self, hang: Duration) -> Result<EngineProcess, Forfeit> {
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
        self.start(hang)
    }

    /// Gives a process back after a game it finished in order.
    pub fn checkin(&self, p: EngineProcess) {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).push(p);
    }

    fn start(&self, hang: Duration) -> Result<EngineProcess, Forfeit> {
        let stderr = self.log.try_clone().map_err(|e| self.lost_start(Reason::Crash, format!("log: {e}")))?;
        let mut p = EngineProcess::spawn(&self.spec, stderr)
            .map_err(|e| self.lost_start(Reason::Crash, format!("cannot start `{}`: {e}", self.spec.command_line())))?;
        self.started.fetch_add(1, Ordering::Relaxed);
        self.note(p.id(), &format!("started `{}` ({})", self.spec.command_line(), self.spec.protocol));
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
        for line in &self.spec.init {
            if p.send(line).is_err() {
                return Err(self.lost(p, Reason::Crash, format!("ended at the init line `{line}`")));
            }
        }
        Ok(p)
    }

    /// Reads until a line whose first word is `word`. Other lines are skipped (those that are
    /// not chatter noted in the log); after one of those the answer must come within
    /// [`ANSWER_GRACE`].
    pub(crate) fn wait_for(&self, p: &mut EngineProcess, word: &str, deadline: Instant) -> Result<(), NoAnswer> {
        let mut deadline = deadline;
        let mut last_other = None;
        loop {
            let line = p.read_line(deadline).map_err(|error| NoAnswer { error, last_other: last_other.clone() })?;
            let first = line.split_whitespace().next().unwrap_or("");
            if first.eq_ignore_ascii_case(word) {
                return Ok(());
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

    /// Lines the engine wrote that nobody asked for (after a game, say), noted and dropped.
    pub(crate) fn discard_pending(&self, p: &mut EngineProcess) {
        for line in p.pending_lines() {
            if self.protocol().classify(&line) != Heard::Chatter {
                self.note(p.id(), &format!("unasked output dropped: `{}`", clip(&line)));
            }
        }
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
