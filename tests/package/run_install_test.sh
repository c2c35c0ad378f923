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
         share/kbaudit/examples/runs share/kbaudit/kbaudit-probe-venv share/kbaudit/probe-requirements.txt \
         lib/kbaudit/clang/include/stddef.h lib/kbaudit/clang/include/__clang_cuda_builtin_vars.h; do
  [ -e "$prefix/$f" ] || { echo "run_install_test: $f not installed" >&2; exit 1; }
done
# Relocatable: the prefix is moved after installing and the binary still works from there.
mv "$prefix" "$prefix.moved" && mkdir "$prefix"
trap 'rm -rf "$prefix" "$prefix.moved"' EXIT
check=$prefix.moved/check_installed.sh
cp "$src/packaging/check_installed.sh" "$check"
kbaudit=$prefix.moved/bin/kbaudit examples=$prefix.moved/share/kbaudit/examples
# Where a private mount namespace is allowed (root), the source and build trees are hidden behind
# empty tmpfs mounts, so the installed binary provably reads nothing from them.
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
  # shellcheck disable=SC2016 # the inner script's own positional parameters
  unshare -m bash -c 'set -e; mount -t tmpfs none "$2"; mount -t tmpfs none "$1"
                      [ -z "$(ls -A "$1")" ] || { echo "source tree still visible" >&2; exit 1; }
                      echo "run_install_test: source and build trees hidden"
                      "$3" "$4" "$5"' _ "$(realpath "$src")" "$(realpath "$build")" "$check" "$kbaudit" "$examples"
else
  "$check" "$kbaudit" "$examples"
fi
# It parses C++/CUDA as the build's binary does, with the build machine's Clang resource headers
# hidden too: it carries its own (lib/kbaudit/clang).
resources=$(sed -n 's/^KBAUDIT_CLANG_RESOURCE_DIR:PATH=//p' "$build/CMakeCache.txt")
"$src/packaging/compare_installed.sh" "$build/kbaudit" "$kbaudit" "$examples" "$resources" \
  "$(realpath "$build")" "$(realpath "$src")"
