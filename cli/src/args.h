#pragma once

// A small argument parser: `--flag`, `--opt VALUE`, `--opt=VALUE`, positionals. Unknown
// options are errors, so a typo never silently changes what is audited.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kbaudit::cli {

class Args {
public:
  /// `valued` options take a value; `flags` do not. Returns nullopt and sets `error`.
  static std::optional<Args> parse(const std::vector<std::string> &argv, const std::set<std::string> &valued,
                                   const std::set<std::string> &flags, std::string &error);

  const std::vector<std::string> &positionals() const { return positionals_; }
  bool has(const std::string &name) const { return values_.count(name) != 0; }
  /// Last value given for `name`.
  std::optional<std::string> value(const std::string &name) const;
  /// Every value given for `name`, comma-separated lists split.
  std::vector<std::string> list(const std::string &name) const;

private:
  std::vector<std::string> positionals_;
  std::map<std::string, std::vector<std::string>> values_;
};

} // namespace kbaudit::cli
