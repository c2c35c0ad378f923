"""The verdicts of the probes that clear findings, from the solution's outputs alone.

differential, memoization, caller_context and call_count collect the solution's outputs (the
worker, probes/*.py) and judge them against the reference here. The same functions run twice:
in the worker, for its own answer, and in the judge (judge.py), on the outputs the witness
carries, against a reference and inputs the judge computes itself in a process the solution
never ran in. Only the judge's verdict can clear a finding; where the two disagree, kbaudit
reports tampering.

`side` is whoever runs the reference (the worker's Harness, or the judge's): `seeds`, `torch`,
`inputs(seed)`, `oracle(inputs)`, `reference(inputs)` and `floor(out)`. Every verdict is
(status, check, reason, numbers, near), `check` naming what was observed where a verdict can
see more than one thing ("stored-result"; "" for the probe's own question): `near` says a deciding measure is within NEAR times of
its limit, where a second process's reference may round differently and a disagreement
proves nothing.
"""
from .numerics import ERROR_RATIO_LIMIT, REPEAT_RATIO_LIMIT, clone_inputs, relative_error, stored_result, tensors_of

NEAR = 4.0
MEMO_SEED = 12345


def near(value, limit):
    return limit / NEAR < value < limit * NEAR if limit > 0 else False


def measure(side, inputs):
    """(reference output, oracle output, the reference's own error)."""
    oracle = side.oracle(inputs)
    ref_out = side.reference(clone_inputs(inputs))
    return ref_out, oracle, relative_error(ref_out, oracle)


def differential(side, outputs, missing_keys=()):
    """`outputs`: {seed: the solution's output on inputs(seed)}."""
    worst, detail, pairs, close = 0.0, {}, [], False
    for seed in side.seeds:
        ref_out, oracle, ref_err = measure(side, side.inputs(seed))
        sol_err = relative_error(outputs[seed], oracle)
        pairs.append((outputs[seed], ref_out))
        ratio = sol_err / max(ref_err, side.floor(ref_out))
        close = close or near(ratio, ERROR_RATIO_LIMIT)
        if ratio >= worst:
            worst = ratio
            detail = {"solution_error": sol_err, "reference_error": ref_err, "error_ratio": ratio, "seed": seed}
    if worst > ERROR_RATIO_LIMIT and stored_result(pairs):
        # Wrong, but not imprecise: no precision rule is the right one to confirm.
        return ("finding", "stored-result", "the solution returns the same output for different inputs (a stored result, not a "
                "precision loss): its error is %.3g times the honest reference's" % worst, detail, close)
    if worst > ERROR_RATIO_LIMIT and missing_keys:
        # Parameters the solution does not have explain a wrong answer better than precision.
        return ("finding", "missing-parameters", "the solution's error against a float64 oracle is %.3g times the honest reference's, "
                "and it lacks the reference's %s (see the parameters probe)" % (worst, ", ".join(missing_keys[:5])),
                detail, close)
    if worst > ERROR_RATIO_LIMIT:
        return ("finding", "", "the solution's error against a float64 oracle is %.3g times the honest "
                "reference's error at its contract precision (limit %g)" % (worst, ERROR_RATIO_LIMIT), detail, close)
    return "passed", "", "", detail, close


def memo_inputs(side):
    """The memoization probe's two input sets: seed 0's, and new values written over them (the
    worker writes them in place, through .data, so the tensors keep identity, pointer and
    _version). The new values depend only on the first set's, never on what the solution did to
    them."""
    torch = side.torch
    first = side.inputs(side.seeds[0])
    rewritten = clone_inputs(first)
    torch.manual_seed(MEMO_SEED)
    with torch.no_grad():
        for t, original in zip(rewritten, first):
            if isinstance(t, torch.Tensor) and t.is_floating_point():
                # In fp32 and back: fp8 inputs have no random or arithmetic kernels on CPU.
                t.copy_((torch.randn(t.shape, device=t.device) * (original.float().abs().mean() + 1)).to(t.dtype))
    return first, rewritten


def has_floating_input(side, inputs):
    torch = side.torch
    return any(isinstance(t, torch.Tensor) and t.is_floating_point() for t in inputs)


