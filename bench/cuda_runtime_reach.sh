#!/usr/bin/env bash
# How many corpus runs that embed CUDA C++ `audit --runtime` brings to `outcome: ran` on a CPU,
# through the CPU runner (issue 35), and how long each run's probes take.
# Selection: runs whose solution.py calls load_inline; the first N (default 20) by sha1 of the run
# id (the directory name), as bench/triton_runtime_reach.sh selects its Triton-only runs.
# Usage: bench/cuda_runtime_reach.sh [N] [JOBS] [OUT_DIR]
#   (corpus: $KBAUDIT_CORPUS, default ../shared/corpus; default jobs 2, probe timeout 120 s)
#   REPORT_ONLY=1 reads an earlier OUT_DIR instead of auditing again.
# Prints one line per run: outcome, the probes' seconds, kbaudit's verdict, rules above low
# confidence, the reason (what was unavailable, and why), the CPU runner's and the harness build's
# notes; then the count that ran, how many within 120 s, and the median and largest seconds.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
corpus=${KBAUDIT_CORPUS:-$here/../shared/corpus}
n=${1:-20}
jobs=${2:-2}
out=${3:-$(mktemp -d)}
bin=$here/build/kbaudit
[ -x "$bin" ] || { echo "build first: ./setup.sh" >&2; exit 2; }
[ -d "$corpus/runs" ] || { echo "no corpus at $corpus" >&2; exit 2; }
sel=$(mktemp -d)
trap 'rm -rf "$sel"' EXIT
for r in "$corpus"/runs/*/; do
  id=$(basename "$r")
  s=$r/solution.py
  [ -f "$s" ] || continue
  grep -q 'load_inline' "$s" || continue
  printf '%s %s\n' "$(printf %s "$id" | sha1sum | cut -c1-40)" "$id"
done | sort | head -n "$n" | while read -r _ id; do ln -s "$corpus/runs/$id" "$sel/$id"; done
mkdir -p "$out"
start=$(date +%s)
[ -n "${REPORT_ONLY:-}" ] || "$bin" audit "$sel" --problems "$corpus/problems" --out "$out" --runtime --device cpu --jobs "$jobs" \
  --probe-timeout 120 --quiet || true   # the exit code is the verdicts'; the outcomes are below
python3 - "$out" "$sel" "$(( $(date +%s) - start ))" "$jobs" <<'PY'
import os, statistics, sys, yaml
out, sel, wall, jobs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
ran = within = total = 0
seconds = []
for run in sorted(os.listdir(sel)):
    total += 1
    path = os.path.join(out, run + ".yaml")
    if not os.path.exists(path):
        print("%-72s no-annotation" % run)
        continue
    doc = yaml.safe_load(open(path))
    kb = doc.get("kbaudit") or {}
    rt = kb.get("runtime") or {}
    secs = float(rt.get("seconds") or 0)
    seconds.append(secs)
    outcome = rt.get("outcome", "none")
    ran += outcome == "ran"
    within += outcome == "ran" and secs <= 120
    notes = [str(n) for n in (rt.get("notes") or [])]
    runner = [n for n in notes if "CUDA C++ extension" in n or "CUDA code refused" in n or "harness" in n]
    rules = sorted({f.get("rule", "?") for f in kb.get("findings") or [] if f.get("confidence") != "low"})
    print("%-72s %-11s %6.1fs  %s rules:%s  %s%s" % (run, outcome, secs, doc.get("verdict", "?"), ",".join(rules) or "-",
          " ".join(str(rt.get("reason") or "").split())[:220], ("  [" + "; ".join(runner)[:300] + "]") if runner else ""))
print("ran: %d of %d (%d within 120 s); probe seconds median %.0f, max %.0f (%s s wall, jobs %s, out %s)" % (
    ran, total, within, statistics.median(seconds) if seconds else 0, max(seconds) if seconds else 0, wall, jobs, out))
PY
