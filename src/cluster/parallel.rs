//! GNU parallel: a generation's shards on a few machines reached by ssh
//! (`parallel --sshloginfile HOSTS`), one shard at a time on each, for users with no batch
//! system. As with SLURM, a shard succeeded when its file is there.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use anyhow::{bail, Context, Result};

use crate::cluster::executor::{Backend, Queue, ShardCommand, Submission};
use crate::cluster::plan::Plan;
use crate::fsutil::write_atomic;

/// The `--executor parallel` options.
#[derive(Clone, Debug)]
pub struct Parallel {
    pub shard: ShardCommand,
    /// GNU parallel's `--sshloginfile`: a host a line (`:` is this machine without ssh).
    pub hosts: PathBuf,
}

impl Parallel {
    /// Checks the hosts file before anything is planned: it must name at least one host.
    pub fn new(shard: ShardCommand, hosts: PathBuf) -> Result<Parallel> {
        let text =
            std::fs::read_to_string(&hosts).with_context(|| format!("--hosts {}: cannot read", hosts.display()))?;
        let count = host_lines(&text).count();
        if count == 0 {
            bail!("--hosts {}: no host in it; write one a line (user@host, or `:` for this machine)", hosts.display());
        }
        Ok(Parallel { shard, hosts })
    }

    /// The shards that play at once: a host each, or N for a host written `N/host`.
    pub fn host_count(&self) -> usize {
        std::fs::read_to_string(&self.hosts).map(|t| host_slots(&t).iter().map(|(n, _)| n).sum()).unwrap_or(1).max(1)
    }

    /// parallel's arguments for these shards, `logins` the hosts file as parallel reads it
    /// ([`sshlogins`]).
    fn args(&self, plan: &Plan, run_dir: &Path, logins: &Path, joblog: &Path, shards: &[usize]) -> Vec<String> {
        let mut args: Vec<String> = [
            "--sshloginfile",
            &logins.display().to_string(),
            // As many shards at once on a host as its line says (`N/host`; one by default: a
            // shard uses all the host's cores itself).
            "--jobs",
            "100%",
            "--joblog",
            &joblog.display().to_string(),
            "--tag",
            "--line-buffer",
            // The command's words are passed as they are (a run folder may hold spaces).
            "--quote",
        ]
        .map(String::from)
        .to_vec();
        args.extend(self.shard.args(run_dir, "{}", plan.shards));
        args.push(":::".into());
        args.extend(shards.iter().map(|s| s.to_string()));
        args
    }
}

/// The host lines of a `--sshloginfile`: neither blank nor comments.
fn host_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// Each host of the file and the shards it plays at once: `N/host` N, a bare host 1.
fn host_slots(text: &str) -> Vec<(usize, &str)> {
    host_lines(text)
        .map(|l| match l.split_once('/') {
            Some((n, host)) if n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty() => (n.parse().unwrap_or(1), host),
            _ => (1, l),
        })
        .collect()
}

/// The hosts file as parallel is given it: every host with its count of shards at once
/// (`1/` where the user wrote none: parallel would otherwise run as many jobs on a host as
/// it has cores, and it runs one job a host for `--jobs 1` even where the line says `2/:`).
fn sshlogins(text: &str) -> String {
    host_slots(text).iter().map(|(n, host)| format!("{n}/{host}\n")).collect()
}

