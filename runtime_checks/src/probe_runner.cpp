// Prepares the private copy a probe runs in, starts the kbaudit_probe package in the sandbox, and turns its
// answer (or its absence) into a RuntimeReport.

#include "embedded_probe.h"
#include "kbaudit/runtime/probe.h"
#include "kbaudit/runtime/lifetime.h"

#include <llvm/Support/SHA256.h>
#include <llvm/Support/raw_ostream.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstring>
#include <cstdlib>
#include <fcntl.h>
#include <set>
#include <sys/file.h>
#include <sys/stat.h>
#include <fstream>
#include <random>
#include <sstream>
#include <unistd.h>

namespace kbaudit::runtime {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kMaxCopiedFile = 16u << 20;
constexpr const char *kAnswerTag = "KBAUDIT-ANSWER ";

std::string readAll(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string sha256(const std::string &bytes) {
  llvm::SHA256 h;
  h.update(llvm::StringRef(bytes));
  std::string out;
  for (uint8_t b : h.final())
    out += "0123456789abcdef"[b >> 4], out += "0123456789abcdef"[b & 15];
  return out;
}

/// Regular files of `from` (not following links, to depth 2, each below 16 MiB) into `to`.
void copyTree(const fs::path &from, const fs::path &to, unsigned depth = 0) {
  std::error_code ec;
  fs::create_directories(to, ec);
  for (fs::directory_iterator it(from, ec), end; it != end && !ec; it.increment(ec)) {
    const fs::file_status st = it->symlink_status(ec);
    if (fs::is_regular_file(st) && it->file_size(ec) <= kMaxCopiedFile)
      fs::copy_file(it->path(), to / it->path().filename(), fs::copy_options::overwrite_existing, ec);
    else if (fs::is_directory(st) && depth < 2 && it->path().filename().string().front() != '.')
      copyTree(it->path(), to / it->path().filename(), depth + 1);
  }
}

std::map<std::string, std::string> hashFiles(const fs::path &dir) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec))
    if (it->is_regular_file(ec))
      out[it->path().filename().string()] = sha256(readAll(it->path()));
  return out;
}

void chownTree(const fs::path &root, unsigned uid) {
  std::error_code ec;
  (void)!::lchown(root.c_str(), uid, uid);
  for (fs::recursive_directory_iterator it(root, ec), end; it != end && !ec; it.increment(ec))
    (void)!::lchown(it->path().c_str(), uid, uid);
}

/// Removes the private copy, even where the solution left directories without write or search
/// permission for their owner (which stops a non-root kbaudit's remove_all).
void removeTree(const fs::path &root) {
  std::error_code ec;
  if (fs::remove_all(root, ec) != static_cast<std::uintmax_t>(-1) && !fs::exists(root, ec))
    return;
  ::chmod(root.c_str(), 0700);
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
       it != end && !ec; it.increment(ec))
    if (it->is_directory(ec) && !it->is_symlink(ec))
      ::chmod(it->path().c_str(), 0700);
  fs::remove_all(root, ec);
}

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

/// A uid of its own for one probe, held for the probe's lifetime: the end-of-run sweep kills
/// every process of that uid, so two probes running at once (threads of one `audit`, or two
/// kbaudit processes on one machine) must never share one. Each uid in [61000, 65000) is
/// claimed with an exclusive lock on /tmp/kbaudit-uid-locks/<uid> (released when the process
/// ends, whatever happens), and a uid that still owns processes is passed over.
class UidLease {
public:
  static constexpr const char *kLockDir = "/tmp/kbaudit-uid-locks";

