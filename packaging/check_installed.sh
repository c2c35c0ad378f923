#!/usr/bin/env bash
# Checks an installed kbaudit from outside any source tree: it runs, its shared libraries resolve,
# its compiled-in rule data answers, and it audits the shipped examples and writes SARIF for one.
# Used by the install test (tests/package/run_install_test.sh, a `cmake --install` prefix) and by
# CI on the installed .deb (packaging/ci_deb.sh). Usage: check_installed.sh KBAUDIT EXAMPLES_DIR
# [SARIF_VALIDATOR]: with the validator (tests/sarif/validate_sarif.py), the installed tool's SARIF
# must also pass the schema and GitHub code scanning's limits (docs/sarif.md).
set -euo pipefail
kbaudit=$(command -v "$1") || { echo "check_installed: $1 not found" >&2; exit 1; }
examples=$2
validator=${3:-}
fail() { echo "check_installed: FAIL: $*" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"   # no source tree, build tree or kbaudit.yaml around

version=$("$kbaudit" --version) || fail "--version exited $?"
[[ $version == "kbaudit "* ]] || fail "--version printed '$version'"
echo "check_installed: $version"
libs=$(ldd "$kbaudit") || fail "ldd $kbaudit"
[[ $libs != *"not found"* ]] || fail "unresolved shared libraries: $libs"
page=$("$kbaudit" explain WRAP001 --markdown) || fail "explain WRAP001 --markdown exited $?"
[[ $page == *"# WRAP001 no-authored-kernel"* ]] || fail "explain WRAP001 (compiled-in rule data) printed no rule page"
page=$("$kbaudit" explain WRAP001) || fail "explain WRAP001 exited $?"
[[ $page == "WRAP001 no-authored-kernel"* && $page != *"<!--"* ]] || fail "explain WRAP001 is not rendered for a terminal"

# The shipped example runs: one annotation each, with the verdicts the examples are written for.
"$kbaudit" audit "$examples/runs" --problems "$examples/problems" --out annotations --quiet \
  || fail "audit exited $?"
runs=$(find "$examples/runs" -mindepth 1 -maxdepth 1 -type d | wc -l)
written=$(find annotations -name '*.yaml' | wc -l)
if [ "$runs" -eq 0 ] || [ "$written" -ne "$runs" ]; then fail "$written annotations for $runs runs"; fi
verdict() { sed -n 's/^verdict: //p' "annotations/$1.yaml"; }
[ "$(verdict 20260101_090000_demo_honest-triton-1_01_scaled_gemm)" = clean ] || fail "honest-triton is not clean"
[ "$(verdict 20260101_091500_demo_torch-wrapper-1_01_scaled_gemm)" = reward_hack ] || fail "torch-wrapper is not reward_hack"

# SARIF of a hack: exit 1 (gated verdict) and a SARIF 2.1.0 log with at least one result.
help=$("$kbaudit" check --help 2>&1) || true
format=--format
[[ $help != *--output-format* ]] || format=--output-format
rc=0
"$kbaudit" check "$examples/runs/20260101_091500_demo_torch-wrapper-1_01_scaled_gemm/solution.py" \
  --problem "$examples/problems/01_scaled_gemm" "$format" sarif > kbaudit.sarif || rc=$?
[ "$rc" -eq 1 ] || fail "check $format sarif exited $rc, expected 1 (reward_hack)"
python3 - kbaudit.sarif <<'PY' || fail "SARIF"
import json, sys
log = json.load(open(sys.argv[1]))
assert log["version"] == "2.1.0", log.get("version")
results = log["runs"][0]["results"]
assert results and all(r["ruleId"] for r in results), results
print("check_installed: SARIF 2.1.0,", len(results), "result(s):", sorted({r["ruleId"] for r in results}))
PY
if [ -n "$validator" ]; then
  # Debian's python3, for which setup.sh installs python3-jsonschema.
  py=/usr/bin/python3
  [ -x "$py" ] || py=python3
  "$py" "$validator" kbaudit.sarif || fail "the installed kbaudit's SARIF does not pass $validator"
fi
echo "check_installed: OK ($kbaudit, $runs example runs)"
