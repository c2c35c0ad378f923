// RUB007 hardcoded-results: forward does not compute its answer from its arguments. It
// reseeds the global RNG (so the harness's next "random" inputs are known), regenerates the
// inputs itself (the reference's or its own `get_inputs`, GPU MODE's `generate_input`),
// replays the harness's random stream and compares its arguments with the replay
// (semantic/rng_replay.*), loads saved tensors from disk, or keeps result tensors keyed by problem
// shape in a literal table.
//
// Left alone: seeding at module level, in `__init__` (weights initialised like the
// reference) or in the file's own `get_inputs`; a private `torch.Generator` whose draws are
// never compared with the arguments; constant tables of the algorithm (twiddles, rope
// frequencies) that are not keyed by problem shape.

#include "all_checks.h"
#include "forward_entry.h"
#include "semantic_names.h"
#include "rub_branch_work.h"
#include "rub_replay.h"

#include "kbaudit/semantic/expr_reads.h"
#include "kbaudit/semantic/random_draws.h"
#include "kbaudit/semantic/rng_replay.h"

#include <algorithm>
#include <set>
#include <string>

namespace kbaudit::rules {
namespace {

using namespace pytext;
using namespace rub;

const std::set<std::string_view> &tensorLoaders() {
  static const std::set<std::string_view> s = {
      "torch.load",     "numpy.load",     "np.load",     "numpy.fromfile",        "np.fromfile", "pickle.load",
      "pickle.loads",   "joblib.load",    "safetensors.torch.load_file", "safetensors.torch.load",
      "torch.from_file"};
  return s;
}

/// The enclosing def's last segment ("forward" of "ModelNew.forward").
std::string_view leaf(std::string_view qualname) { return lastSegment(qualname); }

/// A dict literal whose keys are tuples of integers (problem shapes) and whose values are
/// tensors built from literal data.
bool shapeKeyedResultTable(const py::Expr &v) {
  return semantic::shapeKeyedTensorTable(v);
}

class Rub007 final : public Check {
public:
  std::string_view id() const override { return "RUB007"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    if (!forwardFound(f, sink))
      return;
    const std::set<std::string> reachable = reachableFromForward(f);
    for (const py::Call &c : f.python.calls) {
      const bool inForward = reachable.count(c.function) && !semantic::isInitLike(c.function);
      if (inForward && semantic::isGlobalReseed(c.resolved))
        reportSeed(f, c, sink);
      else if (inForward && semantic::isInputGeneratorCall(c, {}))
        reportRegenerate(f, c, sink);
      else if (tensorLoaders().count(c.resolved))
        reportLoad(c, inForward, sink);
    }
    for (const py::Assignment &a : f.python.assignments)
      if (shapeKeyedResultTable(a.value))
        sink.report(a.lines, {{"what", "keeps tensors built from literal data in a table keyed by problem shape (" +
                                           a.target + ")"}},
                    "a dict literal with integer-tuple keys and torch.tensor values");
    reportRngReplay(ctx, reachable, sink);
  }

private:
  /// In forward itself the regenerated inputs replace the arguments; in a helper they may
  /// only feed a warm-up, so the finding stays at the rule's default confidence.
  static void reportRegenerate(const Facts &f, const py::Call &c, FindingSink &sink) {
    const auto &entries = f.kernels.entryPoints;
    const bool direct = std::find(entries.begin(), entries.end(), c.function) != entries.end();
    sink.report(c.lines, {{"what", "regenerates the problem's inputs with " + c.callee + "()"}},
                "in " + c.function + (direct ? " itself" : ", reachable from forward"),
                direct ? std::optional<Confidence>(Confidence::High) : std::nullopt);
  }

  /// A reseed in forward itself runs on every call and moves the harness's stream; one in
  /// a helper forward reaches may be a one-time self-test on the solution's own data.
  static void reportSeed(const Facts &f, const py::Call &c, FindingSink &sink) {
    const auto &entries = f.kernels.entryPoints;
    const bool direct = std::find(entries.begin(), entries.end(), c.function) != entries.end();
    sink.report(c.lines, {{"what", "reseeds the global random number generator with " + c.callee + "()"}},
                direct ? "in " + c.function + " itself, on every call"
                       : "in " + c.function + ", reachable from forward (possibly a one-time self-test)",
                direct ? std::nullopt : std::optional<Confidence>(Confidence::Low));
  }

  /// Loading tensors is where saved outputs come from; in forward or while the module is
  /// built it decides the result, elsewhere (a tuning script) it may not.
  static void reportLoad(const py::Call &c, bool inForward, FindingSink &sink) {
    const bool building = c.function.empty() || leaf(c.function) == "__init__";
    const std::string where = inForward ? "reachable from forward" : building ? "while the module is built" : "in " + c.function;
    sink.report(c.lines, {{"what", "loads saved tensors with " + c.callee + "()"}}, where,
                inForward || building ? std::nullopt : std::optional<Confidence>(Confidence::Low));
  }
};

} // namespace

std::unique_ptr<Check> makeRub007() { return std::make_unique<Rub007>(); }

} // namespace kbaudit::rules
