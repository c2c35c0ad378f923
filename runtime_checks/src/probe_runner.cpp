// A probe run in two sandboxed processes. The worker imports the reference and the solution,
// runs every probe and answers (a claim: the solution shares its process), writing the
// solution's outputs for the clearing probes on a witness descriptor kbaudit opened before the
// solution was imported. The judge, started after the worker has ended, in private folders of
// its own, imports the reference alone and judges those outputs; its verdicts replace the
// worker's claims, and a claim that does not hold is reported as tampering (judgement.cpp).

#include "cudacpu_home.h"
#include "embedded_probe.h"
#include "kbaudit/runtime/lifetime.h"
#include "kbaudit/runtime/probe.h"
#include "private_copy.h"
#include "uid_lease.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

namespace kbaudit::runtime {

namespace fs = std::filesystem;
using detail::UidLease;

namespace {

constexpr int kWitnessFd = 4;

std::string nonce() {
  std::random_device rd;
  std::string s;
  for (int i = 0; i < 4; ++i) {
    char buf[9];
    std::snprintf(buf, sizeof buf, "%08x", rd());
    s += buf;
  }
  return s;
}

bool cudaPresent() {
  std::error_code ec;
  return fs::exists("/dev/nvidia0", ec) || fs::exists("/dev/nvidiactl", ec);
}

std::string describeExit(const SandboxResult &r) {
  std::string out;
  if (r.timedOut)
    out = "the probe ran past its " + std::to_string(r.elapsed.count() / 1000) + " s limit and was killed";
  else if (r.signal)
    out = std::string("the probe was killed by signal ") + std::to_string(r.signal) + " (" + ::strsignal(r.signal) + ")";
  else
    out = "the probe exited with code " + std::to_string(r.exitCode);
  if (r.answer.empty())
    out += " without answering";
  return out;
}

/// The folders the interpreter needs besides the system's: its environment (a venv's folder, a
/// conda prefix), as given and as its links resolve.
std::vector<fs::path> interpreterView(const fs::path &python) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const fs::path &p : {fs::absolute(python).lexically_normal(), fs::canonical(python, ec)}) {
    if (p.empty() || !p.has_parent_path())
      continue;
    const fs::path prefix = p.parent_path().parent_path();
    if (!prefix.empty() && prefix != prefix.root_path() && std::find(out.begin(), out.end(), prefix) == out.end())
      out.push_back(prefix);
  }
  return out;
}

/// Whether a solution may build a torch extension at run time (what the CPU runner builds).
bool buildsExtensions(const fs::path &solution) {
  std::ifstream in(solution, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text.find("cpp_extension") != std::string::npos || text.find("load_inline") != std::string::npos;
}

/// An unnamed file for the witness, in kbaudit's own private folder: no path leads to it.
int witnessFile(const fs::path &dir) {
  int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0)
    return fd;
  const fs::path named = dir / ".witness";
  fd = ::open(named.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd >= 0)
    ::unlink(named.c_str());
  return fd;
}

/// One sandboxed run of the package: `root` holds it (and the copies), `extra` follows the
/// common arguments.
struct PackageRun {
  fs::path root;
  std::vector<std::string> extra;
  std::vector<fs::path> readOnly;
  int witness = -1;
  fs::path cudaCpuHome; ///< the CPU runner's precompiled headers, when the run may build CUDA C++
};

