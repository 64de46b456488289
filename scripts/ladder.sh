#!/usr/bin/env bash
# A strength ladder anyone can rerun: evotune's default player at a fixed time per move (or a
# game clock) against fixed references — evotune itself at fixed depths, the alpha-beta and
# UCT players at the same time — each a match of paired openings, colours swapped. Prints one
# Markdown table row per rung (score with its 95% Elo interval) and keeps every game record.
#
#   scripts/ladder.sh                      # 1000 ms per move, 100 pairs a rung
#   TIME_MS=100 PAIRS=50 scripts/ladder.sh # a quick ladder
#   TC=60+1 scripts/ladder.sh              # a game clock instead of a time per move
#   scripts/ladder.sh 'cloudict=cmd:/opt/cloudict/cloudict;init=depth 4;dir=/opt/cloudict'
#                                          # outside engines as extra rungs (any player spec
#                                          # `evotune match --b` takes; the protocol is the
#                                          # game's, Cloudict's for Connect6); they keep their
#                                          # own limits, only the ladder's player gets TIME_MS
#
# Environment: EVOTUNE (binary, default target/release/evotune), TIME_MS, TC, PAIRS, THREADS
# (default 2: two games at once, one core each), OUT (folder for the records, default
# results/ladder), PLAYER (weights of the player on the ladder, default `defaults`).
set -euo pipefail
cd "$(dirname "$0")/.."

EVOTUNE=${EVOTUNE:-target/release/evotune}
TIME_MS=${TIME_MS:-1000}
TC=${TC:-}
PAIRS=${PAIRS:-100}
THREADS=${THREADS:-2}
OUT=${OUT:-results/ladder}
PLAYER=${PLAYER:-defaults}

if [[ ! -x $EVOTUNE ]]; then
  echo "ladder: $EVOTUNE not found; build it with cargo build --release (or set EVOTUNE)" >&2
  exit 1
fi
mkdir -p "$OUT"
if [[ -n $TC ]]; then
  budget=(--tc "$TC")
  label="clock $TC"
else
  budget=(--time-ms "$TIME_MS")
  label="$TIME_MS ms per move"
fi

# name | player B (the reference) | options for player B; player A is PLAYER with the budget.
rungs=(
  "evotune depth 3|defaults|--b-depth 3"
  "evotune depth 4|defaults|--b-depth 4"
  "evotune depth 5|defaults|--b-depth 5"
  "alpha-beta, same budget|defaults|--b-search alphabeta"
  "UCT, same budget|defaults|--b-search mcts"
)
# An outside engine keeps its own limits (an init line such as `depth 4`; Cloudict has no
# clock): only PLAYER gets the budget, unless a game clock is asked for, which binds both.
for spec in "$@"; do
  if [[ -n $TC ]]; then
    rungs+=("${spec%%=*} (outside), same clock|$spec|")
  else
    rungs+=("${spec%%=*} (outside), its own limits|$spec|--a-time-ms $TIME_MS|own")
  fi
done

echo "| $PLAYER ($label) against | games | score | Elo (95% interval) | pair Elo |"
echo "|---|---:|---:|---|---|"
for rung in "${rungs[@]}"; do
  IFS='|' read -r name player opts limits <<<"$rung"
  file="$OUT/$(echo "$name" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9\n' '-' | tr -s '-').jsonl"
  both=("${budget[@]}")
  [[ ${limits:-} == own ]] && both=()
  # shellcheck disable=SC2086 # opts holds several options on purpose
  report=$("$EVOTUNE" match --a "$PLAYER" --b "$player" "${both[@]}" $opts --pairs "$PAIRS" \
    --threads "$THREADS" --records "$file" 2>/dev/null)
  games=$(sed -n 's/.*: \([0-9]*\) games, W.*/\1/p' <<<"$report" | head -1)
  score=$(sed -n 's/.*(score \([0-9.]*%\)).*/\1/p' <<<"$report" | head -1)
  elo=$(sed -n 's/^Elo \([^ ]*\) +\/- [^ ]* (95% CI \(.*\)), LOS.*/\1 (\2)/p' <<<"$report" | head -1)
  pair=$(sed -n 's/.*pair Elo \([^ ]*\) +\/- \([^ ]*\).*/\1 ± \2/p' <<<"$report" | head -1)
  echo "| $name | $games | $score | $elo | $pair |"
done
echo
echo "records in $OUT/"
