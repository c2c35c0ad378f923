#include "kbaudit/facts.h"

#include "kbaudit/embed/bundle.h"
#include "kbaudit/python/frontend.h"
#include "kbaudit/triton/analyze.h"

namespace kbaudit {

std::vector<Diagnostic> Facts::diagnostics() const {
  std::vector<Diagnostic> all = source.diagnostics();
  all.insert(all.end(), python.diagnostics.begin(), python.diagnostics.end());
  all.insert(all.end(), embedded.diagnostics.begin(), embedded.diagnostics.end());
  return all;
}

Facts analyzeSource(SourceFile source, const std::filesystem::path &solutionDir) {
  Facts facts{std::move(source), {}, {}, {}, {}};
  // A file that could not be read as text has no facts; its diagnostics say why.
  if (!facts.source.analyzable())
    return facts;
  // Archived runs append their sidecar files to solution.py; only the part before the
  // first banner is Python, and the appended files are sources on known lines.
  const std::string_view text = facts.source.text();
  const embed::Bundle bundle = embed::splitBundle(text);
  facts.python = py::analyze(text.substr(0, bundle.pythonBytes));
  facts.embedded = embed::extract(facts.python, solutionDir, bundle.files);
  facts.triton = triton::analyze(facts.python);
  facts.kernels = kernels::buildInventory(facts.python, facts.embedded, facts.triton);
  return facts;
}

Facts analyzeSolution(const std::filesystem::path &solution) {
  return analyzeSource(SourceFile::load(solution), solution.parent_path());
}

} // namespace kbaudit
