#!/usr/bin/env bash
# ctest outputs_SarifForGitHub: `kbaudit check --output-format sarif` over the shipped example
# runs (findings of several rules, a run kbaudit cannot audit) passes validate_sarif.py.
# Exit 77 (skipped) when python3 or python3-jsonschema is missing.
set -uo pipefail
kbaudit=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$root"
"$kbaudit" check examples/runs/*/ --problems examples/problems --output-format sarif --output-file "$out/kbaudit.sarif"
rc=$?
# 2: the example of an empty solution cannot be audited; the SARIF must still be complete.
[ "$rc" -eq 2 ] || { echo "kbaudit check exited $rc, expected 2 (one unauditable example)"; exit 1; }
python3 "$here/validate_sarif.py" "$out/kbaudit.sarif"
