"""CUDA graphs on a CPU: capture records the operations, replay runs them again.

A GPU does not run the work it captures: `torch.cuda.graph(g)` records every kernel launched in
the block against the memory it was captured on, and `g.replay()` launches them all again on
the stream current at the replay, reading whatever that memory holds then. The stand-in keeps
that contract:

* capture records every torch operator (through the ordering recorder, a TorchDispatchMode) and
  every Triton launch or extension call (`ordering.launch`) with the very tensors it used. The
  operations run while they are recorded (their results give the block's tensors their shapes),
  and at the end of the capture their effects are undone: memory that existed before the capture
  gets its bytes back, memory allocated inside it is filled with NaN (a graph pool's fresh memory
  holds nothing the block computed). So a solution that captures and then returns the static
  output without replaying gets what a GPU would give it;
* replay runs the recorded operations again in order, on the same tensors, and copies each
  operator's new result into the tensor it returned at capture time (a view is recomputed in
  place), so whatever a later operation or the caller reads is the replay's;
* `torch.cuda.graph(...)` synchronises the device on entry (as torch does) and makes a capture
  stream current inside the block; the replayed work is stamped on the stream current at the
  replay, and, while the ordering probe traces, marked as the replay's.

What is not modelled: graph pools shared between graphs (each keeps its own tensors), capture
errors on synchronising calls inside the block (`.item()` runs), memory the capture frees.
"""
import threading

from .ordering import ORDER, Recording, Suspended, _suspended, _tensors, launch, storage_key


class Capture:
    """What one capture records and must undo."""

    def __init__(self, graph):
        import torch

        self.torch = torch
        self.graph = graph
        self.thread = threading.get_ident()
        self.ops = []
        self.saved = {}    # storage key -> (byte view, bytes before the capture first touched it)
        self.created = {}  # storage key -> a tensor allocated inside the capture

    def _bytes(self, t):
        return self.torch.empty(0, dtype=self.torch.uint8).set_(t.untyped_storage())

    def _save(self, tensors):
        for t in tensors:
            key = storage_key(t)
            if key and key not in self.created and key not in self.saved:
                with Suspended():
                    view = self._bytes(t)
                    self.saved[key] = (view, view.clone())

    def operator(self, func, args, kwargs):
        arg_tensors = _tensors(args, []) + _tensors(kwargs, [])
        # What the schema says the operator writes, saved before it does.
        try:
            schema = func._schema.arguments
        except Exception:
            schema = ()
        for i, a in enumerate(schema):
            if a.alias_info is not None and a.alias_info.is_write:
                value = kwargs.get(a.name) if a.kwarg_only or i >= len(args) else args[i]
                self._save(_tensors(value, []))
        out = func(*args, **kwargs)
        arg_keys = {storage_key(t) for t in arg_tensors}
        for t in _tensors(out, []):
            key = storage_key(t)
            if key and key not in arg_keys and key not in self.saved:
                self.created.setdefault(key, t)
        self.ops.append(("op", func, args, kwargs, out))
        return out

    def launch(self, name, fn, args, kwargs):
        # A launch's writes are known only after it ran: every argument's bytes are kept.
        self._save(_tensors(args, []) + _tensors(kwargs, []))
        out = _suspended(fn, args, kwargs)
        for t in _tensors(out, []):
            key = storage_key(t)
            if key and key not in self.saved:
                self.created.setdefault(key, t)
        self.ops.append(("launch", name, fn, args, kwargs, out))
        return out

    def undo(self):
        """On a GPU the captured block did not run: the memory it wrote holds what it held."""
        torch = self.torch
        with torch.no_grad(), Suspended():
            for view, before in self.saved.values():
                view.copy_(before)
            for t in self.created.values():
                if t.is_floating_point():
                    t.fill_(float("nan"))
        self.saved.clear()
        self.created.clear()


def _copy_into(torch, old, new):
    """A replayed operator's result into the tensors the capture handed out."""
    olds, news = _tensors(old, []), _tensors(new, [])
    for o, n in zip(olds, news):
        if storage_key(o) == storage_key(n) or o.shape != n.shape:
            continue  # an in-place result or a view: already where the capture's tensor looks
        o.copy_(n)


def make_graph_classes(torch, notes):
    """torch.cuda.CUDAGraph and torch.cuda.graph for the CPU mapping."""

    class CUDAGraph:
        def __new__(cls, *a, **k):
            return object.__new__(cls)

        def __init__(self, keep_graph=False, *a, **k):
            self.ops = []
            self._capture = None
            self._recording = None
            self.replays = 0

        def capture_begin(self, pool=None, capture_error_mode="global"):
            if self._capture is not None:
                raise RuntimeError("a capture of this graph is already in progress")
            self._capture = Capture(self)
            self._recording = Recording()
            self._recording.__enter__()
            ORDER.captures.append(self._capture)
            if not any("captured a CUDA graph" in n for n in notes):
                notes.append("the solution captured a CUDA graph: recorded and replayed on CPU (kbaudit_probe/cuda_graphs.py)")

        def capture_end(self):
            capture = self._capture
            if capture is None:
                raise RuntimeError("capture_end without capture_begin")
            try:
                ORDER.captures.remove(capture)
            except ValueError:
                pass
            self._recording.__exit__(None, None, None)
            self._capture = self._recording = None
            capture.undo()
            self.ops = capture.ops

        def instantiate(self):
            pass

        def replay(self):
            trace = ORDER.trace
            if trace is not None:
                trace.replay_began(self)
            self.replays += 1
            previous = getattr(ORDER.local, "replaying", None)
            ORDER.local.replaying = self
            try:
                with torch.no_grad():
                    for op in self.ops:
                        if op[0] == "op":
                            _, func, args, kwargs, out = op
                            _copy_into(torch, out, func(*args, **kwargs))
                        else:
                            _, name, fn, args, kwargs, _ = op
                            launch(name, fn, args, kwargs)
            finally:
                ORDER.local.replaying = previous

        def reset(self):
            self.ops = []

        def pool(self):
            return (0, id(self))

        def enable_debug_mode(self):
            pass

        def debug_dump(self, path):
            pass

    class graph:
        """with torch.cuda.graph(g, pool=None, stream=None, capture_error_mode="global"): ..."""

        default_capture_stream = None

        def __init__(self, cuda_graph, pool=None, stream=None, capture_error_mode="global"):
            if graph.default_capture_stream is None:
                graph.default_capture_stream = torch.cuda.Stream()
            self.cuda_graph = cuda_graph
            self.stream = stream if stream is not None else graph.default_capture_stream
            self.capture_error_mode = capture_error_mode

        def __enter__(self):
            torch.cuda.synchronize()
            ORDER.stack().append(self.stream)
            self.cuda_graph.capture_begin(capture_error_mode=self.capture_error_mode)
            return self

        def __exit__(self, *exc):
            try:
                self.cuda_graph.capture_end()
            finally:
                stack = ORDER.stack()
                if stack:
                    stack.pop()
            return False

    def is_current_stream_capturing():
        capture = ORDER.capturing()
        return capture is not None and capture.thread == threading.get_ident()

    return CUDAGraph, graph, is_current_stream_capturing
