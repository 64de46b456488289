//! One running outside engine: a child process spoken to by lines on its standard input and
//! output, its standard error appended to a log file.
//!
//! Reading has a deadline: the referee waits for the engine's output with poll(2) up to a
//! point and then gives up on the engine, which a blocking read of a pipe cannot do. It reads
//! in the thread that waits for the reply (no reader thread between them: a reply wakes one
//! thread, not two, which counts when games are short and replies many). The engine runs in a process group of its own, so
//! that killing it also kills whatever it started (a shell script's children), and so that
//! Ctrl-C at the terminal reaches evotune, which decides, rather than the engines.
//!
//! The group is killed whenever the process is dropped, even when the engine itself has
//! already exited (asked to quit, its children may live on), and every group alive is killed
//! when evotune is interrupted or terminated ([`kill_all`]): no engine and nothing it started
//! outlives its use. The engine is reaped only after its group is killed, so that the group's
//! number cannot have been given to another process meanwhile.
//!
//! Writing is paced: a line is never sent sooner than the engine's `pace` after its last
//! output line. Some engines (Rapfi among Gomocup brains) print their move a moment before
//! they stop thinking, and drop the first word of a command that arrives in that moment.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::arena::outside::spec::EngineSpec;

/// The longest line kept from an engine; the rest of a longer line is dropped, so that an
/// engine writing without end cannot fill the referee's memory.
const MAX_LINE: usize = 4096;
/// How often a wait for an engine's exit looks again.
const EXIT_POLL: Duration = Duration::from_millis(2);

/// The process groups of the engines running now, killed by [`kill_all`].
static GROUPS: Mutex<Vec<libc::pid_t>> = Mutex::new(Vec::new());

/// Kills the process group of every engine running now (on SIGINT, SIGTERM, or an exit that
/// skips destructors), so that none outlives evotune. Their leaders are left to the exit to
/// reap.
pub fn kill_all() {
    let groups = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
    for &pgid in groups.iter() {
        // SAFETY: kill(2) on a group created for an engine (process_group(0) at spawn) whose
        // leader has not been reaped, so the number is still that group's.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
}
/// How much of the engine's output one read takes. An engine that writes more than anyone
/// reads waits once its pipe is full.
const READ_CHUNK: usize = 4096;

/// Why no line came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output: it has exited (or is about to).
    Closed,
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    stdout: ChildStdout,
    /// Lines to go with the next write (see [`EngineProcess::queue`]).
    queued: Vec<u8>,
    /// Whole lines read and not yet taken.
    lines: VecDeque<String>,
    /// The start of the next line (at most [`MAX_LINE`] bytes of it).
    partial: Vec<u8>,
    /// The engine's output has ended.
    closed: bool,
    /// When the engine's last line of output was read (when it started, before any).
    last_output: Instant,
    /// The shortest time between the engine's last output and the next line sent to it.
    pace: Duration,
    /// How it ended, once seen (the leader is reaped only when dropped).
    ended: Option<ExitStatus>,
}