impl Backend for Parallel {
    fn name(&self) -> &'static str {
        "parallel"
    }

    fn submit(&self, plan: &Plan, run_dir: &Path, work: &Path, shards: &[usize]) -> Result<Box<dyn Submission>> {
        let logs = work.join("logs");
        std::fs::create_dir_all(&logs).with_context(|| format!("{}: cannot create", logs.display()))?;
        // A new log each batch, so that a retry's output does not hide the failure's.
        let attempt = (1..).find(|n| !logs.join(format!("parallel-{n}.out")).exists()).unwrap_or(1);
        let out_path = logs.join(format!("parallel-{attempt}.out"));
        let joblog = logs.join(format!("parallel-{attempt}.joblog"));
        let logins = logs.join("sshlogins");
        let hosts = std::fs::read_to_string(&self.hosts)
            .with_context(|| format!("--hosts {}: cannot read", self.hosts.display()))?;
        write_atomic(&logins, sshlogins(&hosts).as_bytes())
            .with_context(|| format!("{}: cannot write", logins.display()))?;
        let out = File::create(&out_path).with_context(|| format!("{}: cannot create", out_path.display()))?;
        let err = out.try_clone()?;
        let child = Command::new("parallel")
            .args(self.args(plan, run_dir, &logins, &joblog, shards))
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .context("cannot run `parallel`: is GNU parallel installed (apt-get install parallel)?")?;
        Ok(Box::new(ParallelBatch { child, joblog, out: out_path, total: shards.len(), slots: self.host_count() }))
    }
}

/// A running `parallel`.
struct ParallelBatch {
    child: Child,
    joblog: PathBuf,
    out: PathBuf,
    total: usize,
    slots: usize,
}

impl Submission for ParallelBatch {
    fn poll(&mut self) -> Result<Option<Queue>> {
        if self.child.try_wait()?.is_some() {
            return Ok(None);
        }
        // The job log has a header line, then a line a finished job.
        let finished = std::fs::read_to_string(&self.joblog).map(|t| t.lines().count().saturating_sub(1)).unwrap_or(0);
        let left = self.total.saturating_sub(finished);
        let running = left.min(self.slots);
        Ok(Some(Queue { running, waiting: left - running }))
    }

    fn cancel(&mut self) -> Result<()> {
        // parallel stops its jobs (TERM, then KILL) when it is told to terminate.
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: signalling our own child process, which has not been waited for.
        unsafe {
            libc::kill(pid, libc::SIGTERM);
        }
        self.child.wait()?;
        Ok(())
    }

    fn log_of(&self, _shard: usize) -> Option<PathBuf> {
        Some(self.out.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ga::evolve::tests::mock_setup;
    use crate::ga::evolve::Evolver;

    #[test]
    fn hosts_are_checked_and_shards_passed_as_arguments() {
        let dir = tempfile::tempdir().unwrap();
        let hosts = dir.path().join("hosts");
        let shard = ShardCommand { program: "/bin/evotune".into(), threads: None, engine_processes: Some(6) };
        std::fs::write(&hosts, "# none yet\n\n").unwrap();
        let e = format!("{:#}", Parallel::new(shard.clone(), hosts.clone()).unwrap_err());
        assert!(e.contains("no host in it"), "{e}");
        std::fs::write(&hosts, ":\nuser@node2\n# two shards at once:\n2/node3\n").unwrap();
        let p = Parallel::new(shard, hosts.clone()).unwrap();
        assert_eq!(p.host_count(), 4);
        assert_eq!(sshlogins(&std::fs::read_to_string(&hosts).unwrap()), "1/:\n1/user@node2\n2/node3\n");
        let (config, suite, referee) = mock_setup();
        let lineup = crate::ga::evolve::tests::lineup(&config);
        let ev = Evolver::new(&config, &suite, &referee, &lineup).unwrap();
        let plan = Plan::new(&config, &ev.schedule(&ev.initial_state().unwrap()), &suite, 4);
        let args = p.args(&plan, Path::new("/runs/populations/q"), Path::new("/l"), Path::new("/j"), &[2, 4]).join(" ");
        assert!(args.starts_with("--sshloginfile /l --jobs 100% --joblog /j"), "{args}");
        assert!(
            args.ends_with(
                "/bin/evotune cluster play --run /runs/populations/q --shard {}/4 --engine-processes 6 ::: 2 4"
            ),
            "{args}"
        );
    }
}
