#pragma once

// The CPU runner's home (cudacpu_home.cpp): the probe package with the light build's
// precompiled headers, made once per package and interpreter under the user's cache.

#include "kbaudit/runtime/sandbox.h"

#include <filesystem>
#include <string>
#include <vector>

namespace kbaudit::runtime::detail {

/// The home for `python` (made now when it does not exist yet), or empty when there is no cache
/// folder or it could not be made; `note` then says why (empty when there is nothing to say).
/// `interpreterView` is what the interpreter needs to see besides the system's.
std::filesystem::path cudaCpuHome(const std::filesystem::path &python, const std::vector<std::filesystem::path> &interpreterView,
                                  std::string &note);

} // namespace kbaudit::runtime::detail
