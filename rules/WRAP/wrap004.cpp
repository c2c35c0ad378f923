// WRAP004 reference-resubmission: forward is the reference's own computation (its code, or
// its docstring carried over) and reaches no authored kernel.

#include "all_checks.h"
#include "semantic_names.h"

#include "kbaudit/semantic/function_reach.h"
#include "kbaudit/semantic/python_tokens.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string_view>

namespace kbaudit::rules {
namespace {

namespace pytokens = semantic::pytokens;
using pytokens::Tokens;

using pytokens::containment;
using semantic::functionsReachedFrom;

std::string normalizedDoc(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space)
      out += ' ';
    space = false;
    out += c;
  }
  return out;
}

// ---------------------------------------------------------------------------------------

// Below this the reference's body is too short for its 4-grams to identify anything.
constexpr std::size_t kMinReferenceTokens = 8;
// A copied body keeps nearly all of its 4-grams; a port or rewrite keeps half or less.
constexpr double kCopied = 0.8;
// A reference docstring shorter than this is a phrase anyone might write.
constexpr std::size_t kMinDocstring = 40;

const py::Function *solutionEntry(const py::PythonFacts &facts, const std::string &referenceEntry) {
  std::string name(pytext::lastSegment(referenceEntry));
  const py::Function *best = nullptr;
  int bestRank = 0;
  for (const py::Function &fn : facts.functions) {
    if (fn.name != name || fn.className.empty())
      continue;
    int rank = fn.className == "ModelNew" ? 3 : fn.className == "Model" ? 2 : 1;
    if (rank > bestRank) {
      best = &fn;
      bestRank = rank;
    }
  }
  return best;
}

class Wrap004 final : public Check {
public:
  std::string_view id() const override { return "WRAP004"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const problems::ReferenceSummary &ref = ctx.problem->reference;
    if (!ref.found || ref.entry.empty()) {
      sink.skipped("the reference has no entry point");
      return;
    }
    const Facts &f = ctx.facts;
    const py::Function *entry = solutionEntry(f.python, ref.entry);
    const py::Function *refEntry = ref.facts.findFunction(ref.entry);
    if (!entry || !refEntry)
      return;

    const std::vector<const py::Function *> solFns = functionsReachedFrom(f.python, *entry);
    if (reachesKernel(f, solFns))
      return;
    if (rewritesReferenceApi(ctx, *refEntry))
      return; // the timed work lives in harness-facing functions the solution rewrote

    const Tokens refTokens = pytokens::functionTokens(ref.source, ref.facts, functionsReachedFrom(ref.facts, *refEntry));
    const Tokens solTokens = pytokens::functionTokens(f, solFns);
    const double copied = refTokens.size() >= kMinReferenceTokens ? containment(refTokens, solTokens) : 0.0;
    // A kept docstring alone says little once the file has kernels of its own.
    const bool ownCode = f.kernels.liveKernels() > 0 || !f.kernels.unresolvedLocalImports.empty();
    const std::optional<LineRange> doc = ownCode ? std::nullopt : reusedDocstring(ctx);
    if (copied < kCopied && !doc)
      return;

    std::string how;
    if (copied >= kCopied)
      how = std::to_string(static_cast<int>(copied * 100 + 0.5)) + "% of the reference's " + ref.entry +
            " code (token 4-grams) reappears in " + entry->qualname +
            (solFns.size() > 1 ? " and the helpers it calls" : "");
    if (doc)
      how += std::string(how.empty() ? "" : ", and ") + "it keeps the reference's docstring (line " +
             std::to_string(doc->begin) + ")";

    std::string uncertainty = whyUncertain(f);
    // The reference may be only a part of the entry (a fallback branch beside a path that
    // runs compiled code kbaudit does not see).
    if (uncertainty.empty() && copied >= kCopied) {
      const double own = 1.0 - containment(solTokens, refTokens);
      if (own > 0.5)
        uncertainty = std::to_string(static_cast<int>(own * 100 + 0.5)) +
                      "% of the entry's code is not the reference's: the copy may be a fallback path";
    }
    LineRange where = entry->lines;
    if (where.end - where.begin > 20)
      where.end = where.begin;
    if (copied < kCopied && doc)
      where = *doc;
    sink.report(where, {{"entry", entry->qualname}, {"how", how}}, uncertainty,
                uncertainty.empty() ? std::nullopt : std::optional<Confidence>(Confidence::Low));
  }

private:
  static bool reachesKernel(const Facts &f, const std::vector<const py::Function *> &fns) {
    return f.kernels.anyReached() || semantic::launchesAuthoredCode(f, fns);
  }

  // Public module-level functions of the reference (other than the input factories and the
  // entry's own helpers) are part of the harness's interface, e.g. a rollout `run()` that is
  // what gets timed. A solution that rewrote one of them did not resubmit the reference,
  // even if its `Model.forward` is the reference's by contract.
  static bool rewritesReferenceApi(const CheckContext &ctx, const py::Function &refEntry) {
    const problems::ReferenceSummary &ref = ctx.problem->reference;
    std::set<std::string> helpers;
    for (const py::Function *fn : functionsReachedFrom(ref.facts, refEntry))
      helpers.insert(fn->qualname);
    for (const py::Function &api : ref.facts.functions) {
      if (!api.className.empty() || api.qualname.find('.') != std::string::npos || api.name.front() == '_' ||
          api.name.rfind("get_", 0) == 0 || helpers.count(api.qualname))
        continue;
      const py::Function *mine = ctx.facts.python.findFunction(api.qualname);
      if (!mine)
        continue;
      Tokens a = pytokens::functionTokens(ref.source, ref.facts, {&api});
      Tokens b = pytokens::functionTokens(ctx.facts, {mine});
      if (a.size() >= kMinReferenceTokens && containment(a, b) < 0.5)
        return true;
      if (semantic::launchesAuthoredCode(ctx.facts, functionsReachedFrom(ctx.facts.python, *mine)))
        return true;
    }
    return false;
  }

  static std::optional<LineRange> reusedDocstring(const CheckContext &ctx) {
    std::set<std::string> docs;
    for (const std::string &d : ctx.problem->reference.docstrings) {
      std::string n = normalizedDoc(d);
      if (n.size() >= kMinDocstring)
        docs.insert(n);
    }
    for (const py::StringConstant &s : ctx.facts.python.strings)
      if (s.docstring && docs.count(normalizedDoc(s.value.value)))
        return s.lines;
    return std::nullopt;
  }

  static std::string whyUncertain(const Facts &f) {
    // ctypes / torch.ops libraries: compiled code called through a foreign interface.
    for (const py::Call &c : f.python.calls)
      if (c.resolved.rfind("ctypes.", 0) == 0 || c.resolved == "torch.ops.load_library")
        return "calls compiled code through " + c.resolved + " (line " + std::to_string(c.lines.begin) + ")";
    if (f.kernels.liveKernels() > 0)
      return std::to_string(f.kernels.liveKernels()) + " authored kernel(s) exist but no static path from " +
             "the entry point reaches them";
    if (!f.kernels.unresolvedLocalImports.empty())
      return "imports local module '" + f.kernels.unresolvedLocalImports.front() + "' whose code kbaudit does not see";
    return {};
  }
};

} // namespace

std::unique_ptr<Check> makeWrap004() { return std::make_unique<Wrap004>(); }

} // namespace kbaudit::rules
