#!/bin/bash
# Weight leverage of EinStein's hybrid table: each weight alone at a quarter and at four times
# its hand-set value (clamped to its bounds), a dice-paired match against the hand table.
# Usage: scripts/einstein-leverage.sh [NODES] [PAIRS] [OPENING_SEED] [-- MATCH OPTIONS...]
#   (defaults 1000 200 11). The match options after `--` replace `--search mcts --nodes NODES`,
#   so that the same table of changes can be measured in any setting, e.g.
#   scripts/einstein-leverage.sh 0 500 11 -- --search pvs --depth 2
# Prints one line per change: weight, value, score and pair Elo with its 95% interval.
set -euo pipefail
NODES=${1:-1000}
PAIRS=${2:-200}
SEED=${3:-11}
shift $(($# < 3 ? $# : 3))
search=(--search mcts --nodes "$NODES")
if [ "${1:-}" = "--" ]; then
    shift
    search=("$@")
fi
EVOTUNE=${EVOTUNE:-target/release/evotune}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$EVOTUNE" export --game einstein --weights defaults > "$dir/defaults.toml"
# name default max, from the table's own comments ("name = default  # [min, max] ...")
grep -E '^[a-z0-9]+ = [0-9]+  # \[' "$dir/defaults.toml" | sed -E 's/^([a-z0-9]+) = ([0-9]+)  # \[[0-9]+, ([0-9]+)\].*/\1 \2 \3/' |
while read -r name value max; do
    for change in quarter x4; do
        if [ "$change" = quarter ]; then v=$((value / 4)); else v=$((value * 4)); fi
        [ "$v" -gt "$max" ] && v=$max
        sed -E "s/^$name = [0-9]+/$name = $v/" "$dir/defaults.toml" > "$dir/$name-$change.toml"
        out=$("$EVOTUNE" match --game einstein --a "$dir/$name-$change.toml" --b defaults "${search[@]}" \
            --pairs "$PAIRS" --opening-seed "$SEED" --threads 2 2>&1)
        score=$(grep -oE 'score [0-9.]+%' <<< "$out" | head -1)
        pair=$(grep -oE 'pair Elo [-0-9.]+ \+/- [0-9.]+' <<< "$out" | head -1)
        echo "$name $change=$v: $score, $pair"
    done
done
