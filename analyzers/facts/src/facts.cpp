#include "kbaudit/facts.h"

#include "kbaudit/python/frontend.h"

namespace kbaudit {

std::vector<Diagnostic> Facts::diagnostics() const {
  std::vector<Diagnostic> all = source.diagnostics();
  all.insert(all.end(), python.diagnostics.begin(), python.diagnostics.end());
  all.insert(all.end(), embedded.diagnostics.begin(), embedded.diagnostics.end());
  return all;
}

Facts analyzeSource(SourceFile source, const std::filesystem::path &solutionDir) {
  Facts facts{std::move(source), {}, {}, {}};
  // A file that could not be read as text has no facts; its diagnostics say why.
  if (!facts.source.analyzable())
    return facts;
  facts.python = py::analyze(facts.source.text());
  facts.embedded = embed::extract(facts.python, solutionDir);
  facts.kernels = kernels::buildInventory(facts.python, facts.embedded);
  return facts;
}

Facts analyzeSolution(const std::filesystem::path &solution) {
  return analyzeSource(SourceFile::load(solution), solution.parent_path());
}

} // namespace kbaudit
