"""CUDA C++ extensions on a machine without a GPU: the CPU runner.

`build_extension(module, api, arguments)` takes a `torch.utils.cpp_extension.load_inline` or
`load` call as the solution made it and returns what the call would have returned (the
extension module, or the library path for `is_python_module=False`), built for the CPU, or an
`Unavailable` that says what cannot run and where:

1. the files torch would build: torch's own `load_inline` / `load` is run up to its build step
   (its `_jit_compile` is replaced for that call), so the generated `main.cpp` binding (from
   `functions=` and `cpp_sources`) and the `cuda.cu` (from `cuda_sources`, after the three
   `#include` lines torch puts first) are exactly torch's;
2. each unit is translated by `kbaudit cuda-translate` (the path is in
   $KBAUDIT_CUDA_TRANSLATOR): launches into runtime calls, `__shared__` into per-block storage,
   device checks onto the CPU; anything the runner cannot run (inline PTX it does not emulate,
   wmma, CUTLASS/CuTe, cuBLAS, TMA, ...) is reported by name and line, and nothing is built;
3. the translated units are compiled with g++ against torch's headers and the runtime headers of
   `cudacpu/include` (fibers from Boost.Context), with the defines torch gives nvcc (fp16/bf16
   operators switched off unless the call's flags switch them on). The light build first:
   `torch/extension.h` is `cudacpu/include-light`'s (torch/types.h, no pybind11: its build
   takes a third of the time) and the functions the binding names are registered as torch
   operators, loaded with torch.ops.load_library and handed over as a module of those
   operators; a source that needs pybind11 or the rest of torch (py::class_, torch::nn, Python
   objects), or a light build that fails, is built with torch's own headers and imported as
   torch would import it;
4. what was built is cached by the content hash of the translated units and the flags, so a
   solution that builds the same extension twice (a `load_inline` per call) builds it once;
5. beside the CPU build, the same files are built as the harness builds them (`HarnessBuild`:
   nvcc for the CUDA units, g++ for the C++ ones, with torch's flags and the call's own, for an
   sm_90 GPU; no GPU is needed to compile), cached by content hash. When that build fails in
   the extension's own sources, the call raises the error torch's builder would raise, so a
   solution's fallback runs as it would on the GPU, and the failure (with the compiler's first
   error) is evidence that the fallback is the graded path.

A kernel that faults on the CPU runner (a deadlock, a hang past its time limit, an access
outside a tensor) raises RuntimeError("kbaudit-cudacpu: ..."): the runtime's message.
"""
import hashlib
import json
import os
import re
import subprocess
import sys
import sysconfig
import time

TRANSLATOR_ENV = "KBAUDIT_CUDA_TRANSLATOR"
DEADLINE_ENV = "KBAUDIT_CUDACPU_DEADLINE"
# A copy of this package with precompiled light headers (build_pch), which kbaudit prepares once
# per package and interpreter outside the sandbox and mounts read-only: the runtime's headers are
# read from there (the same paths the precompiled headers were made from).
HOME_ENV = "KBAUDIT_CUDACPU_HOME"
PACKAGE = os.path.dirname(os.path.abspath(__file__))


def _package_root():
    home = os.environ.get(HOME_ENV, "")
    if home and os.path.isdir(os.path.join(home, "kbaudit_probe", "cudacpu", "include")):
        return os.path.join(home, "kbaudit_probe")
    return PACKAGE


HEADERS = os.path.join(_package_root(), "cudacpu", "include")
LIGHT_HEADERS = os.path.join(_package_root(), "cudacpu", "include-light")
# The light build's precompiled headers: one per set of defines (CUDA units get torch's nvcc ones).
PCH_HEADER = "cudacpu_pch.h"
PCH_VARIANTS = {"cuda": ("__CUDA_NO_HALF_OPERATORS__", "__CUDA_NO_HALF_CONVERSIONS__", "__CUDA_NO_BFLOAT16_CONVERSIONS__",
                         "__CUDA_NO_HALF2_OPERATORS__"), "cpp": ()}
# What the light build (torch/types.h and operators, no pybind11) cannot compile.
NEEDS_FULL_TORCH = re.compile(r"\b(?:py|pybind11)::(?!arg\b|arg_v\b|module_?\b)|\bPyObject\b|\bTHPVariable|"
                              r"\btorch::(?:nn|autograd|jit|optim|data|python)\b|<torch/(?:python|csrc/|all)|"
                              r"<pybind11/(?!pybind11\.h)|\bPYBIND11_(?!MODULE\b)")
CUDA_SUFFIXES = (".cu", ".cuh")
CPP_SUFFIXES = (".cpp", ".cc", ".cxx", ".c++", ".c")
HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".cuh", ".inl", ".inc", ".hxx")
# torch's COMMON_NVCC_FLAGS: what they define, the CPU build of a .cu defines too.
NVCC_DEFINES = PCH_VARIANTS["cuda"]
# The three lines load_inline puts before the cuda_sources, one before the cpp_sources.
INLINE_CUDA_PRELUDE_LINES = 3
INLINE_CPP_PRELUDE_LINES = 1
# Libraries of the CUDA toolkit a CPU build cannot link; the translator names their use.
CUDA_LIBRARIES = re.compile(r"^-l(cuda|cudart|cublas|cublasLt|cudnn|cusparse|cufft|curand|cusolver|nccl|nvrtc|c10_cuda|"
                            r"torch_cuda.*)$")
