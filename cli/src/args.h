#pragma once

// A command's parsed command line: CLI11 parses it with the app its declaration builds
// (command_spec.h): `--flag`, `--opt VALUE`, `--opt=VALUE`, `-o VALUE`, positionals, `--`.
// Unknown options are errors with a suggestion, so a typo never silently changes what is audited.

#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kbaudit::cli {

struct CommandSpec;

class Args {
public:
  /// Parses `argv` (the arguments after the command) as `spec` declares; nullopt with `error`
  /// set ("unknown option --selct (did you mean '--select'?)", "option --out needs a value", or
  /// CLI11's own message for a value its validator refuses).
  static std::optional<Args> parse(const std::vector<std::string> &argv, const CommandSpec &spec, std::string &error);

  const std::vector<std::string> &positionals() const { return positionals_; }
  /// By the option's key, its first long name without the dashes ("output-file").
  bool has(const std::string &name) const { return values_.count(name) != 0; }
  /// Last value given for `name`.
  std::optional<std::string> value(const std::string &name) const;
  /// Every value given for `name`, as given.
  std::vector<std::string> values(const std::string &name) const;
  /// Every value given for `name`, comma-separated lists split.
  std::vector<std::string> list(const std::string &name) const;

private:
  std::vector<std::string> positionals_;
  std::map<std::string, std::vector<std::string>> values_;
};

/// Args::parse for the command named `command`; on a mistake writes `kbaudit COMMAND: why` and
/// its usage line to `err` and returns nullopt (the caller exits 2).
std::optional<Args> parseCommandLine(const std::vector<std::string> &argv, const std::string &command, std::ostream &err);

/// Writes `kbaudit COMMAND: why` and the command's usage line; returns the usage exit code.
int usageError(const std::string &command, const std::string &why, std::ostream &err);

} // namespace kbaudit::cli
