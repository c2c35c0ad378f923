#include "config.h"

#include "yaml_file.h"

#include <yaml-cpp/yaml.h>

#include <set>

namespace kbaudit::cli {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> strings(const YAML::Node &n) {
  std::vector<std::string> out;
  if (n && n.IsSequence())
    for (const YAML::Node &item : n)
      out.push_back(item.as<std::string>());
  else if (n && n.IsScalar())
    out.push_back(n.as<std::string>());
  return out;
}

fs::path relativeTo(const fs::path &base, const YAML::Node &n) {
  if (!n || !n.IsScalar())
    return {};
  const fs::path p = n.as<std::string>();
  return p.is_absolute() ? p : base / p;
}

} // namespace

std::optional<fs::path> findConfig(const fs::path &start) {
  std::error_code ec;
  for (fs::path dir = fs::absolute(start, ec); !dir.empty(); dir = dir.parent_path()) {
    if (fs::is_regular_file(dir / "kbaudit.yaml", ec))
      return dir / "kbaudit.yaml";
    if (fs::exists(dir / ".git", ec) || dir == dir.parent_path())
      break;
  }
  return std::nullopt;
}

std::optional<Config> loadConfig(const fs::path &file, std::string &error) {
  static const std::set<std::string> known = {"select",  "ignore",       "problems", "problem", "baseline",
                                              "fail_on", "doc_base_url", "suite",    "suites"};
  Config c;
  c.file = file;
  try {
    const std::optional<YAML::Node> loaded = loadYamlFile(file, error);
    if (!loaded)
      return std::nullopt;
    const YAML::Node root = *loaded;
    if (root.IsNull())
      return c;
    if (!root.IsMap()) {
      error = file.string() + ": expected a mapping";
      return std::nullopt;
    }
    for (const auto &kv : root)
      if (!known.count(kv.first.as<std::string>())) {
        error = file.string() + ": unknown key '" + kv.first.as<std::string>() + "'";
        return std::nullopt;
      }
    const fs::path base = file.parent_path();
    c.select = strings(root["select"]);
    c.ignore = strings(root["ignore"]);
    c.failOn = strings(root["fail_on"]);
    c.problems = relativeTo(base, root["problems"]);
    c.problem = relativeTo(base, root["problem"]);
    c.baseline = relativeTo(base, root["baseline"]);
    if (root["doc_base_url"])
      c.docBaseUrl = root["doc_base_url"].as<std::string>();
    if (root["suite"])
      c.suite = root["suite"].as<std::string>();
    for (const std::string &dir : strings(root["suites"]))
      c.suites.push_back(fs::path(dir).is_absolute() ? fs::path(dir) : base / dir);
  } catch (const YAML::Exception &e) {
    error = file.string() + ": " + e.what();
    return std::nullopt;
  }
  return c;
}

} // namespace kbaudit::cli
