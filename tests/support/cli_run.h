#pragma once

// Runs the kbaudit command in process and captures what it prints.

#include "kbaudit/cli/cli.h"

#include <sstream>
#include <string>
#include <vector>

namespace kbaudit::test {

struct CliResult {
  int code;
  std::string out, err;
};

inline CliResult kb(const std::vector<std::string> &args) {
  std::ostringstream out, err;
  const int code = cli::run(args, out, err);
  return {code, out.str(), err.str()};
}

} // namespace kbaudit::test
