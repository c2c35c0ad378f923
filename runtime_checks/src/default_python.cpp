// Which Python runs the probes when --python is not given.

#include "kbaudit/runtime/probe.h"

#include <cstdlib>

namespace kbaudit::runtime {

std::filesystem::path defaultPython() {
  // An explicit choice first (a CI image with its own environment), then the project's virtual
  // environment that setup.sh made, then the system interpreter (a static-only install).
  if (const char *env = std::getenv("KBAUDIT_PYTHON"); env && *env)
    return env;
  std::error_code ec;
  if (std::filesystem::exists(KBAUDIT_VENV_PYTHON, ec))
    return KBAUDIT_VENV_PYTHON;
  return "/usr/bin/python3";
}

} // namespace kbaudit::runtime
