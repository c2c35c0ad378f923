"""Memory: stored results, outputs aliasing inputs, outputs left unwritten."""
from .. import verdicts
from ..numerics import clone_inputs, relative_error, tensors_of


def memoization(h):
    inputs = h.inputs(h.seeds[0])
    if not verdicts.has_floating_input(h, inputs):
        h.report("memoization", "skipped", reason="no floating-point input to rewrite in place")
        return
    first = h.call(h.sol, inputs)
    first = [t.clone() for t in tensors_of(first)]
    h.witness.output("memoization", "first", first)
    # New values written through .data, so the tensors keep their identity, pointer and _version.
    _, rewritten = verdicts.memo_inputs(h)
    with h.torch.no_grad():
        for t, new in zip(inputs, rewritten):
            if isinstance(t, h.torch.Tensor) and t.is_floating_point():
                t.data.copy_(new)
    second = h.call(h.sol, inputs)
    h.witness.output("memoization", "second", second)
    # The same values in new tensors: an identity-keyed cache computes these afresh.
    fresh = h.call(h.sol, clone_inputs(inputs))
    h.witness.output("memoization", "fresh", fresh)
    h.witness.complete("memoization")
    status, check, reason, numbers, _ = verdicts.memoization(h, first, second, fresh)
    h.report("memoization", status, check, reason, **numbers)


def storages(tensors):
    spans = []
    for t in tensors:
        try:
            s = t.untyped_storage() if hasattr(t, "untyped_storage") else t.storage()
            size = s.nbytes() if hasattr(s, "nbytes") else s.size() * s.element_size()
            spans.append((s.data_ptr(), s.data_ptr() + size))
        except Exception:
            pass
    return spans


def shared_outputs(outs, owned):
    """Indices of the output tensors whose storage overlaps one of `owned`'s."""
    spans = storages(owned)
    return {i for i, (lo, hi) in enumerate(storages(outs)) if any(lo < e and b < hi for b, e in spans) and lo != 0}


def aliasing(h):
    inputs = h.inputs(h.seeds[0])
    before = clone_inputs(inputs)
    ref_inputs = clone_inputs(inputs)
    ref_out = h.call(h.ref, ref_inputs)
    ref_mutates = any(relative_error(a, b) > 0 for a, b in zip(tensors_of(ref_inputs), tensors_of(before)))
    # Outputs that alias the inputs by contract (a decode step returns the state it updated in
    # place) are the reference's too, and are not the solution's finding.
    contract = shared_outputs(tensors_of(ref_out), tensors_of(ref_inputs) + list(h.ref.parameters()) +
                              list(h.ref.buffers()))
    out = h.call(h.sol, inputs)
    outs = tensors_of(out)
    shared = sorted(shared_outputs(outs, tensors_of(inputs)) - contract)
    # An output in the solution's own parameter or buffer (a reused output buffer) is not an
    # input alias: the next call overwrites the caller's previous result, which is reported, but
    # no rule is about it.
    internal = sorted(shared_outputs(outs, list(h.sol.parameters()) + list(h.sol.buffers())) - contract - set(shared))
    mutated = any(relative_error(a, b) > 0 for a, b in zip(tensors_of(inputs), tensors_of(before)))
    what = ("output %s shares storage with an input" % shared[0]) if shared else \
        "the solution modified its inputs; the reference does not" if mutated and not ref_mutates else ""
    # The reference's output in memory of the inputs: a solution writing into them would change
    # the answer it is compared with, whatever the order.
    ref_aliases = bool(shared_outputs(tensors_of(ref_out), tensors_of(ref_inputs)))
    if what and order_allows_writes(h) and not ref_aliases:
        full_work(h, what)
    elif what:
        h.report("aliasing", "finding", "", what)
    elif internal:
        h.report("aliasing", "passed", reason="output %s is the solution's own parameter or buffer (reused "
                 "across calls: the next call overwrites it)" % internal[0])
    else:
        h.report("aliasing", "passed")


def order_allows_writes(h):
    """Whether the suite's grader has the reference see the inputs before the solution (or gives
    the solution a copy): a solution writing into its inputs then cannot change the answer it is
    compared with."""
    return getattr(h.args, "call_order", "unknown") in ("reference-first", "solution-on-copy")


def full_work(h, what):
    """An output in the inputs' memory, or inputs written in place, under a grader that calls the
    reference first: legal when every call does the full work, also on inputs an earlier call
    already wrote into (the timed loop reuses them). A second call on the same input objects that
    issues fewer operations skips work the first did."""
    from .ordering import work_of

    inputs = h.inputs(h.seeds[0])
    first, second = work_of(h, h.sol, inputs)
    numbers = {"first_call_ops": first, "second_call_ops": second}
    order = "calls the reference first on those inputs" if h.args.call_order == "reference-first" else \
        "hands the solution a copy of the inputs"
    if second < first:
        h.report("aliasing", "finding", "", "%s, and on the inputs its first call wrote into, a second call issues %d "
                 "operations instead of %d: it skips work on inputs it already processed" % (what, second, first),
                 **numbers)
        return
    h.report("aliasing", "passed", "", "%s: allowed, since %s's harness %s and every call does the full work (%d "
             "operation%s each on the same inputs)" % (what, h.args.suite, order, first, "" if first == 1 else "s"),
             **numbers)


def uninitialized(h):
    torch = h.torch
    inputs = h.inputs(h.seeds[0])
    restore = h.poison_allocations()
    try:
        out = h.call(h.sol, inputs)
    finally:
        restore()
    ref_out = h.call(h.ref, clone_inputs(inputs))
    poisoned = any(bool(torch.isnan(o).any()) and not bool(torch.isnan(r).any())
                   for o, r in zip(tensors_of(out), tensors_of(ref_out)) if o.is_floating_point())
    if poisoned:
        h.report("uninitialized_output", "finding", "",
                 "the output contains the sentinel written into freshly allocated memory")
    else:
        note = "" if h.device == "cuda" else "on CPU only Python-side allocations are poisoned"
        h.report("uninitialized_output", "passed", reason=note)
