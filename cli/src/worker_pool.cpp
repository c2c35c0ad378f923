#include "worker_pool.h"

#include "kbaudit/runtime/lifetime.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <exception>
#include <new>
#include <optional>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kbaudit::cli {

namespace {

using Clock = std::chrono::steady_clock;

// Exit codes a worker uses for what it caught itself (signals speak for themselves).
constexpr int kWorkerThrew = 70;
constexpr int kWorkerOutOfMemory = 71;

bool writeAll(int fd, const std::string &data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

struct ThreadJob {
  const std::function<std::string(std::size_t)> *job;
  std::size_t index;
  std::string payload;
  int exitCode = 0;
};

void *runJob(void *arg) {
  auto *t = static_cast<ThreadJob *>(arg);
  try {
    t->payload = (*t->job)(t->index);
  } catch (const std::bad_alloc &) {
    t->payload = "an allocation failed";
    t->exitCode = kWorkerOutOfMemory;
  } catch (const std::exception &e) {
    t->payload = e.what();
    t->exitCode = kWorkerThrew;
  } catch (...) {
    t->payload = "an unknown exception";
    t->exitCode = kWorkerThrew;
  }
  return nullptr;
}

/// One job on a thread with a big stack; falls back to this thread when none can be made.
ThreadJob runOnBigStack(const std::function<std::string(std::size_t)> &job, std::size_t index,
                        std::size_t stackBytes) {
  ThreadJob t{&job, index, {}, 0};
  pthread_attr_t attr;
  pthread_t thread;
  bool ran = false;
  if (::pthread_attr_init(&attr) == 0) {
    ::pthread_attr_setstacksize(&attr, stackBytes);
    ran = ::pthread_create(&thread, &attr, runJob, &t) == 0 && ::pthread_join(thread, nullptr) == 0;
    ::pthread_attr_destroy(&attr);
  }
  if (!ran)
    runJob(&t);
  return t;
}

bool readExactly(int fd, void *data, std::size_t size) {
  auto *p = static_cast<char *>(data);
  while (size) {
    const ssize_t n = ::read(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// A worker serves jobs until its request pipe closes: one process per job would throw away
// what the front ends build once per process (Clang's precompiled preludes). Each answer is
// an 8-byte length, a 1-byte exit code (0, kWorkerThrew, kWorkerOutOfMemory), the payload.
[[noreturn]] void workerMain(int requests, int answers, const WorkerLimits &limits,
                             const std::function<std::string(std::size_t)> &job) {
  if (limits.memoryBytes) {
    rlimit rl{};
    if (::getrlimit(RLIMIT_AS, &rl) == 0) {
      rl.rlim_cur = std::min<rlim_t>(limits.memoryBytes, rl.rlim_max);
      ::setrlimit(RLIMIT_AS, &rl);
    }
  }
  std::uint64_t index = 0;
  while (readExactly(requests, &index, sizeof index)) {
    const ThreadJob t = runOnBigStack(job, static_cast<std::size_t>(index), limits.stackBytes);
    std::string message(sizeof(std::uint64_t) + 1, '\0');
    const std::uint64_t size = t.payload.size();
    std::memcpy(message.data(), &size, sizeof size);
    message[sizeof size] = static_cast<char>(t.exitCode);
    message += t.payload;
    if (!writeAll(answers, message))
      ::_exit(kWorkerThrew);
    if (t.exitCode != 0)
      break; // after a failed job the process may be in any state: a fresh worker takes over
  }
  // _exit: no atexit handlers or static destructors of the parent's image run in the worker.
  ::_exit(0);
}

struct Worker {
  pid_t pid = -1;
  int requests = -1; ///< parent writes job indices
  int answers = -1;  ///< parent reads answers
  bool busy = false;
  std::size_t index = 0;
  Clock::time_point deadline;
  std::string buffer;
  bool eof = false;
};

WorkerOutcome failure(WorkerOutcome::Status status, std::string reason) {
  return WorkerOutcome{status, {}, std::move(reason)};
}

WorkerOutcome classifyDeath(int status, const WorkerLimits &limits, bool timedOut) {
  if (timedOut)
    return failure(WorkerOutcome::Status::TimedOut,
                   "the analysis ran past its limit of " + std::to_string(limits.wall.count()) + " s and was stopped");
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    std::string reason = "the analysis crashed: killed by signal " + std::to_string(sig) + " (" + ::strsignal(sig) + ")";
    if (sig == SIGABRT || sig == SIGKILL)
      reason += "; an abort here is often an allocation refused under the " +
                std::to_string(limits.memoryBytes >> 20) + " MiB memory limit";
    return failure(WorkerOutcome::Status::Crashed, std::move(reason));
  }
  return failure(WorkerOutcome::Status::Failed, "internal error: the analysis exited with status " +
                                                    std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                                                    " before it answered");
}

/// A complete answer at the front of the worker's buffer, consumed.
std::optional<WorkerOutcome> takeAnswer(Worker &w, const WorkerLimits &limits) {
  constexpr std::size_t header = sizeof(std::uint64_t) + 1;
  if (w.buffer.size() < header)
    return std::nullopt;
  std::uint64_t size = 0;
  std::memcpy(&size, w.buffer.data(), sizeof size);
  if (w.buffer.size() < header + size)
    return std::nullopt;
  const int code = static_cast<unsigned char>(w.buffer[sizeof size]);
  std::string payload = w.buffer.substr(header, size);
  w.buffer.erase(0, header + size);
  if (code == 0)
    return WorkerOutcome{WorkerOutcome::Status::Ok, std::move(payload), {}};
  if (code == kWorkerOutOfMemory)
    return failure(WorkerOutcome::Status::OutOfMemory,
                   "the analysis ran out of memory (limit " + std::to_string(limits.memoryBytes >> 20) + " MiB)");
  return failure(WorkerOutcome::Status::Failed, "internal error: " + payload);
}

void closeWorker(Worker &w, bool kill) {
  if (w.requests >= 0)
    ::close(w.requests);
  if (kill && w.pid > 0)
    ::kill(w.pid, SIGKILL);
  int status = 0;
  if (w.pid > 0)
    while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
    }
  if (w.answers >= 0)
    ::close(w.answers);
  w = Worker{};
}

} // namespace

void runInWorkers(std::size_t count, unsigned jobs, const WorkerLimits &limits,
                  const std::function<std::string(std::size_t)> &job,
                  const std::function<void(std::size_t, WorkerOutcome)> &done) {
  if (count == 0)
    return;
  if (!limits.isolate) {
    for (std::size_t i = 0; i < count; ++i) {
      const ThreadJob t = runOnBigStack(job, i, limits.stackBytes);
      done(i, t.exitCode == 0 ? WorkerOutcome{WorkerOutcome::Status::Ok, t.payload, {}}
                              : failure(WorkerOutcome::Status::Failed, "internal error: " + t.payload));
    }
    return;
  }
  std::vector<Worker> workers(std::min<std::size_t>(std::max(1u, jobs), count));
  std::size_t next = 0;
  std::size_t finished = 0;

  const auto start = [&](Worker &w) {
    int req[2], ans[2];
    if (::pipe2(req, O_CLOEXEC) != 0)
      return false;
    if (::pipe2(ans, O_CLOEXEC) != 0) {
      ::close(req[0]);
      ::close(req[1]);
      return false;
    }
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
      for (int fd : {req[0], req[1], ans[0], ans[1]})
        ::close(fd);
      return false;
    }
    if (pid == 0) {
      // A worker ends with kbaudit, however kbaudit ends (kill -9 too): the parent-death
      // SIGTERM runs the termination cleanup, which kills the probe it may be running and
      // removes that probe's private copy of the solution.
      runtime::lifetime::cleanUpOnTermination();
      runtime::lifetime::dieWithParent(parent, SIGTERM);
      ::close(req[1]);
      ::close(ans[0]);
      for (const Worker &other : workers)
        for (int fd : {other.requests, other.answers})
          if (fd >= 0)
            ::close(fd);
      workerMain(req[0], ans[1], limits, job);
    }
    ::close(req[0]);
    ::close(ans[1]);
    w.pid = pid;
    w.requests = req[1];
    w.answers = ans[0];
    return true;
  };
  const auto dispatch = [&](Worker &w) {
    if (next >= count)
      return;
    if (w.pid < 0 && !start(w)) {
      const std::size_t index = next++;
      ++finished;
      done(index, failure(WorkerOutcome::Status::Failed, std::string("cannot start a worker: ") + std::strerror(errno)));
      return;
    }
    const std::uint64_t index = next;
    if (!writeAll(w.requests, std::string(reinterpret_cast<const char *>(&index), sizeof index))) {
      closeWorker(w, true);
      return; // the next round starts a fresh worker for it
    }
    ++next;
    w.busy = true;
    w.index = static_cast<std::size_t>(index);
    w.deadline = Clock::now() + limits.wall;
  };

  while (finished < count) {
    for (Worker &w : workers)
      if (!w.busy)
        dispatch(w);
    if (finished >= count)
      break;
    std::vector<pollfd> pfds;
    std::vector<Worker *> polled;
    Clock::time_point earliest = Clock::time_point::max();
    for (Worker &w : workers)
      if (w.busy) {
        pfds.push_back(pollfd{w.answers, POLLIN, 0});
        polled.push_back(&w);
        earliest = std::min(earliest, w.deadline);
      }
    if (pfds.empty())
      continue; // every dispatch failed; the loop retries with fresh workers
    const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(earliest - Clock::now()).count();
    if (::poll(pfds.data(), pfds.size(), static_cast<int>(std::clamp<long long>(wait, 0, 60'000))) < 0 &&
        errno != EINTR)
      break;
    for (std::size_t k = 0; k < polled.size(); ++k) {
      Worker &w = *polled[k];
      if (pfds[k].revents & (POLLIN | POLLHUP | POLLERR)) {
        char buf[65536];
        const ssize_t n = ::read(w.answers, buf, sizeof buf);
        if (n > 0)
          w.buffer.append(buf, static_cast<std::size_t>(n));
        else if (n == 0 || (errno != EINTR && errno != EAGAIN))
          w.eof = true;
      }
      if (std::optional<WorkerOutcome> answer = takeAnswer(w, limits)) {
        const bool ok = answer->status == WorkerOutcome::Status::Ok;
        w.busy = false;
        ++finished;
        if (!ok)
          closeWorker(w, true); // it exits after a failed job; reap it
        done(w.index, std::move(*answer));
        continue;
      }
      const bool timedOut = !w.eof && Clock::now() >= w.deadline;
      if (!w.eof && !timedOut)
        continue;
      const std::size_t index = w.index;
      const pid_t pid = w.pid;
      if (timedOut)
        ::kill(pid, SIGKILL);
      ::close(w.requests);
      int status = 0;
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      ::close(w.answers);
      w = Worker{};
      ++finished;
      done(index, classifyDeath(status, limits, timedOut));
    }
  }
  for (Worker &w : workers)
    if (w.pid > 0)
      closeWorker(w, false); // EOF on its request pipe: it exits
}

} // namespace kbaudit::cli
