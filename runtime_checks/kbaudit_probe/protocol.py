"""How a problem's reference is built and fed: the calling conventions the probe knows.

* KernelBench style (KernelBench levels, KernelBench-Hard, KernelBench-v3): `Model(*get_init_inputs())`,
  `forward(*get_inputs())` (or `step` where the reference defines one).
* Config and state (the KernelBench-Hard mega track): `Model(build_config(shape))`,
  `Model.step(init_token(cfg, seed), init_state(cfg, ctx, seed)) -> (hidden, state)`, with the
  shape from `shapes.py` (the first entry, as its check.py does; the smallest under the Triton
  interpreter) and the context length from the shape's entry named like `init_state`'s second
  parameter.
"""
import inspect
import os


class KernelBench:
    name = "kernelbench"

    def __init__(self, ref_mod):
        self.ref_mod = ref_mod

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
        self.shape = dict(shape)
        params = list(inspect.signature(ref_mod.init_state).parameters)
        key = params[1] if len(params) > 1 else ""
        ints = {k: v for k, v in self.shape.items() if isinstance(v, int) and not isinstance(v, bool)}
        self.context = ints.get(key, min(ints.values()) if ints else 0)

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


def detect(ref_mod, problem_dir, load_module, smallest):
    """The protocol of `ref_mod`; `smallest` picks the smallest listed shape (the interpreter)."""
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
