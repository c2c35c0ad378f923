#include "args.h"
#include "commands.h"
#include "config.h"

#include "kbaudit/source/atomic_write.h"
#include "kbaudit/annotations/html_report.h"
#include "kbaudit/annotations/report_csv.h"
#include "kbaudit/annotations/report_model.h"
#include "kbaudit/annotations/score.h"
#include "kbaudit/annotations/terminal_text.h"
#include "kbaudit/annotations/yaml_writer.h"
#include "kbaudit/cli/cli.h"

#include <filesystem>
#include <ostream>

namespace kbaudit::cli {

namespace fs = std::filesystem;
using annotations::terminalSafe;

// kbaudit report ANNOTATIONS_DIR [--html OUT.html] [--csv OUT.csv] [--truth HUMAN_DIR] [--title TEXT]
// [--min-runs N] [--config FILE | --no-config] (at least one of --html and --csv)
int cmdReport(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err) {
  std::string error;
  const std::optional<Args> args = parseCommandLine(argv, "report", err);
  if (!args)
    return kExitUsage;
  if (args->positionals().size() != 1)
    return usageError("report", "expected one ANNOTATIONS_DIR", err);
  if (!args->value("html") && !args->value("csv"))
    return usageError("report", "nothing to write: give --html OUT.html, --csv OUT.csv or both", err);
  // The config's model_aliases merge model spellings the normalisation cannot (report_model.h).
  annotations::ReportOptions reportOptions;
  if (auto n = args->value("min-runs")) // CLI11 checked the range
    reportOptions.minRuns = static_cast<unsigned>(std::stoul(*n));
  if (!args->has("no-config")) {
    std::optional<fs::path> file = args->value("config") ? std::optional<fs::path>(*args->value("config"))
                                                         : findConfig(fs::current_path());
    if (file) {
      std::optional<Config> config = loadConfig(*file, error);
      if (!config) {
        err << "kbaudit report: " << terminalSafe(error) << "\n";
        return kExitUsage;
      }
      reportOptions.modelAliases = config->modelAliases;
    }
  }
  const fs::path predDir = args->positionals().front();
  const std::optional<std::string> truthDir = args->value("truth");
  std::error_code ec;
  if (!fs::is_directory(predDir, ec)) {
    err << "kbaudit report: " << terminalSafe(predDir.string()) << " is not a directory\n";
    return kExitUsage;
  }
  if (truthDir && !fs::is_directory(*truthDir, ec)) {
    err << "kbaudit report: --truth " << terminalSafe(*truthDir) << " is not a directory\n";
    return kExitUsage;
  }

  annotations::HtmlReportOptions options;
  if (auto title = args->value("title"))
    options.title = *title;
  options.predSource = predDir.string();
  const auto pred = annotations::loadAnnotations(predDir, options.loadErrors);
  std::map<std::string, annotations::Annotation> truth;
  if (truthDir) {
    options.truthSource = *truthDir;
    truth = annotations::loadAnnotations(*truthDir, options.loadErrors);
  }
  for (const std::string &e : options.loadErrors)
    err << "kbaudit report: " << terminalSafe(e) << "\n";
  if (pred.empty())
    err << "kbaudit report: no annotations under " << terminalSafe(predDir.string()) << "\n";

  const annotations::ReportModel model =
      annotations::buildReportModel(pred, truthDir ? &truth : nullptr, reportOptions);
  std::vector<std::pair<fs::path, std::string>> outputs;
  if (auto html = args->value("html"))
    outputs.emplace_back(*html, annotations::renderHtmlReport(model, options));
  if (auto csv = args->value("csv"))
    outputs.emplace_back(*csv, annotations::reportCsv(model));
  for (const auto &[outPath, text] : outputs) {
    if (outPath.has_parent_path())
      fs::create_directories(outPath.parent_path(), ec);
    if (!source::writeFileAtomically(outPath, text, error)) {
      err << "kbaudit report: cannot write " << terminalSafe(outPath.string()) << ": " << terminalSafe(error) << "\n";
      return kExitInternal;
    }
    out << "wrote " << terminalSafe(outPath.string()) << " (" << pred.size() << " kbaudit annotations";
    if (truthDir)
      out << ", " << truth.size() << " human";
    out << ")\n";
  }
  // Like `score`: the page is written, but unreadable annotations make the exit status say so.
  return options.loadErrors.empty() ? kExitClean : kExitUsage;
}

} // namespace kbaudit::cli
