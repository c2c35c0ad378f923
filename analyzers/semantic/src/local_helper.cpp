#include "kbaudit/semantic/local_helper.h"

#include "kbaudit/semantic/python_text.h"

namespace kbaudit::semantic {

const py::Function *helperCalled(const py::PythonFacts &py, const py::Call &c, const std::string &caller) {
  if (c.receiver == "self") {
    const std::string cls = pytext::classOf(caller);
    return cls.empty() ? nullptr : py.findFunction(cls + "." + c.method);
  }
  if (c.receiver.empty() && c.launchedKernel.empty())
    if (const py::Function *fn = py.findFunction(c.callee); fn && fn->className.empty())
      return fn;
  return nullptr;
}

} // namespace kbaudit::semantic
