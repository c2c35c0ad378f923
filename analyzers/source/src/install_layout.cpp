#include "kbaudit/source/install_layout.h"

#include <system_error>

#ifndef KBAUDIT_BUILD_DIR
#define KBAUDIT_BUILD_DIR ""
#endif
#ifndef KBAUDIT_BUILD_VENV
#define KBAUDIT_BUILD_VENV ""
#endif

namespace kbaudit {

namespace fs = std::filesystem;

fs::path selfExecutable() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : p;
}

namespace {

bool hasPython(const fs::path &venv) {
  std::error_code ec;
  return !venv.empty() && fs::exists(venv / "bin" / "python", ec);
}

/// True when `path` lies under `dir` (both canonical, compared by components).
bool under(const fs::path &path, const fs::path &dir) {
  if (dir.empty() || path.empty())
    return false;
  auto p = path.begin();
  for (auto d = dir.begin(); d != dir.end(); ++d, ++p)
    if (p == path.end() || *p != *d)
      return false;
  return true;
}

} // namespace

fs::path probeVenv() {
  const fs::path exe = selfExecutable();
  if (!exe.empty()) {
    const fs::path installed = exe.parent_path().parent_path() / "lib" / "kbaudit" / "venv";
    if (hasPython(installed))
      return installed;
  }
  std::error_code ec;
  const fs::path buildDir = fs::weakly_canonical(KBAUDIT_BUILD_DIR, ec);
  if (!ec && under(exe, buildDir) && hasPython(KBAUDIT_BUILD_VENV))
    return KBAUDIT_BUILD_VENV;
  return {};
}

fs::path installedClangResources() {
  const fs::path exe = selfExecutable();
  if (exe.empty())
    return {};
  const fs::path dir = exe.parent_path().parent_path() / "lib" / "kbaudit" / "clang";
  std::error_code ec;
  return fs::exists(dir / "include" / "__clang_cuda_builtin_vars.h", ec) ? dir : fs::path();
}

} // namespace kbaudit
