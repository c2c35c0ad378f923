#include "build_version.h"

#include "runs.h"

#ifndef KBAUDIT_GIT_DESCRIBE
#define KBAUDIT_GIT_DESCRIBE ""
#endif

namespace kbaudit::cli {

std::string versionLine() {
  // Annotations and resume fingerprints carry version() alone; only this line names the commit,
  // so a rebuild from another commit does not by itself invalidate a sweep's annotations.
  const std::string describe = KBAUDIT_GIT_DESCRIBE;
  if (describe.empty() || describe == version() || describe == "v" + version())
    return version();
  return version() + " (git " + describe + ")";
}

} // namespace kbaudit::cli
