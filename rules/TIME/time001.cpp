// TIME001 unsynchronized-side-stream: forward launches work on a stream other than the
// caller's and returns without making the caller's stream wait for it.

#include "all_checks.h"
#include "time_common.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/expr_structure.h"
#include "kbaudit/semantic/side_streams.h"

#include <string_view>

namespace kbaudit::rules {
namespace {

using timing::ForwardReach;

class Time001 final : public timing::TimingCheck {
public:
  std::string_view id() const override { return "TIME001"; }

protected:
  void check(const CheckContext &ctx, const ForwardReach &reach, FindingSink &sink) const override {
    checkPython(reach, sink);
    checkCxx(ctx.facts, reach, sink);
  }

private:
  // A join after the switch in the same function, or anywhere else forward reaches (the
  // caller joining what a helper launched).
  static bool pythonJoined(const ForwardReach &reach, const py::Call &use) {
    for (const py::Call &c : reach.python().calls) {
      if (!reach.reached(c.function) || !semantic::isStreamJoin(reach, c))
        continue;
      if (c.function != use.function || c.lines.begin > use.lines.begin)
        return true;
    }
    return false;
  }

  static void checkPython(const ForwardReach &reach, FindingSink &sink) {
    for (const py::Call &c : reach.python().calls) {
      if (!reach.reached(c.function))
        continue;
      if (semantic::isStreamSwitch(c.resolved)) {
        const py::Argument *a = timing::argumentOf(c, 0, "stream");
        if (!a || semantic::isCallerStream(reach, a->value, c.function) || pythonJoined(reach, c))
          continue;
        sink.report(c.lines, {{"detail", "`" + c.callee + "(" + semantic::quote(a->value) + ")` runs forward's work on a side stream"}},
                    "no wait_stream, wait_event or synchronize on forward's path");
        continue;
      }
      // A created stream's handle passed to an extension that launches on it.
      for (const py::Argument &a : c.args) {
        const std::optional<std::string> owner = semantic::attributeOwner(a.value, "cuda_stream");
        if (!owner || !semantic::boundToCreatedStream(reach, *owner, c.function) || pythonJoined(reach, c))
          continue;
        sink.report(c.lines, {{"detail", "`" + c.callee + "` is handed the handle of created stream `" + *owner + "`"}},
                    "no wait_stream, wait_event or synchronize on forward's path");
      }
    }
  }

  // Launches on a created or pool stream in an export forward calls, with no event wait or
  // synchronisation among the calls that export makes.
  static void checkCxx(const Facts &f, const ForwardReach &reach, FindingSink &sink) {
    for (std::size_t e : reach.reachedExports()) {
      const cxx::ExportedFunction &ex = f.cxx.exports[e];
      const semantic::ExportStreams streams = semantic::exportStreams(f, ex);
      if (streams.joined)
        continue;
      for (int li : ex.launches) {
        const cxx::KernelLaunch &l = f.cxx.launches[static_cast<std::size_t>(li)];
        if (l.streamKind != cxx::StreamKind::Other || !l.lines.valid())
          continue;
        // A stream parameter is usually the caller's stream handed down; only a stream the
        // code creates (here or in a global it keeps) is known to be a side stream.
        if (!streams.created && !semantic::streamHeldInGlobal(f, l.stream))
          continue;
        sink.report(l.lines, {{"detail", "kernel `" + l.kernel + "` is launched on stream `" + l.stream +
                                             "` that export `" + ex.name + "` never joins"}},
                    "no cudaStreamWaitEvent, event synchronisation or stream synchronisation in the export");
      }
    }
  }
};

} // namespace

std::unique_ptr<Check> makeTime001() { return std::make_unique<Time001>(); }

} // namespace kbaudit::rules
