// TIME003 host-concurrency: forward hands its work to threads or processes (or feeds
// workers started at import), so the work runs outside the call the harness times.

#include "all_checks.h"
#include "time_common.h"

#include <algorithm>
#include <optional>
#include <string_view>

namespace kbaudit::rules {
namespace {

using timing::PyIndex;

constexpr std::string_view kThreads[] = {"threading.Thread", "threading.Timer", "_thread.start_new_thread",
                                         "_thread.start_new", "multiprocessing.Process",
                                         "multiprocessing.context.Process", "torch.multiprocessing.Process",
                                         "torch.multiprocessing.spawn", "torch.multiprocessing.start_processes",
                                         "os.fork", "os.forkpty", "subprocess.Popen", "asyncio.to_thread"};
constexpr std::string_view kPools[] = {"concurrent.futures.ThreadPoolExecutor",
                                       "concurrent.futures.ProcessPoolExecutor",
                                       "concurrent.futures.thread.ThreadPoolExecutor",
                                       "concurrent.futures.process.ProcessPoolExecutor",
                                       "multiprocessing.Pool",
                                       "multiprocessing.pool.Pool",
                                       "multiprocessing.pool.ThreadPool",
                                       "multiprocessing.dummy.Pool",
                                       "torch.multiprocessing.Pool"};
constexpr std::string_view kSubmit[] = {"submit", "map", "imap", "imap_unordered", "starmap", "apply_async",
                                        "map_async", "starmap_async", "apply", "run_in_executor"};
constexpr std::string_view kFeed[] = {"put", "put_nowait", "send", "set"};
constexpr std::string_view kQueues[] = {"queue.Queue", "queue.SimpleQueue", "queue.LifoQueue",
                                        "multiprocessing.Queue", "multiprocessing.SimpleQueue",
                                        "multiprocessing.Pipe", "threading.Event", "threading.Condition",
                                        "torch.multiprocessing.Queue"};

template <std::size_t N> bool among(const std::string_view (&set)[N], std::string_view s) {
  return std::find(std::begin(set), std::end(set), s) != std::end(set);
}

std::vector<std::string_view> asVector(auto &set) { return {std::begin(set), std::end(set)}; }

class Time003 final : public timing::TimingCheck {
public:
  std::string_view id() const override { return "TIME003"; }

protected:
  void check(const CheckContext &ctx, const PyIndex &index, FindingSink &sink) const override {
    checkReached(index, sink);
    checkFedWorkers(index, sink);
    checkCxx(ctx.facts, index, sink);
  }

private:
  struct Verdict {
    bool report = false;
    std::optional<Confidence> confidence;
    std::string why;
  };

  // What a worker runs decides: compiling extensions in parallel is fine, work is not.
  static Verdict judgeTarget(const PyIndex &index, const py::Expr *target, const std::string &from, bool joined) {
    Verdict v;
    const std::string fn = target ? index.resolveCallable(*target, from) : std::string();
    if (!fn.empty() && index.onlyBuilds(fn))
      return v;
    if (!fn.empty() && !index.doesWork(fn))
      return v; // bookkeeping (a logger, a watchdog) does not move work off the timed path
    v.report = true;
    v.why = fn.empty() ? (target ? "runs `" + target->text + "` (not resolved to a function here)"
                                 : "runs a target kbaudit cannot resolve")
                       : "runs `" + fn + "`, which launches work";
    if (fn.empty() || joined)
      v.confidence = Confidence::Low;
    return v;
  }

  static std::string joinNote(bool joined) {
    return joined ? "waited for before forward returns, so the time is still counted"
                  : "nothing waits for it before forward returns";
  }

  static bool joinedIn(const PyIndex &index, const std::string &fn, const std::string &handle) {
    if (handle.empty())
      return false;
    for (const py::Call *c : index.callsIn(fn))
      if ((c->method == "join" || c->method == "result" || c->method == "wait" || c->method == "communicate" ||
           c->method == "shutdown" || c->method == "get") &&
          (c->receiver == handle || timing::mentionsIdentifier(c->receiver, handle)))
        return true;
    return false;
  }

  static std::string handleOf(const PyIndex &index, const py::Call &c) {
    for (const py::Assignment &a : index.python().assignments)
      if (a.function == c.function && a.lines.begin == c.lines.begin && a.value.resolved == c.resolved)
        return a.op == "with" ? std::string("with") : a.target;
    return {};
  }

