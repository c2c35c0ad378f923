#include "kbaudit/facts.h"

#include "kbaudit/cxx/frontend.h"
#include "kbaudit/embed/bundle.h"
#include "kbaudit/python/executed_code.h"
#include "kbaudit/python/frontend.h"
#include "kbaudit/triton/analyze.h"

namespace kbaudit {

std::vector<Diagnostic> Facts::diagnostics() const {
  std::vector<Diagnostic> all = source.diagnostics();
  all.insert(all.end(), python.diagnostics.begin(), python.diagnostics.end());
  all.insert(all.end(), embedded.diagnostics.begin(), embedded.diagnostics.end());
  for (const cxx::ParseReport &p : cxx.parses) {
    if (p.clean())
      continue;
    if (p.tooLarge) {
      all.push_back(Diagnostic{Diagnostic::Severity::Warning, "cxx-unit-too-large",
                               std::string(p.cuda ? "CUDA" : "C++") + " source of " + std::to_string(p.bytes) +
                                   " bytes not parsed (the limit is " +
                                   std::to_string(cxx::FrontendOptions{}.maxUnitBytes >> 20) +
                                   " MiB a unit): its facts are missing",
                               {}, {}});
      continue;
    }
    // The stubs are permissive, so errors mean code kbaudit could not fully read; the
    // facts from what did parse are kept, and the annotation says how much that was.
    Diagnostic d;
    d.severity = p.crashed ? Diagnostic::Severity::Warning : Diagnostic::Severity::Note;
    d.code = p.crashed ? "cxx-parse-crashed" : "cxx-parse-errors";
    d.message = std::string(p.cuda ? "CUDA" : "C++") + " source: " + std::to_string(p.errors) + " error(s); " +
                std::to_string(p.declarations - p.invalidDeclarations) + " of " + std::to_string(p.declarations) +
                " declarations valid, " + std::to_string(p.functionDefinitions - p.functionsWithErrors) + " of " +
                std::to_string(p.functionDefinitions) + " function bodies free of errors (facts kept from the rest)";
    if (!p.firstErrors.empty()) {
      d.message += "; first: " + p.firstErrors.front().message;
      d.lines = p.firstErrors.front().lines;
    }
    all.push_back(std::move(d));
  }
  // Which evidence the findings rest on: the architecture (and why) and the toolkit compiled for.
  unsigned compiledUnits = 0, cachedUnits = 0;
  for (const compiled::CompiledUnit &u : compiled.units)
    if (u.status == compiled::UnitStatus::Compiled) {
      ++compiledUnits;
      cachedUnits += u.cached;
    }
  if (compiledUnits > 0) {
    Diagnostic d;
    d.severity = Diagnostic::Severity::Note;
    d.code = "compiled";
    d.message = std::to_string(compiledUnits) + " CUDA unit(s) compiled for " + compiled.arch + " (" +
                compiled.archReason + ") with " + compiled.toolkit + " (" + std::to_string(cachedUnits) +
                " from the compile cache); findings on them rest on the PTX";
    all.push_back(std::move(d));
  }
  // What the compiled front end could not see is said, never read as a clearance.
  for (const compiled::CompiledUnit &u : compiled.units) {
    if (u.status == compiled::UnitStatus::Compiled || u.status == compiled::UnitStatus::NotDevice)
      continue;
    Diagnostic d;
    d.severity = Diagnostic::Severity::Note;
    d.code = "not-compiled";
    d.message = "CUDA source not compiled for " + u.arch + " (" + compiled::unitStatusName(u.status) + ": " + u.why +
                "); its findings rest on source facts";
    if (!u.errors.empty() && u.errors.front().line && u.errors.front().source >= 0 &&
        static_cast<size_t>(u.errors.front().source) < embedded.sources.size()) {
      d.lines = LineRange{u.errors.front().line, u.errors.front().line};
      d.file = embedded.sources[static_cast<size_t>(u.errors.front().source)].file;
    }
    else if (!u.sources.empty() && static_cast<size_t>(u.sources.front()) < embedded.sources.size())
      d.lines = embedded.sources[static_cast<size_t>(u.sources.front())].origin_lines;
    all.push_back(std::move(d));
  }
  return all;
}

Facts analyzeSource(SourceFile source, const std::filesystem::path &solutionDir, const AnalysisOptions &options) {
  Facts facts{std::move(source), {}, {}, {}, {}, {}, {}};
  // A file that could not be read as text has no facts; its diagnostics say why.
  if (!facts.source.analyzable())
    return facts;
  // Archived runs append their sidecar files to solution.py; only the part before the
  // first banner is Python, and the appended files are sources on known lines.
  const std::string_view text = facts.source.text();
  const embed::Bundle bundle = embed::splitBundle(text);
  // Code run from constant strings (exec/compile) is read as code, on the lines it is written on.
  facts.python = py::analyzeWithExecutedCode(text.substr(0, bundle.pythonBytes));
  facts.embedded = embed::extract(facts.python, solutionDir, bundle.files);
  if (options.cxx)
    facts.cxx = cxx::analyzeEmbedded(facts.embedded);
  if (options.compile)
    facts.compiled = compiled::compileEmbedded(facts.embedded, *options.compile);
  facts.triton = triton::analyze(facts.python);
  facts.kernels = kernels::buildInventory(facts.python, facts.embedded, facts.cxx, facts.triton);
  return facts;
}

Facts analyzeSolution(const std::filesystem::path &solution, const AnalysisOptions &options) {
  return analyzeSource(SourceFile::load(solution), solution.parent_path(), options);
}

} // namespace kbaudit
