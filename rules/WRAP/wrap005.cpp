// WRAP005 forbidden-operation: the solution uses an operation or library the problem forbids,
// through whatever spelling (alias, getattr string, importlib, tensor method, tl.*, at::).

#include "all_checks.h"
#include "wrap005_prohibitions.h"
#include "semantic_names.h"

#include "kbaudit/semantic/dynamic_access.h"
#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/extension_sources.h"
#include "kbaudit/semantic/fact_quote.h"
#include "kbaudit/semantic/reference_use.h"
#include "kbaudit/semantic/tensor_values.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <string_view>

namespace kbaudit::rules {
namespace {

struct Hit {
  LineRange lines;
  std::string what; ///< the spelling found
  Confidence confidence = Confidence::High;
  std::string note; ///< why the confidence is lower, if it is
};

Hit makeHit(LineRange lines, std::string what) {
  Hit h;
  h.lines = lines;
  h.what = std::move(what);
  return h;
}

using pytext::startsWith;
using namespace wrap005;
using semantic::TensorKind;

/// Whether `test` holds for any piece of split(s, sep), the pieces visited in order without
/// being built: asked for every call and every bare entry of the forbidden list.
template <typename Test> bool anyPiece(std::string_view s, std::string_view sep, Test test) {
  for (std::size_t at = 0;;) {
    const std::size_t next = s.find(sep, at);
    if (test(s.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at)))
      return true;
    if (next == std::string_view::npos)
      return false;
    at = next + sep.size();
  }
}

/// split(s, sep)'s first and last piece and how many there are.
struct Pieces {
  std::string_view first, last;
  std::size_t count = 0;
};
Pieces piecesOf(std::string_view s, std::string_view sep) {
  Pieces p;
  anyPiece(s, sep, [&](std::string_view piece) {
    if (p.count++ == 0)
      p.first = piece;
    p.last = piece;
    return false;
  });
  return p;
}

class Matcher {
public:
  Matcher(const CheckContext &ctx) : f_(ctx.facts), tensors_(ctx.facts) {
    for (const py::Import &i : f_.python.imports) {
      boundNames_.insert(i.boundName.substr(0, i.boundName.find('.')));
      importTargets_.insert(i.target);
      if (i.boundName.find('.') != std::string::npos) // `import a.b` binds `a`
        importTargets_.insert(i.boundName.substr(0, i.boundName.find('.')));
    }
    for (const std::string &fn : f_.kernels.reachableFunctions)
      reachable_.insert(fn);
    for (const std::string &fn : f_.kernels.entryPoints)
      reachable_.insert(fn);
    // What every entry asks of each call, read once (the forbidden list has tens of entries).
    calls_.reserve(f_.python.calls.size());
    for (const py::Call &c : f_.python.calls)
      calls_.push_back({throughImport(c.callee), dynamicImport(c), getattrName(c), piecesOf(c.resolved, ".")});
    cxxCallees_.reserve(f_.cxx.calls.size());
    for (const cxx::CxxCall &c : f_.cxx.calls)
      cxxCallees_.push_back(piecesOf(c.callee, "::"));
  }

  std::vector<Hit> hits(const Prohibition &p) const {
    std::vector<Hit> out;
    switch (p.kind) {
    case Kind::Module:
      moduleHits(p.name, out);
      break;
    case Kind::Decorator:
      decoratorHits(p.name, out);
      break;
    case Kind::Dotted:
      dottedHits(p.name, out);
      decoratorHits(p.name, out);
      break;
    case Kind::Bare:
      bareHits(p.name, out);
      break;
    case Kind::Cxx:
      cxxHits({p.name}, out);
      break;
    }
    return out;
  }

private:
  // Resolution went through an import, so the name is the library's and not a local def.
  bool throughImport(std::string_view written) const {
    return boundNames_.count(written.substr(0, written.find_first_of(".[(")));
  }
  // A decorator names the library's own when its resolved name is an import's target or below.
  bool throughImport(const py::Decorator &d) const {
    return std::any_of(importTargets_.begin(), importTargets_.end(),
                       [&](const std::string &t) { return isUnder(d.resolved, t); });
  }

  bool inCode(const std::string &function) const {
    return function.empty() || reachable_.count(function) || function.ends_with("__init__");
  }

