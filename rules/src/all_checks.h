#pragma once

#include "kbaudit/rules/check.h"

#include <memory>

namespace kbaudit::rules {

std::unique_ptr<Check> makeMem001();
std::unique_ptr<Check> makeMem002();
std::unique_ptr<Check> makeMem003();
std::unique_ptr<Check> makeMem004();
std::unique_ptr<Check> makeMem005();
std::unique_ptr<Check> makePrec001();
std::unique_ptr<Check> makePrec002();
std::unique_ptr<Check> makePrec003();
std::unique_ptr<Check> makePrec004();
std::unique_ptr<Check> makePrec005();
std::unique_ptr<Check> makeRub001();
std::unique_ptr<Check> makeRub002();
std::unique_ptr<Check> makeRub003();
std::unique_ptr<Check> makeRub004();
std::unique_ptr<Check> makeRub005();
std::unique_ptr<Check> makeRub006();
std::unique_ptr<Check> makeRub007();
std::unique_ptr<Check> makeRub008();
std::unique_ptr<Check> makeRub009();
std::unique_ptr<Check> makeRub010();
std::unique_ptr<Check> makeRub011();
std::unique_ptr<Check> makeRub014();
std::unique_ptr<Check> makeRub012();
std::unique_ptr<Check> makeRub013();
std::unique_ptr<Check> makeTime001();
std::unique_ptr<Check> makeTime002();
std::unique_ptr<Check> makeTime003();
std::unique_ptr<Check> makeTime004();
std::unique_ptr<Check> makeWrap001();
std::unique_ptr<Check> makeWrap002();
std::unique_ptr<Check> makeWrap003();
std::unique_ptr<Check> makeWrap004();
std::unique_ptr<Check> makeWrap005();
std::unique_ptr<Check> makeWrap006();
std::unique_ptr<Check> makeWrap007();
std::unique_ptr<Check> makeWrap008();
std::unique_ptr<Check> makeMem006();
std::unique_ptr<Check> makeRub015();
std::unique_ptr<Check> makeRub016();
std::unique_ptr<Check> makeRub017();
std::unique_ptr<Check> makeRub018();
std::unique_ptr<Check> makeRub019();

} // namespace kbaudit::rules
