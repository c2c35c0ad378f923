#pragma once

// The semantic layer's answers under the names checks use. Checks live in kbaudit::rules and
// ask the layer (kbaudit::semantic) what the facts mean; these declarations keep the calls
// short without a using-directive for the whole namespace.

#include "kbaudit/semantic/branch_kind.h"
#include "kbaudit/semantic/float_cast.h"
#include "kbaudit/semantic/graded_scope.h"
#include "kbaudit/semantic/local_helper.h"
#include "kbaudit/semantic/python_text.h"
#include "kbaudit/semantic/static_value.h"

namespace kbaudit::rules {

namespace pytext = semantic::pytext;
namespace floatcast = semantic::floatcast;
namespace rubscope = semantic::scope;
using semantic::bindingOf;
using semantic::helperCalled;
using semantic::isSelection;
using semantic::staticText;
using semantic::staticTruth;

} // namespace kbaudit::rules
