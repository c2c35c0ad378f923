// POSIX implementation of the sandbox: the process, its descriptors, limits and output. The
// child side only calls async-signal-safe functions between fork and exec; everything it needs
// is prepared before the fork, its containment included (containment.h).

#include "kbaudit/runtime/sandbox.h"

#include "containment.h"
#include "kbaudit/runtime/lifetime.h"

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kbaudit::runtime {

namespace {

using Clock = std::chrono::steady_clock;

struct Pipe {
  int read = -1, write = -1;
  bool open() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
      return false;
    read = fds[0];
    write = fds[1];
    return true;
  }
  void closeBoth() {
    if (read >= 0)
      ::close(read);
    if (write >= 0)
      ::close(write);
    read = write = -1;
  }
};

/// Keeps the last `cap` bytes of a stream: a flood of output costs bounded memory.
struct Tail {
  std::string data;
  std::size_t cap;
  bool truncated = false;
  void append(const char *p, std::size_t n) {
    data.append(p, n);
    if (data.size() > 2 * cap) {
      data.erase(0, data.size() - cap);
      truncated = true;
    }
  }
  std::string finish() {
    if (data.size() > cap) {
      data.erase(0, data.size() - cap);
      truncated = true;
    }
    return data;
  }
};

void setLimit(int resource, rlim_t value) {
  struct rlimit rl {value, value};
  ::setrlimit(resource, &rl);
}

/// Tasks (processes and threads: RLIMIT_NPROC counts both) that `uid` runs now.
unsigned long tasksOf(uid_t uid) {
  unsigned long n = 0;
  DIR *proc = ::opendir("/proc");
  if (!proc)
    return 0;
  while (const dirent *e = ::readdir(proc)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9')
      continue;
    const std::string task = std::string("/proc/") + e->d_name + "/task";
    struct stat st {};
    if (::stat(task.c_str(), &st) != 0 || st.st_uid != uid)
      continue;
    if (DIR *t = ::opendir(task.c_str())) {
      while (const dirent *te = ::readdir(t))
        n += te->d_name[0] != '.';
      ::closedir(t);
    }
  }
  ::closedir(proc);
  return n;
}

/// close_range(2) where the kernel has it (Linux 5.9+); -1 (fall back to close loops) elsewhere.
int closeRange(unsigned lo, unsigned hi) {
#ifdef SYS_close_range
  return static_cast<int>(::syscall(SYS_close_range, lo, hi, 0));
#else
  (void)lo, (void)hi;
  return -1;
#endif
}

/// Closes every descriptor from `from` up, except `keep1` and `keep2` (-1: none; async-signal-safe).
void closeFrom(int from, int keep1, int keep2) {
  int lo = from;
  if (keep1 < 0)
    keep1 = keep2;
  if (keep2 < 0)
    keep2 = keep1;
  const int keeps[2] = {std::min(keep1, keep2), std::max(keep1, keep2)};
  for (int k : keeps) {
    if (k < lo)
      continue;
    if (k > lo && closeRange(static_cast<unsigned>(lo), static_cast<unsigned>(k - 1)) != 0)
      for (int fd = lo; fd < k; ++fd)
        ::close(fd);
    lo = k + 1;
  }
  if (closeRange(static_cast<unsigned>(lo), ~0u) != 0) {
    struct rlimit rl {};
    const int top = ::getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 65536 ? static_cast<int>(rl.rlim_cur) : 65536;
    for (int fd = lo; fd < top; ++fd)
      ::close(fd);
  }
}

[[noreturn]] void childFail(int errFd, const char *what, const char *detail = nullptr) {
  const int e = errno;
  (void)!::write(errFd, what, std::strlen(what));
  if (detail) {
    (void)!::write(errFd, " (", 2);
    (void)!::write(errFd, detail, std::strlen(detail));
    (void)!::write(errFd, ")", 1);
  }
  (void)!::write(errFd, ": ", 2);
  const char *msg = std::strerror(e);
  (void)!::write(errFd, msg, std::strlen(msg));
  ::_exit(127);
}

/// The first process of the child's PID namespace, after the view is built: it starts the
/// command in a child of its own, reaps whatever ends up orphaned below it, and hands the
/// command's wait status to kbaudit on `report` before it exits, which ends every process left
/// in the namespace. (The command itself is not the first process: that one ignores signals it
/// has no handler for, so `kill -SEGV $$` or abort() would not work as anywhere else.)
[[noreturn]] void runInit(pid_t command, int report) {
  closeFrom(0, report, -1);
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(-1, &status, 0);
    if (done == command) {
      (void)!::write(report, &status, sizeof status);
      ::_exit(0);
    }
    if (done < 0 && errno != EINTR)
      ::_exit(0);
  }
}

