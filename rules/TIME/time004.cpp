// TIME004 stale-graph-replay: a CUDA graph captured on one call's inputs is replayed on
// later calls without new inputs reaching it, so the timed call returns the captured output.

#include "all_checks.h"
#include "time_common.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/expr_structure.h"
#include "kbaudit/semantic/stream_order.h"

#include <algorithm>
#include <string_view>
#include <tuple>

namespace kbaudit::rules {
namespace {

using timing::ForwardReach;

class Time004 final : public timing::TimingCheck {
public:
  std::string_view id() const override { return "TIME004"; }

protected:
  void check(const CheckContext &ctx, const ForwardReach &reach, FindingSink &sink) const override {
    checkPython(ctx, reach, sink);
    checkCxx(ctx.facts, reach, sink);
  }

private:
  // A graph keyed on the inputs' addresses or identities captures again when they change, so
  // each replay reads the very memory the caller passed.
  static bool keyedOnInputs(const ForwardReach &reach) {
    const py::PythonFacts &py = reach.python();
    for (const py::Assignment &a : py.assignments)
      if (reach.reached(a.function) && (semantic::readsAttribute(a.value, "data_ptr") || semantic::reads(a.value, "id")))
        return true;
    // The front end records no comparison with None or another singleton as an identity check.
    for (const py::IdentityCheck &i : py.identityChecks)
      if (reach.reached(i.function))
        return true;
    for (const py::Branch &b : py.branches)
      if (reach.reached(b.function))
        for (py::ConditionTag t : b.tags)
          if (t == py::ConditionTag::Pointer || t == py::ConditionTag::Version)
            return true;
    return false;
  }

  // The ordering model follows each steady-state path (the capture branch is the warm-up) and
  // asks whether a copy into a buffer comes before each replay.
  static void checkPython(const CheckContext &ctx, const ForwardReach &reach, FindingSink &sink) {
    if (keyedOnInputs(reach))
      return;
    for (const semantic::StaleReplay &r : semantic::streamOrder(reach, harnessView(ctx)).staleReplays)
      sink.report(r.replay, {{"detail", "the graph replayed here was captured on an earlier call's tensors"}},
                  r.decisive ? "no copy of this call's inputs into the graph's static buffers comes before the replay"
                             : "on some paths no copy of this call's inputs comes before the replay",
                  r.decisive ? std::nullopt : std::optional<Confidence>(Confidence::Low));
  }

  static void checkCxx(const Facts &f, const ForwardReach &reach, FindingSink &sink) {
    for (const cxx::MutableStatic &s : f.cxx.statics)
      if (s.keyedByDataPtr)
        return;
    for (std::size_t e : reach.reachedExports()) {
      const cxx::ExportedFunction &ex = f.cxx.exports[e];
      // In the export's own order: new pointers patched into the graph, or new data copied into
      // its buffers, before the launch (a copy after it feeds only the next call).
      std::vector<const cxx::CxxCall *> calls;
      for (int ci : ex.calls)
        calls.push_back(&f.cxx.calls[static_cast<std::size_t>(ci)]);
      std::stable_sort(calls.begin(), calls.end(), [](const cxx::CxxCall *a, const cxx::CxxCall *b) {
        return std::tie(a->source, a->lines.begin, a->offset) < std::tie(b->source, b->lines.begin, b->offset);
      });
      const cxx::CxxCall *replay = nullptr;
      bool fresh = false;
      for (const cxx::CxxCall *cp : calls) {
        const cxx::CxxCall &call = *cp;
        const std::string &callee = call.callee;
        if (call.category == cxx::CallCategory::Graph &&
            (callee.find("cudaGraphLaunch") != std::string::npos || callee.find("cuGraphLaunch") != std::string::npos ||
             callee.find("CUDAGraph::replay") != std::string::npos)) {
          if (!fresh && !replay)
            replay = &call;
          continue;
        }
        // A copy only in a first-call arm (`if (!g_exec) { copy; capture; }`) feeds the capture,
        // not the later replays.
        if (call.underStateTest)
          continue;
        if (call.category == cxx::CallCategory::Memory || callee.find("copy_") != std::string::npos ||
            callee.find("SetParams") != std::string::npos || callee.find("ExecUpdate") != std::string::npos)
          fresh = true;
      }
      fresh = fresh && !replay;
      if (replay && !fresh && replay->lines.valid())
        sink.report(replay->lines, {{"detail", "export `" + ex.name + "` launches a captured graph (`" +
                                                   replay->spelled + "`)"}},
                    "no copy into the graph's buffers, parameter update or input-address key in the export");
    }
  }
};

} // namespace

std::unique_ptr<Check> makeTime004() { return std::make_unique<Time004>(); }

} // namespace kbaudit::rules
