// MEM003 output-aliases-input: the entry point returns one of its inputs (or a view of one),
// or writes its result into an input in place, where the reference returns fresh memory.

#include "all_checks.h"
#include "mem_python.h"
#include "semantic_names.h"

#include "kbaudit/semantic/host_function_body.h"
#include "kbaudit/semantic/buffer_writes.h"
#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/returned_inputs.h"

#include <optional>

namespace kbaudit::rules {
namespace {

namespace cxxbody = semantic::cxxbody;

/// Parameter positions the reference's entry point itself returns or updates in place
/// (decode steps hand their state back): the contract, not a hack.
std::set<std::size_t> referenceOwnedInputs(const problems::ProblemContext *problem) {
  std::set<std::size_t> out;
  if (!problem || !problem->reference.found)
    return out;
  const problems::ReferenceSummary &ref = problem->reference;
  if (const py::Function *entry = ref.facts.findFunction(ref.entry))
    for (const semantic::ReturnedInput &r : semantic::returnedInputs(ref.facts, *entry))
      out.insert(r.position);
  return out;
}

/// Without the problem, whether the reference hands back or updates its inputs is unknown, so
/// a finding is for review only.
std::optional<Confidence> reviewWithoutProblem(const CheckContext &ctx) {
  return ctx.problem ? std::nullopt : std::optional<Confidence>(Confidence::Low);
}

class Mem003 final : public Check {
public:
  std::string_view id() const override { return "MEM003"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    if (ctx.problem && ctx.problem->reference.inPlace)
      return;
    const std::set<std::size_t> owned = referenceOwnedInputs(ctx.problem);
    for (const std::string &entry : f.kernels.entryPoints)
      if (const py::Function *fn = f.python.findFunction(entry))
        checkEntry(ctx, *fn, owned, sink);
    checkExtensions(ctx, owned, sink);
  }

private:
  static void checkEntry(const CheckContext &ctx, const py::Function &fn, const std::set<std::size_t> &owned,
                         FindingSink &sink) {
    const Facts &f = ctx.facts;
    const std::vector<std::string> params = semantic::inputParams(fn);
    std::set<std::size_t> reported;
    for (const semantic::ReturnedInput &r : semantic::returnedInputs(f.python, fn)) {
      if (owned.count(r.position))
        continue;
      reported.insert(r.position);
      const std::string &p = r.param;
      const std::vector<semantic::InPlaceWrite> writes = semantic::inPlaceWrites(f, fn, p);
      const std::string form = semantic::isName(*r.item, p)
                                   ? "returns its input `" + p + "`"
                                   : "returns `" + semantic::quote(*r.item) + "`, a view of its input `" + p + "`";
      if (writes.empty()) {
        sink.report(r.lines, {{"function", fn.qualname}, {"what", form}, {"how", "the caller's storage is the output"}},
                    "no write into the input is visible; the output shares the input's storage", Confidence::Low);
        continue;
      }
      sink.report(r.lines, {{"function", fn.qualname}, {"what", form}, {"how", writes.front().how}},
                  "the result is written into the caller's input tensor (line " +
                      std::to_string(writes.front().lines.begin) + ") and handed back as the output",
                  reviewWithoutProblem(ctx));
    }
    // Results written into an input that is not returned: the caller's data changes under it.
    for (std::size_t i = 0; i < params.size(); ++i) {
      if (owned.count(i) || reported.count(i) || semantic::reboundBefore(f.python, fn, params[i]))
        continue;
      for (const semantic::InPlaceWrite &w : semantic::inPlaceWrites(f, fn, params[i])) {
        if (!w.inPlace)
          continue; // a kernel argument is usually read, not written
        sink.report(w.lines, {{"function", fn.qualname}, {"what", "overwrites its input `" + params[i] + "`"}, {"how", w.how}},
                    "the caller's input changes, so repeated timed calls no longer see the original data",
                    reviewWithoutProblem(ctx));
        break;
      }
    }
  }

  /// Exported extension functions returning their own tensor argument (`return x;`), where the
  /// entry point passes one of its inputs in that position and returns the result.
  static void checkExtensions(const CheckContext &ctx, const std::set<std::size_t> &owned, FindingSink &sink) {
    const Facts &f = ctx.facts;
    for (const cxx::ExportedFunction &e : f.cxx.exports) {
      const cxx::CxxFunction *fn = semantic::exportDefinition(f.cxx, e);
      if (!fn)
        continue;
      for (const cxxbody::ReturnedParameter &r : cxxbody::returnedParameters(f, *fn)) {
        const std::string input = inputPassedAt(f, e.name, r.position, owned);
        if (input.empty())
          continue;
        sink.report({r.line, r.line},
                    {{"function", fn->qualifiedName}, {"what", "returns its tensor argument `" + r.name + "`"},
                     {"how", "forward passes its input `" + input + "` there and returns the result"}},
                    "the extension hands back the caller's input tensor as the output",
                    reviewWithoutProblem(ctx));
        break;
      }
    }
  }

  /// The entry point's input passed as argument `index` of a returned call to extension
  /// function `exported` ("" when none).
  static std::string inputPassedAt(const Facts &f, const std::string &exported, unsigned index,
                                   const std::set<std::size_t> &owned) {
    for (const std::string &entry : f.kernels.entryPoints) {
      const py::Function *fn = f.python.findFunction(entry);
      if (!fn)
        continue;
      for (const semantic::PassedInput &p : semantic::inputsPassedToReturnedCall(f.python, *fn, exported, index))
        if (!owned.count(p.position))
          return p.param;
    }
    return {};
  }
};

} // namespace

std::unique_ptr<Check> makeMem003() { return std::make_unique<Mem003>(); }

} // namespace kbaudit::rules
