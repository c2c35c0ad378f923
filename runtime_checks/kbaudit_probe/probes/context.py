"""Does the answer depend on who calls, how often, or on global state the solution changed."""
import os
import sys

from .. import verdicts
from ..numerics import clone_inputs, snapshot

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
        for caller in verdicts.CALLERS:
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
            outs.append(snapshot(scope["out"]))  # the next call may reuse its output buffer
    finally:
        sys.argv = saved_argv
        if main is not None:
            main.__file__ = saved_file
    for i, out in enumerate(outs):
        h.witness.output("caller_context", i, out)
    h.witness.complete("caller_context")
    status, check, reason, numbers, _ = verdicts.caller_context(h, outs)
    h.report("caller_context", status, check, reason, **numbers)


def call_count(h):
    """First phase, before any other probe: CALL_COUNT_CALLS calls cycling over up to three
    input sets. A call whose output is wrong (against the honest reference, by the
    differential limit) after the first call on the same inputs was right is a finding.
    The verdict waits for call_count_late, which calls once more per set after every other
    probe has run (a threshold beyond the first phase)."""
    sets = [h.inputs(s) for s in h.seeds[:3]]
    # Every call's copy stays alive for the whole run, and the late phase uses copies made now
    # that the solution has never seen: an output cache keyed on addresses never meets an
    # address it saw with other contents, so only call counting changes the result.
    h.count_keep = []
    h.count_late = [clone_inputs(inputs) for inputs in sets]
    h.count_judge = verdicts.CallCount(h)
    for i in range(CALL_COUNT_CALLS_INTERPRETED if h.interpreted else CALL_COUNT_CALLS):
        inputs = clone_inputs(sets[i % len(sets)])
        h.count_keep.append(inputs)
        count_call(h, i % len(sets), inputs)


def count_call(h, index, inputs):
    out = h.call(h.sol, inputs)
    h.witness.output("call_count", [index, h.sol_calls], out)
    h.count_judge.add(index, h.sol_calls, out)


def call_count_late(h):
    if any(r["name"] == "call_count" for r in h.results):
        return  # the first phase broke and said why
    for index, inputs in enumerate(h.count_late):
        count_call(h, index, inputs)
    h.witness.complete("call_count")
    status, check, reason, numbers, _ = h.count_judge.verdict()
    h.report("call_count", status, check, reason, **numbers)


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
        h.report("global_state", "finding", "torch-replaced", "%s was replaced during %s" % (key, stage),
                 changed=len(changes))
    elif precision:
        stage, key, before, after = precision[0]
        h.report("global_state", "finding", "",
                 "%s changed from %s to %s during %s" % (key, before, after, stage), changed=len(changes))
    else:
        h.report("global_state", "passed")
