"""What an interpreted Triton launch touches and what it gives back (CPU mapping, issue 26).

Two gaps between Triton's interpreter and a GPU that made honest-looking runs unprobeable:

* **Out-of-bounds stores.** On a GPU a kernel that stores a few rows past the end of its output
  (an unmasked last tile) writes into the caching allocator's slack or faults; under the
  interpreter a CPU tensor's storage is used in place, so the same store corrupts the heap and the
  worker dies (`double free or corruption`, SIGABRT) before it answers. `install_guards` gives
  every launch copies of its arguments' storages inside guard zones filled with a known byte,
  copies the in-bounds bytes back after the launch and checks the zones: a store outside its
  tensor lands in a zone, is dropped (as memory the kernel does not own) and is reported in the
  notes, with the kernel, the argument and how many bytes, instead of killing the run.
* **Compiled-kernel handles.** `kernel[grid](...)` returns a `CompiledKernel` on a GPU; some
  solutions keep it and relaunch through `handle.run(gx, gy, gz, stream, function,
  packed_metadata, launch_metadata, enter_hook, exit_hook, *args)` or `handle[grid](*args)` to
  skip the launcher's Python overhead. The interpreter returns None. `LaunchHandle` stands in:
  its relaunches go through a fresh `GridExecutor`, so launch counting and kernel ablation (which
  patch `GridExecutor.__call__`) see them like any other launch.
"""
import types

GUARD_BYTE = 0xA5
# Each side's zone: the storage's own size, at least MIN_GUARD, at most MAX_GUARD (an unmasked
# tile overruns by at most a block of rows; larger overruns than MAX_GUARD still corrupt).
MIN_GUARD = 1 << 20
MAX_GUARD = 64 << 20
# Above this many argument bytes in one launch the zones shrink to MIN_GUARD (memory and copy
# time at shapes the interpreter cannot finish anyway).
LARGE_LAUNCH = 512 << 20


def guard_size(nbytes, launch_bytes):
    if launch_bytes > LARGE_LAUNCH:
        return MIN_GUARD
    guard = min(max(nbytes, MIN_GUARD), MAX_GUARD)
    return (guard + 63) // 64 * 64  # aligned for every dtype that views the buffer


class LaunchHandle:
    """A stand-in for the CompiledKernel a GPU launch returns (see the module doc)."""

    def __init__(self, executor_cls, fn, arg_names):
        self._executor_cls = executor_cls
        self._fn = fn
        self._arg_names = arg_names
        self.name = getattr(fn, "__name__", "kernel")
        self.function = object()  # an opaque handle, as the driver's CUfunction is to Python
        self.module = None
        self.packed_metadata = None
        self.metadata = types.SimpleNamespace(name=self.name, num_warps=4, num_stages=3, shared=0)
        self.n_regs = 0
        self.n_spills = 0
        self.n_max_threads = 1024

    def _init_handles(self):
        pass

    def run(self, grid_x, grid_y, grid_z, stream, function, packed_metadata, launch_metadata,
            enter_hook, exit_hook, *args):
        return self._executor_cls(self._fn, self._arg_names, (grid_x, grid_y, grid_z))(*args)

    def launch_metadata(self, grid, stream, *args):
        return None

    def __getitem__(self, grid):
        def runner(*args, stream=None):
            grid3 = tuple(grid) + (1,) * (3 - len(grid))
            return self.run(grid3[0], grid3[1], grid3[2], stream, self.function, None, None, None, None, *args)

        return runner


def install_handles(executor_cls):
    """Makes every interpreted launch (and `warmup=True`) return a LaunchHandle."""
    original = executor_cls.__call__

    def call(self_, *args, **kwargs):
        result = original(self_, *args, **kwargs)
        return result if result is not None else LaunchHandle(executor_cls, self_.fn, self_.arg_names)

    executor_cls.__call__ = call


def install_guards(mapping):
    """Replaces GridExecutor's argument copies with guarded ones (see the module doc); returns
    False, changing nothing, where this Triton's interpreter lacks what it needs."""
    import torch
    try:
        from triton.runtime import interpreter as it
        executor_cls = it.GridExecutor
        unwrap, rewrap, tuple_create = it._unwrap_tensor, it._rewrap_tensor, it._tuple_create
        descriptor = it.TensorDescriptor
        executor_cls._init_args_hst
        executor_cls._restore_args_dev
    except Exception:
        return False

    def as_bytes(storage):
        return torch.empty(0, dtype=torch.uint8).set_(storage)

    def init_args_hst(self_, args_dev, kwargs):
        tensors = []

        def collect(arg):
            if isinstance(arg, tuple):
                for a in arg:
                    collect(a)
            elif isinstance(arg, descriptor):
                collect(arg.base)
            elif hasattr(arg, "data_ptr") and hasattr(arg, "untyped_storage"):
                tensors.append(unwrap(arg))

        for arg in list(args_dev) + list(kwargs.values()):
            collect(arg)
        seen = {}
        for t in tensors:
            seen.setdefault(t.untyped_storage().data_ptr(), t.untyped_storage())
        launch_bytes = sum(s.nbytes() for s in seen.values())
        guarded = {}  # device storage pointer -> (device storage, guarded buffer, guard, nbytes)
        for ptr, storage in seen.items():
            n = storage.nbytes()
            guard = guard_size(n, launch_bytes)
            buf = torch.full((guard + n + guard,), GUARD_BYTE, dtype=torch.uint8)
            if n:
                buf[guard:guard + n].copy_(as_bytes(storage))
            guarded[ptr] = (storage, buf, guard, n)
        self_._kbaudit_guarded = guarded

        def to_host(arg):
            if isinstance(arg, tuple):
                return tuple_create(arg, map(to_host, arg))
            if isinstance(arg, descriptor):
                return descriptor(to_host(arg.base), arg.shape, arg.strides, arg.block_shape, arg.padding)
            if not (hasattr(arg, "data_ptr") and hasattr(arg, "untyped_storage")):
                return arg
            t = unwrap(arg)
            _, buf, guard, _ = guarded[t.untyped_storage().data_ptr()]
            host = torch.empty(0, dtype=t.dtype)
            host.set_(buf.untyped_storage(), guard // t.element_size() + t.storage_offset(), t.size(), t.stride())
            return rewrap(host, original_tensor=arg)

        return [to_host(a) for a in args_dev], {k: to_host(v) for k, v in kwargs.items()}

    def restore_args_dev(self_, args_dev, args_hst, kwargs, kwargs_hst):
        guarded = getattr(self_, "_kbaudit_guarded", {})
        self_._kbaudit_guarded = {}
        for storage, buf, guard, n in guarded.values():
            before = int((buf[:guard] != GUARD_BYTE).sum())
            after = int((buf[guard + n:] != GUARD_BYTE).sum())
            if before or after:
                mapping.note_out_of_bounds(getattr(self_.fn, "__name__", "kernel"), n, before, after)
            if n:
                as_bytes(storage).copy_(buf[guard:guard + n])

    executor_cls._init_args_hst = init_args_hst
    executor_cls._restore_args_dev = restore_args_dev
    return True
