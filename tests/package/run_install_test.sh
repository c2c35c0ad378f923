#!/usr/bin/env bash
# `cmake --install` into a throwaway prefix, then the installed kbaudit is checked from another
# directory (packaging/check_installed.sh). Usage: run_install_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" > "$prefix.log" || { cat "$prefix.log"; exit 1; }
rm -f "$prefix.log"
for f in bin/kbaudit share/doc/kbaudit/README.md share/doc/kbaudit/rules share/doc/kbaudit/install.md \
         share/kbaudit/examples/runs share/kbaudit/kbaudit-probe-venv share/kbaudit/probe-requirements.txt; do
  [ -e "$prefix/$f" ] || { echo "run_install_test: $f not installed" >&2; exit 1; }
done
# Relocatable: the prefix is moved after installing and the binary still works from there.
mv "$prefix" "$prefix.moved" && mkdir "$prefix"
trap 'rm -rf "$prefix" "$prefix.moved"' EXIT
"$src/packaging/check_installed.sh" "$prefix.moved/bin/kbaudit" "$prefix.moved/share/kbaudit/examples"
