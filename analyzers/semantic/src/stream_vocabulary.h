#pragma once

// The names the ordering model (stream_order.cpp) understands: which calls switch, join,
// record, synchronise or launch, and the stream an expression names at a point of the walk.
// Private to the semantic layer.

#include "kbaudit/facts.h"
#include "kbaudit/semantic/forward_reach.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::semantic::streams {

/// The caller's stream: the one current when the graded call starts.
constexpr int kCaller = 0;

bool isStreamContext(std::string_view resolved); ///< torch.cuda.stream(s), StreamContext
bool isSetStream(std::string_view resolved);     ///< torch.cuda.set_stream(s)
bool isGraphCapture(std::string_view resolved);  ///< torch.cuda.graph(g, ...)
bool isStreamConstructor(std::string_view resolved);
/// .item(), .cpu(), .tolist(), .numpy(): the host reads a result, waiting for the current stream.
bool isHostRead(std::string_view method);
/// A copy into an existing buffer: `dst.copy_(src)`, `index_copy_`, `_foreach_copy_`.
bool isCopyIn(const py::Call &c);
/// A call that joins (or synchronises) streams, whatever it joins: for messages about joins
/// the harness's path skips.
bool isJoinCall(const py::Call &c);
/// The call may launch GPU work: a torch operator, a module call, a kernel launch, an extension
/// export, a graph replay. Host-side calls (stream and event management, metadata, builtins,
/// containers) do not.
bool doesGpuWork(const py::Call &c, const py::PythonFacts &py);

/// Where an extension export's launches run.
struct ExportStreams {
  bool current = false;       ///< on at::cuda::getCurrentCUDAStream()
  bool legacyDefault = false; ///< on the legacy default stream (no stream argument)
  bool library = false;       ///< ATen or library work, which runs on the current stream
  bool parameter = false;     ///< on a stream the caller hands in
};
/// The export a Python call runs, when it is one.
std::optional<ExportStreams> exportStreamsOf(const ForwardReach &reach, const py::Call &c);

/// The local function a call runs (a def, a method, a local module's forward), or "".
std::string localCallee(const ForwardReach &reach, const py::Call &c);

/// Stream values: small integers, kCaller first, one per side stream the code names and one
/// per expression of unknown origin.
class StreamNames {
public:
  using Bound = std::map<std::string, int>; ///< nameKey(...) -> stream, as bound along one path

  explicit StreamNames(const ForwardReach &reach);

  /// The key a binding of `target` made in `function` is kept under.
  static std::string nameKey(std::string_view target, std::string_view function);

  /// The stream `e` names when the current stream is `cur` (unknown origin: an id of its own).
  int evaluate(const py::Expr &e, const Bound &bound, int cur, const std::string &from);
  /// The same, or -1 when `e` is not known to be a stream (a value bound to a name).
  int evaluateIfStream(const py::Expr &e, const Bound &bound, int cur, const std::string &from);
  /// A call that returns a stream (`torch.cuda.current_stream()`), or -1.
  int evaluateCall(const py::Call &c, int cur) const;
  int evaluateName(std::string_view dotted, const Bound &bound, int cur, const std::string &from);
  /// `s.cuda_stream`, `torch.cuda.current_stream().cuda_stream`: the stream a raw handle names.
  int evaluateHandle(const py::Expr &e, const Bound &bound, int cur, const std::string &from);

  /// Element `index` of a list of streams the code creates (`self.streams = [Stream(), Stream()]`),
  /// each a side stream of its own; -1 when `list` is not one.
  int element(const py::Expr &list, int index, const std::string &from);

  bool boundToEvent(std::string_view name, const std::string &from) const;

  std::string spelled(int id) const;
  /// A stream the code creates (not the caller's, not of unknown origin).
  bool isSide(int id) const;

private:
  int intern(const std::string &key, const std::string &spelled, bool side);
  int fromBindings(std::string_view dotted, const std::string &from, bool element);

  const ForwardReach &reach_;
  struct Info {
    std::string spelled;
    bool side = false;
  };
  std::vector<Info> info_;
  std::map<std::string, int> ids_;
};

} // namespace kbaudit::semantic::streams
