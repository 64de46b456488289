#!/usr/bin/env bash
# Builds Rapfi, the strongest open Gomoku engine (GPL-3.0; its code is not part of evotune
# and is never committed here), from a source folder or a git URL you give, with its
# classical evaluation (no network files: Rapfi's built-in config is used when no
# config.toml lies beside the binary), for `evotune match --game gomoku --b cmd:...`.
#
#   scripts/build-rapfi.sh SOURCE [OUT]
#
# SOURCE: a checkout of the Rapfi repository (the folder that holds Rapfi/CMakeLists.txt, or
# Rapfi/ itself), or a git URL to clone (into OUT/src). OUT (default build/rapfi) receives
# the build and the engine, OUT/pbrain-rapfi. Needs git (for a URL), cmake and a C++17
# compiler; extra cmake options go in CMAKE_ARGS (e.g. CMAKE_ARGS="-DUSE_AVX2=ON"), the
# number of compile jobs in JOBS (default: every core). A clone leaves out the repository's
# submodules (its network files): the ONNX evaluator is off and no weights are fetched.
#
# Then, e.g. (docs/matches.md, "A match against Rapfi"):
#   evotune match --game gomoku --a defaults --b "rapfi=cmd:OUT/pbrain-rapfi;dir=OUT" \
#     --a-time-ms 500 --b-time-ms 500 --pairs 10
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
  sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
source="$1"
out="${2:-build/rapfi}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

if [[ -d "$source" ]]; then
  src="$(cd "$source" && pwd)"
else
  src="$out/src"
  if [[ ! -d "$src/.git" ]]; then
    echo "cloning $source into $src" >&2
    git clone --depth 1 "$source" "$src"
  fi
fi
# The CMake project is the repository's Rapfi/ folder.
if [[ -f "$src/Rapfi/CMakeLists.txt" ]]; then
  src="$src/Rapfi"
elif [[ ! -f "$src/CMakeLists.txt" ]]; then
  echo "error: $source holds neither Rapfi/CMakeLists.txt nor CMakeLists.txt" >&2
  exit 1
fi

# shellcheck disable=SC2086 # CMAKE_ARGS holds several words on purpose
cmake -S "$src" -B "$out/build" -DCMAKE_BUILD_TYPE=Release -DUSE_ORT_EVALUATOR=OFF ${CMAKE_ARGS:-}
cmake --build "$out/build" -j "${JOBS:-$(nproc)}"
cp "$out/build/pbrain-rapfi" "$out/pbrain-rapfi"
# A quick check that it speaks pbrain and moves with the built-in classical evaluation.
reply="$(printf 'START 15\nINFO timeout_turn 300\nBEGIN\nEND\n' | (cd "$out" && timeout 30 ./pbrain-rapfi) | grep -v '^MESSAGE' | head -2 | tr '\n' ' ')"
if [[ "$reply" != "OK 7,7 " && "$reply" != OK\ *,* ]]; then
  echo "error: $out/pbrain-rapfi answered \`$reply\` to START/BEGIN" >&2
  exit 1
fi
echo "$out/pbrain-rapfi"
