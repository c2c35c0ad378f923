"""Runs code written for a GPU on CPU tensors, with Triton kernels under Triton's interpreter.

On a machine without CUDA the probe maps, for the whole child process:

* device arguments: every torch function and tensor method called with `device="cuda"`,
  `"cuda:N"`, `torch.device("cuda")` or an integer index gets the CPU instead (a
  TorchFunctionMode), `torch.Generator(device="cuda")` builds a CPU generator, and
  `Tensor.cuda()` / `.pin_memory()` return the tensor;
* `torch.autocast("cuda", ...)` becomes CPU autocast with the same dtype, so an autocast region
  still computes in the precision it asks for;
* `torch.cuda`: `is_available()` and `Tensor.is_cuda` answer True to the solution's own code (so it
  takes the path it takes on a GPU, not its CPU fallback) and the truth to everyone else;
  `synchronize`, streams, events (host-timed), device index/count, `get_device_properties`
  and `get_device_capability` (an H100-like sm_90 device), memory statistics and seeding answer
  as on one GPU; streams, events and CUDA graphs keep the order a GPU would give their work
  (ordering.py: vector clocks per stream, per-thread current stream) and graphs record what they
  capture and run it again at each replay (cuda_graphs.py);
* CUDA C++ built at run time (`torch.utils.cpp_extension.load_inline` with `cuda_sources`,
  `load` of `.cu` files, `with_cuda=True`) is built for the CPU runner (cuda_cpu.py: translated
  by `kbaudit cuda-translate`, compiled with g++ against the fiber runtime of cudacpu/include)
  and its kernels run on the CPU; what the runner cannot run (inline PTX it does not emulate,
  wmma, CUTLASS, cuBLAS, ...) is refused before anything is compiled (`NeedsCuda`, naming the
  feature and its line), and so are `torch.cuda.jiterator` and `torch.cuda._compile_kernel`
  (NVRTC). A C++-only extension (CPU code) builds as it is;
* Triton: `TRITON_INTERPRET=1` before Triton is imported; a stand-in driver answers device,
  target and property queries; the autotuner does not time configurations (the interpreter's
  time says nothing about the GPU's) and takes the one with the largest blocks, which
  interprets fastest; and `interpreter_numerics` makes bf16 arithmetic and TF32 dots compute
  what the GPU computes.
"""
import contextlib
import importlib.abc
import inspect
import os
import sys
import time
import types

# What the stand-in device reports: one H100 SXM.
DEVICE_NAME = "NVIDIA H100 80GB HBM3 (kbaudit CPU mapping)"
CAPABILITY = (9, 0)
SM_COUNT = 132
TOTAL_MEMORY = 80 << 30
SHARED_MEMORY_PER_BLOCK = 232448
L2_CACHE = 50 << 20

UNSUPPORTED_GRAPH = ("CUDA graph capture is not available under kbaudit's CPU mapping (no CUDA device): "
                     "the captured work could not be replayed")

CUDA_CODE = ("the solution compiles CUDA C++ with %s; its kernels need a CUDA device, and this machine has none "
             "(CPU only: the Triton interpreter runs Triton kernels, not CUDA C++)")
CUDA_FILE_SUFFIXES = (".cu", ".cuh")


class NeedsCuda(BaseException):
    """CUDA code the CPU mapping cannot run (a CUDA C++ extension, a jiterator or NVRTC kernel).
    A BaseException, so that a solution's `except Exception` fallback is not taken silently:
    the fallback is not the code a GPU would run. The mapping also remembers the refusal
    (`Mapping.refused`), so a bare `except:` that swallows it still ends the run as unavailable."""


class AfterImport(importlib.abc.MetaPathFinder):
    """Calls `callback(module)` right after the module `name` is first executed, so a library
    that is heavy to import (torch.utils.cpp_extension pulls in setuptools) is patched only in
    runs that import it."""

    def __init__(self, name, callback):
        self.name, self.callback = name, callback

    def find_spec(self, fullname, path, target=None):
        if fullname != self.name:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        loader, callback = spec.loader, self.callback
        exec_module = getattr(loader, "exec_module", None)
        if exec_module is None:
            return spec

        def exec_then_patch(module):
            exec_module(module)
            try:
                sys.meta_path.remove(self)  # once is enough: the module is in sys.modules now
            except ValueError:
                pass
            callback(module)

        loader.exec_module = exec_then_patch  # this spec's own loader instance
        return spec


