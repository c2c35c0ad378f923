#include "kbaudit/semantic/l2_persistence.h"

#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <array>

namespace kbaudit::semantic {

namespace {

/// API names and constants that set, pin or reset persisting L2 (not the ones that read its size).
constexpr std::array<std::string_view, 8> kPersistNames = {
    "cudaLimitPersistingL2CacheSize", "cudaStreamAttributeAccessPolicyWindow", "cudaAccessPropertyPersisting",
    "cudaCtxResetPersistingL2Cache",  "CU_LIMIT_PERSISTING_L2_CACHE_SIZE",      "CU_ACCESS_PROPERTY_PERSISTING",
    "cuCtxResetPersistingL2Cache",    "CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW"};

/// What a Python expression spells: the names and dotted chains it reads and, for a string
/// literal holding one identifier (`getattr(cudart, "cudaLimitPersistingL2CacheSize")`), that
/// identifier; never its comments, nor a source string that merely mentions the API.
std::string spelledNames(const py::Expr &e) {
  std::string out;
  for (const std::string &n : e.names)
    out += n + " ";
  if (e.kind == py::ExprKind::String && e.string && !e.string->value.empty() &&
      std::all_of(e.string->value.begin(), e.string->value.end(), pytext::isIdentChar))
    out += e.string->value;
  return out;
}

/// Every name persistingL2Name finds holds one of these: text holding none names nothing, and
/// that is answered without the twenty searches (MEM005 asks of every call and assignment).
bool mayNamePersisting(std::string_view text) {
  if (text.size() < 6) // the shortest marker
    return false;
  for (std::string_view marker : {"ersist", "ERSIST", "olicyWindow", "OLICY_WINDOW"})
    if (text.find(marker) != std::string_view::npos)
      return true;
  return false;
}

} // namespace

std::string_view persistingL2Name(std::string_view text, bool pythonSpellings) {
  if (!mayNamePersisting(text))
    return {};
  // Reading the limits (to size a tile or a window) does not change the cache.
  for (std::string_view read : {"MaxPersisting", "MAX_PERSISTING", "persistingL2CacheMaxSize", "MaxWindowSize",
                                "MaxAccessPolicyWindow", "GetLimit", "GetAttribute"})
    if (text.find(read) != std::string_view::npos)
      return {};
  for (std::string_view n : kPersistNames)
    if (text.find(n) != std::string_view::npos)
      return n;
  // Python spellings (cuda-python enums, ctypes constants): `cudaLimit.cudaLimitPersistingL2CacheSize`,
  // `accessPolicyWindow.hitProp`.
  if (!pythonSpellings)
    return {};
  for (std::string_view n : {"PersistingL2CacheSize", "AccessPolicyWindow", "accessPolicyWindow", "ResetPersistingL2Cache"})
    if (text.find(n) != std::string_view::npos)
      return n;
  return {};
}

L2Effect l2EffectOf(std::string_view name) {
  if (name.find("Reset") != std::string_view::npos)
    return L2Effect::Reset;
  if (name.find("Limit") != std::string_view::npos || name.find("LIMIT") != std::string_view::npos ||
      name.find("CacheSize") != std::string_view::npos)
    return L2Effect::Reserve;
  return L2Effect::Window;
}

std::string describe(L2Effect e) {
  switch (e) {
  case L2Effect::Reserve: return "reserves a persisting L2 set-aside";
  case L2Effect::Reset: return "resets persisting L2 lines";
  case L2Effect::Window: break;
  }
  return "installs an access-policy window that keeps data resident in L2";
}

std::string_view persistingL2NameIn(const py::Expr &e) {
  // No name can span two of spelledNames' pieces (a space parts them), so pieces holding no
  // marker need not be joined.
  const bool marked = std::any_of(e.names.begin(), e.names.end(), mayNamePersisting) ||
                      (e.string && mayNamePersisting(e.string->value));
  return marked ? persistingL2Name(spelledNames(e), true) : std::string_view();
}

bool marksPersisting(const py::Expr &e) {
  const std::string spelled = spelledNames(e);
  return spelled.find("Persist") != std::string::npos || spelled.find("PERSIST") != std::string::npos;
}

} // namespace kbaudit::semantic
