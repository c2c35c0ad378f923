#pragma once

// Runs a tool on hostile input (nvcc on a solution's sources, pyarrow on an evaluation table):
// its own process group, a scrubbed environment, resource limits and a wall-clock limit, output
// captured to a file in the work directory. Nothing the tool builds is ever executed.

#include <filesystem>
#include <string>
#include <vector>

namespace kbaudit::compiled {

struct ProcessLimits {
  double seconds = 120;                         ///< wall clock; the whole group is killed past it
  unsigned long long addressSpace = 8ull << 30; ///< RLIMIT_AS (cicc on torch headers needs ~2 GB)
  unsigned long long fileSize = 512ull << 20;   ///< RLIMIT_FSIZE: no output fills the disk
};

struct ProcessResult {
  bool started = false;
  bool timedOut = false;
  int exitCode = -1;   ///< -1 when killed by a signal
  int signal = 0;
  std::string output;  ///< stdout and stderr together, clipped to 64 KiB
  double seconds = 0;
  std::string error;   ///< why it could not be started
};

/// A fresh private directory under $TMPDIR (or /tmp), removed with everything in it when
/// the object goes; path() is empty when it could not be made.
class WorkDir {
public:
  WorkDir();
  ~WorkDir();
  WorkDir(const WorkDir &) = delete;
  WorkDir &operator=(const WorkDir &) = delete;
  const std::filesystem::path &path() const { return path_; }

private:
  std::filesystem::path path_;
};

/// `argv[0]` is an absolute path; `env` is the whole environment ("NAME=value").
ProcessResult runProcess(const std::vector<std::string> &argv, const std::filesystem::path &workDir,
                         const std::vector<std::string> &env, const ProcessLimits &limits);

} // namespace kbaudit::compiled
