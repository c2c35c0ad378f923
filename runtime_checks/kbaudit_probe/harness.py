"""Loading the reference and the solution, calling them, and reporting probe results."""
import builtins
import copy
import importlib.util
import math
import os
import re
import sys
import time

from . import protocol, sizing
from .cpu_mapping import NeedsCuda
from .numerics import FP32_ORACLE_EPS, clone_inputs, floor_of, map_inputs, relative_error
from .state_watch import StateWatch
from .witness import NoWriter

# Every input the solution is called with is kept alive (up to this many bytes), so no address it
# saw comes back to it with other contents: an output cache keyed on pointers then shows up in
# the memoization probe (which rewrites inputs in place) and not as wrong values in the others.
KEEP_INPUT_BYTES = {"cpu": 1 << 30, "cuda": 4 << 30}

# A solution that fails to load with one of these in the error, on a machine without CUDA, was
# written for a GPU: the probe is unavailable here rather than the solution broken.
DEVICE_WORDS = re.compile(r"cuda|nvcc|triton|nvidia|\bgpu\b|cudnn|cublas|interpret", re.IGNORECASE)

INTERPRETER_DEVICE = "cpu (triton interpreter)"
CUDA_RUNNER_DEVICE = "cpu (cuda runner)"

# A failure that says the machine's memory, not the code, is what ran out.
OUT_OF_MEMORY = re.compile(r"can't allocate memory|Cannot allocate memory|MemoryError|out of memory", re.IGNORECASE)

# Integer parameters and buffers at least this large are shared by the oracle's copy of the
# reference (make_oracle); smaller ones (a step counter) are copied.
SHARED_BYTES = 1 << 20


class SetupError(Exception):
    """Loading failed; `stage` says whose fault: reference (the probe cannot run here) or solution."""

    def __init__(self, stage, error):
        if isinstance(error, OutOfTime):
            super().__init__("%s did not finish within the probe's time budget" % (
                "its import or first calls" if stage == "solution" else "building the models and their first calls on this machine"))
        elif isinstance(error, NeedsCuda):
            super().__init__(str(error))  # already says what and why
        else:
            super().__init__("%s: %s" % (type(error).__name__, str(error)[:400]))
        self.stage = stage


class OutOfTime(BaseException):
    """The probe's own time budget is spent (raised by a timer inside whatever call is running);
    a BaseException so that a solution's `except Exception` does not swallow it."""


def arm_deadline(seconds):
    """Raises OutOfTime in the main thread after `seconds` (0: never), so a call that runs past
    the budget ends with an answer instead of being killed by the sandbox. Returns whether it
    armed the timer."""
    import signal

    def expire(signum, frame):
        raise OutOfTime()

    if seconds > 0 and hasattr(signal, "setitimer"):
        signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        return True
    return False


def disarm_deadline():
    import signal

    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_REAL, 0)


def mode_dependent(torch, model):
    """The first submodule of `model` whose output depends on train/eval mode ("BatchNorm2d"),
    or "" when none does."""
    nn = torch.nn
    for module in model.modules():
        if isinstance(module, nn.modules.batchnorm._BatchNorm) or (
                isinstance(module, nn.modules.instancenorm._InstanceNorm) and module.track_running_stats):
            return type(module).__name__
        if isinstance(module, nn.modules.dropout._DropoutNd) and module.p > 0:
            return "%s(p=%g)" % (type(module).__name__, module.p)
    return ""


