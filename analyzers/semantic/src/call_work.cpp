#include "kbaudit/semantic/call_work.h"

#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <array>
#include <string>

namespace kbaudit::semantic {

using pytext::startsWith;

bool isInertCall(const py::Call &c) {
  if (!c.launchedKernel.empty())
    return false;
  static constexpr std::array<std::string_view, 56> kInert = {
      "clone",      "detach",   "view",        "view_as",   "reshape",     "contiguous", "to",
      "t",          "transpose", "permute",    "squeeze",   "unsqueeze",   "expand",     "expand_as",
      "narrow",     "flatten",  "float",       "half",      "bfloat16",    "cpu",        "cuda",
      "item",       "size",     "dim",         "numel",     "data_ptr",    "stride",     "is_contiguous",
      "get",        "getattr",  "len",         "isinstance", "hasattr",    "id",         "tuple",
      "list",       "int",      "bool",        "max",       "min",         "range",      "zip",
      "enumerate",  "type",     "items",       "keys",      "values",      "copy_",      "empty",
      "empty_like", "new_empty", "zeros_like", "record_stream", "print",   "synchronize", "current_stream"};
  const std::string_view m = c.method.empty() ? std::string_view(c.callee) : std::string_view(c.method);
  return std::find(kInert.begin(), kInert.end(), m) != kInert.end();
}

std::vector<const py::Call *> callsOn(const py::PythonFacts &facts, std::string_view fn, LineRange lines) {
  std::vector<const py::Call *> out;
  const std::string prefix = std::string(fn) + ".";
  for (const py::Call &c : facts.calls)
    if ((c.function == fn || startsWith(c.function, prefix)) && c.lines.begin >= lines.begin &&
        c.lines.begin <= lines.end)
      out.push_back(&c);
  return out;
}

bool computesOn(const py::PythonFacts &facts, const py::Function &fn, LineRange lines, LineRange test) {
  for (const py::Call *c : callsOn(facts, fn.qualname, lines))
    if (!isInertCall(*c) && !(c->lines.begin >= test.begin && c->lines.end <= test.end))
      return true;
  return false;
}

} // namespace kbaudit::semantic
