#pragma once

// Side streams and their joins, for TIME001: the grader times the caller's stream, so work
// forward puts on another stream counts only if the caller's stream (or the host) waits for
// it before forward returns. These answer which stream an expression names, which calls
// switch to a stream, which calls join one, and, in an extension export, whether a stream
// is created and whether anything waits on it.

#include "kbaudit/facts.h"
#include "kbaudit/semantic/forward_reach.h"

#include <string>
#include <string_view>

namespace kbaudit::semantic {

/// `torch.cuda.stream(s)`, `StreamContext`, `set_stream`, `use_stream`: the work that
/// follows runs on the stream the first argument names.
bool isStreamSwitch(std::string_view resolved);

/// `torch.cuda.current_stream()` / `default_stream()` (or None, the current one), or a name
/// bound to one, seen from inside `from`: the caller's own stream, not a side stream.
bool isCallerStream(const ForwardReach &reach, const py::Expr &e, const std::string &from);

/// `name` (a Name or `self.attr`) is bound to a stream the code creates
/// (`torch.cuda.Stream()`, `ExternalStream`).
bool boundToCreatedStream(const ForwardReach &reach, std::string_view name, const std::string &from);

/// A call that makes the caller's stream (or the host) wait for side-stream work:
/// synchronize, wait_event, an Event's wait, `wait_stream` on something other than the
/// caller's stream (the fork `side.wait_stream(current)` is not a join), or entering a graph
/// capture (which synchronises the device first).
bool isStreamJoin(const ForwardReach &reach, const py::Call &c);

/// How an extension export handles streams: whether it creates one (cudaStreamCreate*,
/// getStreamFromPool) and whether any of its calls waits on an event or synchronises.
struct ExportStreams {
  bool created = false;
  bool joined = false;
};
ExportStreams exportStreams(const Facts &facts, const cxx::ExportedFunction &ex);

/// A mutable global or static member of stream type whose name the launch's stream
/// expression mentions: a side stream the code keeps, not one the caller handed down.
bool streamHeldInGlobal(const Facts &facts, const std::string &streamExpr);

} // namespace kbaudit::semantic