# Headers beside load()'s sources translated into the mirror, at most.
MAX_HEADERS = 64
# How long a compiler may run at most (the probe's own budget usually ends it first).
COMPILE_SECONDS = 600
# The harness build's cache: entries of earlier runs (read-only here; kbaudit files this run's new
# ones from HARNESS_SCRATCH after the worker ends), and this run's own.
HARNESS_CACHE_ENV = "KBAUDIT_HARNESS_CACHE"
HARNESS_SCRATCH = "kbaudit-harness"
HARNESS_FORMAT = "kbaudit-harness-build 1"
# Seconds of the probe's budget the harness build leaves for the probes when the CPU build
# succeeded (a longer build is unchecked), and when the CPU runner cannot run the extension
# (then the harness build alone decides whether the solution's fallback is what runs).
HARNESS_KEEP_SECONDS = 45
UNAVAILABLE_KEEP_SECONDS = 8
# The ones of those that take their value as the next word.
NVCC_VALUED_FLAGS = {"-gencode", "--generate-code", "-arch", "--gpu-architecture", "-code", "--gpu-code", "-o",
                     "--output-file"}
# nvcc flags the harness check sets itself (one architecture, PTX only: no GPU and no fatbinary).
NVCC_OWN_FLAGS = re.compile(r"^(-gencode|--generate-code|-arch|--gpu-architecture|-code|--gpu-code|-c|--compile|"
                            r"-dc|-dlink|-o|--output-file|-ptx|--ptx|-cubin|-fatbin)(=.*)?$")


class Unavailable:
    """What cannot run on the CPU runner (`reason`, one line), the first feature's line in the
    solution's file where it is known, and every feature as (name, line)."""

    def __init__(self, reason, line=None, features=()):
        self.reason = reason
        self.line = line
        self.features = list(features)

    def __str__(self):
        return self.reason

    def __repr__(self):
        return "Unavailable(%r)" % self.reason


class _Captured(BaseException):
    """Raised by the stand-in for torch's _jit_compile: carries the build torch was about to run."""

    def __init__(self, build):
        super().__init__("captured")
        self.build = build


def capture(module, api_function, args, kwargs):
    """Runs torch's own load_inline / load with its build step replaced: returns the build it
    would have run (name, sources, flags, directory, ...), with the files load_inline writes."""
    original = module._jit_compile

    def stand_in(name, sources, extra_cflags, extra_cuda_cflags, extra_sycl_cflags=None, extra_ldflags=None,
                 extra_include_paths=None, build_directory=None, verbose=False, with_cuda=None, with_sycl=None,
                 is_python_module=True, is_standalone=False, keep_intermediates=True, **_):
        raise _Captured(dict(name=name, sources=list(sources), extra_cflags=list(extra_cflags or []),
                             extra_cuda_cflags=list(extra_cuda_cflags or []),
                             extra_ldflags=list(extra_ldflags or []),
                             extra_include_paths=list(extra_include_paths or []),
                             build_directory=build_directory, with_cuda=with_cuda,
                             is_python_module=is_python_module, is_standalone=is_standalone))

    module._jit_compile = stand_in
    try:
        api_function(*args, **kwargs)
    except _Captured as c:
        return c.build
    finally:
        module._jit_compile = original
    return None


