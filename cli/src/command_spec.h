#pragma once

// Every command's options, declared once. The declaration builds the CLI11 parser that reads
// the command line (args.h), the `--help` page CLI11 formats from it, the usage line errors
// quote and the "did you mean" suggestions for a mistyped option: the help cannot drift from
// what the parser accepts, because both are the same CLI::App.

#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace kbaudit::cli {

/// How an option's value is checked (CLI11 validators; a bad value is a usage error naming it).
struct ValueCheck {
  std::vector<std::string> oneOf = {};  ///< CLI::IsMember: exactly one of these
  std::vector<std::string> listOf = {}; ///< each entry of a comma list is one of these
  long min = 0, max = 0;            ///< CLI::Range(min, max) when max > min: a whole number
};

struct OptionSpec {
  /// CLI11's name list: "-o,--output-file"; the first long name (without dashes) is the key
  /// commands read the value by (Args::value("output-file")). An alias is another long name.
  std::string names;
  std::string value; ///< what the value is ("FILE"); "" for a flag
  std::string help;
  ValueCheck check = {};
  bool required = false;
};

struct CommandSpec {
  std::string name;
  std::string summary;    ///< one line, for the command list
  std::string positional; ///< "FILE|RUN_DIR|-" ("" for none)
  std::string positionalHelp;
  /// How many positionals: 0 none, 1 exactly one, -1 any number (at least `minPositionals`).
  int positionals = 0;
  int minPositionals = 0;
  std::vector<OptionSpec> options;
  std::string footer; ///< after the options (exit codes)
};

const std::vector<CommandSpec> &commandSpecs();
/// nullptr for an unknown command.
const CommandSpec *findCommand(std::string_view name);

/// The CLI11 app of `spec` (its --help flag too when `withHelp`): what parses the command line
/// and what prints the help.
void buildApp(CLI::App &app, const CommandSpec &spec, bool withHelp);

/// The `--help` page of one command, as CLI11 formats it from the declaration.
std::string helpPage(const CommandSpec &spec);
/// "usage: kbaudit NAME [options] POSITIONAL" (one line, no newline): what usage errors print.
std::string usageLine(const CommandSpec &spec);
/// The command list (`kbaudit --help`, or after an unknown command).
std::string overview();

/// Whether `args` (those after the command) ask for help: `--help` or `-h` before any `--`.
bool asksForHelp(const std::vector<std::string> &args);

/// The key an option's values are stored under: its first long name without the dashes.
std::string optionKey(const OptionSpec &option);
/// Every long spelling of the command's options ("--output-file", "--format", ...).
std::vector<std::string> longNames(const CommandSpec &spec);

} // namespace kbaudit::cli
