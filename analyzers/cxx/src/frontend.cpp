#include "kbaudit/cxx/frontend.h"

#include "parse_unit.h"
#include "skipped_branches.h"
#include "summary.h"
#include "units.h"

#include <algorithm>
#include <utility>

namespace kbaudit::cxx {

namespace {

/// Maps unit lines to a source and solution.py lines.
class LineMapper {
public:
  LineMapper(const Unit &unit, const std::vector<embed::EmbeddedSource> &sources)
      : unit_(unit), sources_(sources) {}

  /// The source a unit range belongs to (that of its first line).
  int sourceOf(const LineRange &r) const {
    const LineOrigin o = unit_.origin(r.begin);
    return o.source >= 0 ? o.source : (unit_.sources.empty() ? -1 : unit_.sources.front());
  }
  LineRange map(const LineRange &r) const {
    const LineOrigin b = unit_.origin(r.begin);
    LineOrigin e = unit_.origin(r.end);
    if (b.source < 0)
      return {};
    if (e.source != b.source)
      e = b; // a fact spanning two joined strings keeps to the first
    return sources_[b.source].mapRange(b.line, e.line);
  }
  /// Lines of the embedded source's own text (not solution.py) a unit range covers.
  LineRange sourceRange(const LineRange &r) const {
    const LineOrigin b = unit_.origin(r.begin);
    const LineOrigin e = unit_.origin(r.end);
    if (b.source < 0)
      return {};
    return LineRange{b.line, e.source == b.source ? e.line : b.line};
  }
  template <class Fact> void place(Fact &f) const {
    f.source = sourceOf(f.lines);
    if constexpr (requires { f.sourceLines; })
      f.sourceLines = sourceRange(f.lines);
    f.lines = map(f.lines);
  }

private:
  const Unit &unit_;
  const std::vector<embed::EmbeddedSource> &sources_;
};

template <class T> void appendPlaced(std::vector<T> &to, std::vector<T> &from, const LineMapper &m) {
  for (T &f : from) {
    m.place(f);
    to.push_back(std::move(f));
  }
}

void merge(CxxFacts &out, UnitResult &r, const Unit &unit, const std::vector<embed::EmbeddedSource> &sources) {
  const LineMapper m(unit, sources);
  CxxFacts &f = r.facts;
  ParseReport report = std::move(f.parses.front());
  for (CxxFunction &fn : f.functions)
    if (fn.definition && !fn.lambda &&
        std::any_of(r.errorLines.begin(), r.errorLines.end(), [&](unsigned l) { return fn.lines.contains(l); })) {
      ++report.functionsWithErrors;
      fn.work.bodyErrors = fn.work.bodyErrors || fn.work.analyzed;
    }
  report.sources = unit.sources;
  for (ParseDiagnostic &d : report.firstErrors) {
    const LineOrigin o = unit.origin(d.embeddedLine);
    d.source = o.source;
    d.embeddedLine = o.line;
    d.lines = o.source >= 0 ? sources[o.source].mapRange(o.line, o.line) : LineRange{};
  }
  out.parses.push_back(std::move(report));

  // PTX statements are numbered per unit; renumber them across all units.
  int statements = 0;
  for (const PtxInstruction &p : out.ptx)
    statements = std::max(statements, p.statement + 1);
  for (PtxInstruction &p : f.ptx)
    p.statement += statements;

  appendPlaced(out.functions, f.functions, m);
  appendPlaced(out.launches, f.launches, m);
  appendPlaced(out.exports, f.exports, m);
  appendPlaced(out.calls, f.calls, m);
  appendPlaced(out.callGraph, f.callGraph, m);
  appendPlaced(out.references, f.references, m);
  appendPlaced(out.numericTypes, f.numericTypes, m);
  appendPlaced(out.ptx, f.ptx, m);
  appendPlaced(out.statics, f.statics, m);
  appendPlaced(out.includes, f.includes, m);
}

/// Source order: the AST visits a declaration's initialiser after later statements of
/// the same scope sometimes; readers expect facts by position.
template <class T> void sortByPosition(std::vector<T> &facts) {
  std::stable_sort(facts.begin(), facts.end(), [](const T &a, const T &b) {
    return std::make_pair(a.source, a.lines.begin) < std::make_pair(b.source, b.lines.begin);
  });
}

CxxFacts analyzeUnits(const std::vector<Unit> &units, const std::vector<embed::EmbeddedSource> &sources,
                      const FrontendOptions &options) {
  CxxFacts out;
  for (const Unit &unit : units) {
    UnitResult r;
    if (unit.text.size() > options.maxUnitBytes) {
      ParseReport skipped;
      skipped.cuda = unit.cuda;
      skipped.tooLarge = true;
      skipped.bytes = unit.text.size();
      skipped.limitBytes = options.maxUnitBytes;
      r.facts.parses.push_back(skipped);
    } else {
      r = parseUnit(unit, options);
      addSkippedBranchFacts(r, unit, options);
    }
    r.facts.parses.front().bytes = unit.text.size();
    merge(out, r, unit, sources);
  }
  sortByPosition(out.functions);
  sortByPosition(out.launches);
  sortByPosition(out.calls);
  sortByPosition(out.callGraph);
  sortByPosition(out.references);
  sortByPosition(out.numericTypes);
  sortByPosition(out.ptx);
  sortByPosition(out.statics);
  summarizeExports(out, sources, options); // indexes launches and calls: after sorting
  return out;
}

} // namespace

CxxFacts analyzeSources(const std::vector<embed::EmbeddedSource> &sources, const FrontendOptions &options) {
  return analyzeUnits(planUnits(sources), sources, options);
}

CxxFacts analyzeEmbedded(const embed::EmbedFacts &embedded, FrontendOptions options) {
  for (size_t i = 0; i < embedded.modules.size(); ++i)
    if (!embedded.modules[i].functions.empty())
      options.functionsByModule.emplace(static_cast<int>(i), embedded.modules[i].functions);
  return analyzeSources(embedded.sources, options);
}

CxxFacts analyzeSource(const embed::EmbeddedSource &source, int index, const FrontendOptions &options) {
  // The unit refers to the source by `index`; give the mapper a vector where it sits there.
  std::vector<embed::EmbeddedSource> sources(static_cast<size_t>(std::max(index, 0)) + 1);
  sources[std::max(index, 0)] = source;
  return analyzeUnits({unitOf(source, std::max(index, 0))}, sources, options);
}

} // namespace kbaudit::cxx
