// The CPU runner's home: a copy of the probe package with the light build's precompiled headers
// (kbaudit_probe/cuda_cpu.py, build_pch), made once per package and interpreter under the user's
// cache and mounted read-only into every worker that may build a CUDA extension. Precompiling
// torch's tensor headers once saves most of each extension's compile (a unit goes from about
// 14 s of g++ to about 5 s here), which decides whether a run's probes fit their budget.
//
// The headers are compiled from this package and the interpreter's torch only, nothing of a
// solution's, in a sandbox of their own whose one writable folder is the home being made;
// concurrent kbaudit processes wait on a lock for the first one's result.

#include "cudacpu_home.h"

#include "embedded_probe.h"
#include "private_copy.h"

#include "kbaudit/source/sha256.h"

#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <sys/file.h>
#include <unistd.h>

namespace kbaudit::runtime::detail {

namespace fs = std::filesystem;

namespace {

fs::path cacheRoot() {
  if (const char *c = std::getenv("KBAUDIT_CUDACPU_CACHE"); c)
    return *c ? fs::path(c) : fs::path(); // set but empty: no home (every build parses torch's headers)
  if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return fs::path(x) / "kbaudit" / "cudacpu";
  if (const char *h = std::getenv("HOME"); h && *h)
    return fs::path(h) / ".cache" / "kbaudit" / "cudacpu";
  return {};
}

/// What the home depends on: the package as compiled in, and the interpreter.
std::string homeKey(const fs::path &python) {
  Sha256 h;
  h.update("kbaudit-cudacpu-home 1\n");
  h.update(python.string());
  for (const EmbeddedFile &f : embeddedProbe()) {
    h.update(f.path);
    h.update(f.content);
  }
  return h.finalHex().substr(0, 24);
}

class FileLock {
public:
  explicit FileLock(const fs::path &path) : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ >= 0)
      ::flock(fd_, LOCK_EX);
  }
  ~FileLock() {
    if (fd_ >= 0)
      ::close(fd_);
  }
  FileLock(const FileLock &) = delete;
  FileLock &operator=(const FileLock &) = delete;

private:
  int fd_;
};

} // namespace

fs::path cudaCpuHome(const fs::path &python, const std::vector<fs::path> &interpreterView, std::string &note) {
  const fs::path root = cacheRoot();
  if (root.empty())
    return {};
  std::error_code ec;
  fs::create_directories(root, ec);
  const std::string key = homeKey(python);
  const fs::path home = root / key;
  if (fs::exists(home / "ready", ec))
    return home;
  const FileLock lock(root / (key + ".lock"));
  if (fs::exists(home / "ready", ec))
    return home;
  if (fs::exists(home / "failed", ec)) {
    note = "the CPU runner's precompiled headers could not be made earlier (" + home.string() +
           "/failed says why): each CUDA extension parses torch's headers itself";
    return {};
  }
  fs::remove_all(home, ec);
  fs::create_directories(home, ec);
  writePackage(home);
  SandboxRequest req;
  req.workdir = home;
  req.view = FilesystemView{interpreterView, {home}};
  req.limits.wall = std::chrono::seconds(600);
  req.limits.cpuSeconds = 600;
  req.env = {{"PATH", "/usr/bin:/bin"}, {"HOME", home.string()}, {"TMPDIR", home.string()}, {"LANG", "C.UTF-8"},
             {"OMP_NUM_THREADS", "1"}};
  req.argv = {python.string(), "-I", "-B", "-c",
              "import sys; sys.path.insert(0, sys.argv[1]); from kbaudit_probe import cuda_cpu; "
              "sys.exit(cuda_cpu.build_pch(sys.argv[1]))",
              home.string()};
  const SandboxResult r = runSandboxed(req);
  if (!r.started || r.exitCode != 0) {
    std::ofstream(home / "failed") << (r.started ? "exit " + std::to_string(r.exitCode) + "; " + r.stderrTail
                                                 : "not started: " + r.startError);
    note = "the CPU runner's precompiled headers could not be made (" +
           (r.started ? "exit " + std::to_string(r.exitCode) : r.startError) + "): each CUDA extension parses torch's headers itself";
    return {};
  }
  std::ofstream(home / "ready") << "ok\n";
  return home;
}

} // namespace kbaudit::runtime::detail