  void add(std::vector<Hit> &out, LineRange lines, std::string what, const std::string &function) const {
    Hit h = makeHit(lines, std::move(what));
    if (!inCode(function)) {
      h.confidence = Confidence::Low;
      h.note = "in " + function + ", which forward does not reach statically";
    }
    out.push_back(std::move(h));
  }

  static bool moduleMatches(std::string_view target, std::string_view module) { return isUnder(target, module); }

  std::optional<std::string> dynamicImport(const py::Call &c) const { return semantic::dynamicImportTarget(f_.python, c); }
  std::optional<std::string> getattrName(const py::Call &c) const { return semantic::getattrTarget(f_.python, c); }

  void moduleHits(const std::string &module, std::vector<Hit> &out) const {
    for (const py::Import &i : f_.python.imports)
      if (moduleMatches(i.target, module))
        add(out, i.lines, (i.fromImport ? "from-import of " : "import of ") + i.target, i.function);
    for (std::size_t k = 0; k < calls_.size(); ++k)
      if (const auto &m = calls_[k].dynamicImport; m && moduleMatches(*m, module)) {
        const py::Call &c = f_.python.calls[k];
        add(out, c.lines, c.resolved + "(\"" + *m + "\")", c.function);
      }
    includeHits(module, out);
  }

  // #include <flashinfer/decode.cuh>: the library's headers in embedded C++.
  void includeHits(const std::string &module, std::vector<Hit> &out) const {
    for (const cxx::Include &inc : f_.cxx.includes) {
      std::string_view spelled = inc.spelled;
      std::string_view head = spelled.substr(0, spelled.find('/'));
      if (head == spelled || head != module)
        continue;
      out.push_back(makeHit(cxxLines(inc.source, inc.lines), "#include <" + inc.spelled + ">"));
    }
  }

  void decoratorHits(const std::string &name, std::vector<Hit> &out) const {
    for (const py::Function &fn : f_.python.functions)
      for (const py::Decorator &d : fn.decorators)
        if (isUnder(d.resolved, name) && throughImport(d))
          out.push_back(makeHit(d.lines, "@" + semantic::quote(d)));
  }

  void dottedHits(const std::string &name, std::vector<Hit> &out) const {
    for (const py::Import &i : f_.python.imports)
      if (isUnder(i.target, name))
        add(out, i.lines, "import of " + i.target, i.function);
    for (std::size_t k = 0; k < calls_.size(); ++k) {
      const py::Call &c = f_.python.calls[k];
      const CallReading &r = calls_[k];
      if (isUnder(c.resolved, name) && r.throughImport)
        add(out, c.lines, c.callee == c.resolved ? c.callee : c.callee + " (" + c.resolved + ")", c.function);
      else if (const auto &g = r.getattrName; g && isUnder(*g, name))
        add(out, c.lines, "getattr(..., \"" + std::string(pytext::lastSegment(*g)) + "\") = " + *g, c.function);
      else if (const auto &m = r.dynamicImport; m && isUnder(*m, name))
        add(out, c.lines, c.resolved + "(\"" + *m + "\")", c.function);
    }
    // A forbidden function passed around as a value (`fn = torch.topk`, `map(torch.topk, ...)`).
    for (const py::NameRef &r : f_.python.nameRefs)
      if (isUnder(r.resolved, name))
        add(out, r.lines, semantic::quote(r), r.function);
    if (std::string method = tensorMethodOf(name); !method.empty())
      methodHits(method, out);
    cxxHits(cxxEquivalents(name), out);
  }

