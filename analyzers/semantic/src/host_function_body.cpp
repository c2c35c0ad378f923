#include "kbaudit/semantic/host_function_body.h"

#include "kbaudit/semantic/cxx_body_scan.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>

namespace kbaudit::semantic::cxxbody {

using pytext::lineStarts;

namespace {

bool inSolution(const Facts &f, const cxx::CxxFunction &fn) {
  // A sidecar's lines number another file, and findings point into solution.py.
  return fn.sourceLines.valid() && fn.source >= 0 && static_cast<std::size_t>(fn.source) < f.embedded.sources.size() &&
         f.embedded.sources[fn.source].file == "solution.py";
}

/// solutionText for a function inSolution, given its source's lineStarts.
std::optional<std::string> linesOf(const Facts &f, const cxx::CxxFunction &fn, const std::vector<std::size_t> &starts) {
  const std::string &text = f.embedded.sources[fn.source].text;
  // Lines end at each '\n'; text after the last one is a line too.
  const std::size_t lineCount = starts.size() - 1 + (!text.empty() && text.back() != '\n');
  if (fn.sourceLines.end > lineCount)
    return std::nullopt;
  const std::size_t from = starts[fn.sourceLines.begin - 1];
  const std::size_t to = fn.sourceLines.end < starts.size() ? starts[fn.sourceLines.end] : text.size();
  return text.substr(from, to - from);
}

} // namespace

/// The function's text as the compiler saw it: its lines of the recovered embedded source (a
/// source written with escaped newlines or built from pieces is one Python line, many C++ lines).
std::optional<std::string> solutionText(const Facts &f, const cxx::CxxFunction &fn) {
  if (!inSolution(f, fn))
    return std::nullopt;
  return linesOf(f, fn, lineStarts(f.embedded.sources[fn.source].text));
}

/// The solution.py line of line `offset` (0-based) of the function's text.
unsigned solutionLine(const Facts &f, const cxx::CxxFunction &fn, unsigned offset) {
  const unsigned mapped = f.embedded.sources[fn.source].mapLine(fn.sourceLines.begin + offset);
  return mapped ? mapped : fn.lines.begin;
}

std::vector<UnwrittenEmptyReturn> unwrittenEmptyReturns(const Facts &f) {
  std::vector<UnwrittenEmptyReturn> out;
  // Each source's line starts, found once: a source holds all of a unit's host functions, and
  // finding each one's lines from the top was quadratic in the source's size.
  std::vector<std::vector<std::size_t>> starts(f.embedded.sources.size());
  for (const cxx::CxxFunction &fn : f.cxx.functions) {
    if (!fn.definition || fn.onDevice() || !inSolution(f, fn))
      continue;
    std::vector<std::size_t> &sourceStarts = starts[fn.source];
    if (sourceStarts.empty())
      sourceStarts = lineStarts(f.embedded.sources[fn.source].text);
    const std::optional<std::string> body = linesOf(f, fn, sourceStarts);
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
