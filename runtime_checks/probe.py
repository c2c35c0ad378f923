"""kbaudit runtime probe: runs one solution against its reference inside kbaudit's sandbox.

Started by `kbaudit probe` / `kbaudit audit --runtime` in a child process with a private copy of
the run and the problem. It answers with one JSON document on a private pipe (never stdout, which
the solution controls), framed with a nonce read from stdin before any solution code runs.

Every probe reports `passed`, `finding` (with the kbaudit rule it is evidence for), `skipped`
(with the reason: a probe that cannot run on this device says so instead of passing) or `error`.
"""

import argparse
import builtins
import copy
import importlib.util
import json
import math
import os
import re
import sys
import time
import traceback

GRADER_FILES = ("check.py", "benchmark.py", "problem.yaml", "reference.py", "shapes.py")
MAX_EVENTS = 64

# Noise floor: a solution whose error against the float64 oracle is within this many times the
# honest reference's own error (at the contract precision) computes at the precision it claims.
ERROR_RATIO_LIMIT = 64.0
# Calls of the same function on the same inputs may differ by reduction order (atomics);
# anything beyond this many times the reference's error is a different computation.
REPEAT_RATIO_LIMIT = 16.0
# The call-count probe: this many calls first (cycling over up to three input sets), and one more
# call per set after every other probe has run.
CALL_COUNT_CALLS = 12
# Every input the solution is called with is kept alive (up to this many bytes), so no address it
# saw comes back to it with other contents: an output cache keyed on pointers then shows up in
# the memoization probe (which rewrites inputs in place) and not as wrong values in the others.
KEEP_INPUT_BYTES = {"cpu": 1 << 30, "cuda": 4 << 30}


# A solution that fails to load with one of these in the error, on a machine without CUDA, was
# written for a GPU: the probe is unavailable here rather than the solution broken.
DEVICE_WORDS = re.compile(r"cuda|nvcc|triton|nvidia|\bgpu\b|cudnn|cublas", re.IGNORECASE)


class SetupError(Exception):
    """Loading failed; `stage` says whose fault: reference (the probe cannot run here) or solution."""

    def __init__(self, stage, error):
        super().__init__("%s: %s" % (type(error).__name__, str(error)[:400]))
        self.stage = stage


# Compilers and helpers that Triton and torch.utils.cpp_extension start while building an
# honest kernel; a spawn of one of these from inside those libraries is not an event.
TOOLCHAIN = {"cc", "gcc", "g++", "c++", "clang", "clang++", "nvcc", "ptxas", "cuobjdump", "nvdisasm", "ninja",
             "ldconfig", "ld", "as", "which", "uname", "nvidia-smi", "hipcc", "ld.lld"}
TOOLCHAIN_MODULES = (os.sep + "triton" + os.sep, os.sep + "cpp_extension.py", os.sep + "_inductor" + os.sep,
                     os.sep + "torch" + os.sep + "cuda" + os.sep)


def from_toolchain(args):
    """A process spawn by Triton / torch's extension builder running one of the usual tools."""
    try:
        exe = args[0] if args else ""
        if isinstance(exe, (list, tuple)):
            exe = exe[0] if exe else ""
        exe = os.path.basename(os.fsdecode(exe)) if isinstance(exe, (str, bytes, os.PathLike)) else ""
        if exe not in TOOLCHAIN and not (len(args) > 1 and isinstance(args[1], (list, tuple)) and args[1]
                                         and os.path.basename(str(args[1][0])) in TOOLCHAIN):
            return False
        frame = sys._getframe(2)
        while frame is not None:
            if any(m in frame.f_code.co_filename for m in TOOLCHAIN_MODULES):
                return True
            frame = frame.f_back
    except Exception:
        pass
    return False


class Events:
    """What the solution did to the outside world, from a Python audit hook. Its own scratch
    space (the private run copy, TMPDIR, HOME) is not the outside world; the problem copy is."""

    def __init__(self, root, problem):
        self.root = os.path.realpath(root)
        self.problem = os.path.realpath(problem)
        self.items = []
        self.watching = False

    def add(self, kind, detail):
        if self.watching and len(self.items) < MAX_EVENTS:
            self.items.append({"kind": kind, "detail": str(detail)[:300]})

    def own(self, full):
        """Inside the private copy, but not in the problem's files."""
        return full.startswith(self.root + os.sep) and not (full == self.problem or
                                                             full.startswith(self.problem + os.sep))

    def hook(self, event, args):
        if not self.watching:
            return
        try:
            if event == "open":
                path, mode, flags = (list(args) + [None, None, None])[:3]
                if not isinstance(path, (str, bytes, os.PathLike)):
                    return
                path = os.fsdecode(path)
                full = os.path.realpath(path)
                writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                    isinstance(flags, int) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT))
                if os.path.basename(full) in GRADER_FILES:
                    self.add("grader-file", ("write " if writing else "read ") + path)
                elif writing and not self.own(full) and full != os.devnull:
                    self.add("write-outside", path)
            elif event in ("os.remove", "os.unlink", "os.rmdir", "shutil.rmtree", "os.rename"):
                paths = [a for a in args[:2] if isinstance(a, (str, bytes, os.PathLike))]
                if not paths or not all(self.own(os.path.realpath(os.fsdecode(a))) for a in paths):
                    self.add("delete", "%s %r" % (event, args[:2]))
            elif event in ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork",
                           "os.forkpty"):
                if not from_toolchain(args):
                    self.add("process", "%s %r" % (event, args[:2]))
            elif event in ("socket.connect", "socket.bind", "socket.getaddrinfo"):
                self.add("network", "%s %r" % (event, args[:2]))
        except Exception:  # the hook must never break the solution it watches
            pass


