#!/usr/bin/env bash
# CI: build the .deb from the build tree setup.sh made; unpack it into a clean directory and check
# that the binary it ships parses C++/CUDA as the build's does (an example's annotation, byte for
# byte but the lines that name the build) with the build machine's Clang headers, build tree and
# source tree out of sight; then install it with dpkg -i, check the installed kbaudit from /tmp on
# the examples it ships (packaging/check_installed.sh), and remove it again.
# Usage: packaging/ci_deb.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
src=$(pwd)
build=$(realpath "${1:-build}")
sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo

rm -f "$build"/kbaudit_*.deb
(cd "$build" && cpack -G DEB) > "$build/cpack.log" 2>&1 || { cat "$build/cpack.log"; exit 1; }
debs=("$build"/kbaudit_*.deb)
deb=${debs[0]}
[ -f "$deb" ] || { echo "ci_deb: cpack wrote no .deb" >&2; cat "$build/cpack.log"; exit 1; }
echo "ci_deb: $deb ($(du -h "$deb" | cut -f1))"
depends=$(dpkg-deb --field "$deb" Depends)
echo "ci_deb: Depends: $depends"

# action.yml's comment may name only packages the .deb depends on (it once listed three it lost).
for pkg in $(grep '^ *#' action.yml | grep -oE '\blib[a-z0-9.+-]*[0-9][a-z0-9.+-]*' | sort -u || true); do
  [[ $depends == *"$pkg"* ]] || { echo "ci_deb: action.yml names $pkg, which the .deb does not depend on" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# 1. Unpacked into a clean directory: the binary it ships parses a CUDA example as build/kbaudit
#    does, with the build's Clang resource headers, the build tree and the source tree hidden.
dpkg-deb -x "$deb" "$work/root"
[ -f "$work/root/usr/lib/kbaudit/clang/include/stddef.h" ] || { echo "ci_deb: the .deb ships no Clang resource headers" >&2; exit 1; }
cp -r examples "$work/examples"
resources=$(sed -n 's/^KBAUDIT_CLANG_RESOURCE_DIR:PATH=//p' "$build/CMakeCache.txt")
packaging/compare_installed.sh "$build/kbaudit" "$work/root/usr/bin/kbaudit" "$work/examples" "$resources" "$build" "$src"

# 2. Installed with dpkg -i, run from /tmp.
# A kbaudit package left by an earlier, killed run is replaced (and removed at the end).
if dpkg-query -W -f='${Status}' kbaudit 2>/dev/null | grep -q 'install ok installed'; then
  echo "ci_deb: replacing the kbaudit package already installed here ($(dpkg-query -W -f='${Version}' kbaudit))"
fi
$sudo dpkg -i "$deb"
trap '$sudo dpkg -r kbaudit >/dev/null; rm -rf "$work"' EXIT
[ "$(command -v kbaudit)" = /usr/bin/kbaudit ] || { echo "ci_deb: kbaudit not on PATH at /usr/bin" >&2; exit 1; }
(cd /tmp && "$src/packaging/check_installed.sh" kbaudit /usr/share/kbaudit/examples \
  "$src/tests/sarif/validate_sarif.py")
echo "ci_deb: OK"
