"""How a problem's reference is built and fed: the calling conventions the probe knows.

* KernelBench style (KernelBench levels, KernelBench-Hard, KernelBench-v3): `Model(*get_init_inputs())`,
  `forward(*get_inputs())` (or `step` where the reference defines one).
* Config and state (the KernelBench-Hard mega track): `Model(build_config(shape))`,
  `Model.step(init_token(cfg, seed), init_state(cfg, ctx, seed)) -> (hidden, state)`, with the
  shape from `shapes.py` (the first entry, as its check.py does; the smallest under the Triton
  interpreter) and the context length from the shape's entry named like `init_state`'s second
  parameter.
* GPU MODE / kernelbot: `reference.py` has `ref_kernel(data)`, `generate_input(**test)` and
  `check_implementation(data, output)` (beside `task.py` / `utils.py`, which it imports, and
  `task.yml`, whose `tests` list generate_input's arguments); the solution defines
  `custom_kernel(data)`. Both are called through a module over the flattened data (its tensors
  are the inputs the probes vary, copy and keep) with the arguments of the first test (the
  smallest on a CPU), its seed moved by the probe's seed.

pygpubench's `kernel(output, *inputs)`, which writes into an output the harness allocates, is
not supported: the probe says so (`Unsupported`) instead of guessing the output's allocation.
"""
import ast
import inspect
import json
import os


class Unsupported(Exception):
    """A calling convention the probes do not run (the run is unavailable, with this reason)."""


PYGPUBENCH = ("the solution defines kernel(output, *inputs) (pygpubench's convention, writing into an output the "
              "harness allocates), which the runtime probes do not support yet")


def solution_model(sol_mod):
    """The solution's model class in the KernelBench conventions."""
    cls = getattr(sol_mod, "ModelNew", None) or getattr(sol_mod, "Model", None)
    if cls is not None:
        return cls
    if callable(getattr(sol_mod, "custom_kernel", None)):
        raise Unsupported("the solution defines custom_kernel(data) (GPU MODE), but the problem's reference.py "
                          "defines no ref_kernel / generate_input")
    if callable(getattr(sol_mod, "kernel", None)):
        raise Unsupported(PYGPUBENCH)
    raise AttributeError("the solution defines neither ModelNew nor Model")


class KernelBench:
    name = "kernelbench"

    def __init__(self, ref_mod):
        self.ref_mod = ref_mod

    def reference_class(self):
        return getattr(self.ref_mod, "Model")

    def solution_class(self, sol_mod):
        return solution_model(sol_mod)

    def note(self):
        return ""

    def init_inputs(self):
        return list(self.ref_mod.get_init_inputs()) if hasattr(self.ref_mod, "get_init_inputs") else []

    def raw_inputs(self, seed):
        return list(self.ref_mod.get_inputs())

    def entry(self, ref_cls):
        for name in ("forward", "step"):
            if name in vars(ref_cls):
                return name
        return "forward"


class ConfigState:
    name = "config-state"

    def __init__(self, ref_mod, shape):
        self.ref_mod = ref_mod
        self.listed = dict(shape)  # the shapes.py entry chosen; set_shape may run a smaller one
        self.set_shape({})

    def set_shape(self, shape):
        """Runs at `shape` ({}: the listed entry as it is)."""
        self.shape = dict(shape or self.listed)
        params = list(inspect.signature(self.ref_mod.init_state).parameters)
        key = params[1] if len(params) > 1 else ""
        ints = {k: v for k, v in self.shape.items() if isinstance(v, int) and not isinstance(v, bool)}
        self.context = ints.get(key, min(ints.values()) if ints else 0)
        self.__dict__.pop("_cfg", None)

    def reference_class(self):
        return getattr(self.ref_mod, "Model")

    def solution_class(self, sol_mod):
        return solution_model(sol_mod)

    def note(self):
        from .sizing import label_of

        return "protocol: %s (shape %s, context %d)" % (self.name, label_of(self.shape), self.context)

    def init_inputs(self):
        return [self.ref_mod.build_config(self.shape)]

    def raw_inputs(self, seed):
        cfg = self.config()
        return [self.ref_mod.init_token(cfg, seed), self.ref_mod.init_state(cfg, self.context, seed)]

    def config(self):
        if not hasattr(self, "_cfg"):
            self._cfg = self.ref_mod.build_config(self.shape)
        return self._cfg

    def entry(self, ref_cls):
        return "step"


