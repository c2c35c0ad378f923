#include "compile_unit.h"

#include "compiler_log.h"
#include "kbaudit/compiled/subprocess.h"

#include "kbaudit/compiled/ptx_reader.h"
#include "kbaudit/compiled/ptxas_report.h"

#include <fstream>
#include <sstream>

namespace kbaudit::compiled {

namespace fs = std::filesystem;

namespace {

constexpr const char *kFile = "unit.cu";
constexpr const char *kFormat = "kbaudit-compiled 1"; // bump when the command line changes meaning

/// load_inline puts these before the cuda_sources (torch/utils/cpp_extension.py).
constexpr const char *kTorchPrelude = "#include <torch/types.h>\n#include <cuda.h>\n#include <cuda_runtime.h>\n";
constexpr unsigned kTorchPreludeLines = 3;

/// The flags torch's cpp_extension gives nvcc for an extension (minus -gencode and host flags),
/// and the include directories of the torch wheel.
std::vector<std::string> torchFlags(const Toolchain &t) {
  std::vector<std::string> f = {"-D__CUDA_NO_HALF_OPERATORS__", "-D__CUDA_NO_HALF_CONVERSIONS__",
                                "-D__CUDA_NO_BFLOAT16_CONVERSIONS__", "-D__CUDA_NO_HALF2_OPERATORS__",
                                "--expt-relaxed-constexpr", "-DTORCH_EXTENSION_NAME=kbaudit_unit",
                                "-DTORCH_API_INCLUDE_EXTENSION_H", "-D_GLIBCXX_USE_CXX11_ABI=1"};
  if (!t.torchInclude.empty()) {
    f.push_back("-isystem");
    f.push_back(t.torchInclude);
    f.push_back("-isystem");
    f.push_back(t.torchInclude + "/torch/csrc/api/include");
  }
  if (!t.pythonInclude.empty()) {
    f.push_back("-isystem");
    f.push_back(t.pythonInclude);
  }
  return f;
}

std::vector<std::string> environment(const Toolchain &t, const fs::path &dir) {
  return {"PATH=" + fs::path(t.nvcc).parent_path().string() + ":/usr/bin:/bin", "HOME=" + dir.string(),
          "TMPDIR=" + dir.string(), "LC_ALL=C"};
}

std::string joined(const std::vector<std::string> &v) {
  std::string s;
  for (const std::string &x : v)
    s += x + '\n';
  return s;
}

std::string readAll(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Runs nvcc and ptxas on `text`; the entry says what happened.
CacheEntry runCompiler(const std::string &text, const std::vector<std::string> &flags, const Toolchain &t,
                       const CompileOptions &o) {
  CacheEntry e;
  WorkDir dir;
  if (dir.path().empty()) {
    e.status = UnitStatus::Failed;
    e.why = "cannot create a temporary directory";
    return e;
  }
  {
    std::ofstream out(dir.path() / kFile, std::ios::binary);
    out << text;
    if (!out) {
      e.status = UnitStatus::Failed;
      e.why = "cannot write the source to a temporary directory";
      return e;
    }
  }
  std::vector<std::string> argv = {t.nvcc, "-ptx", "-arch=" + o.arch, "-std=c++17", "-O3", "-w"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), {kFile, "-o", "unit.ptx"});
  ProcessLimits limits;
  limits.seconds = o.timeoutSeconds;
  const ProcessResult r = runProcess(argv, dir.path(), environment(t, dir.path()), limits);
  e.seconds = r.seconds;
  e.log = r.output;
  if (!r.started || !r.error.empty()) {
    e.status = UnitStatus::Failed;
    e.why = "nvcc could not be run: " + r.error;
    return e;
  }
  if (r.timedOut) {
    e.status = UnitStatus::TimedOut;
    e.why = "nvcc ran past the " + std::to_string(static_cast<int>(o.timeoutSeconds)) + " s limit";
    return e;
  }
  if (r.signal != 0) {
    e.status = UnitStatus::Failed;
    e.why = "nvcc was killed by signal " + std::to_string(r.signal) + " (a resource limit?)";
    return e;
  }
  if (r.exitCode != 0) {
    if (const std::string h = missingHeader(r.output); !h.empty()) {
      e.status = UnitStatus::MissingHeader;
      e.why = "missing header " + h;
    } else {
      e.status = UnitStatus::CompileError;
      e.why = "nvcc rejected the source (exit " + std::to_string(r.exitCode) + ")";
    }
    return e;
  }
  e.ptx = readAll(dir.path() / "unit.ptx");
  e.status = UnitStatus::Compiled;
  if (t.ptxas.empty()) {
    e.ptxasError = "no ptxas next to nvcc";
    return e;
  }
  limits.seconds = std::max(10.0, o.timeoutSeconds - r.seconds);
  const ProcessResult p = runProcess({t.ptxas, "-arch=" + o.arch, "-v", "unit.ptx", "-o", "unit.cubin"}, dir.path(),
                                     environment(t, dir.path()), limits);
  e.seconds += p.seconds;
  e.ptxasLog = p.output;
  if (!p.started || p.timedOut || p.exitCode != 0)
    e.ptxasError = p.timedOut ? "ptxas ran past its time limit"
                              : "ptxas failed: " + (p.output.empty() ? p.error : p.output.substr(0, 240));
  return e;
}

} // namespace

CompiledUnit compileUnit(const embed::Unit &unit, bool torch, const std::vector<embed::EmbeddedSource> &sources,
                         const Toolchain &t, const CompileOptions &o, const CompileCache &cache) {
  CompiledUnit u;
  u.sources = unit.sources;
  u.arch = o.arch;
  const std::string text = (torch ? std::string(kTorchPrelude) : std::string()) + unit.text;
  const unsigned preludeLines = torch ? kTorchPreludeLines : 0;
  const std::vector<std::string> flags = torch ? torchFlags(t) : std::vector<std::string>{};
  // What the PTX depends on: the text, the flags, the architecture, the toolkit, the torch headers.
  const std::string key =
      cacheKey({kFormat, t.version, o.arch, joined(flags), t.torchVersion, t.pythonInclude, text});
  std::optional<CacheEntry> entry = cache.load(key);
  u.cached = entry.has_value();
  if (!entry) {
    entry = runCompiler(text, flags, t, o);
    // Timeouts and failures to run depend on the machine's load, not on the inputs.
    if (entry->status != UnitStatus::TimedOut && entry->status != UnitStatus::Failed)
      cache.store(key, *entry);
  }
  u.status = entry->status;
  u.why = entry->why;
  u.seconds = entry->seconds;
  u.ptxasError = entry->ptxasError;
  if (u.status == UnitStatus::CompileError || u.status == UnitStatus::MissingHeader) {
    u.errors = compilerErrors(entry->log, kFile, unit, preludeLines, sources);
    if (u.status == UnitStatus::CompileError && !u.errors.empty())
      u.why += ": " + u.errors.front().message;
  }
  if (u.status != UnitStatus::Compiled)
    return u;
  u.kernels = readPtx(entry->ptx);
  applyResources(entry->ptxasLog, u.kernels);
  return u;
}

} // namespace kbaudit::compiled
