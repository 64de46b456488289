#!/usr/bin/env bash
# Usage: scripts/outside-overhead.sh [DEPTHS] [REPEATS]
#
# What tuning an outside engine costs in processes and protocol: games per second of one GA
# config played by evotune's engine in-process and by evotune itself as an outside engine
# (`[outside]`: `evotune play --weights {weights}` with the config's engine options), at each
# depth of DEPTHS (default "1 3"), REPEATS times (default 3), the two interleaved (their order
# swapped every repeat) so that the machine's load falls on both alike.
#
# VALUES (default `lines`) says how the outside engine is told an individual's values: `lines`
# as `param NAME VALUE` lines (param_line; a process then plays one individual after another,
# told every value again before another individual's game), `file` as a weight file
# (`--weights {weights}`; a process per individual).
#
# The config: configs/quick.toml with 12 individuals in 3 groups (one pair per pairing) and
# 2 pairs against the `defaults` anchor a generation, GENERATIONS generations (default 3), no
# play-off or validation. Games per second are those of the generations' games (history.csv:
# games / games_wall_s), on THREADS threads (default 2). The two runs must have the same
# history (the same games): the script says so, or stops.
#
# Two measures per run: games per second (the wall clock, which the machine's other load
# distorts) and CPU milliseconds per game (user + system time of evotune and every engine
# process it started and reaped, which load hardly changes): on a machine of its own, a run
# that keeps every core busy plays games at the rate its CPU time per game allows.
#
# Prints one line per run (for the outside run also the engine processes it started) and, per
# depth, the outside run's games/s and CPU per game against the in-process run's (mean and
# range over the repeats), with the load (uptime) before and after.
#
# Environment: EVOTUNE (default target/release/evotune), THREADS, GENERATIONS, VALUES, OUT
# (default a temporary folder, removed).
set -euo pipefail
cd "$(dirname "$0")/.."

DEPTHS=${1:-1 3}
REPEATS=${2:-3}
EVOTUNE=$(realpath "${EVOTUNE:-target/release/evotune}")
THREADS=${THREADS:-2}
GENERATIONS=${GENERATIONS:-3}
VALUES=${VALUES:-lines}
case "$VALUES" in lines|file) ;; *) echo "VALUES=$VALUES: expected lines or file" >&2; exit 1 ;; esac
keep_out=${OUT:+x}
OUT=${OUT:-$(mktemp -d)}
[ -x "$EVOTUNE" ] || { echo "no $EVOTUNE: cargo build --release first" >&2; exit 1; }

schema="$OUT/roads.toml"
"$EVOTUNE" schema --game connect6 --eval roads -o "$schema" 2>/dev/null

# The config at depth $1, in-process (no [outside]) or with evotune as the outside engine.
config() {
  local depth=$1 outside=$2 name=$3
  python3 - "$depth" "$outside" "$name" "$EVOTUNE" "$schema" "$GENERATIONS" "$OUT/engines-$depth.log" "$VALUES" <<'EOF'
import re, sys
depth, outside, name, evotune, schema, generations, log, values = sys.argv[1:]
text = open("configs/quick.toml").read()
def put(section, key, value):
    global text
    out, current, done = [], "", False
    for line in text.split("\n"):
        m = re.match(r"^\[(.*)\]", line)
        if m:
            current = m.group(1)
        elif current == section and re.match(rf"^{key}\s*=", line) and not done:
            line, done = f"{key} = {value}", True
        out.append(line)
    assert done, (section, key)
    text = "\n".join(out)
for section, key, value in [("", "name", f'"{name}"'), ("", "generations", generations),
                            ("", "population", 12), ("", "groups", 3), ("", "pairs", 1),
                            ("engine", "depth", depth), ("hall_of_fame", "pairs", 2),
                            ("final", "candidates", 0), ("validation", "pairs", 0),
                            ("output", "plot", "false")]:
    put(section, key, value)
if outside == "yes":
    # The engine options of quick.toml's [engine] (and the config defaults it leaves), as flags.
    flags = (f"--search pvs --tt-mib 4 --depth {depth} --singles 12 --seconds 6 --width 16 "
             "--vcdt-depth 4 --refutation-nodes 0 --quiet-refutation-nodes 0")
    text = text.replace('eval = "roads"', "")
    if values == "file":
        told = f'command = "{evotune} play --weights {{weights}} {flags}"\nformat = "toml"\n'
    else:
        told = f'command = "{evotune} play --weights defaults --eval roads {flags}"\nparam_line = "param {{name}} {{value}}"\n'
    text += f'\n[outside]\n{told}schema = "{schema}"\nlog = "{log}"\n'

print(text)
EOF
}

