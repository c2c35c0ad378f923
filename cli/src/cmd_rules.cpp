#include "args.h"
#include "commands.h"
#include "usage.h"

#include "kbaudit/source/atomic_write.h"
#include "kbaudit/annotations/terminal_text.h"
#include "kbaudit/annotations/yaml_writer.h"
#include "kbaudit/cli/cli.h"
#include "kbaudit/rules/rule_meta.h"

#include <filesystem>
#include <iomanip>
#include <ostream>

namespace kbaudit::cli {

namespace fs = std::filesystem;

int cmdRules(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err) {
  if (!argv.empty()) {
    err << "kbaudit rules: takes no arguments\n";
    return kExitUsage;
  }
  out << std::left << std::setw(9) << "ID" << std::setw(36) << "NAME" << std::setw(13) << "VERDICT"
      << "CONFIDENCE\n";
  for (const rules::RuleMeta &m : rules::catalogue())
    out << std::setw(9) << m.id << std::setw(36) << m.name << std::setw(13) << rules::verdictClassName(m.verdict)
        << rules::confidenceName(m.confidence) << "\n";
  return kExitClean;
}

int cmdExplain(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err) {
  if (argv.size() != 1) {
    err << "kbaudit explain: " << usageLine(*findCommandHelp("explain")) << "\n";
    return kExitUsage;
  }
  const rules::RuleMeta *m = rules::findRule(argv.front());
  if (!m) {
    err << "kbaudit explain: unknown rule '" << annotations::terminalSafe(argv.front()) << "' (see `kbaudit rules`)\n";
    return kExitUsage;
  }
  out << rules::renderRuleDoc(*m);
  return kExitClean;
}

int cmdDocs(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err) {
  std::string error;
  const auto args = Args::parse(argv, {"out"}, {}, error);
  if (!args || !args->value("out") || !args->positionals().empty()) {
    err << "kbaudit docs: " << (args ? usageLine(*findCommandHelp("docs")) : annotations::terminalSafe(error)) << "\n";
    return kExitUsage;
  }
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
