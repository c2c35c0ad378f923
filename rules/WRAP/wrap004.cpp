// WRAP004 reference-resubmission: forward is the reference's own computation (its code, or
// its docstring carried over) and reaches no authored kernel.

#include "all_checks.h"
#include "semantic_names.h"

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

// ---------------------------------------------------------------------------------------
// Reachability over the Python facts: `helper(...)`, `self.method(...)`, nested defs.

std::vector<const py::Function *> reachableFrom(const py::PythonFacts &facts, const py::Function &entry) {
  std::vector<const py::Function *> out{&entry};
  std::set<std::string> seen{entry.qualname};
  for (std::size_t i = 0; i < out.size(); ++i) {
    const py::Function &fn = *out[i];
    for (const py::Call &c : facts.calls) {
      if (c.function != fn.qualname)
        continue;
      if (c.callee.find('.') == std::string::npos) {
        for (const std::string &q : {fn.qualname + "." + c.callee, c.callee})
          if (const py::Function *g = facts.findFunction(q)) {
            if (seen.insert(g->qualname).second)
              out.push_back(g);
            break;
          }
        continue;
      }
      if (c.callee.rfind("self.", 0) == 0 && c.callee.find('.', 5) == std::string::npos && !fn.className.empty()) {
        if (const py::Function *g = facts.findFunction(fn.className + "." + c.method))
          if (seen.insert(g->qualname).second)
            out.push_back(g);
        continue;
      }
      // `blk.step(x)`, `self.attn.step(x)`: the object's class is unknown, so every method
      // of that name in the file may run (a class-hierarchy approximation). Names resolved
      // through an import (`torch.zeros`) are library calls.
      if (c.callee != c.resolved)
        continue;
      for (const py::Function &g : facts.functions)
        if (!g.className.empty() && g.name == c.method && seen.insert(g.qualname).second)
          out.push_back(&g);
    }
  }
  return out;
}

constexpr std::size_t kShingle = 4;

std::set<std::string> shingles(const Tokens &t) {
  std::set<std::string> out;
  if (t.size() < kShingle) {
    std::string all;
    for (const std::string &x : t)
      all += x + '\x1f';
    if (!all.empty())
      out.insert(all);
    return out;
  }
  for (std::size_t i = 0; i + kShingle <= t.size(); ++i) {
    std::string s;
    for (std::size_t k = 0; k < kShingle; ++k)
      s += t[i + k] + '\x1f';
    out.insert(std::move(s));
  }
  return out;
}

/// Share of `a`'s token 4-grams that `b` also contains.
double containment(const Tokens &a, const Tokens &b) {
  std::set<std::string> x = shingles(a), y = shingles(b);
  if (x.empty())
    return 0;
  std::size_t common = 0;
  for (const std::string &g : x)
    common += y.count(g);
  return static_cast<double>(common) / static_cast<double>(x.size());
}

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

    const std::vector<const py::Function *> solFns = reachableFrom(f.python, *entry);
    if (reachesKernel(f, solFns))
      return;
    if (rewritesReferenceApi(ctx, *refEntry))
      return; // the timed work lives in harness-facing functions the solution rewrote

    const Tokens refTokens = pytokens::functionTokens(ref.source, ref.facts, reachableFrom(ref.facts, *refEntry));
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
    return f.kernels.anyReached() || launchesFrom(f, fns);
  }

  // One of `fns` launches a Triton kernel or calls into a compiled extension.
  static bool launchesFrom(const Facts &f, const std::vector<const py::Function *> &fns) {
    std::set<std::string> names;
    for (const py::Function *fn : fns)
      names.insert(fn->qualname);
    for (const triton::Launch &l : f.triton.launches)
      if (names.count(l.function))
        return true;
    for (const embed::ExtensionCall &c : f.embedded.calls)
      if (names.count(c.function))
        return true;
    return false;
  }

  // Public module-level functions of the reference (other than the input factories and the
  // entry's own helpers) are part of the harness's interface, e.g. a rollout `run()` that is
  // what gets timed. A solution that rewrote one of them did not resubmit the reference,
  // even if its `Model.forward` is the reference's by contract.
  static bool rewritesReferenceApi(const CheckContext &ctx, const py::Function &refEntry) {
    const problems::ReferenceSummary &ref = ctx.problem->reference;
    std::set<std::string> helpers;
    for (const py::Function *fn : reachableFrom(ref.facts, refEntry))
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
      if (launchesFrom(ctx.facts, reachableFrom(ctx.facts.python, *mine)))
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
