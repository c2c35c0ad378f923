// ptxas -v prints, per function:
//   ptxas info    : Compiling entry function '_Z4copyPfPKfi' for 'sm_90a'
//   ptxas info    : Function properties for _Z4copyPfPKfi
//       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//   ptxas info    : Used 8 registers, used 1 barriers, 1024 bytes smem, 380 bytes cmem[0]

#include "kbaudit/compiled/ptxas_report.h"

#include <cctype>
#include <map>
#include <optional>
#include <string>

namespace kbaudit::compiled {

namespace {

/// The number right before `unit` in `line` ("26 registers" -> 26).
std::optional<unsigned> numberBefore(std::string_view line, std::string_view unit) {
  const size_t at = line.find(unit);
  if (at == std::string_view::npos || at < 2)
    return std::nullopt;
  size_t end = at;
  while (end > 0 && line[end - 1] == ' ')
    --end;
  size_t begin = end;
  while (begin > 0 && std::isdigit(static_cast<unsigned char>(line[begin - 1])))
    --begin;
  if (begin == end || end - begin > 9)
    return std::nullopt;
  return static_cast<unsigned>(std::stoul(std::string(line.substr(begin, end - begin))));
}

std::string quotedOrLast(std::string_view line, std::string_view after) {
  const size_t at = line.find(after);
  if (at == std::string_view::npos)
    return {};
  std::string_view rest = line.substr(at + after.size());
  while (!rest.empty() && rest.front() == ' ')
    rest.remove_prefix(1);
  if (!rest.empty() && rest.front() == '\'') {
    const size_t close = rest.find('\'', 1);
    return close == std::string_view::npos ? std::string() : std::string(rest.substr(1, close - 1));
  }
  size_t end = 0;
  while (end < rest.size() && rest[end] != ' ' && rest[end] != '\r')
    ++end;
  return std::string(rest.substr(0, end));
}

} // namespace

void applyResources(std::string_view log, std::vector<CompiledKernel> &kernels) {
  std::map<std::string, Resources> byName;
  std::string current;
  size_t pos = 0;
  while (pos < log.size()) {
    size_t eol = log.find('\n', pos);
    if (eol == std::string_view::npos)
      eol = log.size();
    const std::string_view line = log.substr(pos, eol - pos);
    pos = eol + 1;
    if (line.find("Compiling entry function") != std::string_view::npos) {
      current = quotedOrLast(line, "Compiling entry function");
    } else if (line.find("Function properties for") != std::string_view::npos) {
      current = quotedOrLast(line, "Function properties for");
    } else if (!current.empty() && line.find("stack frame") != std::string_view::npos) {
      Resources &r = byName[current];
      r.stackFrame = numberBefore(line, "bytes stack frame").value_or(0);
      r.spillStores = numberBefore(line, "bytes spill stores").value_or(0);
      r.spillLoads = numberBefore(line, "bytes spill loads").value_or(0);
    } else if (!current.empty() && line.find(" registers") != std::string_view::npos) {
      Resources &r = byName[current];
      r.known = true;
      r.registers = numberBefore(line, "registers").value_or(0);
      r.sharedBytes = numberBefore(line, "bytes smem").value_or(0);
    }
  }
  for (CompiledKernel &k : kernels)
    if (const auto it = byName.find(k.mangled); it != byName.end() && it->second.known)
      k.resources = it->second;
}

} // namespace kbaudit::compiled
