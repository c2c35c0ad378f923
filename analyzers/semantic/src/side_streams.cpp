#include "kbaudit/semantic/side_streams.h"

#include "kbaudit/semantic/expr_structure.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>

namespace kbaudit::semantic {
namespace {

constexpr std::string_view kStreamContexts[] = {"torch.cuda.stream", "torch.cuda.StreamContext",
                                                "torch.cuda.streams.StreamContext", "torch.cuda.set_stream",
                                                "torch.cuda.use_stream"};

constexpr std::string_view kStreamConstructors[] = {"torch.cuda.Stream", "torch.cuda.streams.Stream",
                                                    "torch.Stream", "torch.cuda.ExternalStream"};

template <std::size_t N> bool among(const std::string_view (&set)[N], std::string_view s) {
  return std::find(std::begin(set), std::end(set), s) != std::end(set);
}

} // namespace

bool isStreamSwitch(std::string_view resolved) { return among(kStreamContexts, resolved); }

bool isCallerStream(const ForwardReach &reach, const py::Expr &e, const std::string &from) {
  if (e.kind == py::ExprKind::None)
    return true;
  for (std::string_view s : {"current_stream", "default_stream", "getCurrentCUDAStream"})
    if (readsMember(e, s))
      return true;
  if (e.kind != py::ExprKind::Name && e.kind != py::ExprKind::Attribute)
    return false;
  return reach.boundToCall(e.resolved, from,
                           {"torch.cuda.current_stream", "torch.cuda.default_stream",
                            "torch.cuda.streams.current_stream", "torch.current_stream"});
}

bool boundToCreatedStream(const ForwardReach &reach, std::string_view name, const std::string &from) {
  for (const py::Expr *v : reach.bindings(name, from))
    if (v->kind == py::ExprKind::Call && among(kStreamConstructors, v->resolved))
      return true;
  return false;
}

bool isStreamJoin(const ForwardReach &reach, const py::Call &c) {
  if (c.method == "synchronize" || c.method == "wait_event" || c.resolved == "torch.cuda.synchronize")
    return true;
  // Entering a graph capture synchronises the device first, and what runs under it is only
  // recorded: side-stream warm-up before a capture is finished when the capture begins.
  if (c.resolved == "torch.cuda.graph" || c.resolved == "torch.cuda.graphs.graph")
    return true;
  if (c.method == "wait_stream") {
    // `side.wait_stream(current)` is the fork; the join waits on something else.
    const py::Argument *a = argumentOf(c, 0, "stream");
    return a && !isCallerStream(reach, a->value, c.function);
  }
  // torch.cuda.Event.wait() makes the current stream wait for the event.
  if (c.method == "wait" && !c.receiver.empty())
    return reach.boundToCall(c.receiver, c.function, {"torch.cuda.Event", "torch.cuda.streams.Event"}) ||
           c.receiver.find("record_event") != std::string::npos;
  return false;
}

ExportStreams exportStreams(const Facts &facts, const cxx::ExportedFunction &ex) {
  ExportStreams out;
  for (int ci : ex.calls) {
    const cxx::CxxCall &call = facts.cxx.calls[static_cast<std::size_t>(ci)];
    if (call.category == cxx::CallCategory::Event || call.category == cxx::CallCategory::Sync)
      out.joined = true;
    if (call.category == cxx::CallCategory::Stream && (call.callee.find("StreamCreate") != std::string::npos ||
                                                       call.callee.find("getStreamFromPool") != std::string::npos))
      out.created = true;
  }
  return out;
}

bool streamHeldInGlobal(const Facts &facts, const std::string &streamExpr) {
  for (const cxx::MutableStatic &s : facts.cxx.statics) {
    // A view of the member, not of a temporary substring (which would dangle).
    const std::string_view full = s.name;
    const std::string_view name = full.substr(full.rfind(':') == std::string_view::npos ? 0 : full.rfind(':') + 1);
    if (s.type.find("tream") != std::string::npos && pytext::mentionsIdentifier(streamExpr, name))
      return true;
  }
  return false;
}

} // namespace kbaudit::semantic
