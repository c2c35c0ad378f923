// MEM001 identity-keyed-output-cache: forward hands back a stored result (or reuses data
// derived from an input) because the input is the same object, address or version as last
// time, instead of recomputing from the input's contents.

#include "all_checks.h"
#include "mem_python.h"
#include "semantic_names.h"

#include "kbaudit/semantic/cache_hit.h"
#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/identity_cache.h"
#include "kbaudit/semantic/memoized_calls.h"

#include <algorithm>
#include <map>
#include <optional>

namespace kbaudit::rules {
namespace {

using semantic::KeyKind;

using Key = semantic::CacheKey;

class Mem001 final : public Check {
public:
  std::string_view id() const override { return "MEM001"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    const std::set<std::string> reach = mem::reachableFunctions(f);
    const std::set<std::string> entries(f.kernels.entryPoints.begin(), f.kernels.entryPoints.end());
    std::map<const py::Function *, FunctionKeys> byFunction;
    for (const py::Branch &b : f.python.branches) {
      if (!reach.count(b.function) || (b.kind != "if" && b.kind != "elif"))
        continue;
      if (const py::Function *fn = f.python.findFunction(b.function))
        checkBranch(f, *fn, entries.count(fn->qualname) > 0, b, byFunction[fn], sink);
    }
    checkMemoDecorators(f, reach, sink);
    checkExtensionCaches(f, sink);
  }

private:
  /// What every branch of one function asks: the names holding its inputs and the locals
  /// keyed on them, found once per function (a function may hold hundreds of branches).
  struct FunctionKeys {
    std::optional<std::set<std::string>> inputs;
    std::optional<std::vector<semantic::KeyLocal>> locals;
  };

  static void checkBranch(const Facts &f, const py::Function &fn, bool entry, const py::Branch &b, FunctionKeys &known,
                          FindingSink &sink) {
    if (!known.inputs)
      known.inputs = semantic::inputAliases(f.python, fn);
    const std::set<std::string> &inputs = *known.inputs;
    if (inputs.empty() || !semantic::testReadsState(f.python, b))
      return;
    if (!known.locals)
      known.locals = semantic::keyLocals(f.python, fn, inputs);
    const std::vector<Key> keys = semantic::cacheKeys(f.python, fn, b, inputs, *known.locals);
    if (keys.empty())
      return;
    const bool positive = std::all_of(keys.begin(), keys.end(), [](const Key &k) { return !k.cmp.negated; });
    const bool negative = std::all_of(keys.begin(), keys.end(), [](const Key &k) { return k.cmp.negated; });
    if (!positive && !negative)
      return;
    const bool versioned = std::any_of(keys.begin(), keys.end(), [](const Key &k) { return k.has(KeyKind::Version); });
    const bool identity = std::any_of(keys.begin(), keys.end(), [](const Key &k) { return k.has(KeyKind::Identity); });
    // A hit that returns what was stored, with no work between the test and the return.
    if (const std::optional<semantic::ReturnStatement> ret = semantic::storedHit(f.python, fn, b, positive)) {
      reportHit(fn, entry, b, *ret, keys, versioned, identity, sink);
      return;
    }
    // A miss that refills data derived from the input, reused while the same object comes back.
    const semantic::BranchBlocks blocks = semantic::blocksOf(b);
    const LineRange miss = negative ? blocks.body : blocks.orelse;
    if (!miss.valid() || versioned)
      return;
    checkDerivedRefill(f, fn, b, miss, keys, identity, sink);
  }

  static void reportHit(const py::Function &fn, bool entry, const py::Branch &b,
                        const semantic::ReturnStatement &ret, const std::vector<Key> &keys, bool versioned, bool identity,
                        FindingSink &sink) {
    const LineRange lines{b.lines.begin, ret.lines.end - b.lines.begin <= 4 ? ret.lines.end : b.lines.end};
    const MessageVars vars{{"key", semantic::describeKeys(keys)}, {"function", fn.qualname},
                           {"cached", "the stored result `" + semantic::quote(*ret.value) + "`"}};
    if (entry) {
      // The entry point itself answers from the store: the timed call does no work.
      sink.report(lines, vars, "hit path returns `" + semantic::quote(*ret.value) + "` with no kernel, extension or replay call");
      return;
    }
    // A helper's stored value may be derived input data or a packed weight: weaker evidence,
    // and a version check already invalidates on in-place writes.
    if (versioned)
      return;
    sink.report(lines, vars, "helper returns stored `" + semantic::quote(*ret.value) + "` while the input is the same object",
                identity ? Confidence::Medium : Confidence::Low);
  }

  static void checkDerivedRefill(const Facts &f, const py::Function &fn, const py::Branch &b, LineRange miss,
                                 const std::vector<Key> &keys, bool identity, FindingSink &sink) {
    const std::string derived = semantic::derivedRefill(f.python, fn, miss, keys);
    if (derived.empty() || semantic::capturesGraph(f.python, fn, miss))
      return;
    sink.report(b.lines,
                {{"key", semantic::describeKeys(keys)}, {"function", fn.qualname},
                 {"cached", "data derived from the input (`" + derived + "`)"}},
                "no _version or content check: an in-place overwrite of the same tensor reuses stale `" + derived + "`",
                identity ? Confidence::Medium : Confidence::Low);
  }

  /// functools.lru_cache / cache on a function handed input tensors: tensors hash by identity.
  static void checkMemoDecorators(const Facts &f, const std::set<std::string> &reach, FindingSink &sink) {
    for (const semantic::MemoizedCall &m : semantic::memoizedCallsOnInputs(f, reach))
      sink.report(m.call->lines,
                  {{"key", "object identity"}, {"function", m.call->function},
                   {"cached", "the result of memoized `" + m.memoized->name + "` (" + m.how + ")"}},
                  "tensors hash by object identity, so a repeated input object returns the stored result");
  }

  /// Extension code keeping tensors in a static keyed by data_ptr(): the same hack in C++,
  /// but weights are keyed the same way, so it is listed for review.
  static void checkExtensionCaches(const Facts &f, FindingSink &sink) {
    for (const cxx::MutableStatic &s : f.cxx.statics) {
      if (!s.holdsTensor || !s.keyedByDataPtr || !s.written || !s.lines.valid())
        continue;
      sink.report(s.lines,
                  {{"key", "data_ptr()"}, {"function", s.function.empty() ? s.name : s.function},
                   {"cached", "tensors in static `" + s.name + "` (" + s.type + ")"}},
                  "extension state keyed by tensor addresses; whether the key is an input or a weight is not known",
                  Confidence::Low);
    }
  }
};

} // namespace

std::unique_ptr<Check> makeMem001() { return std::make_unique<Mem001>(); }

} // namespace kbaudit::rules
