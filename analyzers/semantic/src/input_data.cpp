// Whether a value is input or weight data (input_data.h).

#include "kbaudit/semantic/input_data.h"

#include "kbaudit/semantic/python_text.h"

#include <array>

namespace kbaudit::semantic {

std::string receiverDataRoot(std::string_view r) {
  using pytext::isIdentChar;
  static constexpr std::array<std::string_view, 12> kViews = {
      "contiguous", "t", "detach", "clone", "view", "reshape", "flatten", "transpose", "permute", "cuda", "float", "squeeze"};
  std::size_t i = 0;
  while (i < r.size() && isIdentChar(r[i]))
    ++i;
  if (i == 0)
    return {};
  const std::string root(r.substr(0, i));
  while (i < r.size()) {
    if (r[i] != '.')
      return {};
    const std::size_t start = ++i;
    while (i < r.size() && isIdentChar(r[i]))
      ++i;
    const std::string_view name = r.substr(start, i - start);
    if (name.empty())
      return {};
    if (i < r.size() && r[i] == '(') {
      bool view = false;
      for (std::string_view v : kViews)
        view = view || name == v;
      if (!view)
        return {};
      int depth = 0;
      for (; i < r.size(); ++i) {
        depth += r[i] == '(' ? 1 : r[i] == ')' ? -1 : 0;
        if (depth == 0)
          break;
      }
      if (i == r.size())
        return {};
      ++i;
    }
  }
  return root;
}

bool declaresParam(const py::Function &fn, std::string_view name) {
  for (std::string p : fn.params) {
    if (const std::size_t cut = p.find_first_of(":="); cut != std::string::npos)
      p.resize(cut);
    while (!p.empty() && (p.front() == '*' || p.front() == ' '))
      p.erase(p.begin());
    while (!p.empty() && p.back() == ' ')
      p.pop_back();
    if (p == name)
      return true;
  }
  return false;
}

bool isInputOrWeight(const py::PythonFacts &py, const std::string &function, const std::string &root) {
  if (root.empty())
    return false;
  if (root == "self")
    return true;
  const py::Function *fn = py.findFunction(function);
  return fn && declaresParam(*fn, root);
}

} // namespace kbaudit::semantic
