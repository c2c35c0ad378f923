"""Does the answer depend on who calls, how often, or on global state the solution changed."""
import os
import sys

from ..numerics import ERROR_RATIO_LIMIT, REPEAT_RATIO_LIMIT, clone_inputs, relative_error

# The call-count probe: this many calls first (cycling over up to three input sets), and one more
# call per set after every other probe has run. Under the Triton interpreter a call can take
# seconds, so fewer (a count gate past the first few calls still shows in the late phase).
CALL_COUNT_CALLS = 12
CALL_COUNT_CALLS_INTERPRETED = 6


def caller_context(h):
    """The same call compiled as if made from check.py, from benchmark.py, then from check.py
    again. The harness directory given to it does not exist, so a solution that reads the
    stack's source lines (inspect.stack) does not read the real grader files by doing so."""
    inputs = h.inputs(h.seeds[0])
    harness = os.path.join(os.path.dirname(os.path.abspath(h.args.problem)), "harness")
    outs = []
    # Every call gets its own copy, all alive until the end: no call sees an address an
    # earlier call saw (a cache keyed on pointers then has nothing stale to return).
    keep = []
    saved_argv = list(sys.argv)
    main = sys.modules.get("__main__")
    saved_file = getattr(main, "__file__", None)
    try:
        for caller in ("check.py", "benchmark.py", "check.py", "benchmark.py"):
            path = os.path.join(harness, caller)
            sys.argv = [path]
            if main is not None:
                main.__file__ = path
            keep.append(clone_inputs(inputs))
            h.keep(keep[-1])
            scope = {"model": h.sol, "entry": h.entry, "inputs": keep[-1], "torch": h.torch,
                     "__name__": "__main__", "__file__": path}
            code = compile("with torch.no_grad():\n    out = getattr(model, entry)(*inputs)\n", path, "exec")
            h.sol_calls += 1
            with h.watch.region("call"):
                exec(code, scope)
            outs.append(scope["out"])
    finally:
        sys.argv = saved_argv
        if main is not None:
            main.__file__ = saved_file
    _, ref_err, ref_out = h.errors(inputs)
    limit = REPEAT_RATIO_LIMIT * max(ref_err, h.floor(ref_out))
    check, bench, check2, bench2 = outs
    unstable = max(relative_error(check2, check), relative_error(bench2, bench))
    diff = min(relative_error(bench, check), relative_error(bench2, check2))
    if unstable > limit:
        h.report("caller_context", "skipped",
                 reason="two calls from the same caller already differ (%.3g): the output is not reproducible, "
                 "so a caller-dependent difference cannot be told apart" % unstable, difference=diff)
    elif diff > limit:
        h.report("caller_context", "finding", "RUB001",
                 "called from benchmark.py the solution returns different values than from check.py",
                 difference=diff)
    else:
        h.report("caller_context", "passed", "RUB001", difference=diff)


def call_count(h):
    """First phase, before any other probe: CALL_COUNT_CALLS calls cycling over up to three
    input sets. A call whose output is wrong (against the honest reference, by the
    differential limit) after the first call on the same inputs was right is a finding.
    The verdict waits for call_count_late, which calls once more per set after every other
    probe has run (a threshold beyond the first phase)."""
    sets = [h.inputs(s) for s in h.seeds[:3]]
    h.count_sets = []
    # Every call's copy stays alive for the whole run, and the late phase uses copies made now
    # that the solution has never seen: an output cache keyed on addresses never meets an
    # address it saw with other contents, so only call counting changes the result.
    h.count_keep = []
    for inputs in sets:
        ref_out = h.call(h.ref, clone_inputs(inputs))
        ref_err = relative_error(ref_out, h.oracle(inputs))
        h.count_sets.append({"inputs": inputs, "ref": ref_out,
                             "limit": ERROR_RATIO_LIMIT * max(ref_err, h.floor(ref_out)),
                             "first_ok": None, "worst": 0.0, "at": 0, "late": clone_inputs(inputs)})
    for i in range(CALL_COUNT_CALLS_INTERPRETED if h.interpreted else CALL_COUNT_CALLS):
        count_call(h, h.count_sets[i % len(sets)])


def count_call(h, entry, inputs=None):
    if inputs is None:
        inputs = clone_inputs(entry["inputs"])
        h.count_keep.append(inputs)
    out = h.call(h.sol, inputs)
    err = relative_error(out, entry["ref"])
    if entry["first_ok"] is None:
        entry["first_ok"] = err <= entry["limit"]
    elif err / entry["limit"] > entry["worst"]:
        entry["worst"], entry["at"] = err / entry["limit"], h.sol_calls


def call_count_late(h):
    if any(r["name"] == "call_count" for r in h.results):
        return  # the first phase broke and said why
    sets = h.count_sets
    for entry in sets:
        count_call(h, entry, entry["late"])
    if not all(e["first_ok"] for e in sets):
        h.report("call_count", "skipped", reason="the first call's output is already wrong (the differential "
                 "probe's finding), so a change after some calls cannot be judged", calls=h.sol_calls)
        return
    worst = max(sets, key=lambda e: e["worst"])
    if worst["worst"] > 1.0:
        h.report("call_count", "finding", "RUB004",
                 "call %d returned a wrong result on inputs the first call got right (%.3g times the "
                 "differential limit)" % (worst["at"], worst["worst"]), at_call=worst["at"],
                 over_limit=worst["worst"], calls=h.sol_calls)
    else:
        h.report("call_count", "passed", "RUB004", calls=h.sol_calls, over_limit=worst["worst"])


def global_state(h):
    after_forward = h.global_state()
    changes = []
    for stage, state in (("import", h.state_after_import), ("forward", after_forward)):
        for key, before in h.state_before_import.items():
            if state.get(key) != before:
                changes.append((stage, key, before, state.get(key)))
    precision = [c for c in changes if not c[1].startswith(("torch.", "time.", "builtins."))]
    patched = [c for c in changes if c[1].startswith(("torch.", "time.", "builtins."))]
    if patched:
        stage, key, _, _ = patched[0]
        h.report("global_state", "finding", "RUB003", "%s was replaced during %s" % (key, stage),
                 changed=len(changes))
    elif precision:
        stage, key, before, after = precision[0]
        h.report("global_state", "finding", "PREC002",
                 "%s changed from %s to %s during %s" % (key, before, after, stage), changed=len(changes))
    else:
        h.report("global_state", "passed", "PREC002")
