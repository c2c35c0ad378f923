#include "kbaudit/semantic/local_helper.h"

#include <algorithm>

#include "kbaudit/semantic/python_text.h"

namespace kbaudit::semantic {

bool calledThroughClass(const py::Function &fn) {
  return std::any_of(fn.decorators.begin(), fn.decorators.end(), [](const py::Decorator &d) {
    return d.resolved == "staticmethod" || d.resolved == "classmethod";
  });
}

const py::Function *helperCalled(const py::PythonFacts &py, const py::Call &c, const std::string &caller) {
  if (c.receiver == "self") {
    const std::string cls = pytext::classOf(caller);
    return cls.empty() ? nullptr : py.findFunction(cls + "." + c.method);
  }
  if (c.receiver.empty() && c.launchedKernel.empty())
    if (const py::Function *fn = py.findFunction(c.callee); fn && fn->className.empty())
      return fn;
  // `Ops.f(...)`: a static or class method of a class of the file, called through the class.
  if (!c.receiver.empty() && c.launchedKernel.empty() &&
      std::any_of(py.classes.begin(), py.classes.end(), [&](const py::Class &k) { return k.name == c.receiver; }))
    if (const py::Function *fn = py.findFunction(c.receiver + "." + c.method); fn && calledThroughClass(*fn))
      return fn;
  return nullptr;
}

} // namespace kbaudit::semantic
