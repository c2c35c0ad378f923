#pragma once

// Whether a solution that imports the problem's reference module runs the reference's model
// (its output is then the reference's own computation) or only borrows helpers (config
// builders, input generators, small math). RUB002 and WRAP005 both judge reference imports
// and must agree on this.

#include "kbaudit/facts.h"
#include "kbaudit/semantic/graded_scope.h"

#include <string>
#include <vector>

namespace kbaudit::semantic {

enum class ModelUse { None, Elsewhere, Graded };

/// Where the reference's model class, under any of `names` (dotted spellings such as
/// "reference.Model" or "_ref.Model"; module-level names bound to them are followed), is
/// used: Graded when forward, the graded class's methods or what they reach use it (or the
/// graded class is the reference's, re-exported or subclassed), Elsewhere when only other
/// code does, None when nothing does.
ModelUse modelUse(const Facts &facts, const scope::GradedScope &graded, const std::string &modelClass,
                  std::vector<std::string> names);

/// The same over every way the file imports the module `reference` (import, from-import,
/// `__import__`/`importlib.import_module` bound to a name), for model class `modelClass`.
ModelUse referenceModelUse(const Facts &facts, const std::string &modelClass);

} // namespace kbaudit::semantic
