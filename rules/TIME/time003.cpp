// TIME003 host-concurrency: forward hands its work to threads or processes (or feeds
// workers started at import), so the work runs outside the call the harness times.

#include "all_checks.h"
#include "time_common.h"
#include "kbaudit/semantic/host_workers.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>

namespace kbaudit::rules {
namespace {

using timing::ForwardReach;

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
// asyncio scheduling onto a loop that runs in another thread: a coroutine or a callback.
constexpr std::string_view kAsync[] = {"asyncio.run_coroutine_threadsafe", "call_soon_threadsafe"};
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
  void check(const CheckContext &ctx, const ForwardReach &reach, FindingSink &sink) const override {
    const std::vector<std::string> classes = semantic::workerClasses(reach.python());
    checkReached(reach, classes, sink);
    checkFedWorkers(reach, classes, sink);
    checkCxx(ctx.facts, reach, sink);
  }

private:
  struct Verdict {
    bool report = false;
    std::optional<Confidence> confidence;
    std::string why;
  };

  // What a worker runs decides: compiling extensions in parallel is fine, work is not, and
  // work the starting function waits for is still inside the call that is timed.
  static Verdict judgeTarget(const ForwardReach &reach, const semantic::WorkerTarget &t, bool joined) {
    Verdict v;
    if (joined)
      return v;
    if (!t.function.empty() && (reach.onlyBuilds(t.function) || !reach.doesWork(t.function)))
      return v; // a build, or bookkeeping (a logger, a watchdog) that moves no work off the timed path
    v.report = true;
    v.why = t.function.empty() ? (t.expr ? "runs `" + t.expr->text + "` (not resolved to a function here)"
                                         : "runs a target kbaudit cannot resolve")
                               : "runs `" + t.function + "`, which launches work";
    if (t.function.empty())
      v.confidence = Confidence::Low;
    return v;
  }

  static constexpr std::string_view kUnjoined = "nothing waits for it before forward returns";

  static bool waitsForChildren(const ForwardReach &reach, const std::string &fn) {
    for (const py::Call *c : reach.callsWithin(fn))
      if (c->resolved == "os.waitpid" || c->resolved == "os.wait" || c->resolved == "os.wait4" ||
          c->resolved == "os.waitid")
        return true;
    return false;
  }

  static void checkReached(const ForwardReach &reach, const std::vector<std::string> &classes, FindingSink &sink) {
    for (const py::Call &c : reach.python().calls) {
      if (!reach.reached(c.function))
        continue;
      const bool workerClass = std::find(classes.begin(), classes.end(), c.resolved) != classes.end();
      if (among(kThreads, c.resolved) || workerClass || among(kAsync, c.resolved) || among(kAsync, c.method) ||
          isTask(c)) {
        checkStart(reach, classes, c, workerClass, sink);
        continue;
      }
      if (among(kSubmit, c.method) && !c.receiver.empty() && submitsToPool(reach, c)) {
        const py::Argument *t = timing::argumentOf(c, c.method == "run_in_executor" ? 1 : 0, "fn");
        const std::string handle = semantic::handleOf(reach, c);
        const bool joined = handle == "with" || semantic::joinedIn(reach, c.function, handle) ||
                            poolIsContext(reach, c) || c.method == "map" || c.method == "starmap" ||
                            c.method == "apply";
        const semantic::WorkerTarget target{t ? reach.resolveCallable(t->value, c.function) : std::string(),
                                          t ? &t->value : nullptr};
        const Verdict v = judgeTarget(reach, target, joined);
        if (v.report)
          sink.report(c.lines, {{"detail", "`" + c.callee + "` hands forward's work to a pool that " + v.why}},
                      std::string(kUnjoined), v.confidence);
      }
    }
  }

