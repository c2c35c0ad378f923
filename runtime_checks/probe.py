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


class Events:
    """What the solution did to the outside world, from a Python audit hook."""

    def __init__(self, root):
        self.root = os.path.realpath(root)
        self.items = []
        self.watching = False

    def add(self, kind, detail):
        if self.watching and len(self.items) < MAX_EVENTS:
            self.items.append({"kind": kind, "detail": str(detail)[:300]})

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
                elif writing and not full.startswith(self.root + os.sep):
                    self.add("write-outside", path)
            elif event in ("os.remove", "os.unlink", "os.rmdir", "shutil.rmtree", "os.rename"):
                self.add("delete", "%s %r" % (event, args[:2]))
            elif event in ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork"):
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
        self.seeds = [int(s) for s in args.seeds.split(",") if s != ""]

    # ------------------------------------------------------------------ setup
    def setup(self):
        torch = self.torch
        if self.device == "auto":
            self.device = "cuda" if torch.cuda.is_available() else "cpu"
        self.state_before_import = self.global_state()
        self.ref_mod = load_module(os.path.join(self.args.problem, "reference.py"), "reference")
        self.events.watching = True
        self.sol_mod = load_module(os.path.join(self.args.run, "solution.py"), "solution")
        self.state_after_import = self.global_state()
        ref_cls = getattr(self.ref_mod, "Model")
        sol_cls = getattr(self.sol_mod, "ModelNew", None) or getattr(self.sol_mod, "Model")
        self.entry = "forward"
        for name in ("forward", "step"):
            if name in vars(ref_cls):
                self.entry = name
                break
        init = list(self.ref_mod.get_init_inputs()) if hasattr(self.ref_mod, "get_init_inputs") else []
        torch.manual_seed(self.seeds[0] if self.seeds else 0)
        self.ref = ref_cls(*copy.deepcopy(init))
        torch.manual_seed(self.seeds[0] if self.seeds else 0)
        self.sol = sol_cls(*copy.deepcopy(init))
        self.copy_weights(self.ref, self.sol)
        self.ref = self.ref.to(self.device).eval()
        self.sol = self.sol.to(self.device).eval()
        self.oracle_model = copy.deepcopy(self.ref).double()

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
        raw = list(self.ref_mod.get_inputs())
        return map_inputs(raw, lambda t: t.to(self.device))

    def call(self, model, inputs):
        torch = self.torch
        with torch.no_grad():
            out = getattr(model, self.entry)(*inputs)
        if self.device == "cuda":
            torch.cuda.synchronize()
        return out

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
        except Exception as e:  # a probe that breaks reports why instead of ending the run
            self.report(name, "error", reason="%s: %s" % (type(e).__name__, str(e)[:300]))

    # ------------------------------------------------------------------ probes
    def errors(self, inputs):
        """(solution error, honest reference error) against the float64 oracle."""
        oracle = self.oracle(inputs)
        ref_out = self.call(self.ref, clone_inputs(inputs))
        sol_out = self.call(self.sol, clone_inputs(inputs))
        return relative_error(sol_out, oracle), relative_error(ref_out, oracle), ref_out

    def floor(self, ref_out):
        outs = [t for t in tensors_of(ref_out) if t.is_floating_point()]
        return 2.0 * max([eps_of(t.dtype) for t in outs] or [eps_of(self.torch.float32)])

    def probe_differential(self):
        worst = 0.0
        detail = {}
        for seed in self.seeds:
            sol_err, ref_err, ref_out = self.errors(self.inputs(seed))
            ratio = sol_err / max(ref_err, self.floor(ref_out))
            if ratio >= worst:
                worst = ratio
                detail = {"solution_error": sol_err, "reference_error": ref_err, "error_ratio": ratio, "seed": seed}
        if worst > ERROR_RATIO_LIMIT:
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
        worst_name, worst_ratio, numbers = "", 0.0, {"plain_error_ratio": base_ratio}
        for name, fn in variants.items():
            inputs = map_inputs(base, lambda t: fn(t).to(t.dtype) if t.is_floating_point() else t.clone())
            sol_err, ref_err, ref_out = self.errors(inputs)
            ratio = sol_err / max(ref_err, self.floor(ref_out))
            numbers[name + "_error_ratio"] = ratio
            if ratio > worst_ratio:
                worst_name, worst_ratio = name, ratio
        # Only what is worse than on plain inputs: a solution that is imprecise everywhere is
        # the differential probe's finding, not a regime switch.
        if worst_ratio > ERROR_RATIO_LIMIT and worst_ratio > 8 * max(base_ratio, 1.0):
            rule = "PREC005" if worst_name.startswith("scale") else "RUB006"
            self.report("adversarial", "finding", rule,
                        "on %s inputs the solution's error is %.3g times the honest reference's" %
                        (worst_name.replace("_", " "), worst_ratio), **numbers)
        else:
            self.report("adversarial", "passed", "", **numbers)
        self.report("other_shapes", "skipped", reason="shapes.py sweeps are graded by the benchmark; kbaudit "
                    "does not yet map them to get_inputs arguments")

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
        _, ref_err, ref_out = self.errors(inputs)
        limit = ERROR_RATIO_LIMIT * max(ref_err, self.floor(ref_out))
        if err_new > limit and stale <= limit:
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

        inputs = self.inputs(self.seeds[0] if self.seeds else 0)
        try:
            for name in factories:
                setattr(torch, name, wrap(saved[name]))
            torch.Tensor.new_empty = lambda self_, *a, **k: poison(saved_new_empty(self_, *a, **k))
            if self.device == "cuda":
                # Freed blocks of the caching allocator come back to at::empty: fill them too.
                blocks = [torch.full((64 << 20,), float("nan"), device="cuda") for _ in range(4)]
                del blocks
            out = self.call(self.sol, inputs)
        finally:
            for name in factories:
                setattr(torch, name, saved[name])
            torch.Tensor.new_empty = saved_new_empty
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
        inputs = self.inputs(self.seeds[0] if self.seeds else 0)
        outs = {}
        saved_argv = list(sys.argv)
        main = sys.modules.get("__main__")
        saved_file = getattr(main, "__file__", None)
        try:
            for caller in ("check.py", "benchmark.py"):
                path = os.path.join(self.args.problem, caller)
                sys.argv = [path]
                if main is not None:
                    main.__file__ = path
                scope = {"model": self.sol, "entry": self.entry, "inputs": clone_inputs(inputs), "torch": self.torch,
                         "__name__": "__main__", "__file__": path}
                code = compile("with torch.no_grad():\n    out = getattr(model, entry)(*inputs)\n", path, "exec")
                exec(code, scope)
                outs[caller] = scope["out"]
        finally:
            sys.argv = saved_argv
            if main is not None:
                main.__file__ = saved_file
        _, ref_err, ref_out = self.errors(inputs)
        diff = relative_error(outs["benchmark.py"], outs["check.py"])
        limit = REPEAT_RATIO_LIMIT * max(ref_err, self.floor(ref_out))
        if diff > limit:
            self.report("caller_context", "finding", "RUB001",
                        "called from benchmark.py the solution returns different values than from check.py",
                        difference=diff)
        else:
            self.report("caller_context", "passed", "RUB001", difference=diff)

    def probe_call_count(self):
        inputs = self.inputs(self.seeds[0] if self.seeds else 0)
        outs = [self.call(self.sol, clone_inputs(inputs)) for _ in range(12)]
        _, ref_err, ref_out = self.errors(inputs)
        worst, at = 0.0, 0
        for i, o in enumerate(outs[1:], start=2):
            d = relative_error(o, outs[0])
            if d > worst:
                worst, at = d, i
        limit = REPEAT_RATIO_LIMIT * max(ref_err, self.floor(ref_out))
        if worst > limit:
            self.report("call_count", "finding", "RUB004",
                        "call %d on the same inputs returned different values than call 1" % at, difference=worst)
        else:
            self.report("call_count", "passed", "RUB004", difference=worst, calls=len(outs))

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

    def probe_ablation(self):
        if self.device != "cuda":
            self.report("kernel_ablation", "skipped", reason="needs CUDA: authored Triton/CUDA kernels cannot run on CPU")
            return
        try:
            import triton.runtime.jit as jit
        except Exception:
            self.report("kernel_ablation", "skipped", reason="Triton is not installed; embedded-CUDA ablation is not "
                        "implemented yet")
            return
        inputs = self.inputs(self.seeds[0] if self.seeds else 0)
        saved = jit.JITFunction.__getitem__
        launches = []

        def no_launch(self_, grid):
            launches.append(1)
            return lambda *a, **k: None

        try:
            jit.JITFunction.__getitem__ = no_launch
            out = self.call(self.sol, inputs)
        finally:
            jit.JITFunction.__getitem__ = saved
        if not launches:
            self.report("kernel_ablation", "skipped", reason="no Triton launch happened in forward")
            return
        sol_err, ref_err, ref_out = self.errors(inputs)
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

    def run(self):
        for name, fn in (("differential", self.probe_differential), ("adversarial", self.probe_adversarial),
                         ("memoization", self.probe_memoization), ("aliasing", self.probe_aliasing),
                         ("caller_context", self.probe_caller_context), ("call_count", self.probe_call_count),
                         ("global_state", self.probe_global_state), ("uninitialized_output", self.probe_uninitialized),
                         ("kernel_ablation", self.probe_ablation), ("timing", self.probe_timing)):
            self.run_probe(name, fn)


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
    events = Events(os.getcwd())
    sys.addaudithook(events.hook)
    report = {"nonce": nonce, "device": args.device, "python": sys.version.split()[0], "probes": [],
              "events": events.items}
    try:
        import torch

        report["torch"] = torch.__version__
        torch.set_num_threads(1)
        probe = Probe(args, events)
        report["seeds"] = probe.seeds
        try:
            probe.setup()
        except Exception as e:
            report["device"] = probe.device
            report["setup_error"] = "%s: %s" % (type(e).__name__, str(e)[:400])
            report["setup_trace"] = traceback.format_exc()[-2000:]
        else:
            report["device"] = probe.device
            probe.run()
        report["probes"] = probe.results
    except ImportError as e:
        report["setup_error"] = "torch is not importable: %s" % e
    events.watching = False
    text = json.dumps(report)
    answer.write("KBAUDIT-ANSWER %s %d\n%s" % (nonce, len(text), text))
    answer.flush()


if __name__ == "__main__":
    main()