SandboxResult runPackage(const PackageRun &run, const ProbeOptions &options, bool cuda, unsigned uid,
                         const std::string &secret) {
  SandboxRequest req;
  req.stdinData = secret + "\n";
  req.workdir = run.root;
  req.uid = uid;
  req.containment = options.containment;
  // The child writes only its scratch folder; the package, the copies and its interpreter's
  // environment are read-only.
  req.view = FilesystemView{{run.root}, {run.root / "tmp"}};
  for (const fs::path &p : run.readOnly)
    req.view->readOnly.insert(req.view->readOnly.begin(), p);
  // The CPU runner's translator (cuda_cpu.py runs `kbaudit cuda-translate`), read-only.
  std::error_code ec;
  const bool translator = !cuda && !options.translator.empty() && fs::is_regular_file(options.translator, ec);
  if (translator)
    req.view->readOnly.insert(req.view->readOnly.begin(), fs::absolute(options.translator, ec));
  if (run.witness >= 0)
    req.inheritFds = {{run.witness, kWitnessFd}};
  req.limits = options.limits;
  if (cuda)
    req.limits.addressSpaceBytes = 0; // the CUDA driver reserves far more address space than it uses
  std::string seeds;
  for (int s : options.seeds)
    seeds += (seeds.empty() ? "" : ",") + std::to_string(s);
  // The probe stops starting probes before the sandbox's limit, so it answers with what ran.
  const auto wallSeconds = std::chrono::duration_cast<std::chrono::seconds>(req.limits.wall).count();
  const long long budget = std::max<long long>(1, wallSeconds - std::max<long long>(5, wallSeconds / 6));
  req.argv = {options.python.string(), "-I", "-B", (run.root / "kbaudit_probe" / "__main__.py").string(),
              "--problem", (run.root / "problem").string(), "--device", options.device, "--seeds", seeds,
              "--answer-fd", std::to_string(req.answerFd), "--budget", std::to_string(budget)};
  if (run.witness >= 0) {
    req.argv.push_back("--witness-fd");
    req.argv.push_back(std::to_string(kWitnessFd));
  }
  req.argv.insert(req.argv.end(), run.extra.begin(), run.extra.end());
  const fs::path scratch = run.root / "tmp";
  req.env = {{"PATH", "/usr/bin:/bin"},          {"HOME", scratch.string()},
             {"TMPDIR", scratch.string()},       {"LANG", "C.UTF-8"},
             // getpass.getuser() (Triton's and torch's cache paths) asks these before the
             // password database, which has no entry for the probe's unprivileged uid.
             {"USER", "kbaudit-probe"},          {"LOGNAME", "kbaudit-probe"},
             {"OMP_NUM_THREADS", "1"},           {"MKL_NUM_THREADS", "1"},
             {"PYTHONHASHSEED", "0"},            {"TRITON_CACHE_DIR", (scratch / "triton").string()},
             {"TORCH_EXTENSIONS_DIR", (scratch / "torch_extensions").string()}};
  // Without CUDA, Triton kernels run under Triton's interpreter (kbaudit_probe/cpu_mapping.py)
  // and CUDA C++ on the CPU runner (kbaudit_probe/cuda_cpu.py).
  if (!cuda)
    req.env["TRITON_INTERPRET"] = "1";
  if (translator)
    req.env["KBAUDIT_CUDA_TRANSLATOR"] = fs::absolute(options.translator, ec).string();
  if (!cuda && !run.cudaCpuHome.empty()) {
    req.view->readOnly.insert(req.view->readOnly.begin(), run.cudaCpuHome);
    req.env["KBAUDIT_CUDACPU_HOME"] = run.cudaCpuHome.string();
  }
  if (const char *v = std::getenv("CUDA_VISIBLE_DEVICES"))
    req.env["CUDA_VISIBLE_DEVICES"] = v;
  return runSandboxed(req);
}

/// How the suite's grader builds and calls the models (the profile's `harness:`), for the worker
/// and the judge alike: both must build the reference the same way.
std::vector<std::string> harnessArgs(const problems::ProblemContext &problem) {
  return {"--suite", problem.suite.empty() ? "unknown" : problem.suite, "--model-mode",
          problems::modelModeName(problem.harness.mode), "--call-order", problems::callOrderName(problem.harness.order)};
}

/// A fresh private folder under the temp directory, or "" when none can be made. The owner's
/// pid in its name lets the next start remove a copy this process could not
/// (lifetime::removeStaleDirs); while a GuardedDir holds it, a termination signal removes it.
fs::path privateFolder() {
  const std::optional<fs::path> made = lifetime::makeOwnedDir(kProbeDirPrefix);
  return made ? *made : fs::path();
}

