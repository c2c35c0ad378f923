#pragma once

// Runs an untrusted command in a child process that cannot hang, crash or fool kbaudit:
// its own process group (and, when kbaudit runs as root, its own unprivileged uid), resource
// limits, a scrubbed environment, a wall-clock timeout that kills the whole group, a new
// network namespace where the kernel allows one, capped stdout/stderr, and a private pipe
// for the answer that the child's stdout cannot forge.

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kbaudit::runtime {

struct SandboxLimits {
  std::chrono::milliseconds wall{std::chrono::seconds(120)};
  unsigned cpuSeconds = 300;
  unsigned long long addressSpaceBytes = 8ull << 30; ///< RLIMIT_AS (0: unlimited, e.g. CUDA)
  unsigned openFiles = 256;                          ///< RLIMIT_NOFILE
  unsigned processes = 64;                           ///< RLIMIT_NPROC (per uid)
  std::size_t outputCapBytes = 64 * 1024;            ///< stdout/stderr tail kept per stream
  std::size_t answerCapBytes = 4 * 1024 * 1024;      ///< largest answer read from the pipe
};

struct SandboxRequest {
  std::vector<std::string> argv;              ///< argv[0] is an absolute path
  std::filesystem::path workdir;              ///< the child's cwd (and HOME)
  std::map<std::string, std::string> env;     ///< the whole environment (nothing inherited)
  /// The child finds its answer pipe at this descriptor number (passed in argv by the caller).
  int answerFd = 3;
  /// Written to the child's stdin, then stdin is closed (e.g. a nonce).
  std::string stdinData;
  bool isolateNetwork = true;
  /// When running as root, run the child as this uid/gid (must own `workdir`); 0 keeps root.
  unsigned uid = 0;
  SandboxLimits limits;
};

struct SandboxResult {
  bool started = false;       ///< fork/exec worked
  std::string startError;
  int exitCode = -1;          ///< when it exited
  int signal = 0;             ///< when it was killed by a signal
  bool timedOut = false;
  bool outputTruncated = false;
  std::string answer;         ///< everything written to the answer pipe (capped)
  std::string stdoutTail, stderrTail;
  /// How the child was isolated, in words ("own network namespace", "uid 61003", ...), and
  /// what could not be done ("network not isolated: unshare(CLONE_NEWNET) failed: EPERM").
  std::vector<std::string> isolation;
  std::chrono::milliseconds elapsed{0};
};

SandboxResult runSandboxed(const SandboxRequest &request);

} // namespace kbaudit::runtime
