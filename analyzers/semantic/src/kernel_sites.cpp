#include "kbaudit/semantic/kernel_sites.h"

#include <algorithm>
#include <string_view>

namespace kbaudit::semantic {
namespace {

std::string_view lastSegment(std::string_view dotted) {
  const auto dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

bool exportReaches(const Facts &f, const embed::ExtensionCall &call, const std::string &kernel) {
  bool known = false;
  for (const cxx::ExportedFunction &e : f.cxx.exports) {
    if (e.name != call.exported)
      continue;
    known = true;
    if (std::find(e.kernels.begin(), e.kernels.end(), kernel) != e.kernels.end() ||
        std::find(e.reached.begin(), e.reached.end(), kernel) != e.reached.end())
      return true;
  }
  return !known; // an export kbaudit cannot see may reach anything in its module
}

} // namespace

std::vector<const py::Call *> launchSites(const Facts &f, const kernels::Kernel &k) {
  std::vector<const py::Call *> out;
  const std::string_view name = lastSegment(k.name);
  if (k.kind == kernels::KernelKind::Triton || k.kind == kernels::KernelKind::PythonDsl) {
    for (const py::Call &c : f.python.calls)
      if ((!c.launchedKernel.empty() && lastSegment(c.launchedKernel) == name) ||
          (k.kind == kernels::KernelKind::PythonDsl && c.method == name))
        out.push_back(&c);
    return out;
  }
  if (k.source < 0 || static_cast<std::size_t>(k.source) >= f.embedded.sources.size())
    return out;
  const int module = f.embedded.sources[static_cast<std::size_t>(k.source)].module;
  for (const embed::ExtensionCall &e : f.embedded.calls) {
    if ((e.module >= 0 && module >= 0 && e.module != module) || !exportReaches(f, e, k.name))
      continue;
    for (const py::Call &c : f.python.calls)
      if (c.function == e.function && c.lines.begin == e.lines.begin && c.method == e.exported)
        out.push_back(&c);
  }
  return out;
}

} // namespace kbaudit::semantic