  void bareHits(const std::string &name, std::vector<Hit> &out) const {
    // The name is the first or the last segment of the dotted name, or any when `anySegment`.
    const auto matches = [&](const Pieces &parts, std::string_view dotted, bool anySegment) {
      if (parts.first == name || parts.last == name)
        return true;
      return anySegment && anyPiece(dotted, ".", [&](std::string_view piece) { return piece == name; });
    };
    const auto segmentMatch = [&](std::string_view dotted, bool anySegment) {
      return matches(piecesOf(dotted, "."), dotted, anySegment);
    };
    for (const py::Import &i : f_.python.imports)
      if (segmentMatch(i.target, true))
        add(out, i.lines, "import of " + i.target, i.function);
    for (std::size_t k = 0; k < calls_.size(); ++k) {
      const py::Call &c = f_.python.calls[k];
      const CallReading &r = calls_[k];
      if (r.throughImport && matches(r.resolved, c.resolved, false))
        add(out, c.lines, c.callee == c.resolved ? c.callee : c.callee + " (" + c.resolved + ")", c.function);
      else if (const auto &m = r.dynamicImport; m && segmentMatch(*m, true))
        add(out, c.lines, c.resolved + "(\"" + *m + "\")", c.function);
      else if (const auto &g = r.getattrName; g && segmentMatch(*g, false))
        add(out, c.lines, "getattr(..., \"" + std::string(pytext::lastSegment(*g)) + "\") = " + *g, c.function);
    }
    includeHits(name, out);
    // C++: an ATen op of that name, or anything in the library's namespace.
    for (std::size_t k = 0; k < cxxCallees_.size(); ++k) {
      const cxx::CxxCall &c = f_.cxx.calls[k];
      const Pieces &parts = cxxCallees_[k];
      if (parts.count < 2)
        continue;
      bool aten = parts.first == "at" || parts.first == "torch";
      if (parts.first == name || (aten && parts.last == name))
        out.push_back(makeHit(cxxLines(c.source, c.lines), c.spelled.empty() ? c.callee : c.spelled));
    }
  }

  void cxxHits(const std::vector<std::string> &names, std::vector<Hit> &out) const {
    if (names.empty())
      return;
    for (const cxx::CxxCall &c : f_.cxx.calls) {
      for (const std::string &n : names) {
        // Templated callees print their arguments ("cub::DeviceRadixSort::SortPairs<...>").
        std::string_view callee = c.callee;
        callee = callee.substr(0, callee.find('<'));
        if (callee == n || c.spelled == n) {
          out.push_back(makeHit(cxxLines(c.source, c.lines), c.spelled.empty() ? c.callee : c.spelled));
          break;
        }
      }
    }
  }

  LineRange cxxLines(int source, LineRange lines) const { return semantic::solutionSite(f_.embedded, source, lines); }

  // `x.topk(k)`: the op as a tensor method, when the receiver plausibly is a tensor.
  void methodHits(const std::string &method, std::vector<Hit> &out) const {
    for (std::size_t k = 0; k < calls_.size(); ++k) {
      const py::Call &c = f_.python.calls[k];
      // A callee the front end resolved through an import (`tl = importlib.import_module(...)`;
      // `tl.topk`) names a library function, not a method of a tensor.
      const bool resolvedThroughImport = c.resolved != c.callee && c.resolved.find('(') == std::string::npos;
      if (c.method != method || c.receiver.empty() || c.receiver == "self" || calls_[k].throughImport ||
          resolvedThroughImport ||
          !c.launchedKernel.empty() || extensionCallAt(c.lines))
        continue;
      if (c.keywordArg("key") || c.keywordArg("reverse"))
        continue; // list.sort(key=..., reverse=...): no tensor method takes these
      const TensorKind r = tensors_.ofReceiver(c.receiver, c.function);
      if (r == TensorKind::NotTensor)
        continue;
      Hit h = makeHit(c.lines, c.callee + "(...) as a tensor method");
      if (r == TensorKind::Unknown) {
        // `t.sort()` on something unknown is as likely a list in tuning code as a tensor.
        if (builtinContainerMethod(method))
          continue;
        if (!reachable_.count(c.function)) {
          h.confidence = Confidence::Low;
          h.note = "receiver '" + c.receiver + "' is not known to be a tensor";
        }
      } else if (!inCode(c.function)) {
        h.confidence = Confidence::Low;
        h.note = "in " + c.function + ", which forward does not reach statically";
      }
      out.push_back(std::move(h));
    }
  }

  // `_ext.topk(x, k)`: a function the solution's own extension exports, not a tensor method.
  bool extensionCallAt(LineRange lines) const {
    for (const embed::ExtensionCall &e : f_.embedded.calls)
      if (e.lines.overlaps(lines))
        return true;
    return false;
  }

