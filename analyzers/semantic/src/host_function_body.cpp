#include "kbaudit/semantic/host_function_body.h"

#include "kbaudit/semantic/cxx_body_scan.h"

#include <algorithm>

namespace kbaudit::semantic::cxxbody {

std::optional<std::string> solutionText(const Facts &f, const cxx::CxxFunction &fn) {
  if (!fn.lines.valid() || fn.source < 0 || static_cast<std::size_t>(fn.source) >= f.embedded.sources.size() ||
      f.embedded.sources[fn.source].file != "solution.py" || fn.lines.end > f.source.lineCount())
    return std::nullopt;
  return f.source.lines(fn.lines.begin, fn.lines.end);
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
      out.push_back({fn.qualifiedName, alloc.name, alloc.allocator, fn.lines.begin + alloc.line});
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
      out.push_back({r.name, static_cast<unsigned>(pos - params.begin()), fn.lines.begin + def->bodyLine + r.line});
  }
  return out;
}

} // namespace kbaudit::semantic::cxxbody
