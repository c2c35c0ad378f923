#pragma once

// Per-run isolation: each job runs in a forked worker process with a wall-clock limit and an
// address-space limit, so a run that crashes a front end (a stack overflow in Clang, a
// double free in a parser), hangs or exhausts memory ends as its own failure and the batch
// goes on. The parent stays single-threaded, so forking it is safe.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace kbaudit::cli {

struct WorkerLimits {
  /// Wall-clock time one job may take before its worker is killed.
  std::chrono::seconds wall{300};
  /// Soft RLIMIT_AS of the worker (0: none). Soft, so that a sandbox the job starts may set
  /// its own limit for its child.
  std::uint64_t memoryBytes = 8ull << 30;
  /// Stack of the thread the job runs on: deep but legal nesting in a submission must not
  /// overflow a recursive descent (Clang's parser, the tree walkers).
  std::size_t stackBytes = 512u << 20;
  /// False: run the jobs one after another in this process (audit --in-process, for a
  /// debugger and for measuring what isolation costs); nothing is then isolated or limited.
  bool isolate = true;
};

struct WorkerOutcome {
  enum class Status {
    Ok,          ///< the job returned; `payload` is what it returned
    Crashed,     ///< killed by a signal (SIGSEGV, SIGABRT, ...)
    TimedOut,    ///< ran past the wall-clock limit and was killed
    OutOfMemory, ///< an allocation failed under the memory limit
    Failed,      ///< the job threw, or the worker could not be started
  };
  Status status = Status::Failed;
  std::string payload;
  /// For every status but Ok: what happened, in words ("killed by signal 11 (Segmentation fault)").
  std::string reason;
};

/// Runs `job(i)` for every i in [0, count) in worker processes, at most `jobs` at a time, and
/// calls `done(i, outcome)` in the parent as each finishes (in completion order). `job` runs
/// in the child only: it must not write to the parent's streams, only return its payload.
void runInWorkers(std::size_t count, unsigned jobs, const WorkerLimits &limits,
                  const std::function<std::string(std::size_t)> &job,
                  const std::function<void(std::size_t, WorkerOutcome)> &done);

} // namespace kbaudit::cli