# ---------------------------------------------------------------------------- source lines
def solution_line(unit_text, unit_line, solution_texts):
    """The line of a solution file that holds line `unit_line` of a generated unit, when the
    unit's text around it appears verbatim there (a raw or escape-free string literal); else None."""
    lines = unit_text.split("\n")
    if not 1 <= unit_line <= len(lines):
        return None
    # The longest run of lines around it that is found verbatim, up to 40 lines.
    for width in (40, 20, 8, 3, 1):
        lo = max(0, unit_line - 1 - width // 2)
        chunk = "\n".join(lines[lo:lo + width])
        if len(chunk.strip()) < 8 and width > 1:
            continue
        for path, text in solution_texts:
            at = text.find(chunk)
            if at >= 0 and text.find(chunk, at + 1) < 0:
                return path, text.count("\n", 0, at) + 1 + (unit_line - 1 - lo)
    return None


# ---------------------------------------------------------------------------- the build
def _flag_values(flags, prefix):
    out = []
    for i, f in enumerate(flags):
        if f == prefix and i + 1 < len(flags):
            out.append(flags[i + 1])
        elif f.startswith(prefix) and len(f) > len(prefix):
            out.append(f[len(prefix):])
    return out


def _split_flags(flags):
    """nvcc / g++ flags as single words (torch passes each list item on; one item may hold several)."""
    out = []
    for f in flags or []:
        out.extend(str(f).split())
    return out


def _defines(flags):
    """-D and -U flags (also inside -Xcompiler / --compiler-options lists) in order."""
    words = []
    for f in _split_flags(flags):
        if f.startswith(("-Xcompiler=", "--compiler-options=")):
            words.extend(f.split("=", 1)[1].split(","))
        else:
            words.append(f)
    out = []
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("-D", "-U") and i + 1 < len(words):
            out.append(w + words[i + 1])
            i += 2
            continue
        if (w.startswith("-D") or w.startswith("-U")) and len(w) > 2:
            out.append(w)
        i += 1
    return out


def _std(flags):
    for f in _split_flags(flags):
        m = re.match(r"^-{1,2}std[= ]?(c\+\+|gnu\+\+)(\d\w*)$", f)
        if m and m.group(2) in ("17", "1z", "20", "2a"):
            return "-std=c++" + m.group(2)
    return "-std=c++17"


def _fast_math(flags):
    return any(f in ("--use_fast_math", "-use_fast_math", "--use-fast-math") for f in _split_flags(flags))


def base_flags(torch, variant, light=True, std="-std=c++17"):
    """The flags every CPU build of a unit starts with, and the precompiled headers are made with."""
    from torch.utils import cpp_extension

    abi = int(getattr(torch._C, "_GLIBCXX_USE_CXX11_ABI", True))
    flags = [std, "-O2", "-fPIC", "-fno-strict-aliasing", "-w", "-DTORCH_API_INCLUDE_EXTENSION_H",
             "-D_GLIBCXX_USE_CXX11_ABI=%d" % abi] + ["-D" + d for d in PCH_VARIANTS[variant]]
    flags += (["-I" + LIGHT_HEADERS] if light else []) + ["-I" + HEADERS]
    flags += ["-isystem" + p for p in cpp_extension.include_paths()]
    if not light:
        flags += ["-isystem" + sysconfig.get_paths()["include"]]
    return flags


def precompiled_header(torch, variant):
    """The light build's precompiled header of `variant` ($KBAUDIT_CUDACPU_HOME's, made by
    build_pch for this torch), or None."""
    home = os.environ.get(HOME_ENV, "")
    if not home:
        return None
    header = os.path.join(home, "pch", variant, PCH_HEADER)
    try:
        with open(os.path.join(home, "pch", "torch_version")) as f:
            made_for = f.read().strip()
    except OSError:
        return None
    if made_for != torch.__version__ or not os.path.exists(header + ".gch"):
        return None
    return header


def build_pch(home):
    """Makes the light build's precompiled headers under `home` (a copy of this package):
    kbaudit runs it once per package and interpreter, outside the sandbox (it compiles the
    runtime's headers and torch's, nothing of a solution's). Returns 0 when both were made."""
    import torch

    for variant in PCH_VARIANTS:
        folder = os.path.join(home, "pch", variant)
        os.makedirs(folder, exist_ok=True)
        header = os.path.join(folder, PCH_HEADER)
        with open(header, "w") as f:
            f.write("#include <cudacpu/prelude.h>\n#include <torch/types.h>\n#include <cudacpu/bind.h>\n")
        proc = subprocess.run(["g++"] + base_flags(torch, variant) + ["-x", "c++-header", header, "-o", header + ".gch"],
                              capture_output=True, timeout=COMPILE_SECONDS)
        if proc.returncode != 0:
            sys.stderr.write(proc.stderr.decode("utf-8", "replace")[-2000:])
            return 1
    with open(os.path.join(home, "pch", "torch_version"), "w") as f:
        f.write(torch.__version__)
    return 0


class Builder:
    """One extension's CPU build (see the module's docstring)."""

    def __init__(self, torch, build, solution_texts, notes, deadline=None):
        self.torch = torch
        self.build = build
        self.solution_texts = solution_texts
        self.notes = notes
        self.deadline = deadline
        self.name = build["name"]
        base = build["build_directory"] or os.path.join(os.environ.get("TMPDIR", "/tmp"), "kbaudit-cudacpu")
        self.root = os.path.join(base, "kbaudit-cpu")
        os.makedirs(self.root, exist_ok=True)
        self.units = []  # (original path, translated path, is_cuda, report)
        self.light = True  # the light build (see the module's docstring) until it needs torch's own headers
        self.merge = True  # the light build's units as one translation unit, until they do not compile together

    # -------------------------------------------------------------- steps
    def time_left(self):
        return (self.deadline - time.monotonic()) if self.deadline else COMPILE_SECONDS

    def run(self, argv, what):
        """Runs a tool; raises RuntimeError with the first error line when it fails."""
        left = min(COMPILE_SECONDS, self.time_left())
        if left <= 1:
            raise TimeoutError("no time left to %s" % what)
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=self.root)
        try:
            out, err = proc.communicate(timeout=left)
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        if proc.returncode != 0:
            raise RuntimeError(first_error(err.decode("utf-8", "replace")) or "%s failed (exit %d)" % (what, proc.returncode))
        return out.decode("utf-8", "replace")

    def translator(self):
        path = os.environ.get(TRANSLATOR_ENV, "")
        if not path or not os.access(path, os.X_OK):
            return None
        return path

    def translate_all(self):
        """Translates every source and the headers beside them; returns the unavailable features
        as (feature, unit, line) or [] when everything translated."""
        translator = self.translator()
        if translator is None:
            raise FileNotFoundError("no CUDA translator (kbaudit cuda-translate: $%s is not set to an executable)"
                                    % TRANSLATOR_ENV)
        build = self.build
        cuda_flags = build["extra_cuda_cflags"]
        unavailable = []
        self.mirror = os.path.join(self.root, "headers")
        source_dirs = []
        for src in build["sources"]:
            d = os.path.dirname(os.path.abspath(src))
            if d not in source_dirs:
                source_dirs.append(d)
        self.source_dirs = source_dirs
        # Headers next to the sources (a load() of .cu files with their .cuh): translated into a
        # mirror that comes first on the include path.
        headers = 0
        for d in source_dirs if not self.is_inline() else []:
            for dirpath, _, files in os.walk(d):
                for f in sorted(files):
                    if not f.endswith(HEADER_SUFFIXES) or headers >= MAX_HEADERS:
                        continue
                    headers += 1
                    path = os.path.join(dirpath, f)
                    rel = os.path.relpath(path, d)
                    out = os.path.join(self.mirror, str(source_dirs.index(d)), rel)
                    os.makedirs(os.path.dirname(out), exist_ok=True)
                    report = self.translate(translator, path, out, cuda=True, fast=_fast_math(cuda_flags))
                    unavailable += [(u["feature"], path, u["line"]) for u in report.get("unavailable", [])]
        for i, src in enumerate(build["sources"]):
            is_cuda = src.endswith(CUDA_SUFFIXES)
            out = os.path.join(self.root, "unit%d_%s.cpp" % (i, re.sub(r"[^\w.-]", "_", os.path.basename(src))))
            report = self.translate(translator, src, out, cuda=is_cuda, fast=is_cuda and _fast_math(cuda_flags))
            unavailable += [(u["feature"], src, u["line"]) for u in report.get("unavailable", [])]
            self.units.append((src, out, is_cuda, report))
        return unavailable

    def translate(self, translator, path, out, cuda, fast):
        argv = [translator, "cuda-translate", path, out, "--file-name", path]
        if not cuda:
            argv.append("--cpp")
        if fast:
            argv.append("--fast-math")
        text = self.run(argv, "translate %s" % os.path.basename(path))
        return json.loads(text.strip().splitlines()[-1])

    def is_inline(self):
        return all(os.path.dirname(os.path.abspath(s)) == os.path.abspath(self.build["build_directory"] or "")
                   for s in self.build["sources"]) and bool(self.build["build_directory"])

    def describe_unavailable(self, unavailable):
        parts, first_line = [], None
        for feature, path, line in unavailable:
            where = self.where(path, line)
            parts.append("%s, %s" % (feature, where))
            if first_line is None and where.startswith("line "):
                first_line = int(where.split()[1].rstrip(")"))
        shown = parts[:6] + (["and %d more" % (len(parts) - 6)] if len(parts) > 6 else [])
        return Unavailable("unavailable: " + "; ".join(shown), first_line, [(f, l) for f, _, l in unavailable])

    def where(self, path, line):
        """`line N` of the solution's file when the unit's text is found there, else the unit's line."""
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            return "line %d of %s" % (line, os.path.basename(path))
        found = solution_line(text, line, self.solution_texts)
        if found:
            file, at = found
            return "line %d" % at if os.path.basename(file) == "solution.py" else "line %d of %s" % (at, os.path.basename(file))
        return "line %d of %s" % (line, os.path.basename(path))

    def flags(self, is_cuda):
        """g++'s flags for a unit. TORCH_EXTENSION_NAME and the operator namespace are defined in
        the unit's wrapper file (`wrapper`), so the light build's precompiled headers stay valid."""
        build = self.build
        user = build["extra_cuda_cflags"] if is_cuda else build["extra_cflags"]
        variant = "cuda" if is_cuda else "cpp"
        # The call's own -D / -U come after torch's, as on nvcc's command line.
        own = _defines(user)
        std = _std(user)
        flags = base_flags(self.torch, variant, self.light, std) + own
        includes = []
        if os.path.isdir(getattr(self, "mirror", "")):
            includes += ["-I" + os.path.join(self.mirror, str(i)) for i in range(len(self.source_dirs))]
        includes += ["-I" + p for p in build["extra_include_paths"]]
        includes += ["-I" + p for p in _flag_values(_split_flags(user), "-I")]
        includes += ["-I" + d for d in getattr(self, "source_dirs", [])]
        pch = precompiled_header(self.torch, variant)
        if self.light and pch and not own and std == "-std=c++17":
            includes = ["-include", pch] + includes
        return flags + includes

    def wrapper(self, out):
        """A file that defines what the build names and includes the translated unit `out`."""
        path = out + ".build.cpp"
        with open(path, "w") as f:
            f.write("#define TORCH_EXTENSION_NAME %s\n" % self.name)
            if self.light:
                f.write("#define CUDACPU_LIBRARY %s\n" % self.library_name())
            f.write('#include "%s"\n' % out)
        return path

    def library_name(self):
        """The operator namespace of a light build: unique per build (a name torch accepts)."""
        if not hasattr(self, "_library"):
            digest = hashlib.sha256(repr(self.build).encode()).hexdigest()[:10]
            self._library = "kbaudit_cpu_%s_%s" % (re.sub(r"\W", "_", self.name)[:40], digest)
        return self._library

    def choose_build(self):
        """The light build, unless a source needs what only torch's own headers have."""
        for _, out, _, _ in self.units:
            with open(out, encoding="utf-8", errors="replace") as f:
                m = NEEDS_FULL_TORCH.search(f.read())
            if m:
                self.light = False
                self.notes.append("CUDA C++ extension %s: built with torch/extension.h (its sources use %s)" % (
                    self.name, m.group(0).strip()))
                return

    def key(self):
        h = hashlib.sha256()
        h.update(("kbaudit-cudacpu 1 %s %s %s %s" % (self.torch.__version__, sys.version, self.name, self.light)).encode())
        for _, out, is_cuda, _ in self.units:
            with open(out, "rb") as f:
                h.update(f.read())
            h.update(repr(self.flags(is_cuda)).encode())
        for dirpath, _, files in sorted(os.walk(HEADERS)):
            for f in sorted(files):
                with open(os.path.join(dirpath, f), "rb") as g:
                    h.update(f.encode() + g.read())
        if os.path.isdir(getattr(self, "mirror", "")):
            for dirpath, _, files in sorted(os.walk(self.mirror)):
                for f in sorted(files):
                    with open(os.path.join(dirpath, f), "rb") as g:
                        h.update(f.encode() + g.read())
        h.update(repr(self.build["extra_ldflags"]).encode())
        return h.hexdigest()[:24]

    def compile_and_link(self):
        """The translated units compiled in parallel and linked; returns the library's path."""
        key = self.key()
        library = os.path.join(self.root, "%s_%s.so" % (self.name, key))
        if os.path.exists(library):
            self.notes.append("CUDA C++ extension %s: the CPU build of the same sources was cached" % self.name)
            return library
        left = min(COMPILE_SECONDS, self.time_left())
        if left <= 1:
            raise TimeoutError("no time left to compile")
        if self.light and len(self.units) > 1 and self.merge:
            # One translation unit: torch's headers are parsed once, not once per unit. Units that
            # do not compile together (a static helper both define) are compiled apart.
            merged = os.path.join(self.root, "merged_%s.cpp" % key)
            order = [u for u in self.units if u[2]] + [u for u in self.units if not u[2]]  # CUDA first
            with open(merged, "w") as f:
                for _, out, _, _ in order:
                    f.write('#include "%s"\n' % out)
            try:
                return self.link([self.compile_units([(merged, merged, True)])[0]], library)
            except CompileError as e:
                self.merge = False
                self.notes.append("CUDA C++ extension %s: its units compiled apart (together: %s)" % (self.name, str(e)[:200]))
        return self.link(self.compile_units([(src, out, is_cuda) for src, out, is_cuda, _ in self.units]), library)

    def compile_units(self, units):
        """Compiles (source, translated file, is CUDA) in parallel; returns the object files."""
        procs = []
        try:
            for src, out, is_cuda in units:
                obj = out + ".o"
                argv = ["g++", "-c", self.wrapper(out), "-o", obj] + self.flags(is_cuda)
                procs.append((src, obj, subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                                         cwd=self.root)))
            objects, failures = [], []
            for src, obj, proc in procs:
                out, err = proc.communicate(timeout=max(1, self.time_left()) if self.deadline else COMPILE_SECONDS)
                if proc.returncode != 0:
                    failures.append((src, err.decode("utf-8", "replace")))
                objects.append(obj)
        except BaseException:
            for _, _, proc in procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
            raise
        if failures:
            src, log = failures[0]
            raise CompileError("the CPU build of %s failed: %s" % (os.path.basename(src), first_error(log)), src, log)
        return objects

    def link(self, objects, library):
        from torch.utils import cpp_extension

        libs = ["-L" + p for p in cpp_extension.library_paths()]
        ldflags = [f for f in _split_flags(self.build["extra_ldflags"]) if not CUDA_LIBRARIES.match(f)
                   and not f.startswith("-L")]
        tmp = library + ".tmp%d" % os.getpid()
        torch_libs = ["-lc10", "-ltorch", "-ltorch_cpu"] + ([] if self.light else ["-ltorch_python"])
        self.run(["g++", "-shared", "-o", tmp] + objects + libs + torch_libs + ["-lboost_context"] + ldflags, "link")
        os.replace(tmp, library)
        return library


