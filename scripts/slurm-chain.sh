#!/usr/bin/env bash
# Usage: scripts/slurm-chain.sh CONFIG OUT SHARDS [SBATCH_ARG...]
#
# A whole GA run as one chain of dependent SLURM jobs, for sites that forbid long-running
# processes on login nodes (where `evotune evolve --executor slurm` would wait). Nothing
# stays behind on the login node: this script plans generation 1 and submits two jobs,
#   1. the generation's shards as a job array:  evotune cluster play --shard I/SHARDS
#   2. a reduce job that starts when the array has ended (--dependency=afterany):
#        evotune cluster reduce   (check the shards, commit the generation, plan the next)
#      and submits the next generation's array and reduce job, and so on; after the last
#      generation it plays the play-off and validation and writes the report.
# A shard that failed or was lost is submitted again by the reduce job, up to
# EVOTUNE_RETRIES times (default 2) a generation; then the chain stops with the missing
# shards named in its log, and the run is saved: fix the cause and start this script again
# with the same arguments, which continues the run (`cluster plan --run`).
#
# Requirements: OUT on a file system every node shares, and the evotune binary there too
# ($EVOTUNE, default target/release/evotune of this checkout, built here first). SBATCH_ARGs
# go to every job, e.g. --partition=long --time=1:00:00 --cpus-per-task=4 (a shard uses
# its task's CPUs). Logs: OUT/chain-logs/<run>/. The run's result is the one
# `evotune evolve --config CONFIG --out OUT` gives on one machine (docs/cluster.md).
#
# Example:
#   scripts/slurm-chain.sh configs/overnight.toml /shared/evotune 32 --partition=batch --cpus-per-task=2
#   squeue -n evotune-play,evotune-reduce              # the chain going
#   evotune cluster status --run /shared/evotune/populations/overnight
set -euo pipefail

die() { echo "slurm-chain: $*" >&2; exit 1; }

retries=${EVOTUNE_RETRIES:-2}

# Submits the missing shards of the planned generation of run $1 ($2 shards, try $3), then
# the reduce job that follows them. The rest of the arguments go to sbatch.
submit_generation() {
  local run=$1 shards=$2 try=$3
  shift 3
  local missing logs array
  missing=$("$evotune" cluster status --run "$run" --missing)
  [ -n "$missing" ] || missing=1 # all played: a one-task array that finds its shard done
  logs=$(dirname "$run")/../chain-logs/$(basename "$run")
  mkdir -p "$logs"
  array=$(sbatch --parsable --job-name=evotune-play --array="$missing" --output="$logs/play-%A-%a.out" "$@" \
    --wrap="exec '$evotune' cluster play --run '$run' --shard \$SLURM_ARRAY_TASK_ID/$shards --threads \${SLURM_CPUS_PER_TASK:-1}")
  array=${array%%;*}
  sbatch --parsable --job-name=evotune-reduce --dependency="afterany:$array" --output="$logs/reduce-%j.out" "$@" \
    "$script" --step "$evotune" "$run" "$shards" "$try" "$@" >/dev/null
  echo "slurm-chain: shards $missing of $shards: job array $array, then a reduce job"
}

if [ "${1:-}" = "--step" ]; then
  # A reduce job of the chain: --step EVOTUNE RUN SHARDS TRY [SBATCH_ARG...]
  evotune=$2 run=$3 shards=$4 try=$5
  shift 5
  script=$(dirname "$run")/../.slurm-chain.sh # the copy made at the start (see below)
  missing=$("$evotune" cluster status --run "$run" --missing)
  if [ -n "$missing" ]; then
    if [ "$try" -ge "$retries" ]; then
      "$evotune" cluster status --run "$run"
      die "shards $missing failed $((try + 1)) times; see the play-*.out logs beside this one, fix the cause and start the chain again"
    fi
    echo "slurm-chain: shards $missing failed or were lost; submitting them again"
    submit_generation "$run" "$shards" $((try + 1)) "$@"
    exit 0
  fi
  result=$("$evotune" cluster reduce --run "$run" --threads "${SLURM_CPUS_PER_TASK:-1}")
  echo "$result"
  case "$result" in
    planned*) submit_generation "$run" "$shards" 0 "$@" ;;
    champion*) echo "slurm-chain: the run is complete" ;;
    *) die "unexpected answer from cluster reduce: $result" ;;
  esac
  exit 0
fi

[ $# -ge 3 ] || die "usage: $0 CONFIG OUT SHARDS [SBATCH_ARG...]"
config=$1 out=$2 shards=$3
shift 3
command -v sbatch >/dev/null || die "no sbatch here: run me on a SLURM login node"
repo=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${EVOTUNE:-}" ]; then
  (cd "$repo" && cargo build --release --quiet)
  EVOTUNE=$repo/target/release/evotune
fi
evotune=$(realpath "$EVOTUNE")
mkdir -p "$out"
out=$(realpath "$out")
# A batch job runs a copy of its script, not this file: the reduce jobs run a copy kept in
# OUT, which the chain finds from the run folder.
cp "$0" "$out/.slurm-chain.sh"
script=$out/.slurm-chain.sh

name=$(sed -n 's/^name *= *"\(.*\)".*/\1/p' "$config" | head -n 1)
[ -n "$name" ] || die "$config: no name = \"...\" line"
run=$out/populations/$name
if ls "$run"/gen-*.json >/dev/null 2>&1; then
  planned=$("$evotune" cluster plan --run "$run" --shards "$shards")
else
  planned=$("$evotune" cluster plan --config "$config" --out "$out" --name "$name" --shards "$shards")
fi
echo "$planned"
case "$planned" in
  complete*) echo "slurm-chain: the run is complete"; exit 0 ;;
esac
submit_generation "$run" "$shards" 0 "$@"