  UidLease() {
    static std::atomic<unsigned> counter{0};
    // Our own directory, not someone's symlink or folder: root-owned, 0700.
    ::mkdir(kLockDir, 0700);
    struct stat dir {};
    if (::lstat(kLockDir, &dir) != 0 || !S_ISDIR(dir.st_mode) || dir.st_uid != ::geteuid() || (dir.st_mode & 077))
      return;
    const std::set<unsigned> busy = uidsWithProcesses();
    const unsigned start = (static_cast<unsigned>(::getpid()) * 131u + counter++) % kCount;
    for (unsigned i = 0; i < kCount; ++i) {
      const unsigned candidate = kFirst + (start + i) % kCount;
      if (busy.count(candidate))
        continue;
      const std::string path = std::string(kLockDir) + "/" + std::to_string(candidate);
      const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
      if (fd < 0)
        continue;
      if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
        fd_ = fd;
        uid_ = candidate;
        return;
      }
      ::close(fd);
    }
  }
  ~UidLease() {
    if (fd_ >= 0)
      ::close(fd_);
  }
  UidLease(const UidLease &) = delete;
  UidLease &operator=(const UidLease &) = delete;
  unsigned uid() const { return uid_; } ///< 0 when none could be claimed

private:
  static constexpr unsigned kFirst = 61000, kCount = 4000;
  static std::set<unsigned> uidsWithProcesses() {
    std::set<unsigned> out;
    std::error_code ec;
    for (fs::directory_iterator it("/proc", ec), end; it != end && !ec; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      struct stat st {};
      if (!name.empty() && std::isdigit(static_cast<unsigned char>(name[0])) && ::stat(it->path().c_str(), &st) == 0 &&
          st.st_uid >= kFirst && st.st_uid < kFirst + kCount)
        out.insert(st.st_uid);
    }
    return out;
  }
  int fd_ = -1;
  unsigned uid_ = 0;
};

/// The first directory above `path` (lexically: a venv's bin/python is a symlink, and its
/// site-packages lie beside it) that other users cannot search, or "" when there is none.
std::string firstClosedAncestor(const fs::path &path) {
  const fs::path absolute = fs::absolute(path).lexically_normal();
  for (fs::path dir = absolute.parent_path(); !dir.empty(); dir = dir.parent_path()) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) == 0 && !(st.st_mode & S_IXOTH))
      return dir.string();
    if (dir == dir.root_path())
      break;
  }
  return "";
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

} // namespace

