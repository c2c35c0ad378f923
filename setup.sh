#!/usr/bin/env bash
# One-command setup for kbaudit on a fresh Debian 12 machine: system packages, the pinned
# tree-sitter Python grammar, and a Ninja build. Idempotent; every step says what failed.
#
# Options (environment):
#   KBAUDIT_SKIP_APT=1     do not install Debian packages (they are already there)
#   KBAUDIT_BUILD_DIR=DIR  build directory (default: build)
#   KBAUDIT_BUILD_TYPE=T   CMake build type (default: RelWithDebInfo)
#   KBAUDIT_WITH_CHROMIUM=1  also install Debian's chromium, for the headless-browser test of
#                          `kbaudit report --html` (skipped without it)
#   KBAUDIT_WITH_SLURM=1   also install Debian's slurm-wlm and munge, for the test of the Slurm
#                          job-array recipe (tests/slurm/run_slurm_recipe.sh; skipped without them)
#   KBAUDIT_WITH_TORCH=1   also install Debian's python3-torch (CPU, torch 1.13), for the runtime
#                          probes (`kbaudit probe`, `--runtime`) and their tests (skipped without it)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"
build_dir=${KBAUDIT_BUILD_DIR:-build}
build_type=${KBAUDIT_BUILD_TYPE:-RelWithDebInfo}

step=""
trap 'rc=$?; [ $rc -eq 0 ] || echo "setup.sh: FAILED at step: ${step} (exit $rc)" >&2' EXIT
say() { step="$1"; echo "==> $1"; }

APT_PACKAGES=(build-essential cmake ninja-build pkg-config libtree-sitter-dev libyaml-cpp-dev
              libgtest-dev llvm-14-dev libclang-14-dev libclang-cpp14-dev clang-14 libclang-rt-14-dev
              ca-certificates)
[ "${KBAUDIT_WITH_CHROMIUM:-0}" != 1 ] || APT_PACKAGES+=(chromium)
# The test runs its own munged/slurmctld/slurmd in a temp dir, never the system's services.
[ "${KBAUDIT_WITH_SLURM:-0}" != 1 ] || APT_PACKAGES+=(slurm-wlm munge)
# The probes run /usr/bin/python3 (not whatever python3 is first on PATH).
[ "${KBAUDIT_WITH_TORCH:-0}" != 1 ] || APT_PACKAGES+=(python3-torch)
GRAMMAR_NAME=tree-sitter-python
GRAMMAR_VERSION=0.23.6   # ABI 14: loads in Debian 12's libtree-sitter 0.20.7 (0.25 does not)
GRAMMAR_SHA256=aab5b860d93dbf84b37fed532f7dacc0468ede5387d0c74911d68f964287662a
GRAMMAR_DIR=.deps/${GRAMMAR_NAME}-${GRAMMAR_VERSION}

missing_packages() {
  local p
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
  done
  # npm fetches the grammar; a machine whose Node.js comes from elsewhere already has it,
  # and Debian's npm package would conflict with that Node.js.
  command -v npm >/dev/null 2>&1 || { echo nodejs; echo npm; }
}

if [ "${KBAUDIT_SKIP_APT:-0}" != 1 ]; then
  say "install Debian packages"
  mapfile -t todo < <(missing_packages)
  if [ ${#todo[@]} -gt 0 ]; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${todo[@]}"
  else
    echo "    all ${#APT_PACKAGES[@]} packages present"
  fi
fi

say "fetch ${GRAMMAR_NAME}@${GRAMMAR_VERSION} from the npm registry"
if [ ! -f "$GRAMMAR_DIR/src/parser.c" ] || [ "$(cat "$GRAMMAR_DIR/.sha256" 2>/dev/null)" != "$GRAMMAR_SHA256" ]; then
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "${GRAMMAR_NAME}@${GRAMMAR_VERSION}" >/dev/null)
  tarball="$tmp/${GRAMMAR_NAME}-${GRAMMAR_VERSION}.tgz"
  step="verify ${GRAMMAR_NAME} sha256"
  echo "${GRAMMAR_SHA256}  ${tarball}" | sha256sum --check --status \
    || { echo "sha256 mismatch for $tarball: got $(sha256sum "$tarball" | cut -d' ' -f1)" >&2; exit 1; }
  rm -rf "$GRAMMAR_DIR" && mkdir -p "$GRAMMAR_DIR"
  tar -xzf "$tarball" -C "$GRAMMAR_DIR" --strip-components=1
  echo "$GRAMMAR_SHA256" > "$GRAMMAR_DIR/.sha256"
  rm -rf "$tmp"
else
  echo "    already present and verified"
fi

if [ "${KBAUDIT_WITH_TORCH:-0}" = 1 ]; then
  say "check that /usr/bin/python3 imports torch (KBAUDIT_WITH_TORCH=1)"
  /usr/bin/python3 -c 'import torch; print("    torch", torch.__version__)'
fi

say "configure (CMake + Ninja, $build_type)"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" >/dev/null

say "build"
cmake --build "$build_dir" --parallel "$(nproc)"

step=""
echo "==> done: $build_dir/kbaudit is ready"
