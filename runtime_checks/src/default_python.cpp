// Which Python runs the probes when --python is not given, and which kbaudit translates a
// solution's CUDA for the CPU runner.

#include "kbaudit/runtime/probe.h"
#include "kbaudit/source/install_layout.h"

#include <cstdlib>

namespace kbaudit::runtime {

std::filesystem::path defaultPython() {
  // An explicit choice first (a CI image with its own environment), then the probes' virtual
  // environment (beside an installed kbaudit, or the one setup.sh made for a build-tree binary),
  // then the system interpreter (a static-only install: the probes then say torch is missing).
  if (const char *env = std::getenv("KBAUDIT_PYTHON"); env && *env)
    return env;
  if (const std::filesystem::path venv = probeVenv(); !venv.empty())
    return venv / "bin" / "python";
  return "/usr/bin/python3";
}

std::filesystem::path defaultTranslator() {
  namespace fs = std::filesystem;
  if (const char *env = std::getenv("KBAUDIT_CUDA_TRANSLATOR"); env && *env)
    return env;
  const fs::path self = selfExecutable();
  if (self.filename() == "kbaudit")
    return self;
  // A test binary (build/tests/kbaudit_tests) uses the kbaudit of the same build.
  std::error_code ec;
  for (const fs::path &dir : {self.parent_path(), self.parent_path().parent_path()})
    if (!dir.empty() && fs::is_regular_file(dir / "kbaudit", ec))
      return dir / "kbaudit";
  return {};
}

} // namespace kbaudit::runtime
