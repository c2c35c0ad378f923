#include "known_modules.h"

#include <algorithm>
#include <array>

namespace kbaudit::kernels {

namespace {

// Sorted, for binary search.
constexpr std::array<std::string_view, 93> kKnown = {
    "__future__", "abc", "apex", "argparse", "array", "ast", "asyncio", "atexit", "base64",
    "bisect", "builtins", "cmath", "collections", "concurrent", "contextlib", "copy", "csv",
    "ctypes", "cuda", "cupy", "cutlass", "dataclasses", "datetime", "decimal", "deep_gemm",
    "einops", "enum", "fcntl", "flash_attn", "flashinfer", "fractions", "functools", "gc",
    "glob", "hashlib", "heapq", "helion", "importlib", "inspect", "io", "itertools", "jax",
    "json", "liger_kernel", "logging", "math", "multiprocessing", "ninja", "numba", "numbers",
    "numpy", "operator", "os", "pathlib", "pickle", "platform", "pprint", "queue", "random",
    "re", "scipy", "shutil", "signal", "socket", "statistics", "string", "struct", "subprocess",
    "sys", "sysconfig", "tempfile", "textwrap", "threading", "thunderkittens", "tilelang",
    "time", "timeit", "torch", "tqdm", "traceback", "transformer_engine", "transformers",
    "triton", "types", "typing", "typing_extensions", "unittest", "uuid", "warnings", "weakref",
    "xformers", "yaml", "zlib",
};

} // namespace

bool isKnownModule(std::string_view topLevel) {
  return std::binary_search(kKnown.begin(), kKnown.end(), topLevel);
}

bool isPythonDslKernelDecorator(std::string_view d) {
  // Decorators may be called (`cute.jit(...)`); the front end resolves the callee.
  return d == "cutlass.cute.kernel" || d == "cutlass.cute.jit" || d == "numba.cuda.jit" || d == "helion.kernel" ||
         d == "tilelang.jit" || d == "tilelang.language.prim_func" || d == "cupyx.jit.rawkernel";
}

} // namespace kbaudit::kernels