def load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class Harness:
    def __init__(self, args, events, mapping=None):
        import torch

        self.torch = torch
        self.args = args
        self.events = events
        self.mapping = mapping
        self.results = []
        self.device = args.device
        self.seeds = [int(s) for s in args.seeds.split(",") if s != ""] or [0]
        if mapping is not None and len(self.seeds) > 2:
            # Interpreted calls are slow: two seeds still tell a stored result from a computed one.
            self.seeds = self.seeds[:2]
        self.sol_calls = 0
        self.kept, self.kept_bytes = [], 0
        self.started = time.monotonic()
        self.deadline = self.started + args.budget if args.budget > 0 else math.inf
        self.shape_label = "default"
        self.notes = []
        # The reference's (and the solution's same-named) constants before any shape changed them.
        self.default_constants = {}
        # Process state compared around the solution's code (state_watch.py); whether the SIGALRM
        # deadline is armed (its handler and timer are the probe's, put back when changed).
        self.watch = StateWatch(events, self)
        self.deadline_armed = False
        # The solution's outputs for the judge (witness.py); set by cli.main when kbaudit passed
        # a descriptor for them.
        self.witness = NoWriter()
        self.shape = {}
        # (step, seconds) of building and first calls, and the step running now: where the time
        # went when the budget runs out before any probe.
        self.setup_steps = []
        self.setup_step = None

    @property
    def interpreted(self):
        return self.mapping is not None

    @property
    def triton_interpreted(self):
        """Whether at least one Triton kernel actually ran under the interpreter."""
        return self.mapping is not None and self.mapping.triton and self.mapping.launches > 0

    def device_label(self):
        if self.triton_interpreted:
            return INTERPRETER_DEVICE
        if self.mapping is not None and self.mapping.cuda_extensions:
            return CUDA_RUNNER_DEVICE  # CUDA C++ kernels ran on the CPU runner (cuda_cpu.py)
        return self.device

    def where(self):
        """Where the calls ran, for a reason: the interpreter only when it ran a kernel."""
        return " under the Triton interpreter" if self.triton_interpreted else " on CPU" if self.interpreted else ""

    def raise_if_refused(self):
        """CUDA code the CPU mapping refused, even where the solution caught the refusal and
        went on (a fallback that is not the code a GPU runs): the run is unavailable here."""
        if self.mapping is not None and self.mapping.refused:
            raise NeedsCuda(self.mapping.refused)

    def timed(self, step):
        """`with self.timed("the reference's construction"):` records how long a setup step took."""
        harness = self

        class Step:
            def __enter__(self):
                harness.setup_step = (step, time.monotonic())
                return self

            def __exit__(self, *exc):
                name, start = harness.setup_step
                if exc[0] is None:
                    harness.setup_steps.append((name, time.monotonic() - start))
                    harness.setup_step = None
                return False

        return Step()

    def where_time_went(self):
        """'the reference's construction 41 s, ...; the solution's first call still running after 60 s'."""
        parts = ["%s %.0f s" % (name, seconds) for name, seconds in self.setup_steps]
        if self.setup_step is not None:
            parts.append("%s still running after %.0f s" % (self.setup_step[0], time.monotonic() - self.setup_step[1]))
        return "; ".join(parts)

    def time_left(self):
        return self.deadline - time.monotonic()

    # ------------------------------------------------------------------ setup
    def setup(self):
        """Loads both modules, then builds and smoke-tests the models at the first shape of the
        plan that works. Raises SetupError naming whose code failed: a reference that cannot run
        on this device makes the probe unavailable, a solution that cannot be imported or built
        aborts it."""
        stage = "reference"
        try:
            self.load_reference()
            # The baseline for the global-state probe: after the reference, before the solution.
            self.state_before_import = self.global_state()
            stage = "solution"
            # Sidecar modules next to solution.py import as they would beside it in the harness.
            sys.path.insert(0, self.args.run)
            self.watch.install()
            self.events.watching = True
            self.importing = True
            with self.watch.region("import"):  # (assigns no probe attribute inside: that is what it compares)
                module = load_module(os.path.join(self.args.run, "solution.py"), "solution")
            self.sol_mod = module
            self.importing = False
            self.raise_if_refused()
            self.state_after_import = self.global_state()
            self.sol_cls = self.protocol.solution_class(self.sol_mod)
        except BaseException as e:  # SystemExit from the solution's import is its failure too
            raise SetupError(self.classify(stage, e), e) from e
        plan = self.shape_plan()
        failure = None
        fitted_failure = None  # the solution's failure at a shape that fits, where one did
        for label, shape in plan:
            try:
                self.apply_shape(shape)
                self.build_and_smoke()
                self.shape_label = sizing.label_of(shape)
                self.shape = dict(shape)
                if shape and self.protocol.name == "config-state":
                    self.notes.append("ran at shape %s (%s from the smallest listed %s, every size in it divided "
                                      "alike) so that the reference, its float64 copy and the solution fit this "
                                      "machine's memory and the probe's time" % (
                                          self.shape_label, label, sizing.label_of(self.protocol.listed)))
                elif shape:
                    default = {k: self.default_constants[k][0] for k in shape if k in self.default_constants}
                    # Every shrunk plan entry exists because the default's volume is over the limit.
                    self.notes.append("ran at shape %s (%s) instead of the default %s, whose volume is over 2^%d, "
                                      "to fit the %s" % (self.shape_label, label, sizing.label_of(default),
                                                         sizing.INTERPRETER_VOLUME.bit_length() - 1,
                                                         "Triton interpreter" if self.triton_interpreted else "CPU"))
                return
            except SetupError as e:
                failure = e
                if isinstance(e.__cause__, OutOfTime) and (self.setup_steps or self.setup_step):
                    self.notes.append("where the time went%s: %s" % (
                        " at shape " + sizing.label_of(shape) if shape else "", self.where_time_went()))
                if isinstance(e.__cause__, (OutOfTime, NeedsCuda)):
                    raise  # no time is left for another shape; CUDA code runs at no shape here
                if shape and e.stage in ("solution", "solution-on-device", "reference"):
                    self.notes.append("shape %s failed: %s" % (sizing.label_of(shape), str(e)[:160]))
                    if e.stage != "reference" and fitted_failure is None:
                        fitted_failure = e
                    continue
                if fitted_failure is not None and e.stage == "reference" and OUT_OF_MEMORY.search(str(e)):
                    # The listed shape does not fit this machine at all; why the solution failed
                    # where the reference did fit is the run's answer.
                    self.notes.append("the default shape does not fit this machine (%s)" % str(e)[:160])
                    raise fitted_failure
                raise
        raise failure

    def load_reference(self):
        """The reference module, its calling convention, its model class and entry point."""
        if protocol.gpumode_problem(self.args.problem):
            # GPU MODE's reference imports task.py and utils.py from beside it (so does the
            # solution: `from task import input_t`); after the run's own directory.
            sys.path.append(self.args.problem)
        self.ref_mod = load_module(os.path.join(self.args.problem, "reference.py"), "reference")
        self.protocol = protocol.detect(self.ref_mod, self.args.problem, load_module, self.interpreted)
        self.ref_cls = self.protocol.reference_class()
        self.entry = self.protocol.entry(self.ref_cls)
        if self.protocol.note():
            self.notes.append(self.protocol.note())

    def shape_plan(self):
        """The shapes to try, in order, as (label, {constant: value}); {} is the default."""
        if self.interpreted and self.protocol.name == "kernelbench":
            watching, self.events.watching = self.events.watching, False
            try:
                plan, why = sizing.interpreter_plan(self.args.problem, self.ref_mod, load_module)
            finally:
                self.events.watching = watching
            if why:
                self.notes.append("shapes: " + why)
            return plan
        if self.interpreted and self.protocol.name == "config-state":
            # A decode step's model is built from the shape's entries (experts, context): at the
            # sizes listed it can take more memory and time than this machine and budget have.
            return sizing.config_plan(self.protocol.listed)
        return [("default", {})]

    def apply_shape(self, shape):
        """Sets the reference's (and the solution's same-named) integer constants; {} restores
        the defaults."""
        if self.protocol.name == "config-state":
            self.protocol.set_shape(shape)
            return
        sol_mod = getattr(self, "sol_mod", None)  # the judge has none
        for key, value in self.default_constants.items():
            setattr(self.ref_mod, key, value[0])
            if value[1] is not None:
                setattr(sol_mod, key, value[1])
        for key, value in shape.items():
            sol_value = getattr(sol_mod, key, None)
            self.default_constants.setdefault(key, (getattr(self.ref_mod, key),
                                                    sol_value if isinstance(sol_value, int) else None))
            setattr(self.ref_mod, key, value)
            if self.default_constants[key][1] is not None:
                setattr(sol_mod, key, value)

    def init_inputs(self):
        return self.protocol.init_inputs()

    def build_models(self):
        """A fresh (reference, solution) pair from get_init_inputs(), the solution given the
        reference's weights; the reference is built first, under the first seed, as harnesses do."""
        torch = self.torch
        stage = "reference"
        self.setup_steps, self.setup_step = [], None
        try:
            with self.timed("the reference's construction"):
                ref, init = self.build_reference()
            stage = "solution"
            torch.manual_seed(self.seeds[0])
            init = copy.deepcopy(init)
            with self.watch.region("construction"), self.timed("the solution's construction"):
                sol = self.sol_cls(*init)
            self.raise_if_refused()
            self.missing_keys = self.copy_weights(ref, sol)
            sol = self.as_graded(sol.to(self.device_torch()))
            stage = "reference"
            ref = self.as_graded(ref.to(self.device_torch()))
        except BaseException as e:
            raise SetupError(self.classify(stage, e), e) from e
        return ref, sol

    @property
    def train_mode(self):
        """Whether the suite's grader runs the models in training mode (it never calls eval():
        KernelBench); an unknown harness keeps eval mode."""
        return getattr(self.args, "model_mode", "unknown") == "train"

    def as_graded(self, model):
        """`model` in the mode the suite's grader runs it in."""
        return model.train(self.train_mode)

    def note_mode(self, ref):
        """Says which mode the models run in when the reference behaves differently in the two
        (a BatchNorm's statistics, an active dropout)."""
        dependent = mode_dependent(self.torch, ref)
        if not dependent:
            return
        mode = getattr(self.args, "model_mode", "unknown")
        if mode == "unknown":
            self.notes.append("models in eval mode: the suite's harness is unknown, and the reference's %s behaves "
                              "differently in training mode" % dependent)
        else:
            self.notes.append("models in %s mode, as %s's harness runs them (the reference's %s depends on it)" % (
                mode, getattr(self.args, "suite", "the suite"), dependent))

    def build_reference(self):
        """The reference model and the init inputs it was built from, seeded first (the judge
        builds the same weights in its own process)."""
        self.torch.manual_seed(self.seeds[0])
        init = self.init_inputs()
        return self.ref_cls(*copy.deepcopy(init)), init

    def reference(self, inputs):
        """The reference's output (verdicts.py's side of the comparison)."""
        return self.call(self.ref, inputs)

    def fresh_solution(self):
        """A newly built solution model given the current reference's weights, as the harness
        loads them: state no earlier call derived (packed weights, a launch plan) exists in it."""
        torch = self.torch
        try:
            torch.manual_seed(self.seeds[0])
            init = copy.deepcopy(self.init_inputs())
            with self.watch.region("construction"):
                sol = self.sol_cls(*init)
            self.copy_weights(self.ref, sol)
            return self.as_graded(sol.to(self.device_torch()))
        except BaseException as e:
            raise SetupError(self.classify("solution", e), e) from e

    def device_torch(self):
        return "cuda" if self.device == "cuda" else "cpu"

    def build_and_smoke(self):
        # One call of each before any probe: a reference that cannot run here makes every probe
        # meaningless, and so does a solution written for a GPU on a machine without one. The
        # inputs stay alive for the whole run, so their addresses never come back to the
        # solution with other contents.
        self.ref, self.sol = self.build_models()
        self.note_mode(self.ref)
        stage = "reference"
        try:
            with self.timed("the inputs"):
                self.smoke_inputs = self.inputs(self.seeds[0])
            with self.timed("the reference's first call"):
                self.call(self.ref, clone_inputs(self.smoke_inputs))
            with self.timed("the oracle's"):
                self.choose_oracle()
            # Threads torch starts for the reference's first calls are torch's, not the solution's.
            self.watch.note_library_tasks()
            stage = "solution" if self.device == "cuda" else "solution-on-device"
            with self.timed("the solution's first call"):
                self.call(self.sol, self.smoke_inputs)
            self.raise_if_refused()
        except BaseException as e:
            raise SetupError(self.classify(stage, e), e) from e

    def classify(self, stage, e):
        if isinstance(e, protocol.Unsupported):
            return "convention"  # neither side's fault: the probes do not run this convention
        if isinstance(e, OutOfTime):
            # An import that never finishes is the solution's own hang; building and first calls
            # too slow for this CPU (or the interpreter) say nothing either way.
            if getattr(self, "importing", False) or self.device == "cuda":
                return "solution" if stage != "reference" else stage
            return "reference" if stage == "reference" else "solution-on-device"
        if isinstance(e, NeedsCuda):
            return "solution-on-device"  # CUDA code, refused by the CPU mapping: it needs a GPU
        if stage == "solution" and (isinstance(e, ModuleNotFoundError) or
                                    (self.device != "cuda" and DEVICE_WORDS.search(str(e)))):
            return "solution-on-device"  # it needs a module or a GPU this machine lacks
        return stage

    def copy_weights(self, src, dst):
        """The solution gets the reference's weights where names and shapes match; returns the
        reference's keys it could not place (a lenient strict=False load hides them)."""
        torch = self.torch
        dst_state = dst.state_dict()
        missing = []
        with torch.no_grad():
            for name, value in src.state_dict().items():
                if name in dst_state and dst_state[name].shape == value.shape:
                    dst_state[name].copy_(value)
                else:
                    missing.append(name)
        return missing

    def inputs(self, seed):
        torch = self.torch
        torch.manual_seed(seed)
        watching, self.events.watching = self.events.watching, False  # the reference's code
        try:
            raw = self.protocol.raw_inputs(seed)
        finally:
            self.events.watching = watching
        return map_inputs(raw, lambda t: t.to(self.device_torch()))

    def call(self, model, inputs, solution=False):
        """One no-grad call of `model`'s entry point; the solution's calls (also a freshly built
        solution model, `solution=True`) are counted, keep their inputs alive and are watched."""
        torch = self.torch
        solution = solution or model is self.sol
        if solution:
            self.sol_calls += 1
            self.keep(inputs)
        # Only the solution is watched: a warning raised in the reference makes the warnings
        # module read reference.py's source, which is not the solution reading a grader file.
        watching = self.events.watching
        self.events.watching = watching and solution
        start = time.monotonic()
        # A CUDA extension the call builds (a lazy load_inline) is no part of the call's own time.
        building = getattr(self.mapping, "build_seconds", 0.0)
        try:
            if solution:
                with self.watch.region("call", handed=inputs):
                    out = self.invoke(model, inputs)
            else:
                out = self.invoke(model, inputs)
        finally:
            self.events.watching = watching
        spent = time.monotonic() - start - (getattr(self.mapping, "build_seconds", 0.0) - building)
        self.call_seconds = max(getattr(self, "call_seconds", 0.0), spent)
        return out

    def invoke(self, model, inputs):
        with self.torch.no_grad():
            out = getattr(model, self.entry)(*inputs)
        if self.device == "cuda":
            self.torch.cuda.synchronize()
        return out

    def keep(self, inputs):
        size = sum(t.numel() * t.element_size() for t in inputs if isinstance(t, self.torch.Tensor))
        if self.kept_bytes + size <= KEEP_INPUT_BYTES.get(self.device_torch(), 1 << 30):
            self.kept.append(inputs)
            self.kept_bytes += size

    def choose_oracle(self):
        """The widest copy of the reference that runs: float64, else float32 (a reference that
        casts some operands itself, `w.to(torch.bfloat16) @ x`, cannot run widened), else the
        reference as it is; the notes say which when it is not float64."""
        import gc

        torch = self.torch
        failures = []
        for dtype in (torch.float64, torch.float32, None):
            self.oracle_dtype = dtype
            # A failed attempt's copy and temporaries go before the next copy is made.
            self.oracle_model = None
            gc.collect()
            try:
                self.oracle_model = self.make_oracle(self.ref)
                self.oracle(self.smoke_inputs)
            except Exception as e:
                failures.append("%s: %s: %s" % (dtype or "as is", type(e).__name__, str(e)[:100]))
                continue
            if failures:
                self.notes.append("oracle: the reference in %s%s (%s)" % (
                    str(dtype).replace("torch.", "") if dtype else "its own precision",
                    ", checked against a floor of %g x eps(float32) for its own rounding" % FP32_ORACLE_EPS
                    if dtype == torch.float32 else "", "; ".join(failures)))
            return
        raise RuntimeError("the reference does not run: " + "; ".join(failures))

    def make_oracle(self, ref):
        """A copy of `ref` in the oracle's precision. Large integer state (packed int4 weights,
        index tables) is the same in every precision and read-only in forward: the copy shares it
        instead of holding a second one (a decode model's packed experts alone can be a GB)."""
        shared = {id(t): t for t in list(ref.parameters()) + list(ref.buffers())
                  if not t.is_floating_point() and not t.is_complex() and t.numel() * t.element_size() >= SHARED_BYTES}
        model = copy.deepcopy(ref, shared)
        return model.to(self.oracle_dtype) if self.oracle_dtype is not None else model

    def oracle(self, inputs, model=None):
        dtype = getattr(self, "oracle_dtype", self.torch.float64)
        wide = map_inputs(inputs, lambda t: t.to(dtype) if t.is_floating_point() and dtype is not None else t.clone())
        return self.call(model or self.oracle_model, wide)

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
    def report(self, name, status, check="", reason="", **numbers):
        """`check` names what the probe observed where it can see more than one thing ("" for
        its own question); kbaudit's rule metadata, not the probe, says which rule that is."""
        clean = {}
        for k, v in numbers.items():
            if isinstance(v, float) and (math.isinf(v) or math.isnan(v)):
                v = 1e300 if v > 0 or math.isnan(v) else -1e300
            clean[k] = v
        self.results.append({"name": name, "status": status, "check": check, "reason": reason, "numbers": clean})

    def run_probe(self, name, fn, calls=1):
        """Runs one probe unless the budget cannot cover it: `calls` is about how many calls of
        the slowest model (solution, reference or oracle) it makes."""
        estimate = calls * getattr(self, "call_seconds", 0.0)
        left = self.time_left()
        if left <= estimate or left <= 0:
            if any(r["name"] == name for r in self.results):
                return
            self.report(name, "skipped", reason="the probe's time budget (%d s) would run out during this probe "
                        "(about %.0f s needed, %.0f s left)%s" % (self.args.budget, estimate, max(left, 0),
                                                                 self.where()))
            return
        try:
            fn(self)
        except OutOfTime:
            self.report(name, "skipped", reason="the probe's time budget (%d s) ran out during this probe%s" % (
                self.args.budget, self.where()))
        except BaseException as e:  # a probe that breaks (or a sys.exit in forward) says why
            self.report(name, "error", reason="%s: %s" % (type(e).__name__, str(e)[:300]))

    # ------------------------------------------------------------------ shared measurements
    def errors(self, inputs):
        """(solution error, honest reference error, reference output) against the float64 oracle."""
        oracle = self.oracle(inputs)
        ref_out = self.call(self.ref, clone_inputs(inputs))
        sol_out = self.call(self.sol, clone_inputs(inputs))
        self.last_sol_out = sol_out
        return relative_error(sol_out, oracle), relative_error(ref_out, oracle), ref_out

    def floor(self, ref_out):
        return floor_of(ref_out, getattr(self, "oracle_dtype", self.torch.float64))

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

    # ------------------------------------------------------------------ the run
    def run_probe_group(self, names, fn, calls=1):
        """A probe that answers several questions from one run (the ordering tracer): skipped or
        broken, it says so for each of them."""
        def missing():
            return [n for n in names if not any(r["name"] == n for r in self.results)]

        def guarded(h):
            try:
                fn(h)
            except OutOfTime:
                for name in missing():
                    self.report(name, "skipped", reason="the probe's time budget (%d s) ran out during this probe%s"
                                % (self.args.budget, self.where()))
            except BaseException as e:  # each question it had not answered yet says why
                for name in missing():
                    self.report(name, "error", reason="%s: %s" % (type(e).__name__, str(e)[:300]))

        self.run_probe(names[0], guarded, calls)
        first = next((r for r in self.results if r["name"] == names[0]), None)
        for name in missing():
            if first is not None and first["status"] == "skipped":
                self.report(name, "skipped", reason=first["reason"])

    def run(self):
        from .probes import accuracy, context, distributions, kernels, memory, ordering, parameters

        # call_count's first phase comes first, so its count starts at the solution's first call,
        # and caller_context next, before any copy the solution saw has been freed; call_count's
        # verdict comes after every other probe has added calls.
        # (name, probe, about how many calls of the slowest model it makes: the time budget's guess)
        seeds = len(self.seeds)
        for name, fn, calls in (("call_count", context.call_count, 3 * seeds + 12),
                                ("caller_context", context.caller_context, 7),
                                ("differential", accuracy.differential, 3 * seeds),
                                ("adversarial", accuracy.adversarial, 18),
                                ("distributions", distributions.distributions, 18 if self.interpreted else 36),
                                ("other_shapes", accuracy.other_shapes, 18),
                                ("memoization", memory.memoization, 6), ("aliasing", memory.aliasing, 4),
                                (ordering.NAMES, ordering.ordering, 3),
                                ("global_state", context.global_state, 0),
                                ("uninitialized_output", memory.uninitialized, 2),
                                ("parameters", parameters.perturbation, 6),
                                ("kernel_ablation", kernels.ablation, 5), ("timing", kernels.timing, 33),
                                ("call_count", context.call_count_late, seeds)):
            try:
                if isinstance(name, tuple):
                    self.run_probe_group(name, fn, calls)
                else:
                    self.run_probe(name, fn, calls)
            except OutOfTime:  # the timer fired between the probe and its report
                for one in (name if isinstance(name, tuple) else (name,)):
                    if not any(r["name"] == one for r in self.results):
                        self.report(one, "skipped", reason="the probe's time budget (%d s) ran out during this probe"
                                    % self.args.budget)
        self.report_extension_builds()

    def report_extension_builds(self):
        """The CUDA extensions built as the harness builds them during setup (cuda_cpu.HarnessBuild),
        as one result: a finding when one does not build (on the GPU its load_inline raises, so
        what the solution computes is its fallback's), passed when every one built."""
        builds = getattr(self.mapping, "extension_builds", None) or []
        if not builds:
            return
        from . import cuda_cpu

        try:
            cuda_cpu.resolve_builds(builds)
        except OutOfTime:
            pass  # what is still pending is reported as unchecked below
        failed = [b for b in builds if b.get("status") == "failed"]
        if failed:
            b = failed[0]
            where = " (%s)" % b["where"] if b.get("where") else ""
            after = ("; the probes ran the CPU build's kernels, which the GPU never runs" if b.get("after_probes")
                     else "")
            self.report("extension_build", "finding",
                        reason="the extension %s does not build as the harness builds it%s: %s; on the GPU its "
                               "build raises and the solution's fallback computes the result%s" % (
                                   b.get("name", "?"), where, b.get("error", ""), after),
                        failed=len(failed), built=len(builds) - len(failed))
        elif all(b.get("status") == "built" for b in builds):
            self.report("extension_build", "passed", reason="%d extension(s) build as the harness builds them (nvcc with "
                        "torch's flags, for %s)" % (len(builds), builds[0].get("arch", "sm_90")), built=len(builds))
        else:
            b = next(b for b in builds if b.get("status") != "built")
            self.report("extension_build", "skipped", reason="not built as the harness builds it: %s" % (
                b.get("reason") or "still compiling when the probe's budget ran out"))

    def nothing_ran(self):
        """Why no probe ran when every one was skipped (the budget spent before the first); an
        empty string when at least one passed, found something or broke."""
        if not self.results or any(r["status"] != "skipped" for r in self.results):
            return ""
        first = next((r for r in self.results if "budget" in r["reason"]), self.results[0])
        return "no probe ran: all %d were skipped (%s: %s)" % (len(self.results), first["name"], first["reason"])
