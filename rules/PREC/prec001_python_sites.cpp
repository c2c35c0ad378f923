// PREC001's narrowed activations and narrow-dtype modules (prec001_python_sites.h).

#include "prec001_python_sites.h"

#include "semantic_names.h"

#include "kbaudit/semantic/cast_use.h"
#include "kbaudit/semantic/expr_query.h"

namespace kbaudit::rules::prec001 {
namespace {

/// The call as a finding quotes it, with its arguments (`q.to(torch.float16)`).
std::string written(const py::Call &c) {
  std::string args;
  for (const py::Argument &a : c.args)
    args += (args.empty() ? "" : ", ") + (a.keyword.empty() ? "" : a.keyword + "=") + semantic::quote(a.value);
  return c.callee + "(" + args + ")";
}

} // namespace

std::vector<NarrowingSite> activationCasts(const Facts &f) {
  std::vector<NarrowingSite> out;
  for (const py::Call &cast : f.python.calls) {
    if (f.triton.findKernel(cast.function) || cast.receiver.empty())
      continue;
    const std::optional<floatcast::HostCast> hc = floatcast::hostCast(cast);
    if (!hc || !hc->conversion || semantic::castsExactValues(f.python, cast) || !semantic::castFeedsMath(f, cast))
      continue;
    out.push_back({cast.lines, "`" + written(cast) + "` on an activation computed in " + cast.function, hc->dtype,
                   cast.function});
  }
  return out;
}

std::vector<NarrowingSite> narrowModules(const Facts &f) {
  std::vector<NarrowingSite> out;
  for (const py::Call &c : f.python.calls) {
    const std::optional<floatcast::HostCast> hc = floatcast::hostCast(c);
    if (!hc)
      continue;
    // `nn.Linear(..., dtype=torch.float16)`: the module's weights are created narrow.
    if (!hc->conversion && semantic::isNnModuleClass(c.resolved)) {
      out.push_back({c.lines, "`" + c.callee + "(..., dtype=...)` module built in " + c.function, hc->dtype, c.function});
      continue;
    }
    // `nn.Linear(...).half()`: converted as it is built.
    const std::string_view head = semantic::callHead(c.receiver);
    if (hc->conversion && !c.receiver.empty() && semantic::isNnModuleClass(f.python.resolve(head)))
      out.push_back({c.lines, "`" + std::string(head) + "(...)." + c.method + "()` module built in " + c.function,
                     hc->dtype, c.function});
  }
  return out;
}

} // namespace kbaudit::rules::prec001
