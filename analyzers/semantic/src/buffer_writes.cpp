#include "kbaudit/semantic/buffer_writes.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/python_text.h"

#include <set>

namespace kbaudit::semantic {

namespace {

/// In-place tensor methods that do not change values or are bookkeeping.
bool isBookkeeping(std::string_view m) {
  for (std::string_view v : {"requires_grad_", "share_memory_", "record_stream", "retain_grad", "pin_memory_",
                             "set_name_", "rename_", "resize_", "untyped_storage"})
    if (m == v)
      return true;
  return false;
}

/// The call's receiver is `name` or an item or attribute of it (`x`, `x[0]`, `x.data`).
bool onReceiver(const py::Call &c, const std::string &name) {
  return c.receiver == name || pytext::startsWith(c.receiver, name + ".") || pytext::startsWith(c.receiver, name + "[");
}

} // namespace

std::vector<LineRange> mentionsThatMayWrite(const py::PythonFacts &facts, const py::Function &fn, const std::string &name,
                                            unsigned after, unsigned before) {
  std::vector<LineRange> uses;
  const std::string nested = fn.qualname + ".";
  const auto inFn = [&](const std::string &g) { return g == fn.qualname || pytext::startsWith(g, nested); };
  const auto inWindow = [&](LineRange l) { return l.begin > after && l.begin < before; };
  for (const py::Call &c : facts.calls) {
    if (!inFn(c.function) || !inWindow(c.lines))
      continue;
    bool use = onReceiver(c, name);
    for (const py::Argument &arg : c.args)
      use |= reads(arg.value, name);
    if (use)
      uses.push_back(c.lines);
  }
  for (const py::Assignment &s : facts.assignments)
    if (inFn(s.function) && inWindow(s.lines) && (pytext::mentionsName(s.target, name) || reads(s.value, name)))
      uses.push_back(s.lines);
  return uses;
}

std::vector<InPlaceWrite> inPlaceWrites(const Facts &f, const py::Function &fn, const std::string &name) {
  std::vector<InPlaceWrite> out;
  std::set<unsigned> extensionLines;
  for (const embed::ExtensionCall &c : f.embedded.calls)
    if (c.function == fn.qualname)
      extensionLines.insert(c.lines.begin);
  for (const py::Call &c : f.python.calls) {
    if (c.function != fn.qualname)
      continue;
    const std::string head = c.receiver.substr(0, c.receiver.find_first_of(".["));
    if (head == name && c.method.size() > 1 && c.method.back() == '_' && !pytext::startsWith(c.method, "__") &&
        !isBookkeeping(c.method)) {
      out.push_back({c.lines, "`" + c.callee + "(...)` writes it in place", true});
      continue;
    }
    if (c.launchedKernel.empty() && !extensionLines.count(c.lines.begin))
      continue;
    for (const py::Argument &a : c.args)
      if (isName(a.value, name) || (a.keyword == "out" && reads(a.value, name))) {
        out.push_back({c.lines, "it is handed to `" + (c.launchedKernel.empty() ? c.callee : c.launchedKernel) + "`", false});
        break;
      }
  }
  for (const py::Assignment &a : f.python.assignments)
    if (a.function == fn.qualname && a.kind == py::Assignment::TargetKind::Subscript &&
        pytext::startsWith(a.target, name + "[") &&
        (a.target.find(':') != std::string::npos || a.target.find("...") != std::string::npos))
      out.push_back({a.lines, "`" + a.target + " = ...` writes it in place", true});
  return out;
}

} // namespace kbaudit::semantic