# games/s of a finished run, and its history without the time columns.
rate() {
  python3 - "$1" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(f"{sum(int(r['games']) for r in rows) / sum(float(r['games_wall_s']) for r in rows):.2f}")
EOF
}
history() {
  python3 - "$1" <<'EOF'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(",".join(v for k, v in r.items() if "wall_s" not in k))
EOF
}

echo "load before: $(uptime); values told by $VALUES, $THREADS threads"
for depth in $DEPTHS; do
  config "$depth" no inside > "$OUT/inside-$depth.toml"
  config "$depth" yes outside > "$OUT/outside-$depth.toml"
  counted=0
  ratios=()
  cpu_ratios=()
  extra=()
  for r in $(seq 1 "$REPEATS"); do
    order="inside outside"
    [ $((r % 2)) -eq 0 ] && order="outside inside"
    declare -A got=() ms=()
    for kind in $order; do
      dir="$OUT/$kind-$depth-$r"
      # bash's `time` counts the CPU of the children it reaped: evotune's engine processes
      # (each reaped by evotune) included.
      cpu=$( { TIMEFORMAT='%U %S'; time "$EVOTUNE" evolve --config "$OUT/$kind-$depth.toml" --out "$dir" \
        --threads "$THREADS" --log >/dev/null 2>"$dir.log"; } 2>&1 ) \
        || { echo "the $kind run failed: $dir.log" >&2; exit 1; }
      got[$kind]=$(rate "$dir/results/$kind/history.csv")
      games=$(python3 -c "import csv; print(sum(int(r['games']) for r in csv.DictReader(open('$dir/results/$kind/history.csv'))))")
      ms[$kind]=$(python3 -c "u, s = map(float, '$cpu'.split()); print(f'{1000 * (u + s) / $games:.2f}')")
      started=""
      if [ "$kind" = outside ]; then
        # The engines' log (the config's `log`, appended to by every run at this depth): a
        # line for every process started.
        total=$(grep -c '^# evotune: engine [0-9]*: started' "$OUT/engines-$depth.log" || true)
        started=", $((total - counted)) processes started"
        counted=$total
      fi
      echo "depth $depth repeat $r: $kind ${got[$kind]} games/s, ${ms[$kind]} ms CPU a game ($games games$started)"
    done
    if [ "$(history "$OUT/inside-$depth-$r/results/inside/history.csv")" != \
         "$(history "$OUT/outside-$depth-$r/results/outside/history.csv")" ]; then
      echo "depth $depth repeat $r: the two runs played different games; the flags are not the config's" >&2
      exit 1
    fi
    ratios+=("$(python3 -c "print(${got[outside]} / ${got[inside]})")")
    cpu_ratios+=("$(python3 -c "print(${ms[outside]} / ${ms[inside]})")")
    extra+=("$(python3 -c "print(${ms[outside]} - ${ms[inside]})")")
    unset got ms
  done
  python3 - "$depth" "${ratios[*]}" "${cpu_ratios[*]}" "${extra[*]}" <<'EOF'
import sys
depth = sys.argv[1]
ratios, cpu, extra = ([float(x) for x in a.split()] for a in sys.argv[2:])
def mean(xs): return sum(xs) / len(xs)
print(f"depth {depth}: outside/in-process games/s {mean(ratios):.3f} (range {min(ratios):.3f} .. {max(ratios):.3f}); "
      f"CPU a game {mean(cpu):.3f} (range {min(cpu):.3f} .. {max(cpu):.3f}): overhead {100 * (mean(cpu) - 1):+.1f}% "
      f"in CPU, {mean(extra):+.2f} ms a game ({len(ratios)} interleaved repeats, same games)")
EOF
done
echo "load after: $(uptime)"
[ -n "$keep_out" ] || rm -rf "$OUT"
