"""Is the work forward launches ordered before the caller's stream when forward returns.

On a machine without a GPU every operation has finished before the next starts, so work left on
a side stream, a stale graph replay and a thread that finishes the output later all compute the
right answer; what differs is the order a GPU would give them. The CPU stand-ins for streams,
events, graphs and threads keep that order (ordering.py, cuda_graphs.py), and this probe traces
two calls with fresh inputs and answers at each return:

* `stream_order`: an output last written on a stream neither the caller's stream nor a host wait
  was ordered after (directly or through events and other streams), or work left unjoined;
* `graph_replay`: an output a CUDA-graph replay produced from none of this call's inputs (the
  graph's static inputs were not refreshed: it replays an earlier call's work);
* `thread_order`: work other threads issue after forward returned, or an output that changes
  after the return.

On a GPU the timing probe measures the first directly; these are `skipped` there.
"""
import time

from ..numerics import clone_inputs, tensors_of

NAMES = ("stream_order", "graph_replay", "thread_order")
# Input seeds no other probe uses.
TRACE_SEEDS = (6007, 6011)


class Returning:
    """The solution's entry point, with the moment it returns marked for the trace."""

    def __init__(self, h, trace):
        self.h, self.trace = h, trace
        setattr(self, h.entry, self.entry)

    def entry(self, *inputs):
        out = getattr(self.h.sol, self.h.entry)(*inputs)
        self.trace.returned(out)
        return out


def model_storages(h, model):
    from ..ordering import storage_key

    return {storage_key(t) for t in list(model.parameters()) + list(model.buffers())}


def traced_calls(h, input_sets):
    """Runs the solution on each input set under the tracer; returns the trace."""
    from ..ordering import LATE_GRACE, Tracing

    with Tracing(model_storages(h, h.sol)) as trace:
        for inputs in input_sets:
            trace.begin_call(inputs)
            h.call(Returning(h, trace), inputs, solution=True)
        # Work another thread issues after the last return (the state watch waited too).
        time.sleep(LATE_GRACE)
    return trace


def ordering(h):
    if not h.interpreted:
        for name in NAMES:
            h.report(name, "skipped", reason="on a GPU the timing probe measures the stream order itself; the tracer "
                     "runs on the CPU stand-ins")
        return
    input_sets = [h.inputs(seed + h.seeds[0]) for seed in TRACE_SEEDS]
    trace = traced_calls(h, [clone_inputs(i) for i in input_sets])
    stream_order(h, trace)
    graph_replay(h, trace)
    thread_order(h, trace)


def stream_order(h, trace):
    from ..ordering import ORDER

    numbers = {"traced_ops": trace.ops, "streams": len(ORDER.streams)}
    for result in trace.results:
        if result.unordered_outputs:
            index, write, unordered = result.unordered_outputs[0]
            h.report("stream_order", "finding", "",
                     "output %d was last written by %s on %s, and forward returned without the caller's stream or "
                     "the host waiting for that work (%d operation%s left unjoined)" % (
                         index, write.op, write.stream.describe(), result.unordered_ops,
                         "" if result.unordered_ops == 1 else "s"),
                     unordered_ops=result.unordered_ops, call=result.call, **numbers)
            return
    for result in trace.results:
        if result.unordered_ops:
            where, op = next(iter(result.unordered_streams.items()))
            h.report("stream_order", "finding", "",
                     "%d operation%s (%s on %s) were still unjoined when forward returned: the caller's stream never "
                     "waits for them, so a timer on it stops before they run" % (
                         result.unordered_ops, "" if result.unordered_ops == 1 else "s", op, where),
                     unordered_ops=result.unordered_ops, call=result.call, **numbers)
            return
    used = sorted({w.stream.describe() for w in trace.writes.values() if w.stream.sid})
    h.report("stream_order", "passed", "", ("work on %s was joined before forward returned" % ", ".join(used))
             if used else "forward ran on the caller's stream only", **numbers)


def graph_replay(h, trace):
    replays = sum(len(r.replays) for r in trace.results)
    for result in trace.results:
        if result.stale_outputs:
            index, write = result.stale_outputs[0]
            h.report("graph_replay", "finding", "",
                     "output %d came from a CUDA-graph replay (%s) that read none of this call's inputs: the graph's "
                     "static inputs still held an earlier call's data, so the replay repeats that call's work" % (
                         index, write.op), replays=replays, call=result.call)
            return
    h.report("graph_replay", "passed", "", "%d replay%s, each fed this call's inputs" % (
        replays, "" if replays == 1 else "s") if replays else "no CUDA graph was replayed", replays=replays)


def thread_order(h, trace):
    late = list(trace.late)
    changed = []
    for result in trace.results[-1:]:
        for i, (now, then) in enumerate(zip(tensors_of(result.out), result.snapshot)):
            try:
                now = now.detach()
                same = now.shape == then.shape and bool(((now == then) | (now.isnan() & then.isnan())).all())
            except Exception:
                same = True
            if not same:
                changed.append(i)
    if late or changed:
        what = []
        if late:
            thread = late[0][0]
            what.append("%d operation%s (%s) ran on thread %s after forward returned" % (
                len(late), "" if len(late) == 1 else "s", late[0][1], thread))
        if changed:
            what.append("output %d changed after forward returned" % changed[0])
        h.report("thread_order", "finding", "", "; ".join(what) + ": work finishes after the timed call",
                 late_ops=len(late), changed_outputs=len(changed))
        return
    h.report("thread_order", "passed", "", late_ops=0)


def work_of(h, model, inputs, calls=2):
    """How many operations each of `calls` calls of `model` on the same input objects issues
    (torch operators, Triton launches, extension calls): a call that skips work on inputs an
    earlier call already processed issues fewer."""
    from ..ordering import ORDER, Tracing

    counts = []
    if ORDER.default is None:  # no CPU mapping (a GPU): count torch operators alone
        return operators_per_call(h, model, inputs, calls)
    with Tracing(model_storages(h, model)) as trace:
        for _ in range(calls):
            trace.begin_call(inputs)
            before = trace.ops
            h.call(model, inputs, solution=True)
            counts.append(trace.ops - before)
    return counts


def operators_per_call(h, model, inputs, calls):
    from torch.utils._python_dispatch import TorchDispatchMode

    counts = []

    class Count(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            counts[-1] += 1
            return func(*args, **(kwargs or {}))

    for _ in range(calls):
        counts.append(0)
        with Count():
            h.call(model, inputs, solution=True)
    return counts