class CompileError(RuntimeError):
    """The CPU build of `source` failed; `log` is the compiler's output."""

    def __init__(self, message, source="", log=""):
        super().__init__(message)
        self.source = source
        self.log = log


# ---------------------------------------------------------------------------- the harness's build
def target_arch(flags):
    """The GPU the call's own flags build for (`-gencode arch=compute_120,code=sm_120`,
    `-arch=sm_90a`), else an H100's sm_90 (the architecture kbaudit's compiled front end uses)."""
    for f in flags:
        m = re.search(r"\bsm_(\d+[af]?)\b", f) or re.search(r"\bcompute_(\d+[af]?)\b", f)
        if m:
            return "sm_" + m.group(1)
    return "sm_90"


class HarnessBuild:
    """The extension's CUDA units built as the harness builds them: by nvcc (front end and device
    code generation, `-ptx`, for sm_90, or sm_90a where the call's flags ask for it) with torch's
    flags (TORCH_EXTENSION_NAME, torch's and Python's headers, COMMON_NVCC_FLAGS, -std=c++17) and
    the call's own. nvcc runs in the background while the CPU build goes on. The C++ units are
    g++'s in both builds: the CPU build's compile with torch's own torch/extension.h stands for
    the harness's. `result()` is a dict: status built / failed / unchecked, the first error and
    where it is, seconds, whether it came from the cache."""

    def __init__(self, build, notes, deadline=None):
        self.build = build
        self.arch = target_arch(_split_flags(build["extra_cuda_cflags"]))
        self.notes = notes
        self.deadline = deadline
        self.procs = []
        self.outcome = None
        self.started = time.monotonic()
        self.dir = os.path.join(os.environ.get("TMPDIR", "/tmp"), HARNESS_SCRATCH)

    def nvcc(self):
        for path in (os.environ.get("KBAUDIT_NVCC", ""), "/usr/local/cuda/bin/nvcc", "/usr/bin/nvcc"):
            if path and os.access(path, os.X_OK):
                return path
        return None

    def commands(self):
        """(source, argv) per unit, or None when a compiler is missing."""
        from torch.utils import cpp_extension

        build = self.build
        user_includes = ["-I" + p for p in build["extra_include_paths"]]
        system = []
        for p in cpp_extension.include_paths() + [sysconfig.get_paths()["include"]]:
            system += ["-isystem", p]
        common = ["-DTORCH_EXTENSION_NAME=%s" % build["name"], "-DTORCH_API_INCLUDE_EXTENSION_H"] + user_includes + system
        out = []
        nvcc = self.nvcc()
        for src in build["sources"]:
            if src.endswith(CUDA_SUFFIXES):
                if nvcc is None:
                    return None
                user = _split_flags(build["extra_cuda_cflags"])
                kept, skip = [], False
                for f in user:
                    if skip:  # the value of an architecture or output flag given apart (-gencode arch=...)
                        skip = False
                        continue
                    if NVCC_OWN_FLAGS.match(f):
                        skip = "=" not in f and f in NVCC_VALUED_FLAGS
                        continue
                    kept.append(f)
                std = [] if any(f.startswith(("-std", "--std")) for f in kept) else ["-std=c++17"]
                obj = os.path.join(self.dir, "%s.ptx" % hashlib.sha256(src.encode()).hexdigest()[:16])
                out.append((src, [nvcc, "-ptx", "-arch=" + self.arch] + common +
                            ["-D" + d for d in NVCC_DEFINES] + ["--expt-relaxed-constexpr"] + kept + std +
                            [src, "-o", obj]))
            # A C++ unit is compiled by g++ in the harness as in the CPU build, from the same file:
            # the CPU build's own compile with torch/extension.h decides it (see build_extension).
        return out

    def check_cpp(self, src):
        """A C++ unit compiled as the harness compiles it (g++ -fsyntax-only, torch's C++ flags, the
        call's extra_cflags, the untranslated file): run only when the CPU build of it failed,
        to tell the solution's error from the CPU runner's. None when it compiles, else
        (first error, file, line) when the error is in the extension's own files."""
        from torch.utils import cpp_extension

        build = self.build
        argv = ["g++", "-fsyntax-only", "-fPIC", "-std=c++17", "-DTORCH_EXTENSION_NAME=%s" % build["name"],
                "-DTORCH_API_INCLUDE_EXTENSION_H"] + ["-I" + p for p in build["extra_include_paths"]]
        for p in cpp_extension.include_paths() + [sysconfig.get_paths()["include"]]:
            argv += ["-isystem", p]
        argv += _split_flags(build["extra_cflags"]) + [src]
        left = (self.deadline - time.monotonic() - UNAVAILABLE_KEEP_SECONDS) if self.deadline else COMPILE_SECONDS
        if left < 5:
            return None
        try:
            proc = subprocess.run(argv, capture_output=True, timeout=left, cwd=os.path.dirname(src) or ".")
        except (OSError, subprocess.TimeoutExpired):
            return None
        if proc.returncode == 0:
            return None
        return own_first_error(proc.stderr.decode("utf-8", "replace"), build["sources"])

    def key(self, commands):
        h = hashlib.sha256(HARNESS_FORMAT.encode())
        for src, argv in commands:
            h.update(repr(argv).encode())
            with open(src, "rb") as f:
                h.update(f.read())
        return h.hexdigest()

    def cached(self, key):
        for d in (self.dir, os.environ.get(HARNESS_CACHE_ENV, "")):
            path = os.path.join(d, key + ".json") if d else ""
            if path and os.path.isfile(path):
                try:
                    with open(path) as f:
                        entry = json.load(f)
                    if entry.get("format") == HARNESS_FORMAT and entry.get("key") == key:
                        entry["cached"] = True
                        return entry
                except (OSError, ValueError):
                    pass
        return None

    def start(self):
        if os.environ.get("KBAUDIT_HARNESS_BUILD") == "0":
            self.outcome = {"status": "unchecked", "reason": "switched off (KBAUDIT_HARNESS_BUILD=0)"}
            return
        os.makedirs(self.dir, exist_ok=True)
        commands = self.commands()
        if commands is None:
            self.outcome = {"status": "unchecked", "reason": "no nvcc here to build the CUDA units as the harness does"}
            return
        if self.deadline is not None and self.deadline - time.monotonic() < 20:
            self.outcome = {"status": "unchecked", "reason": "too little of the probe's time budget was left to build it "
                                                             "as the harness does"}
            return
        self.key_ = self.key(commands)
        self.outcome = self.cached(self.key_)
        if self.outcome is not None:
            return
        env = dict(os.environ)
        env["PATH"] = "/usr/local/cuda/bin:" + env.get("PATH", "/usr/bin:/bin")
        for src, argv in commands:
            self.procs.append((src, argv, subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                                           cwd=self.dir, env=env)))

    def result(self, keep=0.0):
        """Waits for the compilers, but leaves `keep` seconds of the probe's budget for the probes:
        a build still running then is killed and the result is unchecked."""
        if self.outcome is not None:
            return self.outcome
        failure = None
        try:
            for src, argv, proc in self.procs:
                left = (self.deadline - keep - time.monotonic()) if self.deadline else COMPILE_SECONDS
                try:
                    _, err = proc.communicate(timeout=max(0.5, min(left, COMPILE_SECONDS)))
                except subprocess.TimeoutExpired:
                    self.outcome = {"status": "unchecked", "reason": "%s had not finished when the probes needed the "
                                    "time budget's rest" % os.path.basename(argv[0])}
                    return self.outcome
                if proc.returncode != 0 and failure is None:
                    failure = (src, os.path.basename(argv[0]), err.decode("utf-8", "replace"))
        finally:
            for _, _, proc in self.procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
        seconds = time.monotonic() - self.started
        if failure is None:
            outcome = {"status": "built", "seconds": round(seconds, 1), "arch": self.arch}
        else:
            src, compiler, log = failure
            error = own_first_error(log, [s for s in self.build["sources"]])
            if error is None:
                # The first error is in torch's or the toolkit's headers: this machine's toolchain,
                # not the solution's code.
                outcome = {"status": "unchecked", "reason": "%s failed in a header of torch or the CUDA toolkit (%s)" % (
                    compiler, first_error(log)[:200])}
            else:
                outcome = {"status": "failed", "compiler": compiler, "error": error[0], "source": error[1],
                           "line": error[2], "seconds": round(seconds, 1), "arch": self.arch}
        outcome.update({"format": HARNESS_FORMAT, "key": self.key_})
        if outcome["status"] != "unchecked":
            try:
                with open(os.path.join(self.dir, self.key_ + ".json"), "w") as f:
                    json.dump(outcome, f)
            except OSError:
                pass
        self.outcome = outcome
        return outcome


