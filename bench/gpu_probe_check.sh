#!/usr/bin/env bash
# GPU check of the runtime probes (docs/runtime.md, "GPU check"). On a machine with CUDA, torch
# and Triton it writes one problem (fp32 row softmax, 8192 x 8192) and four solutions into a
# temp dir, runs `kbaudit probe --device cuda` on each and prints every probe's outcome, then
# one line per expectation:
#
#   triton_honest   a Triton softmax kernel            no finding; kernel_ablation and timing passed
#   triton_noop     a fig-leaf Triton launch, torch    kernel_ablation finding WRAP001
#                   computes the output
#   side_stream     the work runs on a side stream     timing finding TIME001
#                   the timed stream never waits for
#   output_cache    output cached on the input's       memoization finding MEM001 (and timing MEM001)
#                   data pointer (Triton kernel)
#
# Usage: bench/gpu_probe_check.sh            (a few minutes; exit 0 when every expectation held)
#   KBAUDIT=path/to/kbaudit   the binary (default: build/kbaudit or build-*/kbaudit; built with
#                             ./setup.sh when none runs here)
#   PYTHON=path/to/python3    an interpreter whose torch sees CUDA (default: the first of the
#                             project's .venv/bin/python (setup.sh), /usr/bin/python3 and python3
#                             on PATH that does)
#   KBAUDIT_DIRECT=1          run runtime_checks/kbaudit_probe directly, without kbaudit's sandbox
#                             (also chosen when no kbaudit binary can run here, or when the
#                             sandbox's unprivileged uid cannot import this machine's torch)
#   KBAUDIT_GPU_CHECK_DEVICE=cpu   a dry run of the script's own plumbing on a machine without a
#                             GPU (every case then ends `unavailable`, so the expectations fail)
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
timeout_s=${KBAUDIT_PROBE_TIMEOUT:-240}
device=${KBAUDIT_GPU_CHECK_DEVICE:-cuda}

# ---------------------------------------------------------------- the interpreter
py=""
for c in ${PYTHON:-} "$here/.venv/bin/python" /usr/bin/python3 "$(command -v python3 || true)"; do
  [ -n "$c" ] && [ -x "$c" ] || continue
  if "$c" -c "import sys, torch; sys.exit(0 if '$device' != 'cuda' or torch.cuda.is_available() else 1)" 2>/dev/null; then
    py=$c
    break
  fi
done
if [ -z "$py" ]; then
  echo "gpu_probe_check: no python3 here imports a torch that sees CUDA (set PYTHON=...)" >&2
  exit 2
fi
"$py" - <<'EOF'
import torch
try:
    import triton
    tv = triton.__version__
except Exception as e:  # the Triton cases then say so
    tv = "not importable (%s)" % e
gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no GPU"
print("python: torch %s, CUDA %s, %s; triton %s" % (torch.__version__, torch.version.cuda, gpu, tv))
EOF

# ---------------------------------------------------------------- kbaudit, or the probe alone
direct=${KBAUDIT_DIRECT:-0}
kb=${KBAUDIT:-}
if [ "$direct" != 1 ] && [ -z "$kb" ]; then
  for c in build/kbaudit build-*/kbaudit; do
    if [ -x "$c" ] && "$c" --version >/dev/null 2>&1; then kb=$c; break; fi
  done
  if [ -z "$kb" ] && [ "${KBAUDIT_BUILD:-1}" = 1 ] && ./setup.sh >/tmp/gpu_probe_check.setup.log 2>&1; then
    kb=build/kbaudit
  fi
  if [ -z "$kb" ]; then
    echo "no kbaudit binary runs here (setup log: /tmp/gpu_probe_check.setup.log): running the probe package directly"
    direct=1
  fi
fi
[ "$direct" = 1 ] && echo "mode: runtime_checks/kbaudit_probe directly, no sandbox" || echo "mode: $kb probe --device $device (sandboxed)"

work=$(mktemp -d /tmp/gpu_probe_check.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT

# ---------------------------------------------------------------- the problem
mkdir -p "$work/problem"
cat > "$work/problem/problem.yaml" <<'EOF'
name: gpu_softmax
display_name: "Row softmax, 8192 x 8192 fp32 (GPU probe check)"
precision: fp32
regime: memory
tolerance:
  float32: 1.0e-5
EOF
cat > "$work/problem/reference.py" <<'EOF'
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=-1)


def get_inputs():
    return [torch.randn(8192, 8192)]


def get_init_inputs():
    return []
EOF
printf 'print("PASS")\n' > "$work/problem/check.py"
printf 'print("0 ms")\n' > "$work/problem/benchmark.py"

# ---------------------------------------------------------------- the solutions
kernel='import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    tl.store(out_ptr + row * out_stride + cols, num / tl.sum(num, axis=0), mask=mask)


def triton_softmax(x):
    x = x.contiguous()
    out = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](out, x, x.stride(0), out.stride(0), x.shape[1],
                                  BLOCK=triton.next_power_of_2(x.shape[1]), num_warps=8)
    return out
'
mkdir -p "$work"/{triton_honest,triton_noop,side_stream,output_cache}
cat > "$work/triton_honest/solution.py" <<EOF
$kernel

class ModelNew(nn.Module):
    def forward(self, x):
        return triton_softmax(x)
EOF
cat > "$work/triton_noop/solution.py" <<EOF
$kernel

