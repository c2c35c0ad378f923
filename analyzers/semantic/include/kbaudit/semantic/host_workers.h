#pragma once

// Host workers, for TIME003: what a thread, process or pool runs, whether the
// function that started it waits for it, and which shared state a worker started elsewhere
// polls, so a handoff through a list or a dict counts like one through a queue.

#include "kbaudit/semantic/forward_reach.h"

#include <string>
#include <vector>

namespace kbaudit::semantic {

/// Local classes that subclass threading.Thread or a multiprocessing Process: instantiating
/// one and calling start() runs its `run` method concurrently.
std::vector<std::string> workerClasses(const py::PythonFacts &py);

/// The local function a worker-starting call runs: `target=` (or Timer's / start_new_thread's
/// positional function), `run` of a worker class, a coroutine `asyncio.run_coroutine_threadsafe`
/// schedules. "" when it is not a function of this file; `expr` (may be null) says what was
/// passed.
struct WorkerTarget {
  std::string function;
  const py::Expr *expr = nullptr;
};
WorkerTarget workerTarget(const ForwardReach &reach, const py::Call &c, const std::vector<std::string> &workerClasses);

/// The name the call's result is kept under in its function: `t = Thread(...)`, `with Pool() as
/// p`, or a list built around the call (`futs = [pool.submit(...) for ...]`). "with" for a
/// context-managed resource, "" when the result is dropped.
std::string handleOf(const ForwardReach &reach, const py::Call &c);

/// `fn` waits for what `handle` holds before it returns: join/result/wait/communicate/get on
/// it, on each item of it in a loop or comprehension, or concurrent.futures.wait /
/// as_completed / asyncio.gather over it.
bool joinedIn(const ForwardReach &reach, const std::string &fn, const std::string &handle);

/// A worker class instantiated by `c` is started: `.start()` on the new object (chained or
/// through its handle), or start() called from the class's own __init__.
bool workerStarted(const ForwardReach &reach, const py::Call &c, const std::string &handle);

/// A place where forward hands state to a worker started elsewhere that polls it: a module
/// container or a `self` attribute the worker reads, mutated or written on forward's path.
struct SharedFeed {
  LineRange lines;
  std::string what;     ///< "`_pending.append`", "`self.job` written"
  std::string function; ///< the function that hands the data over
};
std::vector<SharedFeed> sharedFeeds(const ForwardReach &reach, const std::string &worker);

/// A call that starts a thread or process (`threading.Thread`, `Timer`, `multiprocessing.Process`,
/// `os.fork`, `subprocess.Popen`, `asyncio.to_thread`, ...), by its resolved callee.
bool startsThreadOrProcess(const py::Call &c);

/// A call that hands a coroutine or callback to an event loop running in another thread
/// (`asyncio.run_coroutine_threadsafe`, `loop.call_soon_threadsafe`).
bool handsToLoopThread(const py::Call &c);

/// `asyncio.create_task`, `ensure_future`, `loop.create_task`: a task on the current loop.
bool schedulesTask(const py::Call &c);

/// `pool.submit/map/apply_async/...` or `loop.run_in_executor` on a receiver bound to (or
/// built as) a thread or process pool.
bool submitsToPool(const ForwardReach &reach, const py::Call &c);

/// The pool `c` submits to is a `with` resource of its function: leaving the block waits.
bool poolIsContext(const ForwardReach &reach, const py::Call &c);

/// `fn` (or a def nested in it) waits for child processes (`os.waitpid`, `os.wait`, ...).
bool waitsForChildren(const ForwardReach &reach, const std::string &fn);

/// `c` puts something into a queue, pipe or event (`q.put(x)`, `conn.send(x)`, `ev.set()`)
/// whose receiver is bound to one.
bool feedsQueue(const ForwardReach &reach, const py::Call &c);

/// After lines `fed`, `fn` blocks on a queue, pipe or event (`done.wait()`, `results.get()`):
/// work handed over stays inside the call.
bool waitsAfter(const ForwardReach &reach, const std::string &fn, LineRange fed);

} // namespace kbaudit::semantic