def own_first_error(log, sources):
    """The first error located in one of `sources` (the extension's own files): (message, file,
    line), or None when the first error is elsewhere (a header of torch or the toolkit)."""
    names = {os.path.abspath(s) for s in sources} | {os.path.basename(s) for s in sources}
    for line in log.splitlines():
        m = re.match(r"^(.*?)(?::(\d+)(?::\d+)?|\((\d+)\)): (?:fatal )?error\b:?\s*(.*)$", line.strip())
        if not m:
            continue
        path, lineno = m.group(1), int(m.group(2) or m.group(3) or 0)
        if os.path.abspath(path) in names or os.path.basename(path) in names:
            return (line.strip()[:400], path, lineno)
        return None
    return None


def first_error(text):
    """The compiler's first error line (with its location), or the first line."""
    lines = [l for l in text.splitlines() if l.strip()]
    for l in lines:
        if re.search(r"\berror\b", l):
            return l.strip()[:400]
    return lines[0].strip()[:400] if lines else ""


def load_library(torch, path, name, is_python_module, operators=None):
    """Imports the built library as torch's _import_module_from_library does; a light build's
    (`operators`: its operator namespace) as a module whose attributes are its operators."""
    if operators:
        import types

        torch.ops.load_library(path)
        if not is_python_module:
            return path
        module = types.ModuleType(name)
        module.__file__ = path
        namespace = getattr(torch.ops, operators)
        for op in torch._C._dispatch_get_all_op_names():
            if op.startswith(operators + "::"):
                short = op.split("::", 1)[1]
                setattr(module, short, getattr(namespace, short))
        return module
    if not is_python_module:
        torch.ops.load_library(path)
        return path
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def resolve_builds(builds, keep=5.0):
    """The harness builds still going on beside the probes (build_extension left them pending),
    each waited for while `keep` seconds of the budget remain: every record gets its status."""
    for i, record in enumerate(builds):
        harness = record.get("pending")
        if harness is None:
            continue
        outcome = harness.result(keep)
        resolved = dict(outcome, name=record["name"])
        if outcome["status"] == "failed" and outcome.get("line"):
            resolved["where"] = record["builder"].where(outcome["source"], outcome["line"])
        resolved["after_probes"] = True
        builds[i] = resolved
    return builds


