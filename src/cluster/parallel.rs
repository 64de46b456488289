//! GNU parallel: a generation's shards on a few machines reached by ssh
//! (`parallel --sshloginfile HOSTS`), one shard at a time on each, for users with no batch
//! system. As with SLURM, a shard succeeded when its file is there.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use anyhow::{bail, Context, Result};

use crate::cluster::executor::{Backend, Queue, ShardCommand, Submission};
use crate::cluster::plan::Plan;

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

    /// The hosts of the file: the shards that play at once.
    pub fn host_count(&self) -> usize {
        std::fs::read_to_string(&self.hosts).map(|t| host_lines(&t).count()).unwrap_or(1).max(1)
    }

    /// parallel's arguments for these shards.
    fn args(&self, plan: &Plan, run_dir: &Path, joblog: &Path, shards: &[usize]) -> Vec<String> {
        let mut args: Vec<String> = [
            "--sshloginfile",
            &self.hosts.display().to_string(),
            // One shard at a time on each host: a shard uses all the host's cores itself.
            "--jobs",
            "1",
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
        let out = File::create(&out_path).with_context(|| format!("{}: cannot create", out_path.display()))?;
        let err = out.try_clone()?;
        let child = Command::new("parallel")
            .args(self.args(plan, run_dir, &joblog, shards))
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
        let shard = ShardCommand { program: "/bin/evotune".into(), threads: None };
        std::fs::write(&hosts, "# none yet\n\n").unwrap();
        let e = format!("{:#}", Parallel::new(shard.clone(), hosts.clone()).unwrap_err());
        assert!(e.contains("no host in it"), "{e}");
        std::fs::write(&hosts, ":\nuser@node2\n").unwrap();
        let p = Parallel::new(shard, hosts.clone()).unwrap();
        assert_eq!(p.host_count(), 2);
        let (config, suite, referee) = mock_setup();
        let lineup = crate::ga::evolve::tests::lineup(&config);
        let ev = Evolver::new(&config, &suite, &referee, &lineup).unwrap();
        let plan = Plan::new(&config, &ev.schedule(&ev.initial_state().unwrap()), &suite, 4);
        let args = p.args(&plan, Path::new("/runs/populations/q"), Path::new("/j"), &[2, 4]).join(" ");
        assert!(args.starts_with(&format!("--sshloginfile {} --jobs 1 --joblog /j", hosts.display())), "{args}");
        assert!(args.ends_with("/bin/evotune cluster play --run /runs/populations/q --shard {}/4 ::: 2 4"), "{args}");
    }
}
