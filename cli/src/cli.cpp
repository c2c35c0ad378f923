#include "kbaudit/cli/cli.h"

#include <ostream>

namespace kbaudit::cli {
int run(const std::vector<std::string> &, std::ostream &, std::ostream &err) {
  err << "kbaudit: not yet\n";
  return kExitUsage;
}
} // namespace kbaudit::cli
