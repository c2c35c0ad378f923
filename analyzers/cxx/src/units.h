#pragma once

// The Clang front end's units are the embedded sources' translation units (kbaudit/embed/units.h),
// shared with the compiled front end so both read the same joined text.

#include "kbaudit/embed/units.h"

namespace kbaudit::cxx {

using embed::LineOrigin;
using embed::planUnits;
using embed::Unit;
using embed::unitOf;

} // namespace kbaudit::cxx
