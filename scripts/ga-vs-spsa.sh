#!/usr/bin/env bash
# GA against SPSA at equal game budgets: runs the quick GA and the quick SPSA with one seed,
# then measures, every STEP games, the table each tuner had at that point (the GA's
# generation best, SPSA's snapshot) against the hand-set table on the validation openings
# (which neither tuner trains on), and writes a CSV and a Markdown table.
#
#   scripts/ga-vs-spsa.sh [SEED] [OUT] [PAIRS]     (defaults: 1, results/ga-vs-spsa, 100)
#
# Cost: the two runs (minutes each on 2 cores) plus 2 x PAIRS games per measured point.
set -euo pipefail
seed=${1:-1}
out=${2:-results/ga-vs-spsa}
pairs=${3:-100}
bin=${EVOTUNE:-target/release/evotune}
[ -x "$bin" ] || cargo build --release
mkdir -p "$out"
run=ga-s$seed
sp=spsa-s$seed
[ -f "$out/results/$run/report.md" ] || "$bin" evolve --seed "$seed" --name "$run" --out "$out" --log
[ -f "$out/results/$sp/report.md" ] || "$bin" spsa --seed "$seed" --name "$sp" --out "$out" --log

measure() { # weight file -> "elo lo hi"
  "$bin" match --a "$1" --b defaults --pairs "$pairs" --depth 3 --tt-mib 4 --opening-seed 1 --seed 1 2>/dev/null |
    sed -n 's/^Elo \([-0-9.inf]*\) +\/- [0-9.inf]* (95% CI \([-0-9.inf]*\) \.\. \([-0-9.inf]*\)).*/\1 \2 \3/p'
}

csv="$out/ga-vs-spsa-s$seed.csv"
echo "tuner,games,table,elo,elo_lo,elo_hi" > "$csv"
# The GA: cumulative fitness games after each generation, from history.csv.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "games") c = i; next }
         { total += $c; print $1, total }' "$out/results/$run/history.csv" |
while read -r gen games; do
  [ $((gen % 10)) -eq 0 ] || continue
  file=$(printf "%s/results/%s/champions/gen-%04d.toml" "$out" "$run" "$gen")
  [ -f "$file" ] || continue
  echo "ga,$games,$file,$(measure "$file" | tr ' ' ',')" >> "$csv"
done
# The GA's champion after its play-off (whose games are not counted here).
total=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "games") c = i; next } { t += $c } END { print t }' \
  "$out/results/$run/history.csv")
echo "ga-champion,$total,$out/results/$run/champion.toml,$(measure "$out/results/$run/champion.toml" | tr ' ' ',')" >> "$csv"
for file in "$out/results/$sp"/snapshots/games-*.toml; do
  games=$(basename "$file" .toml | sed 's/games-0*//')
  echo "spsa,$games,$file,$(measure "$file" | tr ' ' ',')" >> "$csv"
done

{
  echo "| tuner | games | Elo vs defaults (95% CI) |"
  echo "|:---|---:|---:|"
  tail -n +2 "$csv" | sort -t, -k2,2n | awk -F, '{ printf "| %s | %s | %+.0f (%s .. %s) |\n", $1, $2, $4, $5, $6 }'
} > "$out/ga-vs-spsa-s$seed.md"
cat "$out/ga-vs-spsa-s$seed.md"
