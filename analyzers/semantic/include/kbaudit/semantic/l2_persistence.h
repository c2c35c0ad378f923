#pragma once

// Whether a call or a name sets, pins or resets persisting L2 (the question behind MEM005):
// the CUDA runtime and driver spellings (`cudaLimitPersistingL2CacheSize`,
// `cudaStreamAttributeAccessPolicyWindow`, `cuCtxResetPersistingL2Cache`, ...) and, from
// Python, the cuda-python and ctypes spellings, read from the names an expression reads (and
// an identifier passed as a string, `getattr(cudart, "cudaLimitPersistingL2CacheSize")`), never
// from a source string that merely mentions them. Reading the limits (to size a tile or a
// window) does not change the cache.

#include "kbaudit/python/facts.h"

#include <string>
#include <string_view>

namespace kbaudit::semantic {

/// What a site does to persisting L2; a zero set-aside turns persistence off like a reset.
enum class L2Effect { Reserve, Window, Reset };

/// The persisting-L2 API or constant `spelled` names ("" when none, or when it reads a limit).
/// `pythonSpellings` adds the cuda-python enum members and access-policy field names.
std::string_view persistingL2Name(std::string_view spelled, bool pythonSpellings = false);

/// The persisting-L2 name a Python expression reads ("" when none).
std::string_view persistingL2NameIn(const py::Expr &e);

/// The name (from persistingL2Name) also marks data persisting (`hitProp = ...Persisting`),
/// not only another field of the window.
bool marksPersisting(const py::Expr &e);

L2Effect l2EffectOf(std::string_view name);

/// "reserves a persisting L2 set-aside", "resets persisting L2 lines", "installs an
/// access-policy window that keeps data resident in L2".
std::string describe(L2Effect e);

} // namespace kbaudit::semantic
