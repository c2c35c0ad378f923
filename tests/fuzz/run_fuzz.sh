#!/usr/bin/env bash
# Builds the libFuzzer target with clang 14 (AddressSanitizer + UBSan) in its own build
# directory and fuzzes the whole pipeline for a bounded time, seeded with the rule fixtures,
# the examples and, when present, the corpus solutions (which libFuzzer then mutates).
# Exit 0: no crash, leak or hang; 77: clang 14 or libFuzzer missing (test skipped).
# Usage: tests/fuzz/run_fuzz.sh [SECONDS]   (default 60)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
seconds=${1:-60}
build=${KBAUDIT_FUZZ_BUILD_DIR:-$root/build-fuzz}

command -v clang++-14 >/dev/null || { echo "clang++-14 not installed: skipping"; exit 77; }
ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 \
  || { echo "libFuzzer runtime (libclang-rt-14-dev) not installed: skipping"; exit 77; }

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DKBAUDIT_FUZZ=ON >/dev/null
cmake --build "$build" --target kbaudit_fuzz kbaudit_fuzz_broken --parallel "$(nproc)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/new" "$work/seeds"
i=0
for f in "$root"/tests/fixtures/*/*.py "$root"/examples/runs/*/solution.py; do
  cp "$f" "$work/seeds/$((i++)).py"
done
# Data files too: the fuzzer reads an input as a problem.yaml, a reference.py, an evaluation
# table or a run record (meta.json, result.json, annotation, kbaudit.yaml, baseline) when its
# length is 4, 5, 6 or 7 mod 8, so each seed is also padded once to land in its mode.
pad_to() { # FILE MODE
  { cat "$1"; pad=$(( ($2 - $(stat -c %s "$1") % 8 + 8) % 8 )); printf '%*s' "$pad" ''; } > "$work/seeds/$((i++)).txt"
}
for f in "$root"/tests/problems/*/problem.yaml "$root"/tests/problems/*/reference.py \
         "$root"/examples/problems/*/problem.yaml "$root"/examples/problems/*/reference.py; do
  [ -f "$f" ] || continue
  cp "$f" "$work/seeds/$((i++)).txt"
  pad_to "$f" "$([ "${f##*/}" = problem.yaml ] && echo 4 || echo 5)"
done
for f in "$root"/examples/v3-dataset/*.csv; do if [ -f "$f" ]; then pad_to "$f" 6; fi; done
corpus=${KBAUDIT_CORPUS:-$root/../shared/corpus}
if [ -d "$corpus/runs" ]; then
  for f in "$corpus"/runs/*/solution.py; do cp "$f" "$work/seeds/$((i++)).py"; done
  for f in $(ls "$corpus"/runs/*/meta.json "$corpus"/runs/*/annotation.yaml 2>/dev/null | head -40); do pad_to "$f" 7; done
fi
echo "fuzzing for ${seconds}s from $i seeds"
# -timeout: one input taking this long is a hang; -rss_limit_mb: runaway memory.
TMPDIR="$work" "$build/tests/fuzz/kbaudit_fuzz" "$work/new" "$work/seeds" -max_total_time="$seconds" -timeout=20 \
  -rss_limit_mb=4096 -max_len=262144 -print_final_stats=1 -artifact_prefix="$work/" 2>&1 | tail -25
# Broken sources: valid solutions cut, padded and garbled; none may come out clean. Seeded with a
# few edit scripts (the target picks the solution and the edits from the bytes).
mkdir -p "$work/broken" "$work/broken-seeds"
for n in 0 1 2 3 4 5 6 7 8 9; do
  printf '%b' "\\x0$((n % 3))\\x0$((n % 4))\\x$((n + 10))\\x$((n + 20))\\x28" > "$work/broken-seeds/$n"
done
echo "fuzzing broken sources for $((seconds / 2))s"
TMPDIR="$work" "$build/tests/fuzz/kbaudit_fuzz_broken" "$work/broken" "$work/broken-seeds" \
  -max_total_time="$((seconds / 2))" -timeout=20 -rss_limit_mb=4096 -max_len=64 -print_final_stats=1 \
  -artifact_prefix="$work/broken-" 2>&1 | tail -15
