#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace kbaudit::cli {

/// Documented exit codes (docs/cli.md).
enum ExitCode : int {
  kExitClean = 0,    ///< verdict clean / command succeeded
  kExitFlagged = 1,  ///< a gated verdict (reward_hack, rubric_leak)
  kExitUsage = 2,    ///< usage error, input that cannot be read, or (check) verdict bug: not seen whole
  kExitInternal = 3, ///< a bug in kbaudit
};

/// Runs `kbaudit ARGS...`; `args` excludes the program name.
int run(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

} // namespace kbaudit::cli