impl EngineProcess {
    /// Starts the spec's program in its directory, stderr appended to `stderr`.
    pub fn spawn(spec: &EngineSpec, stderr: File) -> io::Result<EngineProcess> {
        // Held while the engine starts, so that an interruption between its start and its
        // registration cannot miss it.
        let mut groups = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
        let mut command = Command::new(&spec.program);
        command.args(&spec.command[1..]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(stderr);
        command.envs(spec.env.iter().map(|(k, v)| (k, v)));
        command.process_group(0);
        same_addresses(&mut command);
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let mut child = command.spawn()?;
        groups.push(child.id() as libc::pid_t);
        drop(groups);
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            kill_group_and_reap(&mut child);
            return Err(io::Error::other("the engine's pipes were not set up"));
        };
        Ok(EngineProcess {
            child,
            stdin,
            stdout,
            queued: Vec::new(),
            lines: VecDeque::new(),
            partial: Vec::new(),
            closed: false,
            last_output: Instant::now(),
            pace: spec.pace(),
            ended: None,
        })
    }

    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line, no sooner than the pace after the engine's last output. An error means
    /// the engine is gone (its input is closed).
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        self.send_lines(&[line])
    }

    /// Sends lines at once, after the queued ones, in one write, no sooner than the pace
    /// after the engine's last output.
    pub fn send_lines<S: AsRef<str>>(&mut self, lines: &[S]) -> io::Result<()> {
        if !self.pace.is_zero() {
            let wait = (self.last_output + self.pace).saturating_duration_since(Instant::now());
            if !wait.is_zero() {
                std::thread::sleep(wait);
            }
        }
        let mut bytes = std::mem::take(&mut self.queued);
        for line in lines {
            bytes.extend_from_slice(line.as_ref().as_bytes());
            bytes.push(b'\n');
        }
        write_without_sigpipe(&mut self.stdin, &bytes)
    }

    /// Keeps a line that needs no answer for the next write, so that it wakes the engine
    /// together with the lines sent next rather than on its own: each write the engine reads
    /// is a wake-up of its process and of the referee's thread, which costs a short game
    /// more than what the engine does with the line. An engine that has ended is found out
    /// by that write.
    pub fn queue(&mut self, line: &str) {
        self.queued.extend_from_slice(line.as_bytes());
        self.queued.push(b'\n');
    }

    /// The next line of output, waiting until `deadline` at most.
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, ReadError> {
        loop {
            if let Some(line) = self.lines.pop_front() {
                return Ok(line);
            }
            if self.closed {
                return Err(ReadError::Closed);
            }
            if !self.read_more(deadline.saturating_duration_since(Instant::now())) {
                return Err(ReadError::Timeout);
            }
        }
    }

    /// The lines the engine has written that nobody has read yet.
    pub fn pending_lines(&mut self) -> Vec<String> {
        while !self.closed && self.read_more(Duration::ZERO) {}
        self.lines.drain(..).collect()
    }

    /// Waits up to `wait` for output and reads what has come: false if none came in time.
    fn read_more(&mut self, wait: Duration) -> bool {
        let mut poll = libc::pollfd { fd: self.stdout.as_raw_fd(), events: libc::POLLIN, revents: 0 };
        // Rounded up, so that a wait short of a millisecond waits rather than spins.
        let ms = wait.as_micros().div_ceil(1000).min(i32::MAX as u128) as libc::c_int;
        // SAFETY: poll(2) on one pollfd that lives across the call; the descriptor is the
        // engine's output pipe, open as long as `self.stdout`.
        let ready = unsafe { libc::poll(&mut poll, 1, ms) };
        if ready < 0 {
            // Interrupted by a signal: the caller looks at the time and waits again.
            return io::Error::last_os_error().kind() == io::ErrorKind::Interrupted;
        }
        if ready == 0 {
            return false;
        }
        let mut chunk = [0u8; READ_CHUNK];
        // Readable (or at its end): a read returns at once.
        match self.stdout.read(&mut chunk) {
            Ok(0) | Err(_) => {
                // A last line without its end is still a line.
                if !self.partial.is_empty() {
                    self.take_output(b"\n");
                }
                self.closed = true;
            }
            Ok(n) => self.take_output(&chunk[..n]),
        }
        true
    }

    /// Splits output into lines, keeping at most [`MAX_LINE`] bytes of each.
    fn take_output(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let (part, ended) = match bytes.iter().position(|&b| b == b'\n') {
                Some(i) => (&bytes[..i], Some(i + 1)),
                None => (bytes, None),
            };
            let room = MAX_LINE.saturating_sub(self.partial.len());
            self.partial.extend_from_slice(&part[..part.len().min(room)]);
            let Some(used) = ended else { break };
            let text = String::from_utf8_lossy(&self.partial).trim_end_matches(['\r', '\n']).to_string();
            self.partial.clear();
            self.lines.push_back(text);
            self.last_output = Instant::now();
            bytes = &bytes[used..];
        }
    }

    /// How the engine ended, waiting up to `wait` for it to end; `None` if it is still
    /// running. The engine is not reaped (see the module's notes).
    pub fn exit_status(&mut self, wait: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + wait;
        loop {
            if self.ended.is_none() {
                self.ended = exited_unreaped(self.child.id());
            }
            if self.ended.is_some() || Instant::now() >= until {
                return self.ended;
            }
            std::thread::sleep(EXIT_POLL.min(until.saturating_duration_since(Instant::now())));
        }
    }
}

impl Drop for EngineProcess {
    /// Kills the engine's whole process group, whether or not the engine itself still runs,
    /// and reaps the engine, so that no engine, nothing it started and no zombie outlives
    /// its use.
    fn drop(&mut self) {
        kill_group_and_reap(&mut self.child);
    }
}