def load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def tensors_of(value):
    """Flattens an output (tensor, tuple, list, dict) into its tensors, in order."""
    import torch

    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in tensors_of(v)]
    if isinstance(value, dict):
        return [t for k in sorted(value, key=str) for t in tensors_of(value[k])]
    return []


def map_inputs(inputs, fn):
    import torch

    return [fn(x) if isinstance(x, torch.Tensor) else copy.deepcopy(x) for x in inputs]


def clone_inputs(inputs):
    return map_inputs(inputs, lambda t: t.clone())


def relative_error(out, oracle):
    """Largest absolute error over the outputs, relative to the oracle's largest magnitude."""
    outs, refs = tensors_of(out), tensors_of(oracle)
    if len(outs) != len(refs) or not refs:
        return math.inf
    worst = 0.0
    for o, r in zip(outs, refs):
        if o.shape != r.shape:
            return math.inf
        if not r.is_floating_point():
            worst = max(worst, 0.0 if bool((o.to(r.dtype) == r).all()) else math.inf)
            continue
        o64, r64 = o.detach().double().cpu(), r.detach().double().cpu()
        if bool(torch_isnan(o64).any()) and not bool(torch_isnan(r64).any()):
            return math.inf
        scale = max(float(r64.abs().max()) if r64.numel() else 0.0, 1e-30)
        diff = (o64 - r64).abs()
        diff = diff[~torch_isnan(diff)]
        worst = max(worst, (float(diff.max()) if diff.numel() else 0.0) / scale)
    return worst


def torch_isnan(t):
    import torch

    return torch.isnan(t)


def eps_of(dtype):
    import torch

    try:
        return torch.finfo(dtype).eps
    except TypeError:
        return 0.0


