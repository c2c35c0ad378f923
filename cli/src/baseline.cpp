#include "baseline.h"

#include "yaml_file.h"

#include <yaml-cpp/yaml.h>

#include <cstdio>

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

namespace {

/// A YAML double-quoted scalar: any text, control characters escaped.
std::string quoted(const std::string &s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\')
      out += std::string("\\") + ch;
    else if (c == '\n')
      out += "\\n";
    else if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    } else
      out += ch;
  }
  return out + "\"";
}

} // namespace

std::string baselineYaml(const Baseline &baseline) {
  std::string out = "# kbaudit baseline: findings accepted after review (docs/cli.md#baselines). `kbaudit baseline`\n"
                    "# adds entries; edit a reason or remove an entry by hand as review goes on.\n";
  if (baseline.entries.empty())
    return out + "accepted: []\n";
  out += "accepted:\n";
  for (const BaselineEntry &e : baseline.entries) {
    out += e.run.empty() ? "  - content_sha256: " + quoted(e.contentSha256) + "\n" : "  - run: " + quoted(e.run) + "\n";
    out += "    rule: " + quoted(e.rule) + "\n";
    out += "    reason: " + quoted(e.reason) + "\n";
    out += "    who: " + quoted(e.who) + "\n";
  }
  return out;
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