def build_extension(module, api_function, args, kwargs, solution_texts=(), notes=None, deadline=None, builds=None):
    """The CPU runner's build of one `load_inline` / `load` call (`module` is
    torch.utils.cpp_extension, `api_function` the unwrapped function): the module the call
    returns, built for the CPU, or an Unavailable. `solution_texts` are (path, text) of the
    solution's files, to name lines there; `notes` gets what was done; `builds` gets the
    harness build's result (HarnessBuild.result() and the extension's name). Raises
    RuntimeError, as torch's builder does, when the harness's build of the files fails."""
    import torch

    notes = notes if notes is not None else []
    started = time.monotonic()
    build = capture(module, api_function, args, kwargs)
    if build is None:
        return Unavailable("torch's extension builder returned without building (nothing to run)")
    harness = HarnessBuild(build, notes, deadline)
    try:
        harness.start()
    except OSError as e:
        harness.outcome = {"status": "unchecked", "reason": "the harness's compilers could not be started (%s)" % e}
    builds = builds if builds is not None else []
    builder = Builder(torch, build, solution_texts, notes, deadline)

    def harness_verdict(keep=HARNESS_KEEP_SECONDS):
        """The harness's own build of the same files, which decides what the call does on the
        GPU: a failure there raises what torch's builder raises (the solution's fallback runs)."""
        outcome = harness.result(keep)
        record = dict(outcome, name=build["name"])
        if outcome["status"] == "failed" and outcome.get("line"):
            record["where"] = builder.where(outcome["source"], outcome["line"])
        builds.append(record)
        if outcome["status"] == "failed":
            notes.append("CUDA C++ extension %s does not build as the harness builds it (%s: %s)" % (
                build["name"], outcome["compiler"], outcome["error"]))
            raise RuntimeError("Error building extension '%s': %s" % (build["name"], outcome["error"]))

    try:
        unavailable = builder.translate_all()
    except FileNotFoundError as e:
        harness_verdict(UNAVAILABLE_KEEP_SECONDS)
        return Unavailable(str(e))
    except RuntimeError as e:
        harness_verdict(UNAVAILABLE_KEEP_SECONDS)
        return Unavailable("the CUDA translator failed: %s" % e)
    if unavailable:
        harness_verdict(UNAVAILABLE_KEEP_SECONDS)
        return builder.describe_unavailable(unavailable)
    builder.choose_build()
    try:
        try:
            library = builder.compile_and_link()
            result = load_library(torch, library, build["name"], build["is_python_module"],
                                  builder.library_name() if builder.light else None)
        except (CompileError, RuntimeError) as e:
            if not builder.light:
                raise
            # A source the harness cannot build either is the solution's error: no second build.
            harness_verdict(UNAVAILABLE_KEEP_SECONDS)
            builds.pop()
            notes.append("CUDA C++ extension %s: the light build failed (%s); built with torch/extension.h" % (
                build["name"], str(e)[:300]))
            builder.light = False
            library = builder.compile_and_link()
            result = load_library(torch, library, build["name"], build["is_python_module"])
    except CompileError as e:
        harness_verdict(UNAVAILABLE_KEEP_SECONDS)
        if e.source.endswith(CPP_SUFFIXES):
            # g++ is the harness's compiler for a C++ unit too: its verdict on the untranslated file.
            error = harness.check_cpp(e.source)
            if error is not None:
                record = {"status": "failed", "compiler": "g++", "error": error[0], "source": error[1], "line": error[2],
                          "name": build["name"]}
                if error[2]:
                    record["where"] = builder.where(error[1], error[2])
                builds[-1] = record
                notes.append("CUDA C++ extension %s does not build as the harness builds it (g++: %s)" % (
                    build["name"], error[0]))
                raise RuntimeError("Error building extension '%s': %s" % (build["name"], error[0]))
        return Unavailable(str(e))
    except (RuntimeError, OSError, ImportError) as e:
        harness_verdict(UNAVAILABLE_KEEP_SECONDS)
        # A library that does not load (an undefined symbol the extension declares and never
        # defines) fails on the GPU too: raised as the import would raise it there.
        if "undefined symbol" in str(e):
            raise
        return Unavailable("the CPU build of extension %s failed to link or load: %s" % (build["name"], e))
    # The CPU build worked: the harness's build goes on beside the probes, and resolve_builds
    # reads its verdict when they are done (a CUDA unit that only nvcc rejects is rarer than
    # one both compilers reject, which the CPU build's failure has already waited for above).
    builds.append({"name": build["name"], "pending": harness, "builder": builder})
    launches = sum(r.get("launches", 0) for _, _, _, r in builder.units)
    notes.append("CUDA C++ extension %s ran on the CPU runner (%d units, %d kernel launches translated; built in %.1f s)"
                 % (build["name"], len(builder.units), launches, time.monotonic() - started))
    return result