def memoization(side, first, second, fresh):
    """`first`: the output on seed 0's inputs; `second`: after the same tensors were rewritten in
    place; `fresh`: on a fresh copy of the rewritten inputs."""
    _, rewritten = memo_inputs(side)
    ref_out, oracle, ref_err = measure(side, rewritten)
    err_new = relative_error(second, oracle)
    stale = relative_error(second, first)
    fresh_err = relative_error(fresh, oracle)
    limit = ERROR_RATIO_LIMIT * max(ref_err, side.floor(ref_out))
    close = near(err_new, limit) or near(stale, limit) or near(fresh_err, limit)
    if err_new > limit and stale <= limit and fresh_err > limit:
        return ("finding", "stored-result", "after the inputs were rewritten in place the solution returned its previous output, "
                "and it is as wrong on a fresh copy of them: a stored result whatever the inputs, not a cache keyed "
                "on their identity", {"error_vs_new_inputs": err_new, "distance_to_previous": stale,
                                      "fresh_copy_error": fresh_err}, close)
    if err_new > limit and stale <= limit:
        return ("finding", "", "after the inputs were rewritten in place (same objects, same pointers) the "
                "solution returned its previous output", {"error_vs_new_inputs": err_new,
                                                           "distance_to_previous": stale}, close)
    return "passed", "", "", {"error_vs_new_inputs": err_new}, close


CALLERS = ("check.py", "benchmark.py", "check.py", "benchmark.py")


def caller_context(side, outs):
    """`outs`: the four outputs on seed 0's inputs, called as from CALLERS in that order."""
    ref_out, _, ref_err = measure(side, side.inputs(side.seeds[0]))
    limit = REPEAT_RATIO_LIMIT * max(ref_err, side.floor(ref_out))
    check, bench, check2, bench2 = outs
    unstable = max(relative_error(check2, check), relative_error(bench2, bench))
    diff = min(relative_error(bench, check), relative_error(bench2, check2))
    close = near(unstable, limit) or near(diff, limit)
    if unstable > limit:
        return ("skipped", "", "two calls from the same caller already differ (%.3g): the output is not reproducible, "
                "so a caller-dependent difference cannot be told apart" % unstable, {"difference": diff}, close)
    if diff > limit:
        return ("finding", "", "called from benchmark.py the solution returns different values than from "
                "check.py", {"difference": diff}, close)
    return "passed", "", "", {"difference": diff}, close


class CallCount:
    """The call-count verdict, fed one call at a time (outputs are not kept): `add(set, at, out)`
    for every call on input set `set` (seed `seeds[set]`), `at` the solution's call number."""

    def __init__(self, side):
        self.side = side
        self.sets = {}
        self.calls = 0
        self.close = False

    def entry(self, index):
        if index not in self.sets:
            side = self.side
            ref_out, oracle, ref_err = measure(side, side.inputs(side.seeds[index]))
            self.sets[index] = {"ref": ref_out, "limit": ERROR_RATIO_LIMIT * max(ref_err, side.floor(ref_out)),
                                "first_ok": None, "worst": 0.0, "at": 0}
        return self.sets[index]

    def add(self, index, at, out):
        entry = self.entry(index)
        self.calls = max(self.calls, at)
        err = relative_error(out, entry["ref"])
        self.close = self.close or near(err, entry["limit"])
        if entry["first_ok"] is None:
            entry["first_ok"] = err <= entry["limit"]
        elif err / entry["limit"] > entry["worst"]:
            entry["worst"], entry["at"] = err / entry["limit"], at

    def verdict(self):
        sets = list(self.sets.values())
        if not sets or not all(e["first_ok"] for e in sets):
            return ("skipped", "", "the first call's output is already wrong (the differential probe's finding), so a "
                    "change after some calls cannot be judged", {"calls": self.calls}, self.close)
        worst = max(sets, key=lambda e: e["worst"])
        if worst["worst"] > 1.0:
            return ("finding", "", "call %d returned a wrong result on inputs the first call got right (%.3g "
                    "times the differential limit)" % (worst["at"], worst["worst"]),
                    {"at_call": worst["at"], "over_limit": worst["worst"], "calls": self.calls}, self.close)
        return "passed", "", "", {"calls": self.calls, "over_limit": worst["worst"]}, self.close


def output_count(value):
    return len(tensors_of(value))
