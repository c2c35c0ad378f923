#pragma once

// The ordering model: which stream is current at each point of what the graded call runs, every
// join, graph captures and replays, and whether, when the call returns, the caller's stream is
// ordered after the work it launched. A harness times the call with events on the caller's
// stream (and KernelBench's checks read the output after a device-wide sync), so work left on a
// side stream the caller's stream never waits for is outside the measured interval.
//
// The walk follows the program model (py::Stmt) from each graded entry in execution order,
// inlining the file's own functions and methods, and keeps one state per path: the current
// stream (inside `with torch.cuda.stream(s)` it is `s`, and `current_stream()` returns `s`),
// the work launched on each stream, and which streams each piece of work is ordered before
// (`A.wait_stream(B)`, events recorded and waited for, synchronize). A branch whose outcome the
// harness decides (harness_conditions.h) is followed one way; one on state the solution keeps
// (a warm-up flag) is followed both ways, the arm that sets the state being the warm-up; any
// other test forks the walk. The C++ half reads each extension export's calls in order: a
// launch on a stream the export creates, ordered neither by a sync nor by an event the caller's
// stream waits for, and not recorded into a graph capture.

#include "kbaudit/facts.h"
#include "kbaudit/semantic/forward_reach.h"
#include "kbaudit/semantic/harness_conditions.h"

#include <string>
#include <vector>

namespace kbaudit::semantic {

/// Work the graded call leaves on a stream that the caller's stream never waits for.
struct StreamEscape {
  /// Where the side stream became current: the `with torch.cuda.stream(s)` item or the
  /// `set_stream(s)` call; for work an extension export launches on a stream it creates, the
  /// launch itself.
  LineRange site;
  LineRange work;       ///< the first escaping work (a call, a launch, a graph replay)
  std::string stream;   ///< the side stream as written
  std::string what;     ///< the escaping work as written
  /// Why nothing orders it: "no wait_stream, wait_event or synchronize on forward's path", "the
  /// wait at line 12 runs while `s` is current, so `s` waits on itself", "the only join is under
  /// `x.requires_grad`, false when the harness calls".
  std::string why;
  bool cxx = false;     ///< found in an extension export's C++
  /// Escapes on every steady-state path the harness takes, on a stream the code creates. False:
  /// only on some paths (a test kbaudit cannot decide), or on a stream of unknown origin.
  bool decisive = false;
};

/// A captured CUDA graph replayed on the steady-state path with no copy of this call's inputs
/// into its static buffers before the replay: it computes from what the buffers held before.
struct StaleReplay {
  LineRange replay;
  std::string graph; ///< the graph as written
  /// On every steady-state path that reaches the replay; false: on some only.
  bool decisive = false;
};

struct StreamOrder {
  std::vector<StreamEscape> escapes;
  std::vector<StaleReplay> staleReplays;
  /// A limit of the walk was hit (paths, call depth): the escapes are a lower bound.
  bool limited = false;
};

/// The ordering at each return of the graded entries of `reach`.
StreamOrder streamOrder(const ForwardReach &reach, const HarnessView &harness);

} // namespace kbaudit::semantic
