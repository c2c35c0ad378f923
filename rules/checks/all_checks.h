#pragma once

#include "kbaudit/rules/check.h"

#include <memory>

namespace kbaudit::rules {

std::unique_ptr<Check> makePrec002();
std::unique_ptr<Check> makeWrap001();

} // namespace kbaudit::rules