/// The judge, in private folders of its own (the package and the problem copied afresh: the
/// worker could write nothing the judge reads), on the witness the worker left.
void judge(RuntimeReport &report, int witness, const problems::ProblemContext &problem,
           const ProbeOptions &options, bool cuda, unsigned uid) {
  Judgement judgement;
  const fs::path root = privateFolder();
  if (root.empty()) {
    judgement.failure = "cannot create a private directory for the judge";
    applyJudgement(report, judgement);
    return;
  }
  const lifetime::GuardedDir guardRoot(root);
  ::chmod(root.c_str(), 0755);
  detail::writePackage(root);
  detail::copyProblem(problem, root / "problem");
  std::error_code ec;
  fs::create_directories(root / "tmp", ec);
  if (uid)
    detail::chownTree(root / "tmp", uid);
  ::lseek(witness, 0, SEEK_SET);
  const std::string secret = nonce();
  std::vector<std::string> extra = harnessArgs(problem);
  extra.push_back("--judge");
  const SandboxResult run =
      runPackage({root, std::move(extra), interpreterView(options.python), witness, {}}, options, cuda, uid, secret);
  std::string why;
  if (!run.started)
    judgement.failure = "the judge could not be started: " + run.startError;
  else if (!parseJudgement(run.answer, secret, judgement, why))
    judgement.failure = describeExit(run) + (why.empty() ? "" : ": " + why) +
                        (run.stderrTail.empty() ? "" : "; stderr ends: " + run.stderrTail.substr(
                                                                             run.stderrTail.size() > 300
                                                                                 ? run.stderrTail.size() - 300
                                                                                 : 0));
  for (const std::string &n : judgement.notes)
    if (std::find(report.notes.begin(), report.notes.end(), n) == report.notes.end())
      report.notes.push_back("judge: " + n);
  report.notes.push_back("judge: " + std::to_string(run.elapsed.count() / 1000) + " s");
  applyJudgement(report, judgement);
  detail::removeTree(root);
}

} // namespace

std::span<const EmbeddedFile> probePackage() { return embeddedProbe(); }

