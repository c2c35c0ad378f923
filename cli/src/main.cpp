#include "kbaudit/cli/cli.h"
#include "kbaudit/runtime/lifetime.h"

#include <exception>
#include <iostream>

int main(int argc, char **argv) {
  // Told to end (SIGTERM, Ctrl-C, a closed terminal), kbaudit first ends the probes it runs and
  // removes their private copies; its workers end with it through their parent-death signal.
  kbaudit::runtime::lifetime::cleanUpOnTermination();
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    return kbaudit::cli::run(args, std::cout, std::cerr);
  } catch (const std::exception &e) {
    std::cerr << "kbaudit: internal error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "kbaudit: internal error\n";
  }
  return kbaudit::cli::kExitInternal;
}
