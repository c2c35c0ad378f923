#include "config.h"

#include "yaml_file.h"

#include "kbaudit/source/data_file.h"

#include <yaml-cpp/yaml.h>

// Debian's libtomlplusplus is built with exceptions: parse errors arrive as toml::parse_error.
#include <toml++/toml.h>

#include <map>
#include <set>
#include <variant>

namespace kbaudit::cli {

namespace fs = std::filesystem;

namespace {

/// A config's keys with their values as strings (a scalar is a list of one), whichever file
/// format they came from: one place turns them into a Config. `model_aliases` is the one key
/// whose value is a table (name -> name).
struct RawConfig {
  std::map<std::string, std::vector<std::string>> lists;
  std::map<std::string, std::string> modelAliases;
  bool hasAliases = false;
};

const std::set<std::string> kKnownKeys = {"select",  "ignore",       "problems", "problem", "baseline",
                                          "fail_on", "doc_base_url", "suite",    "suites",  "model_aliases"};

/// TOML files spell keys in kebab-case as pyproject.toml's other tools do (`fail-on`); both
/// spellings are accepted there.
std::string canonicalKey(std::string key) {
  for (char &c : key)
    if (c == '-')
      c = '_';
  return key;
}

std::optional<RawConfig> fromYamlFile(const fs::path &file, std::string &error) {
  RawConfig raw;
  try {
    const std::optional<YAML::Node> loaded = loadYamlFile(file, error);
    if (!loaded)
      return std::nullopt;
    const YAML::Node root = *loaded;
    if (root.IsNull())
      return raw;
    if (!root.IsMap()) {
      error = file.string() + ": expected a mapping";
      return std::nullopt;
    }
    for (const auto &kv : root) {
      const std::string key = kv.first.as<std::string>();
      if (key == "model_aliases") {
        raw.hasAliases = true;
        if (!kv.second.IsMap() && !kv.second.IsNull()) {
          error = file.string() + ": model_aliases must be a mapping of model names to the name to show";
          return std::nullopt;
        }
        for (const auto &alias : kv.second)
          raw.modelAliases[alias.first.as<std::string>()] = alias.second.as<std::string>();
        continue;
      }
      std::vector<std::string> &values = raw.lists[key];
      if (kv.second.IsSequence())
        for (const YAML::Node &item : kv.second)
          values.push_back(item.as<std::string>());
      else if (kv.second.IsScalar())
        values.push_back(kv.second.as<std::string>());
    }
  } catch (const YAML::Exception &e) {
    error = file.string() + ": " + e.what();
    return std::nullopt;
  }
  return raw;
}

/// A TOML value as strings: a string, or an array of strings.
bool tomlStrings(const toml::node &node, std::vector<std::string> &out) {
  if (const auto *s = node.as_string()) {
    out.push_back(s->get());
    return true;
  }
  if (const auto *array = node.as_array()) {
    for (const toml::node &item : *array) {
      const auto *s = item.as_string();
      if (!s)
        return false;
      out.push_back(s->get());
    }
    return true;
  }
  return false;
}

/// kbaudit.toml (the whole file) or pyproject.toml (its [tool.kbaudit] table; nullopt with an
/// empty error when it has none, so the search goes on).
std::optional<RawConfig> fromTomlFile(const fs::path &file, bool pyproject, std::string &error) {
  // The same reading as a YAML config: a regular file, at most kMaxConfigBytes, named in errors.
  std::variant<std::string, std::string> read = data::readText(file, kMaxConfigBytes);
  if (const std::string *why = std::get_if<1>(&read)) {
    error = *why;
    return std::nullopt;
  }
  toml::table doc;
  try {
    doc = toml::parse(std::get<0>(read), file.string());
  } catch (const toml::parse_error &e) {
    const toml::source_position where = e.source().begin;
    error = file.string() + ":" + std::to_string(where.line) + ":" + std::to_string(where.column) + ": " +
            std::string(e.description());
    return std::nullopt;
  }
  const toml::table *table = &doc;
  if (pyproject) {
    table = doc["tool"]["kbaudit"].as_table();
    if (!table) {
      error.clear();
      return std::nullopt;
    }
  }
  RawConfig raw;
  for (const auto &[key, value] : *table) {
    const std::string name = canonicalKey(std::string(key.str()));
    if (!kKnownKeys.count(name)) {
      error = file.string() + ": unknown key '" + std::string(key.str()) + "'";
      return std::nullopt;
    }
    if (name == "model_aliases") {
      raw.hasAliases = true;
      const toml::table *aliases = value.as_table();
      if (!aliases) {
        error = file.string() + ": '" + std::string(key.str()) + "' must be a table of model names";
        return std::nullopt;
      }
      for (const auto &[from, to] : *aliases) {
        const auto *target = to.as_string();
        if (!target) {
          error = file.string() + ": '" + std::string(key.str()) + "." + std::string(from.str()) + "' must be a string";
          return std::nullopt;
        }
        raw.modelAliases[std::string(from.str())] = target->get();
      }
      continue;
    }
    if (!tomlStrings(value, raw.lists[name])) {
      error = file.string() + ": '" + std::string(key.str()) + "' must be a string or an array of strings";
      return std::nullopt;
    }
  }
  return raw;
}

bool isPyproject(const fs::path &file) { return file.filename() == "pyproject.toml"; }

std::optional<RawConfig> readRaw(const fs::path &file, std::string &error) {
  if (file.extension() == ".toml") {
    auto raw = fromTomlFile(file, isPyproject(file), error);
    if (!raw && error.empty())
      error = file.string() + ": no [tool.kbaudit] table";
    return raw;
  }
  return fromYamlFile(file, error);
}

} // namespace

std::optional<fs::path> findConfig(const fs::path &start) {
  std::error_code ec;
  for (fs::path dir = fs::absolute(start, ec); !dir.empty(); dir = dir.parent_path()) {
    for (const char *name : {"kbaudit.yaml", "kbaudit.toml"})
      if (fs::is_regular_file(dir / name, ec))
        return dir / name;
    // As ruff: a pyproject.toml counts only when it has the tool's table.
    if (fs::is_regular_file(dir / "pyproject.toml", ec)) {
      std::string error;
      if (fromTomlFile(dir / "pyproject.toml", true, error) || !error.empty())
        return dir / "pyproject.toml"; // a broken one is reported by loadConfig, not skipped
    }
    if (fs::exists(dir / ".git", ec) || dir == dir.parent_path())
      break;
  }
  return std::nullopt;
}

std::optional<Config> loadConfig(const fs::path &file, std::string &error) {
  const std::optional<RawConfig> loaded = readRaw(file, error);
  if (!loaded)
    return std::nullopt;
  const RawConfig &raw = *loaded;
  for (const auto &[key, values] : raw.lists)
    if (!kKnownKeys.count(key)) {
      error = file.string() + ": unknown key '" + key + "'";
      return std::nullopt;
    }
  const auto list = [&](const char *key) {
    auto it = raw.lists.find(key);
    return it == raw.lists.end() ? std::vector<std::string>{} : it->second;
  };
  const auto scalar = [&](const char *key) {
    auto it = raw.lists.find(key);
    return it == raw.lists.end() || it->second.empty() ? std::string() : it->second.front();
  };
  const fs::path base = file.parent_path();
  const auto relative = [&](const std::string &p) {
    return p.empty() ? fs::path() : fs::path(p).is_absolute() ? fs::path(p) : base / p;
  };
  Config c;
  c.file = file;
  c.select = list("select");
  c.ignore = list("ignore");
  c.failOn = list("fail_on");
  c.problems = relative(scalar("problems"));
  c.problem = relative(scalar("problem"));
  c.baseline = relative(scalar("baseline"));
  c.docBaseUrl = scalar("doc_base_url");
  c.suite = scalar("suite");
  for (const std::string &dir : list("suites"))
    c.suites.push_back(relative(dir));
  c.modelAliases = raw.modelAliases;
  return c;
}

} // namespace kbaudit::cli
