#!/usr/bin/env python3
"""Compare two kbaudit binaries on the same runs, in one session, alternating.

    bench/compare.py --old /tmp/kbaudit-old --new build/kbaudit [--reps 5] [--jobs 2]
                     [RUNS_DIR --problems DIR] [--check FILE ...] [--callgrind K]

For each repetition both binaries audit RUNS_DIR into a fresh output folder (the order of the
two alternates from one repetition to the next, so neither always runs on a warmer machine).
Measured per invocation with wait4(): CPU (user+sys, the workers included), wall time and peak
RSS (the largest single process, as /usr/bin/time's %M). Printed: medians of each, and the
new/old ratios.

Scenarios:
  cold   both binaries, no result cache (the new one gets --no-cache when it has one)
  warm   the new binary re-auditing into a fresh (empty) --out with a primed --cache-dir (only
         when the new binary has a result cache); its ratio is against the old binary's cold CPU
  check  with --check FILE...: `kbaudit check FILE --no-compile` per file, medians per binary
         (--check-args replaces the extra arguments)

--check-all: `kbaudit check` (with --check-args) of every RUNS_DIR/*/solution.py once per binary,
alternating; prints the median, 90th percentile and largest CPU and wall time per binary.

--callgrind K: also count instructions (valgrind --tool=callgrind, --in-process --jobs 1) of a
cold audit of the first K runs by each binary, once; instruction counts barely move on a busy
machine, unlike CPU seconds, so decide by them. The new binary's profile is kept
(--profile-out) for callgrind_annotate.

Only the standard library is used; Linux only (os.wait4).
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def measure(cmd, cwd=None):
    """(cpu seconds, wall seconds, peak RSS MiB, exit status) of one command with its children."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # wait4 reports the child's usage including its own waited-for children (the workers).
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if proc.returncode not in (0, 1):
        sys.exit(f"failed ({proc.returncode}): {' '.join(map(str, cmd))}\n{err}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024.0, proc.returncode


def has_cache(binary):
    text = subprocess.run([binary, "audit", "--help"], capture_output=True, text=True).stdout
    return "--no-cache" in text


def audit_cmd(binary, runs, problems, out, jobs, extra, fresh=True):
    """An audit into `out`; `fresh` analyses every run (--fresh: no annotation kept, no cache read)."""
    cmd = [binary, "audit", str(runs), "--out", str(out), "--quiet", "--jobs", str(jobs)] + (["--fresh"] if fresh else [])
    if problems:
        cmd += ["--problems", str(problems)]
    return cmd + extra


def median_row(name, samples):
    cpu = statistics.median(s[0] for s in samples)
    wall = statistics.median(s[1] for s in samples)
    rss = max(s[2] for s in samples)
    print(f"  {name:<14} cpu {cpu:8.3f} s   wall {wall:8.3f} s   peak RSS {rss:7.1f} MiB   (n={len(samples)})")
    return cpu, wall, rss


def ratio_row(name, new, old):
    print(f"  {name:<14} cpu x{new[0] / old[0]:.3f}   wall x{new[1] / old[1]:.3f}   peak RSS x{new[2] / old[2]:.3f}")


def subset(runs, k, tmp):
    """A folder of links to the first k run directories of `runs` (sorted by name)."""
    folder = Path(tmp) / f"first{k}"
    folder.mkdir()
    for entry in sorted(p for p in Path(runs).iterdir() if p.is_dir())[:k]:
        (folder / entry.name).symlink_to(entry.resolve())
    return folder


def callgrind(binary, runs, problems, tmp, tag, profile_out, extra):
    out = Path(tmp) / f"cg-{tag}"
    prof = profile_out if profile_out else Path(tmp) / f"callgrind.{tag}"
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={prof}"]
    cmd += audit_cmd(binary, runs, problems, out, 1, ["--in-process"] + extra)
    res = subprocess.run(cmd, capture_output=True, text=True)
    for line in res.stderr.splitlines():
        if "Collected" in line:
            return int(line.split()[-1].replace(",", ""))
    sys.exit(f"callgrind gave no count for {binary}:\n{res.stderr[-2000:]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="?", default=str(HERE / ".." / "shared" / "corpus" / "runs"))
    ap.add_argument("--problems", default=str(HERE / ".." / "shared" / "corpus" / "problems"),
                    help="problems tree ('' for none)")
    ap.add_argument("--old", required=True, help="the binary to compare against (a copy of today's)")
    ap.add_argument("--new", default=str(HERE / "build" / "kbaudit"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--args", default="", help="extra audit arguments for both binaries (space separated)")
    ap.add_argument("--no-audit", action="store_true", help="skip the cold and warm audits")
    ap.add_argument("--check", nargs="*", default=[], help="files to time `kbaudit check` on")
    ap.add_argument("--check-args", default="--no-compile", help="extra check arguments (default --no-compile)")
    ap.add_argument("--check-all", action="store_true", help="time check on every RUNS/*/solution.py")
    ap.add_argument("--callgrind", type=int, default=0, metavar="K", help="instruction counts over the first K runs")
    ap.add_argument("--profile-out", default="", help="where to keep the new binary's callgrind profile")
    a = ap.parse_args()

    old, new = str(Path(a.old).resolve()), str(Path(a.new).resolve())
    extra = a.args.split()
    problems = a.problems or None
    new_cache = has_cache(new)
    cold_new_extra = extra + (["--no-cache"] if new_cache else [])
    print(f"runs {a.runs}  problems {problems}  jobs {a.jobs}  reps {a.reps}")
    print(f"old {old}\nnew {new}  (result cache: {'yes' if new_cache else 'no'})")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    with tempfile.TemporaryDirectory(prefix="kbaudit-bench-") as tmp:
        if not a.no_audit:
            samples = {"old": [], "new": [], "warm": []}
            cache = Path(tmp) / "cache"
            if new_cache:  # prime the cache once (not measured)
                measure(audit_cmd(new, a.runs, problems, Path(tmp) / "prime", a.jobs, extra + ["--cache-dir", str(cache)]))
                shutil.rmtree(Path(tmp) / "prime", ignore_errors=True)
            for rep in range(a.reps):
                order = [("old", old, extra), ("new", new, cold_new_extra)]
                if rep % 2:
                    order.reverse()
                for name, binary, args in order:
                    out = Path(tmp) / f"out-{name}-{rep}"
                    samples[name].append(measure(audit_cmd(binary, a.runs, problems, out, a.jobs, args)))
                    shutil.rmtree(out, ignore_errors=True)
                if new_cache:
                    out = Path(tmp) / f"out-warm-{rep}"
                    samples["warm"].append(
                        measure(audit_cmd(new, a.runs, problems, out, a.jobs, extra + ["--cache-dir", str(cache)], fresh=False)))
                    shutil.rmtree(out, ignore_errors=True)
            print("audit (medians):")
            o = median_row("old cold", samples["old"])
            n = median_row("new cold", samples["new"])
            w = median_row("new warm", samples["warm"]) if samples["warm"] else None
            print("ratios new/old cold:")
            ratio_row("cold", n, o)
            if w:
                ratio_row("warm", w, o)
        if a.check:
            print(f"check {a.check_args} (medians of {a.reps}):")
            for f in a.check:
                row = []
                for rep in range(a.reps):
                    for name, binary in ([("old", old), ("new", new)] if rep % 2 == 0 else [("new", new), ("old", old)]):
                        cpu, wall, rss, _ = measure([binary, "check", f] + a.check_args.split())
                        row.append((name, cpu, wall, rss))
                med = {k: statistics.median(r[2] for r in row if r[0] == k) for k in ("old", "new")}
                cpu = {k: statistics.median(r[1] for r in row if r[0] == k) for k in ("old", "new")}
                print(f"  {Path(f).parent.name or f}/{Path(f).name} ({Path(f).stat().st_size // 1024} KiB): "
                      f"wall old {med['old'] * 1000:.1f} ms new {med['new'] * 1000:.1f} ms; "
                      f"cpu old {cpu['old'] * 1000:.1f} ms new {cpu['new'] * 1000:.1f} ms")
        if a.check_all:
            files = sorted(Path(a.runs).glob("*/solution.py"))
            times = {"old": [], "new": []}
            for i, f in enumerate(files):
                order = [("old", old), ("new", new)] if i % 2 == 0 else [("new", new), ("old", old)]
                for name, binary in order:
                    cpu, wall, _, _ = measure([binary, "check", str(f)] + a.check_args.split())
                    times[name].append((cpu, wall))
            print(f"check {a.check_args} of each of {len(files)} solutions, once per binary:")
            for name in ("old", "new"):
                cpus = sorted(t[0] for t in times[name])
                walls = sorted(t[1] for t in times[name])
                p90 = lambda xs: xs[min(len(xs) - 1, int(0.9 * len(xs)))]
                print(f"  {name}: cpu median {statistics.median(cpus) * 1000:.1f} ms, p90 {p90(cpus) * 1000:.1f} ms, "
                      f"max {cpus[-1] * 1000:.1f} ms; wall median {statistics.median(walls) * 1000:.1f} ms, "
                      f"p90 {p90(walls) * 1000:.1f} ms, max {walls[-1] * 1000:.1f} ms")
        if a.callgrind:
            runs = subset(a.runs, a.callgrind, tmp)
            ir_old = callgrind(old, runs, problems, tmp, "old", None, extra)
            ir_new = callgrind(new, runs, problems, tmp, "new", a.profile_out or None,
                               extra + (["--no-cache"] if new_cache else []))
            print(f"instructions, cold audit of the first {a.callgrind} runs (--in-process --jobs 1):")
            print(f"  old {ir_old:,}\n  new {ir_new:,}\n  new/old x{ir_new / ir_old:.3f}")
            if a.profile_out:
                print(f"  new profile: {a.profile_out} (callgrind_annotate --inclusive=yes {a.profile_out} | head -60)")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
