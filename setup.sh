#!/usr/bin/env bash
# One-command setup for kbaudit on a fresh Debian 12 machine: system packages, the pinned
# tree-sitter Python grammar (PyPI sdists), and a Ninja build. Idempotent; every step says what failed.
#
# Options (environment):
#   KBAUDIT_SKIP_APT=1     do not install Debian packages (they are already there)
#   KBAUDIT_BUILD_DIR=DIR  build directory (default: build)
#   KBAUDIT_BUILD_TYPE=T   CMake build type (default: RelWithDebInfo)
#   KBAUDIT_WITH_CHROMIUM=1  also install Debian's chromium, for the headless-browser test of
#                          `kbaudit report --html` (skipped without it)
#   KBAUDIT_WITH_SLURM=1   also install Debian's slurm-wlm and munge, for the test of the Slurm
#                          job-array recipe (tests/slurm/run_slurm_recipe.sh; skipped without them)
#   KBAUDIT_STATIC_ONLY=1  do not create the project virtual environment (.venv: pinned torch,
#                          Triton and numpy from PyPI; its download and disk size are in README.md)
#                          that the runtime probes and their tests use; the static rules need none of it
set -euo pipefail
shopt -s inherit_errexit

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"
build_dir=${KBAUDIT_BUILD_DIR:-build}
build_type=${KBAUDIT_BUILD_TYPE:-RelWithDebInfo}

step=""
trap 'rc=$?; [ $rc -eq 0 ] || echo "setup.sh: FAILED at step: ${step} (exit $rc)" >&2' EXIT
say() { step="$1"; echo "==> $1"; }

# zlib1g-dev and libtinfo-dev: what LLVM's static archives link against (KBAUDIT_STATIC_LLVM).
APT_PACKAGES=(build-essential cmake ninja-build pkg-config libyaml-cpp-dev libkainjow-mustache-dev libcsv-dev
              libgtest-dev llvm-14-dev libclang-14-dev libclang-cpp14-dev clang-14 libclang-rt-14-dev
              zlib1g-dev libtinfo-dev ca-certificates python3-pip)
# Output formats, config files and option parsing (JUnit XML, pyproject.toml/kbaudit.toml, CLI11),
# and the SARIF test's JSON-schema validator.
APT_PACKAGES+=(libpugixml-dev libtomlplusplus-dev libcli11-dev python3-jsonschema)
# UTF-8 validation and encoding (analyzers/source/src/utf8.cpp), header-only. (libcsv-dev, above,
# also splits CSV/TSV evaluation tables.)
APT_PACKAGES+=(libutfcpp-dev)
# SHA-256 of run files and cache keys with the CPU's SHA instructions (analyzers/source/src/sha256.cpp).
APT_PACKAGES+=(libssl-dev)
# CPack's .deb (packaging/ci_deb.sh): dpkg-shlibdeps and the file(1) it classifies binaries with.
APT_PACKAGES+=(dpkg-dev file)
[ "${KBAUDIT_WITH_CHROMIUM:-0}" != 1 ] || APT_PACKAGES+=(chromium)
# The test runs its own munged/slurmctld/slurmd in a temp dir, never the system's services.
[ "${KBAUDIT_WITH_SLURM:-0}" != 1 ] || APT_PACKAGES+=(slurm-wlm munge)
# The runtime probes' environment is built on Debian's python3 (not whatever is first on PATH).
[ "${KBAUDIT_STATIC_ONLY:-0}" = 1 ] || APT_PACKAGES+=(python3-venv)
# The compiled front end compiles torch extension sources against the .venv torch wheel's headers,
# whose pybind11 includes Python.h.
[ "${KBAUDIT_STATIC_ONLY:-0}" = 1 ] || APT_PACKAGES+=(python3-dev)
# The runtime probes' CPU runner for CUDA C++ (kbaudit_probe/cudacpu): a block's threads are
# Boost.Context fibers, compiled into each solution's extension in the sandbox.
[ "${KBAUDIT_STATIC_ONLY:-0}" = 1 ] || APT_PACKAGES+=(libboost-context-dev)
GRAMMAR_NAME=tree-sitter-python
GRAMMAR_VERSION=0.23.6   # ABI 14, as the tree-sitter 0.24.0 runtime below reads it
GRAMMAR_SHA256=354bfa0a2f9217431764a631516f85173e9711af2c13dbd796a8815acfe505d9   # PyPI sdist
# The sdist has parser.c and scanner.c but not the src/tree_sitter/ headers they include; those
# come from the sdist of the tree-sitter Python binding that vendors the matching C sources.
HEADERS_NAME=tree-sitter
HEADERS_VERSION=0.24.0
HEADERS_SHA256=abd95af65ca2f4f7eca356343391ed669e764f37748b5352946f00f7fc78e734
GRAMMAR_STAMP="$GRAMMAR_SHA256 $HEADERS_SHA256"
GRAMMAR_DIR=.deps/${GRAMMAR_NAME}-${GRAMMAR_VERSION}
# The tree-sitter runtime is built from the same sdist (its lib/ amalgamation, lib.c), not taken
# from Debian: libtree-sitter 0.20.7 double-frees when it deletes the tree of a file with 65,534
# or more unclosed brackets (munmap_chunk in ts_subtree_release); 0.24.0 parses it.
RUNTIME_DIR=.deps/${HEADERS_NAME}-${HEADERS_VERSION}
# The runtime probes' interpreter: the pins (torch, Triton, numpy, einops, pyarrow) and why are in
# runtime_checks/probe-requirements.txt, which an installed kbaudit's kbaudit-probe-venv reads too.
VENV_DIR=.venv
mapfile -t VENV_REQUIREMENTS < <(grep -v -e '^#' -e '^$' runtime_checks/probe-requirements.txt)

