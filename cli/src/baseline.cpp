#include "baseline.h"

#include "yaml_file.h"

#include <yaml-cpp/yaml.h>

namespace kbaudit::cli {

std::optional<Baseline> loadBaseline(const std::filesystem::path &file, std::string &error) {
  Baseline baseline;
  baseline.file = file;
  try {
    const std::optional<YAML::Node> loaded = loadYamlFile(file, error);
    if (!loaded)
      return std::nullopt;
    const YAML::Node root = *loaded;
    const YAML::Node accepted = root["accepted"];
    if (!root.IsMap() || (accepted && !accepted.IsSequence())) {
      error = file.string() + ": expected a mapping with an `accepted:` list";
      return std::nullopt;
    }
    unsigned index = 0;
    for (const YAML::Node &n : accepted) {
      ++index;
      BaselineEntry e;
      e.run = n["run"].as<std::string>("");
      e.contentSha256 = n["content_sha256"].as<std::string>("");
      e.rule = n["rule"].as<std::string>("");
      e.reason = n["reason"].as<std::string>("");
      e.who = n["who"].as<std::string>("");
      const char *missing = e.run.empty() && e.contentSha256.empty() ? "run or content_sha256"
                            : e.rule.empty()                         ? "rule"
                            : e.reason.empty()                       ? "reason"
                            : e.who.empty()                          ? "who"
                                                                     : nullptr;
      if (missing) {
        error = file.string() + ": entry " + std::to_string(index) + " has no " + missing;
        return std::nullopt;
      }
      baseline.entries.push_back(std::move(e));
    }
  } catch (const YAML::Exception &e) {
    error = file.string() + ": " + e.what();
    return std::nullopt;
  }
  return baseline;
}

void applyBaseline(const Baseline &baseline, const std::string &runId, const std::string &contentSha256,
                   std::vector<rules::Finding> &findings) {
  for (rules::Finding &f : findings)
    for (const BaselineEntry &e : baseline.entries) {
      const bool sameRun = !e.run.empty() && e.run == runId;
      const bool sameContent = !e.contentSha256.empty() && e.contentSha256 == contentSha256;
      if ((sameRun || sameContent) && f.rule.rfind(e.rule, 0) == 0) {
        f.accepted = true;
        f.acceptedReason = e.reason;
        f.acceptedBy = e.who + " (" + baseline.file.filename().string() + ")";
        break;
      }
    }
}

} // namespace kbaudit::cli
