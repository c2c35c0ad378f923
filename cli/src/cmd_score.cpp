#include "args.h"
#include "commands.h"

#include "kbaudit/annotations/score.h"
#include "kbaudit/annotations/terminal_text.h"
#include "kbaudit/cli/cli.h"

#include <filesystem>
#include <ostream>

namespace kbaudit::cli {

namespace fs = std::filesystem;

int cmdScore(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err) {
  const std::optional<Args> args = parseCommandLine(argv, "score", err); // --truth and --pred are required
  if (!args)
    return kExitUsage;
  if (!args->positionals().empty())
    return usageError("score", "takes no positional arguments", err);
  std::error_code ec;
  for (const char *opt : {"truth", "pred"})
    if (!fs::is_directory(*args->value(opt), ec)) {
      err << "kbaudit score: --" << opt << " " << annotations::terminalSafe(*args->value(opt)) << " is not a directory\n";
      return kExitUsage;
    }
  std::vector<std::string> errors;
  const auto truth = annotations::loadAnnotations(*args->value("truth"), errors);
  const auto pred = annotations::loadAnnotations(*args->value("pred"), errors);
  for (const std::string &e : errors)
    err << "kbaudit score: " << annotations::terminalSafe(e) << "\n";
  // Run ids in the misses and false flags come from file names.
  out << annotations::terminalSafeLines(annotations::formatScore(annotations::score(truth, pred)));
  return errors.empty() ? kExitClean : kExitUsage;
}

} // namespace kbaudit::cli