  static void checkStart(const ForwardReach &reach, const std::vector<std::string> &classes, const py::Call &c,
                         bool workerClass, FindingSink &sink) {
    const std::string handle = semantic::handleOf(reach, c);
    const bool joined = semantic::joinedIn(reach, c.function, handle);
    if (c.resolved == "os.fork" || c.resolved == "os.forkpty") {
      if (!waitsForChildren(reach, c.function))
        sink.report(c.lines, {{"detail", "`" + c.callee + "()` forks a process on forward's path"}},
                    "nothing waits for the child before forward returns");
      return;
    }
    if (c.resolved == "subprocess.Popen") {
      if (!joined)
        sink.report(c.lines, {{"detail", "`subprocess.Popen` starts a process on forward's path"}},
                    "not waited for before forward returns");
      return;
    }
    if (workerClass && !semantic::workerStarted(reach, c, handle))
      return;
    if (isTask(c)) {
      // A task runs on the current loop, and an `await` (not a fact) may wait for it: review.
      if (!joined)
        sink.report(c.lines, {{"detail", "`" + c.callee + "` schedules an asyncio task on forward's path"}},
                    "whether anything awaits it before forward returns is not known statically", Confidence::Low);
      return;
    }
    const Verdict v = judgeTarget(reach, semantic::workerTarget(reach, c, classes), joined);
    const std::string starts = among(kAsync, c.resolved) || among(kAsync, c.method)
                                   ? "` hands a coroutine to an event loop in another thread"
                                   : "` starts a thread or process on forward's path";
    if (v.report)
      sink.report(c.lines, {{"detail", "`" + c.callee + starts + " that " + v.why}}, std::string(kUnjoined),
                  v.confidence);
  }

  static bool isTask(const py::Call &c) {
    return c.resolved == "asyncio.create_task" || c.resolved == "asyncio.ensure_future" ||
           (c.method == "create_task" && !c.receiver.empty());
  }

  static bool submitsToPool(const ForwardReach &reach, const py::Call &c) {
    return c.method == "run_in_executor" || reach.boundToCall(c.receiver, c.function, asVector(kPools)) ||
           c.receiver.find("Executor(") != std::string::npos || c.receiver.find("Pool(") != std::string::npos;
  }

  static bool poolIsContext(const ForwardReach &reach, const py::Call &c) {
    for (const py::Assignment &a : reach.python().assignments)
      if (a.target == c.receiver && a.op == "with" && among(kPools, a.value.resolved))
        return true;
    return false;
  }

  // A worker started outside forward (at import, in __init__) whose target does work, and a
  // forward that hands it inputs: through a queue, pipe or event, or through a container or
  // attribute the worker polls.
  static void checkFedWorkers(const ForwardReach &reach, const std::vector<std::string> &classes, FindingSink &sink) {
    std::vector<std::pair<std::string, std::string>> workers; // function, "worker `f` started at line N"
    for (const py::Call &c : reach.python().calls) {
      const bool workerClass = std::find(classes.begin(), classes.end(), c.resolved) != classes.end();
      if (reach.reached(c.function) || !(among(kThreads, c.resolved) || workerClass))
        continue;
      const std::string fn = semantic::workerTarget(reach, c, classes).function;
      if (!fn.empty() && reach.doesWork(fn))
        workers.emplace_back(fn, "worker `" + fn + "` started at line " + std::to_string(c.lines.begin));
    }
    if (workers.empty())
      return;
    std::set<unsigned> reported;
    for (const py::Call &c : reach.python().calls) {
      if (!reach.reached(c.function) || !among(kFeed, c.method) || c.receiver.empty())
        continue;
      if (!reach.boundToCall(c.receiver, c.function, asVector(kQueues)) || waitsAfter(reach, c.function, c.lines))
        continue;
      sink.report(c.lines, {{"detail", "`" + c.callee + "` feeds a background " + workers.front().second}},
                  "the worker launches work outside the call that is timed");
      reported.insert(c.lines.begin);
    }
    for (const auto &[fn, where] : workers)
      for (const semantic::SharedFeed &feed : semantic::sharedFeeds(reach, fn)) {
        if (!reported.insert(feed.lines.begin).second || waitsAfter(reach, feed.function, feed.lines))
          continue;
        sink.report(feed.lines, {{"detail", feed.what + " hands forward's data to a polling " + where}},
                    "the worker reads it and launches work after forward has returned");
      }
  }

  /// After handing work over, forward blocks on the worker's answer (`done.wait()`,
  /// `results.get()`): the work stays inside the timed call.
  static bool waitsAfter(const ForwardReach &reach, const std::string &fn, LineRange fed) {
    for (const py::Call *c : reach.callsWithin(fn))
      if (c->lines.begin > fed.end && (c->method == "wait" || c->method == "get" || c->method == "join" ||
                                       c->method == "recv" || c->method == "result") &&
          !c->receiver.empty() && reach.boundToCall(c->receiver, c->function, asVector(kQueues)))
        return true;
    return false;
  }

  static void checkCxx(const Facts &f, const ForwardReach &reach, FindingSink &sink) {
    for (std::size_t e : reach.reachedExports()) {
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
