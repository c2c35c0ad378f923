#include "kbaudit/compiled/subprocess.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace kbaudit::compiled {

namespace {

constexpr std::size_t kMaxOutput = 64 * 1024;

std::vector<char *> pointers(std::vector<std::string> &strings) {
  std::vector<char *> out;
  for (std::string &s : strings)
    out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

} // namespace

WorkDir::WorkDir() {
  const char *tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/kbaudit-nvcc-XXXXXX";
  if (::mkdtemp(pattern.data()))
    path_ = pattern;
}

WorkDir::~WorkDir() {
  std::error_code ec;
  if (!path_.empty())
    std::filesystem::remove_all(path_, ec);
}

ProcessResult runProcess(const std::vector<std::string> &argvIn, const std::filesystem::path &workDir,
                         const std::vector<std::string> &envIn, const ProcessLimits &limits) {
  ProcessResult r;
  if (argvIn.empty()) {
    r.error = "nothing to run";
    return r;
  }
  // Everything the child needs is prepared before fork: after it, only async-signal-safe calls.
  std::vector<std::string> argvStrings = argvIn, envStrings = envIn;
  std::vector<char *> argv = pointers(argvStrings), env = pointers(envStrings);
  const std::string dir = workDir.string();
  const std::string outPath = (workDir / ".kbaudit-output").string();
  const int out = ::open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (out < 0 || devNull < 0) {
    r.error = std::string("cannot open the output file: ") + std::strerror(errno);
    if (out >= 0)
      ::close(out);
    if (devNull >= 0)
      ::close(devNull);
    return r;
  }
  const rlim_t cpuSeconds = static_cast<rlim_t>(limits.seconds) + 5;
  const pid_t parent = ::getpid();
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) {
    r.error = std::string("fork failed: ") + std::strerror(errno);
    ::close(out);
    ::close(devNull);
    return r;
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    // The group is out of reach of whoever kills this process (an audit worker past its time):
    // the compiler dies with its parent, and no process of it runs longer than the time limit in
    // CPU seconds, so nothing outlives the audit for long.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent)
      ::_exit(125);
    struct rlimit cpu {cpuSeconds, cpuSeconds + 5};
    ::setrlimit(RLIMIT_CPU, &cpu);
    struct rlimit as {limits.addressSpace, limits.addressSpace};
    struct rlimit fsize {limits.fileSize, limits.fileSize};
    struct rlimit core {0, 0};
    ::setrlimit(RLIMIT_AS, &as);
    ::setrlimit(RLIMIT_FSIZE, &fsize);
    ::setrlimit(RLIMIT_CORE, &core);
    if (::chdir(dir.c_str()) != 0)
      ::_exit(126);
    ::dup2(devNull, 0);
    ::dup2(out, 1);
    ::dup2(out, 2);
    ::close_range(3, ~0u, 0);
    ::execve(argv[0], argv.data(), env.data());
    ::_exit(127);
  }
  ::setpgid(pid, pid); // also from the parent, so the kill below cannot race the child's own call
  ::close(out);
  ::close(devNull);
  r.started = true;
  const auto deadline = start + std::chrono::duration<double>(limits.seconds);
  // The leader's exit is seen without reaping it (WNOWAIT), so its process group id cannot be
  // reused before the group (helpers the compiler driver left behind) is killed.
  for (;;) {
    siginfo_t info{};
    const int w = ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
    if (w == 0 && info.si_pid == pid)
      break;
    if (w < 0 && errno != EINTR) {
      r.error = std::string("waitid failed: ") + std::strerror(errno);
      break;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      r.timedOut = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(-pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status))
    r.exitCode = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    r.signal = WTERMSIG(status);
  std::ifstream in(outPath, std::ios::binary);
  r.output.resize(kMaxOutput);
  in.read(r.output.data(), static_cast<std::streamsize>(kMaxOutput));
  r.output.resize(static_cast<std::size_t>(in.gcount()));
  if (r.exitCode == 127 && r.output.empty())
    r.error = "cannot execute " + argvIn[0];
  return r;
}

} // namespace kbaudit::compiled
