#!/usr/bin/env bash
# Usage: scripts/slurm-local.sh [--stop]
#
# A one-node SLURM cluster on this machine, for trying `evotune evolve --executor slurm` and
# for its integration test (tests/cluster.rs). As root, on Debian or Ubuntu, without systemd:
#   1. installs slurmctld, slurmd, munge and the client commands (apt-get), if missing;
#   2. writes /etc/slurm/slurm.conf: one node, this host, with this machine's CPUs and memory,
#      in one partition `evotune` (the default); no accounting, no cgroups;
#   3. starts munged, slurmctld and slurmd by hand, unless they already answer;
#   4. waits until the node is idle and a one-line job runs.
# Idempotent: run it again and it only checks (a changed slurm.conf restarts the daemons).
# `--stop` stops the three daemons. Logs: /var/log/slurm/. Exit status 0 means a job ran.
set -euo pipefail

conf_dir=/etc/slurm
conf=$conf_dir/slurm.conf
logs=/var/log/slurm
partition=evotune

say() { echo "slurm-local: $*" >&2; }
die() { say "$*"; exit 1; }

pids_of() { pgrep -x "$1" || true; }

stop_daemons() {
  for d in slurmd slurmctld munged; do
    for pid in $(pids_of "$d"); do
      kill "$pid" 2>/dev/null || true
    done
  done
  for _ in $(seq 50); do
    [ -z "$(pids_of slurmd)$(pids_of slurmctld)$(pids_of munged)" ] && return 0
    sleep 0.2
  done
  die "the daemons did not stop"
}

if [ "${1:-}" = "--stop" ]; then
  stop_daemons
  say "stopped"
  exit 0
fi

[ "$(id -u)" = 0 ] || die "run me as root: I install packages and start daemons"

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null \
  || ! command -v sbatch >/dev/null; then
  say "installing slurmctld slurmd munge (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y slurmctld slurmd munge slurm-client >/dev/null \
    || { apt-get update >/dev/null && apt-get install -y slurmctld slurmd munge slurm-client >/dev/null; } \
    || die "apt-get could not install slurmctld slurmd munge slurm-client"
fi

# munge: the key is made by the package; the daemon needs its run and log folders.
if [ ! -s /etc/munge/munge.key ]; then
  say "creating /etc/munge/munge.key"
  mungekey --create >/dev/null 2>&1 || dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 2>/dev/null
  chown munge:munge /etc/munge/munge.key
  chmod 400 /etc/munge/munge.key
fi
mkdir -p /run/munge /var/log/munge /var/lib/munge
chown munge:munge /run/munge /var/log/munge /var/lib/munge
if ! munge -n >/dev/null 2>&1; then
  for pid in $(pids_of munged); do kill "$pid" 2>/dev/null || true; done
  say "starting munged"
  runuser -u munge -- /usr/sbin/munged
  for _ in $(seq 50); do munge -n >/dev/null 2>&1 && break; sleep 0.1; done
  munge -n >/dev/null 2>&1 || die "munged does not answer (see /var/log/munge/munged.log)"
fi

# The node as slurmd sees it (`slurmd -C` prints CPUs, sockets, cores, threads, memory).
host=$(hostname -s)
node_line=$(slurmd -C 2>/dev/null | sed -n 's/^\(NodeName=.*\)$/\1/p' | head -n 1)
[ -n "$node_line" ] || node_line="NodeName=$host CPUs=$(nproc)"
# Leave some memory to the daemons and tools; UpTime=... is not a node setting.
node_line=$(echo "$node_line" | sed 's/ UpTime=.*//')
mem=$(echo "$node_line" | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p')
if [ -n "$mem" ]; then
  node_line=$(echo "$node_line" | sed "s/RealMemory=[0-9]*/RealMemory=$((mem * 9 / 10))/")
fi

mkdir -p "$conf_dir" "$logs" /var/spool/slurmctld /var/spool/slurmd
new_conf=$(cat <<EOF
# Written by evotune's scripts/slurm-local.sh: a one-node cluster on this machine.
ClusterName=evotune-local
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=$logs/slurmctld.log
SlurmdLogFile=$logs/slurmd.log
# No cgroups (containers often have none to give) and no accounting database.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
# Quick turnaround for small jobs.
SchedulerParameters=sched_interval=1
MessageTimeout=30
$node_line NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=$partition Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
)
changed=0
if [ ! -f "$conf" ] || [ "$(cat "$conf")" != "$new_conf" ]; then
  printf '%s\n' "$new_conf" >"$conf.tmp"
  mv "$conf.tmp" "$conf"
  changed=1
  say "wrote $conf ($node_line)"
fi

if [ "$changed" = 1 ]; then
  for d in slurmd slurmctld; do
    for pid in $(pids_of "$d"); do kill "$pid" 2>/dev/null || true; done
  done
  for _ in $(seq 50); do
    [ -z "$(pids_of slurmd)$(pids_of slurmctld)" ] && break
    sleep 0.2
  done
fi
if [ -z "$(pids_of slurmctld)" ]; then
  say "starting slurmctld"
  /usr/sbin/slurmctld -i || die "slurmctld did not start (see $logs/slurmctld.log)"
fi
for _ in $(seq 100); do scontrol ping >/dev/null 2>&1 && break; sleep 0.2; done
scontrol ping 2>&1 | grep -q UP || die "slurmctld does not answer (see $logs/slurmctld.log)"
if [ -z "$(pids_of slurmd)" ]; then
  say "starting slurmd"
  /usr/sbin/slurmd || die "slurmd did not start (see $logs/slurmd.log)"
fi

# The node comes up idle (ReturnToService=2); a node left down or drained by an earlier
# session is resumed.
state=""
for _ in $(seq 150); do
  state=$(sinfo -h -n "$host" -o %T 2>/dev/null | head -n 1)
  case "$state" in
    idle* | mixed* | allocated* | completing*) break ;;
    down* | drain*) scontrol update NodeName="$host" State=RESUME >/dev/null 2>&1 || true ;;
  esac
  sleep 0.2
done
case "$state" in
  idle* | mixed* | allocated* | completing*) ;;
  *) die "node $host is '$state', not idle (see $logs/slurmd.log and $logs/slurmctld.log)" ;;
esac

out=$(timeout 60 srun -p "$partition" -N 1 -n 1 -t 1 echo slurm-ok 2>&1) || die "a test job failed: $out"
[ "$out" = slurm-ok ] || die "a test job printed '$out', not slurm-ok"
say "up: partition $partition, node $host ($state), a test job ran"
