#include "stub_headers.h"

#include <llvm/ADT/STLExtras.h>

namespace kbaudit::cxx::stubs {

namespace {

using llvm::StringRef;

std::optional<StringRef> exact(StringRef name) {
  for (const Header &h : allHeaders())
    if (h.name == name)
      return h.text;
  return std::nullopt;
}

/// Header families served by one stub: the real libraries spread the same namespaces over
/// hundreds of headers, and a solution includes whichever it happened to copy. Each member
/// is a one-line file including the family stub, so `#pragma once` keeps it single.
struct Family {
  StringRef prefix;
  StringRef redirect;
};
constexpr Family kFamilies[] = {
    {"torch/", "#pragma once\n#include <kbaudit/torch.h>\n"},
    {"ATen/", "#pragma once\n#include <kbaudit/torch.h>\n"},
    {"c10/", "#pragma once\n#include <kbaudit/torch.h>\n"},
    {"pybind11/", "#pragma once\n#include <kbaudit/torch.h>\n"},
    {"caffe2/", "#pragma once\n#include <kbaudit/torch.h>\n"},
    {"cutlass/", "#pragma once\n#include <kbaudit/cutlass.h>\n"},
    {"cute/", "#pragma once\n#include <kbaudit/cute.h>\n"},
    {"cub/", "#pragma once\n#include <kbaudit/cub.h>\n"},
    {"cuda/", "#pragma once\n#include <kbaudit/libcudacxx.h>\n"},
    {"cooperative_groups/", "#pragma once\n#include <cooperative_groups.h>\n"},
    {"thrust/", "#pragma once\n#include <kbaudit/std.h>\n"},
    {"crt/", "#pragma once\n#include <cuda_runtime.h>\n"},
};

/// The C++ standard library (and the C headers it wraps) is one stub; these are the names
/// that lead there. Headers Clang ships (stddef.h, limits.h, float.h, stdarg.h) are not
/// listed: they resolve to Clang's own.
constexpr StringRef kStdNames[] = {
    "algorithm", "any", "array", "atomic", "bit", "bitset", "cassert", "cctype", "cerrno",
    "cfenv", "chrono", "cinttypes", "cmath", "complex", "condition_variable", "cstddef",
    "cstdint", "cstdio", "cstdlib", "cstring", "ctime", "cwchar", "deque", "exception",
    "execution", "forward_list", "fstream", "functional", "future", "initializer_list",
    "iomanip", "ios", "iosfwd", "iostream", "istream", "iterator", "list", "locale", "map",
    "memory", "memory_resource", "mutex", "new", "numeric", "optional", "ostream", "queue",
    "random", "ratio", "regex", "set", "shared_mutex", "sstream", "stack", "stdexcept",
    "streambuf", "string", "string_view", "system_error", "thread", "tuple", "type_traits",
    "typeindex", "typeinfo", "unordered_map", "unordered_set", "utility", "valarray", "variant",
    "vector", "numbers", "span", "concepts", "ranges", "barrier", "latch", "semaphore",
    "stdint.h", "stdio.h", "stdlib.h", "string.h", "math.h", "assert.h", "inttypes.h",
    "errno.h", "time.h", "ctype.h", "wchar.h", "unistd.h", "malloc.h", "memory.h",
    "strings.h", "pthread.h", "sys/time.h", "sys/types.h", "dlfcn.h", "immintrin.h",
};
/// Headers whose names differ from the stub that declares their contents.
struct Alias {
  StringRef name;
  StringRef redirect;
};
constexpr Alias kAliases[] = {
    {"cuda_runtime_api.h", "#pragma once\n#include <cuda_runtime.h>\n"},
    {"driver_types.h", "#pragma once\n#include <cuda_runtime.h>\n"},
    {"vector_types.h", "#pragma once\n#include <cuda_runtime.h>\n"},
    {"builtin_types.h", "#pragma once\n#include <cuda_runtime.h>\n"},
    {"device_launch_parameters.h", "#pragma once\n#include <cuda_runtime.h>\n"},
    {"device_functions.h", "#pragma once\n#include <cuda_runtime.h>\n"},
    {"math_functions.h", "#pragma once\n#include <cuda_runtime.h>\n"},
    {"host_defines.h", "#pragma once\n#include <cuda_runtime.h>\n"},
    {"cuda_profiler_api.h", "#pragma once\n#include <cuda_runtime.h>\n"},
    {"cuda_occupancy.h", "#pragma once\n#include <cuda_runtime.h>\n"},
    {"cuda_device_runtime_api.h", "#pragma once\n#include <cuda_runtime.h>\n"},
    {"sm_60_atomic_functions.h", "#pragma once\n#include <cuda_runtime.h>\n"},
    {"sm_61_intrinsics.h", "#pragma once\n#include <cuda_runtime.h>\n"},
    {"cuda_fp16.hpp", "#pragma once\n#include <cuda_fp16.h>\n"},
    {"cuda_bf16.hpp", "#pragma once\n#include <cuda_bf16.h>\n"},
    {"cuda_fp8.hpp", "#pragma once\n#include <cuda_fp8.h>\n"},
    {"cuda_fp4.h", "#pragma once\n#include <cuda_fp8.h>\n"},
    {"cuda_fp6.h", "#pragma once\n#include <cuda_fp8.h>\n"},
    {"crt/mma.h", "#pragma once\n#include <mma.h>\n"},
    {"cuda_pipeline_primitives.h", "#pragma once\n#include <cuda_pipeline.h>\n"},
    {"cuda_awbarrier_primitives.h", "#pragma once\n#include <cuda_pipeline.h>\n"},
    {"library_types.h", "#pragma once\n#include <cublas_v2.h>\n"},
    {"cublas.h", "#pragma once\n#include <cublas_v2.h>\n"},
    {"cublas_api.h", "#pragma once\n#include <cublas_v2.h>\n"},
    {"cudnn_v8.h", "#pragma once\n#include <cudnn.h>\n"},
    {"cudaTypedefs.h", "#pragma once\n#include <cuda.h>\n"},
    {"nvrtc.h", "#pragma once\n#include <cuda.h>\n"},
};

constexpr StringRef kStdRedirect = "#pragma once\n#include <kbaudit/std.h>\n";

/// Clang stats each directory on the way to a header, so a family prefix must answer
/// "file" only for the header itself: names with a header extension, and libcu++'s
/// extension-less headers (cuda/pipeline, cuda/std/atomic).
bool isFileName(StringRef name) {
  const StringRef last = name.rsplit('/').second.empty() ? name : name.rsplit('/').second;
  if (last.contains('.'))
    return true;
  static const StringRef kExtensionless[] = {"pipeline", "barrier", "atomic", "ptx", "annotated_ptr",
                                             "memory_resource", "latch", "semaphore", "stream_ref",
                                             "functional", "type_traits", "utility", "cmath",
                                             "cstdint", "array", "tuple", "limits", "bit", "span",
                                             "complex", "chrono", "cassert", "climits", "cstddef"};
  return llvm::is_contained(kExtensionless, last);
}

} // namespace

std::optional<StringRef> lookup(StringRef name) {
  if (auto text = exact(name))
    return text;
  for (const Alias &a : kAliases)
    if (a.name == name)
      return a.redirect;
  if (llvm::is_contained(kStdNames, name))
    return kStdRedirect;
  if (name == "climits")
    return StringRef("#pragma once\n#include <limits.h>\n");
  if (name == "cfloat")
    return StringRef("#pragma once\n#include <float.h>\n");
  if (name == "cstdarg")
    return StringRef("#pragma once\n#include <stdarg.h>\n");
  for (const Family &f : kFamilies)
    if (name.startswith(f.prefix) && isFileName(name))
      return f.redirect;
  return std::nullopt;
}

} // namespace kbaudit::cxx::stubs
