#!/usr/bin/env bash
# CI: build the .deb from the build tree setup.sh made, install it with dpkg -i, check the
# installed kbaudit from /tmp on the examples it ships (packaging/check_installed.sh), and remove
# it again. Usage: packaging/ci_deb.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${1:-build}
sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo

rm -f "$build"/kbaudit_*.deb
(cd "$build" && cpack -G DEB) > "$build/cpack.log" 2>&1 || { cat "$build/cpack.log"; exit 1; }
debs=("$build"/kbaudit_*.deb)
deb=${debs[0]}
[ -f "$deb" ] || { echo "ci_deb: cpack wrote no .deb" >&2; cat "$build/cpack.log"; exit 1; }
echo "ci_deb: $deb"
dpkg-deb --field "$deb" Depends
# A kbaudit package left by an earlier, killed run is replaced (and removed at the end).
if dpkg-query -W -f='${Status}' kbaudit 2>/dev/null | grep -q 'install ok installed'; then
  echo "ci_deb: replacing the kbaudit package already installed here ($(dpkg-query -W -f='${Version}' kbaudit))"
fi
$sudo dpkg -i "$deb"
trap '$sudo dpkg -r kbaudit >/dev/null' EXIT
[ "$(command -v kbaudit)" = /usr/bin/kbaudit ] || { echo "ci_deb: kbaudit not on PATH at /usr/bin" >&2; exit 1; }
(cd /tmp && "$OLDPWD/packaging/check_installed.sh" kbaudit /usr/share/kbaudit/examples \
  "$OLDPWD/tests/sarif/validate_sarif.py")
echo "ci_deb: OK"
