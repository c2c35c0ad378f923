// Which Python runs the probes when --python is not given.

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

} // namespace kbaudit::runtime
