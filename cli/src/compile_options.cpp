#include "compile_options.h"

#include "args.h"

#include <cstdlib>

namespace kbaudit::cli {

std::optional<CompileChoice> compileChoiceFrom(const Args &args, const std::string &command, std::ostream &err) {
  const auto fail = [&](const std::string &why) -> std::optional<CompileChoice> {
    err << "kbaudit " << command << ": " << why << "\n";
    return std::nullopt;
  };
  if (args.has("compile") && args.has("no-compile"))
    return fail("--compile and --no-compile contradict each other");
  CompileChoice choice;
  if (!args.has("compile")) {
    // The compile options only shape a compile: given without one they would do nothing.
    for (const char *name : {"arch", "compile-cache", "compile-timeout"})
      if (args.has(name))
        return fail(std::string("--") + name + " needs --compile");
    return choice;
  }
  compiled::CompileOptions o;
  o.cacheDir = compiled::defaultCacheDir();
  // A cold torch extension compile took up to 160 s on a loaded 2-core machine (and ran past 300 s
  // once with a build beside it): the command line allows more than the library's default.
  o.timeoutSeconds = 600;
  if (auto c = args.value("compile-cache"))
    o.cacheDir = *c;
  if (auto t = args.value("compile-timeout")) // CLI11 checked it is a whole number from 1 to 86400
    o.timeoutSeconds = static_cast<double>(std::stol(*t));
  if (auto a = args.value("arch")) {
    const std::optional<std::string> arch = compiled::archForGpu(*a);
    if (!arch)
      return fail("--arch takes an architecture (sm_86, sm_90a, sm_100a, sm_120a) or a GPU name (H100, B200), not '" +
                  *a + "'");
    o.arch = *arch;
    o.archReason = "--arch " + *a;
    choice.archGiven = true;
  }
  choice.options = std::move(o);
  return choice;
}

void chooseArch(compiled::CompileOptions &o, const problems::ProblemContext *problem, const std::string &runGpu) {
  if (problem)
    for (const std::string &hw : problem->hardware)
      if (const auto arch = compiled::archForGpu(hw)) {
        o.arch = *arch;
        o.archReason = "problem.yaml hardware: " + hw;
        return;
      }
  if (const auto arch = compiled::archForGpu(runGpu); arch && !runGpu.empty()) {
    o.arch = *arch;
    o.archReason = "the run's gpu: " + runGpu;
    return;
  }
  if (problem)
    for (const auto &part : problem->dir)
      if (const auto arch = compiled::archForGpu(part.string())) {
        o.arch = *arch;
        o.archReason = "the problem's path names " + part.string();
        return;
      }
  o.arch = compiled::kDefaultArch;
  o.archReason = std::string("default (") + compiled::kDefaultArch + ": no GPU named by the problem or the run)";
}

} // namespace kbaudit::cli
