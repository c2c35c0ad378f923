#include "args.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iterator>

namespace kbaudit::cli {

// The commands declare their options as two sets of names (see args.h); CLI11 does the parsing:
// `--opt VALUE`, `--opt=VALUE`, repeated options, `--` ending the options. Each valued option
// takes exactly one value per occurrence, so `--select WRAP file.py` leaves file.py a positional.
std::optional<Args> Args::parse(const std::vector<std::string> &argv, const std::set<std::string> &valued,
                                const std::set<std::string> &flags, std::string &error) {
  Args a;
  CLI::App app;
  app.set_help_flag(); // --help is answered before any command parses (cli.cpp)
  app.allow_extras(true); // collected below, so the error names the first unknown option
  app.allow_windows_style_options(false);
  std::map<std::string, CLI::Option *> flagOptions;
  std::map<std::string, std::vector<std::string>> values;
  for (const std::string &name : valued)
    app.add_option("--" + name, values[name])
        ->allow_extra_args(false)
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  for (const std::string &name : flags)
    flagOptions[name] = app.add_flag("--" + name)->disable_flag_override();
  std::vector<std::string> positionals;
  app.add_option("inputs", positionals);
  // Everything after `--` is a positional (a file named like an option); CLI11 parses the rest,
  // reading its vector back to front.
  const auto dashes = std::find(argv.begin(), argv.end(), "--");
  std::vector<std::string> reversed(std::make_reverse_iterator(dashes), argv.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError &e) {
    // CLI11's messages name the option in several ways ("--out: 1 required TEXT missing",
    // "quiet was given a disallowed flag override"): kbaudit's own wording, the same for all.
    const std::string what = e.what();
    const auto names = [&](const std::string &name) {
      return what.find("--" + name) != std::string::npos || what.rfind(name + " ", 0) == 0;
    };
    for (const std::string &name : flags)
      if (names(name))
        return error = "option --" + name + " takes no value", std::nullopt;
    for (const std::string &name : valued)
      if (names(name))
        return error = "option --" + name + " needs a value", std::nullopt;
    error = what;
    return std::nullopt;
  }
  for (const std::string &extra : app.remaining()) {
    if (extra.size() > 1 && extra[0] == '-') {
      error = "unknown option " + extra;
      return std::nullopt;
    }
    positionals.push_back(extra); // a positional CLI11 did not place (after an unknown option)
  }
  for (auto &[name, v] : values)
    if (!v.empty())
      a.values_[name] = std::move(v);
  for (const auto &[name, option] : flagOptions)
    if (option->count())
      a.values_[name].assign(option->count(), "");
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

std::vector<std::string> Args::list(const std::string &name) const {
  std::vector<std::string> out;
  auto it = values_.find(name);
  if (it == values_.end())
    return out;
  for (const std::string &v : it->second) {
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