  const Facts &f_;
  const semantic::TensorValues tensors_;
  std::set<std::string, std::less<>> boundNames_;
  std::set<std::string> importTargets_;
  std::set<std::string> reachable_;
  /// Per call of f_.python.calls (same index): its callee resolved through an import, the
  /// module a dynamic import of it names, the name a getattr of it reads.
  struct CallReading {
    bool throughImport = false;
    std::optional<std::string> dynamicImport, getattrName;
    Pieces resolved; ///< of its resolved name, split at dots
  };
  std::vector<CallReading> calls_;
  std::vector<Pieces> cxxCallees_; ///< per call of f_.cxx.calls: its callee split at `::`
};

// One finding per forbidden entry and line, at most this many lines per entry: the first
// few uses prove the point; the rest are counted in the evidence.
constexpr std::size_t kLinesPerEntry = 3;

// Script-only code (a self-test comparing against the reference): the harness imports the
// module, so it never runs when graded.
bool inMainGuard(const py::PythonFacts &facts, LineRange lines) {
  for (const py::Branch &b : facts.branches)
    if (b.kind == "if" && b.function.empty() && b.condition.find("__name__") != std::string::npos &&
        b.condition.find("__main__") != std::string::npos && b.body.contains(lines.begin) &&
        !b.lines.contains(lines.begin))
      return true;
  return false;
}

/// A prohibition of importing the reference.
bool bansReference(const Prohibition &p) { return p.kind == Kind::Module && isUnder(p.name, "reference"); }

/// The solution's uses of the reference only borrow its helpers: the harm a ban on importing it
/// guards against (returning the reference's own output) is not there.
bool referenceHelpersOnly(const CheckContext &ctx) {
  const std::string modelClass =
      ctx.problem && !ctx.problem->reference.modelClass.empty() ? ctx.problem->reference.modelClass : "Model";
  return semantic::referenceModelUse(ctx.facts, modelClass) != semantic::ModelUse::Graded;
}

class Wrap005 final : public Check {
public:
  std::string_view id() const override { return "WRAP005"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    if (!ctx.problem)
      return;
    const Matcher matcher(ctx);
    std::set<unsigned> reported; // a line is reported once, under the first entry naming it
    std::optional<bool> helpersOnly; // asked once, only when a reference ban has a hit
    for (const Prohibition &p : prohibitions(*ctx.problem)) {
      std::vector<Hit> hits = matcher.hits(p);
      std::erase_if(hits, [&](const Hit &h) { return inMainGuard(ctx.facts.python, h.lines); });
      std::erase_if(hits, [&](const Hit &h) { return !h.lines.valid() || reported.count(h.lines.begin); });
      if (hits.empty())
        continue;
      // Strongest first, then in file order; one hit per line.
      std::stable_sort(hits.begin(), hits.end(), [](const Hit &a, const Hit &b) {
        if (a.confidence != b.confidence)
          return a.confidence > b.confidence;
        return a.lines.begin < b.lines.begin;
      });
      std::set<unsigned> lines;
      std::vector<const Hit *> distinct;
      for (const Hit &h : hits)
        if (lines.insert(h.lines.begin).second)
          distinct.push_back(&h);
      for (std::size_t i = 0; i < distinct.size() && i < kLinesPerEntry; ++i) {
        const Hit &h = *distinct[i];
        reported.insert(h.lines.begin);
        std::string evidence =
            p.curated ? "curated suite overlay (" + ctx.problem->policy->file + "), not problem.yaml's list"
                      : "problem.yaml forbidden";
        if (!h.note.empty())
          evidence += "; " + h.note;
        if (i == 0 && distinct.size() > kLinesPerEntry)
          evidence += "; " + std::to_string(distinct.size()) + " lines use it";
        // Proof of harm: the problem's own list forbids it. An overlay entry is kbaudit's
        // reading of the problem's name, and human auditors disagree on it: review.
        Confidence c = p.curated ? Confidence::Low : h.confidence;
        if (!p.curated && bansReference(p) && !helpersOnly)
          helpersOnly = referenceHelpersOnly(ctx);
        if (!p.curated && bansReference(p) && *helpersOnly) {
          c = Confidence::Low;
          evidence += "; only helpers of the reference are used, not its model, so the output is not the "
                      "reference's computation";
        }
        sink.report(h.lines, {{"forbidden", p.written}, {"use", h.what}}, evidence,
                    c == Confidence::High ? std::nullopt : std::optional<Confidence>(c));
      }
    }
  }
};

} // namespace

std::unique_ptr<Check> makeWrap005() { return std::make_unique<Wrap005>(); }

} // namespace kbaudit::rules
