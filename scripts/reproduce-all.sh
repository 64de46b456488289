#!/usr/bin/env bash
# Runs the three paper reproductions in turn (quick setting, or the papers' sizes with --full).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
for paper in li2015 wang2021 li2007; do
  echo "== $paper"
  start=$(date +%s)
  ./target/release/evotune reproduce "$paper" "$@"
  echo "== $paper took $(( $(date +%s) - start ))s"
done
