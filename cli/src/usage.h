#pragma once

// Every command's usage text, in one place: `kbaudit --help` lists them, `kbaudit CMD --help`
// (or -h, or `kbaudit help CMD`) prints one, and the commands quote their synopsis in errors.

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::cli {

struct CommandHelp {
  std::string_view name;     ///< "check"
  std::string_view synopsis; ///< "FILE|RUN_DIR... [--problem DIR] ..." (after `kbaudit check `)
  std::string_view summary;  ///< one line for the command list
  std::string_view options;  ///< the options, one per line, for `--help`; may be empty
};

const std::vector<CommandHelp> &commandHelp();
/// nullptr for an unknown command.
const CommandHelp *findCommandHelp(std::string_view name);

/// "usage: kbaudit NAME SYNOPSIS" (one line, no newline): what usage errors print.
std::string usageLine(const CommandHelp &c);
/// The full `--help` page of one command.
std::string commandUsage(const CommandHelp &c);
/// The command list (`kbaudit --help`, or after an unknown command).
std::string overallUsage();

/// Whether `args` (those after the command) ask for help: `--help` or `-h` before any `--`.
bool asksForHelp(const std::vector<std::string> &args);

} // namespace kbaudit::cli
