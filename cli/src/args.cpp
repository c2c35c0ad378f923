#include "args.h"

namespace kbaudit::cli {

std::optional<Args> Args::parse(const std::vector<std::string> &argv, const std::set<std::string> &valued,
                                const std::set<std::string> &flags, std::string &error) {
  Args a;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string &arg = argv[i];
    if (arg == "--") {
      a.positionals_.insert(a.positionals_.end(), argv.begin() + static_cast<long>(i) + 1, argv.end());
      break;
    }
    if (arg.size() < 2 || arg[0] != '-' || arg == "-") {
      a.positionals_.push_back(arg);
      continue;
    }
    std::string name = arg.substr(arg.find_first_not_of('-'));
    std::optional<std::string> inlineValue;
    if (auto eq = name.find('='); eq != std::string::npos) {
      inlineValue = name.substr(eq + 1);
      name.resize(eq);
    }
    if (flags.count(name)) {
      if (inlineValue) {
        error = "option --" + name + " takes no value";
        return std::nullopt;
      }
      a.values_[name].push_back("");
    } else if (valued.count(name)) {
      if (!inlineValue) {
        if (i + 1 >= argv.size()) {
          error = "option --" + name + " needs a value";
          return std::nullopt;
        }
        inlineValue = argv[++i];
      }
      a.values_[name].push_back(*inlineValue);
    } else {
      error = "unknown option " + arg;
      return std::nullopt;
    }
  }
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
