#!/usr/bin/env bash
# Benchmark of the static audit over a directory of runs: wall time, files/s, peak RSS.
# Usage: bench/static_audit.sh [RUNS_DIR] [JOBS]   (default: ../shared/corpus/runs, all cores)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${1:-$here/../shared/corpus/runs}
jobs=${2:-$(nproc)}
bin=$here/build/kbaudit
[ -x "$bin" ] || { echo "build first: ./setup.sh" >&2; exit 2; }
[ -d "$runs" ] || { echo "no runs at $runs" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count=$(find "$runs" -name 'solution.py' | wc -l)
bytes=$(find "$runs" -name 'solution.py' -print0 | xargs -0 cat | wc -c)
best=""
for i in 1 2 3; do
  rm -rf "$out"/*
  t=$( { /usr/bin/time -f '%e %M' "$bin" audit "$runs" --out "$out" --jobs "$jobs" --quiet; } 2>&1 | tail -1)
  echo "run $i: wall ${t% *} s, peak RSS $(( ${t#* } / 1024 )) MiB"
  w=${t% *}
  if [ -z "$best" ] || awk "BEGIN{exit !($w < $best)}"; then best=$w; fi
done
echo "runs: $count ($((bytes / 1024)) KiB), jobs: $jobs, best wall: ${best} s, $(awk "BEGIN{printf \"%.0f\", $count / $best}") files/s"
