#include "mem_python.h"

#include "forward_entry.h"

namespace kbaudit::rules::mem {

std::set<std::string> reachableFunctions(const Facts &f) {
  std::set<std::string> out = reachableFromForward(f);
  if (out.empty())
    for (const py::Function &fn : f.python.functions)
      if (!fn.className.empty())
        out.insert(fn.qualname);
  return out;
}

} // namespace kbaudit::rules::mem
