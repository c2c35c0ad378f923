"""The order of device work on a machine without one: CPU stand-ins for CUDA streams and events
that keep the happens-before relation a GPU would have, and a tracer that stamps every operation.

On a CPU every operation finishes before the next starts, so a solution that leaves its work on
a side stream the caller's stream never waits for computes the same answer as one that joins it,
and a no-op stand-in cannot tell them apart. The stand-ins here model what the GPU would order:

* each stream, the host, and each recorded event carry a vector clock (stream id -> how many of
  that stream's operations are known complete); an operation issued on stream S takes the next
  number on S, after the host's clock is merged in (work the host waited for is done before any
  later launch);
* joins merge clocks: `a.wait_stream(b)` (a after b's work so far), `Event.record(s)` (the event
  holds s's clock), `s.wait_event(e)` / `e.wait(s)` (s after the event), and the host's waits:
  `torch.cuda.synchronize()` (every stream), `s.synchronize()`, `e.synchronize()`;
* the current stream is per thread, as CUDA's is: `torch.cuda.stream(s)`, `with s:` and
  `set_stream(s)` change it, and `current_stream()` inside `with torch.cuda.stream(s)` is `s`
  (so `current_stream().wait_stream(s)` written inside the block waits for nothing).

While a `Trace` is active (the ordering probe's calls), every operation is stamped with the
stream current in the thread that issues it: torch operators through a TorchDispatchMode, Triton
launches and extension calls through the hooks below. For every storage the trace keeps the
operation that last wrote it, its stamp, the stamps it depends on (reads of data whose writer was
not yet ordered before it), which call's inputs it derives from, and whether a CUDA-graph replay
wrote it. At forward's return (`Trace.returned`) that answers: is each output ordered before the
caller's stream (or a host wait), did a graph replay produce an output from none of this call's
inputs, and does work keep arriving from other threads after the return.

Other code that launches work (the CUDA-on-CPU runner) reports it with `launch(name, fn, args)`
and asks `current_stream_handle()` for the stream `at::cuda::getCurrentCUDAStream()` returns.
"""
import sys
import threading
import time

# How long after forward's return work from other threads is still watched for.
LATE_GRACE = 0.3


def _merge(into, clock):
    for sid, n in clock.items():
        if into.get(sid, 0) < n:
            into[sid] = n


def _ordered(stamp, known):
    return known.get(stamp[0], 0) >= stamp[1]


