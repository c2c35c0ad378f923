#!/usr/bin/env bash
# Runtime evidence on ../shared/kernelbench-rl's timing and train/eval hacks (issue 35): the rows
# whose reading (truth/<run>.yaml `class`) names a side stream, a stale graph or a train/eval split
# and whose solution embeds no CUDA C++ (no load_inline, cpp_extension, RawKernel, __global__),
# audited with `--suite kernelbench --runtime --device cpu`. Prints, per run, the outcome, the
# ordering and distribution probes' results, and whether a TIME or RUB016 finding carries runtime
# evidence; then the counts.
# Usage: bench/rl_runtime_evidence.sh [JOBS] [OUT_DIR]   (data: $KBAUDIT_RL, default ../shared/kernelbench-rl)
#   REPORT_ONLY=1 reads an earlier OUT_DIR instead of auditing again.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rl=${KBAUDIT_RL:-$here/../shared/kernelbench-rl}
jobs=${1:-2}
out=${2:-$(mktemp -d)}
bin=$here/build/kbaudit
[ -x "$bin" ] || { echo "build first: ./setup.sh" >&2; exit 2; }
[ -f "$rl/table/table.csv" ] || { echo "no kernelbench-rl table at $rl" >&2; exit 2; }
sel=$(mktemp -d)
trap 'rm -rf "$sel"' EXIT
python3 - "$rl" "$sel" <<'PY'
import csv, os, re, sys
rl, sel = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(os.path.join(rl, "table", "table.csv"))))
keep = []
for r in rows:
    run = "%s_%s_level%s_%s" % (r["model"], r["gpu"], r["level"], r["problem"])
    truth = os.path.join(rl, "truth", run + ".yaml")
    if not os.path.exists(truth):
        continue
    cls = next((l.split(":", 1)[1].strip().strip('"') for l in open(truth) if l.startswith("class:")), "")
    if not re.search(r"side-stream|graph-stale|train-eval", cls):
        continue
    if re.search(r"load_inline|cpp_extension|RawKernel|__global__", open(os.path.join(rl, "table", r["solution_path"])).read()):
        continue
    keep.append(r)
with open(os.path.join(sel, "table.csv"), "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
    w.writeheader()
    w.writerows(keep)
os.symlink(os.path.join(rl, "table", "solutions"), os.path.join(sel, "solutions"))
print("selected %d rows" % len(keep))
PY
mkdir -p "$out"
start=$(date +%s)
[ -n "${REPORT_ONLY:-}" ] || "$bin" audit "$sel" --problems "$rl/problems" --suite kernelbench --out "$out" --runtime \
  --device cpu --jobs "$jobs" --probe-timeout 120 --quiet || true
python3 - "$out" "$rl" <<'PY'
import glob, os, sys, yaml
out, rl = sys.argv[1], sys.argv[2]
ran = timing = split = stream_runs = split_runs = 0
for path in sorted(glob.glob(os.path.join(out, "*.yaml"))):
    doc = yaml.safe_load(open(path))
    run = doc.get("run_id") or os.path.basename(path)[:-5]
    cls = ""
    truth = os.path.join(rl, "truth", os.path.basename(path))
    if os.path.exists(truth):
        cls = (yaml.safe_load(open(truth)) or {}).get("class", "")
    kb = doc.get("kbaudit") or {}
    rt = kb.get("runtime") or {}
    probes = {p.get("name"): p for p in rt.get("probes") or []}
    ran += rt.get("outcome") == "ran"
    def show(name):
        p = probes.get(name) or {}
        return "%s:%s%s" % (name, p.get("status", "-"), "(" + p["check"] + ")" if p.get("check") else "")
    evidence = [f for f in kb.get("findings") or [] if "runtime probe" in (f.get("message", "") + f.get("evidence", ""))]
    time_ev = sorted({f["rule"] for f in evidence if f.get("rule", "").startswith("TIME")})
    if "side-stream" in cls or "graph-stale" in cls:
        stream_runs += 1
        timing += bool(time_ev)
    if "train-eval" in cls:
        split_runs += 1
        d = probes.get("distributions") or {}
        split += d.get("status") == "finding" and not d.get("check")
    print("%-86s %-11s %5ss %s %s %s %s runtime-TIME:%s  [%s]" % (
        run, rt.get("outcome"), rt.get("seconds"), show("stream_order"), show("graph_replay"), show("thread_order"),
        show("distributions"), ",".join(time_ev) or "-", cls))
print("ran %d; runtime timing evidence on %d of %d side-stream/stale-graph hacks; train-eval seen on %d of %d" % (
    ran, timing, stream_runs, split, split_runs))
PY
echo "($(( $(date +%s) - start )) s wall, jobs $jobs, out $out)"
