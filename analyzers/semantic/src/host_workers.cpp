#include "kbaudit/semantic/host_workers.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <set>

namespace kbaudit::semantic {

using pytext::classOf;
using pytext::startsWith;

namespace {

constexpr std::string_view kWorkerBases[] = {"threading.Thread", "multiprocessing.Process",
                                             "multiprocessing.context.Process", "torch.multiprocessing.Process"};
constexpr std::string_view kJoins[] = {"join", "result", "wait", "communicate", "shutdown", "get", "exception"};
constexpr std::string_view kWaitAll[] = {"concurrent.futures.wait", "concurrent.futures.as_completed",
                                         "asyncio.gather", "asyncio.wait", "multiprocessing.connection.wait"};
// Methods that put something into a container or wake a waiter.
constexpr std::string_view kMutators[] = {"append", "appendleft", "extend", "insert", "put", "put_nowait", "send",
                                          "set", "update", "add", "setdefault", "__setitem__", "notify", "notify_all",
                                          "release"};

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

bool within(LineRange outer, LineRange inner) {
  return outer.valid() && outer.begin <= inner.begin && inner.end <= outer.end;
}

bool onHandle(const py::Call &c, const std::string &handle) {
  return c.receiver == handle || pytext::mentionsIdentifier(c.receiver, handle);
}

template <std::size_t N> std::vector<std::string_view> asVector(const std::string_view (&set)[N]) {
  return {std::begin(set), std::end(set)};
}

} // namespace

std::vector<std::string> workerClasses(const py::PythonFacts &py) {
  std::vector<std::string> out;
  for (const py::Class &c : py.classes)
    if (std::any_of(c.bases.begin(), c.bases.end(), [](const std::string &b) { return among(kWorkerBases, b); }))
      out.push_back(c.name);
  return out;
}

WorkerTarget workerTarget(const ForwardReach &reach, const py::Call &c, const std::vector<std::string> &classes) {
  WorkerTarget t;
  if (std::find(classes.begin(), classes.end(), c.resolved) != classes.end()) {
    if (reach.python().findFunction(c.resolved + ".run")) {
      t.function = c.resolved + ".run";
      return t;
    }
  }
  const py::Argument *a = c.keywordArg("target");
  if (!a && (c.resolved == "threading.Timer" || c.resolved == "_thread.start_new_thread" ||
             c.resolved == "torch.multiprocessing.spawn" || c.resolved == "asyncio.to_thread" ||
             c.resolved == "asyncio.run_coroutine_threadsafe" || c.method == "call_soon_threadsafe"))
    a = argumentOf(c, c.resolved == "threading.Timer" ? 1 : 0, "function");
  if (!a)
    return t;
  t.expr = &a->value;
  // A coroutine object `_fill(out, x)` runs `_fill`.
  t.function = a->value.kind == py::ExprKind::Call && c.resolved == "asyncio.run_coroutine_threadsafe"
                   ? reach.resolveCallableName(a->value.resolved, c.function)
                   : reach.resolveCallable(a->value, c.function);
  return t;
}

std::string handleOf(const ForwardReach &reach, const py::Call &c) {
  for (const py::Assignment &a : reach.python().assignments) {
    if (a.function != c.function)
      continue;
    if (a.lines.begin == c.lines.begin && a.value.resolved == c.resolved)
      return a.op == "with" ? std::string("with") : a.target;
    // `futs = [pool.submit(f, x) for x in xs]`: the list holds the call's results.
    const bool collection = a.value.kind == py::ExprKind::List || a.value.kind == py::ExprKind::Tuple ||
                            a.value.kind == py::ExprKind::Other;
    if (collection && a.op == "=" && within(a.value.lines, c.lines) && reads(a.value, c.callee))
      return a.target;
  }
  return {};
}

bool joinedIn(const ForwardReach &reach, const std::string &fn, const std::string &handle) {
  if (handle.empty())
    return false;
  const std::vector<const py::Call *> calls = reach.callsWithin(fn);
  for (const py::Call *c : calls) {
    if (among(kJoins, c->method) && onHandle(*c, handle))
      return true;
    if (among(kWaitAll, c->resolved))
      for (const py::Argument &a : c->args)
        if (reads(a.value, handle))
          return true;
  }
  // `for f in futs: f.result()` and `[f.result() for f in futs]`.
  for (const py::LoopBinding &loop : reach.python().loops) {
    if (loop.function != fn || !reads(loop.iterable, handle))
      continue;
    for (const py::Call *c : calls)
      if (within(loop.lines, c->lines) && among(kJoins, c->method))
        for (const std::string &item : loop.targets)
          if (onHandle(*c, item))
            return true;
  }
  return false;
}

bool workerStarted(const ForwardReach &reach, const py::Call &c, const std::string &handle) {
  for (const py::Call *s : reach.callsIn(c.function))
    if (s->method == "start" &&
        ((s->lines.begin == c.lines.begin && startsWith(s->receiver, c.callee + "(")) ||
         (!handle.empty() && s->receiver == handle)))
      return true;
  for (const py::Call *s : reach.callsIn(c.resolved + ".__init__"))
    if (s->callee == "self.start")
      return true;
  return false;
}

std::vector<SharedFeed> sharedFeeds(const ForwardReach &reach, const std::string &worker) {
  std::vector<SharedFeed> out;
  const py::PythonFacts &py = reach.python();
  const py::Function *w = py.findFunction(worker);
  if (!w)
    return out;
  // Module-level names the worker reads, and `self` attributes it reads when it is a method.
  std::set<std::string> shared;
  for (const py::Assignment &a : py.assignments)
    if (a.function.empty() && a.kind == py::Assignment::TargetKind::Name &&
        std::binary_search(w->reads.begin(), w->reads.end(), a.target))
      shared.insert(a.target);
  const std::string cls = classOf(worker);
  if (!cls.empty())
    for (const py::SelfAccess &s : py.selfAccesses)
      if (!s.write && s.function == worker)
        shared.insert("self." + s.attribute);
  if (shared.empty())
    return out;
  for (const py::Call &c : py.calls)
    if (reach.reached(c.function) && c.function != worker && among(kMutators, c.method) && shared.count(c.receiver) &&
        (!startsWith(c.receiver, "self.") || classOf(c.function) == cls))
      out.push_back({c.lines, "`" + c.callee + "`", c.function});
  for (const py::Assignment &a : py.assignments) {
    if (!reach.reached(a.function) || a.function == worker)
      continue;
    const std::string head = a.target.substr(0, a.target.find_first_of("[."));
    const bool container = a.kind == py::Assignment::TargetKind::Subscript && shared.count(head);
    const bool selfAttr = a.kind == py::Assignment::TargetKind::SelfAttribute && shared.count(a.target) &&
                          classOf(a.function) == cls;
    if (container || selfAttr)
      out.push_back({a.lines, "`" + a.target + "` written", a.function});
  }
  return out;
}

bool startsThreadOrProcess(const py::Call &c) { return among(kThreads, c.resolved); }

bool handsToLoopThread(const py::Call &c) { return among(kAsync, c.resolved) || among(kAsync, c.method); }

bool schedulesTask(const py::Call &c) {
  return c.resolved == "asyncio.create_task" || c.resolved == "asyncio.ensure_future" ||
         (c.method == "create_task" && !c.receiver.empty());
}

bool submitsToPool(const ForwardReach &reach, const py::Call &c) {
  if (!among(kSubmit, c.method) || c.receiver.empty())
    return false;
  return c.method == "run_in_executor" || reach.boundToCall(c.receiver, c.function, asVector(kPools)) ||
         c.receiver.find("Executor(") != std::string::npos || c.receiver.find("Pool(") != std::string::npos;
}

bool poolIsContext(const ForwardReach &reach, const py::Call &c) {
  for (const py::Assignment &a : reach.python().assignments)
    if (a.target == c.receiver && a.op == "with" && among(kPools, a.value.resolved))
      return true;
  return false;
}

bool waitsForChildren(const ForwardReach &reach, const std::string &fn) {
  for (const py::Call *c : reach.callsWithin(fn))
    if (c->resolved == "os.waitpid" || c->resolved == "os.wait" || c->resolved == "os.wait4" ||
        c->resolved == "os.waitid")
      return true;
  return false;
}

bool feedsQueue(const ForwardReach &reach, const py::Call &c) {
  return among(kFeed, c.method) && !c.receiver.empty() &&
         reach.boundToCall(c.receiver, c.function, asVector(kQueues));
}

bool waitsAfter(const ForwardReach &reach, const std::string &fn, LineRange fed) {
  for (const py::Call *c : reach.callsWithin(fn))
    if (c->lines.begin > fed.end &&
        (c->method == "wait" || c->method == "get" || c->method == "join" || c->method == "recv" ||
         c->method == "result") &&
        !c->receiver.empty() && reach.boundToCall(c->receiver, c->function, asVector(kQueues)))
      return true;
  return false;
}

} // namespace kbaudit::semantic
