#include "kbaudit/compiled/facts.h"

#include <array>
#include <utility>

namespace kbaudit::compiled {

namespace {

constexpr std::array<std::pair<UnitStatus, const char *>, 8> kNames = {{
    {UnitStatus::Compiled, "compiled"},
    {UnitStatus::CompileError, "compile-error"},
    {UnitStatus::MissingHeader, "missing-header"},
    {UnitStatus::TimedOut, "timed-out"},
    {UnitStatus::Failed, "failed"},
    {UnitStatus::NoCompiler, "no-compiler"},
    {UnitStatus::TooLarge, "too-large"},
    {UnitStatus::NotDevice, "not-device-code"},
}};

} // namespace

const char *unitStatusName(UnitStatus s) {
  for (const auto &[status, name] : kNames)
    if (status == s)
      return name;
  return "?";
}

std::optional<UnitStatus> unitStatusFromName(std::string_view name) {
  for (const auto &[status, n] : kNames)
    if (name == n)
      return status;
  return std::nullopt;
}

} // namespace kbaudit::compiled
