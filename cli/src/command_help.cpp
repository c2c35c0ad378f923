// A command's declaration (command_specs.cpp) as a CLI11 app, and the help CLI11 prints for it
// through kbaudit's formatter: ruff-like lower-case headings, short and long names together,
// each option's value name, help text wrapped beside the names.

#include "command_spec.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <sstream>

namespace kbaudit::cli {

namespace {

constexpr std::size_t kNameColumn = 28, kWidth = 100;

/// A CLI11 validator for a comma list whose every entry is one of `allowed` (--fail-on).
CLI::Validator commaListOf(const std::vector<std::string> &allowed) {
  std::string names;
  for (const std::string &a : allowed)
    names += (names.empty() ? "" : ", ") + a;
  return CLI::Validator(
      [allowed, names](std::string &value) -> std::string {
        std::size_t start = 0;
        while (start <= value.size()) {
          const std::size_t comma = value.find(',', start);
          const std::string item = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
          if (!item.empty() && std::find(allowed.begin(), allowed.end(), item) == allowed.end())
            return "'" + item + "' is not one of " + names;
          if (comma == std::string::npos)
            break;
          start = comma + 1;
        }
        return {};
      },
      "");
}

/// `text` wrapped to `width` columns, continuation lines indented by `indent`.
std::string wrapped(const std::string &text, std::size_t indent, std::size_t width) {
  std::string out, line;
  std::istringstream words(text);
  for (std::string w; words >> w;) {
    if (!line.empty() && indent + line.size() + 1 + w.size() > width) {
      out += line + "\n" + std::string(indent, ' ');
      line.clear();
    }
    line += (line.empty() ? "" : " ") + w;
  }
  return out + line;
}

std::string row(const std::string &names, const std::string &help) {
  std::string out = "  " + names;
  if (help.empty())
    return out + "\n";
  if (out.size() + 1 > kNameColumn)
    out += "\n" + std::string(kNameColumn, ' ');
  else
    out += std::string(kNameColumn - out.size(), ' ');
  return out + wrapped(help, kNameColumn, kWidth) + "\n";
}

/// What `usage:` shows after the command name.
std::string synopsis(const CommandSpec &spec) {
  std::string s;
  for (const OptionSpec &o : spec.options)
    if (o.required)
      s += " --" + optionKey(o) + " " + o.value;
  if (!spec.options.empty())
    s += " [options]";
  if (!spec.positional.empty()) {
    const std::string p = spec.positional + (spec.positionals < 0 ? "..." : "");
    s += " " + (spec.minPositionals > 0 ? p : "[" + p + "]");
  }
  return s;
}

/// The help page from the app CLI11 parses with: its options in declaration order, each with
/// the names CLI11 accepts and the value name given to it.
class Formatter : public CLI::Formatter {
public:
  explicit Formatter(const CommandSpec &spec) : spec_(spec) {}

  std::string make_help(const CLI::App *app, std::string, CLI::AppFormatMode) const override {
    std::string out = usageLine(spec_) + "\n\n" + wrapped(app->get_description(), 0, kWidth) + "\n";
    std::string positionals, options;
    for (const CLI::Option *opt : app->get_options()) {
      if (opt->get_positional()) {
        positionals += row(spec_.positional + (spec_.positionals < 0 ? "..." : ""), opt->get_description());
        continue;
      }
      std::string names;
      for (const std::string &s : opt->get_snames())
        names += (names.empty() ? "-" : ", -") + s;
      for (const std::string &l : opt->get_lnames())
        names += (names.empty() ? "--" : ", --") + l;
      if (!opt->get_option_text().empty())
        names += " " + opt->get_option_text();
      options += row(names, opt->get_description() + (opt->get_required() ? " (required)" : ""));
    }
    if (!positionals.empty())
      out += "\narguments:\n" + positionals;
    out += "\noptions:\n" + options;
    if (!app->get_footer().empty())
      out += "\n" + wrapped(app->get_footer(), 6, kWidth) + "\n";
    return out;
  }

private:
  const CommandSpec &spec_;
};

} // namespace

std::string optionKey(const OptionSpec &option) {
  std::size_t at = option.names.find("--");
  if (at == std::string::npos)
    return option.names;
  const std::size_t end = option.names.find(',', at);
  return option.names.substr(at + 2, end == std::string::npos ? std::string::npos : end - at - 2);
}

std::vector<std::string> longNames(const CommandSpec &spec) {
  std::vector<std::string> out = {"--help"};
  for (const OptionSpec &o : spec.options) {
    std::size_t start = 0;
    while (start < o.names.size()) {
      const std::size_t comma = o.names.find(',', start);
      const std::string name = o.names.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (name.rfind("--", 0) == 0)
        out.push_back(name);
      if (comma == std::string::npos)
        break;
      start = comma + 1;
    }
  }
  return out;
}

void buildApp(CLI::App &app, const CommandSpec &spec, bool withHelp) {
  app.name("kbaudit " + spec.name);
  app.description(spec.summary);
  app.footer(spec.footer);
  if (withHelp)
    app.set_help_flag("-h,--help", "show this help and exit");
  else
    app.set_help_flag(); // --help is answered before any command parses (cli.cpp)
  app.allow_extras(true); // collected by Args::parse, so the error names the first unknown option
  app.allow_windows_style_options(false);
  for (const OptionSpec &o : spec.options) {
    CLI::Option *opt = nullptr;
    if (o.value.empty()) {
      opt = app.add_flag(o.names, o.help)->disable_flag_override();
    } else {
      opt = app.add_option(o.names, o.help)
                ->allow_extra_args(false)
                ->expected(1)
                ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
                ->option_text(o.value);
      if (!o.check.oneOf.empty())
        opt->check(CLI::IsMember(o.check.oneOf));
      if (!o.check.listOf.empty())
        opt->check(commaListOf(o.check.listOf));
      if (o.check.max > o.check.min)
        opt->check(CLI::Range(o.check.min, o.check.max));
    }
    if (o.required)
      opt->required();
  }
  if (spec.positionals != 0)
    app.add_option("inputs", spec.positionalHelp)->expected(0, CLI::detail::expected_max_vector_size);
  app.formatter(std::make_shared<Formatter>(spec));
}

std::string helpPage(const CommandSpec &spec) {
  CLI::App app;
  buildApp(app, spec, true);
  return app.help();
}

std::string usageLine(const CommandSpec &spec) { return "usage: kbaudit " + spec.name + synopsis(spec); }

std::string overview() {
  std::string out = "usage: kbaudit <command> [options]\n\ncommands:\n";
  for (const CommandSpec &c : commandSpecs())
    out += "  " + c.name + std::string(c.name.size() < 10 ? 10 - c.name.size() : 1, ' ') + c.summary + "\n";
  out += "\n`kbaudit COMMAND --help` shows a command's options.\n"
         "exit codes: 0 success/clean, 1 gated verdict, 2 usage or input error (also a run kbaudit could not see "
         "whole), 3 internal error\n";
  return out;
}

bool asksForHelp(const std::vector<std::string> &args) {
  for (const std::string &a : args) {
    if (a == "--")
      return false;
    if (a == "--help" || a == "-h")
      return true;
  }
  return false;
}

} // namespace kbaudit::cli
