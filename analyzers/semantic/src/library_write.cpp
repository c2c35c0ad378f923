#include "kbaudit/semantic/library_write.h"

#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace kbaudit::semantic {

using pytext::lastSegment;
using pytext::startsWith;

namespace {

constexpr std::string_view kClassStep = ".__class__";

// torch functions whose result is a tensor: `type(torch.empty(0))` is torch.Tensor.
constexpr std::array<std::string_view, 22> kTensorFactories = {
    "empty",     "empty_like", "zeros",     "zeros_like", "ones",     "ones_like",  "full",      "full_like",
    "rand",      "rand_like",  "randn",     "randn_like", "randint",  "randperm",   "arange",    "linspace",
    "tensor",    "as_tensor",  "from_numpy", "eye",       "empty_strided", "frombuffer"};
constexpr std::array<std::string_view, 4> kStreamGetters = {"current_stream", "default_stream", "Stream",
                                                            "ExternalStream"};

bool contains(const auto &table, std::string_view s) { return std::find(table.begin(), table.end(), s) != table.end(); }

/// `callee().__class__.rest` -> `Class.rest`, repeatedly; nullopt when a call's result is
/// written to or read further as an object (an instance, not its class), or when a class's
/// own class (a metaclass) is taken.
std::optional<std::string> classesForCalls(std::string chain) {
  for (unsigned guard = 0; guard < 16; ++guard) {
    const std::size_t call = chain.find("()");
    if (call == std::string::npos)
      break;
    const std::string_view rest = std::string_view(chain).substr(call + 2);
    if (!startsWith(rest, kClassStep))
      return std::nullopt;
    chain = classOfCallResult(std::string_view(chain).substr(0, call)) + std::string(rest.substr(kClassStep.size()));
  }
  if (chain.find("()") != std::string::npos || chain.find(kClassStep) != std::string::npos ||
      chain.find(".__dict__") != std::string::npos)
    return std::nullopt;
  return chain;
}

} // namespace

std::string classOfCallResult(std::string_view callee) {
  const std::string_view last = lastSegment(callee);
  if (!last.empty() && std::isupper(static_cast<unsigned char>(last.front())) && !contains(kStreamGetters, last))
    return std::string(callee);
  if (startsWith(callee, "torch.cuda.") && contains(kStreamGetters, last))
    return "torch.cuda.Stream";
  if (startsWith(callee, "torch.") && contains(kTensorFactories, last))
    return "torch.Tensor";
  return std::string(callee);
}

std::optional<std::string> libraryAttributeWritten(const py::Assignment &a) {
  if (!a.computedTarget.empty())
    return classesForCalls(a.computedTarget);
  if (a.kind != py::Assignment::TargetKind::ModuleAttribute)
    return std::nullopt;
  // An import-rooted chain through a call or an index (`torch.nn.Linear(4, 4).w`) that the
  // front end could not spell as a library object: some object, not a library attribute.
  if (a.resolved.find('(') != std::string::npos || a.resolved.find('[') != std::string::npos)
    return std::nullopt;
  return a.resolved;
}

bool restoresOriginal(const py::PythonFacts &facts, const py::Assignment &a) {
  const std::optional<std::string> target = libraryAttributeWritten(a);
  if (!target)
    return false;
  const py::Expr &v = a.value;
  if ((v.kind == py::ExprKind::Attribute || v.kind == py::ExprKind::Name) && v.resolved == *target)
    return true;
  if (v.kind != py::ExprKind::Name)
    return false;
  return std::any_of(facts.assignments.begin(), facts.assignments.end(), [&](const py::Assignment &saved) {
    return saved.kind == py::Assignment::TargetKind::Name && saved.target == v.root &&
           saved.value.resolved == *target && saved.lines.begin < a.lines.begin;
  });
}

bool restoredLater(const py::PythonFacts &facts, const py::Assignment &a) {
  const std::optional<std::string> target = libraryAttributeWritten(a);
  if (!target || lastSegment(*target) == "<dynamic>")
    return false;
  return std::any_of(facts.assignments.begin(), facts.assignments.end(), [&](const py::Assignment &r) {
    return r.function == a.function && r.lines.begin > a.lines.end && libraryAttributeWritten(r) == target &&
           restoresOriginal(facts, r);
  });
}

} // namespace kbaudit::semantic
