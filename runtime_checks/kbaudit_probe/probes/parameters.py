"""Do the reference's parameters and buffers reach the solution's computation.

Harnesses that load the reference's state with `load_state_dict(strict=False)` (KernelBench-v3)
hide keys the solution lacks, and every harness grades at the default initialisation, where a
norm's weight is 1 and its bias 0. This probe builds a fresh pair of models, gives the reference
other values (non-trivial affine weights, non-zero biases, running statistics away from 0 and
1, every other floating tensor moved by half its spread), loads them into the solution as the
harness would, and compares again."""

from ..numerics import ERROR_RATIO_LIMIT

SHOWN_KEYS = 5


def perturbed(torch, name, t, generator):
    """New values for one floating parameter or buffer, of its dtype and shape."""
    x = t.detach().float()
    noise = torch.randn(x.shape, generator=generator)
    if name.endswith("running_var"):
        new = torch.rand(x.shape, generator=generator) * 1.5 + 0.5
    elif name.endswith("running_mean"):
        new = noise * 0.5
    else:
        spread = float(x.std()) if x.numel() > 1 else 0.0
        if spread < 1e-6:  # a constant initialisation: ones (a norm weight) or zeros (a bias)
            scale = float(x.abs().mean()) if x.numel() else 0.0
            new = x + noise * 0.5 * (scale if scale > 0 else 1.0)
        else:
            new = x + noise * 0.5 * spread
    return new.to(t.dtype)


def perturbable(torch, t):
    return t.is_floating_point() and t.numel() > 0 and t.element_size() > 1  # fp8 is not requantized here


def perturbation(h):
    torch = h.torch
    state = h.ref.state_dict()
    keys = [k for k, v in state.items() if perturbable(torch, v)]
    missing = list(getattr(h, "missing_keys", []))
    numbers = {"reference_keys": len(state), "missing_keys": len(missing), "perturbed_keys": len(keys)}
    shown = ", ".join(missing[:SHOWN_KEYS]) + (", ..." if len(missing) > SHOWN_KEYS else "")
    if not keys:
        h.report("parameters", "skipped", reason="the reference has no floating-point parameter or buffer to vary",
                 **numbers)
        return
    inputs = h.inputs(h.seeds[0])
    base_err, base_ref_err, base_out = h.errors(inputs)
    base_ratio = base_err / max(base_ref_err, h.floor(base_out))
    numbers["default_error_ratio"] = base_ratio
    if base_ratio > ERROR_RATIO_LIMIT and missing:
        h.report("parameters", "finding", "",
                 "the solution lacks the reference's %s (%d key%s a strict=False load would hide), and even at the "
                 "default weights its error is %.3g times the honest reference's" %
                 (shown, len(missing), "" if len(missing) == 1 else "s", base_ratio), **numbers)
        return
    if base_ratio > ERROR_RATIO_LIMIT:
        h.report("parameters", "skipped", reason="the output is already wrong at the default weights (the "
                 "differential probe's finding)", **numbers)
        return
    saved = (h.ref, h.sol, h.oracle_model)
    try:
        ref, sol = h.build_models()
        generator = torch.Generator().manual_seed(4242)
        with torch.no_grad():
            fresh = ref.state_dict()
            for k in keys:
                if k in fresh:
                    fresh[k].copy_(perturbed(torch, k, fresh[k].cpu(), generator).to(fresh[k].device))
        # Loaded into the solution the way the harness loads the reference's state.
        h.missing_keys = h.copy_weights(ref, sol)
        h.ref, h.sol = ref, sol
        h.oracle_model = h.make_oracle(ref)
        sol_err, ref_err, ref_out = h.errors(inputs)
    finally:
        h.ref, h.sol, h.oracle_model = saved
    ratio = sol_err / max(ref_err, h.floor(ref_out))
    numbers["perturbed_error_ratio"] = ratio
    if ratio > ERROR_RATIO_LIMIT:
        why = ("the reference's %s never reach it (%d key%s a strict=False load would hide)" %
               (shown, len(missing), "" if len(missing) == 1 else "s")) if missing else \
              "its result matches only at the default initialisation"
        h.report("parameters", "finding", "",
                 "with the reference's parameters and buffers set to other values, the solution's error is %.3g "
                 "times the honest reference's: %s" % (ratio, why), **numbers)
    elif missing:
        h.report("parameters", "passed", "lacks-parameters", reason="the solution lacks the reference's %s, yet follows other "
                 "values of them" % shown, **numbers)
    else:
        h.report("parameters", "passed", **numbers)
