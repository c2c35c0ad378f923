// TIME001 unsynchronized-side-stream: when the graded call returns, some work it launched is on
// a stream the caller's stream is not ordered after. A query over the ordering model
// (semantic::streamOrder): which stream is current at each point, every join, graph captures,
// and the branches the harness takes.

#include "all_checks.h"
#include "time_common.h"

#include "kbaudit/semantic/stream_order.h"

namespace kbaudit::rules {
namespace {

class Time001 final : public timing::TimingCheck {
public:
  std::string_view id() const override { return "TIME001"; }

protected:
  void check(const CheckContext &ctx, const semantic::ForwardReach &reach, FindingSink &sink) const override {
    const semantic::StreamOrder order = semantic::streamOrder(reach, harnessView(ctx));
    for (const semantic::StreamEscape &e : order.escapes) {
      std::string detail;
      if (e.cxx)
        detail = e.what + " is launched on stream `" + e.stream + "`";
      else
        detail = "work forward runs here (" + e.what + ", line " + std::to_string(e.work.begin) +
                 ") goes to side stream `" + e.stream + "`";
      sink.report(e.site, {{"detail", detail}}, e.why,
                  e.decisive ? std::nullopt : std::optional<Confidence>(Confidence::Low));
    }
  }
};

} // namespace

std::unique_ptr<Check> makeTime001() { return std::make_unique<Time001>(); }

} // namespace kbaudit::rules
