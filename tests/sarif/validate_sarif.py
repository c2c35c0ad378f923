#!/usr/bin/env python3
"""Validates kbaudit's SARIF the way GitHub code scanning will read it.

usage: validate_sarif.py FILE.sarif

1. GitHub's documented requirements and limits (github_code_scanning.schema.json beside this
   script, and below the lengths GitHub counts in UTF-16 code units, which JSON Schema's
   maxLength, counting code points, cannot express), for every rule and result.
2. The OASIS SARIF 2.1.0 schema when KBAUDIT_SARIF_SCHEMA names a copy of it
   (sarif-schema-2.1.0.json): neither Debian nor PyPI ships that file, so it is not part of the
   repository's tests on a clean machine; see docs/sarif.md.
3. Every %SRCROOT% a location uses is declared in the run's originalUriBaseIds; every result's
   ruleIndex points at its rule.

Exit 0 valid, 1 invalid (every problem listed), 77 when python3-jsonschema is missing (skipped).
"""

import json
import os
import sys
from pathlib import Path

try:
    import jsonschema
except ImportError:
    print("SKIP: python3-jsonschema is not installed (setup.sh installs it)")
    sys.exit(77)

MAX_NAME, MAX_DESCRIPTION = 255, 1024


def utf16_len(s):
    return len(s.encode("utf-16-le")) // 2


def problems_in(log):
    here = Path(__file__).resolve().parent
    github = json.loads((here / "github_code_scanning.schema.json").read_text())
    found = [f"GitHub schema: {'/'.join(map(str, e.absolute_path))}: {e.message[:200]}"
             for e in jsonschema.Draft7Validator(github).iter_errors(log)]
    official = os.environ.get("KBAUDIT_SARIF_SCHEMA")
    if official:
        schema = json.loads(Path(official).read_text())
        found += [f"SARIF 2.1.0 schema: {'/'.join(map(str, e.absolute_path))}: {e.message[:200]}"
                  for e in jsonschema.Draft7Validator(schema).iter_errors(log)]
    else:
        print("note: KBAUDIT_SARIF_SCHEMA not set: the OASIS schema was not applied")
    for run in log.get("runs", []):
        rules = run.get("tool", {}).get("driver", {}).get("rules", [])
        for rule in rules:
            rid = rule.get("id", "?")
            if utf16_len(rule.get("name", "")) > MAX_NAME:
                found.append(f"{rid}: name longer than {MAX_NAME} UTF-16 units")
            for field in ("shortDescription", "fullDescription"):
                n = utf16_len(rule.get(field, {}).get("text", ""))
                if n > MAX_DESCRIPTION:
                    found.append(f"{rid}: {field} is {n} UTF-16 units, over GitHub's {MAX_DESCRIPTION}")
        declared = set(run.get("originalUriBaseIds", {}))
        for i, result in enumerate(run.get("results", [])):
            index = result.get("ruleIndex")
            if index is not None and (index >= len(rules) or rules[index].get("id") != result.get("ruleId")):
                found.append(f"results/{i}: ruleIndex {index} is not rule {result.get('ruleId')}")
            for loc in result.get("locations", []):
                base = loc.get("physicalLocation", {}).get("artifactLocation", {}).get("uriBaseId")
                if base and base not in declared:
                    found.append(f"results/{i}: uriBaseId {base} is not in originalUriBaseIds")
    return found


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    log = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    found = problems_in(log)
    for p in found:
        print(p)
    rules = sum(len(r.get("tool", {}).get("driver", {}).get("rules", [])) for r in log.get("runs", []))
    results = sum(len(r.get("results", [])) for r in log.get("runs", []))
    print(f"{'INVALID' if found else 'valid'}: {rules} rules, {results} results, {len(found)} problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
