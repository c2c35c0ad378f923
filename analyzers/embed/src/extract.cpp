#include "extraction.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <tuple>

namespace kbaudit::embed {

namespace {

/// The same call may reach the facts twice (a front end visiting a node from two
/// parents); one call must yield its sources once.
using CallKey = std::tuple<std::string, unsigned, unsigned, std::size_t>;
CallKey keyOf(const py::Call &c) {
  return {c.callee, c.lines.begin, c.lines.end, c.args.size()};
}

/// Sources in the order they appear in solution.py, whatever step recovered them.
void sortSources(detail::Extraction &x) {
  std::vector<std::size_t> order(x.out.sources.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return x.out.sources[a].origin_lines.begin < x.out.sources[b].origin_lines.begin;
  });
  std::vector<EmbeddedSource> sorted;
  sorted.reserve(order.size());
  for (std::size_t i : order)
    sorted.push_back(std::move(x.out.sources[i]));
  x.out.sources = std::move(sorted);
}

} // namespace

EmbedFacts extract(const py::PythonFacts &facts, const std::filesystem::path &solutionDir,
                   const std::vector<BundledFile> &bundled) {
  const detail::FactsIndex index(facts);
  detail::Extraction x(index, solutionDir, bundled);

  // Written files first, so that load(sources=[...]) of a file the solution writes links
  // to the recovered text instead of looking for a sidecar.
  std::set<CallKey> seen;
  for (const py::Call &c : facts.calls)
    if (seen.insert(keyOf(c)).second)
      detail::extractWrittenFile(x, c);

  seen.clear();
  for (const py::Call &c : facts.calls) {
    if (!seen.insert(keyOf(c)).second)
      continue;
    if (index.callsName(c, detail::kLoadInline))
      detail::extractLoadInline(x, c);
    else if (index.callsName(c, detail::kLoad))
      detail::extractLoad(x, c);
    else
      detail::extractRuntimeCompiled(x, c);
  }
  detail::extractReferencedSidecars(x);
  detail::extractExtensionCalls(x);
  sortSources(x);
  return std::move(x.out);
}

const char *originName(Origin o) {
  switch (o) {
  case Origin::LoadInlineCpp: return "load_inline cpp_sources";
  case Origin::LoadInlineCuda: return "load_inline cuda_sources";
  case Origin::LoadSidecar: return "load sources";
  case Origin::WrittenFile: return "written file";
  case Origin::CupyRawKernel: return "cupy RawKernel";
  case Origin::Jiterator: return "jiterator";
  }
  return "unknown";
}

} // namespace kbaudit::embed