missing_packages() {
  local p
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
  done
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

say "fetch ${GRAMMAR_NAME}==${GRAMMAR_VERSION} and the tree-sitter ${HEADERS_VERSION} runtime sources from PyPI"
if [ ! -f "$GRAMMAR_DIR/src/parser.c" ] || [ "$(cat "$GRAMMAR_DIR/.sha256" 2>/dev/null)" != "$GRAMMAR_STAMP" ] \
   || [ ! -f "$RUNTIME_DIR/lib/src/lib.c" ] || [ "$(cat "$RUNTIME_DIR/.sha256" 2>/dev/null)" != "$HEADERS_SHA256" ]; then
  tmp=$(mktemp -d)
  fetch_sdist() {  # NAME VERSION SHA256 -> path of the verified sdist
    local name=$1 version=$2 sha=$3 file
    /usr/bin/python3 -m pip download --quiet --disable-pip-version-check --no-deps \
      --no-binary=:all: -d "$tmp/$name" "$name==$version" >&2
    file=$(ls "$tmp/$name"/*.tar.gz)
    echo "${sha}  ${file}" | sha256sum --check --status \
      || { echo "sha256 mismatch for $file: got $(sha256sum "$file" | cut -d' ' -f1)" >&2; return 1; }
    echo "$file"
  }
  grammar_sdist=$(fetch_sdist "$GRAMMAR_NAME" "$GRAMMAR_VERSION" "$GRAMMAR_SHA256")
  headers_sdist=$(fetch_sdist "$HEADERS_NAME" "$HEADERS_VERSION" "$HEADERS_SHA256")
  rm -rf "$GRAMMAR_DIR" && mkdir -p "$GRAMMAR_DIR/src/tree_sitter"
  tar -xzf "$grammar_sdist" -C "$GRAMMAR_DIR" --strip-components=1
  # The grammar's sdist leaves out src/tree_sitter/; these are the same headers from the
  # tree-sitter sources of the generator's version.
  tar -xzf "$headers_sdist" -C "$tmp"
  for h in parser.h array.h alloc.h ts_assert.h; do
    cp "$tmp/$HEADERS_NAME-$HEADERS_VERSION/tree_sitter/core/lib/src/$h" "$GRAMMAR_DIR/src/tree_sitter/"
  done
  rm -rf "$RUNTIME_DIR" && mkdir -p "$RUNTIME_DIR"
  cp -r "$tmp/$HEADERS_NAME-$HEADERS_VERSION/tree_sitter/core/lib" "$RUNTIME_DIR/lib"
  cp "$tmp/$HEADERS_NAME-$HEADERS_VERSION/LICENSE" "$RUNTIME_DIR/" 2>/dev/null || true   # MIT
  echo "$HEADERS_SHA256" > "$RUNTIME_DIR/.sha256"
  echo "$GRAMMAR_STAMP" > "$GRAMMAR_DIR/.sha256"
  rm -rf "$tmp"
else
  echo "    already present and verified"
fi

if [ "${KBAUDIT_STATIC_ONLY:-0}" != 1 ]; then
  say "create the runtime-probe environment $VENV_DIR (${VENV_REQUIREMENTS[*]})"
  stamp="${VENV_REQUIREMENTS[*]}"
  if [ "$(cat "$VENV_DIR/.kbaudit-requirements" 2>/dev/null)" != "$stamp" ] || ! "$VENV_DIR/bin/python" -c 'import torch, triton' 2>/dev/null; then
    rm -rf "$VENV_DIR"
    /usr/bin/python3 -m venv "$VENV_DIR"
    "$VENV_DIR/bin/python" -m pip install --quiet --disable-pip-version-check --no-cache-dir "${VENV_REQUIREMENTS[@]}"
    echo "$stamp" > "$VENV_DIR/.kbaudit-requirements"
  else
    echo "    already present"
  fi
  "$VENV_DIR/bin/python" -c 'import torch, triton, numpy; print("    torch", torch.__version__, "triton", triton.__version__, "numpy", numpy.__version__)'
fi

say "configure (CMake + Ninja, $build_type)"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" >/dev/null

say "build"
cmake --build "$build_dir" --parallel "$(nproc)"

step=""
echo "==> done: $build_dir/kbaudit is ready"
