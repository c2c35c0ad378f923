#!/usr/bin/env bash
# CI: build the .deb from the build tree setup.sh made, install it with dpkg -i, check the
# installed kbaudit from /tmp on the examples it ships (packaging/check_installed.sh), and remove
# it again. Usage: packaging/ci_deb.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${1:-build}
sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo

(cd "$build" && cpack -G DEB) > "$build/cpack.log" 2>&1 || { cat "$build/cpack.log"; exit 1; }
deb=$(ls -t "$build"/kbaudit_*.deb | head -1)
echo "ci_deb: $deb"
dpkg-deb --field "$deb" Depends
if dpkg-query -W -f='${Status}' kbaudit 2>/dev/null | grep -q 'install ok installed'; then
  echo "ci_deb: kbaudit is already installed on this machine; not replacing it" >&2
  exit 1
fi
$sudo dpkg -i "$deb"
trap '$sudo dpkg -r kbaudit >/dev/null' EXIT
[ "$(command -v kbaudit)" = /usr/bin/kbaudit ] || { echo "ci_deb: kbaudit not on PATH at /usr/bin" >&2; exit 1; }
(cd /tmp && "$OLDPWD/packaging/check_installed.sh" kbaudit /usr/share/kbaudit/examples)
echo "ci_deb: OK"
