#!/usr/bin/env bash
# Strength of weight tables against an outside engine, on opening suites the tables were not
# tuned on, as one Markdown table: score with its interval, pair Elo, the score as first and
# as second player, the mean thinking time per move of both sides, and the games each side
# lost by a fault (crash, illegal move, time) counted apart.
# The opponent's time is its CPU time when /usr/bin/time is there (its wall time meanwhile
# grows with the machine's load), and evotune's can be counted in positions (CLOCK_NPS), so
# that the thinking times compare on a machine that is not idle.
#
#   scripts/strength.sh OPPONENT TABLE...
#
#   scripts/strength.sh 'cloudict=cmd:/opt/cloudict/cloudict;dir=/opt/cloudict;init=depth 4' \
#       weights/connect6-versus-cloudict.toml defaults
#   GAME=gomoku OPP_TIME_MS=500 scripts/strength.sh \
#       'rapfi=cmd:/opt/rapfi/pbrain-rapfi;dir=/opt/rapfi' defaults
#
# OPPONENT is any player `evotune match --b` takes (`cmd:` engines with `;dir=`, `;init=`,
# `;protocol=`; or an evotune table). Each TABLE (a weight file, `defaults`, or NAME=FILE)
# plays evotune's default engine at TIME_MS a move against it: PAIRS openings of each suite
# (all of a suite that holds fewer), each played twice with colours swapped. The opponent keeps its own limits (an init line such
# as `depth 4`; Cloudict has no clock) unless OPP_TIME_MS gives it a time per move too.
#
# Suites: SUITES names opening files (one opening per line, `evotune openings` writes them);
# by default two suites of two-turn openings are generated from seeds 9001 and 9002 (seeds no
# shipped config tunes on) into OUT, where you can read them; SEEDS="9201 9202" picks others.
# JUDGES="defaults|NAME=cmd:..." keeps only balanced openings (`evotune openings --balanced
# MARGIN --judge ...`, MARGIN default 0; docs/matches.md): each judge plays itself from each
# candidate (evotune's tables at JUDGE_DEPTH, default 4), and openings both judges win with
# the same colour are left out. TOP and RADIUS
# set the generator (`--top`, `--radius`; the default generator holds only 88 distinct
# two-turn Connect6 openings, `TOP=12 RADIUS=5` many more), and EXCLUDE="FILE..." leaves out
# the openings of those suites (`--exclude`): keep the suites you judge a table by apart from
# those you tune it on, since gains measured on one suite shrink on another. Balanced suites
# of one run share no opening (each seed's suite excludes the ones before it).
#
# Environment: EVOTUNE (binary, default target/release/evotune), GAME (default connect6),
# TIME_MS (default 1000), OPP_TIME_MS, PAIRS (default 100), THREADS (games at once, default
# 2; timed games need a core each and an otherwise idle machine), SUITES, OUT (default
# results/strength). Records already in OUT are reused (delete them to play again).
# CLOCK_NPS=R counts evotune's time in the positions it visits at R a second (`clock_nps`,
# docs/performance.md): it then plays as on a free core of that speed whatever the load, and
# with an opponent at a fixed depth (Cloudict) the whole match no longer depends on the load.
# Take R from `evotune bench --depth 8` on an idle core. The opponent's CPU time is read by
# running its program under /usr/bin/time (OPP_CPU=0 turns that off); a `cmd:` engine
# without a NAME= is named after its program. ENGINE="KEY=VALUE ..." sets engine options of
# the tables' side (`--a-engine`), such as `later_time_share=0.333` (docs/config.md).
# HANG_MS: the longest wait for a move of an opponent without a time limit (`--hang-ms`;
# Cloudict at depth 4 or 5 on a loaded machine needs minutes, or it loses on time).
set -euo pipefail
cd "$(dirname "$0")/.."

EVOTUNE=${EVOTUNE:-target/release/evotune}
GAME=${GAME:-connect6}
TIME_MS=${TIME_MS:-1000}
OPP_TIME_MS=${OPP_TIME_MS:-}
PAIRS=${PAIRS:-100}
THREADS=${THREADS:-2}
OUT=${OUT:-results/strength}
CLOCK_NPS=${CLOCK_NPS:-}
OPP_CPU=${OPP_CPU:-1}

