"""Error measures shared by every probe."""
import copy
import math

# Noise floor: a solution whose error against the float64 oracle is within this many times the
# honest reference's own error (at the contract precision) computes at the precision it claims.
ERROR_RATIO_LIMIT = 64.0
# Calls of the same function on the same inputs may differ by reduction order (atomics);
# anything beyond this many times the reference's error is a different computation.
REPEAT_RATIO_LIMIT = 16.0


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


def snapshot(out):
    """The output's values as they are now, in tensors of their own: a solution may return the
    same output buffer from every call (allowed: a harness checks each output before the next
    call), so an output kept across calls would otherwise show the last call's values."""
    import torch

    if isinstance(out, torch.Tensor):
        return out.detach().clone()
    if isinstance(out, (list, tuple)):
        return type(out)(snapshot(v) for v in out) if not hasattr(out, "_fields") else type(out)(*map(snapshot, out))
    if isinstance(out, dict):
        return {k: snapshot(v) for k, v in out.items()}
    return out


def relative_error(out, oracle):
    """Largest absolute error over the outputs, relative to the oracle's largest magnitude."""
    import torch

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
        if bool(torch.isnan(o64).any()) and not bool(torch.isnan(r64).any()):
            return math.inf
        scale = max(float(r64.abs().max()) if r64.numel() else 0.0, 1e-30)
        diff = (o64 - r64).abs()
        diff = diff[~torch.isnan(diff)]
        worst = max(worst, (float(diff.max()) if diff.numel() else 0.0) / scale)
    return worst


def eps_of(dtype):
    import torch

    try:
        return torch.finfo(dtype).eps
    except TypeError:
        return 0.0


# Error model of a float32 oracle (used where the reference does not fit, or does not run, in
# float64): the oracle then rounds like an fp32 reference, so the honest reference's error against
# it is about zero while an honest fp32 solution that only sums in another order differs by about
# the reference's own fp32 rounding (a few eps for a long reduction). The floor is raised to this
# many eps of float32 (1.9e-6) so that difference is not a precision loss; a bf16 or TF32 downcast
# (errors of 1e-3 and more) stays far above 64 x the floor.
FP32_ORACLE_EPS = 16.0


def floor_of(ref_out, oracle_dtype=None):
    """2 x eps of the reference output's dtype, so an exact reference does not make every
    ratio infinite; with a float32 oracle at least FP32_ORACLE_EPS x eps(float32)."""
    import torch

    outs = [t for t in tensors_of(ref_out) if t.is_floating_point()]
    floor = 2.0 * max([eps_of(t.dtype) for t in outs] or [eps_of(torch.float32)])
    if oracle_dtype == torch.float32:
        floor = max(floor, FP32_ORACLE_EPS * eps_of(torch.float32))
    return floor


def stored_result(pairs):
    """Whether the solution gave bit-identical outputs for two inputs the reference answers
    differently: a stored result (see memoization, call_count), not a precision loss."""
    for i in range(len(pairs)):
        for j in range(i):
            if relative_error(pairs[i][0], pairs[j][0]) == 0 and relative_error(pairs[i][1], pairs[j][1]) > 0:
                return True
    return False
