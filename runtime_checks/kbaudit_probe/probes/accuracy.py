"""Is the answer right: against a float64 oracle, on adversarial inputs, on other shapes."""
import math

from .. import sizing, verdicts
from ..harness import load_module
from ..numerics import ERROR_RATIO_LIMIT, clone_inputs, map_inputs, snapshot, stored_result


def differential(h):
    # The solution's outputs go to the witness as they come; the verdict is verdicts.py's, in
    # this process (the answer) and again in the judge's (what kbaudit trusts).
    outputs = {}
    for seed in h.seeds:
        # A snapshot: the next call may write the same output buffer again.
        outputs[seed] = snapshot(h.call(h.sol, clone_inputs(h.inputs(seed))))
        h.witness.output("differential", seed, outputs[seed])
    h.witness.complete("differential")
    status, check, reason, numbers, _ = verdicts.differential(h, outputs, getattr(h, "missing_keys", None) or ())
    h.report("differential", status, check, reason, **numbers)


def adversarial(h):
    torch = h.torch
    base = h.inputs(h.seeds[0])
    variants = {
        "scale_1e-3": lambda t: t * 1e-3,
        "scale_1e3": lambda t: t * 1e3,
        "constant_rows": lambda t: torch.ones_like(t) * t.flatten()[0] if t.numel() else t,
        "sorted": lambda t: t.flatten().sort().values.reshape(t.shape),
        "heavy_tail": lambda t: (t / (torch.rand_like(t) ** 2 + 1e-2)).clamp(-1e4, 1e4),
    }
    sol_err, ref_err, ref_out = h.errors(base)
    base_ratio = sol_err / max(ref_err, h.floor(ref_out))
    pairs = [(h.last_sol_out, ref_out)]
    worst_name, worst_ratio, numbers = "", 0.0, {"plain_error_ratio": base_ratio}
    for name, fn in variants.items():
        # In fp32 and back: fp8 and other narrow inputs have no arithmetic of their own on CPU.
        inputs = map_inputs(base, lambda t: fn(t.float()).to(t.dtype) if t.is_floating_point() else t.clone())
        sol_err, ref_err, ref_out = h.errors(inputs)
        pairs.append((h.last_sol_out, ref_out))
        ratio = sol_err / max(ref_err, h.floor(ref_out))
        numbers[name + "_error_ratio"] = ratio
        if ratio > worst_ratio:
            worst_name, worst_ratio = name, ratio
    # Only what is worse than on plain inputs: a solution that is imprecise everywhere is the
    # differential probe's finding, not a regime switch.
    if base_ratio > ERROR_RATIO_LIMIT:
        h.report("adversarial", "skipped", reason="the output is already wrong on plain inputs (the "
                 "differential probe's finding), so a switch on other inputs cannot be judged", **numbers)
    elif worst_ratio > ERROR_RATIO_LIMIT and stored_result(pairs):
        h.report("adversarial", "skipped", reason="the solution returns the same output for different "
                 "inputs (a stored result), so a switch on other inputs cannot be judged", **numbers)
    elif worst_ratio > ERROR_RATIO_LIMIT and worst_ratio > 8 * max(base_ratio, 1.0):
        # Wrong only on rescaled inputs is a range the arithmetic cannot hold; on inputs of another
        # structure, a path chosen by what the inputs look like.
        check = "scaled-inputs" if worst_name.startswith("scale") else "input-regime"
        h.report("adversarial", "finding", check,
                 "on %s inputs the solution's error is %.3g times the honest reference's" %
                 (worst_name.replace("_", " "), worst_ratio), **numbers)
    else:
        h.report("adversarial", "passed", "", **numbers)


def shape_candidates(h):
    """Other shapes of the problem's shapes.py than the one the probe runs at, smallest first,
    at most two; (None, reason) when there are none to try."""
    watching, h.events.watching = h.events.watching, False
    try:
        usable, _, why = sizing.listed_shapes(h.args.problem, h.ref_mod, load_module)
    finally:
        h.events.watching = watching
    if not usable:
        return None, why
    current = {k: getattr(h.ref_mod, k) for k in usable[0]}
    usable = [s for s in usable if s != current]
    if not usable:
        return None, "shapes.py names no reference.py constant with another value"
    # CPU time grows with the shape: on CPU only shapes up to 8x the current one's size, under the
    # Triton interpreter up to 2x (each interpreted program runs in Python).
    growth = 2 if h.interpreted else 8
    limit = math.inf if h.device == "cuda" else growth * max(sizing.volume(current), 1)
    usable = sorted((d for d in usable if sizing.volume(d) <= limit), key=sizing.volume)[:2]
    if not usable:
        return None, "every other shape is too large to run on this device within the time limit"
    return usable, ""


def other_shapes(h):
    shapes, why = shape_candidates(h)
    if not shapes:
        h.report("other_shapes", "skipped", reason=why)
        return
    base_err, base_ref_err, base_out = h.errors(h.inputs(h.seeds[0]))
    base_ratio = base_err / max(base_ref_err, h.floor(base_out))
    saved_models = (h.ref, h.sol, h.oracle_model)
    current = {k: getattr(h.ref_mod, k) for k in shapes[0]}
    numbers, worst, worst_shape = {"default_error_ratio": base_ratio}, 0.0, None
    try:
        for shape in shapes:
            label = sizing.label_of(shape)
            h.apply_shape(shape)
            h.ref, h.sol = h.build_models()
            h.oracle_model = h.make_oracle(h.ref)
            try:
                sol_err, ref_err, ref_out = h.errors(h.inputs(h.seeds[0]))
            except Exception as e:
                h.report("other_shapes", "error", reason="on %s the solution fails: %s: %s" %
                         (label, type(e).__name__, str(e)[:200]), **numbers)
                return
            ratio = sol_err / max(ref_err, h.floor(ref_out))
            numbers[label + "_error_ratio"] = ratio
            if ratio > worst:
                worst, worst_shape = ratio, label
    finally:
        h.apply_shape(current)
        h.ref, h.sol, h.oracle_model = saved_models
    # Exact on the default shape and imprecise on another the problem allows: the numerics
    # depend on the shape (the checker's shape gets the exact path).
    if worst > ERROR_RATIO_LIMIT and base_ratio <= ERROR_RATIO_LIMIT:
        h.report("other_shapes", "finding", "",
                 "on %s the solution's error is %.3g times the honest reference's, on the default shape "
                 "%.3g times" % (worst_shape, worst, base_ratio), **numbers)
    else:
        h.report("other_shapes", "passed", "", **numbers)