/// Starts the engine without address-space layout randomisation (Linux), so that every
/// process of one program has its code at the same addresses. The processor's branch
/// predictors and decoded-instruction caches are keyed by address: two engines of one
/// program that take turns on a core then share what those learnt, as two engines in one
/// process do, rather than each meeting the other's predictions at every move. Measured on
/// evotune's own engine at depth 3 (a run of 504 games of 7 ms CPU, two processes taking
/// turns a few hundred microseconds apart): 17% more CPU than in-process with randomised
/// addresses, 6% without. An engine only talks to evotune, so randomisation protects little
/// here; where the system refuses the change, the engine starts as before.
#[cfg(target_os = "linux")]
fn same_addresses(command: &mut Command) {
    // SAFETY: the closure runs in the child between fork and exec and only calls
    // personality(2), a system call that allocates nothing and takes no lock.
    unsafe {
        command.pre_exec(|| {
            let current = libc::personality(0xffff_ffff);
            if current != -1 {
                libc::personality((current | libc::ADDR_NO_RANDOMIZE) as libc::c_ulong);
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn same_addresses(_: &mut Command) {}

/// Kills the group of an engine started by [`EngineProcess::spawn`] (its leader not reaped
/// yet), reaps the leader and forgets the group.
fn kill_group_and_reap(child: &mut Child) {
    let pgid = child.id() as libc::pid_t;
    let mut groups = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
    // SAFETY: kill(2) with a negative pid signals that process group; the group is the
    // engine's own (process_group(0) at spawn) and its number is held by the unreaped leader.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
    let _ = child.wait();
    groups.retain(|&g| g != pgid);
}

/// How the child `pid` ended, if it has, leaving it unreaped (waitid with WNOWAIT).
fn exited_unreaped(pid: u32) -> Option<ExitStatus> {
    use std::os::unix::process::ExitStatusExt;
    // SAFETY: siginfo_t is plain data that waitid fills; WNOHANG makes the call return at
    // once, WNOWAIT leaves the child waitable for Child::wait.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let r = libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, libc::WEXITED | libc::WNOHANG | libc::WNOWAIT);
        if r != 0 || info.si_pid() == 0 {
            return None;
        }
        let status = info.si_status();
        Some(match info.si_code {
            libc::CLD_EXITED => ExitStatus::from_raw((status & 0xff) << 8),
            _ => ExitStatus::from_raw(status & 0x7f),
        })
    }
}

/// What an exit status says, for records and logs: `exit status 3`, `killed by signal 11`.
pub fn describe_exit(status: Option<ExitStatus>) -> String {
    use std::os::unix::process::ExitStatusExt;
    match status {
        Some(s) => match (s.code(), s.signal()) {
            (Some(c), _) => format!("exit status {c}"),
            (None, Some(sig)) => format!("killed by signal {sig}"),
            _ => "ended".into(),
        },
        None => "output closed".into(),
    }
}

/// Writes to an engine's input with SIGPIPE held off for this thread.
///
/// evotune lets SIGPIPE end the process (so that `evotune bench | head -1` ends quietly), but
/// an engine that has died leaves a pipe without a reader, and writing into it must be an
/// error the referee records (`crash`), not the end of the match. The signal that such a
/// write raises is taken off this thread before its mask is restored.
fn write_without_sigpipe(stdin: &mut ChildStdin, bytes: &[u8]) -> io::Result<()> {
    // SAFETY: sigset_t is plain data that sigemptyset initialises; pthread_sigmask and
    // sigtimedwait change and read this thread's signal state only, and the old mask is put
    // back before returning.
    unsafe {
        let mut pipe: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut pipe);
        libc::sigaddset(&mut pipe, libc::SIGPIPE);
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_BLOCK, &pipe, &mut old);
        let result = stdin.write_all(bytes).and_then(|()| stdin.flush());
        if matches!(&result, Err(e) if e.kind() == io::ErrorKind::BrokenPipe) {
            let now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
            libc::sigtimedwait(&pipe, std::ptr::null_mut(), &now);
        }
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::outside::spec::SpecOptions;

    fn shell(script: &str) -> EngineProcess {
        let spec = EngineSpec::parse(&format!("cmd:sh -c '{script}'"), &SpecOptions::default(), "connect6").unwrap();
        EngineProcess::spawn(&spec, tempfile::tempfile().unwrap()).unwrap()
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(5)
    }

    #[test]
    fn lines_go_both_ways_and_the_end_is_seen() {
        let mut p = shell("while read l; do echo \"got $l\"; done");
        p.send("one").unwrap();
        assert_eq!(p.read_line(soon()), Ok("got one".to_string()));
        assert_eq!(p.read_line(Instant::now() + Duration::from_millis(50)), Err(ReadError::Timeout));
        drop(p);
        let mut p = shell("echo bye; exit 3");
        assert_eq!(p.read_line(soon()), Ok("bye".to_string()));
        assert_eq!(p.read_line(soon()), Err(ReadError::Closed));
        assert_eq!(describe_exit(p.exit_status(Duration::from_secs(5))), "exit status 3");
    }

    #[test]
    fn writing_to_a_dead_engine_is_an_error_not_a_signal() {
        // SIGPIPE as evotune's main sets it: the default, which would end the test process.
        // SAFETY: as in main; the handler is put back to what the test harness had.
        let old = unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
        let mut p = shell("exit 0");
        assert_eq!(p.read_line(soon()), Err(ReadError::Closed));
        // Another test's engine starting at this moment holds the pipe open until its exec:
        // the error may take a few writes to come.
        let refused = (0..200).any(|_| {
            std::thread::sleep(Duration::from_millis(5));
            p.send("anyone?").is_err()
        });
        unsafe { libc::signal(libc::SIGPIPE, old) };
        assert!(refused);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn engines_start_without_randomised_addresses() {
        let mut p = shell("cat /proc/self/personality");
        let persona = p.read_line(soon()).unwrap();
        let flags = u32::from_str_radix(persona.trim(), 16).unwrap();
        assert_ne!(flags & libc::ADDR_NO_RANDOMIZE as u32, 0, "personality {persona}");
    }

    #[test]
    fn long_lines_are_cut_and_hangs_are_killed() {
        let mut p = shell("head -c 100000 /dev/zero | tr \"\\\\0\" x; echo; echo next; sleep 60");
        assert_eq!(p.read_line(soon()).unwrap().len(), MAX_LINE);
        assert_eq!(p.read_line(soon()), Ok("next".to_string()));
        let start = Instant::now();
        drop(p);
        assert!(start.elapsed() < Duration::from_secs(5), "the sleeping group is killed at once");
    }
}
