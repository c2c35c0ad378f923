#include "kbaudit/cli/cli.h"

#include <exception>
#include <iostream>

int main(int argc, char **argv) {
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
