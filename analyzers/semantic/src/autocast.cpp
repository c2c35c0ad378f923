// torch.autocast regions (autocast.h).

#include "kbaudit/semantic/autocast.h"

#include "kbaudit/python/dtype.h"
#include "kbaudit/semantic/static_value.h"

#include <utility>

namespace kbaudit::semantic {
namespace {

std::string autocastDtype(const py::PythonFacts &py, const py::Call &c) {
  const py::Argument *dt = c.keywordArg("dtype");
  if (!dt && (c.resolved == "torch.autocast" || c.resolved == "torch.amp.autocast"))
    dt = c.positionalArg(1);
  if (dt) {
    const std::optional<std::string> t = staticText(py, dt->value);
    return t ? dtype::canonicalDtype(*t) : std::string();
  }
  // Defaults: fp16 on CUDA, bf16 on CPU.
  if (c.resolved == "torch.cpu.amp.autocast")
    return "bf16";
  const py::Argument *dev = c.keywordArg("device_type");
  if (!dev && (c.resolved == "torch.autocast" || c.resolved == "torch.amp.autocast"))
    dev = c.positionalArg(0);
  const std::optional<std::string> d = dev ? staticText(py, dev->value) : std::nullopt;
  return d && *d == "cpu" ? "bf16" : "fp16";
}

} // namespace

bool isAutocast(std::string_view resolved) {
  return resolved == "torch.autocast" || resolved == "torch.amp.autocast" || resolved == "torch.cuda.amp.autocast" ||
         resolved == "torch.cpu.amp.autocast" || resolved == "torch.amp.autocast_mode.autocast";
}

std::vector<AutocastSite> autocastSites(const py::PythonFacts &py) {
  std::vector<std::pair<LineRange, std::string>> decorated; // decorator lines -> function
  for (const py::Function &fn : py.functions)
    for (const py::Decorator &d : fn.decorators)
      decorated.emplace_back(d.lines, fn.qualname);
  std::vector<AutocastSite> out;
  for (const py::Call &c : py.calls) {
    if (!isAutocast(c.resolved))
      continue;
    if (const py::Argument *en = c.keywordArg("enabled"); en && staticTruth(py, en->value) == false)
      continue;
    std::string owner = c.function;
    for (const auto &[lines, fn] : decorated)
      if (lines.overlaps(c.lines))
        owner = fn;
    out.push_back({&c, owner, autocastDtype(py, c)});
  }
  return out;
}

} // namespace kbaudit::semantic
