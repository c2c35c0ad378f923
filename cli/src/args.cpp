#include "args.h"

#include "command_spec.h"
#include "suggest.h"

#include "kbaudit/annotations/terminal_text.h"
#include "kbaudit/cli/cli.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iterator>
#include <ostream>

namespace kbaudit::cli {

// The app is the one the command's declaration builds (and its --help describes); CLI11 does
// the parsing: `--opt VALUE`, `--opt=VALUE`, `-o VALUE`, repeated options, `--` ending the
// options. Each valued option takes exactly one value per occurrence, so `--select WRAP
// file.py` leaves file.py a positional.
std::optional<Args> Args::parse(const std::vector<std::string> &argv, const CommandSpec &spec, std::string &error) {
  Args a;
  CLI::App app;
  buildApp(app, spec, /*withHelp=*/false);
  // Everything after `--` is a positional (a file named like an option); CLI11 parses the rest,
  // reading its vector back to front.
  const auto dashes = std::find(argv.begin(), argv.end(), "--");
  std::vector<std::string> reversed(std::make_reverse_iterator(dashes), argv.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ValidationError &e) {
    error = e.what(); // "--jobs: Value 0 not in range [1 - 1024]": CLI11 names the option and why
    return std::nullopt;
  } catch (const CLI::RequiredError &e) {
    error = e.what();
    return std::nullopt;
  } catch (const CLI::ParseError &e) {
    // CLI11's messages name the option in several ways ("--out: 1 required TEXT missing",
    // "quiet was given a disallowed flag override"): kbaudit's own wording, the same for all.
    const std::string what = e.what();
    const auto names = [&](const std::string &name) {
      return what.find("--" + name) != std::string::npos || what.rfind(name + " ", 0) == 0;
    };
    for (const OptionSpec &o : spec.options)
      if (names(optionKey(o)))
        return error = "option --" + optionKey(o) + (o.value.empty() ? " takes no value" : " needs a value"),
               std::nullopt;
    error = what;
    return std::nullopt;
  }
  std::vector<std::string> positionals;
  for (const std::string &extra : app.remaining()) {
    if (extra.size() > 1 && extra[0] == '-') {
      const std::string name = extra.substr(0, extra.find('='));
      error = "unknown option " + extra + didYouMean(name, longNames(spec));
      return std::nullopt;
    }
    positionals.push_back(extra); // a positional CLI11 did not place (after an unknown option)
  }
  for (const OptionSpec &o : spec.options) {
    const CLI::Option *opt = app.get_option(optionKey(o).insert(0, "--"));
    if (!opt->count())
      continue;
    if (o.value.empty())
      a.values_[optionKey(o)].assign(opt->count(), "");
    else
      a.values_[optionKey(o)] = opt->results();
  }
  if (spec.positionals != 0)
    if (const CLI::Option *inputs = app.get_option("inputs"); inputs->count())
      positionals.insert(positionals.begin(), inputs->results().begin(), inputs->results().end());
  if (dashes != argv.end())
    positionals.insert(positionals.end(), dashes + 1, argv.end());
  a.positionals_ = std::move(positionals);
  return a;
}

std::optional<std::string> Args::value(const std::string &name) const {
  auto it = values_.find(name);
  if (it == values_.end() || it->second.empty())
    return std::nullopt;
  return it->second.back();
}

std::vector<std::string> Args::values(const std::string &name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

std::vector<std::string> Args::list(const std::string &name) const {
  std::vector<std::string> out;
  for (const std::string &v : values(name)) {
    std::size_t start = 0;
    while (start <= v.size()) {
      const std::size_t comma = v.find(',', start);
      const std::string item = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (!item.empty())
        out.push_back(item);
      if (comma == std::string::npos)
        break;
      start = comma + 1;
    }
  }
  return out;
}

} // namespace kbaudit::cli

namespace kbaudit::cli {

int usageError(const std::string &command, const std::string &why, std::ostream &err) {
  err << "kbaudit " << command << ": " << annotations::terminalSafe(why) << "\n";
  if (const CommandSpec *spec = findCommand(command))
    err << usageLine(*spec) << "\n";
  return kExitUsage;
}

std::optional<Args> parseCommandLine(const std::vector<std::string> &argv, const std::string &command, std::ostream &err) {
  std::string error;
  std::optional<Args> args = Args::parse(argv, *findCommand(command), error);
  if (!args)
    usageError(command, error, err);
  return args;
}

} // namespace kbaudit::cli
