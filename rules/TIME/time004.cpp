// TIME004 stale-graph-replay: a CUDA graph captured on one call's inputs is replayed on
// later calls without new inputs reaching it, so the timed call returns the captured output.

#include "all_checks.h"
#include "time_common.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/expr_structure.h"

#include <string_view>

namespace kbaudit::rules {
namespace {

using timing::ForwardReach;

bool isCopyIn(const py::Call &c) {
  for (std::string_view m : {"copy_", "index_copy_", "set_", "resize_", "_foreach_copy_"})
    if (c.method == m)
      return true;
  return c.resolved == "torch.Tensor.copy_" || c.resolved == "torch.index_copy" || c.resolved == "torch._foreach_copy_";
}

class Time004 final : public timing::TimingCheck {
public:
  std::string_view id() const override { return "TIME004"; }

protected:
  void check(const CheckContext &ctx, const ForwardReach &reach, FindingSink &sink) const override {
    checkPython(reach, sink);
    checkCxx(ctx.facts, reach, sink);
  }

private:
  static bool capturesGraph(const py::PythonFacts &py) {
    for (const py::Call &c : py.calls)
      if (c.resolved == "torch.cuda.CUDAGraph" || c.resolved == "torch.cuda.graph" ||
          c.resolved == "torch.cuda.graphs.CUDAGraph")
        return true;
    return false;
  }

  // What lets a replay see this call's inputs: a copy into the captured buffers (a copy_
  // or a subscript write of an input), or a graph keyed on the inputs' addresses or
  // identities, so the graph reads the very memory the caller passed.
  static std::string freshInputs(const ForwardReach &reach) {
    const py::PythonFacts &py = reach.python();
    for (const py::Call &c : py.calls)
      if (reach.reached(c.function) && isCopyIn(c))
        return "copy";
    for (const py::Assignment &a : py.assignments) {
      if (!reach.reached(a.function))
        continue;
      if (a.kind == py::Assignment::TargetKind::Subscript && a.value.kind == py::ExprKind::Name &&
          reach.inputNames().count(std::string(semantic::rootName(a.value))))
        return "copy";
      // `key = (x.data_ptr(), ...)`, `self._ptr = x.data_ptr()`, `key = id(x)`: an address or
      // identity kept to compare.
      if (semantic::readsAttribute(a.value, "data_ptr") || semantic::reads(a.value, "id"))
        return "key";
    }
    // The front end records no comparison with None or another singleton as an identity check.
    for (const py::IdentityCheck &i : py.identityChecks)
      if (reach.reached(i.function))
        return "key";
    for (const py::Branch &b : py.branches)
      if (reach.reached(b.function))
        for (py::ConditionTag t : b.tags)
          if (t == py::ConditionTag::Pointer || t == py::ConditionTag::Version)
            return "key";
    return {};
  }

  static void checkPython(const ForwardReach &reach, FindingSink &sink) {
    const py::PythonFacts &py = reach.python();
    if (!capturesGraph(py) || !freshInputs(reach).empty())
      return;
    for (const py::Call &c : py.calls) {
      if (!reach.reached(c.function) || c.method != "replay" || c.receiver.empty())
        continue;
      sink.report(c.lines, {{"detail", "`" + c.callee + "()` replays a captured graph"}},
                  "no copy of the inputs into the graph's static buffers and no input-address key on forward's "
                  "path");
    }
  }

  static void checkCxx(const Facts &f, const ForwardReach &reach, FindingSink &sink) {
    for (const cxx::MutableStatic &s : f.cxx.statics)
      if (s.keyedByDataPtr)
        return;
    for (std::size_t e : reach.reachedExports()) {
      const cxx::ExportedFunction &ex = f.cxx.exports[e];
      const cxx::CxxCall *replay = nullptr;
      bool fresh = false;
      for (int ci : ex.calls) {
        const cxx::CxxCall &call = f.cxx.calls[static_cast<std::size_t>(ci)];
        const std::string &callee = call.callee;
        if (call.category == cxx::CallCategory::Graph &&
            (callee.find("cudaGraphLaunch") != std::string::npos || callee.find("cuGraphLaunch") != std::string::npos ||
             callee.find("CUDAGraph::replay") != std::string::npos))
          replay = replay ? replay : &call;
        // New pointers patched into the graph, or new data copied into its buffers.
        if (call.category == cxx::CallCategory::Memory || callee.find("copy_") != std::string::npos ||
            callee.find("SetParams") != std::string::npos || callee.find("ExecUpdate") != std::string::npos)
          fresh = true;
      }
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
