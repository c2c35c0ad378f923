"""Is the answer right on inputs the suite's own generator does not draw.

Graders draw their inputs from one distribution (standard-normal, mostly), on which some wrong
computations agree with the reference: a standard-normal row already has mean 0 and variance 1,
so a LayerNorm over the wrong axes, a BatchNorm that uses running statistics where the reference
(in training mode) uses the batch's, or a kernel that skips the normalisation altogether agree
within a tolerance. This probe keeps the problem's contract (shapes and dtypes unchanged) and
changes the distribution: shifted mean, scaled variance, non-normal (uniform, heavy-tailed,
half-normal), structured (constant rows, sorted rows, sparse, per-row and per-channel affine). The
reference is the one the suite's grader builds and calls (training mode unless its harness calls
eval(); the same seed before both models), judged against its float64 copy as everywhere.

When the solution is wrong on some of these inputs, the probe asks why, and the answer is the
observation (kbaudit's rule catalogue names the rule):

* the train/eval split (the probe's own question: no observation): the reference depends on its
  mode (BatchNorm, dropout) and the solution matches the reference in the other mode (freshly
  built, so a BatchNorm's running statistics are its initial 0 and 1): it normalises by running
  statistics where the grader's reference uses the batch's, or the other way round;
* `normalization`: the reference's output does not change under an affine change of its input
  (it normalises by a statistic of it) and the solution's does, and the solution is already off
  on the suite's inputs: it skips the normalisation or computes it over the wrong elements;
* `dropped-parameters`: the solution lacks reference parameters or buffers, or matches the
  reference with one of its biases set to zero;
* `input-regime`: none of these, right on the suite's inputs and wrong on others.

The first three are reported even where the suite's own inputs already show an error (the
differential probe's finding, which then names only the symptom); `input-regime` only where the
suite's inputs pass, as adversarial does.
"""
import copy
import math

from ..numerics import ERROR_RATIO_LIMIT, map_inputs, relative_error, stored_result

# An output this close to the reference's on the plain inputs (relative to its largest magnitude)
# does not change under an input transform.
INVARIANT = 1e-3
# The variants under the Triton interpreter (each interpreted call is slow): one per kind.
INTERPRETED = ("shifted_mean", "scaled_variance", "uniform", "row_affine", "channel_affine")


def variants(torch):
    """name -> function of one floating input tensor (fp32) to another of the same shape."""

    def spread(t):
        s = float(t.std()) if t.numel() > 1 else 0.0
        return s if s > 0 else 1.0

    def per_row(t, fn):
        if t.dim() == 0 or t.shape[-1] == 0:
            return t
        g = torch.Generator().manual_seed(911)
        rows = t.shape[:-1] + (1,)
        return fn(t, g, rows)

    def row_affine(t):
        return per_row(t, lambda x, g, rows: x * (torch.rand(rows, generator=g) * 2.5 + 0.5) +
                       torch.randn(rows, generator=g) * 2 * spread(x))

    def channel_affine(t):
        if t.dim() < 3:
            return row_affine(t)
        g = torch.Generator().manual_seed(912)
        shape = [1] * t.dim()
        shape[1] = t.shape[1]
        return t * (torch.rand(shape, generator=g) * 2.5 + 0.5) + torch.randn(shape, generator=g) * 2 * spread(t)

    def heavy_tail(t):
        g = torch.Generator().manual_seed(913)
        chi = torch.randn((3,) + tuple(t.shape), generator=g).pow(2).mean(0)
        return (t / chi.sqrt().clamp_min(1e-2)).clamp(-50 * spread(t), 50 * spread(t))

    def uniform(t):
        g = torch.Generator().manual_seed(914)
        return t.mean() + (torch.rand(t.shape, generator=g) * 2 - 1) * math.sqrt(3) * spread(t)

    def sparse(t):
        g = torch.Generator().manual_seed(915)
        return t * (torch.rand(t.shape, generator=g) < 0.1)

    return {
        "shifted_mean": lambda t: t + 2 * spread(t),
        "scaled_variance": lambda t: t * 4,
        "uniform": uniform,
        "heavy_tail": heavy_tail,
        "half_normal": lambda t: t.abs(),
        "constant_rows": lambda t: per_row(t, lambda x, g, rows: x[..., :1].expand(x.shape).clone()),
        "sorted_rows": lambda t: per_row(t, lambda x, g, rows: x.sort(dim=-1).values),
        "sparse": sparse,
        "row_affine": row_affine,
        "channel_affine": channel_affine,
    }


def varied(base, fn):
    """The inputs with every floating tensor transformed (in fp32 and back: fp8 and other narrow
    inputs have no arithmetic of their own on CPU); integer inputs (indices, sizes) as they are."""
    return map_inputs(base, lambda t: fn(t.float()).to(t.dtype) if t.is_floating_point() else t.clone())


