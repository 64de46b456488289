#!/usr/bin/env bash
# Weight tables (or engine options) against the Olympiad-gold engine Cloudict, on the same
# openings, compared by `evotune compare` paired by opening. Three settings:
#
#   scripts/versus-cloudict.sh TABLE...          # the proxy: evotune at depth 4 against
#                                                # Cloudict at depth 2; deterministic, about
#                                                # 0.5 s a game on one core
#   MODE=fast scripts/versus-cloudict.sh TABLE...
#                                                # evotune at 200 ms a move against Cloudict
#                                                # at depth 3; about 3 s a game
#   MODE=real scripts/versus-cloudict.sh TABLE...
#                                                # the real test: evotune at 1 s a move
#                                                # against Cloudict at depth 4 (about 0.7 s a
#                                                # move); about 15 s a game
#
# Timed modes depend on the machine's load: run nothing else meanwhile.
#
# Each TABLE (a weight file, `defaults`, or NAME=FILE to name a run, optionally followed by
# `+KEY=VALUE` engine options joined with commas: `opt=defaults+vcdt_depth=4`) plays PAIRS
# pairs (default 50) on each opening suite of SEEDS (default "21 22"), colours swapped; the
# records of all seeds are joined into OUT/<name>.jsonl and the first TABLE is the base of
# the comparison. Records already in OUT are reused (delete them to play again), so a new
# table can be compared with earlier ones without replaying them.
#
# Environment: EVOTUNE (binary, default target/release/evotune), CLOUDICT (folder holding the
# built engine `cloudict` and its `patterns.in`, default /opt/cloudict; docs/strength.md says
# how to build it), MODE (proxy|fast|real), PAIRS, SEEDS, THREADS (default 2), OUT (default
# results/versus-cloudict-MODE), OPENINGS (an opening suite file, e.g. from `evotune
# openings --turns 1 --radius 9`, played instead of the generated suites of SEEDS).
set -euo pipefail
cd "$(dirname "$0")/.."

EVOTUNE=${EVOTUNE:-target/release/evotune}
CLOUDICT=${CLOUDICT:-/opt/cloudict}
MODE=${MODE:-proxy}
PAIRS=${PAIRS:-50}
SEEDS=${SEEDS:-21 22}
THREADS=${THREADS:-2}
OUT=${OUT:-results/versus-cloudict-$MODE}

if [[ $# -eq 0 ]]; then
  sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
if [[ ! -x $EVOTUNE ]]; then
  echo "versus-cloudict: $EVOTUNE not found; build it with cargo build --release (or set EVOTUNE)" >&2
  exit 1
fi
if [[ ! -x $CLOUDICT/cloudict || ! -f $CLOUDICT/patterns.in ]]; then
  echo "versus-cloudict: no $CLOUDICT/cloudict with its patterns.in; build Cloudict there (docs/strength.md) or set CLOUDICT" >&2
  exit 1
fi
case $MODE in
  proxy) cloudict_depth=2; budget=(--depth 4) ;;
  fast) cloudict_depth=3; budget=(--a-time-ms 200) ;;
  real) cloudict_depth=4; budget=(--a-time-ms 1000) ;;
  *)
    echo "versus-cloudict: MODE=$MODE: expected proxy, fast or real" >&2
    exit 2
    ;;
esac
mkdir -p "$OUT"
opponent="cloudict=cmd:$CLOUDICT/cloudict;protocol=cloudict;dir=$CLOUDICT;init=depth $cloudict_depth"

files=()
for spec in "$@"; do
  table=${spec%%+*}
  options=()
  if [[ $spec == *+* ]]; then
    IFS=',' read -ra pairs <<<"${spec#*+}"
    for kv in "${pairs[@]}"; do options+=(--a-engine "$kv"); done
  fi
  if [[ $table == *=* ]]; then
    name=${table%%=*}
    table=${table#*=}
  else
    name=$(basename "$table" .toml)
    [[ $spec == *+* ]] && name="$name+${spec#*+}"
  fi
  joined="$OUT/$name.jsonl"
  if [[ ! -s $joined ]]; then
    parts=()
    if [[ -n ${OPENINGS:-} ]]; then
      suites=("file:$OPENINGS")
    else
      read -ra suites <<<"$SEEDS"
    fi
    for suite in "${suites[@]}"; do
      if [[ $suite == file:* ]]; then
        part="$OUT/$name-$(basename "${suite#file:}" .txt).jsonl"
        openings=(--openings "${suite#file:}")
      else
        part="$OUT/$name-seed$suite.jsonl"
        openings=(--opening-seed "$suite")
      fi
      echo "versus-cloudict: $name, openings ${openings[*]} ($MODE)" >&2
      "$EVOTUNE" match --a "$table" --b "$opponent" "${budget[@]}" "${options[@]}" --pairs "$PAIRS" \
        "${openings[@]}" --threads "$THREADS" --records "$part.tmp" >&2
      mv "$part.tmp" "$part"
      parts+=("$part")
    done
    cat "${parts[@]}" >"$joined.tmp"
    mv "$joined.tmp" "$joined"
  fi
  files+=("$joined")
done
"$EVOTUNE" compare --opponent cloudict "${files[@]}"
