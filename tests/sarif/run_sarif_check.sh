#!/usr/bin/env bash
# ctest Outputs.SarifForGitHub: `kbaudit check --output-format sarif` over the shipped example
# runs (findings of several rules, a run kbaudit cannot audit) passes validate_sarif.py.
# Exit 77 (skipped) when python3 or python3-jsonschema is missing.
set -uo pipefail
kbaudit=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# Debian's python3 first: setup.sh installs python3-jsonschema for it, whatever python3 is on PATH.
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3) || { echo "SKIP: no python3"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$root"
"$kbaudit" check examples/runs/*/ --problems examples/problems --output-format sarif --output-file "$out/kbaudit.sarif"
rc=$?
# 2: the example of an empty solution cannot be audited; the SARIF must still be complete.
[ "$rc" -eq 2 ] || { echo "kbaudit check exited $rc, expected 2 (one unauditable example)"; exit 1; }
"$py" "$here/validate_sarif.py" "$out/kbaudit.sarif"
rc=$?
[ "$rc" -eq 0 ] || exit $((rc == 77 ? 77 : 1))
# The validator must catch what GitHub would reject: a description over 1024 characters, an
# undeclared %SRCROOT% and a result without fingerprints.
"$py" - "$out/kbaudit.sarif" "$out/broken.sarif" <<'PY'
import json, sys
log = json.load(open(sys.argv[1], encoding="utf-8"))
run = log["runs"][0]
run["tool"]["driver"]["rules"][0]["fullDescription"]["text"] = "x" * 1025
del run["originalUriBaseIds"]
del run["results"][0]["partialFingerprints"]
json.dump(log, open(sys.argv[2], "w", encoding="utf-8"))
PY
if "$py" "$here/validate_sarif.py" "$out/broken.sarif" >"$out/broken.txt"; then
  echo "validate_sarif.py accepted a SARIF file GitHub would reject:"; cat "$out/broken.txt"; exit 1
fi
for expected in "fullDescription is 1025 UTF-16 units" "is not in originalUriBaseIds" "'partialFingerprints' is a required property"; do
  grep -qF "$expected" "$out/broken.txt" || { echo "validate_sarif.py did not report: $expected"; cat "$out/broken.txt"; exit 1; }
done
echo "validate_sarif.py rejects a broken log: ok"