  static void checkReached(const PyIndex &index, FindingSink &sink) {
    for (const py::Call &c : index.python().calls) {
      if (!index.reached(c.function))
        continue;
      if (among(kThreads, c.resolved)) {
        const py::Argument *t = c.keywordArg("target");
        if (!t && (c.resolved == "threading.Timer" || c.resolved == "_thread.start_new_thread" ||
                   c.resolved == "torch.multiprocessing.spawn" || c.resolved == "asyncio.to_thread"))
          t = timing::argument(c, c.resolved == "threading.Timer" ? 1 : 0, "fn");
        if (c.resolved == "os.fork" || c.resolved == "os.forkpty") {
          sink.report(c.lines, {{"detail", "`" + c.callee + "()` forks a process on forward's path"}});
          continue;
        }
        const std::string handle = handleOf(index, c);
        const bool joined = joinedIn(index, c.function, handle);
        if (c.resolved == "subprocess.Popen") {
          sink.report(c.lines, {{"detail", "`subprocess.Popen` starts a process on forward's path"}},
                      joined ? "waited for before returning" : "not waited for before forward returns",
                      joined ? std::optional<Confidence>(Confidence::Low) : std::nullopt);
          continue;
        }
        const Verdict v = judgeTarget(index, t ? &t->value : nullptr, c.function, joined);
        if (v.report)
          sink.report(c.lines, {{"detail", "`" + c.callee + "` starts a thread on forward's path that " + v.why}},
                      joinNote(joined), v.confidence);
        continue;
      }
      if (among(kSubmit, c.method) && !c.receiver.empty() && submitsToPool(index, c)) {
        const py::Argument *t = timing::argument(c, 0, "fn");
        const std::string handle = handleOf(index, c);
        const bool joined = joinedIn(index, c.function, handle) || poolIsContext(index, c) || c.method == "map" ||
                            c.method == "starmap" || c.method == "apply";
        const Verdict v = judgeTarget(index, t ? &t->value : nullptr, c.function, joined);
        if (v.report)
          sink.report(c.lines, {{"detail", "`" + c.callee + "` hands forward's work to a pool that " + v.why}},
                      joinNote(joined), v.confidence);
      }
    }
  }

  static bool submitsToPool(const PyIndex &index, const py::Call &c) {
    return index.boundToCall(c.receiver, c.function, asVector(kPools)) ||
           c.receiver.find("Executor(") != std::string::npos || c.receiver.find("Pool(") != std::string::npos;
  }

  static bool poolIsContext(const PyIndex &index, const py::Call &c) {
    for (const py::Assignment &a : index.python().assignments)
      if (a.target == c.receiver && a.op == "with" && among(kPools, a.value.resolved))
        return true;
    return false;
  }

  // A worker started outside forward (at import, in __init__) whose target does work, and a
  // forward that hands it inputs through a queue, pipe or event.
  static void checkFedWorkers(const PyIndex &index, FindingSink &sink) {
    bool workerDoesWork = false;
    std::string workerAt;
    for (const py::Call &c : index.python().calls) {
      if (index.reached(c.function) || !among(kThreads, c.resolved))
        continue;
      const py::Argument *t = c.keywordArg("target");
      const std::string fn = t ? index.resolveCallable(t->value, c.function) : std::string();
      if (!fn.empty() && index.doesWork(fn)) {
        workerDoesWork = true;
        workerAt = "worker `" + fn + "` started at line " + std::to_string(c.lines.begin);
        break;
      }
    }
    if (!workerDoesWork)
      return;
    for (const py::Call &c : index.python().calls) {
      if (!index.reached(c.function) || !among(kFeed, c.method) || c.receiver.empty())
        continue;
      if (!index.boundToCall(c.receiver, c.function, asVector(kQueues)))
        continue;
      sink.report(c.lines, {{"detail", "`" + c.callee + "` feeds a background " + workerAt}},
                  "the worker launches work outside the call that is timed");
    }
  }

  static void checkCxx(const Facts &f, const PyIndex &index, FindingSink &sink) {
    for (std::size_t e : index.reachedExports()) {
      const cxx::ExportedFunction &ex = f.cxx.exports[e];
      for (int ci : ex.calls) {
        const cxx::CxxCall &call = f.cxx.calls[static_cast<std::size_t>(ci)];
        if (call.category != cxx::CallCategory::Thread || !call.lines.valid())
          continue;
        sink.report(call.lines, {{"detail", "export `" + ex.name + "` starts host work with `" +
                                                (call.spelled.empty() ? call.callee : call.spelled) + "`"}},
                    "the thread's work is not ordered with the call that is timed");
      }
    }
  }
};

} // namespace

std::unique_ptr<Check> makeTime003() { return std::make_unique<Time003>(); }

} // namespace kbaudit::rules
