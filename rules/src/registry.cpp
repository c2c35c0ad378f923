#include "kbaudit/rules/check.h"

#include "all_checks.h"

namespace kbaudit::rules {

// Explicit list rather than static self-registration: a static library drops unreferenced
// registration objects, and a list is greppable. A test asserts it matches the YAML set.
std::vector<std::unique_ptr<Check>> makeAllChecks() {
  std::vector<std::unique_ptr<Check>> checks;
  checks.push_back(makeMem001());
  checks.push_back(makeMem002());
  checks.push_back(makeMem003());
  checks.push_back(makeMem004());
  checks.push_back(makeMem005());
  checks.push_back(makePrec001());
  checks.push_back(makePrec002());
  checks.push_back(makePrec003());
  checks.push_back(makePrec004());
  checks.push_back(makePrec005());
  checks.push_back(makeRub001());
  checks.push_back(makeRub002());
  checks.push_back(makeRub003());
  checks.push_back(makeRub004());
  checks.push_back(makeRub005());
  checks.push_back(makeRub006());
  checks.push_back(makeRub007());
  checks.push_back(makeRub008());
  checks.push_back(makeRub009());
  checks.push_back(makeRub010());
  checks.push_back(makeRub011());
  checks.push_back(makeRub014());
  checks.push_back(makeRub012());
  checks.push_back(makeRub013());
  checks.push_back(makeTime001());
  checks.push_back(makeTime002());
  checks.push_back(makeTime003());
  checks.push_back(makeTime004());
  checks.push_back(makeWrap001());
  checks.push_back(makeWrap002());
  checks.push_back(makeWrap003());
  checks.push_back(makeWrap004());
  checks.push_back(makeWrap005());
  checks.push_back(makeWrap006());
  checks.push_back(makeWrap007());
  checks.push_back(makeWrap008());
  checks.push_back(makeMem006());
  checks.push_back(makeRub015());
  checks.push_back(makeRub016());
  checks.push_back(makeRub017());
  checks.push_back(makeRub018());
  checks.push_back(makeRub019());
  return checks;
}

} // namespace kbaudit::rules