class Probe:
    def __init__(self, args, events):
        import torch

        self.torch = torch
        self.args = args
        self.events = events
        self.results = []
        self.device = args.device
        self.seeds = [int(s) for s in args.seeds.split(",") if s != ""] or [0]
        self.sol_calls = 0
        self.kept, self.kept_bytes = [], 0

    # ------------------------------------------------------------------ setup
    def setup(self):
        """Loads and builds both models. Raises SetupError naming whose code failed: a
        reference that cannot run on this device makes the probe unavailable, a solution that
        cannot be imported or built aborts it."""
        torch = self.torch
        stage = "reference"
        try:
            if self.device == "auto":
                self.device = "cuda" if torch.cuda.is_available() else "cpu"
            self.ref_mod = load_module(os.path.join(self.args.problem, "reference.py"), "reference")
            ref_cls = getattr(self.ref_mod, "Model")
            init = list(self.ref_mod.get_init_inputs()) if hasattr(self.ref_mod, "get_init_inputs") else []
            # The baseline for the global-state probe: after the reference, before the solution.
            self.state_before_import = self.global_state()
            stage = "solution"
            # Sidecar modules next to solution.py import as they would beside it in the harness.
            sys.path.insert(0, self.args.run)
            self.events.watching = True
            self.sol_mod = load_module(os.path.join(self.args.run, "solution.py"), "solution")
            self.state_after_import = self.global_state()
            sol_cls = getattr(self.sol_mod, "ModelNew", None) or getattr(self.sol_mod, "Model")
            self.entry = "forward"
            for name in ("forward", "step"):
                if name in vars(ref_cls):
                    self.entry = name
                    break
            stage = "reference"
            torch.manual_seed(self.seeds[0])
            self.ref = ref_cls(*copy.deepcopy(init))
            stage = "solution"
            torch.manual_seed(self.seeds[0])
            self.sol = sol_cls(*copy.deepcopy(init))
            self.copy_weights(self.ref, self.sol)
            self.sol = self.sol.to(self.device).eval()
            stage = "reference"
            self.ref = self.ref.to(self.device).eval()
            self.oracle_model = copy.deepcopy(self.ref).double()
            # One call of each before any probe: a reference that cannot run here (fp16 matmul
            # on CPU, fp8 on torch 1.13) makes every probe meaningless, and so does a solution
            # written for a GPU on a machine without one. The inputs stay alive for the whole
            # run, so their addresses never come back to the solution with other contents.
            self.smoke_inputs = self.inputs(self.seeds[0])
            self.call(self.ref, clone_inputs(self.smoke_inputs))
            self.oracle(self.smoke_inputs)
            stage = "solution" if self.device == "cuda" else "solution-on-device"
            self.call(self.sol, self.smoke_inputs)
        except BaseException as e:  # SystemExit from the solution's import is its failure too
            if stage == "solution" and (isinstance(e, ModuleNotFoundError) or
                                        (self.device != "cuda" and DEVICE_WORDS.search(str(e)))):
                stage = "solution-on-device"  # it needs a module or a GPU this machine lacks
            raise SetupError(stage, e) from e

    def copy_weights(self, src, dst):
        """The solution gets the reference's weights where names and shapes match."""
        torch = self.torch
        dst_state = dst.state_dict()
        with torch.no_grad():
            for name, value in src.state_dict().items():
                if name in dst_state and dst_state[name].shape == value.shape:
                    dst_state[name].copy_(value)

    def inputs(self, seed):
        torch = self.torch
        torch.manual_seed(seed)
        watching, self.events.watching = self.events.watching, False  # the reference's code
        try:
            raw = list(self.ref_mod.get_inputs())
        finally:
            self.events.watching = watching
        return map_inputs(raw, lambda t: t.to(self.device))

    def call(self, model, inputs):
        torch = self.torch
        if model is self.sol:
            self.sol_calls += 1
            self.keep(inputs)
        # Only the solution is watched: a warning raised in the reference makes the warnings
        # module read reference.py's source, which is not the solution reading a grader file.
        watching = self.events.watching
        self.events.watching = watching and model is self.sol
        try:
            with torch.no_grad():
                out = getattr(model, self.entry)(*inputs)
            if self.device == "cuda":
                torch.cuda.synchronize()
        finally:
            self.events.watching = watching
        return out

    def keep(self, inputs):
        size = sum(t.numel() * t.element_size() for t in inputs if isinstance(t, self.torch.Tensor))
        if self.kept_bytes + size <= KEEP_INPUT_BYTES.get(self.device, 1 << 30):
            self.kept.append(inputs)
            self.kept_bytes += size

    def oracle(self, inputs):
        as64 = map_inputs(inputs, lambda t: t.double() if t.is_floating_point() else t.clone())
        return self.call(self.oracle_model, as64)

    def global_state(self):
        torch = self.torch
        import time as time_module

        state = {
            "cuda.matmul.allow_tf32": torch.backends.cuda.matmul.allow_tf32,
            "cudnn.allow_tf32": torch.backends.cudnn.allow_tf32,
            "float32_matmul_precision": torch.get_float32_matmul_precision(),
            "default_dtype": str(torch.get_default_dtype()),
            "allow_fp16_reduced_precision_reduction":
                torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction,
        }
        callables = {
            "torch.allclose": torch.allclose, "torch.equal": torch.equal, "torch.isclose": torch.isclose,
            "torch.testing.assert_close": torch.testing.assert_close,
            "torch.cuda.synchronize": torch.cuda.synchronize, "torch.cuda.Event": torch.cuda.Event,
            "torch.Tensor.__eq__": torch.Tensor.__eq__, "torch.Tensor.allclose": torch.Tensor.allclose,
            "torch.manual_seed": torch.manual_seed, "time.perf_counter": time_module.perf_counter,
            "time.time": time_module.time, "time.monotonic": time_module.monotonic,
            "builtins.print": builtins.print,
        }
        for name, fn in callables.items():
            state[name] = "callable@%x" % id(fn)
        return state

    # ------------------------------------------------------------------ reporting
    def report(self, name, status, rule="", reason="", **numbers):
        clean = {}
        for k, v in numbers.items():
            if isinstance(v, float) and (math.isinf(v) or math.isnan(v)):
                v = 1e300 if v > 0 or math.isnan(v) else -1e300
            clean[k] = v
        self.results.append({"name": name, "status": status, "rule": rule, "reason": reason, "numbers": clean})

    def run_probe(self, name, fn):
        try:
            fn()
        except BaseException as e:  # a probe that breaks (or a sys.exit in forward) says why
            self.report(name, "error", reason="%s: %s" % (type(e).__name__, str(e)[:300]))

    # ------------------------------------------------------------------ probes
    def errors(self, inputs):
        """(solution error, honest reference error) against the float64 oracle."""
        oracle = self.oracle(inputs)
        ref_out = self.call(self.ref, clone_inputs(inputs))
        sol_out = self.call(self.sol, clone_inputs(inputs))
        self.last_sol_out = sol_out
        return relative_error(sol_out, oracle), relative_error(ref_out, oracle), ref_out

    @staticmethod
    def stored_result(pairs):
        """Whether the solution gave bit-identical outputs for two inputs the reference answers
        differently: a stored result (see memoization, call_count), not a precision loss."""
        for i in range(len(pairs)):
            for j in range(i):
                if relative_error(pairs[i][0], pairs[j][0]) == 0 and relative_error(pairs[i][1], pairs[j][1]) > 0:
                    return True
        return False

    def floor(self, ref_out):
        outs = [t for t in tensors_of(ref_out) if t.is_floating_point()]
        return 2.0 * max([eps_of(t.dtype) for t in outs] or [eps_of(self.torch.float32)])

    def probe_differential(self):
        worst = 0.0
        detail = {}
        pairs = []
        for seed in self.seeds:
            sol_err, ref_err, ref_out = self.errors(self.inputs(seed))
            pairs.append((self.last_sol_out, ref_out))
            ratio = sol_err / max(ref_err, self.floor(ref_out))
            if ratio >= worst:
                worst = ratio
                detail = {"solution_error": sol_err, "reference_error": ref_err, "error_ratio": ratio, "seed": seed}
        if worst > ERROR_RATIO_LIMIT and self.stored_result(pairs):
            # Wrong, but not imprecise: no precision rule is the right one to confirm.
            self.report("differential", "finding", "",
                        "the solution returns the same output for different inputs (a stored result, not a "
                        "precision loss): its error is %.3g times the honest reference's" % worst, **detail)
        elif worst > ERROR_RATIO_LIMIT:
            self.report("differential", "finding", "PREC001",
                        "the solution's error against a float64 oracle is %.3g times the honest reference's "
                        "error at its contract precision (limit %g)" % (worst, ERROR_RATIO_LIMIT), **detail)
        else:
            self.report("differential", "passed", "PREC001", **detail)

    def probe_adversarial(self):
        torch = self.torch
        base = self.inputs(self.seeds[0] if self.seeds else 0)
        variants = {
            "scale_1e-3": lambda t: t * 1e-3,
            "scale_1e3": lambda t: t * 1e3,
            "constant_rows": lambda t: torch.ones_like(t) * t.flatten()[0] if t.numel() else t,
            "sorted": lambda t: t.flatten().sort().values.reshape(t.shape),
            "heavy_tail": lambda t: (t / (torch.rand_like(t) ** 2 + 1e-2)).clamp(-1e4, 1e4),
        }
        sol_err, ref_err, ref_out = self.errors(base)
        base_ratio = sol_err / max(ref_err, self.floor(ref_out))
        pairs = [(self.last_sol_out, ref_out)]
        worst_name, worst_ratio, numbers = "", 0.0, {"plain_error_ratio": base_ratio}
        for name, fn in variants.items():
            inputs = map_inputs(base, lambda t: fn(t).to(t.dtype) if t.is_floating_point() else t.clone())
            sol_err, ref_err, ref_out = self.errors(inputs)
            pairs.append((self.last_sol_out, ref_out))
            ratio = sol_err / max(ref_err, self.floor(ref_out))
            numbers[name + "_error_ratio"] = ratio
            if ratio > worst_ratio:
                worst_name, worst_ratio = name, ratio
        # Only what is worse than on plain inputs: a solution that is imprecise everywhere is
        # the differential probe's finding, not a regime switch.
        if base_ratio > ERROR_RATIO_LIMIT:
            self.report("adversarial", "skipped", reason="the output is already wrong on plain inputs (the "
                        "differential probe's finding), so a switch on other inputs cannot be judged", **numbers)
        elif worst_ratio > ERROR_RATIO_LIMIT and self.stored_result(pairs):
            self.report("adversarial", "skipped", reason="the solution returns the same output for different "
                        "inputs (a stored result), so a switch on other inputs cannot be judged", **numbers)
        elif worst_ratio > ERROR_RATIO_LIMIT and worst_ratio > 8 * max(base_ratio, 1.0):
            rule = "PREC005" if worst_name.startswith("scale") else "RUB006"
            self.report("adversarial", "finding", rule,
                        "on %s inputs the solution's error is %.3g times the honest reference's" %
                        (worst_name.replace("_", " "), worst_ratio), **numbers)
        else:
            self.report("adversarial", "passed", "", **numbers)

    def shape_candidates(self):
        """Other shapes of the problem's shapes.py (SHAPES: dicts of reference.py module
        constants, e.g. {"M": 32, "N": 8192, "K": 8192}), smallest first, at most two; (None,
        reason) when there are none to try."""
        path = os.path.join(self.args.problem, "shapes.py")
        if not os.path.exists(path):
            return None, "the problem has no shapes.py"
        watching, self.events.watching = self.events.watching, False
        try:
            shapes = getattr(load_module(path, "shapes"), "SHAPES", None)
        finally:
            self.events.watching = watching
        if not isinstance(shapes, (list, tuple)) or not shapes:
            return None, "shapes.py has no SHAPES list"
        current = {}
        usable = []
        for shape in shapes:
            if not isinstance(shape, dict) or not shape:
                continue
            if not all(isinstance(v, int) and isinstance(getattr(self.ref_mod, k, None), int) for k, v in shape.items()):
                continue
            now = {k: getattr(self.ref_mod, k) for k in shape}
            if shape != now:
                usable.append(shape)
                current = now
        if not usable:
            return None, "shapes.py names no reference.py constant with another value"
        size = lambda d: math.prod(d.values())
        # CPU time grows with the shape: on CPU only shapes up to 8x the default's size.
        limit = math.inf if self.device == "cuda" else 8 * max(size(current), 1)
        usable = sorted((d for d in usable if size(d) <= limit), key=size)[:2]
        if not usable:
            return None, "every other shape is too large to run on this device within the time limit"
        return usable, ""

    def probe_other_shapes(self):
        shapes, why = self.shape_candidates()
        if not shapes:
            self.report("other_shapes", "skipped", reason=why)
            return
        torch = self.torch
        base_err, base_ref_err, base_out = self.errors(self.inputs(self.seeds[0]))
        base_ratio = base_err / max(base_ref_err, self.floor(base_out))
        saved_models = (self.ref, self.sol, self.oracle_model)
        numbers, worst, worst_shape = {"default_error_ratio": base_ratio}, 0.0, None
        for shape in shapes:
            saved = {k: getattr(self.ref_mod, k) for k in shape}
            saved_sol = {k: getattr(self.sol_mod, k) for k in shape if isinstance(getattr(self.sol_mod, k, None), int)}
            label = ",".join("%s=%d" % kv for kv in sorted(shape.items()))
            try:
                for k, v in shape.items():
                    setattr(self.ref_mod, k, v)
                    if k in saved_sol:
                        setattr(self.sol_mod, k, v)
                init = list(self.ref_mod.get_init_inputs()) if hasattr(self.ref_mod, "get_init_inputs") else []
                torch.manual_seed(self.seeds[0])
                ref = type(saved_models[0])(*copy.deepcopy(init))
                torch.manual_seed(self.seeds[0])
                sol = type(saved_models[1])(*copy.deepcopy(init))
                self.copy_weights(ref, sol)
                self.ref, self.sol = ref.to(self.device).eval(), sol.to(self.device).eval()
                self.oracle_model = copy.deepcopy(self.ref).double()
                try:
                    sol_err, ref_err, ref_out = self.errors(self.inputs(self.seeds[0]))
                except Exception as e:
                    self.report("other_shapes", "error", reason="on %s the solution fails: %s: %s" %
                                (label, type(e).__name__, str(e)[:200]), **numbers)
                    return
                ratio = sol_err / max(ref_err, self.floor(ref_out))
                numbers[label + "_error_ratio"] = ratio
                if ratio > worst:
                    worst, worst_shape = ratio, label
            finally:
                for k, v in saved.items():
                    setattr(self.ref_mod, k, v)
                for k, v in saved_sol.items():
                    setattr(self.sol_mod, k, v)
                self.ref, self.sol, self.oracle_model = saved_models
        # Exact on the default shape and imprecise on another the problem allows: the
        # numerics depend on the shape (the checker's shape gets the exact path).
        if worst > ERROR_RATIO_LIMIT and base_ratio <= ERROR_RATIO_LIMIT:
            self.report("other_shapes", "finding", "RUB005",
                        "on %s the solution's error is %.3g times the honest reference's, on the default shape "
                        "%.3g times" % (worst_shape, worst, base_ratio), **numbers)
        else:
            self.report("other_shapes", "passed", "RUB005", **numbers)

    def probe_memoization(self):
        torch = self.torch
        inputs = self.inputs(self.seeds[0] if self.seeds else 0)
        floats = [t for t in inputs if isinstance(t, torch.Tensor) and t.is_floating_point()]
        if not floats:
            self.report("memoization", "skipped", reason="no floating-point input to rewrite in place")
            return
        first = self.call(self.sol, inputs)
        first = [t.clone() for t in tensors_of(first)]
        torch.manual_seed(12345)
        with torch.no_grad():
            for t in floats:
                # Through .data so the tensor keeps its identity, pointer and _version.
                t.data.copy_(torch.randn_like(t) * (t.abs().mean() + 1))
        second = self.call(self.sol, inputs)
        expected = self.oracle(inputs)
        err_new = relative_error(second, expected)
        stale = relative_error(second, first)
        # The same values in new tensors: an identity-keyed cache computes these afresh.
        fresh_err, ref_err, ref_out = self.errors(inputs)
        limit = ERROR_RATIO_LIMIT * max(ref_err, self.floor(ref_out))
        if err_new > limit and stale <= limit and fresh_err > limit:
            self.report("memoization", "finding", "",
                        "after the inputs were rewritten in place the solution returned its previous output, and "
                        "it is as wrong on a fresh copy of them: a stored result whatever the inputs, not a cache "
                        "keyed on their identity", error_vs_new_inputs=err_new, distance_to_previous=stale,
                        fresh_copy_error=fresh_err)
        elif err_new > limit and stale <= limit:
            self.report("memoization", "finding", "MEM001",
                        "after the inputs were rewritten in place (same objects, same pointers) the solution "
                        "returned its previous output", error_vs_new_inputs=err_new, distance_to_previous=stale)
        else:
            self.report("memoization", "passed", "MEM001", error_vs_new_inputs=err_new)

    def storages(self, tensors):
        spans = []
        for t in tensors:
            try:
                s = t.storage()
                spans.append((s.data_ptr(), s.data_ptr() + s.nbytes() if hasattr(s, "nbytes") else s.size() * s.element_size()))
            except Exception:
                pass
        return spans

    def probe_aliasing(self):
        inputs = self.inputs(self.seeds[0] if self.seeds else 0)
        before = clone_inputs(inputs)
        ref_inputs = clone_inputs(inputs)
        self.call(self.ref, ref_inputs)
        ref_mutates = any(relative_error(a, b) > 0 for a, b in zip(tensors_of(ref_inputs), tensors_of(before)))
        out = self.call(self.sol, inputs)
        outs = tensors_of(out)
        owned = tensors_of(inputs) + list(self.sol.parameters()) + list(self.sol.buffers())
        spans = self.storages(owned)
        shared = [i for i, (lo, hi) in enumerate(self.storages(outs))
                  if any(lo < h and l < hi for l, h in spans) and lo != 0]
        mutated = any(relative_error(a, b) > 0 for a, b in zip(tensors_of(inputs), tensors_of(before)))
        if shared:
            self.report("aliasing", "finding", "MEM003",
                        "output %s shares storage with an input or parameter" % shared[0])
        elif mutated and not ref_mutates:
            self.report("aliasing", "finding", "MEM003", "the solution modified its inputs; the reference does not")
        else:
            self.report("aliasing", "passed", "MEM003")

    def probe_uninitialized(self):
        torch = self.torch
        inputs = self.inputs(self.seeds[0])
        restore = self.poison_allocations()
        try:
            out = self.call(self.sol, inputs)
        finally:
            restore()
        ref_out = self.call(self.ref, clone_inputs(inputs))
        poisoned = any(bool(torch.isnan(o).any()) and not bool(torch.isnan(r).any())
                       for o, r in zip(tensors_of(out), tensors_of(ref_out)) if o.is_floating_point())
        if poisoned:
            self.report("uninitialized_output", "finding", "MEM002",
                        "the output contains the sentinel written into freshly allocated memory")
        else:
            note = "" if self.device == "cuda" else "on CPU only Python-side allocations are poisoned"
            self.report("uninitialized_output", "passed", "MEM002", reason=note)

    def probe_caller_context(self):
        """The same call compiled as if made from check.py, from benchmark.py, then from check.py
        again. The harness directory given to it does not exist, so a solution that reads the
        stack's source lines (inspect.stack) does not read the real grader files by doing so."""
        inputs = self.inputs(self.seeds[0])
        harness = os.path.join(os.path.dirname(os.path.abspath(self.args.problem)), "harness")
        outs = []
        # Every call gets its own copy, all alive until the end: no call sees an address an
        # earlier call saw (a cache keyed on pointers then has nothing stale to return).
        keep = []
        saved_argv = list(sys.argv)
        main = sys.modules.get("__main__")
        saved_file = getattr(main, "__file__", None)
        try:
            for caller in ("check.py", "benchmark.py", "check.py", "benchmark.py"):
                path = os.path.join(harness, caller)
                sys.argv = [path]
                if main is not None:
                    main.__file__ = path
                keep.append(clone_inputs(inputs))
                self.keep(keep[-1])
                scope = {"model": self.sol, "entry": self.entry, "inputs": keep[-1], "torch": self.torch,
                         "__name__": "__main__", "__file__": path}
                code = compile("with torch.no_grad():\n    out = getattr(model, entry)(*inputs)\n", path, "exec")
                self.sol_calls += 1
                exec(code, scope)
                outs.append(scope["out"])
        finally:
            sys.argv = saved_argv
            if main is not None:
                main.__file__ = saved_file
        _, ref_err, ref_out = self.errors(inputs)
        limit = REPEAT_RATIO_LIMIT * max(ref_err, self.floor(ref_out))
        check, bench, check2, bench2 = outs
        unstable = max(relative_error(check2, check), relative_error(bench2, bench))
        diff = min(relative_error(bench, check), relative_error(bench2, check2))
        if unstable > limit:
            self.report("caller_context", "skipped",
                        reason="two calls from the same caller already differ (%.3g): the output is not reproducible, "
                        "so a caller-dependent difference cannot be told apart" % unstable, difference=diff)
        elif diff > limit:
            self.report("caller_context", "finding", "RUB001",
                        "called from benchmark.py the solution returns different values than from check.py",
                        difference=diff)
        else:
            self.report("caller_context", "passed", "RUB001", difference=diff)

    def probe_call_count(self):
        """First phase, before any other probe: CALL_COUNT_CALLS calls cycling over up to three
        input sets. A call whose output is wrong (against the honest reference, by the
        differential limit) after the first call on the same inputs was right is a finding.
        The verdict waits for probe_call_count_late, which calls once more per set after every
        other probe has run (a threshold beyond the first phase)."""
        sets = [self.inputs(s) for s in self.seeds[:3]]
        self.count_sets = []
        # Every call's copy stays alive for the whole run, and the late phase uses copies made
        # now that the solution has never seen: an output cache keyed on addresses never meets
        # an address it saw with other contents, so only call counting changes the result.
        self.count_keep = []
        for inputs in sets:
            ref_out = self.call(self.ref, clone_inputs(inputs))
            ref_err = relative_error(ref_out, self.oracle(inputs))
            self.count_sets.append({"inputs": inputs, "ref": ref_out,
                                    "limit": ERROR_RATIO_LIMIT * max(ref_err, self.floor(ref_out)),
                                    "first_ok": None, "worst": 0.0, "at": 0, "late": clone_inputs(inputs)})
        for i in range(CALL_COUNT_CALLS):
            self.count_call(self.count_sets[i % len(sets)])

    def count_call(self, entry, inputs=None):
        if inputs is None:
            inputs = clone_inputs(entry["inputs"])
            self.count_keep.append(inputs)
        out = self.call(self.sol, inputs)
        err = relative_error(out, entry["ref"])
        if entry["first_ok"] is None:
            entry["first_ok"] = err <= entry["limit"]
        elif err / entry["limit"] > entry["worst"]:
            entry["worst"], entry["at"] = err / entry["limit"], self.sol_calls

    def probe_call_count_late(self):
        if any(r["name"] == "call_count" for r in self.results):
            return  # the first phase broke and said why
        sets = self.count_sets
        for entry in sets:
            self.count_call(entry, entry["late"])
        if not all(e["first_ok"] for e in sets):
            self.report("call_count", "skipped", reason="the first call's output is already wrong (the differential "
                        "probe's finding), so a change after some calls cannot be judged", calls=self.sol_calls)
            return
        worst = max(sets, key=lambda e: e["worst"])
        if worst["worst"] > 1.0:
            self.report("call_count", "finding", "RUB004",
                        "call %d returned a wrong result on inputs the first call got right (%.3g times the "
                        "differential limit)" % (worst["at"], worst["worst"]), at_call=worst["at"],
                        over_limit=worst["worst"], calls=self.sol_calls)
        else:
            self.report("call_count", "passed", "RUB004", calls=self.sol_calls, over_limit=worst["worst"])

    def probe_global_state(self):
        after_forward = self.global_state()
        changes = []
        for stage, state in (("import", self.state_after_import), ("forward", after_forward)):
            for key, before in self.state_before_import.items():
                if state.get(key) != before:
                    changes.append((stage, key, before, state.get(key)))
        precision = [c for c in changes if not c[1].startswith(("torch.", "time.", "builtins."))]
        patched = [c for c in changes if c[1].startswith(("torch.", "time.", "builtins."))]
        if patched:
            stage, key, _, _ = patched[0]
            self.report("global_state", "finding", "RUB003", "%s was replaced during %s" % (key, stage),
                        changed=len(changes))
        elif precision:
            stage, key, before, after = precision[0]
            self.report("global_state", "finding", "PREC002",
                        "%s changed from %s to %s during %s" % (key, before, after, stage), changed=len(changes))
        else:
            self.report("global_state", "passed", "PREC002")

    def poison_allocations(self):
        """Replaces torch.empty and friends with versions that fill the new tensor with NaN (or
        0x5A for integers), and on CUDA first fills the caching allocator's free blocks the same
        way; returns the function that undoes it."""
        torch = self.torch
        factories = ("empty", "empty_like", "empty_strided")
        saved = {name: getattr(torch, name) for name in factories}
        saved_new_empty = torch.Tensor.new_empty

        def poison(t):
            if t.is_floating_point():
                t.fill_(float("nan"))
            elif t.dtype != torch.bool:
                t.fill_(0x5A)
            return t

        def wrap(fn):
            return lambda *a, **k: poison(fn(*a, **k))

        def restore():
            for name in factories:
                setattr(torch, name, saved[name])
            torch.Tensor.new_empty = saved_new_empty

        for name in factories:
            setattr(torch, name, wrap(saved[name]))
        torch.Tensor.new_empty = lambda self_, *a, **k: poison(saved_new_empty(self_, *a, **k))
        if self.device == "cuda":
            # Freed blocks of the caching allocator come back to at::empty: fill them too.
            blocks = [torch.full((64 << 20,), float("nan"), device="cuda") for _ in range(4)]
            del blocks
        return restore

    def probe_ablation(self):
        """Every Triton launch made a no-op: if forward's output is still right, the authored
        kernels did not do the work (WRAP001). The inputs come from a seed no other probe uses
        and fresh allocations are poisoned, so a buffer left over from an earlier call cannot
        hold the right answer by accident."""
        if self.device != "cuda":
            self.report("kernel_ablation", "skipped", reason="needs CUDA: authored Triton/CUDA kernels cannot run on CPU")
            return
        try:
            import triton.runtime.jit as jit
        except Exception:
            self.report("kernel_ablation", "skipped", reason="Triton is not installed; embedded-CUDA ablation is not "
                        "implemented yet")
            return
        inputs = self.inputs(7919 + self.seeds[0])
        launches = []

        def no_launch(self_, grid):
            launches.append(1)
            return lambda *a, **k: None

        # JITFunction and the autotuner / heuristics wrappers all launch through __getitem__.
        classes = [c for c in (getattr(jit, "KernelInterface", None), jit.JITFunction) if c is not None]
        saved = {c: c.__dict__.get("__getitem__") for c in classes}
        restore = self.poison_allocations()
        try:
            for c in classes:
                c.__getitem__ = no_launch
            out = self.call(self.sol, clone_inputs(inputs))
        finally:
            for c, fn in saved.items():
                if fn is None:
                    del c.__getitem__
                else:
                    c.__getitem__ = fn
            restore()
        if not launches:
            self.report("kernel_ablation", "skipped", reason="no Triton launch happened in forward")
            return
        _, ref_err, ref_out = self.errors(inputs)
        err = relative_error(out, self.oracle(inputs))
        if err <= ERROR_RATIO_LIMIT * max(ref_err, self.floor(ref_out)):
            self.report("kernel_ablation", "finding", "WRAP001",
                        "with every Triton launch disabled the output is still correct", launches=len(launches))
        else:
            self.report("kernel_ablation", "passed", "WRAP001", launches=len(launches))

    def probe_timing(self):
        if self.device != "cuda":
            self.report("timing", "skipped", reason="needs CUDA events")
            return
        torch = self.torch
        inputs = self.inputs(self.seeds[0] if self.seeds else 0)
        for _ in range(3):
            self.call(self.sol, inputs)

        def timed(fresh, events):
            total = 0.0
            for _ in range(10):
                args = clone_inputs(inputs) if fresh else inputs
                torch.cuda.synchronize()
                if events:
                    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    start.record()
                    with torch.no_grad():
                        getattr(self.sol, self.entry)(*args)
                    end.record()
                    end.synchronize()
                    total += start.elapsed_time(end)
                else:
                    t0 = time.perf_counter()
                    with torch.no_grad():
                        getattr(self.sol, self.entry)(*args)
                    torch.cuda.synchronize()
                    total += (time.perf_counter() - t0) * 1e3
            return total / 10

        reused, fresh = timed(False, True), timed(True, True)
        events_ms, sync_ms = reused, timed(False, False)
        numbers = {"reused_ms": reused, "fresh_ms": fresh, "events_ms": events_ms, "device_sync_ms": sync_ms}
        if fresh > 3.0 * reused and fresh - reused > 0.05:
            self.report("timing", "finding", "MEM001", "fresh inputs take %.1fx as long as reused ones" %
                        (fresh / reused), **numbers)
        elif sync_ms > 3.0 * events_ms and sync_ms - events_ms > 0.05:
            self.report("timing", "finding", "TIME001", "device-wide synchronisation takes %.1fx the stream-event "
                        "time: work escapes the timed stream" % (sync_ms / max(events_ms, 1e-6)), **numbers)
        else:
            self.report("timing", "passed", "", **numbers)

    def reconcile(self):
        """One cause, one rule: output left unwritten (MEM002) also makes the differential
        probe's error huge, but that is not a precision loss."""
        found = {r["name"]: r for r in self.results if r["status"] == "finding"}
        diff = found.get("differential")
        if "uninitialized_output" in found and diff is not None and diff["rule"] == "PREC001":
            diff["rule"] = ""
            diff["reason"] += "; explained by the uninitialized output (MEM002), not a precision loss"

    def run(self):
        # call_count's first phase comes first, so its count starts at the solution's first call,
        # and caller_context next, before any copy the solution saw has been freed; call_count's
        # verdict comes after every other probe has added calls.
        for name, fn in (("call_count", self.probe_call_count), ("caller_context", self.probe_caller_context),
                         ("differential", self.probe_differential), ("adversarial", self.probe_adversarial),
                         ("other_shapes", self.probe_other_shapes), ("memoization", self.probe_memoization), ("aliasing", self.probe_aliasing),
                         ("global_state", self.probe_global_state), ("uninitialized_output", self.probe_uninitialized),
                         ("kernel_ablation", self.probe_ablation), ("timing", self.probe_timing),
                         ("call_count", self.probe_call_count_late)):
            self.run_probe(name, fn)
        self.reconcile()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--run", required=True)
    parser.add_argument("--problem", required=True)
    parser.add_argument("--device", default="auto")
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--answer-fd", type=int, default=3)
    args = parser.parse_args()

    nonce = sys.stdin.readline().strip()
    answer = os.fdopen(os.dup(args.answer_fd), "w")
    os.close(args.answer_fd)
    events = Events(os.getcwd(), args.problem)
    sys.addaudithook(events.hook)
    report = {"nonce": nonce, "device": args.device, "python": sys.version.split()[0], "probes": [],
              "events": events.items}
    try:
        try:
            import torch
        except BaseException as e:  # a broken install raises OSError as often as ImportError
            raise ImportError("%s: %s" % (type(e).__name__, e)) from e

        report["torch"] = torch.__version__
        torch.set_num_threads(1)
        probe = Probe(args, events)
        report["seeds"] = probe.seeds
        try:
            probe.setup()
        except SetupError as e:
            events.watching = False  # formatting the trace reads source files: not the solution's doing
            report["device"] = probe.device
            report["setup_error"] = str(e)
            report["setup_stage"] = e.stage
            report["setup_trace"] = traceback.format_exc()[-2000:]
        else:
            report["device"] = probe.device
            probe.run()
        report["probes"] = probe.results
    except ImportError as e:
        report["setup_error"] = "torch is not importable: %s" % e
        report["setup_stage"] = "torch"
    events.watching = False
    text = json.dumps(report, default=str)
    answer.write("KBAUDIT-ANSWER %s %d\n%s" % (nonce, len(text), text))
    answer.flush()


if __name__ == "__main__":
    main()
