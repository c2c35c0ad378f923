#!/usr/bin/env bash
# Does an installed kbaudit parse C++/CUDA as the build's does? Both annotate a shipped CUDA
# example (copied into a scratch folder), the installed one with the build machine's Clang
# resource headers and the given trees hidden behind empty mounts (as root, in a private mount
# namespace), so it can only use what it was installed with; the annotations must be equal byte
# for byte but `version:` and `fingerprint:` (the fingerprint hashes the executable's identity by
# design: another binary is another build). Used by packaging/ci_deb.sh (the unpacked .deb) and
# tests/package/run_install_test.sh (a `cmake --install` prefix).
# Usage: compare_installed.sh BUILT_KBAUDIT INSTALLED_KBAUDIT EXAMPLES_DIR CLANG_RESOURCE_DIR [DIR_TO_HIDE...]
set -euo pipefail
built=$1 installed=$2 examples=$3 resources=$4
shift 4
sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
example=20260101_100000_demo_cuda-relu-1_02_relu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/runs" "$work/problems"
cp -r "$examples/runs/$example" "$work/runs/"
cp -r "$examples/problems/02_relu" "$work/problems/"
chmod -R a+rX "$work"
(cd "$work" && "$built" check "runs/$example" --problem problems/02_relu --no-config --format yaml > built.yaml) \
  || [ $? -le 1 ]
if $sudo unshare -m true 2>/dev/null; then
  # shellcheck disable=SC2016 # the inner script's own positional parameters
  $sudo unshare -m bash -c 'set -e; work=$1 installed=$2 example=$3; shift 3
                            for d in "$@"; do [ ! -d "$d" ] || mount -t tmpfs none "$d"; done
                            [ ! -e "$1/include/stddef.h" ] || { echo "Clang resources still visible" >&2; exit 1; }
                            cd "$work" && "$installed" check "runs/$example" --problem problems/02_relu --no-config \
                              --format yaml > installed.yaml || [ $? -le 1 ]' \
    _ "$work" "$installed" "$example" "$resources" "$@"
  echo "compare_installed: $resources $* hidden from the installed kbaudit"
else
  echo "compare_installed: no private mount namespace here: the build machine's headers stay visible" >&2
  (cd "$work" && "$installed" check "runs/$example" --problem problems/02_relu --no-config --format yaml \
    > installed.yaml) || [ $? -le 1 ]
fi
strip() { grep -v -e '^  version: ' -e '^  fingerprint: ' "$1"; }
if ! diff <(strip "$work/built.yaml") <(strip "$work/installed.yaml"); then
  echo "compare_installed: FAIL: $installed annotates $example differently from $built (diff above)" >&2
  exit 1
fi
grep -q '^  complete: true' "$work/installed.yaml" || { echo "compare_installed: FAIL: $example not seen whole" >&2; exit 1; }
echo "compare_installed: $installed annotates $example as $built does"
