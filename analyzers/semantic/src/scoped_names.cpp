#include "kbaudit/semantic/scoped_names.h"

namespace kbaudit::semantic {

namespace {
constexpr std::string_view kClassMark = "class:";
}

std::pair<std::string, std::string> nameHome(std::string_view function, std::string_view name) {
  if (pytext::startsWith(name, "self."))
    return {std::string(kClassMark) + pytext::classOf(function), std::string(name)};
  return {std::string(function), std::string(name)};
}

bool seenFrom(std::string_view home, std::string_view name, std::string_view function) {
  if (pytext::startsWith(name, "self."))
    return pytext::startsWith(home, kClassMark) && home.substr(kClassMark.size()) == pytext::classOf(function);
  // Own function, an enclosing one (`outer` encloses `outer.inner`), or module level.
  return home.empty() || home == function ||
         (function.size() > home.size() && pytext::startsWith(function, home) && function[home.size()] == '.');
}

} // namespace kbaudit::semantic
