// TIME001 unsynchronized-side-stream: forward launches work on a stream other than the
// caller's and returns without making the caller's stream wait for it.

#include "all_checks.h"
#include "time_common.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/expr_structure.h"

#include <algorithm>
#include <string_view>

namespace kbaudit::rules {
namespace {

using timing::PyIndex;

constexpr std::string_view kStreamContexts[] = {"torch.cuda.stream", "torch.cuda.StreamContext",
                                                "torch.cuda.streams.StreamContext", "torch.cuda.set_stream",
                                                "torch.cuda.use_stream"};

constexpr std::string_view kStreamConstructors[] = {"torch.cuda.Stream", "torch.cuda.streams.Stream",
                                                    "torch.Stream", "torch.cuda.ExternalStream"};

bool isStreamContext(std::string_view resolved) {
  return std::find(std::begin(kStreamContexts), std::end(kStreamContexts), resolved) != std::end(kStreamContexts);
}

bool boundToCreatedStream(const PyIndex &index, std::string_view text, const std::string &from) {
  for (const py::Expr *v : index.bindings(text, from)) {
    if (v->kind == py::ExprKind::Call &&
        std::find(std::begin(kStreamConstructors), std::end(kStreamConstructors), v->resolved) !=
            std::end(kStreamConstructors))
      return true;
  }
  return false;
}

/// A call that makes the caller's stream (or the host) wait for side-stream work.
bool isJoin(const PyIndex &index, const py::Call &c) {
  if (c.method == "synchronize" || c.method == "wait_event" || c.resolved == "torch.cuda.synchronize")
    return true;
  // Entering a graph capture synchronises the device first, and what runs under it is only
  // recorded: side-stream warm-up before a capture is finished when the capture begins.
  if (c.resolved == "torch.cuda.graph" || c.resolved == "torch.cuda.graphs.graph")
    return true;
  if (c.method == "wait_stream") {
    // `side.wait_stream(current)` is the fork; the join waits on something else.
    const py::Argument *a = timing::argument(c, 0, "stream");
    return a && !timing::isCallerStream(index, a->value, c.function);
  }
  // torch.cuda.Event.wait() makes the current stream wait for the event.
  if (c.method == "wait" && !c.receiver.empty())
    return index.boundToCall(c.receiver, c.function, {"torch.cuda.Event", "torch.cuda.streams.Event"}) ||
           c.receiver.find("record_event") != std::string::npos;
  return false;
}

class Time001 final : public timing::TimingCheck {
public:
  std::string_view id() const override { return "TIME001"; }

protected:
  void check(const CheckContext &ctx, const PyIndex &index, FindingSink &sink) const override {
    checkPython(index, sink);
    checkCxx(ctx.facts, index, sink);
  }

private:
  // A join after the switch in the same function, or anywhere else forward reaches (the
  // caller joining what a helper launched).
  static bool pythonJoined(const PyIndex &index, const py::Call &use) {
    for (const py::Call &c : index.python().calls) {
      if (!index.reached(c.function) || !isJoin(index, c))
        continue;
      if (c.function != use.function || c.lines.begin > use.lines.begin)
        return true;
    }
    return false;
  }

  static void checkPython(const PyIndex &index, FindingSink &sink) {
    for (const py::Call &c : index.python().calls) {
      if (!index.reached(c.function))
        continue;
      if (isStreamContext(c.resolved)) {
        const py::Argument *a = timing::argument(c, 0, "stream");
        if (!a || timing::isCallerStream(index, a->value, c.function) || pythonJoined(index, c))
          continue;
        sink.report(c.lines, {{"detail", "`" + c.callee + "(" + semantic::quote(a->value) + ")` runs forward's work on a side stream"}},
                    "no wait_stream, wait_event or synchronize on forward's path");
        continue;
      }
      // A created stream's handle passed to an extension that launches on it.
      for (const py::Argument &a : c.args) {
        const std::optional<std::string> owner = semantic::attributeOwner(a.value, "cuda_stream");
        if (!owner || !boundToCreatedStream(index, *owner, c.function) || pythonJoined(index, c))
          continue;
        sink.report(c.lines, {{"detail", "`" + c.callee + "` is handed the handle of created stream `" + *owner + "`"}},
                    "no wait_stream, wait_event or synchronize on forward's path");
      }
    }
  }

  // Launches on a created or pool stream in an export forward calls, with no event wait or
  // synchronisation among the calls that export makes.
  static void checkCxx(const Facts &f, const PyIndex &index, FindingSink &sink) {
    for (std::size_t e : index.reachedExports()) {
      const cxx::ExportedFunction &ex = f.cxx.exports[e];
      bool created = false;
      bool joined = false;
      for (int ci : ex.calls) {
        const cxx::CxxCall &call = f.cxx.calls[static_cast<std::size_t>(ci)];
        if (call.category == cxx::CallCategory::Event || call.category == cxx::CallCategory::Sync)
          joined = true;
        if (call.category == cxx::CallCategory::Stream &&
            (call.callee.find("StreamCreate") != std::string::npos ||
             call.callee.find("getStreamFromPool") != std::string::npos))
          created = true;
      }
      if (joined)
        continue;
      for (int li : ex.launches) {
        const cxx::KernelLaunch &l = f.cxx.launches[static_cast<std::size_t>(li)];
        if (l.streamKind != cxx::StreamKind::Other || !l.lines.valid())
          continue;
        // A stream parameter is usually the caller's stream handed down; only a stream the
        // code creates (here or in a global it keeps) is known to be a side stream.
        if (!created && !heldInGlobal(f, l.stream))
          continue;
        sink.report(l.lines, {{"detail", "kernel `" + l.kernel + "` is launched on stream `" + l.stream +
                                             "` that export `" + ex.name + "` never joins"}},
                    "no cudaStreamWaitEvent, event synchronisation or stream synchronisation in the export");
      }
    }
  }

  static bool heldInGlobal(const Facts &f, const std::string &stream) {
    for (const cxx::MutableStatic &s : f.cxx.statics) {
      // A view of the member, not of a temporary substring (which would dangle).
      const std::string_view full = s.name;
      const std::string_view name = full.substr(full.rfind(':') == std::string_view::npos ? 0 : full.rfind(':') + 1);
      if (s.type.find("tream") != std::string::npos && timing::mentionsIdentifier(stream, name))
        return true;
    }
    return false;
  }
};

} // namespace

std::unique_ptr<Check> makeTime001() { return std::make_unique<Time001>(); }

} // namespace kbaudit::rules
