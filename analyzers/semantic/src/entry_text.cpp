#include "entry_text.h"

#include "kbaudit/semantic/graded_scope.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <array>

namespace kbaudit::semantic::entrytext {

using namespace pytext;

std::string_view headName(std::string_view e) {
  e = trim(e);
  while (!e.empty() && (e.front() == '(' || e.front() == '*' || e.front() == '-'))
    e = trim(e.substr(1));
  std::size_t n = 0;
  while (n < e.size() && isIdentChar(e[n]))
    ++n;
  return e.substr(0, n);
}

bool isViewMethod(std::string_view m) {
  static constexpr std::array<std::string_view, 25> kViews = {
      "view",   "reshape",    "view_as",   "flatten",  "unflatten", "squeeze",    "unsqueeze", "transpose", "permute",
      "t",      "expand",     "expand_as", "narrow",   "select",    "contiguous", "detach",    "split",     "chunk",
      "unbind", "as_strided", "movedim",   "swapaxes", "diagonal",  "unfold",     "numpy"};
  return std::find(kViews.begin(), kViews.end(), m) != kViews.end();
}

namespace {

/// After `name` at `pos` in `text`: the accessor that follows reads only metadata.
bool metadataAfter(std::string_view text, std::size_t end) {
  static constexpr std::array<std::string_view, 14> kMeta = {
      ".shape", ".size(",          ".numel(",        ".dtype",     ".device",      ".stride(", ".dim(",
      ".ndim",  ".is_contiguous(", ".element_size(", ".nelement(", ".get_device(", ".is_cuda", ".layout"};
  const std::string_view rest = text.substr(end);
  return std::any_of(kMeta.begin(), kMeta.end(), [&](std::string_view m) { return startsWith(rest, m); });
}

} // namespace

bool usesStorage(std::string_view text, const std::set<std::string> &names) {
  for (const std::string &name : names) {
    for (std::size_t pos = text.find(name); pos != std::string_view::npos; pos = text.find(name, pos + 1)) {
      const bool left = pos == 0 || (!isIdentChar(text[pos - 1]) && text[pos - 1] != '.');
      const std::size_t end = pos + name.size();
      if (!left || (end < text.size() && isIdentChar(text[end])))
        continue;
      if (!metadataAfter(text, end))
        return true;
    }
  }
  return false;
}

bool isStorageOf(std::string_view text, const std::set<std::string> &names) {
  const std::string_view t = trim(text);
  const std::string head(headName(t));
  if (head.empty() || !names.count(head) || !startsWith(t, head))
    return false;
  // Only the head name, followed by items (`[...]`) and view accessors: `out`, `out[0]`,
  // `out.view(-1)`, `out.T`, `out[:, :n].contiguous()`. A computation (`out + 1`, `out.sum()`)
  // or metadata (`out.shape[0]`) is not the storage.
  std::size_t i = head.size();
  while (i < t.size()) {
    if (t[i] == '[') {
      int depth = 0;
      for (; i < t.size(); ++i) {
        if (t[i] == '[')
          ++depth;
        else if (t[i] == ']' && --depth == 0)
          break;
      }
      if (i >= t.size())
        return false;
      ++i;
      continue;
    }
    if (t[i] != '.')
      return false;
    std::size_t j = i + 1;
    while (j < t.size() && isIdentChar(t[j]))
      ++j;
    const std::string_view member = t.substr(i + 1, j - i - 1);
    const bool viewAttr = member == "T" || member == "mT" || member == "H" || member == "mH" || member == "data" ||
                          member == "real" || member == "imag";
    if (viewAttr && (j == t.size() || t[j] != '(')) {
      i = j;
      continue;
    }
    if (!isViewMethod(member) || j == t.size() || t[j] != '(')
      return false;
    int depth = 0;
    for (i = j; i < t.size(); ++i) {
      if (t[i] == '(')
        ++depth;
      else if (t[i] == ')' && --depth == 0)
        break;
    }
    if (i >= t.size())
      return false;
    ++i;
  }
  return true;
}

bool isInPlaceMethod(std::string_view m) {
  return m.size() > 1 && m.back() == '_' && m[m.size() - 2] != '_' && !startsWith(m, "_");
}

std::vector<const py::Assignment *> assignmentsIn(const py::PythonFacts &py, const std::string &function) {
  std::vector<const py::Assignment *> out;
  for (const py::Assignment &a : py.assignments)
    if (scope::inFunction(a.function, function))
      out.push_back(&a);
  std::stable_sort(out.begin(), out.end(),
                   [](const py::Assignment *a, const py::Assignment *b) { return a->lines.begin < b->lines.begin; });
  return out;
}

std::vector<const py::Call *> callsIn(const py::PythonFacts &py, const std::string &function) {
  std::vector<const py::Call *> out;
  for (const py::Call &c : py.calls)
    if (scope::inFunction(c.function, function))
      out.push_back(&c);
  return out;
}

} // namespace kbaudit::semantic::entrytext