def distributions(h):
    torch = h.torch
    base = h.inputs(h.seeds[0])
    if not any(isinstance(t, torch.Tensor) and t.is_floating_point() for t in base):
        h.report("distributions", "skipped", reason="no floating-point input to draw from another distribution")
        return
    table = variants(torch)
    if h.triton_interpreted:
        table = {k: v for k, v in table.items() if k in INTERPRETED}
    sol_err, ref_err, ref_out = h.errors(base)
    plain_ratio = sol_err / max(ref_err, h.floor(ref_out))
    numbers = {"plain_error_ratio": plain_ratio}
    runs = {"plain": (base, ref_out, h.last_sol_out, plain_ratio)}
    for name, fn in table.items():
        inputs = varied(base, fn)
        sol_err, ref_err, out = h.errors(inputs)
        ratio = sol_err / max(ref_err, h.floor(out))
        numbers[name + "_error_ratio"] = ratio
        runs[name] = (inputs, out, h.last_sol_out, ratio)
    failing = sorted((k for k, r in runs.items() if r[3] > ERROR_RATIO_LIMIT), key=lambda k: -runs[k][3])
    if not failing:
        h.report("distributions", "passed", "", "within the limit on %d input distributions" % (len(runs) - 1), **numbers)
        return
    if stored_result([(r[2], r[1]) for r in runs.values()]):
        h.report("distributions", "skipped", reason="the solution returns the same output for inputs the reference "
                 "answers differently (a stored result), so no distribution decides anything", **numbers)
        return
    separating = ", ".join("%s (%.3g)" % (k.replace("_", " "), runs[k][3]) for k in failing[:4])
    mode = "training" if h.train_mode else "eval"
    cause = train_eval(h, runs, failing)
    if cause:
        # The probe's own question (check ""): the train/eval split is what the suite's mode decides.
        h.report("distributions", "finding", "",
                 "the solution matches the reference in %s mode, not in %s mode as %s's harness runs it (the "
                 "reference's %s): its error ratios against the graded reference are %s, against the other mode's "
                 "at most %.3g" % ("eval" if h.train_mode else "training", mode, h.args.suite, cause[1], separating,
                                   cause[0]), **numbers)
        return
    # A solution exact on the suite's inputs and wrong where the reference is invariant chose its
    # path by what the inputs look like (input-regime below); one already off on the suite's
    # inputs and wrong under a change the reference does not see computes another statistic.
    invariant = normalizes(h, runs, failing) if plain_ratio > ERROR_RATIO_LIMIT else ""
    if invariant:
        h.report("distributions", "finding", "normalization",
                 "the reference's output does not change under %s inputs (it normalises by a statistic of them) and "
                 "the solution's does: error ratios %s" % (invariant.replace("_", " "), separating), **numbers)
        return
    dropped = dropped_parameters(h, runs, failing)
    if dropped:
        h.report("distributions", "finding", "dropped-parameters",
                 "the solution matches the reference without its %s: error ratios %s" % (dropped, separating), **numbers)
        return
    if plain_ratio > ERROR_RATIO_LIMIT:
        h.report("distributions", "skipped", reason="the output is already wrong on the suite's own inputs (the "
                 "differential probe's finding) and no cause another distribution shows", **numbers)
        return
    h.report("distributions", "finding", "input-regime",
             "right on the suite's own inputs (error ratio %.3g) and wrong on inputs drawn otherwise within the "
             "problem's contract: %s" % (plain_ratio, separating), **numbers)


def matching_ratio(h, runs, names, oracle_model):
    """The solution's worst error ratio on `names` against `oracle_model` (a variant of the
    reference), with the honest reference's error as the floor."""
    worst = 0.0
    for name in names:
        inputs, ref_out, sol_out, _ = runs[name]
        other = h.oracle(inputs, model=oracle_model)
        ref_err = relative_error(ref_out, h.oracle(inputs))
        worst = max(worst, relative_error(sol_out, other) / max(ref_err, h.floor(ref_out)))
    return worst


def train_eval(h, runs, failing):
    """(ratio against the other mode, the mode-dependent module) when the solution matches the
    reference in the other mode on every failing input set; None otherwise."""
    from ..harness import mode_dependent

    dependent = mode_dependent(h.torch, h.ref)
    if not dependent:
        return None
    # Freshly built, as the grader builds it: a BatchNorm's running statistics are 0 and 1, not
    # what the probe's earlier training-mode calls moved them to.
    fresh, _ = h.build_reference()
    fresh = fresh.to(h.device_torch()).train(not h.train_mode)
    ratio = matching_ratio(h, runs, failing[:3], h.make_oracle(fresh))
    return (ratio, dependent) if ratio <= ERROR_RATIO_LIMIT else None


def normalizes(h, runs, failing):
    """The first failing variant under which the reference's output stays what it is on the
    plain inputs (it normalises by a statistic of its input), or ""."""
    plain_out = runs["plain"][1]
    for name in failing:
        if name == "plain" or name not in ("shifted_mean", "scaled_variance", "row_affine", "channel_affine"):
            continue
        if relative_error(runs[name][1], plain_out) <= INVARIANT:
            return name
    return ""


def dropped_parameters(h, runs, failing):
    """Which reference state the solution goes without: keys it has no place for, or a bias that,
    set to zero in the reference, makes the reference match the solution."""
    missing = list(getattr(h, "missing_keys", None) or [])
    if missing:
        return ", ".join(missing[:4]) + (" (%d keys)" % len(missing) if len(missing) > 4 else "")
    torch = h.torch
    biases = [k for k, v in h.ref.state_dict().items()
              if k.split(".")[-1] == "bias" and v.is_floating_point() and bool(v.abs().max() > 0)][:4]
    for key in biases:
        without = copy.deepcopy(h.ref)
        with torch.no_grad():
            without.state_dict()[key].zero_()
        if matching_ratio(h, runs, failing[:2], h.make_oracle(without)) <= ERROR_RATIO_LIMIT:
            return key
    return ""