def task_tests(problem_dir, key="tests"):
    """The argument sets of task.yml's `tests` list (flow mappings `- {"size": 128, "seed": 1}`
    or block mappings), without a YAML library (the probe's interpreter need not have one)."""
    try:
        with open(os.path.join(problem_dir, "task.yml"), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    tests, inside, current = [], False, None
    for line in lines:
        text = line.split("#", 1)[0].rstrip() if '"' not in line and "'" not in line else line.rstrip()
        if not text.strip():
            continue
        if not line[:1].isspace() and not text.startswith("-"):
            inside = text.startswith(key + ":")
            current = None
            continue
        if not inside:
            continue
        body = text.strip()
        if body.startswith("- "):
            body = body[2:].strip()
            current = {}
            tests.append(current)
        if current is None:
            continue
        if body.startswith("{"):
            current.update(_flow_mapping(body))
        elif ":" in body:
            name, _, value = body.partition(":")
            current[name.strip().strip("\"'")] = _scalar(value.strip())
    return [t for t in tests if t]


def _flow_mapping(text):
    try:
        value = json.loads(text)
        return value if isinstance(value, dict) else {}
    except ValueError:
        pass
    out = {}
    for part in text.strip("{} ").split(","):
        name, _, value = part.partition(":")
        if name.strip():
            out[name.strip().strip("\"'")] = _scalar(value.strip())
    return out


def _scalar(text):
    if text in ("true", "True"):
        return True
    if text in ("false", "False"):
        return False
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text.strip("\"'")


class GpuMode:
    """GPU MODE / kernelbot: ref_kernel(data) and the solution's custom_kernel(data)."""
    name = "gpumode"
    context = 0

    def __init__(self, ref_mod, problem_dir, smallest):
        import torch.utils._pytree as pytree

        self.ref_mod = ref_mod
        self.pytree = pytree
        self.treespec = None
        params = inspect.signature(ref_mod.generate_input).parameters
        tests = task_tests(problem_dir)
        if tests:
            def volume(test):
                n = 1
                for k, v in test.items():
                    n *= v if k != "seed" and isinstance(v, int) and not isinstance(v, bool) and v > 0 else 1
                return n
            self.shape = dict(min(tests, key=volume) if smallest else tests[0])
            self.origin = "task.yml's %s test" % ("smallest" if smallest else "first")
        elif all(p.default is not inspect.Parameter.empty or p.name == "seed" or
                 p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL) for p in params.values()):
            self.shape = {}
            self.origin = "generate_input's defaults"
        else:
            raise Unsupported("the problem's reference.py has generate_input(%s) but no task.yml lists a test's "
                              "arguments for it" % ", ".join(params))
        self.seeded = "seed" in params or any(p.kind == p.VAR_KEYWORD for p in params.values())
        self.base_seed = self.shape.get("seed", 0) if isinstance(self.shape.get("seed", 0), int) else 0

    def reference_class(self):
        return self.kernel_module(self.ref_mod, "ref_kernel")

    def solution_class(self, sol_mod):
        if not callable(getattr(sol_mod, "custom_kernel", None)):
            if getattr(sol_mod, "ModelNew", None) or getattr(sol_mod, "Model", None):
                raise Unsupported("the problem is GPU MODE's (ref_kernel, generate_input) but the solution defines a "
                                  "model class instead of custom_kernel(data)")
            if callable(getattr(sol_mod, "kernel", None)):
                raise Unsupported(PYGPUBENCH)
            raise AttributeError("the solution defines no custom_kernel(data)")
        return self.kernel_module(sol_mod, "custom_kernel")

    def kernel_module(self, module, function):
        """A module whose forward(*leaves) rebuilds the data and calls module.<function>(data),
        looked up at each call (a solution may rebind its own function)."""
        import torch

        protocol = self

        class Kernel(torch.nn.Module):
            def forward(self, *leaves):
                return getattr(module, function)(protocol.data_of(leaves))

        Kernel.__name__ = Kernel.__qualname__ = function
        return Kernel

    def note(self):
        arguments = ", ".join("%s=%r" % kv for kv in sorted(self.shape.items()))
        return "protocol: gpumode, custom_kernel(data) against ref_kernel(data) on generate_input(%s) (%s)" % (
            arguments, self.origin)

    def init_inputs(self):
        return []

    def raw_inputs(self, seed):
        arguments = dict(self.shape)
        if self.seeded:
            arguments["seed"] = self.base_seed + seed
        leaves, self.treespec = self.pytree.tree_flatten(self.ref_mod.generate_input(**arguments))
        return leaves

    def data_of(self, leaves):
        return self.pytree.tree_unflatten(list(leaves), self.treespec)

    def entry(self, ref_cls):
        return "forward"


def gpumode_problem(problem_dir):
    """Whether a problem directory is laid out as GPU MODE's (its reference imports task.py /
    utils.py beside it, so that directory goes on sys.path)."""
    return any(os.path.exists(os.path.join(problem_dir, n)) for n in ("task.py", "task.yml"))


def detect(ref_mod, problem_dir, load_module, smallest):
    """The protocol of `ref_mod`; `smallest` picks the smallest listed shape (the interpreter)."""
    if callable(getattr(ref_mod, "ref_kernel", None)) and callable(getattr(ref_mod, "generate_input", None)):
        return GpuMode(ref_mod, problem_dir, smallest)
    if not all(callable(getattr(ref_mod, n, None)) for n in ("build_config", "init_state", "init_token")) \
            or hasattr(ref_mod, "get_inputs"):
        return KernelBench(ref_mod)
    shapes = []
    path = os.path.join(problem_dir, "shapes.py")
    if os.path.exists(path):
        shapes = [s for s in (getattr(load_module(path, "shapes"), "SHAPES", None) or []) if isinstance(s, dict)]
    if not shapes:
        return ConfigState(ref_mod, {})
    if smallest:
        def size(s):
            n = 1
            for v in s.values():
                n *= v if isinstance(v, int) and v > 0 else 1
            return n
        return ConfigState(ref_mod, min(shapes, key=size))
    return ConfigState(ref_mod, shapes[0])