class Mapping:
    """Installs the mapping; `solution_dirs` are the directories whose code is the solution's."""

    def __init__(self, solution_dirs):
        self.solution_dirs = tuple(os.path.realpath(d) + os.sep for d in solution_dirs)
        self.mode = None
        self.notes = []
        self.triton = False
        self.launches = 0
        # Why CUDA code was refused (the first refusal), or "" when nothing was.
        self.refused = ""
        # When the probe's budget ends (time.monotonic()), for builds and kernels; None: no limit.
        self.deadline = None
        # CUDA C++ extensions built for the CPU runner, and each one's build as the harness builds
        # it (cuda_cpu.HarnessBuild's result, with the extension's name).
        self.cuda_extensions = 0
        self.extension_builds = []
        # Seconds spent building them (not the calls' own time, which the budget estimates from).
        self.build_seconds = 0.0
        # Out-of-bounds stores of interpreted kernels, (kernel, bytes before, bytes after) -> times.
        self.out_of_bounds = {}

    # ------------------------------------------------------------------ whose code asks
    def from_solution(self, depth=2):
        """Whether the frame `depth` levels up runs a file of the solution's."""
        try:
            name = sys._getframe(depth).f_code.co_filename
            return os.path.realpath(name).startswith(self.solution_dirs)
        except Exception:
            return False

    # ------------------------------------------------------------------ install
    def install(self):
        os.environ["TRITON_INTERPRET"] = "1"
        import torch

        self.install_device_mode(torch)
        self.install_generator(torch)
        self.install_autocast(torch)
        self.install_cuda_module(torch)
        self.install_is_cuda(torch)
        self.install_cuda_builds(torch)
        try:
            import triton  # noqa: F401  (after TRITON_INTERPRET is set)
        except Exception as e:
            self.notes.append("Triton is not importable (%s: %s)" % (type(e).__name__, str(e)[:120]))
        else:
            try:
                self.install_triton()
            except Exception as e:  # a Triton this mapping does not know: say so, run what runs
                self.notes.append("Triton mapping incomplete (%s: %s)" % (type(e).__name__, str(e)[:160]))

    def install_device_mode(self, torch):
        from torch.overrides import TorchFunctionMode

        def cpu(device):
            if isinstance(device, torch.device):
                return torch.device("cpu") if device.type == "cuda" else device
            if isinstance(device, str) and device.startswith("cuda"):
                return "cpu"
            if isinstance(device, int) and not isinstance(device, bool):
                return "cpu"
            return device

        identity = {torch.Tensor.cuda, torch.Tensor.pin_memory}
        to = torch.Tensor.to

        class CudaToCpu(TorchFunctionMode):
            def __torch_function__(self, func, types_, args=(), kwargs=None):
                kwargs = dict(kwargs or {})
                if func in identity:
                    return args[0]
                if "device" in kwargs:
                    kwargs["device"] = cpu(kwargs["device"])
                if func is to and len(args) > 1:
                    args = (args[0], cpu(args[1])) + tuple(args[2:])
                kwargs.pop("pin_memory", None)
                return func(*args, **kwargs)

        self.mode = CudaToCpu()
        self.mode.__enter__()

    def install_generator(self, torch):
        """torch.Generator(device="cuda") is a constructor, not a torch function: a subclass that
        builds a CPU generator instead (still a torch.Generator to isinstance and to torch)."""
        base = torch._C.Generator

        class Generator(base):
            def __new__(cls, device=None):
                if device is not None and (str(device).startswith("cuda") or isinstance(device, int)):
                    device = "cpu"
                return base.__new__(cls, device) if device is not None else base.__new__(cls)

            def __init__(self, device=None):
                pass

        torch.Generator = Generator

    def install_autocast(self, torch):
        autocast = torch.amp.autocast_mode.autocast
        original = autocast.__init__

        def init(self_, device_type="cuda", dtype=None, enabled=True, cache_enabled=None):
            if device_type == "cuda":
                device_type = "cpu"
                dtype = dtype if dtype is not None else torch.float16
            return original(self_, device_type, dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)

        autocast.__init__ = init
        # torch.cuda.amp.autocast(...) takes no device_type: it is CUDA autocast by name.
        cuda_amp = getattr(getattr(torch.cuda, "amp", None), "autocast", None)
        if isinstance(cuda_amp, type):
            def cuda_init(self_, enabled=True, dtype=torch.float16, cache_enabled=True):
                original(self_, "cpu", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)

            cuda_amp.__init__ = cuda_init

    def install_is_cuda(self, torch):
        mapping = self
        base = torch._C.TensorBase.is_cuda

        def is_cuda(tensor):
            return True if mapping.from_solution() else base.__get__(tensor)

        torch.Tensor.is_cuda = property(is_cuda)

    def install_cuda_module(self, torch):
        mapping = self
        cuda = torch.cuda
        real_available = cuda.is_available

        # Streams and events that keep the order a GPU would (ordering.py), and CUDA graphs that
        # record and replay (cuda_graphs.py).
        from . import cuda_graphs, ordering

        ordering.ORDER.solution_dirs = self.solution_dirs
        Stream, Event, StreamContext, external_stream = ordering.make_stand_ins(torch, self.notes)
        CUDAGraph, graph, is_capturing = cuda_graphs.make_graph_classes(torch, self.notes)
        ordering.install_threads()
        torch.Tensor.record_stream = lambda tensor, stream: None

        props = types.SimpleNamespace(
            name=DEVICE_NAME, major=CAPABILITY[0], minor=CAPABILITY[1], multi_processor_count=SM_COUNT,
            total_memory=TOTAL_MEMORY, L2_cache_size=L2_CACHE, warp_size=32, max_threads_per_multi_processor=2048,
            max_threads_per_block=1024, regs_per_multiprocessor=65536, shared_memory_per_block=49152,
            shared_memory_per_block_optin=SHARED_MEMORY_PER_BLOCK,
            shared_memory_per_multiprocessor=233472, is_integrated=False, is_multi_gpu_board=False,
            gcnArchName="", uuid="00000000-0000-0000-0000-000000000000", clock_rate=1980000,
            memory_clock_rate=2619000, memory_bus_width=5120)

        def is_available():
            return True if mapping.from_solution() else real_available()

        fake = {
            "is_available": is_available,
            "is_initialized": lambda: True,
            "_lazy_init": lambda: None,
            "init": lambda: None,
            "device_count": lambda: 1,
            "current_device": lambda: 0,
            "set_device": lambda device: None,
            "device": lambda device=None: contextlib.nullcontext(),
            "device_of": lambda obj: contextlib.nullcontext(),
            "get_device_name": lambda device=None: DEVICE_NAME,
            "get_device_capability": lambda device=None: CAPABILITY,
            "get_device_properties": lambda device=None: props,
            "get_arch_list": lambda: ["sm_90"],
            "synchronize": lambda device=None: ordering.ORDER.synchronize(),
            "Stream": Stream,
            "ExternalStream": external_stream,
            "Event": Event,
            "StreamContext": StreamContext,
            "current_stream": lambda device=None: ordering.ORDER.current(),
            "default_stream": lambda device=None: ordering.ORDER.default,
            "set_stream": lambda stream: ordering.ORDER.set_current(stream),
            "stream": lambda stream=None: StreamContext(stream),
            "CUDAGraph": CUDAGraph,
            "graph": graph,
            "graph_pool_handle": lambda: (0, 0),
            # The graphed callables copy their inputs into static buffers themselves: running the
            # callables as they are computes the same.
            "make_graphed_callables": lambda callables, *a, **k: callables,
            "is_current_stream_capturing": is_capturing,
            "empty_cache": lambda: None,
            "memory_allocated": lambda device=None: 0,
            "max_memory_allocated": lambda device=None: 0,
            "memory_reserved": lambda device=None: 0,
            "max_memory_reserved": lambda device=None: 0,
            "reset_peak_memory_stats": lambda device=None: None,
            "reset_max_memory_allocated": lambda device=None: None,
            "mem_get_info": lambda device=None: (TOTAL_MEMORY, TOTAL_MEMORY),
            # torch.manual_seed itself calls these: the CPU generator, which mapped "cuda" tensors
            # draw from, is seeded there already.
            "manual_seed": lambda seed: None,
            "manual_seed_all": lambda seed: None,
            "seed": lambda: None,
            "seed_all": lambda: None,
            "initial_seed": lambda: torch.initial_seed(),
            "get_rng_state": lambda device="cuda": torch.get_rng_state(),
            "set_rng_state": lambda state, device="cuda": torch.set_rng_state(state),
        }
        for name, value in fake.items():
            setattr(cuda, name, value)
        if hasattr(cuda, "graphs"):
            cuda.graphs.CUDAGraph, cuda.graphs.graph = CUDAGraph, graph
            cuda.graphs.is_current_stream_capturing = fake["is_current_stream_capturing"]
            cuda.graphs.make_graphed_callables = fake["make_graphed_callables"]
        nvtx = types.SimpleNamespace(range_push=lambda *a, **k: 0, range_pop=lambda *a, **k: 0,
                                     mark=lambda *a, **k: None, range=lambda *a, **k: contextlib.nullcontext())
        cuda.nvtx = nvtx

    # ------------------------------------------------------------------ CUDA C++ built at run time
    def refuse(self, api):
        """Records and raises the refusal of CUDA code built through `api`."""
        reason = CUDA_CODE % api
        if not self.refused:
            self.refused = reason
            self.notes.append("CUDA code refused on CPU: %s" % api)
        raise NeedsCuda(reason)

    def build_for_cpu(self, module, fn, api, args, kwargs):
        """A CUDA extension built and loaded for the CPU runner, or the refusal of what the
        runner cannot run (NeedsCuda, naming it)."""
        from . import cuda_cpu

        if self.deadline is not None:
            os.environ[cuda_cpu.DEADLINE_ENV] = repr(self.deadline)
        started = time.monotonic()
        try:
            result = cuda_cpu.build_extension(module, fn, args, kwargs, self.solution_texts(), self.notes, self.deadline,
                                              self.extension_builds)
        finally:
            self.build_seconds += time.monotonic() - started
        if isinstance(result, cuda_cpu.Unavailable):
            reason = "the solution compiles CUDA C++ with %s that the CPU runner cannot run (%s)" % (api, result.reason)
            if not self.refused:
                self.refused = reason
                self.notes.append("CUDA code refused on CPU: %s" % result.reason)
            raise NeedsCuda(reason)
        self.cuda_extensions += 1
        return result

    def solution_texts(self):
        """(path, text) of the solution's Python files, to name the lines of its CUDA sources."""
        out = []
        for d in self.solution_dirs:
            try:
                names = sorted(os.listdir(d))
            except OSError:
                continue
            for name in names:
                # Never a grader's file (the hook would count the read as the solution's).
                if name in ("check.py", "benchmark.py", "reference.py", "shapes.py", "problem.yaml"):
                    continue
                if name.endswith((".py", ".txt")) and len(out) < 32:
                    try:
                        with open(os.path.join(d, name), encoding="utf-8", errors="replace") as f:
                            out.append((name, f.read(1 << 22)))
                    except OSError:
                        pass
        return out

    def install_cuda_builds(self, torch):
        """Refuses CUDA C++ builds (cpp_extension with CUDA sources, jiterator, NVRTC) up front:
        on a machine without a GPU, torch's extension builder would spend a minute or more
        running nvcc for kernels that cannot run here (and a kernel launched without a device
        leaves its output unwritten, which would look like a passing or a broken solution)."""
        mapping = self
        name = "torch.utils.cpp_extension"
        if name in sys.modules:
            self.patch_cpp_extension(sys.modules[name])
        else:
            sys.meta_path.insert(0, AfterImport(name, self.patch_cpp_extension))
        jiterator = getattr(torch.cuda, "jiterator", None)
        for attr in ("_create_jit_fn", "_create_multi_output_jit_fn"):
            if jiterator is not None and hasattr(jiterator, attr):
                def refuse_jit(*a, _attr=attr, **k):
                    mapping.refuse("torch.cuda.jiterator.%s" % _attr)

                setattr(jiterator, attr, refuse_jit)
        if hasattr(torch.cuda, "_compile_kernel"):
            def refuse_nvrtc(*a, **k):
                mapping.refuse("torch.cuda._compile_kernel (NVRTC)")

            torch.cuda._compile_kernel = refuse_nvrtc

    def patch_cpp_extension(self, module):
        """load_inline with CUDA sources, load of .cu files, or with_cuda=True anywhere (every
        JIT build goes through _jit_compile) raise NeedsCuda before any file is written or any
        compiler started; C++-only builds (CPU code) go ahead."""
        try:
            self.wrap_cpp_extension(module)
        except Exception as e:  # a torch this mapping does not know: say so, and let it build
            self.notes.append("cpp_extension mapping incomplete (%s: %s)" % (type(e).__name__, str(e)[:160]))

    def wrap_cpp_extension(self, module):
        mapping = self
        if getattr(module, "_kbaudit_patched", False):
            return
        module._kbaudit_patched = True

        def is_cuda_file(path):
            try:
                return os.path.splitext(os.fsdecode(path))[1].lower() in CUDA_FILE_SUFFIXES
            except Exception:
                return False

        from . import ordering

        def wrap(fn, api, wants_cuda, attr):
            try:
                signature = inspect.signature(fn)
            except (TypeError, ValueError):
                return fn

            def checked(*args, **kwargs):
                try:
                    bound = signature.bind(*args, **kwargs)
                    bound.apply_defaults()
                    cuda = wants_cuda(bound.arguments)
                except TypeError:  # let torch report a wrong call as it would
                    cuda = False
                if cuda:
                    if attr == "_jit_compile":
                        mapping.refuse(api)
                    built = mapping.build_for_cpu(module, fn, api, args, kwargs)
                else:
                    built = fn(*args, **kwargs)
                # Its functions' calls are launches to the ordering tracer (ordering.py).
                return ordering.wrap_extension(built)

            checked.__wrapped__ = fn
            checked.__name__ = getattr(fn, "__name__", "checked")
            checked.__doc__ = getattr(fn, "__doc__", None)
            return checked

        def sources_of(value):
            if value is None:
                return []
            if isinstance(value, (str, bytes, os.PathLike)):
                return [value]
            try:
                return list(value)
            except TypeError:
                return []

        def inline_wants_cuda(a):
            return bool(a.get("with_cuda")) or any(
                (s.strip() if isinstance(s, str) else s) for s in sources_of(a.get("cuda_sources")))

        def load_wants_cuda(a):
            with_cuda = a.get("with_cuda")
            return bool(with_cuda) or (with_cuda is None and any(is_cuda_file(s) for s in sources_of(a.get("sources"))))

        for attr, api, wants in (("load_inline", "torch.utils.cpp_extension.load_inline", inline_wants_cuda),
                                 ("load", "torch.utils.cpp_extension.load", load_wants_cuda),
                                 ("_jit_compile", "torch.utils.cpp_extension (a JIT build with CUDA)", load_wants_cuda)):
            fn = getattr(module, attr, None)
            if callable(fn):
                setattr(module, attr, wrap(fn, api, wants, attr))

    # ------------------------------------------------------------------ Triton
    def install_triton(self):
        import triton  # noqa: F401
        import triton.runtime.driver  # noqa: F401  (the module; `triton.runtime.driver` is its object)

        driver_config = sys.modules["triton.runtime.driver"].driver
        self.triton = True
        props = {"max_shared_mem": SHARED_MEMORY_PER_BLOCK, "max_num_regs": 65536,
                 "multiprocessor_count": SM_COUNT, "warpSize": 32, "sm_clock_rate": 1980000,
                 "mem_clock_rate": 2619000, "mem_bus_width": 5120}
        try:
            from triton.backends.compiler import GPUTarget
            target = GPUTarget("cuda", CAPABILITY[0] * 10 + CAPABILITY[1], 32)
        except Exception:
            target = types.SimpleNamespace(backend="cuda", arch=90, warp_size=32)

        def benchmarker(fn, *a, quantiles=None, **k):
            return [1.0, 1.0, 1.0] if quantiles else 1.0

        import torch

        class Driver:
            """Answers what solutions and the autotuner ask the active driver."""

            utils = types.SimpleNamespace(get_device_properties=lambda device=0: dict(props))

            def is_active(self):
                return True

            def get_current_device(self):
                return 0

            def set_current_device(self, device):
                pass

            def get_current_stream(self, device=None):
                return 0

            def get_current_target(self):
                return target

            def get_active_torch_device(self):
                return torch.device("cpu")

            def get_device_interface(self):
                return torch.cuda

            def get_benchmarker(self):
                return benchmarker

            def get_empty_cache_for_benchmark(self):
                return torch.empty(1)

            def clear_cache(self, cache):
                pass

            def map_python_to_cpp_type(self, ty):
                return ty

        driver_config.set_active(Driver())
        try:
            import triton.testing as testing
            testing.do_bench = benchmarker
            testing.do_bench_cudagraph = benchmarker
        except Exception:
            pass
        self.install_autotuner()
        from . import interpreter_numerics

        interpreter_numerics.install()
        self.count_launches()
        from . import interpreter_launch
        from triton.runtime.interpreter import GridExecutor

        interpreter_launch.install_handles(GridExecutor)
        from . import ordering

        # Outermost: the ordering tracer and graph captures see each launch once, with the
        # storages it read and wrote, and not the guard zones' copies inside it.
        ordering.install_triton(GridExecutor)
        if not interpreter_launch.install_guards(self):
            self.notes.append("interpreted kernels run on their arguments in place (no guard zones): "
                              "a store out of bounds can crash the probe")

    def note_out_of_bounds(self, kernel, nbytes, before, after):
        """A launch stored outside an argument's storage (interpreter_launch.py): the bytes were
        dropped; the first launch of each kind is noted (a GPU would have corrupted or faulted)."""
        key = (kernel, before > 0, after > 0)
        if key in self.out_of_bounds:
            self.out_of_bounds[key] += 1
            return
        self.out_of_bounds[key] = 1
        where = " and ".join(w for w, n in (("%d bytes before" % before, before), ("%d bytes after" % after, after)) if n)
        self.notes.append("out-of-bounds store: Triton kernel %s wrote %s an argument's storage of %d bytes "
                          "(caught in a guard zone and dropped; on a GPU it would corrupt other memory or fault)"
                          % (kernel, where, nbytes))

    def count_launches(self):
        """Counts interpreted kernel launches (direct and autotuned ones all run a GridExecutor),
        so the report says whether anything actually ran interpreted."""
        try:
            from triton.runtime.interpreter import GridExecutor
        except Exception:
            return
        mapping = self
        original = GridExecutor.__call__

        def call(self_, *args, **kwargs):
            mapping.launches += 1
            return original(self_, *args, **kwargs)

        GridExecutor.__call__ = call

    def install_autotuner(self):
        try:
            from triton.runtime.autotuner import Autotuner
        except Exception:
            return

        def block_volume(config):
            volume = 1
            for value in getattr(config, "kwargs", {}).values():
                if isinstance(value, int) and not isinstance(value, bool) and value > 1:
                    volume *= value
            return volume

        def bench(self_, *args, config, **meta):
            # Not timed: the largest blocks interpret fastest, and every config computes the same.
            t = 1.0 / block_volume(config)
            return [t, t, t]

        Autotuner._bench = bench
