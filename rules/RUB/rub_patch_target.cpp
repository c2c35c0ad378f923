#include "rub_patch_target.h"

#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <array>

namespace kbaudit::rules::rub {

using semantic::pytext::endsWith;
using semantic::pytext::lastSegment;
using semantic::pytext::startsWith;

namespace {

// The libraries the grader, the reference and the solution share in one interpreter: torch and
// friends, and the standard library, whose modules are as process-wide as torch's (the grader
// serialises its verdict with json, writes it with os or io, spawns, logs and times with them).
// `__main__` is the grader's own script and `reference` the problem's module it imports (GPU
// MODE's evaluator imports `reference` beside the submission): both are the grader's code.
constexpr std::array<std::string_view, 50> kSharedRoots = {
    "__main__",  "reference",
    "torch",     "triton",     "time",      "timeit",   "builtins",        "gc",        "numpy",    "random",
    "math",      "cupy",       "sys",       "json",     "pickle",          "marshal",   "csv",      "struct",
    "io",        "os",         "shutil",    "tempfile", "pathlib",         "subprocess", "signal",  "atexit",
    "inspect",   "traceback",  "logging",   "warnings", "copy",            "re",        "operator", "functools",
    "itertools", "collections", "contextlib", "threading", "multiprocessing", "concurrent", "importlib", "socket",
    "select",    "datetime",   "statistics", "hashlib", "base64",          "zlib",      "codecs",   "unittest"};

// Standard-library functions through which the grader reports: how results are serialised, written
// or printed, and how the process ends.
constexpr std::array<std::string_view, 12> kReportingRoots = {"json",    "pickle",  "marshal", "csv",
                                                            "struct",  "io",      "os",      "logging",
                                                            "traceback", "atexit", "subprocess", "unittest"};

/// How strongly a replaced attribute touches grading: comparisons, clocks and input
/// generators most, then a library op, then weight initialisation.
int severity(PatchKind k) {
  switch (k) {
  case PatchKind::Comparison:
  case PatchKind::Timing:
  case PatchKind::Inputs:
  case PatchKind::Reporting:
  case PatchKind::Harness:
    return 3;
  case PatchKind::Compute:
    return 2;
  default:
    return 1;
  }
}

} // namespace

bool isSharedRoot(std::string_view root) {
  return std::find(kSharedRoots.begin(), kSharedRoots.end(), root) != kSharedRoots.end();
}

bool anyPrefix(std::string_view r, std::initializer_list<std::string_view> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(), [&](std::string_view p) {
    return r == p || startsWith(r, std::string(p) + ".") || (endsWith(p, ".") && startsWith(r, p));
  });
}

bool isConfigKnob(std::string_view r) {
  if (anyPrefix(r, {"torch.backends", "torch.cuda.matmul", "torch.ops", "os.environ"}))
    return true;
  for (std::string_view seg : {".config.", "._config."})
    if (r.find(seg) != std::string_view::npos)
      return true;
  const std::string_view last = lastSegment(r);
  return last == "allow_tf32" || last == "fp32_precision" || startsWith(last, "allow_fp16") ||
         startsWith(last, "allow_bf16");
}

PatchTarget classifyPatch(std::string_view r) {
  const std::string_view last = lastSegment(r);
  if (anyPrefix(r, {"__main__", "reference"}))
    return {PatchKind::Harness, "the grader's own code (its script's timing, cloning or cache flush, the reference's checker)"};
  if (anyPrefix(r, {"torch.testing", "numpy.testing", "torch.allclose", "torch.isclose", "torch.equal", "torch.eq",
                    "torch.Tensor.allclose", "torch.Tensor.isclose", "torch.Tensor.equal", "torch.Tensor.eq",
                    "torch.Tensor.__eq__", "torch.Tensor.__ne__", "torch.Tensor.__bool__", "numpy.allclose",
                    "numpy.isclose", "numpy.array_equal", "torch.cosine_similarity",
                    "torch.nn.functional.cosine_similarity", "math.isclose"}))
    return {PatchKind::Comparison, "the correctness comparison"};
  if (anyPrefix(r, {"gc", "builtins"}))
    return {PatchKind::Timing, "the interpreter's built-ins or garbage collector"};
  if (anyPrefix(r, {"sys.exit", "sys.settrace", "sys.setprofile"}) ||
      std::find(kReportingRoots.begin(), kReportingRoots.end(), r.substr(0, r.find('.'))) != kReportingRoots.end())
    return {PatchKind::Reporting, "how the grader serialises, writes or reports its results, or ends its process"};
  if (anyPrefix(r, {"time", "timeit", "torch.cuda.synchronize", "torch.cuda.Event",
                    "torch.cuda.Stream", "torch.cuda.current_stream", "torch.cuda.default_stream",
                    "torch.cuda.empty_cache", "torch.cuda.graph", "torch.cuda.CUDAGraph", "torch.utils.benchmark",
                    "triton.testing", "torch.Tensor.record_stream", "torch.cuda.nvtx", "torch.profiler",
                    "torch.autograd.profiler"}))
    return {PatchKind::Timing, "timing or device synchronisation"};
  if (anyPrefix(r, {"torch.manual_seed", "torch.seed", "torch.cuda.manual_seed", "torch.cuda.manual_seed_all",
                    "torch.randn", "torch.rand", "torch.randint", "torch.randn_like", "torch.rand_like",
                    "torch.randint_like", "torch.normal", "torch.randperm", "torch.Generator", "torch.random",
                    "numpy.random", "random"}))
    return {PatchKind::Inputs, "how the grader's inputs are generated"};
  if (anyPrefix(r, {"torch.nn.init"}) || last == "reset_parameters")
    return {PatchKind::Init, "weight initialisation"};
  return {PatchKind::Compute, "a library function the reference and the grader also call"};
}

SettledName settleName(std::string_view object, const std::vector<std::string> &candidates) {
  SettledName w{std::string(object) + "." + std::string(kDynamicName), true, {}};
  int best = 0;
  std::string listed;
  bool open = false;
  for (const std::string &c : candidates) {
    if (c == kDynamicName) {
      open = true;
      continue;
    }
    listed += (listed.empty() ? "" : ", ") + c;
    const std::string name = std::string(object) + "." + c;
    if (const int s = severity(classifyPatch(name).kind); s > best) {
      best = s;
      w.name = name;
    }
  }
  // A known name that only reaches weight initialisation or an unknown rest proves nothing.
  w.unknown = best < 2;
  if (listed.empty())
    w.note = "the attribute name is computed; which attribute of " + std::string(object) +
             " it replaces is not known statically";
  else
    w.note = "the attribute name takes the values " + listed + (open ? " and others not known statically" : "");
  return w;
}

} // namespace kbaudit::rules::rub
