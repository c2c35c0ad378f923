#include "mem_python.h"

#include "forward_entry.h"
#include "semantic_names.h"

#include <algorithm>
#include <array>

namespace kbaudit::rules::mem {

using namespace pytext;

std::set<std::string> reachableFunctions(const Facts &f) {
  std::set<std::string> out = reachableFromForward(f);
  if (out.empty())
    for (const py::Function &fn : f.python.functions)
      if (!fn.className.empty())
        out.insert(fn.qualname);
  return out;
}

bool within(LineRange inner, LineRange outer) {
  return inner.begin >= outer.begin && inner.begin <= outer.end && outer.begin != 0;
}

BranchBlocks blocksOf(const py::Branch &b) {
  BranchBlocks out;
  if (b.arms.empty())
    return out;
  const py::BranchArm &arm = b.arms.front();
  out.body = arm.body;
  out.inlineBody = arm.body.begin <= arm.test.end; // `if c: stmt`
  // The else block, when the next arm is the else (not a later elif).
  if (b.arms.size() > 1 && b.arms[1].kind == "else")
    out.orelse = b.arms[1].body;
  return out;
}

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

} // namespace kbaudit::rules::mem
