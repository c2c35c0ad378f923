#include "kbaudit/compiled/demangle.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace kbaudit::compiled {

std::string demangle(const std::string &mangled) {
  if (!mangled.starts_with("_Z"))
    return mangled;
  int status = 0;
  std::unique_ptr<char, void (*)(void *)> out(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
                                               std::free);
  return status == 0 && out ? std::string(out.get()) : mangled;
}

std::string functionName(const std::string &demangled) {
  // Cut the parameter list: the last top-level parenthesised group.
  std::string s = demangled;
  int depth = 0;
  size_t paramsAt = std::string::npos;
  for (size_t i = s.size(); i-- > 0;) {
    const char c = s[i];
    if (c == ')' || c == '>')
      ++depth;
    else if (c == '(' || c == '<')
      --depth;
    if (depth == 0 && c == '(') {
      paramsAt = i;
      break;
    }
  }
  if (paramsAt != std::string::npos && paramsAt > 0)
    s.resize(paramsAt);
  // Drop the template arguments of the function itself (a trailing <...> group).
  if (!s.empty() && s.back() == '>') {
    depth = 0;
    for (size_t i = s.size(); i-- > 0;) {
      depth += s[i] == '>' ? 1 : s[i] == '<' ? -1 : 0;
      if (depth == 0) {
        s.resize(i);
        break;
      }
    }
  }
  // A template's signature starts with its return type: the name is after the last
  // top-level space ("(anonymous namespace)" holds one inside parentheses).
  depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    depth += s[i] == '(' || s[i] == '<' ? 1 : s[i] == ')' || s[i] == '>' ? -1 : 0;
    if (depth == 0 && s[i] == ' ')
      start = i + 1;
  }
  return s.substr(start);
}

} // namespace kbaudit::compiled
