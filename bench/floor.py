#!/usr/bin/env python3
"""How much of a cold audit is the parsers' own work, and what that leaves for everything else.

    bench/floor.py [--old /tmp/kbaudit-old] [--new build/kbaudit] [RUNS_DIR --problems DIR]
                   [--old-profile FILE] [--new-profile FILE] [--target 0.333]

Counts instructions (valgrind's callgrind, `--in-process --jobs 1`, no result cache) of a cold
audit of RUNS_DIR by each binary, or reads profiles callgrind already wrote (--old-profile,
--new-profile; an --old-profile alone needs no old binary). From the new binary's profile it
splits out the work of the two parsers kbaudit is built on, which no change to kbaudit's own code
removes:

  Clang        CompilerInstance::ExecuteAction (reading the precompiled prelude, preprocessing,
               parsing, Sema, the end-of-unit template instantiations) less the collector that
               runs inside it (CollectConsumer::HandleTranslationUnit)
  tree-sitter  ts_parser_parse

and prints, as fractions of the old binary's instructions, the parsers' floor and what a target
ratio (--target, default 1/3) leaves for everything else (facts, rules, annotations, I/O).
The end-of-unit instantiations are printed apart: they are the part of Clang's work the
collector could forgo, at the price of the facts only instantiation reports.

Only the standard library and valgrind's callgrind_annotate are used.
"""

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

# Inclusive-cost lines of `callgrind_annotate --inclusive=yes`: "  1,234 (12.3%)  file:function [obj]".
LINE = re.compile(r"^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)$")

PARTS = {
    "clang": "clang::CompilerInstance::ExecuteAction(clang::FrontendAction&)",
    "collector": "CollectConsumer::HandleTranslationUnit(clang::ASTContext&)",
    "tree-sitter": "ts_parser_parse ",
    "instantiations": "clang::Sema::PerformPendingInstantiations(bool) ",
}


def profile(binary, runs, problems, tmp, tag):
    out_file = Path(tmp) / f"callgrind.{tag}"
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", str(binary), "audit", str(runs),
           "--out", str(Path(tmp) / f"out.{tag}"), "--quiet", "--in-process", "--jobs", "1", "--fresh"]
    if problems:
        cmd += ["--problems", str(problems)]
    help_text = subprocess.run([str(binary), "audit", "--help"], capture_output=True, text=True).stdout
    if "--no-cache" in help_text:
        cmd.append("--no-cache")
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode not in (0, 1):
        sys.exit(f"callgrind of {binary} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return out_file


def inclusive(profile_file):
    """{part: instructions} and the program total, from callgrind_annotate's inclusive listing."""
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(profile_file)],
                          capture_output=True, text=True, check=True).stdout
    total = 0
    parts = {name: 0 for name in PARTS}
    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        count = int(m.group(1).replace(",", ""))
        if "PROGRAM TOTALS" in m.group(2):
            total = count
        # A function is listed once per source file its code came from; its largest line is its
        # whole inclusive cost. Recursive entries ('2) are never the outermost call.
        for name, needle in PARTS.items():
            if needle in m.group(2) + " " and "'2" not in m.group(2):
                parts[name] = max(parts[name], count)
    return total, parts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="?", default=str(HERE / ".." / "shared" / "corpus" / "runs"))
    ap.add_argument("--problems", default=str(HERE / ".." / "shared" / "corpus" / "problems"))
    ap.add_argument("--old", default="/tmp/kbaudit-old")
    ap.add_argument("--new", default=str(HERE / "build" / "kbaudit"))
    ap.add_argument("--old-profile", default="")
    ap.add_argument("--new-profile", default="")
    ap.add_argument("--target", type=float, default=1 / 3)
    a = ap.parse_args()
    problems = a.problems if Path(a.problems).is_dir() else ""

    with tempfile.TemporaryDirectory(prefix="kbaudit-floor-") as tmp:
        old_file = a.old_profile or profile(a.old, a.runs, problems, tmp, "old")
        new_file = a.new_profile or profile(a.new, a.runs, problems, tmp, "new")
        old_total, _ = inclusive(old_file)
        new_total, p = inclusive(new_file)
    if not old_total or not new_total or not p["clang"] or not p["tree-sitter"]:
        sys.exit("a profile lacks the totals or the parsers' functions (built without symbols?)")

    clang = p["clang"] - p["collector"]
    parsers = clang + p["tree-sitter"]
    rest = new_total - parsers
    budget = a.target * old_total - parsers

    def row(name, value):
        print(f"  {name:<44} {value / 1e6:12,.1f} M   new x{value / new_total:6.3f}   old x{value / old_total:6.3f}")

    print(f"instructions, cold audit of {a.runs} (callgrind, in process, --jobs 1)")
    row("old binary, all", old_total)
    row("new binary, all", new_total)
    row("  Clang's own work (less the collector)", clang)
    row("    of which end-of-unit instantiations", p["instantiations"])
    row("  tree-sitter's parse", p["tree-sitter"])
    row("  the parsers together (the floor)", parsers)
    row("  everything else (kbaudit's own code)", rest)
    print(f"target x{a.target:.3f} of old = {a.target * old_total / 1e6:,.1f} M: it leaves "
          f"{max(budget, 0) / 1e6:,.1f} M for everything else, x{max(budget, 0) / rest:.2f} of what it costs now")
    no_inst = parsers - p["instantiations"]
    print(f"without the end-of-unit instantiations the floor is old x{no_inst / old_total:.3f}, leaving "
          f"x{max(a.target * old_total - no_inst, 0) / rest:.2f} of everything else's cost now")


if __name__ == "__main__":
    main()
