#include "kbaudit/semantic/state_load.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/expr_reads.h"
#include "kbaudit/semantic/python_text.h"
#include "kbaudit/semantic/static_value.h"

#include <set>

namespace kbaudit::semantic {

using namespace pytext;

bool isLoadMethod(std::string_view name) { return name == "load_state_dict" || name == "_load_from_state_dict"; }

/// `strict` as passed: the keyword, or the position it has in the method's signature.
const py::Argument *strictArg(const py::Call &c) {
  if (const py::Argument *a = c.keywordArg("strict"))
    return a;
  return c.positionalArg(c.method == "load_state_dict" ? 1 : 3);
}

bool isSelfOrSuper(std::string_view receiver) {
  return receiver == "self" || startsWith(receiver, "super(") || receiver == "torch.nn.Module" ||
         receiver == "nn.Module" || receiver == "Module";
}

std::optional<LenientLoad> lenientLoadOverride(const py::PythonFacts &py, const py::Function &fn) {
  // Parameters after self: load_state_dict(state_dict, strict, assign);
  // _load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,
  // unexpected_keys, error_msgs).
  std::vector<std::string> params = fn.params;
  if (!params.empty() && params.front() == "self")
    params.erase(params.begin());
  const std::string stateDict = params.empty() ? "" : params.front();
  std::set<std::string> reports;
  if (fn.name == "_load_from_state_dict")
    for (size_t i = 4; i < params.size() && i < 7; ++i)
      reports.insert(params[i]);

  bool forwards = false, readsState = false;
  for (const py::Call &c : py.calls) {
    if (c.function != fn.qualname)
      continue;
    if (isLoadMethod(c.method) && isSelfOrSuper(c.receiver)) {
      forwards = true;
      if (const py::Argument *strict = strictArg(c); strict && staticTruth(py, strict->value) == false)
        return LenientLoad{c.lines, "overrides " + fn.name + " and passes strict=False to " + c.callee + "()"};
    }
    if (reports.count(c.receiver) && (c.method == "clear" || c.method == "remove" || c.method == "pop"))
      return LenientLoad{c.lines, "overrides " + fn.name + " and discards the " + c.receiver + " report"};
    // The state dict reaches a call as its receiver, an argument, or inside an unpacked `*args`.
    if (!stateDict.empty() && storageRoot(c.callee) == stateDict)
      readsState = true;
    for (const py::Argument &a : c.args)
      if (!stateDict.empty() && (reads(a.value, stateDict) || a.keyword == "*"))
        readsState = true;
  }
  for (const py::Assignment &a : py.assignments)
    if (a.function == fn.qualname && a.kind == py::Assignment::TargetKind::Subscript &&
        a.target.find("strict") != std::string::npos && staticTruth(py, a.value) == false)
      return LenientLoad{a.lines, "overrides " + fn.name + " and sets strict=False in its arguments"};
  if (forwards || readsState || stateDict.empty())
    return std::nullopt;
  return LenientLoad{{fn.lines.begin, fn.lines.begin},
                     "overrides " + fn.name + " without loading the state dict it is given"};
}

} // namespace kbaudit::semantic
