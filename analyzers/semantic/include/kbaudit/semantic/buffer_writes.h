#pragma once

// Where a function may write, or surely writes, a tensor it holds by name: MEM002 asks whether
// an empty allocation is written before it is returned (any mention that could write it
// counts), MEM003 whether an input is overwritten in place (only writes that surely change it
// count). Calls are matched by their receiver and by the names their arguments read;
// assignments by their target and the names their value reads.

#include "kbaudit/facts.h"

#include <string>
#include <vector>

namespace kbaudit::semantic {

/// Every mention of `name` in `fn` (nested defs included) strictly between lines `after` and
/// `before` that could write it: a call with it as receiver or reading it in an argument (a
/// kernel launch, an extension, `out=`), an assignment to it, to an item or attribute of it,
/// or from it (an alias).
std::vector<LineRange> mentionsThatMayWrite(const py::PythonFacts &facts, const py::Function &fn, const std::string &name,
                                            unsigned after, unsigned before);

/// A write that changes a tensor's contents in place.
struct InPlaceWrite {
  LineRange lines;
  std::string how; ///< "`x.add_(...)` writes it in place", "it is handed to `_kernel`"
  bool inPlace = true; ///< a method or slice assignment; false when handed to a kernel or extension
};

/// Where `fn` writes `name`: in-place methods on it (`x.add_(...)`, not bookkeeping such as
/// `requires_grad_`), slice assignments (`x[:n] = ...`), and kernel launches or extension
/// calls handed it (positionally, or as `out=`).
std::vector<InPlaceWrite> inPlaceWrites(const Facts &facts, const py::Function &fn, const std::string &name);

} // namespace kbaudit::semantic
