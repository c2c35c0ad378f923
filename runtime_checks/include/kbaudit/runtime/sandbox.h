#pragma once

// Runs an untrusted command in a child process that cannot hang, crash or fool kbaudit:
// its own process group (and, when kbaudit runs as root, its own unprivileged uid), resource
// limits, a scrubbed environment, a wall-clock timeout that kills the whole group, capped
// stdout/stderr, a private pipe for the answer that the child's stdout cannot forge, and
// containment (docs/security.md): private mount, PID, IPC, network and UTS namespaces with a
// filesystem view of its own where the kernel allows them, else Landlock, and a seccomp filter
// in every case; the result says which, and what could not be done.

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
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

/// How far the child may be contained. `Strongest` picks the best this machine allows
/// (namespaces, else Landlock, else the seccomp filter alone) and says so; the weaker values
/// force a fallback, so that it can be tested on a machine that has the stronger one.
enum class Containment { Strongest, Landlock, SeccompOnly };

/// What the child sees of the filesystem besides the system directories (/usr, /etc and the
/// /bin, /lib links, read-only), a fresh /proc, a minimal /dev and private /tmp and /dev/shm:
/// these paths, at the same absolute paths (a path through a symlink is bound at the path as
/// given and at its target). Later entries are mounted over earlier ones.
struct FilesystemView {
  std::vector<std::filesystem::path> readOnly;
  std::vector<std::filesystem::path> writable;
};

struct SandboxRequest {
  std::vector<std::string> argv;              ///< argv[0] is an absolute path
  std::filesystem::path workdir;              ///< the child's cwd (and HOME)
  std::map<std::string, std::string> env;     ///< the whole environment (nothing inherited)
  /// The child finds its answer pipe at this descriptor number (passed in argv by the caller).
  int answerFd = 3;
  /// Written to the child's stdin, then stdin is closed (e.g. a nonce).
  std::string stdinData;
  /// What it sees of the filesystem; without one, its workdir is its only writable path.
  std::optional<FilesystemView> view;
  Containment containment = Containment::Strongest;
  /// Descriptors of kbaudit's passed on to the child: (kbaudit's descriptor, the child's
  /// number). Everything else above 2 is closed.
  std::vector<std::pair<int, int>> inheritFds;
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
  /// How the child was isolated, in words ("own mount, PID, IPC, network and UTS namespaces",
  /// "uid 61003", ...), and what could not be done ("no filesystem containment: ...").
  std::vector<std::string> isolation;
  /// The containment it ran under: "namespaces", "landlock" or "seccomp only".
  std::string containment;
  std::chrono::milliseconds elapsed{0};
};

SandboxResult runSandboxed(const SandboxRequest &request);

} // namespace kbaudit::runtime
