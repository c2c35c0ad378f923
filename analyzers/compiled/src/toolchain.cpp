#include "toolchain.h"

#include "kbaudit/compiled/subprocess.h"

#include "kbaudit/source/install_layout.h"

#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <unistd.h>

namespace kbaudit::compiled {

namespace fs = std::filesystem;

namespace {

std::string envOr(const char *name) {
  const char *v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

bool executable(const fs::path &p) { return !p.empty() && ::access(p.c_str(), X_OK) == 0 && fs::is_regular_file(p); }

std::string findNvcc(const std::string &given) {
  if (!given.empty())
    return given;
  if (std::string e = envOr("KBAUDIT_NVCC"); !e.empty())
    return e;
  std::istringstream path(envOr("PATH"));
  for (std::string dir; std::getline(path, dir, ':');)
    if (!dir.empty() && executable(fs::path(dir) / "nvcc"))
      return (fs::path(dir) / "nvcc").string();
  if (executable("/usr/local/cuda/bin/nvcc"))
    return "/usr/local/cuda/bin/nvcc";
  return {};
}

/// `<venv>/lib/python3.X`, the first one found.
fs::path venvPythonLib(const fs::path &venv) {
  std::error_code ec;
  if (venv.empty() || !fs::is_directory(venv / "lib", ec))
    return {};
  for (const auto &entry : fs::directory_iterator(venv / "lib", ec))
    if (entry.path().filename().string().starts_with("python3"))
      return entry.path();
  return {};
}

std::string torchVersion(const fs::path &torchInclude) {
  std::ifstream in(torchInclude.parent_path() / "version.py");
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("__version__")) {
      const size_t a = line.find_first_of("'\""), b = line.find_last_of("'\"");
      if (a != std::string::npos && b > a)
        return line.substr(a + 1, b - a - 1);
    }
  return {};
}

Toolchain discover(const CompileOptions &o) {
  Toolchain t;
  // torch's headers come from the probes' environment unless told otherwise (install_layout.h).
  const fs::path pythonLib = venvPythonLib(probeVenv());
  t.torchInclude = !o.torchInclude.empty() ? o.torchInclude : envOr("KBAUDIT_TORCH_INCLUDE");
  if (t.torchInclude.empty() && !pythonLib.empty() && fs::exists(pythonLib / "site-packages/torch/include/torch"))
    t.torchInclude = (pythonLib / "site-packages/torch/include").string();
  if (!t.torchInclude.empty())
    t.torchVersion = torchVersion(t.torchInclude);
  t.pythonInclude = !o.pythonInclude.empty() ? o.pythonInclude : envOr("KBAUDIT_PYTHON_INCLUDE");
  if (t.pythonInclude.empty() && !pythonLib.empty() &&
      fs::exists(fs::path("/usr/include") / pythonLib.filename() / "Python.h"))
    t.pythonInclude = (fs::path("/usr/include") / pythonLib.filename()).string();

  t.nvcc = findNvcc(o.nvcc);
  if (t.nvcc.empty() || !executable(t.nvcc)) {
    t.error = t.nvcc.empty() ? "no nvcc found (PATH, $KBAUDIT_NVCC, /usr/local/cuda/bin)" : t.nvcc + " is not executable";
    t.nvcc.clear();
    return t;
  }
  const fs::path ptxas = fs::path(t.nvcc).parent_path() / "ptxas";
  if (executable(ptxas))
    t.ptxas = ptxas.string();
  WorkDir dir;
  if (dir.path().empty()) {
    t.error = "cannot create a temporary directory";
    t.nvcc.clear();
    return t;
  }
  ProcessLimits limits;
  limits.seconds = 60;
  const ProcessResult r = runProcess({t.nvcc, "--version"}, dir.path(),
                                     {"PATH=" + fs::path(t.nvcc).parent_path().string() + ":/usr/bin:/bin",
                                      "HOME=" + dir.path().string(), "LC_ALL=C"},
                                     limits);
  const size_t at = r.output.find("release ");
  if (!r.started || r.exitCode != 0 || at == std::string::npos) {
    t.error = t.nvcc + " --version failed" + (r.error.empty() ? "" : ": " + r.error);
    t.nvcc.clear();
    return t;
  }
  const size_t eol = r.output.find('\n', at);
  t.version = "nvcc " + r.output.substr(at + 8, eol == std::string::npos ? std::string::npos : eol - at - 8);
  return t;
}

} // namespace

const Toolchain &toolchainFor(const CompileOptions &o) {
  static std::mutex mu;
  static std::map<std::string, Toolchain> found;
  const std::string key = o.nvcc + '\n' + o.torchInclude + '\n' + o.pythonInclude + '\n' + envOr("KBAUDIT_NVCC") +
                          '\n' + envOr("KBAUDIT_TORCH_INCLUDE") + '\n' + envOr("PATH");
  std::lock_guard<std::mutex> lock(mu);
  auto it = found.find(key);
  if (it == found.end())
    it = found.emplace(key, discover(o)).first;
  return it->second;
}

} // namespace kbaudit::compiled
