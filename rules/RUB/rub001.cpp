// RUB001 caller-sniffing: a branch decides what to compute from who is calling (stack
// frames, the command line, the __main__ module, harness environment variables).

#include "all_checks.h"
#include "semantic_names.h"
#include "kbaudit/semantic/graded_scope.h"
#include "kbaudit/semantic/caller_knowledge.h"
#include "kbaudit/semantic/guarded_code.h"

#include <algorithm>
#include <set>

namespace kbaudit::rules {
namespace {

using namespace pytext;
using namespace rubscope;

using semantic::CallerSniff;

class Analysis {
public:
  Analysis(const Facts &facts) : py_(facts.python), scope_(facts), caller_(facts) {}

  void report(FindingSink &sink) const {
    std::vector<Hit> hits;
    for (const py::Branch &b : py_.branches)
      if (scope_.inMainGuard(b.lines))
        continue;
      else if (std::optional<Hit> h = classify(b))
        hits.push_back(*h);
    // A helper's own tests are reported through the branch that consumes the helper.
    std::set<std::string> consumed;
    for (const Hit &h : hits)
      consumed.insert(h.sniff.helpers.begin(), h.sniff.helpers.end());
    for (const Hit &h : hits) {
      if (std::any_of(consumed.begin(), consumed.end(), [&](const std::string &c) { return inFunction(h.branch->function, c); }))
        continue;
      emit(h, sink);
    }
  }

private:
  struct Hit {
    const py::Branch *branch = nullptr;
    CallerSniff sniff;
  };

  const py::PythonFacts &py_;
  GradedScope scope_;
  semantic::CallerKnowledge caller_;

  std::optional<Hit> classify(const py::Branch &b) const {
    Hit h{&b, {}};
    h.sniff = caller_.sniffIn(b.function, b.lines, false);
    if (!h.sniff) {
      for (const std::string &call : b.calls) {
        const std::string callee = scope_.calleeFunction(b.function, call);
        if (const CallerSniff *helper = caller_.helper(callee); helper && !inFunction(b.function, callee)) {
          h.sniff = *helper;
          h.sniff.how = callee + "() (" + helper->how + ")";
          h.sniff.helpers.push_back(callee);
          break;
        }
      }
    }
    if (!h.sniff)
      h.sniff = caller_.nameAmong(b.function, b.names);
    if (!h.sniff)
      h.sniff = frameLoop(b);
    if (!h.sniff || semantic::onlyReports(py_, b))
      return std::nullopt;
    if (!h.sniff.env && semantic::stringNamesGrader(py_, b.function, b.lines, false))
      h.sniff.graderString = true;
    return h;
  }

  /// `for f in inspect.stack(): if "benchmark" in f.filename:`: the test names the grader and
  /// the same function walks the frames before it.
  CallerSniff frameLoop(const py::Branch &b) const {
    if (b.function.empty() || !semantic::stringNamesGrader(py_, b.function, b.lines, true))
      return {};
    const py::Function *fn = py_.findFunction(b.function);
    if (!fn)
      return {};
    CallerSniff s = caller_.sniffIn(b.function, LineRange{fn->lines.begin, b.lines.begin}, false);
    if (s && !s.env) {
      s.graderString = true;
      return s;
    }
    return {};
  }

  void emit(const Hit &h, FindingSink &sink) const {
    const py::Branch &b = *h.branch;
    const bool graded = scope_.graded(b.function, b.lines);
    std::optional<Confidence> confidence;
    std::string note;
    if (!graded) {
      confidence = Confidence::Low;
      note = "the branch is not on a path the grader runs (forward, the model's methods or import time)";
    } else if (h.sniff.graderString && !h.sniff.env) {
      confidence = Confidence::High;
    } else if (b.function.empty()) {
      // An import-time switch on the command line that names no grader is usually a CLI flag.
      confidence = Confidence::Low;
      note = "import-time switch that names no grader file or phase";
    }
    const std::string where = b.function.empty() ? "at import time" : "in " + b.function;
    sink.report(b.lines, {{"source", h.sniff.how}, {"where", where}}, note, confidence);
  }
};

class Rub001 final : public Check {
public:
  std::string_view id() const override { return "RUB001"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override { Analysis(ctx.facts).report(sink); }
};

} // namespace

std::unique_ptr<Check> makeRub001() { return std::make_unique<Rub001>(); }

} // namespace kbaudit::rules
