"""Which problem shapes the probe runs at.

Problems name their shapes in `shapes.py` (`SHAPES = [{"M": 32, "N": 8192, "K": 8192}, ...]`,
each key an integer module constant of `reference.py`). On a GPU the probe runs at the default
shape. Under Triton's interpreter one call at a benchmark shape can take minutes, so it runs at
the smallest listed shape, shrunk further (largest dimension halved while it stays a multiple of
16 and at least 128) until the shape's volume fits INTERPRETER_VOLUME; when the solution cannot
run there (a shape it does not support), the next candidate is tried: the smallest listed
shape as it is, then the default. Without a usable shapes.py, the reference's upper-case integer
constants of at least 256 that are multiples of 32 (SEQ_LEN = 1024) are shrunk the same way.
"""
import math
import os

INTERPRETER_VOLUME = 1 << 20
MIN_DIMENSION = 128


def listed_shapes(problem_dir, ref_mod, load_module):
    """(usable shapes, current shape, reason): the SHAPES entries whose keys are all integer
    module constants of the reference."""
    path = os.path.join(problem_dir, "shapes.py")
    if not os.path.exists(path):
        return [], {}, "the problem has no shapes.py"
    try:
        shapes = getattr(load_module(path, "shapes"), "SHAPES", None)
    except Exception as e:
        return [], {}, "shapes.py does not load (%s)" % type(e).__name__
    if not isinstance(shapes, (list, tuple)) or not shapes:
        return [], {}, "shapes.py has no SHAPES list"
    usable, current = [], {}
    for shape in shapes:
        if not isinstance(shape, dict) or not shape:
            continue
        if not all(isinstance(v, int) and isinstance(getattr(ref_mod, k, None), int) for k, v in shape.items()):
            continue
        usable.append(dict(shape))
        current = {k: getattr(ref_mod, k) for k in shape}
    if not usable:
        return [], {}, "shapes.py names no integer constant of reference.py"
    return usable, current, ""


def volume(shape):
    return math.prod(max(int(v), 1) for v in shape.values())


def shrink(shape, limit=INTERPRETER_VOLUME):
    """Halves the largest dimension while the volume is over `limit` and the dimension stays a
    multiple of 16 and at least MIN_DIMENSION."""
    shape = dict(shape)
    while volume(shape) > limit:
        candidates = [k for k, v in shape.items() if v // 2 >= MIN_DIMENSION and v % 32 == 0]
        if not candidates:
            break
        key = max(candidates, key=lambda k: shape[k])
        shape[key] //= 2
    return shape


def interpreter_plan(problem_dir, ref_mod, load_module):
    """([(label, shape)] to try in order under the interpreter, why no listed shape is used);
    the last entry is the default ({}: the reference's constants as they are)."""
    usable, current, why = listed_shapes(problem_dir, ref_mod, load_module)
    plan = []
    if not usable:
        # No usable shapes.py: the reference's own large integer constants (sizes such as
        # SEQ_LEN = 1024), shrunk the same way; the default follows if the solution fails there.
        sizes = {k: v for k, v in vars(ref_mod).items()
                 if k.isupper() and isinstance(v, int) and not isinstance(v, bool) and v >= 2 * MIN_DIMENSION
                 and v % 32 == 0}
        shrunk = shrink(sizes)
        if sizes and shrunk != sizes and volume(sizes) > INTERPRETER_VOLUME:
            plan.append(("shrunk module constants", {k: v for k, v in shrunk.items() if v != sizes[k]}))
    elif volume(current) > INTERPRETER_VOLUME:
        smallest = min(usable, key=volume)
        shrunk = shrink(smallest)
        for label, shape in (("shrunk", shrunk), ("smallest listed", smallest)):
            if shape != current and volume(shape) < volume(current) and all(shape != s for _, s in plan):
                plan.append((label, shape))
    plan.append(("default", {}))
    return plan, why


def label_of(shape):
    return ",".join("%s=%d" % kv for kv in sorted(shape.items())) if shape else "default"


# Config-and-state problems (a decode step built from `build_config(shape)`): every size of at
# least CONFIG_MIN_SHRINK in the shape is divided by the same factor, never below CONFIG_FLOOR (a
# top-k over experts needs at least k of them; 8 is the usual k).
CONFIG_FACTORS = (8, 2)
CONFIG_MIN_SHRINK = 16
CONFIG_FLOOR = 8


def config_plan(listed):
    """[(label, shape)] for a config-and-state problem on a CPU: the listed shape with its sizes
    divided by each of CONFIG_FACTORS, then as listed ({})."""
    plan = []
    for factor in CONFIG_FACTORS:
        shape = {k: max(CONFIG_FLOOR, v // factor)
                 if isinstance(v, int) and not isinstance(v, bool) and v >= CONFIG_MIN_SHRINK else v
                 for k, v in listed.items()}
        if shape != listed and all(shape != s for _, s in plan):
            plan.append(("divided by %d" % factor, shape))
    plan.append(("smallest listed", {}))
    return plan
