#!/usr/bin/env bash
# Usage: scripts/evolve-resumable.sh CONFIG [OUT]
# Starts the GA run of CONFIG under OUT (default: .), or resumes it from its checkpoints if
# it was started before. Safe to submit again after a preemption: nothing is lost but the
# generation in flight, and the resumed run equals an uninterrupted one.
set -euo pipefail
config=${1:?usage: $0 CONFIG [OUT]}
out=${2:-.}
cd "$(dirname "$0")/.."
cargo build --release --quiet
name=$(sed -n 's/^name *= *"\(.*\)".*/\1/p' "$config" | head -n 1)
if [ -z "$name" ]; then
  echo "$config: no name = \"...\" line" >&2
  exit 1
fi
dir="$out/populations/$name"
if ls "$dir"/gen-*.json >/dev/null 2>&1; then
  exec ./target/release/evotune evolve --resume "$dir" --log
else
  exec ./target/release/evotune evolve --config "$config" --out "$out" --name "$name" --log
fi