RuntimeReport runProbes(const fs::path &solution, const problems::ProblemContext &problem,
                        const ProbeOptions &options) {
  RuntimeReport report;
  std::error_code ec;
  const fs::path solutionFile = fs::is_directory(solution, ec) ? solution / "solution.py" : solution;
  if (!fs::is_regular_file(solutionFile, ec)) {
    report.reason = "no solution file at " + solutionFile.string();
    return report;
  }
  if (!problem.reference.found) {
    report.reason = "the problem has no reference.py to compare against";
    return report;
  }
  if (!fs::exists(options.python, ec)) {
    report.reason = "no Python interpreter at " + options.python.string();
    return report;
  }
  const fs::path root = privateFolder();
  if (root.empty()) {
    report.reason = "cannot create a private directory";
    return report;
  }
  const lifetime::GuardedDir guardRoot(root);
  // Root's, readable by the child's uid (Python lists a folder before importing from it); what
  // is in it is read-only to the child.
  ::chmod(root.c_str(), 0755);
  const fs::path runDir = root / "run", problemDir = root / "problem";
  // Sidecars live next to a solution.py; a `<run>_solution.py` in a flat folder has none.
  if (solutionFile.filename() == "solution.py")
    detail::copyTree(solutionFile.parent_path(), runDir);
  fs::create_directories(runDir, ec);
  fs::copy_file(solutionFile, runDir / "solution.py", fs::copy_options::overwrite_existing, ec);
  detail::copyProblem(problem, problemDir);
  fs::create_directories(root / "tmp", ec);
  detail::writePackage(root);
  const auto gradersBefore = detail::hashFiles(problemDir);

  std::optional<UidLease> lease;
  unsigned uid = 0;
  // The unprivileged uid must be able to reach the interpreter's environment (a .venv inside a
  // checkout under a 0700 directory is not): otherwise the probe runs as root and says so.
  const std::string unreachable = ::geteuid() == 0 ? detail::firstClosedAncestor(options.python) : "";
  if (!unreachable.empty())
    report.isolation.push_back("uid not changed: " + unreachable + " is not searchable by other users, so an "
                               "unprivileged uid could not run " + options.python.string());
  if (::geteuid() == 0 && unreachable.empty()) {
    lease.emplace();
    if (!lease->uid()) {
      report.reason = std::string("no free uid in 61000-64999 to run the probe as (each running probe holds one, "
                                  "locked in ") + UidLease::kLockDir + ", which must be a root-owned 0700 directory)";
      detail::removeTree(root);
      return report;
    }
    uid = lease->uid();
    // Only the scratch folder is the child's: the copies stay root's, read-only to it.
    detail::chownTree(root / "tmp", uid);
  }
  const bool cuda = options.device == "cuda" || (options.device == "auto" && cudaPresent());
  const int witness = witnessFile(root);
  if (witness < 0)
    report.notes.push_back(std::string("no witness file (") + std::strerror(errno) +
                           "): no probe result can be verified, so none clears a finding");
  // A solution that may build CUDA C++ gets the CPU runner's precompiled headers (made now, once).
  fs::path cudaHome;
  if (!cuda && buildsExtensions(solutionFile)) {
    std::string note;
    cudaHome = detail::cudaCpuHome(options.python, interpreterView(options.python), note);
    if (!note.empty())
      report.notes.push_back(note);
  }
  const std::string secret = nonce();
  std::vector<std::string> extra = harnessArgs(problem);
  extra.insert(extra.end(), {"--run", runDir.string()});
  const SandboxResult run =
      runPackage({root, std::move(extra), interpreterView(options.python), witness, cudaHome}, options, cuda, uid, secret);
  report.isolation.insert(report.isolation.end(), run.isolation.begin(), run.isolation.end());
  report.seconds = static_cast<double>(run.elapsed.count()) / 1000.0;
  std::string why;
  if (!run.started) {
    report.reason = "the probe could not be started: " + run.startError;
  } else if (parseAnswer(run.answer, secret, report, why)) {
    // parseAnswer set the outcome: ran, or aborted / unavailable when loading failed. What the
    // worker claims is checked against itself, then against what the judge makes of its witness.
    for (const std::string &problemWithClaims : inconsistentClaims(report))
      report.events.push_back({"tampering", "tampering suspected: " + problemWithClaims, "high"});
    if (report.ran() && witness >= 0)
      judge(report, witness, problem, options, cuda, uid);
  } else {
    report.outcome = "aborted";
    report.reason = describeExit(run) + (run.answer.empty() ? "" : "; its answer was rejected: " + why);
    if (!run.stderrTail.empty())
      report.reason += "; stderr ends: " + run.stderrTail.substr(run.stderrTail.size() > 400 ? run.stderrTail.size() - 400 : 0);
    // Something was written on the answer pipe that is not this run's answer, by a process that
    // was not killed mid-write: only code in the worker's process could have written it.
    if (!run.answer.empty() && !run.timedOut && run.signal == 0)
      report.events.push_back({"tampering", "tampering suspected: the answer pipe held a forged or malformed answer (" +
                                                why + ")",
                               "high"});
  }
  if (witness >= 0)
    ::close(witness);
  // Grader files the solution changed in its private copy (where the copy was writable to it).
  const auto gradersAfter = detail::hashFiles(problemDir);
  for (const auto &[name, hash] : gradersBefore) {
    const auto it = gradersAfter.find(name);
    if (it == gradersAfter.end())
      report.events.push_back({"grader-changed", name + " was deleted"});
    else if (it->second != hash)
      report.events.push_back({"grader-changed", name + " was modified"});
  }
  for (const auto &[name, hash] : gradersAfter)
    if (!gradersBefore.count(name))
      report.events.push_back({"grader-changed", name + " was created in the problem directory"});
  detail::removeTree(root);
  attributeProbes(report);
  return report;
}

} // namespace kbaudit::runtime
