#include "args.h"
#include "commands.h"
#include "suggest.h"
#include "terminal_markdown.h"

#include "kbaudit/source/atomic_write.h"
#include "kbaudit/annotations/terminal_text.h"
#include "kbaudit/annotations/yaml_writer.h"
#include "kbaudit/cli/cli.h"
#include "kbaudit/rules/rule_meta.h"

#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <ostream>
#include <unistd.h>

namespace kbaudit::cli {

namespace fs = std::filesystem;

int cmdRules(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err) {
  const std::optional<Args> args = parseCommandLine(argv, "rules", err);
  if (!args)
    return kExitUsage;
  if (!args->positionals().empty())
    return usageError("rules", "takes no arguments", err);
  out << std::left << std::setw(9) << "ID" << std::setw(36) << "NAME" << std::setw(13) << "VERDICT"
      << "CONFIDENCE\n";
  for (const rules::RuleMeta &m : rules::catalogue())
    out << std::setw(9) << m.id << std::setw(36) << m.name << std::setw(13) << rules::verdictClassName(m.verdict)
        << rules::confidenceName(m.confidence) << "\n";
  return kExitClean;
}

int cmdExplain(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err) {
  const std::optional<Args> args = parseCommandLine(argv, "explain", err);
  if (!args)
    return kExitUsage;
  if (args->positionals().size() != 1)
    return usageError("explain", "expected one RULE_ID", err);
  const std::string &id = args->positionals().front();
  const rules::RuleMeta *m = rules::findRule(id);
  if (!m) {
    std::vector<std::string> ids;
    for (const rules::RuleMeta &r : rules::catalogue())
      ids.push_back(r.id);
    err << "kbaudit explain: unknown rule '" << annotations::terminalSafe(id) << "'"
        << annotations::terminalSafe(didYouMean(id, ids)) << " (see `kbaudit rules`)\n";
    return kExitUsage;
  }
  const std::string page = rules::renderRuleDoc(*m);
  // The page as docs/rules holds it, for a pager or a file; otherwise text a terminal shows.
  const char *noColor = std::getenv("NO_COLOR"); // no-color.org: set and not empty
  const bool color = &out == &std::cout && isatty(STDOUT_FILENO) && !(noColor && *noColor);
  out << (args->has("markdown") ? page : markdownForTerminal(page, color));
  return kExitClean;
}

int cmdDocs(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err) {
  const std::optional<Args> args = parseCommandLine(argv, "docs", err); // --out is required
  if (!args)
    return kExitUsage;
  if (!args->positionals().empty())
    return usageError("docs", "takes no positional arguments", err);
  const fs::path dir = *args->value("out");
  for (const rules::RuleMeta &m : rules::catalogue()) {
    std::string writeError;
    if (!source::writeFileAtomically(dir / (m.id + ".md"), rules::renderRuleDoc(m), writeError)) {
      err << "kbaudit docs: " << annotations::terminalSafe(writeError) << "\n";
      return kExitUsage;
    }
    out << annotations::terminalSafe((dir / (m.id + ".md")).string()) << "\n";
  }
  return kExitClean;
}

} // namespace kbaudit::cli