SandboxResult runOnce(const SandboxRequest &req) {
  SandboxResult result;
  if (req.argv.empty()) {
    result.startError = "empty command";
    return result;
  }
  // exitInfo: the command's wait status, from the namespace's first process (runInit).
  Pipe in, out, err, answer, status, exitInfo;
  if (!in.open() || !out.open() || !err.open() || !answer.open() || !status.open() || !exitInfo.open()) {
    result.startError = std::string("pipe: ") + std::strerror(errno);
    for (Pipe *p : {&in, &out, &err, &answer, &status, &exitInfo})
      p->closeBoth();
    return result;
  }

  // Everything the child needs, built before fork (no allocation after it).
  std::vector<std::string> envStrings;
  for (const auto &[k, v] : req.env)
    envStrings.push_back(k + "=" + v);
  std::vector<char *> argv, envp;
  for (const std::string &a : req.argv)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  for (std::string &e : envStrings)
    envp.push_back(e.data());
  envp.push_back(nullptr);
  const std::string workdir = req.workdir.string();
  const bool dropToUid = ::geteuid() == 0 && req.uid != 0;
  // RLIMIT_NPROC counts every task of the real uid. A uid of its own starts from zero; the
  // caller's own uid already runs some (a desktop session: hundreds of threads), so the child
  // gets that many more, or it could not even start torch's threads.
  const rlim_t nproc = dropToUid ? req.limits.processes : req.limits.processes + tasksOf(::getuid());

  // Containment, planned here; the child only carries it out.
  detail::ContainmentPlan plan = detail::planContainment(req);
  // Descriptors the child gets at fixed numbers: stdin, stdout, stderr, the answer pipe and the
  // inherited ones (kbaudit's descriptor -> the child's number). Sized here: the child must not
  // allocate.
  std::vector<std::pair<int, int>> targets = {{in.read, 0}, {out.write, 1}, {err.write, 2}, {answer.write, req.answerFd}};
  for (const auto &fd : req.inheritFds)
    targets.push_back(fd);
  int top = 2;
  for (const auto &t : targets)
    top = std::max(top, t.second);
  std::vector<int> moved(targets.size(), -1);
  const auto start = Clock::now();
  const pid_t self = ::getpid();
  // With namespaces the child is made by clone(2) directly, so that it is the first process
  // of its PID namespace: when it dies, everything it started dies with it.
  const pid_t pid = plan.cloneFlags
                        ? static_cast<pid_t>(::syscall(SYS_clone, plan.cloneFlags | SIGCHLD, nullptr, nullptr, nullptr, nullptr))
                        : ::fork();
  if (pid < 0) {
    detail::releasePlan(plan);
    result.startError = std::string("fork: ") + std::strerror(errno);
    for (Pipe *p : {&in, &out, &err, &answer, &status, &exitInfo})
      p->closeBoth();
    return result;
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    // Signal dispositions and the mask are inherited through exec: start from defaults.
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    for (int sig = 1; sig < NSIG; ++sig)
      if (sig != SIGKILL && sig != SIGSTOP)
        ::signal(sig, SIG_DFL);
    // Move every descriptor we need above the ones we assign, so no dup2 below overwrites a
    // source it still needs (a pipe end can have any number in a multi-threaded parent).
    const int floorFd = top + 1;
    const int st = ::fcntl(status.write, F_DUPFD_CLOEXEC, floorFd);
    if (st < 0)
      childFail(status.write, "fcntl");
    for (std::size_t i = 0; i < targets.size(); ++i)
      if ((moved[i] = ::fcntl(targets[i].first, F_DUPFD_CLOEXEC, floorFd)) < 0)
        childFail(st, "fcntl");
    const int ruleset = plan.landlockRuleset >= 0 ? ::fcntl(plan.landlockRuleset, F_DUPFD_CLOEXEC, floorFd) : -1;
    if (plan.landlockRuleset >= 0 && ruleset < 0)
      childFail(st, "fcntl");
    const char *step = "";
    if (plan.userNamespace && detail::mapUser(plan, &step) != 0)
      childFail(st, "user namespace", step);
    if (plan.cloneFlags && detail::enterView(plan, &step) != 0)
      childFail(st, "filesystem view", step);
    if (plan.cloneFlags) {
      // This process is the namespace's init: when it dies, the kernel kills everything in the
      // namespace, so it is the one that must die with the thread that cloned it, also when
      // kbaudit is killed with SIGKILL and cannot kill the group itself. After the id mapping,
      // a change of credentials that clears the request. From inside its own PID namespace it
      // cannot see its parent (getppid() is 0), so there is no pid to compare.
      lifetime::dieWithParent(0, SIGKILL);
      const int report = ::fcntl(exitInfo.write, F_DUPFD_CLOEXEC, floorFd);
      // The raw system call, not glibc's fork(): its at-fork handlers would take locks that
      // other threads of kbaudit may have held when the child was cloned.
      const pid_t command =
          report < 0 ? -1 : static_cast<pid_t>(::syscall(SYS_clone, SIGCHLD, nullptr, nullptr, nullptr, nullptr));
      if (command < 0)
        childFail(st, "fork in the PID namespace");
      if (command > 0)
        runInit(command, report);
    }
    // The assigned descriptors (dup2 clears close-on-exec); the status pipe stays close-on-exec
    // so a successful exec closes it and the parent reads EOF.
    for (std::size_t i = 0; i < targets.size(); ++i)
      if (::dup2(moved[i], targets[i].second) < 0)
        childFail(st, "dup2");
    for (int fd = 3; fd < floorFd; ++fd) {
      bool assigned = false;
      for (const auto &t : targets)
        assigned |= t.second == fd;
      if (!assigned)
        ::close(fd);
    }
    closeFrom(floorFd, st, ruleset);
    status.write = st;
    if (::chdir(workdir.c_str()) != 0)
      childFail(status.write, "chdir");
    if (req.limits.addressSpaceBytes)
      setLimit(RLIMIT_AS, req.limits.addressSpaceBytes);
    setLimit(RLIMIT_CPU, req.limits.cpuSeconds);
    setLimit(RLIMIT_NOFILE, req.limits.openFiles);
    setLimit(RLIMIT_CORE, 0);
    setLimit(RLIMIT_FSIZE, 512ull << 20);
    if (dropToUid) {
      // RLIMIT_NPROC does not bind root; an unprivileged uid of its own makes it bind and
      // keeps the child from writing anywhere it does not own.
      // Raw system calls: glibc's setuid() asks every thread it knows of to follow, and a child
      // made by clone(2) directly still lists kbaudit's other threads, so it would wait forever.
      if (::syscall(SYS_setgroups, 0, nullptr) != 0 || ::syscall(SYS_setresgid, req.uid, req.uid, req.uid) != 0 ||
          ::syscall(SYS_setresuid, req.uid, req.uid, req.uid) != 0)
        childFail(status.write, "setuid");
    }
    setLimit(RLIMIT_NPROC, nproc);
    // Outside namespaces, after the uid change (which clears it) and before the seccomp
    // filter: the child dies with the thread that started it.
    if (!plan.cloneFlags)
      lifetime::dieWithParent(self, SIGKILL);
    if (detail::lockDown(plan, ruleset, &step) != 0)
      childFail(status.write, "containment", step);
    ::execve(argv[0], argv.data(), envp.data());
    childFail(status.write, "execve");
  }

  ::setpgid(pid, pid); // also from the parent, so killpg works even before the child runs
  // Killed by kbaudit's termination handler if kbaudit is told to end while the child runs.
  const lifetime::GuardedGroup guard(pid, dropToUid ? req.uid : 0);
  ::close(in.read);
  ::close(out.write);
  ::close(err.write);
  ::close(answer.write);
  ::close(status.write);
  ::close(exitInfo.write);
  in.read = out.write = err.write = answer.write = status.write = exitInfo.write = -1;

  // Did exec succeed? EOF on the status pipe means yes.
  std::string execError;
  char buf[65536];
  for (ssize_t n; (n = ::read(status.read, buf, sizeof buf)) > 0;)
    execError.append(buf, static_cast<std::size_t>(n));
  ::close(status.read);
  // The child has exec'd (or failed): its view lives in its own mount namespace, and the
  // staging directory and the ruleset are no longer needed here.
  detail::releasePlan(plan);

  Tail outTail{{}, req.limits.outputCapBytes}, errTail{{}, req.limits.outputCapBytes};
  bool answerTruncated = false;
  // stdin is fed from the same loop, non-blocking: a child that never reads it cannot block
  // kbaudit, and one that has exited makes the write fail with EPIPE (SIGPIPE is blocked in
  // this thread meanwhile, and a pending one is taken back before the mask is restored).
  std::size_t stdinSent = 0;
  ::fcntl(in.write, F_SETFL, ::fcntl(in.write, F_GETFL) | O_NONBLOCK);
  sigset_t pipeSet, savedMask;
  ::sigemptyset(&pipeSet);
  ::sigaddset(&pipeSet, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipeSet, &savedMask);
  const auto feedStdin = [&] {
    while (in.write >= 0 && stdinSent < req.stdinData.size()) {
      const ssize_t n = ::write(in.write, req.stdinData.data() + stdinSent, req.stdinData.size() - stdinSent);
      if (n > 0) {
        stdinSent += static_cast<std::size_t>(n);
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
      break; // EPIPE: the child is not reading any more
    }
    if (in.write >= 0) {
      ::close(in.write);
      in.write = -1;
    }
  };
  feedStdin();
  struct pollfd fds[4] = {{out.read, POLLIN, 0}, {err.read, POLLIN, 0}, {answer.read, POLLIN, 0}, {in.write, POLLOUT, 0}};
  int openStreams = 3;
  int st = 0;
  bool reaped = false;
  while (openStreams > 0) {
    fds[3].fd = in.write;
    // A grandchild can hold the pipes open after the child is gone: once the child has
    // exited, drain what is buffered and stop.
    if (!reaped && ::waitpid(pid, &st, WNOHANG) == pid)
      reaped = true;
    const auto left = req.limits.wall - std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    if (left.count() <= 0) {
      result.timedOut = true;
      break;
    }
    const int ready = ::poll(fds, 4, static_cast<int>(std::min<long long>(left.count(), reaped ? 50 : 200)));
    if (ready < 0 && errno != EINTR)
      break;
    if (reaped && ready == 0)
      break;
    if (fds[3].fd >= 0 && fds[3].revents)
      feedStdin();
    for (int i = 0; i < 3; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n <= 0) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --openStreams;
        continue;
      }
      if (i == 0)
        outTail.append(buf, static_cast<std::size_t>(n));
      else if (i == 1)
        errTail.append(buf, static_cast<std::size_t>(n));
      else if (result.answer.size() + static_cast<std::size_t>(n) <= req.limits.answerCapBytes)
        result.answer.append(buf, static_cast<std::size_t>(n));
      else
        answerTruncated = true;
    }
  }
  if (in.write >= 0) {
    ::close(in.write);
    in.write = -1;
  }
  {
    const struct timespec zero {0, 0};
    while (::sigtimedwait(&pipeSet, nullptr, &zero) > 0) {
    }
    ::pthread_sigmask(SIG_SETMASK, &savedMask, nullptr);
  }
  // Under a PID namespace the child is the namespace's first process, which reports the
  // command's status and exits right after the command: give it that moment before the kill.
  if (plan.cloneFlags && !result.timedOut)
    for (int i = 0; i < 200 && !reaped; ++i) {
      if (::waitpid(pid, &st, WNOHANG) == pid)
        reaped = true;
      else
        ::usleep(10000);
    }
  // Whatever happened, nothing of the child's group survives it.
  ::killpg(pid, SIGKILL);
  while (!reaped && ::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (dropToUid) {
    // Processes that left the group (setsid, double fork) still run as the child's uid:
    // a helper with that uid signals every process it may, i.e. exactly those.
    const pid_t sweeper = ::fork();
    if (sweeper == 0) {
      if (::setgid(req.uid) == 0 && ::setuid(req.uid) == 0)
        ::kill(-1, SIGKILL);
      ::_exit(0);
    }
    if (sweeper > 0)
      ::waitpid(sweeper, nullptr, 0);
  }
  for (auto &fd : fds)
    if (fd.fd >= 0)
      ::close(fd.fd);
  // Under a PID namespace the child is its first process; the command's own status came from it.
  if (plan.cloneFlags) {
    int commandStatus = 0;
    ::fcntl(exitInfo.read, F_SETFL, O_NONBLOCK);
    if (::read(exitInfo.read, &commandStatus, sizeof commandStatus) == static_cast<ssize_t>(sizeof commandStatus))
      st = commandStatus;
  }
  ::close(exitInfo.read);
  result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
  result.started = execError.empty();
  result.startError = execError;
  if (WIFEXITED(st))
    result.exitCode = WEXITSTATUS(st);
  else if (WIFSIGNALED(st))
    result.signal = WTERMSIG(st);
  if (result.timedOut)
    result.signal = SIGKILL;
  result.stdoutTail = outTail.finish();
  result.stderrTail = errTail.finish();
  result.outputTruncated = outTail.truncated || errTail.truncated;
  if (answerTruncated)
    result.answer.clear(); // an oversized answer is not an answer
  result.isolation.push_back(plan.cloneFlags ? "own process group, first process of its own PID namespace: killed "
                                               "with everything it started at exit or timeout"
                                             : "own process group, killed as a group at exit or timeout");
  result.isolation.insert(result.isolation.end(), plan.notes.begin(), plan.notes.end());
  result.containment = plan.mode == detail::Mode::Namespaces ? "namespaces"
                       : plan.mode == detail::Mode::Landlock ? "landlock"
                                                            : "seccomp only";
  if (dropToUid)
    result.isolation.push_back("unprivileged uid " + std::to_string(req.uid));
  else if (::geteuid() == 0)
    result.isolation.push_back("runs as root (no uid given): RLIMIT_NPROC does not bind");
  return result;
}

} // namespace

SandboxResult runSandboxed(const SandboxRequest &req) {
  SandboxResult result = runOnce(req);
  // A view this run's paths cannot be built into (a mount the kernel refuses to bind) is no
  // reason to run uncontained or not at all: the next mode down, saying why.
  if (!result.started && result.containment == "namespaces" &&
      (result.startError.rfind("filesystem view", 0) == 0 || result.startError.rfind("user namespace", 0) == 0)) {
    SandboxRequest weaker = req;
    weaker.containment = Containment::Landlock;
    SandboxResult retry = runOnce(weaker);
    retry.isolation.insert(retry.isolation.begin(),
                           "namespaces failed for this run (" + result.startError + "): the next containment down");
    return retry;
  }
  return result;
}

} // namespace kbaudit::runtime
