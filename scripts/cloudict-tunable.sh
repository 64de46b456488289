#!/usr/bin/env bash
# Usage: scripts/cloudict-tunable.sh SOURCE [OUT]
#
# Builds a copy of Cloudict (the Connect6 engine, BSD licence, github.com/lang010/cloudict)
# whose 16 evaluation weights, `int dna[16]` in src/evaluation.cc, can be set from outside,
# so that `evotune evolve --config configs/cloudict.toml` can tune them (docs/outside-tuning.md).
#
#   SOURCE  a Cloudict source tree (a folder holding Makefile, src/ and patterns.in), or a git
#           URL to clone one from; it is copied, never changed
#   OUT     where the copy is built (default: cloudict-tunable); it gets the engine
#           `OUT/cloudict` and `OUT/patterns.in`, which the engine reads from the folder it
#           runs in (so run it with that folder as its working directory: `dir` in the config)
#
# The edit, made by sed on the copy at build time: after the line `int dna[16] = {...};` a
# few lines that run before main() and, when the environment variable CLOUDICT_DNA names a
# file, read the weights from it, one `NAME VALUE` line per weight in the array's order
# (evotune's `format = "lines"`); fewer lines than 16 leave the rest at their defaults. With
# CLOUDICT_DNA unset the engine is stock Cloudict. Nothing else changes.
#
# Environment: CXX (default g++), CXXFLAGS (default -O2 -w: Cloudict's own `make CC='g++ -O2'`,
# its warnings silenced).
set -euo pipefail

die() { echo "cloudict-tunable: $*" >&2; exit 1; }

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: $0 SOURCE [OUT] (SOURCE: a Cloudict source folder or git URL)"
source=$1
out=${2:-cloudict-tunable}
cxx=${CXX:-g++}
cxxflags=${CXXFLAGS:--O2 -w}

command -v "$cxx" >/dev/null || die "no C++ compiler \`$cxx\` (install g++, or set CXX)"
[ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ] && die "$out exists and is not empty; give another OUT or remove it"
mkdir -p "$out"
tree="$out/source"
case "$source" in
  http://* | https://* | git@* | *.git)
    command -v git >/dev/null || die "cloning $source needs git"
    git clone --quiet --depth 1 "$source" "$tree" || die "cannot clone $source"
    ;;
  *)
    [ -d "$source" ] || die "$source: no such folder (give a Cloudict source folder or a git URL)"
    cp -R "$source" "$tree"
    ;;
esac
eval_cc="$tree/src/evaluation.cc"
[ -f "$eval_cc" ] || die "$source: no src/evaluation.cc; is it a Cloudict source tree?"
[ -f "$tree/patterns.in" ] || die "$source: no patterns.in; is it a Cloudict source tree?"

# The one line the edit follows; anything else means another version of the engine, whose
# weights this script does not know.
pattern='^int dna\[16\] = {.*};'
count=$(grep -c "$pattern" "$eval_cc" || true)
[ "$count" = 1 ] || die "$eval_cc: expected one line \`int dna[16] = {...};\`, found $count"

# Appended after that line: a static initialiser, run before main().
sed -i "/$pattern/a\\
// Added by evotune's scripts/cloudict-tunable.sh: the weights from the file named by\\
// CLOUDICT_DNA, one \"NAME VALUE\" line each, in the order of dna[]; stock weights without it.\\
static int evotune_read_dna() {\\
    const char* path = getenv(\"CLOUDICT_DNA\");\\
    if (path == NULL) return 0;\\
    FILE* f = fopen(path, \"r\");\\
    if (f == NULL) { fprintf(stderr, \"CLOUDICT_DNA: cannot open %s\\\\n\", path); exit(2); }\\
    char name[128];\\
    int value, n = 0;\\
    while (n < 16 \\&\\& fscanf(f, \"%127s %d\", name, \\&value) == 2) dna[n++] = value;\\
    int extra = fscanf(f, \"%127s\", name);\\
    fclose(f);\\
    if (n == 0 || extra == 1) { fprintf(stderr, \"CLOUDICT_DNA: %s: expected up to 16 lines NAME VALUE\\\\n\", path); exit(2); }\\
    return n;\\
}\\
static int evotune_dna_read = evotune_read_dna();" "$eval_cc"
grep -q '^#include <cstdio>' "$eval_cc" || sed -i '1i #include <cstdio>\n#include <cstdlib>' "$eval_cc"

(cd "$tree" && "$cxx" $cxxflags src/*.cc -o cloudict) || die "the build failed (see above)"
cp "$tree/cloudict" "$tree/patterns.in" "$out/"

# A check that the edit works: the engine answers, stock and with weights from a file.
check() {
  printf 'name\nquit\n' | (cd "$out" && env "$@" ./cloudict >/dev/null 2>&1)
}
check || die "the built engine does not run"
printf 'w%d 1\n' $(seq 1 15) > "$out/check-dna.txt"
check CLOUDICT_DNA=check-dna.txt || die "the built engine does not read CLOUDICT_DNA"
rm -f "$out/check-dna.txt"
! check CLOUDICT_DNA=no-such-file || die "the built engine ignores CLOUDICT_DNA (the edit did not take)"
echo "cloudict-tunable: built $out/cloudict; run it in $out with CLOUDICT_DNA=FILE to set its weights" >&2
