#pragma once

// How forward can hand its result to a torch fallback: the heavy torch operations a stretch
// of code performs (in place or in helpers that launch no kernel themselves), and what
// selects that code: an exception handler (silent or one that reports), or a branch whose
// condition tests the caller, an availability flag a handler set, a shape or dtype, the
// device, or some other state or predicate. WRAP007 grades the fallback by its guard.

#include "kbaudit/facts.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kbaudit::semantic {

/// A heavy torch operation, possibly inside a helper the code calls.
struct HeavyUse {
  const kernels::LibraryOp *op = nullptr;
  LineRange at;    ///< the line in the code asked about (the helper call when `via` is set)
  std::string via; ///< helper name, "" when the op is written in place
};

/// Heavy torch operations (KernelInventory::libraryOps) on `lines` of `function`, and in the
/// file's helpers called from there that launch no kernel themselves (a reference
/// re-implementation is usually a helper: `return self._reference(x)`), up to 3 levels deep.
std::vector<HeavyUse> heavyOpsIn(const Facts &f, const std::string &function, LineRange lines);

/// The handler reports the failure it catches: it prints, warns or logs.
bool announcesFailure(const py::TryHandler &h);

/// What selects a fallback branch, from the most to the least likely to fire on the graded GPU.
enum class GuardKind { CallerFrame, Availability, Shape, Device, Other };

class FallbackGuards {
public:
  explicit FallbackGuards(const py::PythonFacts &py);

  /// `line` of `function` is inside an exception handler's body.
  bool inHandler(const std::string &function, unsigned line) const;

  /// The innermost selecting branch (`if`/`elif`/`else`, a conditional expression) whose
  /// guarded code holds `line` of `function`; null when none.
  const py::Branch *selectorOf(const std::string &function, unsigned line) const;

  /// How `b`'s condition chooses its code: it inspects the caller (directly or through a
  /// predicate of the file), tests a name an exception handler sets (`_EXT = None`), a shape or
  /// dtype (also through a local bound from a shape), the device or environment, an attribute,
  /// magnitude or a predicate of the file; nullopt when it looks like a step of the algorithm
  /// (a loop index, an accumulator test).
  std::optional<GuardKind> guardOf(const py::Branch &b) const;

private:
  bool readsShapeName(const py::Branch &b) const;
  const py::Function *predicateCalled(const std::string &callee, const std::string &caller) const;
  bool inspectsCaller(const std::string &function) const;

  const py::PythonFacts &py_;
  /// Names an exception handler sets (`_EXT = None`, `self._use_fallback = True`).
  std::set<std::string> fallbackFlags_;
};

} // namespace kbaudit::semantic
