// WRAP006 vendored-library-source: the solution carries a known kernel library's own source
// (license headers, docstrings, the library's kernel and helper definitions) instead of
// importing it, which an import-based forbidden check cannot see.

#include "all_checks.h"
#include "wrap006_libraries.h"

#include "kbaudit/semantic/vendored_source.h"

#include <algorithm>
#include <string_view>

namespace kbaudit::rules {
namespace {

using semantic::Definition;
using wrap006::LibrarySignature;

bool listed(std::span<const std::string> list, std::string_view name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

// The problem names the library as off limits (overlay or problem.yaml).
bool forbiddenByProblem(const problems::ProblemContext *p, const LibrarySignature &lib) {
  if (!p)
    return false;
  for (std::string_view module : lib.modules) {
    if (p->policy && listed(std::span<const std::string>(p->policy->forbiddenLibraries), module))
      return true;
    for (const std::string &f : p->forbidden) {
      std::string_view s = f;
      for (std::string_view prefix : {"import ", "from "})
        if (s.substr(0, prefix.size()) == prefix)
          s.remove_prefix(prefix.size());
      if (s.substr(0, s.find_first_of(". ")) == module)
        return true;
    }
  }
  return false;
}

std::string joinNames(const std::vector<Definition> &defs, std::size_t limit) {
  std::string out;
  for (std::size_t i = 0; i < defs.size() && i < limit; ++i)
    out += (i ? ", " : "") + defs[i].name;
  if (defs.size() > limit)
    out += ", ... (" + std::to_string(defs.size()) + " in all)";
  return out;
}

class Wrap006 final : public Check {
public:
  std::string_view id() const override { return "WRAP006"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    const std::vector<Definition> defs = semantic::definitions(f);
    const std::vector<semantic::LicenseLine> license = semantic::licenseLines(f); // once, not per library
    for (const LibrarySignature &lib : wrap006::kLibraries) {
      report(ctx, lib,
             semantic::vendoredTraces(f, license, defs, {lib.licenseMarks, lib.phrases, lib.definitions, lib.common}),
             sink);
    }
  }

private:
  static void report(const CheckContext &ctx, const LibrarySignature &lib, const semantic::VendoredTraces &ev,
                     FindingSink &sink) {
    const bool license = !ev.licenseLines.empty();
    const unsigned signals = ev.independentSignals();
    // Names a solution might choose itself only support a characteristic one.
    const unsigned supported = signals + (ev.strong.empty() && ev.phrases.empty() ? 0 : ev.common.size());
    const bool forbidden = forbiddenByProblem(ctx.problem, lib);
    const std::size_t defCount = ev.strong.size() + ev.common.size();

    std::optional<Confidence> confidence;
    if (license && defCount >= 2)
      confidence = Confidence::High;
    else if (license || supported >= 2)
      confidence = ev.strong.size() >= 4 ? Confidence::High : Confidence::Medium;
    else if (supported == 1 && forbidden && !ev.strong.empty())
      confidence = Confidence::Low;
    if (!confidence)
      return;

    std::vector<Definition> named = ev.strong;
    named.insert(named.end(), ev.common.begin(), ev.common.end());
    std::sort(named.begin(), named.end(),
              [](const Definition &a, const Definition &b) { return a.lines.begin < b.lines.begin; });

    std::string signalText;
    if (license)
      signalText = "license header \"" + ev.licenseText + "\"" +
                   (ev.licenseLines.size() > 1 ? " (" + std::to_string(ev.licenseLines.size()) + " times)" : "");
    if (!named.empty())
      signalText += std::string(signalText.empty() ? "" : "; ") + "defines the library's " + joinNames(named, 6);
    for (const std::string &p : ev.phrases)
      signalText += std::string(signalText.empty() ? "" : "; ") + "docstring \"" + p + "\"";

    // Point at the license header when there is one, else at the first definition.
    LineRange where = license ? ev.licenseLines.front() : (!named.empty() ? named.front().lines : ev.phraseLines);
    if (!where.valid())
      return;
    if (!license && !named.empty())
      where = LineRange{named.front().lines.begin, named.front().lines.begin};
    std::string evidence = forbidden ? "the problem forbids this library" : "";
    sink.report(where,
                {{"library", std::string(lib.display)},
                 {"signals", signalText},
                 {"forbidden", forbidden ? " (a library the problem forbids)" : ""}},
                evidence, confidence == Confidence::Medium ? std::nullopt : confidence);
  }
};

} // namespace

std::unique_ptr<Check> makeWrap006() { return std::make_unique<Wrap006>(); }

} // namespace kbaudit::rules