if [[ $# -lt 2 ]]; then
  # The comment block at the top, up to the first line that is not a comment.
  awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"
  exit 2
fi
if [[ ! -x $EVOTUNE ]]; then
  echo "strength: $EVOTUNE not found; build it with cargo build --release (or set EVOTUNE)" >&2
  exit 1
fi
command -v python3 >/dev/null || {
  echo "strength: python3 is needed to read the game records" >&2
  exit 1
}
opponent=$1
shift
if [[ $opponent == cmd:* ]]; then
  read -ra words <<<"${opponent#cmd:}"
  program=${words[0]%%;*}
  opponent="$(basename "$program")=$opponent"
fi
opponent_name=${opponent%%=*}
mkdir -p "$OUT"

# The opponent's CPU time: its program runs under /usr/bin/time, which appends the user and
# system seconds of each process (one per game played at once, reused from game to game) to
# a log beside the records when the process ends.
cpu_wrap() { # LOG -> the opponent spec with its program wrapped
  local spec=$1 log=$2 rest program
  [[ $OPP_CPU == 1 && -x /usr/bin/time && $spec == *=cmd:* ]] || {
    echo "$spec"
    return
  }
  rest=${spec#*=cmd:}
  program=${rest%%[ ;]*}
  [[ -x $program && $program != /* ]] && program=$(realpath "$program")
  echo "${spec%%=cmd:*}=cmd:/usr/bin/time -a -o $(realpath -m "$log") -f '%U %S' $program${rest#"${rest%%[ ;]*}"}"
}

suites=()
if [[ -n ${SUITES:-} ]]; then
  read -ra suites <<<"$SUITES"
  for suite in "${suites[@]}"; do
    [[ -f $suite ]] || {
      echo "strength: SUITES: no opening file $suite" >&2
      exit 1
    }
  done
else
  judges=()
  if [[ -n ${JUDGES:-} ]]; then
    IFS='|' read -ra specs <<<"$JUDGES"
    for spec in "${specs[@]}"; do judges+=(--judge "$spec"); done
  fi
  # The generator's settings, the same for every suite (and for every judge's candidates).
  generator=(--game "$GAME" --turns 2 --count "$PAIRS")
  [[ -n ${TOP:-} ]] && generator+=(--top "$TOP")
  [[ -n ${RADIUS:-} ]] && generator+=(--radius "$RADIUS")
  for file in ${EXCLUDE:-}; do
    [[ -f $file ]] || {
      echo "strength: EXCLUDE: no opening file $file" >&2
      exit 1
    }
    generator+=(--exclude "$file")
  done
  earlier=()
  for seed in ${SEEDS:-9001 9002}; do
    if [[ ${#judges[@]} -gt 0 ]]; then
      # Each balanced suite also leaves out the openings of the suites before it: the balanced
      # openings of the wider generator are few, and two seeds' suites of 25 shared 15 of
      # them up to the board's symmetries.
      suite="$OUT/$GAME-balanced-$seed-$PAIRS.txt"
      [[ -s $suite ]] || "$EVOTUNE" openings "${generator[@]}" "${earlier[@]}" --seed "$seed" \
        --balanced "${MARGIN:-0}" "${judges[@]}" --judge-depth "${JUDGE_DEPTH:-4}" --threads "$THREADS" -o "$suite" >&2
      earlier+=(--exclude "$suite")
    else
      suite="$OUT/$GAME-openings-$seed-$PAIRS.txt"
      [[ -s $suite ]] || "$EVOTUNE" openings "${generator[@]}" --seed "$seed" -o "$suite" >&2
    fi
    suites+=("$suite")
  done
fi

budget=(--a-time-ms "$TIME_MS")
[[ -n $CLOCK_NPS ]] && budget+=(--a-engine "clock_nps=$CLOCK_NPS")
for option in ${ENGINE:-}; do budget+=(--a-engine "$option"); done
[[ -n $OPP_TIME_MS ]] && budget+=(--b-time-ms "$OPP_TIME_MS")
[[ -n ${HANG_MS:-} ]] && budget+=(--hang-ms "$HANG_MS")
opp_label=${OPP_TIME_MS:+, $OPP_TIME_MS ms a move}
clock_label=${CLOCK_NPS:+ (counted at $CLOCK_NPS positions a second)}

rows=()
for spec in "$@"; do
  if [[ $spec == *=* ]]; then
    name=${spec%%=*}
    table=${spec#*=}
  else
    name=$(basename "$spec" .toml)
    table=$spec
  fi
  for suite in "${suites[@]}"; do
    records="$OUT/$name-vs-$opponent_name-$(basename "$suite" .txt).jsonl"
    cpu_log="${records%.jsonl}.cpu"
    if [[ ! -s $records ]]; then
      echo "strength: $name against $opponent_name on $suite" >&2
      rm -f "$cpu_log"
      # A suite with fewer openings than PAIRS (a balanced suite can hold fewer than asked
      # for) is played once: `match --pairs` would start it over and repeat its games.
      pairs=$(grep -c -v -e '^#' -e '^[[:space:]]*$' "$suite" || true)
      ((pairs > PAIRS)) && pairs=$PAIRS
      ((pairs > 0)) || {
        echo "strength: no opening in $suite" >&2
        exit 1
      }
      "$EVOTUNE" match --game "$GAME" --a "$name=$table" --b "$(cpu_wrap "$opponent" "$cpu_log")" "${budget[@]}" \
        --openings "$suite" --pairs "$pairs" --threads "$THREADS" --records "$records.tmp" >&2
      mv "$records.tmp" "$records"
    fi
    row=$(python3 - "$records" "$name" "$cpu_log" <<'EOF'
import json, math, os, re, sys

path, player, cpu_log = sys.argv[1], sys.argv[2], sys.argv[3]
games = [json.loads(line) for line in open(path) if line.strip()]
games = [g for g in games if g["reason"] != "aborted"]
FAULTS = {"crash", "illegal", "timeout"}
points, first, second, pairs = [], [], [], {}
think = {True: [0, 0], False: [0, 0]}  # player? -> [ms, moves]
faults = {True: 0, False: 0}
clean = []
for g in games:
    mine = g["first"] == player
    won = g["result"] == ("first" if mine else "second")
    lost = g["result"] == ("second" if mine else "first")
    p = 1.0 if won else 0.0 if lost else 0.5
    points.append(p)
    (first if mine else second).append(p)
    pairs.setdefault((g.get("opening"), tuple(g["moves"][: g["opening_moves"]])), []).append(p)
    # Turns alternate from the first player's (index 0): the first player made the even
    # indices among those after the opening.
    a, b = g["opening_moves"], len(g["moves"])
    played = b - a
    first_moves = (b + 1) // 2 - (a + 1) // 2
    for is_first, ms, moves in ((True, g["first_ms"], first_moves), (False, g["second_ms"], played - first_moves)):
        think[is_first == mine][0] += ms
        think[is_first == mine][1] += moves
    if g["reason"] in FAULTS:
        faults[lost] += 1  # the loser's fault
    else:
        clean.append(p)

def score_interval(xs):
    n = len(xs)
    if n == 0:
        return "-"
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    h = 1.96 * sd / math.sqrt(n)
    return f"{100 * m:.1f}% ({100 * max(0, m - h):.1f} .. {100 * min(1, m + h):.1f})"

def elo(s):
    s = min(max(s, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / s - 1)

pair_scores = [sum(v) / len(v) for v in pairs.values() if len(v) == 2]
if len(pair_scores) > 1:
    m = sum(pair_scores) / len(pair_scores)
    sd = math.sqrt(sum((x - m) ** 2 for x in pair_scores) / (len(pair_scores) - 1))
    h = 1.96 * sd / math.sqrt(len(pair_scores))
    pair = f"{elo(m):+.0f} ({elo(m - h):+.0f} .. {elo(m + h):+.0f})"
else:
    pair = "-"

def pct(xs):
    return f"{100 * sum(xs) / len(xs):.0f}%" if xs else "-"

def per_move(side):
    ms, moves = think[side]
    return f"{ms / moves:.0f}" if moves else "-"

# /usr/bin/time's lines "USER SYSTEM" (seconds), one per process; other lines (a process
# killed by a signal) are skipped.
cpu = "-"
if os.path.exists(cpu_log) and think[False][1]:
    seconds = [float(u) + float(s) for u, s in re.findall(r"^([0-9.]+) ([0-9.]+)$", open(cpu_log).read(), re.M)]
    if seconds:
        cpu = f"{1000 * sum(seconds) / think[False][1]:.0f}"

print(f"{len(games)} | {score_interval(points)} | {pair} | {pct(first)} / {pct(second)} | "
      f"{per_move(True)} / {per_move(False)} / {cpu} | {faults[True]} / {faults[False]} | {score_interval(clean)}")
EOF
)
    rows+=("| $name | $(basename "$suite") | $row |")
  done
done
{
  echo "| $GAME: table at $TIME_MS ms a move$clock_label, against $opponent_name${opp_label:-, its own limits} | suite | games | score (95% interval) | pair Elo (95% interval) | as first / second | ms a move: table / $opponent_name / its CPU | faults: table / $opponent_name | score without faults |"
  echo "|---|---|---:|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
} >"$OUT/strength.md.tmp"
mv "$OUT/strength.md.tmp" "$OUT/strength.md"
cat "$OUT/strength.md"
echo
echo "table in $OUT/strength.md, records beside it (evotune compare pairs two tables' records by opening)"
