#include "kbaudit/semantic/host_function_body.h"

#include "kbaudit/semantic/cxx_body_scan.h"

#include <algorithm>

namespace kbaudit::semantic::cxxbody {

/// The function's text as the compiler saw it: its lines of the recovered embedded source (a
/// source written with escaped newlines or built from pieces is one Python line, many C++ lines).
std::optional<std::string> solutionText(const Facts &f, const cxx::CxxFunction &fn) {
  // A sidecar's lines number another file, and findings point into solution.py.
  if (!fn.sourceLines.valid() || fn.source < 0 || static_cast<std::size_t>(fn.source) >= f.embedded.sources.size() ||
      f.embedded.sources[fn.source].file != "solution.py")
    return std::nullopt;
  const std::string &text = f.embedded.sources[fn.source].text;
  const auto lineCount = static_cast<unsigned>(std::count(text.begin(), text.end(), '\n') +
                                               (!text.empty() && text.back() != '\n'));
  if (fn.sourceLines.end > lineCount)
    return std::nullopt;
  std::string out;
  unsigned line = 1;
  for (std::size_t at = 0; at <= text.size() && line <= fn.sourceLines.end; ++line) {
    const std::size_t nl = text.find('\n', at);
    const std::size_t end = nl == std::string::npos ? text.size() : nl + 1;
    if (line >= fn.sourceLines.begin)
      out.append(text, at, end - at);
    if (nl == std::string::npos)
      break;
    at = end;
  }
  return out;
}

/// The solution.py line of line `offset` (0-based) of the function's text.
unsigned solutionLine(const Facts &f, const cxx::CxxFunction &fn, unsigned offset) {
  const unsigned mapped = f.embedded.sources[fn.source].mapLine(fn.sourceLines.begin + offset);
  return mapped ? mapped : fn.lines.begin;
}

std::vector<UnwrittenEmptyReturn> unwrittenEmptyReturns(const Facts &f) {
  std::vector<UnwrittenEmptyReturn> out;
  for (const cxx::CxxFunction &fn : f.cxx.functions) {
    if (!fn.definition || fn.onDevice())
      continue;
    const std::optional<std::string> body = solutionText(f, fn);
    if (!body)
      continue;
    for (const TensorAllocation &alloc : emptyAllocations(*body)) {
      // Not a simple local (no `;`, or the name was in use before), or written after all.
      const std::optional<LocalUses> uses = usesAfterDeclaration(*body, alloc);
      if (!uses || uses->returnLines == 0 || uses->otherMentions > 0 ||
          macroMentions(f.embedded.sources[fn.source].text, alloc.name))
        continue;
      out.push_back({fn.qualifiedName, alloc.name, alloc.allocator, solutionLine(f, fn, alloc.line)});
    }
  }
  return out;
}

std::vector<ReturnedParameter> returnedParameters(const Facts &f, const cxx::CxxFunction &fn) {
  std::vector<ReturnedParameter> out;
  const std::optional<std::string> text = solutionText(f, fn);
  if (!text)
    return out;
  const std::optional<Definition> def = splitDefinition(*text);
  if (!def)
    return out;
  const std::vector<std::string> params = parameterNames(def->signature);
  for (const ReturnedIdentifier &r : returnedIdentifiers(def->body)) {
    const auto pos = std::find(params.begin(), params.end(), r.name);
    if (pos != params.end())
      out.push_back({r.name, static_cast<unsigned>(pos - params.begin()), solutionLine(f, fn, def->bodyLine + r.line)});
  }
  return out;
}

} // namespace kbaudit::semantic::cxxbody
