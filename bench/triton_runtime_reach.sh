#!/usr/bin/env bash
# How many Triton-only corpus runs `audit --runtime` brings to `outcome: ran` on a CPU (issue 26).
# Selection: runs whose solution.py has `triton.jit` and none of load_inline, cpp_extension,
# RawKernel, __global__; the first N (default 20) by sha1 of the run id (the directory name).
# Usage: bench/triton_runtime_reach.sh [N] [JOBS] [OUT_DIR]
#   (corpus: $KBAUDIT_CORPUS, default ../shared/corpus; default jobs 2, probe timeout 120 s)
#   REPORT_ONLY=1 reads an earlier OUT_DIR instead of auditing again.
# Prints one line per run (outcome, seconds, kbaudit's verdict, rules above low confidence, reason, notes on shape/oracle/out-of-bounds stores) and the count that ran.
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
  grep -q 'triton.jit' "$s" || continue
  grep -qE 'load_inline|cpp_extension|RawKernel|__global__' "$s" && continue
  printf '%s %s\n' "$(printf %s "$id" | sha1sum | cut -c1-40)" "$id"
done | sort | head -n "$n" | while read -r _ id; do ln -s "$corpus/runs/$id" "$sel/$id"; done
mkdir -p "$out"
start=$(date +%s)
[ -n "${REPORT_ONLY:-}" ] || "$bin" audit "$sel" --problems "$corpus/problems" --out "$out" --runtime --device cpu --jobs "$jobs" \
  --probe-timeout 120 --quiet || true   # the exit code is the verdicts'; the outcomes are below
ran=0; total=0
for id in $(ls "$sel"); do
  total=$((total + 1))
  a=$out/$id.yaml
  [ -f "$a" ] || a=$(find "$out" -path "*$id*" -name '*.yaml' | head -1)
  if [ -z "$a" ]; then printf '%-72s %s\n' "$id" "no-annotation"; continue; fi
  python3 - "$a" "$id" <<'PY' && ran=$((ran + 1)) || true
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
kb = doc.get("kbaudit") or {}
rt = kb.get("runtime") or {}
notes = [str(n.get("note", n)) if isinstance(n, dict) else str(n) for n in (rt.get("notes") or [])]
shape = [n for n in notes if "shape" in n or "oracle" in n or "out-of-bounds" in n]
rules = sorted({f.get("rule", "?") for f in kb.get("findings") or [] if f.get("confidence") != "low"})
print("%-72s %-11s %6ss  %s rules:%s  %s%s" % (sys.argv[2], rt.get("outcome", "none"), rt.get("seconds", "?"),
      doc.get("verdict", "?"), ",".join(rules) or "-", " ".join(str(rt.get("reason") or "").split())[:200],
      ("  [" + "; ".join(shape)[:240] + "]") if shape else ""))
sys.exit(0 if rt.get("outcome") == "ran" else 1)
PY
done
echo "ran: $ran of $total ($(( $(date +%s) - start )) s wall, jobs $jobs, out $out)"