def _tensors(value, out):
    """Appends the tensors in `value` (nested lists, tuples, dicts) to `out`."""
    import torch

    if isinstance(value, torch.Tensor):
        out.append(value)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _tensors(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            _tensors(v, out)
    return out


def storage_key(t):
    """The identity of a tensor's storage (0 for one without memory)."""
    try:
        return t.untyped_storage().data_ptr() if t.numel() else 0
    except Exception:
        return 0


def solution_site(dirs):
    """'solution.py:12' for the innermost frame of a file under `dirs`, else ''."""
    import os

    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename
        if dirs and os.path.realpath(name).startswith(dirs):
            return "%s:%d" % (os.path.basename(name), frame.f_lineno)
        frame = frame.f_back
    return ""


class Order:
    """The streams, the host's clock, the per-thread current stream, the active trace and graph
    captures. One per process (`ORDER`), as the CUDA runtime is."""

    def __init__(self):
        self.local = threading.local()
        self.host = {}
        self.streams = []
        self.trace = None
        self.captures = []
        self.solution_dirs = ()
        self.default = None  # set by install(): stream 0, the legacy default stream
        self.suspended = 0   # > 0 inside a launch whose own tensor copies are not the solution's work
        self.lock = threading.RLock()

    # ------------------------------------------------------------------ current stream (per thread)
    def stack(self):
        s = getattr(self.local, "stack", None)
        if s is None:
            s = self.local.stack = []
        return s

    def current(self):
        s = self.stack()
        return s[-1] if s else self.default

    def set_current(self, stream):
        s = self.stack()
        if s:
            s[-1] = stream
        else:
            s.append(stream)

    # ------------------------------------------------------------------ clocks
    def issue(self, stream):
        """A new operation on `stream`: its stamp (stream id, number)."""
        with self.lock:
            _merge(stream.clock, self.host)
            n = stream.clock.get(stream.sid, 0) + 1
            stream.clock[stream.sid] = n
            return stream.sid, n

    def host_waits(self, clock):
        with self.lock:
            _merge(self.host, clock)

    def synchronize(self):
        with self.lock:
            for s in self.streams:
                _merge(self.host, s.clock)

    def capturing(self):
        return self.captures[-1] if self.captures else None


ORDER = Order()


def current_stream_handle():
    """The integer handle of the calling thread's current stream (what C++ would get from
    `at::cuda::getCurrentCUDAStream()`); 0 is the default stream."""
    return ORDER.current().cuda_stream


def make_stand_ins(torch, note):
    """The Stream and Event classes of the CPU mapping (torch.cuda.Stream, torch.cuda.Event)."""

    class Event:
        def __init__(self, enable_timing=False, blocking=False, interprocess=False, **_):
            self.at = None
            self.clock = {}
            self.recorded = False

        def record(self, stream=None):
            stream = stream or ORDER.current()
            self.at = time.perf_counter()
            with ORDER.lock:
                self.clock = dict(stream.clock)
            self.recorded = True

        def wait(self, stream=None):
            (stream or ORDER.current()).wait_event(self)

        def synchronize(self):
            ORDER.host_waits(self.clock)

        def query(self):
            return True

        def elapsed_time(self, other):
            if self.at is None or other.at is None:
                raise RuntimeError("Both events must be recorded before calculating elapsed time.")
            return (other.at - self.at) * 1e3

        def ipc_handle(self):
            raise RuntimeError("CUDA IPC is not available under kbaudit's CPU mapping")

    class Stream:
        def __init__(self, device=None, priority=0, _sid=None, _site="", **_):
            self.device = torch.device("cpu")
            self.priority = priority
            with ORDER.lock:
                self.sid = len(ORDER.streams) if _sid is None else _sid
                ORDER.streams.append(self)
            self.clock = {}
            # A handle distinct per stream, as a cudaStream_t is (0: the default stream).
            self.cuda_stream = 0 if self.sid == 0 else 0x5000 + self.sid
            self.site = _site or (solution_site(ORDER.solution_dirs) if self.sid else "")
            self.entered = []

        @staticmethod
        def priority_range():
            return 0, -5

        def __repr__(self):
            return "<torch.cuda.Stream device=cuda:0 cuda_stream=0x%x (kbaudit CPU stand-in)>" % self.cuda_stream

        def __eq__(self, other):
            return isinstance(other, Stream) and other.sid == self.sid

        def __hash__(self):
            return hash(("kbaudit-stream", self.sid))

        def describe(self):
            if self.sid == 0:
                return "the default stream"
            return "stream %d (created at %s)" % (self.sid, self.site) if self.site else "stream %d" % self.sid

        def wait_stream(self, other):
            with ORDER.lock:
                _merge(self.clock, other.clock)

        def wait_event(self, event):
            with ORDER.lock:
                _merge(self.clock, event.clock)

        def record_event(self, event=None):
            event = event or Event()
            event.record(self)
            return event

        def synchronize(self):
            ORDER.host_waits(self.clock)

        def query(self):
            return True

        def __enter__(self):
            ORDER.stack().append(self)
            return self

        def __exit__(self, *exc):
            stack = ORDER.stack()
            if stack:
                stack.pop()
            return False

    class StreamContext:
        """torch.cuda.stream(s): s is current inside, the previous stream after."""

        def __init__(self, stream):
            self.stream = stream

        def __enter__(self):
            if self.stream is not None:
                ORDER.stack().append(self.stream)
            return self.stream

        def __exit__(self, *exc):
            if self.stream is not None:
                stack = ORDER.stack()
                if stack:
                    stack.pop()
            return False

    def external_stream(stream_ptr=0, device=None, **_):
        """torch.cuda.ExternalStream(ptr): the stream a handle names (0: the default stream)."""
        for s in ORDER.streams:
            if s.cuda_stream == stream_ptr:
                return s
        return Stream()

    ORDER.default = Stream(_sid=0)
    return Stream, Event, StreamContext, external_stream


class Trace:
    """The ordering probe's record of one or more calls of the solution (see the module doc)."""

    def __init__(self, keep_outside=()):
        self.writes = {}      # storage -> Write
        self.taint = {}       # storage -> index of the call whose inputs it derives from (0: none)
        self.replayed = set()  # storages a graph replay wrote
        self.call = 0
        self.ops = 0
        self.late = []        # (thread name, op) issued after a return by another thread
        self.returned_at = None
        self.caller = None
        self.results = []     # one CallResult per traced call
        self.replays = []     # (call, graph) for each replay during a call
        self.constant = set(keep_outside)  # storages that are the model's own state
        self.call_ops = 0
        self.call_log = []    # (stamp, op, stream) of each operation issued before this call returned

    # ------------------------------------------------------------------ calls
    def begin_call(self, inputs):
        self.call += 1
        self.returned_at = None
        self.caller = (threading.get_ident(), ORDER.current())
        self.call_ops = 0
        self.call_log = []
        for t in _tensors(inputs, []):
            key = storage_key(t)
            if key:
                self.taint[key] = self.call

    def returned(self, out):
        """forward returned `out`: what the caller's stream and host know is ordered now."""
        self.returned_at = time.monotonic()
        thread, entry_stream = self.caller
        current = ORDER.current()
        known = dict(ORDER.host)
        _merge(known, entry_stream.clock)
        _merge(known, current.clock)
        result = CallResult(self.call, self.call_ops)
        for index, t in enumerate(_tensors(out, [])):
            key = storage_key(t)
            w = self.writes.get(key)
            if w is None or w.call != self.call:
                continue
            unordered = {s: n for s, n in w.deps.items() if known.get(s, 0) < n}
            if unordered:
                result.unordered_outputs.append((index, w, unordered))
            if key in self.replayed and self.taint.get(key, 0) < self.call:
                result.stale_outputs.append((index, w))
        for stamp, name, stream in self.call_log:
            if not _ordered(stamp, known):
                result.unordered_ops += 1
                result.unordered_streams.setdefault(stream.describe(), name)
        result.replays = [g for c, g in self.replays if c == self.call]
        result.snapshot = _suspended(lambda: [t.detach().clone() for t in _tensors(out, [])], (), {})
        result.out = out
        self.results.append(result)
        return result

    # ------------------------------------------------------------------ operations
    def op(self, name, reads, writes, replay=None):
        """One operation (a torch operator, a Triton launch, an extension call) that read the
        storages of `reads` and wrote those of `writes`, issued on the calling thread's current
        stream."""
        stream = ORDER.current()
        stamp = ORDER.issue(stream)
        with ORDER.lock:
            self.ops += 1
            self.call_ops += 1
            if self.returned_at is not None and threading.get_ident() != self.caller[0]:
                self.late.append((threading.current_thread().name, name))
            elif self.returned_at is None:
                self.call_log.append((stamp, name, stream))
            deps = {stamp[0]: stamp[1]}
            taint = 0
            from_replay = replay is not None
            for key in reads:
                w = self.writes.get(key)
                if w is not None:
                    # A read of data whose writer is not ordered before this operation carries
                    # that writer along: the result is not done until it is.
                    for s, n in w.deps.items():
                        if stream.clock.get(s, 0) < n:
                            if deps.get(s, 0) < n:
                                deps[s] = n
                taint = max(taint, self.taint.get(key, 0))
                from_replay = from_replay or key in self.replayed
            write = Write(name, stamp, deps, self.call, stream, threading.current_thread().name)
            for key in writes:
                if not key:
                    continue
                self.writes[key] = write
                self.taint[key] = taint
                if from_replay:
                    self.replayed.add(key)
                else:
                    self.replayed.discard(key)

    def replay_began(self, graph):
        self.replays.append((self.call, graph))


class Write:
    __slots__ = ("op", "stamp", "deps", "call", "stream", "thread")

    def __init__(self, op, stamp, deps, call, stream, thread):
        self.op, self.stamp, self.deps, self.call, self.stream, self.thread = op, stamp, deps, call, stream, thread


class CallResult:
    def __init__(self, call, ops):
        self.call = call
        self.ops = ops
        self.unordered_outputs = []  # (output index, Write, {stream: number not waited for})
        self.unordered_ops = 0
        self.unordered_streams = {}  # stream described -> an operation left on it
        self.stale_outputs = []      # (output index, Write) produced by a replay from no input of this call
        self.replays = []
        self.snapshot = []
        self.out = None


# ---------------------------------------------------------------------- operator recording


def written_by(func, args, kwargs, out):
    """The storages an operator wrote: the arguments its schema marks as written (in-place and
    out= variants) and returned tensors in memory none of its arguments own (views write
    nothing)."""
    written, arg_keys = [], set()
    for t in _tensors(args, []) + _tensors(kwargs, []):
        arg_keys.add(storage_key(t))
    try:
        schema = func._schema.arguments
    except Exception:
        schema = ()
    for i, a in enumerate(schema):
        if a.alias_info is None or not a.alias_info.is_write:
            continue
        value = kwargs.get(a.name) if a.kwarg_only or i >= len(args) else args[i]
        for t in _tensors(value, []):
            written.append(storage_key(t))
    for t in _tensors(out, []):
        key = storage_key(t)
        if key not in arg_keys:
            written.append(key)
    return written


def read_by(args, kwargs):
    return [storage_key(t) for t in _tensors(args, []) + _tensors(kwargs, [])]


_RECORDER = None


def recorder():
    """The TorchDispatchMode that reports every operator to the active trace or capture."""
    global _RECORDER
    if _RECORDER is not None:
        return _RECORDER
    from torch.utils._python_dispatch import TorchDispatchMode

    class Recorder(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            if ORDER.suspended or (ORDER.trace is None and ORDER.capturing() is None):
                return func(*args, **kwargs)
            capture = ORDER.capturing()
            if capture is not None and capture.thread == threading.get_ident():
                return capture.operator(func, args, kwargs)
            out = func(*args, **kwargs)
            trace = ORDER.trace
            if trace is not None:
                trace.op(str(func), read_by(args, kwargs), written_by(func, args, kwargs, out),
                         replay=getattr(ORDER.local, "replaying", None))
            return out

    _RECORDER = Recorder
    return Recorder


class Recording:
    """Enters the recorder in this thread for a stretch (a trace or a capture), unless it is
    already entered here (other threads run under it permanently: install_threads)."""

    def __init__(self):
        self.mode = None

    def __enter__(self):
        if not getattr(ORDER.local, "recording", False):
            self.mode = recorder()()
            self.mode.__enter__()
            ORDER.local.recording = True
        return self

    def __exit__(self, *exc):
        if self.mode is not None:
            ORDER.local.recording = False
            self.mode.__exit__(None, None, None)
        return False


def install_threads():
    """Every thread started from now on runs under the recorder (a dispatch mode is per thread),
    which passes operators through untouched while no trace or capture is active."""
    bootstrap = threading.Thread._bootstrap_inner
    if getattr(bootstrap, "_kbaudit", False):
        return

    def bootstrap_inner(self_):
        try:
            mode = recorder()()
            mode.__enter__()
            ORDER.local.recording = True
        except Exception:
            return bootstrap(self_)
        try:
            return bootstrap(self_)
        finally:
            try:
                mode.__exit__(None, None, None)
            except Exception:
                pass

    bootstrap_inner._kbaudit = True
    threading.Thread._bootstrap_inner = bootstrap_inner


# ---------------------------------------------------------------------- launches outside ATen


def _bytes_of(torch, t):
    return torch.empty(0, dtype=torch.uint8).set_(t.untyped_storage())


def launch(name, fn, args, kwargs=None):
    """Runs `fn(*args, **kwargs)` as one kernel launch on the current stream: recorded into an
    active graph capture (and replayed with it), stamped by an active trace with the storages it
    read (its tensor arguments) and wrote (the arguments whose bytes changed, and returned
    tensors). Torch operators `fn` runs itself (copies into guard zones) are not the
    solution's operations and are not reported."""
    kwargs = kwargs or {}
    capture = ORDER.capturing()
    if capture is not None and capture.thread == threading.get_ident() and not ORDER.suspended:
        return capture.launch(name, fn, args, kwargs)
    trace = ORDER.trace
    if trace is None or ORDER.suspended:
        return _suspended(fn, args, kwargs)
    import torch

    tensors = [t for t in _tensors(args, []) + _tensors(kwargs, []) if t.numel()]
    storages = {}
    for t in tensors:
        storages.setdefault(storage_key(t), t)
    before = _suspended(lambda: {k: _bytes_of(torch, t).clone() for k, t in storages.items()}, (), {})
    out = _suspended(fn, args, kwargs)
    written = _suspended(lambda: [k for k, t in storages.items() if not torch.equal(before[k], _bytes_of(torch, t))],
                         (), {})
    written += [storage_key(t) for t in _tensors(out, []) if storage_key(t) not in storages]
    trace.op(name, list(storages), written, replay=getattr(ORDER.local, "replaying", None))
    return out


def _suspended(fn, args, kwargs):
    ORDER.suspended += 1
    try:
        return fn(*args, **kwargs)
    finally:
        ORDER.suspended -= 1


def install_triton(executor_cls):
    """Interpreted Triton launches (every one runs a GridExecutor) go through `launch`."""
    original = executor_cls.__call__

    def call(self_, *args, **kwargs):
        if ORDER.trace is None and ORDER.capturing() is None:
            return original(self_, *args, **kwargs)
        return launch("triton:%s" % getattr(self_.fn, "__name__", "kernel"),
                      lambda *a, **k: original(self_, *a, **k), args, kwargs)

    executor_cls.__call__ = call


def wrap_extension(module):
    """The functions of an extension module a solution built (cpp_extension.load/load_inline)
    report each call as a launch."""
    if module is None or getattr(module, "_kbaudit_ordered", False):
        return module
    for name in dir(module):
        if name.startswith("_"):
            continue
        fn = getattr(module, name, None)
        if callable(fn) and type(fn).__name__ == "builtin_function_or_method":
            def call(*args, _fn=fn, _name=name, **kwargs):
                if ORDER.trace is None and ORDER.capturing() is None:
                    return _fn(*args, **kwargs)
                return launch("extension:%s" % _name, _fn, args, kwargs)

            call.__name__ = name
            call.__doc__ = getattr(fn, "__doc__", None)
            try:
                setattr(module, name, call)
            except Exception:
                pass
    try:
        module._kbaudit_ordered = True
    except Exception:
        pass
    return module


# ---------------------------------------------------------------------- tracing


class Suspended:
    """`with Suspended():` the probe's own torch operators, not the solution's."""

    def __enter__(self):
        ORDER.suspended += 1
        return self

    def __exit__(self, *exc):
        ORDER.suspended -= 1
        return False


class Tracing:
    """`with Tracing(constant_storages) as trace:` stamps every operation in this process."""

    def __init__(self, constant=()):
        self.trace = Trace(constant)
        self.recording = Recording()

    def __enter__(self):
        ORDER.trace = self.trace
        self.recording.__enter__()
        return self.trace

    def __exit__(self, *exc):
        self.recording.__exit__(*exc)
        ORDER.trace = None
        return False
