// TIME003 host-concurrency: forward hands its work to threads or processes (or feeds
// workers started at import), so the work runs outside the call the harness times.

#include "all_checks.h"
#include "time_common.h"
#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/host_workers.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>

namespace kbaudit::rules {
namespace {

using timing::ForwardReach;

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
    v.why = t.function.empty() ? (t.expr ? "runs `" + semantic::quote(*t.expr) + "` (not resolved to a function here)"
                                         : "runs a target kbaudit cannot resolve")
                               : "runs `" + t.function + "`, which launches work";
    if (t.function.empty())
      v.confidence = Confidence::Low;
    return v;
  }

  static constexpr std::string_view kUnjoined = "nothing waits for it before forward returns";

  static void checkReached(const ForwardReach &reach, const std::vector<std::string> &classes, FindingSink &sink) {
    for (const py::Call &c : reach.python().calls) {
      if (!reach.reached(c.function))
        continue;
      const bool workerClass = std::find(classes.begin(), classes.end(), c.resolved) != classes.end();
      if (semantic::startsThreadOrProcess(c) || workerClass || semantic::handsToLoopThread(c) ||
          semantic::schedulesTask(c)) {
        checkStart(reach, classes, c, workerClass, sink);
        continue;
      }
      if (semantic::submitsToPool(reach, c)) {
        const py::Argument *t = timing::argumentOf(c, c.method == "run_in_executor" ? 1 : 0, "fn");
        const std::string handle = semantic::handleOf(reach, c);
        const bool joined = handle == "with" || semantic::joinedIn(reach, c.function, handle) ||
                            semantic::poolIsContext(reach, c) || c.method == "map" || c.method == "starmap" ||
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
      if (!semantic::waitsForChildren(reach, c.function))
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
    if (semantic::schedulesTask(c)) {
      // A task runs on the current loop, and an `await` (not a fact) may wait for it: review.
      if (!joined)
        sink.report(c.lines, {{"detail", "`" + c.callee + "` schedules an asyncio task on forward's path"}},
                    "whether anything awaits it before forward returns is not known statically", Confidence::Low);
      return;
    }
    const Verdict v = judgeTarget(reach, semantic::workerTarget(reach, c, classes), joined);
    const std::string starts = semantic::handsToLoopThread(c)
                                   ? "` hands a coroutine to an event loop in another thread"
                                   : "` starts a thread or process on forward's path";
    if (v.report)
      sink.report(c.lines, {{"detail", "`" + c.callee + starts + " that " + v.why}}, std::string(kUnjoined),
                  v.confidence);
  }

  // A worker started outside forward (at import, in __init__) whose target does work, and a
  // forward that hands it inputs: through a queue, pipe or event, or through a container or
  // attribute the worker polls.
  static void checkFedWorkers(const ForwardReach &reach, const std::vector<std::string> &classes, FindingSink &sink) {
    std::vector<std::pair<std::string, std::string>> workers; // function, "worker `f` started at line N"
    for (const py::Call &c : reach.python().calls) {
      const bool workerClass = std::find(classes.begin(), classes.end(), c.resolved) != classes.end();
      if (reach.reached(c.function) || !(semantic::startsThreadOrProcess(c) || workerClass))
        continue;
      const std::string fn = semantic::workerTarget(reach, c, classes).function;
      if (!fn.empty() && reach.doesWork(fn))
        workers.emplace_back(fn, "worker `" + fn + "` started at line " + std::to_string(c.lines.begin));
    }
    if (workers.empty())
      return;
    std::set<unsigned> reported;
    for (const py::Call &c : reach.python().calls) {
      if (!reach.reached(c.function) || !semantic::feedsQueue(reach, c) || semantic::waitsAfter(reach, c.function, c.lines))
        continue;
      sink.report(c.lines, {{"detail", "`" + c.callee + "` feeds a background " + workers.front().second}},
                  "the worker launches work outside the call that is timed");
      reported.insert(c.lines.begin);
    }
    for (const auto &[fn, where] : workers)
      for (const semantic::SharedFeed &feed : semantic::sharedFeeds(reach, fn)) {
        if (!reported.insert(feed.lines.begin).second || semantic::waitsAfter(reach, feed.function, feed.lines))
          continue;
        sink.report(feed.lines, {{"detail", feed.what + " hands forward's data to a polling " + where}},
                    "the worker reads it and launches work after forward has returned");
      }
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
