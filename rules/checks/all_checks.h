#pragma once

#include "kbaudit/rules/check.h"

#include <memory>

namespace kbaudit::rules {

std::unique_ptr<Check> makePrec001();
std::unique_ptr<Check> makePrec002();
std::unique_ptr<Check> makePrec003();
std::unique_ptr<Check> makePrec004();
std::unique_ptr<Check> makePrec005();
std::unique_ptr<Check> makeWrap001();
std::unique_ptr<Check> makeWrap002();
std::unique_ptr<Check> makeWrap003();
std::unique_ptr<Check> makeWrap004();
std::unique_ptr<Check> makeWrap005();
std::unique_ptr<Check> makeWrap006();
std::unique_ptr<Check> makeWrap007();

} // namespace kbaudit::rules
