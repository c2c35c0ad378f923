#pragma once

// The other renderings of an annotation: JSON for tools, text for a terminal.

#include "kbaudit/annotations/annotation.h"

#include <string>

namespace kbaudit::annotations {

std::string toJson(const Annotation &a);
/// A compact human report: verdict, findings with `solution.py:LINE`, diagnostics.
std::string toText(const Annotation &a);

} // namespace kbaudit::annotations