bool parseAnswer(const std::string &framed, const std::string &expectedNonce, RuntimeReport &out,
                 std::string &why) {
  RuntimeReport report = out; // filled in here, handed back only when the whole answer is sound
  if (expectedNonce.empty()) {
    why = "no nonce to check the answer against";
    return false;
  }
  if (framed.rfind(kAnswerTag, 0) != 0) {
    why = framed.empty() ? "no answer on the private pipe" : "the answer pipe held something other than an answer";
    return false;
  }
  const std::size_t eol = framed.find('\n');
  std::istringstream header(framed.substr(0, eol));
  std::string tag, gotNonce;
  std::size_t length = 0;
  header >> tag >> gotNonce >> length;
  if (eol == std::string::npos || gotNonce != expectedNonce) {
    why = "the answer does not carry this run's nonce (forged)";
    return false;
  }
  if (framed.size() - eol - 1 != length) {
    why = "the answer's length does not match its frame (a second or truncated answer)";
    return false;
  }
  try {
    const YAML::Node root = YAML::Load(framed.substr(eol + 1));
    if (root["nonce"].as<std::string>("") != expectedNonce) {
      why = "the answer's body does not carry this run's nonce (forged)";
      return false;
    }
    report.device = root["device"].as<std::string>("");
    report.torchVersion = root["torch"].as<std::string>("");
    if (const YAML::Node seeds = root["seeds"]; seeds && seeds.IsSequence())
      for (const auto &s : seeds)
        report.seeds.push_back(s.as<int>(0));
    report.outcome = "ran";
    if (const YAML::Node err = root["setup_error"]; err && err.IsScalar()) {
      // The solution failing to import, build or run on CUDA is its failure (aborted); a
      // reference or a torch that cannot run here, or a solution whose forward fails on a CPU
      // (written for a GPU), means the probe is unavailable on this machine.
      const std::string stage = root["setup_stage"].as<std::string>("");
      report.outcome = stage == "solution" ? "aborted" : "unavailable";
      // A calling convention the probes do not run (pygpubench's kernel(output, *inputs)) is
      // neither side's fault: unavailable, saying which.
      report.reason = (stage == "solution"             ? "the solution could not be loaded or run: "
                       : stage == "solution-on-device" ? "the solution does not run on this device: "
                       : stage == "convention"         ? "the runtime probes do not support this calling convention: "
                       : stage == "torch"              ? ""
                                                       : "the reference does not run on this device: ") +
                      err.as<std::string>();
    }
    if (const YAML::Node probes = root["probes"]; probes && probes.IsSequence())
      for (const auto &p : probes) {
        ProbeOutcome o;
        o.name = p["name"].as<std::string>("");
        o.status = p["status"].as<std::string>("");
        o.rule = p["rule"].as<std::string>("");
        o.reason = p["reason"].as<std::string>("");
        if (const YAML::Node nums = p["numbers"]; nums && nums.IsMap())
          for (const auto &kv : nums)
            o.numbers[kv.first.as<std::string>()] = kv.second.as<double>(0.0);
        report.probes.push_back(std::move(o));
      }
    if (const YAML::Node notes = root["notes"]; notes && notes.IsSequence())
      for (const auto &n : notes)
        report.notes.push_back(n.as<std::string>(""));
    if (const YAML::Node events = root["events"]; events && events.IsSequence())
      for (const auto &e : events)
        report.events.push_back(
            {e["kind"].as<std::string>(""), e["detail"].as<std::string>(""), e["confidence"].as<std::string>("")});
  } catch (const YAML::Exception &e) {
    why = std::string("the answer is not valid JSON: ") + e.what();
    return false;
  }
  out = std::move(report);
  return true;
}

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

  // The owner's pid in the name lets the next start remove a copy this process could not
  // (lifetime::removeStaleDirs); while it runs, a termination signal removes it.
  const std::optional<fs::path> made = lifetime::makeOwnedDir(kProbeDirPrefix);
  if (!made) {
    report.reason = "cannot create a private directory";
    return report;
  }
  const fs::path root = *made;
  const lifetime::GuardedDir guardRoot(root);
  const fs::path runDir = root / "run", problemDir = root / "problem";
  // Sidecars live next to a solution.py; a `<run>_solution.py` in a flat folder has none.
  if (solutionFile.filename() == "solution.py")
    copyTree(solutionFile.parent_path(), runDir);
  fs::create_directories(runDir, ec);
  fs::copy_file(solutionFile, runDir / "solution.py", fs::copy_options::overwrite_existing, ec);
  // A KernelBench / v3 module problem is one file among its level's others: the probe reads it
  // as the problem's reference.py, and nothing else of that folder belongs to this problem.
  if (problem.reference.path.filename() != "reference.py" && fs::is_regular_file(problem.reference.path, ec)) {
    fs::create_directories(problemDir, ec);
    fs::copy_file(problem.reference.path, problemDir / "reference.py", fs::copy_options::overwrite_existing, ec);
  } else {
    copyTree(problem.dir, problemDir, 2);
  }
  fs::create_directories(root / "tmp", ec);
  for (const EmbeddedFile &f : probePackage()) {
    fs::create_directories((root / f.path).parent_path(), ec);
    std::ofstream(root / f.path, std::ios::binary) << f.content;
  }
  const auto gradersBefore = hashFiles(problemDir);

  SandboxRequest req;
  const std::string secret = nonce();
  req.stdinData = secret + "\n";
  req.workdir = root;
  std::optional<UidLease> lease;
  // The unprivileged uid must be able to reach the interpreter's environment (a .venv inside a
  // checkout under a 0700 directory is not): otherwise the probe runs as root and says so.
  const std::string unreachable = ::geteuid() == 0 ? firstClosedAncestor(options.python) : "";
  if (!unreachable.empty())
    report.isolation.push_back("uid not changed: " + unreachable + " is not searchable by other users, so an "
                               "unprivileged uid could not run " + options.python.string());
  if (::geteuid() == 0 && unreachable.empty()) {
    lease.emplace();
    if (!lease->uid()) {
      report.reason = std::string("no free uid in 61000-64999 to run the probe as (each running probe holds one, "
                                  "locked in ") + UidLease::kLockDir + ", which must be a root-owned 0700 directory)";
      fs::remove_all(root, ec);
      return report;
    }
    req.uid = lease->uid();
    chownTree(root, req.uid);
  }
  req.limits = options.limits;
  const bool cuda = options.device == "cuda" || (options.device == "auto" && cudaPresent());
  if (cuda)
    req.limits.addressSpaceBytes = 0; // the CUDA driver reserves far more address space than it uses
  std::string seeds;
  for (int s : options.seeds)
    seeds += (seeds.empty() ? "" : ",") + std::to_string(s);
  // The probe stops starting probes before the sandbox's limit, so it answers with what ran.
  const auto wallSeconds = std::chrono::duration_cast<std::chrono::seconds>(req.limits.wall).count();
  const long long budget = std::max<long long>(1, wallSeconds - std::max<long long>(5, wallSeconds / 6));
  req.argv = {options.python.string(), "-I", "-B", (root / "kbaudit_probe" / "__main__.py").string(), "--run",
              runDir.string(), "--problem", problemDir.string(), "--device", options.device, "--seeds", seeds,
              "--answer-fd", std::to_string(req.answerFd), "--budget", std::to_string(budget)};
  req.env = {{"PATH", "/usr/bin:/bin"},          {"HOME", root.string()},
             {"TMPDIR", (root / "tmp").string()}, {"LANG", "C.UTF-8"},
             // getpass.getuser() (Triton's and torch's cache paths) asks these before the
             // password database, which has no entry for the probe's unprivileged uid.
             {"USER", "kbaudit-probe"},          {"LOGNAME", "kbaudit-probe"},
             {"OMP_NUM_THREADS", "1"},            {"MKL_NUM_THREADS", "1"},
             {"PYTHONHASHSEED", "0"},             {"TRITON_CACHE_DIR", (root / "tmp" / "triton").string()},
             {"TORCH_EXTENSIONS_DIR", (root / "tmp" / "torch_extensions").string()}};
  // Without CUDA, Triton kernels run under Triton's interpreter (kbaudit_probe/cpu_mapping.py).
  if (!cuda)
    req.env["TRITON_INTERPRET"] = "1";
  if (const char *v = std::getenv("CUDA_VISIBLE_DEVICES"))
    req.env["CUDA_VISIBLE_DEVICES"] = v;

  const SandboxResult run = runSandboxed(req);
  report.isolation.insert(report.isolation.end(), run.isolation.begin(), run.isolation.end());
  report.seconds = static_cast<double>(run.elapsed.count()) / 1000.0;
  std::string why;
  if (!run.started) {
    report.reason = "the probe could not be started: " + run.startError;
  } else if (parseAnswer(run.answer, secret, report, why)) {
    // parseAnswer set the outcome: ran, or aborted / unavailable when loading failed.
  } else {
    report.outcome = "aborted";
    report.reason = describeExit(run) + (run.answer.empty() ? "" : "; its answer was rejected: " + why);
    if (!run.stderrTail.empty())
      report.reason += "; stderr ends: " + run.stderrTail.substr(run.stderrTail.size() > 400 ? run.stderrTail.size() - 400 : 0);
  }
  // Grader files the solution changed in its private copy.
  const auto gradersAfter = hashFiles(problemDir);
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
  removeTree(root);
  return report;
}

} // namespace kbaudit::runtime
