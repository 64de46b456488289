#!/usr/bin/env bash
# Re-measures the numbers README.md (and docs/results.md's self-play line) quotes, with the
# commands they give, and prints each beside what the text says, so that a changed number is
# seen before it is quoted.
#
#   scripts/readme-numbers.sh [--run RESULTS] [--cloudict] [OUT]
#
# --run RESULTS  a finished quick run's results folder (`results/quick` of `evotune evolve`):
#                its report and champion are measured instead of running the main job again
#                (the main job takes about 3 minutes on two idle cores, 18-26 on a busy machine).
# --cloudict     also the Cloudict run of docs/outside-tuning.md (about 35 minutes; needs
#                cloudict-tunable/, built by scripts/cloudict-tunable.sh).
# OUT            where the runs' populations/ and results/ go (default: a new temporary folder).
#
# Times are wall clock and CPU time: the load is printed beside them; on a shared machine,
# read CPU time / 2 as the time on two idle cores. The script changes no file of the
# repository: update README.md from its output, each number next to the command that gives it.
set -euo pipefail

run=""
cloudict=0
while [ $# -gt 0 ]; do
    case $1 in
        --run) run=${2:?--run needs a results folder}; shift 2 ;;
        --cloudict) cloudict=1; shift ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
        *) break ;;
    esac
done
if [ -n "$run" ]; then
    run=$(cd "$run" && pwd)
    for f in champion.toml report.md; do
        [ -f "$run/$f" ] || { echo "--run $run: no $f (not a finished run's results folder)" >&2; exit 2; }
    done
fi

cd "$(dirname "$0")/.."
out=${1:-$(mktemp -d -t evotune-readme-XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cargo build --release --quiet
evotune=$PWD/target/release/evotune

say() { printf '%-60s %s\n' "$1" "$2"; }
# The first match of a pattern in README.md, its lines joined (a number may wrap).
readme() { tr '\n' ' ' <README.md | grep -o "$1" | head -1; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
# Runs a command, its output to $1.out and $1.err; sets wall and cpu (seconds, user + sys).
timed() {
    local name=$1
    shift
    local TIMEFORMAT='%R %U %S' t
    t=$({ time "$@" >"$out/$name.out" 2>"$out/$name.err"; } 2>&1)
    wall=${t%% *}
    cpu=$(echo "$t" | awk '{ print $2 + $3 }')
}

echo "# README numbers re-measured into $out"
echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, commit $(git rev-parse --short HEAD), load before: $(load)"

# 1. The main job: `cargo run --release -- evolve` (the quick run, seed 1).
echo
echo "## the main job: evotune evolve"
if [ -z "$run" ]; then
    timed evolve "$evotune" evolve --out "$out" --force
    run=$out/results/quick
    games=$(grep -o '[0-9]* to play in all' "$out/evolve.err" | grep -o '^[0-9]*' | head -1)
    say "README: $(readme '[0-9,]* games; [0-9.]* *minutes on two idle cores')" \
        "measured: $games games; wall ${wall}s, CPU ${cpu}s (load after: $(load))"
else
    echo "(not run: measuring --run $run)"
fi
validation=$(grep -m1 '^| defaults |' "$run/report.md")
say "README: $(readme 'scores [0-9.]*% ([^)]*)')" "report.md: $validation"

# 2. The README's first match command, on the run's champion: it must print the report's
#    validation, game for game (the champion carries the engine it was tuned with).
echo
echo "## evotune match --a results/quick/champion.toml --b defaults --pairs 200 --depth 3"
timed match "$evotune" match --a "$run/champion.toml" --b defaults --pairs 200 --depth 3
say "README: $(readme 'It prints the [0-9.]*%')" "match: $(grep -m1 ' games, W ' "$out/match.out")"
say "" "(wall ${wall}s, CPU ${cpu}s, load after: $(load))"
wdl() { grep -o '[0-9]*-[0-9]*-[0-9]*' <<<"$1" | head -1; }
matched=$(grep -m1 ' games, W ' "$out/match.out" | grep -o 'W [0-9]* D [0-9]* L [0-9]*' | tr -dc '0-9 ' | awk '{ print $1 "-" $2 "-" $3 }')
if [ "$matched" = "$(wdl "$validation")" ]; then
    echo "the match reproduces the report's validation: $matched"
else
    echo "MISMATCH: the match gives $matched, the report $(wdl "$validation")"
fi

# 3. docs/results.md: one self-play game at depth 3 with the default engine.
echo
echo "## evotune selfplay --a defaults --b defaults --games 40 --depth 3 --threads 1"
timed selfplay "$evotune" selfplay --a defaults --b defaults --games 40 --depth 3 --threads 1 --records "$out/selfplay.jsonl"
turns=$(python3 -c 'import json,sys; g=[json.loads(l) for l in open(sys.argv[1])]; print(round(sum(len(x["moves"]) for x in g)/len(g), 1))' "$out/selfplay.jsonl" 2>/dev/null || echo "?")
say "docs/results.md: $(grep -o '| [0-9.]* m\{0,1\}s CPU and [0-9.]* turns a game' docs/results.md | head -1)" \
    "measured: $(awk -v c="$cpu" 'BEGIN { printf "%.1f", c * 1000 / 40 }') ms CPU a game, $turns turns on average (wall ${wall}s for 40, load after: $(load))"

# 4. Cloudict tuned by the GA, validated against stock Cloudict (docs/outside-tuning.md).
echo
if [ "$cloudict" = 1 ]; then
    [ -x cloudict-tunable/cloudict ] || { echo "--cloudict: build it first: scripts/cloudict-tunable.sh /path/to/cloudict-source cloudict-tunable" >&2; exit 2; }
    echo "## evotune evolve --config configs/cloudict.toml"
    timed cloudict "$evotune" evolve --config configs/cloudict.toml --out "$out" --force
    say "README: $(readme 'its equal at depth 2: [0-9.]*% on [0-9]* held-out games')" \
        "report.md: $(grep -m1 '^| stock |' "$out/results/cloudict/report.md") (wall ${wall}s)"
else
    echo "## Cloudict (README: $(readme 'its equal at depth 2: [0-9.]*% on [0-9]* held-out games')): not measured (--cloudict)"
fi
