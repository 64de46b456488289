//! SLURM: a generation's shards as one job array (`sbatch --array`), watched with `squeue`,
//! cancelled with `scancel`. Whether a shard succeeded is read from its file, not from
//! SLURM's accounting (which many sites and a one-node test cluster do not keep): a task
//! that left the queue without its file failed or was lost, and is submitted again.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::cluster::executor::{list, Backend, Queue, ShardCommand, Submission};
use crate::cluster::plan::Plan;
use crate::fsutil::write_atomic;

/// The `--executor slurm` options.
#[derive(Clone, Debug)]
pub struct Slurm {
    pub shard: ShardCommand,
    /// `sbatch --partition` (None: the cluster's default).
    pub partition: Option<String>,
    /// More `sbatch` arguments, as given (`--time=2:00:00`, `--account=...`).
    pub sbatch_args: Vec<String>,
}

/// Runs a SLURM command and returns its stdout; the error names the command and says what
/// it printed.
fn slurm(program: &str, args: &[String]) -> Result<String> {
    let out = Command::new(program).args(args).output().with_context(|| {
        format!("cannot run `{program}`: is SLURM installed here (its client commands on the PATH)?")
    })?;
    if !out.status.success() {
        bail!(
            "`{program} {}` failed ({}): {}",
            args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

impl Slurm {
    /// The batch script of a generation's shards: one array task a shard.
    fn script(&self, plan: &Plan, run_dir: &Path, logs: &Path) -> String {
        let threads = self.shard.threads.unwrap_or(1);
        let mut lines = vec![
            "#!/bin/sh".to_string(),
            format!("# Shards of generation {} of the evotune run {}.", plan.generation, plan.run),
            format!("#SBATCH --job-name=evotune-{}-g{}", job_name(&plan.run), plan.generation),
            format!("#SBATCH --output={}/shard-%a-job-%A.out", logs.display()),
            format!("#SBATCH --cpus-per-task={threads}"),
        ];
        if let Some(p) = &self.partition {
            lines.push(format!("#SBATCH --partition={p}"));
        }
        let shard = ShardCommand { threads: Some(threads), ..self.shard.clone() };
        let args: Vec<String> =
            shard.args(run_dir, "$SLURM_ARRAY_TASK_ID", plan.shards).iter().map(|a| quote(a)).collect();
        lines.push(format!("exec {}", args.join(" ")));
        lines.join("\n") + "\n"
    }
}

/// A run's name as a job name: letters, digits, `-`, `_` and `.` kept, anything else `-`.
fn job_name(run: &str) -> String {
    run.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '-' }).collect()
}

/// A word for `sh`: quoted unless it is plain, and `$SLURM_ARRAY_TASK_ID` left to expand.
fn quote(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,@%+$".contains(c);
    if word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

impl Backend for Slurm {
    fn name(&self) -> &'static str {
        "slurm"
    }

    fn submit(&self, plan: &Plan, run_dir: &Path, work: &Path, shards: &[usize]) -> Result<Box<dyn Submission>> {
        let logs = work.join("logs");
        std::fs::create_dir_all(&logs).with_context(|| format!("{}: cannot create", logs.display()))?;
        let script = work.join("shards.sbatch");
        write_atomic(&script, self.script(plan, run_dir, &logs).as_bytes())
            .with_context(|| format!("{}: cannot write", script.display()))?;
        let mut args = vec!["--parsable".to_string(), format!("--array={}", list(shards))];
        args.extend(self.sbatch_args.iter().cloned());
        args.push(script.display().to_string());
        let out = slurm("sbatch", &args)?;
        // `--parsable` prints `jobid` or `jobid;cluster`.
        let job = out.trim().split(';').next().unwrap_or("").to_string();
        if job.is_empty() || !job.chars().all(|c| c.is_ascii_digit()) {
            bail!("sbatch printed `{}`, not a job id", out.trim());
        }
        Ok(Box::new(SlurmArray { job, logs, errors: 0 }))
    }
}

/// A submitted job array.
struct SlurmArray {
    job: String,
    logs: PathBuf,
    /// `squeue` failures in a row (a busy controller times out now and then).
    errors: u32,
}

/// `squeue` may fail for a while (a controller restarting, a timeout) before the run stops.
const SQUEUE_TRIES: u32 = 30;

impl Submission for SlurmArray {
    fn poll(&mut self) -> Result<Option<Queue>> {
        let args = ["-h", "-r", "-j", &self.job, "-o", "%T"].map(String::from);
        let out = match slurm("squeue", &args) {
            Ok(out) => {
                self.errors = 0;
                out
            }
            // A job that has left the controller's memory is no longer known.
            Err(e) if format!("{e}").contains("Invalid job id") => String::new(),
            Err(e) => {
                self.errors += 1;
                if self.errors >= SQUEUE_TRIES {
                    return Err(e.context(format!("squeue failed {SQUEUE_TRIES} times in a row")));
                }
                eprintln!("warning: {e:#}; trying again");
                return Ok(Some(Queue::default()));
            }
        };
        let mut queue = Queue::default();
        for state in out.lines().map(str::trim).filter(|l| !l.is_empty()) {
            match state {
                "PENDING" | "REQUEUED" | "REQUEUE_HOLD" | "REQUEUE_FED" | "CONFIGURING" | "RESV_DEL_HOLD" => {
                    queue.waiting += 1
                }
                // Running, or ending: either way not yet over.
                _ => queue.running += 1,
            }
        }
        Ok((queue.running + queue.waiting > 0).then_some(queue))
    }

    fn cancel(&mut self) -> Result<()> {
        slurm("scancel", std::slice::from_ref(&self.job)).map(|_| ())
    }

    fn log_of(&self, shard: usize) -> Option<PathBuf> {
        Some(self.logs.join(format!("shard-{shard}-job-{}.out", self.job)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ga::evolve::tests::mock_setup;
    use crate::ga::evolve::Evolver;

    #[test]
    fn the_batch_script_runs_one_shard_a_task() {
        let (config, suite, referee) = mock_setup();
        let lineup = crate::ga::evolve::tests::lineup(&config);
        let ev = Evolver::new(&config, &suite, &referee, &lineup).unwrap();
        let plan = Plan::new(&config, &ev.schedule(&ev.initial_state().unwrap()), &suite, 6);
        let slurm = Slurm {
            shard: ShardCommand { program: "/shared/bin/evotune".into(), threads: Some(4), engine_processes: None },
            partition: Some("short".into()),
            sbatch_args: vec![],
        };
        let script = slurm.script(&plan, Path::new("/shared/my runs/populations/quick"), Path::new("/shared/logs"));
        assert!(script.contains("#SBATCH --cpus-per-task=4\n#SBATCH --partition=short\n"), "{script}");
        assert!(script.contains("#SBATCH --output=/shared/logs/shard-%a-job-%A.out"), "{script}");
        assert!(
            script.ends_with(
                "exec /shared/bin/evotune cluster play --run '/shared/my runs/populations/quick' \
                 --shard $SLURM_ARRAY_TASK_ID/6 --threads 4\n"
            ),
            "{script}"
        );
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(job_name("my run/1"), "my-run-1");
    }
}
