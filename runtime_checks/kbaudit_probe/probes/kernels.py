"""Do the authored kernels do the work, and does the timed stream see all of it."""
import time

from ..numerics import ERROR_RATIO_LIMIT, clone_inputs, relative_error

# The largest error (relative to the output's largest magnitude) an output computed with every
# authored kernel disabled may have and still count as right.
ABLATED_ERROR_LIMIT = 0.05


def launch_switches(h, launches):
    """(classes, attribute, replacement) pairs that make every Triton launch a no-op: under the
    interpreter every launch, direct or autotuned, runs a GridExecutor; compiled, JITFunction and
    the autotuner / heuristics wrappers all launch through __getitem__."""
    if h.interpreted:
        from triton.runtime.interpreter import GridExecutor

        from ..interpreter_launch import LaunchHandle

        def no_run(self_, *a, **k):
            launches.append(1)
            # What a launch returns (a handle a solution may keep and relaunch through: the
            # relaunch runs a GridExecutor again, so it is disabled too).
            return LaunchHandle(GridExecutor, self_.fn, self_.arg_names)

        return [(GridExecutor, "__call__", no_run)]
    import triton.runtime.jit as jit

    def no_launch(self_, grid):
        launches.append(1)
        return lambda *a, **k: None

    classes = [c for c in (getattr(jit, "KernelInterface", None), jit.JITFunction) if c is not None]
    return [(c, "__getitem__", no_launch) for c in classes]


def ablation(h):
    """Every Triton launch made a no-op: if a freshly built solution's first output is still right,
    the authored kernels did not do the work (WRAP001). The inputs come from a seed no other probe
    uses and fresh allocations are poisoned, so a buffer left over from an earlier call cannot hold
    the right answer by accident."""
    if h.device != "cuda" and not h.interpreted:
        h.report("kernel_ablation", "skipped", reason="needs CUDA or the Triton interpreter: authored kernels "
                 "cannot run on this CPU")
        return
    try:
        import triton.runtime.jit  # noqa: F401
    except Exception:
        h.report("kernel_ablation", "skipped", reason="Triton is not installed; embedded-CUDA ablation is not "
                 "implemented yet")
        return
    inputs = h.inputs(7919 + h.seeds[0])
    # A fresh solution model: state an earlier call derived with a kernel (dequantized or packed
    # weights, a launch plan) is legitimately reused, and must not pass for work done without one.
    fresh_sol = h.fresh_solution()
    launches = []
    switches = launch_switches(h, launches)
    saved = [(c, name, c.__dict__.get(name)) for c, name, _ in switches]
    restore = h.poison_allocations()
    try:
        for c, name, fn in switches:
            setattr(c, name, fn)
        out = h.call(fresh_sol, clone_inputs(inputs), solution=True)
    finally:
        for c, name, fn in saved:
            if fn is None:
                delattr(c, name)
            else:
                setattr(c, name, fn)
        restore()
    if not launches:
        h.report("kernel_ablation", "skipped", reason="no Triton launch happened in forward")
        return
    _, ref_err, ref_out = h.errors(inputs)
    err = relative_error(out, h.oracle(inputs))
    # "Still correct" also needs the error small in absolute terms: for a bf16 output the ratio
    # limit alone (64 x 2 eps = 1.0) would pass an all-zero output, which is what an honest
    # kernel's zero-initialised accumulator gives when its launch is disabled.
    if err <= min(ERROR_RATIO_LIMIT * max(ref_err, h.floor(ref_out)), max(ABLATED_ERROR_LIMIT, 2 * ref_err)):
        h.report("kernel_ablation", "finding", "",
                 "with every Triton launch disabled the output is still correct", launches=len(launches),
                 ablated_error=err, reference_error=ref_err)
    else:
        h.report("kernel_ablation", "passed", launches=len(launches), ablated_error=err)


def timing(h):
    if h.device != "cuda":
        h.report("timing", "skipped", reason="needs CUDA events: interpreted or CPU time says nothing about the GPU")
        return
    torch = h.torch
    inputs = h.inputs(h.seeds[0])
    for _ in range(3):
        h.call(h.sol, inputs)

    def timed(fresh, events):
        total = 0.0
        for _ in range(10):
            args = clone_inputs(inputs) if fresh else inputs
            torch.cuda.synchronize()
            if events:
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
                with torch.no_grad():
                    getattr(h.sol, h.entry)(*args)
                end.record()
                end.synchronize()
                total += start.elapsed_time(end)
            else:
                t0 = time.perf_counter()
                with torch.no_grad():
                    getattr(h.sol, h.entry)(*args)
                torch.cuda.synchronize()
                total += (time.perf_counter() - t0) * 1e3
        return total / 10

    reused, fresh = timed(False, True), timed(True, True)
    events_ms, sync_ms = reused, timed(False, False)
    numbers = {"reused_ms": reused, "fresh_ms": fresh, "events_ms": events_ms, "device_sync_ms": sync_ms}
    if fresh > 3.0 * reused and fresh - reused > 0.05:
        h.report("timing", "finding", "fresh-inputs", "fresh inputs take %.1fx as long as reused ones" %
                 (fresh / reused), **numbers)
    elif sync_ms > 3.0 * events_ms and sync_ms - events_ms > 0.05:
        h.report("timing", "finding", "device-sync", "device-wide synchronisation takes %.1fx the stream-event "
                 "time: work escapes the timed stream" % (sync_ms / max(events_ms, 1e-6)), **numbers)
    else:
        h.report("timing", "passed", "", **numbers)