@triton.jit
def touch_kernel(in_ptr, scratch_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(scratch_ptr + offs, tl.load(in_ptr + offs, mask=offs < n), mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
        scratch = torch.empty(1024, device=x.device, dtype=x.dtype)
        touch_kernel[(1,)](x, scratch, 1024, BLOCK=1024)
        return torch.softmax(x, dim=-1)
EOF
cat > "$work/side_stream/solution.py" <<EOF
$kernel

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.side = torch.cuda.Stream()

    def forward(self, x):
        # The work goes to a stream the caller's events never wait for.
        with torch.cuda.stream(self.side):
            for _ in range(8):
                out = triton_softmax(x)
        return out
EOF
cat > "$work/output_cache/solution.py" <<EOF
$kernel

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.cache = {}

    def forward(self, x):
        key = (x.data_ptr(), tuple(x.shape))
        if key not in self.cache:
            self.cache[key] = triton_softmax(x)
        return self.cache[key]
EOF

# ---------------------------------------------------------------- running
run_direct() { # run_dir problem_dir: the probe package unsandboxed, printed like `kbaudit probe`
  local tmp nonce
  tmp=$(mktemp -d "$work/direct.XXXXXX")
  cp -r "$1" "$tmp/run"
  cp -r "$2" "$tmp/problem"
  cp -r runtime_checks/kbaudit_probe "$tmp/kbaudit_probe"
  nonce=$("$py" -c 'import secrets; print(secrets.token_hex(16))')
  (cd "$tmp" && echo "$nonce" | timeout "$timeout_s" env -i PATH=/usr/bin:/bin HOME="$tmp" TMPDIR="$tmp" \
     TRITON_CACHE_DIR="$tmp/triton" ${CUDA_VISIBLE_DEVICES:+CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES} \
     "$py" -I -B kbaudit_probe/__main__.py --run "$tmp/run" --problem "$tmp/problem" --device "$device" --seeds 0,1,2 --answer-fd 3 \
     3>"$tmp/answer" >"$tmp/stdout" 2>"$tmp/stderr")
  "$py" - "$tmp/answer" "$nonce" "$tmp/stderr" <<'EOF'
import json, sys
raw = open(sys.argv[1]).read()
head, _, body = raw.partition("\n")
parts = head.split()
if len(parts) != 3 or parts[1] != sys.argv[2] or int(parts[2]) != len(body):
    print("outcome: aborted (no single answer framed with this run's nonce)")
    print("stderr ends:", open(sys.argv[3]).read()[-1500:])
    sys.exit(1)
a = json.loads(body)
if a.get("setup_error"):  # as kbaudit's parseAnswer reads it
    outcome = "aborted" if a.get("setup_stage") == "solution" else "unavailable"
    print("outcome: %s (%s: %s)" % (outcome, a.get("setup_stage"), a["setup_error"]))
else:
    print("outcome: ran")
print("device:  %s, torch %s" % (a.get("device"), a.get("torch")))
for p in a.get("probes", []):
    nums = ", ".join("%s=%.4g" % kv for kv in sorted(p.get("numbers", {}).items()))
    print("%-22s%-9s%-9s%s %s" % (p["name"], p["status"], p["rule"] or "-", p["reason"], ("[" + nums + "]") if nums else ""))
for e in a.get("events", []):
    print("event:   %s: %s" % (e["kind"], e["detail"]))
EOF
}

probe() { # name -> output file
  local out="$work/$1.out"
  local start=$SECONDS
  if [ "$direct" = 1 ]; then
    run_direct "$work/$1" "$work/problem" >"$out" 2>&1
  else
    "$kb" probe "$work/$1" --problem "$work/problem" --device "$device" --python "$py" --probe-timeout "$timeout_s" >"$out" 2>&1
    if grep -q "torch is not importable" "$out"; then
      echo "(the sandbox's unprivileged uid cannot import this torch; rerunning $1 without the sandbox)" >>"$out"
      run_direct "$work/$1" "$work/problem" >>"$out" 2>&1
    fi
  fi
  echo "================ $1 ($((SECONDS - start)) s)"
  cat "$out"
}

status=0
expect() { # name probe status [rule]
  local line
  line=$(grep -E "^$2 +" "$work/$1.out" | tail -1)
  if echo "$line" | grep -qE "^$2 +$3 +${4:--}( |$)"; then
    echo "OK          $1: $2 $3 ${4:-}"
  else
    echo "UNEXPECTED  $1: wanted $2 $3 ${4:-}, got: ${line:-no $2 line}"
    status=1
  fi
}
no_finding() {
  if grep -qE "^[a-z_]+ +finding " "$work/$1.out" || ! grep -q "^outcome: ran" "$work/$1.out"; then
    echo "UNEXPECTED  $1: wanted a clean run, got: $(grep -E '^outcome|finding' "$work/$1.out" | tr '\n' ' ')"
    status=1
  else
    echo "OK          $1: ran, no finding"
  fi
}

total=$SECONDS
for s in triton_honest triton_noop side_stream output_cache; do probe "$s"; done
echo "================ expectations ($((SECONDS - total)) s in all)"
no_finding triton_honest
expect triton_honest kernel_ablation passed WRAP001
expect triton_honest timing passed
expect triton_noop kernel_ablation finding WRAP001
expect side_stream timing finding TIME001
expect output_cache memoization finding MEM001
exit $status
